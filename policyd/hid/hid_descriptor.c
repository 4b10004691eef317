// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A report descriptor read, in one walk, for what hid-policyd needs of it:
 * its application collections (the Usage Page and the first Usage, or
 * Usage Minimum, before each top-level Collection), the reports it
 * declares (the type and the Report ID in force at each Input, Output and
 * Feature item) and the usages each of those items carries. Main, global
 * and local items are decoded (short and long forms); every other item is
 * stepped over. Nothing is trusted: sizes are checked against the end of
 * the buffer, nesting, the Push stack and the usages kept are bounded.
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
#define LOCAL_USAGE_MAXIMUM	0x2

#define COLLECTION_APPLICATION	0x01
#define LONG_ITEM_PREFIX	0xfe

/* One short item; long items are stepped over by next_item(). */
struct item {
	unsigned type, tag;
	uint32_t data;
	size_t size;
};

/* The globals this parser keeps; Push saves them, Pop restores them. */
struct globals {
	uint16_t page;				/* Usage Page */
	uint8_t report_id;			/* Report ID, 0 before any */
};

/* A local usage before a main item: a Usage, or Usage Minimum to Maximum. */
struct local_usage {
	uint32_t min, max;	/* as written: 4 bytes carry their page */
	bool extended;
	bool open;		/* a Usage Minimum still waiting for its Maximum */
};

struct parser {
	struct globals g;
	struct globals pushed[HID_DESCRIPTOR_PUSH_MAX];
	unsigned n_pushed;
	/* the locals before the next main item */
	struct local_usage locals[HID_DESCRIPTOR_LOCALS_MAX];
	unsigned n_locals;
	/* the first Usage or Usage Minimum among them, which names a
	 * collection: kept even when the locals are not */
	bool has_first;
	struct local_usage first;
	/* the collections open, with the usage each names */
	struct { bool has_usage; uint16_t page, usage; } collections[HID_DESCRIPTOR_DEPTH_MAX];
	unsigned depth;
};

/* What a walk over a descriptor collects: each output may be NULL. */
struct findings {
	/* hid_descriptor_applications() */
	uint32_t *usages;
	size_t max_usages, *n_usages;
	bool usages_overflow;
	/* hid_descriptor_reports() */
	uint32_t (*declared)[HID_DESCRIPTOR_REPORT_IDS / 32];
	struct hid_report_usage *reports;
	size_t max_reports, *n_reports;
	bool reports_overflow;			/* an entry or a local not kept */
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

static void add_application(struct findings *f, uint32_t u)
{
	for (size_t i = 0; i < *f->n_usages; i++)
		if (f->usages[i] == u)
			return;
	if (*f->n_usages == f->max_usages) {
		f->usages_overflow = true;
		return;
	}
	f->usages[(*f->n_usages)++] = u;
}

static bool same_report_usage(const struct hid_report_usage *a, const struct hid_report_usage *b)
{
	return a->type == b->type && a->id == b->id && a->page == b->page &&
	       a->has_usage == b->has_usage && a->usage_min == b->usage_min &&
	       a->usage_max == b->usage_max;
}

static void add_report_usage(struct findings *f, const struct hid_report_usage *u)
{
	for (size_t i = 0; i < *f->n_reports; i++)
		if (same_report_usage(&f->reports[i], u))
			return;
	if (*f->n_reports == f->max_reports) {
		f->reports_overflow = true;
		return;
	}
	f->reports[(*f->n_reports)++] = *u;
}

/* A 2-byte usage is on the page in effect at the main item (HID 1.11, 6.2.2.8). */
static void resolve_local(const struct parser *p, const struct local_usage *l,
			  uint16_t *page, uint16_t *min, uint16_t *max)
{
	*page = l->extended ? (uint16_t)(l->min >> 16) : p->g.page;
	*min = (uint16_t)l->min;
	*max = (uint16_t)l->max;
	if (*max < *min)
		*max = *min;
}

/* An Input, Output or Feature item: RTYPE is hid-core's enum
 * hid_report_type (the index of DECLARED), BIT its HID_REPORT_* bit. */
static void report_item(struct parser *p, struct findings *f, unsigned rtype, uint8_t bit)
{
	struct hid_report_usage u = { .type = bit, .id = p->g.report_id };

	if (f->declared)
		f->declared[rtype][u.id / 32] |= 1u << (u.id % 32);
	if (!f->reports)
		return;
	if (!p->n_locals) {
		u.page = p->g.page;
		add_report_usage(f, &u);
	}
	u.has_usage = true;
	for (unsigned k = 0; k < p->n_locals; k++) {
		resolve_local(p, &p->locals[k], &u.page, &u.usage_min, &u.usage_max);
		add_report_usage(f, &u);
	}
	for (unsigned d = 0; d < p->depth; d++) {
		if (!p->collections[d].has_usage)
			continue;
		u.page = p->collections[d].page;
		u.usage_min = u.usage_max = p->collections[d].usage;
		add_report_usage(f, &u);
	}
}

static int collection(struct parser *p, struct findings *f, uint32_t data)
{
	uint16_t page = 0, usage = 0, max;
	bool has_usage = p->has_first;

	if (has_usage)
		resolve_local(p, &p->first, &page, &usage, &max);
	if (p->depth == 0 && (data & 0xff) == COLLECTION_APPLICATION && has_usage && f->usages)
		add_application(f, (uint32_t)page << 16 | usage);
	if (p->depth == HID_DESCRIPTOR_DEPTH_MAX)
		return -EBADMSG;
	p->collections[p->depth].has_usage = has_usage;
	p->collections[p->depth].page = page;
	p->collections[p->depth].usage = usage;
	p->depth++;
	return 0;
}

static int main_item(struct parser *p, struct findings *f, const struct item *it)
{
	int r = 0;

	switch (it->tag) {
	case MAIN_INPUT:
		report_item(p, f, 0, HID_REPORT_INPUT);
		break;
	case MAIN_OUTPUT:
		report_item(p, f, 1, HID_REPORT_OUTPUT);
		break;
	case MAIN_FEATURE:
		report_item(p, f, 2, HID_REPORT_FEATURE);
		break;
	case MAIN_COLLECTION:
		r = collection(p, f, it->data);
		break;
	case MAIN_END_COLLECTION:
		if (p->depth == 0)
			return -EBADMSG;
		p->depth--;
		break;
	}
	/* every main item ends the scope of local items */
	p->n_locals = 0;
	p->has_first = false;
	return r;
}

static int global_item(struct parser *p, const struct item *it)
{
	switch (it->tag) {
	case GLOBAL_USAGE_PAGE:
		p->g.page = (uint16_t)it->data;
		break;
	case GLOBAL_REPORT_ID:
		/* hid-core refuses the device's descriptor for these */
		if (it->data == 0 || it->data >= HID_DESCRIPTOR_REPORT_IDS)
			return -EBADMSG;
		p->g.report_id = (uint8_t)it->data;
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

static void local_item(struct parser *p, struct findings *f, const struct item *it)
{
	struct local_usage *last = p->n_locals ? &p->locals[p->n_locals - 1] : NULL;
	struct local_usage l;

	if (it->tag == LOCAL_USAGE_MAXIMUM && last && last->open) {
		last->max = it->data;
		last->open = false;
		return;
	}
	if (it->tag != LOCAL_USAGE && it->tag != LOCAL_USAGE_MINIMUM && it->tag != LOCAL_USAGE_MAXIMUM)
		return;
	l = (struct local_usage){
		.min = it->data,
		.max = it->data,
		.extended = it->size == 4,
		.open = it->tag == LOCAL_USAGE_MINIMUM,
	};
	if (!p->has_first && it->tag != LOCAL_USAGE_MAXIMUM) {
		p->has_first = true;
		p->first = l;
	}
	if (p->n_locals == HID_DESCRIPTOR_LOCALS_MAX) {
		f->reports_overflow = true;
		return;
	}
	p->locals[p->n_locals++] = l;
}

static int walk(const uint8_t *desc, size_t len, struct findings *f)
{
	struct parser p = {};
	struct item it;
	size_t i = 0;
	int r;

	while ((r = next_item(desc, len, &i, &it)) > 0) {
		int k = 0;

		switch (it.type) {
		case ITEM_MAIN:
			k = main_item(&p, f, &it);
			break;
		case ITEM_GLOBAL:
			k = global_item(&p, &it);
			break;
		case ITEM_LOCAL:
			local_item(&p, f, &it);
			break;
		default:
			break;
		}
		if (k < 0)
			return k;
	}
	if (r < 0 || p.depth != 0)
		return -EBADMSG;
	return 0;
}

int hid_descriptor_applications(const uint8_t *desc, size_t len, uint32_t *usages,
				size_t max, size_t *n)
{
	struct findings f = { .usages = usages, .max_usages = max, .n_usages = n };
	int r;

	*n = 0;
	r = walk(desc, len, &f);
	if (r < 0)
		return r;
	return f.usages_overflow ? -E2BIG : 0;
}

int hid_descriptor_reports(const uint8_t *desc, size_t len,
			   uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32],
			   struct hid_report_usage *out, size_t max, size_t *n)
{
	size_t unused;
	struct findings f = {
		.declared = declared,
		.reports = out,
		.max_reports = max,
		.n_reports = n ? n : &unused,
	};
	int r;

	if (declared)
		memset(declared, 0, sizeof(uint32_t[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32]));
	*f.n_reports = 0;
	r = walk(desc, len, &f);
	if (r < 0)
		return r;
	return out && f.reports_overflow ? -E2BIG : 0;
}
