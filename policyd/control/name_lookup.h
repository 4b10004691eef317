/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user and group names a control request carries ("user", "group"),
 * looked up off the event loop. A name service can take seconds to answer
 * (LDAP, sssd), and any local user may send names: looked up on the
 * event loop, one request could hold up every hotplug decision. One
 * worker thread, without capabilities, looks them up, the users who sent
 * them taking turns (one user's requests never wait behind all of
 * another's); the event loop hands it a request's names and takes the ids
 * back when name_lookup_fd() is readable.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <jansson.h>

/* Longer names no system has (LOGIN_NAME_MAX). */
#define NAME_LOOKUP_NAME_MAX 256

struct name_lookup;
struct name_job;

/* How a name becomes an id: 0, or -EINVAL with ERR saying why (no such
 * name, or the name service failed). */
typedef int (*name_lookup_fn)(const char *name, bool group, uint32_t *ret_id, char *err,
			      size_t errsize);

/* Start the worker. LOOKUP NULL: the system's name service (NSS), as
 * the policy's names are looked up. Returns 0 or a negative errno. */
int name_lookup_new(struct name_lookup **ret, name_lookup_fn lookup);
/* Stop the worker. One stuck in a lookup is left to finish and free
 * what it holds on its own: shutting down never waits on a name service. */
void name_lookup_free(struct name_lookup *nl);
/* Readable when looked-up requests wait in name_lookup_take(). */
int name_lookup_fd(const struct name_lookup *nl);

/*
 * Queue the names of ARGS (a request's "args"; may be NULL) for COOKIE,
 * a request of user UID (whose turn it takes):
 * "user" when it is a string, the strings of the "group" list when it has
 * at most GROUPS_MAX entries (the command's own bound: a longer list is
 * refused unread, so none of it is looked up). Returns 1 (queued), 0 (no
 * names: nothing to wait for), or -EINVAL (a name too long or empty; ERR
 * says which), -ENOMEM.
 */
int name_lookup_submit(struct name_lookup *nl, uint64_t cookie, uid_t uid, json_t *args,
		       size_t groups_max, char *err, size_t errsize);
/* Forget COOKIE's request: queued, it leaves the queue; being looked up,
 * the worker stops at its next name; looked up, its answer is dropped.
 * name_lookup_take() never returns it. */
void name_lookup_cancel(struct name_lookup *nl, uint64_t cookie);
/* The next looked-up request: 0 and *RET (free it with name_job_free()),
 * or -EAGAIN. */
int name_lookup_take(struct name_lookup *nl, struct name_job **ret);
uint64_t name_job_cookie(const struct name_job *job);
/* Put JOB's ids in place of the names in ARGS (the same request's args).
 * Returns 0, or -EINVAL with the first name that did not resolve in ERR. */
int name_job_apply(const struct name_job *job, json_t *args, char *err, size_t errsize);
void name_job_free(struct name_job *job);

/* The system's name service: the default LOOKUP. */
int name_lookup_nss(const char *name, bool group, uint32_t *ret_id, char *err, size_t errsize);
