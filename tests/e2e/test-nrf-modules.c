// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shipped nRF Desktop rule set (policies/60-nordic-nrf-desktop.json,
 * "nrf_config_option": "dfu/reboot"), in force with the modules the device
 * itself listed the daemon: a replica of an nRF Desktop mouse (its report
 * descriptor; its configuration channel answering as the firmware does,
 * "pending" first: tests/lib/nrf_replica.h), on uhid and on USB. Its dfu
 * module is module 1: dfu/reboot is event ID 0x14, dfu/fwinfo 0x15.
 * Checks: before the device has listed its modules, every FETCH and every
 * other configuration frame from a user is refused, and none reaches the
 * device; once it has, a user's dfu/fwinfo and dfu/sync reads pass and
 * reach it, and the reboot FETCH is refused on the feature and the output
 * report and never reaches it; the daemon says what the device listed; a
 * device bound again (its modules now in another order) is asked anew.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/hidraw.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "nrf_replica.h"
#include "policyd_case.h"

#define FETCH		NRF_CONFIG_STATUS_FETCH
#define REBOOT		0x14	/* dfu (module 1), option 4 */
#define SYNC		0x13
#define FWINFO		0x15
#define LISTED		"configuration-channel modules it listed: motion (3 options), dfu (7 options), ble_bond (2 options)"
#define LISTED_REORDERED "configuration-channel modules it listed: motion (3 options), ble_bond (2 options), dfu (7 options)"

static enum test_dev_backend backend;
static struct nrf_replica_dev mouse;
static char policy[16384];

/* The shipped rule set, as the daemon reads it. */
static void read_policy(void)
{
	char path[512];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/policies/60-nordic-nrf-desktop.json",
		 getenv("HID_POLICY_SRCDIR") ?: ".");
	n = read_file(path, policy, sizeof(policy) - 1);
	CHECK(n > 0, "cannot read %s", path);
	policy[n] = '\0';
}

static void start_mouse(struct policyd_case *c, bool silent)
{
	const struct uhid_dev_config cfg = {
		.backend = backend,
		.name = "Nordic nRF52 Desktop Mouse (replica)",
		.vendor = 0x1915, .product = 0x52de,
		.rdesc = nrf_replica_mouse_rdesc, .rdesc_size = nrf_replica_mouse_rdesc_size,
		.on_request = nrf_replica_on_request, .userdata = &mouse,
	};
	bool generic_only = test_dev_generic_driver_only_now();

	read_policy();
	nrf_replica_dev_init(&mouse);
	nrf_replica_dev_set_silent(&mouse, silent);
	CHECK_OK(test_dev_generic_driver_only(true));
	policyd_case_start(c, &cfg, policy);
	CHECK_OK(test_dev_generic_driver_only(generic_only));
}

/* A configuration frame to the device itself, as a SET_REPORT of feature
 * 0x06 (OUTPUT: a write of output report 0x07), from a process of user
 * 65534 (nobody) given the node: 0 or its errno. */
static int user_sends(int fd, bool output, uint8_t event_id, uint8_t status)
{
	uint8_t f[NRF_CONFIG_REPORT_LEN] = { output ? 0x07 : 0x06, 0x00, event_id, status };
	pid_t pid = fork();
	int st;

	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		ssize_t n;

		if (setgid(65534) || setuid(65534))
			_exit(200);
		n = output ? write(fd, f, sizeof(f)) : ioctl(fd, HIDIOCSFEATURE(sizeof(f)), f);
		_exit(n < 0 ? (errno & 0xff) : 0);
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "the sender did not exit");
	CHECK(WEXITSTATUS(st) != 200, "cannot become user 65534");
	return WEXITSTATUS(st);
}

/* Until TIMEOUT_MS: the FETCHes of EVENT_ID that reached the device are
 * N (a request is recorded before the replica takes it). */
static unsigned wait_fetches(uint8_t event_id, unsigned n, int timeout_ms)
{
	unsigned got = nrf_replica_dev_fetches(&mouse, event_id);

	for (int waited = 0; got < n && waited < timeout_ms; waited += 10) {
		usleep(10000);
		got = nrf_replica_dev_fetches(&mouse, event_id);
	}
	return got;
}

static void wait_listed(struct policyd_case *c, const char *listed)
{
	char text[8192];
	ssize_t n;

	if (policyd_said(&c->run, listed, 10000 * test_slow_factor()))
		return;
	n = read_file(c->run.stderr_log, text, sizeof(text) - 1);
	text[n > 0 ? n : 0] = '\0';
	test_log("the daemon said:\n%s", text);
	CHECK(false, "the daemon did not say what the device listed");
}

static void a_users_fwinfo_read_passes_and_the_reboot_never_reaches_the_device(void)
{
	struct policyd_case c;

	start_mouse(&c, false);
	wait_listed(&c, LISTED);
	/* fwupd-style reads, from a user: they reach the device */
	CHECK_EQ(user_sends(c.fd, false, FWINFO, FETCH), 0);
	CHECK_EQ(user_sends(c.fd, false, SYNC, FETCH), 0);
	CHECK_EQ(user_sends(c.fd, false, 0x10, FETCH), 0);	/* the dfu module's listing */
	CHECK_EQ(wait_fetches(FWINFO, 1, 2000), 1u);
	CHECK_EQ(wait_fetches(SYNC, 1, 2000), 1u);
	/* the reboot: refused on both reports, never at the device */
	CHECK_EQ(user_sends(c.fd, false, REBOOT, FETCH), EPERM);
	CHECK_EQ(user_sends(c.fd, true, REBOOT, FETCH), EPERM);
	/* ... and so is it to root running another program than fwupd */
	{
		uint8_t f[NRF_CONFIG_REPORT_LEN] = { 0x06, 0x00, REBOOT, FETCH };

		CHECK_EQ(ioctl(c.fd, HIDIOCSFEATURE(sizeof(f)), f) < 0 ? errno : 0, EPERM);
	}
	/* output reports reach the device after write() returned: a passing
	 * one after the refused one shows it would have arrived by now */
	CHECK_EQ(user_sends(c.fd, true, FWINFO, FETCH), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, 0x07, 1, 2000) == 0 ||
		 uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0x07, 1, 2000) == 0 ? 0 : -ETIMEDOUT);
	CHECK_EQ(wait_fetches(FWINFO, 2, 2000), 2u);
	CHECK_EQ(nrf_replica_dev_fetches(&mouse, REBOOT), 0u);
	CHECK(!nrf_replica_dev_rebooted(&mouse), "the reboot reached the device");
	/* SETs stay fwupd's */
	CHECK_EQ(user_sends(c.fd, false, 0x11, NRF_CONFIG_STATUS_SET), EPERM);
	CHECK_EQ(nrf_replica_dev_sets(&mouse), 0u);
	policyd_case_end(&c);
}

static void before_the_device_has_listed_its_modules_every_fetch_is_refused(void)
{
	struct policyd_case c;
	unsigned listing;

	/* the device answers "pending" to everything: the daemon learns
	 * nothing, and asks again later */
	start_mouse(&c, true);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0x06, 1, 10000 * test_slow_factor()));
	listing = nrf_replica_dev_fetches(&mouse, 0x10);
	CHECK_EQ(user_sends(c.fd, false, FWINFO, FETCH), EPERM);
	CHECK_EQ(user_sends(c.fd, false, 0x10, FETCH), EPERM);
	CHECK_EQ(user_sends(c.fd, false, REBOOT, FETCH), EPERM);
	CHECK_EQ(user_sends(c.fd, true, FWINFO, FETCH), EPERM);
	/* nor can a user make the device answer in the daemon's place */
	CHECK_EQ(user_sends(c.fd, false, 0x00, 3 /* GET_BOARD_NAME */), EPERM);
	CHECK_EQ(user_sends(c.fd, false, 0x00, NRF_CONFIG_STATUS_GET_MAX_MOD_ID), EPERM);
	CHECK_EQ(nrf_replica_dev_fetches(&mouse, FWINFO), 0u);
	CHECK_EQ(nrf_replica_dev_fetches(&mouse, REBOOT), 0u);
	CHECK(nrf_replica_dev_fetches(&mouse, 0x10) == listing,
	      "a user's listing FETCH reached the device");
	/* the device answers now: asked again after the backoff, listed */
	nrf_replica_dev_set_silent(&mouse, false);
	wait_listed(&c, LISTED);
	CHECK_EQ(user_sends(c.fd, false, FWINFO, FETCH), 0);
	CHECK_EQ(user_sends(c.fd, false, REBOOT, FETCH), EPERM);
	CHECK_EQ(wait_fetches(FWINFO, 1, 2000), 1u);
	CHECK_EQ(nrf_replica_dev_fetches(&mouse, REBOOT), 0u);
	policyd_case_end(&c);
}

/* A device bound again may run other firmware (after an update, its
 * modules linked in another order): its modules are asked anew, and the
 * reboot is refused at its new event ID. */
static void a_device_bound_again_is_asked_anew(void)
{
	struct policyd_case c;

	start_mouse(&c, false);
	wait_listed(&c, LISTED);
	CHECK_EQ(user_sends(c.fd, false, REBOOT, FETCH), EPERM);

	nrf_replica_dev_reorder(&mouse);
	close(c.fd);
	CHECK_OK(uhid_dev_unbind(&c.dev, "hid-generic"));
	CHECK_OK(uhid_dev_bind(&c.dev, "hid-generic", 5000 * test_slow_factor()));
	c.fd = uhid_dev_open_hidraw(&c.dev, 0);
	CHECK(c.fd >= 0, "the hidraw node is not back after bind");
	wait_listed(&c, LISTED_REORDERED);
	/* dfu is module 2 now: its reboot 0x24, its fwinfo 0x25 */
	CHECK_EQ(user_sends(c.fd, false, 0x24, FETCH), EPERM);
	CHECK_EQ(user_sends(c.fd, false, 0x25, FETCH), 0);
	CHECK_EQ(wait_fetches(0x25, 1, 2000), 1u);
	CHECK_EQ(nrf_replica_dev_fetches(&mouse, 0x24), 0u);
	CHECK(!nrf_replica_dev_rebooted(&mouse), "the reboot reached the device");
	policyd_case_end(&c);
}

static const struct test_case tests[] = {
	{ "a_device_bound_again_is_asked_anew", a_device_bound_again_is_asked_anew, 180 },
	{ "a_users_fwinfo_read_passes_and_the_reboot_never_reaches_the_device",
	  a_users_fwinfo_read_passes_and_the_reboot_never_reaches_the_device, 120 },
	{ "before_the_device_has_listed_its_modules_every_fetch_is_refused",
	  before_the_device_has_listed_its_modules_every_fetch_is_refused, 180 },
};

int main(int argc, char **argv)
{
	int failed;

	test_dev_keep_driver_setting();
	backend = TEST_DEV_UHID;
	failed = test_main(argc, argv, "e2e-nrf-modules", tests, ARRAY_SIZE(tests));
	backend = TEST_DEV_USB;
	failed |= test_main(argc, argv, "e2e-nrf-modules/usb", tests, ARRAY_SIZE(tests));
	return failed;
}
