// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the report descriptor reader on arbitrary bytes, as a
 * device may send them. Beyond memory errors (ASan, UBSan), it aborts when
 * the result breaks what hid_descriptor.h promises: a known return value,
 * no more usages than room, no usage twice, -E2BIG only when full. The
 * first byte sets the room (1..HID_DESCRIPTOR_USAGES_MAX), so that running
 * out of it is reached too; the rest is also hashed, and read for its
 * reports (hid_descriptor_reports(): no more entries than room, none
 * twice, each of one report type with its usages in order).
 */
#include <errno.h>
#include <stdlib.h>

#include "hid/hid_descriptor.h"
#include "hid/sha256.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t usages[HID_DESCRIPTOR_USAGES_MAX + 1];
	struct hid_report_usage reports[HID_DESCRIPTOR_REPORT_USAGES_MAX + 1];
	uint8_t hash[SHA256_BYTES];
	size_t max, n = 0;
	int r;

	if (size < 1)
		return 0;
	max = 1 + data[0] % HID_DESCRIPTOR_USAGES_MAX;
	usages[max] = 0xdeadbeef;	/* a canary past the room given */
	r = hid_descriptor_applications(data + 1, size - 1, usages, max, &n);
	if ((r != 0 && r != -EBADMSG && r != -E2BIG) || n > max || usages[max] != 0xdeadbeef ||
	    (r == -E2BIG && n != max))
		abort();
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (usages[i] == usages[j])
				abort();
	sha256(data + 1, size - 1, hash);

	max = 1 + data[0] % HID_DESCRIPTOR_REPORT_USAGES_MAX;
	reports[max].page = 0xbeef;	/* a canary past the room given */
	r = hid_descriptor_reports(data + 1, size - 1, reports, max, &n);
	if ((r != 0 && r != -EBADMSG && r != -E2BIG) || n > max || reports[max].page != 0xbeef)
		abort();
	for (size_t i = 0; i < n; i++) {
		const struct hid_report_usage *a = &reports[i];

		if (!a->type || (a->type & (a->type - 1)) || a->type > HID_REPORT_OUTPUT ||
		    a->usage_min > a->usage_max || (!a->has_usage && (a->usage_min || a->usage_max)))
			abort();
		for (size_t j = i + 1; j < n; j++) {
			const struct hid_report_usage *b = &reports[j];

			if (a->type == b->type && a->id == b->id && a->page == b->page &&
			    a->has_usage == b->has_usage && a->usage_min == b->usage_min &&
			    a->usage_max == b->usage_max)
				abort();
		}
	}
	return 0;
}
