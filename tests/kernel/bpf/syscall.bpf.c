// SPDX-License-Identifier: GPL-2.0-or-later
/* SEC("syscall") programs that talk to a device through the kfuncs. */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

#define SHORT_LEN TEST_SHORT_LEN

/* Shared with the test program: the ctx of every program below. */
struct hid_syscall_args {
	unsigned int hid_id;
	int retval;
	__u8 data[TEST_INPUT_LEN];
};

SEC("syscall")
int input_report(struct hid_syscall_args *args)
{
	struct hid_bpf_ctx *ctx = hid_bpf_allocate_context(args->hid_id);
	__u8 buf[TEST_INPUT_LEN];

	if (!ctx)
		return -19; /* -ENODEV */
	__builtin_memcpy(buf, args->data, TEST_INPUT_LEN);
	args->retval = hid_bpf_input_report(ctx, HID_INPUT_REPORT, buf,
					    TEST_INPUT_LEN);
	hid_bpf_release_context(ctx);
	return 0;
}

SEC("syscall")
int output_report(struct hid_syscall_args *args)
{
	struct hid_bpf_ctx *ctx = hid_bpf_allocate_context(args->hid_id);
	__u8 buf[SHORT_LEN];

	if (!ctx)
		return -19;
	__builtin_memcpy(buf, args->data, SHORT_LEN);
	args->retval = hid_bpf_hw_output_report(ctx, buf, SHORT_LEN);
	hid_bpf_release_context(ctx);
	return 0;
}

SEC("syscall")
int get_feature(struct hid_syscall_args *args)
{
	struct hid_bpf_ctx *ctx = hid_bpf_allocate_context(args->hid_id);
	__u8 buf[SHORT_LEN] = {};

	if (!ctx)
		return -19;
	buf[0] = args->data[0];
	args->retval = hid_bpf_hw_request(ctx, buf, SHORT_LEN,
					  HID_FEATURE_REPORT,
					  HID_REQ_GET_REPORT);
	__builtin_memcpy(args->data, buf, SHORT_LEN);
	hid_bpf_release_context(ctx);
	return 0;
}
