/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit log: one JSON object per line, appended to a file that is
 * reopened on SIGHUP (logrotate), plus one concise line per denial to syslog
 * (or stderr in the foreground).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "devices.h"
#include "hid_firewall.h"

#define AUDIT_LOG_DEFAULT "/var/log/hid-policy/audit.jsonl"

struct audit_log {
	char *path;
	int fd;
	bool foreground;	/* summaries to stderr instead of syslog */
	uint64_t written;	/* records written */
	uint64_t failed;	/* records that could not be written */
	size_t buf_len;		/* lines waiting for audit_flush() */
	char buf[64 * 1024];
};

/* What the daemon knows about a record beyond the record itself. */
struct audit_context {
	const struct hid_dev_info *device;	/* NULL when unknown */
	const char *rule_name;			/* NULL for the default */
	const char *ruleset_name;
};

int audit_open(struct audit_log *a, const char *path, bool foreground);
/* Reopen the file (after rotation). Keeps the old file on failure. */
int audit_reopen(struct audit_log *a);
void audit_close(struct audit_log *a);

/* Write the buffered lines. Records are buffered by audit_write_record();
 * the daemon flushes after every batch it reads, so a record reaches the
 * file as soon as it was read. Returns 0 or -errno. */
int audit_flush(struct audit_log *a);

/* Append one firewall decision (buffered). Returns 0 or -errno. */
int audit_write_record(struct audit_log *a, const struct hid_fw_record *rec,
		       const struct audit_context *ctx);
/* Append any JSON object (grants, expiries, daemon events); adds "time". */
int audit_write_json(struct audit_log *a, json_t *obj);

/* The record as a JSON object (exposed for tests and the control socket). */
json_t *audit_record_json(const struct hid_fw_record *rec, const struct audit_context *ctx);
