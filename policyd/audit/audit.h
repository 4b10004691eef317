/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit log: one JSON object per line, appended to a file that is
 * reopened on SIGHUP (logrotate), plus one concise line per denial to syslog
 * (or stderr in the foreground). Each record also goes to the outlets that
 * are on (the journal, Linux audit: audit_outlets.h); the file is the
 * complete record.
 *
 * A decision repeated (every field alike but the time) is written once;
 * the repeats that follow are told in one record with their count when a
 * different record comes, AUDIT_COALESCE_MS after the first repeat, or
 * when the log is reopened or closed (audit_repeat.h). The file's size is
 * bounded (audit_bound.h).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "audit_bound.h"
#include "audit_format.h"
#include "audit_outlets.h"
#include "audit_repeat.h"
#include "hid/devices.h"
#include "hid_firewall.h"

#define AUDIT_LOG_DEFAULT "/var/log/hid-policy/audit.jsonl"
#define AUDIT_SUMMARY_BURST 20
#define AUDIT_SUMMARY_INTERVAL_MS 10000
/* How long repeats of a decision are counted before they are told. */
#define AUDIT_COALESCE_MS 1000

struct audit_log {
	char *path;
	int fd;
	bool foreground;	/* summaries to stderr instead of syslog */
	uint64_t written;	/* lines written */
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
	unsigned int coalesce_ms;	/* 0: every decision its own line */
	struct audit_repeat repeat;
	struct audit_bound bound;	/* bound.max_size: set after audit_log_open() */
	/* The clocks at the batch's first record (audit_flush() ends a
	 * batch): CLOCK_BOOTTIME and CLOCK_REALTIME in ns, CLOCK_MONOTONIC
	 * in ms */
	bool clocks_read;
	uint64_t boot_ns, real_ns, mono_ms;
	char buf[64 * 1024];
};

/* What the daemon knows about a record beyond the record itself. */
struct audit_context {
	const struct hid_dev_info *device;	/* NULL when unknown */
	const char *rule_name;			/* NULL for the default */
	const char *ruleset_name;
};

int audit_log_open(struct audit_log *a, const char *path, bool foreground);
/* Reopen the file (after rotation). Keeps the old file on failure. What
 * the size bound counted is written to the new file. */
int audit_reopen(struct audit_log *a);
/* Tell the repeats and the counts, write what is buffered and close. */
void audit_log_close(struct audit_log *a);

/* Tell the repeats of a decision that have waited coalesce_ms (buffered).
 * Returns the milliseconds until that is due next, or -1 when nothing
 * waits. */
int audit_tick(struct audit_log *a);
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

