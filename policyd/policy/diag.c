// SPDX-License-Identifier: GPL-2.0-or-later
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void diag_done(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->entries[i].text);
	free(d->entries);
	*d = (struct diag){};
}

static void diag_store(struct diag *d, enum diag_severity sev, char *text)
{
	if (sev == DIAG_ERROR)
		d->n_errors++;
	else
		d->n_warnings++;
	if (!text || GROW(d->entries, d->n, d->cap) < 0) {
		free(text);
		d->oom = true;
		return;
	}
	d->entries[d->n++] = (struct diag_entry){ .severity = sev, .text = text };
}

void diag_add(struct diag *d, enum diag_severity sev, const char *file,
	      const char *path, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	char *text = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		msg = NULL;

	if (msg)
		r = asprintf(&text, "%s%s%s%s%s%s", file ?: "", file && *file ? ": " : "",
			     path ?: "", path && *path ? ": " : "",
			     sev == DIAG_WARNING ? "warning: " : "", msg);
	if (!msg || r < 0)
		text = NULL;
	diag_store(d, sev, text);
}

void diag_syntax(struct diag *d, const char *file, int line, int column,
		 const char *text)
{
	char *s;

	if (asprintf(&s, "%s:%d:%d: %s", file, line, column, text) < 0)
		s = NULL;
	diag_store(d, DIAG_ERROR, s);
}

void diag_print(const struct diag *d, FILE *f)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(f, "%s\n", d->entries[i].text);
	if (d->oom)
		fprintf(f, "(some messages were lost: out of memory)\n");
}

bool diag_contains(const struct diag *d, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->entries[i].text, needle))
			return true;
	return false;
}
