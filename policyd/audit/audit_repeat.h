/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Repeats of one decision, coalesced: a program that repeats a refused
 * request gets one line for the first refusal and, for the ones that
 * follow, one record with their count, first and last time. Repeats are
 * records alike in every field but the time: the formatted line from after
 * its time is the key, so that every field a record gains is part of it.
 * Data only, no I/O: audit.c writes what this holds.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "audit_format.h"
#include "hid/devices.h"
#include "hid_firewall.h"

struct audit_context;

struct audit_repeat {
	char *key;			/* the last decision written, after its time */
	size_t key_len, key_cap;
	bool have_key;
	struct audit_span span;		/* repeats since it was last told */
	uint64_t since_ms;		/* CLOCK_MONOTONIC of the first of them */
	/* The decision repeated, for the record that tells it: copied at
	 * the first repeat, since a reload frees the names the context
	 * points to, and a removal the device. */
	struct hid_fw_record rec;
	struct hid_dev_info device;
	bool have_device;
	char *rule_name, *ruleset_name;
	struct audit_subject subject;
	struct audit_line line;		/* the record that tells them */
};

/* Is KEY the last decision written? */
bool audit_repeat_same(const struct audit_repeat *r, const char *key, size_t len);
/* KEY is the last decision written now (no repeats may be untold).
 * Returns 0 or -ENOMEM (then nothing is known to repeat). */
int audit_repeat_set(struct audit_repeat *r, const char *key, size_t len);
/* One more repeat, at REALTIME_NS (NOW_MS on CLOCK_MONOTONIC). */
void audit_repeat_add(struct audit_repeat *r, const struct hid_fw_record *rec,
		      const struct audit_context *ctx, const struct audit_subject *subject,
		      uint64_t realtime_ns, uint64_t now_ms);
/* The context of the repeats (valid until audit_repeat_told()). */
void audit_repeat_context(const struct audit_repeat *r, struct audit_context *ctx);
/* The repeats are told (written or counted): start counting anew, the
 * key stays. */
void audit_repeat_told(struct audit_repeat *r);
void audit_repeat_free(struct audit_repeat *r);
