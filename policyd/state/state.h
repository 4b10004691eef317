/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the daemon knows, as plain data: the policy in force, the HID
 * devices it manages with the rules in force on each, and the temporary
 * allows. The rooms above read and change it; nothing here does I/O.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exceptions.h"
#include "hid/devices.h"
#include "policy/policy.h"

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
	/* CLOCK_BOOTTIME ms: its first decision is held from udev until its
	 * first round of learning ends, or until then (0: not held). */
	uint64_t decision_held_until;
	/* Its driver was unbound (the unbind event): its decision is
	 * withdrawn until a driver binds it again, whose new node waits for
	 * that bind's first round of learning. */
	bool decision_awaits_bind;
	/* The policy's rules in force, without exceptions (NULL: none yet):
	 * when a new policy cannot be compiled for the device they stay, and
	 * temporary allows are still placed before them, and ended. */
	struct hid_device_rules *policy_rules;
};

struct state {
	struct policy *policy;		/* in force (NULL before the first) */
	/* The policy in force is the kept copy of the last one that loaded:
	 * the configured one was rejected at start (service/saved_policy.h). */
	bool policy_is_kept_copy;
	struct managed_device *devices;
	size_t n_devices, cap_devices;
	struct exception_table exceptions;
};

/* Free the policy, the devices' rules and the temporary allows. */
void state_done(struct state *s);

/* The managed device with HID_ID, or NULL. */
struct managed_device *state_find_device(const struct state *s, uint32_t hid_id);

/* The managed device with INFO's hid_id, added (unprotected, no rules yet)
 * when there is none; NULL when out of memory. Pointers into the table are
 * valid until the next add or forget. */
struct managed_device *state_add_device(struct state *s, const struct hid_dev_info *info);

/* Forget M (an element of s->devices) and its rules. */
void state_forget_device(struct state *s, struct managed_device *m);

/* Devices with a firewall attached. */
size_t state_n_protected(const struct state *s);

/* The policy's and the exceptions' view of a device. */
void state_policy_device(const struct hid_dev_info *info, struct policy_device *pdev);
