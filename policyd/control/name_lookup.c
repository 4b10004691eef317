// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Name lookups for the control socket (name_lookup.h): a queue of jobs,
 * one per request, a worker thread that answers them one at a time, and
 * an eventfd that wakes the event loop when answers wait.
 */
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/types.h>
#include <unistd.h>

#include "command_args.h"
#include "common/ctl_protocol.h"
#include "common/util.h"
#include "name_lookup.h"
#include "worker_privileges.h"

/* The name service's answer for a group with many members can be long;
 * past this the lookup fails rather than grow without end. */
#define NSS_BUFFER_MAX (1024 * 1024)

/* Users whose last turn the worker remembers: more than can have a
 * request waiting at once (the control socket's clients). */
#define RECENT_USERS 64

struct name_query {
	bool group;
	int index;		/* in "group"; -1 for "user" */
	uint32_t id;
	char name[NAME_LOOKUP_NAME_MAX + 1];
};

struct name_job {
	uint64_t cookie;
	uid_t uid;		/* who sent the request */
	struct name_query *queries;
	size_t n;
	int result;		/* 0, or -EINVAL with err */
	char err[256];
	struct name_job *next;
};

struct name_lookup {
	name_lookup_fn lookup;
	int event_fd;
	pthread_t thread;
	pthread_mutex_t lock;	/* everything below */
	pthread_cond_t wake;
	pthread_cond_t started_cond;
	struct name_job *queue, **queue_tail;	/* to look up, FIFO */
	struct name_job *done, **done_tail;	/* looked up, FIFO */
	bool started;		/* the worker's privileges are dropped */
	bool busy;		/* the worker is inside a lookup */
	bool cancelled;		/* the job it is in was cancelled */
	uint64_t running_cookie;	/* that job's, while busy */
	bool stopping;
	bool orphaned;		/* stopped while busy: the worker frees all */
	int privileges;		/* the worker's worker_drop_privileges() */
	uint64_t turns;		/* jobs the worker has taken */
	struct {
		uid_t uid;
		uint64_t turn;	/* when its last job was taken; 0: free */
	} recent[RECENT_USERS];
};

void name_job_free(struct name_job *job)
{
	if (!job)
		return;
	free(job->queries);
	free(job);
}

static void jobs_free(struct name_job *job)
{
	while (job) {
		struct name_job *next = job->next;

		name_job_free(job);
		job = next;
	}
}

static void destroy(struct name_lookup *nl)
{
	jobs_free(nl->queue);
	jobs_free(nl->done);
	if (nl->event_fd >= 0)
		close(nl->event_fd);
	pthread_cond_destroy(&nl->wake);
	pthread_cond_destroy(&nl->started_cond);
	pthread_mutex_destroy(&nl->lock);
	free(nl);
}

int name_lookup_nss(const char *name, bool group, uint32_t *ret_id, char *err, size_t errsize)
{
	const char *what = group ? "group" : "user";
	size_t size = 16384;
	bool found = false;
	int r;

	for (;;) {
		_cleanup_free_ char *buf = malloc(size);

		if (!buf)
			return command_failf(err, errsize, -EINVAL, "cannot look up %s \"%.64s\": %s",
					     what, name, strerror(ENOMEM));
		if (group) {
			struct group gr, *g = NULL;

			r = getgrnam_r(name, &gr, buf, size, &g);
			if (g) {
				found = true;
				*ret_id = (uint32_t)gr.gr_gid;
			}
		} else {
			struct passwd pw, *u = NULL;

			r = getpwnam_r(name, &pw, buf, size, &u);
			if (u) {
				found = true;
				*ret_id = (uint32_t)pw.pw_uid;
			}
		}
		if (r != ERANGE || size >= NSS_BUFFER_MAX)
			break;
		size *= 2;
	}
	if (found)
		return 0;
	if (r)
		return command_failf(err, errsize, -EINVAL, "cannot look up %s \"%.64s\": %s", what,
				     name, strerror(r));
	return command_failf(err, errsize, -EINVAL, "no %s \"%.64s\" on this system", what, name);
}

static void run_job(struct name_lookup *nl, struct name_job *job)
{
	if (nl->privileges < 0) {
		job->result = command_failf(job->err, sizeof(job->err), -EINVAL,
					    "cannot look up names: the lookup thread cannot drop its capabilities: %s",
					    strerror(-nl->privileges));
		return;
	}
	for (size_t i = 0; i < job->n; i++) {
		struct name_query *q = &job->queries[i];

		/* Cancelled: the rest of a list of up to 1025 names is not
		 * worth a slow name service's time. */
		if (__atomic_load_n(&nl->cancelled, __ATOMIC_ACQUIRE))
			return;
		job->result = nl->lookup(q->name, q->group, &q->id, job->err, sizeof(job->err));
		if (job->result < 0)
			return;
	}
}

/* When UID's last job was taken, 0 if not lately. */
static uint64_t last_turn(const struct name_lookup *nl, uid_t uid)
{
	for (size_t i = 0; i < RECENT_USERS; i++)
		if (nl->recent[i].turn && nl->recent[i].uid == uid)
			return nl->recent[i].turn;
	return 0;
}

static void note_turn(struct name_lookup *nl, uid_t uid)
{
	size_t slot = 0;

	for (size_t i = 0; i < RECENT_USERS; i++) {
		if (nl->recent[i].turn && nl->recent[i].uid == uid) {
			slot = i;
			break;
		}
		if (nl->recent[i].turn < nl->recent[slot].turn)
			slot = i;
	}
	nl->recent[slot].uid = uid;
	nl->recent[slot].turn = ++nl->turns;
}

/*
 * The next job, out of the queue: the oldest of the user whose last turn
 * is longest ago. A slow name service holds the worker for each name, and
 * any local user may send names: taken in order, one user's queued
 * requests would hold every other user's (an admin's allow included) for
 * as long as all of them take. So users take turns, each user's requests
 * in order.
 */
static struct name_job *take_next(struct name_lookup *nl)
{
	struct name_job **best = &nl->queue, *job;
	uint64_t best_turn = last_turn(nl, nl->queue->uid);

	for (struct name_job **p = &nl->queue->next; *p && best_turn; p = &(*p)->next) {
		uint64_t turn = last_turn(nl, (*p)->uid);

		if (turn < best_turn) {
			best = p;
			best_turn = turn;
		}
	}
	job = *best;
	*best = job->next;
	if (!*best)
		nl->queue_tail = best;
	job->next = NULL;
	note_turn(nl, job->uid);
	return job;
}

static void *worker_main(void *userdata)
{
	struct name_lookup *nl = userdata;
	int privileges = worker_drop_privileges();

	pthread_mutex_lock(&nl->lock);
	nl->privileges = privileges;
	nl->started = true;
	pthread_cond_signal(&nl->started_cond);
	for (;;) {
		struct name_job *job;

		while (!nl->stopping && !nl->queue)
			pthread_cond_wait(&nl->wake, &nl->lock);
		if (nl->stopping)
			break;
		job = take_next(nl);
		nl->busy = true;
		nl->running_cookie = job->cookie;
		__atomic_store_n(&nl->cancelled, false, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&nl->lock);

		run_job(nl, job);

		pthread_mutex_lock(&nl->lock);
		nl->busy = false;
		if (nl->orphaned) {
			name_job_free(job);
			break;
		}
		if (nl->cancelled) {
			name_job_free(job);
			continue;
		}
		*nl->done_tail = job;
		nl->done_tail = &job->next;
		(void)eventfd_write(nl->event_fd, 1);
	}
	if (nl->orphaned) {
		pthread_mutex_unlock(&nl->lock);
		destroy(nl);
		return NULL;
	}
	pthread_mutex_unlock(&nl->lock);
	return NULL;
}

int name_lookup_new(struct name_lookup **ret, name_lookup_fn lookup)
{
	struct name_lookup *nl = calloc(1, sizeof(*nl));
	int r;

	if (!nl)
		return -ENOMEM;
	nl->lookup = lookup ?: name_lookup_nss;
	nl->queue_tail = &nl->queue;
	nl->done_tail = &nl->done;
	pthread_mutex_init(&nl->lock, NULL);
	pthread_cond_init(&nl->wake, NULL);
	pthread_cond_init(&nl->started_cond, NULL);
	nl->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (nl->event_fd < 0) {
		r = -errno;
		destroy(nl);
		return r;
	}
	r = -pthread_create(&nl->thread, NULL, worker_main, nl);
	if (r < 0) {
		destroy(nl);
		return r;
	}
	/* Its capabilities dropped before this returns: the daemon's seccomp
	 * filter, installed soon after, would kill it for trying later. */
	pthread_mutex_lock(&nl->lock);
	while (!nl->started)
		pthread_cond_wait(&nl->started_cond, &nl->lock);
	pthread_mutex_unlock(&nl->lock);
	*ret = nl;
	return 0;
}

void name_lookup_free(struct name_lookup *nl)
{
	bool busy;

	if (!nl)
		return;
	pthread_mutex_lock(&nl->lock);
	nl->stopping = true;
	busy = nl->busy;
	nl->orphaned = busy;
	pthread_cond_signal(&nl->wake);
	pthread_mutex_unlock(&nl->lock);
	if (busy) {
		pthread_detach(nl->thread);
		return;
	}
	pthread_join(nl->thread, NULL);
	destroy(nl);
}

int name_lookup_fd(const struct name_lookup *nl)
{
	return nl->event_fd;
}

/* V, a "user" value or an entry of "group", into Q when it is a name.
 * Returns 1 (a name), 0 (an id or another kind: command_args.c judges
 * it), or -EINVAL. */
static int query_from(json_t *v, bool group, int index, struct name_query *q, char *err,
		      size_t errsize)
{
	const char *name;
	size_t len;

	if (!json_is_string(v))
		return 0;
	name = json_string_value(v);
	len = strlen(name);
	if (len == 0 || len > NAME_LOOKUP_NAME_MAX || len != json_string_length(v))
		return command_failf(err, errsize, -EINVAL, "\"%s\" must be %s ids or names (at most %d bytes, no NUL)",
				     group ? "group" : "user", group ? "group" : "user",
				     NAME_LOOKUP_NAME_MAX);
	q->group = group;
	q->index = index;
	memcpy(q->name, name, len + 1);
	return 1;
}

int name_lookup_submit(struct name_lookup *nl, uint64_t cookie, uid_t uid, json_t *args,
		       size_t groups_max, char *err, size_t errsize)
{
	json_t *user = json_object_get(args, "user"), *group = json_object_get(args, "group");
	size_t n_group = json_is_array(group) ? json_array_size(group) : 0;
	struct name_job *job;
	int r;

	/* Longer lists are refused by command_args.c or commands.c, unread:
	 * not worth a name service's time. */
	if (n_group > groups_max || n_group > CTL_SUBJECT_GROUPS_MAX)
		n_group = 0;
	job = calloc(1, sizeof(*job));
	if (!job)
		return -ENOMEM;
	job->queries = calloc(1 + n_group, sizeof(*job->queries));
	if (!job->queries) {
		name_job_free(job);
		return -ENOMEM;
	}
	job->cookie = cookie;
	job->uid = uid;
	r = query_from(user, false, -1, &job->queries[job->n], err, errsize);
	job->n += r > 0;
	for (size_t i = 0; r >= 0 && i < n_group; i++) {
		r = query_from(json_array_get(group, i), true, (int)i, &job->queries[job->n], err,
			       errsize);
		job->n += r > 0;
	}
	if (r < 0 || job->n == 0) {
		name_job_free(job);
		return r < 0 ? r : 0;
	}
	pthread_mutex_lock(&nl->lock);
	*nl->queue_tail = job;
	nl->queue_tail = &job->next;
	pthread_cond_signal(&nl->wake);
	pthread_mutex_unlock(&nl->lock);
	return 1;
}

/* The first job of LIST with COOKIE, out of it (TAIL kept), or NULL. */
static struct name_job *unlink_cookie(struct name_job **list, struct name_job ***tail,
				      uint64_t cookie)
{
	for (struct name_job **p = list; *p; p = &(*p)->next) {
		struct name_job *job = *p;

		if (job->cookie != cookie)
			continue;
		*p = job->next;
		if (!*p)
			*tail = p;
		job->next = NULL;
		return job;
	}
	return NULL;
}

void name_lookup_cancel(struct name_lookup *nl, uint64_t cookie)
{
	pthread_mutex_lock(&nl->lock);
	name_job_free(unlink_cookie(&nl->queue, &nl->queue_tail, cookie));
	name_job_free(unlink_cookie(&nl->done, &nl->done_tail, cookie));
	if (nl->busy && nl->running_cookie == cookie)
		__atomic_store_n(&nl->cancelled, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&nl->lock);
}

int name_lookup_take(struct name_lookup *nl, struct name_job **ret)
{
	struct name_job *job;
	eventfd_t unused;

	pthread_mutex_lock(&nl->lock);
	job = nl->done;
	if (job) {
		nl->done = job->next;
		if (!nl->done)
			nl->done_tail = &nl->done;
		job->next = NULL;
	} else {
		/* Drained: clear the wake-up under the lock, so that an
		 * answer queued after this is signalled anew. */
		(void)eventfd_read(nl->event_fd, &unused);
	}
	pthread_mutex_unlock(&nl->lock);
	if (!job)
		return -EAGAIN;
	*ret = job;
	return 0;
}

uint64_t name_job_cookie(const struct name_job *job)
{
	return job->cookie;
}

int name_job_apply(const struct name_job *job, json_t *args, char *err, size_t errsize)
{
	json_t *group = json_object_get(args, "group");

	if (job->result < 0) {
		snprintf(err, errsize, "%s", job->err);
		return job->result;
	}
	for (size_t i = 0; i < job->n; i++) {
		const struct name_query *q = &job->queries[i];
		json_t *id = json_integer(q->id);
		int r = q->group ? json_array_set_new(group, (size_t)q->index, id)
				 : json_object_set_new(args, "user", id);

		if (r < 0)
			return command_failf(err, errsize, -EINVAL, "out of memory");
	}
	return 0;
}
