/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy and the audit log, read and opened at start and again on
 * reload (SIGHUP, "hid-policyctl reload").
 */
#pragma once

#include <jansson.h>

#include "service.h"

/* Load the policy from the configured directories into *RET, saying every
 * problem (also appended to MESSAGES, strings, when not NULL). Returns 0
 * or a negative errno. */
int daemon_load_policy(struct daemon *d, struct policy **ret, json_t *messages);

/* What this kernel's firewall cannot enforce of P (enforce/kernel_support.h):
 * senders it cannot tell, and input rules where its input path is not safe
 * (unless --allow-unsafe-input-rules, then a warning); each is said and
 * appended to MESSAGES. Returns 0 or -EOPNOTSUPP. */
int daemon_check_kernel(struct daemon *d, const struct policy *p, json_t *messages);

/* Reopen the audit log (logrotate), read the policy again and apply it to
 * every device; problems are appended to MESSAGES (strings; may be NULL).
 * Returns 0 or a negative errno (rules unchanged). */
int daemon_reload(struct daemon *d, json_t *messages);
