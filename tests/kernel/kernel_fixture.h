/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pieces both kernel test programs build their cases from: a uhid device,
 * an attached struct_ops map, a program's global variables. Each one
 * CHECKs its own failure, so a case reads as the behaviour it tests.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpf/libbpf.h>

#include "uhid_dev.h"

#define KT_VENDOR 0x1234
#define KT_PRODUCT 0xbeef

/* A uhid device KT_VENDOR:KT_PRODUCT with descriptor RDESC. */
void kt_make_device(struct uhid_dev *dev, const char *name, const uint8_t *rdesc, size_t size);
/* Register the struct_ops map MAP of OBJ. */
struct bpf_link *kt_attach(struct bpf_object *obj, const char *map);
/* The device's hidraw node, opened with FLAGS (O_RDWR is implied). */
int kt_open_hidraw(struct uhid_dev *dev, int flags);
/*
 * Port extensions: behaviour of kernel/ (Linux 6.1) that upstream HID-BPF
 * does not have. A test of one is named port_extension_* and starts with
 * kt_port_extension(WHAT), which SKIPs it on any other kernel, giving WHAT
 * as the reason. The port is told by HID_POLICY_KERNEL_NAME (scripts/test.sh
 * sets it) or else by the kernel's release (6.1.*).
 */
void kt_port_extension(const char *what);
/*
 * Whether this is unmodified upstream HID-BPF, 6.12 or 7.x (not the port,
 * not a -fixed kernel): for a case that meets a known upstream bug, which
 * kernel/upstream/ fixes, to SKIP naming the fix instead of failing.
 */
bool kt_is_upstream(void);
/* Whether this is Linux 7.x ("latest", "latest-fixed"): for what 7.x does
 * differently from 6.12. */
bool kt_is_7x(void);
/* A global variable of the program's .bss, by its width. */
uint32_t kt_global_u32(struct bpf_object *obj, const char *var);
uint64_t kt_global_u64(struct bpf_object *obj, const char *var);
int32_t kt_global_s32(struct bpf_object *obj, const char *var);
