/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The service's state, and what every file of it uses: say(), the clocks,
 * the device lookup. Its files call one another only downwards:
 *
 *   daemon.c      start, the event loop, stop
 *   daemon_ctl.c  the control socket's commands
 *   reload.c      the policy and the audit log, at start and on reload
 *   enforce.c     the rules in force on each device
 *   allows.c      temporary allows: grant, expiry, end, their audit records
 *   records.c     the firewall's decision records into the audit log
 *   views.c       JSON views of devices and temporary allows
 *   say.c         messages to syslog or stderr
 *
 * and all of them into the parts below: devices, decisions, loader, audit,
 * control (and authorize), exceptions, sandbox.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "audit/audit.h"
#include "control/authorize.h"
#include "control/control.h"
#include "service/daemon.h"
#include "hid/devices.h"
#include "exceptions.h"
#include "enforce/loader.h"
#include "policy/policy.h"
#include "enforce/unit_watch.h"

struct managed_device {
	struct hid_dev_info info;
	bool protected;		/* a firewall instance is attached */
	bool fail_closed;	/* ... without rules: every request is refused */
	uint8_t mode;		/* HID_RULES_MODE_* of its rules in force */
	uint32_t n_rules;	/* rules in force, exceptions included */
	bool lost;		/* its firewall was unregistered by someone else
				 * and could not be attached again: retried at
				 * every check (enforce_check_firewalls) */
	bool check_failed;	/* the last check could not tell (said once) */
	/* The policy's rules in force, without exceptions (NULL: none yet):
	 * when a new policy cannot be compiled for the device they stay, and
	 * temporary allows are still placed before them, and ended. */
	struct hid_device_rules *policy_rules;
};

struct daemon {
	const struct daemon_config *cfg;
	struct policy *policy;
	struct fw_loader loader;
	struct audit_log audit;
	struct ring_buffer *events;
	struct managed_device *devices;
	size_t n_devices, cap_devices;
	struct authorizer *authz;
	struct control *control;
	struct exception_table exceptions;
	struct unit_watch units;	/* the cgroups of the policy's units */
	int epoll_fd, uevent_fd, signal_fd, timer_fd;
	uint64_t dropped_reported;
	size_t records_left;	/* of records_read()'s budget */
	bool sandboxed;
	bool quit;
};

/* A message for the administrator: syslog, or stderr in the foreground
 * (say.c). Control characters are replaced. */
void say(const struct daemon *d, int priority, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Devices with a firewall attached. */
static inline size_t daemon_n_protected(const struct daemon *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n_devices; i++)
		n += d->devices[i].protected;
	return n;
}

/* The managed device with HID_ID, or NULL. */
static inline struct managed_device *daemon_find_device(struct daemon *d, uint32_t hid_id)
{
	for (size_t i = 0; i < d->n_devices; i++)
		if (d->devices[i].info.hid_id == hid_id)
			return &d->devices[i];
	return NULL;
}

/* The policy's and the exceptions' view of a device. */
static inline void daemon_policy_device(const struct hid_dev_info *info,
					struct policy_device *pdev)
{
	*pdev = (struct policy_device){
		.bus = info->bus,
		.vendor = info->vendor,
		.product = info->product,
		.name = info->name,
		.uniq = info->uniq,
		.phys = info->phys,
		.descriptor_known = info->descriptor_known || info->bound,
		.usages = info->usages,
		.n_usages = info->n_usages,
		.descriptor_sha256 = info->descriptor_known ? info->descriptor_sha256 : NULL,
		.has_interface = info->has_interface,
		.interface = info->interface,
	};
}
