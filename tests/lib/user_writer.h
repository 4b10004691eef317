/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process of another user that writes to hidraw nodes the test opened:
 * what a user's program sends, judged by the firewall as that user's (the
 * sender is the process that writes). The test keeps the nodes open as
 * root and hands each one over with the message (SCM_RIGHTS), so nodes
 * that appear later (a paired device's) need no permission change.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

struct user_writer {
	pid_t pid;
	int sock;
};

/* Fork the writer, running as UID and GID with no supplementary groups.
 * 0 or -errno. */
int user_writer_start(struct user_writer *w, uid_t uid, gid_t gid);
/* The writer write(2)s DATA (LEN bytes, at most 64) to FD: 0, the errno
 * it saw, or EIO for a short write; -errno when it cannot be asked. */
int user_writer_write(struct user_writer *w, int fd, const void *data, size_t len);
/* End the writer. Idempotent. */
void user_writer_stop(struct user_writer *w);
