// SPDX-License-Identifier: GPL-2.0-or-later
/* BPF run-time statistics; see bpf_stats.h. */
#include "bpf_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

int bpf_stats_enable(bool on)
{
	int fd = open("/proc/sys/kernel/bpf_stats_enabled", O_WRONLY | O_CLOEXEC);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1" : "0", 1) != 1)
		r = -errno;
	close(fd);
	return r;
}

struct prog_stats bpf_stats_of(const char *name)
{
	struct prog_stats s = { 0 };
	__u32 id = 0;

	while (bpf_prog_get_next_id(id, &id) == 0) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 && !strcmp(info.name, name)) {
			s.run_time_ns += info.run_time_ns;
			s.run_cnt += info.run_cnt;
		}
		close(fd);
	}
	return s;
}

double bpf_stats_avg_ns(struct prog_stats before, struct prog_stats after)
{
	uint64_t runs = after.run_cnt - before.run_cnt;

	if (!runs)
		return -1;
	return (double)(after.run_time_ns - before.run_time_ns) / runs;
}
