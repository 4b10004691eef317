/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What most end-to-end cases start from: a uhid device, hid-policyd
 * running with one policy file, and the device's hidraw node open. Both
 * functions CHECK their own steps (harness.h), so a case reads as the
 * behaviour it tests.
 */
#pragma once

#include "policyd_run.h"
#include "uhid_dev.h"

struct policyd_case {
	struct uhid_dev dev;
	struct policyd_run run;
	int fd;			/* the device's hidraw node, O_RDWR */
};

/* Create the device from DEV_CFG, start the daemon with POLICY as
 * 50-test.json, open the hidraw node. */
void policyd_case_start(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			const char *policy);
/* The same with the run directory open to other users (mkdtemp makes it
 * 0700), so that they reach the control socket as on a real system. */
void policyd_case_start_shared(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			       const char *policy);
/* Close the node, stop the daemon and remove its pins, destroy the device. */
void policyd_case_end(struct policyd_case *c);
