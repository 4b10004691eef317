// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HID-BPF benchmark (in the test VM): input reports per second from a uhid
 * device to a hidraw reader, one report in flight at a time, with no
 * program, one pass-through hid_device_event program, and 8 chained ones.
 *
 * Usage: hid_bpf_bench [--no-bpf] [--seconds S] [--rounds R]
 *   --no-bpf   only the no-program case (for a kernel without HID-BPF)
 * Prints "rate none|1|8 <reports/s>" (median of the rounds) and, for the
 * program cases, "prog <n> avg_ns <ns>" from a separate run with
 * kernel.bpf_stats_enabled=1.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hid_bpf_loader.h"
#include "test_rdesc.h"
#include "uhid_dev.h"

#define MAX_PROGS	8
#define MAX_ROUNDS	32

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reports per second over `seconds`, one in flight at a time. */
static double measure(struct uhid_dev *dev, int fd, double seconds)
{
	uint8_t report[TEST_INPUT_LEN] = { 1 }, buf[256];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	unsigned long n = 0;
	double start = now_s(), t;

	do {
		for (int i = 0; i < 256; i++) {
			report[1] = n & 0xff;
			if (uhid_dev_send_input(dev, report, sizeof(report)) ||
			    poll(&p, 1, 1000) != 1 ||
			    read(fd, buf, sizeof(buf)) != TEST_INPUT_LEN) {
				fprintf(stderr, "report %lu lost\n", n);
				exit(1);
			}
			n++;
		}
		t = now_s() - start;
	} while (t < seconds);
	return n / t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void set_stats(int on)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "w");

	if (!f || fprintf(f, "%d\n", on) < 0 || fclose(f)) {
		perror("kernel.bpf_stats_enabled");
		exit(1);
	}
}

struct chain {
	struct bpf_object *obj[MAX_PROGS];
	struct bpf_link *link[MAX_PROGS];
	int n;
};

/*
 * A struct_ops map registers once: every measurement loads fresh objects,
 * outside the timed part.
 */
static void attach(struct chain *c, int hid_id, int n)
{
	for (int i = 0; i < n; i++) {
		c->obj[i] = hbt_load("passthrough", hid_id, NULL, 0);
		if (!c->obj[i] || hbt_attach(c->obj[i], "pass", &c->link[i])) {
			fprintf(stderr, "program %d: load or attach failed\n", i);
			exit(1);
		}
	}
	c->n = n;
}

static void detach(struct chain *c)
{
	for (int i = 0; i < c->n; i++) {
		bpf_link__destroy(c->link[i]);
		bpf_object__close(c->obj[i]);
	}
	c->n = 0;
}

int main(int argc, char **argv)
{
	const struct uhid_dev_config cfg = {
		.name = "hid-bpf bench", .vendor = 0x1234, .product = 0xbe0c,
		.rdesc = test_rdesc, .rdesc_size = sizeof(test_rdesc),
	};
	static const int modes[] = { 0, 1, MAX_PROGS };
	double rates[3][MAX_ROUNDS], seconds = 1.0;
	int rounds = 5, nmodes = 3, fd;
	struct chain c = { 0 };
	struct uhid_dev dev;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-bpf"))
			nmodes = 1;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else
			return fprintf(stderr, "usage: see the source\n"), 2;
	}
	if (rounds < 1 || rounds > MAX_ROUNDS)
		return fprintf(stderr, "rounds: 1..%d\n", MAX_ROUNDS), 2;

	libbpf_set_print(NULL);
	if (uhid_dev_create(&dev, &cfg))
		return perror("uhid_dev_create"), 1;
	fd = uhid_dev_open_hidraw(&dev, O_NONBLOCK);
	if (fd < 0)
		return perror("hidraw"), 1;

	measure(&dev, fd, seconds / 2);	/* warm up */
	/* modes interleaved in every round, so drift hits them alike */
	for (int r = 0; r < rounds; r++) {
		for (int m = 0; m < nmodes; m++) {
			attach(&c, dev.hid_id, modes[m]);
			rates[m][r] = measure(&dev, fd, seconds);
			detach(&c);
		}
	}
	for (int m = 0; m < nmodes; m++) {
		qsort(rates[m], rounds, sizeof(double), cmp_double);
		printf("rate %s %.0f\n", m ? (m == 1 ? "1" : "8") : "none",
		       rates[m][rounds / 2]);
	}

	/* program run time, measured apart: stats slow every program down */
	for (int m = 1; m < nmodes; m++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		double total = 0;

		set_stats(1);
		attach(&c, dev.hid_id, modes[m]);
		measure(&dev, fd, seconds);
		for (int i = 0; i < c.n; i++) {
			struct bpf_program *p = bpf_object__find_program_by_name(
				c.obj[i], "pass_event");

			memset(&info, 0, sizeof(info));
			len = sizeof(info);
			if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info,
						   &len) || !info.run_cnt)
				return fprintf(stderr, "no BPF stats\n"), 1;
			total += (double)info.run_time_ns / info.run_cnt;
		}
		detach(&c);
		set_stats(0);
		printf("prog %d avg_ns %.1f\n", modes[m], total / modes[m]);
	}
	uhid_dev_destroy(&dev);
	return 0;
}
