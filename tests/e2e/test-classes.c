// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: rule sets that match devices by what they are and by which
 * one they are, on uhid and on USB (usbhid on dummy_hcd).
 *
 *   - every game controller, any vendor: one rule set matching the report
 *     descriptor's application collection (usage "game_controller")
 *     refuses the firmware-update report on game pads and joysticks of
 *     three vendors, present at start or plugged in later, and leaves a
 *     vendor-defined device with the same reports alone;
 *   - deny by default on one device, chosen by its serial (HID_UNIQ), with
 *     a short allow-list: its input, one feature report to read and one
 *     output report pass, everything else is refused; a device of the same
 *     vendor and product with another serial is not touched (the example
 *     of hid-policy.d(5), as printed);
 *   - a new vendor's rules rolled out in audit mode (the man page's
 *     example) log what they would refuse and shadow no enforcing rule;
 *   - what the daemon shows of a device (hid-policyctl devices), pins
 *     (generate) and explains (explain --usage);
 *   - a policy that would lock out every device's input is refused by
 *     hid-policyd --check and at reload, and the rules in force stay;
 *   - so is every other kind of mistake, each placed by file, line,
 *     column and JSON path, with the nearest right word for a misspelling;
 *   - a report named by where the descriptor declares it: the shipped
 *     PixArt RF rules refuse a user's OTA command on the feature report
 *     of usage page 0xFF02, here report 0x0B, and let another command of
 *     that report through.
 *
 * Each check looks at both ends: the caller's errno and what the device
 * received.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/hidraw.h>

#include "harness.h"
#include "json_path.h"
#include "man_example.h"
#include "hid/sha256.h"
#include "policyd_case.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define DECISION_TIMEOUT_MS 30000	/* TCG is slow; a hotplug waits for the bind */
#define USER_UID 1000

static enum test_dev_backend backend;

static const uint8_t game_pad_rdesc[] = UHID_CLASS_RDESC(0x05);
static const uint8_t joystick_rdesc[] = UHID_CLASS_RDESC(0x04);

static const char controllers_policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"name\": \"game-controllers\",\n"
	"    \"match\": { \"usage\": \"game_controller\" },\n"
	"    \"rules\": [\n"
	"      { \"name\": \"controllers-no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
	"    ] } ] }\n";

static struct uhid_dev_config device(const char *name, uint16_t vendor, uint16_t product,
				     const uint8_t *rdesc, size_t size)
{
	return (struct uhid_dev_config){
		.backend = backend,
		.name = name,
		.vendor = vendor,
		.product = product,
		.rdesc = rdesc,
		.rdesc_size = size,
	};
}

/* The daemon's decision on DEV, as udev reads it: 1 protected, 0 not. */
static int decision(struct policyd_run *run, const struct uhid_dev *dev)
{
	char path[512], text[32] = "";

	snprintf(path, sizeof(path), "%s/devices/%s", run->runtime_dir, dev->sysname);
	for (int waited = 0; waited < DECISION_TIMEOUT_MS; waited += 50) {
		ssize_t n = read_file(path, text, sizeof(text) - 1);

		if (n > 0) {
			text[n] = '\0';
			return !strncmp(text, "protected", 9);
		}
		usleep(50 * 1000);
	}
	CHECK(false, "no decision on %s in %d ms", dev->sysname, DECISION_TIMEOUT_MS);
	return -1;
}

/*
 * The first decision udev could have read for a device plugged in while
 * this watch runs: its decision file is polled every millisecond from
 * before the device exists. A device that a rule set will protect once its
 * descriptor is parsed must never be published "unprotected" first (udev
 * would open its node to users before the firewall is in place).
 */
struct first_decision {
	pthread_t thread;
	const char *dir;	/* RUNTIME_DIR/devices */
	char prefix[32];	/* "0003:4321:0001." */
	char first[32];		/* what the file first held, "" until then */
	bool stop;		/* atomic */
};

static void *watch_decisions(void *arg)
{
	struct first_decision *w = arg;

	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE) && !w->first[0]) {
		DIR *d = opendir(w->dir);
		struct dirent *de;

		while (d && (de = readdir(d)) && !w->first[0]) {
			char path[512], text[32];
			ssize_t n;

			if (strncmp(de->d_name, w->prefix, strlen(w->prefix)))
				continue;
			snprintf(path, sizeof(path), "%s/%s", w->dir, de->d_name);
			n = read_file(path, text, sizeof(text) - 1);
			if (n > 0) {
				text[n] = '\0';
				snprintf(w->first, sizeof(w->first), "%s", text);
			}
		}
		if (d)
			closedir(d);
		usleep(1000);
	}
	return NULL;
}

static void first_decision_start(struct first_decision *w, struct policyd_run *run,
				 const struct uhid_dev_config *cfg)
{
	static char dir[200];

	snprintf(dir, sizeof(dir), "%s/devices", run->runtime_dir);
	*w = (struct first_decision){ .dir = dir };
	snprintf(w->prefix, sizeof(w->prefix), "0003:%04X:%04X.", cfg->vendor, cfg->product);
	CHECK_EQ(pthread_create(&w->thread, NULL, watch_decisions, w), 0);
}

static const char *first_decision_end(struct first_decision *w)
{
	__atomic_store_n(&w->stop, true, __ATOMIC_RELEASE);
	pthread_join(w->thread, NULL);
	return w->first;
}

static int set_feature_errno(int fd, uint8_t id)
{
	return uhid_hidraw_set_feature(fd, id);
}

static int get_feature_errno(int fd, uint8_t id)
{
	uint8_t buf[64] = { id };

	return ioctl(fd, HIDIOCGFEATURE(sizeof(buf)), buf) < 0 ? errno : 0;
}

static int output_errno(int fd, uint8_t id)
{
	uint8_t buf[64] = { id, 0x55 };

	return write(fd, buf, sizeof(buf)) < 0 ? errno : 0;
}

/* A game controller of any vendor: the firmware update is refused and never
 * reaches it; another feature report does. */
static void check_controller_refuses_update(struct policyd_run *run, struct uhid_dev *dev)
{
	char hid_id[32];
	const char *refused[] = { hid_id, "rule.name=controllers-no-firmware-update",
				  "enforced=true", NULL };
	int fd;

	CHECK_EQ(decision(run, dev), 1);
	fd = uhid_dev_open_hidraw(dev, 0);
	CHECK_OK(fd);
	CHECK_EQ(set_feature_errno(fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	CHECK_EQ(set_feature_errno(fd, 3), 0);
	CHECK_OK(uhid_dev_wait_count(dev, UHID_DEV_SET_REPORT, 3, 1, 3000));
	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", dev->hid_id);
	CHECK_EQ(policyd_audit_count(run, refused, 1, 3000), 1);
	close(fd);
}

static void test_every_game_controller_of_any_vendor_is_matched_by_usage(void)
{
	const uint8_t *vendor_rdesc = uhid_test_rdesc;
	struct uhid_dev_config pad_cfg = device("pad of vendor 1234", 0x1234, 0x5801, game_pad_rdesc,
						sizeof(game_pad_rdesc));
	struct uhid_dev_config pad2_cfg = device("pad of vendor 4321", 0x4321, 0x0001, game_pad_rdesc,
						 sizeof(game_pad_rdesc));
	struct uhid_dev_config stick_cfg = device("joystick of vendor 7777", 0x7777, 0x0a0a,
						  joystick_rdesc, sizeof(joystick_rdesc));
	struct uhid_dev_config other_cfg = device("vendor-defined device", 0x1234, 0x5802,
						  vendor_rdesc, uhid_test_rdesc_size);
	struct first_decision watch;
	struct uhid_dev pad, dev;
	struct policyd_run run;
	int fd;

	/* present when the daemon starts */
	CHECK_OK(uhid_dev_create(&pad, &pad_cfg));
	CHECK_OK(policyd_prepare(&run));
	CHECK_OK(policyd_write_policy(&run, "50-controllers.json", controllers_policy));
	CHECK_OK(policyd_start(&run, NULL));
	check_controller_refuses_update(&run, &pad);
	uhid_dev_destroy(&pad);

	/* plugged in later: another vendor's game pad, then a joystick (the
	 * decision waits for the bind event, when the descriptor is known) */
	first_decision_start(&watch, &run, &pad2_cfg);
	CHECK_OK(uhid_dev_create(&dev, &pad2_cfg));
	check_controller_refuses_update(&run, &dev);
	CHECK(!strncmp(first_decision_end(&watch), "protected", 9),
	      "the first decision published was \"%s\"", watch.first);
	uhid_dev_destroy(&dev);
	CHECK_OK(uhid_dev_create(&dev, &stick_cfg));
	check_controller_refuses_update(&run, &dev);
	uhid_dev_destroy(&dev);

	/* the same reports on a device that is no game controller: untouched */
	CHECK_OK(uhid_dev_create(&dev, &other_cfg));
	CHECK_EQ(decision(&run, &dev), 0);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	CHECK_EQ(set_feature_errno(fd, 0xf0), 0);
	CHECK_OK(uhid_dev_wait_count(&dev, UHID_DEV_SET_REPORT, 0xf0, 1, 3000));
	close(fd);
	uhid_dev_destroy(&dev);

	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
}

/* What the daemon shows of a game pad, the policy it generates for it (its
 * descriptor's hash and its serial pinned), and explain with another usage. */
static void test_devices_generate_and_explain_know_the_device_class(void)
{
	struct uhid_dev_config cfg = device("pad of vendor 1234", 0x1234, 0x5803, game_pad_rdesc,
					    sizeof(game_pad_rdesc));
	struct policyd_case c;
	json_t *gen, *match, *explain, *d, *e;
	uint8_t hash[SHA256_BYTES];
	char hex[2 * SHA256_BYTES + 1], serial[128];
	size_t i;

	cfg.uniq = backend == TEST_DEV_UHID ? "PAD-SERIAL-*1" : NULL;
	policyd_case_start(&c, &cfg, controllers_policy);
	sha256(game_pad_rdesc, sizeof(game_pad_rdesc), hash);
	for (i = 0; i < SHA256_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", hash[i]);

	d = policyd_case_device_view(&c);
	snprintf(serial, sizeof(serial), "%s", json_path_str(d, "uniq"));
	e = json_array_get(json_object_get(d, "usages"), 0);
	CHECK(json_is_string(e) && !strcmp(json_string_value(e), "game_pad"), "usages[0] is not \"game_pad\"");
	CHECK_EQ(json_array_size(json_object_get(d, "usages")), 1);
	CHECK(!strcmp(json_path_str(d, "descriptor_sha256"), hex), "hash %s, expected %s",
	      json_path_str(d, "descriptor_sha256"), hex);
	if (backend == TEST_DEV_USB)	/* usbhid's interface 0; uhid has none */
		CHECK_EQ(json_path_int(d, "interface"), 0);
	else
		CHECK(json_is_null(json_object_get(d, "interface")), "uhid device has an interface");
	json_decref(d);

	gen = POLICYCTL_JSON(&c.run, (uid_t)-1, "generate");
	match = json_array_get(json_object_get(json_array_get(json_path(gen, "policy.devices"), 0), "match"), 0);
	CHECK(match, "generate made no match");
	CHECK(!strcmp(json_path_str(match, "vendor"), "0x1234"), "vendor %s", json_path_str(match, "vendor"));
	CHECK(!strcmp(json_path_str(match, "product"), "0x5803"), "product %s",
	      json_path_str(match, "product"));
	CHECK(!strcmp(json_path_str(match, "descriptor_sha256"), hex), "pinned hash %s",
	      json_path_str(match, "descriptor_sha256"));
	/* the serial is pinned as a glob of itself: "*" escaped */
	if (backend == TEST_DEV_UHID)
		CHECK(!strcmp(json_path_str(match, "uniq"), "PAD-SERIAL-\\*1"), "pinned serial %s",
		      json_path_str(match, "uniq"));
	else
		CHECK(!strcmp(json_path_str(match, "uniq"), serial), "pinned serial %s, device %s",
		      json_path_str(match, "uniq"), serial);
	json_decref(gen);

	/* as a keyboard, the same device would not be protected */
	explain = POLICYCTL_JSON(&c.run, (uid_t)-1, "explain", c.dev.sysname, "set_report",
				 "--report", "feature", "--id", "0xf0", "--usage", "keyboard");
	CHECK(!strcmp(json_path_str(explain, "decision.action"), "allow"), "as a keyboard: %s",
	      json_path_str(explain, "text"));
	CHECK(strstr(json_path_str(explain, "text"), "no rule set matches this device"), "%s",
	      json_path_str(explain, "text"));
	json_decref(explain);
	explain = POLICYCTL_JSON(&c.run, (uid_t)-1, "explain", c.dev.sysname, "set_report",
				 "--report", "feature", "--id", "0xf0");
	CHECK(!strcmp(json_path_str(explain, "decision.action"), "deny"), "as itself: %s",
	      json_path_str(explain, "text"));
	CHECK(strstr(json_path_str(explain, "text"), "application collections: game_pad"), "%s",
	      json_path_str(explain, "text"));
	json_decref(explain);

	policyd_case_end(&c);
}

/* One device, chosen by serial, refuses everything but its allow-list. */
/* Send input report 1 from DEV and read it on FD: 0, or -ETIMEDOUT. */
static int input_passes(struct uhid_dev *dev, int fd)
{
	uint8_t report[64] = { 0x01, 0xa5 }, got[64];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	CHECK_OK(uhid_dev_send_input(dev, report, sizeof(report)));
	if (poll(&pfd, 1, 3000) != 1)
		return -ETIMEDOUT;
	n = read(fd, got, sizeof(got));
	CHECK(n >= 2 && got[0] == 0x01 && got[1] == 0xa5, "read %zd bytes, %02x %02x", n, got[0], got[1]);
	return 0;
}

static void test_deny_by_default_on_one_device_matched_by_serial(void)
{
	struct uhid_dev_config cfg = device("locked pad", 0x1234, 0x5810, game_pad_rdesc,
					    sizeof(game_pad_rdesc));
	struct uhid_dev_config other_cfg = cfg;
	struct policyd_case c;
	struct uhid_dev other;
	char hid_id[32];
	const char *refused[] = { hid_id, "enforced=true", NULL };
	int fd;

	char *policy = man_example("60-locked-pad.json");

	cfg.uniq = "SN-LOCKED-1";
	other_cfg.uniq = "SN-OTHER-2";
	other_cfg.name = "same model, other serial";
	policyd_case_start(&c, &cfg, policy);
	free(policy);
	CHECK_EQ(decision(&c.run, &c.dev), 1);
	uhid_dev_set_get_reply(&c.dev, 3, (uint8_t[64]){ 3, 0x42 }, 64, 0);

	/* the allow-list */
	CHECK_EQ(get_feature_errno(c.fd, 3), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_GET_REPORT, 3, 1, 3000));
	CHECK_EQ(output_errno(c.fd, 2), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, 2, 1, 3000));
	CHECK_OK(input_passes(&c.dev, c.fd));

	/* everything else, refused by the default with its errno */
	CHECK_EQ(set_feature_errno(c.fd, 3), EACCES);
	CHECK_EQ(get_feature_errno(c.fd, 4), EACCES);
	CHECK_EQ(set_feature_errno(c.fd, 0xf0), EACCES);
	usleep(200 * 1000);	/* output reports reach the device asynchronously */
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, 4), 0);
	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c.dev.hid_id);
	CHECK_EQ(policyd_audit_count(&c.run, refused, 3, 3000), 3);

	/* the same model with another serial: no rule set, everything passes */
	CHECK_OK(uhid_dev_create(&other, &other_cfg));
	CHECK_EQ(decision(&c.run, &other), 0);
	fd = uhid_dev_open_hidraw(&other, 0);
	CHECK_OK(fd);
	CHECK_EQ(set_feature_errno(fd, 3), 0);
	CHECK_OK(uhid_dev_wait_count(&other, UHID_DEV_SET_REPORT, 3, 1, 3000));
	CHECK_EQ(set_feature_errno(fd, 0xf0), 0);
	CHECK_OK(uhid_dev_wait_count(&other, UHID_DEV_SET_REPORT, 0xf0, 1, 3000));
	close(fd);
	uhid_dev_destroy(&other);

	policyd_case_end(&c);
}

/* A policy that would refuse every input event (deny by default on every
 * device, naming no input_event) is refused by the running daemon at
 * reload, with its place in the file; the rules in force stay, and the
 * device's input still flows. */
static void test_a_lockout_policy_is_refused_and_the_rules_in_force_stay(void)
{
	static const char lockout[] =
		"{ \"version\": 1, \"devices\": [ {\n"
		"    \"match\": { \"bus\": \"any\" },\n"
		"    \"default\": \"deny\",\n"
		"    \"rules\": [] } ] }\n";
	struct uhid_dev_config cfg = device("pad of vendor 1234", 0x1234, 0x5804, game_pad_rdesc,
					    sizeof(game_pad_rdesc));
	struct policyd_case c;
	char said[512];

	struct policyctl_output check;

	policyd_case_start(&c, &cfg, controllers_policy);
	CHECK_OK(policyd_write_policy(&c.run, "90-lockout.json", lockout));
	/* what an administrator runs first */
	CHECK_OK(policyd_check(&c.run, &check));
	snprintf(said, sizeof(said), "%s/90-lockout.json:3:16: devices[0].default: \"default\": \"deny\" refuses input events too",
		 c.run.config_dir);
	CHECK(check.status == 1, "--check: exit %d: %s", check.status, check.out);
	CHECK(strstr(check.out, said), "--check does not say %s: %s", said, check.out);
	policyctl_output_done(&check);

	CHECK_OK(policyd_reload(&c.run));
	CHECK(policyd_said(&c.run, "reload failed: the rules in force stay in force", 0),
	      "the lockout policy was not refused");
	CHECK(policyd_said(&c.run, said, 0), "no message naming %s", said);

	CHECK_OK(input_passes(&c.dev, c.fd));
	CHECK_EQ(set_feature_errno(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	CHECK_EQ(set_feature_errno(c.fd, 3), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 3, 1, 3000));

	policyd_case_end(&c);
}

/* (e): every kind of mistake, in files an administrator wrote, is
 * reported by hid-policyd --check and again by the running daemon at
 * reload, each with the file's full path, line and column, JSON path and,
 * for a misspelling, the nearest right word; the rules in force stay. */
static void test_every_mistake_is_placed_and_answered_by_check_and_by_the_daemon(void)
{
	static const char mistakes[] =
		"{ \"version\": 1, \"devices\": [\n"
		"  { \"match\": { \"bus\": \"usb\", \"vendr\": \"0x1234\", \"product\": \"5804\" },\n"
		"    \"rules\": [\n"
		"      { \"name\": \"no-update\", \"request\": \"set_report\", \"report_type\": \"featur\",\n"
		"        \"report_id\": \"f0\", \"action\": \"deny\" } ] },\n"
		"  { \"match\": { \"usage\": \"gamepad\" }, \"rules\": [] }\n"
		"] }\n";
	static const char same_name[] =
		"{ \"version\": 1, \"devices\": [ { \"match\": { \"bus\": \"usb\" }, \"rules\": [\n"
		"  { \"name\": \"controllers-no-firmware-update\", \"request\": \"output_report\",\n"
		"    \"report_id\": 2, \"action\": \"deny\" } ] } ] }\n";
	static const char *const in_files[] = {
		"60-mistakes.json~: warning: not read: rule files are named *.json (and do not start with a dot)",
		"60-mistakes.json:2:30: devices[0].match: unknown key \"vendr\"; did you mean \"vendor\"?",
		/* an earlier release's spelling: read as it was, with a warning */
		"60-mistakes.json:2:60: devices[0].match.product: warning: \"5804\" is an ID in the old spelling, hex without \"0x\", read as 0x5804 as before; write \"0x5804\" (a number in a string is hex and starts with \"0x\")",
		"60-mistakes.json:4:70: devices[0].rules[0].report_type: expected \"feature\", \"input\", \"output\" or \"any\", got \"featur\"; did you mean \"feature\"?",
		"60-mistakes.json:5:22: devices[0].rules[0].report_id: \"f0\" is not a report ID (0..255, \"0x..\", \"0xlo-0xhi\" or \"any\"): a number in a string is hex and starts with \"0x\"; write \"0xf0\"",
		"60-mistakes.json:6:25: devices[1].match.usage: \"gamepad\" is not a device class (pointer, mouse, joystick, game_pad, keyboard, keypad, multi_axis_controller, system_control, consumer_control, vendor_defined, game_controller) nor a usage \"0xPPPP:0xUUUU\" or page \"0xPPPP\"; did you mean \"game_pad\"?",
	};
	struct uhid_dev_config cfg = device("pad of vendor 1234", 0x1234, 0x5804, game_pad_rdesc,
					    sizeof(game_pad_rdesc));
	struct policyctl_output check;
	struct policyd_case c;
	char msg[1024], duplicate[1024];

	policyd_case_start(&c, &cfg, controllers_policy);	/* 50-test.json */
	CHECK_OK(policyd_write_policy(&c.run, "60-mistakes.json", mistakes));
	CHECK_OK(policyd_write_policy(&c.run, "60-mistakes.json~", "{}"));
	CHECK_OK(policyd_write_policy(&c.run, "70-more.json", same_name));
	snprintf(duplicate, sizeof(duplicate), "%s/70-more.json:2:3: devices[0].rules[0]: duplicate rule name \"controllers-no-firmware-update\" (first defined at %s/50-test.json:5:7: devices[0].rules[0])",
		 c.run.config_dir, c.run.config_dir);

	CHECK_OK(policyd_check(&c.run, &check));
	CHECK(check.status == 1, "--check: exit %d: %s", check.status, check.out);
	for (size_t i = 0; i < ARRAY_SIZE(in_files); i++) {
		snprintf(msg, sizeof(msg), "%s/%s\n", c.run.config_dir, in_files[i]);
		CHECK(strstr(check.out, msg), "--check does not say %s in:\n%s", msg, check.out);
	}
	CHECK(strstr(check.out, duplicate), "--check does not say %s in:\n%s", duplicate, check.out);
	CHECK(strstr(check.out, "policy rejected: 5 errors, 2 warnings\n"), "%s", check.out);
	policyctl_output_done(&check);

	CHECK_OK(policyd_reload(&c.run));
	CHECK(policyd_said(&c.run, "reload failed: the rules in force stay in force", 0),
	      "the policy was not refused");
	for (size_t i = 1; i < ARRAY_SIZE(in_files); i++) {
		snprintf(msg, sizeof(msg), "%s/%s", c.run.config_dir, in_files[i]);
		CHECK(policyd_said(&c.run, msg, 0), "the daemon does not say %s", msg);
	}
	CHECK(policyd_said(&c.run, duplicate, 0), "the daemon does not say %s", duplicate);

	CHECK_EQ(set_feature_errno(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	CHECK_EQ(set_feature_errno(c.fd, 3), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 3, 1, 3000));

	policyd_case_end(&c);
}

/* A new vendor's rules in audit mode (hid-policy.d(5)'s example, as
 * printed) beside the enforcing rules for every game controller: its
 * allow of every feature report comes first in file order and still
 * shadows nothing, and what it would refuse is logged, not refused. */
static void test_a_new_vendors_rules_in_audit_mode_log_and_shadow_no_enforcing_rule(void)
{
	struct uhid_dev_config cfg = device("8BitDo pad", 0x2dc8, 0x6001, game_pad_rdesc,
					    sizeof(game_pad_rdesc));
	char *controllers = man_example("30-game-controllers.json");
	char *rollout = man_example("25-8bitdo-rollout.json");
	struct policyd_case c;
	char hid_id[32];
	const char *refused[] = { hid_id, "rule.name=controllers-deny-feature-f0-f4",
				  "enforced=true", NULL };
	const char *would_refuse[] = { hid_id, "rule.name=8bitdo-deny-feature-reads",
				       "enforced=false", NULL };
	const char *any_enforced[] = { hid_id, "enforced=true", NULL };
	json_t *j;

	policyd_case_start(&c, &cfg, controllers);	/* 50-test.json */
	CHECK_OK(policyd_write_policy(&c.run, "25-8bitdo-rollout.json", rollout));
	CHECK_OK(policyd_reload(&c.run));
	CHECK(policyd_said(&c.run, "policy reloaded: 2 rule sets, 4 rules", 0),
	      "the rollout was not loaded beside the controllers' rules");
	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c.dev.hid_id);

	/* the enforcing rule decides, behind the audit set's allow */
	CHECK_EQ(set_feature_errno(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	CHECK_EQ(policyd_audit_count(&c.run, refused, 1, 3000), 1);
	/* another feature report passes */
	CHECK_EQ(set_feature_errno(c.fd, 3), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 3, 1, 3000));
	/* the audit set's deny: logged as a would-be denial, let through */
	uhid_dev_set_get_reply(&c.dev, 4, (uint8_t[64]){ 4, 0x42 }, 64, 0);
	CHECK_EQ(get_feature_errno(c.fd, 4), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_GET_REPORT, 4, 1, 3000));
	CHECK_EQ(policyd_audit_count(&c.run, would_refuse, 1, 3000), 1);
	CHECK_EQ(policyd_audit_count(&c.run, any_enforced, 1, 0), 1);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "explain", c.dev.sysname, "set_report",
			   "--report", "feature", "--id", "0xf0");
	CHECK(!strcmp(json_path_str(j, "decision.rule"), "controllers-deny-feature-f0-f4"), "%s",
	      json_path_str(j, "text"));
	CHECK(strstr(json_path_str(j, "text"), "audit: rule \"8bitdo-settings\""), "%s",
	      json_path_str(j, "text"));
	json_decref(j);

	free(controllers);
	free(rollout);
	policyd_case_end(&c);
}

/* A PixArt Bluetooth mouse's descriptor with its OTA report at ID 0x0B:
 * input report 1 (three buttons), then vendor page 0xFF02, usage 1, an
 * application collection holding feature report 0x0B (usage 1, 32
 * bytes), as fwupd's lookup wants it (fu_pixart_rf_ble_device_check_support_report_id). */
static const uint8_t pixart_ota_0b_rdesc[] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x01, 0x05, 0x09, 0x19, 0x01,
	0x29, 0x03, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x03, 0x81, 0x02,
	0x95, 0x05, 0x81, 0x01, 0xc0,
	0x06, 0x02, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x85, 0x0b, 0x09, 0x01, 0x15, 0x00,
	0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x20, 0xb1, 0x02, 0xc0,
};

/* SET_REPORT feature BUF on FD from a child running as uid USER_UID (no
 * supplementary groups): 0 or the errno it got. */
static int set_feature_as_user(int fd, const uint8_t *buf, size_t len)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(USER_UID, USER_UID, USER_UID) ||
		    setresuid(USER_UID, USER_UID, USER_UID))
			_exit(255);
		_exit(ioctl(fd, HIDIOCSFEATURE(len), buf) < 0 ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_a_report_named_by_usage_page_is_the_one_the_descriptor_declares(void)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	struct uhid_dev_config cfg = device("PixArt Wireless Mouse", 0x093a, 0x2801, pixart_ota_0b_rdesc,
					    sizeof(pixart_ota_0b_rdesc));
	uint8_t ota_init[33] = { 0x0b, 0x10 }, fw_info[33] = { 0x0b, 0x23 };
	char path[512], hid_id[32], *policy = malloc(65536), *text;
	const char *refused[] = { hid_id, "rule.name=pixart-deny-ota-init", "enforced=true", NULL };
	struct policyd_case c;
	json_t *explain;
	ssize_t n;

	CHECK(policy, "malloc");
	snprintf(path, sizeof(path), "%s/policies/70-pixart-primax.json", src);
	n = read_file(path, policy, 65535);
	CHECK(n > 0, "%s: %s", path, strerror(n < 0 ? (int)-n : EINVAL));
	policy[n] = '\0';
	policyd_case_start(&c, &cfg, policy);
	CHECK_EQ(decision(&c.run, &c.dev), 1);

	/* OTA init on report 0x0B, which only the descriptor names: refused,
	 * and the device never sees it; the firmware-information read passes */
	CHECK_EQ(set_feature_as_user(c.fd, ota_init, sizeof(ota_init)), EPERM);
	CHECK_EQ(set_feature_as_user(c.fd, fw_info, sizeof(fw_info)), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0x0b, 1, 3000));
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0x0b), 1);
	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c.dev.hid_id);
	CHECK_EQ(policyd_audit_count(&c.run, refused, 1, 3000), 1);

	/* explain on the device tells which IDs the rule took there */
	explain = POLICYCTL_JSON(&c.run, (uid_t)-1, "explain", c.dev.sysname, "set_report",
				 "--report", "feature", "--id", "0x0b", "--payload", "0b 10");
	text = (char *)json_path_str(explain, "text");
	CHECK(!strcmp(json_path_str(explain, "decision.action"), "deny"), "%s", text);
	CHECK(strstr(text, "rule \"pixart-deny-ota-init\" (50-test.json: devices[0].rules[2]): report IDs 0x07, 0x0b"),
	      "%s", text);
	json_decref(explain);

	policyd_case_end(&c);
	free(policy);
}

int main(int argc, char **argv)
{
	static const struct test_case tests[] = {
		{ "every_mistake_is_placed_and_answered_by_check_and_by_the_daemon",
		  test_every_mistake_is_placed_and_answered_by_check_and_by_the_daemon },
		{ "a_new_vendors_rules_in_audit_mode_log_and_shadow_no_enforcing_rule",
		  test_a_new_vendors_rules_in_audit_mode_log_and_shadow_no_enforcing_rule },
		{ "every_game_controller_of_any_vendor_is_matched_by_usage",
		  test_every_game_controller_of_any_vendor_is_matched_by_usage },
		{ "devices_generate_and_explain_know_the_device_class",
		  test_devices_generate_and_explain_know_the_device_class },
		{ "deny_by_default_on_one_device_matched_by_serial",
		  test_deny_by_default_on_one_device_matched_by_serial },
		{ "a_lockout_policy_is_refused_and_the_rules_in_force_stay",
		  test_a_lockout_policy_is_refused_and_the_rules_in_force_stay },
		{ "a_report_named_by_usage_page_is_the_one_the_descriptor_declares",
		  test_a_report_named_by_usage_page_is_the_one_the_descriptor_declares },
	};
	int failed;

	failed = test_main(argc, argv, "e2e-classes", tests, ARRAY_SIZE(tests));
	backend = TEST_DEV_USB;
	failed |= test_main(argc, argv, "e2e-classes/usb", tests, ARRAY_SIZE(tests));
	return failed;
}
