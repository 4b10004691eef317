// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who is calling? hid_bpf_ops programs get no uid or comm helper on either
 * kernel; loaded with CAP_PERFMON they may read the current task, as
 * hid-policy's firewall does. The object with the helpers upstream refuses
 * is uid_comm_helpers.bpf.c.
 */
#include "hid_bpf_test.h"
#include <bpf/bpf_core_read.h>

char _license[] SEC("license") = "GPL";

/* Read back by the tests. */
__u64 pid_tgid;
__u32 uid, gid;
char comm[16];

static __always_inline void record_caller(void)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	pid_tgid = bpf_get_current_pid_tgid();
	uid = BPF_CORE_READ(task, cred, uid.val);
	gid = BPF_CORE_READ(task, cred, gid.val);
	BPF_CORE_READ_STR_INTO(&comm, task, comm);
}

/* Record who asks for a request, and let it through. */
SEC("struct_ops/hid_hw_request")
int BPF_PROG(request_caller, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	record_caller();
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops caller_ids = { .hid_hw_request = (void *)request_caller };

/* Record the task a descriptor fixup runs for; the descriptor stays. */
SEC("struct_ops/hid_rdesc_fixup")
int BPF_PROG(fixup_caller, struct hid_bpf_ctx *hctx)
{
	record_caller();
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops fixup_caller_ids = { .hid_rdesc_fixup = (void *)fixup_caller };
