// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Matching: which rule sets apply to a device, and what compiled rules decide
 * for a request. policy_evaluate() is the reference for the BPF programs:
 * same order, same bounds, same meaning of every field.
 */
#include <errno.h>
#include <fnmatch.h>
#include <linux/input.h>
#include <string.h>

#include "policy.h"
#include "policy_internal.h"

static bool id_in(const struct policy_id_set *s, uint16_t id)
{
	if (s->any)
		return true;
	for (size_t i = 0; i < s->n; i++)
		if (s->ids[i] == id)
			return true;
	return false;
}

static bool glob_ok(const char *glob, const char *s)
{
	return !glob || fnmatch(glob, s ?: "", 0) == 0;
}

static bool usage_ok(const struct policy_match *m, const struct policy_device *dev)
{
	for (size_t i = 0; i < m->n_usages; i++)
		for (size_t j = 0; j < dev->n_usages; j++)
			if ((dev->usages[j] & m->usages[i].mask) == m->usages[i].value)
				return true;
	return false;
}

static bool hash_ok(const struct policy_match *m, const struct policy_device *dev)
{
	if (!dev->descriptor_sha256)
		return false;
	for (size_t i = 0; i < m->n_hashes; i++)
		if (!memcmp(m->hashes[i], dev->descriptor_sha256, POLICY_SHA256_BYTES))
			return true;
	return false;
}

/* Everything but what the report descriptor tells. */
static bool match_identity(const struct policy_match *m, const struct policy_device *dev)
{
	if (m->buses != UINT32_MAX && (dev->bus >= 32 || !(m->buses & (1u << dev->bus))))
		return false;
	if (m->has_interfaces &&
	    (!dev->has_interface || !(m->interfaces[dev->interface / 32] & (1u << (dev->interface % 32)))))
		return false;
	return id_in(&m->vendors, dev->vendor) && id_in(&m->products, dev->product) &&
	       glob_ok(m->name, dev->name) && glob_ok(m->uniq, dev->uniq) &&
	       glob_ok(m->phys, dev->phys);
}

static bool tests_descriptor(const struct policy_match *m)
{
	return m->n_usages || m->n_hashes;
}

static bool match_device(const struct policy_match *m, const struct policy_device *dev)
{
	if (!match_identity(m, dev))
		return false;
	if (tests_descriptor(m) && !dev->descriptor_known)
		return false;
	return (!m->n_usages || usage_ok(m, dev)) && (!m->n_hashes || hash_ok(m, dev));
}

bool policy_ruleset_matches(const struct policy_ruleset *s, const struct policy_device *dev)
{
	for (size_t i = 0; i < s->n_matches; i++)
		if (match_device(&s->matches[i], dev))
			return true;
	return false;
}

bool policy_may_match_usb(const struct policy *p, uint16_t vendor, uint16_t product)
{
	for (size_t s = 0; s < p->n_sets; s++) {
		for (size_t i = 0; i < p->sets[s].n_matches; i++) {
			const struct policy_match *m = &p->sets[s].matches[i];

			if ((m->buses == UINT32_MAX || m->buses & (1u << BUS_USB)) &&
			    id_in(&m->vendors, vendor) && id_in(&m->products, product))
				return true;
		}
	}
	return false;
}

static bool names_reports_by_usage(const struct policy *p, const struct policy_ruleset *set)
{
	for (size_t i = set->first_rule; i < set->first_rule + set->n_rules; i++)
		if (p->rules[i].by_usage)
			return true;
	return false;
}

bool policy_waits_for_descriptor(const struct policy *p, const struct policy_device *dev)
{
	if (dev->descriptor_known)
		return false;
	for (size_t s = 0; s < p->n_sets; s++) {
		/* its rules' reports are known with the descriptor only */
		bool by_usage = names_reports_by_usage(p, &p->sets[s]);

		for (size_t i = 0; i < p->sets[s].n_matches; i++) {
			const struct policy_match *m = &p->sets[s].matches[i];

			if ((by_usage || tests_descriptor(m)) && match_identity(m, dev))
				return true;
		}
	}
	return false;
}

uint8_t policy_kinds_report_types(uint8_t kinds)
{
	uint8_t t = (uint8_t)((kinds | kinds >> 3) & 0x7);

	if (kinds & HID_RULE_KIND_OUTPUT_REPORT)
		t |= HID_REPORT_OUTPUT;
	if (kinds & HID_RULE_KIND_INPUT_EVENT)
		t |= HID_REPORT_INPUT;
	return t;
}

static bool report_usage_named(const struct policy_rule *r, const struct hid_report_usage *u)
{
	if (u->page != r->usage_page)
		return false;
	return !r->has_usage || (u->has_usage && u->usage_min <= r->usage && r->usage <= u->usage_max);
}

bool policy_rule_report_ids(const struct policy_rule *r, const struct policy_device *dev,
			    uint32_t ids[HID_RULES_REPORT_ID_WORDS])
{
	uint8_t types = policy_kinds_report_types(r->kinds);
	bool any = false;

	memcpy(ids, r->report_ids, sizeof(r->report_ids));
	if (r->by_usage) {
		if (dev->reports_incomplete && r->action == HID_RULE_DENY)
			memset(ids, 0xff, sizeof(r->report_ids));
		for (size_t i = 0; i < dev->n_reports; i++) {
			const struct hid_report_usage *u = &dev->reports[i];

			if (u->type & types && report_usage_named(r, u))
				ids[u->id / 32] |= 1u << (u->id % 32);
		}
	}
	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS; w++)
		any |= ids[w] != 0;
	return any;
}

/* The firewall's cond_holds(): a NOT condition wants its bytes present
 * and not all equal to its value. */
static bool cond_holds(const struct hid_rule_cond *c, const struct policy_request *req)
{
	bool differs = false;

	for (unsigned i = 0; i < HID_RULES_COND_BYTES && i < c->len; i++) {
		size_t off = (size_t)c->offset + i;

		if (off >= req->len)
			return false;
		if ((req->data[off] & c->mask[i]) != c->value[i])
			differs = true;
	}
	return c->flags & HID_RULE_COND_F_NOT ? differs : !differs;
}

bool sender_lists_id(const uint32_t *ids, uint8_t n, uint32_t id)
{
	for (unsigned i = 0; i < n && i < HID_SENDER_MAX_IDS; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool sender_lists_group(const struct hid_rule_sender *s, uint32_t gid, const uint32_t *groups,
			size_t n_groups)
{
	if (sender_lists_id(s->gids, s->n_gids, gid))
		return true;
	for (size_t i = 0; i < n_groups; i++)
		if (sender_lists_id(s->gids, s->n_gids, groups[i]))
			return true;
	return false;
}

bool sender_lists_exe(const struct hid_rule_sender *s, const struct hid_rule_exe *e)
{
	for (unsigned i = 0; i < s->n_exes && i < HID_SENDER_MAX_IDS; i++)
		if (s->exes[i].ino == e->ino && s->exes[i].dev == e->dev)
			return true;
	return false;
}

/* Is the sender's cgroup, or one of its ancestors, a listed unit's? */
static bool unit_listed(const struct hid_rule_sender *s, const struct policy_sender_id *id)
{
	for (unsigned i = 0; i < HID_SENDER_MAX_IDS && i < s->n_units; i++) {
		const struct hid_rule_unit *u = &s->units[i];

		if (u->cgroup_id && u->level < id->n_cgroups && id->cgroups[u->level] == u->cgroup_id)
			return true;
	}
	return false;
}

/* The firewall's sender_matches(), same order and meaning. Where the
 * sender is not known at all (no ID), a unit is not known either. */
static bool sender_matches(const struct hid_rule *r, const struct policy_request *req)
{
	const struct hid_rule_sender *s = &r->sender;
	const struct policy_sender_id *id = req->sender;
	bool from_kernel = id && id->from_kernel;

	if (!s->fields)
		return true;
	if (req->kind & HID_RULE_KIND_INPUT_EVENT)
		return false;
	if ((s->fields & HID_SENDER_F_ORIGIN) &&
	    s->origin != (from_kernel ? HID_SENDER_ORIGIN_KERNEL : HID_SENDER_ORIGIN_USER))
		return false;
	if (!(s->fields & ~HID_SENDER_F_ORIGIN))
		return true;
	if (from_kernel)
		return false;
	if (!id)
		return r->action == HID_RULE_DENY;
	if ((s->fields & HID_SENDER_F_UNIT) && !unit_listed(s, id))
		return false;
	if (!(s->fields & (HID_SENDER_F_USER | HID_SENDER_F_GROUP | HID_SENDER_F_EXECUTABLE)))
		return true;
	if (!id->known || ((s->fields & HID_SENDER_F_EXECUTABLE) && !id->exe_known))
		return r->action == HID_RULE_DENY;
	if ((s->fields & HID_SENDER_F_USER) && !sender_lists_id(s->uids, s->n_uids, id->uid))
		return false;
	if ((s->fields & HID_SENDER_F_GROUP) &&
	    !sender_lists_group(s, id->gid, id->groups, id->n_groups))
		return false;
	if ((s->fields & HID_SENDER_F_EXECUTABLE) &&
	    !sender_lists_exe(s, &(struct hid_rule_exe){ .ino = id->exe_ino, .dev = id->exe_dev }))
		return false;
	return true;
}

bool policy_rule_matches(const struct hid_rule *r, const struct policy_request *req)
{
	if (!(r->kinds & req->kind) || !hid_rule_has_report_id(r, req->report_id))
		return false;
	/* A GET_REPORT's buffer is not the caller's: no condition holds. */
	if (r->n_conds && (req->kind & HID_RULE_KIND_GET_ANY))
		return false;
	for (unsigned c = 0; c < HID_RULES_MAX_CONDS && c < r->n_conds; c++)
		if (!cond_holds(&r->conds[c], req))
			return false;
	return sender_matches(r, req);
}

static void decide(const struct hid_device_rules *rules, uint8_t action, uint16_t err,
		   uint8_t flags, struct policy_verdict *v)
{
	v->action = action;
	v->err = err;
	v->enforced = action == HID_RULE_DENY && rules->mode == HID_RULES_MODE_ENFORCE &&
		      !(flags & HID_RULE_F_AUDIT);
	v->logged = action == HID_RULE_DENY || (flags & HID_RULE_F_LOG);
}

int policy_kind_report_type(uint8_t kind)
{
	switch (kind) {
	case HID_RULE_KIND_GET_INPUT:
	case HID_RULE_KIND_SET_INPUT:
		return HID_RULES_RTYPE_INPUT;
	case HID_RULE_KIND_GET_OUTPUT:
	case HID_RULE_KIND_SET_OUTPUT:
	case HID_RULE_KIND_OUTPUT_REPORT:
		return HID_RULES_RTYPE_OUTPUT;
	case HID_RULE_KIND_GET_FEATURE:
	case HID_RULE_KIND_SET_FEATURE:
		return HID_RULES_RTYPE_FEATURE;
	}
	return -1;
}

/* The firewall's undeclared(): the kernel's drivers and input events are
 * not checked. */
bool policy_request_undeclared(const struct hid_device_rules *rules,
			       const struct policy_request *req)
{
	int rtype = policy_kind_report_type(req->kind);

	if (!(rules->flags & HID_RULES_F_DECLARED) || (req->sender && req->sender->from_kernel))
		return false;
	if (req->kind == HID_RULE_KIND_INPUT_EVENT)
		return false;
	if (rtype < 0)
		return true;
	if (rules->flags & HID_RULES_F_COMMANDS_IN_PAYLOAD)
		return false;
	return !hid_rules_declares(rules, (uint32_t)rtype, req->report_id);
}

void policy_evaluate(const struct hid_device_rules *rules,
		     const struct policy_request *req, struct policy_verdict *v)
{
	v->audit_rule = -1;
	if (policy_request_undeclared(rules, req)) {
		v->index = HID_RULE_INDEX_UNDECLARED;
		v->rule = -1;
		v->action = HID_RULE_DENY;
		v->err = EPERM;
		v->enforced = true;
		v->logged = true;
		return;
	}
	for (unsigned i = 0; i < HID_RULES_MAX_RULES && i < rules->n_rules; i++) {
		const struct hid_rule *r = &rules->rules[i];

		if (!policy_rule_matches(r, req))
			continue;
		if ((r->flags & HID_RULE_F_AUDIT) && rules->mode != HID_RULES_MODE_AUDIT) {
			if (v->audit_rule < 0) {
				v->audit_rule = (int)i;
				v->audit_index = r->index;
				v->audit_action = r->action;
			}
			continue;
		}
		v->index = r->index;
		v->rule = (int)i;
		decide(rules, r->action, r->err, r->flags, v);
		return;
	}
	v->index = HID_RULE_INDEX_DEFAULT;
	v->rule = -1;
	decide(rules, rules->default_action, rules->default_err, rules->default_flags, v);
}
