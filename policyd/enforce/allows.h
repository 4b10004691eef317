/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Temporary allows ("hid-policyctl allow") over their life: granted, due,
 * ended, each step with its audit record and its message, and the timer
 * that wakes the event loop at the next expiry. The table is exceptions.c's.
 *
 * No rule changes here: enforce.c puts a device's rules in force with its
 * allows, and ends them here when the device can no longer carry them; after
 * a grant or an end, the caller has enforce.c put the rules in force again.
 */
#pragma once

#include <stdint.h>

#include "enforce.h"

/* E is in force for device INFO: the audit record of the grant, the
 * message, and the timer armed for its expiry. */
void allows_granted(struct enforcer *en, const struct hid_dev_info *info, const struct exception *e);

/* The first temporary allow due at NOW (CLOCK_BOOTTIME ms), or NULL. */
struct exception *allows_due(struct enforcer *en, uint64_t now);

/* End E: the audit record (REVOKER: who revoked it, or NULL) and the
 * message; E leaves the table. The caller re-arms the timer. */
void allows_end(struct enforcer *en, struct exception *e, const char *reason,
		const struct exception_grantor *revoker);

/* End every temporary allow of HID_ID without touching its rules (the
 * caller is compiling them), and re-arm the timer. */
void allows_end_device(struct enforcer *en, uint32_t hid_id, const char *reason);

/* Arm the timer for the earliest expiry; disarm it when none is left. */
void allows_arm_expiry(struct enforcer *en);
