// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A report descriptor read for its application collections only: main,
 * global and local items are decoded (short and long forms), the Usage Page
 * and the first Usage (or Usage Minimum) before each Collection are kept,
 * and every other item is stepped over. Nothing is trusted: sizes are
 * checked against the end of the buffer, nesting and the Push stack are
 * bounded.
 */
#include "hid_descriptor.h"

#include <errno.h>
#include <stdbool.h>

enum item_type { ITEM_MAIN, ITEM_GLOBAL, ITEM_LOCAL, ITEM_RESERVED };

/* Main item tags */
#define MAIN_COLLECTION		0xa
#define MAIN_END_COLLECTION	0xc
/* Global item tags */
#define GLOBAL_USAGE_PAGE	0x0
#define GLOBAL_PUSH		0xa
#define GLOBAL_POP		0xb
/* Local item tags */
#define LOCAL_USAGE		0x0
#define LOCAL_USAGE_MINIMUM	0x1

#define COLLECTION_APPLICATION	0x01
#define LONG_ITEM_PREFIX	0xfe

struct parser {
	uint32_t page;				/* Usage Page, global */
	uint32_t pushed[HID_DESCRIPTOR_PUSH_MAX];
	unsigned n_pushed;
	bool has_usage;				/* first Usage of the locals */
	uint32_t usage;
	bool usage_extended;			/* it was 4 bytes: page included */
	unsigned depth;
};

static void add_usage(uint32_t u, uint32_t *usages, size_t max, size_t *n, bool *overflow)
{
	for (size_t i = 0; i < *n; i++)
		if (usages[i] == u)
			return;
	if (*n == max) {
		*overflow = true;
		return;
	}
	usages[(*n)++] = u;
}

int hid_descriptor_applications(const uint8_t *desc, size_t len, uint32_t *usages,
				size_t max, size_t *n)
{
	static const uint8_t sizes[4] = { 0, 1, 2, 4 };
	struct parser p = {};
	bool overflow = false;
	size_t i = 0;

	*n = 0;
	while (i < len) {
		uint8_t prefix = desc[i];
		uint32_t data = 0;
		size_t size;
		unsigned type, tag;

		if (prefix == LONG_ITEM_PREFIX) {
			/* bDataSize, bLongItemTag, data: no long item is defined */
			if (len - i < 3 || len - i - 3 < desc[i + 1])
				return -EBADMSG;
			i += 3 + (size_t)desc[i + 1];
			continue;
		}
		size = sizes[prefix & 3];
		type = (prefix >> 2) & 3;
		tag = prefix >> 4;
		if (len - i - 1 < size)
			return -EBADMSG;
		for (size_t k = 0; k < size; k++)
			data |= (uint32_t)desc[i + 1 + k] << (8 * k);
		i += 1 + size;

		switch (type) {
		case ITEM_MAIN:
			if (tag == MAIN_COLLECTION) {
				if (p.depth == 0 && (data & 0xff) == COLLECTION_APPLICATION && p.has_usage)
					add_usage(p.usage_extended ? p.usage : p.page << 16 | (p.usage & 0xffff),
						  usages, max, n, &overflow);
				if (++p.depth > HID_DESCRIPTOR_DEPTH_MAX)
					return -EBADMSG;
			} else if (tag == MAIN_END_COLLECTION) {
				if (p.depth == 0)
					return -EBADMSG;
				p.depth--;
			}
			/* every main item ends the scope of local items */
			p.has_usage = false;
			break;
		case ITEM_GLOBAL:
			if (tag == GLOBAL_USAGE_PAGE) {
				p.page = data & 0xffff;
			} else if (tag == GLOBAL_PUSH) {
				if (p.n_pushed == HID_DESCRIPTOR_PUSH_MAX)
					return -EBADMSG;
				p.pushed[p.n_pushed++] = p.page;
			} else if (tag == GLOBAL_POP) {
				if (p.n_pushed == 0)
					return -EBADMSG;
				p.page = p.pushed[--p.n_pushed];
			}
			break;
		case ITEM_LOCAL:
			if ((tag == LOCAL_USAGE || tag == LOCAL_USAGE_MINIMUM) && !p.has_usage) {
				p.has_usage = true;
				p.usage = data;
				p.usage_extended = size == 4;
			}
			break;
		default:
			break;
		}
	}
	if (p.depth != 0)
		return -EBADMSG;
	return overflow ? -E2BIG : 0;
}
