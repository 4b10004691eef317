/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hid-policyctl's command line, and the request it becomes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <jansson.h>

#include "common/ctl_protocol.h"
#include "common/hidpp.h"

struct ctl_args {
	bool help, version;
	const char *command;		/* "status", ... */
	const char *socket_path;	/* --socket; NULL: the default */
	bool json;			/* --json */
	bool ask_password;		/* not --no-ask-password */
	const char *device;		/* DEVICE operand, or log's --device */
	/* log */
	char since[40];			/* --since as an audit-log time; "" none */
	const char *action;		/* --action */
	bool follow;			/* --follow */
	long lines;			/* --lines, -1 unset */
	bool utc;			/* --utc: times in UTC, not local time */
	/* explain, allow */
	const char *request;		/* --request, or explain's REQUEST operand */
	const char *report;		/* --report */
	int report_id;			/* --id, -1 unset */
	const char *payload;		/* --payload */
	uint64_t duration_s;		/* allow --for; 0 unset */
	/* allow: whose requests it lets through (default: anyone's);
	 * explain: who sends the request (default: not known) */
	long long uid;			/* --user, -1 unset */
	const char *user_name;		/* --user by name, which the daemon looks up */
	uint32_t gids[CTL_SUBJECT_GROUPS_MAX]; /* --group: explain's gid, then supplementary
					       * groups; allow's groups, a member of any */
	const char *group_names[CTL_SUBJECT_GROUPS_MAX]; /* --group by name (the daemon
							  * looks it up), or NULL */
	size_t n_gids;
	const char *executable;		/* --executable */
	const char *origin;		/* explain --origin: "kernel" or "user" */
	long pid;			/* --pid: that process's user (explain: and groups, cgroup) and executable; -1 unset */
	const char *unit;		/* --unit: a systemd unit */
	char pid_exe[256];		/* --pid's executable, */
	char pid_cgroup[4096];		/* ... and for explain its cgroup ("" none),
					 * as ctl_args_resolve_pid() found them */
	/* explain: what the device says of itself, replaced */
	const char *usages[16];		/* --usage, repeatable */
	size_t n_usages;
	const char *uniq;		/* --uniq */
	const char *phys;		/* --phys */
	int interface;			/* --interface, -1 unset */
	const char *descriptor_sha256;	/* --descriptor-sha256 */
	/* --hidpp-feature, repeatable: what the device answered HID++
	 * getFeature, "DEVICE_INDEX:FEATURE=INDEX" (the daemon reads them) */
	const char *hidpp_features[HIDPP_FEATURES_MAX];
	size_t n_hidpp_features;
	/* revoke */
	long exception_id;		/* --exception, -1 unset */
};

/*
 * Parse ARGV (messages to stderr, naming the bad argument). NOW is the
 * current time, for relative --since values. Returns 0 or -EINVAL.
 */
int ctl_args_parse(int argc, char **argv, time_t now, struct ctl_args *a);

/* --pid: read the process's user and executable into A, and for explain its
 * gid and supplementary groups (the client reads them: the daemon keeps no
 * right to read other users' processes). Returns 0 or -errno, with a message. */
int ctl_args_resolve_pid(struct ctl_args *a);

/* Is S a hidraw node, "hidraw3" or "/dev/hidraw3"? */
bool ctl_is_hidraw_name(const char *s);

/* The request line for A (a new reference). "report" asks for the log's
 * denials. */
json_t *ctl_args_request(const struct ctl_args *a, bool interactive);

void ctl_usage(FILE *f);
