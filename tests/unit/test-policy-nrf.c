// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules naming an nRF Desktop configuration option ("nrf_config_option"):
 * what the language takes, how a rule compiles with the modules a device
 * listed (the option's event ID refused, the others passing; peers behind
 * a dongle whole), how it compiles before the device has told (the rule
 * whole, and every other frame of the channel refused to programs but the
 * daemon's own questions), and what the capacity check counts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy-helpers.h"

#define MOUSE USB_DEVICE(0x1915, 0x52de, "Nordic nRF52 Desktop Mouse")

/* The shipped file's shape: fwupd.service's allows, then a deny of the
 * reboot FETCH on both reports. */
static const char reboot_deny[] =
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x1915'}, 'rules': ["
	"{'name': 'fwupd', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0x06',"
	" 'sender': {'unit': 'fwupd.service'}, 'action': 'allow'},"
	"{'name': 'no-reboot', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0x06',"
	" 'payload': [{'offset': 3, 'value': '0x07'}], 'nrf_config_option': 'dfu/reboot',"
	" 'action': 'deny'},"
	"{'name': 'no-reboot-out', 'request': ['output_report', 'set_report'], 'report_type': 'output',"
	" 'report_id': '0x07', 'payload': [{'offset': 3, 'value': '0x07'}],"
	" 'nrf_config_option': 'dfu/reboot', 'action': 'deny'}]}]}";

static const struct hid_rule_exe daemon_exe = { .ino = 4242, .dev = 8 << 20 | 1 };
static const struct policy_sender_id daemon = { .known = true, .uid = 0, .gid = 0,
						.exe_known = true, .exe_ino = 4242,
						.exe_dev = 8 << 20 | 1 },
	root_elsewhere = { .known = true, .uid = 0, .gid = 0, .exe_known = true, .exe_ino = 77,
			   .exe_dev = 8 << 20 | 1 },
	user = { .known = true, .uid = 1000, .gid = 1000, .exe_known = true, .exe_ino = 90,
		 .exe_dev = 8 << 20 | 1 };

/* motion (module 0), dfu (1: start, data, sync, reboot, fwinfo), info (2) */
static void mouse_table(struct nrf_config_table *t)
{
	static const char *const dfu[] = { "start", "data", "sync", "reboot", "fwinfo" };

	memset(t, 0, sizeof(*t));
	t->told = true;
	t->n_modules = 3;
	strcpy(t->modules[0].name, "motion");
	strcpy(t->modules[1].name, "dfu");
	strcpy(t->modules[2].name, "info");
	t->modules[1].n_options = 5;
	for (int i = 0; i < 5; i++)
		strcpy(t->modules[1].options[i], dfu[i]);
}

static struct policy *load_clean(const char *doc)
{
	struct diag d = {};
	struct policy *p = load_text("t.json", doc, &d);

	CHECK(p, "policy rejected: %s", d.n ? d.entries[0].text : "no message");
	CHECK_EQ(d.n, 0);
	diag_done(&d);
	return p;
}

/* A frame as KIND: report ID, recipient, event ID, status, from WHO. */
static uint8_t frame_as(const struct hid_device_rules *r, uint8_t kind, uint8_t report_id,
			uint8_t recipient, uint8_t event_id, uint8_t status,
			const struct policy_sender_id *who)
{
	uint8_t f[NRF_CONFIG_REPORT_LEN] = { report_id, recipient, event_id, status };
	struct policy_request req = {
		.kind = kind, .report_id = report_id, .data = f, .len = sizeof(f), .sender = who,
	};
	struct policy_verdict v;

	policy_evaluate(r, &req, &v);
	return v.action;
}

static uint8_t feature_as(const struct hid_device_rules *r, uint8_t recipient, uint8_t event_id,
			  uint8_t status, const struct policy_sender_id *who)
{
	return frame_as(r, HID_RULE_KIND_SET_FEATURE, 0x06, recipient, event_id, status, who);
}

static void only_the_listed_options_event_id_is_refused(void)
{
	struct policy *p = load_clean(reboot_deny);
	struct policy_device dev = MOUSE;
	struct nrf_config_table t;
	struct hid_device_rules r;

	mouse_table(&t);
	dev.nrf = &t;
	dev.learner_exe = &daemon_exe;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	/* fwupd's allow; per rule, peers whole and the reboot's event ID */
	CHECK_EQ(r.n_rules, 1 + 2 + 2);
	/* dfu/reboot is 0x14 on this device: refused, on both reports */
	CHECK_EQ(feature_as(&r, 0, 0x14, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
	CHECK_EQ(frame_as(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x07, 0, 0x14, NRF_CONFIG_STATUS_FETCH,
			  &user), HID_RULE_DENY);
	/* fwupd's dfu/fwinfo and dfu/sync reads, and the module listing */
	CHECK_EQ(feature_as(&r, 0, 0x15, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_ALLOW);
	CHECK_EQ(feature_as(&r, 0, 0x13, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_ALLOW);
	CHECK_EQ(feature_as(&r, 0, 0x10, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_ALLOW);
	CHECK_EQ(frame_as(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x07, 0, 0x15, NRF_CONFIG_STATUS_FETCH,
			  &user), HID_RULE_ALLOW);
	/* another module's option 4 */
	CHECK_EQ(feature_as(&r, 0, 0x04, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_ALLOW);
	/* the rule's own condition stays: a SET of 0x14 is not its */
	CHECK_EQ(feature_as(&r, 0, 0x14, NRF_CONFIG_STATUS_SET, &user), HID_RULE_ALLOW);
	/* a peer behind a dongle, whose modules were not asked: every FETCH */
	CHECK_EQ(feature_as(&r, 1, 0x15, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
	/* once told, the daemon's own executable has no pass either */
	CHECK_EQ(feature_as(&r, 0, 0x14, NRF_CONFIG_STATUS_FETCH, &daemon), HID_RULE_DENY);
	CHECK_EQ(feature_as(&r, 0, 0x00, 3, &user), HID_RULE_ALLOW);
	policy_free(p);
}

/* Until the device has told, the channel is the daemon's. */
static void before_the_device_has_told_the_channel_is_the_daemons(void)
{
	struct policy *p = load_clean(reboot_deny);
	struct nrf_config_table none = { .told = false };
	struct policy_device dev = MOUSE;
	struct hid_device_rules r;

	dev.learner_exe = &daemon_exe;
	for (int pass = 0; pass < 2; pass++) {
		dev.nrf = pass ? &none : NULL;
		CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
		CHECK_EQ(r.n_rules, 1 + 4 + 4);
		/* every FETCH, from everyone but the rules' own allows */
		CHECK_EQ(feature_as(&r, 0, 0x15, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
		CHECK_EQ(feature_as(&r, 0, 0x10, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
		CHECK_EQ(frame_as(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x07, 0, 0x15,
				  NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
		/* and every other frame a program could answer in the daemon's
		 * place: the board name, the hardware ID, the highest module */
		CHECK_EQ(feature_as(&r, 0, 0x10, 3, &user), HID_RULE_DENY);
		CHECK_EQ(feature_as(&r, 0, 0x00, 2, &user), HID_RULE_DENY);
		CHECK_EQ(feature_as(&r, 0, 0x00, NRF_CONFIG_STATUS_GET_MAX_MOD_ID, &user),
			 HID_RULE_DENY);
		CHECK_EQ(frame_as(&r, HID_RULE_KIND_OUTPUT_REPORT, 0x07, 0, 0x00, 3, &user),
			 HID_RULE_DENY);
		/* the daemon's own questions pass, from its executable alone */
		CHECK_EQ(feature_as(&r, 0, 0x10, NRF_CONFIG_STATUS_FETCH, &daemon),
			 HID_RULE_ALLOW);
		CHECK_EQ(feature_as(&r, 0, 0x00, NRF_CONFIG_STATUS_GET_MAX_MOD_ID, &daemon),
			 HID_RULE_ALLOW);
		/* root running another file is refused */
		CHECK_EQ(feature_as(&r, 0, 0x10, NRF_CONFIG_STATUS_FETCH, &root_elsewhere),
			 HID_RULE_DENY);
		CHECK_EQ(feature_as(&r, 0, 0x00, 3, &root_elsewhere), HID_RULE_DENY);
		/* GET_REPORT carries nothing a program wrote: not the rule's */
		CHECK_EQ(frame_as(&r, HID_RULE_KIND_GET_FEATURE, 0x06, 0, 0x00, 0, &user),
			 HID_RULE_ALLOW);
		/* a driver's own request (kernel origin): the rule whole */
		{
			const struct policy_sender_id kernel = { .from_kernel = true };

			CHECK_EQ(feature_as(&r, 0, 0x15, NRF_CONFIG_STATUS_FETCH, &kernel),
				 HID_RULE_DENY);
			CHECK_EQ(feature_as(&r, 0, 0x00, 3, &kernel), HID_RULE_ALLOW);
		}
	}
	policy_free(p);
}

/* The daemon asks only where its questions pass: without its executable
 * known, none does, and the rule refuses them too. */
static void without_the_daemons_executable_nobody_asks(void)
{
	struct policy *p = load_clean(reboot_deny);
	struct policy_device dev = MOUSE;
	struct hid_device_rules r;

	dev.learner_exe = NULL;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	CHECK_EQ(r.n_rules, 1 + 2 + 2);
	CHECK_EQ(feature_as(&r, 0, 0x10, NRF_CONFIG_STATUS_FETCH, &daemon), HID_RULE_DENY);
	CHECK_EQ(feature_as(&r, 0, 0x00, NRF_CONFIG_STATUS_GET_MAX_MOD_ID, &daemon),
		 HID_RULE_DENY);
	policy_free(p);
}

/* A device that listed no dfu module, or none with a reboot option: only
 * the peers' frames are refused. */
static void a_device_without_the_option_refuses_only_its_peers(void)
{
	struct policy *p = load_clean(reboot_deny);
	struct policy_device dev = MOUSE;
	struct nrf_config_table t;
	struct hid_device_rules r;

	mouse_table(&t);
	t.modules[1].n_options = 3;	/* start, data, sync */
	dev.nrf = &t;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	CHECK_EQ(r.n_rules, 1 + 1 + 1);
	CHECK_EQ(feature_as(&r, 0, 0x14, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_ALLOW);
	CHECK_EQ(feature_as(&r, 2, 0x14, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
	policy_free(p);
}

/* An allow naming an option applies once the device has told, and to
 * nothing before: the option cannot be told from the others. */
static void an_allow_applies_only_where_the_device_listed_it(void)
{
	static const char doc[] =
		"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x1915'},"
		" 'default': 'deny', 'rules': ["
		"{'name': 'fwinfo', 'request': 'set_report', 'report_type': 'feature',"
		" 'report_id': '0x06', 'nrf_config_option': 'dfu/fwinfo', 'action': 'allow'},"
		"{'name': 'input', 'request': 'input_event', 'report_id': 'any', 'action': 'allow'}]}]}";
	struct policy *p = load_clean(doc);
	struct policy_device dev = MOUSE;
	struct nrf_config_table t;
	struct hid_device_rules r;

	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	CHECK_EQ(r.n_rules, 1);	/* the input rule */
	CHECK_EQ(feature_as(&r, 0, 0x15, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
	mouse_table(&t);
	dev.nrf = &t;
	CHECK_EQ(policy_compile(p, &dev, &r, NULL), 0);
	CHECK_EQ(r.n_rules, 2);
	CHECK_EQ(feature_as(&r, 0, 0x15, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_ALLOW);
	CHECK_EQ(feature_as(&r, 0, 0x14, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
	CHECK_EQ(feature_as(&r, 1, 0x15, NRF_CONFIG_STATUS_FETCH, &user), HID_RULE_DENY);
	policy_free(p);
}

static void only_devices_whose_rules_name_an_option_are_asked(void)
{
	struct policy *p = load_clean(reboot_deny);
	struct policy_device mouse = MOUSE, other = USB_DEVICE(0x046d, 0xc548, "Logitech");

	CHECK(policy_names_nrf_options(p, &mouse), "the mouse's rules name dfu/reboot");
	CHECK(!policy_names_nrf_options(p, &other), "no rule of the other device names one");
	policy_free(p);
}

static void a_policy_that_can_overflow_on_some_device_is_refused_at_load(void)
{
	char doc[16384];
	size_t len;
	struct diag d = {};
	struct policy *p;

	/* 16 rules of 4 copies: 64, what a device holds */
	len = (size_t)snprintf(doc, sizeof(doc),
			       "{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x1915'}, 'rules': [");
	for (int i = 0; i < 17; i++)
		len += (size_t)snprintf(doc + len, sizeof(doc) - len,
					"%s{'name': 'r%d', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0x06', 'payload': [{'offset': 5, 'value': %d}], 'nrf_config_option': 'dfu/reboot', 'action': 'deny'}",
					i ? ", " : "", i, i);
	snprintf(doc + len, sizeof(doc) - len, "]}]}");
	p = load_text("t.json", doc, &d);
	CHECK(!p, "a policy of 17 rules of %d copies loaded", POLICY_NRF_RULE_COPIES);
	CHECK(d.n > 0, "no message");
	CHECK(strstr(d.entries[0].text, "68"), "unexpected message: %s", d.entries[0].text);
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
		"DIR/60-nrf.json:4:112: devices[0].rules[0].nrf_config_option: expected \"MODULE/OPTION\" as the device lists them in its configuration channel, each 1-16 printable characters, such as \"dfu/reboot\"; got \"reboot\"",
		"DIR/60-nrf.json:5:112: devices[0].rules[1].nrf_config_option: expected \"MODULE/OPTION\" as the device lists them in its configuration channel, each 1-16 printable characters, such as \"dfu/reboot\"; got \"dfu/a_name_longer_than_16\"",
		"DIR/60-nrf.json:6:112: devices[0].rules[2].nrf_config_option: expected \"MODULE/OPTION\" as the device lists them in its configuration channel, each 1-16 printable characters, such as \"dfu/reboot\"; got 20",
		"DIR/60-nrf.json:7:83: devices[0].rules[3].report_id: a rule naming an nRF Desktop configuration option names only the configuration channel's reports: 0x06 (feature) and 0x07 (output)",
		"DIR/60-nrf.json:8:30: devices[0].rules[4].request: a rule naming an nRF Desktop configuration option applies to the requests that write a configuration frame: \"set_report\" of feature report 0x06, \"output_report\" and \"set_report\" of output report 0x07 (a GET_REPORT or an input event carries nothing the caller wrote)",
		"DIR/60-nrf.json:9:60: devices[0].rules[5].report_id: a rule naming a HID++ feature names only HID++ reports: 0x10, 0x11 or 0x12 (short, long, very long)",
		"DIR/60-nrf.json:9:68: devices[0].rules[5].nrf_config_option: a rule names a HID++ feature or an nRF Desktop configuration option, not both",
		NULL,
	};

	write_policy(dir, "60-nrf.json",
		"{'version': 1, 'devices': [\n"
		"  {'match': {'bus': 'usb', 'vendor': '0x1915'},\n"
		"   'rules': [\n"
		"    {'name': 'a', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0x06', 'nrf_config_option': 'reboot', 'action': 'deny'},\n"
		"    {'name': 'b', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0x06', 'nrf_config_option': 'dfu/a_name_longer_than_16', 'action': 'deny'},\n"
		"    {'name': 'c', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0x06', 'nrf_config_option': 20, 'action': 'deny'},\n"
		"    {'name': 'd', 'request': 'set_report', 'report_type': 'feature', 'report_id': ['0x06', '0x08'], 'nrf_config_option': 'dfu/reboot', 'action': 'deny'},\n"
		"    {'name': 'e', 'request': 'get_report', 'report_id': '0x06', 'nrf_config_option': 'dfu/reboot', 'action': 'deny'},\n"
		"    {'name': 'f', 'request': 'output_report', 'report_id': '0x07', 'nrf_config_option': 'dfu/reboot', 'hidpp_feature': '0xd0', 'action': 'deny'}\n"
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

static void explain_names_the_listed_option_or_says_nothing_is_listed(void)
{
	struct policy *p = load_clean(reboot_deny);
	struct policy_device dev = MOUSE;
	struct nrf_config_table t;
	struct policy_verdict v;
	const uint8_t reboot[] = { 0x06, 0x00, 0x14, 0x07, 0x00 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&text, &len);
	CHECK_EQ(policy_explain(p, &dev, &(struct policy_request){ .kind = HID_RULE_KIND_SET_FEATURE,
		 .report_id = 0x06, .data = reboot, .len = sizeof(reboot) }, NULL, f, &v), 1);
	fclose(f);
	/* the guard's copy depends on the sender's origin */
	CHECK_EQ(v.action, HID_RULE_DENY);
	CHECK(strstr(text, "nRF Desktop configuration modules the device listed: none yet"), "%s", text);
	free(text);

	mouse_table(&t);
	dev.nrf = &t;
	f = open_memstream(&text, &len);
	CHECK_EQ(policy_explain(p, &dev, &(struct policy_request){ .kind = HID_RULE_KIND_SET_FEATURE,
		 .report_id = 0x06, .data = reboot, .len = sizeof(reboot) }, NULL, f, &v), 0);
	fclose(f);
	CHECK_EQ(v.action, HID_RULE_DENY);
	CHECK(strstr(text, "listed: motion (module 0, 0 options), dfu (module 1, 5 options), info (module 2, 0 options)"), "%s", text);
	CHECK(strstr(text, "configuration frame: recipient 0x00, event ID 0x14: dfu/reboot"), "%s", text);
	free(text);
	policy_free(p);
}

static const struct test_case tests[] = {
	{ "explain_names_the_listed_option_or_says_nothing_is_listed", explain_names_the_listed_option_or_says_nothing_is_listed },
	{ "only_the_listed_options_event_id_is_refused", only_the_listed_options_event_id_is_refused },
	{ "before_the_device_has_told_the_channel_is_the_daemons", before_the_device_has_told_the_channel_is_the_daemons },
	{ "without_the_daemons_executable_nobody_asks", without_the_daemons_executable_nobody_asks },
	{ "a_device_without_the_option_refuses_only_its_peers", a_device_without_the_option_refuses_only_its_peers },
	{ "an_allow_applies_only_where_the_device_listed_it", an_allow_applies_only_where_the_device_listed_it },
	{ "only_devices_whose_rules_name_an_option_are_asked", only_devices_whose_rules_name_an_option_are_asked },
	{ "a_policy_that_can_overflow_on_some_device_is_refused_at_load", a_policy_that_can_overflow_on_some_device_is_refused_at_load },
	{ "mistakes_are_reported_at_their_place", mistakes_are_reported_at_their_place },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-nrf", tests, ARRAY_SIZE(tests));
}
