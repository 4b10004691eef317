/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What most end-to-end cases start from: a uhid device, hid-policyd
 * running with one policy file, and the device's hidraw node open. Both
 * functions CHECK their own steps (harness.h), so a case reads as the
 * behaviour it tests.
 */
#pragma once

#include "harness.h"
#include "policyd_run.h"
#include "uhid_dev.h"

struct policyd_case {
	struct uhid_dev dev;
	struct policyd_run run;
	int fd;			/* the device's hidraw node, O_RDWR */
	bool shared;		/* RUN is a shared daemon's: not the case's to stop */
};

/* Create the device from DEV_CFG, start the daemon with POLICY as
 * 50-test.json, open the hidraw node. */
void policyd_case_start(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			const char *policy);
/* The same with more hid-policyd options (NULL-terminated). */
void policyd_case_start_args(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			     const char *policy, const char *const *extra_args);
/* The same with the run directory open to other users (mkdtemp makes it
 * 0700), so that they reach the control socket as on a real system. */
void policyd_case_start_shared(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			       const char *policy);
/* Close the node, stop the daemon and remove its pins, destroy the device;
 * for a shared daemon: close the node, destroy the device and fail the
 * case when the daemon is no longer running. */
void policyd_case_end(struct policyd_case *c);

/*
 * A daemon shared by consecutive cases that only differ in the requests
 * they send (a test_fixture's setup and teardown, run in the harness's
 * process): started with POLICY as 50-test.json before any case's device
 * exists. Its records and messages are every case's, so a case that counts
 * them filters on its own device. 0 or -errno (its messages are shown).
 */
int policyd_shared_start(struct policyd_run *run, const char *policy);
void policyd_shared_stop(struct policyd_run *run);
/* A test_fixture NAME whose daemon, NAME##_run, runs POLICY (an
 * expression evaluated at setup; NULL fails it): a case's .fixture is
 * &NAME, and it starts with policyd_case_start_on(&c, &NAME##_run, ...). */
#define POLICYD_SHARED_FIXTURE(name, policy)                                   \
	static struct policyd_run name##_run;                                  \
	static int name##_setup(void)                                          \
	{                                                                      \
		return policyd_shared_start(&name##_run, (policy));            \
	}                                                                      \
	static void name##_teardown(void)                                      \
	{                                                                      \
		policyd_shared_stop(&name##_run);                              \
	}                                                                      \
	static const struct test_fixture name = {                             \
		#name, name##_setup, name##_teardown,                          \
	}

/* Create the device from DEV_CFG, wait until SHARED's daemon says it
 * protects it, open the hidraw node. */
void policyd_case_start_on(struct policyd_case *c, const struct policyd_run *shared,
			   const struct uhid_dev_config *dev_cfg);

/* hid-policyctl ARGS... on RUN's control socket as UID ((uid_t)-1: as the
 * test); fails the test when it cannot be run. OUT keeps what it printed,
 * for checks (policyctl_output_done() after). */
#define POLICYCTL(run, uid, out, ...)                                          \
	CHECK_OK(policyctl_run(run, uid, (const char *const[]){ __VA_ARGS__, NULL }, out))

/* hid-policyctl --json ARGS... as UID: fails the test unless it exits 0
 * and prints a JSON object; returns that object (new reference). */
#define POLICYCTL_JSON(run, uid, ...)                                          \
	policyd_case_ctl_json(run, uid, (const char *const[]){ "--json", __VA_ARGS__, NULL })
json_t *policyd_case_ctl_json(struct policyd_run *run, uid_t uid, const char *const *args);
/* The case's device as "hid-policyctl --json devices" (run by root) shows
 * it: fails the test when it is not listed; a new reference. */
json_t *policyd_case_device_view(struct policyd_case *c);
/* hid-policyctl ARGS (its table output) as UID: fails the test unless it
 * exits 0 and prints something. */
void policyd_case_ctl_shows(struct policyd_run *run, uid_t uid, const char *const *args);
