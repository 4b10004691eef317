// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the report descriptor reader on arbitrary bytes, as a
 * device may send them. Beyond memory errors (ASan, UBSan), it aborts when
 * the result breaks what hid_descriptor.h promises: a known return value,
 * no more usages than room, no usage twice, -E2BIG only when full. The
 * first byte sets the room (1..HID_DESCRIPTOR_USAGES_MAX), so that running
 * out of it is reached too; the rest is also hashed, and read for its
 * reports (hid_descriptor_reports(): no more entries than room, none
 * twice, each of one report type with its usages in order, each of a
 * report the bitmap of declared reports holds, and that bitmap the same
 * whether the list is asked for or not).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hid/hid_descriptor.h"
#include "hid/sha256.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t usages[HID_DESCRIPTOR_USAGES_MAX + 1];
	struct hid_report_usage reports[HID_DESCRIPTOR_REPORT_USAGES_MAX + 1];
	uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32];
	uint32_t alone[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32];
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

	/* the declared reports alone: never -E2BIG, whatever the room */
	r = hid_descriptor_reports(data + 1, size - 1, alone, NULL, 0, NULL);
	if (r != 0 && r != -EBADMSG)
		abort();
	max = 1 + data[0] % HID_DESCRIPTOR_REPORT_USAGES_MAX;
	reports[max].page = 0xbeef;	/* a canary past the room given */
	r = hid_descriptor_reports(data + 1, size - 1, declared, reports, max, &n);
	if ((r != 0 && r != -EBADMSG && r != -E2BIG) || n > max || reports[max].page != 0xbeef ||
	    memcmp(declared, alone, sizeof(declared)))
		abort();
	for (size_t i = 0; i < n; i++) {
		const struct hid_report_usage *a = &reports[i];
		unsigned t = a->type == HID_REPORT_INPUT ? 0 : a->type == HID_REPORT_OUTPUT ? 1 : 2;

		if (!a->type || (a->type & (a->type - 1)) || a->type > HID_REPORT_OUTPUT ||
		    a->usage_min > a->usage_max || (!a->has_usage && (a->usage_min || a->usage_max)))
			abort();
		/* one walk: every report listed is a report declared */
		if (!(declared[t][a->id / 32] >> (a->id % 32) & 1))
			abort();
		for (size_t j = i + 1; j < n; j++) {
			const struct hid_report_usage *b = &reports[j];

			if (a->type == b->type && a->id == b->id && a->page == b->page &&
			    a->has_usage == b->has_usage && a->usage_min == b->usage_min &&
			    a->usage_max == b->usage_max)
				abort();
		}
	}
	/* all of it kept: every report declared is listed */
	for (unsigned t = 0; r == 0 && t < HID_DESCRIPTOR_REPORT_TYPES; t++)
		for (unsigned id = 0; id < HID_DESCRIPTOR_REPORT_IDS; id++) {
			uint8_t type = t == 0 ? HID_REPORT_INPUT : t == 1 ? HID_REPORT_OUTPUT : HID_REPORT_FEATURE;
			size_t i = 0;

			if (!(declared[t][id / 32] >> (id % 32) & 1))
				continue;
			while (i < n && !(reports[i].type == type && reports[i].id == id))
				i++;
			if (i == n)
				abort();
		}
	return 0;
}
