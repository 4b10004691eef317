/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared between the HID-BPF struct_ops glue (hid_bpf_struct_ops.c) and the
 * dispatch and kfuncs (hid_bpf_dispatch.c). Not seen by BPF programs.
 */

#ifndef _HID_BPF_DISPATCH_H
#define _HID_BPF_DISPATCH_H

#include <linux/hid.h>
#include <linux/hid_bpf.h>

/**
 * struct hid_bpf_ctx_kern - what a struct hid_bpf_ctx is embedded in
 * @ctx: the part programs see
 * @data: the buffer hid_bpf_get_data() hands out, @ctx.allocated_size bytes;
 *	NULL for a context from hid_bpf_allocate_context()
 * @from_bpf: the report this context describes was itself injected by a
 *	kfunc: kfuncs that issue requests or reports refuse it (-EDEADLOCK)
 * @in_event_hook: context of a hid_device_event program, which runs with
 *	the device's driver_input_lock held
 */
struct hid_bpf_ctx_kern {
	struct hid_bpf_ctx ctx;
	u8 *data;
	bool from_bpf;
	bool in_event_hook;
};

struct hid_device *hid_bpf_get_device(unsigned int hid_id);
int hid_bpf_event_buf_update(struct hid_device *hdev);
void hid_bpf_reprobe(struct hid_device *hdev);
int hid_bpf_register_kfuncs(void);

#endif /* _HID_BPF_DISPATCH_H */
