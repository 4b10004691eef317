// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: the ways past the firewall and the places it failed open,
 * as an attacker with an open hidraw node tries them. Each case failed
 * before its fix; each checks the caller's errno and what the device
 * received.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/hidraw.h>
#include <bpf/bpf.h>

#include "bpf/hid_firewall.h"
#include "bpf/hid_rules.h"

#include "harness.h"
#include "json_path.h"
#include "policyd_case.h"
#include "uhid_dev.h"

#define UNDECLARED_RULE "(report type and ID the descriptor does not declare)"

/* Every case runs on uhid, then on USB (usbhid on dummy_hcd), where the
 * shifted bytes of an undeclared report ID would really reach the wire. */
static enum test_dev_backend backend;

/* uhid_test_rdesc numbers every report: input 1, output 2, feature 3, 4
 * and 0xf0 (the firmware update). */
static const char numbered_policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"name\": \"numbered\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5701\" },\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" },\n"
	"      { \"name\": \"no-output-2\", \"request\": [\"output_report\", \"set_report\"],\n"
	"        \"report_type\": \"output\", \"report_id\": 2, \"action\": \"deny\" }\n"
	"    ] } ] }\n";

static struct uhid_dev_config numbered_device(void)
{
	return (struct uhid_dev_config){
		.backend = backend,
		.name = "numbered reports",
		.vendor = 0x1234,
		.product = 0x5701,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};
}

/* One unnumbered feature report of 8 bytes and one unnumbered input
 * report of 8 bytes. */
static const uint8_t unnumbered_rdesc[] = {
	0x06, 0x00, 0xff,	/* Usage Page (Vendor Defined 0xFF00) */
	0x09, 0x01,		/* Usage (0x01) */
	0xa1, 0x01,		/* Collection (Application) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x08,		/*   Report Count (8) */
	0x09, 0x02,		/*   Usage (0x02) */
	0x81, 0x02,		/*   Input (Data,Var,Abs) */
	0x09, 0x03,		/*   Usage (0x03) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0xc0,			/* End Collection */
};

/* The command 0x90 in the feature report's first data byte (byte 1 of
 * hidraw's buffer, after the report number 0) is refused. */
static const char unnumbered_policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"name\": \"unnumbered\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5702\" },\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-command-0x90\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": 0,\n"
	"        \"payload\": [ { \"offset\": 1, \"value\": \"0x90\" } ], \"action\": \"deny\" }\n"
	"    ] } ] }\n";

static struct uhid_dev_config unnumbered_device(void)
{
	return (struct uhid_dev_config){
		.backend = backend,
		.name = "unnumbered reports",
		.vendor = 0x1234,
		.product = 0x5702,
		.rdesc = unnumbered_rdesc,
		.rdesc_size = sizeof(unnumbered_rdesc),
	};
}

static int ioctl_errno(int fd, unsigned long request, void *buf)
{
	return ioctl(fd, request, buf) < 0 ? errno : 0;
}

static int write_errno(int fd, const void *buf, size_t size)
{
	return write(fd, buf, size) < 0 ? errno : 0;
}

static size_t undeclared_records(struct policyd_case *c, size_t want)
{
	char hid_id[32];
	const char *filters[] = { hid_id, "rule.name=" UNDECLARED_RULE, "enforced=true", NULL };

	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c->dev.hid_id);
	return policyd_audit_count(&c->run, filters, want, 3000);
}

/* One daemon for the cases on each device, which only differ in what
 * they send. */
POLICYD_SHARED_FIXTURE(numbered_daemon, numbered_policy);
POLICYD_SHARED_FIXTURE(unnumbered_daemon, unnumbered_policy);

/* usbhid sends a buffer that starts with report number 0 from byte 1 on,
 * so [00 f0 ...] would reach the device as feature report 0xf0. On a
 * device that numbers every report type, number 0 is refused on every
 * hidraw path, and the device receives nothing. */
static void test_report_number_0_on_a_numbered_device_is_refused_on_every_path(void)
{
	struct uhid_dev_config cfg = numbered_device();
	struct policyd_case c;
	uint8_t buf[64] = { 0x00, 0xf0 };

	policyd_case_start_on(&c, &numbered_daemon_run, &cfg);

	CHECK_EQ(write_errno(c.fd, (uint8_t[64]){ 0x00, 0x02 }, 64), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSOUTPUT(sizeof(buf)), buf), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(sizeof(buf)), buf), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSINPUT(sizeof(buf)), buf), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCGFEATURE(sizeof(buf)), buf), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCGINPUT(sizeof(buf)), buf), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCGOUTPUT(sizeof(buf)), buf), EPERM);
	usleep(200 * 1000);	/* output reports reach uhid asynchronously */
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, -1), 0);
	CHECK_EQ(undeclared_records(&c, 7), 7);

	/* A declared number still goes to the rules. */
	buf[0] = 3;
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(sizeof(buf)), buf), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 3, 1, 2000));
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 3), 1);

	policyd_case_end(&c);
}

/* On a device whose feature report has no number, usbhid sends a buffer
 * with a non-zero first byte whole: [90 04 ...] delivers the same bytes as
 * the refused command [00 90 04 ...]. Both are refused. */
static void test_nonzero_report_number_on_an_unnumbered_device_is_refused(void)
{
	struct uhid_dev_config cfg = unnumbered_device();
	struct policyd_case c;
	uint8_t shifted[9] = { 0x90, 0x04 }, command[9] = { 0x00, 0x90, 0x04 };
	uint8_t harmless[9] = { 0x00, 0x11 };

	policyd_case_start_on(&c, &unnumbered_daemon_run, &cfg);

	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(sizeof(shifted)), shifted), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(sizeof(command)), command), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(undeclared_records(&c, 1), 1);

	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(sizeof(harmless)), harmless), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0, 1, 2000));
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0), 1);

	policyd_case_end(&c);
}

/* GET and SET of every report type, and write(), each naming a report
 * the numbered device's descriptor does not declare for that type: an ID
 * of another type, or one no type has. Each is refused before any rule
 * (the policy's default allows), nothing reaches the device, and each
 * leaves an enforced record of the check. The declared reports still go
 * to the rules. */
static void test_undeclared_reports_of_a_numbered_device_are_refused_on_every_type(void)
{
	struct uhid_dev_config cfg = numbered_device();
	struct policyd_case c;

	policyd_case_start_on(&c, &numbered_daemon_run, &cfg);

	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(64), (uint8_t[64]){ 0x02 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(64), (uint8_t[64]){ 0x77 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCGFEATURE(64), (uint8_t[64]){ 0x01 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSINPUT(64), (uint8_t[64]){ 0x03 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCGINPUT(64), (uint8_t[64]){ 0x02 }), EPERM);
	CHECK_EQ(write_errno(c.fd, (uint8_t[64]){ 0x03 }, 64), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSOUTPUT(64), (uint8_t[64]){ 0xf0 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCGOUTPUT(64), (uint8_t[64]){ 0x04 }), EPERM);
	usleep(200 * 1000);	/* output reports reach uhid asynchronously */
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, -1), 0);
	CHECK_EQ(undeclared_records(&c, 8), 8);

	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(64), (uint8_t[64]){ 0x03, 0x11 }), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 3, 1, 2000));
	/* output report 2 is declared: the policy's rule refuses it */
	CHECK_EQ(write_errno(c.fd, (uint8_t[64]){ 0x02, 0x11 }, 64), EPERM);
	CHECK_EQ(undeclared_records(&c, 9), 8);

	policyd_case_end(&c);
}

/* The unnumbered device declares input and feature report 0 and no output
 * report: report 0 of the output type, written or set, is refused as a
 * non-zero number of the other types is. */
static void test_undeclared_reports_of_an_unnumbered_device_are_refused_on_every_type(void)
{
	struct uhid_dev_config cfg = unnumbered_device();
	struct policyd_case c;

	policyd_case_start_on(&c, &unnumbered_daemon_run, &cfg);

	CHECK_EQ(write_errno(c.fd, (uint8_t[9]){ 0x00, 0x11 }, 9), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSOUTPUT(9), (uint8_t[9]){ 0x00, 0x11 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCGOUTPUT(9), (uint8_t[9]){ 0x00 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(9), (uint8_t[9]){ 0x05, 0x11 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCGINPUT(9), (uint8_t[9]){ 0x07 }), EPERM);
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, -1), 0);
	CHECK_EQ(undeclared_records(&c, 5), 5);

	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(9), (uint8_t[9]){ 0x00, 0x11 }), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0, 1, 2000));

	policyd_case_end(&c);
}

/* A Steam Deck-like controller (28DE:1205): a 64-byte input and feature
 * report, no report ID, no output report. Its rule set is the shipped
 * one (policies/40-valve-steam.json), read as it is. */
static const uint8_t deck_rdesc[] = {
	0x06, 0xff, 0xff,	/* Usage Page (Vendor Defined 0xFFFF) */
	0x09, 0x01,		/* Usage (0x01) */
	0xa1, 0x01,		/* Collection (Application) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x40,		/*   Report Count (64) */
	0x09, 0x01,		/*   Usage (0x01) */
	0x81, 0x02,		/*   Input (Data,Var,Abs) */
	0x09, 0x01,		/*   Usage (0x01) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0xc0,			/* End Collection */
};

static struct uhid_dev_config deck_device(void)
{
	return (struct uhid_dev_config){
		.backend = backend,
		.name = "Steam Deck-like controller",
		.vendor = 0x28de,
		.product = 0x1205,
		.rdesc = deck_rdesc,
		.rdesc_size = sizeof(deck_rdesc),
	};
}

/* The shipped rule set, read as it is; NULL when it cannot be read. */
static const char *deck_policy(void)
{
	static char policy[64 * 1024];
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	char path[512];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/policies/40-valve-steam.json", src);
	n = read_file(path, policy, sizeof(policy) - 1);
	if (n <= 0) {
		test_log("%s: %s", path, strerror(n < 0 ? (int)-n : EIO));
		return NULL;
	}
	policy[n] = '\0';
	return policy;
}

/* One daemon for the Deck's cases, which only differ in what they send. */
POLICYD_SHARED_FIXTURE(deck_daemon, deck_policy());

static void start_deck(struct policyd_case *c)
{
	struct uhid_dev_config cfg = deck_device();

	policyd_case_start_on(c, &deck_daemon_run, &cfg);
}

static size_t rule_records(struct policyd_case *c, const char *rule, size_t want)
{
	char hid_id[32], name[128];
	const char *filters[] = { hid_id, name, "enforced=true", NULL };

	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c->dev.hid_id);
	snprintf(name, sizeof(name), "rule.name=%s", rule);
	return policyd_audit_count(&c->run, filters, want, 3000);
}

/* The device's last request of kind REQ carried BYTES from byte SKIP of
 * its record on. Records start with the report number: the one hidraw's
 * buffer had (uhid), or a 0 put back in front of what an unnumbered USB
 * device got (uhid_dev.h), whatever byte 0 of the buffer was. */
static void check_received(struct uhid_dev *dev, enum uhid_dev_request req, size_t skip,
			   const uint8_t *bytes, size_t n)
{
	struct uhid_dev_record rec;

	CHECK(uhid_dev_last(dev, req, &rec), "nothing reached the device");
	CHECK(rec.size >= skip + n && !memcmp(rec.data + skip, bytes, n),
	      "the device got %02x %02x %02x ..., not %02x %02x ...", rec.data[skip],
	      rec.data[skip + 1], rec.data[skip + 2], bytes[0], n > 1 ? bytes[1] : 0);
}

/* write() on the Deck: usbhid leaves out a leading zero, so 00 90 04
 * reaches the firmware as the reboot-to-bootloader command 90 04, and a
 * leading non-zero byte goes whole, as InputPlumber writes its commands
 * (src/drivers/steam_deck/driver.rs, Driver::write_register,
 * set_lizard_mode). The bootloader command is refused both ways;
 * InputPlumber's register write and mapping clear pass and reach the
 * device as written. */
static void test_deck_write_refuses_the_bootloader_command_and_passes_inputplumbers(void)
{
	const uint8_t write_register[] = { 0x87, 0x03, 0x08, 0x07, 0x00 };
	/* a write's first byte is the first the firmware reads */
	size_t written_from = backend == TEST_DEV_USB ? 1 : 0;
	uint8_t buf[64] = { 0 };
	struct policyd_case c;

	start_deck(&c);

	CHECK_EQ(write_errno(c.fd, (uint8_t[64]){ 0x00, 0x90, 0x04 }, 64), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSOUTPUT(64), (uint8_t[64]){ 0x00, 0x90, 0x04 }), EPERM);
	CHECK_EQ(write_errno(c.fd, (uint8_t[64]){ 0x90, 0x04 }, 64), EPERM);
	CHECK_EQ(write_errno(c.fd, (uint8_t[64]){ 0x95 }, 64), EPERM);
	usleep(200 * 1000);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(rule_records(&c, "valve-deck-deny-reboot-to-isp", 2), 2);
	CHECK_EQ(rule_records(&c, "valve-deck-deny-reboot-to-isp-as-report-id", 1), 1);
	CHECK_EQ(rule_records(&c, "valve-deck-deny-update-reboot-as-report-id", 1), 1);

	memcpy(buf, write_register, sizeof(write_register));
	CHECK_EQ(write_errno(c.fd, buf, sizeof(buf)), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 1, 2000));
	check_received(&c.dev, UHID_DEV_OUTPUT, written_from, write_register, sizeof(write_register));
	CHECK_EQ(write_errno(c.fd, (uint8_t[64]){ 0x81 }, 64), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 2, 2000));
	check_received(&c.dev, UHID_DEV_OUTPUT, written_from, (const uint8_t[]){ 0x81, 0x00 }, 2);
	CHECK_EQ(undeclared_records(&c, 1), 0);

	policyd_case_end(&c);
}

/* SET_REPORT on the Deck: the bootloader command in feature report 0
 * behind a zero (hidapi's report number), as the report ID of a feature
 * report, and in input report 0, whose bytes after the zero reach the
 * firmware too: all refused. The settings SDL and hid-steam send in
 * feature report 0 pass and reach the device. */
static void test_deck_feature_path_refuses_the_bootloader_command_and_passes_settings(void)
{
	const uint8_t settings[] = { 0x87, 0x03, 0x08, 0x07 };
	uint8_t buf[65] = { 0 };
	struct policyd_case c;

	start_deck(&c);

	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(65), (uint8_t[65]){ 0x00, 0x90, 0x04 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(65), (uint8_t[65]){ 0x90, 0x04 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSINPUT(65), (uint8_t[65]){ 0x00, 0x90, 0x04 }), EPERM);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(65), (uint8_t[65]){ 0x00, 0x92, 0x3c }), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(rule_records(&c, "valve-deck-deny-reboot-to-isp", 2), 2);
	CHECK_EQ(rule_records(&c, "valve-deck-deny-reboot-to-isp-as-report-id", 1), 1);
	CHECK_EQ(rule_records(&c, "valve-deck-deny-update-data", 1), 1);

	/* SDL_hidapi_steamdeck.c DisableDeckLizardMode, hid-steam
	 * steam_set_lizard_mode, steam_haptic_rumble */
	memcpy(buf + 1, settings, sizeof(settings));
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(sizeof(buf)), buf), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0, 1, 2000));
	check_received(&c.dev, UHID_DEV_SET_REPORT, 1, settings, sizeof(settings));
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(65), (uint8_t[65]){ 0x00, 0x81 }), 0);
	CHECK_EQ(ioctl_errno(c.fd, HIDIOCSFEATURE(65), (uint8_t[65]){ 0x00, 0xeb, 0x09 }), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0, 3, 2000));
	check_received(&c.dev, UHID_DEV_SET_REPORT, 1, (const uint8_t[]){ 0xeb, 0x09 }, 2);

	policyd_case_end(&c);
}

/* A new vendor's rules rolled out in audit mode come first and match the
 * firmware update too: they log it, and the enforcing rule after them
 * still refuses it. */
static const char audit_first_policy[] =
	"{ \"version\": 1, \"devices\": [\n"
	"  { \"name\": \"rollout\", \"mode\": \"audit\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5701\" },\n"
	"    \"rules\": [ { \"name\": \"watch-features\", \"request\": \"set_report\",\n"
	"      \"report_type\": \"feature\", \"report_id\": \"any\", \"action\": \"deny\" } ] },\n"
	"  { \"name\": \"enforced\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5701\" },\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [ { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"      \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" } ] }\n"
	"] }\n";

static void test_an_audit_rule_set_does_not_shadow_an_enforcing_one(void)
{
	struct uhid_dev_config cfg = numbered_device();
	struct policyd_case c;
	const char *audited[] = { "rule.name=watch-features", "enforced=false", NULL };
	const char *refused[] = { "rule.name=no-firmware-update", "enforced=true", NULL };

	policyd_case_start(&c, &cfg, audit_first_policy);

	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	CHECK_EQ(policyd_audit_count(&c.run, audited, 1, 3000), 1);
	CHECK_EQ(policyd_audit_count(&c.run, refused, 1, 3000), 1);

	/* Another feature report: logged by the audit rule set, let through. */
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 3), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 3, 1, 2000));
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 3), 1);
	CHECK_EQ(policyd_audit_count(&c.run, audited, 2, 3000), 2);

	policyd_case_end(&c);
}

/* A temporary allow granted for 2 s ends in the kernel even when the
 * daemon was killed before it expired. */
static void test_a_temporary_allow_ends_when_the_daemon_is_dead(void)
{
	struct uhid_dev_config cfg = numbered_device();
	struct policyctl_output out;
	struct policyd_case c;

	policyd_case_start(&c, &cfg, numbered_policy);
	POLICYCTL(&c.run, (uid_t)-1, &out, "allow", c.dev.sysname, "--for", "2s");
	CHECK(out.status == 0, "allow: exit %d: %s", out.status, out.err);
	policyctl_output_done(&out);

	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), 0);
	/* a USB device records the control transfer after the call returned */
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0, 1, 2000));

	policyd_stop(&c.run, true);	/* SIGKILL: nothing ends the allow */
	sleep(3);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 1);

	close(c.fd);
	CHECK_OK(policyd_cleanup(&c.run));
	uhid_dev_destroy(&c.dev);
}

/* An allow without --request lets every request through and logs each,
 * but leaves input reports alone: 50 of them make no record. */
static void test_an_allow_without_request_logs_no_input(void)
{
	struct uhid_dev_config cfg = numbered_device();
	struct policyctl_output out;
	struct policyd_case c;
	const uint8_t report[64] = { 0x01 };
	char hid_id[32];
	const char *input_records[] = { hid_id, "hook=hid_device_event", NULL };
	const char *grant_records[] = { hid_id, "rule.name=temporary-allow-1", NULL };

	policyd_case_start(&c, &cfg, numbered_policy);
	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c.dev.hid_id);
	POLICYCTL(&c.run, (uid_t)-1, &out, "allow", c.dev.sysname, "--for", "60s");
	CHECK(out.status == 0, "allow: exit %d: %s", out.status, out.err);
	policyctl_output_done(&out);

	for (int i = 0; i < 50; i++)
		CHECK_OK(uhid_dev_send_input(&c.dev, report, sizeof(report)));
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), 0);
	CHECK_EQ(policyd_audit_count(&c.run, grant_records, 1, 3000), 1);
	CHECK_EQ(policyd_audit_count(&c.run, input_records, 1, 500), 0);

	policyd_case_end(&c);
}

/* An input rule whose condition lies past the end of a short report: the
 * buffer's zero padding there is not the report's. (hid-core itself drops
 * a report shorter than its declared size after the firewall, so the
 * firewall's decision shows in the audit trail, not at the reader.) */
static const char short_input_policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"name\": \"short-input\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5701\" },\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [ { \"name\": \"drop-zero-byte-10\", \"request\": \"input_event\",\n"
	"      \"report_id\": 1, \"payload\": [ { \"offset\": 10, \"value\": \"00\" } ],\n"
	"      \"action\": \"deny\" } ] } ] }\n";

static void test_a_condition_past_the_end_of_a_short_report_does_not_match(void)
{
	struct uhid_dev_config cfg = numbered_device();
	struct policyd_case c;
	const uint8_t short_report[4] = { 0x01, 0x5a };
	const uint8_t full_report[64] = { 0x01, 0x5a };
	const char *short_denied[] = { "rule.name=drop-zero-byte-10", "length=4", NULL };
	const char *full_denied[] = { "rule.name=drop-zero-byte-10", "length=64", NULL };

	policyd_case_start(&c, &cfg, short_input_policy);

	CHECK_OK(uhid_dev_send_input(&c.dev, short_report, sizeof(short_report)));
	/* The rule itself works: byte 10 of a full report is 0. */
	CHECK_OK(uhid_dev_send_input(&c.dev, full_report, sizeof(full_report)));
	CHECK_EQ(policyd_audit_count(&c.run, full_denied, 1, 3000), 1);
	CHECK_EQ(policyd_audit_count(&c.run, short_denied, 1, 0), 0);

	policyd_case_end(&c);
}

/* A logged GET_REPORT: the record says which report was asked for, and
 * carries no payload (upstream hidraw hands the firewall an uninitialised
 * kernel buffer). */
static const char logged_get_policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"name\": \"logged-get\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5701\" },\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [ { \"name\": \"log-reads\", \"request\": \"get_report\",\n"
	"      \"report_type\": \"feature\", \"report_id\": 3, \"action\": \"allow\", \"log\": true } ]\n"
	"  } ] }\n";

static void test_get_report_records_carry_no_payload(void)
{
	struct uhid_dev_config cfg = numbered_device();
	struct policyd_case c;
	const uint8_t reply[64] = { 0x03, 0xaa };
	uint8_t buf[64] = { 0x03, 0x55, 0x55, 0x55 };
	const char *filters[] = { "rule.name=log-reads", NULL };
	json_t *rec;

	policyd_case_start(&c, &cfg, logged_get_policy);
	uhid_dev_set_get_reply(&c.dev, 3, reply, sizeof(reply), 0);

	CHECK_EQ(ioctl(c.fd, HIDIOCGFEATURE(sizeof(buf)), buf), (int)sizeof(buf));
	CHECK_EQ(policyd_audit_count(&c.run, filters, 1, 3000), 1);
	rec = policyd_audit_last(&c.run, filters);
	CHECK(rec, "no record");
	CHECK(!strcmp(json_path_str(rec, "payload"), ""),
	      "the record carries a payload: %s", json_path_str(rec, "payload"));
	json_decref(rec);

	policyd_case_end(&c);
}

/* Fill the rules map with other devices' entries until it refuses one
 * more; returns how many were added. (An attacker cannot do this: the pins
 * are root's. A thousand devices with rules can.) */
static int fill_rules_map(const struct policyd_run *run, uint32_t first_key)
{
	static struct hid_device_rules empty;
	char path[160];
	int fd, n = 0;

	snprintf(path, sizeof(path), "%s/hid_rules", run->state_dir);
	fd = bpf_obj_get(path);
	CHECK(fd >= 0, "%s: %s", path, strerror(errno));
	for (uint32_t key = first_key; n <= HID_FW_MAX_DEVICES; key++, n++)
		if (bpf_map_update_elem(fd, &key, &empty, BPF_NOEXIST) < 0)
			break;
	CHECK(errno == E2BIG, "the rules map took %d entries and then said %s", n,
	      strerror(errno));
	close(fd);
	return n;
}

static void empty_rules_map(const struct policyd_run *run, uint32_t first_key, int n)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/hid_rules", run->state_dir);
	fd = bpf_obj_get(path);
	CHECK(fd >= 0, "%s: %s", path, strerror(errno));
	for (uint32_t key = first_key; key < first_key + (uint32_t)n; key++)
		CHECK_OK(bpf_map_delete_elem(fd, &key));
	close(fd);
}

/* A device whose rules cannot be stored (the rules map is full) used to be
 * left with no firewall at all. It fails closed: every request is refused
 * and logged, its input still reaches readers, and once its rules can be
 * stored a reload applies them. */
static void test_a_device_whose_rules_cannot_be_stored_fails_closed(void)
{
	struct uhid_dev_config cfg = numbered_device();
	const uint32_t fake_ids = 0x40000000;
	const uint8_t report[64] = { 0x01, 0x77 };
	uint8_t got[64] = { 0 };
	char hid_id[32];
	const char *refusals[] = { hid_id, "rule.name=(no rules loaded)", "enforced=true", NULL };
	struct pollfd pfd;
	struct policyd_run run;
	struct uhid_dev dev;
	json_t *j;
	int fd, filled;

	CHECK_OK(policyd_prepare(&run));
	CHECK_OK(policyd_write_policy(&run, "50-test.json", numbered_policy));
	CHECK_OK(policyd_start(&run, NULL));
	filled = fill_rules_map(&run, fake_ids);

	CHECK_OK(uhid_dev_create(&dev, &cfg));
	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", dev.hid_id);
	CHECK(policyd_said(&run, dev.sysname, 30000), "the daemon never mentioned %s", dev.sysname);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);

	/* The policy lets feature reports 3 and 4 through; without its rules
	 * the device refuses them, reading too. */
	CHECK_EQ(uhid_hidraw_set_feature(fd, 3), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(fd, 4), EPERM);
	CHECK_EQ(ioctl_errno(fd, HIDIOCGFEATURE(sizeof(got)), (uint8_t[64]){ 0x03 }), EPERM);
	CHECK_EQ(uhid_dev_count(&dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(uhid_dev_count(&dev, UHID_DEV_GET_REPORT, -1), 0);
	CHECK_EQ(policyd_audit_count(&run, refusals, 3, 3000), 3);
	CHECK(policyd_said(&run, "failing closed", 0), "the daemon did not say it fails closed");

	CHECK_OK(uhid_dev_send_input(&dev, report, sizeof(report)));
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 5000), 1);
	CHECK_EQ(read(fd, got, sizeof(got)), (ssize_t)sizeof(got));
	CHECK_EQ(got[1], 0x77);

	j = POLICYCTL_JSON(&run, (uid_t)-1, "devices");
	CHECK(json_is_true(json_object_get(json_array_get(json_object_get(j, "devices"), 0),
					   "fail_closed")), "devices does not say fail_closed");
	json_decref(j);

	empty_rules_map(&run, fake_ids, filled);
	CHECK_OK(policyd_reload(&run));
	CHECK(policyd_said(&run, "no longer failing closed", 30000), "the rules never came");
	CHECK_EQ(uhid_hidraw_set_feature(fd, 3), 0);
	CHECK_EQ(uhid_hidraw_set_feature(fd, 0xf0), EPERM);
	CHECK_OK(uhid_dev_wait_count(&dev, UHID_DEV_SET_REPORT, 3, 1, 3000));
	CHECK_EQ(uhid_dev_count(&dev, UHID_DEV_SET_REPORT, 0xf0), 0);

	close(fd);
	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	uhid_dev_destroy(&dev);
}

int main(int argc, char **argv)
{
	static const struct test_case tests[] = {
		{ "report_number_0_on_a_numbered_device_is_refused_on_every_path",
		  test_report_number_0_on_a_numbered_device_is_refused_on_every_path, 0, &numbered_daemon },
		{ "undeclared_reports_of_a_numbered_device_are_refused_on_every_type",
		  test_undeclared_reports_of_a_numbered_device_are_refused_on_every_type, 0, &numbered_daemon },
		{ "nonzero_report_number_on_an_unnumbered_device_is_refused",
		  test_nonzero_report_number_on_an_unnumbered_device_is_refused, 0, &unnumbered_daemon },
		{ "undeclared_reports_of_an_unnumbered_device_are_refused_on_every_type",
		  test_undeclared_reports_of_an_unnumbered_device_are_refused_on_every_type, 0, &unnumbered_daemon },
		{ "deck_write_refuses_the_bootloader_command_and_passes_inputplumbers",
		  test_deck_write_refuses_the_bootloader_command_and_passes_inputplumbers, 0, &deck_daemon },
		{ "deck_feature_path_refuses_the_bootloader_command_and_passes_settings",
		  test_deck_feature_path_refuses_the_bootloader_command_and_passes_settings, 0, &deck_daemon },
		{ "an_audit_rule_set_does_not_shadow_an_enforcing_one",
		  test_an_audit_rule_set_does_not_shadow_an_enforcing_one },
		{ "a_temporary_allow_ends_when_the_daemon_is_dead",
		  test_a_temporary_allow_ends_when_the_daemon_is_dead },
		{ "an_allow_without_request_logs_no_input",
		  test_an_allow_without_request_logs_no_input },
		{ "a_condition_past_the_end_of_a_short_report_does_not_match",
		  test_a_condition_past_the_end_of_a_short_report_does_not_match },
		{ "get_report_records_carry_no_payload",
		  test_get_report_records_carry_no_payload },
		{ "a_device_whose_rules_cannot_be_stored_fails_closed",
		  test_a_device_whose_rules_cannot_be_stored_fails_closed },
	};

	int failed;

	failed = test_main(argc, argv, "e2e-bypass", tests, ARRAY_SIZE(tests));
	backend = TEST_DEV_USB;
	failed |= test_main(argc, argv, "e2e-bypass/usb", tests, ARRAY_SIZE(tests));
	return failed;
}
