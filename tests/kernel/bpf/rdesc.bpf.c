// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid_rdesc_fixup: grow the test descriptor (tests/kernel/test_rdesc.h) by
 * one input report, ID 5 with 4 bytes, inserted before its final End
 * Collection.
 */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

#define TEST_RDESC_SIZE 47

__u32 calls;

static __always_inline int add_report_5(struct hid_bpf_ctx *hctx)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 64);

	calls++;
	if (!data || hctx->size != TEST_RDESC_SIZE || data[46] != 0xc0)
		return 0;
	data[46] = 0x85;	/* Report ID 5 */
	data[47] = 0x05;
	data[48] = 0x09;	/* Usage 6 */
	data[49] = 0x06;
	data[50] = 0x95;	/* Report Count 4 */
	data[51] = 0x04;
	data[52] = 0x81;	/* Input (Data,Var,Abs) */
	data[53] = 0x02;
	data[54] = 0xc0;	/* End Collection */
	return 55;
}

SEC("struct_ops/hid_rdesc_fixup")
int BPF_PROG(fixup_a, struct hid_bpf_ctx *hctx)
{
	return add_report_5(hctx);
}

SEC("struct_ops/hid_rdesc_fixup")
int BPF_PROG(fixup_b, struct hid_bpf_ctx *hctx)
{
	return add_report_5(hctx);
}

SEC(".struct_ops")
struct hid_bpf_ops rdesc_a = { .hid_rdesc_fixup = (void *)fixup_a };
SEC(".struct_ops")
struct hid_bpf_ops rdesc_b = { .hid_rdesc_fixup = (void *)fixup_b };
