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
#include <unistd.h>
#include <bpf/libbpf.h>

#include "common/util.h"
#include "enforce.h"

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
	const uint8_t by_task = HID_SENDER_F_USER | HID_SENDER_F_GROUP | HID_SENDER_F_EXECUTABLE;
	int r = 0;

	if (d->loader.features.uid_gid)
		return 0;
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *rule = &p->rules[i];
		char text[512];

		if (!(rule->sender.fields & by_task))
			continue;
		snprintf(text, sizeof(text),
			 "%s: %s.sender: this kernel does not let the firewall read who sends a request (it needs CAP_PERFMON and CONFIG_BPF_EVENTS): a rule with a user, group or executable cannot be enforced here",
			 p->files[p->sets[rule->set].file].name, rule->path);
		say(d, LOG_ERR, "%s", text);
		if (messages)
			json_array_append_new(messages, json_string(text));
		r = -EOPNOTSUPP;
	}
	return r;
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

int daemon_reload(struct daemon *d, json_t *messages)
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
		if (r < 0)
			policy_free(fresh);
	}
	if (r < 0) {
		say(d, LOG_ERR, "reload failed: the rules in force stay in force");
		return r;
	}
	/* Records already in the ring buffer name rules of the old policy. */
	ring_buffer__consume(d->events);
	audit_flush(&d->audit);
	old = d->policy;
	d->policy = fresh;
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
