// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy and the audit log, read and opened at start and again on
 * reload (SIGHUP, "hid-policyctl reload").
 */
#include "reload.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "enforce/enforce.h"
#include "notify.h"
#include "audit/records.h"
#include "enforce/sender_support.h"

int daemon_load_policy(struct daemon *d, struct policy **ret, json_t *messages)
{
	_cleanup_(diag_done) struct diag diag = {};
	int r;

	r = policy_load_dirs(d->cfg->config_dirs, d->cfg->n_config_dirs,
			     d->cfg->require_dirs, &diag, ret);
	for (size_t i = 0; i < diag.n; i++) {
		say(d, diag.entries[i].severity == DIAG_ERROR ? LOG_ERR : LOG_WARNING,
		    "%s", diag.entries[i].text);
		if (messages)
			json_array_append_new(messages, json_string(diag.entries[i].text));
	}
	if (r < 0)
		say(d, LOG_ERR, "policy rejected: %zu error%s", diag.n_errors,
		    diag.n_errors == 1 ? "" : "s");
	return r;
}

int daemon_check_senders(struct daemon *d, const struct policy *p, json_t *messages)
{
	_cleanup_(diag_done) struct diag diag = {};
	int r = fw_check_senders(&d->loader.features, p, &diag);

	for (size_t i = 0; i < diag.n; i++) {
		say(d, LOG_ERR, "%s", diag.entries[i].text);
		if (messages)
			json_array_append_new(messages, json_string(diag.entries[i].text));
	}
	return r;
}

/* Temporary allows for a unit: the unit's cgroup as the policy found it. */
static void allows_follow_units(struct daemon *d)
{
	for (size_t i = 0; i < d->exceptions.n; i++) {
		struct exception *e = &d->exceptions.items[i];
		const struct policy_unit *u;

		if (!(e->sender.fields & HID_SENDER_F_UNIT))
			continue;
		u = policy_unit_find(d->policy, e->unit);
		e->sender.units[0] = (struct hid_rule_unit){
			.cgroup_id = u ? u->cgroup_id : 0,
			.level = u ? u->level : 0,
		};
	}
}

/* A new policy knows the units of the temporary allows too. */
static int allows_units_into(struct daemon *d, struct policy *p)
{
	for (size_t i = 0; i < d->exceptions.n; i++) {
		const struct exception *e = &d->exceptions.items[i];
		const char *why;
		int r;

		if (!(e->sender.fields & HID_SENDER_F_UNIT))
			continue;
		r = policy_unit_add(p, e->unit, &why);
		if (r < 0) {
			say(d, LOG_ERR, "temporary allow #%u: unit %s: %s", e->id, e->unit, why);
			return r;
		}
	}
	return 0;
}

int daemon_watch_units(struct daemon *d)
{
	int r;

	if (!d->policy->n_units && !d->units.n_wds)
		return 0;
	r = unit_watch_set(&d->units, d->policy);
	if (r < 0)
		say(d, LOG_ERR, "cannot watch the cgroups of the units the policy names under %s: %s; a unit started later is not recognised until the next reload",
		    policy_cgroup_root() ?: "/sys/fs/cgroup", strerror(-r));
	r = policy_resolve_units(d->policy, NULL);
	if (r < 0)
		say(d, LOG_ERR, "cannot look up the cgroups of the units the policy names: %s",
		    strerror(-r));
	allows_follow_units(d);
	return r;
}

void daemon_units_changed(struct daemon *d)
{
	bool changed = false;
	int r;

	if (!unit_watch_drain(&d->units))
		return;
	/* A slice that was missing may be there now: watch it. */
	unit_watch_set(&d->units, d->policy);
	r = policy_resolve_units(d->policy, &changed);
	if (r < 0)
		say(d, LOG_ERR, "cannot look up the cgroups of the units the policy names: %s; their rules stay as they were",
		    strerror(-r));
	if (!changed)
		return;
	allows_follow_units(d);
	for (size_t i = 0; i < d->policy->n_units; i++) {
		const struct policy_unit *u = &d->policy->units[i];

		say(d, LOG_INFO, "unit %s: %s", u->name,
		    u->cgroup_id ? "running; its processes are its rules' senders" : "not running");
	}
	for (size_t i = 0; i < d->n_devices; i++) {
		struct hid_dev_info info = d->devices[i].info;

		enforce_apply(d, &info);
	}
}

/* The audit log holds what users did and which programs they ran: root's
 * alone (auditors read it through "hid-policyctl log"). */
int daemon_secure_audit_log(struct daemon *d)
{
	struct stat st;

	if (fstat(d->audit.fd, &st) < 0)
		return -errno;
	if (st.st_uid != geteuid()) {
		say(d, LOG_ERR, "the audit log %s belongs to uid %u, not to the daemon (uid %u): refusing to write it",
		    d->audit.path, (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if ((st.st_mode & 07777) != 0600) {
		if (fchmod(d->audit.fd, 0600) < 0) {
			int r = -errno;

			say(d, LOG_ERR, "the audit log %s has mode %04o and cannot be changed to 0600: %s",
			    d->audit.path, (unsigned int)(st.st_mode & 07777), strerror(-r));
			return r;
		}
		say(d, LOG_WARNING, "the audit log %s had mode %04o; changed to 0600", d->audit.path,
		    (unsigned int)(st.st_mode & 07777));
	}
	return 0;
}

static int reload(struct daemon *d, json_t *messages)
{
	struct policy *fresh = NULL, *old;
	int r;

	say(d, LOG_INFO, "reloading the policy");
	if (audit_reopen(&d->audit) < 0)
		say(d, LOG_ERR, "cannot reopen %s: %m; still writing the old file", d->audit.path);
	daemon_secure_audit_log(d);
	if (d->control)
		control_log_reopened(d->control);
	r = daemon_load_policy(d, &fresh, messages);
	if (r == 0) {
		r = daemon_check_senders(d, fresh, messages);
		if (r == 0)
			r = allows_units_into(d, fresh);
		if (r < 0)
			policy_free(fresh);
	}
	if (r < 0) {
		say(d, LOG_ERR, "reload failed: the rules in force stay in force");
		return r;
	}
	/* Records already in the ring buffer name rules of the old policy
	 * (all of them: a flood of new ones must not hold the reload). */
	records_read_waiting(d);
	audit_flush(&d->audit);
	old = d->policy;
	d->policy = fresh;
	daemon_watch_units(d);
	/* Each device switches with one map update: a request sees either
	 * its old rules or its new ones, never none. Temporary allows are
	 * placed before the new rules as before the old. */
	for (size_t i = 0; i < d->n_devices; i++) {
		struct hid_dev_info info = d->devices[i].info;

		enforce_apply(d, &info);
	}
	enforce_present(d);
	policy_free(old);
	say(d, LOG_INFO, "policy reloaded: %zu rule set%s, %zu rule%s", fresh->n_sets,
	    fresh->n_sets == 1 ? "" : "s", fresh->n_rules, fresh->n_rules == 1 ? "" : "s");
	return 0;
}

/* The service manager sees the reload begin (RELOADING=1: "systemctl
 * status" says "reloading", also for a reload that "hid-policyctl reload"
 * or SIGHUP started) and end (READY=1), and the verdict as the status. */
static void notify_reloading(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	service_notifyf("RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=reloading the policy",
			(unsigned long long)ts.tv_sec * 1000000ULL +
				(unsigned long long)ts.tv_nsec / 1000ULL);
}

static void notify_reloaded(const struct daemon *d, int r)
{
	size_t n = daemon_n_protected(d);

	if (r < 0)
		service_notifyf("READY=1\nSTATUS=reload failed: the policy is rejected, the rules in force stay in force; %zu device%s protected",
				n, n == 1 ? "" : "s");
	else
		service_notifyf("READY=1\nSTATUS=running: %zu device%s protected", n,
				n == 1 ? "" : "s");
}

int daemon_reload(struct daemon *d, json_t *messages)
{
	int r;

	notify_reloading();
	r = reload(d, messages);
	notify_reloaded(d, r);
	return r;
}
