// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_passthrough.bpf.c - the smallest HID-BPF program on each path the
 * firewall uses: it sees every input report and every request and lets
 * them through unchanged. bench-firewall attaches it to measure what the
 * kernel's dispatch costs with one program and nothing to decide, against
 * no program and against the firewall.
 */
#include "hid_bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/hid_device_event")
int BPF_PROG(pass_event, struct hid_bpf_ctx *hctx, enum hid_report_type rtype, __u64 source)
{
	return 0;
}

SEC("struct_ops/hid_hw_request")
int BPF_PROG(pass_request, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	return 0;
}

SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(pass_output, struct hid_bpf_ctx *hctx, __u64 source)
{
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops passthrough = {
	.hid_device_event = (void *)pass_event,
	.hid_hw_request = (void *)pass_request,
	.hid_hw_output_report = (void *)pass_output,
};
