// SPDX-License-Identifier: GPL-2.0-or-later
/* The function profiler through tracefs; see ftrace_profile.h. */
#include "ftrace_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"

static int write_file(const char *name, const char *text, int flags)
{
	size_t len = strlen(text), done = 0;
	char path[128];
	int fd, r = 0;

	snprintf(path, sizeof(path), TRACEFS "/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	/* set_ftrace_filter may take one name per write() */
	do {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0 && len) {
			r = -EIO;
			break;
		}
		done += n;
	} while (done < len);
	close(fd);
	return r;
}

/* trace_stat prints at most this many characters of a function's name */
#define PRINTED_NAME_LEN 30

static const struct fprof_fn *find(const struct fprof_result *r, const char *name)
{
	size_t len = strlen(name);

	if (len > PRINTED_NAME_LEN)
		len = PRINTED_NAME_LEN;
	for (size_t i = 0; i < r->n; i++)
		if (strlen(r->fn[i].name) == len && !strncmp(r->fn[i].name, name, len))
			return &r->fn[i];
	return NULL;
}

/* Is NAME in available_filter_functions? */
static bool traceable(const char *name)
{
	FILE *f = fopen(TRACEFS "/available_filter_functions", "re");
	char line[256];
	size_t len = strlen(name);
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, len) && (line[len] == '\n' || line[len] == ' ');
	if (f)
		fclose(f);
	return found;
}

int fprof_start(const char *const *functions)
{
	char filter[FPROF_MAX_FUNCTIONS * 64] = "";
	int r, kept = 0;

	write_file("function_profile_enabled", "0", 0);
	/* Time on the CPU only: a request sleeps while uhid's reader answers. */
	r = write_file("options/sleep-time", "0", 0);
	if (r < 0)
		return r;
	/* Only names the kernel can trace: a write naming another one fails,
	 * and takes the names before it in the same open file along. */
	for (size_t i = 0; functions[i]; i++) {
		if (!traceable(functions[i]))
			continue;
		if (kept)
			strcat(filter, " ");
		strcat(filter, functions[i]);
		kept++;
	}
	if (!kept)
		return -ENOENT;
	r = write_file("set_ftrace_filter", filter, O_TRUNC);
	if (r < 0)
		return r;
	/* Enabling clears what an earlier run counted. */
	r = write_file("function_profile_enabled", "1", 0);
	return r < 0 ? r : kept;
}

static double to_ns(double v, const char *unit)
{
	if (!strcmp(unit, "ns"))
		return v;
	if (!strcmp(unit, "us"))
		return v * 1e3;
	if (!strcmp(unit, "ms"))
		return v * 1e6;
	return v * 1e9;
}

/* Add one trace_stat/functionN file (lines "name hits time unit avg ...")
 * to OUT. */
static void add_cpu(FILE *f, struct fprof_result *out)
{
	char line[512], name[64], unit[8];
	unsigned long long hits;
	double t;

	while (fgets(line, sizeof(line), f)) {
		size_t i;

		if (sscanf(line, " %63s %llu %lf %7s", name, &hits, &t, unit) != 4)
			continue;
		for (i = 0; i < out->n; i++)
			if (!strcmp(out->fn[i].name, name))
				break;
		if (i == out->n) {
			if (out->n == FPROF_MAX_FUNCTIONS)
				continue;
			snprintf(out->fn[i].name, sizeof(out->fn[i].name), "%s", name);
			out->n++;
		}
		out->fn[i].hits += hits;
		out->fn[i].total_ns += to_ns(t, unit);
	}
}

int fprof_read(struct fprof_result *out)
{
	memset(out, 0, sizeof(*out));
	for (int cpu = 0;; cpu++) {
		char path[128];
		FILE *f;

		snprintf(path, sizeof(path), TRACEFS "/trace_stat/function%d", cpu);
		f = fopen(path, "re");
		if (!f)
			break;
		add_cpu(f, out);
		fclose(f);
	}
	return 0;
}

void fprof_stop(void)
{
	write_file("function_profile_enabled", "0", 0);
	write_file("set_ftrace_filter", "", O_TRUNC);
	write_file("options/sleep-time", "1", 0);
}

double fprof_delta_avg_ns(const struct fprof_result *before, const struct fprof_result *after,
			  const char *name)
{
	const struct fprof_fn *a = find(after, name), *b = find(before, name);
	uint64_t hits = (a ? a->hits : 0) - (b ? b->hits : 0);

	if (!a || !hits)
		return -1;
	return (a->total_ns - (b ? b->total_ns : 0)) / hits;
}

