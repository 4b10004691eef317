// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An explanation for a sender (hid-policyctl explain --user ...): the rule
 * that decides is the one the firewall's evaluation picks for that sender,
 * the text says why each earlier rule does not match it, and where the
 * question leaves open what a rule's sender tests, it says the outcome
 * depends on the sender instead of picking one.
 */
#include <dlfcn.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy-helpers.h"

static const struct policy_device DEVICE = { .bus = 0x03, .vendor = 0x046d, .product = 0xc52b };

/* Four rules on one request: a group's allow, a user's deny, the drivers'
 * allow, and a deny for everyone else. */
#define FOUR_RULES \
	"{'name': 'tools', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3," \
	" 'sender': {'group': 4242}, 'action': 'allow'}," \
	"{'name': 'not-61000', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3," \
	" 'sender': {'user': 61000}, 'action': 'deny'}," \
	"{'name': 'drivers', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3," \
	" 'sender': {'origin': 'kernel'}, 'action': 'allow'}," \
	"{'name': 'rest', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3," \
	" 'action': 'deny'}"

static struct policy *load_rules(const char *rules)
{
	struct diag d = {};
	char doc[4096];
	struct policy *p;

	snprintf(doc, sizeof(doc),
		 "{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'}, 'rules': [%s]}]}",
		 rules);
	p = load_text("t.json", doc, &d);
	CHECK(p && d.n_errors == 0, "policy rejected");
	diag_done(&d);
	return p;
}

struct explained {
	char *text;
	struct policy_verdict v;
	int depends;
};

/* Explain a feature SET_REPORT with report ID 3 sent by WHO. */
static struct explained explain(const struct policy *p, const struct policy_subject *who)
{
	uint8_t data[] = { 3, 0 };
	const struct policy_request req = { .kind = HID_RULE_KIND_SET_FEATURE, .report_id = 3,
					    .data = data, .len = sizeof(data) };
	struct explained e = {};
	size_t len = 0;
	FILE *f = open_memstream(&e.text, &len);

	CHECK(f, "open_memstream");
	e.depends = policy_explain(p, &DEVICE, &req, who, f, &e.v);
	CHECK_EQ(fclose(f), 0);
	CHECK(e.depends >= 0, "policy_explain: %d", e.depends);
	return e;
}

/* What the firewall's evaluation picks for ID, to hold the explanation to. */
static int firewall_rule(const struct policy *p, const struct policy_sender_id *id)
{
	uint8_t data[] = { 3, 0 };
	const struct policy_request req = { .kind = HID_RULE_KIND_SET_FEATURE, .report_id = 3,
					    .data = data, .len = sizeof(data), .sender = id };
	struct hid_device_rules r;
	struct policy_verdict v;

	CHECK_EQ(policy_compile(p, &DEVICE, &r, NULL), 0);
	policy_evaluate(&r, &req, &v);
	return v.rule;
}

#define CHECK_TEXT(e, s) CHECK(strstr((e).text, (s)), "no \"%s\" in:\n%s", (s), (e).text)
#define CHECK_NO_TEXT(e, s) CHECK(!strstr((e).text, (s)), "\"%s\" in:\n%s", (s), (e).text)

static void a_named_sender_gets_the_rule_the_firewall_picks_and_why(void)
{
	struct policy *p = load_rules(FOUR_RULES);
	const uint32_t member_of[] = { 100, 4242 }, other[] = { 100 };
	const struct policy_subject member = {
		.given = POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS,
		.uid = 61000, .gid = 61000, .groups = member_of, .n_groups = 2,
	};
	const struct policy_subject user = {
		.given = POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS,
		.uid = 61000, .gid = 61000, .groups = other, .n_groups = 1,
	};
	const struct policy_subject stranger = {
		.given = POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS | POLICY_SUBJECT_ORIGIN,
		.uid = 61001, .gid = 61001,
	};
	const struct policy_subject driver = { .given = POLICY_SUBJECT_ORIGIN, .from_kernel = true };
	const struct policy_sender_id member_id = { .known = true, .uid = 61000, .gid = 61000,
						    .groups = member_of, .n_groups = 2 };
	const struct policy_sender_id user_id = { .known = true, .uid = 61000, .gid = 61000,
						  .groups = other, .n_groups = 1 };
	const struct policy_sender_id stranger_id = { .known = true, .uid = 61001, .gid = 61001 };
	const struct policy_sender_id driver_id = { .from_kernel = true };
	struct explained e;

	e = explain(p, &member);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, firewall_rule(p, &member_id));
	CHECK_EQ(e.v.action, HID_RULE_ALLOW);
	CHECK_TEXT(e, "sender: a process, user 61000");
	CHECK_TEXT(e, "; not given: its executable, its unit\n");
	CHECK_TEXT(e, "decision: allow by rule \"tools\" (t.json: devices[0].rules[0])\n");
	CHECK_TEXT(e, "and its sender (group) matches this one\n");
	CHECK_NO_TEXT(e, "depends");
	free(e.text);

	e = explain(p, &user);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, firewall_rule(p, &user_id));
	CHECK_EQ(e.v.rule, 1);
	CHECK_TEXT(e, "  no match: rule \"tools\" (t.json: devices[0].rules[0]): the sender is not in its group 4242 (its gid and its 1 supplementary group)\n");
	CHECK_TEXT(e, "decision: deny (EPERM) by rule \"not-61000\"");
	CHECK_TEXT(e, "result: refused with -EPERM, logged\n");
	free(e.text);

	e = explain(p, &stranger);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, firewall_rule(p, &stranger_id));
	CHECK_EQ(e.v.rule, 3);
	CHECK_TEXT(e, "  no match: rule \"not-61000\" (t.json: devices[0].rules[1]): the sender's user 61001 is not its user 61000\n");
	CHECK_TEXT(e, "  no match: rule \"drivers\" (t.json: devices[0].rules[2]): it is for a driver's own requests (origin kernel), and a process sends this one\n");
	CHECK_TEXT(e, "decision: deny (EPERM) by rule \"rest\"");
	free(e.text);

	e = explain(p, &driver);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, firewall_rule(p, &driver_id));
	CHECK_EQ(e.v.rule, 2);
	CHECK_TEXT(e, "sender: a driver's own request (origin kernel): no user, group or executable\n");
	CHECK_TEXT(e, "  no match: rule \"not-61000\" (t.json: devices[0].rules[1]): it names a user, group or executable, and a driver's own request has none\n");
	CHECK_TEXT(e, "and its sender (origin kernel) matches this one\n");
	free(e.text);
	policy_free(p);
}

static void without_a_sender_a_rule_naming_one_makes_the_outcome_depend_on_it(void)
{
	struct policy *p = load_rules(FOUR_RULES);
	const struct policy_subject uid_only = { .given = POLICY_SUBJECT_USER, .uid = 61001 };
	struct explained e;

	e = explain(p, NULL);
	CHECK_EQ(e.depends, 3);
	CHECK_EQ(e.v.rule, 3);	/* when none of the three matches */
	CHECK_NO_TEXT(e, "\nsender:");
	CHECK_TEXT(e, "  depends on the sender: rule \"tools\" (t.json: devices[0].rules[0]): if a process sends it in group 4242, it matches and decides: allow; otherwise evaluation goes on\n");
	CHECK_TEXT(e, "  depends on the sender: rule \"not-61000\" (t.json: devices[0].rules[1]): if a process sends it whose user is 61000, it matches and decides: deny (EPERM); otherwise evaluation goes on\n");
	CHECK_TEXT(e, "  depends on the sender: rule \"drivers\" (t.json: devices[0].rules[2]): if it is a driver's own request (origin kernel), it matches and decides: allow; otherwise evaluation goes on\n");
	CHECK_TEXT(e, "decision for any other sender: deny (EPERM) by rule \"rest\"");
	CHECK_TEXT(e, "the decision depends on who sends the request: 3 rules above decide for some senders");
	free(e.text);

	/* A user is a process: the drivers' rule is out; the groups are
	 * not given, so the group's rule still depends on them. */
	e = explain(p, &uid_only);
	CHECK_EQ(e.depends, 1);
	CHECK_EQ(e.v.rule, 3);
	CHECK_TEXT(e, "; not given: its groups, its executable, its unit\n");
	CHECK_TEXT(e, "decides for some senders; name its groups to know which rule decides\n");
	CHECK_TEXT(e, "  depends on the sender: rule \"tools\" (t.json: devices[0].rules[0]): if a process sends it in group 4242, it matches");
	CHECK_TEXT(e, "  no match: rule \"not-61000\" (t.json: devices[0].rules[1]): the sender's user 61001 is not its user 61000\n");
	CHECK_TEXT(e, "  no match: rule \"drivers\"");
	free(e.text);
	policy_free(p);
}

static void rules_without_a_sender_decide_without_one(void)
{
	struct policy *p = load_rules(
		"{'name': 'fw', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'action': 'deny'}");
	struct explained e = explain(p, NULL);

	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, 0);
	CHECK_TEXT(e, "decision: deny (EPERM) by rule \"fw\"");
	CHECK_NO_TEXT(e, "depends on");
	free(e.text);
	policy_free(p);
}

/* The firewall searches all of a task's supplementary groups: a sender
 * with 40, the one the allow names last, is let through by the group's
 * allow, and a sender with 40 others is judged on its user. */
static void a_sender_with_40_groups_is_judged_on_all_of_them(void)
{
	struct policy *p = load_rules(FOUR_RULES);
	uint32_t groups[40], others[40];
	struct policy_subject member = { .given = POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS,
					 .uid = 61001, .gid = 61001, .groups = groups,
					 .n_groups = ARRAY_SIZE(groups) };
	struct policy_subject denied = { .given = POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS,
					 .uid = 61000, .gid = 61000, .groups = others,
					 .n_groups = ARRAY_SIZE(others) };
	struct explained e;

	for (size_t i = 0; i < ARRAY_SIZE(groups); i++) {
		groups[i] = 4203 + (uint32_t)i;
		others[i] = 5000 + (uint32_t)i;
	}
	CHECK_EQ(groups[39], 4242);
	e = explain(p, &member);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, 0);
	/* no note but the one on the descriptor this dry run has not */
	CHECK_TEXT(e, "\nnote: the device's report descriptor is not known here");
	CHECK(!strstr(strstr(e.text, "note:") + 1, "note:"), "another note in:\n%s", e.text);
	free(e.text);
	e = explain(p, &denied);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, 1);
	CHECK_TEXT(e, "(its gid and its 40 supplementary groups)");
	free(e.text);
	policy_free(p);
}

static void an_executable_is_told_by_its_identity(void)
{
	struct policy *p = load_rules(
		"{'name': 'updater', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'executable': '/bin/sh'}, 'action': 'allow'},"
		"{'name': 'rest', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'action': 'deny'}");
	struct policy_subject sh = { .given = POLICY_SUBJECT_EXECUTABLE, .executable = "/bin/sh" };
	struct policy_subject self = { .given = POLICY_SUBJECT_EXECUTABLE,
				       .executable = "/proc/self/exe" };
	struct explained e;

	CHECK_OK(policy_exe_identity("/bin/sh", &sh.exe));
	CHECK_OK(policy_exe_identity("/proc/self/exe", &self.exe));
	e = explain(p, &sh);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, 0);
	CHECK_TEXT(e, "sender: a process, executable /bin/sh (inode ");
	CHECK_TEXT(e, "and its sender (executable) matches this one\n");
	free(e.text);

	e = explain(p, &self);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, 1);
	CHECK_TEXT(e, "  no match: rule \"updater\" (t.json: devices[0].rules[0]): the sender's executable /proc/self/exe is not the executable the rule names (by device and inode)\n");
	free(e.text);

	e = explain(p, NULL);
	CHECK_EQ(e.depends, 1);
	CHECK_TEXT(e, "if a process sends it running the executable the rule names, it matches and decides: allow");
	free(e.text);
	policy_free(p);
}

/* A rule of an audit-mode rule set only logs on a device where another
 * set enforces: a match that depends on the sender changes what is
 * logged, not the decision. */
static void an_audit_rule_that_depends_on_the_sender_does_not_make_the_decision_depend(void)
{
	struct diag d = {};
	struct policy *p = load_text("t.json",
		"{'version': 1, 'devices': ["
		"{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'}, 'mode': 'audit',"
		" 'rules': [{'name': 'trial', 'request': 'set_report', 'report_type': 'feature',"
		" 'report_id': 3, 'sender': {'user': 61000}, 'action': 'deny'}]},"
		"{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'},"
		" 'rules': [{'name': 'fw', 'request': 'set_report', 'report_type': 'feature',"
		" 'report_id': 3, 'action': 'allow'}]}]}", &d);
	struct explained e;

	CHECK(p, "policy rejected");
	e = explain(p, NULL);
	CHECK_EQ(e.depends, 0);
	CHECK_EQ(e.v.rule, 1);
	CHECK_TEXT(e, "it matches and would deny; an audit-mode rule set only logs, so evaluation goes on either way\n");
	CHECK_NO_TEXT(e, "the decision depends");
	free(e.text);
	policy_free(p);
	diag_done(&d);
}

/* An audit-mode rule set's default deny before an enforcing one's: the
 * enforcing default decides, as in the compiled rules, and the text says
 * why the audit set's does not. */
static void an_audit_default_does_not_decide_over_an_enforcing_one(void)
{
	struct diag d = {};
	struct policy *p = load_text("t.json",
		"{'version': 1, 'devices': ["
		"{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'}, 'mode': 'audit',"
		" 'default': 'deny', 'default_errno': 'EACCES',"
		" 'rules': [{'name': 'trial-input', 'request': 'input_event', 'report_id': 'any', 'action': 'allow'}]},"
		"{'match': {'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'},"
		" 'default': 'deny', 'default_errno': 'EIO',"
		" 'rules': [{'name': 'input', 'request': 'input_event', 'report_id': 'any', 'action': 'allow'}]}]}", &d);
	struct hid_device_rules r;
	struct policy_verdict v;
	struct explained e;

	CHECK(p, "policy rejected");
	e = explain(p, NULL);
	CHECK_TEXT(e, "decision: deny (EIO) by the default of t.json: devices[1]: no rule matches\n");
	CHECK_TEXT(e, "  the default of t.json: devices[0] (deny) does not decide: its rule set is in audit mode, and an enforcing rule set's default comes first\n");
	CHECK_TEXT(e, "result: refused with -EIO, logged\n");
	CHECK_NO_TEXT(e, "because of audit mode");
	CHECK(e.v.enforced && e.v.err == EIO, "explain's verdict must enforce the EIO default");

	CHECK_EQ(policy_compile(p, &DEVICE, &r, NULL), 0);
	policy_evaluate(&r, &(struct policy_request){ .kind = HID_RULE_KIND_SET_FEATURE, .report_id = 3,
						      .data = (const uint8_t[]){ 3, 0 }, .len = 2 }, &v);
	CHECK(v.rule == -1 && v.action == e.v.action && v.err == e.v.err && v.enforced == e.v.enforced,
	      "explain and the compiled rules disagree");
	free(e.text);
	policy_free(p);
	diag_done(&d);
}

/* Every sender of a small world, each field given or left open: the rule
 * matches ALWAYS when it matches every completion, NEVER when none, and
 * DEPENDS otherwise, as the firewall's evaluation decides each. */
static void a_partly_named_sender_matches_as_all_its_completions_do(void)
{
	struct policy *p = load_rules(
		"{'name': 'a', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'user': [61000, 61001], 'group': 4242}, 'action': 'allow'},"
		"{'name': 'b', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'origin': 'user', 'executable': '/bin/sh'}, 'action': 'deny'},"
		"{'name': 'c', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'group': [4242, 7]}, 'action': 'deny'},"
		"{'name': 'd', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'origin': 'kernel'}, 'action': 'allow'}");
	const uint32_t uids[] = { 0, 61000, 61001 }, gids[] = { 7, 100, 4242 };
	struct hid_rule_exe exes[2];
	uint8_t data[] = { 3 };
	struct policy_request req = { .kind = HID_RULE_KIND_SET_FEATURE, .report_id = 3,
				      .data = data, .len = 1 };
	struct hid_device_rules r;
	size_t checked = 0;

	CHECK_OK(policy_exe_identity("/bin/sh", &exes[0]));
	CHECK_OK(policy_exe_identity("/proc/self/exe", &exes[1]));
	CHECK_EQ(policy_compile(p, &DEVICE, &r, NULL), 0);
	/* each subject: which fields are given, and their values */
	for (unsigned given = 0; given < 16; given++)
	for (unsigned o = 0; o < 2; o++)
	for (unsigned u = 0; u < 3; u++)
	for (unsigned g = 0; g < 3; g++)
	for (unsigned x = 0; x < 2; x++) {
		struct policy_subject who = { .given = given, .from_kernel = o, .uid = uids[u],
					      .gid = gids[g], .exe = exes[x] };

		if (o && (given & ~POLICY_SUBJECT_ORIGIN))
			continue;	/* a driver has no user */
		if (!(given & POLICY_SUBJECT_ORIGIN) && o)
			continue;
		for (unsigned i = 0; i < r.n_rules; i++) {
			bool some = false, all = true;

			/* every completion of WHO in the small world */
			for (unsigned o2 = 0; o2 < 2; o2++)
			for (unsigned u2 = 0; u2 < 3; u2++)
			for (unsigned g2 = 0; g2 < 3; g2++)
			for (unsigned x2 = 0; x2 < 2; x2++) {
				bool kernel = (given & POLICY_SUBJECT_ORIGIN) ? o : o2;
				struct policy_sender_id id = {
					.known = true, .exe_known = true,
					.from_kernel = kernel,
					.uid = uids[(given & POLICY_SUBJECT_USER) ? u : u2],
					.gid = gids[(given & POLICY_SUBJECT_GROUPS) ? g : g2],
					.exe_ino = exes[(given & POLICY_SUBJECT_EXECUTABLE) ? x : x2].ino,
					.exe_dev = exes[(given & POLICY_SUBJECT_EXECUTABLE) ? x : x2].dev,
				};
				bool m;

				if (kernel && (given & ~POLICY_SUBJECT_ORIGIN))
					continue;
				req.sender = &id;
				m = policy_rule_matches(&r.rules[i], &req);
				some |= m;
				all &= m;
			}
			CHECK_EQ(policy_rule_matches_subject(&r.rules[i], &req, &who),
				 all ? POLICY_MATCH_ALWAYS : some ? POLICY_MATCH_DEPENDS : POLICY_MATCH_NEVER);
			checked++;
		}
	}
	CHECK(checked > 100, "%zu", checked);
	policy_free(p);
}

/* A field of the firewall's senders that explain does not know how to
 * try (bit 7 here: none has it yet) leaves the match open where the
 * other fields hold, and closed where they do not. */
static void a_sender_field_explain_cannot_try_is_never_guessed(void)
{
	uint8_t data[] = { 3 };
	const struct policy_request req = { .kind = HID_RULE_KIND_SET_FEATURE, .report_id = 3,
					    .data = data, .len = 1 };
	const struct policy_subject user = { .given = POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS |
						      POLICY_SUBJECT_EXECUTABLE, .uid = 61000 };
	const struct policy_subject other = { .given = POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS |
						       POLICY_SUBJECT_EXECUTABLE, .uid = 61001 };
	struct hid_rule r = { .kinds = HID_RULE_KIND_SET_FEATURE, .action = HID_RULE_ALLOW,
			      .sender = { .fields = HID_SENDER_F_USER | 0x80, .n_uids = 1,
					  .uids = { 61000 } } };

	r.report_ids[0] = 1u << 3;
	CHECK_EQ(policy_rule_matches_subject(&r, &req, &user), POLICY_MATCH_DEPENDS);
	CHECK_EQ(policy_rule_matches_subject(&r, &req, &other), POLICY_MATCH_NEVER);
	r.sender.fields = HID_SENDER_F_USER;
	CHECK_EQ(policy_rule_matches_subject(&r, &req, &user), POLICY_MATCH_ALWAYS);
}

/* A unit: a process in it, in another unit, and a question that names
 * none. The unit's cgroup is set as the daemon would find it running. */
static void a_unit_is_told_by_its_cgroup(void)
{
	struct policy *p;
	const uint64_t in_fwupd[] = { 1, 40, 77 }, in_other[] = { 1, 40, 78 };
	const struct policy_subject fwupd = { .given = POLICY_SUBJECT_UNIT, .unit = "fwupd.service",
					      .cgroups = in_fwupd, .n_cgroups = 3,
					      .unit_running = true };
	const struct policy_subject other = { .given = POLICY_SUBJECT_UNIT, .unit = "other.service",
					      .cgroups = in_other, .n_cgroups = 3,
					      .unit_running = true };
	const struct policy_subject stopped = { .given = POLICY_SUBJECT_UNIT,
						.unit = "stopped.service", .cgroups = in_other,
						.n_cgroups = 2 };
	const struct policy_sender_id fwupd_id = { .known = true, .cgroups = in_fwupd, .n_cgroups = 3 };
	struct explained e;

	if (!policy_cgroup_root()) {
		SKIP("this machine has no cgroup2 hierarchy: a policy with a unit cannot be read");
		return;
	}
	p = load_rules("{'name': 'updater', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		       " 'sender': {'unit': 'fwupd.service'}, 'action': 'allow'},"
		       "{'name': 'rest', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		       " 'action': 'deny'}");
	p->units[0].cgroup_id = 77;

	e = explain(p, &fwupd);
	CHECK_EQ(e.v.rule, firewall_rule(p, &fwupd_id));
	CHECK_TEXT(e, "sender: a process, in unit fwupd.service");
	CHECK_TEXT(e, "decision: allow by rule \"updater\"");
	free(e.text);

	e = explain(p, &other);
	CHECK_TEXT(e, "no match: rule \"updater\" (t.json: devices[0].rules[0]): the sender's unit other.service is not the unit the rule names, nor in it\n");
	CHECK_TEXT(e, "decision: deny (EPERM) by rule \"rest\"");
	free(e.text);

	e = explain(p, &stopped);
	CHECK_TEXT(e, "in unit stopped.service (not running now");
	CHECK_TEXT(e, "the sender's unit stopped.service is not the unit the rule names, nor in it (stopped.service is not running now)");
	CHECK_TEXT(e, "decision: deny (EPERM) by rule \"rest\"");
	free(e.text);

	e = explain(p, NULL);
	CHECK_EQ(e.depends, 1);
	CHECK_TEXT(e, "depends on the sender: rule \"updater\" (t.json: devices[0].rules[0]): if a process sends it in unit fwupd.service, it matches and decides: allow");
	free(e.text);

	/* Not running: no process is in it, so nothing depends on it. */
	p->units[0].cgroup_id = 0;
	e = explain(p, NULL);
	CHECK_EQ(e.depends, 0);
	CHECK_TEXT(e, "no match: rule \"updater\" (t.json: devices[0].rules[0]): the unit it names (fwupd.service) is not running now: no process is in it\n");
	CHECK_TEXT(e, "decision: deny (EPERM) by rule \"rest\"");
	free(e.text);
	e = explain(p, &fwupd);
	CHECK_TEXT(e, "the unit it names (fwupd.service) is not running now");
	free(e.text);
	policy_free(p);
}

/* Explain a feature SET_REPORT to report ID on DEV, its byte 1 0x10, from anyone. */
static char *explain_on(const struct policy *p, const struct policy_device *dev, uint8_t id,
			struct policy_verdict *v)
{
	uint8_t data[] = { id, 0x10 };
	const struct policy_request req = { .kind = HID_RULE_KIND_SET_FEATURE, .report_id = id,
					    .data = data, .len = sizeof(data) };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f, "open_memstream");
	CHECK_EQ(policy_explain(p, dev, &req, NULL, f, v), 0);
	CHECK_EQ(fclose(f), 0);
	return text;
}

static void a_rule_naming_a_usage_page_says_which_reports_it_takes_or_that_there_are_none(void)
{
	static const struct hid_report_usage ota[] = {
		{ .type = HID_REPORT_INPUT, .id = 0x0b, .page = 0xff02 },
		{ .type = HID_REPORT_FEATURE, .id = 0x0b, .page = 0xff02, .has_usage = true, .usage_min = 1, .usage_max = 1 },
	};
	struct policy_device dev = DEVICE;
	struct policy *p = load_rules("{'name': 'deny-ota', 'request': 'set_report', 'report_type': 'feature',"
				      " 'report_usage_page': '0xff02', 'report_usage': 1, 'action': 'deny'}");
	struct policy_verdict v;
	char *text;

	dev.descriptor_known = true;
	dev.reports = ota;
	dev.n_reports = 1;	/* the input report only */
	text = explain_on(p, &dev, 0x0b, &v);
	CHECK(strstr(text, "rule \"deny-ota\" (t.json: devices[0].rules[0]): not applied: the device's descriptor declares no feature report of usage page 0xff02 usage 0x0001\n"),
	      "%s", text);
	CHECK_EQ(v.action, HID_RULE_ALLOW);
	free(text);

	dev.n_reports = 2;
	text = explain_on(p, &dev, 0x0b, &v);
	CHECK(strstr(text, "rule \"deny-ota\" (t.json: devices[0].rules[0]): report IDs 0x0b (each feature report of usage page 0xff02 usage 0x0001 the device's descriptor declares)\n"),
	      "%s", text);
	CHECK(strstr(text, "decision: deny (EPERM) by rule \"deny-ota\""), "%s", text);
	CHECK_EQ(v.action, HID_RULE_DENY);
	free(text);

	dev.descriptor_known = false;
	dev.n_reports = 0;
	text = explain_on(p, &dev, 0x0b, &v);
	CHECK(strstr(text, "not applied: the device's descriptor declares no feature report of usage page 0xff02 usage 0x0001 (it is not parsed yet)"),
	      "%s", text);
	free(text);
	policy_free(p);
}

/* On a device whose descriptor is known, a request to a report it does
 * not declare is refused before any rule, an allow that names it
 * included; a driver's is not checked. */
static void an_undeclared_report_is_refused_before_the_rules(void)
{
	_cleanup_policy_ struct policy *p = load_rules(
		"{'name': 'all-features', 'request': 'set_report', 'report_type': 'feature',"
		" 'report_id': 'any', 'action': 'allow'}");
	uint32_t declared[HID_RULES_RTYPES][HID_RULES_REPORT_ID_WORDS] = { [HID_RULES_RTYPE_FEATURE] = { 1u << 3 } };
	struct policy_device dev = DEVICE;
	uint8_t data[] = { 7, 0 };
	const struct policy_request req = { .kind = HID_RULE_KIND_SET_FEATURE, .report_id = 7,
					    .data = data, .len = sizeof(data) };
	struct policy_subject driver = { .given = POLICY_SUBJECT_ORIGIN, .from_kernel = true };
	struct explained e = {};
	size_t len = 0;
	FILE *f;

	dev.declared = declared;
	f = open_memstream(&e.text, &len);
	CHECK(f, "open_memstream");
	CHECK_EQ(policy_explain(p, &dev, &req, NULL, f, &e.v), 0);
	CHECK_EQ(fclose(f), 0);
	CHECK_TEXT(e, "decision: deny (EPERM) before any rule: the device's report descriptor declares no feature report with ID 0x07");
	CHECK_TEXT(e, "result: refused with -EPERM, logged");
	CHECK(e.v.index == HID_RULE_INDEX_UNDECLARED && e.v.enforced, "verdict index %#x", e.v.index);
	free(e.text);

	f = open_memstream(&e.text, &len);
	CHECK(f, "open_memstream");
	CHECK_EQ(policy_explain(p, &dev, &req, &driver, f, &e.v), 0);
	CHECK_EQ(fclose(f), 0);
	CHECK_TEXT(e, "decision: allow by rule \"all-features\"");
	free(e.text);
}

/* The name service's id lookups, counted on their way to glibc's. */
static int nss_asked;

int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t size, struct passwd **ret)
{
	int (*real)(uid_t, struct passwd *, char *, size_t, struct passwd **) =
		(int (*)(uid_t, struct passwd *, char *, size_t, struct passwd **))dlsym(RTLD_NEXT, "getpwuid_r");

	nss_asked++;
	return real(uid, pw, buf, size, ret);
}

int getgrgid_r(gid_t gid, struct group *gr, char *buf, size_t size, struct group **ret)
{
	int (*real)(gid_t, struct group *, char *, size_t, struct group **) =
		(int (*)(gid_t, struct group *, char *, size_t, struct group **))dlsym(RTLD_NEXT, "getgrgid_r");

	nss_asked++;
	return real(gid, gr, buf, size, ret);
}

/*
 * The daemon explains on its event loop, for any local user ("explain" is
 * the status action), with ids the user chose: it must not ask the name
 * service, which may hang (LDAP, sssd) and hold up every client and every
 * hotplug decision. Its subject says so (no_names), and then ids are
 * shown bare; a dry run (hid-policyd --explain) still shows names.
 */
static void the_daemon_s_explanation_never_asks_the_name_service(void)
{
	struct policy *p = load_rules(
		"{'name': 'root-may', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'user': 0}, 'action': 'allow'},"
		"{'name': 'group-0-may', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'sender': {'group': 0}, 'action': 'allow'},"
		"{'name': 'rest', 'request': 'set_report', 'report_type': 'feature', 'report_id': 3,"
		" 'action': 'deny'}");
	const uint32_t groups[] = { 61002, 61003 };
	struct policy_subject who = {
		.given = POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS,
		.uid = 61001, .gid = 61001, .groups = groups, .n_groups = 2, .no_names = true,
	};
	struct explained e;

	nss_asked = 0;
	e = explain(p, &who);
	CHECK_EQ(nss_asked, 0);
	CHECK(strstr(e.text, "the sender's user 61001 is not its user 0\n") ||
	      strstr(e.text, "the sender's user 61001 is not its user 0;") ||
	      strstr(e.text, "the sender's user 61001 is not its user 0 "), "%s", e.text);
	CHECK(!strstr(e.text, "(root)"), "%s", e.text);
	free(e.text);

	/* The same question in a dry run: names, from the name service. */
	who.no_names = false;
	e = explain(p, &who);
	CHECK(nss_asked > 0, "the name service was not asked");
	CHECK(strstr(e.text, "its user 0 (root)"), "%s", e.text);
	free(e.text);
	policy_free(p);
}

static const struct test_case tests[] = {
	{ "the_daemon_s_explanation_never_asks_the_name_service",
	  the_daemon_s_explanation_never_asks_the_name_service },
	{ "a_rule_naming_a_usage_page_says_which_reports_it_takes_or_that_there_are_none", a_rule_naming_a_usage_page_says_which_reports_it_takes_or_that_there_are_none },
	{ "a_unit_is_told_by_its_cgroup", a_unit_is_told_by_its_cgroup },
	{ "an_undeclared_report_is_refused_before_the_rules", an_undeclared_report_is_refused_before_the_rules },
	{ "a_named_sender_gets_the_rule_the_firewall_picks_and_why",
	  a_named_sender_gets_the_rule_the_firewall_picks_and_why },
	{ "without_a_sender_a_rule_naming_one_makes_the_outcome_depend_on_it",
	  without_a_sender_a_rule_naming_one_makes_the_outcome_depend_on_it },
	{ "rules_without_a_sender_decide_without_one", rules_without_a_sender_decide_without_one },
	{ "a_sender_with_40_groups_is_judged_on_all_of_them",
	  a_sender_with_40_groups_is_judged_on_all_of_them },
	{ "an_executable_is_told_by_its_identity", an_executable_is_told_by_its_identity },
	{ "an_audit_rule_that_depends_on_the_sender_does_not_make_the_decision_depend",
	  an_audit_rule_that_depends_on_the_sender_does_not_make_the_decision_depend },
	{ "an_audit_default_does_not_decide_over_an_enforcing_one",
	  an_audit_default_does_not_decide_over_an_enforcing_one },
	{ "a_sender_field_explain_cannot_try_is_never_guessed",
	  a_sender_field_explain_cannot_try_is_never_guessed },
	{ "a_partly_named_sender_matches_as_all_its_completions_do",
	  a_partly_named_sender_matches_as_all_its_completions_do },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-explain", tests, ARRAY_SIZE(tests));
}
