// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sd_notify(3)'s protocol: one datagram of newline-separated assignments to
 * the AF_UNIX socket named in $NOTIFY_SOCKET (a path, or "@" for the
 * abstract namespace). Sent from the event loop, inside the sandbox:
 * socket, sendto and close are on its allow-list.
 */
#include "notify.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define NOTIFY_MESSAGE_MAX 512

int service_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	size_t len, state_len = strlen(state);
	ssize_t n;
	int fd, r = 0;

	if (!path || (path[0] != '/' && path[0] != '@'))
		return 0;
	len = strlen(path);
	if (len < 2 || len >= sizeof(addr.sun_path))
		return -EINVAL;
	memcpy(addr.sun_path, path, len);
	if (addr.sun_path[0] == '@')
		addr.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, state, state_len, MSG_NOSIGNAL, (struct sockaddr *)&addr,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len));
	if (n < 0)
		r = -errno;
	else if ((size_t)n != state_len)
		r = -EMSGSIZE;
	close(fd);
	return r;
}

int service_notifyf(const char *fmt, ...)
{
	char state[NOTIFY_MESSAGE_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(state, sizeof(state), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= sizeof(state))
		return -E2BIG;
	return service_notify(state);
}
