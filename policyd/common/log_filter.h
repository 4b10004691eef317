/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which audit records "hid-policyctl log" and "report" ask for. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/* How a filter names a device (the policy's and the sysfs forms; a hidraw
 * node is turned into its sysfs name by hid-policyctl). */
enum log_device_form {
	LOG_DEVICE_ANY,
	LOG_DEVICE_SYSFS,	/* 0003:054C:0CE6.0001 */
	LOG_DEVICE_HID_ID,	/* 1 */
	LOG_DEVICE_ID,		/* usb:054c:0ce6: every device of that model */
};

struct log_filter {
	char device[64];	/* as given; "" any */
	enum log_device_form form;
	char bus[16];		/* LOG_DEVICE_ID: bus name or 4 hex digits */
	char vendor[5], product[5];	/* LOG_DEVICE_ID: lowercase hex, 4 digits */
	char since[40];		/* audit-log time (ctl_format_time); "" any */
	char action[8];		/* "allow" or "deny"; "" any */
};

/*
 * What form of device DEVICE is, into F's device fields. Returns 0, or
 * -EINVAL when it is none of a sysfs name, a hid_id and BUS:VID:PID.
 */
int log_filter_set_device(struct log_filter *f, const char *device);

/*
 * Read the filter from a request's args ({"device":..., "since":...,
 * "action":...}; all optional). Returns 0, or -EINVAL with a message in ERR.
 */
int log_filter_from_args(json_t *args, struct log_filter *f, char *err, size_t errsize);

/*
 * Does audit record REC pass? device: its device.sysfs, device.hid_id or
 * device.bus:vendor:product; since: its time is not earlier; action: a
 * decision record with that action (other records, such as grants, never
 * match an action filter).
 */
bool log_filter_match(const struct log_filter *f, json_t *rec);
