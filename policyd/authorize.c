// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Control-socket authorization. This file holds the verdict queue and the
 * root-only fallback; polkit, when reachable, produces verdicts into the
 * same queue from its own thread, hence the lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "authorize.h"
#include "util.h"

struct authorizer {
	int event_fd;
	pthread_mutex_t lock;
	struct authz_result *done;	/* verdicts not yet taken, FIFO */
	size_t n_done, cap_done;
	bool polkit;
};

int peer_cred_start_time(pid_t pid, uint64_t *ret)
{
	char path[64], buf[1024];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';

	/* The command name may hold spaces and parentheses: fields are
	 * counted from the last ')'. starttime is field 22, the 20th after it. */
	char *p = strrchr(buf, ')');
	if (!p)
		return -EIO;
	for (int field = 2; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EIO;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p + 1, &end, 10);
	if (errno || end == p + 1)
		return -EIO;
	*ret = v;
	return 0;
}

static int queue_verdict(struct authorizer *a, uint64_t cookie, enum authz_verdict verdict,
			 const char *message)
{
	int r = 0;

	pthread_mutex_lock(&a->lock);
	if (GROW(a->done, a->n_done, a->cap_done) < 0) {
		r = -ENOMEM;
	} else {
		struct authz_result *res = &a->done[a->n_done++];

		res->cookie = cookie;
		res->verdict = verdict;
		snprintf(res->message, sizeof(res->message), "%s", message);
	}
	pthread_mutex_unlock(&a->lock);
	if (r == 0 && eventfd_write(a->event_fd, 1) < 0)
		r = -errno;
	return r;
}

int authorizer_new(struct authorizer **ret)
{
	struct authorizer *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->lock, NULL);
	a->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (a->event_fd < 0) {
		int r = -errno;

		authorizer_free(a);
		return r;
	}
	fprintf(stderr, "hid-policyd: polkit is not available: only root may use the control socket\n");
	*ret = a;
	return 0;
}

void authorizer_free(struct authorizer *a)
{
	if (!a)
		return;
	if (a->event_fd >= 0)
		close(a->event_fd);
	pthread_mutex_destroy(&a->lock);
	free(a->done);
	free(a);
}

bool authorizer_uses_polkit(const struct authorizer *a)
{
	return a->polkit;
}

int authorizer_fd(const struct authorizer *a)
{
	return a->event_fd;
}

int authorizer_submit(struct authorizer *a, uint64_t cookie, const struct peer_cred *peer,
		      const char *action_id, bool interactive)
{
	(void)interactive;
	if (peer->uid == 0)
		return queue_verdict(a, cookie, AUTHZ_ALLOWED, "root");

	char msg[256];

	snprintf(msg, sizeof(msg), "%s needs root: polkit is not available to authorize uid %u",
		 action_id, (unsigned int)peer->uid);
	return queue_verdict(a, cookie, AUTHZ_DENIED, msg);
}

int authorizer_take(struct authorizer *a, struct authz_result *ret)
{
	int r = -EAGAIN;
	eventfd_t unused;

	pthread_mutex_lock(&a->lock);
	if (a->n_done > 0) {
		*ret = a->done[0];
		memmove(a->done, a->done + 1, (a->n_done - 1) * sizeof(*a->done));
		a->n_done--;
		r = 0;
	}
	if (a->n_done == 0)
		(void)eventfd_read(a->event_fd, &unused);
	pthread_mutex_unlock(&a->lock);
	return r;
}

void authorizer_cancel(struct authorizer *a, uint64_t cookie)
{
	pthread_mutex_lock(&a->lock);
	for (size_t i = 0; i < a->n_done;) {
		if (a->done[i].cookie == cookie) {
			memmove(a->done + i, a->done + i + 1, (a->n_done - i - 1) * sizeof(*a->done));
			a->n_done--;
		} else {
			i++;
		}
	}
	pthread_mutex_unlock(&a->lock);
}
