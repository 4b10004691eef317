/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy and the audit log, read and opened at start and again on
 * reload (SIGHUP, "hid-policyctl reload").
 */
#pragma once

#include <jansson.h>

#include "service.h"

/* The policy at start: the configured one, or, when it is rejected (a file
 * with an error, rules this kernel cannot enforce), the last one that
 * loaded (saved_policy.h), said loudly. Every policy that is put in force
 * is kept for that. Returns 0 or a negative errno (no policy at all). */
int daemon_start_policy(struct daemon *d);

/* Reopen the audit log (logrotate), read the policy again and apply it to
 * every device; problems are appended to MESSAGES (strings; may be NULL).
 * Returns 0 or a negative errno (rules unchanged). */
int daemon_reload(struct daemon *d, json_t *messages);
