// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request-hook benchmark (in the VM, bench/request_bench.sh): HIDIOCSFEATURE
 * and write() calls per second against a uhid device with (a) no program,
 * (b) a pass-through hid_hw_request/hid_hw_output_report program and (c) a
 * program that looks a rule up in a hash map. The three configurations
 * alternate round by round; each rate is the median of its rounds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/hidraw.h>

#include "hid_bpf_loader.h"
#include "uhid_dev.h"

#define ROUNDS 7
#define LEN 64

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Calls per second of one kind of request over `seconds`. */
static double rate(int fd, bool feature, double seconds)
{
	uint8_t buf[LEN] = { feature ? 3 : 2, 1 };
	double t0 = now_s(), t;
	long n = 0;

	do {
		for (int i = 0; i < 64; i++, n++) {
			if (feature ? ioctl(fd, HIDIOCSFEATURE(LEN), buf) < 0 :
				      write(fd, buf, LEN) != LEN)
				die(feature ? "HIDIOCSFEATURE" : "write");
		}
		t = now_s() - t0;
	} while (t < seconds);
	return n / t;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const char *const names[3] = { "no program", "pass-through", "hash lookup" };
	static const char *const maps[3] = { NULL, "passthrough", "lookup" };
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	double feat[3][ROUNDS], out[3][ROUNDS];
	const struct uhid_dev_config cfg = {
		.name = "request bench", .vendor = 0x1234, .product = 0xb0b0,
		.rdesc = uhid_test_rdesc, .rdesc_size = uhid_test_rdesc_size,
	};
	struct bpf_object *obj;
	struct uhid_dev dev;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (uhid_dev_create(&dev, &cfg) < 0)
		die("uhid device");
	fd = uhid_dev_open_hidraw(&dev, 0);
	if (fd < 0)
		die("hidraw");
	for (int r = 0; r < ROUNDS; r++) {
		for (int c = 0; c < 3; c++) {
			struct bpf_link *link = NULL;

			/* A struct_ops map registers once: a fresh object for
			 * every attachment. */
			obj = NULL;
			if (maps[c]) {
				__u32 key = 2 << 8 | 0xf0;	/* a rule for another report */
				__s32 err = 1;

				obj = hbt_load("request_bench", dev.hid_id, NULL, 0);
				if (!obj)
					die("request_bench.bpf.o");
				bpf_map__update_elem(bpf_object__find_map_by_name(obj, "rules"),
						     &key, sizeof(key), &err, sizeof(err), 0);
				if (hbt_attach(obj, maps[c], &link) < 0)
					die("attach");
			}
			feat[c][r] = rate(fd, true, seconds);
			out[c][r] = rate(fd, false, seconds);
			/* uhid queues output reports for its reader; let it
			 * drain them, or the next SET_REPORT waits behind a
			 * full queue and times out. */
			usleep(300000);
			if (link)
				bpf_link__destroy(link);
			if (obj)
				bpf_object__close(obj);
		}
	}
	for (int c = 0; c < 3; c++) {
		qsort(feat[c], ROUNDS, sizeof(double), cmp);
		qsort(out[c], ROUNDS, sizeof(double), cmp);
	}
	for (int c = 0; c < 3; c++)
		printf("%-13s HIDIOCSFEATURE %8.0f/s (%.3f of none)   write() %8.0f/s (%.3f of none)\n",
		       names[c], feat[c][ROUNDS / 2], feat[c][ROUNDS / 2] / feat[0][ROUNDS / 2],
		       out[c][ROUNDS / 2], out[c][ROUNDS / 2] / out[0][ROUNDS / 2]);
	close(fd);
	uhid_dev_destroy(&dev);
	return 0;
}
