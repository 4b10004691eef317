/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between the files of control-socket authorization, which call only
 * downwards: authorize.c (the verdict queue) drives authorize_polkit.c (the
 * polkit worker thread), which hands its verdicts back through the hooks
 * it is given; both word their verdicts with authorize_rules.c. Nothing
 * else includes it.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "authorize.h"

/* authorize_rules.c */

/* What ACTION_ID lets a client do, for messages ("reload the rule sets"). */
const char *authz_action_purpose(const char *action_id);

/* The verdict of the root-only rule, used while polkit is unreachable:
 * uid 0 allowed, everyone else denied, saying so. WHY names what is
 * unreachable. */
void authz_root_only(const struct peer_cred *peer, const char *action_id, const char *why,
		     enum authz_verdict *ret_verdict, char *msg, size_t msg_size);

/* authorize_polkit.c */

struct polkit_backend;

/* How the worker reports, from its own thread. */
struct polkit_backend_hooks {
	/* The verdict of the check submitted with COOKIE. Returns 0 or a
	 * negative errno (the verdict is lost). */
	int (*verdict)(void *userdata, uint64_t cookie, enum authz_verdict verdict,
		       const char *message);
	/* At every check: polkit answered (WHY NULL) or did not (WHY says
	 * how). */
	void (*reachable)(void *userdata, const char *why);
	void *userdata;
};

/*
 * Start the worker thread and ask it to reach polkit on the system bus; it
 * reports through HOOKS until polkit_backend_free() returns.
 * Returns 0 with *ret set and polkit reachable; -EHOSTUNREACH with *ret set
 * and WHY filled when the worker runs but polkit did not answer (it tries
 * again at the next non-root check); another negative errno and *ret NULL
 * when the worker could not be started.
 */
int polkit_backend_start(const struct polkit_backend_hooks *hooks, struct polkit_backend **ret,
			 char *why, size_t why_size);
/* Hand a check to the worker, with DETAILS (NULL: none), copied. Returns
 * 0 or -ENOMEM. */
int polkit_backend_submit(struct polkit_backend *b, uint64_t cookie, const struct peer_cred *peer,
			  const char *action_id, const struct authz_details *details,
			  bool interactive);
/* Cancel every pending check with COOKIE: once this returns, the worker
 * reports no verdict for it. */
void polkit_backend_cancel(struct polkit_backend *b, uint64_t cookie);
/* Cancel everything pending, stop the worker and wait for it. */
void polkit_backend_free(struct polkit_backend *b);
