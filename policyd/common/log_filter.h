/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which audit records "hid-policyctl log" asks for. */
#pragma once

#include <stdbool.h>
#include <jansson.h>

struct log_filter {
	char device[64];	/* sysfs name or hid_id; "" any */
	char since[40];		/* audit-log time (ctl_format_time); "" any */
	char action[8];		/* "allow" or "deny"; "" any */
};

/*
 * Read the filter from a request's args ({"device":..., "since":...,
 * "action":...}; all optional). Returns 0, or -EINVAL with a message in ERR.
 */
int log_filter_from_args(json_t *args, struct log_filter *f, char *err, size_t errsize);

/*
 * Does audit record REC pass? device: its device.sysfs or device.hid_id;
 * since: its time is not earlier; action: a decision record with that
 * action (other records, such as grants, never match an action filter).
 */
bool log_filter_match(const struct log_filter *f, json_t *rec);
