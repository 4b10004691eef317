// SPDX-License-Identifier: GPL-2.0-or-later
#include "ctl_client.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/ctl_protocol.h"
#include "common/util.h"

#define PKTTYAGENT "/usr/bin/pkttyagent"
/* pkttyagent registers with polkitd over D-Bus before it signals: on an
 * idle machine in milliseconds, but 5 s were not enough on a test guest
 * sharing two cores with four others, and the request then failed with no
 * agent to ask. Its own D-Bus calls give up after 25 s (GLib's default
 * timeout), so a longer wait only ever waits for an agent still on its
 * way; a registered or failed agent ends the wait at once. */
#define AGENT_READY_TIMEOUT_MS 25000

int ctl_connect(struct ctl_conn *c, const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	*c = (struct ctl_conn){ .fd = -1 };
	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	strcpy(addr.sun_path, path);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	if (connect(c->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int r = -errno;

		ctl_close(c);
		return r;
	}
	return 0;
}

void ctl_close(struct ctl_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	*c = (struct ctl_conn){ .fd = -1 };
}

int ctl_send(struct ctl_conn *c, json_t *request)
{
	_cleanup_free_ char *text = json_dumps(request, JSON_COMPACT);
	size_t len, off = 0;

	if (!text)
		return -ENOMEM;
	len = strlen(text);
	text[len++] = '\n';	/* replaces the terminator: sent by length */
	while (off < len) {
		ssize_t n = send(c->fd, text + off, len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		off += (size_t)n;
	}
	return 0;
}

int ctl_receive(struct ctl_conn *c, json_t **ret)
{
	for (;;) {
		char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
		ssize_t n;

		if (nl) {
			size_t line = (size_t)(nl - c->buf);
			json_t *o = json_loadb(c->buf, line, 0, NULL);

			memmove(c->buf, nl + 1, c->len - line - 1);
			c->len -= line + 1;
			if (!json_is_object(o)) {
				json_decref(o);
				return -EBADMSG;
			}
			*ret = o;
			return 0;
		}
		if (c->len >= CTL_REPLY_LINE_MAX)
			return -E2BIG;
		if (c->cap - c->len < 65536) {
			size_t cap = c->cap ? c->cap * 2 : 65536;
			char *p;

			if (cap > CTL_REPLY_LINE_MAX)
				cap = CTL_REPLY_LINE_MAX;
			if (cap <= c->len)
				return -E2BIG;
			p = realloc(c->buf, cap);
			if (!p)
				return -ENOMEM;
			c->buf = p;
			c->cap = cap;
		}
		n = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		c->len += (size_t)n;
	}
}

pid_t ctl_agent_start(void)
{
	int pipefd[2];
	pid_t parent = getpid(), pid;
	char notify[16], process[16];

	if (!isatty(STDIN_FILENO) || access(PKTTYAGENT, X_OK) < 0)
		return 0;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return 0;
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return 0;
	}
	if (pid == 0) {
		/* The agent writes to (and closes) the notify fd once it is
		 * registered: keep it open across exec. */
		int fd = dup(pipefd[1]);

		if (fd < 0)
			_exit(127);
		snprintf(notify, sizeof(notify), "%d", fd);
		snprintf(process, sizeof(process), "%d", (int)parent);
		/* Registered for this process alone, not as a session's
		 * fallback: polkit passes fallback agents over for a subject
		 * outside a login session (ssh without logind, containers),
		 * and whoever typed the command is at this terminal. */
		execl(PKTTYAGENT, PKTTYAGENT, "--notify-fd", notify, "--process", process,
		      (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	{
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		char c;

		/* Readable (EOF) when the agent is registered or gone. */
		if (poll(&p, 1, AGENT_READY_TIMEOUT_MS) == 1)
			(void)!read(pipefd[0], &c, 1);
	}
	close(pipefd[0]);
	return pid;
}

void ctl_agent_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

const char *ctl_resolve_device(const char *arg, char *buf, size_t size)
{
	const char *name = arg;
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	if (!strncmp(name, "/dev/", 5))
		name += 5;
	if (strncmp(name, "hidraw", 6) || !name[6] || strspn(name + 6, "0123456789") != strlen(name + 6))
		return arg;
	snprintf(link, sizeof(link), "/sys/class/hidraw/%s/device", name);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	snprintf(buf, size, "%s", basename(target));
	return buf;
}
