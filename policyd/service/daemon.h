/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hid-policyd's service: load the policy, protect every matching device
 * present and hotplugged, write the audit log, reload on SIGHUP.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct daemon_config {
	const char *const *config_dirs;	/* policy directories, in order */
	size_t n_config_dirs;
	bool require_dirs;		/* directories were named on the command line */
	const char *audit_log;		/* AUDIT_LOG_DEFAULT */
	uint64_t audit_log_max_size;	/* AUDIT_LOG_MAX_SIZE_DEFAULT */
	uint32_t record_burst, record_rate; /* each device's budget; burst 0: none */
	const char *state_dir;		/* bpffs pin root, HID_FW_PIN_ROOT */
	const char *sysfs_devices;	/* HID_SYSFS_DEVICES */
	const char *runtime_dir;	/* decisions for udev, RUNTIME_DIR_DEFAULT */
	const char *saved_policy_dir;	/* the last policy that loaded, SAVED_POLICY_DIR_DEFAULT */
	bool foreground;
	bool sandbox;			/* drop privileges and filter syscalls */
	bool journal;			/* records to the systemd journal too */
	bool linux_audit;		/* denials and temporary allows to Linux audit too */
	bool allow_unsafe_input;	/* --allow-unsafe-input-rules */
	const char *version;		/* told by "hid-policyctl status" */
};

/* Run until SIGTERM/SIGINT. Returns 0 or a negative errno (start-up failed;
 * the reason was printed). */
int daemon_run(const struct daemon_config *cfg);
