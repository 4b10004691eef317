// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reproducers of kernel/upstream's series at the kernel's level, without
 * hid-policyd: each test states the fixed behaviour, so it passes on a
 * kernel with the fix (upstream-fixed, latest-fixed, and the port) and
 * fails or crashes the guest on one without. Not part of scripts/test.sh: run.sh builds it
 * like tests/kernel (whose BPF objects it uses) and runs it in the VM.
 *   oversized_report_is_dropped                         0001
 *   event_program_registered_while_unbound_runs         0002 (and 0003)
 *   get_feature_answered_by_program_has_no_stale_bytes  0005
 */
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/hidraw.h>

#include "harness.h"
#include "hid_bpf_loader.h"
#include "kernel_fixture.h"
#include "test_rdesc.h"
#include "uhid_dev.h"

static struct bpf_object *load(const char *name, int hid_id)
{
	struct bpf_object *obj = hbt_load(name, hid_id, NULL, 0);

	CHECK(obj, "loading %s.bpf.o: %m", name);
	return obj;
}

static int read_report(int fd, uint8_t *buf, size_t size, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, timeout_ms) <= 0)
		return -ETIMEDOUT;
	return read(fd, buf, size);
}

static void write_sysfs(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);

	CHECK(fd >= 0, "open %s: %m", path);
	CHECK(write(fd, value, strlen(value)) == (ssize_t)strlen(value), "write %s to %s: %m", value, path);
	close(fd);
}

/* 0001: the device declares at most 65 bytes (buffer 128); it sends 4096. */
static void test_oversized_report_is_dropped(void)
{
	static uint8_t big[4096];
	uint8_t r[TEST_INPUT_LEN] = { 1, 5 };
	uint8_t got[4096];
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;
	unsigned int calls;
	int fd, n;

	kt_make_device(&dev, "oversized", test_rdesc, sizeof(test_rdesc));
	obj = load("event", dev.hid_id);
	link = kt_attach(obj, "rewrite");
	fd = kt_open_hidraw(&dev, O_NONBLOCK);

	memset(big, 0x41, sizeof(big));
	big[0] = 1;
	for (int i = 0; i < 20; i++)
		CHECK_OK(uhid_dev_send_input(&dev, big, sizeof(big)));
	n = read_report(fd, got, sizeof(got), 500);
	calls = kt_global_u32(obj, "calls");
	test_log("after 20 reports of 4096 bytes, hidraw read gave %d, the program ran %u times",
		 n, calls);
	CHECK_EQ(n, -ETIMEDOUT);
	/*
	 * The program runs on the event buffer after the report is copied
	 * into it: if it ran, 4096 bytes went into a buffer of 128. 7.x then
	 * drops the report (its size is over the buffer's), so this is what
	 * tells the bug there without KASAN.
	 */
	CHECK_EQ(calls, 0);

	/* the device still works, and the program still runs */
	CHECK_OK(uhid_dev_send_input(&dev, r, sizeof(r)));
	n = read_report(fd, got, sizeof(got), 1000);
	CHECK_EQ(n, TEST_INPUT_LEN);
	CHECK_EQ(got[2], 6);
	CHECK_EQ(kt_global_u32(obj, "calls"), calls + 1);

	close(fd);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	uhid_dev_destroy(&dev);
}

/* 0002: ops with hid_device_event registered while no driver is bound. */
static void test_event_program_registered_while_unbound_runs(void)
{
	uint8_t r[TEST_INPUT_LEN] = { 1, 5 };
	uint8_t got[512];
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;
	int fd, n;

	kt_make_device(&dev, "unbound", test_rdesc, sizeof(test_rdesc));
	write_sysfs("/sys/bus/hid/drivers/hid-generic/unbind", dev.sysname);
	obj = load("event", dev.hid_id);
	link = kt_attach(obj, "rewrite");
	write_sysfs("/sys/bus/hid/drivers/hid-generic/bind", dev.sysname);
	dev.hidraw[0] = 0;
	CHECK_OK(uhid_dev_wait_hidraw(&dev, 5000));
	fd = kt_open_hidraw(&dev, O_NONBLOCK);

	CHECK_OK(uhid_dev_send_input(&dev, r, sizeof(r)));
	n = read_report(fd, got, sizeof(got), 1000);
	CHECK_EQ(n, TEST_INPUT_LEN);
	/* the program ran on the report: it had a buffer */
	CHECK_EQ(got[2], 6);
	CHECK(kt_global_u32(obj, "calls") >= 1, "the event program never ran");

	close(fd);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	uhid_dev_destroy(&dev);
}

/* 0005: a program answers GET_FEATURE writing byte 1 only, and returns
 * the request length; the rest of hidraw's buffer goes to user space. */
#define LEN 64
static void test_get_feature_answered_by_program_has_no_stale_bytes(void)
{
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;
	int fd, stale = 0;

	kt_make_device(&dev, "stale", uhid_test_rdesc, uhid_test_rdesc_size);
	obj = load("requests", dev.hid_id);
	link = kt_attach(obj, "answer_get");
	fd = kt_open_hidraw(&dev, 0);

	for (int round = 0; round < 50; round++) {
		uint8_t fill[LEN], buf[LEN] = { 3 };

		/* a SET_FEATURE's buffer of the same size, freed just before */
		memset(fill, 0xab, sizeof(fill));
		fill[0] = 4;
		CHECK(ioctl(fd, HIDIOCSFEATURE(LEN), fill) >= 0, "set: %m");
		CHECK(ioctl(fd, HIDIOCGFEATURE(LEN), buf) == LEN, "get: %m");
		CHECK_EQ(buf[1], 0x11);
		for (int i = 2; i < LEN; i++)
			if (buf[i]) {
				stale++;
				break;
			}
	}
	test_log("answers with stale bytes: %d of 50", stale);
	CHECK_EQ(stale, 0);

	close(fd);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	uhid_dev_destroy(&dev);
}

static const struct test_case tests[] = {
	{ "oversized_report_is_dropped", test_oversized_report_is_dropped },
	{ "event_program_registered_while_unbound_runs",
	  test_event_program_registered_while_unbound_runs },
	{ "get_feature_answered_by_program_has_no_stale_bytes",
	  test_get_feature_answered_by_program_has_no_stale_bytes },
};

int main(int argc, char **argv)
{
	if (!getenv("HBT_VERBOSE"))
		libbpf_set_print(NULL);
	return test_main(argc, argv, "upstream-series", tests, ARRAY_SIZE(tests));
}
