// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Requests a HID-BPF program sends through the kfuncs, as another
 * program on the machine (a device fixup, a userspace tool's syscall
 * program) may: hid_bpf_hw_request() and hid_bpf_hw_output_report() on a
 * device the firewall guards. Run with BPF_PROG_TEST_RUN by
 * tests/e2e/test-kfunc-requests.c; built, like the firewall, against the
 * committed hid_bpf.h (CO-RE), so the same object runs on every test
 * kernel.
 */
#include "hid_bpf.h"
#include "kfunc_requests.h"

char LICENSE[] SEC("license") = "GPL";

extern struct hid_bpf_ctx *hid_bpf_allocate_context(unsigned int hid_id) __ksym;
extern void hid_bpf_release_context(struct hid_bpf_ctx *ctx) __ksym;
extern int hid_bpf_hw_request(struct hid_bpf_ctx *ctx, __u8 *buf, unsigned long buf__sz,
			      enum hid_report_type rtype,
			      enum hid_class_request reqtype) __ksym;
extern int hid_bpf_hw_output_report(struct hid_bpf_ctx *ctx, __u8 *buf,
				    unsigned long buf__sz) __ksym;

/* SET_REPORT of a feature report: the KFUNC_REQ_LEN bytes of args->data. */
SEC("syscall")
int set_feature(struct kfunc_request_args *args)
{
	struct hid_bpf_ctx *ctx = hid_bpf_allocate_context(args->hid_id);
	__u8 buf[KFUNC_REQ_LEN];

	if (!ctx)
		return -19; /* -ENODEV */
	__builtin_memcpy(buf, args->data, KFUNC_REQ_LEN);
	args->retval = hid_bpf_hw_request(ctx, buf, KFUNC_REQ_LEN, HID_FEATURE_REPORT,
					  HID_REQ_SET_REPORT);
	hid_bpf_release_context(ctx);
	return 0;
}

/* An output report: the KFUNC_REQ_LEN bytes of args->data. */
SEC("syscall")
int output_report(struct kfunc_request_args *args)
{
	struct hid_bpf_ctx *ctx = hid_bpf_allocate_context(args->hid_id);
	__u8 buf[KFUNC_REQ_LEN];

	if (!ctx)
		return -19;
	__builtin_memcpy(buf, args->data, KFUNC_REQ_LEN);
	args->retval = hid_bpf_hw_output_report(ctx, buf, KFUNC_REQ_LEN);
	hid_bpf_release_context(ctx);
	return 0;
}
