// SPDX-License-Identifier: GPL-2.0-or-later
/* hid_device_event programs, one struct_ops map per test behaviour. */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

/* What the programs saw, read back by the test through the .bss map. */
__u32 calls;
__u32 last_hid_id;
__u64 last_source;
__s32 inject_ret;

/* Rewrite: byte 2 becomes byte 1 + 1. */
SEC("struct_ops/hid_device_event")
int BPF_PROG(rewrite_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 3);

	calls++;
	last_hid_id = hctx->hid->id;
	last_source = source;
	if (!data || data[0] != 1)
		return 0;
	data[2] = data[1] + 1;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops rewrite = {
	.hid_device_event = (void *)rewrite_event,
};

/* The same rewrite done by a BPF subprogram. */
static __noinline int stamp(__u8 *data, __u8 value)
{
	if (!data)
		return 0;
	data[3] = value;
	return 1;
}

SEC("struct_ops/hid_device_event")
int BPF_PROG(subprog_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 4);

	calls += stamp(data, 0x5a);
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops subprog = {
	.hid_device_event = (void *)subprog_event,
};

/* Drop reports whose byte 1 is 0xdd. */
SEC("struct_ops/hid_device_event")
int BPF_PROG(drop_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 2);

	if (data && data[1] == 0xdd)
		return -1;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops drop = {
	.hid_device_event = (void *)drop_event,
};

/* Turn report 1 (65 bytes) into report 2 (9 bytes). */
SEC("struct_ops/hid_device_event")
int BPF_PROG(change_id_event, struct hid_bpf_ctx *hctx,
	     enum hid_report_type type, __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 9);

	if (!data || data[0] != 1)
		return 0;
	data[0] = 2;
	return 9;
}

SEC(".struct_ops")
struct hid_bpf_ops change_id = {
	.hid_device_event = (void *)change_id_event,
};

/*
 * Sizes around the buffer: byte 1 0xee asks for one byte beyond
 * allocated_size, 0xef for exactly allocated_size.
 */
SEC("struct_ops/hid_device_event")
int BPF_PROG(size_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 2);

	if (!data)
		return 0;
	if (data[1] == 0xee)
		return hctx->allocated_size + 1;
	if (data[1] == 0xef)
		return hctx->allocated_size;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops size = {
	.hid_device_event = (void *)size_event,
};

/* Byte 1 0x10: inject a copy with byte 1 0x11 before this report. */
SEC("struct_ops/hid_device_event")
int BPF_PROG(inject_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, TEST_INPUT_LEN);
	__u8 buf[TEST_INPUT_LEN];

	calls++;
	if (!data || data[1] != 0x10) {
		if (source)
			last_source = source;
		return 0;
	}
	__builtin_memcpy(buf, data, TEST_INPUT_LEN);
	buf[1] = 0x11;
	inject_ret = hid_bpf_try_input_report(hctx, HID_INPUT_REPORT, buf,
					      TEST_INPUT_LEN);
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops inject = {
	.hid_device_event = (void *)inject_event,
};

/* hid_device.name is writable (not its last byte): seen by HIDIOCGRAWNAME. */
SEC("struct_ops/hid_device_event")
int BPF_PROG(rename_event, struct hid_bpf_ctx *hctx, enum hid_report_type type,
	     __u64 source)
{
	struct hid_device *hid = hctx->hid;

	hid->name[0] = 'B';
	hid->name[1] = 'P';
	hid->name[2] = 'F';
	hid->name[3] = 0;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops rename = {
	.hid_device_event = (void *)rename_event,
};
