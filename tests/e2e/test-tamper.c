// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: a firewall detached behind hid-policyd's back. Whoever can
 * open a device's pin in bpffs can delete its struct_ops map element, which
 * unregisters the firewall (doc/security.md). The daemon, sandboxed with
 * CAP_BPF alone, must notice within its check interval, attach the firewall
 * again, and say so on stderr and in the audit log; --cleanup must cope with
 * the unregistered instance.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/hidraw.h>

#include "harness.h"
#include "policyd_case.h"
#include "uhid_dev.h"

/* hid-policyd(8): how often each protected device's firewall is checked. */
#define CHECK_INTERVAL_MS 1000
/* What the check may take beyond the interval in the TCG guest: attaching
 * again, writing the message, this test's polling. */
#define CHECK_SLACK_MS 500

static const char policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"tamper-test\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5678\" },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

static const struct uhid_dev_config *test_device(void)
{
	static struct uhid_dev_config cfg = {
		.name = "tamper test device",
		.vendor = 0x1234,
		.product = 0x5678,
		.rdesc = uhid_test_rdesc,
	};

	cfg.rdesc_size = uhid_test_rdesc_size;
	return &cfg;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The firmware update the policy refuses: 0 when it went through, or the
 * errno. */
static int firmware_update(int fd)
{
	uint8_t buf[64] = { 0xf0 };

	return ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0 ? errno : 0;
}

static void reattached_message(const struct policyd_case *c, char *buf, size_t size)
{
	snprintf(buf, size, "firewall of %s (%s) was detached outside hid-policyd; re-attached",
		 c->dev.sysname, test_device()->name);
}

static size_t detach_records(struct policyd_case *c, int timeout_ms, size_t want)
{
	char hid_id[32];
	const char *filters[] = { "event=firewall_detached", hid_id, "reattached=true", NULL };

	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c->dev.hid_id);
	return policyd_audit_count(&c->run, filters, want, timeout_ms);
}

/* With the daemon frozen, the detach is real: the request reaches the
 * device. Once it runs again, the firewall is back, once, and both logs
 * say what happened. */
static void test_detached_firewall_is_reattached_and_reported(void)
{
	struct policyd_case c;
	char message[512];

	policyd_case_start(&c, test_device(), policy);
	reattached_message(&c, message, sizeof(message));
	CHECK_EQ(firmware_update(c.fd), EPERM);
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 1);

	CHECK_OK(kill(c.run.pid, SIGSTOP));
	CHECK_OK(firewall_detach_through_pin(&c.run, c.dev.hid_id));
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 0);
	CHECK_EQ(firmware_update(c.fd), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 1);
	CHECK_OK(kill(c.run.pid, SIGCONT));

	CHECK(policyd_said(&c.run, message, CHECK_INTERVAL_MS + CHECK_SLACK_MS),
	      "the daemon did not say \"%s\"", message);
	CHECK_EQ(firmware_update(c.fd), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 1);
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 1);
	CHECK_EQ(detach_records(&c, 2000, 1), 1);

	policyd_case_end(&c);
}

/* Detached while the daemon runs, twice (the second time the instance the
 * daemon attached itself): protection is back within the check interval
 * each time. */
static void test_protection_returns_within_the_check_interval(void)
{
	struct policyd_case c;
	char message[512];
	FILE *log;

	policyd_case_start(&c, test_device(), policy);
	reattached_message(&c, message, sizeof(message));
	for (size_t round = 1; round <= 2; round++) {
		long start = now_ms(), took;

		CHECK_OK(firewall_detach_through_pin(&c.run, c.dev.hid_id));
		/* The message is the round-th of its kind in the log. */
		for (;;) {
			char line[1024];
			size_t n = 0;

			log = fopen(c.run.stderr_log, "r");
			CHECK(log, "cannot read %s", c.run.stderr_log);
			while (fgets(line, sizeof(line), log))
				n += strstr(line, message) != NULL;
			fclose(log);
			took = now_ms() - start;
			if (n >= round || took > CHECK_INTERVAL_MS + CHECK_SLACK_MS)
				break;
			usleep(10000);
		}
		test_log("round %zu: waited %ld ms for the re-attach", round, took);
		CHECK(took <= CHECK_INTERVAL_MS + CHECK_SLACK_MS,
		      "no re-attach within %d ms", CHECK_INTERVAL_MS + CHECK_SLACK_MS);
		CHECK_EQ(firmware_update(c.fd), EPERM);
		CHECK_EQ(firewall_instance_count(c.dev.hid_id), 1);
	}
	CHECK_EQ(detach_records(&c, 2000, 2), 2);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);

	policyd_case_end(&c);
}

/* The daemon stopped (its firewalls stay), then the firewall unregistered
 * through its pin: the pin's map can no longer be deleted from ("Operation
 * now in progress"), and --cleanup must still remove everything. */
static void test_cleanup_after_a_detach_through_the_pin(void)
{
	struct policyd_case c;

	policyd_case_start(&c, test_device(), policy);
	policyd_stop(&c.run, false);
	CHECK_EQ(firmware_update(c.fd), EPERM);
	CHECK_OK(firewall_detach_through_pin(&c.run, c.dev.hid_id));
	CHECK_EQ(firewall_detach_through_pin(&c.run, c.dev.hid_id), -EINPROGRESS);
	CHECK_EQ(firmware_update(c.fd), 0);

	CHECK_OK(policyd_cleanup(&c.run));
	CHECK(access(c.run.state_dir, F_OK) < 0 && errno == ENOENT,
	      "%s is still there after --cleanup", c.run.state_dir);
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 0);

	policyd_case_end(&c);
}

int main(int argc, char **argv)
{
	static const struct test_case tests[] = {
		{ "detached_firewall_is_reattached_and_reported",
		  test_detached_firewall_is_reattached_and_reported },
		{ "protection_returns_within_the_check_interval",
		  test_protection_returns_within_the_check_interval },
		{ "cleanup_after_a_detach_through_the_pin",
		  test_cleanup_after_a_detach_through_the_pin },
	};

	return test_main(argc, argv, "e2e-tamper", tests, ARRAY_SIZE(tests));
}
