// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Semantics of compiled rules: first match wins, file order, /etc over
 * /usr/share, audit mode, payload conditions, device matching, limits.
 */
#include <errno.h>
#include <string.h>
#include <linux/input.h>

#include "policy-helpers.h"

#define DUALSENSE USB_DEVICE(0x054c, 0x0ce6, "Sony Interactive Entertainment DualSense Wireless Controller")

static const uint8_t fw_start[] = { 0xf4, 0x00, 0x01 };

/* Load DOC (one file), compile it for DEV into *out; the policy must be clean. */
static void compile_text(const char *doc, const struct policy_device *dev,
			 struct hid_device_rules *out)
{
	struct diag d = {};
	struct policy *p = load_text("t.json", doc, &d);

	CHECK(p, "policy rejected");
	CHECK_EQ(d.n, 0);
	CHECK_EQ(policy_compile(p, dev, out, &d), 0);
	policy_free(p);
	diag_done(&d);
}

static void first_matching_rule_wins(void)
{
	struct hid_device_rules r;
	struct policy_verdict v;

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': ["
		     "{'name': 'allow-f4-verify', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf4',"
		     " 'payload': [{'offset': 1, 'value': 2}], 'action': 'allow', 'log': true},"
		     "{'name': 'deny-f4', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf4', 'action': 'deny'}]}]}",
		     &DUALSENSE, &r);
	CHECK_EQ(r.n_rules, 2);

	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf4, (const uint8_t[]){ 0xf4, 0x02 }, 2);
	CHECK_EQ(v.rule, 0);
	CHECK_EQ(v.action, HID_RULE_ALLOW);
	CHECK(v.logged && !v.enforced, "logged allow expected");

	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf4, fw_start, sizeof(fw_start));
	CHECK_EQ(v.rule, 1);
	CHECK_EQ(v.action, HID_RULE_DENY);
	CHECK_EQ(v.err, EPERM);
	CHECK(v.enforced && v.logged, "enforced, logged deny expected");
}

static void request_kind_and_report_type_are_distinguished(void)
{
	struct hid_device_rules r;

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': ["
		     "{'name': 'deny-set-f4', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf4', 'action': 'deny'}]}]}",
		     &DUALSENSE, &r);
	CHECK_EQ(r.rules[0].kinds, HID_RULE_KIND_SET_FEATURE);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf4, fw_start, 3).action, HID_RULE_DENY);
	CHECK_EQ(eval(&r, HID_RULE_KIND_GET_FEATURE, 0xf4, fw_start, 3).action, HID_RULE_ALLOW);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_OUTPUT, 0xf4, fw_start, 3).action, HID_RULE_ALLOW);
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0xf4, fw_start, 3).action, HID_RULE_ALLOW);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf5, fw_start, 3).action, HID_RULE_ALLOW);
}

static void report_type_narrows_only_get_and_set_of_any_request(void)
{
	struct hid_device_rules r;

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': ["
		     "{'name': 'any-feature', 'request': ['any', 'input_event'], 'report_type': 'feature', 'report_id': 'any', 'action': 'deny'},"
		     "{'name': 'get-set-any', 'request': ['get_report', 'set_report'], 'report_id': 'any', 'action': 'deny'}]}]}",
		     &DUALSENSE, &r);
	CHECK_EQ(r.rules[0].kinds, HID_RULE_KIND_GET_FEATURE | HID_RULE_KIND_SET_FEATURE |
				   HID_RULE_KIND_OUTPUT_REPORT | HID_RULE_KIND_INPUT_EVENT);
	CHECK_EQ(r.rules[1].kinds, 0x3f);
}

static void request_kind_bits_follow_the_kernel_values(void)
{
	CHECK_EQ(hid_rules_request_kind(HID_RULES_REQ_GET_REPORT, HID_RULES_RTYPE_FEATURE), HID_RULE_KIND_GET_FEATURE);
	CHECK_EQ(hid_rules_request_kind(HID_RULES_REQ_GET_REPORT, HID_RULES_RTYPE_INPUT), HID_RULE_KIND_GET_INPUT);
	CHECK_EQ(hid_rules_request_kind(HID_RULES_REQ_GET_REPORT, HID_RULES_RTYPE_OUTPUT), HID_RULE_KIND_GET_OUTPUT);
	CHECK_EQ(hid_rules_request_kind(HID_RULES_REQ_SET_REPORT, HID_RULES_RTYPE_FEATURE), HID_RULE_KIND_SET_FEATURE);
	CHECK_EQ(hid_rules_request_kind(HID_RULES_REQ_SET_REPORT, HID_RULES_RTYPE_INPUT), HID_RULE_KIND_SET_INPUT);
	CHECK_EQ(hid_rules_request_kind(HID_RULES_REQ_SET_REPORT, HID_RULES_RTYPE_OUTPUT), HID_RULE_KIND_SET_OUTPUT);
	CHECK_EQ(hid_rules_request_kind(0x02 /* GET_IDLE */, HID_RULES_RTYPE_FEATURE), 0);
	CHECK_EQ(hid_rules_request_kind(HID_RULES_REQ_SET_REPORT, 3), 0);
}

static void report_id_lists_and_ranges_compile_to_the_bitmap(void)
{
	struct hid_device_rules r;

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': ["
		     "{'name': 'ids', 'request': 'input_event', 'report_id': [0, '0x10-0x12', 255], 'action': 'deny'}]}]}",
		     &DUALSENSE, &r);
	for (unsigned id = 0; id < 256; id++) {
		bool want = id == 0 || (id >= 0x10 && id <= 0x12) || id == 255;

		CHECK_EQ(hid_rule_has_report_id(&r.rules[0], (uint8_t)id), want);
	}
	CHECK_EQ(r.rules[0].report_ids[0], 0x00070001);
	CHECK_EQ(r.rules[0].report_ids[7], 0x80000000u);
}

static void payload_conditions_filter_by_command_byte(void)
{
	/* Steam Deck: SET feature 0x00, byte 1 selects the command */
	struct policy_device deck = USB_DEVICE(0x28de, 0x1205, "Valve Software Steam Deck Controller");
	struct hid_device_rules r;

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x28de', 'product': '0x1205'}, 'rules': ["
		     "{'name': 'deck-no-isp', 'request': 'set_report', 'report_type': 'feature', 'report_id': 0,"
		     " 'payload': [{'offset': 1, 'value': '0x90'}, {'offset': 2, 'value': 4}], 'action': 'deny', 'errno': 'EACCES'},"
		     "{'name': 'deck-no-update', 'request': 'set_report', 'report_type': 'feature', 'report_id': 0,"
		     " 'payload': [{'offset': 1, 'value': '0x90', 'mask': '0xf0'}], 'action': 'deny'}]}]}",
		     &deck, &r);
	CHECK_EQ(r.rules[0].n_conds, 2);

	struct policy_verdict v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0, (const uint8_t[]){ 0, 0x90, 0x04 }, 3);
	CHECK_EQ(v.rule, 0);
	CHECK_EQ(v.err, EACCES);
	/* byte 2 differs: the first rule fails, the masked second one matches 0x9x */
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0, (const uint8_t[]){ 0, 0x90, 0x05 }, 3).rule, 1);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0, (const uint8_t[]){ 0, 0x93, 0x00 }, 3).rule, 1);
	/* other command bytes pass */
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0, (const uint8_t[]){ 0, 0x83, 0x04 }, 3).action, HID_RULE_ALLOW);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0, (const uint8_t[]){ 0, 0xa0, 0x04 }, 3).rule, -1);
}

static void short_payload_does_not_match_a_condition_past_its_end(void)
{
	struct hid_device_rules r;

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': ["
		     "{'name': 'byte5', 'request': 'output_report', 'report_id': 'any', 'payload': [{'offset': 5, 'value': 0}],"
		     " 'action': 'deny'}]}]}", &DUALSENSE, &r);
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 1, (const uint8_t[]){ 1, 0, 0, 0, 0 }, 5).rule, -1);
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 1, (const uint8_t[]){ 1, 0, 0, 0, 0, 0 }, 6).rule, 0);
}

static void long_payload_values_are_split_into_four_byte_conditions(void)
{
	/* Logitech Unifying: OUTPUT 0x10 with bytes 1-6 = FF 80 F0 49 43 50 enters DFU */
	struct policy_device unifying = USB_DEVICE(0x046d, 0xc52b, "Logitech USB Receiver");
	const uint8_t icp[] = { 0x10, 0xff, 0x80, 0xf0, 0x49, 0x43, 0x50 };
	uint8_t other[sizeof(icp)];
	struct hid_device_rules r;

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'}, 'rules': ["
		     "{'name': 'unifying-no-dfu', 'request': 'output_report', 'report_id': '0x10',"
		     " 'payload': [{'offset': 1, 'value': 'ff 80 f0 49 43 50'}], 'action': 'deny'}]}]}",
		     &unifying, &r);
	CHECK_EQ(r.rules[0].n_conds, 2);
	CHECK_EQ(r.rules[0].conds[0].offset, 1);
	CHECK_EQ(r.rules[0].conds[0].len, 4);
	CHECK_EQ(r.rules[0].conds[1].offset, 5);
	CHECK_EQ(r.rules[0].conds[1].len, 2);
	CHECK_EQ(r.rules[0].conds[1].value[1], 0x50);
	CHECK_EQ(r.rules[0].conds[1].mask[2], 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x10, icp, sizeof(icp)).action, HID_RULE_DENY);
	for (size_t i = 1; i < sizeof(icp); i++) {
		memcpy(other, icp, sizeof(icp));
		other[i] ^= 1;
		CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x10, other, sizeof(other)).action, HID_RULE_ALLOW);
	}
}

/* A NOT condition (HID_RULE_COND_F_NOT), which the compiler writes for a
 * rule naming a HID++ feature: the masked bytes must be present and not
 * all equal to the value. */
static void a_not_condition_holds_when_a_byte_differs_and_the_bytes_are_there(void)
{
	struct hid_device_rules r = {
		.n_rules = 1,
		.default_action = HID_RULE_ALLOW,
		.rules[0] = {
			.kinds = HID_RULE_KIND_OUTPUT_REPORT,
			.action = HID_RULE_DENY,
			.err = EPERM,
			.n_conds = 1,
			.conds[0] = { .offset = 2, .len = 2, .flags = HID_RULE_COND_F_NOT,
				      .value = { 0x00, 0x10 }, .mask = { 0xff, 0xf0 } },
		},
	};

	memset(r.rules[0].report_ids, 0xff, sizeof(r.rules[0].report_ids));
	/* both bytes equal under the mask: the condition does not hold */
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x11, (const uint8_t[]){ 0x11, 0x02, 0x00, 0x1f }, 4).rule, -1);
	/* one byte differs, the other equal: it holds */
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x11, (const uint8_t[]){ 0x11, 0x02, 0x0e, 0x17 }, 4).rule, 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x11, (const uint8_t[]){ 0x11, 0x02, 0x00, 0x27 }, 4).rule, 0);
	/* the first byte differs but the second is past the end: it does not hold */
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x11, (const uint8_t[]){ 0x11, 0x02, 0x0e }, 3).rule, -1);
	/* without the flag, the same condition holds on the equal bytes only */
	r.rules[0].conds[0].flags = 0;
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x11, (const uint8_t[]){ 0x11, 0x02, 0x00, 0x1f }, 4).rule, 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x11, (const uint8_t[]){ 0x11, 0x02, 0x0e, 0x17 }, 4).rule, -1);
}

static void audit_mode_logs_but_does_not_enforce(void)
{
	struct hid_device_rules r;
	struct policy_verdict v;

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'mode': 'audit',"
		     " 'default': 'deny', 'default_errno': 'EIO', 'rules': ["
		     "{'name': 'deny-f4', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf4', 'action': 'deny'},"
		     "{'name': 'allow-05', 'request': 'get_report', 'report_type': 'feature', 'report_id': 5, 'action': 'allow'},"
		     "{'name': 'input', 'request': 'input_event', 'report_id': 'any', 'action': 'allow'}]}]}",
		     &DUALSENSE, &r);
	CHECK_EQ(r.mode, HID_RULES_MODE_AUDIT);
	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf4, fw_start, 3);
	CHECK_EQ(v.action, HID_RULE_DENY);
	CHECK(!v.enforced, "audit mode enforced a deny");
	CHECK(v.logged, "audit mode did not log a would-be deny");
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 2, NULL, 0);
	CHECK_EQ(v.rule, -1);
	CHECK_EQ(v.action, HID_RULE_DENY);
	CHECK_EQ(v.err, EIO);
	CHECK(!v.enforced && v.logged, "default deny in audit mode must log only");
	v = eval(&r, HID_RULE_KIND_GET_FEATURE, 5, (const uint8_t[]){ 5 }, 1);
	CHECK(v.action == HID_RULE_ALLOW && !v.logged, "plain allow is not logged");
}

static void audit_rule_set_next_to_enforcing_one_audits_only_its_rules(void)
{
	struct policy_device ds4 = USB_DEVICE(0x054c, 0x09cc, "Wireless Controller");
	struct hid_device_rules r;
	struct policy_verdict v;

	compile_text("{'version': 1, 'devices': ["
		     "{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x09cc'}, 'rules': ["
		     "{'name': 'ds4-nvs-unlock', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xa0',"
		     " 'payload': [{'offset': 1, 'value': '0a 02 3e 71 7f 89'}], 'action': 'deny'}]},"
		     "{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x09cc'}, 'mode': 'audit', 'rules': ["
		     "{'name': 'ds4-unverified', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xa0',"
		     " 'action': 'deny'}]}]}", &ds4, &r);
	CHECK_EQ(r.mode, HID_RULES_MODE_ENFORCE);
	CHECK_EQ(r.rules[0].flags & HID_RULE_F_AUDIT, 0);
	CHECK_EQ(r.rules[1].flags & HID_RULE_F_AUDIT, HID_RULE_F_AUDIT);
	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0xa0, (const uint8_t[]){ 0xa0, 0x0a, 0x02, 0x3e, 0x71, 0x7f, 0x89 }, 7);
	CHECK(v.rule == 0 && v.enforced, "verified rule must be enforced");
	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0xa0, (const uint8_t[]){ 0xa0, 0x0a, 0x01, 0x00 }, 4);
	/* The audit rule matches and is logged; evaluation goes on to the
	 * default, which allows. */
	CHECK(v.audit_rule == 1 && v.audit_action == HID_RULE_DENY, "audit rule must be reported");
	CHECK(v.rule == -1 && v.action == HID_RULE_ALLOW && !v.enforced,
	      "the audit rule must not decide");
}

/* An audit rule set placed first cannot shadow an enforcing rule after it
 * (a new vendor's rules rolled out in audit mode). */
static void audit_rule_set_first_does_not_shadow_an_enforcing_rule(void)
{
	struct policy_device ds4 = USB_DEVICE(0x054c, 0x09cc, "Wireless Controller");
	struct hid_device_rules r;
	struct policy_verdict v;

	compile_text("{'version': 1, 'devices': ["
		     "{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x09cc'}, 'mode': 'audit', 'rules': ["
		     "{'name': 'watch-features', 'request': 'set_report', 'report_type': 'feature', 'report_id': 'any',"
		     " 'action': 'deny'}]},"
		     "{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x09cc'}, 'rules': ["
		     "{'name': 'no-fw', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xa0',"
		     " 'action': 'deny'}]}]}", &ds4, &r);
	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0xa0, (const uint8_t[]){ 0xa0 }, 1);
	CHECK(v.audit_rule == 0, "the audit rule matched first");
	CHECK(v.rule == 1 && v.action == HID_RULE_DENY && v.enforced,
	      "the enforcing rule after it must decide");
}

/* A Steam Deck-like device: input and feature report 0, no output
 * report. */
static void deck_reports(uint32_t declared[HID_RULES_RTYPES][HID_RULES_REPORT_ID_WORDS])
{
	memset(declared, 0, sizeof(uint32_t[HID_RULES_RTYPES][HID_RULES_REPORT_ID_WORDS]));
	declared[HID_RULES_RTYPE_INPUT][0] = 1;
	declared[HID_RULES_RTYPE_FEATURE][0] = 1;
}

#define DECK_RULES(flag) \
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x28de', 'product': '0x1205'}," flag \
	" 'default': 'allow', 'rules': [" \
	"{'name': 'deny-90', 'request': ['set_report', 'output_report'], 'report_id': 0," \
	" 'payload': [{'offset': 1, 'value': '0x90'}], 'action': 'deny'}," \
	"{'name': 'deny-90-as-id', 'request': ['set_report', 'output_report'], 'report_id': '0x90', 'action': 'deny'}]}]}"

/* A report the descriptor does not declare is refused before any rule,
 * an allow that names it included, for every type; the kernel's drivers
 * are not checked, nor are rules that do not know the descriptor. */
static void an_undeclared_report_is_refused_before_any_rule(void)
{
	struct policy_device deck = USB_DEVICE(0x28de, 0x1205, "Deck");
	const struct policy_sender_id driver = { .from_kernel = true };
	uint32_t declared[HID_RULES_RTYPES][HID_RULES_REPORT_ID_WORDS];
	struct hid_device_rules r;
	struct policy_verdict v;

	deck_reports(declared);
	deck.declared = declared;
	compile_text(DECK_RULES(""), &deck, &r);
	CHECK(r.flags & HID_RULES_F_DECLARED, "the rules know the descriptor");
	CHECK(!(r.flags & HID_RULES_F_COMMANDS_IN_PAYLOAD), "no rule set says commands_in_payload");

	/* no output report at all: write() of report 0 and of 0x87 */
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x00, (const uint8_t[]){ 0x00, 0x81 }, 2);
	CHECK(v.index == HID_RULE_INDEX_UNDECLARED && v.enforced && v.err == EPERM,
	      "output report 0: index %#x", v.index);
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x87, (const uint8_t[]){ 0x87, 0x03 }, 2);
	CHECK_EQ(v.index, HID_RULE_INDEX_UNDECLARED);
	/* a non-zero ID of an unnumbered type, GET and SET */
	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0x90, (const uint8_t[]){ 0x90, 0x04 }, 2);
	CHECK_EQ(v.index, HID_RULE_INDEX_UNDECLARED);
	v = eval(&r, HID_RULE_KIND_GET_INPUT, 0x01, (const uint8_t[]){ 0x01 }, 1);
	CHECK_EQ(v.index, HID_RULE_INDEX_UNDECLARED);
	v = eval(&r, HID_RULE_KIND_GET_OUTPUT, 0x00, (const uint8_t[]){ 0x00 }, 1);
	CHECK_EQ(v.index, HID_RULE_INDEX_UNDECLARED);
	/* declared: the rules decide */
	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0x00, (const uint8_t[]){ 0x00, 0x90 }, 2);
	CHECK(v.rule == 0 && v.enforced, "deny-90 decides feature report 0");
	v = eval(&r, HID_RULE_KIND_SET_INPUT, 0x00, (const uint8_t[]){ 0x00, 0x11 }, 2);
	CHECK(v.rule == -1 && v.index == HID_RULE_INDEX_DEFAULT, "input report 0 goes to the default");
	/* a driver's own request is not checked */
	policy_evaluate(&r, &(struct policy_request){ .kind = HID_RULE_KIND_OUTPUT_REPORT, .report_id = 0x90,
						      .data = (const uint8_t[]){ 0x90 }, .len = 1,
						      .sender = &driver }, &v);
	CHECK(v.rule == 1 && v.action == HID_RULE_DENY, "a driver's write goes to the rules");
	/* a dry run's device, whose descriptor is not known */
	deck.declared = NULL;
	compile_text(DECK_RULES(""), &deck, &r);
	CHECK(!(r.flags & HID_RULES_F_DECLARED), "no descriptor, no check");
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x90, (const uint8_t[]){ 0x90 }, 1);
	CHECK_EQ(v.rule, 1);
}

/* "commands_in_payload": an undeclared report goes to the rules, which
 * match the command where the device sees it; an audit-mode rule set
 * saying it lifts nothing. */
static void commands_in_payload_sends_undeclared_reports_to_the_rules(void)
{
	struct policy_device deck = USB_DEVICE(0x28de, 0x1205, "Deck");
	uint32_t declared[HID_RULES_RTYPES][HID_RULES_REPORT_ID_WORDS];
	struct hid_device_rules r;
	struct policy_verdict v;

	deck_reports(declared);
	deck.declared = declared;
	compile_text(DECK_RULES(" 'commands_in_payload': true,"), &deck, &r);
	CHECK(r.flags & HID_RULES_F_COMMANDS_IN_PAYLOAD, "the flag is compiled");
	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0x90, (const uint8_t[]){ 0x90, 0x04 }, 2);
	CHECK(v.rule == 1 && v.enforced, "deny-90-as-id decides: rule %d", v.rule);
	v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0x87, (const uint8_t[]){ 0x87, 0x03 }, 2);
	CHECK(v.index == HID_RULE_INDEX_DEFAULT && !v.enforced, "another command passes");
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x87, (const uint8_t[]){ 0x87, 0x03 }, 2);
	CHECK(v.index == HID_RULE_INDEX_DEFAULT && v.action == HID_RULE_ALLOW, "the write goes to the rules");
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x00, (const uint8_t[]){ 0x00, 0x90 }, 2);
	CHECK(v.rule == 0 && v.enforced, "output report 0 with a leading zero: deny-90");

	compile_text("{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x28de', 'product': '0x1205'},"
		     " 'mode': 'audit', 'commands_in_payload': true, 'rules': []}]}", &deck, &r);
	CHECK(!(r.flags & HID_RULES_F_COMMANDS_IN_PAYLOAD), "an audit-mode rule set lifted the check");
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x87, (const uint8_t[]){ 0x87, 0x03 }, 2);
	CHECK(v.index == HID_RULE_INDEX_UNDECLARED && v.enforced, "refused in audit mode too");
}

#define DS4_MATCH "'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x09cc'}"
#define INPUT_ALLOW(name) "{'name': '" name "', 'request': 'input_event', 'report_id': 'any', 'action': 'allow'}"

/* An audit-mode rule set's default never stands in for an enforcing rule
 * set's, whichever comes first: audit mode never weakens enforcement. */
static void an_audit_default_never_overrides_an_enforcing_default(void)
{
	struct policy_device ds4 = USB_DEVICE(0x054c, 0x09cc, "Wireless Controller");
	struct hid_device_rules r;
	struct policy_verdict v;

	compile_text("{'version': 1, 'devices': ["
		     "{" DS4_MATCH ", 'mode': 'audit', 'default': 'deny', 'default_errno': 'EACCES',"
		     " 'rules': [" INPUT_ALLOW("audit-input") "]},"
		     "{" DS4_MATCH ", 'default': 'deny', 'default_errno': 'EIO', 'rules': [" INPUT_ALLOW("input") "]}]}",
		     &ds4, &r);
	CHECK_EQ(r.mode, HID_RULES_MODE_ENFORCE);
	CHECK(r.default_action == HID_RULE_DENY && r.default_err == EIO &&
	      !(r.default_flags & HID_RULE_F_AUDIT), "the enforcing rule set's default must be compiled");
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 2, (const uint8_t[]){ 2, 0 }, 2);
	CHECK(v.rule == -1 && v.action == HID_RULE_DENY && v.err == EIO && v.enforced,
	      "the enforcing default must refuse");

	/* an audit "allow" first lets nothing through either */
	compile_text("{'version': 1, 'devices': ["
		     "{" DS4_MATCH ", 'mode': 'audit', 'default': 'allow', 'rules': []},"
		     "{" DS4_MATCH ", 'default': 'deny', 'rules': [" INPUT_ALLOW("input") "]}]}",
		     &ds4, &r);
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 2, (const uint8_t[]){ 2, 0 }, 2);
	CHECK(v.rule == -1 && v.action == HID_RULE_DENY && v.enforced, "the enforcing default must refuse");

	/* where no enforcing rule set states a default, the audit one logs
	 * what it would deny and the request passes, as the built-in allow */
	compile_text("{'version': 1, 'devices': ["
		     "{" DS4_MATCH ", 'mode': 'audit', 'default': 'deny', 'rules': [" INPUT_ALLOW("audit-input") "]},"
		     "{" DS4_MATCH ", 'rules': [{'name': 'no-fw', 'request': 'set_report', 'report_type': 'feature',"
		     " 'report_id': '0xa0', 'action': 'deny'}]}]}",
		     &ds4, &r);
	v = eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 2, (const uint8_t[]){ 2, 0 }, 2);
	CHECK(v.rule == -1 && v.action == HID_RULE_DENY && !v.enforced && v.logged,
	      "the audit default must only log");
}

/* Version 1 files of earlier releases wrote IDs in hex without "0x" and
 * other numbers as decimal strings: they compile as they did then, each such
 * number with a warning. A key newer than that spelling never had it. */
static void version_1_old_spellings_keep_their_meaning(void)
{
	struct policy_device deck = USB_DEVICE(0x28de, 0x1205, "Steam Deck Controller");
	struct policy_device decimal_1205 = USB_DEVICE(0x28de, 1205, "not the Deck");
	const uint8_t isp[] = { 0x00, 0x90, 0x04 };
	struct hid_device_rules r;
	struct diag d = {};
	struct policy *p;

	p = load_text("t.json", "{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '28de', 'product': ['1205', '0x1206']}, 'rules': ["
		      "{'name': 'by-id', 'request': 'set_report', 'report_type': 'feature', 'report_id': ['16', '48-50'], 'action': 'deny'},"
		      "{'name': 'by-byte', 'request': 'set_report', 'report_type': 'feature', 'report_id': 0,"
		      " 'payload': [{'offset': '1', 'value': '0x90'}], 'action': 'deny'}]}]}", &d);
	CHECK(p, "an old spelling was refused");
	CHECK_EQ(d.n_errors, 0);
	CHECK_EQ(d.n_warnings, 5);	/* "28de", "1205", "16", "48-50", "1" */
	CHECK(diag_contains(&d, "t.json:1:83: devices[0].match.product[0]: warning: \"1205\" is an ID in the old spelling, hex without \"0x\", read as 0x1205 as before; write \"0x1205\""),
	      "no warning on the product");

	CHECK_EQ(policy_compile(p, &decimal_1205, &r, NULL), -ENOENT);
	CHECK_EQ(policy_compile(p, &deck, &r, NULL), 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 16, (const uint8_t[]){ 16 }, 1).rule, 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0x16, (const uint8_t[]){ 0x16 }, 1).rule, -1);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 48, (const uint8_t[]){ 48 }, 1).rule, 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 50, (const uint8_t[]){ 50 }, 1).rule, 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 51, (const uint8_t[]){ 51 }, 1).rule, -1);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0, isp, sizeof(isp)).rule, 1);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0, isp + 1, 2).rule, -1);
	policy_free(p);
	diag_done(&d);

	p = load_text("t.json", "{'version': 1, 'devices': [{'match': {'interface': '1'}, 'rules': []}]}", &d);
	CHECK(!p, "an interface number as a decimal string was accepted");
	CHECK(diag_contains(&d, "devices[0].match.interface: \"1\" is not a number"), "no error on the interface");
	diag_done(&d);
}

static void device_matching_uses_bus_ids_and_name_glob(void)
{
	const char *doc =
		"{'version': 1, 'devices': [{'match': [{'bus': 'usb', 'vendor': '0x054c', 'product': ['0x0ce6', '0x0df2']},"
		" {'bus': 'bluetooth', 'vendor': 'any', 'product': 'any', 'name': '*DualSense*'}],"
		" 'rules': [{'name': 'r', 'request': 'set_report', 'report_type': 'any', 'report_id': 'any', 'action': 'deny'}]}]}";
	struct diag d = {};
	struct policy *p = load_text("t.json", doc, &d);
	struct hid_device_rules r;
	struct policy_device edge = USB_DEVICE(0x054c, 0x0df2, "DualSense Edge");
	struct policy_device ds4 = USB_DEVICE(0x054c, 0x09cc, "Wireless Controller");
	struct policy_device bt = { .bus = BUS_BLUETOOTH, .vendor = 0x054c, .product = 0x0ce6, .name = "DualSense Wireless Controller" };
	struct policy_device bt_other = { .bus = BUS_BLUETOOTH, .vendor = 0x054c, .product = 0x0ce6, .name = "Wireless Controller" };
	struct policy_device i2c = { .bus = BUS_I2C, .vendor = 0x054c, .product = 0x0ce6, .name = "DualSense" };

	CHECK(p, "policy rejected");
	CHECK_EQ(policy_compile(p, &DUALSENSE, &r, NULL), 0);
	CHECK_EQ(policy_compile(p, &edge, &r, NULL), 0);
	CHECK_EQ(policy_compile(p, &bt, &r, NULL), 0);
	CHECK_EQ(policy_compile(p, &ds4, &r, NULL), -ENOENT);
	CHECK_EQ(policy_compile(p, &bt_other, &r, NULL), -ENOENT);
	CHECK_EQ(policy_compile(p, &i2c, &r, NULL), -ENOENT);
	/* an unmatched device gets an allow-all table, never stale rules */
	CHECK_EQ(r.n_rules, 0);
	CHECK_EQ(r.default_action, HID_RULE_ALLOW);
	policy_free(p);
	diag_done(&d);
}

static void too_many_rules_on_one_device_is_refused_not_truncated(void)
{
	char doc[65536] = "{'version': 1, 'devices': [";
	struct diag d = {};
	struct hid_device_rules r;
	struct policy *p;

	/* two rule sets of 40 rules each, both for the DualSense */
	for (int s = 0; s < 2; s++) {
		snprintf(doc + strlen(doc), sizeof(doc) - strlen(doc),
			 "%s{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': [", s ? "," : "");
		for (int i = 0; i < 40; i++)
			snprintf(doc + strlen(doc), sizeof(doc) - strlen(doc),
				 "%s{'name': 's%d-r%d', 'request': 'output_report', 'report_id': %d, 'action': 'deny'}",
				 i ? "," : "", s, i, s * 40 + i);
		strcat(doc, "]}");
	}
	strcat(doc, "]}");
	/* Loading refuses the pair (test-policy-capacity.c); the compiler
	 * guards itself all the same, on a policy parsed but not checked. */
	p = load_text("t.json", doc, &d);
	CHECK(!p, "80 rules for one device were accepted");
	diag_done(&d);
	{
		char *text = policy_text(doc);

		p = policy_new();
		CHECK(p && text, "out of memory");
		CHECK_OK(policy_parse_buffer(p, "t.json", "t.json", text, strlen(text), &d));
		free(text);
	}
	CHECK_EQ(policy_compile(p, &DUALSENSE, &r, &d), -E2BIG);
	CHECK_MESSAGES(&d, "device 0003:054C:0CE6 \"Sony Interactive Entertainment DualSense Wireless Controller\": 80 rules apply, more than the 64 a device holds");
	CHECK_EQ(r.n_rules, 0);
	policy_free(p);
	diag_done(&d);
}

static void rule_index_maps_back_to_the_rule_name(void)
{
	struct diag d = {};
	struct hid_device_rules r;
	struct policy *p = load_text("t.json",
		"{'version': 1, 'devices': ["
		"{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'}, 'rules': ["
		"{'name': 'logi', 'request': 'output_report', 'report_id': 16, 'action': 'deny'}]},"
		"{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': ["
		"{'name': 'sony-a', 'request': 'output_report', 'report_id': 1, 'action': 'deny'},"
		"{'name': 'sony-b', 'request': 'output_report', 'report_id': 2, 'action': 'deny'}]}]}", &d);

	CHECK(p, "policy rejected");
	CHECK_EQ(policy_compile(p, &DUALSENSE, &r, NULL), 0);
	CHECK_EQ(r.n_rules, 2);
	CHECK(!strcmp(p->rules[r.rules[0].index].name, "sony-a"), "index %u", r.rules[0].index);
	CHECK(!strcmp(p->rules[r.rules[1].index].name, "sony-b"), "index %u", r.rules[1].index);
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 2, (const uint8_t[]){ 2 }, 1).index, r.rules[1].index);
	CHECK_EQ(eval(&r, HID_RULE_KIND_OUTPUT_REPORT, 3, (const uint8_t[]){ 3 }, 1).index, HID_RULE_INDEX_DEFAULT);
	policy_free(p);
	diag_done(&d);
}

/* --- directories --- */

#define DS_SET(name, id, action)                                               \
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': [" \
	"{'name': '" name "', 'request': 'set_report', 'report_type': 'feature', 'report_id': " id ", 'action': '" action "'}]}]}"

static struct policy *load_dirs(const char *a, const char *b, struct diag *d)
{
	const char *dirs[] = { a, b };
	struct policy *p = NULL;

	policy_load_dirs(dirs, b ? 2 : 1, true, d, &p);
	return p;
}

static void files_are_read_in_lexical_order(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct hid_device_rules r;
	struct policy *p;

	/* written in the opposite order; 10- must come first and win */
	write_policy(dir, "20-deny.json", DS_SET("deny-f4", "'0xf4'", "deny"));
	write_policy(dir, "10-allow.json", DS_SET("allow-f4", "'0xf4'", "allow"));
	write_policy(dir, "README", "not a policy");
	write_policy(dir, ".hidden.json", "not a policy");
	write_policy(dir, "schema.json", "{'$schema': 'not a rule file'}");
	p = load_dirs(dir, NULL, &d);
	CHECK(p, "policy rejected");
	CHECK_EQ(p->n_files, 2);
	CHECK(!strcmp(p->files[0].name, "10-allow.json"), "first file %s", p->files[0].name);
	CHECK_EQ(policy_compile(p, &DUALSENSE, &r, NULL), 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf4, fw_start, 3).action, HID_RULE_ALLOW);
	/* the shadowed rule of the later file is a warning across files, and
	 * every file that is not read is named */
	char *readme = in_dir(dir, "README: warning: not read: rule files are named *.json (and do not start with a dot)");
	char *hidden = in_dir(dir, ".hidden.json: warning: not read: rule files are named *.json (and do not start with a dot)");
	char *shadow = in_dir(dir, "20-deny.json:1:105: devices[0].rules[0]: warning: rule \"deny-f4\" can never match: rule \"allow-f4\" (DIR/10-allow.json:1:105: devices[0].rules[0]) comes first and matches every request it does");

	CHECK_MESSAGES(&d, readme, hidden, shadow);
	free(readme);
	free(hidden);
	free(shadow);
	policy_free(p);
	diag_done(&d);
	rm_tree(dir);
}

static void etc_file_replaces_vendor_file_of_the_same_name(void)
{
	char *vendor = make_temp_dir(), *etc = make_temp_dir();
	struct diag d = {};
	struct hid_device_rules r;
	struct policy *p;

	write_policy(vendor, "50-sony.json", DS_SET("vendor-deny-f4", "'0xf4'", "deny"));
	write_policy(vendor, "60-other.json", DS_SET("vendor-deny-f5", "'0xf5'", "deny"));
	write_policy(etc, "50-sony.json", DS_SET("admin-deny-f0", "'0xf0'", "deny"));
	p = load_dirs(vendor, etc, &d);
	CHECK(p, "policy rejected");
	CHECK_EQ(p->n_files, 2);
	CHECK(strstr(p->files[0].path, etc) == p->files[0].path, "50-sony.json read from %s", p->files[0].path);
	CHECK_EQ(policy_compile(p, &DUALSENSE, &r, NULL), 0);
	CHECK_EQ(r.n_rules, 2);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf4, fw_start, 3).action, HID_RULE_ALLOW);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf0, (const uint8_t[]){ 0xf0 }, 1).action, HID_RULE_DENY);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf5, (const uint8_t[]){ 0xf5 }, 1).action, HID_RULE_DENY);
	CHECK_EQ(d.n, 0);
	policy_free(p);
	diag_done(&d);
	rm_tree(vendor);
	rm_tree(etc);
}

static void one_broken_file_rejects_the_whole_directory(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p;

	write_policy(dir, "10-good.json", DS_SET("good", "'0xf4'", "deny"));
	write_policy(dir, "20-broken.json", "{'version': 1, 'devices': [");
	write_policy(dir, "30-dup.json", DS_SET("good", "'0xf5'", "deny"));
	p = load_dirs(dir, NULL, &d);
	CHECK(!p, "a directory with a broken file was accepted");
	char *broken = in_dir(dir, "20-broken.json:1:27: ']' expected near end of file; nothing after a syntax error is read: the file's other mistakes show once it is fixed");
	char *dup = in_dir(dir, "30-dup.json:1:105: devices[0].rules[0]: duplicate rule name \"good\" (first defined at DIR/10-good.json:1:105: devices[0].rules[0])");

	CHECK_MESSAGES(&d, broken, dup);
	free(broken);
	free(dup);
	diag_done(&d);
	rm_tree(dir);
}

static void missing_explicit_directory_is_an_error(void)
{
	struct diag d = {};
	const char *dirs[] = { "/nonexistent/hid-policy.d" };
	struct policy *p = NULL;

	CHECK_EQ(policy_load_dirs(dirs, 1, true, &d, &p), -EINVAL);
	CHECK(!p, "policy returned");
	CHECK_MESSAGES(&d, "/nonexistent/hid-policy.d: cannot open directory: No such file or directory");
	diag_done(&d);
	CHECK_EQ(policy_load_dirs(dirs, 1, false, &d, &p), 0);
	CHECK_EQ(p->n_files, 0);
	policy_free(p);
}

/* policies/20-sony-dualsense.json against the facts of shared/spec/firmware-endpoints.md */
static void shipped_dualsense_policy_blocks_update_and_keeps_driver_reports(void)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	static const uint8_t driver_features[] = { 0x05, 0x09, 0x20, 0x03 };
	struct policy_device edge_bt = { .bus = BUS_BLUETOOTH, .vendor = 0x054c, .product = 0x0df2,
					 .name = "DualSense Edge Wireless Controller" };
	char dir[512];
	struct diag d = {};
	struct hid_device_rules r;
	struct policy *p;

	snprintf(dir, sizeof(dir), "%s/policies", src);
	p = load_dirs(dir, NULL, &d);
	CHECK(p, "shipped policies rejected");
	CHECK_EQ(d.n, 0);
	CHECK_EQ(policy_compile(p, &DUALSENSE, &r, NULL), 0);
	CHECK_EQ(r.mode, HID_RULES_MODE_ENFORCE);
	for (uint8_t step = 0; step < 4; step++) {
		struct policy_verdict v = eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf4,
					       (const uint8_t[]){ 0xf4, step, 0x39 }, 3);

		CHECK(v.action == HID_RULE_DENY && v.enforced && v.err == EPERM,
		      "firmware update step %u not refused", step);
	}
	/* the update status is read back with GET feature 0xF5: reading is harmless */
	CHECK_EQ(eval(&r, HID_RULE_KIND_GET_FEATURE, 0xf5, (const uint8_t[]){ 0xf5 }, 1).action, HID_RULE_ALLOW);
	for (size_t i = 0; i < sizeof(driver_features); i++) {
		uint8_t id = driver_features[i];

		CHECK_EQ(eval(&r, HID_RULE_KIND_GET_FEATURE, id, &id, 1).action, HID_RULE_ALLOW);
		CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, id, &id, 1).action, HID_RULE_ALLOW);
	}
	CHECK_EQ(policy_compile(p, &edge_bt, &r, NULL), 0);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0xf4, fw_start, 3).action, HID_RULE_DENY);
	policy_free(p);
	diag_done(&d);
}

/* A Bluetooth mouse of PixArt's: input report 1 (buttons), PixArt's OTA
 * report as feature report 0x0B on vendor page 0xFF02 (usage 1), its
 * notifications as input report 0x05 on the same page, and a feature
 * report 0x0C on page 0xFF02 with usage 2. */
static const struct hid_report_usage pixart_reports[] = {
	{ .type = HID_REPORT_INPUT, .id = 1, .page = 0x0009, .has_usage = true, .usage_min = 1, .usage_max = 3 },
	{ .type = HID_REPORT_INPUT, .id = 1, .page = 0x0001, .has_usage = true, .usage_min = 2, .usage_max = 2 },
	{ .type = HID_REPORT_FEATURE, .id = 0x0b, .page = 0xff02, .has_usage = true, .usage_min = 1, .usage_max = 1 },
	{ .type = HID_REPORT_INPUT, .id = 0x05, .page = 0xff02, .has_usage = true, .usage_min = 1, .usage_max = 1 },
	{ .type = HID_REPORT_FEATURE, .id = 0x0c, .page = 0xff02, .has_usage = true, .usage_min = 2, .usage_max = 2 },
};
#define PIXART_MOUSE(r, n) ((struct policy_device){ .bus = BUS_BLUETOOTH, .vendor = 0x093a, .product = 0x2801, \
	.descriptor_known = true, .reports = (r), .n_reports = (n) })
#define PIXART_DOC(rules) \
	"{'version': 1, 'devices': [{'match': {'bus': 'bluetooth', 'vendor': '0x093a'}, 'rules': [" rules "]}]}"

static void a_usage_page_names_the_reports_of_that_type_the_descriptor_declares(void)
{
	struct policy_device dev = PIXART_MOUSE(pixart_reports, ARRAY_SIZE(pixart_reports));
	struct hid_device_rules r;

	compile_text(PIXART_DOC("{'name': 'deny-ota', 'request': 'set_report', 'report_type': 'feature',"
				" 'report_usage_page': '0xff02', 'payload': [{'offset': 1, 'value': '0x10'}], 'action': 'deny'}"),
		     &dev, &r);
	CHECK_EQ(r.n_rules, 1);
	/* feature reports 0x0B and 0x0C: not input report 0x05 of the page */
	CHECK_EQ(r.rules[0].report_ids[0], 1u << 0x0b | 1u << 0x0c);
	for (size_t w = 1; w < HID_RULES_REPORT_ID_WORDS; w++)
		CHECK_EQ(r.rules[0].report_ids[w], 0u);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0x0b, (const uint8_t[]){ 0x0b, 0x10 }, 2).action, HID_RULE_DENY);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0x07, (const uint8_t[]){ 0x07, 0x10 }, 2).action, HID_RULE_ALLOW);
	CHECK_EQ(eval(&r, HID_RULE_KIND_SET_FEATURE, 0x05, (const uint8_t[]){ 0x05, 0x10 }, 2).action, HID_RULE_ALLOW);
}

static void a_usage_narrows_the_reports_of_the_page(void)
{
	struct policy_device dev = PIXART_MOUSE(pixart_reports, ARRAY_SIZE(pixart_reports));
	struct hid_device_rules r;

	compile_text(PIXART_DOC("{'name': 'deny-ota', 'request': 'set_report', 'report_type': 'feature',"
				" 'report_usage_page': '0xff02', 'report_usage': 1, 'action': 'deny'}"),
		     &dev, &r);
	CHECK_EQ(r.n_rules, 1);
	CHECK_EQ(r.rules[0].report_ids[0], 1u << 0x0b);
}

static void report_id_and_usage_page_together_name_both(void)
{
	struct policy_device dev = PIXART_MOUSE(pixart_reports, ARRAY_SIZE(pixart_reports));
	struct hid_device_rules r;

	compile_text(PIXART_DOC("{'name': 'deny-ota', 'request': 'set_report', 'report_type': 'feature',"
				" 'report_id': '0x07', 'report_usage_page': '0xff02', 'report_usage': 1, 'action': 'deny'}"),
		     &dev, &r);
	CHECK_EQ(r.rules[0].report_ids[0], 1u << 0x07 | 1u << 0x0b);
	/* a device declaring nothing on the page keeps the rule's own ID */
	dev = PIXART_MOUSE(pixart_reports, 2);
	compile_text(PIXART_DOC("{'name': 'deny-ota', 'request': 'set_report', 'report_type': 'feature',"
				" 'report_id': '0x07', 'report_usage_page': '0xff02', 'action': 'deny'}"),
		     &dev, &r);
	CHECK_EQ(r.n_rules, 1);
	CHECK_EQ(r.rules[0].report_ids[0], 1u << 0x07);
}

static void a_device_declaring_no_report_on_the_page_gets_no_rule(void)
{
	struct policy_device dev = PIXART_MOUSE(pixart_reports, 2);
	struct hid_device_rules r;

	compile_text(PIXART_DOC("{'name': 'fwupd', 'request': 'set_report', 'report_type': 'feature',"
				" 'report_usage_page': '0xff02', 'sender': {'origin': 'kernel'}, 'action': 'allow'},"
				"{'name': 'deny-ota', 'request': 'set_report', 'report_type': 'feature',"
				" 'report_usage_page': '0xff02', 'action': 'deny'},"
				"{'name': 'deny-7', 'request': 'set_report', 'report_type': 'feature', 'report_id': 7, 'action': 'deny'}"),
		     &dev, &r);
	CHECK_EQ(r.n_rules, 1);
	CHECK_EQ(r.rules[0].report_ids[0], 1u << 7);
	CHECK_EQ(r.rules[0].index, 2u);
}

static void an_incomplete_descriptor_fails_closed(void)
{
	struct policy_device dev = PIXART_MOUSE(pixart_reports, 2);
	struct hid_device_rules r;

	/* the reports found do not name the page, but there are more: the
	 * deny takes every ID, the allow only those found (none) */
	dev.reports_incomplete = true;
	compile_text(PIXART_DOC("{'name': 'allow-page', 'request': 'set_report', 'report_type': 'feature',"
				" 'report_usage_page': '0xff02', 'sender': {'origin': 'kernel'}, 'action': 'allow'},"
				"{'name': 'deny-page', 'request': 'set_report', 'report_type': 'feature',"
				" 'report_usage_page': '0xff02', 'action': 'deny'}"),
		     &dev, &r);
	CHECK_EQ(r.n_rules, 1);
	CHECK_EQ(r.rules[0].index, 1u);
	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS; w++)
		CHECK_EQ(r.rules[0].report_ids[w], UINT32_MAX);
}

static void output_requests_look_among_output_reports(void)
{
	static const struct hid_report_usage reports[] = {
		{ .type = HID_REPORT_OUTPUT, .id = 0x06, .page = 0xff02 },
		{ .type = HID_REPORT_FEATURE, .id = 0x07, .page = 0xff02 },
	};
	struct policy_device dev = PIXART_MOUSE(reports, ARRAY_SIZE(reports));
	struct hid_device_rules r;

	compile_text(PIXART_DOC("{'name': 'deny-out', 'request': ['output_report', 'set_report'], 'report_type': 'output',"
				" 'report_usage_page': '0xff02', 'action': 'deny'}"),
		     &dev, &r);
	CHECK_EQ(r.rules[0].report_ids[0], 1u << 6);
	/* and a usage names only reports that carry one */
	compile_text(PIXART_DOC("{'name': 'deny-out', 'request': 'output_report',"
				" 'report_usage_page': '0xff02', 'report_usage': 0, 'action': 'deny'}"),
		     &dev, &r);
	CHECK_EQ(r.n_rules, 0);
}

static void the_decision_waits_for_the_descriptor_of_a_device_a_usage_page_rule_may_cover(void)
{
	struct diag d = {};
	struct policy *p = load_text("t.json", PIXART_DOC("{'name': 'deny-ota', 'request': 'set_report', 'report_type': 'feature',"
							  " 'report_usage_page': '0xff02', 'action': 'deny'}"), &d);
	struct policy *q = load_text("u.json", PIXART_DOC("{'name': 'deny-7', 'request': 'set_report', 'report_type': 'feature',"
							  " 'report_id': 7, 'action': 'deny'}"), &d);
	struct policy_device dev = PIXART_MOUSE(NULL, 0);

	CHECK(p && q, "policy rejected");
	dev.descriptor_known = false;
	CHECK(policy_waits_for_descriptor(p, &dev), "a usage page rule's reports are not known yet");
	CHECK(!policy_waits_for_descriptor(q, &dev), "report IDs are known without the descriptor");
	dev.descriptor_known = true;
	CHECK(!policy_waits_for_descriptor(p, &dev), "the descriptor is known");
	policy_free(p);
	policy_free(q);
	diag_done(&d);
}

static const struct test_case tests[] = {
	{ "a_usage_page_names_the_reports_of_that_type_the_descriptor_declares", a_usage_page_names_the_reports_of_that_type_the_descriptor_declares },
	{ "a_usage_narrows_the_reports_of_the_page", a_usage_narrows_the_reports_of_the_page },
	{ "report_id_and_usage_page_together_name_both", report_id_and_usage_page_together_name_both },
	{ "a_device_declaring_no_report_on_the_page_gets_no_rule", a_device_declaring_no_report_on_the_page_gets_no_rule },
	{ "an_incomplete_descriptor_fails_closed", an_incomplete_descriptor_fails_closed },
	{ "output_requests_look_among_output_reports", output_requests_look_among_output_reports },
	{ "the_decision_waits_for_the_descriptor_of_a_device_a_usage_page_rule_may_cover", the_decision_waits_for_the_descriptor_of_a_device_a_usage_page_rule_may_cover },
	{ "an_undeclared_report_is_refused_before_any_rule", an_undeclared_report_is_refused_before_any_rule },
	{ "commands_in_payload_sends_undeclared_reports_to_the_rules", commands_in_payload_sends_undeclared_reports_to_the_rules },
	{ "first_matching_rule_wins", first_matching_rule_wins },
	{ "request_kind_and_report_type_are_distinguished", request_kind_and_report_type_are_distinguished },
	{ "report_type_narrows_only_get_and_set_of_any_request", report_type_narrows_only_get_and_set_of_any_request },
	{ "request_kind_bits_follow_the_kernel_values", request_kind_bits_follow_the_kernel_values },
	{ "report_id_lists_and_ranges_compile_to_the_bitmap", report_id_lists_and_ranges_compile_to_the_bitmap },
	{ "payload_conditions_filter_by_command_byte", payload_conditions_filter_by_command_byte },
	{ "short_payload_does_not_match_a_condition_past_its_end", short_payload_does_not_match_a_condition_past_its_end },
	{ "long_payload_values_are_split_into_four_byte_conditions", long_payload_values_are_split_into_four_byte_conditions },
	{ "a_not_condition_holds_when_a_byte_differs_and_the_bytes_are_there", a_not_condition_holds_when_a_byte_differs_and_the_bytes_are_there },
	{ "audit_mode_logs_but_does_not_enforce", audit_mode_logs_but_does_not_enforce },
	{ "audit_rule_set_next_to_enforcing_one_audits_only_its_rules", audit_rule_set_next_to_enforcing_one_audits_only_its_rules },
	{ "audit_rule_set_first_does_not_shadow_an_enforcing_rule", audit_rule_set_first_does_not_shadow_an_enforcing_rule },
	{ "an_audit_default_never_overrides_an_enforcing_default", an_audit_default_never_overrides_an_enforcing_default },
	{ "version_1_old_spellings_keep_their_meaning", version_1_old_spellings_keep_their_meaning },
	{ "device_matching_uses_bus_ids_and_name_glob", device_matching_uses_bus_ids_and_name_glob },
	{ "too_many_rules_on_one_device_is_refused_not_truncated", too_many_rules_on_one_device_is_refused_not_truncated },
	{ "rule_index_maps_back_to_the_rule_name", rule_index_maps_back_to_the_rule_name },
	{ "files_are_read_in_lexical_order", files_are_read_in_lexical_order },
	{ "etc_file_replaces_vendor_file_of_the_same_name", etc_file_replaces_vendor_file_of_the_same_name },
	{ "one_broken_file_rejects_the_whole_directory", one_broken_file_rejects_the_whole_directory },
	{ "missing_explicit_directory_is_an_error", missing_explicit_directory_is_an_error },
	{ "shipped_dualsense_policy_blocks_update_and_keeps_driver_reports", shipped_dualsense_policy_blocks_update_and_keeps_driver_reports },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-compile", tests, ARRAY_SIZE(tests));
}
