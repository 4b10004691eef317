// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One JSON document into rule sets and rules. Every problem is recorded and
 * parsing goes on, so that one run reports all of them.
 */
#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "policy_internal.h"

static const char *const bus_names[] = {
	"usb", "bluetooth", "i2c", "spi", "virtual", "host", "any", NULL,
};
static const uint16_t bus_numbers[] = {
	BUS_USB, BUS_BLUETOOTH, BUS_I2C, BUS_SPI, BUS_VIRTUAL, BUS_HOST,
};

static const char *const request_names[] = {
	"get_report", "set_report", "output_report", "input_event", "any", NULL,
};
enum { REQ_GET, REQ_SET, REQ_OUTPUT, REQ_INPUT, REQ_ANY };

/* Order matches the GET/SET kind bits of hid_rules.h. */
static const char *const report_type_names[] = {
	"feature", "input", "output", "any", NULL,
};
enum { RTYPE_ANY = 3 };

static const char *const action_names[] = { "allow", "deny", NULL };
static const char *const mode_names[] = { "enforce", "audit", NULL };

const char *policy_bus_name(uint16_t bus)
{
	for (size_t i = 0; i < ELEMENTSOF(bus_numbers); i++)
		if (bus_numbers[i] == bus)
			return bus_names[i];
	return NULL;
}

int policy_bus_from_name(const char *s, uint16_t *ret)
{
	for (size_t i = 0; i < ELEMENTSOF(bus_numbers); i++)
		if (!strcmp(bus_names[i], s)) {
			*ret = bus_numbers[i];
			return 0;
		}
	return -EINVAL;
}

/* Kind bits for request bits (1 << REQ_*) and report-type bits. */
static uint8_t kinds_of(uint32_t requests, uint32_t rtypes)
{
	uint8_t types = rtypes & (1u << RTYPE_ANY) ? 0x7 : (uint8_t)(rtypes & 0x7);
	uint8_t k = 0;

	/* "any" is every request; report_type still narrows GET and SET */
	if (requests & (1u << REQ_ANY))
		requests |= 1u << REQ_GET | 1u << REQ_SET | 1u << REQ_OUTPUT | 1u << REQ_INPUT;
	if (requests & (1u << REQ_GET))
		k |= types;
	if (requests & (1u << REQ_SET))
		k |= (uint8_t)(types << 3);
	if (requests & (1u << REQ_OUTPUT))
		k |= HID_RULE_KIND_OUTPUT_REPORT;
	if (requests & (1u << REQ_INPUT))
		k |= HID_RULE_KIND_INPUT_EVENT;
	return k;
}

int policy_kind_from_names(const char *request, const char *report_type, uint8_t *ret)
{
	int req = -1, rt = -1;

	for (int i = 0; i < REQ_ANY; i++)
		if (!strcmp(request, request_names[i]))
			req = i;
	if (req < 0)
		return -EINVAL;
	if (req == REQ_GET || req == REQ_SET) {
		for (int i = 0; i < RTYPE_ANY; i++)
			if (report_type && !strcmp(report_type, report_type_names[i]))
				rt = i;
		if (rt < 0)
			return -EINVAL;
	} else if (report_type) {
		return -EINVAL;
	}
	*ret = kinds_of(1u << req, rt < 0 ? 0 : 1u << rt);
	return 0;
}

const char *policy_kind_name(uint8_t kind)
{
	switch (kind) {
	case HID_RULE_KIND_GET_FEATURE: return "get_report feature";
	case HID_RULE_KIND_GET_INPUT: return "get_report input";
	case HID_RULE_KIND_GET_OUTPUT: return "get_report output";
	case HID_RULE_KIND_SET_FEATURE: return "set_report feature";
	case HID_RULE_KIND_SET_INPUT: return "set_report input";
	case HID_RULE_KIND_SET_OUTPUT: return "set_report output";
	case HID_RULE_KIND_OUTPUT_REPORT: return "output_report";
	case HID_RULE_KIND_INPUT_EVENT: return "input_event";
	}
	return "?";
}

/* A required key: its value, or NULL after reporting it missing. */
static json_t *required(struct parse_ctx *c, const char *path, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		perr(c, path, "missing required key \"%s\"", key);
	return v;
}

/*
 * Every key of a match is optional (bus, vendor and product default to
 * "any"), but a match states at least one: an empty object would be a
 * device-wide rule set nobody meant.
 */
static int parse_match(struct parse_ctx *c, const char *path, json_t *v,
		       struct policy_match *m)
{
	static const char *const keys[] = {
		"bus", "vendor", "product", "name", "uniq", "phys",
		"usage", "interface", "descriptor_sha256", NULL,
	};
	char sub[POLICY_PATH_MAX];
	uint32_t bus_set = 0;
	json_t *e;
	int r = 0, k;

	m->path = strdup(path);
	if (!m->path)
		return -ENOMEM;
	m->at = parse_pos(c, path);
	m->buses = UINT32_MAX;
	m->vendors.any = m->products.any = true;
	if (pv_expect_object(c, path, v) < 0)
		return -EINVAL;
	if (pv_check_keys(c, path, v, keys) < 0)
		r = -EINVAL;
	if (json_object_size(v) == 0) {
		perr(c, path, "empty match: it would match every device (write {\"bus\": \"any\"} to say so)");
		r = -EINVAL;
	}

	if ((e = json_object_get(v, "bus"))) {
		if (pv_enum_set(c, path_key(sub, sizeof(sub), path, "bus"), e, bus_names, &bus_set) < 0)
			r = -EINVAL;
		m->buses = 0;
		for (size_t i = 0; i < ELEMENTSOF(bus_numbers); i++)
			if (bus_set & (1u << i))
				m->buses |= 1u << bus_numbers[i];
		if (bus_set & (1u << ELEMENTSOF(bus_numbers)))
			m->buses = UINT32_MAX;
	}
	if ((e = json_object_get(v, "vendor")) &&
	    pv_id_set(c, path_key(sub, sizeof(sub), path, "vendor"), e, &m->vendors) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "product")) &&
	    pv_id_set(c, path_key(sub, sizeof(sub), path, "product"), e, &m->products) < 0)
		r = -EINVAL;

	if ((e = json_object_get(v, "name")) &&
	    pv_string(c, path_key(sub, sizeof(sub), path, "name"), e, POLICY_TEXT_MAX, &m->name) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "uniq")) &&
	    pv_string(c, path_key(sub, sizeof(sub), path, "uniq"), e, POLICY_TEXT_MAX, &m->uniq) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "phys")) &&
	    pv_string(c, path_key(sub, sizeof(sub), path, "phys"), e, POLICY_TEXT_MAX, &m->phys) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "usage")) &&
	    (k = pv_usages(c, path_key(sub, sizeof(sub), path, "usage"), e, m)) < 0)
		r = k == -ENOMEM ? k : -EINVAL;
	if ((e = json_object_get(v, "interface")) &&
	    pv_interfaces(c, path_key(sub, sizeof(sub), path, "interface"), e, m) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "descriptor_sha256")) &&
	    (k = pv_hashes(c, path_key(sub, sizeof(sub), path, "descriptor_sha256"), e, m)) < 0)
		r = k == -ENOMEM ? k : -EINVAL;
	return r;
}

/* One payload condition, split into compiled conditions of up to 4 bytes. */
static int parse_condition(struct parse_ctx *c, const char *path, json_t *v,
			   struct policy_rule *rule, size_t *n_conds)
{
	static const char *const keys[] = { "offset", "value", "mask", NULL };
	uint8_t value[POLICY_PAYLOAD_BYTES_MAX], mask[POLICY_PAYLOAD_BYTES_MAX];
	size_t n_value = 0, n_mask = 0;
	char sub[POLICY_PATH_MAX];
	unsigned long offset = 0;
	json_t *e;
	int r = 0;

	if (pv_expect_object(c, path, v) < 0)
		return -EINVAL;
	if (pv_check_keys(c, path, v, keys) < 0)
		r = -EINVAL;
	e = required(c, path, v, "offset");
	if (!e || pv_uint_v1(c, path_key(sub, sizeof(sub), path, "offset"), e,
			     HID_RULES_MAX_PAYLOAD - 1, &offset) < 0)
		r = -EINVAL;
	e = required(c, path, v, "value");
	if (!e || pv_bytes(c, path_key(sub, sizeof(sub), path, "value"), e, value,
			   sizeof(value), &n_value) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "mask"))) {
		if (pv_bytes(c, path_key(sub, sizeof(sub), path, "mask"), e, mask,
			     sizeof(mask), &n_mask) < 0)
			r = -EINVAL;
		else if (n_value && n_mask != n_value) {
			perr(c, sub, "%zu byte%s, but value has %zu", n_mask,
			     n_mask == 1 ? "" : "s", n_value);
			r = -EINVAL;
		}
	} else {
		memset(mask, 0xff, sizeof(mask));
	}
	if (r < 0)
		return r;

	if (offset + n_value > HID_RULES_MAX_PAYLOAD) {
		perr(c, path, "bytes %lu..%lu reach past byte %d, the last a rule can test",
		     offset, offset + n_value - 1, HID_RULES_MAX_PAYLOAD - 1);
		return -ERANGE;
	}
	for (size_t i = 0; i < n_value; i++)
		if (value[i] & ~mask[i]) {
			perr(c, path_key(sub, sizeof(sub), path, "value"),
			     "byte %zu (0x%02x) has bits outside its mask 0x%02x",
			     i, value[i], mask[i]);
			return -EINVAL;
		}

	for (size_t i = 0; i < n_value; i += HID_RULES_COND_BYTES) {
		size_t len = n_value - i < HID_RULES_COND_BYTES ? n_value - i : HID_RULES_COND_BYTES;

		if (*n_conds < HID_RULES_MAX_CONDS) {
			struct hid_rule_cond *hc = &rule->conds[*n_conds];

			*hc = (struct hid_rule_cond){ .offset = (uint16_t)(offset + i), .len = (uint8_t)len };
			memcpy(hc->value, value + i, len);
			memcpy(hc->mask, mask + i, len);
		}
		(*n_conds)++;
	}
	return 0;
}

static int parse_payload(struct parse_ctx *c, const char *path, json_t *v,
			 struct policy_rule *rule)
{
	char sub[POLICY_PATH_MAX], d[64];
	size_t i, n_conds = 0;
	json_t *e;
	int r = 0;

	if (!json_is_array(v)) {
		perr(c, path, "expected an array of conditions, got %s", json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	json_array_foreach(v, i, e)
		if (parse_condition(c, path_index(sub, sizeof(sub), path, i), e, rule, &n_conds) < 0)
			r = -EINVAL;
	if (n_conds > HID_RULES_MAX_CONDS) {
		perr(c, path, "needs %zu compiled conditions (one per %d bytes), more than the %d a rule holds",
		     n_conds, HID_RULES_COND_BYTES, HID_RULES_MAX_CONDS);
		return -E2BIG;
	}
	rule->n_conds = (uint8_t)n_conds;
	return r;
}

/* "feature and output", "feature, input and output": the types of TYPES. */
static const char *report_type_list(uint8_t types, char *buf, size_t size)
{
	static const char *const names[] = { "feature", "input", "output" };
	unsigned n = (unsigned)__builtin_popcount(types & 0x7), k = 0;
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned t = 0; t < 3; t++) {
		if (!(types & (1u << t)) || len >= size)
			continue;
		k++;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					k == 1 ? "" : k == n ? " and " : ", ", names[t]);
	}
	return buf;
}

/*
 * "report_usage_page" and "report_usage": reports named by where the
 * descriptor declares them. The IDs are looked up among the reports of
 * one type, so the rule's requests must all be of one (a feature report
 * and an output report of the page may have different IDs).
 */
static int parse_report_usage(struct parse_ctx *c, const char *path, json_t *v,
			      struct policy_rule *rule)
{
	json_t *page = json_object_get(v, "report_usage_page"), *usage = json_object_get(v, "report_usage");
	char sub[POLICY_PATH_MAX], types[32];
	unsigned long n;
	uint8_t t;
	int r = 0;

	if (usage && !page) {
		perr_key(c, path_key(sub, sizeof(sub), path, "report_usage"),
			 "\"report_usage\" needs \"report_usage_page\": a usage is on a page");
		r = -EINVAL;
	}
	if (!page)
		return r;
	path_key(sub, sizeof(sub), path, "report_usage_page");
	if (pv_uint(c, sub, page, 0xffff, &n) < 0)
		return -EINVAL;
	rule->by_usage = true;
	rule->usage_page = (uint16_t)n;
	t = policy_kinds_report_types(rule->kinds);
	if (t & (t - 1)) {
		perr(c, sub, "names the reports of one report type, and this rule's requests are on %s reports: split it, one rule per report type",
		     report_type_list(t, types, sizeof(types)));
		r = -EINVAL;
	}
	if (usage) {
		if (pv_uint(c, path_key(sub, sizeof(sub), path, "report_usage"), usage, 0xffff, &n) < 0)
			return -EINVAL;
		rule->has_usage = true;
		rule->usage = (uint16_t)n;
	}
	return r;
}

/*
 * "hidpp_feature": the rule matches the requests to HID++ 2.0 features it
 * names, whose indexes each device assigns itself; the compiler adds the
 * device index and the feature index it learned (policy_compile()). So the
 * rule is about HID++ messages only: report IDs 0x10, 0x11, 0x12 and
 * nothing else, sent by writing them (hidraw write, SET_REPORT output). A
 * HID++ device declares these as input and output reports: a SET_REPORT
 * of a feature report 0x10-0x12 is refused before any rule as undeclared,
 * and a GET_REPORT or an input event carries nothing the caller wrote. Its
 * payload conditions leave room for the two the compiler adds.
 */
static int parse_hidpp_feature(struct parse_ctx *c, const char *path, json_t *v,
			       struct policy_rule *rule)
{
	static const uint32_t hidpp_ids = 1u << HIDPP_REPORT_SHORT | 1u << HIDPP_REPORT_LONG |
					  1u << HIDPP_REPORT_VERY_LONG;
	const uint8_t writes = HID_RULE_KIND_OUTPUT_REPORT | HID_RULE_KIND_SET_OUTPUT;
	json_t *e = json_object_get(v, "hidpp_feature");
	char sub[POLICY_PATH_MAX];
	bool other_ids = false;
	int r = 0;

	if (!e)
		return 0;
	path_key(sub, sizeof(sub), path, "hidpp_feature");
	if (pv_hidpp_features(c, sub, e, rule->hidpp_features, &rule->n_hidpp_features) < 0)
		r = -EINVAL;
	if (json_object_get(v, "report_usage_page")) {
		perr_key(c, path_key(sub, sizeof(sub), path, "report_usage_page"),
			 "a rule naming a HID++ feature names its reports by ID: \"report_id\" 0x10, 0x11 or 0x12 (short, long, very long)");
		r = -EINVAL;
	}
	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS; w++)
		other_ids |= rule->report_ids[w] & ~(w == 0 ? hidpp_ids : 0);
	if (other_ids) {
		perr(c, path_key(sub, sizeof(sub), path, "report_id"),
		     "a rule naming a HID++ feature names only HID++ reports: 0x10, 0x11 or 0x12 (short, long, very long)");
		r = -EINVAL;
	}
	if (rule->kinds & ~writes) {
		perr(c, path_key(sub, sizeof(sub), path, "request"),
		     "a rule naming a HID++ feature applies to the requests that write HID++ messages: \"request\": [\"output_report\", \"set_report\"] with \"report_type\": \"output\" (a HID++ device has no feature report 0x10-0x12, and a GET_REPORT or input event carries nothing the caller wrote)");
		r = -EINVAL;
	}
	if (rule->n_conds > POLICY_HIDPP_RULE_CONDS) {
		perr(c, path_key(sub, sizeof(sub), path, "payload"),
		     "needs %u compiled conditions, more than the %d a rule naming a HID++ feature has: its compiled copies add the device index and the feature index",
		     rule->n_conds, POLICY_HIDPP_RULE_CONDS);
		r = -EINVAL;
	}
	return r;
}

#define NRF_WRITES (HID_RULE_KIND_SET_FEATURE | HID_RULE_KIND_SET_OUTPUT | \
		    HID_RULE_KIND_OUTPUT_REPORT)

/* One part of "MODULE/OPTION": 1..NRF_CONFIG_NAME_MAX printable bytes, as
 * the firmware lists them (the listing's answers are the names' bytes). */
static bool name_ok(const char *s, size_t len)
{
	if (len == 0 || len > NRF_CONFIG_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x21 || s[i] > 0x7e || s[i] == '/')
			return false;
	return true;
}

/*
 * "nrf_config_option": a rule about one option of an nRF Desktop device's
 * configuration channel ("dfu/reboot"), whose event ID (byte 2: module
 * index << 4 | option index) each firmware numbers itself
 * (common/nrf_config.h); the compiler adds the recipient and the event ID
 * the device listed (compile_nrf_rule()). So the rule is about the frames
 * a program writes: feature report 0x06 and output report 0x07, by
 * SET_REPORT or a hidraw write.
 */
static int parse_nrf_option(struct parse_ctx *c, const char *path, json_t *v,
			    struct policy_rule *rule)
{
	json_t *e = json_object_get(v, "nrf_config_option");
	char sub[POLICY_PATH_MAX], d[64];
	const char *s, *slash;
	bool other_ids = false;
	int r = 0;

	if (!e)
		return 0;
	path_key(sub, sizeof(sub), path, "nrf_config_option");
	s = json_is_string(e) ? json_string_value(e) : NULL;
	slash = s ? strchr(s, '/') : NULL;
	if (!slash || !name_ok(s, (size_t)(slash - s)) || !name_ok(slash + 1, strlen(slash + 1))) {
		perr(c, sub, "expected \"MODULE/OPTION\" as the device lists them in its configuration channel, each 1-%d printable characters, such as \"dfu/reboot\"; got %s",
		     NRF_CONFIG_NAME_MAX, json_describe(e, d, sizeof(d)));
		r = -EINVAL;
	} else {
		memcpy(rule->nrf_module, s, (size_t)(slash - s));
		rule->nrf_module[slash - s] = '\0';
		snprintf(rule->nrf_option, sizeof(rule->nrf_option), "%s", slash + 1);
	}
	if (json_object_get(v, "hidpp_feature")) {
		perr_key(c, sub, "a rule names a HID++ feature or an nRF Desktop configuration option, not both");
		r = -EINVAL;
	}
	if (json_object_get(v, "report_usage_page")) {
		perr_key(c, path_key(sub, sizeof(sub), path, "report_usage_page"),
			 "a rule naming an nRF Desktop configuration option names its reports by ID: \"report_id\" 0x06 (feature) or 0x07 (output)");
		r = -EINVAL;
	}
	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS; w++)
		other_ids |= rule->report_ids[w] &
			     ~(w == 0 ? 1u << NRF_CONFIG_REPORT_FEATURE | 1u << NRF_CONFIG_REPORT_OUTPUT : 0);
	if (other_ids) {
		perr(c, path_key(sub, sizeof(sub), path, "report_id"),
		     "a rule naming an nRF Desktop configuration option names only the configuration channel's reports: 0x06 (feature) and 0x07 (output)");
		r = -EINVAL;
	}
	if (rule->kinds & ~NRF_WRITES) {
		perr(c, path_key(sub, sizeof(sub), path, "request"),
		     "a rule naming an nRF Desktop configuration option applies to the requests that write a configuration frame: \"set_report\" of feature report 0x06, \"output_report\" and \"set_report\" of output report 0x07 (a GET_REPORT or an input event carries nothing the caller wrote)");
		r = -EINVAL;
	}
	if (rule->n_conds > POLICY_NRF_RULE_CONDS) {
		perr(c, path_key(sub, sizeof(sub), path, "payload"),
		     "needs %u compiled conditions, more than the %d a rule naming an nRF Desktop configuration option has: its compiled copies add the recipient and the event ID",
		     rule->n_conds, POLICY_NRF_RULE_CONDS);
		r = -EINVAL;
	}
	return r;
}

static int parse_rule(struct parse_ctx *c, const char *path, json_t *v,
		      struct policy_rule *rule)
{
	static const char *const keys[] = {
		"name", "description", "request", "report_type", "report_id",
		"report_usage_page", "report_usage", "hidpp_feature", "nrf_config_option",
		"payload", "action", "errno", "log", "sender", NULL,
	};
	uint32_t requests = 0, rtypes = 1u << RTYPE_ANY;
	char sub[POLICY_PATH_MAX], d[64];
	int action = -1;
	json_t *e;
	int r = 0;

	rule->path = strdup(path);
	if (!rule->path)
		return -ENOMEM;
	rule->at = parse_pos(c, path);
	if (pv_expect_object(c, path, v) < 0)
		return -EINVAL;
	if (pv_check_keys(c, path, v, keys) < 0)
		r = -EINVAL;

	e = required(c, path, v, "name");
	if (!e || pv_name(c, path_key(sub, sizeof(sub), path, "name"), e, &rule->name) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "description")) &&
	    pv_string(c, path_key(sub, sizeof(sub), path, "description"), e,
		      POLICY_TEXT_MAX, &rule->description) < 0)
		r = -EINVAL;

	e = required(c, path, v, "request");
	if (!e || pv_enum_set(c, path_key(sub, sizeof(sub), path, "request"), e,
			      request_names, &requests) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "report_type"))) {
		if (pv_enum_set(c, path_key(sub, sizeof(sub), path, "report_type"), e,
				report_type_names, &rtypes) < 0)
			r = -EINVAL;
		else if (requests && !(requests & (1u << REQ_GET | 1u << REQ_SET | 1u << REQ_ANY))) {
			perr(c, sub, "applies only to get_report and set_report requests");
			r = -EINVAL;
		}
	}
	rule->kinds = kinds_of(requests, rtypes);
	rule->names_input_event = requests & (1u << REQ_INPUT);

	if (parse_report_usage(c, path, v, rule) < 0)
		r = -EINVAL;
	e = json_object_get(v, "report_id");
	if (e && pv_report_ids(c, path_key(sub, sizeof(sub), path, "report_id"), e,
			       rule->report_ids) < 0) {
		r = -EINVAL;
	} else if (!e && !rule->by_usage && !json_object_get(v, "report_usage_page")) {
		perr(c, path, "missing required key \"report_id\" (or \"report_usage_page\")");
		r = -EINVAL;
	}
	if ((e = json_object_get(v, "payload")) &&
	    parse_payload(c, path_key(sub, sizeof(sub), path, "payload"), e, rule) < 0)
		r = -EINVAL;
	/* A GET_REPORT's buffer is what the device is to fill (upstream does
	 * not even zero it): conditions on it mean nothing. */
	if (e && rule->kinds && !(rule->kinds & ~HID_RULE_KIND_GET_ANY)) {
		perr(c, sub, "get_report rules match by report ID only: a GET_REPORT's buffer is not the caller's");
		r = -EINVAL;
	}
	if (parse_hidpp_feature(c, path, v, rule) < 0)
		r = -EINVAL;
	if (parse_nrf_option(c, path, v, rule) < 0)
		r = -EINVAL;

	e = required(c, path, v, "action");
	if (!e || pv_enum(c, path_key(sub, sizeof(sub), path, "action"), e, action_names, &action) < 0)
		r = -EINVAL;
	rule->action = action == HID_RULE_DENY ? HID_RULE_DENY : HID_RULE_ALLOW;
	rule->err = EPERM;
	if ((e = json_object_get(v, "errno"))) {
		path_key(sub, sizeof(sub), path, "errno");
		if (action == HID_RULE_ALLOW) {
			perr(c, sub, "applies only to \"deny\" rules");
			r = -EINVAL;
		} else if (pv_errno(c, sub, e, &rule->err) < 0) {
			r = -EINVAL;
		}
	}
	if ((e = json_object_get(v, "sender"))) {
		path_key(sub, sizeof(sub), path, "sender");
		if (pv_sender(c, sub, e, rule) < 0) {
			r = -EINVAL;
		} else if (requests & (1u << REQ_INPUT) && !(requests & (1u << REQ_ANY))) {
			perr(c, sub, "input events come from the device: no one sends them");
			r = -EINVAL;
		} else {
			/* "any" request of a sender: every request it can send */
			rule->kinds &= (uint8_t)~HID_RULE_KIND_INPUT_EVENT;
		}
	}
	if ((e = json_object_get(v, "log"))) {
		path_key(sub, sizeof(sub), path, "log");
		if (!json_is_boolean(e)) {
			perr(c, sub, "expected true or false, got %s", json_describe(e, d, sizeof(d)));
			r = -EINVAL;
		} else if (action == HID_RULE_DENY) {
			perr(c, sub, "denials are always logged: \"log\" applies only to \"allow\" rules");
			r = -EINVAL;
		} else {
			rule->log = json_is_true(e);
		}
	}
	return r;
}

static int parse_matches(struct parse_ctx *c, const char *path, json_t *v,
			 struct policy_ruleset *s)
{
	char sub[POLICY_PATH_MAX];
	size_t i, n = json_is_array(v) ? json_array_size(v) : 1;
	json_t *e;
	int r = 0;

	if (json_is_array(v) && n == 0) {
		perr(c, path, "empty list: it would match no device (write {\"bus\": \"any\", \"vendor\": \"any\", \"product\": \"any\"} to match all)");
		return -EINVAL;
	}
	s->matches = calloc(n, sizeof(*s->matches));
	if (!s->matches)
		return -ENOMEM;
	if (!json_is_array(v)) {
		s->n_matches = 1;
		return parse_match(c, path, v, &s->matches[0]);
	}
	json_array_foreach(v, i, e) {
		s->n_matches++;
		if (parse_match(c, path_index(sub, sizeof(sub), path, i), e, &s->matches[i]) < 0)
			r = -EINVAL;
	}
	return r;
}

static int parse_ruleset(struct parse_ctx *c, const char *path, json_t *v, size_t set_idx)
{
	static const char *const keys[] = {
		"name", "description", "match", "mode", "default",
		"default_errno", "commands_in_payload", "rules", NULL,
	};
	struct policy_ruleset *s = &c->p->sets[set_idx];
	char sub[POLICY_PATH_MAX], d[64];
	int mode = 0, def = -1;
	size_t i;
	json_t *e, *rules;
	int r = 0, k;

	s->path = strdup(path);
	if (!s->path)
		return -ENOMEM;
	s->file = c->file_idx;
	s->at = parse_pos(c, path);
	s->first_rule = c->p->n_rules;
	s->default_err = EPERM;
	if (pv_expect_object(c, path, v) < 0)
		return -EINVAL;
	if (pv_check_keys(c, path, v, keys) < 0)
		r = -EINVAL;

	if ((e = json_object_get(v, "name")) &&
	    pv_name(c, path_key(sub, sizeof(sub), path, "name"), e, &s->name) < 0)
		r = -EINVAL;
	if ((e = json_object_get(v, "description")) &&
	    pv_string(c, path_key(sub, sizeof(sub), path, "description"), e,
		      POLICY_TEXT_MAX, &s->description) < 0)
		r = -EINVAL;
	e = required(c, path, v, "match");
	if (e && (k = parse_matches(c, path_key(sub, sizeof(sub), path, "match"), e, s)) < 0)
		r = k == -ENOMEM ? k : -EINVAL;
	else if (!e)
		r = -EINVAL;
	if ((e = json_object_get(v, "mode")) &&
	    pv_enum(c, path_key(sub, sizeof(sub), path, "mode"), e, mode_names, &mode) < 0)
		r = -EINVAL;
	s->mode = mode == 1 ? HID_RULES_MODE_AUDIT : HID_RULES_MODE_ENFORCE;
	if ((e = json_object_get(v, "default"))) {
		s->default_at = parse_pos(c, path_key(sub, sizeof(sub), path, "default"));
		if (pv_enum(c, path_key(sub, sizeof(sub), path, "default"), e, action_names, &def) < 0) {
			r = -EINVAL;
		} else {
			s->has_default = true;
			s->default_action = def == 1 ? HID_RULE_DENY : HID_RULE_ALLOW;
		}
	}
	if ((e = json_object_get(v, "commands_in_payload"))) {
		path_key(sub, sizeof(sub), path, "commands_in_payload");
		if (!json_is_boolean(e)) {
			perr(c, sub, "expected true or false (whether the devices' firmware reads a command from the payload whatever the report type and ID), got %s",
			     json_describe(e, d, sizeof(d)));
			r = -EINVAL;
		} else {
			s->commands_in_payload = json_is_true(e);
		}
	}
	if ((e = json_object_get(v, "default_errno"))) {
		path_key(sub, sizeof(sub), path, "default_errno");
		if (def == 0 || !json_object_get(v, "default")) {
			perr(c, sub, "applies only with \"default\": \"deny\"");
			r = -EINVAL;
		} else if (def == 1 && pv_errno(c, sub, e, &s->default_err) < 0) {
			r = -EINVAL;
		}
	}

	rules = required(c, path, v, "rules");
	if (!rules)
		return -EINVAL;
	path_key(sub, sizeof(sub), path, "rules");
	if (!json_is_array(rules)) {
		perr(c, sub, "expected an array of rules, got %s", json_describe(rules, d, sizeof(d)));
		return -EINVAL;
	}
	json_array_foreach(rules, i, e) {
		char rpath[POLICY_PATH_MAX];
		struct policy_rule *rule;

		if (GROW(c->p->rules, c->p->n_rules, c->p->cap_rules) < 0)
			return -ENOMEM;
		rule = &c->p->rules[c->p->n_rules++];
		*rule = (struct policy_rule){ .set = set_idx };
		/* the sets array does not move while rules grow */
		c->p->sets[set_idx].n_rules++;
		k = parse_rule(c, path_index(rpath, sizeof(rpath), sub, i), e, rule);
		if (k == -ENOMEM)
			return k;
		if (k < 0) {
			rule->invalid = true;
			r = -EINVAL;
		}
	}
	return r;
}

static int parse_document(struct parse_ctx *c, json_t *root)
{
	static const char *const keys[] = { "version", "description", "devices", NULL };
	struct policy_file *f = &c->p->files[c->file_idx];
	char sub[POLICY_PATH_MAX], d[64];
	json_t *e, *devices;
	size_t i;
	int r = 0, k;

	if (!json_is_object(root)) {
		perr(c, "", "expected an object with \"version\" and \"devices\", got %s",
		     json_describe(root, d, sizeof(d)));
		return -EINVAL;
	}
	if (pv_check_keys(c, "", root, keys) < 0)
		r = -EINVAL;
	e = required(c, "", root, "version");
	if (!e) {
		r = -EINVAL;
	} else if (json_is_string(e) && !strcmp(json_string_value(e), "1")) {
		perr(c, "version", "a number: write 1, not \"1\"");
		r = -EINVAL;
	} else if (!json_is_integer(e)) {
		perr(c, "version", "expected the format version, the number %d, got %s",
		     POLICY_FORMAT_VERSION, json_describe(e, d, sizeof(d)));
		r = -EINVAL;
	} else if (json_integer_value(e) != POLICY_FORMAT_VERSION) {
		perr(c, "version", "format version %s is not supported: this hid-policyd reads version %d",
		     json_describe(e, d, sizeof(d)), POLICY_FORMAT_VERSION);
		r = -EINVAL;
	} else {
		c->version = (int)json_integer_value(e);
	}
	if ((e = json_object_get(root, "description")) &&
	    pv_string(c, "description", e, POLICY_TEXT_MAX, &f->description) < 0)
		r = -EINVAL;

	devices = required(c, "", root, "devices");
	if (!devices)
		return -EINVAL;
	if (!json_is_array(devices)) {
		perr(c, "devices", "expected an array of rule sets, got %s",
		     json_describe(devices, d, sizeof(d)));
		return -EINVAL;
	}
	json_array_foreach(devices, i, e) {
		if (GROW(c->p->sets, c->p->n_sets, c->p->cap_sets) < 0)
			return -ENOMEM;
		c->p->sets[c->p->n_sets] = (struct policy_ruleset){};
		k = parse_ruleset(c, path_index(sub, sizeof(sub), "devices", i), e, c->p->n_sets++);
		if (k == -ENOMEM)
			return k;
		if (k < 0)
			r = -EINVAL;
	}
	return r;
}

/* The line and column (from 1, in characters) of byte OFF of BUF. */
static void line_column(const char *buf, size_t off, int *line, int *column)
{
	*line = 1;
	*column = 1;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*column = 1;
		} else if (((unsigned char)buf[i] & 0xc0) != 0x80) {
			(*column)++;	/* a UTF-8 continuation byte is no new character */
		}
	}
}

/*
 * A JSON syntax error, and what it means: nothing after it is read, so the
 * file's other mistakes show once it is fixed. A comma right before a ']'
 * or '}' (JSON allows none there) is named at the comma.
 */
static void syntax_error(struct diag *diag, const char *file, const char *buf, size_t len,
			 const json_error_t *error)
{
	static const char *const rest = "nothing after a syntax error is read: the file's other mistakes show once it is fixed";
	size_t at = error->position > 0 ? (size_t)error->position : 0, k;
	char text[JSON_ERROR_TEXT_LENGTH + 200];
	int line, column;

	/* jansson's position is just past the token it could not take */
	k = at > len ? len : at;
	while (k > 0 && strchr(" \t\r\n", buf[k - 1]))
		k--;
	if (k > 0 && (buf[k - 1] == ']' || buf[k - 1] == '}')) {
		size_t close = k - 1, comma = close;

		while (comma > 0 && strchr(" \t\r\n", buf[comma - 1]))
			comma--;
		if (comma > 0 && buf[comma - 1] == ',') {
			line_column(buf, comma - 1, &line, &column);
			snprintf(text, sizeof(text), "a comma before '%c' (JSON allows no comma after the last item of a list or object: remove it); %s",
				 buf[close], rest);
			diag_syntax(diag, file, line, column, text);
			return;
		}
	}
	snprintf(text, sizeof(text), "%s; %s", error->text, rest);
	diag_syntax(diag, file, error->line, error->column, text);
}

int policy_parse_buffer(struct policy *p, const char *name, const char *path,
			const char *buf, size_t len, struct diag *diag)
{
	struct parse_ctx c = { .p = p, .diag = diag, .file = path ?: name, .file_idx = p->n_files };
	struct pos_map *pos = NULL;
	json_error_t error;
	json_t *root;
	int r;

	if (GROW(p->files, p->n_files, p->cap_files) < 0)
		return -ENOMEM;
	p->files[p->n_files] = (struct policy_file){
		.name = strdup(name),
		.path = strdup(path ?: name),
		.text = malloc(len + 1),
		.len = len,
	};
	p->n_files++;
	if (!p->files[c.file_idx].name || !p->files[c.file_idx].path || !p->files[c.file_idx].text)
		return -ENOMEM;
	memcpy(p->files[c.file_idx].text, buf, len);
	p->files[c.file_idx].text[len] = '\0';
	c.file = p->files[c.file_idx].path;

	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &error);
	if (!root) {
		syntax_error(diag, c.file, buf, len, &error);
		return -EINVAL;
	}
	r = pos_map_build(buf, len, &pos);
	if (r < 0) {
		json_decref(root);
		return r;
	}
	c.pos = pos;
	r = parse_document(&c, root);
	pos_map_free(pos);
	json_decref(root);
	return r;
}
