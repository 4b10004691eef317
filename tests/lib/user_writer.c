// SPDX-License-Identifier: GPL-2.0-or-later
/* Another user's writes to hidraw nodes; see user_writer.h. */
#include "user_writer.h"

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MESSAGE_MAX 64

/* One message with one file descriptor. */
static int send_with_fd(int sock, const void *data, size_t len, int fd)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

static ssize_t recv_with_fd(int sock, void *data, size_t len, int *fd)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = data, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	struct cmsghdr *c;
	ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);

	*fd = -1;
	if (n <= 0)
		return n;
	c = CMSG_FIRSTHDR(&msg);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	return n;
}

static void serve(int sock)
{
	uint8_t m[MESSAGE_MAX];
	int fd, err;
	ssize_t n;

	while ((n = recv_with_fd(sock, m, sizeof(m), &fd)) > 0) {
		ssize_t w = fd < 0 ? -1 : write(fd, m, (size_t)n);

		err = w == n ? 0 : w < 0 ? (fd < 0 ? EBADF : errno) : EIO;
		if (fd >= 0)
			close(fd);
		if (send(sock, &err, sizeof(err), MSG_NOSIGNAL) != sizeof(err))
			break;
	}
}

int user_writer_start(struct user_writer *w, uid_t uid, gid_t gid)
{
	int sv[2];

	w->pid = -1;
	w->sock = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	w->pid = fork();
	if (w->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -errno;
	}
	if (w->pid == 0) {
		close(sv[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setgroups(0, NULL) || setgid(gid) || setuid(uid))
			_exit(100);
		serve(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	w->sock = sv[0];
	return 0;
}

int user_writer_write(struct user_writer *w, int fd, const void *data, size_t len)
{
	int err, r;

	if (w->sock < 0 || len > MESSAGE_MAX)
		return -EINVAL;
	r = send_with_fd(w->sock, data, len, fd);
	if (r < 0)
		return r;
	if (recv(w->sock, &err, sizeof(err), 0) != sizeof(err))
		return -EPIPE;
	return err;
}

void user_writer_stop(struct user_writer *w)
{
	if (w->sock >= 0)
		close(w->sock);
	if (w->pid > 0)
		waitpid(w->pid, NULL, 0);
	w->sock = -1;
	w->pid = -1;
}
