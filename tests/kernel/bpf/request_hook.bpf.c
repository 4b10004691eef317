// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A hid_hw_request program: refused at load while this kernel does not call
 * the request hooks, so that a filter that would never run cannot load.
 */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/hid_hw_request")
int BPF_PROG(deny_request, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype,
	     __u64 source)
{
	return -1;
}

SEC(".struct_ops")
struct hid_bpf_ops deny = { .hid_hw_request = (void *)deny_request };
