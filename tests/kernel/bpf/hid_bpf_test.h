/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the BPF programs of the kernel tests. vmlinux.h is generated from
 * the test kernel's BTF by tests/kernel/build.sh.
 */
#pragma once

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#ifndef BPF_F_BEFORE
#define BPF_F_BEFORE (1U << 3)
#endif

#define TEST_INPUT_LEN	65	/* report ID 1: ID byte + 64 */
#define TEST_SHORT_LEN	9	/* reports 2, 3 and 4: ID byte + 8 */

extern __u8 *hid_bpf_get_data(struct hid_bpf_ctx *ctx, unsigned int offset,
			      const size_t sz) __ksym;
extern struct hid_bpf_ctx *hid_bpf_allocate_context(unsigned int hid_id) __ksym;
extern void hid_bpf_release_context(struct hid_bpf_ctx *ctx) __ksym;
extern int hid_bpf_hw_request(struct hid_bpf_ctx *ctx, __u8 *buf, size_t buf__sz,
			      enum hid_report_type rtype,
			      enum hid_class_request reqtype) __ksym;
extern int hid_bpf_hw_output_report(struct hid_bpf_ctx *ctx, __u8 *buf,
				    size_t buf__sz) __ksym;
extern int hid_bpf_input_report(struct hid_bpf_ctx *ctx,
				enum hid_report_type type, __u8 *buf,
				const size_t buf__sz) __ksym;
extern int hid_bpf_try_input_report(struct hid_bpf_ctx *ctx,
				    enum hid_report_type type, __u8 *buf,
				    const size_t buf__sz) __ksym;
