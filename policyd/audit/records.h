/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The firewall's decision records, from the BPF ring buffer to the audit
 * log, named after the rules in force. They are read in rounds of bounded
 * length: libbpf reads on for as long as new records arrive, and a process
 * that floods the device with refused requests would otherwise keep the
 * event loop from its signals, uevents and control socket for good.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "audit.h"
#include "hid_firewall.h"
#include "state/state.h"

struct records {
	struct ring_buffer *ring;
	const struct state *state;	/* names the rules and devices */
	struct audit_log *audit;
	size_t left;			/* of records_read()'s budget */
};

/* Read the ring buffer EVENTS_FD into AUDIT. Returns 0 or a negative
 * errno. */
int records_open(struct records *r, int events_fd, const struct state *state,
		 struct audit_log *audit);
/* Write what is waiting (records_read_waiting()) and close. */
void records_close(struct records *r);

/* A record of SIZE bytes at DATA into OUT. Programs adopted from an
 * earlier run (a restart after an upgrade keeps the firewalls attached)
 * write records without the sender fields added since (struct
 * hid_fw_record from euid on): they are read with those fields zero, which
 * their sender_flags say are unknown. False for a record shorter still. */
bool records_decode(const void *data, size_t size, struct hid_fw_record *out);

/* What the event loop polls. */
int records_fd(const struct records *r);

/* The records one turn of the event loop writes at most. */
#define RECORDS_PER_ROUND 1024

/* Write at most BUDGET records to the audit log. Returns 1 when BUDGET ran
 * out (more may be waiting), 0 when the ring buffer was emptied, or a
 * negative errno. */
int records_read(struct records *r, size_t budget);

/* Write the records that were waiting when the call began (at most as
 * many as the ring buffer holds, so that it ends under a flood too):
 * before a reload, and at stop. Returns as records_read(). */
int records_read_waiting(struct records *r);
