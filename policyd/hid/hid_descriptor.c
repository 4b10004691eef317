// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A report descriptor read for two things: its application collections
 * (the Usage Page and the first Usage, or Usage Minimum, before each
 * top-level Collection) and the usages each Input, Output and Feature item
 * carries, with its report ID. Main, global and local items are decoded
 * (short and long forms); every item neither needs is stepped over. Nothing
 * is trusted: sizes are checked against the end of the buffer, nesting,
 * the Push stack and the usages kept are bounded.
 */
#include "hid_descriptor.h"

#include <errno.h>
#include <stdbool.h>

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
#define LOCAL_USAGE_MAXIMUM	0x2

#define COLLECTION_APPLICATION	0x01
#define LONG_ITEM_PREFIX	0xfe

/* One short item; long items are stepped over by next_item(). */
struct item {
	unsigned type, tag;
	uint32_t data;
	size_t size;
};

/*
 * The item at *I (long items skipped), *I moved past it. Returns 1 with
 * IT filled, 0 at the end, -EBADMSG when an item runs past the end.
 */
static int next_item(const uint8_t *desc, size_t len, size_t *i, struct item *it)
{
	static const uint8_t sizes[4] = { 0, 1, 2, 4 };

	while (*i < len) {
		uint8_t prefix = desc[*i];

		if (prefix == LONG_ITEM_PREFIX) {
			/* bDataSize, bLongItemTag, data: no long item is defined */
			if (len - *i < 3 || len - *i - 3 < desc[*i + 1])
				return -EBADMSG;
			*i += 3 + (size_t)desc[*i + 1];
			continue;
		}
		it->size = sizes[prefix & 3];
		it->type = (prefix >> 2) & 3;
		it->tag = prefix >> 4;
		if (len - *i - 1 < it->size)
			return -EBADMSG;
		it->data = 0;
		for (size_t k = 0; k < it->size; k++)
			it->data |= (uint32_t)desc[*i + 1 + k] << (8 * k);
		*i += 1 + it->size;
		return 1;
	}
	return 0;
}

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
	struct parser p = {};
	bool overflow = false;
	struct item it;
	size_t i = 0;
	int r;

	*n = 0;
	while ((r = next_item(desc, len, &i, &it)) > 0) {
		uint32_t data = it.data;
		size_t size = it.size;
		unsigned tag = it.tag;

		switch (it.type) {
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
	if (r < 0 || p.depth != 0)
		return -EBADMSG;
	return overflow ? -E2BIG : 0;
}

/* A local usage before a main item: a Usage, or Usage Minimum to Maximum. */
struct local_usage {
	uint32_t min, max;	/* as written: 4 bytes carry their page */
	bool extended;
	bool open;		/* a Usage Minimum still waiting for its Maximum */
};

struct report_parser {
	uint16_t page;				/* Usage Page, global */
	uint8_t id;				/* Report ID, global */
	struct { uint16_t page; uint8_t id; } pushed[HID_DESCRIPTOR_PUSH_MAX];
	unsigned n_pushed;
	struct local_usage locals[HID_DESCRIPTOR_LOCALS_MAX];
	unsigned n_locals;
	struct { bool has_usage; uint16_t page, usage; } collections[HID_DESCRIPTOR_DEPTH_MAX];
	unsigned depth;
	bool overflow;				/* something was not kept */
	struct hid_report_usage *out;
	size_t max, n;
};

static bool same_report_usage(const struct hid_report_usage *a, const struct hid_report_usage *b)
{
	return a->type == b->type && a->id == b->id && a->page == b->page &&
	       a->has_usage == b->has_usage && a->usage_min == b->usage_min &&
	       a->usage_max == b->usage_max;
}

static void add_report_usage(struct report_parser *p, const struct hid_report_usage *u)
{
	for (size_t i = 0; i < p->n; i++)
		if (same_report_usage(&p->out[i], u))
			return;
	if (p->n == p->max) {
		p->overflow = true;
		return;
	}
	p->out[p->n++] = *u;
}

/* A 2-byte usage is on the page in effect at the main item (HID 1.11, 6.2.2.8). */
static void resolve_local(const struct report_parser *p, const struct local_usage *l,
			  uint16_t *page, uint16_t *min, uint16_t *max)
{
	*page = l->extended ? (uint16_t)(l->min >> 16) : p->page;
	*min = (uint16_t)l->min;
	*max = (uint16_t)l->max;
	if (*max < *min)
		*max = *min;
}

static void main_item(struct report_parser *p, uint8_t type)
{
	struct hid_report_usage u = { .type = type, .id = p->id };

	if (!p->n_locals) {
		u.page = p->page;
		add_report_usage(p, &u);
	}
	u.has_usage = true;
	for (unsigned k = 0; k < p->n_locals; k++) {
		resolve_local(p, &p->locals[k], &u.page, &u.usage_min, &u.usage_max);
		add_report_usage(p, &u);
	}
	for (unsigned d = 0; d < p->depth; d++) {
		if (!p->collections[d].has_usage)
			continue;
		u.page = p->collections[d].page;
		u.usage_min = u.usage_max = p->collections[d].usage;
		add_report_usage(p, &u);
	}
}

static int collection(struct report_parser *p)
{
	if (p->depth == HID_DESCRIPTOR_DEPTH_MAX)
		return -EBADMSG;
	p->collections[p->depth].has_usage = p->n_locals > 0;
	if (p->n_locals) {
		uint16_t max;

		resolve_local(p, &p->locals[0], &p->collections[p->depth].page,
			      &p->collections[p->depth].usage, &max);
	}
	p->depth++;
	return 0;
}

static void local_item(struct report_parser *p, const struct item *it)
{
	struct local_usage *last = p->n_locals ? &p->locals[p->n_locals - 1] : NULL;

	if (it->tag == LOCAL_USAGE_MAXIMUM && last && last->open) {
		last->max = it->data;
		last->open = false;
		return;
	}
	if (it->tag != LOCAL_USAGE && it->tag != LOCAL_USAGE_MINIMUM && it->tag != LOCAL_USAGE_MAXIMUM)
		return;
	if (p->n_locals == HID_DESCRIPTOR_LOCALS_MAX) {
		p->overflow = true;
		return;
	}
	p->locals[p->n_locals++] = (struct local_usage){
		.min = it->data,
		.max = it->data,
		.extended = it->size == 4,
		.open = it->tag == LOCAL_USAGE_MINIMUM,
	};
}

static int global_item(struct report_parser *p, const struct item *it)
{
	switch (it->tag) {
	case GLOBAL_USAGE_PAGE:
		p->page = (uint16_t)it->data;
		break;
	case GLOBAL_REPORT_ID:
		p->id = (uint8_t)it->data;
		break;
	case GLOBAL_PUSH:
		if (p->n_pushed == HID_DESCRIPTOR_PUSH_MAX)
			return -EBADMSG;
		p->pushed[p->n_pushed].page = p->page;
		p->pushed[p->n_pushed++].id = p->id;
		break;
	case GLOBAL_POP:
		if (p->n_pushed == 0)
			return -EBADMSG;
		p->n_pushed--;
		p->page = p->pushed[p->n_pushed].page;
		p->id = p->pushed[p->n_pushed].id;
		break;
	}
	return 0;
}

int hid_descriptor_reports(const uint8_t *desc, size_t len, struct hid_report_usage *out,
			   size_t max, size_t *n)
{
	struct report_parser p = { .out = out, .max = max };
	struct item it;
	size_t i = 0;
	int r;

	*n = 0;
	while ((r = next_item(desc, len, &i, &it)) > 0) {
		int k = 0;

		switch (it.type) {
		case ITEM_MAIN:
			if (it.tag == MAIN_INPUT) {
				main_item(&p, HID_REPORT_INPUT);
			} else if (it.tag == MAIN_OUTPUT) {
				main_item(&p, HID_REPORT_OUTPUT);
			} else if (it.tag == MAIN_FEATURE) {
				main_item(&p, HID_REPORT_FEATURE);
			} else if (it.tag == MAIN_COLLECTION) {
				k = collection(&p);
			} else if (it.tag == MAIN_END_COLLECTION) {
				if (p.depth == 0)
					k = -EBADMSG;
				else
					p.depth--;
			}
			/* every main item ends the scope of local items */
			p.n_locals = 0;
			break;
		case ITEM_GLOBAL:
			k = global_item(&p, &it);
			break;
		case ITEM_LOCAL:
			local_item(&p, &it);
			break;
		default:
			break;
		}
		if (k < 0) {
			*n = p.n;
			return k;
		}
	}
	*n = p.n;
	if (r < 0 || p.depth != 0)
		return -EBADMSG;
	return p.overflow ? -E2BIG : 0;
}
