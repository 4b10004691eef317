// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hidraw race, with the real systemd-udevd: a virtual DualSense appears,
 * and an unprivileged program (uid 1000) opens its hidraw node the moment
 * the node is opened to users and at once starts a firmware update
 * (SET_REPORT feature 0xF4, refused by the shipped policy). udev runs the
 * repository's rule (policyd/data/60-hid-policy.rules) and, after it, a rule
 * that opens every hidraw node to everybody, standing in for Steam's
 * 60-steam-input.rules and the uaccess rules.
 *
 * udevd runs in a private mount namespace: a fresh /run, and empty system
 * rule directories, so that only these two rules apply and nothing is left
 * behind. A root racer, which can open the node as soon as the kernel creates
 * it, is measured by bench/race_bench.sh, not asserted here.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "hidraw_racer.h"
#include "policyd_run.h"
#include "replicas.h"
#include "udevd_run.h"
#include "uhid_dev.h"

#define ROUNDS 100
#define FIRMWARE_UPDATE_REPORT 0xf4
#define RUNTIME_DIR "/run/hid-policy"
#define USER_UID 1000

/* Stand-in for the rules that open controllers to users (Steam's
 * 60-steam-input.rules, uaccess), the USB devices' usbfs nodes too (Debian's
 * steam-devices: SUBSYSTEM=="usb", ATTRS{idVendor}=="28de", MODE="0660",
 * TAG+="uaccess"). */
static const char open_to_users_rule[] = UDEVD_OPEN_TO_USERS_RULE
	"SUBSYSTEM==\"usb\", ENV{DEVTYPE}==\"usb_device\", MODE=\"0666\", TAG+=\"uaccess\"\n";

static void udev_start(struct udevd_run *u, bool with_policy_rule)
{
	int r = udevd_start(u, with_policy_rule, open_to_users_rule);

	if (r == -ENOENT)
		SKIP("systemd-udevd is not installed (Debian package udev; scripts/deps.sh)");
	CHECK_OK(r);
}

static void start_daemon_with(struct policyd_run *run, const char *name, const char *policy)
{
	const char *const args[] = { "--runtime-dir", RUNTIME_DIR, NULL };

	CHECK_OK(policyd_prepare(run));
	CHECK_OK(policyd_write_policy(run, name, policy));
	CHECK_OK(policyd_start(run, args));
}

static void start_daemon(struct policyd_run *run)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	char path[512], policy[65536];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/policies/20-sony-dualsense.json", src);
	n = read_file(path, policy, sizeof(policy) - 1);
	CHECK(n > 0, "%s: %s", path, strerror(n < 0 ? (int)-n : EINVAL));
	policy[n] = '\0';
	start_daemon_with(run, "20-sony-dualsense.json", policy);
}

/* One round: the uid-1000 racer watches, the DualSense appears, the racer
 * does what it can, the DualSense goes. */
static void race_round(struct hidraw_race_round *out)
{
	const struct hidraw_racer_config cfg = {
		.drop_privileges = true,
		.uid = USER_UID,
		.gid = USER_UID,
		.report = { FIRMWARE_UPDATE_REPORT, 0x00 },	/* 0x00: start */
		.size = HIDRAW_RACER_REPORT_MAX,
		/* longer than the rule's --timeout 5 */
		.timeout_ms = 20000,
	};
	const struct uhid_dev_config dualsense = hidraw_race_dualsense();

	CHECK_OK(hidraw_race_round(&cfg, &dualsense, out, NULL, NULL));
	CHECK_OK(udevd_wait_idle(10000));
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void test_unprivileged_racer_never_reaches_the_device_with_the_udev_rule(void)
{
	static int64_t delay_ns[ROUNDS];
	unsigned long reached = 0, opened = 0, refused = 0;
	const char *const filters[] = { "action=deny", "process.uid=1000",
					"process.comm=hidraw-racer",
					"rule.name=dualsense-deny-firmware-update", NULL };
	/* Upstream gives the firewall no uid or comm: the daemon reads them
	 * from /proc when the record arrives, and a racer that exited in the
	 * meantime is recorded by pid alone. */
	const char *const refusals[] = { "action=deny",
					 "rule.name=dualsense-deny-firmware-update", NULL };
	const char *const anonymous[] = { "action=deny", "process.uid=", "process.comm=",
					  "rule.name=dualsense-deny-firmware-update", NULL };
	struct policyd_run run;
	struct udevd_run w;
	size_t logged, unnamed;

	udev_start(&w, true);
	start_daemon(&run);
	for (int i = 0; i < ROUNDS; i++) {
		struct hidraw_race_round r;

		race_round(&r);
		reached += r.reached;
		delay_ns[opened] = r.racer.opened_ns - r.racer.created_ns;
		opened += r.racer.opened;
		refused += r.racer.opened && r.racer.request_errno == EPERM;
		if (!r.racer.opened || r.racer.request_errno != EPERM || r.reached)
			test_log("round %d: node %s %s, open attempts %u (last error %s), request errno %d, reached the device %lu",
				 i, r.racer.node, r.racer.seen ? "seen" : "never seen",
				 r.racer.open_attempts, strerror(r.racer.open_errno),
				 r.racer.request_errno, r.reached);
	}
	CHECK_EQ(policyd_audit_count(&run, refusals, ROUNDS, 10000), ROUNDS);
	unnamed = policyd_audit_count(&run, anonymous, 0, 0);
	logged = policyd_audit_count(&run, filters, 0, 0) + unnamed;
	CHECK(!unnamed || policyd_said(&run, "uid no, comm no", 0),
	      "%zu records name no process although the kernel gives uid and comm", unnamed);
	if (opened) {
		qsort(delay_ns, opened, sizeof(delay_ns[0]), cmp_i64);
		test_log("%d rounds: %lu firmware updates reached the device, %lu refused with EPERM, %zu audit records; the racer got the node %.1f ms (median; max %.1f ms) after it appeared",
			 ROUNDS, reached, refused, logged, delay_ns[opened / 2] / 1e6,
			 delay_ns[opened - 1] / 1e6);
	}

	CHECK_EQ(reached, 0);
	/* The racer really raced: udev opened the node to it every time. */
	CHECK_EQ(opened, ROUNDS);
	CHECK_EQ(refused, ROUNDS);
	CHECK_EQ(logged, ROUNDS);

	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	CHECK_OK(udevd_stop(&w));
}

/* The control experiment: the same racer, udev and device without the
 * daemon. The rule must not hold the node (no decision will come) and the
 * racer's request must reach the device, or the test above proves nothing. */
static void test_racer_reaches_an_unprotected_device_and_the_rule_does_not_hold_it(void)
{
	struct udevd_run w;

	udev_start(&w, true);
	for (int i = 0; i < 3; i++) {
		struct hidraw_race_round r;

		race_round(&r);
		CHECK(r.racer.opened, "round %d: the racer never opened %s (%s)", i,
		      r.racer.node, strerror(r.racer.open_errno));
		CHECK_EQ(r.racer.request_errno, 0);
		CHECK_EQ(r.reached, 1);
		/* No daemon: TEST=="/run/hid-policy/devices" fails, nothing
		 * waits for the rule's 5 s timeout. */
		CHECK(r.racer.opened_ns - r.racer.created_ns < 4000000000LL,
		      "round %d: the node opened %.1f s after it appeared", i,
		      (r.racer.opened_ns - r.racer.created_ns) / 1e9);
	}
	CHECK_OK(udevd_stop(&w));
}

/* The permission bits udev left on a device node. */
static unsigned node_mode(const char *node)
{
	struct stat st;

	CHECK(stat(node, &st) == 0, "%s: %s", node, strerror(errno));
	return st.st_mode & 07777;
}

/* A device the shipped DualSense policy does not match. */
static struct uhid_dev_config unmatched_device(enum test_dev_backend backend)
{
	struct uhid_dev_config cfg = hidraw_race_dualsense();

	cfg.backend = backend;
	cfg.name = "unmatched";
	cfg.vendor = 0x1234;
	cfg.product = 0x5703;
	return cfg;
}

/* A daemon too slow to decide (stopped here) used to fail open: after the
 * rule's 5 s the node of a device it protects opened to users with no
 * firewall. The node of a device the daemon's policy matches stays root's;
 * one it does not match opens; and once the daemon decides, the matched
 * node opens too, with the firewall in front of the device. */
static void test_a_late_decision_keeps_a_matched_node_closed_until_it_comes(void)
{
	struct uhid_dev_config ds_cfg = hidraw_race_dualsense(),
			       other_cfg = unmatched_device(TEST_DEV_UHID);
	struct policyd_run run;
	struct udevd_run w;
	struct uhid_dev ds, other;
	int fd;

	udev_start(&w, true);
	start_daemon(&run);
	CHECK_OK(kill(run.pid, SIGSTOP));
	CHECK_OK(uhid_dev_create(&ds, &ds_cfg));
	CHECK_OK(uhid_dev_create(&other, &other_cfg));
	CHECK_OK(udevd_wait_node(ds.hidraw, 30000));
	CHECK_OK(udevd_wait_node(other.hidraw, 30000));
	CHECK_EQ(node_mode(ds.hidraw), 0600);
	CHECK_EQ(node_mode(other.hidraw), 0666);

	CHECK_OK(kill(run.pid, SIGCONT));
	CHECK(policyd_said(&run, ds.sysname, 30000), "the daemon never decided on %s", ds.sysname);
	/* It announces the node again; udev runs the rules, finds the
	 * decision, and the stand-in rule opens the node. */
	for (int i = 0; i < 100 && node_mode(ds.hidraw) != 0666; i++)
		usleep(100 * 1000);
	CHECK_OK(udevd_wait_idle(10000));
	CHECK_EQ(node_mode(ds.hidraw), 0666);
	fd = uhid_dev_open_hidraw(&ds, 0);
	CHECK_OK(fd);
	CHECK_EQ(uhid_hidraw_set_feature(fd, FIRMWARE_UPDATE_REPORT), EPERM);
	CHECK_EQ(uhid_dev_count(&ds, UHID_DEV_SET_REPORT, FIRMWARE_UPDATE_REPORT), 0);
	close(fd);

	uhid_dev_destroy(&ds);
	uhid_dev_destroy(&other);
	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	CHECK_OK(udevd_stop(&w));
}

/* /dev/usb/hiddevN of DEV's USB interface: its HID device's sibling. */
static void hiddev_node(const struct uhid_dev *dev, char *out, size_t size)
{
	char dir[400];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/../usbmisc", dev->syspath);
	d = opendir(dir);
	CHECK(d, "%s: %s (no hiddev node)", dir, strerror(errno));
	out[0] = '\0';
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "hiddev", 6))
			snprintf(out, size, "/dev/usb/%s", de->d_name);
	closedir(d);
	CHECK(out[0], "no hiddev under %s", dir);
}

/* hiddev's HIDIOCSUSAGES + HIDIOCSREPORT reach the device through
 * hid_hw_request() in the kernel, past every HID-BPF program: the hiddev
 * node of a protected device stays root's, whatever later rules say; an
 * unprotected device's opens as they say. USB only: usbhid makes hiddev
 * nodes, uhid does not. */
static void test_a_protected_devices_hiddev_node_stays_closed(void)
{
	struct uhid_dev_config ds_cfg = hidraw_race_dualsense(),
			       other_cfg = unmatched_device(TEST_DEV_USB);
	char ds_node[300], other_node[300];
	struct policyd_run run;
	struct udevd_run w;
	struct uhid_dev ds, other;

	ds_cfg.backend = TEST_DEV_USB;
	udev_start(&w, true);
	start_daemon(&run);
	CHECK_OK(uhid_dev_create(&ds, &ds_cfg));
	CHECK_OK(uhid_dev_create(&other, &other_cfg));
	hiddev_node(&ds, ds_node, sizeof(ds_node));
	hiddev_node(&other, other_node, sizeof(other_node));
	CHECK_OK(udevd_wait_node(ds_node, 30000));
	CHECK_OK(udevd_wait_node(ds.hidraw, 30000));
	CHECK_OK(udevd_wait_node(other_node, 30000));
	CHECK_OK(udevd_wait_node(other.hidraw, 30000));
	CHECK_EQ(node_mode(ds_node), 0600);
	CHECK_EQ(node_mode(ds.hidraw), 0666);
	CHECK_EQ(node_mode(other_node), 0666);

	uhid_dev_destroy(&ds);
	uhid_dev_destroy(&other);
	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	CHECK_OK(udevd_stop(&w));
}

/* /dev/bus/usb/BBB/DDD of DEV's USB device, the parent of its HID
 * device's interface; that device's sysfs directory in DIR. */
static void usbfs_node(const struct uhid_dev *dev, char *out, size_t size, char *dir, size_t dir_size)
{
	char path[512], text[16];
	int bus, num;
	ssize_t n;

	snprintf(dir, dir_size, "%s/../..", dev->syspath);
	snprintf(path, sizeof(path), "%s/busnum", dir);
	n = read_file(path, text, sizeof(text) - 1);
	CHECK(n > 0, "%s: %s", path, strerror(n < 0 ? (int)-n : EINVAL));
	text[n] = '\0';
	bus = atoi(text);
	snprintf(path, sizeof(path), "%s/devnum", dir);
	n = read_file(path, text, sizeof(text) - 1);
	CHECK(n > 0, "%s: %s", path, strerror(n < 0 ? (int)-n : EINVAL));
	text[n] = '\0';
	num = atoi(text);
	snprintf(out, size, "/dev/bus/usb/%03d/%03d", bus, num);
}

/* udev's database entry of NODE, into the test's log: what the rules
 * made of it (E:HID_POLICY=...). */
static void show_udev_entry(const char *node)
{
	char path[64], text[2048];
	struct stat st;
	ssize_t n;

	if (stat(node, &st) < 0)
		return;
	snprintf(path, sizeof(path), "/run/udev/data/c%u:%u", major(st.st_rdev), minor(st.st_rdev));
	n = read_file(path, text, sizeof(text) - 1);
	if (n <= 0)
		return;
	text[n] = '\0';
	test_log("%s (%s):\n%s", node, path, text);
}

/* Whether uid USER_UID may open NODE for writing: 0 or its errno. */
static int user_may_write(const char *node)
{
	pid_t child = fork();
	int status;

	CHECK(child >= 0, "fork: %m");
	if (child == 0) {
		int fd;

		if (setgroups(0, NULL) || setresgid(USER_UID, USER_UID, USER_UID) ||
		    setresuid(USER_UID, USER_UID, USER_UID))
			_exit(255);
		fd = open(node, O_RDWR | O_CLOEXEC);
		_exit(fd < 0 ? errno : 0);
	}
	CHECK(waitpid(child, &status, 0) == child, "waitpid: %m");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) != 255, "the child could not become uid %d",
	      USER_UID);
	return WEXITSTATUS(status);
}

/*
 * A USB device's usbfs node lets whoever may write it detach usbhid and
 * send the device anything, past the firewall (steam-devices gives the
 * seat's user every Valve device's): a device with a HID interface that a
 * rule set matches keeps its node root's, 0664 as by default, though a
 * later rule opens it to users, also after a "change" event ("udevadm
 * trigger"); a device no rule set names opens as the rule says.
 */
static void test_a_protected_devices_usbfs_node_stays_closed(void)
{
	struct uhid_dev_config ds_cfg = hidraw_race_dualsense(),
			       other_cfg = unmatched_device(TEST_DEV_USB);
	char ds_node[300], other_node[300], ds_dir[400], other_dir[400], path[450];
	struct policyd_run run;
	struct udevd_run w;
	struct uhid_dev ds, other;
	int fd;

	ds_cfg.backend = TEST_DEV_USB;
	udev_start(&w, true);
	start_daemon(&run);
	CHECK_OK(uhid_dev_create(&ds, &ds_cfg));
	CHECK_OK(uhid_dev_create(&other, &other_cfg));
	usbfs_node(&ds, ds_node, sizeof(ds_node), ds_dir, sizeof(ds_dir));
	usbfs_node(&other, other_node, sizeof(other_node), other_dir, sizeof(other_dir));
	CHECK_OK(udevd_wait_node(ds_node, 30000));
	CHECK_OK(udevd_wait_node(other_node, 30000));
	CHECK_OK(udevd_wait_node(ds.hidraw, 30000));
	if (node_mode(ds_node) != 0664)
		show_udev_entry(ds_node);
	CHECK_EQ(node_mode(ds_node), 0664);
	CHECK_EQ(user_may_write(ds_node), EACCES);
	CHECK_EQ(node_mode(other_node), 0666);
	CHECK_EQ(user_may_write(other_node), 0);

	snprintf(path, sizeof(path), "%s/uevent", ds_dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0, "%s: %s", path, strerror(errno));
	CHECK_EQ(write(fd, "change", 6), 6);
	close(fd);
	CHECK_OK(udevd_wait_idle(10000));
	usleep(500 * 1000);
	CHECK_OK(udevd_wait_idle(10000));
	CHECK_EQ(node_mode(ds_node), 0664);
	CHECK_EQ(user_may_write(ds_node), EACCES);

	uhid_dev_destroy(&ds);
	uhid_dev_destroy(&other);
	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	CHECK_OK(udevd_stop(&w));
}

/* Write ACTION to the uevent file of the device node NODE's sysfs entry,
 * as "udevadm trigger --action=ACTION" does. */
static void trigger(const char *node, const char *action)
{
	char path[400];
	int fd;

	snprintf(path, sizeof(path), "/sys/class/%s/%s/uevent",
		 strstr(node, "hiddev") ? "usbmisc" : "hidraw", strrchr(node, '/') + 1);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0, "%s: %s", path, strerror(errno));
	CHECK_EQ(write(fd, action, strlen(action)), (ssize_t)strlen(action));
	close(fd);
}

/* Wait until udev left MODE on NODE (a rule's effect comes some time after
 * the event). */
static unsigned wait_mode(const char *node, unsigned mode)
{
	for (int i = 0; i < 100 && node_mode(node) != mode; i++)
		usleep(100 * 1000);
	CHECK_OK(udevd_wait_idle(10000));
	return node_mode(node);
}

/* A DualSense replica on USB driven by hid-generic, which connects a hiddev
 * node (hid-playstation, which binds a DualSense where it is built, as on
 * upstream, makes none); its node's path in NODE. Returns the VM's
 * ignore_special_drivers setting, for the caller to put back. */
static bool create_dualsense_with_hiddev(struct uhid_dev *ds, char *node, size_t size)
{
	struct uhid_dev_config cfg = hidraw_race_dualsense();
	bool generic_only = test_dev_generic_driver_only_now();

	cfg.backend = TEST_DEV_USB;
	CHECK_OK(test_dev_generic_driver_only(true));
	CHECK_OK(uhid_dev_create(ds, &cfg));
	hiddev_node(ds, node, size);
	CHECK_OK(udevd_wait_node(node, 30000));
	return generic_only;
}

/* "udevadm trigger" (a "change" event: packages such as steam-devices run
 * it on install) applied the other rules' MODE to a protected device's
 * hiddev node again, which the firewall cannot guard: it stays closed. */
static void test_a_change_event_keeps_a_protected_devices_hiddev_node_closed(void)
{
	bool generic_only;
	char ds_node[300];
	struct policyd_run run;
	struct udevd_run w;
	struct uhid_dev ds;

	udev_start(&w, true);
	start_daemon(&run);
	generic_only = create_dualsense_with_hiddev(&ds, ds_node, sizeof(ds_node));
	CHECK_OK(udevd_wait_node(ds.hidraw, 30000));
	CHECK_EQ(node_mode(ds_node), 0600);

	trigger(ds_node, "change");
	trigger(ds.hidraw, "change");
	CHECK_OK(udevd_wait_idle(10000));
	usleep(500 * 1000);
	CHECK_OK(udevd_wait_idle(10000));
	CHECK_EQ(node_mode(ds_node), 0600);
	/* the hidraw node is behind the firewall: the other rules apply */
	CHECK_EQ(node_mode(ds.hidraw), 0666);

	CHECK_OK(test_dev_generic_driver_only(generic_only));
	uhid_dev_destroy(&ds);
	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	CHECK_OK(udevd_stop(&w));
}

/* A device present before the daemon ran (coldplug, or a daemon started
 * late) has a hiddev node the other rules opened; once the daemon protects
 * the device, the node closes. */
static void test_a_device_protected_after_coldplug_gets_its_hiddev_node_closed(void)
{
	bool generic_only;
	char ds_node[300];
	struct policyd_run run;
	struct udevd_run w;
	struct uhid_dev ds;

	udev_start(&w, true);
	generic_only = create_dualsense_with_hiddev(&ds, ds_node, sizeof(ds_node));
	/* no daemon, no decisions: nothing waits, the node opened */
	CHECK_EQ(node_mode(ds_node), 0666);

	start_daemon(&run);
	CHECK_EQ(wait_mode(ds_node, 0600), 0600);

	CHECK_OK(test_dev_generic_driver_only(generic_only));
	uhid_dev_destroy(&ds);
	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	CHECK_OK(udevd_stop(&w));
}

/* A rule set that matches by what a device is (its report descriptor's
 * usages), not by its IDs. The daemon, stopped here, decides late: the
 * udev helper must see that the rule set matches and keep the node closed
 * (it used to look at the IDs alone, answer "undecided", and the node
 * opened with no firewall). */
static const char game_controllers_policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"  \"name\": \"game-controllers\", \"match\": { \"usage\": \"game_controller\" },\n"
	"  \"rules\": [ { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"    \"report_type\": \"feature\", \"report_id\": \"0xf0-0xf4\", \"action\": \"deny\" } ]\n"
	"} ] }\n";

static void test_a_late_decision_keeps_a_node_matched_by_usage_closed(void)
{
	static const uint8_t game_pad_rdesc[] = UHID_CLASS_RDESC(0x05);
	struct uhid_dev_config ds_cfg = hidraw_race_dualsense(),
			       other_cfg = unmatched_device(TEST_DEV_UHID);
	struct policyd_run run;
	struct udevd_run w;
	struct uhid_dev ds, other;

	/* a game pad by its descriptor, with IDs no vendor driver claims;
	 * the other device keeps the vendor-defined test descriptor */
	ds_cfg.name = "a game pad";
	ds_cfg.vendor = 0x1234;
	ds_cfg.product = 0x5705;
	ds_cfg.rdesc = game_pad_rdesc;
	ds_cfg.rdesc_size = sizeof(game_pad_rdesc);
	udev_start(&w, true);
	start_daemon_with(&run, "30-game-controllers.json", game_controllers_policy);
	CHECK_OK(kill(run.pid, SIGSTOP));
	CHECK_OK(uhid_dev_create(&ds, &ds_cfg));
	CHECK_OK(uhid_dev_create(&other, &other_cfg));
	CHECK_OK(udevd_wait_node(ds.hidraw, 30000));
	CHECK_OK(udevd_wait_node(other.hidraw, 30000));
	CHECK_EQ(node_mode(ds.hidraw), 0600);
	CHECK_EQ(node_mode(other.hidraw), 0666);

	CHECK_OK(kill(run.pid, SIGCONT));
	CHECK(policyd_said(&run, ds.sysname, 30000), "the daemon never decided on %s", ds.sysname);
	CHECK_EQ(wait_mode(ds.hidraw, 0666), 0666);

	uhid_dev_destroy(&ds);
	uhid_dev_destroy(&other);
	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	CHECK_OK(udevd_stop(&w));
}

/* The hidraw node of the HID device whose name starts with PREFIX
 * ("0003:054C:0CE6."), in NODE, waiting up to TIMEOUT_MS for a driver's
 * probe to connect it. Found from /sys/class/hidraw: the device's own
 * uevent attribute, which the test-device library reads to find it, waits
 * for the probe to end on kernels that take the device lock to show it. */
static int wait_hidraw_of(const char *prefix, char *node, size_t size, int timeout_ms)
{
	for (int waited = 0; waited < timeout_ms; waited += 10) {
		DIR *d = opendir("/sys/class/hidraw");
		struct dirent *de;

		while (d && (de = readdir(d))) {
			char link[400], target[400];
			const char *base;
			ssize_t n;

			snprintf(link, sizeof(link), "/sys/class/hidraw/%s/device", de->d_name);
			n = readlink(link, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			base = strrchr(target, '/');
			base = base ? base + 1 : target;
			if (!strncmp(base, prefix, strlen(prefix))) {
				snprintf(node, size, "/dev/%s", de->d_name);
				closedir(d);
				return 0;
			}
		}
		if (d)
			closedir(d);
		usleep(10000);
	}
	return -ETIMEDOUT;
}

struct replica_creation {
	struct replica *rep;
	struct uhid_dev *dev;
	int result;
};

static void *create_replica(void *arg)
{
	struct replica_creation *c = arg;

	c->result = replica_create(c->rep, c->dev);
	return NULL;
}

/* Whether udev has finished NODE's event (its database entry exists). */
static bool udev_has_handled(const char *node)
{
	char entry[64];
	struct stat st;

	if (stat(node, &st) < 0)
		return false;
	snprintf(entry, sizeof(entry), "/run/udev/data/c%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	return access(entry, F_OK) == 0;
}

/* A driver's probe that outlasts the udev rule's 5 s wait: hid-playstation
 * connects hidraw first and then reads three feature reports from the
 * controller, which answers each 3 s late, so users' rules could open the
 * node long before the probe ends. The rule set matches the device by its
 * usages only. Whenever udev is done with the node while the probe goes
 * on, the node is either closed or behind the firewall (the daemon decides
 * from the descriptor sysfs shows at "add", before the probe, and the udev
 * helper keeps a matched node closed if no decision has come); a user's
 * firmware update is refused and never reaches the controller. */
static void test_a_probe_longer_than_the_wait_keeps_a_class_matched_node_closed(void)
{
	bool generic_only = test_dev_generic_driver_only_now();
	struct replica *rep;
	struct policyd_run run;
	struct udevd_run w;
	struct uhid_dev ds;
	struct replica_creation creation;
	pthread_t creator;
	char node[300];
	unsigned int mode;
	bool decided, probing;
	int fd;

	udev_start(&w, true);
	start_daemon_with(&run, "30-game-controllers.json", game_controllers_policy);
	CHECK_OK(test_dev_generic_driver_only(false));
	rep = replica_new(&replica_dualsense, replica_dualsense_probe);
	replica_set_answer_delay(rep, 3000);
	creation = (struct replica_creation){ rep, &ds, 0 };
	CHECK_OK(-pthread_create(&creator, NULL, create_replica, &creation));
	CHECK_OK(wait_hidraw_of("0003:054C:0CE6.", node, sizeof(node), 30000));
	for (int i = 0; i < 3000 && !udev_has_handled(node); i++)
		usleep(10000);
	CHECK(udev_has_handled(node), "udev never finished %s's event", node);
	/* udev is done with the node; the probe goes on (the replica has
	 * not answered all three reads; the "driver" link is no sign, the
	 * driver core makes it before it calls the probe). */
	mode = node_mode(node);
	decided = policyd_said(&run, "0003:054C:0CE6.", 0);
	probing = replica_get_reports_answered(rep) < 3;
	test_log("udev was done with %s %s the probe: mode %o, the daemon had %sdecided", node,
		 probing ? "during" : "after", mode, decided ? "" : "not ");
	CHECK(mode == 0600 || decided, "%s is open (mode %o) with no firewall", node, mode);

	CHECK_OK(-pthread_join(creator, NULL));
	CHECK_OK(creation.result);
	CHECK(policyd_said(&run, ds.sysname, 60000), "the daemon never decided on %s", ds.sysname);
	CHECK_EQ(wait_mode(node, 0666), 0666);
	fd = open(node, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "%s: %s", node, strerror(errno));
	CHECK_EQ(uhid_hidraw_set_feature(fd, FIRMWARE_UPDATE_REPORT), EPERM);
	CHECK_EQ(uhid_dev_count(&ds, UHID_DEV_SET_REPORT, FIRMWARE_UPDATE_REPORT), 0);
	close(fd);

	uhid_dev_destroy(&ds);
	replica_free(rep);
	CHECK_OK(test_dev_generic_driver_only(generic_only));
	policyd_stop(&run, false);
	CHECK_OK(policyd_cleanup(&run));
	CHECK_OK(udevd_stop(&w));
	/* Where udev handles a HID device's events only once its probe is
	 * over (its rules read the device's uevent attribute, which waits
	 * for the device lock the probe holds), no node opens during a
	 * probe: the window this case looks for is not there. */
	if (!probing)
		SKIP("udev was done with the node only after the probe: on this kernel no rule opens a node during a probe");
}

/* The helper udev runs in the tests below, standing where the rule's
 * @SBINDIR@/hid-policyd is: TEXT written there (mode 0755), or nothing
 * there when TEXT is NULL. */
struct broken_helper {
	const char *what;
	const char *text;
};

#define BROKEN_HELPER_DIR "/run/hid-policy-test-sbin"

static void put_helper(const struct broken_helper *h)
{
	int fd;

	if (!h->text)
		return;
	CHECK_OK(mkdir(BROKEN_HELPER_DIR, 0755));
	fd = open(BROKEN_HELPER_DIR "/hid-policyd", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	CHECK_OK(fd);
	CHECK_EQ(write(fd, h->text, strlen(h->text)), (ssize_t)strlen(h->text));
	close(fd);
}

/* A helper that cannot run, or fails, or answers nothing, made the rule
 * that runs it not match (or set an empty answer): the node fell to the
 * rules that open it, MODE="0666" and all. Every new node, of a device
 * the policy matches or not, stays root's: nothing said it may open. */
static void test_a_helper_that_cannot_answer_keeps_new_nodes_closed(void)
{
	static const struct broken_helper helpers[] = {
		{ "missing (an upgrade midway)", NULL },
		{ "not a program (exec fails)", "not an executable\n" },
		{ "failing", "#!/bin/sh\nexit 1\n" },
		{ "answering nothing", "#!/bin/sh\necho\n" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(helpers); i++) {
		struct uhid_dev_config ds_cfg = hidraw_race_dualsense(),
				       other_cfg = unmatched_device(TEST_DEV_UHID);
		struct udevd_run w;
		struct uhid_dev ds, other;
		int r = udevd_start_at(&w, BROKEN_HELPER_DIR, open_to_users_rule);

		if (r == -ENOENT)
			SKIP("systemd-udevd is not installed (Debian package udev; scripts/deps.sh)");
		CHECK_OK(r);
		/* as tmpfiles.d makes it at boot: the rules ask the helper */
		CHECK_OK(mkdir(RUNTIME_DIR, 0755));
		CHECK_OK(mkdir(RUNTIME_DIR "/devices", 0755));
		put_helper(&helpers[i]);
		CHECK_OK(uhid_dev_create(&ds, &ds_cfg));
		CHECK_OK(uhid_dev_create(&other, &other_cfg));
		CHECK_OK(udevd_wait_node(ds.hidraw, 30000));
		CHECK_OK(udevd_wait_node(other.hidraw, 30000));
		CHECK(node_mode(ds.hidraw) == 0600, "helper %s: the matched device's %s is %04o",
		      helpers[i].what, ds.hidraw, node_mode(ds.hidraw));
		CHECK(node_mode(other.hidraw) == 0600, "helper %s: the other device's %s is %04o",
		      helpers[i].what, other.hidraw, node_mode(other.hidraw));
		uhid_dev_destroy(&ds);
		uhid_dev_destroy(&other);
		CHECK_OK(udevd_stop(&w));
	}
}

static const struct test_case tests[] = {
	{ "racer_reaches_an_unprotected_device_and_the_rule_does_not_hold_it",
	  test_racer_reaches_an_unprotected_device_and_the_rule_does_not_hold_it, 120 },
	{ "unprivileged_racer_never_reaches_the_device_with_the_udev_rule",
	  test_unprivileged_racer_never_reaches_the_device_with_the_udev_rule, 900 },
	{ "a_late_decision_keeps_a_matched_node_closed_until_it_comes",
	  test_a_late_decision_keeps_a_matched_node_closed_until_it_comes, 180 },
	{ "a_protected_devices_hiddev_node_stays_closed",
	  test_a_protected_devices_hiddev_node_stays_closed, 180 },
	{ "a_protected_devices_usbfs_node_stays_closed",
	  test_a_protected_devices_usbfs_node_stays_closed, 180 },
	{ "a_change_event_keeps_a_protected_devices_hiddev_node_closed",
	  test_a_change_event_keeps_a_protected_devices_hiddev_node_closed, 180 },
	{ "a_device_protected_after_coldplug_gets_its_hiddev_node_closed",
	  test_a_device_protected_after_coldplug_gets_its_hiddev_node_closed, 180 },
	{ "a_late_decision_keeps_a_node_matched_by_usage_closed",
	  test_a_late_decision_keeps_a_node_matched_by_usage_closed, 180 },
	{ "a_probe_longer_than_the_wait_keeps_a_class_matched_node_closed",
	  test_a_probe_longer_than_the_wait_keeps_a_class_matched_node_closed, 180 },
	{ "a_helper_that_cannot_answer_keeps_new_nodes_closed",
	  test_a_helper_that_cannot_answer_keeps_new_nodes_closed, 180 },
};

int main(int argc, char **argv)
{
	test_dev_keep_driver_setting();
	return test_main(argc, argv, "e2e", tests, ARRAY_SIZE(tests));
}
