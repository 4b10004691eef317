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
/* sleepable_fixup_request: how often its request returned, and what. */
__u32 fixup_requests;
__s32 fixup_request_ret;

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

/* Adds input report 6 with 200 bytes: longer than the event buffer was. */
SEC("struct_ops/hid_rdesc_fixup")
int BPF_PROG(fixup_big, struct hid_bpf_ctx *hctx)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 64);

	if (!data || hctx->size != TEST_RDESC_SIZE || data[46] != 0xc0)
		return 0;
	data[46] = 0x85;	/* Report ID 6 */
	data[47] = 0x06;
	data[48] = 0x09;	/* Usage 7 */
	data[49] = 0x07;
	data[50] = 0x95;	/* Report Count 200 */
	data[51] = 200;
	data[52] = 0x81;	/* Input (Data,Var,Abs) */
	data[53] = 0x02;
	data[54] = 0xc0;	/* End Collection */
	return 55;
}

SEC(".struct_ops")
struct hid_bpf_ops rdesc_big = { .hid_rdesc_fixup = (void *)fixup_big };

/* Changes the descriptor in place (Usage (1) becomes Usage (0x42)) and
 * returns 0: the length stays, the change too. */
SEC("struct_ops/hid_rdesc_fixup")
int BPF_PROG(fixup_in_place, struct hid_bpf_ctx *hctx)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 64);

	calls++;
	if (!data || hctx->size != TEST_RDESC_SIZE || data[4] != 0x01)
		return 0;
	data[4] = 0x42;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops rdesc_in_place = { .hid_rdesc_fixup = (void *)fixup_in_place };

/*
 * A sleepable fixup that asks its own device for feature report 4 through
 * a context of its own, while the device is being probed. The reports are
 * not parsed yet, so the answer is -EINVAL; what matters is that it comes.
 */
SEC("struct_ops/hid_rdesc_fixup")
int BPF_PROG(sleepable_fixup_request, struct hid_bpf_ctx *hctx)
{
	__u8 buf[TEST_SHORT_LEN] = { 4 };
	struct hid_bpf_ctx *own;
	int ret;

	calls++;
	own = hid_bpf_allocate_context(hctx->hid->id);
	if (!own)
		return 0;
	ret = hid_bpf_hw_request(own, buf, sizeof(buf), HID_FEATURE_REPORT,
				 HID_REQ_GET_REPORT);
	fixup_request_ret = ret;
	fixup_requests++;
	hid_bpf_release_context(own);
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops rdesc_request = {
	.hid_rdesc_fixup = (void *)sleepable_fixup_request,
};
