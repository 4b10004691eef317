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
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <jansson.h>

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

/*
 * What a request asks to have approved, in words: key and value pairs its
 * polkit check carries (polkit_details_insert), which the action's
 * message names ("$(device)") and polkit rules can read
 * (action.lookup("unit")). The values are UTF-8 without control
 * characters, as a terminal's agent may print them.
 */
#define AUTHZ_DETAILS_MAX	12
#define AUTHZ_DETAIL_KEY_SIZE	32
#define AUTHZ_DETAIL_VALUE_SIZE	640

struct authz_details {
	size_t n;
	struct {
		char key[AUTHZ_DETAIL_KEY_SIZE];
		char value[AUTHZ_DETAIL_VALUE_SIZE];
	} items[AUTHZ_DETAILS_MAX];
};

/*
 * The details of a request for COMMAND with ARGS (the control protocol's):
 * for allow, the device (DEVICE, the daemon's name for it, or NULL: the
 * "device" arg as given), the duration, the sender and the requests it
 * lets through, and each of them as given ("sysfs", "duration_s",
 * "unit", "uid", "gids", "executable", "pid"); for revoke, the device or
 * the allow's number, and a message of its own ("polkit.message": the
 * action's is an allow's). Other commands have none (D->n 0). Returns 0,
 * or -EINVAL with a message for the client in ERR when ARGS cannot be
 * told (the command would refuse them too).
 */
int authz_details_for(const char *command, json_t *args, const char *device,
		      struct authz_details *d, char *err, size_t errsize);

/* The value of KEY in D, or NULL. */
const char *authz_details_get(const struct authz_details *d, const char *key);

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
 * Ask whether PEER may perform ACTION_ID, with DETAILS (NULL: none) for
 * polkit to show and its rules to read. INTERACTIVE lets polkit ask the
 * peer's authentication agent. The verdict arrives later, with COOKIE.
 * Returns 0 or a negative errno (nothing was submitted).
 */
int authorizer_submit(struct authorizer *a, uint64_t cookie, const struct peer_cred *peer,
		      const char *action_id, const struct authz_details *details,
		      bool interactive);

/* Take one verdict. Returns 0, or -EAGAIN when none is waiting. */
int authorizer_take(struct authorizer *a, struct authz_result *ret);

/* The client went away: drop its pending check (its verdict never comes). */
void authorizer_cancel(struct authorizer *a, uint64_t cookie);
