/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hid-policyctl report: the denials of the audit log counted per device,
 * per rule, per program and per user, with when each was first and last
 * seen. The records come from the daemon's log stream (the "log" command
 * with action "deny"); the counting is done here.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

struct report_row {
	char *key;		/* what the row counts: "usb:054c:0ce6", a rule, ... */
	char *label;		/* the device's name, the rule set; NULL none */
	long long uid;		/* users: the uid, -1 unknown */
	uint64_t denials;	/* refusals, audit-mode ones included */
	uint64_t enforced;	/* of which enforced */
	char first[32], last[32];	/* audit-log times */
};

struct report_table {
	struct report_row *rows;
	size_t n, cap;
};

struct ctl_report {
	struct report_table devices, rules, programs, users;
	uint64_t denials, enforced;
	char first[32], last[32];
	int error;		/* -ENOMEM once adding failed */
};

void ctl_report_done(struct ctl_report *r);

/* Count REC if it is a denial (other records are ignored). */
void ctl_report_add(struct ctl_report *r, json_t *rec);

/* The report as JSON (new reference); SINCE is the --since time ("" none). */
json_t *ctl_report_json(const struct ctl_report *r, const char *since);

/* The report as tables, busiest rows first; times in local time unless UTC. */
void ctl_report_print(FILE *f, const struct ctl_report *r, const char *since, bool utc);
