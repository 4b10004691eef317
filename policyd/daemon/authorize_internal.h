/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between authorize.c (verdict queue, root-only rule) and
 * authorize_polkit.c (the polkit worker thread). Nothing else includes it.
 */
#pragma once

#include <stddef.h>

#include "authorize.h"

struct polkit_backend;

/* Queue a verdict and wake authorizer_fd(). Any thread; takes the queue
 * lock. Returns 0 or a negative errno. */
int authorizer_push(struct authorizer *a, uint64_t cookie, enum authz_verdict verdict,
		    const char *message);

/* The verdict of the root-only rule, used while polkit is unreachable:
 * uid 0 allowed, everyone else denied, saying so. WHY names what is
 * unreachable. */
void authorizer_fallback_verdict(const struct peer_cred *peer, const char *action_id,
				 const char *why, enum authz_verdict *ret_verdict, char *msg,
				 size_t msg_size);

/* The polkit worker saw polkit become reachable (WHY NULL) or unreachable
 * (WHY says how): remembered for authorizer_uses_polkit(), changes are
 * logged once. */
void authorizer_note_polkit(struct authorizer *a, const char *why);

/* What ACTION_ID lets a client do, for messages ("reload the rule sets"). */
const char *authorizer_action_purpose(const char *action_id);

/*
 * Start the worker thread and ask it to reach polkit on the system bus.
 * Returns 0 with *ret set and polkit reachable; -EHOSTUNREACH with *ret set
 * and WHY filled when the worker runs but polkit did not answer (it tries
 * again at the next non-root check); another negative errno and *ret NULL
 * when the worker could not be started.
 */
int polkit_backend_start(struct authorizer *a, struct polkit_backend **ret, char *why,
			 size_t why_size);
/* Hand a check to the worker. Returns 0 or -ENOMEM. */
int polkit_backend_submit(struct polkit_backend *b, uint64_t cookie, const struct peer_cred *peer,
			  const char *action_id, bool interactive);
/* Cancel every pending check with COOKIE: once this returns, the worker
 * pushes no verdict for it. */
void polkit_backend_cancel(struct polkit_backend *b, uint64_t cookie);
/* Cancel everything pending, stop the worker and wait for it. */
void polkit_backend_free(struct polkit_backend *b);
