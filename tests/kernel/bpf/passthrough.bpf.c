// SPDX-License-Identifier: GPL-2.0-or-later
/* One pass-through hid_device_event program (limits, benchmark). */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/hid_device_event")
int BPF_PROG(pass_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops pass = {
	.hid_device_event = (void *)pass_event,
};
