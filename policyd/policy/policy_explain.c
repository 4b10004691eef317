// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A decision told in words: which rule sets apply to a device, why each
 * earlier rule does not match, and which rule (or default) decides. Who
 * sends the request is a subject the question gives as far as it knows it;
 * a rule whose sender tests what it leaves open matches for some senders
 * and not for others, and the explanation says so rather than guess.
 */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "policy_internal.h"

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

static int hex_field(const char *s, char stop, unsigned long max, unsigned long *ret, const char **end)
{
	char *e;

	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*ret = strtoul(s, &e, 16);
	if (errno || *e != stop || *ret > max)
		return -EINVAL;
	*end = e + (stop ? 1 : 0);
	return 0;
}

int policy_hidpp_feature_parse(const char *s, struct hidpp_features *t)
{
	unsigned long device, feature, index;
	const char *p = s;
	int slot;

	if (hex_field(p, ':', 0xff, &device, &p) < 0 || hex_field(p, '=', 0xffff, &feature, &p) < 0 ||
	    hex_field(p, '\0', 0xff, &index, &p) < 0 || feature == 0)
		return -EINVAL;
	slot = hidpp_device_slot((uint8_t)device);
	if (slot < 0)
		return -EINVAL;
	for (size_t k = 0; k < t->n && k < HIDPP_FEATURES_MAX; k++)
		if (t->entries[k].device == device && t->entries[k].feature == feature) {
			t->entries[k].index = (uint8_t)index;
			return 0;
		}
	if (t->n >= HIDPP_FEATURES_MAX)
		return -E2BIG;
	t->entries[t->n++] = (struct hidpp_feature_index){
		.feature = (uint16_t)feature, .device = (uint8_t)device, .index = (uint8_t)index,
	};
	t->answered |= (uint8_t)(1u << slot);
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

static const char *report_type_name(int rtype)
{
	switch (rtype) {
	case HID_RULES_RTYPE_INPUT:
		return "input";
	case HID_RULES_RTYPE_OUTPUT:
		return "output";
	case HID_RULES_RTYPE_FEATURE:
		return "feature";
	}
	return "such";
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
	for (unsigned c = 0; c < r->n_conds && c < HID_RULES_MAX_CONDS; c++) {
		const struct hid_rule_cond *hc = &r->conds[c];
		bool differs = false;

		for (unsigned i = 0; i < hc->len && i < HID_RULES_COND_BYTES; i++) {
			size_t off = (size_t)hc->offset + i;
			uint8_t m = hc->mask[i], v = hc->value[i];

			if (off >= req->len) {
				snprintf(buf, size, "the payload has no byte %zu (length %zu)", off, req->len);
				return buf;
			}
			if ((req->data[off] & m) == v)
				continue;
			differs = true;
			if (!(hc->flags & HID_RULE_COND_F_NOT)) {
				snprintf(buf, size, "payload byte %zu is 0x%02x, the rule wants 0x%02x under mask 0x%02x",
					 off, req->data[off], v, m);
				return buf;
			}
		}
		if ((hc->flags & HID_RULE_COND_F_NOT) && !differs) {
			if (hc->len == 1)
				snprintf(buf, size, "payload byte %u is 0x%02x under mask 0x%02x, which the rule wants it not to be",
					 hc->offset, hc->value[0], hc->mask[0]);
			else
				snprintf(buf, size, "payload bytes %u..%u are what the rule wants them not to be",
					 hc->offset, hc->offset + hc->len - 1);
			return buf;
		}
	}
	return NULL;
}

/* Why no copy of rule PR (HR the first), which names HID++ features,
 * matches the bytes of REQ: its own conditions, or the feature index at
 * the request's device index. */
static const char *hidpp_mismatch(const struct policy_rule *pr, const struct hid_rule *hr,
				  const struct policy_request *req, char *buf, size_t size)
{
	struct hid_rule own = *hr;
	const char *why;
	uint8_t device, index;
	int n;

	own.n_conds = pr->n_conds;
	if ((why = mismatch(&own, req, buf, size)))
		return why;
	if (req->len <= HIDPP_OFFSET_FEATURE)
		return "the message is too short to name a HID++ feature index";
	device = req->data[HIDPP_OFFSET_DEVICE];
	index = req->data[HIDPP_OFFSET_FEATURE];
	n = snprintf(buf, size, "it names HID++ feature");
	for (uint8_t i = 0; i < pr->n_hidpp_features && n > 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, "%s 0x%04X", i ? "," : "", pr->hidpp_features[i]);
	if (n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, index == HIDPP_ROOT_INDEX ?
			 ", and this request is to IRoot (feature index 0) of device index 0x%02x" :
			 ", and feature index 0x%02x of device index 0x%02x is none of them there",
			 index == HIDPP_ROOT_INDEX ? device : index, device);
	return buf;
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

/* The first of TYPES (HID_REPORT_* bits), by name. */
static const char *report_bits_name(uint8_t types)
{
	return types & HID_REPORT_FEATURE ? "feature" : types & HID_REPORT_INPUT ? "input" : "output";
}

/* The report IDs of IDS, "0x01, 0x07" (at most a line's worth). */
static void print_report_ids(const uint32_t ids[HID_RULES_REPORT_ID_WORDS], FILE *f)
{
	unsigned n = 0;

	for (unsigned id = 0; id < HID_RULES_REPORT_IDS; id++) {
		if (!(ids[id / 32] & (1u << (id % 32))))
			continue;
		if (n++ == 16) {
			fprintf(f, ", ...");
			return;
		}
		fprintf(f, "%s0x%02x", n > 1 ? ", " : "", id);
	}
}

static bool names_ids(const struct policy_rule *pr)
{
	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS; w++)
		if (pr->report_ids[w])
			return true;
	return false;
}

/*
 * The rules of the device's rule sets that name reports by usage page, and
 * what the device's descriptor makes of them: the IDs they take, or that
 * the device gets no rule from them.
 */
static void print_reports_by_usage(const struct policy *p, const struct policy_device *dev, FILE *f)
{
	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];

		if (!policy_ruleset_matches(set, dev))
			continue;
		for (size_t i = set->first_rule; i < set->first_rule + set->n_rules; i++) {
			const struct policy_rule *pr = &p->rules[i];
			uint32_t ids[HID_RULES_REPORT_ID_WORDS];
			char what[64];

			if (!pr->by_usage)
				continue;
			snprintf(what, sizeof(what), "%s report of usage page 0x%04x",
				 report_bits_name(policy_kinds_report_types(pr->kinds)), pr->usage_page);
			if (pr->has_usage)
				snprintf(what + strlen(what), sizeof(what) - strlen(what), " usage 0x%04x",
					 pr->usage);
			fprintf(f, "  ");
			print_rule_ref(p, i, f);
			if (!policy_rule_report_ids(pr, dev, ids)) {
				fprintf(f, ": not applied: the device's descriptor declares no %s%s\n", what,
					dev->descriptor_known ? "" : " (it is not parsed yet)");
				continue;
			}
			fprintf(f, ": report IDs ");
			print_report_ids(ids, f);
			if (dev->reports_incomplete && pr->action == HID_RULE_DENY)
				fprintf(f, " (every ID: the device's descriptor declares more reports than the daemon keeps, so this deny rule takes them all)\n");
			else
				fprintf(f, " (%seach %s the device's descriptor declares)\n",
					names_ids(pr) ? "its report_id, and " : "", what);
		}
	}
}

/* Do the rule sets matching DEV name HID++ features? */
static bool names_hidpp_features(const struct policy *p, const struct policy_device *dev)
{
	uint16_t f;

	return policy_hidpp_features(p, dev, &f, 1) > 0;
}

/* The feature DEV told at DEVICE's feature index INDEX, among the answers
 * to what the rules ask: its ID, or 0. */
static uint16_t told_feature(const struct hidpp_features *t, uint8_t device, uint8_t index)
{
	for (size_t k = 0; t && k < t->n && k < HIDPP_FEATURES_MAX; k++)
		if (t->entries[k].device == device && t->entries[k].index == index)
			return t->entries[k].feature;
	return 0;
}

/* Did DEVICE tell every feature DEV's rules name? */
static bool told_all(const struct policy *p, const struct policy_device *dev, uint8_t device)
{
	uint16_t features[HIDPP_FEATURES_MAX];
	size_t n = policy_hidpp_features(p, dev, features, HIDPP_FEATURES_MAX);

	for (size_t i = 0; i < n && i < HIDPP_FEATURES_MAX; i++) {
		bool found = false;

		for (size_t k = 0; k < dev->hidpp->n && k < HIDPP_FEATURES_MAX && !found; k++)
			found = dev->hidpp->entries[k].device == device &&
				dev->hidpp->entries[k].feature == features[i];
		if (!found)
			return false;
	}
	return true;
}

/* Is DEVICE one whose features DEV told? */
static bool device_told(const struct hidpp_features *t, uint8_t device)
{
	int slot = hidpp_device_slot(device);

	return t && slot >= 0 && (t->answered & (1u << slot));
}

/*
 * What DEV told of its HID++ 2.0 features, where its rules name some, and
 * what that makes of a HID++ request: the feature at its feature index,
 * or that its device index has not told (then the rules naming a feature
 * take every feature index but IRoot's).
 */
static void print_hidpp(const struct policy *p, const struct policy_device *dev,
			const struct policy_request *req, FILE *f)
{
	const struct hidpp_features *t = dev->hidpp;
	uint8_t device, index;
	uint16_t feature;

	if (!names_hidpp_features(p, dev))
		return;
	fprintf(f, "  HID++ feature indexes the device told:");
	if (!t || !t->answered)
		fprintf(f, " none: every device index is unknown");
	else
		for (int slot = 0; slot < HIDPP_DEVICE_SLOTS; slot++) {
			uint8_t d = hidpp_slot_device(slot);

			if (!(t->answered & (1u << slot)))
				continue;
			const char *sep = " ";

			fprintf(f, "\n    device index 0x%02x:", d);
			for (size_t k = 0; k < t->n && k < HIDPP_FEATURES_MAX; k++) {
				if (t->entries[k].device != d)
					continue;
				if (t->entries[k].index)
					fprintf(f, "%s0x%04X at 0x%02x", sep, t->entries[k].feature,
						t->entries[k].index);
				else
					fprintf(f, "%s0x%04X none", sep, t->entries[k].feature);
				sep = ", ";
			}
		}
	fprintf(f, "%s\n", t && t->answered ? "\n    the other device indexes have not told" : "");
	if (req->report_id < HIDPP_REPORT_SHORT || req->report_id > HIDPP_REPORT_VERY_LONG ||
	    req->len <= HIDPP_OFFSET_FEATURE)
		return;
	device = req->data[HIDPP_OFFSET_DEVICE];
	index = req->data[HIDPP_OFFSET_FEATURE];
	fprintf(f, "HID++ request: device index 0x%02x, feature index 0x%02x", device, index);
	if (index == HIDPP_ROOT_INDEX)
		fprintf(f, " (IRoot)");
	if (hidpp_device_slot(device) < 0)
		fprintf(f, ": device index 0x%02x is no HID++ device's (0xff, 1-6): a rule naming a feature takes every request to it\n",
			device);
	else if (!device_told(t, device))
		fprintf(f, ": device index 0x%02x has not told its features: a rule naming a feature takes every feature index but IRoot's (0) there\n",
			device);
	else if (!told_all(p, dev, device))
		fprintf(f, ": device index 0x%02x has not told every feature the rules name: a rule naming one it has not told takes every feature index but IRoot's (0) there\n",
			device);
	else if ((feature = told_feature(t, device, index)) && index != HIDPP_ROOT_INDEX)
		fprintf(f, ": the device told feature 0x%04X is at 0x%02x\n", feature, index);
	else
		fprintf(f, ": no feature the rules name is there\n");
}

/*
 * What DEV listed of its nRF Desktop configuration modules, where its
 * rules name an option, and what that makes of a configuration frame: the
 * option at its event ID, or that the device has not listed them (then a
 * deny naming an option takes every frame but the daemon's).
 */
static void print_nrf(const struct policy *p, const struct policy_device *dev,
		      const struct policy_request *req, FILE *f)
{
	const struct nrf_config_table *t = dev->nrf;
	uint8_t event, module, option;

	if (!policy_names_nrf_options(p, dev))
		return;
	fprintf(f, "  nRF Desktop configuration modules the device listed:");
	if (!t || !t->told)
		fprintf(f, " none yet: a deny naming an option takes every configuration frame but the daemon's questions, from every sender rules before it do not allow\n");
	else
		for (uint8_t m = 0; m < t->n_modules && m < NRF_CONFIG_MODULES_MAX; m++)
			fprintf(f, "%s%s (module %u, %u option%s)", m ? ", " : " ",
				t->modules[m].name, m, t->modules[m].n_options,
				t->modules[m].n_options == 1 ? "" : "s");
	if (t && t->told)
		fprintf(f, "\n");
	if ((req->report_id != NRF_CONFIG_REPORT_FEATURE &&
	     req->report_id != NRF_CONFIG_REPORT_OUTPUT) || req->len <= NRF_CONFIG_OFFSET_EVENT ||
	    !t || !t->told)
		return;
	event = req->data[NRF_CONFIG_OFFSET_EVENT];
	module = event >> 4;
	option = event & 0x0f;
	fprintf(f, "configuration frame: recipient 0x%02x, event ID 0x%02x", req->data[NRF_CONFIG_OFFSET_RECIPIENT], event);
	if (req->data[NRF_CONFIG_OFFSET_RECIPIENT] != NRF_CONFIG_RECIPIENT_SELF)
		fprintf(f, ": to a peer, whose modules are not asked: a deny naming an option takes it\n");
	else if (module >= t->n_modules)
		fprintf(f, ": module %u is none the device listed\n", module);
	else if (option == 0)
		fprintf(f, ": the listing of module %s\n", t->modules[module].name);
	else if (option > t->modules[module].n_options)
		fprintf(f, ": module %s lists no option %u\n", t->modules[module].name, option);
	else
		fprintf(f, ": %s/%s\n", t->modules[module].name,
			t->modules[module].options[option - 1]);
}

/* Why rule PR, which names HID++ features, took REQ on DEV. */
static void print_hidpp_match(const struct policy_rule *pr, const struct policy_device *dev,
			      const struct policy_request *req, FILE *f)
{
	/* a copy of the rule held: byte 1 is there, byte 2 unless byte 1
	 * is no device index of a slot */
	uint8_t device = req->data[HIDPP_OFFSET_DEVICE];
	uint8_t index = req->len > HIDPP_OFFSET_FEATURE ? req->data[HIDPP_OFFSET_FEATURE] : 0;
	uint16_t feature = told_feature(dev->hidpp, device, index);

	fprintf(f, ", and it names HID++ feature");
	for (uint8_t i = 0; i < pr->n_hidpp_features; i++)
		fprintf(f, "%s 0x%04X", i ? "," : "", pr->hidpp_features[i]);
	if (hidpp_device_slot(device) < 0)
		fprintf(f, ": device index 0x%02x is no HID++ device's, where it takes every request", device);
	else if (!device_told(dev->hidpp, device))
		fprintf(f, ": device index 0x%02x has not told its features, so it takes every feature index but IRoot's there",
			device);
	else
		fprintf(f, ": the device told 0x%04X is at feature index 0x%02x of device index 0x%02x",
			feature, index, device);
}

/* "1000 (alice)", "\"alice\" (not on this system: assumed)" for a name a
 * dry run assumed (P's), or "1000" when the name is not known or WHO
 * asks for ids alone (no_names: the name service is not asked). */
static const char *id_str(const struct policy *p, const struct policy_subject *who, uint32_t id,
			  bool group, char *buf, size_t size)
{
	const char *assumed = policy_assumed_name(p, id, group), *name = NULL;
	bool ask = !who || !who->no_names;
	char names[4096];

	if (ask && group) {
		struct group gr, *found = NULL;

		if (getgrgid_r((gid_t)id, &gr, names, sizeof(names), &found) == 0 && found)
			name = gr.gr_name;
	} else if (ask) {
		struct passwd pw, *found = NULL;

		if (getpwuid_r((uid_t)id, &pw, names, sizeof(names), &found) == 0 && found)
			name = pw.pw_name;
	}
	if (name)
		snprintf(buf, size, "%u (%s)", id, name);
	else if (assumed)
		snprintf(buf, size, "\"%s\" (not on this system: assumed)", assumed);
	else
		snprintf(buf, size, "%u", id);
	return buf;
}

/* IDS[0..N) as id_str() writes them, "A, B or C"; at most MAX shown. */
static void print_ids(FILE *f, const struct policy *p, const struct policy_subject *who,
		      const uint32_t *ids, size_t n, size_t max, bool group, const char *last_sep)
{
	char buf[128];

	for (size_t i = 0; i < n && i < max; i++)
		fprintf(f, "%s%s", i == 0 ? "" : i + 1 == n ? last_sep : ", ",
			id_str(p, who, ids[i], group, buf, sizeof(buf)));
	if (n > max)
		fprintf(f, " and %zu more", n - max);
}

/* Does a rule of P name executable E? */
static bool policy_names_exe(const struct policy *p, const struct hid_rule_exe *e)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (sender_lists_exe(&p->rules[i].sender, e))
			return true;
	return false;
}

/* The sender's executable: its path and identity, or what a dry run
 * assumed of a path that is not installed here. */
static void print_subject_exe(const struct policy *p, const struct policy_subject *who, FILE *f)
{
	if (who->executable)
		fprintf(f, ", executable %s", who->executable);
	if (policy_exe_is_assumed(&who->exe)) {
		fprintf(f, " (not installed here: assuming it is %s)", policy_names_exe(p, &who->exe) ?
			"the executable the rules name by that path" :
			"the program of that path, which no rule names");
		return;
	}
	fprintf(f, "%s(inode %llu on device %u:%u)", who->executable ? " " : ", executable ",
		(unsigned long long)who->exe.ino, who->exe.dev >> 20, who->exe.dev & 0xfffff);
}

/* What a process sender is told by, beyond its origin. */
#define SUBJECT_PARTS (POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS | POLICY_SUBJECT_EXECUTABLE | \
		       POLICY_SUBJECT_UNIT)

/* " its user, its groups, its executable, its unit" of PARTS (and its
 * origin), the last after LAST. */
static void print_parts(unsigned int parts, const char *last, FILE *f)
{
	static const struct {
		unsigned int part;
		const char *name;
	} names[] = {
		{ POLICY_SUBJECT_USER, "its user" },
		{ POLICY_SUBJECT_GROUPS, "its groups" },
		{ POLICY_SUBJECT_EXECUTABLE, "its executable" },
		{ POLICY_SUBJECT_UNIT, "its unit" },
		{ POLICY_SUBJECT_ORIGIN, "its origin" },
	};
	size_t n = 0, left = 0;

	for (size_t i = 0; i < ELEMENTSOF(names); i++)
		left += !!(parts & names[i].part);
	for (size_t i = 0; i < ELEMENTSOF(names); i++)
		if (parts & names[i].part) {
			fprintf(f, "%s%s", n == 0 ? " " : n + 1 == left ? last : ", ", names[i].name);
			n++;
		}
}

static void print_subject(const struct policy *p, const struct policy_subject *who, FILE *f)
{
	unsigned int given = policy_subject_given(who);

	if (!given)
		return;	/* where it matters, the rules that depend on it say so */
	if (policy_subject_is_driver(who)) {
		fprintf(f, "sender: a driver's own request (origin kernel): no user, group or executable\n");
		return;
	}
	fprintf(f, "sender: a process");
	if (who->pid > 0)
		fprintf(f, " (pid %ld)", who->pid);
	if (given & POLICY_SUBJECT_USER) {
		fprintf(f, ", user ");
		print_ids(f, p, who, &who->uid, 1, 1, false, "");
	}
	if (given & POLICY_SUBJECT_GROUPS) {
		fprintf(f, ", group ");
		print_ids(f, p, who, &who->gid, 1, 1, true, "");
		if (who->n_groups) {
			fprintf(f, ", supplementary groups ");
			print_ids(f, p, who, who->groups, who->n_groups, 8, true, ", ");
		}
	}
	if (given & POLICY_SUBJECT_EXECUTABLE)
		print_subject_exe(p, who, f);
	if ((given & POLICY_SUBJECT_UNIT) && who->unit)
		fprintf(f, ", in unit %s%s", who->unit,
			who->unit_running ? "" : who->dry_run ?
			" (not running here: assuming it is running)" :
			" (not running now: no rule for it applies until it starts)");
	else if (given & POLICY_SUBJECT_UNIT)
		fprintf(f, ", in cgroup %s%s", who->cgroup,
			who->unit_running ? "" : " (gone now: the process has exited)");
	if ((given & SUBJECT_PARTS) != SUBJECT_PARTS) {
		fprintf(f, "; not given:");
		print_parts(~given & SUBJECT_PARTS, ", ", f);
	}
	fprintf(f, "\n");
}

static void print_rule_units(const struct policy *p, const struct hid_rule *r, FILE *f);

/* Is none of the units R names running (then no process is in them)? */
static bool units_all_stopped(const struct hid_rule_sender *s)
{
	for (unsigned i = 0; i < s->n_units && i < HID_SENDER_MAX_IDS; i++)
		if (s->units[i].cgroup_id)
			return false;
	return true;
}

/* Why rule R's sender does not match WHO's request (the rest of R does). */
static const char *sender_mismatch(const struct policy *p, const struct hid_rule *r,
				   const struct policy_request *req,
				   const struct policy_subject *who, char *buf, size_t size)
{
	const struct hid_rule_sender *s = &r->sender;
	unsigned int given = policy_subject_given(who);
	char a[128];
	FILE *f;

	if (req->kind & HID_RULE_KIND_INPUT_EVENT)
		return "input comes from the device and nobody sends it: a rule with a sender never matches input";
	if ((s->fields & HID_SENDER_F_ORIGIN) && s->origin == HID_SENDER_ORIGIN_KERNEL &&
	    policy_subject_is_process(who))
		return "it is for a driver's own requests (origin kernel), and a process sends this one";
	if ((s->fields & HID_SENDER_F_ORIGIN) && s->origin == HID_SENDER_ORIGIN_USER &&
	    policy_subject_is_driver(who))
		return "it is for requests processes send (origin user), and this one is a driver's own";
	if (policy_subject_is_driver(who))
		return "it names a user, group or executable, and a driver's own request has none";
	if ((given & POLICY_SUBJECT_GROUPS) && who->n_groups > HID_SENDER_GROUPS_MAX) {
		snprintf(buf, size, "the sender has %zu supplementary groups, more than a task can have (%d): no process is this one",
			 who->n_groups, HID_SENDER_GROUPS_MAX);
		return buf;
	}
	f = fmemopen(buf, size, "w");
	if (!f)
		return "its sender is not this one";
	if ((s->fields & HID_SENDER_F_USER) && (given & POLICY_SUBJECT_USER) &&
	    !sender_lists_id(s->uids, s->n_uids, who->uid)) {
		fprintf(f, "the sender's user %s is not %s", id_str(p, who, who->uid, false, a, sizeof(a)),
			s->n_uids > 1 ? "one of its users " : "its user ");
		print_ids(f, p, who, s->uids, s->n_uids, HID_SENDER_MAX_IDS, false, " or ");
	} else if ((s->fields & HID_SENDER_F_GROUP) && (given & POLICY_SUBJECT_GROUPS) &&
		   !sender_lists_group(s, who->gid, who->groups, who->n_groups)) {
		fprintf(f, "the sender is not in %s ", s->n_gids > 1 ? "any of its groups" : "its group");
		print_ids(f, p, who, s->gids, s->n_gids, HID_SENDER_MAX_IDS, true, " or ");
		fprintf(f, " (its gid and its %zu supplementary group%s)", who->n_groups,
			who->n_groups == 1 ? "" : "s");
	} else if ((s->fields & HID_SENDER_F_EXECUTABLE) && (given & POLICY_SUBJECT_EXECUTABLE) &&
		   !sender_lists_exe(s, &who->exe)) {
		fprintf(f, "the sender's executable%s%s is not %s the rule names (by device and inode)",
			who->executable ? " " : "", who->executable ?: "",
			s->n_exes > 1 ? "one of the executables" : "the executable");
	} else if ((s->fields & HID_SENDER_F_UNIT) && units_all_stopped(s)) {
		fprintf(f, "%s it names (", s->n_units > 1 ? "none of the units" : "the unit");
		print_rule_units(p, r, f);
		fprintf(f, ") is %srunning now: no process is in %s", s->n_units > 1 ? "" : "not ",
			s->n_units > 1 ? "them" : "it");
	} else if ((s->fields & HID_SENDER_F_UNIT) && (given & POLICY_SUBJECT_UNIT) && who->unit) {
		fprintf(f, "the sender's unit %s is not %s the rule names, nor in %s", who->unit,
			s->n_units > 1 ? "one of the units" : "the unit",
			s->n_units > 1 ? "one of them" : "it");
		if (!who->unit_running && !who->dry_run)
			fprintf(f, " (%s is not running now)", who->unit);
	} else if ((s->fields & HID_SENDER_F_UNIT) && (given & POLICY_SUBJECT_UNIT)) {
		fprintf(f, "the sender's cgroup %s is not in %s the rule names", who->cgroup,
			s->n_units > 1 ? "one of the units" : "the unit");
	} else {
		fprintf(f, "its sender is not this one");
	}
	fclose(f);
	return buf;
}

/* The units rule R's sender names, from the policy's rule (a temporary
 * allow's unit is not in the policy's rules). */
static void print_rule_units(const struct policy *p, const struct hid_rule *r, FILE *f)
{
	const struct policy_rule *pr = r->index < p->n_rules ? &p->rules[r->index] : NULL;

	if (!pr) {
		fprintf(f, "the unit it names");
		return;
	}
	for (unsigned i = 0; i < pr->sender.n_units && i < HID_SENDER_MAX_IDS; i++)
		fprintf(f, "%s%s", i ? " or " : "", p->units[pr->units[i]].name);
}

/* The parts of a sender (POLICY_SUBJECT_*) rule R tests that WHO leaves
 * open: what to name for R to match or not. */
static unsigned int open_parts(const struct hid_rule *r, const struct policy_subject *who)
{
	const struct hid_rule_sender *s = &r->sender;
	unsigned int tested = 0;

	if (s->fields & HID_SENDER_F_USER)
		tested |= POLICY_SUBJECT_USER;
	if (s->fields & HID_SENDER_F_GROUP)
		tested |= POLICY_SUBJECT_GROUPS;
	if (s->fields & HID_SENDER_F_EXECUTABLE)
		tested |= POLICY_SUBJECT_EXECUTABLE;
	if (s->fields & HID_SENDER_F_UNIT)
		tested |= POLICY_SUBJECT_UNIT;
	if (!tested)
		tested = POLICY_SUBJECT_ORIGIN;	/* a rule of origin alone */
	return tested & ~policy_subject_given(who);
}

/* What a sender must be for rule R to match, in what WHO leaves open. */
static void print_sender_condition(const struct policy *p, const struct hid_rule *r,
				   const struct policy_subject *who, FILE *f)
{
	const struct hid_rule_sender *s = &r->sender;
	unsigned int given = policy_subject_given(who);
	const char *sep = "";

	if (!(s->fields & (HID_SENDER_F_USER | HID_SENDER_F_GROUP | HID_SENDER_F_EXECUTABLE |
			   HID_SENDER_F_UNIT))) {
		fprintf(f, "if %s", s->origin == HID_SENDER_ORIGIN_KERNEL ?
			"it is a driver's own request (origin kernel)" :
			"a process sends it (origin user)");
		return;
	}
	fprintf(f, "if a process sends it");
	if ((s->fields & HID_SENDER_F_USER) && !(given & POLICY_SUBJECT_USER)) {
		fprintf(f, " whose user is ");
		print_ids(f, p, who, s->uids, s->n_uids, HID_SENDER_MAX_IDS, false, " or ");
		sep = ",";
	}
	if ((s->fields & HID_SENDER_F_GROUP) && !(given & POLICY_SUBJECT_GROUPS)) {
		fprintf(f, "%s in group ", sep);
		print_ids(f, p, who, s->gids, s->n_gids, HID_SENDER_MAX_IDS, true, " or ");
		sep = ",";
	}
	if ((s->fields & HID_SENDER_F_EXECUTABLE) && !(given & POLICY_SUBJECT_EXECUTABLE)) {
		fprintf(f, "%s running %s", sep, s->n_exes == 1 ? "the executable the rule names" :
			s->n_exes ? "one of the executables the rule names" :
			"an executable the rule names (none is installed: then it matches no process)");
		sep = ",";
	}
	if ((s->fields & HID_SENDER_F_UNIT) && !(given & POLICY_SUBJECT_UNIT)) {
		fprintf(f, "%s in unit ", sep);
		print_rule_units(p, r, f);
	}
}

static void print_sender_match(const struct hid_rule *r, FILE *f)
{
	const struct hid_rule_sender *s = &r->sender;

	if (!s->fields)
		return;
	fprintf(f, ", and its sender (");
	if (s->fields & HID_SENDER_F_ORIGIN)
		fprintf(f, "origin %s%s", s->origin == HID_SENDER_ORIGIN_KERNEL ? "kernel" : "user",
			s->fields & ~HID_SENDER_F_ORIGIN ? ", " : "");
	if (s->fields & HID_SENDER_F_USER)
		fprintf(f, "user%s", s->fields & (HID_SENDER_F_GROUP | HID_SENDER_F_EXECUTABLE |
						  HID_SENDER_F_UNIT) ? ", " : "");
	if (s->fields & HID_SENDER_F_GROUP)
		fprintf(f, "group%s", s->fields & (HID_SENDER_F_EXECUTABLE | HID_SENDER_F_UNIT) ? ", " : "");
	if (s->fields & HID_SENDER_F_EXECUTABLE)
		fprintf(f, "executable%s", s->fields & HID_SENDER_F_UNIT ? ", " : "");
	if (s->fields & HID_SENDER_F_UNIT)
		fprintf(f, "unit");
	fprintf(f, ") matches this one");
}

/* The units DEV's rules name that a dry run assumed to be running, each
 * said once. */
static void print_assumed_units(const struct policy *p, const struct hid_device_rules *rules,
				FILE *f)
{
	bool said[UINT8_MAX + 1] = {};

	for (unsigned i = 0; i < rules->n_rules && i < HID_RULES_MAX_RULES; i++) {
		const struct policy_rule *pr = rules->rules[i].index < p->n_rules ?
					       &p->rules[rules->rules[i].index] : NULL;

		for (unsigned k = 0; pr && k < pr->sender.n_units && k < HID_SENDER_MAX_IDS; k++) {
			const struct policy_unit *u = &p->units[pr->units[k]];

			if (!u->assumed || said[pr->units[k]])
				continue;
			said[pr->units[k]] = true;
			fprintf(f, "note: assuming unit %s is running (it is not here%s)\n", u->name,
				policy_cgroup_root() ? "" : ", where there is no cgroup2 hierarchy");
		}
	}
}

/* Does rule R decide when it matches, or (from an audit-mode rule set on a
 * device where another one enforces) only log? */
static bool decides(const struct hid_device_rules *rules, const struct hid_rule *r)
{
	return !(r->flags & HID_RULE_F_AUDIT) || rules->mode == HID_RULES_MODE_AUDIT;
}

int policy_explain(const struct policy *p, const struct policy_device *dev,
		   const struct policy_request *req, const struct policy_subject *who,
		   FILE *f, struct policy_verdict *v)
{
	_cleanup_free_ struct hid_device_rules *rules = malloc(sizeof(*rules));
	_cleanup_free_ struct hid_device_rules *otherwise = malloc(sizeof(*otherwise));
	enum policy_match_result m[HID_RULES_MAX_RULES];
	const struct policy_ruleset *def = policy_default_set(p, dev), *audit_def = NULL;
	struct policy_request q = *req;
	struct policy_sender_id id;
	char why[512], e[32];
	int r, depends = 0;
	unsigned int open = 0;
	bool unchecked;

	if (!rules || !otherwise)
		return -ENOMEM;
	if (policy_subject_is_driver(who) && policy_subject_is_process(who))
		return -EINVAL;	/* a driver's own request has no user, group or executable */
	fprintf(f, "device: %s %04x:%04x \"%s\"\n",
		policy_bus_name(dev->bus) ?: "bus", dev->vendor, dev->product, dev->name ?: "");
	print_device_class(dev, f);
	fprintf(f, "request: %s, report ID 0x%02x, %zu payload bytes\n",
		policy_kind_name(req->kind), req->report_id, req->len);
	if (req->len && req->data[0] != req->report_id)
		fprintf(f, "note: payload byte 0 is 0x%02x, not the report ID; offsets count from byte 0, which is the report ID on devices with numbered reports\n",
			req->data[0]);
	print_subject(p, who, f);

	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];

		if (!policy_ruleset_matches(set, dev))
			continue;
		if (!audit_def && set->has_default && set->mode == HID_RULES_MODE_AUDIT)
			audit_def = set;
		fprintf(f, "rule set: %s: %s%s%s%s, %s mode, %zu rule%s\n",
			p->files[set->file].name, set->path, set->name ? " (" : "",
			set->name ?: "", set->name ? ")" : "",
			set->mode == HID_RULES_MODE_AUDIT ? "audit" : "enforce", set->n_rules,
			set->n_rules == 1 ? "" : "s");
	}

	print_reports_by_usage(p, dev, f);
	print_hidpp(p, dev, req, f);
	print_nrf(p, dev, req, f);
	r = policy_compile(p, dev, rules, NULL);
	if (r == -ENOENT) {
		fprintf(f, "no rule set matches this device: it is not protected, every request is allowed\n");
		*v = (struct policy_verdict){ .index = HID_RULE_INDEX_DEFAULT, .rule = -1,
					      .action = HID_RULE_ALLOW, .audit_rule = -1 };
		return 0;
	}
	if (r < 0) {
		fprintf(f, "the rules for this device cannot be compiled: more than %d rules apply\n",
			HID_RULES_MAX_RULES);
		return r;
	}

	print_assumed_units(p, rules, f);

	/* The rules that match for some senders WHO stands for and not for
	 * others are left out; the rest match for all of them or for none,
	 * so one sender that fits WHO tells what the firewall does when none
	 * of those matches. */
	memcpy(otherwise, rules, sizeof(*rules));
	for (unsigned i = 0; i < rules->n_rules && i < HID_RULES_MAX_RULES; i++) {
		m[i] = policy_rule_matches_subject(&rules->rules[i], req, who);
		if (m[i] == POLICY_MATCH_DEPENDS)
			otherwise->rules[i].kinds = 0;
	}
	policy_subject_sender(who, &id);
	q.sender = &id;
	policy_evaluate(otherwise, &q, v);
	if (v->index == HID_RULE_INDEX_UNDECLARED) {
		fprintf(f, "decision: deny (EPERM) before any rule: the device's report descriptor declares no %s report with ID 0x%02x; a program's request to a report the device does not declare is refused in every mode, temporary allows included (the report the device would receive is not the one judged, or one no program written for it sends)\n",
			report_type_name(policy_kind_report_type(req->kind)), req->report_id);
		fprintf(f, "result: refused with -EPERM, logged\n");
		return 0;
	}
	if ((rules->flags & HID_RULES_F_COMMANDS_IN_PAYLOAD) && (rules->flags & HID_RULES_F_DECLARED) &&
	    !policy_subject_is_driver(who) &&
	    policy_kind_report_type(req->kind) >= 0 &&
	    !hid_rules_declares(rules, (uint32_t)policy_kind_report_type(req->kind), req->report_id))
		fprintf(f, "note: the descriptor declares no such report, but a rule set of this device says its firmware reads the command from the payload whatever the report type and ID (\"commands_in_payload\"): the rules decide\n");

	for (int i = 0; i < (v->rule < 0 ? (int)rules->n_rules : v->rule); i++) {
		const struct hid_rule *hr = &rules->rules[i];

		if (m[i] == POLICY_MATCH_ALWAYS) {
			/* Only audit-mode rules match before the one that decides. */
			fprintf(f, "  audit: ");
			print_rule_ref(p, hr->index, f);
			fprintf(f, ": matches and would %s; an audit-mode rule set only logs, so evaluation goes on%s\n",
				action_name(hr->action),
				i == v->audit_rule ? "" : " (the first such match is the one logged)");
			continue;
		}
		if (m[i] == POLICY_MATCH_DEPENDS) {
			fprintf(f, "  depends on the sender: ");
			print_rule_ref(p, hr->index, f);
			fprintf(f, ": ");
			print_sender_condition(p, hr, who, f);
			if (decides(rules, hr)) {
				fprintf(f, ", it matches and decides: %s", action_name(hr->action));
				if (hr->action == HID_RULE_DENY)
					fprintf(f, " (%s)", errno_str(hr->err, e, sizeof(e)));
				fprintf(f, "; otherwise evaluation goes on\n");
				depends++;
				open |= open_parts(hr, who);
			} else {
				fprintf(f, ", it matches and would %s; an audit-mode rule set only logs, so evaluation goes on either way\n",
					action_name(hr->action));
			}
			continue;
		}
		if (hr->index < p->n_rules && p->rules[hr->index].n_hidpp_features) {
			const struct hid_rule *held = NULL;
			int last = i;

			/* its copies, one per device index and feature: said
			 * once, with the sender's mismatch where the bytes of
			 * one of them hold */
			bool other_copy = false;

			if (i > 0 && rules->rules[i - 1].index == hr->index && m[i - 1] == POLICY_MATCH_NEVER)
				continue;
			while (last + 1 < (v->rule < 0 ? (int)rules->n_rules : v->rule) &&
			       rules->rules[last + 1].index == hr->index && m[last + 1] == POLICY_MATCH_NEVER)
				last++;
			/* a copy that matches, for some senders or all, is told
			 * on its own line: the others are no news */
			for (unsigned k = 0; k < rules->n_rules && k < HID_RULES_MAX_RULES; k++)
				other_copy |= rules->rules[k].index == hr->index &&
					      policy_rule_matches_subject(&rules->rules[k], req, who) !=
					      POLICY_MATCH_NEVER;
			if (other_copy)
				continue;
			for (int k = i; k <= last && !held; k++)
				if (!mismatch(&rules->rules[k], req, why, sizeof(why)))
					held = &rules->rules[k];
			fprintf(f, "  no match: ");
			print_rule_ref(p, hr->index, f);
			fprintf(f, ": %s\n", held ? sender_mismatch(p, held, req, who, why, sizeof(why)) :
				hidpp_mismatch(&p->rules[hr->index], hr, req, why, sizeof(why)));
			continue;
		}
		fprintf(f, "  no match: ");
		print_rule_ref(p, hr->index, f);
		fprintf(f, ": %s\n", mismatch(hr, req, why, sizeof(why)) ?:
			sender_mismatch(p, hr, req, who, why, sizeof(why)));
	}

	fprintf(f, "decision%s: %s", depends ? " for any other sender" : "", action_name(v->action));
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
		if (pr->n_hidpp_features)
			print_hidpp_match(pr, dev, req, f);
		print_sender_match(&rules->rules[v->rule], f);
		fprintf(f, "\n");
	} else if (def) {
		fprintf(f, " by the default of %s: %s: no rule matches\n",
			p->files[def->file].name, def->path);
		if (audit_def && audit_def != def)
			fprintf(f, "  the default of %s: %s (%s) does not decide: its rule set is in audit mode, and an enforcing rule set's default comes first\n",
				p->files[audit_def->file].name, audit_def->path,
				action_name(audit_def->default_action));
	} else {
		fprintf(f, " by the built-in default: no rule matches and no rule set states a default\n");
	}

	/* the firewall's check of declared reports, which only a device's
	 * descriptor allows (policy_request_undeclared()) */
	unchecked = !(rules->flags & (HID_RULES_F_DECLARED | HID_RULES_F_COMMANDS_IN_PAYLOAD)) &&
		    !policy_subject_is_driver(who) && req->kind != HID_RULE_KIND_INPUT_EVENT;
	if (v->action == HID_RULE_DENY && v->enforced)
		fprintf(f, "result: refused with -%s, logged", errno_str(v->err, e, sizeof(e)));
	else if (v->action == HID_RULE_DENY)
		fprintf(f, "result: allowed because of audit mode; logged as a would-be denial");
	else
		fprintf(f, "result: allowed%s", v->logged ? ", logged" : "");
	if (v->audit_rule >= 0) {
		fprintf(f, "; the audit-mode match of ");
		print_rule_ref(p, v->audit_index, f);
		fprintf(f, " is logged too, as a would-be %s", v->audit_action == HID_RULE_DENY ?
			"denial" : "allow");
	}
	fprintf(f, "\n");
	if (unchecked && !v->enforced && policy_kind_report_type(req->kind) >= 0)
		fprintf(f, "note: the device's report descriptor is not known here (hid-policyd --explain takes it with --descriptor FILE), so whether it declares %s report 0x%02x is not checked; on the device, a program's request to a report the descriptor does not declare is refused with -EPERM before any rule\n",
			report_type_name(policy_kind_report_type(req->kind)), req->report_id);
	if (depends) {
		fprintf(f, "the decision depends on who sends the request: %d rule%s above decide%s for some senders; name", depends,
			depends == 1 ? "" : "s", depends == 1 ? "s" : "");
		print_parts(open, " or ", f);
		fprintf(f, " to know which rule decides\n");
	}
	return depends;
}
