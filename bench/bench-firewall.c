// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyd benchmarks, run in the test VM (scripts/bench.sh firewall):
 *   hotplug   time from creating a device to its first refused request,
 *             median and p99 over 50 devices;
 *   audit     audit records per second from the ring buffer to the file,
 *             under a flood of denied requests;
 *   request   cost of an allowed HIDIOCSFEATURE with the firewall attached
 *             (1, 16, 64 rules, none matching: the worst case) against no
 *             program, measured side by side, plus the program's own average
 *             run time from BPF statistics.
 * Only ratios mean anything in an emulated VM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/hidraw.h>

#include "policyd_run.h"
#include "uhid_dev.h"

#define HOTPLUG_DEVICES 50
#define FLOOD_REQUESTS 50000
#define REQUEST_ROUNDS 5
#define REQUESTS_PER_ROUND 4000

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, int r)
{
	fprintf(stderr, "bench-firewall: %s: %s\n", what, strerror(r < 0 ? -r : r));
	exit(1);
}

/* A policy for vendor 1234 product PRODUCT with N rules; the first denies
 * SET_REPORT feature 0xf0, the others deny report IDs the benchmark never
 * uses, so an allowed request walks all of them. */
static char *policy_text(uint16_t product, int n_rules)
{
	size_t cap = 4096 + n_rules * 256, len;
	char *s = malloc(cap);

	len = snprintf(s, cap,
		       "{ \"version\": 1, \"devices\": [ { \"name\": \"bench\",\n"
		       "  \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x%04x\" },\n"
		       "  \"default\": \"allow\", \"rules\": [\n"
		       "    { \"name\": \"deny-f0\", \"request\": \"set_report\", \"report_type\": \"feature\",\n"
		       "      \"report_id\": \"0xf0\", \"action\": \"deny\" }", product);
	for (int i = 1; i < n_rules; i++)
		len += snprintf(s + len, cap - len,
				",\n    { \"name\": \"deny-%d\", \"request\": \"set_report\", \"report_type\": \"feature\",\n"
				"      \"report_id\": %d, \"payload\": [ { \"offset\": 1, \"value\": \"0x%02x\" } ],\n"
				"      \"action\": \"deny\" }", i, 0x10 + i, i);
	snprintf(s + len, cap - len, "\n  ] } ] }\n");
	return s;
}

static void create(struct uhid_dev *dev, uint16_t product)
{
	const struct uhid_dev_config cfg = {
		.name = "bench device",
		.vendor = 0x1234,
		.product = product,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};
	int r = uhid_dev_create(dev, &cfg);

	if (r < 0)
		die("creating a uhid device", r);
}

static int set_feature(int fd, uint8_t id)
{
	uint8_t buf[64] = { id };

	return ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0 ? errno : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void start(struct policyd_run *run, uint16_t product, int n_rules)
{
	char *text = policy_text(product, n_rules);
	int r;

	if ((r = policyd_prepare(run)) < 0 ||
	    (r = policyd_write_policy(run, "50-bench.json", text)) < 0 ||
	    (r = policyd_start(run, NULL)) < 0)
		die("starting hid-policyd", r);
	free(text);
}

static void stop(struct policyd_run *run)
{
	policyd_stop(run, false);
	policyd_cleanup(run);
}

static void bench_hotplug(void)
{
	double lat[HOTPLUG_DEVICES];
	struct policyd_run run;

	start(&run, 0x7001, 1);
	for (int i = 0; i < HOTPLUG_DEVICES; i++) {
		struct uhid_dev dev;
		double t0 = now_s();
		int fd;

		create(&dev, 0x7001);
		fd = uhid_dev_open_hidraw(&dev, 0);
		if (fd < 0)
			die("opening hidraw", fd);
		while (set_feature(fd, 0xf0) != EPERM) {
			if (now_s() - t0 > 10)
				die("device never protected", ETIMEDOUT);
			usleep(200);
		}
		lat[i] = now_s() - t0;
		close(fd);
		uhid_dev_destroy(&dev);
	}
	stop(&run);
	qsort(lat, HOTPLUG_DEVICES, sizeof(lat[0]), cmp_double);
	printf("hotplug to protected over %d devices (from UHID_CREATE2, includes hid-core probe): median %.1f ms, p99 %.1f ms\n",
	       HOTPLUG_DEVICES, lat[HOTPLUG_DEVICES / 2] * 1e3,
	       lat[(HOTPLUG_DEVICES * 99 + 99) / 100 - 1] * 1e3);
}

static void bench_audit(void)
{
	const char *filters[] = { "action=deny", NULL };
	struct policyd_run run;
	struct uhid_dev dev;
	double t0, t1, t2;
	size_t lines, prev = 0;
	int fd;

	create(&dev, 0x7002);
	start(&run, 0x7002, 1);
	fd = uhid_dev_open_hidraw(&dev, 0);
	t0 = now_s();
	for (int i = 0; i < FLOOD_REQUESTS; i++)
		set_feature(fd, 0xf0);
	t1 = now_s();
	/* Until the log stops growing: every record the daemon will write.
	 * Only its size is watched while it grows (parsing it each time would
	 * compete with the daemon for the emulated CPU), and only a second
	 * without growth counts as the end; t2 is the last growth seen. */
	t2 = t1;
	for (int quiet = 0; quiet < 10;) {
		struct stat st;

		usleep(100000);
		if (stat(run.audit_log, &st) < 0)
			die("audit log", errno);
		if ((size_t)st.st_size == prev) {
			quiet++;
			continue;
		}
		prev = st.st_size;
		t2 = now_s();
		quiet = 0;
	}
	lines = policyd_audit_count(&run, filters, 0, 0);
	printf("audit flood: %d denied requests in %.2f s (%.0f/s); %zu records in the log after %.2f s: %.0f records/s; %zu dropped\n",
	       FLOOD_REQUESTS, t1 - t0, FLOOD_REQUESTS / (t1 - t0), lines, t2 - t0,
	       lines / (t2 - t0), FLOOD_REQUESTS - lines);
	close(fd);
	stop(&run);
	uhid_dev_destroy(&dev);
}

/* Seconds per allowed request, best of REQUEST_ROUNDS. */
static double time_requests(int fd)
{
	double best = 1e9;

	for (int round = 0; round < REQUEST_ROUNDS; round++) {
		double t0 = now_s();

		for (int i = 0; i < REQUESTS_PER_ROUND; i++)
			if (set_feature(fd, 3) != 0)
				die("allowed request refused", EIO);
		if ((now_s() - t0) / REQUESTS_PER_ROUND < best)
			best = (now_s() - t0) / REQUESTS_PER_ROUND;
	}
	return best;
}

/* Average run time of the firewall's hid_hw_request program, from BPF
 * statistics (kernel.bpf_stats_enabled). */
static double program_ns(void)
{
	__u32 id = 0;
	double ns = -1;

	while (bpf_prog_get_next_id(id, &id) == 0) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 &&
		    !strcmp(info.name, "fw_hw_request") && info.run_cnt)
			ns = (double)info.run_time_ns / info.run_cnt;
		close(fd);
	}
	return ns;
}

static void bench_request(void)
{
	static const int rules[] = { 1, 16, 64 };
	struct uhid_dev dev;
	double base;
	int fd, stats;

	stats = open("/proc/sys/kernel/bpf_stats_enabled", O_WRONLY);
	if (stats >= 0 && write(stats, "1", 1) != 1)
		fprintf(stderr, "bench-firewall: cannot enable BPF statistics\n");
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct policyd_run run;
		double with;

		create(&dev, 0x7003);
		fd = uhid_dev_open_hidraw(&dev, 0);
		base = time_requests(fd);
		start(&run, 0x7003, rules[i]);
		with = time_requests(fd);
		printf("allowed HIDIOCSFEATURE, %2d rules: %.1f us with the firewall, %.1f us without: ratio %.3f; program run time %.0f ns\n",
		       rules[i], with * 1e6, base * 1e6, with / base, program_ns());
		close(fd);
		stop(&run);
		uhid_dev_destroy(&dev);
	}
	if (stats >= 0)
		close(stats);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(which, "all") || !strcmp(which, "hotplug"))
		bench_hotplug();
	if (!strcmp(which, "all") || !strcmp(which, "audit"))
		bench_audit();
	if (!strcmp(which, "all") || !strcmp(which, "request"))
		bench_request();
	return 0;
}
