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

/* The compiled copies of a HID++ feature rule add these conditions to
 * the rule's own. */
static void add_cond(struct hid_rule *hr, uint16_t offset, uint8_t value, uint8_t mask,
		     uint8_t flags)
{
	hr->conds[hr->n_conds++] = (struct hid_rule_cond){
		.offset = offset, .len = 1, .flags = flags, .value = { value }, .mask = { mask },
	};
}

/* Could the rule's own payload conditions hold with DEVICE in byte 1? A
 * rule that names a device index itself gets no copy for the others. */
static bool device_possible(const struct policy_rule *pr, uint8_t device)
{
	for (size_t c = 0; c < pr->n_conds; c++) {
		const struct hid_rule_cond *hc = &pr->conds[c];

		if (hc->offset <= HIDPP_OFFSET_DEVICE && HIDPP_OFFSET_DEVICE < hc->offset + hc->len &&
		    (device & hc->mask[HIDPP_OFFSET_DEVICE - hc->offset]) !=
		    hc->value[HIDPP_OFFSET_DEVICE - hc->offset])
			return false;
	}
	return true;
}

/* ... with one of 0x08-0xFE in byte 1? */
static bool others_possible(const struct policy_rule *pr)
{
	for (unsigned device = 0x08; device < HIDPP_DEVICE_SELF; device++)
		if (device_possible(pr, (uint8_t)device))
			return true;
	return false;
}

/* The index DEVICE told for FEATURE: 1 and *INDEX, or 0 when its table
 * has no answer for it (then the device index counts as unknown). */
static int feature_index(const struct hidpp_features *t, uint8_t device, uint16_t feature,
			 uint8_t *index)
{
	for (size_t k = 0; k < t->n && k < HIDPP_FEATURES_MAX; k++)
		if (t->entries[k].device == device && t->entries[k].feature == feature) {
			*index = t->entries[k].index;
			return 1;
		}
	return 0;
}

/* Does DEV's table answer, at DEVICE, every feature PR names? */
static bool device_known(const struct policy_rule *pr, const struct hidpp_features *t,
			 uint8_t device)
{
	int slot = hidpp_device_slot(device);
	uint8_t index;

	if (!t || slot < 0 || !(t->answered & (1u << slot)))
		return false;
	for (uint8_t f = 0; f < pr->n_hidpp_features; f++)
		if (!feature_index(t, device, pr->hidpp_features[f], &index))
			return false;
	return true;
}

struct copies {
	struct hid_rule *out;	/* the table's rules, HID_RULES_MAX_RULES of them */
	size_t n;		/* rules counted, also past the table's end */
};

static struct hid_rule *next_copy(struct copies *c, const struct hid_rule *base)
{
	struct hid_rule *hr = c->n < HID_RULES_MAX_RULES ? &c->out[c->n] : NULL;

	c->n++;
	if (hr)
		*hr = *base;
	return hr;
}

/*
 * A rule naming HID++ features, on DEV: for each device index of
 * common/hidpp.h's slots (0xFF, 1-6) that its own conditions allow,
 *  - where DEV's table answers every feature the rule names: a copy per
 *    feature the device has (index != 0), with [byte 1 == device index]
 *    and [byte 2 == its index];
 *  - where it does not (not answered, asleep, nothing paired, not asked
 *    yet): one copy with [byte 1 == device index] and [byte 2 != 0], so
 *    that every feature but IRoot is taken, until the device answers.
 * A device index that is no slot (0x00, 0x07-0xFE) belongs to no HID++
 * device, but hid-logitech-dj writes the paired device's own index over
 * byte 1 of what a program writes to that device's node, and a device
 * connected directly may not look at byte 1: so those indexes get the
 * rule whole (IRoot's requests too), with three copies: [byte 1 == 0x00],
 * [byte 1 == 0x07], and [byte 1 & 0xF8 != 0] with [byte 1 != 0xFF].
 * When the device told nothing (no table, or no device index answered),
 * one copy with [byte 2 != 0] and no test of byte 1 says the same for
 * every device index. At most HIDPP_DEVICE_SLOTS copies per feature and
 * three: POLICY_HIDPP_RULE_COPIES(), what policy_capacity.c counts.
 */
/*
 * The daemon learns the indexes by asking with software ID 0
 * (hid/hidpp_learn.h), and takes an answer at IRoot or IFeatureSet with
 * that software ID for one to its own question. Another program asking so
 * could have its answer taken for the daemon's: a rule that refuses
 * features also refuses HID++ 2.0 questions (feature index below 0x80:
 * HID++ 1.0's register requests have their sub-ID there) with software ID
 * 0 to every program but the daemon's executable run by root. HID++ keeps
 * that ID for the device's notifications, and no client (Solaar, fwupd,
 * the kernel's driver) asks with it. Root in a container given the node
 * runs another executable, and is refused too.
 */
static void guard_daemon_questions(const struct hid_rule *base, const struct hid_rule_exe *learner,
				   struct copies *c)
{
	struct hid_rule *hr;

	if (base->action != HID_RULE_DENY)
		return;
	if ((hr = next_copy(c, base))) {
		memset(&hr->sender, 0, sizeof(hr->sender));
		if (learner) {
			hr->action = HID_RULE_ALLOW;
			hr->err = 0;
			hr->sender.fields = HID_SENDER_F_USER | HID_SENDER_F_EXECUTABLE;
			hr->sender.n_uids = 1;
			hr->sender.n_exes = 1;
			hr->sender.exes[0] = *learner;
		} else {
			/* nobody's: a copy that takes what the next one takes */
			hr->sender.fields = HID_SENDER_F_ORIGIN;
			hr->sender.origin = HID_SENDER_ORIGIN_USER;
		}
		add_cond(hr, HIDPP_OFFSET_FEATURE, 0x00, 0x80, 0);
		add_cond(hr, HIDPP_OFFSET_FUNCTION, 0x00, 0x0f, 0);	/* software ID 0 */
	}
	/* Every other program; a driver's own request passes: hid-logitech-dj
	 * forwards what a paired device's node let through to the receiver
	 * with the device's index. */
	if ((hr = next_copy(c, base))) {
		memset(&hr->sender, 0, sizeof(hr->sender));
		hr->sender.fields = HID_SENDER_F_ORIGIN;
		hr->sender.origin = HID_SENDER_ORIGIN_USER;
		add_cond(hr, HIDPP_OFFSET_FEATURE, 0x00, 0x80, 0);
		add_cond(hr, HIDPP_OFFSET_FUNCTION, 0x00, 0x0f, 0);	/* software ID 0 */
	}
}

static void compile_hidpp_rule(const struct policy_rule *pr, const struct policy_device *dev,
			       const struct hid_rule *base, struct copies *c)
{
	const struct hidpp_features *t = dev->hidpp;
	struct hid_rule *hr;
	uint8_t index;

	guard_daemon_questions(base, dev->learner_exe, c);

	if (!t || !(t->answered & ((1u << HIDPP_DEVICE_SLOTS) - 1))) {
		if ((hr = next_copy(c, base)))
			add_cond(hr, HIDPP_OFFSET_FEATURE, HIDPP_ROOT_INDEX, 0xff, HID_RULE_COND_F_NOT);
		return;
	}
	for (int slot = 0; slot < HIDPP_DEVICE_SLOTS; slot++) {
		uint8_t device = hidpp_slot_device(slot);

		if (!device_possible(pr, device))
			continue;
		if (!device_known(pr, t, device)) {
			if ((hr = next_copy(c, base))) {
				add_cond(hr, HIDPP_OFFSET_DEVICE, device, 0xff, 0);
				add_cond(hr, HIDPP_OFFSET_FEATURE, HIDPP_ROOT_INDEX, 0xff,
					 HID_RULE_COND_F_NOT);
			}
			continue;
		}
		for (uint8_t f = 0; f < pr->n_hidpp_features; f++) {
			if (!feature_index(t, device, pr->hidpp_features[f], &index) ||
			    index == HIDPP_ROOT_INDEX)
				continue;	/* the device has no such feature */
			if ((hr = next_copy(c, base))) {
				add_cond(hr, HIDPP_OFFSET_DEVICE, device, 0xff, 0);
				add_cond(hr, HIDPP_OFFSET_FEATURE, index, 0xff, 0);
			}
		}
	}
	if (device_possible(pr, 0x00) && (hr = next_copy(c, base)))
		add_cond(hr, HIDPP_OFFSET_DEVICE, 0x00, 0xff, 0);
	if (device_possible(pr, 0x07) && (hr = next_copy(c, base)))
		add_cond(hr, HIDPP_OFFSET_DEVICE, 0x07, 0xff, 0);
	if (others_possible(pr) && (hr = next_copy(c, base))) {
		add_cond(hr, HIDPP_OFFSET_DEVICE, 0x00, 0xf8, HID_RULE_COND_F_NOT);
		add_cond(hr, HIDPP_OFFSET_DEVICE, HIDPP_DEVICE_SELF, 0xff, HID_RULE_COND_F_NOT);
	}
}

bool nrf_options_cover(const struct policy_rule *a, const struct policy_rule *b)
{
	if (!a->nrf_module[0])
		return true;
	return b->nrf_module[0] && !strcmp(a->nrf_module, b->nrf_module) &&
	       !strcmp(a->nrf_option, b->nrf_option);
}

bool policy_names_nrf_options(const struct policy *p, const struct policy_device *dev)
{
	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];

		if (!policy_ruleset_matches(set, dev))
			continue;
		for (size_t i = set->first_rule; i < set->first_rule + set->n_rules; i++)
			if (p->rules[i].nrf_module[0])
				return true;
	}
	return false;
}

/* A copy of BASE that lets the daemon's executable, run by root, send
 * the frame whose status is STATUS to the device itself. */
static void daemon_question(const struct hid_rule *base, const struct hid_rule_exe *self,
			    uint8_t status, struct copies *c)
{
	struct hid_rule *hr = next_copy(c, base);

	if (!hr)
		return;
	memset(&hr->sender, 0, sizeof(hr->sender));
	hr->action = HID_RULE_ALLOW;
	hr->err = 0;
	hr->sender.fields = HID_SENDER_F_USER | HID_SENDER_F_EXECUTABLE;
	hr->sender.n_uids = 1;	/* uid 0 */
	hr->sender.n_exes = 1;
	hr->sender.exes[0] = *self;
	hr->n_conds = 0;
	add_cond(hr, NRF_CONFIG_OFFSET_RECIPIENT, NRF_CONFIG_RECIPIENT_SELF, 0xff, 0);
	add_cond(hr, NRF_CONFIG_OFFSET_STATUS, status, 0xff, 0);
	if (status == NRF_CONFIG_STATUS_FETCH)
		add_cond(hr, NRF_CONFIG_OFFSET_EVENT, 0x00, 0x0f, 0);	/* option 0: the listing */
}

/*
 * A rule naming an option, on DEV:
 *  - until the device has told (no table, or a round not complete): a
 *    deny applies whole, and the channel is the daemon's: its own
 *    questions (GET_MAX_MOD_ID and the listing's FETCH of option 0, to the
 *    device itself) pass from its executable run by root, and every other
 *    frame on the rule's reports is refused to programs, whatever its
 *    status, so that none can put an answer or move a listing's cursor
 *    between the daemon's questions (hid/nrf_config_learn.h). The senders
 *    that rules before this one allow (fwupd.service) still pass. An
 *    allow applies to nothing: the option cannot be told from the others.
 *  - once it has: the copy [byte 1 == 0] [byte 2 == the option's event
 *    ID], none when the device listed no such option; a deny applies whole
 *    to a peer behind a dongle ([byte 1 != 0]), whose modules are not
 *    asked.
 */
static void compile_nrf_rule(const struct policy_rule *pr, const struct policy_device *dev,
			     const struct hid_rule *base, struct copies *c)
{
	const struct nrf_config_table *t = dev->nrf;
	struct hid_rule *hr;
	uint8_t event_id;

	if (!t || !t->told) {
		if (base->action != HID_RULE_DENY)
			return;
		if (dev->learner_exe) {
			daemon_question(base, dev->learner_exe, NRF_CONFIG_STATUS_GET_MAX_MOD_ID, c);
			daemon_question(base, dev->learner_exe, NRF_CONFIG_STATUS_FETCH, c);
		}
		if ((hr = next_copy(c, base))) {
			memset(&hr->sender, 0, sizeof(hr->sender));
			hr->sender.fields = HID_SENDER_F_ORIGIN;
			hr->sender.origin = HID_SENDER_ORIGIN_USER;
			hr->n_conds = 0;
		}
		next_copy(c, base);
		return;
	}
	if (base->action == HID_RULE_DENY && (hr = next_copy(c, base)))
		add_cond(hr, NRF_CONFIG_OFFSET_RECIPIENT, NRF_CONFIG_RECIPIENT_SELF, 0xff,
			 HID_RULE_COND_F_NOT);
	if (!nrf_config_find(t, pr->nrf_module, pr->nrf_option, &event_id))
		return;
	if ((hr = next_copy(c, base))) {
		add_cond(hr, NRF_CONFIG_OFFSET_RECIPIENT, NRF_CONFIG_RECIPIENT_SELF, 0xff, 0);
		add_cond(hr, NRF_CONFIG_OFFSET_EVENT, event_id, 0xff, 0);
	}
}

size_t policy_rule_copies(const struct policy_rule *r)
{
	if (r->nrf_module[0])
		return POLICY_NRF_RULE_COPIES;
	return r->n_hidpp_features ? POLICY_HIDPP_RULE_COPIES(r->n_hidpp_features) : 1;
}

size_t policy_hidpp_features(const struct policy *p, const struct policy_device *dev,
			     uint16_t *features, size_t max)
{
	uint64_t seen[(UINT16_MAX + 1) / 64] = {};
	size_t n = 0;

	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];

		if (!policy_ruleset_matches(set, dev))
			continue;
		for (size_t i = set->first_rule; i < set->first_rule + set->n_rules; i++)
			for (uint8_t f = 0; f < p->rules[i].n_hidpp_features; f++) {
				uint16_t id = p->rules[i].hidpp_features[f];

				if (seen[id / 64] & (1ull << (id % 64)))
					continue;
				seen[id / 64] |= 1ull << (id % 64);
				if (n < max)
					features[n] = id;
				n++;
			}
	}
	return n;
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
	struct copies c = { .out = out->rules };
	size_t n;

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
			if (p->rules[i].n_hidpp_features) {
				struct hid_rule base;

				compile_rule(p, &p->rules[i], i, set->mode, ids, &base);
				compile_hidpp_rule(&p->rules[i], dev, &base, &c);
				continue;
			}
			if (p->rules[i].nrf_module[0]) {
				struct hid_rule base;

				compile_rule(p, &p->rules[i], i, set->mode, ids, &base);
				compile_nrf_rule(&p->rules[i], dev, &base, &c);
				continue;
			}
			if (c.n < HID_RULES_MAX_RULES)
				compile_rule(p, &p->rules[i], i, set->mode, ids, &out->rules[c.n]);
			c.n++;
		}
	}
	if (!matched)
		return -ENOENT;
	n = c.n;
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
