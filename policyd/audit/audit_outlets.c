// SPDX-License-Identifier: GPL-2.0-or-later
/* The journal and Linux audit outlets of the audit log; see audit_outlets.h. */
#include "audit_outlets.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "audit_journal.h"
#include "audit_linux.h"
#include "hid_rules.h"

static uint64_t monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000ULL + (uint64_t)ts.tv_nsec / 1000000ULL;
}

bool audit_rate_take(struct audit_rate *r, uint64_t now_ms, uint64_t *ended)
{
	*ended = 0;
	if (r->window_ms == 0 || now_ms - r->window_ms >= r->interval_ms) {
		*ended = r->held;
		r->window_ms = now_ms ? now_ms : 1;
		r->in_window = 0;
		r->held = 0;
	}
	if (r->in_window >= r->burst) {
		r->held++;
		return false;
	}
	r->in_window++;
	return true;
}

int audit_outlets_open(struct audit_outlets *o, bool journal, bool linux_audit)
{
	*o = (struct audit_outlets){
		.journal = journal,
		.linux_fd = -1,
		.journal_rate = { .burst = AUDIT_JOURNAL_BURST, .interval_ms = AUDIT_JOURNAL_INTERVAL_MS },
		.linux_rate = { .burst = AUDIT_LINUX_BURST, .interval_ms = AUDIT_LINUX_INTERVAL_MS },
	};
	if (linux_audit) {
		int fd = audit_linux_open();

		if (fd < 0) {
			o->journal = false;
			return fd;
		}
		o->linux_fd = fd;
	}
	return 0;
}

void audit_outlets_close(struct audit_outlets *o)
{
	audit_linux_close(o->linux_fd);
	o->linux_fd = -1;
	o->journal = false;
}

static void count(struct audit_outlet_counts *c, int r)
{
	if (r < 0) {
		c->failed++;
		c->last_error = r;
	} else {
		c->sent++;
	}
}

static void journal_send(struct audit_outlets *o, struct journal_entry *e, int built)
{
	count(&o->journal_counts, built < 0 ? built : audit_journal_send(e));
	journal_entry_done(e);
}

/* May a decision go to the journal now? Tells what the rate limit held. */
static bool journal_take(struct audit_outlets *o)
{
	struct journal_entry e;
	uint64_t held;
	bool ok = audit_rate_take(&o->journal_rate, monotonic_ms(), &held);

	if (held)
		journal_send(o, &e, audit_journal_suppressed(&e, held));
	if (!ok)
		o->journal_counts.held++;
	return ok;
}

static void linux_send(struct audit_outlets *o, const char *message, int built, bool success)
{
	count(&o->linux_counts, built < 0 ? built : audit_linux_send(o->linux_fd, message, success));
}

void audit_outlets_record(struct audit_outlets *o, const struct hid_fw_record *rec,
			  const struct audit_context *ctx, const struct audit_subject *proc,
			  const struct audit_span *span)
{
	if (o->journal && journal_take(o)) {
		struct journal_entry e;

		journal_send(o, &e, audit_journal_decision(&e, rec, ctx, proc, span));
	}
	if (o->linux_fd >= 0 && rec->action == HID_RULE_DENY && (rec->flags & HID_FW_REC_ENFORCED)) {
		char message[AUDIT_LINUX_MESSAGE_MAX];
		uint64_t held;

		if (!audit_rate_take(&o->linux_rate, monotonic_ms(), &held)) {
			o->linux_counts.held++;
			return;
		}
		linux_send(o, message,
			   audit_linux_decision(message, sizeof(message), rec, ctx, proc, span), false);
	}
}

void audit_outlets_json(struct audit_outlets *o, json_t *record)
{
	if (o->journal) {
		struct journal_entry e;
		int r = audit_journal_event(&e, record);

		if (r != -ENOENT)
			journal_send(o, &e, r);
		else
			journal_entry_done(&e);
	}
	if (o->linux_fd >= 0) {
		char message[AUDIT_LINUX_MESSAGE_MAX];
		bool success = false;
		int r = audit_linux_event(message, sizeof(message), record, &success);

		if (r != -ENOENT)
			linux_send(o, message, r, success);
	}
}
