// SPDX-License-Identifier: GPL-2.0-or-later
/* Request-hook programs for bench/request_bench.c. */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

/* Pass-through: see every request, let it go. */
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
	.hid_hw_request = (void *)pass_request,
	.hid_hw_output_report = (void *)pass_output,
};

/* A rule table: (report type << 8 | report ID) -> errno to refuse with. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __s32);
} rules SEC(".maps");

static __always_inline int verdict(__u32 rtype, __u32 id)
{
	__u32 key = rtype << 8 | id;
	__s32 *err = bpf_map_lookup_elem(&rules, &key);

	return err ? -*err : 0;
}

SEC("struct_ops/hid_hw_request")
int BPF_PROG(lookup_request, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	return verdict(rtype, reportnum);
}

SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(lookup_output, struct hid_bpf_ctx *hctx, __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 1);

	return data ? verdict(HID_OUTPUT_REPORT, data[0]) : 0;
}

SEC(".struct_ops")
struct hid_bpf_ops lookup = {
	.hid_hw_request = (void *)lookup_request,
	.hid_hw_output_report = (void *)lookup_output,
};
