/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Registered hid_bpf_ops struct_ops maps, as the kernel shows them: which
 * device each one is attached to, whether it is registered, whether it has
 * a hid_device_event program. Read through vmlinux BTF, since the layout
 * of a struct_ops map value differs between kernels. hid-policyd's loader
 * and hid-policyctl ask the same questions of the kernel.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

/*
 * Where the kernel keeps the parts of a hid_bpf_ops struct_ops map value:
 * struct bpf_struct_ops_hid_bpf_ops holds the map's state and, cache-line
 * aligned, the struct hid_bpf_ops itself ("data").
 */
struct ops_layout {
	int value_type_id;	/* bpf_struct_ops_hid_bpf_ops */
	__u32 value_size;
	int state;		/* offsets in the map value */
	int data;
	int hid_id;		/* offsets in struct hid_bpf_ops */
	int flags;
	int hooks[3];		/* hid_device_event, hid_hw_request, hid_hw_output_report */
};

/* Read this kernel's layout. Returns 0, -ENOENT when the kernel has no
 * hid_bpf_ops, or -errno. */
int ops_layout_read(struct ops_layout *lay);

/* Is the map behind FD a hid_bpf_ops struct_ops map (of this kernel's
 * layout)? 1 yes, 0 no, or -errno. */
int ops_map_is_hid(const struct ops_layout *lay, int fd);

/* Is the hid_bpf_ops map behind FD (ops_map_is_hid) registered, naming
 * HID_ID? One lookup of its only element. 1 yes, 0 no, or -errno. When
 * INPUT is given, it tells whether the hid_device_event member names a
 * program. */
int ops_map_registered(const struct ops_layout *lay, int fd, uint32_t hid_id, bool *input);

/* Registered hid_bpf_ops instances (ours or anyone's) attached to hid_id,
 * counted over every BPF map of the system; *with_input (when not NULL)
 * gets how many of them have a hid_device_event program. Returns the
 * count, or -errno when a map could not be looked at: -EPERM without
 * CAP_SYS_ADMIN. */
int fw_count_device_ops(uint32_t hid_id, int *with_input);
