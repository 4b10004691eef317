/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's function profiler (CONFIG_FUNCTION_PROFILER) for a few
 * functions of the HID event and request paths: how often each ran and
 * its average time, children included and sleep excluded, summed over the
 * CPUs. Functions this kernel does not have (or inlined) are left out.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define FPROF_MAX_FUNCTIONS 16

struct fprof_result {
	size_t n;
	struct {
		char name[64];
		uint64_t hits;
		double total_ns;
	} fn[FPROF_MAX_FUNCTIONS];
};

/* Profile FUNCTIONS (NULL-terminated) from now on; the ones the kernel can
 * trace are kept. Returns how many, or -errno (no tracefs, no profiler). */
int fprof_start(const char *const *functions);
/* Stop and read what was profiled since fprof_start(). Returns 0 or -errno. */
int fprof_stop(struct fprof_result *out);
/* Average ns per call of NAME, or -1 when it never ran. */
double fprof_avg_ns(const struct fprof_result *r, const char *name);
