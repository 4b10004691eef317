// SPDX-License-Identifier: GPL-2.0-or-later
/* A device's feature-report questions asked from a thread of their own. */
#include "feature_exchange.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/hidraw.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* What the thread sends back for each question: one datagram. */
struct exchange_record {
	uint32_t seq;
	int32_t error;		/* 0 or -errno */
	uint8_t answer[FEATURE_EXCHANGE_LEN];
};

struct feature_exchange {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int fd;			/* a duplicate of the node */
	int answers[2];		/* [0] the event loop's end, [1] the thread's */
	feature_exchange_pending_fn pending_fn;
	uint8_t question[FEATURE_EXCHANGE_LEN];
	size_t len;
	uint32_t seq;		/* the last question's number */
	bool pending;		/* a question waits for the thread */
	bool asking;		/* the thread is in the ioctls */
	bool stop;
	int refs;		/* the event loop's and the thread's */
};

static void exchange_put(struct feature_exchange *ex)
{
	bool last;

	pthread_mutex_lock(&ex->lock);
	last = --ex->refs == 0;
	pthread_mutex_unlock(&ex->lock);
	if (!last)
		return;
	close(ex->fd);
	close(ex->answers[1]);
	pthread_cond_destroy(&ex->wake);
	pthread_mutex_destroy(&ex->lock);
	free(ex);
}

static int ioctl_errno(int e)
{
	return e == ENODEV || e == ESHUTDOWN ? -ENODEV : -e;
}

/* Ask Q and read its answer into R; 0 or -errno. */
static int ask(struct feature_exchange *ex, const uint8_t *q, size_t len, uint8_t *r)
{
	const struct timespec ms = { .tv_nsec = 1000000 };
	uint8_t buf[FEATURE_EXCHANGE_LEN];
	int n;

	memcpy(buf, q, len);
	do
		n = ioctl(ex->fd, HIDIOCSFEATURE(len), buf);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return ioctl_errno(errno);
	for (int i = 0; i < FEATURE_EXCHANGE_POLLS; i++) {
		memset(r, 0, FEATURE_EXCHANGE_LEN);
		r[0] = q[0];
		do
			n = ioctl(ex->fd, HIDIOCGFEATURE(len), r);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return ioctl_errno(errno);
		if (!ex->pending_fn || !ex->pending_fn(r, len))
			return 0;
		nanosleep(&ms, NULL);
	}
	return -EAGAIN;
}

static void *exchange_main(void *arg)
{
	struct feature_exchange *ex = arg;
	uint8_t q[FEATURE_EXCHANGE_LEN];
	struct exchange_record rec;
	size_t len;

	pthread_mutex_lock(&ex->lock);
	for (;;) {
		while (!ex->pending && !ex->stop)
			pthread_cond_wait(&ex->wake, &ex->lock);
		if (ex->stop)
			break;
		len = ex->len;
		memcpy(q, ex->question, len);
		rec = (struct exchange_record){ .seq = ex->seq };
		ex->pending = false;
		ex->asking = true;
		pthread_mutex_unlock(&ex->lock);

		rec.error = ask(ex, q, len, rec.answer);

		/* Done before the answer can be read: its reader hands the
		 * next question over at once. */
		pthread_mutex_lock(&ex->lock);
		ex->asking = false;
		pthread_mutex_unlock(&ex->lock);
		/* The event loop's end may be closed: then nobody reads. */
		(void)send(ex->answers[1], &rec, sizeof(rec), MSG_NOSIGNAL | MSG_DONTWAIT);
		pthread_mutex_lock(&ex->lock);
	}
	pthread_mutex_unlock(&ex->lock);
	exchange_put(ex);
	return NULL;
}

int feature_exchange_start(int fd, feature_exchange_pending_fn pending,
			   struct feature_exchange **out)
{
	struct feature_exchange *ex = calloc(1, sizeof(*ex));
	pthread_attr_t attr;
	pthread_t thread;
	int r;

	if (!ex)
		return -ENOMEM;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ex->answers) < 0) {
		r = -errno;
		free(ex);
		return r;
	}
	/* The event loop reads without waiting; the thread's end blocks. */
	if (fcntl(ex->answers[0], F_SETFL, O_NONBLOCK) < 0 ||
	    (ex->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0) {
		r = -errno;
		close(ex->answers[0]);
		close(ex->answers[1]);
		free(ex);
		return r;
	}
	ex->pending_fn = pending;
	pthread_mutex_init(&ex->lock, NULL);
	pthread_cond_init(&ex->wake, NULL);
	ex->refs = 2;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	r = -pthread_create(&thread, &attr, exchange_main, ex);
	pthread_attr_destroy(&attr);
	if (r < 0) {
		close(ex->answers[0]);
		ex->refs = 1;
		exchange_put(ex);
		return r;
	}
	*out = ex;
	return 0;
}

int feature_exchange_fd(const struct feature_exchange *ex)
{
	return ex->answers[0];
}

int feature_exchange_send(struct feature_exchange *ex, const uint8_t *q, size_t len,
			  uint32_t *seq)
{
	int r = 0;

	if (len < 1 || len > FEATURE_EXCHANGE_LEN)
		return -EINVAL;
	pthread_mutex_lock(&ex->lock);
	if (ex->pending || ex->asking) {
		r = -EBUSY;
	} else {
		memcpy(ex->question, q, len);
		ex->len = len;
		*seq = ++ex->seq;
		ex->pending = true;
		pthread_cond_signal(&ex->wake);
	}
	pthread_mutex_unlock(&ex->lock);
	return r;
}

int feature_exchange_receive(struct feature_exchange *ex, uint8_t *answer, size_t len,
			     uint32_t *seq)
{
	struct exchange_record rec;
	ssize_t n = recv(ex->answers[0], &rec, sizeof(rec), MSG_DONTWAIT);

	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	if ((size_t)n != sizeof(rec) || len > sizeof(rec.answer))
		return -EIO;
	*seq = rec.seq;
	if (rec.error < 0)
		return rec.error == -EAGAIN ? -ETIMEDOUT : rec.error;
	memcpy(answer, rec.answer, len);
	return 0;
}

void feature_exchange_stop(struct feature_exchange *ex)
{
	if (!ex)
		return;
	close(ex->answers[0]);
	pthread_mutex_lock(&ex->lock);
	ex->stop = true;
	pthread_cond_signal(&ex->wake);
	pthread_mutex_unlock(&ex->lock);
	exchange_put(ex);
}
