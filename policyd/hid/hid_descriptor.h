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

/*
 * The reports DESC (LEN bytes) declares, as hid-core registers them: each
 * Input, Output and Feature main item declares a report of its type (0,
 * 1, 2: the kernel's enum hid_report_type) with the Report ID in force (a
 * global item: Push and Pop save and restore it), 0 before any. Sets bit
 * id % 32 of DECLARED[type][id / 32] and clears the others. Returns 0;
 * -EBADMSG when the descriptor is malformed (as above): the reports
 * declared before the fault are kept.
 */
int hid_descriptor_reports(const uint8_t *desc, size_t len,
			   uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32]);
