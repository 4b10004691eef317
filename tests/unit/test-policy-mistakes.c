// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every kind of mistake a policy can hold is reported with the full path of
 * its file, the line and column where the value (or key) starts, its JSON
 * path, and, for a misspelling, the nearest right spelling. The files are
 * written in directories as an administrator would, several lines long.
 */
#include <stdio.h>
#include <stdlib.h>

#include "policy-helpers.h"

/* Load DIRS (NULL-ended); the messages must be exactly EXPECTED, each with
 * "DIR<n>/" standing for dirs[n]. */
static struct policy *load(const char *const *dirs, struct diag *d)
{
	size_t n = 0;
	struct policy *p = NULL;

	while (dirs[n])
		n++;
	policy_load_dirs(dirs, n, true, d, &p);
	return p;
}

static void check_all(const struct diag *d, const char *dir, const char *const *expected)
{
	const char *full[32];
	size_t n = 0;

	for (; expected[n]; n++)
		full[n] = in_dir(dir, expected[n]);
	full[n] = NULL;
	check_messages(d, full);
	for (size_t i = 0; i < n; i++)
		free((char *)full[i]);
}
/* Rename DIR/FROM to DIR/TO. */
static void rename_in(const char *dir, const char *from, const char *to)
{
	char a[4096], b[4096];

	snprintf(a, sizeof(a), "%s/%s", dir, from);
	snprintf(b, sizeof(b), "%s/%s", dir, to);
	CHECK_EQ(rename(a, b), 0);
}

#define CHECK_ALL(d, dir, ...) check_all(d, dir, (const char *const[]){ __VA_ARGS__, NULL })

static void misspellings_and_numbers_point_at_their_place(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};

	write_policy(dir, "10-pad.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'bus': 'usb', 'vendr': '0x054c', 'product': '0ce6'},\n"
		"   'rules': [\n"
		"    {'name': 'a', 'reqest': 'set_report', 'report_type': 'feature',\n"
		"     'report_id': '0xf4', 'action': 'deny'},\n"
		"    {'name': 'b', 'request': 'output_report', 'report_id': 'f4', 'action': 'dney'},\n"
		"    {'name': 'c', 'request': 'set_report', 'report_type': 'outptu', 'report_id': 1,\n"
		"     'payload': [{'offset': '1', 'value': '90'}], 'action': 'deny'}]},\n"
		"  {'match': {'usage': 'gamepad', 'bus': 'usb'}, 'rules': []}\n"
		"]}\n");
	CHECK(!load((const char *[]){ dir, NULL }, &d), "accepted");
	CHECK_ALL(&d, dir,
		  "10-pad.json:2:28: devices[0].match: unknown key \"vendr\"; did you mean \"vendor\"?",
		  "10-pad.json:2:58: devices[0].match.product: warning: \"0ce6\" is an ID in the old spelling, hex without \"0x\", read as 0x0ce6 as before; write \"0x0ce6\" (a number in a string is hex and starts with \"0x\")",
		  "10-pad.json:4:19: devices[0].rules[0]: unknown key \"reqest\"; did you mean \"request\"?",
		  "10-pad.json:4:5: devices[0].rules[0]: missing required key \"request\"",
		  "10-pad.json:6:60: devices[0].rules[1].report_id: \"f4\" is not a report ID (0..255, \"0x..\", \"0xlo-0xhi\" or \"any\"): a number in a string is hex and starts with \"0x\"; write \"0xf4\"",
		  "10-pad.json:6:76: devices[0].rules[1].action: expected \"allow\" or \"deny\", got \"dney\"; did you mean \"deny\"?",
		  "10-pad.json:7:59: devices[0].rules[2].report_type: expected \"feature\", \"input\", \"output\" or \"any\", got \"outptu\"; did you mean \"output\"?",
		  "10-pad.json:8:29: devices[0].rules[2].payload[0].offset: warning: \"1\" is a number in the old spelling, a decimal string, read as 1 as before; write 1 (a JSON integer) or \"0x01\" (a number in a string is hex and starts with \"0x\")",
		  "10-pad.json:9:23: devices[1].match.usage: \"gamepad\" is not a device class (pointer, mouse, joystick, game_pad, keyboard, keypad, multi_axis_controller, system_control, consumer_control, vendor_defined, game_controller) nor a usage \"0xPPPP:0xUUUU\" or page \"0xPPPP\"; did you mean \"game_pad\"?");
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

static void lockout_is_an_error_at_the_default_and_at_the_rule(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};

	write_policy(dir, "90-lock.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'bus': 'any', 'vendor': 'any', 'product': 'any'},\n"
		"   'default': 'deny',\n"
		"   'rules': [{'name': 'feature-ok', 'request': 'get_report', 'report_type': 'feature',\n"
		"              'report_id': 'any', 'action': 'allow'}]},\n"
		"  {'match': {'usage': 'keyboard'},\n"
		"   'rules': [{'name': 'no-kbd', 'request': 'any', 'report_id': 'any', 'action': 'deny'}]}\n"
		"]}\n");
	CHECK(!load((const char *[]){ dir, NULL }, &d), "a lockout policy was accepted");
	CHECK_ALL(&d, dir,
		  "90-lock.json:3:15: devices[0].default: \"default\": \"deny\" refuses input events too, which would lock out keyboards and mice: add a rule for \"input_event\" (e.g. {\"name\": \"...-input\", \"request\": \"input_event\", \"report_id\": \"any\", \"action\": \"allow\"})",
		  "90-lock.json:7:14: devices[1].rules[0]: rule \"no-kbd\" denies input events (\"request\": \"any\"), which would lock out keyboards and mice: list the requests it refuses (get_report, set_report, output_report), or name \"input_event\" to refuse input on purpose");
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

/* Naming input_event says a rule set means to refuse input, but never for
 * every keyboard or mouse: each way a match takes them all in is an error,
 * at the rule or the default that would drop their input. */
static void refusing_the_input_of_every_keyboard_or_mouse_is_an_error(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};

	write_policy(dir, "90-lock.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'usage': 'keyboard'},\n"
		"   'rules': [{'name': 'no-keys', 'request': 'input_event', 'report_id': 'any', 'action': 'deny'}]},\n"
		"  {'match': [{'vendor': '0x1234', 'product': '0x5678'}, {'bus': 'usb', 'interface': 0}],\n"
		"   'rules': [{'name': 'no-high-ids', 'request': 'input_event', 'report_id': '0x01-0xff', 'action': 'deny'}]},\n"
		"  {'match': {'usage': '0x0001', 'name': '*'},\n"
		"   'rules': [{'name': 'no-desktop', 'request': 'input_event', 'report_id': 0,\n"
		"              'payload': [{'offset': 0, 'value': 1}], 'action': 'deny'}]},\n"
		"  {'match': {'usage': 'mouse', 'bus': 'bluetooth'}, 'default': 'deny',\n"
		"   'rules': [{'name': 'mouse-id-1', 'request': 'input_event', 'report_id': 1, 'action': 'allow'}]},\n"
		"  {'match': {'bus': ['i2c', 'virtual']}, 'mode': 'audit', 'default': 'deny',\n"
		"   'rules': [{'name': 'trial-no-input', 'request': 'input_event', 'report_id': 'any', 'action': 'deny'}]},\n"
		"  {'match': {'bus': 'any'},\n"
		"   'rules': [{'name': 'no-input', 'request': ['any', 'input_event'], 'report_id': 'any', 'action': 'deny'}]}\n"
		"]}\n");
	CHECK(!load((const char *[]){ dir, NULL }, &d), "a lockout policy was accepted");
	CHECK_ALL(&d, dir,
		  "90-lock.json:3:14: devices[0].rules[0]: rule \"no-keys\" denies input events of every keyboard and mouse devices[0].match takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: match only the devices whose input it refuses (by vendor and product, uniq or descriptor_sha256)",
		  "90-lock.json:5:14: devices[1].rules[0]: rule \"no-high-ids\" denies input events of every keyboard and mouse devices[1].match[1] takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: match only the devices whose input it refuses (by vendor and product, uniq or descriptor_sha256)",
		  "90-lock.json:7:14: devices[2].rules[0]: rule \"no-desktop\" denies input events of every keyboard and mouse devices[2].match takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: match only the devices whose input it refuses (by vendor and product, uniq or descriptor_sha256)",
		  "90-lock.json:9:64: devices[3].default: \"default\": \"deny\" refuses the input events no rule allows, of every keyboard and mouse devices[3].match takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: allow every input event (e.g. {\"name\": \"...-input\", \"request\": \"input_event\", \"report_id\": \"any\", \"action\": \"allow\"}), or match only the devices to lock down",
		  "90-lock.json:12:14: devices[4].rules[0]: rule \"trial-no-input\" denies input events of every keyboard and mouse devices[4].match takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: match only the devices whose input it refuses (by vendor and product, uniq or descriptor_sha256)",
		  "90-lock.json:11:70: devices[4].default: \"default\": \"deny\" refuses the input events no rule allows, of every keyboard and mouse devices[4].match takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: allow every input event (e.g. {\"name\": \"...-input\", \"request\": \"input_event\", \"report_id\": \"any\", \"action\": \"allow\"}), or match only the devices to lock down",
		  "90-lock.json:14:14: devices[5].rules[0]: rule \"no-input\" denies input events of every keyboard and mouse devices[5].match takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: match only the devices whose input it refuses (by vendor and product, uniq or descriptor_sha256)");
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

/* Refusing input on purpose stays possible where the match leaves most
 * keyboards and mice out, and deny by default where every input passes. */
static void refusing_input_of_chosen_devices_is_no_lockout(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p;

	write_policy(dir, "60-chosen.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'usage': 'keyboard', 'vendor': '0x1234'},\n"
		"   'rules': [{'name': 'kbd-1234', 'request': 'input_event', 'report_id': 'any', 'action': 'deny'}]},\n"
		"  {'match': {'bus': 'usb', 'uniq': 'SN-0042'},\n"
		"   'rules': [{'name': 'sn-0042', 'request': ['any', 'input_event'], 'report_id': 'any', 'action': 'deny'}]},\n"
		"  {'match': {'usage': 'game_pad'},\n"
		"   'rules': [{'name': 'pads', 'request': 'input_event', 'report_id': '0x80-0xff', 'action': 'deny'}]},\n"
		"  {'match': {'bus': 'virtual', 'name': 'Test*'},\n"
		"   'rules': [{'name': 'virtual-test', 'request': 'input_event', 'report_id': 'any', 'action': 'deny'}]},\n"
		"  {'match': {'bus': 'any'}, 'default': 'deny',\n"
		"   'rules': [{'name': 'all-input', 'request': 'input_event', 'report_id': 'any', 'action': 'allow'},\n"
		"             {'name': 'late-deny', 'request': 'input_event', 'report_id': 5, 'action': 'deny'}]}\n"
		"]}\n");
	p = load((const char *[]){ dir, NULL }, &d);
	CHECK(p, "a policy refusing chosen devices' input was rejected");
	CHECK_EQ(d.n_errors, 0);
	policy_free(p);
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

static void naming_input_event_makes_deny_by_default_deliberate(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p;

	write_policy(dir, "50-one.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'bus': 'usb', 'uniq': 'SN-0042'}, 'default': 'deny',\n"
		"   'rules': [{'name': 'one-input', 'request': 'input_event', 'report_id': 'any', 'action': 'allow'}]},\n"
		"  {'match': {'usage': 'vendor_defined'},\n"
		"   'rules': [{'name': 'vd-deny', 'request': ['any', 'input_event'], 'report_id': '0x80-0xff', 'action': 'deny'}]}\n"
		"]}\n");
	p = load((const char *[]){ dir, NULL }, &d);
	CHECK(p, "rejected");
	CHECK_EQ(d.n, 0);
	policy_free(p);
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

/* A deny of "any" request whose payload conditions contradict each other
 * never matches: it refuses no input event, and only that is said. */
static void a_rule_that_can_never_match_locks_nobody_out(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p;
	char *msg;

	write_policy(dir, "40-never.json",
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x057e', 'product': '0x2009'}, 'rules': [\n"
		"  {'name': 'never', 'request': 'any', 'report_id': 3,\n"
		"   'payload': [{'offset': 1, 'value': 1}, {'offset': 1, 'value': 2}], 'action': 'deny'}]}]}\n");
	p = load((const char *[]){ dir, NULL }, &d);
	CHECK(p, "a rule that can never match was taken for a lockout");
	msg = in_dir(dir, "40-never.json:2:3: devices[0].rules[0]: warning: rule \"never\" can never match: its payload conditions contradict each other");
	CHECK_MESSAGES(&d, msg);
	free(msg);
	policy_free(p);
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

static void override_in_etc_is_named_by_its_full_path(void)
{
	char *vendor = make_temp_dir(), *etc = make_temp_dir();
	struct diag d = {};
	char *msg;

	write_policy(vendor, "20-pad.json", "{'version': 1, 'devices': []}");
	write_policy(etc, "20-pad.json",
		"{'version': 1,\n"
		" 'devices': [{'match': {'bus': 'usb'}, 'mode': 'enforced', 'rules': []}]}\n");
	CHECK(!load((const char *[]){ vendor, etc, NULL }, &d), "accepted");
	msg = in_dir(etc, "20-pad.json:2:48: devices[0].mode: expected \"enforce\" or \"audit\", got \"enforced\"; did you mean \"enforce\"?");
	CHECK_MESSAGES(&d, msg);
	free(msg);
	diag_done(&d);
	rm_tree(vendor);
	rm_tree(etc);
	free(vendor);
	free(etc);
}

static void shadowed_overlapping_and_duplicate_rules_across_files(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p;

	write_policy(dir, "10-a.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'vendor': '0x28de'}, 'rules': [\n"
		"    {'name': 'allow-cmd-90', 'request': 'set_report', 'report_type': 'feature', 'report_id': 0,\n"
		"     'payload': [{'offset': 1, 'value': '0x90'}], 'action': 'allow'},\n"
		"    {'name': 'deny-low-ids', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0x00-0x0f',\n"
		"     'action': 'deny'}]}\n"
		"]}\n");
	write_policy(dir, "20-b.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'vendor': '0x28de', 'product': '0x1205'}, 'rules': [\n"
		"    {'name': 'deny-id-3', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,\n"
		"     'action': 'deny'},\n"
		"    {'name': 'deny-cmd-90-out', 'request': ['set_report', 'output_report'], 'report_id': 0,\n"
		"     'payload': [{'offset': 1, 'value': '0x90'}, {'offset': 2, 'value': 1}], 'action': 'deny'}]}\n"
		"]}\n");
	write_policy(dir, "30-c.json",
		"{'version': 1, 'devices': [{'match': {'bus': 'bluetooth'}, 'rules': [\n"
		"  {'name': 'deny-id-3', 'request': 'output_report', 'report_id': 3, 'action': 'deny'}]}]}\n");
	write_policy(dir, "30-c.json.dpkg-old", "{}");
	p = load((const char *[]){ dir, NULL }, &d);
	CHECK(!p, "a duplicate rule name was accepted");
	CHECK_ALL(&d, dir,
		  "30-c.json.dpkg-old: warning: not read: rule files are named *.json (and do not start with a dot)",
		  "30-c.json:2:3: devices[0].rules[0]: duplicate rule name \"deny-id-3\" (first defined at DIR/20-b.json:3:5: devices[0].rules[0])",
		  "20-b.json:3:5: devices[0].rules[0]: warning: rule \"deny-id-3\" can never match: rule \"deny-low-ids\" (DIR/10-a.json:5:5: devices[0].rules[1]) comes first and matches every request it does",
		  "20-b.json:5:5: devices[0].rules[1]: warning: rule \"deny-cmd-90-out\" (deny) overlaps rule \"allow-cmd-90\" (DIR/10-a.json:3:5: devices[0].rules[0]), which comes first and allows some of the requests this rule would deny; say which wins by making one cover the other, or by narrowing one");
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

/* An allow for one sender before a deny for everyone is an exception, not a
 * rule that hides the deny (a rule for some senders shadows nothing); the
 * same allow after the deny can never match. */
static void an_allow_for_one_sender_does_not_shadow_the_deny_after_it(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p;
	char *msg;

	write_policy(dir, "30-fw.json",
		"{'version': 1, 'devices': [{'match': {'usage': 'game_controller'}, 'rules': [\n"
		"  {'name': 'fw-root', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf0',\n"
		"   'sender': {'user': 'root'}, 'action': 'allow'},\n"
		"  {'name': 'fw-deny', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf0',\n"
		"   'action': 'deny'},\n"
		"  {'name': 'fw-root-late', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf0',\n"
		"   'sender': {'user': 'root'}, 'action': 'allow'}]}]}\n");
	p = load((const char *[]){ dir, NULL }, &d);
	CHECK(p, "rejected");
	msg = in_dir(dir, "30-fw.json:6:3: devices[0].rules[2]: warning: rule \"fw-root-late\" can never match: rule \"fw-deny\" (line 4: devices[0].rules[1]) comes first and matches every request it does");
	CHECK_MESSAGES(&d, msg);
	free(msg);
	policy_free(p);
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

/* Across files the same allow is no exception a file's author wrote: a
 * local file read first takes the vendor's deny away from its senders,
 * and the warning names both rules and the file to sort after. The vendor
 * file's own exception for the same sender is none of the local file's
 * doing. */
static void an_allow_for_one_sender_in_an_earlier_file_takes_from_a_later_deny(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p;
	char *msg;

	write_policy(dir, "10-local.json",
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x28de', 'product': '0x1205'},\n"
		"  'rules': [\n"
		"    {'name': 'helper-writes', 'request': ['set_report', 'output_report'], 'report_id': 'any',\n"
		"     'sender': {'unit': 'helper.service'}, 'action': 'allow'},\n"
		"    {'name': 'updater-writes', 'request': ['set_report', 'output_report'], 'report_id': 0,\n"
		"     'sender': {'unit': 'updater.service'}, 'action': 'allow'}]}]}\n");
	write_policy(dir, "40-vendor.json",
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x28de', 'product': ['0x1205', '0x1102']},\n"
		"  'rules': [\n"
		"    {'name': 'updater-may', 'request': ['set_report', 'output_report'], 'report_id': 0,\n"
		"     'sender': {'unit': 'updater.service'}, 'action': 'allow'},\n"
		"    {'name': 'deny-isp', 'request': ['set_report', 'output_report'], 'report_id': 0,\n"
		"     'payload': [{'offset': 1, 'value': '0x90'}], 'action': 'deny'}]}]}\n");
	p = load((const char *[]){ dir, NULL }, &d);
	CHECK(p, "rejected");
	msg = in_dir(dir, "10-local.json:3:5: devices[0].rules[0]: warning: rule \"helper-writes\" (allow, for its senders) takes requests from the deny of rule \"deny-isp\" (DIR/40-vendor.json:5:5: devices[0].rules[1]), in a file read after this one: the first rule that matches decides, and files are read in the order of their names across the directories; to keep the deny, name this file to sort after 40-vendor.json");
	CHECK_MESSAGES(&d, msg);
	free(msg);
	policy_free(p);
	diag_done(&d);

	/* read after the vendor's file, it takes nothing from it */
	rename_in(dir, "10-local.json", "45-local.json");
	p = load((const char *[]){ dir, NULL }, &d);
	CHECK(p, "rejected");
	CHECK_EQ(d.n, 0);
	policy_free(p);
	diag_done(&d);
	rm_tree(dir);
	free(dir);
}

static const struct test_case tests[] = {
	{ "misspellings_and_numbers_point_at_their_place", misspellings_and_numbers_point_at_their_place },
	{ "lockout_is_an_error_at_the_default_and_at_the_rule", lockout_is_an_error_at_the_default_and_at_the_rule },
	{ "refusing_the_input_of_every_keyboard_or_mouse_is_an_error",
	  refusing_the_input_of_every_keyboard_or_mouse_is_an_error },
	{ "refusing_input_of_chosen_devices_is_no_lockout", refusing_input_of_chosen_devices_is_no_lockout },
	{ "naming_input_event_makes_deny_by_default_deliberate", naming_input_event_makes_deny_by_default_deliberate },
	{ "a_rule_that_can_never_match_locks_nobody_out", a_rule_that_can_never_match_locks_nobody_out },
	{ "override_in_etc_is_named_by_its_full_path", override_in_etc_is_named_by_its_full_path },
	{ "shadowed_overlapping_and_duplicate_rules_across_files", shadowed_overlapping_and_duplicate_rules_across_files },
	{ "an_allow_for_one_sender_does_not_shadow_the_deny_after_it", an_allow_for_one_sender_does_not_shadow_the_deny_after_it },
	{ "an_allow_for_one_sender_in_an_earlier_file_takes_from_a_later_deny",
	  an_allow_for_one_sender_in_an_earlier_file_takes_from_a_later_deny },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-mistakes", tests, ARRAY_SIZE(tests));
}
