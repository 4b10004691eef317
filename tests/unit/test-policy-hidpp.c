// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules naming HID++ 2.0 features ("hidpp_feature"): what the language
 * takes, how a rule compiles with the feature indexes a device told (one
 * copy per device index and feature, the device index that did not answer
 * refusing every feature but IRoot), and the worst case the capacity check
 * counts, so that no device's answers can overflow its rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy-helpers.h"

#define BOLT USB_DEVICE(0x046d, 0xc548, "Logitech USB Receiver")

/* A deny of the DFU (0x00D0) and RDFU (0x00D1) features' requests. */
static const char dfu_deny[] =
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x046d'}, 'rules': ["
	"{'name': 'no-dfu', 'request': ['output_report', 'set_report'], 'report_type': 'output',"
	" 'report_id': ['0x10', '0x11'], 'hidpp_feature': ['0x00D0', '0x00d1'], 'action': 'deny'}]}]}";

/* Device index 2 has DFU at 0x0e and RDFU at 0x0d; the receiver itself
 * (0xFF) has neither; 1 and 3-6 did not answer. */
static const struct hidpp_features paired_on_2 = {
	.answered = 1u << 0 | 1u << 2,
	.n = 4,
	.entries = {
		{ .device = 0xff, .feature = 0x00d0, .index = 0 },
		{ .device = 0xff, .feature = 0x00d1, .index = 0 },
		{ .device = 0x02, .feature = 0x00d0, .index = 0x0e },
		{ .device = 0x02, .feature = 0x00d1, .index = 0x0d },
	},
};

static struct policy *load_clean(const char *doc)
{
	struct diag d = {};
	struct policy *p = load_text("t.json", doc, &d);

	CHECK(p, "policy rejected: %s", d.n ? d.entries[0].text : "no message");
	CHECK_EQ(d.n, 0);
	diag_done(&d);
	return p;
}

static int decide(const struct hid_device_rules *r, const char *hex)
{
	uint8_t buf[64];
	int n = policy_hex_bytes(hex, buf, sizeof(buf));

	CHECK(n > 0, "bad test bytes %s", hex);
	return eval(r, HID_RULE_KIND_OUTPUT_REPORT, buf[0], buf, (size_t)n).action;
}

static void the_learned_index_is_refused_and_the_other_features_pass(void)
{
	struct policy *p = load_clean(dfu_deny);
	struct policy_device dev = BOLT;
	struct hid_device_rules r;

	dev.hidpp = &paired_on_2;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	/* two keeping IRoot questions with software ID 0 to root; 2
	 * features at device index 2; one copy for each of 1, 3-6; the
	 * receiver has neither feature: none; three for the other indexes */
	CHECK_EQ(r.n_rules, 2 + 2 + 5 + 3);
	for (unsigned i = 0; i < r.n_rules; i++)
		CHECK_EQ(r.rules[i].index, 0);
	/* fwupd's DFU data packet and RDFU start at device index 2 */
	CHECK_EQ(decide(&r, "11 02 0e 17 10 11 12 13"), HID_RULE_DENY);
	CHECK_EQ(decide(&r, "11 02 0d 17 00 00 00 00"), HID_RULE_DENY);
	CHECK_EQ(decide(&r, "10 02 0d 37 00 00 00"), HID_RULE_DENY);
	/* another feature of the same device, and its IRoot */
	CHECK_EQ(decide(&r, "11 02 0a 3b 00 06 40"), HID_RULE_ALLOW);
	CHECK_EQ(decide(&r, "10 02 00 0f 00 d0 00"), HID_RULE_ALLOW);
	/* the receiver answered that it has neither feature */
	CHECK_EQ(decide(&r, "11 ff 0e 17 00 00"), HID_RULE_ALLOW);
	CHECK_EQ(decide(&r, "10 ff 80 00 00 09 00"), HID_RULE_ALLOW);
	/* device index 3 did not answer: everything but IRoot is refused */
	CHECK_EQ(decide(&r, "11 03 0a 3b 00 06 40"), HID_RULE_DENY);
	CHECK_EQ(decide(&r, "10 03 00 0f 00 d0 00"), HID_RULE_ALLOW);
	/* report 0x12 is not the rule's */
	CHECK_EQ(decide(&r, "12 02 0e 17 00 00"), HID_RULE_ALLOW);
	/* a device index that is no slot: taken whole */
	CHECK_EQ(decide(&r, "10 00 00 0f 00 d0 00"), HID_RULE_DENY);
	CHECK_EQ(decide(&r, "11 07 0a 3b 00"), HID_RULE_DENY);
	CHECK_EQ(decide(&r, "11 08 0a 3b 00"), HID_RULE_DENY);
	CHECK_EQ(decide(&r, "11 fe 00 0f 00"), HID_RULE_DENY);
	/* a message too short to hold a feature index */
	CHECK_EQ(decide(&r, "11 02"), HID_RULE_ALLOW);
	policy_free(p);
}

static void without_answers_every_feature_but_iroot_is_taken(void)
{
	struct policy *p = load_clean(dfu_deny);
	struct hidpp_features none = { .answered = 0 };
	struct policy_device dev = BOLT;
	struct hid_device_rules r;

	for (int pass = 0; pass < 2; pass++) {
		dev.hidpp = pass ? &none : NULL;
		CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
		CHECK_EQ(r.n_rules, 2 + 1);
		CHECK_EQ(r.rules[2].n_conds, 1);
		CHECK_EQ(r.rules[2].conds[0].offset, 2);
		CHECK_EQ(r.rules[2].conds[0].flags, HID_RULE_COND_F_NOT);
		CHECK_EQ(decide(&r, "11 02 0e 17 10 11"), HID_RULE_DENY);
		CHECK_EQ(decide(&r, "11 ff 0a 3b 00"), HID_RULE_DENY);
		CHECK_EQ(decide(&r, "10 02 00 0f 00 d0 00"), HID_RULE_ALLOW);
		CHECK_EQ(decide(&r, "10 ff 00 0f 00 d0 00"), HID_RULE_ALLOW);
	}
	policy_free(p);
}

/* A device index whose table lacks a feature the rule names (asked before
 * the policy named it) is not known for that rule. */
static void a_missing_answer_leaves_the_device_index_unknown(void)
{
	struct policy *p = load_clean(dfu_deny);
	struct hidpp_features t = {
		.answered = 1u << 2,
		.n = 1,
		.entries = { { .device = 0x02, .feature = 0x00d0, .index = 0x0e } },
	};
	struct policy_device dev = BOLT;
	struct hid_device_rules r;

	dev.hidpp = &t;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	CHECK_EQ(decide(&r, "11 02 0a 3b 00 06 40"), HID_RULE_DENY);
	CHECK_EQ(decide(&r, "11 02 00 0f 00 d1 00"), HID_RULE_ALLOW);
	policy_free(p);
}

/* The rule's own conditions are kept, and one on byte 1 leaves out the
 * copies for other device indexes. */
static void the_rules_own_conditions_stay_and_narrow_the_device_indexes(void)
{
	struct policy *p = load_clean(
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x046d'}, 'rules': ["
		"{'name': 'rdfu-start-on-ff', 'request': 'output_report', 'report_id': '0x11',"
		" 'hidpp_feature': '0x00D1', 'payload': [{'offset': 1, 'value': '0xff'},"
		" {'offset': 3, 'value': '0x10', 'mask': '0xf0'}], 'action': 'deny'}]}]}");
	struct hidpp_features t = {
		.answered = 0x7f,
		.n = 7,
		.entries = {
			{ .device = 0xff, .feature = 0x00d1, .index = 0x05 },
			{ .device = 0x01, .feature = 0x00d1, .index = 0x05 },
			{ .device = 0x02, .feature = 0x00d1, .index = 0x05 },
			{ .device = 0x03, .feature = 0x00d1, .index = 0x05 },
			{ .device = 0x04, .feature = 0x00d1, .index = 0x05 },
			{ .device = 0x05, .feature = 0x00d1, .index = 0x05 },
			{ .device = 0x06, .feature = 0x00d1, .index = 0x05 },
		},
	};
	struct policy_device dev = BOLT;
	struct hid_device_rules r;

	dev.hidpp = &t;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	/* the two for software ID 0, and 0xFF's copy only */
	CHECK_EQ(r.n_rules, 2 + 1);
	CHECK_EQ(r.rules[2].n_conds, 4);
	CHECK_EQ(decide(&r, "11 ff 05 17 00"), HID_RULE_DENY);
	CHECK_EQ(decide(&r, "11 ff 05 27 00"), HID_RULE_ALLOW);
	CHECK_EQ(decide(&r, "11 ff 04 17 00"), HID_RULE_ALLOW);
	CHECK_EQ(decide(&r, "11 01 05 17 00"), HID_RULE_ALLOW);
	policy_free(p);
}

static void each_feature_a_device_rule_names_is_asked_once(void)
{
	struct policy *p = load_clean(
		"{'version': 1, 'devices': ["
		"{'match': {'bus': 'usb', 'vendor': '0x046d'}, 'rules': ["
		"{'name': 'a', 'request': 'output_report', 'report_id': '0x11', 'hidpp_feature': ['0x00d0', '0x00d1'], 'action': 'deny'},"
		"{'name': 'b', 'request': 'output_report', 'report_id': '0x10', 'hidpp_feature': '0x00d1', 'action': 'deny'}]},"
		"{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc548'}, 'rules': ["
		"{'name': 'c', 'request': 'output_report', 'report_id': '0x11', 'hidpp_feature': ['0x00c2', '0x00d0'], 'action': 'deny'}]},"
		"{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'}, 'rules': ["
		"{'name': 'd', 'request': 'output_report', 'report_id': '0x11', 'hidpp_feature': '0x00c3', 'action': 'deny'}]}]}");
	struct policy_device bolt = BOLT, other = USB_DEVICE(0x1234, 0x5678, "x");
	uint16_t f[4] = {};

	CHECK_EQ(policy_hidpp_features(p, &bolt, f, 4), 3);
	CHECK_EQ(f[0], 0x00d0);
	CHECK_EQ(f[1], 0x00d1);
	CHECK_EQ(f[2], 0x00c2);
	/* room for two: the count says three, two stored */
	memset(f, 0, sizeof(f));
	CHECK_EQ(policy_hidpp_features(p, &bolt, f, 2), 3);
	CHECK_EQ(f[1], 0x00d1);
	CHECK_EQ(f[2], 0);
	CHECK_EQ(policy_hidpp_features(p, &other, f, 4), 0);
	policy_free(p);
}

/* Each rule naming N features counts as 7 N + 5 compiled rules: a rule
 * set that could overflow a device whatever it answers is refused when
 * it is read, never when the device answers. */
static void a_policy_that_can_overflow_on_some_device_is_refused_at_load(void)
{
	/* 3 rules of 2 features: 3 x 19 = 57 */
	static const char fits[] =
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x046d'}, 'rules': ["
		"{'name': 'a', 'request': 'output_report', 'report_id': '0x11', 'hidpp_feature': ['0xd0', '0xd1'], 'action': 'deny'},"
		"{'name': 'b', 'request': 'output_report', 'report_id': '0x10', 'hidpp_feature': ['0xd0', '0xd1'], 'action': 'deny'},"
		"{'name': 'c', 'request': 'output_report', 'report_id': '0x12', 'hidpp_feature': ['0xd0', '0xd1'], 'action': 'deny'}]},"
		"{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc548'}, 'rules': [";
	struct diag d = {};
	char doc[4096];
	struct policy *p;

	/* plus 7 plain rules on the Bolt receiver: 64, the most */
	snprintf(doc, sizeof(doc), "%s", fits);
	for (int i = 0; i < 7; i++)
		snprintf(doc + strlen(doc), sizeof(doc) - strlen(doc),
			 "%s{'name': 'r%d', 'request': 'output_report', 'report_id': %d, 'action': 'deny'}",
			 i ? "," : "", i, 0x20 + i);
	strcat(doc, "]}]}");
	p = load_text("t.json", doc, &d);
	CHECK(p, "64 compiled rules at most were refused: %s", d.n ? d.entries[0].text : "");
	policy_free(p);
	diag_done(&d);

	/* 8: a device 046D:C548 could get 65 */
	d = (struct diag){};
	doc[strlen(doc) - 4] = '\0';
	strcat(doc, ",{'name': 'r7', 'request': 'output_report', 'report_id': '0x40', 'action': 'deny'}]}]}");
	p = load_text("t.json", doc, &d);
	CHECK(!p, "65 compiled rules on one device were accepted");
	CHECK_MESSAGES(&d, "t.json:1:38: devices[0].match: a device usb:046D:C548 would get 65 rules, more than the 64 a device holds, from the matches t.json:1:38: devices[0].match (57 rules), t.json:1:444: devices[1].match (8 rules); narrow them or merge their rule sets' rules");
	diag_done(&d);

	/* one rule set alone: 4 rules of 4 features take 4 x 33 */
	d = (struct diag){};
	p = load_text("t.json",
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x046d'}, 'rules': ["
		"{'name': 'a', 'request': 'output_report', 'report_id': '0x11', 'hidpp_feature': ['0xd0', '0xd1', '0xc1', '0xc2'], 'action': 'deny'},"
		"{'name': 'b', 'request': 'output_report', 'report_id': '0x10', 'hidpp_feature': ['0xd0', '0xd1', '0xc1', '0xc2'], 'action': 'deny'},"
		"{'name': 'c', 'request': 'output_report', 'report_id': '0x12', 'hidpp_feature': ['0xd0', '0xd1', '0xc1', '0xc2'], 'action': 'deny'},"
		"{'name': 'd', 'request': 'set_report', 'report_type': 'output', 'report_id': '0x11', 'hidpp_feature': ['0xd0', '0xd1', '0xc1', '0xc2'], 'action': 'deny'}]}]}",
		&d);
	CHECK(!p, "132 compiled rules were accepted");
	CHECK_MESSAGES(&d, "t.json:1:28: devices[0]: 4 rules can take 132 on a device (a rule naming HID++ features takes one per feature on each of the 7 device indexes, and 5 more), more than the 64 a device can hold");
	diag_done(&d);
}

static void mistakes_are_reported_at_their_place(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p = NULL;
	char *expected[16];
	size_t n = 0;
	static const char *const want[] = {
		"DIR/10-logi.json:4:60: devices[0].rules[0].report_id: a rule naming a HID++ feature names only HID++ reports: 0x10, 0x11 or 0x12 (short, long, very long)",
		"DIR/10-logi.json:5:30: devices[0].rules[1].request: a rule naming a HID++ feature applies to the requests that write HID++ messages: \"request\": [\"output_report\", \"set_report\"] with \"report_type\": \"output\" (a HID++ device has no feature report 0x10-0x12, and a GET_REPORT or input event carries nothing the caller wrote)",
		"DIR/10-logi.json:6:94: devices[0].rules[2].hidpp_feature[1]: 0x0000 is IRoot, at feature index 0 in every device: name it with a payload condition on byte 2 (\"offset\": 2, \"value\": 0)",
		"DIR/10-logi.json:6:97: devices[0].rules[2].hidpp_feature[2]: feature 0x00D0 is named twice",
		"DIR/10-logi.json:7:85: devices[0].rules[3].hidpp_feature: 5 features, more than the 4 a rule names: split the rule",
		"DIR/10-logi.json:8:85: devices[0].rules[4].hidpp_feature: \"D0\" is not a number (a JSON integer, or hex such as \"0x1f\"): a number in a string is hex and starts with \"0x\"; write \"0xD0\"",
		"DIR/10-logi.json:9:79: devices[0].rules[5].payload: needs 7 compiled conditions, more than the 6 a rule naming a HID++ feature has: its compiled copies add the device index and the feature index",
		"DIR/10-logi.json:10:68: devices[0].rules[6].report_usage_page: a rule naming a HID++ feature names its reports by ID: \"report_id\" 0x10, 0x11 or 0x12 (short, long, very long)",
		NULL,
	};

	write_policy(dir, "10-logi.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'bus': 'usb', 'vendor': '0x046d'},\n"
		"   'rules': [\n"
		"    {'name': 'a', 'request': 'output_report', 'report_id': ['0x11', '0x20'], 'hidpp_feature': '0xd0', 'action': 'deny'},\n"
		"    {'name': 'b', 'request': 'set_report', 'report_id': '0x11', 'hidpp_feature': '0xd0', 'action': 'deny'},\n"
		"    {'name': 'c', 'request': 'output_report', 'report_id': '0x11', 'hidpp_feature': ['0xd0', 0, '0x00d0'], 'action': 'deny'},\n"
		"    {'name': 'd', 'request': 'output_report', 'report_id': '0x11', 'hidpp_feature': [1, 2, 3, 4, 5], 'action': 'deny'},\n"
		"    {'name': 'e', 'request': 'output_report', 'report_id': '0x11', 'hidpp_feature': 'D0', 'action': 'deny'},\n"
		"    {'name': 'f', 'request': 'output_report', 'report_id': '0x11', 'payload': [{'offset': 4, 'value': '01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19'}], 'hidpp_feature': '0xd0', 'action': 'deny'},\n"
		"    {'name': 'g', 'request': 'output_report', 'report_id': '0x11', 'report_usage_page': '0xff00', 'hidpp_feature': '0xd0', 'action': 'deny'}\n"
		"  ]}\n"
		"]}\n");
	{
		const char *dirs[] = { dir };

		CHECK(policy_load_dirs(dirs, 1, true, &d, &p) < 0, "accepted");
	}
	for (; want[n]; n++)
		expected[n] = in_dir(dir, want[n] + strlen("DIR/"));
	expected[n] = NULL;
	check_messages(&d, (const char *const *)expected);
	for (size_t i = 0; i < n; i++)
		free(expected[i]);
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

/* The key is new to version 1: a file that names no feature compiles as
 * before, whatever the device told. */
static void a_rule_without_the_key_ignores_the_table(void)
{
	struct policy *p = load_clean(
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x046d'}, 'rules': ["
		"{'name': 'plain', 'request': 'output_report', 'report_id': '0x11',"
		" 'payload': [{'offset': 2, 'value': '0x0e'}], 'action': 'deny'}]}]}");
	struct policy_device dev = BOLT;
	struct hid_device_rules r;

	dev.hidpp = &paired_on_2;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	CHECK_EQ(r.n_rules, 1);
	CHECK_EQ(r.rules[0].n_conds, 1);
	CHECK_EQ(r.rules[0].conds[0].flags, 0);
	policy_free(p);
}

/* hid-policyd --explain: the decision names the index the device told,
 * or says that the device index has not told its features. */
static void explain_names_the_learned_index_or_the_unknown_device_index(void)
{
	struct policy *p = load_clean(dfu_deny);
	struct hidpp_features t = {};
	struct policy_device dev = BOLT;
	struct policy_verdict v;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_OK(policy_hidpp_feature_parse("ff:00d0=0", &t));
	CHECK_OK(policy_hidpp_feature_parse("ff:d1=0", &t));
	CHECK_OK(policy_hidpp_feature_parse("0x02:0x00D0=0x0e", &t));
	CHECK_OK(policy_hidpp_feature_parse("2:00d1=0d", &t));
	CHECK_EQ(policy_hidpp_feature_parse("7:00d1=0d", &t), -EINVAL);
	CHECK_EQ(policy_hidpp_feature_parse("2:0000=01", &t), -EINVAL);
	CHECK_EQ(policy_hidpp_feature_parse("2:00d1", &t), -EINVAL);
	CHECK_EQ(policy_hidpp_feature_parse("2:00d1=100", &t), -EINVAL);
	CHECK_EQ(t.answered, 1u << 0 | 1u << 2);
	CHECK_EQ(t.n, 4);
	dev.hidpp = &t;

	f = open_memstream(&text, &len);
	CHECK_EQ(policy_explain(p, &dev, &(struct policy_request){ .kind = HID_RULE_KIND_OUTPUT_REPORT,
		 .report_id = 0x11, .data = (const uint8_t[]){ 0x11, 0x02, 0x0d, 0x47, 0x00 }, .len = 5 },
		 NULL, f, &v), 0);
	fclose(f);
	CHECK_EQ(v.action, HID_RULE_DENY);
	CHECK(strstr(text, "device index 0x02: 0x00D0 at 0x0e, 0x00D1 at 0x0d"), "%s", text);
	CHECK(strstr(text, "HID++ request: device index 0x02, feature index 0x0d: the device told feature 0x00D1 is at 0x0d"), "%s", text);
	CHECK(strstr(text, "it names HID++ feature 0x00D0, 0x00D1: the device told 0x00D1 is at feature index 0x0d of device index 0x02"), "%s", text);
	free(text);

	f = open_memstream(&text, &len);
	CHECK_EQ(policy_explain(p, &dev, &(struct policy_request){ .kind = HID_RULE_KIND_OUTPUT_REPORT,
		 .report_id = 0x11, .data = (const uint8_t[]){ 0x11, 0x03, 0x0a, 0x3b, 0x00 }, .len = 5 },
		 NULL, f, &v), 0);
	fclose(f);
	CHECK_EQ(v.action, HID_RULE_DENY);
	CHECK(strstr(text, "device index 0x03 has not told its features, so it takes every feature index but IRoot's there"), "%s", text);
	free(text);

	f = open_memstream(&text, &len);
	CHECK_EQ(policy_explain(p, &dev, &(struct policy_request){ .kind = HID_RULE_KIND_OUTPUT_REPORT,
		 .report_id = 0x11, .data = (const uint8_t[]){ 0x11, 0x02, 0x0a, 0x3b, 0x00 }, .len = 5 },
		 NULL, f, &v), 0);
	fclose(f);
	CHECK_EQ(v.action, HID_RULE_ALLOW);
	/* one line for the rule's ten copies */
	CHECK(strstr(text, "no match: rule \"no-dfu\" (t.json: devices[0].rules[0]): it names HID++ feature 0x00D0, 0x00D1, and feature index 0x0a of device index 0x02 is none of them there\n"), "%s", text);
	CHECK(!strstr(strstr(text, "no match") + 1, "no match"), "%s", text);
	free(text);
	policy_free(p);

	/* a copy that matches for some senders is the rule's only line */
	p = load_clean(
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x046d'}, 'rules': ["
		"{'name': 'no-dfu', 'request': 'output_report', 'report_id': '0x11',"
		" 'hidpp_feature': ['0x00D0', '0x00D1'], 'sender': {'origin': 'user'}, 'action': 'deny'}]}]}");
	f = open_memstream(&text, &len);
	CHECK_EQ(policy_explain(p, &dev, &(struct policy_request){ .kind = HID_RULE_KIND_OUTPUT_REPORT,
		 .report_id = 0x11, .data = (const uint8_t[]){ 0x11, 0x02, 0x0d, 0x47, 0x00 }, .len = 5 },
		 NULL, f, &v), 1);
	fclose(f);
	CHECK(strstr(text, "depends on the sender: rule \"no-dfu\""), "%s", text);
	CHECK(!strstr(text, "no match"), "%s", text);
	free(text);
	policy_free(p);
}


/* The daemon asks with software ID 0 and takes answers with it for its
 * own: a deny rule naming features keeps IRoot questions with software ID
 * 0 to root, so that no other process can have its answer taken for one. */
static uint8_t eval_as(const struct hid_device_rules *r, const uint8_t *q, size_t len,
		       const struct policy_sender_id *who)
{
	struct policy_request req = {
		.kind = HID_RULE_KIND_OUTPUT_REPORT, .report_id = q[0], .data = q, .len = len,
		.sender = who,
	};
	struct policy_verdict v;

	policy_evaluate(r, &req, &v);
	return v.action;
}

/* The daemon asks with software ID 0 from its own executable, as root: a
 * HID++ 2.0 question with that ID from anyone else (root in a container
 * runs another file) could pose as the device's answer to it. */
static void questions_with_software_id_0_are_the_daemons_alone(void)
{
	static const struct hid_rule_exe daemon_exe = { .ino = 4242, .dev = 8 << 20 | 1 };
	struct policy *p = load_clean(dfu_deny);
	struct policy_device dev = BOLT;
	struct hid_device_rules r;
	uint8_t q[7] = { 0x10, 0x02, 0x00, 0x00, 0x00, 0xd1, 0x00 };
	const struct policy_sender_id daemon = { .known = true, .uid = 0, .gid = 0,
						 .exe_known = true, .exe_ino = 4242,
						 .exe_dev = 8 << 20 | 1 },
		root = { .known = true, .uid = 0, .gid = 0, .exe_known = true, .exe_ino = 77,
			 .exe_dev = 8 << 20 | 1 },
		user = { .known = true, .uid = 1000, .gid = 1000 },
		kernel = { .from_kernel = true };

	dev.hidpp = &paired_on_2;
	dev.learner_exe = &daemon_exe;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	CHECK_EQ(eval_as(&r, q, sizeof(q), &daemon), HID_RULE_ALLOW);
	CHECK_EQ(eval_as(&r, q, sizeof(q), &root), HID_RULE_DENY);
	CHECK_EQ(eval_as(&r, q, sizeof(q), &user), HID_RULE_DENY);
	/* hid-logitech-dj forwarding a question a paired device's node let
	 * through passes */
	CHECK_EQ(eval_as(&r, q, sizeof(q), &kernel), HID_RULE_ALLOW);
	/* a client's own software ID passes, from anyone */
	q[3] = 0x07;
	CHECK_EQ(eval_as(&r, q, sizeof(q), &user), HID_RULE_ALLOW);
	/* the daemon's ping, and its IFeatureSet questions at another index */
	q[3] = 0x10;
	CHECK_EQ(eval_as(&r, q, sizeof(q), &user), HID_RULE_DENY);
	CHECK_EQ(eval_as(&r, q, sizeof(q), &daemon), HID_RULE_ALLOW);
	q[2] = 0x01;
	CHECK_EQ(eval_as(&r, q, sizeof(q), &user), HID_RULE_DENY);
	/* HID++ 1.0 register requests (sub-ID 0x80-0x83, the register in
	 * byte 3): Solaar's notification flags, register 0x00 */
	q[2] = 0x80;
	q[3] = 0x00;
	CHECK_EQ(eval_as(&r, q, sizeof(q), &user), HID_RULE_ALLOW);
	/* without the daemon's executable known, nobody's pass */
	dev.learner_exe = NULL;
	q[2] = 0x00;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	CHECK_EQ(eval_as(&r, q, sizeof(q), &daemon), HID_RULE_DENY);
	policy_free(p);
}

static const struct test_case tests[] = {
	{ "questions_with_software_id_0_are_the_daemons_alone", questions_with_software_id_0_are_the_daemons_alone },
	{ "the_learned_index_is_refused_and_the_other_features_pass", the_learned_index_is_refused_and_the_other_features_pass },
	{ "without_answers_every_feature_but_iroot_is_taken", without_answers_every_feature_but_iroot_is_taken },
	{ "a_missing_answer_leaves_the_device_index_unknown", a_missing_answer_leaves_the_device_index_unknown },
	{ "the_rules_own_conditions_stay_and_narrow_the_device_indexes", the_rules_own_conditions_stay_and_narrow_the_device_indexes },
	{ "each_feature_a_device_rule_names_is_asked_once", each_feature_a_device_rule_names_is_asked_once },
	{ "a_policy_that_can_overflow_on_some_device_is_refused_at_load", a_policy_that_can_overflow_on_some_device_is_refused_at_load },
	{ "mistakes_are_reported_at_their_place", mistakes_are_reported_at_their_place },
	{ "a_rule_without_the_key_ignores_the_table", a_rule_without_the_key_ignores_the_table },
	{ "explain_names_the_learned_index_or_the_unknown_device_index", explain_names_the_learned_index_or_the_unknown_device_index },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-hidpp", tests, ARRAY_SIZE(tests));
}
