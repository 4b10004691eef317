/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The firewall's decision records, from the BPF ring buffer to the audit
 * log, named after the rules in force. They are read in rounds of bounded
 * length: libbpf reads on for as long as new records arrive, and a process
 * that floods the device with refused requests would otherwise keep the
 * event loop from its signals, uevents and control socket for good.
 */
#pragma once

#include <stddef.h>

#include "state/state.h"

/* libbpf's reader of the firewall's ring buffer, writing into D's audit
 * log; NULL with errno set. */
struct ring_buffer *records_open(struct daemon *d);

/* The records one turn of the event loop writes at most. */
#define RECORDS_PER_ROUND 1024

/* Write at most BUDGET records to the audit log. Returns 1 when BUDGET ran
 * out (more may be waiting), 0 when the ring buffer was emptied, or a
 * negative errno. */
int records_read(struct daemon *d, size_t budget);

/* Write the records that were waiting when the call began (at most as
 * many as the ring buffer holds, so that it ends under a flood too):
 * before a reload, and at stop. Returns as records_read(). */
int records_read_waiting(struct daemon *d);
