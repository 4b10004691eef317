// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A decision told in words: which rule sets apply to a device, why each
 * earlier rule does not match, and which rule (or default) decides.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "policy.h"

int policy_device_parse(const char *s, struct policy_device *dev, char **name_storage)
{
	_cleanup_free_ char *copy = strdup(s);
	char *bus, *vid, *pid, *name, *end;
	unsigned long n;

	*dev = (struct policy_device){};
	*name_storage = NULL;
	if (!copy)
		return -ENOMEM;
	bus = copy;
	vid = strchr(bus, ':');
	if (!vid)
		return -EINVAL;
	*vid++ = 0;
	pid = strchr(vid, ':');
	if (!pid)
		return -EINVAL;
	*pid++ = 0;
	name = strchr(pid, ':');
	if (name)
		*name++ = 0;

	if (policy_bus_from_name(bus, &dev->bus) < 0) {
		n = strtoul(bus, &end, 16);
		if (!*bus || *end || n > 0xffff)
			return -EINVAL;
		dev->bus = (uint16_t)n;
	}
	n = strtoul(vid, &end, 16);
	if (!*vid || *end || n > 0xffff)
		return -EINVAL;
	dev->vendor = (uint16_t)n;
	n = strtoul(pid, &end, 16);
	if (!*pid || *end || n > 0xffff)
		return -EINVAL;
	dev->product = (uint16_t)n;
	if (name) {
		*name_storage = strdup(name);
		if (!*name_storage)
			return -ENOMEM;
		dev->name = *name_storage;
	}
	return 0;
}

static const char *errno_str(int err, char *buf, size_t size)
{
	const char *name = policy_errno_name(err);

	if (name)
		return name;
	snprintf(buf, size, "errno %d", err);
	return buf;
}

static const char *action_name(uint8_t a)
{
	return a == HID_RULE_DENY ? "deny" : "allow";
}

/* Why compiled rule R does not match REQ, or NULL when it does. */
static const char *mismatch(const struct hid_rule *r, const struct policy_request *req,
			    char *buf, size_t size)
{
	if (!(r->kinds & req->kind))
		return "it does not apply to this kind of request";
	if (!hid_rule_has_report_id(r, req->report_id)) {
		snprintf(buf, size, "report ID 0x%02x is not among its report IDs", req->report_id);
		return buf;
	}
	if (r->n_conds && (req->kind & HID_RULE_KIND_GET_ANY))
		return "its payload conditions cannot hold on a GET_REPORT, whose buffer is not the caller's";
	for (unsigned c = 0; c < r->n_conds && c < HID_RULES_MAX_CONDS; c++)
		for (unsigned i = 0; i < r->conds[c].len && i < HID_RULES_COND_BYTES; i++) {
			size_t off = (size_t)r->conds[c].offset + i;
			uint8_t m = r->conds[c].mask[i], v = r->conds[c].value[i];

			if (off >= req->len) {
				snprintf(buf, size, "the payload has no byte %zu (length %zu)", off, req->len);
				return buf;
			}
			if ((req->data[off] & m) != v) {
				snprintf(buf, size, "payload byte %zu is 0x%02x, the rule wants 0x%02x under mask 0x%02x",
					 off, req->data[off], v, m);
				return buf;
			}
		}
	return NULL;
}

/* What the device says of itself beyond its IDs, as far as it is known. */
static void print_device_class(const struct policy_device *dev, FILE *f)
{
	char buf[48], hash[2 * POLICY_SHA256_BYTES + 1];

	if (dev->uniq && *dev->uniq)
		fprintf(f, "  uniq: \"%s\"\n", dev->uniq);
	if (dev->phys && *dev->phys)
		fprintf(f, "  phys: \"%s\"\n", dev->phys);
	if (dev->has_interface)
		fprintf(f, "  USB interface: %u\n", dev->interface);
	if (!dev->descriptor_known) {
		fprintf(f, "  report descriptor: not parsed yet (no driver bound): rule sets matching by usage or descriptor_sha256 do not apply\n");
		return;
	}
	fprintf(f, "  application collections:");
	for (size_t i = 0; i < dev->n_usages; i++)
		fprintf(f, "%s %s", i ? "," : "", policy_usage_name(dev->usages[i], buf, sizeof(buf)));
	fprintf(f, "%s\n", dev->n_usages ? "" : " none");
	if (dev->descriptor_sha256) {
		policy_sha256_format(dev->descriptor_sha256, hash);
		fprintf(f, "  descriptor_sha256: %s\n", hash);
	}
}

static void print_rule_ref(const struct policy *p, size_t index, FILE *f)
{
	const struct policy_rule *pr = &p->rules[index];

	fprintf(f, "rule \"%s\" (%s: %s)", pr->name, p->files[p->sets[pr->set].file].name, pr->path);
}

int policy_explain(const struct policy *p, const struct policy_device *dev,
		   const struct policy_request *req, FILE *f, struct policy_verdict *v)
{
	_cleanup_free_ struct hid_device_rules *rules = malloc(sizeof(*rules));
	const struct policy_ruleset *def = NULL;
	char why[160], e[32];
	int r;

	if (!rules)
		return -ENOMEM;
	fprintf(f, "device: %s %04x:%04x \"%s\"\n",
		policy_bus_name(dev->bus) ?: "bus", dev->vendor, dev->product, dev->name ?: "");
	print_device_class(dev, f);
	fprintf(f, "request: %s, report ID 0x%02x, %zu payload bytes\n",
		policy_kind_name(req->kind), req->report_id, req->len);
	if (req->len && req->data[0] != req->report_id)
		fprintf(f, "note: payload byte 0 is 0x%02x, not the report ID; offsets count from byte 0, which is the report ID on devices with numbered reports\n",
			req->data[0]);

	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];

		if (!policy_ruleset_matches(set, dev))
			continue;
		if (!def && set->has_default)
			def = set;
		fprintf(f, "rule set: %s: %s%s%s%s, %s mode, %zu rule%s\n",
			p->files[set->file].name, set->path, set->name ? " (" : "",
			set->name ?: "", set->name ? ")" : "",
			set->mode == HID_RULES_MODE_AUDIT ? "audit" : "enforce", set->n_rules,
			set->n_rules == 1 ? "" : "s");
	}

	r = policy_compile(p, dev, rules, NULL);
	if (r == -ENOENT) {
		fprintf(f, "no rule set matches this device: it is not protected, every request is allowed\n");
		*v = (struct policy_verdict){ .index = HID_RULE_INDEX_DEFAULT, .rule = -1,
					      .action = HID_RULE_ALLOW };
		return 0;
	}
	if (r < 0) {
		fprintf(f, "the rules for this device cannot be compiled: more than %d rules apply\n",
			HID_RULES_MAX_RULES);
		return r;
	}

	policy_evaluate(rules, req, v);
	for (int i = 0; i < (v->rule < 0 ? (int)rules->n_rules : v->rule); i++) {
		if (i == v->audit_rule) {
			fprintf(f, "  audit: ");
			print_rule_ref(p, v->audit_index, f);
			fprintf(f, ": matches and would %s; an audit-mode rule set only logs, so evaluation goes on\n",
				action_name(v->audit_action));
			continue;
		}
		fprintf(f, "  no match: ");
		print_rule_ref(p, rules->rules[i].index, f);
		fprintf(f, ": %s\n", mismatch(&rules->rules[i], req, why, sizeof(why)) ?: "?");
	}

	fprintf(f, "decision: %s", action_name(v->action));
	if (v->action == HID_RULE_DENY)
		fprintf(f, " (%s)", errno_str(v->err, e, sizeof(e)));
	if (v->rule >= 0) {
		const struct policy_rule *pr = &p->rules[v->index];

		fprintf(f, " by ");
		print_rule_ref(p, v->index, f);
		fprintf(f, "\n");
		if (pr->description)
			fprintf(f, "  description: %s\n", pr->description);
		fprintf(f, "  it applies to this request kind and report ID 0x%02x", req->report_id);
		if (pr->n_conds)
			fprintf(f, ", and all %u payload conditions hold", pr->n_conds);
		fprintf(f, "\n");
	} else if (def) {
		fprintf(f, " by the default of %s: %s: no rule matches\n",
			p->files[def->file].name, def->path);
	} else {
		fprintf(f, " by the built-in default: no rule matches and no rule set states a default\n");
	}

	if (v->action == HID_RULE_DENY && v->enforced)
		fprintf(f, "result: refused with -%s, logged\n", errno_str(v->err, e, sizeof(e)));
	else if (v->action == HID_RULE_DENY)
		fprintf(f, "result: allowed because of audit mode; logged as a would-be denial\n");
	else
		fprintf(f, "result: allowed%s\n", v->logged ? ", logged" : "");
	return 0;
}
