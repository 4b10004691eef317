/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_uring through its raw system calls (liburing is not a test
 * dependency): a ring, one request at a time, and the registrations that
 * let one process lend another its identity or its thread (personalities,
 * SQPOLL). Every function returns 0 (or a value) or a negative errno and
 * never fails the test itself: senders call them in children that have
 * become another user.
 */
#pragma once

#include <stddef.h>
#include <linux/io_uring.h>

struct uring {
	int fd;
	struct io_uring_params params;
	void *sq_ring, *cq_ring;
	size_t sq_ring_size, cq_ring_size;
	struct io_uring_sqe *sqes;
	size_t sqes_size;
};

/* A ring of ENTRIES with IORING_SETUP_* FLAGS (IORING_SETUP_SQPOLL: a
 * kernel thread of this process submits). */
int uring_setup(struct uring *u, unsigned int entries, unsigned int flags);
void uring_close(struct uring *u);

/* Submit SQE and wait for its completion: the completion's result (what
 * the operation returned, or -errno), or -errno of io_uring_enter(2). */
int uring_run(struct uring *u, const struct io_uring_sqe *sqe);

/* The calling task's credentials as a personality of the ring: its id. */
int uring_register_personality(struct uring *u);
/* FD as the ring's fixed file 0 (IOSQE_FIXED_FILE). */
int uring_register_file(struct uring *u, int fd);
