// SPDX-License-Identifier: GPL-2.0-or-later
/* A device's HID++ questions written from a thread of their own. */
#include "hidpp_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hidpp.h"

struct hidpp_writer {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int fd;			/* a blocking duplicate of the node */
	uint8_t question[HIDPP_LONG_LEN];
	size_t len;
	bool pending;		/* a question waits for the thread */
	bool writing;		/* the thread is in write() */
	bool stop;
	int error;		/* the last write's -errno, told once */
	int refs;		/* the daemon's and the thread's */
};

static void writer_put(struct hidpp_writer *w)
{
	bool last;

	pthread_mutex_lock(&w->lock);
	last = --w->refs == 0;
	pthread_mutex_unlock(&w->lock);
	if (!last)
		return;
	close(w->fd);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

static int write_errno(int e)
{
	return e == ENODEV || e == EIO || e == ESHUTDOWN ? -ENODEV : -e;
}

static void *writer_main(void *arg)
{
	struct hidpp_writer *w = arg;
	uint8_t q[HIDPP_LONG_LEN];
	size_t len;
	ssize_t n;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->pending && !w->stop)
			pthread_cond_wait(&w->wake, &w->lock);
		if (w->stop)
			break;
		len = w->len;
		memcpy(q, w->question, len);
		w->pending = false;
		w->writing = true;
		pthread_mutex_unlock(&w->lock);

		do
			n = write(w->fd, q, len);
		while (n < 0 && errno == EINTR);

		pthread_mutex_lock(&w->lock);
		w->writing = false;
		if (n < 0)
			w->error = write_errno(errno);
		else if ((size_t)n != len)
			w->error = -EIO;
	}
	pthread_mutex_unlock(&w->lock);
	writer_put(w);
	return NULL;
}

int hidpp_writer_start(int fd, struct hidpp_writer **writer)
{
	struct hidpp_writer *w = calloc(1, sizeof(*w));
	pthread_attr_t attr;
	pthread_t thread;
	int r;

	if (!w)
		return -ENOMEM;
	/* The duplicate shares the open file and its O_NONBLOCK, which a
	 * hidraw write does not look at: the thread may wait anyway. */
	w->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (w->fd < 0) {
		r = -errno;
		free(w);
		return r;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	w->refs = 2;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	r = -pthread_create(&thread, &attr, writer_main, w);
	pthread_attr_destroy(&attr);
	if (r < 0) {
		w->refs = 1;
		writer_put(w);
		return r;
	}
	*writer = w;
	return 0;
}

int hidpp_writer_send(struct hidpp_writer *w, const uint8_t *q, size_t len)
{
	int r = 0;

	if (len > sizeof(w->question))
		return -EINVAL;
	pthread_mutex_lock(&w->lock);
	if (w->error) {
		r = w->error;
		w->error = 0;
	} else if (w->pending) {
		/* One waits while one is written: the device may answer the
		 * question being written before write() returns. */
		r = -EBUSY;
	} else {
		memcpy(w->question, q, len);
		w->len = len;
		w->pending = true;
		pthread_cond_signal(&w->wake);
	}
	pthread_mutex_unlock(&w->lock);
	return r;
}

void hidpp_writer_stop(struct hidpp_writer *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	writer_put(w);
}
