// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: the firewall's input path on kernels where it can crash.
 * Upstream HID-BPF (6.3 and later) sizes a device's event buffer without the
 * device lock and copies reports longer than it into it
 * (enforce/kernel_support.h, doc/security.md section 4), so:
 * - by default, hid-policyd refuses input rules on such a kernel, and says
 *   why, at start, at reload and in --check; on the port it takes them;
 * - where the administrator accepts the risk, the daemon never registers an
 *   event program on a device whose reports are not parsed: an unbind
 *   takes it off, and a reload, while the device is unbound, puts none on
 *   (that sequence crashed upstream 6.12 at the first report after the
 *   bind: "BUG: kernel NULL pointer dereference, address:
 *   0000000000000010" in dispatch_hid_bpf_device_event).
 * The VM run fails on any kernel warning, so "no crash" is checked too.
 * Every case runs on uhid devices, then on USB devices usbhid drives, then
 * on Bluetooth Classic devices hidp drives.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "policyd_case.h"
#include "uhid_dev.h"

static enum test_dev_backend backend;

static const struct uhid_dev_config *test_device(void)
{
	static struct uhid_dev_config cfg = {
		.name = "input safety test device",
		.vendor = 0x1234,
		.product = 0x5679,
		.rdesc = uhid_test_rdesc,
	};

	cfg.backend = backend;
	cfg.rdesc_size = uhid_test_rdesc_size;
	return &cfg;
}

#define RULE_SET_HEAD \
	"{ \"version\": 1, \"devices\": [ {\n" \
	"    \"name\": \"input-safety\",\n" \
	"    \"match\": { \"bus\": [\"usb\", \"bluetooth\"], \"vendor\": \"0x1234\", \"product\": \"0x5679\" },\n" \
	"    \"default\": \"allow\",\n" \
	"    \"rules\": [\n" \
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n" \
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }"
static const char request_only_policy[] = RULE_SET_HEAD "\n    ] } ] }\n";
/* Line 8 of the file is the input rule. */
#define INPUT_RULE(name, value) \
	RULE_SET_HEAD ",\n" \
	"      { \"name\": \"" name "\", \"request\": \"input_event\", \"report_id\": 1,\n" \
	"        \"payload\": [ { \"offset\": 1, \"value\": \"" value "\" } ], \"action\": \"deny\" }\n" \
	"    ] } ] }\n"
static const char input_policy[] = INPUT_RULE("drop-0x66", "0x66");
static const char other_input_policy[] = INPUT_RULE("drop-0x77", "0x77");

/* The port fixes both bugs; upstream (6.12 here) has them. Told by the
 * test run (scripts/test.sh), not by what the daemon reads of the kernel. */
static bool kernel_input_path_is_safe(void)
{
	const char *name = getenv("HID_POLICY_KERNEL_NAME");

	return name && !strcmp(name, "port");
}

/* Poll until the device has N firewall instances with an input filter. */
static int wait_input_filters(int hid_id, int n, int timeout_ms)
{
	for (int waited = 0; waited < timeout_ms; waited += 20) {
		if (firewall_input_filter_count(hid_id) == n)
			return 0;
		usleep(20000);
	}
	return -ETIMEDOUT;
}

/* The driver bound to the device now ("" none). */
static void device_driver(const struct uhid_dev *dev, char *name, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "%s/driver", dev->syspath);
	n = readlink(link, target, sizeof(target) - 1);
	name[0] = '\0';
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	if (strlen(base) < size)
		memcpy(name, base, strlen(base) + 1);
}

static void input_rules_are_refused_where_the_input_path_is_not_safe(void)
{
	const bool safe = kernel_input_path_is_safe();
	struct policyctl_output out;
	struct policyd_case c;

	/* --check, as the unit's ExecStartPre runs it */
	CHECK_OK(uhid_dev_create(&c.dev, test_device()));
	CHECK_OK(policyd_prepare(&c.run));
	c.run.refuse_unsafe_input = true;
	CHECK_OK(policyd_write_policy(&c.run, "50-test.json", input_policy));
	CHECK_OK(policyd_check(&c.run, &out));
	if (safe) {
		CHECK(out.status == 0, "the port's --check refused an input rule: %s", out.out);
	} else {
		CHECK(out.status != 0, "--check took an input rule on an unsafe kernel: %s", out.out);
		CHECK(strstr(out.out, "50-test.json:8:") && strstr(out.out, "devices[0].rules[1]"),
		      "the refusal names no file, line and path: %s", out.out);
		CHECK(strstr(out.out, "--allow-unsafe-input-rules") &&
		      strstr(out.out, "doc/security.md, section 4"),
		      "the refusal says neither the cause nor the way out: %s", out.out);
	}
	policyctl_output_done(&out);

	/* the daemon's start */
	if (safe) {
		CHECK_OK(policyd_start(&c.run, NULL));
		CHECK_EQ(wait_input_filters(c.dev.hid_id, 1, 5000), 0);
		CHECK_OK(policyd_stop(&c.run, false));
	} else {
		CHECK_EQ(policyd_start(&c.run, NULL), -ECHILD);
		CHECK(policyd_said(&c.run, "--allow-unsafe-input-rules", 0),
		      "the daemon did not say why it refused");
		CHECK_EQ(firewall_input_filter_count(c.dev.hid_id), 0);
	}
	CHECK_OK(policyd_cleanup(&c.run));

	/* a reload to an input rule: refused, and the rules in force stay */
	CHECK_OK(policyd_prepare(&c.run));
	c.run.refuse_unsafe_input = true;
	CHECK_OK(policyd_write_policy(&c.run, "50-test.json", request_only_policy));
	CHECK_OK(policyd_start(&c.run, NULL));
	c.fd = uhid_dev_open_hidraw(&c.dev, 0);
	CHECK_OK(c.fd);
	CHECK_OK(policyd_write_policy(&c.run, "50-test.json", input_policy));
	CHECK_OK(policyd_reload(&c.run));
	CHECK_EQ(policyd_said(&c.run, "reload failed", 0), !safe);
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 1);
	CHECK_EQ(firewall_input_filter_count(c.dev.hid_id), safe ? 1 : 0);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	policyd_case_end(&c);
}

/*
 * Issue 26's first crash, with the administrator's consent to input rules:
 * a protected device's driver is unbound, a reload gives it an input rule,
 * its driver is bound again and it sends input. The daemon must take the
 * event program off at the unbind, attach none while unbound, and attach it
 * again only once the bind connected the device.
 */
static void an_unbound_device_gets_no_input_filter_until_it_is_bound(void)
{
	const uint8_t forged[64] = { 0x01, 0x77 }, plain[64] = { 0x01, 0x05 };
	const char *dropped[] = { "rule.name=drop-0x77", NULL };
	struct policyd_case c;
	char driver[64];

	policyd_case_start(&c, test_device(), input_policy);
	CHECK_EQ(wait_input_filters(c.dev.hid_id, 1, 5000), 0);
	device_driver(&c.dev, driver, sizeof(driver));
	CHECK(driver[0], "the device has no driver");
	close(c.fd);

	for (int round = 1; round <= 3; round++) {
		CHECK_OK(uhid_dev_unbind(&c.dev, driver));
		/* the unbind event took the event program off; requests are
		 * still filtered */
		CHECK_EQ(wait_input_filters(c.dev.hid_id, 0, 5000), 0);
		CHECK_EQ(firewall_instance_count(c.dev.hid_id), 1);

		/* a reload while unbound attaches no event program */
		CHECK_OK(policyd_write_policy(&c.run, "50-test.json",
					      round % 2 ? other_input_policy : input_policy));
		CHECK_OK(policyd_reload(&c.run));
		CHECK(!policyd_said(&c.run, "reload failed", 0), "the reload failed");
		CHECK_EQ(firewall_input_filter_count(c.dev.hid_id), 0);

		CHECK_OK(uhid_dev_bind(&c.dev, driver, 5000));
		CHECK_EQ(wait_input_filters(c.dev.hid_id, 1, 5000), 0);
		c.fd = uhid_dev_open_hidraw(&c.dev, 0);
		CHECK_OK(c.fd);
		CHECK_OK(uhid_dev_send_input(&c.dev, plain, sizeof(plain)));
		CHECK_EQ(uhid_hidraw_read_input_byte1(c.fd, 5000), 0x05);
		close(c.fd);
	}
	/* round 3 put other_input_policy in force: its rule drops 0x77 */
	c.fd = uhid_dev_open_hidraw(&c.dev, 0);
	CHECK_OK(c.fd);
	CHECK_OK(uhid_dev_send_input(&c.dev, forged, sizeof(forged)));
	CHECK_EQ(policyd_audit_count(&c.run, dropped, 1, 5000), 1);
	CHECK_EQ(uhid_hidraw_read_input_byte1(c.fd, 300), -ETIMEDOUT);
	policyd_case_end(&c);
}

/* Poll until the device's firewall is registered again (after a detach). */
static int wait_instances(int hid_id, int n, int timeout_ms)
{
	for (int waited = 0; waited < timeout_ms; waited += 20) {
		if (firewall_instance_count(hid_id) == n)
			return 0;
		usleep(20000);
	}
	return -ETIMEDOUT;
}

/*
 * The other registrations issue 26 names, each while the device is unbound:
 * a temporary allow (its rules change), the allow's end, and the daemon
 * attaching the firewall again after someone unregistered it through its
 * pin. None may put an event program on the unbound device; requests stay
 * filtered throughout, and the bind brings the input filter back.
 */
static void while_unbound_no_registration_adds_an_input_filter(void)
{
	const uint8_t forged[64] = { 0x01, 0x66 }, plain[64] = { 0x01, 0x05 };
	const char *dropped[] = { "rule.name=drop-0x66", NULL };
	char driver[64], reattached[512];
	struct policyctl_output out;
	struct policyd_case c;

	policyd_case_start(&c, test_device(), input_policy);
	CHECK_EQ(wait_input_filters(c.dev.hid_id, 1, 5000), 0);
	device_driver(&c.dev, driver, sizeof(driver));
	CHECK(driver[0], "the device has no driver");
	close(c.fd);
	CHECK_OK(uhid_dev_unbind(&c.dev, driver));
	CHECK_EQ(wait_input_filters(c.dev.hid_id, 0, 5000), 0);

	/* a temporary allow, and its end */
	POLICYCTL(&c.run, (uid_t)-1, &out, "allow", c.dev.sysname, "--for", "2s");
	CHECK(out.status == 0, "allow: exit %d: %s", out.status, out.err);
	policyctl_output_done(&out);
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 1);
	CHECK_EQ(firewall_input_filter_count(c.dev.hid_id), 0);
	CHECK(policyd_said(&c.run, ") ended: ", 10000), "the allow did not end");
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 1);
	CHECK_EQ(firewall_input_filter_count(c.dev.hid_id), 0);

	/* the firewall unregistered behind the daemon's back, attached again */
	CHECK_OK(firewall_detach_through_pin(&c.run, c.dev.hid_id));
	snprintf(reattached, sizeof(reattached), "firewall of %s (%s) was detached outside hid-policyd; re-attached",
		 c.dev.sysname, test_device()->name);
	CHECK(policyd_said(&c.run, reattached, 5000), "the daemon did not say \"%s\"", reattached);
	CHECK_EQ(wait_instances(c.dev.hid_id, 1, 5000), 0);
	CHECK_EQ(firewall_input_filter_count(c.dev.hid_id), 0);

	CHECK_OK(uhid_dev_bind(&c.dev, driver, 5000));
	CHECK_EQ(wait_input_filters(c.dev.hid_id, 1, 5000), 0);
	c.fd = uhid_dev_open_hidraw(&c.dev, 0);
	CHECK_OK(c.fd);
	CHECK_OK(uhid_dev_send_input(&c.dev, forged, sizeof(forged)));
	CHECK_OK(uhid_dev_send_input(&c.dev, plain, sizeof(plain)));
	CHECK_EQ(uhid_hidraw_read_input_byte1(c.fd, 5000), 0x05);
	CHECK_EQ(policyd_audit_count(&c.run, dropped, 1, 5000), 1);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	policyd_case_end(&c);
}

/*
 * A vendor driver takes a device over from hid-generic (as a module loaded
 * late does through its modalias, or udev-hid-bpf's reprobe): hid-generic
 * unbinds, hid-lg ("logitech") binds. The event program comes off at the
 * unbind and back only once hid-lg has connected the device; the forged
 * report is dropped after the takeover.
 */
static void a_vendor_driver_taking_over_gets_the_input_filter_once_bound(void)
{
	const uint8_t forged[64] = { 0x01, 0x66 }, plain[64] = { 0x01, 0x05 };
	const char *dropped[] = { "rule.name=drop-lg-0x66", NULL };
	static const char lg_policy[] =
		"{ \"version\": 1, \"devices\": [ {\n"
		"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x046d\", \"product\": \"0xc101\" },\n"
		"    \"rules\": [ { \"name\": \"drop-lg-0x66\", \"request\": \"input_event\", \"report_id\": 1,\n"
		"      \"payload\": [ { \"offset\": 1, \"value\": \"0x66\" } ], \"action\": \"deny\" } ]\n"
		"} ] }\n";
	struct uhid_dev_config cfg = *test_device();
	const bool generic_only = test_dev_generic_driver_only_now();
	struct policyd_case c;
	char driver[64];

	if (backend != TEST_DEV_USB) {
		SKIP("hid-lg refuses devices that are not on a USB interface (hid_is_usb()): the takeover runs on the USB transport");
		return;
	}
	/* a Logitech receiver hid-lg drives with no request at probe */
	cfg.name = "takeover test receiver";
	cfg.vendor = 0x046d;
	cfg.product = 0xc101;
	CHECK_OK(test_dev_generic_driver_only(true));
	policyd_case_start(&c, &cfg, lg_policy);
	CHECK_OK(test_dev_generic_driver_only(false));
	device_driver(&c.dev, driver, sizeof(driver));
	CHECK(!strcmp(driver, "hid-generic"), "bound by %s, not hid-generic", driver);
	CHECK_EQ(wait_input_filters(c.dev.hid_id, 1, 5000), 0);
	close(c.fd);

	CHECK_OK(uhid_dev_unbind(&c.dev, "hid-generic"));
	CHECK_EQ(wait_input_filters(c.dev.hid_id, 0, 5000), 0);
	CHECK_OK(uhid_dev_bind(&c.dev, "logitech", 5000));
	device_driver(&c.dev, driver, sizeof(driver));
	CHECK(!strcmp(driver, "logitech"), "bound by %s, not hid-lg", driver);
	CHECK_EQ(wait_input_filters(c.dev.hid_id, 1, 5000), 0);

	c.fd = uhid_dev_open_hidraw(&c.dev, 0);
	CHECK_OK(c.fd);
	CHECK_OK(uhid_dev_send_input(&c.dev, forged, sizeof(forged)));
	CHECK_OK(uhid_dev_send_input(&c.dev, plain, sizeof(plain)));
	CHECK_EQ(uhid_hidraw_read_input_byte1(c.fd, 5000), 0x05);
	CHECK_EQ(policyd_audit_count(&c.run, dropped, 1, 5000), 1);
	policyd_case_end(&c);
	/* the cases after this one expect the VM's setting */
	CHECK_OK(test_dev_generic_driver_only(generic_only));
}

/* The longest input report each transport carries in one piece: uhid's
 * limit, one high-speed interrupt packet on USB, and on Bluetooth what fits
 * hidp's L2CAP channel (672 bytes, its default MTU, header included); the
 * issue's crash on a Bluetooth controller used 600. */
static size_t longest_report(void)
{
	switch (backend) {
	case TEST_DEV_USB:
		return 1024;
	case TEST_DEV_BT:
		return 600;
	default:
		return 4096;
	}
}

/*
 * Issue 26's second crash: a device whose descriptor declares 64-byte input
 * reports sends longer ones (longest_report()) of 0x41, the bytes that upstream's copy wrote over kernel
 * memory. With the firewall as each kernel takes it by default, nothing
 * may crash: the port filters input and drops the long report (its buffer
 * knows its size); on upstream the daemon attached no event program, so
 * HID-BPF copies nothing. The firewall keeps refusing the firmware update
 * after it.
 */
static void a_report_longer_than_declared_writes_nothing_past_the_buffer(void)
{
	static uint8_t longer[4096];
	const uint8_t plain[64] = { 0x01, 0x05 };
	const bool safe = kernel_input_path_is_safe();
	const size_t len = longest_report();
	struct policyd_case c;

	memset(longer, 0x41, sizeof(longer));
	longer[0] = 0x01;
	CHECK_OK(uhid_dev_create(&c.dev, test_device()));
	CHECK_OK(policyd_prepare(&c.run));
	c.run.refuse_unsafe_input = true;
	CHECK_OK(policyd_write_policy(&c.run, "50-test.json",
				      safe ? input_policy : request_only_policy));
	CHECK_OK(policyd_start(&c.run, NULL));
	c.fd = uhid_dev_open_hidraw(&c.dev, 0);
	CHECK_OK(c.fd);
	CHECK_EQ(wait_input_filters(c.dev.hid_id, safe ? 1 : 0, 5000), 0);

	for (int i = 0; i < 20; i++)
		CHECK_OK(uhid_dev_send_input(&c.dev, longer, len));
	CHECK_OK(uhid_dev_send_input(&c.dev, plain, sizeof(plain)));
	if (safe) {
		/* dropped before any program or reader saw it */
		CHECK_EQ(uhid_hidraw_read_input_byte1(c.fd, 5000), 0x05);
	} else {
		int first;

		/* whatever hid-core and the transport made of the long
		 * reports, the plain one comes after them */
		while ((first = uhid_hidraw_read_input_byte1(c.fd, 5000)) == 0x41)
			;
		CHECK_EQ(first, 0x05);
	}
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	policyd_case_end(&c);
}

static const struct test_case tests[] = {
	{ "input_rules_are_refused_where_the_input_path_is_not_safe",
	  input_rules_are_refused_where_the_input_path_is_not_safe, 120 },
	{ "an_unbound_device_gets_no_input_filter_until_it_is_bound",
	  an_unbound_device_gets_no_input_filter_until_it_is_bound, 180 },
	{ "while_unbound_no_registration_adds_an_input_filter",
	  while_unbound_no_registration_adds_an_input_filter, 180 },
	{ "a_vendor_driver_taking_over_gets_the_input_filter_once_bound",
	  a_vendor_driver_taking_over_gets_the_input_filter_once_bound, 120 },
	{ "a_report_longer_than_declared_writes_nothing_past_the_buffer",
	  a_report_longer_than_declared_writes_nothing_past_the_buffer, 120 },
};

int main(int argc, char **argv)
{
	int failed;

	test_dev_keep_driver_setting();
	failed = test_main(argc, argv, "e2e", tests, ARRAY_SIZE(tests));
	backend = TEST_DEV_USB;
	failed |= test_main(argc, argv, "e2e/usb", tests, ARRAY_SIZE(tests));
	backend = TEST_DEV_BT;
	failed |= test_main(argc, argv, "e2e/bt", tests, ARRAY_SIZE(tests));
	return failed;
}
