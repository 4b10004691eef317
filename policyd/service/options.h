/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hid-policyd's command line. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

enum policyd_command {
	COMMAND_NONE,
	COMMAND_HELP,
	COMMAND_VERSION,
	COMMAND_CHECK,
	COMMAND_EXPLAIN,
	COMMAND_DAEMON,		/* the default: run the service */
	COMMAND_CLEANUP,	/* detach and unpin everything in the state dir */
	COMMAND_WAIT_DECIDED,	/* udev: wait until a device's fate is known */
	COMMAND_ANNOUNCE_QUEUED, /* hid-policy-announce.service: announce nodes again */
};

/* What --wait-decided does when no decision comes in time. */
enum on_timeout {
	ON_TIMEOUT_CLOSED_IF_MATCHED,	/* the default */
	ON_TIMEOUT_CLOSED,
	ON_TIMEOUT_OPEN,
};

struct options {
	enum policyd_command command;
	const char **config_dirs;	/* --config-dir, in order given */
	size_t n_config_dirs, cap_config_dirs;
	/* --explain */
	const char *device;
	const char *request;
	const char *report;
	const char *id;
	const char *payload;
	const char **usages;	/* --usage, repeatable */
	size_t n_usages, cap_usages;
	const char *uniq;
	const char *phys;
	const char *interface;
	const char *descriptor_sha256;
	const char *descriptor;		/* a report descriptor file */
	const char **hidpp_features;	/* --hidpp-feature, repeatable */
	size_t n_hidpp_features, cap_hidpp_features;
	/* who sends the request (main.c resolves them) */
	const char *user;
	const char **groups;	/* --group, repeatable: the gid first */
	size_t n_groups, cap_groups;
	const char *executable;
	const char *origin;
	const char *unit;		/* --explain --unit */
	/* --check */
	bool strict;
	/* --check and the daemon: input rules on a kernel whose input path
	 * is not safe (enforce/kernel_support.h) */
	bool allow_unsafe_input;
	/* the daemon */
	bool foreground;
	bool no_sandbox;
	const char *audit_log;
	uint64_t audit_log_max_size;	/* 0: not given */
	bool record_budget_given;
	uint32_t record_burst, record_rate;	/* --record-budget */
	int journal;		/* --journal 1, --no-journal 0, neither -1 */
	int linux_audit;	/* --linux-audit 1, --no-linux-audit 0, neither -1 */
	const char *state_dir;
	const char *runtime_dir;
	const char *saved_policy_dir;
	/* --wait-decided */
	const char *devpath;
	int timeout_s;
	enum on_timeout on_timeout;
	bool on_timeout_given;
};

/* Parse ARGV into OPTS; messages go to stderr. Returns 0 or -EINVAL. */
int options_parse(int argc, char **argv, struct options *opts);
void options_done(struct options *opts);
void options_usage(FILE *f);
