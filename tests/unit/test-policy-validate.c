// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The validator: a table of policies, each with the exact messages expected.
 * Policies are written with ' for " (see policy-helpers.h).
 */
#include "policy-helpers.h"

/* One rule set for a DualSense holding RULES. */
#define DOC(rules)                                                             \
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', " \
	"'product': '0x0ce6'}, 'rules': [" rules "]}]}"
/* A deny rule NAME on SET_REPORT feature report ID (JSON) ID; EXTRA adds keys. */
#define RULE(name, id, extra)                                                  \
	"{'name': '" name "', 'request': 'set_report', 'report_type': 'feature', " \
	"'report_id': " id ", 'action': 'deny'" extra "}"

#define VALID(test, doc, ...)                                                  \
	static void test(void)                                                 \
	{                                                                      \
		struct diag d = {};                                            \
		struct policy *p = load_text("t.json", doc, &d);               \
		CHECK(p, "rejected a valid policy");                           \
		CHECK_MESSAGES(&d, __VA_ARGS__);                               \
		policy_free(p);                                                \
		diag_done(&d);                                                 \
	}

#define INVALID(test, doc, ...)                                                \
	static void test(void)                                                 \
	{                                                                      \
		struct diag d = {};                                            \
		struct policy *p = load_text("t.json", doc, &d);               \
		CHECK(!p, "accepted an invalid policy");                       \
		CHECK_MESSAGES(&d, __VA_ARGS__);                               \
		diag_done(&d);                                                 \
	}

VALID(minimal_policy_loads_without_messages, DOC(RULE("a", "1", "")), NULL)

VALID(empty_device_list_is_valid_to_override_a_vendor_file,
      "{'version': 1, 'devices': []}", NULL)

VALID(every_form_of_report_id_is_accepted,
      DOC(RULE("a", "244", "") ","
	  RULE("b", "'0xf5'", "") ","
	  RULE("c", "'0x10-0x1f'", "") ","
	  RULE("d", "[2, '0x03', '0x40-0x4f']", "")),
      NULL)

INVALID(report_id_out_of_range_names_file_path_and_range,
	DOC(RULE("a", "1", "") "," RULE("b", "2", "") "," RULE("c", "3", "") ","
	    RULE("d", "'0x1ff'", "")),
	"t.json:1:480: devices[0].rules[3].report_id: 0x1ff is out of range 0..255")

INVALID(integer_report_id_out_of_range,
	DOC(RULE("a", "256", "")),
	"t.json:1:183: devices[0].rules[0].report_id: 256 is out of range 0..255")

INVALID(report_id_range_backwards_is_empty,
	DOC(RULE("a", "'0x20-0x10'", "")),
	"t.json:1:183: devices[0].rules[0].report_id: 0x20-0x10 is an empty range (32 > 16)")

INVALID(report_id_list_item_path_is_indexed,
	DOC(RULE("a", "[1, 'x']", "")),
	"t.json:1:187: devices[0].rules[0].report_id[1]: \"x\" is not a report ID (0..255, \"0x..\", \"0xlo-0xhi\" or \"any\")")

INVALID(empty_report_id_list_matches_nothing,
	DOC(RULE("a", "[]", "")),
	"t.json:1:183: devices[0].rules[0].report_id: empty list: it would match nothing (write \"any\" to match all)")

INVALID(syntax_error_gives_line_and_column,
	"{'version': 1,\n 'devices': [\n  {'match': }\n ]}",
	"t.json:3:13: unexpected token near '}'; nothing after a syntax error is read: the file's other mistakes show once it is fixed")

/* The comma is named where it stands, not at the bracket after it. */
INVALID(a_trailing_comma_is_named_at_the_comma,
	"{'version': 1,\n 'devices': [\n  {'match': {'vendor': 1},\n   'rules': [],\n  },\n ]}",
	"t.json:4:15: a comma before '}' (JSON allows no comma after the last item of a list or object: remove it); nothing after a syntax error is read: the file's other mistakes show once it is fixed")

INVALID(a_trailing_comma_in_a_list_is_named_at_the_comma,
	"{'version': 1, 'devices': [\n  {'match': {'vendor': 1}, 'rules': [\n    " RULE("a", "1", "") ",\n  ]}]}",
	"t.json:3:103: a comma before ']' (JSON allows no comma after the last item of a list or object: remove it); nothing after a syntax error is read: the file's other mistakes show once it is fixed")

INVALID(duplicate_json_key_is_a_syntax_error,
	"{'version': 1, 'version': 1, 'devices': []}",
	"t.json:1:24: duplicate object key near '\"version\"'; nothing after a syntax error is read: the file's other mistakes show once it is fixed")

INVALID(unknown_keys_are_reported_at_every_level,
	"{'version': 1, 'comment': 'x', 'devices': [{'match': {'bus': 'usb', 'vendor': 1, "
	"'product': 2, 'serial': 'x'}, 'rules': [" RULE("a", "1", ", 'reportid': 1") "]}]}",
	"t.json:1:16: unknown key \"comment\"",
	"t.json:1:96: devices[0].match: unknown key \"serial\"",
	"t.json:1:221: devices[0].rules[0]: unknown key \"reportid\"; did you mean \"report_id\"?")

INVALID(wrong_types_are_reported,
	DOC("{'name': 'a', 'request': 'set_report', 'report_id': 1.5, 'action': 3, 'log': 'yes'}"),
	"t.json:1:157: devices[0].rules[0].report_id: expected a report ID (0..255, \"0x..\", \"0xlo-0xhi\" or \"any\"), got 1.5",
	"t.json:1:172: devices[0].rules[0].action: expected \"allow\" or \"deny\", got 3",
	"t.json:1:182: devices[0].rules[0].log: expected true or false, got \"yes\"")

INVALID(commands_in_payload_must_be_a_boolean,
	"{'version': 1, 'devices': [{'match': {'vendor': '0x28de'}, 'commands_in_payload': 'yes', 'rules': []}]}",
	"t.json:1:83: devices[0].commands_in_payload: expected true or false (whether the devices' firmware reads a command from the payload whatever the report type and ID), got \"yes\"")

INVALID(missing_required_keys_are_named,
	"{'version': 1, 'devices': [{'rules': [{'name': 'a'}]}]}",
	"t.json:1:28: devices[0]: missing required key \"match\"",
	"t.json:1:39: devices[0].rules[0]: missing required key \"request\"",
	"t.json:1:39: devices[0].rules[0]: missing required key \"report_id\" (or \"report_usage_page\")",
	"t.json:1:39: devices[0].rules[0]: missing required key \"action\"")

VALID(match_keys_left_out_match_any,
      "{'version': 1, 'devices': [{'match': {'vendor': '0x054c'}, 'rules': []}]}", NULL)

INVALID(empty_match_would_match_every_device,
	"{'version': 1, 'devices': [{'match': {}, 'rules': []}]}",
	"t.json:1:38: devices[0].match: empty match: it would match every device (write {\"bus\": \"any\"} to say so)")

INVALID(empty_vendor_list_is_not_a_wildcard,
	"{'version': 1, 'devices': [{'match': {'bus': 'any', 'vendor': [], 'product': 'any'}, 'rules': []}]}",
	"t.json:1:63: devices[0].match.vendor: empty list: it would match nothing (write \"any\" to match all)")

INVALID(vendor_id_out_of_range,
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x1054c', 'product': 70000}, 'rules': []}]}",
	"t.json:1:63: devices[0].match.vendor: 0x1054c is out of range 0..65535",
	"t.json:1:85: devices[0].match.product: 70000 is out of range 0..65535")

INVALID(unknown_bus_lists_the_choices,
	"{'version': 1, 'devices': [{'match': {'bus': 'pci', 'vendor': 1, 'product': 1}, 'rules': []}]}",
	"t.json:1:46: devices[0].match.bus: expected \"usb\", \"bluetooth\", \"i2c\", \"spi\", \"virtual\", \"host\" or \"any\", got \"pci\"")

INVALID(unsupported_format_version,
	"{'version': 2, 'devices': []}",
	"t.json:1:13: version: format version 2 is not supported: this hid-policyd reads version 1")

INVALID(a_version_in_a_string_says_to_write_the_number,
	"{'version': '1', 'devices': []}",
	"t.json:1:13: version: a number: write 1, not \"1\"")

INVALID(a_version_of_another_type_names_the_number,
	"{'version': 'v1', 'devices': []}",
	"t.json:1:13: version: expected the format version, the number 1, got \"v1\"")

INVALID(misspelt_errno_and_mode_get_the_nearest_right_one,
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', "
	"'product': '0x0ce6'}, 'mode': 'enforcing', 'rules': [" RULE("a", "1", ", 'errno': 'EPREM'") "]}]}",
	"t.json:1:103: devices[0].mode: expected \"enforce\" or \"audit\", got \"enforcing\"; did you mean \"enforce\"?",
	"t.json:1:234: devices[0].rules[0].errno: \"EPREM\" is not a known errno name (EPERM, EACCES, EIO, ENODEV, ENXIO, EBUSY, EINVAL, EAGAIN, EOPNOTSUPP, EPROTO, ETIMEDOUT); did you mean \"EPERM\"?")

INVALID(duplicate_rule_names_point_to_the_first,
	DOC(RULE("same", "1", "") "," RULE("other", "2", "") "," RULE("same", "3", "")),
	"t.json:1:310: devices[0].rules[2]: duplicate rule name \"same\" (first defined at t.json:1:105: devices[0].rules[0])")

INVALID(rule_names_are_restricted,
	DOC(RULE("has space", "1", "")),
	"t.json:1:114: devices[0].rules[0].name: \"has space\" is not a valid name (1..64 characters of A-Z a-z 0-9 . _ -)")

INVALID(errno_belongs_to_deny_and_log_to_allow,
	DOC("{'name': 'a', 'request': 'output_report', 'report_id': 1, 'action': 'allow', 'errno': 'EPERM'},"
	    RULE("b", "1", ", 'log': true") "," RULE("c", "2", ", 'errno': 'EWHAT'") ","
	    RULE("d", "3", ", 'errno': 0")),
	"t.json:1:191: devices[0].rules[0].errno: applies only to \"deny\" rules",
	"t.json:1:306: devices[0].rules[1].log: denials are always logged: \"log\" applies only to \"allow\" rules",
	"t.json:1:420: devices[0].rules[2].errno: \"EWHAT\" is not a known errno name (EPERM, EACCES, EIO, ENODEV, ENXIO, EBUSY, EINVAL, EAGAIN, EOPNOTSUPP, EPROTO, ETIMEDOUT)",
	"t.json:1:537: devices[0].rules[3].errno: errno 0 would not refuse anything: use 1..4095")

/* A GET_REPORT buffer is what the device fills: no condition on it. */
INVALID(get_report_rules_take_no_payload,
	DOC("{'name': 'a', 'request': 'get_report', 'report_type': 'feature', 'report_id': 1,"
	    " 'payload': [{'offset': 1, 'value': 1}], 'action': 'deny'}"),
	"t.json:1:197: devices[0].rules[0].payload: get_report rules match by report ID only: a GET_REPORT's buffer is not the caller's")

/* hidraw sends an output report refused with ENOSYS again as SET_REPORT. */
INVALID(enosys_is_refused_by_name_and_number,
	DOC(RULE("a", "1", ", 'errno': 'ENOSYS'") "," RULE("b", "2", ", 'errno': 38")),
	"t.json:1:213: devices[0].rules[0].errno: ENOSYS would not refuse an output report: the kernel sends it again as a SET_REPORT; use EPERM, EIO or another errno",
	"t.json:1:331: devices[0].rules[1].errno: ENOSYS would not refuse an output report: the kernel sends it again as a SET_REPORT; use EPERM, EIO or another errno")

INVALID(report_type_applies_only_to_get_and_set,
	DOC("{'name': 'a', 'request': 'output_report', 'report_type': 'output', 'report_id': 1, 'action': 'deny'}"),
	"t.json:1:162: devices[0].rules[0].report_type: applies only to get_report and set_report requests")

INVALID(default_errno_needs_default_deny,
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': 1, 'product': 1}, "
	"'default': 'allow', 'default_errno': 'EIO', 'rules': []}]}",
	"t.json:1:118: devices[0].default_errno: applies only with \"default\": \"deny\"")

INVALID(payload_value_outside_mask,
	DOC(RULE("a", "1", ", 'payload': [{'offset': 1, 'value': '90', 'mask': '0f'}]")),
	"t.json:1:239: devices[0].rules[0].payload[0].value: byte 0 (0x90) has bits outside its mask 0x0f")

INVALID(payload_mask_length_must_match_value,
	DOC(RULE("a", "1", ", 'payload': [{'offset': 1, 'value': 'ff 80', 'mask': 'ff'}]")),
	"t.json:1:256: devices[0].rules[0].payload[0].mask: 1 byte, but value has 2")

INVALID(payload_beyond_last_testable_byte,
	DOC(RULE("a", "1", ", 'payload': [{'offset': 254, 'value': '01 02 03'}, {'offset': 256, 'value': 1}]")),
	"t.json:1:216: devices[0].rules[0].payload[0]: bytes 254..256 reach past byte 255, the last a rule can test",
	"t.json:1:265: devices[0].rules[0].payload[1].offset: 256 is out of range 0..255")

INVALID(payload_over_condition_limit_is_an_error_not_a_truncation,
	DOC(RULE("a", "1", ", 'payload': [{'offset': 0, 'value': "
		 "'00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'}, "
		 "{'offset': 32, 'value': 1}]")),
	"t.json:1:215: devices[0].rules[0].payload: needs 9 compiled conditions (one per 4 bytes), more than the 8 a rule holds")

/* 33 bytes in one condition */
INVALID(payload_condition_longer_than_32_bytes,
	DOC(RULE("a", "1", ", 'payload': [{'offset': 0, 'value': '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00'}]")),
	"t.json:1:239: devices[0].rules[0].payload[0].value: more than 32 bytes")

static void too_many_rules_in_one_rule_set(void)
{
	char buf[65536] = "{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': 1, 'product': 1}, 'rules': [";
	struct diag d = {};
	struct policy *p;

	for (int i = 0; i < HID_RULES_MAX_RULES + 1; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "%s{'name': 'r%d', 'request': 'input_event', 'report_id': %d, 'action': 'deny'}",
			 i ? "," : "", i, i);
	strcat(buf, "]}]}");
	p = load_text("t.json", buf, &d);
	CHECK(!p, "accepted %d rules", HID_RULES_MAX_RULES + 1);
	CHECK_MESSAGES(&d, "t.json:1:28: devices[0]: 65 rules, more than the 64 a device can hold");
	diag_done(&d);
}

INVALID(all_problems_are_reported_in_one_run,
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'mode': 'strict', 'rules': ["
	RULE("a", "'0x1ff'", "") ","
	"{'name': 'a', 'request': 'set_report', 'report_id': 1, 'action': 'block'}]}]}",
	"t.json:1:103: devices[0].mode: expected \"enforce\" or \"audit\", got \"strict\"",
	"t.json:1:201: devices[0].rules[0].report_id: 0x1ff is out of range 0..255",
	"t.json:1:293: devices[0].rules[1].action: expected \"allow\" or \"deny\", got \"block\"",
	"t.json:1:228: devices[0].rules[1]: duplicate rule name \"a\" (first defined at t.json:1:123: devices[0].rules[0])")

VALID(shadowed_rule_is_a_warning,
      DOC("{'name': 'all-feature', 'request': 'set_report', 'report_type': 'feature', 'report_id': 'any', 'action': 'deny'},"
	  RULE("f4", "'0xf4'", ", 'payload': [{'offset': 1, 'value': 0}]")),
      "t.json:1:218: devices[0].rules[1]: warning: rule \"f4\" can never match: rule \"all-feature\" (line 1: devices[0].rules[0]) comes first and matches every request it does")

VALID(rule_with_narrower_payload_first_shadows_nothing,
      DOC(RULE("cmd-90", "1", ", 'payload': [{'offset': 1, 'value': '0x90'}]") ","
	  RULE("all-1", "1", "")),
      NULL)

VALID(masked_payload_shadowing_is_recognised,
      DOC(RULE("high-bit", "1", ", 'payload': [{'offset': 1, 'value': '80', 'mask': '80'}]") ","
	  RULE("cmd-90", "1", ", 'payload': [{'offset': 1, 'value': '90'}]")),
      "t.json:1:268: devices[0].rules[1]: warning: rule \"cmd-90\" can never match: rule \"high-bit\" (line 1: devices[0].rules[0]) comes first and matches every request it does")

VALID(contradictory_payload_is_a_warning,
      DOC(RULE("never", "1", ", 'payload': [{'offset': 1, 'value': 1}, {'offset': 1, 'value': 2}]")),
      "t.json:1:105: devices[0].rules[0]: warning: rule \"never\" can never match: its payload conditions contradict each other")

VALID(catch_all_rule_set_shadows_later_rule_sets,
      "{'version': 1, 'devices': ["
      "{'match': {'bus': 'any', 'vendor': 'any', 'product': 'any'}, 'rules': ["
      "{'name': 'no-output', 'request': 'output_report', 'report_id': 'any', 'action': 'deny'}]},"
      "{'match': {'bus': 'usb', 'vendor': 1, 'product': 2}, 'rules': ["
      "{'name': 'out-5', 'request': 'output_report', 'report_id': 5, 'action': 'allow'}]}]}",
      "t.json:1:252: devices[1].rules[0]: warning: rule \"out-5\" can never match: rule \"no-output\" (line 1: devices[0].rules[0]) comes first and matches every request it does")

/* A deny rule NAME on SET_REPORT feature reports named by usage page (JSON) PAGE. */
#define PAGE_RULE(name, page, extra)                                           \
	"{'name': '" name "', 'request': 'set_report', 'report_type': 'feature', " \
	"'report_usage_page': " page ", 'action': 'deny'" extra "}"

VALID(a_report_usage_page_stands_for_a_report_id,
      DOC(PAGE_RULE("a", "'0xff02'", "") ","
	  PAGE_RULE("b", "65281", ", 'report_usage': '0x01'") ","
	  PAGE_RULE("c", "'0xff00'", ", 'report_id': '0x07', 'report_usage': 1")),
      NULL)

INVALID(report_usage_page_out_of_range_names_file_path_and_range,
	DOC(PAGE_RULE("a", "'0x1ff02'", "")),
	"t.json:1:191: devices[0].rules[0].report_usage_page: 0x1ff02 is out of range 0..65535")

INVALID(report_usage_page_must_be_a_number,
	DOC(PAGE_RULE("a", "'vendor'", "")),
	"t.json:1:191: devices[0].rules[0].report_usage_page: \"vendor\" is not a number (a JSON integer, or hex such as \"0x1f\")")

INVALID(report_usage_out_of_range,
	DOC(PAGE_RULE("a", "'0xff02'", ", 'report_usage': 70000")),
	"t.json:1:235: devices[0].rules[0].report_usage: 70000 is out of range 0..65535")

INVALID(report_usage_needs_a_page,
	DOC(RULE("a", "7", ", 'report_usage': 1")),
	"t.json:1:204: devices[0].rules[0].report_usage: \"report_usage\" needs \"report_usage_page\": a usage is on a page")

INVALID(neither_report_id_nor_usage_page,
	DOC("{'name': 'a', 'request': 'set_report', 'report_type': 'feature', 'action': 'deny'}"),
	"t.json:1:105: devices[0].rules[0]: missing required key \"report_id\" (or \"report_usage_page\")")

INVALID(report_usage_page_names_reports_of_one_type_even_on_one_path,
	DOC("{'name': 'a', 'request': ['set_report', 'output_report'], 'report_type': 'feature', 'report_usage_page': '0xff02', 'action': 'deny'}"),
	"t.json:1:210: devices[0].rules[0].report_usage_page: names the reports of one report type, and this rule's requests are on feature and output reports: split it, one rule per report type")

INVALID(report_usage_page_names_reports_of_one_type,
	DOC("{'name': 'a', 'request': ['set_report', 'output_report'], 'report_usage_page': '0xff02', 'action': 'deny'}"),
	"t.json:1:184: devices[0].rules[0].report_usage_page: names the reports of one report type, and this rule's requests are on feature, input and output reports: split it, one rule per report type")

VALID(a_usage_page_rule_overlaps_any_report_id_it_may_name,
      DOC("{'name': 'a', 'request': 'set_report', 'report_type': 'feature', 'report_usage_page': '0xff02', "
	  "'payload': [{'offset': 1, 'value': 16}], 'action': 'deny'},"
	  "{'name': 'b', 'request': 'set_report', 'report_type': 'feature', 'report_id': 9, 'action': 'allow'}"),
      "t.json:1:260: devices[0].rules[1]: warning: rule \"b\" (allow) overlaps rule \"a\" (line 1: devices[0].rules[0]), which comes first and denys some of the requests this rule would allow; say which wins by making one cover the other, or by narrowing one")

static const struct test_case tests[] = {
	{ "a_report_usage_page_stands_for_a_report_id", a_report_usage_page_stands_for_a_report_id },
	{ "report_usage_page_out_of_range_names_file_path_and_range", report_usage_page_out_of_range_names_file_path_and_range },
	{ "report_usage_page_must_be_a_number", report_usage_page_must_be_a_number },
	{ "report_usage_out_of_range", report_usage_out_of_range },
	{ "report_usage_needs_a_page", report_usage_needs_a_page },
	{ "neither_report_id_nor_usage_page", neither_report_id_nor_usage_page },
	{ "report_usage_page_names_reports_of_one_type", report_usage_page_names_reports_of_one_type },
	{ "report_usage_page_names_reports_of_one_type_even_on_one_path", report_usage_page_names_reports_of_one_type_even_on_one_path },
	{ "a_usage_page_rule_overlaps_any_report_id_it_may_name", a_usage_page_rule_overlaps_any_report_id_it_may_name },
	{ "minimal_policy_loads_without_messages", minimal_policy_loads_without_messages },
	{ "empty_device_list_is_valid_to_override_a_vendor_file", empty_device_list_is_valid_to_override_a_vendor_file },
	{ "every_form_of_report_id_is_accepted", every_form_of_report_id_is_accepted },
	{ "report_id_out_of_range_names_file_path_and_range", report_id_out_of_range_names_file_path_and_range },
	{ "integer_report_id_out_of_range", integer_report_id_out_of_range },
	{ "report_id_range_backwards_is_empty", report_id_range_backwards_is_empty },
	{ "report_id_list_item_path_is_indexed", report_id_list_item_path_is_indexed },
	{ "empty_report_id_list_matches_nothing", empty_report_id_list_matches_nothing },
	{ "syntax_error_gives_line_and_column", syntax_error_gives_line_and_column },
	{ "a_trailing_comma_is_named_at_the_comma", a_trailing_comma_is_named_at_the_comma },
	{ "a_trailing_comma_in_a_list_is_named_at_the_comma", a_trailing_comma_in_a_list_is_named_at_the_comma },
	{ "duplicate_json_key_is_a_syntax_error", duplicate_json_key_is_a_syntax_error },
	{ "unknown_keys_are_reported_at_every_level", unknown_keys_are_reported_at_every_level },
	{ "wrong_types_are_reported", wrong_types_are_reported },
	{ "commands_in_payload_must_be_a_boolean", commands_in_payload_must_be_a_boolean },
	{ "missing_required_keys_are_named", missing_required_keys_are_named },
	{ "match_keys_left_out_match_any", match_keys_left_out_match_any },
	{ "empty_match_would_match_every_device", empty_match_would_match_every_device },
	{ "empty_vendor_list_is_not_a_wildcard", empty_vendor_list_is_not_a_wildcard },
	{ "vendor_id_out_of_range", vendor_id_out_of_range },
	{ "unknown_bus_lists_the_choices", unknown_bus_lists_the_choices },
	{ "unsupported_format_version", unsupported_format_version },
	{ "a_version_in_a_string_says_to_write_the_number", a_version_in_a_string_says_to_write_the_number },
	{ "a_version_of_another_type_names_the_number", a_version_of_another_type_names_the_number },
	{ "misspelt_errno_and_mode_get_the_nearest_right_one", misspelt_errno_and_mode_get_the_nearest_right_one },
	{ "duplicate_rule_names_point_to_the_first", duplicate_rule_names_point_to_the_first },
	{ "rule_names_are_restricted", rule_names_are_restricted },
	{ "errno_belongs_to_deny_and_log_to_allow", errno_belongs_to_deny_and_log_to_allow },
	{ "enosys_is_refused_by_name_and_number", enosys_is_refused_by_name_and_number },
	{ "get_report_rules_take_no_payload", get_report_rules_take_no_payload },
	{ "report_type_applies_only_to_get_and_set", report_type_applies_only_to_get_and_set },
	{ "default_errno_needs_default_deny", default_errno_needs_default_deny },
	{ "payload_value_outside_mask", payload_value_outside_mask },
	{ "payload_mask_length_must_match_value", payload_mask_length_must_match_value },
	{ "payload_beyond_last_testable_byte", payload_beyond_last_testable_byte },
	{ "payload_over_condition_limit_is_an_error_not_a_truncation", payload_over_condition_limit_is_an_error_not_a_truncation },
	{ "payload_condition_longer_than_32_bytes", payload_condition_longer_than_32_bytes },
	{ "too_many_rules_in_one_rule_set", too_many_rules_in_one_rule_set },
	{ "all_problems_are_reported_in_one_run", all_problems_are_reported_in_one_run },
	{ "shadowed_rule_is_a_warning", shadowed_rule_is_a_warning },
	{ "rule_with_narrower_payload_first_shadows_nothing", rule_with_narrower_payload_first_shadows_nothing },
	{ "masked_payload_shadowing_is_recognised", masked_payload_shadowing_is_recognised },
	{ "contradictory_payload_is_a_warning", contradictory_payload_is_a_warning },
	{ "catch_all_rule_set_shadows_later_rule_sets", catch_all_rule_set_shadows_later_rule_sets },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-validate", tests, ARRAY_SIZE(tests));
}
