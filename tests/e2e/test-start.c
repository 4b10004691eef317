// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: hid-policyd's start over the machine's life. A policy that an
 * administrator broke (or an upgrade did) must never leave a device
 * unprotected: the daemon starts with the last policy that loaded, which
 * it keeps on disk at every start and reload (--saved-policy-dir), and
 * says so; with none kept, it does not start (and udev keeps the matched
 * nodes closed: tests/e2e/test-race.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "policyd_case.h"
#include "uhid_dev.h"

static const char good_policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"name\": \"start-test\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x567a\" },\n"
	"    \"rules\": [ { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"      \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" } ]\n"
	"} ] }\n";
/* A comma too many: what an editor's slip leaves. */
static const char broken_policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x567a\" },\n"
	"    \"rules\": [ ], } ] }\n";

static const struct uhid_dev_config *test_device(void)
{
	static struct uhid_dev_config cfg = {
		.name = "start test device",
		.vendor = 0x1234,
		.product = 0x567a,
		.rdesc = uhid_test_rdesc,
	};

	cfg.rdesc_size = uhid_test_rdesc_size;
	return &cfg;
}

/* "hid-policyctl status" says the policy in force is the kept copy. */
static bool status_says_kept_copy(struct policyd_run *run)
{
	json_t *st = POLICYCTL_JSON(run, (uid_t)-1, "status");
	bool kept = json_is_true(json_object_get(json_object_get(st, "policy"), "kept_copy"));

	json_decref(st);
	return kept;
}

static void a_broken_policy_at_start_runs_the_last_policy_that_loaded(void)
{
	char kept[256], text[4096];
	struct policyd_case c;
	ssize_t n;

	policyd_case_start(&c, test_device(), good_policy);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	/* the policy in force is kept as it was read */
	snprintf(kept, sizeof(kept), "%s/50-test.json", c.run.saved_dir);
	n = read_file(kept, text, sizeof(text) - 1);
	CHECK_EQ(n, (ssize_t)strlen(good_policy));
	text[n > 0 ? n : 0] = '\0';
	CHECK(!strcmp(text, good_policy), "the kept copy differs: %s", text);
	close(c.fd);
	CHECK_OK(policyd_stop(&c.run, false));
	/* what a reboot does to the firewall: start from nothing */
	CHECK_OK(policyd_cleanup(&c.run));
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 0);

	/* the administrator's slip, then the next start (a reboot) */
	CHECK_OK(policyd_write_policy(&c.run, "50-test.json", broken_policy));
	CHECK_OK(policyd_start(&c.run, NULL));
	CHECK(policyd_said(&c.run, "50-test.json:3:17", 0), "the broken file was not reported");
	CHECK(policyd_said(&c.run, "running with the last policy that loaded", 0),
	      "the daemon did not say it runs on the kept policy");
	CHECK_EQ(firewall_instance_count(c.dev.hid_id), 1);
	c.fd = uhid_dev_open_hidraw(&c.dev, 0);
	CHECK_OK(c.fd);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	CHECK(status_says_kept_copy(&c.run), "hid-policyctl status does not say so");

	/* fixed and reloaded: the kept copy follows */
	CHECK_OK(policyd_write_policy(&c.run, "50-test.json", good_policy));
	CHECK_OK(policyd_reload(&c.run));
	CHECK(policyd_said(&c.run, "policy reloaded", 0), "the fixed policy did not load");
	CHECK(!status_says_kept_copy(&c.run), "status still says the kept copy is in force");
	policyd_case_end(&c);
}

static void a_broken_policy_with_none_kept_does_not_start(void)
{
	struct policyd_run run;

	CHECK_OK(policyd_prepare(&run));
	CHECK_OK(policyd_write_policy(&run, "50-test.json", broken_policy));
	CHECK_EQ(policyd_start(&run, NULL), -ECHILD);
	CHECK(policyd_said(&run, "no policy that loaded before is kept", 0),
	      "the daemon did not say why it stopped");
	CHECK_OK(policyd_cleanup(&run));
}

static const struct test_case tests[] = {
	{ "a_broken_policy_at_start_runs_the_last_policy_that_loaded",
	  a_broken_policy_at_start_runs_the_last_policy_that_loaded, 120 },
	{ "a_broken_policy_with_none_kept_does_not_start",
	  a_broken_policy_with_none_kept_does_not_start, 60 },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "e2e-start", tests, ARRAY_SIZE(tests));
}
