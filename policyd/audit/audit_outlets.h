/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where audit records go besides the JSON log: the systemd journal
 * (audit_journal.h) and the Linux audit subsystem (audit_linux.h). Each is
 * switched on or off on its own; each is rate-limited, and what it drops
 * is counted (the JSON log keeps every record).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "audit_format.h"
#include "hid_firewall.h"

struct audit_context;

/* At most BURST sends per INTERVAL_MS; the rest are counted. */
struct audit_rate {
	unsigned int burst, interval_ms;
	uint64_t window_ms;		/* CLOCK_MONOTONIC start of the interval, 0: none */
	unsigned int in_window;
	uint64_t held;			/* not sent in the current interval */
};

/*
 * May one more go out at NOW_MS? When a new interval starts, *ENDED gets
 * how many the last one held back (0 if none).
 */
bool audit_rate_take(struct audit_rate *r, uint64_t now_ms, uint64_t *ended);

struct audit_outlet_counts {
	uint64_t sent, failed, held;	/* held: over the rate limit */
	int last_error;			/* -errno of the last failure, 0 none */
};

struct audit_outlets {
	bool journal;
	int linux_fd;			/* -1: Linux audit off */
	struct audit_rate journal_rate, linux_rate;
	struct audit_outlet_counts journal_counts, linux_counts;
};

/* Switch the outlets on as asked: the Linux audit socket is opened here
 * (before the sandbox). Returns 0, or -errno when the socket cannot be
 * opened (the outlets are then off). */
int audit_outlets_open(struct audit_outlets *o, bool journal, bool linux_audit);
void audit_outlets_close(struct audit_outlets *o);

/* A decision, formatted into the JSON log with PROC (audit_line.process);
 * with SPAN, the record of that many repeats of it (NULL: one). */
void audit_outlets_record(struct audit_outlets *o, const struct hid_fw_record *rec,
			  const struct audit_context *ctx, const struct audit_subject *proc,
			  const struct audit_span *span);
/* Another record (a JSON object with "event"). */
void audit_outlets_json(struct audit_outlets *o, json_t *record);
