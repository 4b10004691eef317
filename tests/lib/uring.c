// SPDX-License-Identifier: GPL-2.0-or-later
/* io_uring by its system calls; see uring.h. */
#include "uring.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int sys_setup(unsigned int entries, struct io_uring_params *p)
{
	return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int sys_enter(int fd, unsigned int to_submit, unsigned int min_complete, unsigned int flags)
{
	return (int)syscall(__NR_io_uring_enter, fd, to_submit, min_complete, flags, NULL, 0);
}

static int sys_register(int fd, unsigned int op, const void *arg, unsigned int n)
{
	return (int)syscall(__NR_io_uring_register, fd, op, arg, n);
}

static unsigned int *sq_field(struct uring *u, unsigned int off)
{
	return (unsigned int *)((char *)u->sq_ring + off);
}

static unsigned int *cq_field(struct uring *u, unsigned int off)
{
	return (unsigned int *)((char *)u->cq_ring + off);
}

static int uring_map(struct uring *u, int fd, const struct io_uring_params *params)
{
	const struct io_uring_params *p = params;

	*u = (struct uring){ .fd = fd, .params = *params };
	u->sq_ring_size = p->sq_off.array + p->sq_entries * sizeof(unsigned int);
	u->cq_ring_size = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	u->sqes_size = p->sq_entries * sizeof(struct io_uring_sqe);
	u->sq_ring = mmap(NULL, u->sq_ring_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  fd, IORING_OFF_SQ_RING);
	u->cq_ring = mmap(NULL, u->cq_ring_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  fd, IORING_OFF_CQ_RING);
	u->sqes = mmap(NULL, u->sqes_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
		       IORING_OFF_SQES);
	if (u->sq_ring == MAP_FAILED || u->cq_ring == MAP_FAILED || u->sqes == MAP_FAILED) {
		int e = errno;

		uring_close(u);
		return -e;
	}
	return 0;
}

int uring_setup(struct uring *u, unsigned int entries, unsigned int flags)
{
	struct io_uring_params p = { .flags = flags };
	int fd = sys_setup(entries, &p);

	if (fd < 0)
		return -errno;
	return uring_map(u, fd, &p);
}

void uring_close(struct uring *u)
{
	if (u->sq_ring && u->sq_ring != MAP_FAILED)
		munmap(u->sq_ring, u->sq_ring_size);
	if (u->cq_ring && u->cq_ring != MAP_FAILED)
		munmap(u->cq_ring, u->cq_ring_size);
	if (u->sqes && u->sqes != MAP_FAILED)
		munmap(u->sqes, u->sqes_size);
	if (u->fd >= 0)
		close(u->fd);
	*u = (struct uring){ .fd = -1 };
}

int uring_run(struct uring *u, const struct io_uring_sqe *sqe)
{
	bool sqpoll = u->params.flags & IORING_SETUP_SQPOLL;
	unsigned int tail = __atomic_load_n(sq_field(u, u->params.sq_off.tail), __ATOMIC_ACQUIRE);
	unsigned int idx = tail & *sq_field(u, u->params.sq_off.ring_mask);
	unsigned int *cq_head = cq_field(u, u->params.cq_off.head);
	struct io_uring_cqe *cqes = (struct io_uring_cqe *)((char *)u->cq_ring + u->params.cq_off.cqes);
	unsigned int head;
	int res;

	u->sqes[idx] = *sqe;
	sq_field(u, u->params.sq_off.array)[idx] = idx;
	__atomic_store_n(sq_field(u, u->params.sq_off.tail), tail + 1, __ATOMIC_RELEASE);
	/* With SQPOLL the ring's own thread submits: wake it, should it
	 * sleep, and wait. Without, the first call submits; a call again
	 * (after a signal) finds nothing left to submit. */
	for (;;) {
		head = __atomic_load_n(cq_head, __ATOMIC_ACQUIRE);
		if (head != __atomic_load_n(cq_field(u, u->params.cq_off.tail), __ATOMIC_ACQUIRE))
			break;
		if (sys_enter(u->fd, sqpoll ? 0 : 1, 1,
			      IORING_ENTER_GETEVENTS | (sqpoll ? IORING_ENTER_SQ_WAKEUP : 0)) < 0 &&
		    errno != EINTR)
			return -errno;
	}
	res = cqes[head & *cq_field(u, u->params.cq_off.ring_mask)].res;
	__atomic_store_n(cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

int uring_register_personality(struct uring *u)
{
	int id = sys_register(u->fd, IORING_REGISTER_PERSONALITY, NULL, 0);

	return id < 0 ? -errno : id;
}

int uring_register_file(struct uring *u, int fd)
{
	return sys_register(u->fd, IORING_REGISTER_FILES, &fd, 1) < 0 ? -errno : 0;
}
