// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request-hook programs of the kernel tests (test_hid_bpf_requests.c). One
 * struct_ops map per behaviour; the test attaches the ones it needs.
 * Programs whose name starts with "sleepable_" are loaded sleepable.
 */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

#define EIO 5
#define EACCES 13
#define ENOSYS 38
#define REQ_LEN 64

/* Read back by the tests. */
__u64 first_source;
__u64 last_source;
__u64 calls;
int outer_ret;
int inner_ret;
__u64 inner_source;
__u64 pid_tgid;
struct bpf_pidns_info ns_ids;
int ns_ret;
/* Set by the tests: the pid namespace, as stat() of /proc/self/ns/pid. */
__u64 ns_dev;
__u64 ns_ino;
/* Set by the tests. */
__u8 refused_id;

/* Refuse GET_REPORT of feature reports with EACCES. */
SEC("struct_ops/hid_hw_request")
int BPF_PROG(refuse_get_feature, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	if (rtype == HID_FEATURE_REPORT && reqtype == HID_REQ_GET_REPORT)
		return -EACCES;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops refuse_get = { .hid_hw_request = (void *)refuse_get_feature };

/* Refuse SET_REPORT of feature report refused_id only. */
SEC("struct_ops/hid_hw_request")
int BPF_PROG(refuse_set_one_id, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	if (rtype == HID_FEATURE_REPORT && reqtype == HID_REQ_SET_REPORT &&
	    reportnum == refused_id)
		return -EACCES;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops refuse_set_id = { .hid_hw_request = (void *)refuse_set_one_id };

/*
 * Answer GET_REPORT itself, telling the first opener from the others by
 * source: byte 1 of the answer is 0x11 for the first, 0x22 for the rest.
 */
SEC("struct_ops/hid_hw_request")
int BPF_PROG(answer_by_source, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 2);

	if (reqtype != HID_REQ_GET_REPORT || !data)
		return 0;
	if (!first_source)
		first_source = source;
	data[1] = source == first_source ? 0x11 : 0x22;
	return hctx->allocated_size;
}

SEC(".struct_ops")
struct hid_bpf_ops answer_get = { .hid_hw_request = (void *)answer_by_source };

/*
 * Forward GET_REPORT feature through hid_bpf_hw_request() from a sleepable
 * program: the forwarded request comes back through this hook, where the
 * kfunc must refuse to recurse.
 */
SEC("struct_ops/hid_hw_request")
int BPF_PROG(sleepable_forward_request, struct hid_bpf_ctx *hctx,
	     unsigned char reportnum, enum hid_report_type rtype,
	     enum hid_class_request reqtype, __u64 source)
{
	__u8 buf[REQ_LEN] = {};
	__u8 *data;
	int ret;

	if (rtype != HID_FEATURE_REPORT || reqtype != HID_REQ_GET_REPORT)
		return 0;
	calls++;
	buf[0] = reportnum;
	ret = hid_bpf_hw_request(hctx, buf, REQ_LEN, rtype, reqtype);
	if (ret == -35) {		/* -EDEADLOCK: the forwarded request */
		inner_ret = ret;
		inner_source = source;
		return 0;
	}
	outer_ret = ret;
	data = hid_bpf_get_data(hctx, 0, REQ_LEN);
	if (!data || ret <= 0)
		return ret ? ret : -EIO;
	__builtin_memcpy(data, buf, REQ_LEN);
	return ret;
}

SEC(".struct_ops")
struct hid_bpf_ops forward_request = {
	.hid_hw_request = (void *)sleepable_forward_request,
};

/* Refuse a SET_REPORT whose byte 1 is 0x66, read with hid_bpf_get_data. */
SEC("struct_ops/hid_hw_request")
int BPF_PROG(refuse_payload_0x66, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 2);

	if (reqtype == HID_REQ_SET_REPORT && data && data[1] == 0x66)
		return -EACCES;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops refuse_payload = { .hid_hw_request = (void *)refuse_payload_0x66 };

/* Record who asks, with the helper upstream offers the request hooks
 * (uid and comm come from the current task: task_helpers.bpf.c). */
SEC("struct_ops/hid_hw_request")
int BPF_PROG(record_caller, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	pid_tgid = bpf_get_current_pid_tgid();
	ns_ret = bpf_get_ns_current_pid_tgid(ns_dev, ns_ino, &ns_ids,
					     sizeof(ns_ids));
	last_source = source;
	calls++;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops caller = { .hid_hw_request = (void *)record_caller };

/* Output reports: refuse them all with EACCES. */
SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(refuse_output_report, struct hid_bpf_ctx *hctx, __u64 source)
{
	return -EACCES;
}

SEC(".struct_ops")
struct hid_bpf_ops refuse_output = { .hid_hw_output_report = (void *)refuse_output_report };

/* Output reports: swallow the first opener's (report them sent), let the
 * others through. */
SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(swallow_first_opener, struct hid_bpf_ctx *hctx, __u64 source)
{
	if (!first_source)
		first_source = source;
	return source == first_source ? hctx->allocated_size : 0;
}

SEC(".struct_ops")
struct hid_bpf_ops answer_output = { .hid_hw_output_report = (void *)swallow_first_opener };

/* Forward an output report through hid_bpf_hw_output_report(). */
SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(sleepable_forward_output, struct hid_bpf_ctx *hctx, __u64 source)
{
	__u8 buf[REQ_LEN] = {};
	__u8 *data = hid_bpf_get_data(hctx, 0, REQ_LEN);
	int ret;

	if (!data)
		return 0;
	calls++;
	__builtin_memcpy(buf, data, REQ_LEN);
	ret = hid_bpf_hw_output_report(hctx, buf, REQ_LEN);
	if (ret == -35) {
		inner_ret = ret;
		inner_source = source;
		return 0;
	}
	outer_ret = ret;
	return ret ? ret : -EIO;
}

SEC(".struct_ops")
struct hid_bpf_ops forward_output = {
	.hid_hw_output_report = (void *)sleepable_forward_output,
};

/* A transport without output reports: hidraw falls back to SET_REPORT. */
SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(no_output_reports, struct hid_bpf_ctx *hctx, __u64 source)
{
	return -ENOSYS;
}

SEC(".struct_ops")
struct hid_bpf_ops no_output = {
	.flags = BPF_F_BEFORE,
	.hid_hw_output_report = (void *)no_output_reports,
};

/* A firewall for output report refused_id: both hooks. */
SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(fw_output, struct hid_bpf_ctx *hctx, __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 1);

	return data && data[0] == refused_id ? -EACCES : 0;
}

SEC("struct_ops/hid_hw_request")
int BPF_PROG(fw_request, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	return rtype == HID_OUTPUT_REPORT && reportnum == refused_id ? -EACCES : 0;
}

SEC(".struct_ops")
struct hid_bpf_ops output_firewall = {
	.hid_hw_output_report = (void *)fw_output,
	.hid_hw_request = (void *)fw_request,
};

/* Record the source of output reports (the kernel's LED updates: 0). */
SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(record_output_source, struct hid_bpf_ctx *hctx, __u64 source)
{
	last_source = source;
	calls++;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops output_source = { .hid_hw_output_report = (void *)record_output_source };

/* Answer GET_REPORT itself with byte 1 0x33, claiming 100 bytes more than
 * the request has: the caller sees at most the request length. */
SEC("struct_ops/hid_hw_request")
int BPF_PROG(answer_oversized, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	__u8 *data = hid_bpf_get_data(hctx, 0, 2);

	if (reqtype != HID_REQ_GET_REPORT || !data)
		return 0;
	data[1] = 0x33;
	return hctx->allocated_size + 100;
}

SEC(".struct_ops")
struct hid_bpf_ops oversized = { .hid_hw_request = (void *)answer_oversized };


/*
 * While a mouse is probed, hid-input asks it for its Resolution Multiplier
 * feature report (GET_REPORT, source 0) with the device lock held. This
 * sleepable hook asks the device for the same report through a context of
 * its own before letting the kernel's request through; its own request
 * (non-zero source) passes. Attaching the ops reprobes the device, since
 * it also has a descriptor fixup, which changes nothing.
 */
__u32 probe_requests;
int probe_request_ret;

/* The kernel's own GET_REPORT of a feature report: hid-input's, in probe. */
static __always_inline bool kernel_gets_feature(enum hid_report_type rtype,
						enum hid_class_request reqtype,
						__u64 source)
{
	return !source && rtype == HID_FEATURE_REPORT && reqtype == HID_REQ_GET_REPORT;
}

SEC("struct_ops/hid_hw_request")
int BPF_PROG(sleepable_request_in_probe, struct hid_bpf_ctx *hctx,
	     unsigned char reportnum, enum hid_report_type rtype,
	     enum hid_class_request reqtype, __u64 source)
{
	__u8 buf[2] = { reportnum };
	struct hid_bpf_ctx *own;

	if (!kernel_gets_feature(rtype, reqtype, source))
		return 0;
	own = hid_bpf_allocate_context(hctx->hid->id);
	if (!own)
		return 0;
	probe_request_ret = hid_bpf_hw_request(own, buf, sizeof(buf), rtype, reqtype);
	probe_requests++;
	hid_bpf_release_context(own);
	return 0;
}

SEC("struct_ops/hid_rdesc_fixup")
int BPF_PROG(keep_rdesc, struct hid_bpf_ctx *hctx)
{
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops request_in_probe = {
	.hid_hw_request = (void *)sleepable_request_in_probe,
	.hid_rdesc_fixup = (void *)keep_rdesc,
};

/*
 * The same request in probe, answered by injecting an input report (ID 1 of
 * the mouse). The probing task holds the device's input lock: a kernel that
 * waits for it here waits for itself.
 */
__u32 probe_injections;
int probe_inject_ret;

SEC("struct_ops/hid_hw_request")
int BPF_PROG(sleepable_inject_in_probe, struct hid_bpf_ctx *hctx,
	     unsigned char reportnum, enum hid_report_type rtype,
	     enum hid_class_request reqtype, __u64 source)
{
	__u8 report[5] = { 1 };

	if (!kernel_gets_feature(rtype, reqtype, source))
		return 0;
	probe_inject_ret = hid_bpf_input_report(hctx, HID_INPUT_REPORT, report,
						sizeof(report));
	probe_injections++;
	return 0;
}

SEC(".struct_ops")
struct hid_bpf_ops inject_in_probe = {
	.hid_hw_request = (void *)sleepable_inject_in_probe,
	.hid_rdesc_fixup = (void *)keep_rdesc,
};
