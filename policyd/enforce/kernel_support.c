// SPDX-License-Identifier: GPL-2.0-or-later
/* Rules whose senders this kernel's firewall cannot tell. */
#include "sender_support.h"

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
