/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules in force on each HID device the daemon manages: the policy
 * compiled for it with its temporary allows first, set in the kernel
 * through the loader, and the decision published for udev. Hotplug, a
 * reload, a grant or the end of an allow, and a firewall unregistered
 * behind the daemon's back all end here.
 */
#pragma once

#include <stdbool.h>

#include "audit/audit.h"
#include "feature_indexes.h"
#include "loader.h"
#include "nrf_modules.h"
#include "state/state.h"
#include "unit_watch.h"

/* What puts the rules in force: the state it changes, the kernel's side
 * (the loader), the audit log of grants, ends and lost firewalls, and
 * where decisions are published. The service owns it. */
struct enforcer {
	struct state *state;
	struct audit_log *audit;
	struct fw_loader loader;
	struct unit_watch units;	/* the cgroups of the policy's units */
	const char *runtime_dir;	/* decisions for udev */
	const char *sysfs_devices;	/* HID_SYSFS_DEVICES */
	int timer_fd;			/* temporary allows' expiry (-1: none) */
	struct feature_indexes features;	/* HID++ feature indexes devices told */
	struct nrf_modules nrf;		/* nRF Desktop modules devices listed */
	/* The daemon's own executable, whose HID++ questions alone pass
	 * (policy_device.learner_exe); not known: nobody's. */
	bool self_exe_known;
	struct hid_rule_exe self_exe;
};

/*
 * Which file this daemon runs from (EXE, "/proc/self/exe"), as the
 * firewall sees it: the one executable whose HID++ and nRF questions pass
 * the guards its rules compile in (policy_compile()). Returns 0, or
 * POLICY_EXE_LAYERS_SHARE when the file is on an overlay whose layers are
 * on different file systems without xino (a live system's root, the
 * package suite's guest): its identity is then known, and shared with any
 * file of another layer that has its inode number, which only root can
 * run there as the daemon does (the guards ask for uid 0 too); said with
 * a warning. A negative errno: not known, said; every feature but IRoot
 * stays refused where rules name features.
 */
int enforce_know_self(struct enforcer *en, const char *exe);

/* The policy_device of INFO as EN compiles it: the HID++ feature indexes
 * it told, and the daemon's executable as the one that asks them. */
void enforce_policy_device(struct enforcer *en, const struct hid_dev_info *info,
			   struct policy_device *pdev);

/* How often, in milliseconds, each protected device's firewall is checked
 * to be still registered; also the longest the event loop sleeps, so the
 * ring-buffer loss counter is read at least as often. */
#define CHECK_INTERVAL_MS 1000

/* How long a new device's first decision may wait for its first round of
 * learning (enforce.c, hold_decision()). Below the 5 s udev's helper waits
 * for a decision (--timeout 5, data/60-hid-policy.rules): udev opens the
 * node from the decision rather than closing it on a time-out, to open it
 * again when the decision comes. A receiver's first round takes a few
 * hundred milliseconds (0xFF, then six device indexes, 500 ms at most for
 * each question); what is not told by then stays refused. */
#define DECISION_HOLD_MS 3000

/* Compile and enforce the policy (and exceptions) for one device. Returns
 * 0 when the kernel holds the device's rules with its temporary allows as
 * they are now (when the policy cannot be compiled for it: the policy's
 * rules that were in force before), or a negative errno. */
int enforce_apply(struct enforcer *en, const struct hid_dev_info *info);

/* Compile every managed device's rules again and put them in force: a new
 * policy, a unit's new cgroup. Each device switches with one map update. */
void enforce_all(struct enforcer *en);

/* Apply the policy to every HID device present. Returns 0, or a negative
 * errno when sysfs cannot be listed. */
int enforce_present(struct enforcer *en);

/* A HID device was added or bound: read it from sysfs and apply. */
void enforce_added(struct enforcer *en, const char *sysname, bool bound);
/* A HID device's driver was unbound: its reports are no longer parsed, so
 * its firewall filters requests alone until the next bind. */
void enforce_unbound(struct enforcer *en, const char *sysname);
/* A HID device was removed: free its pin and rules, end its temporary
 * allows and forget it. */
void enforce_removed(struct enforcer *en, const char *sysname);

/* Every CHECK_INTERVAL_MS: attach again the firewalls someone
 * unregistered (doc/security.md, section 3). */
void enforce_check_firewalls(struct enforcer *en);

/* FD is readable: if it is a device's hidraw node the daemon asks HID++
 * feature indexes on, read it and put new answers in force. Returns false
 * when FD is not such a node. */
bool enforce_feature_indexes_ready(struct enforcer *en, int fd);

/* Questions that went unanswered in time: go on, and put what changed in
 * force. Due at feature_indexes_due(&en->features). */
void enforce_feature_indexes_tick(struct enforcer *en);

/* FD is readable: if it is where a device's configuration-channel answers
 * come, take them and put what changed in force. Returns false when FD is
 * not such a descriptor. */
bool enforce_nrf_modules_ready(struct enforcer *en, int fd);

/* Rounds due and answers late: go on, and put what changed in force. Due
 * at nrf_modules_due(&en->nrf). */
void enforce_nrf_modules_tick(struct enforcer *en);

/* Publish the decisions held for a first round of learning that has
 * ended, or that DECISION_HOLD_MS cut short; nothing for a device gone.
 * Due when learning goes on, and at enforce_held_decisions_due(). */
void enforce_held_decisions(struct enforcer *en);
/* The next time a held decision is published whatever was learned
 * (CLOCK_BOOTTIME ms); 0: none held. */
uint64_t enforce_held_decisions_due(const struct enforcer *en);

/* End temporary allow E (its audit record: allows_end) and put its
 * device's rules in force without it. */
void enforce_end_allow(struct enforcer *en, struct exception *e, const char *reason,
		       const struct exception_grantor *revoker);
