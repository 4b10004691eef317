/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * BPF run-time statistics (kernel.bpf_stats_enabled): the time the kernel
 * spent in programs of a given name and how often they ran, summed over
 * every loaded program of that name.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct prog_stats {
	uint64_t run_time_ns;
	uint64_t run_cnt;
};

/* Turn the statistics on or off. Returns 0 or -errno. */
int bpf_stats_enable(bool on);
/* The sums for programs named NAME (0 when none is loaded). */
struct prog_stats bpf_stats_of(const char *name);
/* Average ns per run between two readings, or -1 when none ran. */
double bpf_stats_avg_ns(struct prog_stats before, struct prog_stats after);
