/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The journal outlet: each audit record also becomes one systemd journal
 * entry with native fields (HID_POLICY_*), a fixed MESSAGE_ID per kind of
 * event and a readable MESSAGE, so that "journalctl MESSAGE_ID=...
 * HID_POLICY_ACTION=deny" finds refusals. The catalog
 * (policyd/data/hid-policy.catalog) explains each MESSAGE_ID. The JSON
 * audit log stays the complete record: the journal may drop entries
 * (its own rate limit, or ours below).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <jansson.h>

#include "audit_format.h"
#include "hid_firewall.h"

/* One MESSAGE_ID per kind of event (the JSON record's "event"). */
#define AUDIT_JOURNAL_ID_DECISION		"e57c57e8dd994f3c8bc7b44fef8b4185"
#define AUDIT_JOURNAL_ID_EXCEPTION_GRANTED	"eaa42d7dc562452eb0e252809749aba6"
#define AUDIT_JOURNAL_ID_EXCEPTION_ENDED	"167db14f7aab4076af8ab672e47e62cb"
#define AUDIT_JOURNAL_ID_FIREWALL_DETACHED	"57a570fd27974e0bbd629065cd29ae4c"
#define AUDIT_JOURNAL_ID_RECORDS_DROPPED	"91f3fa40b284440c8a983ba974b022d8"
#define AUDIT_JOURNAL_ID_SUPPRESSED		"57f89e1c09f642349bcd1bd1b94dd662"
#define AUDIT_JOURNAL_ID_OVER_BUDGET		"d06a92b3cc5941a98b5a962119b94dac"
#define AUDIT_JOURNAL_ID_LOG_FULL		"649a591a5e0c49f6b30f55808dbae42a"

/* At most this many decision entries per interval go to the journal; the
 * rest are counted and told in one entry when the next interval starts.
 * Sending blocks when journald falls behind, and while the daemon waits the
 * firewall's ring buffer fills: the limit keeps a flood of refusals from
 * costing records of the JSON log. journald's own default limit per
 * service is 10000 in 30 s. */
#define AUDIT_JOURNAL_BURST		1000
#define AUDIT_JOURNAL_INTERVAL_MS	10000

#define AUDIT_JOURNAL_FIELDS_MAX	40

/* An entry being built: each field one "NAME=value" iovec it owns. */
struct journal_entry {
	struct iovec fields[AUDIT_JOURNAL_FIELDS_MAX];
	size_t n;
	int error;		/* -ENOMEM or -E2BIG once adding failed */
};

void journal_entry_done(struct journal_entry *e);
/* The value of field NAME in E, or NULL (tests). */
const char *journal_entry_get(const struct journal_entry *e, const char *name);

/* Build the entry of a firewall decision. PROC is what audit_format_record()
 * found about the process; SPAN, when not NULL, the repeats the entry
 * stands for (HID_POLICY_COUNT, _FIRST, _LAST). Returns 0 or -errno. */
struct audit_context;
int audit_journal_decision(struct journal_entry *e, const struct hid_fw_record *rec,
			   const struct audit_context *ctx, const struct audit_subject *proc,
			   const struct audit_span *span);
/* Build the entry of another audit record (grants and ends of temporary
 * allows, detached firewalls, dropped records, records over a device's
 * budget, a full log and what it did not take): its JSON object. Returns 0,
 * -ENOENT for an event the journal does not carry, or -errno. */
int audit_journal_event(struct journal_entry *e, json_t *record);
/* The entry telling that N decisions were not sent (rate limit). */
int audit_journal_suppressed(struct journal_entry *e, uint64_t n);

/* Send E to journald. Returns 0 or -errno. */
int audit_journal_send(const struct journal_entry *e);

/* Is the journal the place for the daemon's records by default: does it
 * run as a systemd service ($INVOCATION_ID) on a system booted with
 * systemd? */
bool audit_journal_default(void);
