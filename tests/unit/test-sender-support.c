// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules whose sender the kernel's firewall cannot tell are errors, named
 * with the file, line, column and JSON path: the daemon refuses them and
 * hid-policyd --check (as root) reports them, never a silent allow.
 */
#include <string.h>

#include "policy-helpers.h"
#include "enforce/sender_support.h"

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

static const struct test_case tests[] = {
	{ "each_sender_the_kernel_cannot_tell_is_an_error",
	  each_sender_the_kernel_cannot_tell_is_an_error },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "sender-support", tests, ARRAY_SIZE(tests));
}
