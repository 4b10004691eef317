/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a HID report descriptor says a device is: the usages of its
 * top-level application collections (HID 1.11, 6.2.2). The descriptor
 * comes from the device: every item is checked against the buffer's end.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "common/hid_report.h"

#define HID_DESCRIPTOR_SIZE_MAX		4096	/* the kernel's HID_MAX_DESCRIPTOR_SIZE */
#define HID_DESCRIPTOR_USAGES_MAX	32	/* distinct application usages kept */
#define HID_DESCRIPTOR_DEPTH_MAX	64	/* nested collections */
#define HID_DESCRIPTOR_PUSH_MAX		16	/* Push without Pop */

/*
 * Parse DESC (LEN bytes) and store in USAGES (room for MAX) the distinct
 * usages (page << 16 | usage) of its top-level application collections, in
 * order of appearance; *N is their count. Returns 0; -EBADMSG when the
 * descriptor is malformed (an item runs past the end, a collection ends
 * that was not opened or is not closed, Push/Pop out of balance): what was
 * found before the fault is kept in USAGES; -E2BIG when there were more
 * than MAX (the first MAX are kept).
 */
int hid_descriptor_applications(const uint8_t *desc, size_t len, uint32_t *usages,
				size_t max, size_t *n);

#define HID_DESCRIPTOR_REPORT_USAGES_MAX 128	/* distinct report usages kept */
#define HID_DESCRIPTOR_LOCALS_MAX	64	/* usages before one main item */

/*
 * Parse DESC (LEN bytes) and store in OUT (room for MAX) what each of its
 * Input, Output and Feature items carries: its type, its report ID (the
 * Report ID in effect, 0 when none was declared) and a usage page with the
 * usages on it, once for the item's own usages (each Usage, or Usage
 * Minimum to Maximum; a 2-byte usage is on the Usage Page in effect at the
 * item; an item with none carries that page alone) and once for each
 * collection that encloses it and names a usage. Entries are distinct, in
 * order of appearance; *N is their count. Returns 0; -EBADMSG when the
 * descriptor is malformed (as hid_descriptor_applications()) and -E2BIG
 * when more than MAX entries, or more than HID_DESCRIPTOR_LOCALS_MAX
 * usages before one item, were found: OUT then holds what was found
 * before, and is not the whole of what the descriptor declares.
 */
int hid_descriptor_reports(const uint8_t *desc, size_t len, struct hid_report_usage *out,
			   size_t max, size_t *n);
