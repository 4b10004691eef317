/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the args of the control socket's explain and allow say, as
 * hid-policyctl sends them: read and checked, for the commands that run
 * them (commands.c). Each returns 0, or -EINVAL with a message for the
 * client in ERR that names the arg. Plain data: no daemon state, no I/O.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <jansson.h>

#include "policy/policy.h"

/* Put a message for the client in ERR; return R. The control commands'
 * one way of saying what is wrong with a request. */
int command_failf(char *err, size_t errsize, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "request" and "report": one request kind; REQUIRED false (allow) takes
 * none for every request but input, and get_report or set_report without
 * a report type for all three types. */
int command_args_kinds(json_t *args, bool required, uint8_t *kinds, char *err, size_t errsize);

/* "id": a report ID, or -1 when not given. */
int command_args_report_id(json_t *args, int *id, char *err, size_t errsize);

/*
 * explain's "usage", "uniq", "phys", "interface" and "descriptor_sha256":
 * what the device says of itself, replaced in PDEV, to ask what the rules
 * would decide for another device; what they do not give stays the
 * device's own. Usages go to USAGES (room for POLICY_USAGE_LIST_MAX), the
 * hash to HASH.
 */
int command_args_device(json_t *args, struct policy_device *pdev, uint32_t *usages,
			uint8_t hash[POLICY_SHA256_BYTES], char *err, size_t errsize);

/* allow's "duration_s": how long it lasts (CTL_ALLOW_DEFAULT_S when not
 * given). */
int command_args_duration(json_t *args, uint64_t *duration_s, char *err, size_t errsize);

/*
 * allow's "user" (one uid), "group" (1 to HID_SENDER_MAX_IDS gids: a
 * member of any of them, as a rule's list) and "pid" (the process
 * hid-policyctl read the user and executable from, kept for the record in
 * *FOR_PID), added to S.
 */
int command_args_allow_ids(json_t *args, struct hid_rule_sender *s, pid_t *for_pid, char *err,
			   size_t errsize);

/* A uid or gid in V; false when it is none. */
/* explain's "hidpp_feature": what the device answered HID++ getFeature,
 * "DEVICE_INDEX:FEATURE=INDEX" each, into T, which then replaces what
 * PDEV told the daemon (a device index not listed has not answered).
 * Returns 0 (nothing when absent) or -EINVAL with ERR set. */
int command_args_hidpp(json_t *args, struct policy_device *pdev, struct hidpp_features *t,
		       char *err, size_t errsize);
/* A "user" or (GROUP) "group" entry: an id. Names were replaced by ids
 * before (name_lookup.h, off the event loop). Returns 0, or -EINVAL with
 * ERR set. */
int command_args_id(json_t *v, bool group, uint32_t *ret, char *err, size_t errsize);
