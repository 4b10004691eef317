/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who may do what on the control socket. Every request names a polkit
 * action (HID_POLICY_ACTION_*: the control protocol's, shipped in
 * org.hid-policy.policy); the subject is the peer process as SO_PEERCRED
 * saw it.
 *
 * Checks are asynchronous: an interactive check may wait for a password
 * typed into an authentication agent, and the daemon must go on protecting
 * hotplugged devices and draining the audit ring meanwhile. Submit a check,
 * watch authorizer_fd() in the event loop, take the verdicts.
 *
 * Without a reachable polkit only uid 0 is allowed.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/ctl_protocol.h"	/* HID_POLICY_ACTION_* */

struct peer_cred {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	uint64_t start_time;	/* /proc/PID/stat field 22, clock ticks since boot */
};

enum authz_verdict {
	AUTHZ_ALLOWED,
	AUTHZ_DENIED,		/* polkit said no, or no polkit and uid != 0 */
	AUTHZ_CHALLENGE,	/* allowed after authentication, none was possible */
	AUTHZ_ERROR,		/* the check itself failed; message says why */
};

struct authz_result {
	uint64_t cookie;	/* as submitted */
	enum authz_verdict verdict;
	char message[256];	/* for the client: why, in one sentence */
};

struct authorizer;

/* Read the start time of PID from /proc. Returns 0 or a negative errno. */
int peer_cred_start_time(pid_t pid, uint64_t *ret);

/*
 * Set up checks: polkit if the system bus and polkit answer, otherwise the
 * root-only fallback (and say so on stderr). Returns 0 or a negative errno.
 */
int authorizer_new(struct authorizer **ret);
void authorizer_free(struct authorizer *a);

/* Whether verdicts come from polkit (false: the root-only fallback). */
bool authorizer_uses_polkit(const struct authorizer *a);

/* Readable (EPOLLIN) while verdicts wait to be taken. */
int authorizer_fd(const struct authorizer *a);

/*
 * Ask whether PEER may perform ACTION_ID. INTERACTIVE lets polkit ask the
 * peer's authentication agent. The verdict arrives later, with COOKIE.
 * Returns 0 or a negative errno (nothing was submitted).
 */
int authorizer_submit(struct authorizer *a, uint64_t cookie, const struct peer_cred *peer,
		      const char *action_id, bool interactive);

/* Take one verdict. Returns 0, or -EAGAIN when none is waiting. */
int authorizer_take(struct authorizer *a, struct authz_result *ret);

/* The client went away: drop its pending check (its verdict never comes). */
void authorizer_cancel(struct authorizer *a, uint64_t cookie);
