// SPDX-License-Identifier: GPL-2.0-or-later
#include "exceptions.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void exception_table_done(struct exception_table *t)
{
	free(t->items);
	*t = (struct exception_table){};
}

static size_t count_device(const struct exception_table *t, uint32_t hid_id)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->items[i].hid_id == hid_id;
	return n;
}

int exception_add(struct exception_table *t, const struct exception *e, uint32_t *ret_id)
{
	struct exception *slot;

	if (t->n >= EXCEPTIONS_MAX || count_device(t, e->hid_id) >= EXCEPTIONS_PER_DEVICE_MAX)
		return -ENOSPC;
	if (t->last_id >= EXCEPTION_ID_MAX)
		return -EOVERFLOW;
	if (GROW(t->items, t->n, t->cap) < 0)
		return -ENOMEM;
	slot = &t->items[t->n++];
	*slot = *e;
	slot->id = ++t->last_id;
	*ret_id = slot->id;
	return 0;
}

struct exception *exception_find(struct exception_table *t, uint32_t id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->items[i].id == id)
			return &t->items[i];
	return NULL;
}

void exception_remove(struct exception_table *t, struct exception *e)
{
	size_t i;

	if (!e)
		return;
	i = (size_t)(e - t->items);
	if (i >= t->n)
		return;
	memmove(&t->items[i], &t->items[i + 1], (t->n - i - 1) * sizeof(*t->items));
	t->n--;
}

bool exception_index(uint32_t rule_index, uint32_t *ret_id)
{
	if (rule_index < EXCEPTION_INDEX_BASE || rule_index >= HID_RULE_INDEX_UNDECLARED)
		return false;
	*ret_id = rule_index - EXCEPTION_INDEX_BASE;
	return true;
}

int exception_prepend(const struct exception_table *t, uint32_t hid_id,
		      struct hid_device_rules *rules)
{
	size_t n = count_device(t, hid_id), k = 0;

	if (n == 0)
		return 0;
	if (rules->n_rules > HID_RULES_MAX_RULES || n > HID_RULES_MAX_RULES - rules->n_rules)
		return -E2BIG;
	memmove(&rules->rules[n], &rules->rules[0], rules->n_rules * sizeof(rules->rules[0]));
	for (size_t i = 0; i < t->n; i++) {
		const struct exception *e = &t->items[i];

		if (e->hid_id != hid_id)
			continue;
		rules->rules[k++] = (struct hid_rule){
			.index = EXCEPTION_INDEX_BASE + e->id,
			.kinds = e->kinds,
			.action = HID_RULE_ALLOW,
			.flags = HID_RULE_F_LOG,
			/* The kernel ends it too, should the daemon not. */
			.expires_ns = e->expires_ms * 1000000ULL,
			.sender = e->sender,
		};
		memcpy(rules->rules[k - 1].report_ids, e->report_ids, sizeof(e->report_ids));
	}
	rules->n_rules += (uint32_t)n;
	return 0;
}

uint64_t exception_next_expiry(const struct exception_table *t)
{
	uint64_t next = 0;

	for (size_t i = 0; i < t->n; i++)
		if (!next || t->items[i].expires_ms < next)
			next = t->items[i].expires_ms;
	return next;
}
