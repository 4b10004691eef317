// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules the kernel's firewall cannot enforce are errors, named with the
 * file, line, column and JSON path: the daemon refuses them and
 * hid-policyd --check reports them, never a silent allow. Senders the
 * kernel cannot tell, and input rules where its input path is not safe
 * (enforce/kernel_support.h) unless the administrator accepts the risk.
 */
#include <string.h>

#include "policy-helpers.h"
#include "enforce/kernel_support.h"

static const char doc[] =
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x1234', 'product': '0x5704'},\n"
	" 'rules': [\n"
	"  {'name': 'tools', 'request': 'set_report', 'report_id': 3, 'sender': {'group': 0}, 'action': 'allow'},\n"
	"  {'name': 'updater', 'request': 'set_report', 'report_id': 4, 'sender': {'unit': 'fwupd.service'}, 'action': 'allow'},\n"
	"  {'name': 'drivers', 'request': 'set_report', 'report_id': 5, 'sender': {'origin': 'kernel'}, 'action': 'allow'}]}]}";

static void each_sender_the_kernel_cannot_tell_is_an_error(void)
{
	const struct fw_features none = { .hid_bpf = true };
	const struct fw_features task_only = { .hid_bpf = true, .uid_gid = true, .comm = true };
	const struct fw_features all = { .hid_bpf = true, .uid_gid = true, .comm = true, .cgroup = true };
	struct diag d = {};
	struct policy *p;

	if (!policy_cgroup_root()) {
		SKIP("this machine has no cgroup2 hierarchy: a policy with a unit cannot be read");
		return;
	}
	p = load_text("t.json", doc, &d);
	CHECK(p, "policy rejected");
	diag_done(&d);

	CHECK_EQ(fw_check_senders(&none, p, &d), -EOPNOTSUPP);
	CHECK_EQ(d.n_errors, 2);
	CHECK_MESSAGES(&d,
		       "t.json:3:3: devices[0].rules[0].sender: this kernel does not let the firewall read who sends a request (it needs CAP_PERFMON and CONFIG_BPF_EVENTS): a rule with a user, group or executable cannot be enforced here",
		       "t.json:4:3: devices[0].rules[1].sender: this kernel does not let the firewall read the cgroup of who sends a request (it needs CONFIG_CGROUPS and CAP_BPF): a rule with a unit cannot be enforced here");
	diag_done(&d);

	CHECK_EQ(fw_check_senders(&task_only, p, &d), -EOPNOTSUPP);
	CHECK_EQ(d.n_errors, 1);
	CHECK(diag_contains(&d, "rules[1].sender: this kernel does not let the firewall read the cgroup"),
	      "the unit rule is not the one refused");
	diag_done(&d);

	/* origin is told by every kernel */
	CHECK_EQ(fw_check_senders(&all, p, &d), 0);
	CHECK_EQ(d.n, 0);
	diag_done(&d);
	policy_free(p);
}

static const char input_doc[] =
	"{'version': 1, 'devices': [\n"
	" {'match': {'bus': 'usb', 'vendor': '0x1234', 'product': '0x0001'},\n"
	"  'rules': [{'name': 'no-fw', 'request': 'set_report', 'report_id': 3, 'action': 'deny'}]},\n"
	" {'match': {'bus': 'usb', 'vendor': '0x1234', 'product': '0x0002'},\n"
	"  'rules': [{'name': 'forged', 'request': 'input_event', 'report_id': 9, 'action': 'deny'}]},\n"
	" {'match': {'bus': 'usb', 'vendor': '0x1234', 'product': '0x0003'}, 'default': 'deny',\n"
	"  'rules': [{'name': 'get', 'request': 'get_report', 'report_id': 'any', 'action': 'allow'},\n"
	"   {'name': 'input', 'request': 'input_event', 'report_id': 'any', 'action': 'allow'}]}]}";

static void an_input_rule_is_an_error_where_the_input_path_is_not_safe(void)
{
	const struct fw_features upstream = { .hid_bpf = true, .uid_gid = true, .cgroup = true };
	const struct fw_features port = { .hid_bpf = true, .input_safe = true };
	struct diag d = {};
	struct policy *p = load_text("in.json", input_doc, &d);

	CHECK(p, "policy rejected");
	diag_done(&d);
	CHECK(fw_policy_needs_input(p), "the policy's input rules were not seen");

	/* each rule set that needs the input path, at the rule that does */
	CHECK_EQ(fw_check_input(&upstream, false, p, &d), -EOPNOTSUPP);
	CHECK_EQ(d.n_errors, 2);
	CHECK(diag_contains(&d, "in.json:5:13: devices[1].rules[0]: this rule concerns input reports"),
	      "the input_event rule was not named");
	CHECK(diag_contains(&d, "in.json:8:4: devices[2].rules[1]: this rule concerns input reports"),
	      "the default-deny rule set was not named at its input rule");
	CHECK(diag_contains(&d, "--allow-unsafe-input-rules"), "the message does not say how to opt in");
	CHECK(diag_contains(&d, "doc/security.md, section 4"), "the message does not name the cause");
	diag_done(&d);

	/* the administrator accepts the risk: warnings, not errors */
	CHECK_EQ(fw_check_input(&upstream, true, p, &d), 0);
	CHECK_EQ(d.n_errors, 0);
	CHECK_EQ(d.n_warnings, 2);
	diag_done(&d);

	/* the port's input path is safe */
	CHECK_EQ(fw_check_input(&port, false, p, &d), 0);
	CHECK_EQ(d.n, 0);
	diag_done(&d);
	policy_free(p);

	/* a policy of requests alone needs no input path anywhere */
	p = load_text("req.json", doc + 0, &d);
	if (p) {
		CHECK(!fw_policy_needs_input(p), "a request-only policy was taken to need input");
		CHECK_EQ(fw_check_input(&upstream, false, p, &d), 0);
		policy_free(p);
	}
	diag_done(&d);
}

static const struct test_case tests[] = {
	{ "each_sender_the_kernel_cannot_tell_is_an_error",
	  each_sender_the_kernel_cannot_tell_is_an_error },
	{ "an_input_rule_is_an_error_where_the_input_path_is_not_safe",
	  an_input_rule_is_an_error_where_the_input_path_is_not_safe },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "sender-support", tests, ARRAY_SIZE(tests));
}
