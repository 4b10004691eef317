// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vendor HID drivers bound to replicas, with the shipped rule sets
 * (policies/, unchanged) in force. One hid-policyd reads policies/ for the
 * whole suite; each device then gets, in its own test process, a uhid
 * replica that answers what its kernel driver asks at probe time
 * (calibration, firmware information, MAC address, handshakes), and these
 * checks, each printing its own PASS:/FAIL: line:
 *
 *   driver-binds                the driver named for this kernel binds the
 *                               replica (the device's bind uevent, and its
 *                               "driver" link); when it does not, the
 *                               driver's own kernel messages say at which
 *                               step it gave up;
 *   probe-requests-reach-the-replica
 *                               every request the probe sends got there;
 *   probe-passes-the-firewall   with the firewall attached, the driver is
 *                               bound again: every request of its probe
 *                               reaches the replica again, the firewall
 *                               counted them as allowed and denied nothing
 *                               (the kernel's own requests, source 0);
 *   driver-creates-input-devices
 *                               the driver registered its input devices;
 *   added-devices-are-bound     (hid-logitech-dj) the devices it adds for
 *                               paired devices are bound by their driver;
 *   hidraw-device-is-protected  the device whose hidraw node users open
 *                               (hid-steam: its client) has the firewall;
 *   refused/REQ                 a dangerous request from hidraw that the
 *                               shipped rules name fails with EPERM, never
 *                               reaches the replica, and the audit log
 *                               names the rule;
 *   kernel-log-is-clean         the kernel logged no warning or error while
 *                               the device was there.
 *
 * The guest boots with hid.ignore_special_drivers=1 (scripts/vm-init),
 * because the other suites' replicas mean hid-generic; this suite sets it to
 * 0 for its own devices and puts it back at its end.
 */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/hidraw.h>
#include <linux/input.h>
#include <linux/netlink.h>

#include "harness.h"
#include "json_path.h"
#include "policyd_case.h"
#include "policyd_run.h"
#include "replicas.h"
#include "uhid_dev.h"

#define SUITE "vendor"
#define IGNORE_SPECIAL_DRIVERS "/sys/module/hid/parameters/ignore_special_drivers"
#define HID_DRIVERS "/sys/bus/hid/drivers"
#define BIND_TIMEOUT_MS 30000	/* TCG is slow; hid-nintendo's handshake takes a while */
#define ATTACH_TIMEOUT_MS 30000
#define AUDIT_TIMEOUT_MS 5000
#define OUTPUT_SETTLE_US 200000	/* output reports reach uhid after write() returns */
#define KMSG_LINE_MAX 1024

enum request_kind {
	SET_FEATURE,	/* HIDIOCSFEATURE */
	WRITE_OUTPUT,	/* write() */
	IOCTL_OUTPUT,	/* HIDIOCSOUTPUT */
};

/* A dangerous request a user program sends through hidraw. */
struct request {
	const char *name;	/* NULL ends a list */
	enum request_kind kind;
	uint8_t len;
	uint8_t data[16];	/* its first bytes; the rest are zero */
	const char *rule;	/* the rule the audit record names */
};

#define REQ(k, n, l, ...) .kind = (k), .name = (n), .len = (l), .data = { __VA_ARGS__ }
#define MAX_REFUSED 8

/* Which driver a kernel binds and what it asks at probe. */
struct driver_side {
	const char *driver;		/* its directory in /sys/bus/hid/drivers */
	const struct probe_request *probe;	/* ends with .what == NULL */
	unsigned int min_inputs;	/* input devices it registers */
	const char *child_driver;	/* binds the HID devices it adds (paired devices) */
	const char *skip;		/* not on this kernel: why */
};

struct vendor_device {
	const char *name;
	const struct replica_model *model;
	struct driver_side side;	/* Linux 6.2 and later */
	struct driver_side side_6_1;	/* Linux 6.1, where it differs (.driver set) */
	bool hidraw_is_client;		/* hid-steam: hidraw is on its client device */
	struct request refused[MAX_REFUSED];
};

#define SWITCH_SUBCMD(id) 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, (id)

/* The DualSense's, on USB and Bluetooth alike, the firmware update's
 * refused by UPDATE_RULE: its rule on USB; on Bluetooth, whose descriptor
 * declares no update report, the firewall's refusal of a report the
 * descriptor does not declare, before any rule. */
#define UNDECLARED "(report type and ID the descriptor does not declare)"
#define DUALSENSE_REFUSED(update_rule) \
	{ REQ(SET_FEATURE, "set-feature-f4-00-update-start", 64, 0xf4, 0x00, 0x39), \
	  .rule = (update_rule) }, \
	{ REQ(SET_FEATURE, "set-feature-f4-01-write-image", 64, 0xf4, 0x01, 0x39), \
	  .rule = (update_rule) }, \
	{ REQ(SET_FEATURE, "set-feature-f4-02-verify", 64, 0xf4, 0x02), \
	  .rule = (update_rule) }, \
	{ REQ(SET_FEATURE, "set-feature-f4-03-finalize", 64, 0xf4, 0x03), \
	  .rule = (update_rule) }, \
	{ REQ(SET_FEATURE, "set-feature-80-0302-nvs-unlock", 64, \
	      0x80, 0x03, 0x02, 0x65, 0x32, 0x40, 0x0c), \
	  .rule = "dualsense-deny-nvs-unlock" }, \
	{ REQ(SET_FEATURE, "set-feature-82-0201-calibration-write", 64, 0x82, 0x02, 0x01, 0x01), \
	  .rule = "dualsense-deny-calibration-write" }

static const struct vendor_device devices[] = {
	{
		.name = "sony-dualsense",
		.model = &replica_dualsense,
		.side = { "playstation", replica_dualsense_probe, 3 },
		.refused = { DUALSENSE_REFUSED("dualsense-deny-firmware-update") },
	},
	{
		/* the same controller on Bluetooth, as many PC users connect
		 * it: hid-playstation checks each answer's CRC and resets the
		 * LEDs with output report 0x31 (the shipped rule set matches
		 * bus bluetooth) */
		.name = "sony-dualsense-bt",
		.model = &replica_dualsense_bt,
		.side = { "playstation", replica_dualsense_bt_probe, 3 },
		.refused = { DUALSENSE_REFUSED(UNDECLARED) },
	},
	{
		.name = "sony-dualshock4",
		.model = &replica_dualshock4,
		.side = { "playstation", replica_dualshock4_probe_playstation, 3 },
		/* Linux 6.1: the DualShock 4 is hid-sony's (hid-playstation
		 * took it in 6.2) */
		.side_6_1 = { "sony", replica_dualshock4_probe_sony, 3 },
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-a0-0a02-nvs-unlock", 64,
			      0xa0, 0x0a, 0x02, 0x3e, 0x71, 0x7f, 0x89),
			  .rule = "dualshock4-deny-nvs-unlock" },
			{ REQ(SET_FEATURE, "set-feature-a0-0a02-nvs-unlock-other-key", 64,
			      0xa0, 0x0a, 0x02, 0x00, 0x00, 0x00, 0x00),
			  .rule = "dualshock4-deny-nvs-unlock" },
			{ REQ(SET_FEATURE, "set-feature-90-0201-calibration-write", 64, 0x90, 0x02, 0x01, 0x01),
			  .rule = "dualshock4-deny-calibration-write" },
		},
	},
	{
		.name = "nintendo-switch-pro",
		.model = &replica_switch_pro,
		.side = { "nintendo", replica_switch_pro_probe, 2 },
		.refused = {
			{ REQ(WRITE_OUTPUT, "write-output-01-subcommand-11-spi-flash-write", 49,
			      SWITCH_SUBCMD(0x11), 0x10, 0x60),
			  .rule = "switch-deny-spi-flash-write" },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-01-subcommand-11-spi-flash-write", 49,
			      SWITCH_SUBCMD(0x11), 0x10, 0x60),
			  .rule = "switch-deny-spi-flash-write" },
			{ REQ(WRITE_OUTPUT, "write-output-03-firmware-update-packet", 49, 0x03, 0x00),
			  .rule = "switch-deny-firmware-update-packet" },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-03-firmware-update-packet", 49, 0x03, 0x00),
			  .rule = "switch-deny-firmware-update-packet" },
		},
	},
	{
		.name = "valve-steam-deck",
		.model = &replica_steam_deck,
		.side = { "hid-steam", replica_steam_probe, 1 },
		.side_6_1 = { "hid-steam", .skip = "Linux 6.1's hid-steam does not know the "
			      "Steam Deck controller (28DE:1205); hid-generic binds it" },
		.hidraw_is_client = true,
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-00-90-reboot-to-isp", 64, 0x00, 0x90, 0x04),
			  .rule = "valve-deck-deny-reboot-to-isp" },
			{ REQ(SET_FEATURE, "set-feature-00-91-update-start", 64, 0x00, 0x91),
			  .rule = "valve-deck-deny-update-start" },
			{ REQ(SET_FEATURE, "set-feature-00-92-update-data", 64, 0x00, 0x92, 0x3c),
			  .rule = "valve-deck-deny-update-data" },
			{ REQ(SET_FEATURE, "set-feature-00-93-update-complete", 64, 0x00, 0x93),
			  .rule = "valve-deck-deny-update-complete" },
			{ REQ(SET_FEATURE, "set-feature-00-95-update-reboot", 64, 0x00, 0x95),
			  .rule = "valve-deck-deny-update-reboot" },
		},
	},
	{
		.name = "valve-steam-controller",
		.model = &replica_steam_controller,
		.side = { "hid-steam", replica_steam_probe, 1 },
		.hidraw_is_client = true,
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-00-86-factory-reset", 64, 0x00, 0x86),
			  .rule = "valve-sc-deny-factory-reset" },
			{ REQ(SET_FEATURE, "set-feature-00-a9-set-serial-number", 64, 0x00, 0xa9, 0x0a),
			  .rule = "valve-sc-deny-set-serial-number" },
			{ REQ(SET_FEATURE, "set-feature-00-af-radio-erase-records", 64, 0x00, 0xaf),
			  .rule = "valve-sc-deny-radio-erase-records" },
			{ REQ(SET_FEATURE, "set-feature-00-b0-radio-write-record", 64, 0x00, 0xb0),
			  .rule = "valve-sc-deny-radio-write-record" },
			{ REQ(SET_FEATURE, "set-feature-00-b7-audio-update-start", 64, 0x00, 0xb7),
			  .rule = "valve-sc-deny-audio-update-start" },
			{ REQ(SET_FEATURE, "set-feature-00-b8-audio-update-data", 64, 0x00, 0xb8),
			  .rule = "valve-sc-deny-audio-update-data" },
			{ REQ(SET_FEATURE, "set-feature-00-b9-audio-update-complete", 64, 0x00, 0xb9),
			  .rule = "valve-sc-deny-audio-update-complete" },
		},
	},
	{
		.name = "logitech-unifying",
		.model = &replica_unifying,
		/* the paired mouse: a HID device below the receiver, bound by
		 * hid-logitech-hidpp, which registers its input device */
		.side = { "logitech-djreceiver", replica_unifying_probe, 1, "logitech-hidpp-device" },
		.refused = {
			{ REQ(WRITE_OUTPUT, "write-output-10-ff80f0-icp-enter-dfu", 7,
			      0x10, 0xff, 0x80, 0xf0, 0x49, 0x43, 0x50),
			  .rule = "logitech-unifying-deny-dfu-mode" },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-10-ff80f0-icp-enter-dfu", 7,
			      0x10, 0xff, 0x80, 0xf0, 0x49, 0x43, 0x50),
			  .rule = "logitech-unifying-deny-dfu-mode" },
		},
	},
};

static struct policyd_run daemon_run;
static const struct vendor_device *current;
static const struct driver_side *side;
static unsigned int n_failed_checks;

static bool kernel_is_6_1(void)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major == 6 && minor == 1;
}

static void check_line(bool ok, const char *what)
{
	printf("%s: %s/%s/%s\n", ok ? "PASS" : "FAIL", SUITE, current->name, what);
	if (!ok)
		n_failed_checks++;
}

/* ---- the kernel log ---- */

/* /dev/kmsg, read from now on. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	CHECK_OK(fd);
	CHECK_OK(lseek(fd, 0, SEEK_END));
	return fd;
}

/* Print what the kernel logged since kmsg_open (every line when ALL,
 * otherwise warnings and worse) and return how many warnings and worse. */
static unsigned int kmsg_report(int fd, bool all)
{
	char line[KMSG_LINE_MAX];
	unsigned int bad = 0;
	ssize_t n;

	while ((n = read(fd, line, sizeof(line) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		unsigned int prio;
		char *msg;

		if (n < 0)
			continue;	/* overwritten records: go on with the next */
		line[n] = '\0';
		msg = strchr(line, ';');
		if (sscanf(line, "%u,", &prio) != 1 || !msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if ((prio & 7) <= 4)
			bad++;
		if (all || (prio & 7) <= 4)
			test_log("kernel: <%u> %s", prio & 7, msg);
	}
	return bad;
}

/* ---- sysfs ---- */

/* The driver bound to the device ("" when none). */
static void bound_driver(const char *syspath, char *out, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "%s/driver", syspath);
	n = readlink(link, target, sizeof(target) - 1);
	out[0] = '\0';
	if (n <= 0)
		return;
	target[n] = '\0';
	snprintf(out, size, "%.63s", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
}

/* Wait until DRIVER is bound (or, with DRIVER "", until none is). */
static bool wait_driver(const char *syspath, const char *driver, int timeout_ms)
{
	char now[64];

	for (int waited = 0; ; waited += 10) {
		bound_driver(syspath, now, sizeof(now));
		if (!strcmp(now, driver))
			return true;
		if (waited >= timeout_ms)
			return false;
		usleep(10000);
	}
}

/* The kernel's uevents. A driver's probe has ended well when the device's
 * "bind" event comes: the driver core makes the "driver" link before it
 * calls probe, and takes it away again when probe fails. */
static int uevent_socket(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	CHECK_OK(fd);
	CHECK_OK(bind(fd, (struct sockaddr *)&addr, sizeof(addr)));
	return fd;
}

/* Wait for "bind@.../SYSNAME" on the uevent socket FD. */
static bool wait_bind_event(int fd, const char *sysname, int timeout_ms)
{
	char msg[4096], want[300];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	snprintf(want, sizeof(want), "/%s", sysname);
	for (int waited = 0; waited < timeout_ms; waited += 100) {
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(fd, msg, sizeof(msg) - 1, MSG_DONTWAIT);
		if (n <= 0)
			continue;
		msg[n] = '\0';	/* the header, "ACTION@DEVPATH", ends at the first NUL */
		if (!strncmp(msg, "bind@", 5) && strlen(msg) > strlen(want) &&
		    !strcmp(msg + strlen(msg) - strlen(want), want))
			return true;
	}
	return false;
}

static int write_attr(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

static unsigned int n_inputs;

static int count_input(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	unsigned int n;
	char tail;

	/* .../input/inputN: an input device registered below the HID device */
	if (type == FTW_D && sscanf(base, "input%u%c", &n, &tail) == 1 &&
	    ftw->base >= 7 && !strncmp(base - 7, "/input/", 7))
		n_inputs++;
	return FTW_CONTINUE;
}

/* Input devices anywhere below the HID device (hid-logitech-dj's are below
 * the devices it adds for paired devices). */
static unsigned int input_devices(const char *syspath)
{
	char real[PATH_MAX];

	n_inputs = 0;
	/* /sys/bus/hid/devices/X is a link: walk the device's own directory */
	if (realpath(syspath, real))
		nftw(real, count_input, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	return n_inputs;
}

/* Does every HID device the driver added below the replica have
 * CHILD_DRIVER bound? Fails when there is none. */
static bool children_bound(const char *syspath, const char *child_driver)
{
	char real[PATH_MAX], child[PATH_MAX + 256], driver[64];
	unsigned int bus, vendor, product, id, n = 0;
	bool ok = true;
	struct dirent *de;
	DIR *dir;

	if (!realpath(syspath, real) || !(dir = opendir(real)))
		return false;
	while ((de = readdir(dir))) {
		if (sscanf(de->d_name, "%4x:%4x:%4x.%x", &bus, &vendor, &product, &id) != 4)
			continue;
		snprintf(child, sizeof(child), "%s/%s", real, de->d_name);
		bound_driver(child, driver, sizeof(driver));
		if (strcmp(driver, child_driver)) {
			test_log("%s: bound to \"%s\", not %s", de->d_name, driver, child_driver);
			ok = false;
		}
		n++;
	}
	closedir(dir);
	if (!n)
		test_log("%s added no HID device", side->driver);
	return ok && n > 0;
}

/* Wait until the driver's input devices are there (or gone). */
static void wait_input_devices(const char *syspath, bool there)
{
	for (int waited = 0; waited < BIND_TIMEOUT_MS; waited += 50) {
		if (there ? input_devices(syspath) >= side->min_inputs : input_devices(syspath) == 0)
			return;
		usleep(50000);
	}
	test_log("the input devices of %s did not %s", syspath, there ? "come back" : "go");
}

/* ---- the firewall ---- */

static bool protected_now(const char *sysname, int hid_id)
{
	return policyd_said(&daemon_run, sysname, ATTACH_TIMEOUT_MS) &&
	       firewall_instance_count(hid_id) == 1;
}

struct counters {
	long long allowed, denied;
};

static struct counters firewall_counters(void)
{
	json_t *status = POLICYCTL_JSON(&daemon_run, (uid_t)-1, "status");
	struct counters c = {
		json_path_int(status, "counters.allowed"),
		json_path_int(status, "counters.denied"),
	};

	json_decref(status);
	return c;
}

/* ---- the checks ---- */

/* Unbind the driver and bind it again, now that the firewall is attached:
 * the whole probe goes through it. */
static void check_probe_passes(struct replica *rep, const char *sysname, const char *syspath)
{
	char path[PATH_MAX];
	struct counters before, after;
	unsigned int missing;
	bool ok = true;
	int r;

	before = firewall_counters();
	snprintf(path, sizeof(path), "%s/%s/unbind", HID_DRIVERS, side->driver);
	CHECK_OK(write_attr(path, sysname));
	CHECK(wait_driver(syspath, "", BIND_TIMEOUT_MS), "%s stays bound after unbind", side->driver);
	replica_forget_probe(rep);
	/* The write returns once probe ended, with its error */
	snprintf(path, sizeof(path), "%s/%s/bind", HID_DRIVERS, side->driver);
	r = write_attr(path, sysname);
	if (r < 0 || !wait_driver(syspath, side->driver, BIND_TIMEOUT_MS)) {
		test_log("%s did not bind again with the firewall attached: %s", side->driver,
			 strerror(-r));
		ok = false;
	}
	missing = replica_probe_missing(rep, true);
	after = firewall_counters();
	if (missing) {
		test_log("%u of the probe's requests did not reach the replica", missing);
		ok = false;
	}
	if (after.allowed - before.allowed < replica_probe_count(rep)) {
		test_log("the firewall allowed %lld requests, the probe sends at least %u",
			 after.allowed - before.allowed, replica_probe_count(rep));
		ok = false;
	}
	if (after.denied != before.denied) {
		test_log("the firewall denied %lld requests", after.denied - before.denied);
		ok = false;
	}
	check_line(ok, "probe-passes-the-firewall");
}

static unsigned long everything_received(struct uhid_dev *dev)
{
	return uhid_dev_count(dev, UHID_DEV_GET_REPORT, -1) +
	       uhid_dev_count(dev, UHID_DEV_SET_REPORT, -1) +
	       uhid_dev_count(dev, UHID_DEV_OUTPUT, -1);
}

static int send_request(int fd, const struct request *r)
{
	uint8_t buf[UHID_DEV_REPORT_MAX] = { 0 };
	ssize_t n;
	int ret;

	memcpy(buf, r->data, r->len < sizeof(r->data) ? r->len : sizeof(r->data));
	switch (r->kind) {
	case SET_FEATURE:
		ret = ioctl(fd, HIDIOCSFEATURE(r->len), buf);
		break;
	case IOCTL_OUTPUT:
		ret = ioctl(fd, HIDIOCSOUTPUT(r->len), buf);
		break;
	case WRITE_OUTPUT:
		n = write(fd, buf, r->len);
		ret = n < 0 ? -1 : 0;
		break;
	default:
		return EINVAL;
	}
	return ret < 0 ? errno : 0;
}

static size_t denials(const char *rule, int hid_id, size_t want)
{
	char rule_f[96], hid_f[48];
	const char *filters[] = { "action=deny", "enforced=true", rule_f, hid_f, NULL };

	snprintf(rule_f, sizeof(rule_f), "rule.name=%s", rule);
	snprintf(hid_f, sizeof(hid_f), "device.hid_id=%d", hid_id);
	return policyd_audit_count(&daemon_run, filters, want, want ? AUDIT_TIMEOUT_MS : 0);
}

static void check_refused(struct uhid_dev *dev, int fd, int hid_id, const struct request *r)
{
	unsigned long before = everything_received(dev);
	size_t logged = denials(r->rule, hid_id, 0);
	int err = send_request(fd, r);
	char what[128];
	bool ok = true;

	usleep(OUTPUT_SETTLE_US);
	if (err != EPERM) {
		test_log("errno %d (%s), expected EPERM", err, strerror(err));
		ok = false;
	}
	if (everything_received(dev) != before) {
		test_log("the replica received %lu request(s)", everything_received(dev) - before);
		ok = false;
	}
	if (denials(r->rule, hid_id, logged + 1) != logged + 1) {
		test_log("no enforced denial by rule %s in the audit log", r->rule);
		ok = false;
	}
	snprintf(what, sizeof(what), "refused/%s", r->name);
	check_line(ok, what);
}

/* Until nothing has reached the replica for a second (at most 15 s): the
 * daemon asks a Logitech device (and each device hid-logitech-dj makes of
 * a receiver) its HID++ feature indexes once it is attached (hid-policyd(8),
 * HID++ feature indexes), and those questions must not be counted as a
 * refused request that got through. */
static void wait_quiet(struct uhid_dev *dev)
{
	unsigned long seen = everything_received(dev);

	for (int waited = 0; waited < 15000; waited += 1000) {
		usleep(1000000);
		if (everything_received(dev) == seen)
			return;
		seen = everything_received(dev);
	}
	test_log("requests still reach the replica after 15 s");
}

/* The dangerous requests, from hidraw: the replica's own node, or the
 * client device's that hid-steam puts in its place. */
static void check_refused_all(struct uhid_dev *dev)
{
	struct hidraw_node node;
	int fd;

	CHECK_OK(uhid_dev_wait_user_hidraw(dev, &node, BIND_TIMEOUT_MS));
	CHECK(current->hidraw_is_client == !!strcmp(node.sysname, dev->sysname),
	      "%s: hidraw on %s, expected it on %s", side->driver, node.sysname,
	      current->hidraw_is_client ? "a client device" : dev->sysname);
	check_line(protected_now(node.sysname, node.hid_id), "hidraw-device-is-protected");
	wait_quiet(dev);
	fd = open(node.path, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "%s: %s", node.path, strerror(errno));
	/* hid-steam hands the controller to its client: its own input
	 * devices go while the client is open */
	if (current->hidraw_is_client)
		wait_input_devices(dev->syspath, false);
	for (size_t i = 0; i < MAX_REFUSED && current->refused[i].name; i++)
		check_refused(dev, fd, node.hid_id, &current->refused[i]);
	close(fd);
	/* hid-steam takes the controller back once its client is closed:
	 * lizard mode again, then its input devices. Let it finish before the
	 * device goes, or its requests fail (and say so in the kernel log). */
	if (current->hidraw_is_client)
		wait_input_devices(dev->syspath, true);
}

static void test_device(void)
{
	const struct vendor_device *d = current;
	struct replica *rep;
	struct uhid_dev dev;
	char driver[64];
	int kmsg, uevents;
	bool bound;

	if (side->skip)
		SKIP("%s", side->skip);
	kmsg = kmsg_open();
	uevents = uevent_socket();
	rep = replica_new(d->model, side->probe);
	CHECK_OK(replica_create(rep, &dev));

	/* 1. The driver binds the replica, with the daemon attaching the
	 * firewall as the device comes (hotplug). */
	bound = wait_bind_event(uevents, dev.sysname, BIND_TIMEOUT_MS);
	close(uevents);
	bound_driver(dev.syspath, driver, sizeof(driver));
	if (!bound || strcmp(driver, side->driver)) {
		test_log("%s, bound to \"%s\", not %s; the kernel said:",
			 bound ? "probed" : "no probe ended well", driver, side->driver);
		bound = false;
	}
	check_line(bound, "driver-binds");
	if (!bound) {
		kmsg_report(kmsg, true);
		uhid_dev_destroy(&dev);
		CHECK(false, "%s did not bind the replica", side->driver);
	}
	check_line(replica_probe_missing(rep, true) == 0, "probe-requests-reach-the-replica");
	CHECK(protected_now(dev.sysname, dev.hid_id), "%s: the firewall is not attached", dev.sysname);

	/* 2. The driver again, its whole probe through the firewall. */
	check_probe_passes(rep, dev.sysname, dev.syspath);
	check_line(input_devices(dev.syspath) >= side->min_inputs, "driver-creates-input-devices");
	if (input_devices(dev.syspath) < side->min_inputs)
		test_log("%u input devices below %s, expected at least %u",
			 input_devices(dev.syspath), dev.sysname, side->min_inputs);
	if (side->child_driver)
		check_line(children_bound(dev.syspath, side->child_driver),
			   "added-devices-are-bound");

	/* 3. What the shipped rules refuse, from hidraw. */
	check_refused_all(&dev);

	uhid_dev_destroy(&dev);
	uhid_wait_gone(dev.syspath, 5000);
	check_line(kmsg_report(kmsg, false) == 0, "kernel-log-is-clean");
	close(kmsg);
	replica_free(rep);
	CHECK(n_failed_checks == 0, "%s: %u check(s) failed", d->name, n_failed_checks);
}

static bool start_daemon(void)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	char policies[512];
	const char *args[] = { "--config-dir", policies, NULL };
	int r;

	snprintf(policies, sizeof(policies), "%s/policies", src);
	r = policyd_prepare(&daemon_run);
	if (r == 0)
		r = policyd_start(&daemon_run, args);
	printf("%s: %s/daemon-starts-with-the-shipped-policies\n", r == 0 ? "PASS" : "FAIL", SUITE);
	if (r < 0)
		printf("    hid-policyd --config-dir %s: %s\n", policies, strerror(-r));
	return r == 0;
}

int main(int argc, char **argv)
{
	bool list = argc > 1 && !strcmp(argv[1], "--list");
	bool on_6_1 = kernel_is_6_1();
	int failed = 0, r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!list) {
		/* Vendor drivers for the devices this suite creates. */
		r = write_attr(IGNORE_SPECIAL_DRIVERS, "0");
		if (r < 0) {
			printf("FAIL: %s/vendor-drivers-enabled (%s: %s)\n", SUITE,
			       IGNORE_SPECIAL_DRIVERS, strerror(-r));
			return 1;
		}
		if (!start_daemon()) {
			write_attr(IGNORE_SPECIAL_DRIVERS, "1");
			return 1;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(devices); i++) {
		const struct test_case t = { devices[i].name, test_device, 180 };

		current = &devices[i];
		side = on_6_1 && devices[i].side_6_1.driver ? &devices[i].side_6_1 : &devices[i].side;
		n_failed_checks = 0;
		failed |= test_main(argc, argv, SUITE, &t, 1);
	}
	if (!list) {
		policyd_stop(&daemon_run, false);
		if (policyd_cleanup(&daemon_run) < 0) {
			printf("FAIL: %s/cleanup-detaches-every-firewall\n", SUITE);
			failed = 1;
		}
		if (write_attr(IGNORE_SPECIAL_DRIVERS, "1") < 0) {
			printf("FAIL: %s/vendor-drivers-ignored-again\n", SUITE);
			failed = 1;
		}
	}
	return failed ? 1 : 0;
}
