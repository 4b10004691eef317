// SPDX-License-Identifier: GPL-2.0-or-later
/* The units the policy names as senders: see units.h. */
#include "units.h"

#include <string.h>
#include <syslog.h>

#include "audit/say.h"

/* Temporary allows for a unit: the unit's cgroup as the policy found it. */
static void allows_follow_units(struct enforcer *en)
{
	struct exception_table *t = &en->state->exceptions;

	for (size_t i = 0; i < t->n; i++) {
		struct exception *e = &t->items[i];
		const struct policy_unit *u;

		if (!(e->sender.fields & HID_SENDER_F_UNIT))
			continue;
		u = policy_unit_find(en->state->policy, e->unit);
		e->sender.units[0] = (struct hid_rule_unit){
			.cgroup_id = u ? u->cgroup_id : 0,
			.level = u ? u->level : 0,
		};
	}
}

int units_of_allows_into(struct enforcer *en, struct policy *p)
{
	const struct exception_table *t = &en->state->exceptions;

	for (size_t i = 0; i < t->n; i++) {
		const struct exception *e = &t->items[i];
		const char *why;
		int r;

		if (!(e->sender.fields & HID_SENDER_F_UNIT))
			continue;
		r = policy_unit_add(p, e->unit, &why);
		if (r < 0) {
			say(LOG_ERR, "temporary allow #%u: unit %s: %s", e->id, e->unit, why);
			return r;
		}
	}
	return 0;
}

int units_watch(struct enforcer *en)
{
	struct policy *p = en->state->policy;
	int r;

	if (!p->n_units && !en->units.n_wds)
		return 0;
	r = unit_watch_set(&en->units, p);
	if (r < 0)
		say(LOG_ERR, "cannot watch the cgroups of the units the policy names under %s: %s; a unit started later is not recognised until the next reload",
		    policy_cgroup_root() ?: "/sys/fs/cgroup", strerror(-r));
	r = policy_resolve_units(p, NULL);
	if (r < 0)
		say(LOG_ERR, "cannot look up the cgroups of the units the policy names: %s",
		    strerror(-r));
	allows_follow_units(en);
	return r;
}

void units_changed(struct enforcer *en)
{
	struct policy *p = en->state->policy;
	bool changed = false;
	int r;

	if (!unit_watch_drain(&en->units))
		return;
	/* A slice that was missing may be there now: watch it. */
	unit_watch_set(&en->units, p);
	r = policy_resolve_units(p, &changed);
	if (r < 0)
		say(LOG_ERR, "cannot look up the cgroups of the units the policy names: %s; their rules stay as they were",
		    strerror(-r));
	if (!changed)
		return;
	allows_follow_units(en);
	for (size_t i = 0; i < p->n_units; i++) {
		const struct policy_unit *u = &p->units[i];

		say(LOG_INFO, "unit %s: %s", u->name,
		    u->cgroup_id ? "running; its processes are its rules' senders" : "not running");
	}
	enforce_all(en);
}
