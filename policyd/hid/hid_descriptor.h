/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a HID report descriptor says a device is: the usages of its
 * top-level application collections (HID 1.11, 6.2.2). The descriptor
 * comes from the device: every item is checked against the buffer's end.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

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
