// SPDX-License-Identifier: GPL-2.0-or-later
/* One device's effective rules, in the fixed-size form of bpf/hid_rules.h. */
#include <errno.h>
#include <string.h>

#include "policy_internal.h"

static void compile_rule(const struct policy *p, const struct policy_rule *pr, size_t index,
			 uint8_t set_mode, const uint32_t ids[HID_RULES_REPORT_ID_WORDS],
			 struct hid_rule *hr)
{
	*hr = (struct hid_rule){
		.index = (uint32_t)index,
		.err = pr->err,
		.kinds = pr->kinds,
		.action = pr->action,
		.flags = (uint8_t)((pr->log ? HID_RULE_F_LOG : 0) |
				   (set_mode == HID_RULES_MODE_AUDIT ? HID_RULE_F_AUDIT : 0)),
		.n_conds = pr->n_conds,
	};
	memcpy(hr->report_ids, ids, sizeof(hr->report_ids));
	memcpy(hr->conds, pr->conds, sizeof(hr->conds));
	hr->sender = pr->sender;
	/* A unit's cgroup as it is now: a unit that starts again later
	 * gets a new one, and the daemon compiles the rules again. */
	for (size_t i = 0; i < pr->sender.n_units && i < HID_SENDER_MAX_IDS; i++) {
		const struct policy_unit *u = &p->units[pr->units[i]];

		hr->sender.units[i] = (struct hid_rule_unit){
			.cgroup_id = u->cgroup_id,
			.level = u->level,
		};
	}
}

/*
 * An audit-mode rule set only logs. Its default must not stand in for an
 * enforcing rule set's: "deny" from an audit set first would let through
 * what the enforcing set's "deny" refuses. So an enforcing set's default
 * comes first, whatever the order of the files; an audit set's decides (and
 * only logs) where no enforcing set states one.
 */
const struct policy_ruleset *policy_default_set(const struct policy *p,
						const struct policy_device *dev)
{
	const struct policy_ruleset *audit = NULL;

	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];

		if (!set->has_default || !policy_ruleset_matches(set, dev))
			continue;
		if (set->mode != HID_RULES_MODE_AUDIT)
			return set;
		if (!audit)
			audit = set;
	}
	return audit;
}

int policy_compile(const struct policy *p, const struct policy_device *dev,
		   struct hid_device_rules *out, struct diag *diag)
{
	const struct policy_ruleset *def = policy_default_set(p, dev);
	bool matched = false, all_audit = true, commands_in_payload = false;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->default_action = HID_RULE_ALLOW;
	out->default_err = EPERM;

	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];

		if (!policy_ruleset_matches(set, dev))
			continue;
		matched = true;
		if (set->mode != HID_RULES_MODE_AUDIT)
			all_audit = false;
		/* An audit-mode rule set never weakens enforcement: the
		 * check it would lift stays. */
		if (set->commands_in_payload && set->mode != HID_RULES_MODE_AUDIT)
			commands_in_payload = true;
		for (size_t i = set->first_rule; i < set->first_rule + set->n_rules; i++) {
			uint32_t ids[HID_RULES_REPORT_ID_WORDS];

			/* a rule naming its reports by usage page, on a
			 * device that declares none there: no rule */
			if (!policy_rule_report_ids(&p->rules[i], dev, ids))
				continue;
			if (n < HID_RULES_MAX_RULES)
				compile_rule(p, &p->rules[i], i, set->mode, ids, &out->rules[n]);
			n++;
		}
	}
	if (!matched)
		return -ENOENT;
	if (n > HID_RULES_MAX_RULES) {
		if (diag)
			diag_error(diag, NULL, NULL,
				   "device %04X:%04X:%04X \"%s\": %zu rules apply, more than the %d a device holds",
				   dev->bus, dev->vendor, dev->product, dev->name ?: "", n,
				   HID_RULES_MAX_RULES);
		memset(out, 0, sizeof(*out));
		return -E2BIG;
	}
	out->n_rules = (uint32_t)n;
	out->mode = all_audit ? HID_RULES_MODE_AUDIT : HID_RULES_MODE_ENFORCE;
	if (dev->declared) {
		out->flags |= HID_RULES_F_DECLARED;
		memcpy(out->declared, dev->declared, sizeof(out->declared));
	}
	if (commands_in_payload)
		out->flags |= HID_RULES_F_COMMANDS_IN_PAYLOAD;
	if (def) {
		out->default_action = def->default_action;
		out->default_err = def->default_err;
		out->default_flags = def->mode == HID_RULES_MODE_AUDIT ? HID_RULE_F_AUDIT : 0;
	}
	return 0;
}
