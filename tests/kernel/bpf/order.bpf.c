// SPDX-License-Identifier: GPL-2.0-or-later
/* Three hid_device_event programs that record the order they run in. */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

#define MAX_RUNS 8

__u32 nruns;
__u32 runs[MAX_RUNS];

static __always_inline void ran(__u32 who)
{
	__u32 i = nruns;

	if (i < MAX_RUNS)
		runs[i] = who;
	nruns = i + 1;
}

SEC("struct_ops/hid_device_event")
int BPF_PROG(first, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	ran(1);
	return 0;
}

SEC("struct_ops/hid_device_event")
int BPF_PROG(second, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	ran(2);
	return 0;
}

SEC("struct_ops/hid_device_event")
int BPF_PROG(third, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	ran(3);
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops ops1 = { .hid_device_event = (void *)first };
SEC(".struct_ops")
struct hid_bpf_ops ops2 = { .hid_device_event = (void *)second };
SEC(".struct_ops")
struct hid_bpf_ops ops3 = { .hid_device_event = (void *)third };
