/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a HID report descriptor says a device is: the usages of its
 * top-level application collections, and the reports it declares (HID
 * 1.11, 6.2.2). The descriptor comes from the device: every item is
 * checked against the buffer's end.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "common/hid_report.h"

#define HID_DESCRIPTOR_SIZE_MAX		4096	/* the kernel's HID_MAX_DESCRIPTOR_SIZE */
#define HID_DESCRIPTOR_USAGES_MAX	32	/* distinct application usages kept */
#define HID_DESCRIPTOR_DEPTH_MAX	64	/* nested collections */
#define HID_DESCRIPTOR_PUSH_MAX		16	/* Push without Pop */
#define HID_DESCRIPTOR_REPORT_TYPES	3	/* input, output, feature */
#define HID_DESCRIPTOR_REPORT_IDS	256

/*
 * Parse DESC (LEN bytes) and store in USAGES (room for MAX) the distinct
 * usages (page << 16 | usage) of its top-level application collections, in
 * order of appearance; *N is their count. Returns 0; -EBADMSG when the
 * descriptor is malformed (an item runs past the end, a collection ends
 * that was not opened or is not closed, Push/Pop out of balance, a Report
 * ID of 0 or above 255, which hid-core refuses): what was
 * found before the fault is kept in USAGES; -E2BIG when there were more
 * than MAX (the first MAX are kept).
 */
int hid_descriptor_applications(const uint8_t *desc, size_t len, uint32_t *usages,
				size_t max, size_t *n);

#define HID_DESCRIPTOR_REPORT_USAGES_MAX 128	/* distinct report usages kept */
#define HID_DESCRIPTOR_LOCALS_MAX	64	/* usages before one main item */

/*
 * The reports DESC (LEN bytes) declares, as hid-core registers them, read
 * in the same walk as hid_descriptor_applications(). Each Input, Output
 * and Feature main item declares a report of its type with the Report ID
 * in force (a global item: Push and Pop save and restore it), 0 before
 * any.
 *
 * DECLARED, unless NULL, is the set of them: bit id % 32 of
 * DECLARED[type][id / 32], type 0, 1, 2 for input, output, feature (the
 * kernel's enum hid_report_type); every other bit is cleared. It holds
 * every report declared, however many entries OUT has room for.
 *
 * OUT, unless NULL, has room for MAX entries of what each of those items
 * carries: its type (HID_REPORT_*), its report ID and a usage page with
 * the usages on it, once for the item's own usages (each Usage, or Usage
 * Minimum to Maximum; a 2-byte usage is on the Usage Page in effect at the
 * item; an item with none carries that page alone) and once for each
 * collection that encloses it and names a usage. Entries are distinct, in
 * order of appearance; *N is their count.
 *
 * Returns 0; -EBADMSG when the descriptor is malformed (as
 * hid_descriptor_applications()): DECLARED and OUT hold the reports before
 * the fault; -E2BIG when OUT was given and more than MAX entries, or more
 * than HID_DESCRIPTOR_LOCALS_MAX usages before one item, were found: OUT
 * then holds what was found before, and is not the whole of what the
 * descriptor declares (DECLARED is).
 */
int hid_descriptor_reports(const uint8_t *desc, size_t len,
			   uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32],
			   struct hid_report_usage *out, size_t max, size_t *n);
