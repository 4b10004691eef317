/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Temporary allows ("hid-policyctl allow"): exceptions for one device,
 * optionally narrowed to some request kinds and report IDs, that expire by
 * themselves. They live beside the policy, not in it: every time a device's
 * rules are compiled (hotplug, reload, a grant or an end) its exceptions are
 * placed before its rules, so a reload keeps them. Plain data, like the
 * policy engine's output: the daemon puts the result in the kernel.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf/hid_rules.h"

/* At most this many at once, and per device. */
#define EXCEPTIONS_MAX			64
#define EXCEPTIONS_PER_DEVICE_MAX	8

/* Compiled exception rules carry index EXCEPTION_INDEX_BASE + id, so an
 * audit record tells which exception let a request through. */
#define EXCEPTION_INDEX_BASE		0xf0000000u
#define EXCEPTION_ID_MAX		0x0ffffffeu

struct exception_grantor {
	uid_t uid;
	pid_t pid;
	char comm[4 * 15 + 1];	/* escaped, as control.h's CONTROL_COMM_SIZE */
};

struct exception {
	uint32_t id;		/* 1.., never reused in one daemon run */
	uint32_t hid_id;
	char sysname[32];
	uint8_t kinds;		/* HID_RULE_KIND_* it lets through */
	uint32_t report_ids[HID_RULES_REPORT_ID_WORDS];
	uint64_t expires_ms;	/* CLOCK_BOOTTIME */
	uint64_t granted_realtime_ns;
	uint64_t duration_s;
	struct exception_grantor by;
	/* Whose requests it lets through (fields 0: anyone's), and for the
	 * record: the process it was granted for (0: none), the executable's
	 * path. */
	struct hid_rule_sender sender;
	pid_t for_pid;
	char executable[256];
	/* The systemd unit ("" none): one of the policy's units, whose cgroup
	 * the daemon copies into sender.units[0] whenever it changes. */
	char unit[256];
};

struct exception_table {
	struct exception *items;
	size_t n, cap;
	uint32_t last_id;
};

void exception_table_done(struct exception_table *t);

/*
 * Add E (its id is assigned and returned in *ret_id). Returns 0, -ENOSPC
 * when the table or the device's share is full, -EOVERFLOW when ids ran out.
 */
int exception_add(struct exception_table *t, const struct exception *e, uint32_t *ret_id);

/* The exception with ID, or NULL. */
struct exception *exception_find(struct exception_table *t, uint32_t id);
/* Remove the exception E points to (an element of t->items; NULL: nothing). */
void exception_remove(struct exception_table *t, struct exception *e);

/* Does exception rule INDEX come from an exception? Which id? */
bool exception_index(uint32_t rule_index, uint32_t *ret_id);

/*
 * Put HID_ID's exceptions before the rules in RULES (in id order), as allow
 * rules that are logged. Returns 0, or -E2BIG when they do not fit in
 * HID_RULES_MAX_RULES (RULES is then unchanged).
 */
int exception_prepend(const struct exception_table *t, uint32_t hid_id,
		      struct hid_device_rules *rules);

/* Earliest expiry (CLOCK_BOOTTIME ms), or 0 when the table is empty. */
uint64_t exception_next_expiry(const struct exception_table *t);
