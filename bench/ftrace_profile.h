/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's function profiler (CONFIG_FUNCTION_PROFILER) for a few
 * functions of the HID event and request paths: how often each ran and
 * its time, children included and sleep excluded, summed over the CPUs.
 * Functions this kernel does not have (or inlined) are left out. Enabled
 * once and read between batches: turning it on patches the kernel's text,
 * which an emulated guest pays dearly for.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define FPROF_MAX_FUNCTIONS 16

struct fprof_fn {
	char name[64];		/* as trace_stat prints it: 30 characters at most */
	uint64_t hits;
	double total_ns;
};

struct fprof_result {
	size_t n;
	struct fprof_fn fn[FPROF_MAX_FUNCTIONS];
};

/* Profile FUNCTIONS (NULL-terminated) from now on, from zero; the ones the
 * kernel can trace are kept. Returns how many, or -errno (no tracefs, no
 * profiler). */
int fprof_start(const char *const *functions);
/* What was profiled since fprof_start(), so far. Returns 0 or -errno. */
int fprof_read(struct fprof_result *out);
/* Stop profiling and clear the filter. */
void fprof_stop(void);
/* Average ns per call of NAME between two readings, or -1 when it did not
 * run in between. */
double fprof_delta_avg_ns(const struct fprof_result *before, const struct fprof_result *after,
			  const char *name);
