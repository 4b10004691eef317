// SPDX-License-Identifier: GPL-2.0-or-later
/* Must be rejected by the verifier: the last byte of hid_device.name. */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/hid_device_event")
int BPF_PROG(bad_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	hctx->hid->name[sizeof(hctx->hid->name) - 1] = 'X';
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops bad = { .hid_device_event = (void *)bad_event };
