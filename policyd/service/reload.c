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

#include "audit/records.h"
#include "audit/say.h"
#include "common/util.h"
#include "enforce/enforce.h"
#include "enforce/kernel_support.h"
#include "enforce/units.h"
#include "notify.h"
#include "saved_policy.h"

/* Load the policy from the configured directories into *RET, saying every
 * problem (also appended to MESSAGES, strings, when not NULL). */
static int load_policy(struct daemon *d, struct policy **ret, json_t *messages)
{
	_cleanup_(diag_done) struct diag diag = {};
	int r;

	r = policy_load_dirs(d->cfg->config_dirs, d->cfg->n_config_dirs,
			     d->cfg->require_dirs, &diag, ret);
	for (size_t i = 0; i < diag.n; i++) {
		say(diag.entries[i].severity == DIAG_ERROR ? LOG_ERR : LOG_WARNING,
		    "%s", diag.entries[i].text);
		if (messages)
			json_array_append_new(messages, json_string(diag.entries[i].text));
	}
	if (r < 0)
		say(LOG_ERR, "policy rejected: %zu error%s", diag.n_errors,
		    diag.n_errors == 1 ? "" : "s");
	return r;
}

/* What this kernel's firewall cannot enforce of P (enforce/kernel_support.h):
 * senders it cannot tell, and input rules where its input path is not safe
 * (unless --allow-unsafe-input-rules, then a warning); each is said and
 * appended to MESSAGES. Returns 0 or -EOPNOTSUPP. */
static int check_kernel(struct daemon *d, const struct policy *p, json_t *messages)
{
	_cleanup_(diag_done) struct diag diag = {};
	const struct fw_features *f = &d->enforcer.loader.features;
	int r = fw_check_senders(f, p, &diag);

	if (fw_check_input(f, d->cfg->allow_unsafe_input, p, &diag) < 0)
		r = -EOPNOTSUPP;
	for (size_t i = 0; i < diag.n; i++) {
		say(diag.entries[i].severity == DIAG_ERROR ? LOG_ERR : LOG_WARNING,
		    "%s", diag.entries[i].text);
		if (messages)
			json_array_append_new(messages, json_string(diag.entries[i].text));
	}
	return r;
}

/* The firewall's input program, loaded when P is the first policy with a
 * rule that needs it (fw_policy_needs_input: a rule naming input events,
 * or a default that denies): request filtering alone, which is all the
 * shipped policies use, never has it verified. In the sandbox no program
 * can be loaded: daemon_run() loads it before, where a reload may bring
 * such rules. Returns 0 or -errno, said. */
static int load_input_for(struct daemon *d, const struct policy *p)
{
	int r;

	if (!fw_policy_needs_input(p) || d->enforcer.loader.input_programs)
		return 0;
	say(LOG_INFO, "a rule concerns input reports: loading the firewall's input program");
	r = fw_load_input(&d->enforcer.loader);
	if (r < 0)
		say(LOG_ERR, "cannot load the firewall's input program, which the input rules need: %s (a verifier log above tells why when the kernel refused it)",
		    strerror(-r));
	return r;
}

/* Keep P, which is now in force, for a start whose policy is broken. */
static void keep_policy(struct daemon *d, const struct policy *p)
{
	int r = saved_policy_store(d->cfg->saved_policy_dir, p);

	if (r < 0)
		say(LOG_WARNING, "cannot keep the policy in force in %s: %s; a start with a broken policy will have none to fall back on",
		    d->cfg->saved_policy_dir, strerror(-r));
}

static int load_saved_policy(struct daemon *d, struct policy **ret)
{
	_cleanup_(diag_done) struct diag diag = {};
	int r = saved_policy_load(d->cfg->saved_policy_dir, &diag, ret);

	for (size_t i = 0; i < diag.n; i++)
		say(diag.entries[i].severity == DIAG_ERROR ? LOG_ERR : LOG_WARNING, "%s",
		    diag.entries[i].text);
	if (r == -ENOENT)
		say(LOG_ERR, "no policy that loaded before is kept in %s: not starting (udev keeps the nodes of the devices the policy matches closed)",
		    d->cfg->saved_policy_dir);
	else if (r < 0)
		say(LOG_ERR, "the policy kept in %s does not load either: %s", d->cfg->saved_policy_dir,
		    strerror(-r));
	return r;
}

int daemon_start_policy(struct daemon *d)
{
	struct policy *p = NULL;
	int r = load_policy(d, &p, NULL);

	if (r == 0 && check_kernel(d, p, NULL) < 0) {
		policy_free(p);
		r = -EOPNOTSUPP;
	}
	if (r == 0) {
		d->state.policy = p;
		keep_policy(d, p);
		return load_input_for(d, p);
	}
	r = load_saved_policy(d, &p);
	if (r < 0)
		return r;
	r = check_kernel(d, p, NULL);
	if (r < 0) {
		policy_free(p);
		return r;
	}
	say(LOG_ERR, "the policy is rejected (above): running with the last policy that loaded, kept in %s, until the errors are fixed and the policy reloaded",
	    d->cfg->saved_policy_dir);
	d->state.policy = p;
	d->state.policy_is_kept_copy = true;
	return load_input_for(d, p);
}

static int reload(struct daemon *d, json_t *messages)
{
	struct policy *fresh = NULL, *old;
	int r;

	say(LOG_INFO, "reloading the policy");
	if (audit_reopen(&d->audit) < 0)
		say(LOG_ERR, "cannot reopen %s: %m; still writing the old file", d->audit.path);
	audit_log_secure(&d->audit);
	if (d->control)
		control_log_reopened(d->control);
	r = load_policy(d, &fresh, messages);
	if (r == 0) {
		r = check_kernel(d, fresh, messages);
		if (r == 0)
			r = units_of_allows_into(&d->enforcer, fresh);
		if (r == 0)
			r = load_input_for(d, fresh);
		if (r < 0)
			policy_free(fresh);
	}
	if (r < 0) {
		say(LOG_ERR, "reload failed: the rules in force stay in force");
		return r;
	}
	/* Records already in the ring buffer name rules of the old policy
	 * (all of them: a flood of new ones must not hold the reload). */
	records_read_waiting(&d->records);
	audit_flush(&d->audit);
	old = d->state.policy;
	d->state.policy = fresh;
	d->state.policy_is_kept_copy = false;
	units_watch(&d->enforcer);
	/* Each device switches with one map update: a request sees either
	 * its old rules or its new ones, never none. Temporary allows are
	 * placed before the new rules as before the old. */
	enforce_all(&d->enforcer);
	enforce_present(&d->enforcer);
	policy_free(old);
	keep_policy(d, fresh);
	say(LOG_INFO, "policy reloaded: %zu rule set%s, %zu rule%s", fresh->n_sets,
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
	size_t n = state_n_protected(&d->state);

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
