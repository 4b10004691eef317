// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A report descriptor read for its application collections and the
 * reports it declares: main, global and local items are decoded (short and
 * long forms); the Usage Page and the first Usage (or Usage Minimum)
 * before each Collection, and the Report ID in force at each Input, Output
 * and Feature item, are kept; every other item is stepped over. Nothing is
 * trusted: sizes are checked against the end of the buffer, nesting and
 * the Push stack are bounded.
 */
#include "hid_descriptor.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

enum item_type { ITEM_MAIN, ITEM_GLOBAL, ITEM_LOCAL, ITEM_RESERVED };

/* Main item tags */
#define MAIN_INPUT		0x8
#define MAIN_OUTPUT		0x9
#define MAIN_FEATURE		0xb
#define MAIN_COLLECTION		0xa
#define MAIN_END_COLLECTION	0xc
/* Global item tags */
#define GLOBAL_USAGE_PAGE	0x0
#define GLOBAL_REPORT_ID	0x8
#define GLOBAL_PUSH		0xa
#define GLOBAL_POP		0xb
/* Local item tags */
#define LOCAL_USAGE		0x0
#define LOCAL_USAGE_MINIMUM	0x1

#define COLLECTION_APPLICATION	0x01
#define LONG_ITEM_PREFIX	0xfe

/* The globals this parser keeps; Push saves them, Pop restores them. */
struct globals {
	uint32_t page;				/* Usage Page */
	uint32_t report_id;			/* Report ID, 0 before any */
};

struct parser {
	struct globals g;
	struct globals pushed[HID_DESCRIPTOR_PUSH_MAX];
	unsigned n_pushed;
	bool has_usage;				/* first Usage of the locals */
	uint32_t usage;
	bool usage_extended;			/* it was 4 bytes: page included */
	unsigned depth;
};

/* What a walk over a descriptor collects: either may be NULL. */
struct findings {
	uint32_t *usages;
	size_t max, *n;
	bool overflow;
	uint32_t (*declared)[HID_DESCRIPTOR_REPORT_IDS / 32];
};

static void add_usage(struct findings *f, uint32_t u)
{
	for (size_t i = 0; i < *f->n; i++)
		if (f->usages[i] == u)
			return;
	if (*f->n == f->max) {
		f->overflow = true;
		return;
	}
	f->usages[(*f->n)++] = u;
}

static int main_item(struct parser *p, struct findings *f, unsigned tag, uint32_t data)
{
	/* hid-core's enum hid_report_type, by main item tag */
	int rtype = tag == MAIN_INPUT ? 0 : tag == MAIN_OUTPUT ? 1 : tag == MAIN_FEATURE ? 2 : -1;

	if (rtype >= 0 && f->declared)
		f->declared[rtype][p->g.report_id / 32] |= 1u << (p->g.report_id % 32);
	if (tag == MAIN_COLLECTION) {
		if (p->depth == 0 && (data & 0xff) == COLLECTION_APPLICATION && p->has_usage && f->usages)
			add_usage(f, p->usage_extended ? p->usage : p->g.page << 16 | (p->usage & 0xffff));
		if (++p->depth > HID_DESCRIPTOR_DEPTH_MAX)
			return -EBADMSG;
	} else if (tag == MAIN_END_COLLECTION) {
		if (p->depth == 0)
			return -EBADMSG;
		p->depth--;
	}
	/* every main item ends the scope of local items */
	p->has_usage = false;
	return 0;
}

static int global_item(struct parser *p, unsigned tag, uint32_t data)
{
	switch (tag) {
	case GLOBAL_USAGE_PAGE:
		p->g.page = data & 0xffff;
		break;
	case GLOBAL_REPORT_ID:
		/* hid-core refuses the device's descriptor for these */
		if (data == 0 || data >= HID_DESCRIPTOR_REPORT_IDS)
			return -EBADMSG;
		p->g.report_id = data;
		break;
	case GLOBAL_PUSH:
		if (p->n_pushed == HID_DESCRIPTOR_PUSH_MAX)
			return -EBADMSG;
		p->pushed[p->n_pushed++] = p->g;
		break;
	case GLOBAL_POP:
		if (p->n_pushed == 0)
			return -EBADMSG;
		p->g = p->pushed[--p->n_pushed];
		break;
	}
	return 0;
}

static int walk(const uint8_t *desc, size_t len, struct findings *f)
{
	static const uint8_t sizes[4] = { 0, 1, 2, 4 };
	struct parser p = {};
	size_t i = 0;
	int r = 0;

	while (i < len && r == 0) {
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
			r = main_item(&p, f, tag, data);
			break;
		case ITEM_GLOBAL:
			r = global_item(&p, tag, data);
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
	if (r < 0 || p.depth != 0)
		return -EBADMSG;
	return 0;
}

int hid_descriptor_applications(const uint8_t *desc, size_t len, uint32_t *usages,
				size_t max, size_t *n)
{
	struct findings f = { .usages = usages, .max = max, .n = n };
	int r;

	*n = 0;
	r = walk(desc, len, &f);
	if (r < 0)
		return r;
	return f.overflow ? -E2BIG : 0;
}

int hid_descriptor_reports(const uint8_t *desc, size_t len,
			   uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32])
{
	struct findings f = { .declared = declared };

	memset(declared, 0, sizeof(uint32_t[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32]));
	return walk(desc, len, &f);
}
