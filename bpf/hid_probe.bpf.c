// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid_probe.bpf.c - which helpers may a hid_bpf_ops program call on the
 * running kernel? hid-policyd loads this object once per helper with
 * probe_helper set to that helper's id; a successful load means yes. It is
 * never attached.
 */
#include "hid_bpf.h"
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 probe_helper;	/* a BPF_FUNC_* id, 0: none */

SEC("struct_ops/hid_hw_request")
int BPF_PROG(probe_hw_request, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	struct task_struct *task;
	char comm[16];

	/* Branches on a constant: the verifier only sees the chosen call. */
	if (probe_helper == BPF_FUNC_get_current_pid_tgid)
		return bpf_get_current_pid_tgid() ? 0 : 0;
	/* The caller's uid and name, read as the firewall reads them: the
	 * task helpers and the CO-RE reads of struct task_struct and cred. */
	if (probe_helper == BPF_FUNC_get_current_task) {
		task = (struct task_struct *)bpf_get_current_task();
		BPF_CORE_READ_STR_INTO(&comm, task, comm);
		return BPF_CORE_READ(task, cred, uid).val + comm[0] ? 0 : 0;
	}
	/* The calling task's cgroups, which name its systemd unit. */
	if (probe_helper == BPF_FUNC_get_current_ancestor_cgroup_id)
		return bpf_get_current_ancestor_cgroup_id(1) ? 0 : 0;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops hid_probe = {
	.hid_hw_request = (void *)probe_hw_request,
};
