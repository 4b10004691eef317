/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A hidraw racer: a process that watches /dev for a new hidraw node, opens it
 * the moment it can and at once sends one SET_REPORT (HIDIOCSFEATURE), as a
 * program racing the firewall would. An unprivileged racer cannot open the
 * node the kernel creates (root, 0600); it retries on every attribute change
 * of the node (udev's chmod or ACL) and every millisecond, so it gets in as
 * soon as anything opens the node to it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uhid_dev.h"

#define HIDRAW_RACER_REPORT_MAX 64

struct hidraw_racer_config {
	bool drop_privileges;	/* run as uid/gid (no supplementary groups) */
	uid_t uid;
	gid_t gid;
	uint8_t report[HIDRAW_RACER_REPORT_MAX];	/* report[0] is the ID */
	size_t size;
	int timeout_ms;		/* give up this long after starting */
};

struct hidraw_race_result {
	bool seen;		/* a hidraw node appeared */
	bool opened;		/* ... and the racer opened it */
	int open_errno;		/* the last failed open, when not opened */
	int request_errno;	/* the request's errno; 0: it was accepted */
	unsigned int open_attempts;
	char node[32];		/* hidrawN */
	/* CLOCK_MONOTONIC, in ns */
	int64_t created_ns;	/* the node's creation was seen */
	int64_t opened_ns;
	int64_t answered_ns;	/* the request returned */
};

struct hidraw_racer {
	pid_t pid;
	int result_fd;
};

/* Fork the racer; returns once it watches /dev (0) or -errno. */
int hidraw_racer_start(struct hidraw_racer *r, const struct hidraw_racer_config *cfg);
/* Wait for the racer's result (it ends after its request or its timeout).
 * Returns 0, or -errno when the racer died without a result. */
int hidraw_racer_finish(struct hidraw_racer *r, struct hidraw_race_result *res);

/* A virtual DualSense (USB 054C:0CE6) with the generic test descriptor's
 * reports, its firmware-update feature report 0xF4 in place of 0xF0. */
struct uhid_dev_config hidraw_race_dualsense(void);

struct hidraw_race_round {
	struct hidraw_race_result racer;
	unsigned long reached;	/* SET_REPORTs of the racer's report ID
				 * that the device received */
	char sysname[256];	/* the device's, for looking up decisions */
};

/* One round: start the racer, create the device, let the racer do what it
 * can, count what reached the device, call before_destroy (when not NULL)
 * with the device's sysfs name, destroy the device and wait until it is
 * gone. Returns 0 or -errno. */
int hidraw_race_round(const struct hidraw_racer_config *cfg,
		      const struct uhid_dev_config *dev_cfg, struct hidraw_race_round *out,
		      void (*before_destroy)(const char *sysname, void *data), void *data);

/* CLOCK_MONOTONIC in ns, the racer's clock. */
int64_t hidraw_racer_now_ns(void);
