// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bpf_get_current_uid_gid() and bpf_get_current_comm() in a hid_bpf_ops
 * program: upstream refuses them, and so must the port.
 */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

__u64 uid_gid;
char comm[16];

SEC("struct_ops/hid_hw_request")
int BPF_PROG(request_uid_comm, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	uid_gid = bpf_get_current_uid_gid();
	bpf_get_current_comm(comm, sizeof(comm));
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops uid_comm = { .hid_hw_request = (void *)request_uid_comm };
