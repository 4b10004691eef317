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
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "hidraw_racer.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define ROUNDS 100
#define DUALSENSE_VENDOR 0x054c
#define DUALSENSE_PRODUCT 0x0ce6
#define FIRMWARE_UPDATE_REPORT 0xf4
#define RUNTIME_DIR "/run/hid-policy"
#define USER_UID 1000

/* Stand-in for the rules that open controllers to users. Its name sorts
 * where Steam's does: after 60-hid-policy.rules. */
static const char open_to_users_rule[] =
	"# test stand-in for 60-steam-input.rules and uaccess\n"
	"ACTION==\"add\", KERNEL==\"hidraw*\", MODE=\"0666\"\n";

struct udev_world {
	pid_t udevd;
	char log[64];
};

static const char *srcdir(void)
{
	return getenv("HID_POLICY_SRCDIR") ?: ".";
}

static const char *builddir(void)
{
	return getenv("HID_POLICY_BUILDDIR") ?: "build";
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f, "%s: %m", path);
	fputs(text, f);
	CHECK(fclose(f) == 0, "%s: %m", path);
}

static char *slurp(const char *path)
{
	static char buf[65536];
	ssize_t n = read_file(path, buf, sizeof(buf) - 1);

	CHECK(n >= 0, "%s: %s", path, strerror((int)-n));
	buf[n] = '\0';
	return buf;
}

/* Our rule as shipped, with @SBINDIR@ pointing at the build. */
static void install_policy_rule(void)
{
	char path[512], *text, *at, out[8192];

	snprintf(path, sizeof(path), "%s/policyd/data/60-hid-policy.rules", srcdir());
	text = slurp(path);
	at = strstr(text, "@SBINDIR@");
	CHECK(at, "%s has no @SBINDIR@", path);
	*at = '\0';
	snprintf(out, sizeof(out), "%s%s/policyd%s", text, builddir(), at + strlen("@SBINDIR@"));
	CHECK(!strstr(out, "@SBINDIR@"), "%s names @SBINDIR@ twice", path);
	write_text("/run/udev/rules.d/60-hid-policy.rules", out);
}

static const char *find_udevd(void)
{
	static const char *const paths[] = { "/lib/systemd/systemd-udevd",
					     "/usr/lib/systemd/systemd-udevd" };

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	return NULL;
}

static void mount_tmpfs(const char *dir)
{
	CHECK(mount("tmpfs", dir, "tmpfs", 0, "mode=0755") == 0, "mount tmpfs on %s: %m", dir);
}

/* A private /run and rule directories, our rules, and udevd running. */
static void udev_start(struct udev_world *w, bool with_policy_rule)
{
	const char *udevd = find_udevd();
	int fd;

	if (!udevd)
		SKIP("systemd-udevd is not installed (Debian package udev; scripts/deps.sh)");
	CHECK(unshare(CLONE_NEWNS) == 0, "unshare(CLONE_NEWNS): %m");
	CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0, "making / private: %m");
	mount_tmpfs("/run");
	mount_tmpfs("/usr/lib/udev/rules.d");
	mount_tmpfs("/etc/udev/rules.d");
	CHECK(mkdir("/run/udev", 0755) == 0 && mkdir("/run/udev/rules.d", 0755) == 0,
	      "mkdir /run/udev/rules.d: %m");
	if (with_policy_rule)
		install_policy_rule();
	write_text("/run/udev/rules.d/60-steam-input.rules", open_to_users_rule);

	snprintf(w->log, sizeof(w->log), "/tmp/udevd-race.%d.log", (int)getpid());
	fd = open(w->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK_OK(fd);
	w->udevd = fork();
	CHECK_OK(w->udevd);
	if (w->udevd == 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execl(udevd, udevd, (char *)NULL);
		_exit(127);
	}
	close(fd);
	for (int i = 0; access("/run/udev/control", F_OK) < 0; i++) {
		int status;

		if (waitpid(w->udevd, &status, WNOHANG) == w->udevd) {
			test_log("udevd's messages:\n%s", slurp(w->log));
			CHECK(0, "%s exited (status %#x)", udevd, status);
		}
		CHECK(i < 1000, "%s did not create /run/udev/control in 10 s", udevd);
		usleep(10000);
	}
}

static void udev_stop(struct udev_world *w)
{
	int status;

	kill(w->udevd, SIGTERM);
	CHECK_EQ(waitpid(w->udevd, &status, 0), w->udevd);
	unlink(w->log);
}

/* udevd has no event queued or running (after a device went away). */
static void udev_wait_idle(void)
{
	for (int i = 0; access("/run/udev/queue", F_OK) == 0; i++) {
		CHECK(i < 1000, "udev's queue did not empty in 10 s");
		usleep(10000);
	}
}

static void start_daemon(struct policyd_run *run)
{
	const char *const args[] = { "--runtime-dir", RUNTIME_DIR, NULL };
	char path[512];

	snprintf(path, sizeof(path), "%s/policies/20-sony-dualsense.json", srcdir());
	CHECK_OK(policyd_prepare(run));
	CHECK_OK(policyd_write_policy(run, "20-sony-dualsense.json", slurp(path)));
	CHECK_OK(policyd_start(run, args));
}

struct round {
	struct hidraw_race_result racer;
	unsigned long reached;	/* firmware-update requests the device saw */
};

/* One round: the racer watches, the DualSense appears, the racer does
 * what it can, the DualSense goes. */
static void race_round(struct round *out)
{
	const struct uhid_dev_config dualsense = {
		.name = "Sony Interactive Entertainment DualSense Wireless Controller",
		.vendor = DUALSENSE_VENDOR,
		.product = DUALSENSE_PRODUCT,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};
	struct hidraw_racer_config cfg = {
		.drop_privileges = true,
		.uid = USER_UID,
		.gid = USER_UID,
		.report = { FIRMWARE_UPDATE_REPORT, 0x00 },	/* 0x00: start */
		.size = HIDRAW_RACER_REPORT_MAX,
		/* longer than the rule's --timeout 5 */
		.timeout_ms = 20000,
	};
	struct hidraw_racer racer;
	struct uhid_dev dev;

	CHECK_OK(hidraw_racer_start(&racer, &cfg));
	CHECK_OK(uhid_dev_create(&dev, &dualsense));
	CHECK_OK(hidraw_racer_finish(&racer, &out->racer));
	out->reached = uhid_dev_count(&dev, UHID_DEV_SET_REPORT, FIRMWARE_UPDATE_REPORT);
	uhid_dev_destroy(&dev);
	CHECK_OK(uhid_wait_gone(dev.syspath, 10000));
	udev_wait_idle();
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
	struct policyd_run run;
	struct udev_world w;
	size_t logged;

	udev_start(&w, true);
	start_daemon(&run);
	for (int i = 0; i < ROUNDS; i++) {
		struct round r;

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
	logged = policyd_audit_count(&run, filters, ROUNDS, 10000);
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
	udev_stop(&w);
}

/* The control experiment: the same racer, udev and device without the
 * daemon. The rule must not hold the node (no decision will come) and the
 * racer's request must reach the device, or the test above proves nothing. */
static void test_racer_reaches_an_unprotected_device_and_the_rule_does_not_hold_it(void)
{
	struct udev_world w;

	udev_start(&w, true);
	for (int i = 0; i < 3; i++) {
		struct round r;

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
	udev_stop(&w);
}

static const struct test_case tests[] = {
	{ "racer_reaches_an_unprotected_device_and_the_rule_does_not_hold_it",
	  test_racer_reaches_an_unprotected_device_and_the_rule_does_not_hold_it, 120 },
	{ "unprivileged_racer_never_reaches_the_device_with_the_udev_rule",
	  test_unprivileged_racer_never_reaches_the_device_with_the_udev_rule, 900 },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "e2e", tests, ARRAY_SIZE(tests));
}
