/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules in force on each HID device the daemon manages: the policy
 * compiled for it with its temporary allows first, set in the kernel
 * through the loader, and the decision published for udev. Hotplug, a
 * reload, a grant or the end of an allow, and a firewall unregistered
 * behind the daemon's back all end here.
 */
#pragma once

#include "state/state.h"

/* How often, in milliseconds, each protected device's firewall is checked
 * to be still registered; also the longest the event loop sleeps, so the
 * ring-buffer loss counter is read at least as often. */
#define CHECK_INTERVAL_MS 1000

/* Compile and enforce the policy (and exceptions) for one device. Returns
 * 0 when the kernel holds the device's rules with its temporary allows as
 * they are now (when the policy cannot be compiled for it: the policy's
 * rules that were in force before), or a negative errno. */
int enforce_apply(struct daemon *d, const struct hid_dev_info *info);

/* Apply the policy to every HID device present. Returns 0, or a negative
 * errno when sysfs cannot be listed. */
int enforce_present(struct daemon *d);

/* A HID device was added or bound: read it from sysfs and apply. */
void enforce_added(struct daemon *d, const char *sysname, bool bound);
/* A HID device was removed: free its pin and rules, end its temporary
 * allows and forget it. */
void enforce_removed(struct daemon *d, const char *sysname);

/* Every CHECK_INTERVAL_MS: attach again the firewalls someone
 * unregistered (doc/security.md, section 3). */
void enforce_check_firewalls(struct daemon *d);

/* End temporary allow E (its audit record: allows_end) and put its
 * device's rules in force without it. */
void enforce_end_allow(struct daemon *d, struct exception *e, const char *reason,
		       const struct exception_grantor *revoker);
