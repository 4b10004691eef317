// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the report descriptor reader on arbitrary bytes, as a
 * device may send them. Beyond memory errors (ASan, UBSan), it aborts when
 * the result breaks what hid_descriptor.h promises: a known return value,
 * no more usages than room, no usage twice, -E2BIG only when full. The
 * first byte sets the room (1..HID_DESCRIPTOR_USAGES_MAX), so that running
 * out of it is reached too; the rest is also hashed.
 */
#include <errno.h>
#include <stdlib.h>

#include "hid/hid_descriptor.h"
#include "hid/sha256.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t usages[HID_DESCRIPTOR_USAGES_MAX + 1];
	uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32];
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
	r = hid_descriptor_reports(data + 1, size - 1, declared);
	if (r != 0 && r != -EBADMSG)
		abort();
	sha256(data + 1, size - 1, hash);
	return 0;
}
