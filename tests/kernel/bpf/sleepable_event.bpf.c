// SPDX-License-Identifier: GPL-2.0-or-later
/* hid_device_event runs in interrupt context: a sleepable one must not load. */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

/* hid_device_event may not be sleepable: loading this must fail. */
SEC("struct_ops/hid_device_event")
int BPF_PROG(sleepable_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops bad_sleepable_event = { .hid_device_event = (void *)sleepable_event };
