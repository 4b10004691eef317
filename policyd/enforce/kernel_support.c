// SPDX-License-Identifier: GPL-2.0-or-later
/* Rules whose senders this kernel's firewall cannot tell. */
#include "kernel_support.h"

#include <errno.h>

int fw_check_senders(const struct fw_features *f, const struct policy *p, struct diag *diag)
{
	const uint8_t by_task = HID_SENDER_F_USER | HID_SENDER_F_GROUP | HID_SENDER_F_EXECUTABLE;
	int r = 0;

	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *rule = &p->rules[i];
		const char *file = p->files[p->sets[rule->set].file].path;
		char path[300];

		snprintf(path, sizeof(path), "%s.sender", rule->path);
		if ((rule->sender.fields & by_task) && !f->uid_gid) {
			diag_add_at(diag, DIAG_ERROR, file, rule->at.line, rule->at.column, path,
				    "this kernel does not let the firewall read who sends a request (it needs CAP_PERFMON and CONFIG_BPF_EVENTS): a rule with a user, group or executable cannot be enforced here");
			r = -EOPNOTSUPP;
		}
		if ((rule->sender.fields & HID_SENDER_F_UNIT) && !f->cgroup) {
			diag_add_at(diag, DIAG_ERROR, file, rule->at.line, rule->at.column, path,
				    "this kernel does not let the firewall read the cgroup of who sends a request (it needs CONFIG_CGROUPS and CAP_BPF): a rule with a unit cannot be enforced here");
			r = -EOPNOTSUPP;
		}
	}
	return r;
}

/* Does rule set S need the firewall on its devices' input path? As
 * fw_rules_need_input() decides for a device's compiled rules: a rule of
 * it covers input events, or its default denies (and so drops input no
 * rule allows). Returns the rule that does, or NULL for the default. */
static bool set_needs_input(const struct policy *p, const struct policy_ruleset *s,
			    const struct policy_rule **rule)
{
	*rule = NULL;
	for (size_t i = s->first_rule; i < s->first_rule + s->n_rules && i < p->n_rules; i++) {
		if (p->rules[i].kinds & HID_RULE_KIND_INPUT_EVENT) {
			*rule = &p->rules[i];
			return true;
		}
	}
	return s->has_default && s->default_action == HID_RULE_DENY;
}

bool fw_policy_needs_input(const struct policy *p)
{
	const struct policy_rule *rule;

	for (size_t i = 0; i < p->n_sets; i++)
		if (set_needs_input(p, &p->sets[i], &rule))
			return true;
	return false;
}

int fw_check_input(const struct fw_features *f, bool allow_unsafe, const struct policy *p,
		   struct diag *diag)
{
	const struct policy_rule *rule;
	int r = 0;

	if (f->input_safe)
		return 0;
	for (size_t i = 0; i < p->n_sets; i++) {
		const struct policy_ruleset *s = &p->sets[i];
		const char *file = p->files[s->file].path;
		const struct json_pos *at;
		char path[300];

		if (!set_needs_input(p, s, &rule))
			continue;
		at = rule ? &rule->at : &s->default_at;
		snprintf(path, sizeof(path), "%s", rule ? rule->path : s->path);
		if (!rule)
			snprintf(path, sizeof(path), "%s.default", s->path);
		diag_add_at(diag, allow_unsafe ? DIAG_WARNING : DIAG_ERROR, file, at->line, at->column,
			    path, "%s", allow_unsafe ? FW_INPUT_UNSAFE_ALLOWED : FW_INPUT_UNSAFE);
		if (!allow_unsafe)
			r = -EOPNOTSUPP;
	}
	return r;
}

void fw_note_input_unchecked(const struct policy *p, struct diag *diag)
{
	const struct policy_rule *rule;

	for (size_t i = 0; i < p->n_sets; i++) {
		const struct policy_ruleset *s = &p->sets[i];
		const struct json_pos *at;
		char path[300];

		if (!set_needs_input(p, s, &rule))
			continue;
		at = rule ? &rule->at : &s->default_at;
		if (rule)
			snprintf(path, sizeof(path), "%s", rule->path);
		else
			snprintf(path, sizeof(path), "%s.default", s->path);
		diag_add_at(diag, DIAG_NOTE, p->files[s->file].path, at->line, at->column, path,
			    "%s", FW_INPUT_UNCHECKED);
		return;
	}
}
