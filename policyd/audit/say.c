// SPDX-License-Identifier: GPL-2.0-or-later
/* The daemon's messages: to syslog, or to stderr in the foreground. */
#include "say.h"

#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "audit_format.h"

static bool to_stderr;

void say_to_stderr(bool on)
{
	to_stderr = on;
}

void say(int priority, const char *fmt, ...)
{
	char line[1024], plain[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* Device names come from the device and program names from the
	 * program: neither may put a control character (a newline, a
	 * terminal escape) into a log line. */
	audit_plain_text(plain, sizeof(plain), line, sizeof(line));
	if (to_stderr)
		fprintf(stderr, "hid-policyd: %s\n", plain);
	else
		syslog(priority, "%s", plain);
}
