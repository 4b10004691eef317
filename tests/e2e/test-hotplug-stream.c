// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: controllers that stream input reports from the moment they
 * are created, hotplugged again and again while hid-policyd attaches its
 * firewall on hotplug. On upstream Linux 6.11/6.12, attaching a
 * hid_device_event program to a device that hid-core has not parsed yet
 * leaves it an event buffer of no size, and its next input report
 * dereferences it (kernel/upstream/README.md). The daemon must never get
 * there: every controller is protected, the kernel log stays clean (the VM
 * runner fails the run on any BUG:, Oops or WARNING too), and this test says
 * which round broke it.
 *
 * Run with a request-only policy (no program on the input path) and with a
 * policy whose input_event rule needs one, on uhid and on USB (usbhid on
 * dummy_hcd). A USB device sends input only once it is opened (usbhid
 * polls its interrupt endpoint from then on), so there the reports start
 * when the test opens the node, not at creation.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/hidraw.h>

#include "harness.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define ROUNDS 30
/* How long the daemon may take to protect a new device in the TCG guest. */
#define ATTACH_TIMEOUT_MS 5000
/* How long each controller streams once protected. */
#define STREAM_MS 100

static const char request_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"streaming-controller\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5679\" },\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

/* The same, plus a rule on input: report 1 with first data byte 0xee is
 * dropped (the stream sends 0x00 there, so it passes). */
static const char input_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"streaming-controller\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5679\" },\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" },\n"
	"      { \"name\": \"no-forged-input\", \"request\": \"input_event\",\n"
	"        \"report_id\": \"0x01\", \"payload\": [ { \"offset\": 1, \"value\": \"ee\" } ],\n"
	"        \"action\": \"deny\" }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

static const uint8_t stream_report[64] = { 0x01 };

static enum test_dev_backend backend;

static struct uhid_dev_config streaming_controller(void)
{
	struct uhid_dev_config cfg = {
		.backend = backend,
		.name = "streaming controller",
		.vendor = 0x1234,
		.product = 0x5679,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};

	if (backend == TEST_DEV_UHID) {
		cfg.stream_report = stream_report;
		cfg.stream_size = sizeof(stream_report);
	}
	return cfg;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static bool wait_attached(int hid_id)
{
	long deadline = now_ms() + ATTACH_TIMEOUT_MS;

	do {
		if (firewall_instance_count(hid_id) == 1)
			return true;
		usleep(10 * 1000);
	} while (now_ms() < deadline);
	return false;
}

static int firmware_update(int fd)
{
	uint8_t buf[64] = { 0xf0 };

	return ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0 ? errno : 0;
}

/* Has the kernel logged a crash or a warning since the test began? Reads
 * the whole log (/dev/kmsg from its start), looking for what
 * scripts/scan-kernel-log looks for. */
static bool kernel_log_has_crash(char *line, size_t size)
{
	static const char *const bad[] = { "BUG:", "Oops", "WARNING:", "KASAN", "general protection" };
	char rec[1024];
	bool found = false;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	while (!found && (n = read(fd, rec, sizeof(rec) - 1)) != 0) {
		if (n < 0) {
			if (errno == EPIPE)	/* overwritten: go on */
				continue;
			break;
		}
		rec[n] = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			if (strstr(rec, bad[i])) {
				snprintf(line, size, "%s", rec);
				found = true;
				break;
			}
		}
	}
	close(fd);
	return found;
}

/* Did a stream report (first data byte 0) come out of the node? */
static bool stream_reaches_reader(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t buf[64];

	for (int i = 0; i < 50; i++) {
		if (poll(&p, 1, 100) <= 0)
			continue;
		if (read(fd, buf, sizeof(buf)) > 1 && buf[0] == 0x01 && buf[1] == 0x00)
			return true;
	}
	return false;
}

static const uint8_t forged[64] = { 0x01, 0xee };

/* The input filter is attached once hid-core has parsed the device's
 * reports (doc/security.md, section 4), a moment after the request filter:
 * wait until it refuses a forged report (its audit record says so). */
static bool wait_input_filter(struct policyd_run *run, struct uhid_dev *dev)
{
	char hid_id[32];
	const char *filters[] = { hid_id, "rule.name=no-forged-input", NULL };
	long deadline = now_ms() + ATTACH_TIMEOUT_MS;

	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", dev->hid_id);
	do {
		CHECK_OK(uhid_dev_send_input(dev, forged, sizeof(forged)));
		if (policyd_audit_count(run, filters, 1, 50) >= 1)
			return true;
	} while (now_ms() < deadline);
	return false;
}

/* A forged report 1 with 0xee in its first data byte, sent amid the
 * stream: does it come out of the node? */
static bool forged_input_reaches_reader(struct uhid_dev *dev, int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t buf[64];
	long deadline;

	while (read(fd, buf, sizeof(buf)) > 0)	/* what came before */
		;
	CHECK_OK(uhid_dev_send_input(dev, forged, sizeof(forged)));
	deadline = now_ms() + 300;
	while (now_ms() < deadline) {
		if (poll(&p, 1, 50) <= 0)
			continue;
		if (read(fd, buf, sizeof(buf)) > 1 && buf[0] == 0x01 && buf[1] == 0xee)
			return true;
	}
	return false;
}

static void hotplug_rounds(const char *policy, bool input_rule)
{
	struct uhid_dev_config cfg = streaming_controller();
	struct policyd_run run;
	char crash[1024];

	CHECK_OK(policyd_prepare(&run));
	CHECK_OK(policyd_write_policy(&run, "50-stream.json", policy));
	CHECK_OK(policyd_start(&run, NULL));

	for (int round = 1; round <= ROUNDS; round++) {
		struct uhid_dev dev;
		int fd, err;

		CHECK_OK(uhid_dev_create(&dev, &cfg));
		CHECK(wait_attached(dev.hid_id), "round %d: %s not protected after %d ms",
		      round, dev.sysname, ATTACH_TIMEOUT_MS);
		fd = uhid_dev_open_hidraw(&dev, O_NONBLOCK);
		CHECK(fd >= 0, "round %d: open %s: %s", round, dev.hidraw, strerror(-fd));
		for (int i = 0; backend == TEST_DEV_USB && i < 20; i++)
			CHECK_OK(uhid_dev_send_input(&dev, stream_report, sizeof(stream_report)));
		CHECK(stream_reaches_reader(fd), "round %d: the stream does not reach %s",
		      round, dev.hidraw);
		err = firmware_update(fd);
		CHECK(err == EPERM, "round %d: firmware update: %s, not EPERM", round,
		      err ? strerror(err) : "went through");
		CHECK_EQ(uhid_dev_count(&dev, UHID_DEV_SET_REPORT, 0xf0), 0);
		if (input_rule) {
			CHECK(wait_input_filter(&run, &dev),
			      "round %d: no input filter on %s after %d ms", round, dev.sysname,
			      ATTACH_TIMEOUT_MS);
			CHECK(!forged_input_reaches_reader(&dev, fd),
			      "round %d: the input rule let a forged report through", round);
		}
		usleep(STREAM_MS * 1000);
		close(fd);
		uhid_dev_destroy(&dev);
		CHECK(!kernel_log_has_crash(crash, sizeof(crash)),
		      "round %d: the kernel logged: %s", round, crash);
	}

	CHECK_EQ(policyd_stop(&run, false), 0);
	CHECK_OK(policyd_cleanup(&run));
}

static void test_streaming_controllers_hotplugged_are_protected_without_a_crash(void)
{
	hotplug_rounds(request_policy, false);
}

static void test_streaming_controllers_with_an_input_rule_are_protected_without_a_crash(void)
{
	hotplug_rounds(input_policy, true);
}

int main(int argc, char **argv)
{
	static const struct test_case tests[] = {
		{ "streaming_controllers_hotplugged_are_protected_without_a_crash",
		  test_streaming_controllers_hotplugged_are_protected_without_a_crash, 600 },
		{ "streaming_controllers_with_an_input_rule_are_protected_without_a_crash",
		  test_streaming_controllers_with_an_input_rule_are_protected_without_a_crash, 600 },
	};

	int failed;

	failed = test_main(argc, argv, "e2e-hotplug-stream", tests, ARRAY_SIZE(tests));
	backend = TEST_DEV_USB;
	failed |= test_main(argc, argv, "e2e-hotplug-stream/usb", tests, ARRAY_SIZE(tests));
	return failed;
}
