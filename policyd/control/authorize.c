// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Control-socket authorization. This file holds the verdict queue, which
 * the root-only rule (authorize_rules.c) fills while polkit cannot answer;
 * polkit, when reachable, produces verdicts into the same queue from its
 * own thread (authorize_polkit.c, through the hooks given to it), hence
 * the lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "authorize_internal.h"
#include "common/util.h"

struct authorizer {
	int event_fd;
	pthread_mutex_t lock;		/* protects done, n_done, cap_done */
	struct authz_result *done;	/* verdicts not yet taken, FIFO */
	size_t n_done, cap_done;
	atomic_bool polkit;		/* did polkit answer at the last check? */
	struct polkit_backend *backend;	/* NULL: no worker, root-only for good */
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

/* Queue a verdict and wake authorizer_fd(). Any thread; takes the queue
 * lock. Returns 0 or a negative errno. */
static int push(struct authorizer *a, uint64_t cookie, enum authz_verdict verdict,
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

/* The polkit worker's hooks. */
static int polkit_verdict(void *userdata, uint64_t cookie, enum authz_verdict verdict,
			  const char *message)
{
	return push(userdata, cookie, verdict, message);
}

/* polkit became reachable (WHY NULL) or unreachable (WHY says how):
 * remembered for authorizer_uses_polkit(), changes are logged once. */
static void polkit_reachable(void *userdata, const char *why)
{
	struct authorizer *a = userdata;
	bool reachable = why == NULL;

	if (atomic_exchange(&a->polkit, reachable) == reachable)
		return;
	if (reachable)
		fprintf(stderr, "hid-policyd: polkit answers now: it authorizes the control socket\n");
	else
		fprintf(stderr, "hid-policyd: polkit is not available (%s): only root may use the "
			"control socket until it answers\n", why);
}

int authorizer_new(struct authorizer **ret)
{
	struct authorizer *a = calloc(1, sizeof(*a));
	struct polkit_backend_hooks hooks = {
		.verdict = polkit_verdict, .reachable = polkit_reachable, .userdata = a,
	};
	char why[192] = "";
	int r;

	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->lock, NULL);
	a->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (a->event_fd < 0) {
		r = -errno;
		authorizer_free(a);
		return r;
	}
	r = polkit_backend_start(&hooks, &a->backend, why, sizeof(why));
	if (r == 0) {
		atomic_store(&a->polkit, true);
	} else if (r == -EHOSTUNREACH) {
		fprintf(stderr, "hid-policyd: polkit is not available (%s): only root may use the "
			"control socket until it answers\n", why);
	} else {
		fprintf(stderr, "hid-policyd: polkit is not available (cannot start its worker "
			"thread: %s): only root may use the control socket\n", strerror(-r));
	}
	*ret = a;
	return 0;
}

void authorizer_free(struct authorizer *a)
{
	if (!a)
		return;
	/* The worker pushes verdicts into the queue: stop it first. */
	polkit_backend_free(a->backend);
	if (a->event_fd >= 0)
		close(a->event_fd);
	pthread_mutex_destroy(&a->lock);
	free(a->done);
	free(a);
}

bool authorizer_uses_polkit(const struct authorizer *a)
{
	return atomic_load(&a->polkit);
}

int authorizer_fd(const struct authorizer *a)
{
	return a->event_fd;
}

int authorizer_submit(struct authorizer *a, uint64_t cookie, const struct peer_cred *peer,
		      const char *action_id, const struct authz_details *details,
		      bool interactive)
{
	/* Root needs no round trip while polkit is away; everyone else gives
	 * the worker a chance to find that polkit answers again. */
	if (a->backend && (atomic_load(&a->polkit) || peer->uid != 0))
		return polkit_backend_submit(a->backend, cookie, peer, action_id, details,
					     interactive);

	char msg[sizeof(((struct authz_result *)NULL)->message)];
	enum authz_verdict verdict;

	authz_root_only(peer, action_id, a->backend ? "it did not answer" : "no worker thread",
			&verdict, msg, sizeof(msg));
	return push(a, cookie, verdict, msg);
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
	/* First the pending check, so that no verdict for it can be queued
	 * behind the purge below. */
	if (a->backend)
		polkit_backend_cancel(a->backend, cookie);
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
