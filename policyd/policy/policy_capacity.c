// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Can one device get more rules than it holds? Each rule set fits on its
 * own (check_limits), but the rule sets of several files may all match one
 * device, and a device whose rules do not fit would be left failing closed
 * (every request refused) when it appears. So the check is made when the
 * files are read, for every device that could exist.
 *
 * A device is a point (bus, vendor, product); each match is a box in that
 * space, a list of values or "any" along each axis. The number of rules a
 * point gets only changes where some match names a value, so it is enough
 * to look at the values that matches name, plus one value that none names
 * along each axis. Name, uniq and phys globs are taken to match: two globs
 * can match one string more often than not, and counting too many rules
 * here only asks the administrator to narrow a match, where counting too
 * few would leave a device failing closed. A rule naming HID++ features
 * counts as the most compiled rules it can take on a device (one per
 * feature on each device index, whatever the device will tell), so that
 * no device's answers can make its rules overflow when they come.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "policy_internal.h"

/* Points looked at before giving up with a warning: a policy that lists
 * hundreds of IDs in several matches could otherwise take minutes. */
#define CAPACITY_POINTS_MAX (1u << 20)

struct id_axis {
	uint16_t *v;
	size_t n, cap;
	bool has_other;		/* v ends with a value no match names */
};

struct capacity {
	const struct policy *p;
	struct diag *diag;
	struct id_axis vendors, products;
	uint32_t named_buses;	/* buses some match names */
	uint8_t other_bus;	/* a bus no match names, or 32 when there is none */
	size_t points;
	bool reported;
};

/* The compiled rules set S can give one device, at most: a rule naming
 * HID++ features takes one per feature and device index. */
size_t policy_set_copies(const struct policy *p, const struct policy_ruleset *s)
{
	size_t n = 0;

	for (size_t i = s->first_rule; i < s->first_rule + s->n_rules; i++)
		n += policy_rule_copies(&p->rules[i]);
	return n;
}

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static int axis_add(struct id_axis *a, const struct policy_id_set *s)
{
	if (s->any)
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		if (GROW(a->v, a->n, a->cap) < 0)
			return -ENOMEM;
		a->v[a->n++] = s->ids[i];
	}
	return 0;
}

/* Sort, drop repeats, and add the smallest value no match names. */
static int axis_finish(struct id_axis *a)
{
	size_t n = 0;
	uint32_t other = 0;

	if (a->n > 1)
		policy_sort(a->v, a->n, sizeof(*a->v), cmp_u16);
	for (size_t i = 0; i < a->n; i++)
		if (!n || a->v[n - 1] != a->v[i])
			a->v[n++] = a->v[i];
	a->n = n;
	for (size_t i = 0; i < a->n && a->v[i] == other; i++)
		other++;
	if (other > UINT16_MAX)
		return 0;
	if (GROW(a->v, a->n, a->cap) < 0)
		return -ENOMEM;
	a->v[a->n++] = (uint16_t)other;
	a->has_other = true;
	return 0;
}

static bool ids_accept(const struct policy_id_set *s, uint16_t id)
{
	if (s->any)
		return true;
	for (size_t i = 0; i < s->n; i++)
		if (s->ids[i] == id)
			return true;
	return false;
}

static bool match_accepts(const struct policy_match *m, uint8_t bus, uint16_t vendor,
			  uint16_t product)
{
	return (m->buses == UINT32_MAX || (m->buses & (1u << bus))) &&
	       ids_accept(&m->vendors, vendor) && ids_accept(&m->products, product);
}

/* The first match of S that accepts the device (bus, vendor, product), or NULL. */
static const struct policy_match *set_accepts(const struct policy_ruleset *s, uint8_t bus,
					      uint16_t vendor, uint16_t product)
{
	for (size_t i = 0; i < s->n_matches; i++)
		if (match_accepts(&s->matches[i], bus, vendor, product))
			return &s->matches[i];
	return NULL;
}

/* The rules the device (bus, vendor, product) gets; an error when they do
 * not fit, said once for the whole policy. It is placed at the first rule
 * set's match that takes the device, and names every such match with its
 * file's path, line and column, and its JSON path: those are what to
 * narrow. */
static void check_point(struct capacity *c, uint8_t bus, uint16_t vendor, uint16_t product)
{
	const struct policy *p = c->p;
	const struct policy_match *first_match = NULL;
	size_t total = 0, first = SIZE_MAX, first_file = 0;
	char list[1024];
	size_t len = 0;

	for (size_t s = 0; s < p->n_sets; s++)
		if (set_accepts(&p->sets[s], bus, vendor, product)) {
			total += policy_set_copies(p, &p->sets[s]);
			if (first == SIZE_MAX)
				first = s;
		}
	if (total <= HID_RULES_MAX_RULES || c->reported)
		return;
	c->reported = true;
	list[0] = '\0';
	for (size_t s = first; s < p->n_sets && len < sizeof(list); s++) {
		const struct policy_ruleset *set = &p->sets[s];
		const struct policy_match *m = set_accepts(set, bus, vendor, product);
		int k;

		if (!m || !set->n_rules)
			continue;
		if (!first_match) {
			first_match = m;
			first_file = set->file;
		}
		k = snprintf(list + len, sizeof(list) - len, "%s%s:%d:%d: %s (%zu rule%s)",
			     len ? ", " : "", p->files[set->file].path, m->at.line, m->at.column,
			     m->path, policy_set_copies(p, set),
			     policy_set_copies(p, set) == 1 ? "" : "s");
		if (k < 0)
			break;
		len += (size_t)k;
	}
	if (len >= sizeof(list))
		strcpy(list + sizeof(list) - 5, " ...");
	diag_add_at(c->diag, DIAG_ERROR, p->files[first_file].path,
		    first_match->at.line, first_match->at.column, first_match->path,
		    "a device %s:%04X:%04X would get %zu rules, more than the %d a device holds, from the matches %s; narrow them or merge their rule sets' rules",
		    policy_bus_name(bus), vendor, product, total, HID_RULES_MAX_RULES, list);
}

/* Every point inside match M (an axis that M leaves open takes every value
 * of the axis). Returns false when the budget is spent. */
static bool check_match(struct capacity *c, const struct policy_match *m)
{
	for (uint8_t bus = 0; bus < 32; bus++) {
		bool named = c->named_buses & (1u << bus);

		if (!(named || bus == c->other_bus) ||
		    (m->buses != UINT32_MAX && !(m->buses & (1u << bus))))
			continue;
		for (size_t v = 0; v < c->vendors.n; v++) {
			if (!ids_accept(&m->vendors, c->vendors.v[v]))
				continue;
			for (size_t q = 0; q < c->products.n; q++) {
				if (!ids_accept(&m->products, c->products.v[q]))
					continue;
				if (++c->points > CAPACITY_POINTS_MAX)
					return false;
				check_point(c, bus, c->vendors.v[v], c->products.v[q]);
				if (c->reported)
					return true;
			}
		}
	}
	return true;
}

int policy_check_capacity(const struct policy *p, struct diag *diag)
{
	struct capacity c = { .p = p, .diag = diag, .other_bus = 32 };
	size_t all_rules = 0;
	int r = 0;

	for (size_t s = 0; s < p->n_sets; s++)
		all_rules += policy_set_copies(p, &p->sets[s]);
	if (all_rules <= HID_RULES_MAX_RULES)
		return 0;

	for (size_t s = 0; s < p->n_sets && r == 0; s++)
		for (size_t i = 0; i < p->sets[s].n_matches && r == 0; i++) {
			const struct policy_match *m = &p->sets[s].matches[i];

			if (m->buses != UINT32_MAX)
				c.named_buses |= m->buses;
			r = axis_add(&c.vendors, &m->vendors);
			if (r == 0)
				r = axis_add(&c.products, &m->products);
		}
	if (r == 0)
		r = axis_finish(&c.vendors);
	if (r == 0)
		r = axis_finish(&c.products);
	for (uint8_t bus = 0; bus < 32; bus++)
		if (!(c.named_buses & (1u << bus))) {
			c.other_bus = bus;
			break;
		}

	for (size_t s = 0; s < p->n_sets && r == 0 && !c.reported; s++)
		for (size_t i = 0; i < p->sets[s].n_matches && !c.reported; i++)
			if (!check_match(&c, &p->sets[s].matches[i])) {
				diag_warning(diag, NULL, NULL,
					     "the matches name too many devices to check that none gets more than %d rules; a device that does fails closed when it appears",
					     HID_RULES_MAX_RULES);
				goto out;
			}
out:
	free(c.vendors.v);
	free(c.products.v);
	if (r < 0)
		return r;
	return c.reported ? -EINVAL : 0;
}
