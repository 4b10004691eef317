// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Port extension: bpf_get_current_uid_gid() and bpf_get_current_comm() in
 * hid_bpf_ops programs. kernel/ offers them; upstream HID-BPF does not, so
 * this object loads on the port only.
 */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

/* Read back by the tests. */
__u64 pid_tgid;
__u64 uid_gid;
char comm[16];

static __always_inline void record_caller(void)
{
	pid_tgid = bpf_get_current_pid_tgid();
	uid_gid = bpf_get_current_uid_gid();
	bpf_get_current_comm(comm, sizeof(comm));
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
