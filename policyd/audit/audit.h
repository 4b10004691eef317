/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit log: one JSON object per line, appended to a file that is
 * reopened on SIGHUP (logrotate), plus one concise line per denial to syslog
 * (or stderr in the foreground). Each record also goes to the outlets that
 * are on (the journal, Linux audit: audit_outlets.h); the file is the
 * complete record.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "audit_format.h"
#include "audit_outlets.h"
#include "hid/devices.h"
#include "hid_firewall.h"

#define AUDIT_LOG_DEFAULT "/var/log/hid-policy/audit.jsonl"
#define AUDIT_SUMMARY_BURST 20
#define AUDIT_SUMMARY_INTERVAL_MS 10000

struct audit_log {
	char *path;
	int fd;
	bool foreground;	/* summaries to stderr instead of syslog */
	uint64_t written;	/* records written */
	uint64_t failed;	/* records that could not be written */
	struct audit_line line;	/* the record being formatted */
	size_t buf_len;		/* lines waiting for audit_flush() */
	/* Denial summaries (syslog/stderr) are rate-limited: a program that
	 * hammers a refused request must not flood the system log. At most
	 * summary_burst lines per summary_interval_ms; the rest are counted
	 * and reported when the next interval starts. The audit log itself
	 * keeps every record. A burst of 0 turns summaries off. */
	unsigned int summary_burst;
	unsigned int summary_interval_ms;
	uint64_t summary_window_ms;	/* CLOCK_MONOTONIC start of the interval */
	unsigned int summaries_in_window;
	uint64_t summaries_suppressed;	/* in the current interval */
	struct audit_outlets outlets;	/* switched on by audit_outlets_open() */
	char buf[64 * 1024];
};

/* What the daemon knows about a record beyond the record itself. */
struct audit_context {
	const struct hid_dev_info *device;	/* NULL when unknown */
	const char *rule_name;			/* NULL for the default */
	const char *ruleset_name;
};

int audit_log_open(struct audit_log *a, const char *path, bool foreground);
/* Reopen the file (after rotation). Keeps the old file on failure. */
int audit_reopen(struct audit_log *a);
void audit_log_close(struct audit_log *a);
/* The audit log must be the daemon's and mode 0600 (a looser mode is
 * repaired, with a message). Returns 0 or a negative errno (said). */
int audit_log_secure(struct audit_log *a);

/* Write the buffered lines. Records are buffered by audit_write_record();
 * the daemon flushes after every batch it reads, so a record reaches the
 * file as soon as it was read. Returns 0 or -errno. */
int audit_flush(struct audit_log *a);

/* Append one firewall decision (buffered). Returns 0 or -errno. */
int audit_write_record(struct audit_log *a, const struct hid_fw_record *rec,
		       const struct audit_context *ctx);
/* Append any JSON object (grants, expiries, daemon events); adds "time". */
int audit_write_json(struct audit_log *a, json_t *obj);

