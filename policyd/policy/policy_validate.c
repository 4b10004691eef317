// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks that need more than one rule in view: unique names, the per-device
 * limit of a rule set, and rules that can never match (warnings).
 */
#include <errno.h>
#include <linux/input.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "policy_internal.h"

/* Payload constraints of a rule, merged per byte and sorted by offset. */
struct byte_test {
	uint16_t offset;
	uint8_t value;
	uint8_t mask;
};

struct rule_bytes {
	struct byte_test b[HID_RULES_MAX_CONDS * HID_RULES_COND_BYTES];
	size_t n;
	bool impossible;
};

static void rule_bytes_of(const struct policy_rule *r, struct rule_bytes *out)
{
	out->n = 0;
	out->impossible = false;
	for (size_t c = 0; c < r->n_conds; c++)
		for (size_t i = 0; i < r->conds[c].len; i++) {
			uint16_t off = (uint16_t)(r->conds[c].offset + i);
			uint8_t m = r->conds[c].mask[i], v = r->conds[c].value[i];
			size_t k;

			for (k = 0; k < out->n && out->b[k].offset != off; k++)
				;
			if (k == out->n) {
				out->b[out->n++] = (struct byte_test){ off, v, m };
				continue;
			}
			/* bits both test must agree */
			if ((out->b[k].value ^ v) & out->b[k].mask & m)
				out->impossible = true;
			out->b[k].value |= v;
			out->b[k].mask |= m;
		}
}

/* Do R's payload conditions contradict each other? Then it never matches. */
static bool contradicts_itself(const struct policy_rule *r)
{
	struct rule_bytes rb;

	rule_bytes_of(r, &rb);
	return rb.impossible;
}

static const struct byte_test *find_byte(const struct rule_bytes *rb, uint16_t off)
{
	for (size_t k = 0; k < rb->n; k++)
		if (rb->b[k].offset == off)
			return &rb->b[k];
	return NULL;
}

/* Does A name every report ID B does, on every device? The reports named
 * by usage page are known per device only: A covers them where it names
 * every ID, or the same page and usage. */
static bool ids_cover_rule(const struct policy_rule *a, const struct policy_rule *b)
{
	bool all = true;

	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS; w++) {
		if (b->report_ids[w] & ~a->report_ids[w])
			return false;
		all &= a->report_ids[w] == UINT32_MAX;
	}
	if (!b->by_usage || all)
		return true;
	return a->by_usage && a->usage_page == b->usage_page &&
	       (!a->has_usage || (b->has_usage && a->usage == b->usage));
}

/* Does A name every HID++ feature B does (and B some, when A does)? A
 * rule naming none matches the requests to every feature; the copies of
 * one that does test bytes 1 and 2 besides its own conditions, which
 * rule_covers() then finds only where B's own conditions test them. */
static bool features_cover(const struct policy_rule *a, const struct policy_rule *b)
{
	if (!a->n_hidpp_features)
		return true;
	if (!b->n_hidpp_features)
		return false;
	for (uint8_t i = 0; i < b->n_hidpp_features; i++) {
		bool found = false;

		for (uint8_t j = 0; j < a->n_hidpp_features && !found; j++)
			found = a->hidpp_features[j] == b->hidpp_features[i];
		if (!found)
			return false;
	}
	return true;
}

/* Does every request matching B also match A? */
static bool rule_covers(const struct policy_rule *a, const struct rule_bytes *ab,
			const struct policy_rule *b, const struct rule_bytes *bb)
{
	if (b->kinds & ~a->kinds)
		return false;
	if (!features_cover(a, b) || !nrf_options_cover(a, b))
		return false;
	/* A rule for some senders leaves the others' requests to later
	 * rules (whether B's senders are all among A's is not worked out). */
	if (a->sender.fields)
		return false;
	if (!ids_cover_rule(a, b))
		return false;
	for (size_t k = 0; k < ab->n; k++) {
		const struct byte_test *t = find_byte(bb, ab->b[k].offset);

		if (!t || (ab->b[k].mask & ~t->mask) ||
		    (t->value & ab->b[k].mask) != ab->b[k].value)
			return false;
	}
	return true;
}

static bool ids_cover(const struct policy_id_set *a, const struct policy_id_set *b)
{
	if (a->any)
		return true;
	if (b->any)
		return false;
	for (size_t i = 0; i < b->n; i++) {
		bool found = false;

		for (size_t j = 0; j < a->n && !found; j++)
			found = a->ids[j] == b->ids[i];
		if (!found)
			return false;
	}
	return true;
}

static bool glob_covers(const char *a, const char *b)
{
	return !a || (b && !strcmp(a, b));
}

static bool usages_cover(const struct policy_match *a, const struct policy_match *b)
{
	if (!a->n_usages)
		return true;
	if (!b->n_usages)
		return false;
	/* every usage B accepts is one A accepts */
	for (size_t i = 0; i < b->n_usages; i++) {
		bool found = false;

		for (size_t j = 0; j < a->n_usages && !found; j++)
			found = (a->usages[j].mask & ~b->usages[i].mask) == 0 &&
				(b->usages[i].value & a->usages[j].mask) == a->usages[j].value;
		if (!found)
			return false;
	}
	return true;
}

static bool hashes_cover(const struct policy_match *a, const struct policy_match *b)
{
	if (!a->n_hashes)
		return true;
	if (!b->n_hashes)
		return false;
	for (size_t i = 0; i < b->n_hashes; i++) {
		bool found = false;

		for (size_t j = 0; j < a->n_hashes && !found; j++)
			found = !memcmp(a->hashes[j], b->hashes[i], POLICY_SHA256_BYTES);
		if (!found)
			return false;
	}
	return true;
}

static bool interfaces_cover(const struct policy_match *a, const struct policy_match *b)
{
	if (!a->has_interfaces)
		return true;
	if (!b->has_interfaces)
		return false;
	for (size_t w = 0; w < ELEMENTSOF(a->interfaces); w++)
		if (b->interfaces[w] & ~a->interfaces[w])
			return false;
	return true;
}

/* Does A match every device B does? (Globs are compared as text.) */
static bool match_covers(const struct policy_match *a, const struct policy_match *b)
{
	return !(b->buses & ~a->buses) && ids_cover(&a->vendors, &b->vendors) &&
	       ids_cover(&a->products, &b->products) && glob_covers(a->name, b->name) &&
	       glob_covers(a->uniq, b->uniq) && glob_covers(a->phys, b->phys) &&
	       usages_cover(a, b) && hashes_cover(a, b) && interfaces_cover(a, b);
}

/* Does rule set A apply to every device rule set B applies to? */
static bool set_covers(const struct policy_ruleset *a, const struct policy_ruleset *b)
{
	for (size_t i = 0; i < b->n_matches; i++) {
		bool covered = false;

		for (size_t j = 0; j < a->n_matches && !covered; j++)
			covered = match_covers(&a->matches[j], &b->matches[i]);
		if (!covered)
			return false;
	}
	return b->n_matches > 0;
}

/* The path of the file rule R was read from: what messages name. */
static const char *file_of(const struct policy *p, const struct policy_rule *r)
{
	return p->files[p->sets[r->set].file].path;
}

/* "rule "x" (FILE:LINE:COL: PATH)" of BY, as seen from a message about R: the
 * file is left out when it is R's. */
static void rule_ref(const struct policy *p, const struct policy_rule *by,
		     const struct policy_rule *r, char *buf, size_t size)
{
	const char *fby = file_of(p, by);

	if (!strcmp(file_of(p, r), fby))
		snprintf(buf, size, "rule \"%s\" (line %d: %s)", by->name, by->at.line, by->path);
	else
		snprintf(buf, size, "rule \"%s\" (%s:%d:%d: %s)", by->name, fby, by->at.line,
			 by->at.column, by->path);
}

static void rule_warning(const struct policy *p, const struct policy_rule *r, struct diag *diag,
			 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void rule_warning(const struct policy *p, const struct policy_rule *r, struct diag *diag,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd_at(diag, DIAG_WARNING, file_of(p, r), r->at.line, r->at.column, r->path, fmt, ap);
	va_end(ap);
}

static void report_shadowed(const struct policy *p, const struct policy_rule *by,
			    const struct policy_rule *r, struct diag *diag)
{
	char ref[POLICY_TEXT_MAX];

	rule_ref(p, by, r, ref, sizeof(ref));
	rule_warning(p, r, diag, "rule \"%s\" can never match: %s comes first and matches every request it does",
		     r->name, ref);
}

/* Can one request match both A and B? */
static bool rules_intersect(const struct policy_rule *a, const struct rule_bytes *ab,
			    const struct policy_rule *b, const struct rule_bytes *bb)
{
	bool ids = false;

	if (!(a->kinds & b->kinds))
		return false;
	/* the reports named by usage page may be any, on some device */
	ids = a->by_usage || b->by_usage;
	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS && !ids; w++)
		ids = a->report_ids[w] & b->report_ids[w];
	if (!ids)
		return false;
	/* a GET_REPORT meets no payload condition */
	if ((ab->n || bb->n) && !((a->kinds & b->kinds) & ~HID_RULE_KIND_GET_ANY))
		return false;
	for (size_t k = 0; k < ab->n; k++) {
		const struct byte_test *t = find_byte(bb, ab->b[k].offset);

		if (t && ((t->value ^ ab->b[k].value) & t->mask & ab->b[k].mask))
			return false;
	}
	return true;
}

/*
 * BY comes first and decides differently from R on some requests R matches,
 * but not on all of them (that would shadow R), nor does R merely carve an
 * exception out of it (BY within R: the usual "allow this, deny the rest").
 */
static void report_overlap(const struct policy *p, const struct policy_rule *by,
			   const struct policy_rule *r, struct diag *diag)
{
	char ref[POLICY_TEXT_MAX];

	rule_ref(p, by, r, ref, sizeof(ref));
	rule_warning(p, r, diag, "rule \"%s\" (%s) overlaps %s, which comes first and %ss some of the requests this rule would %s; say which wins by making one cover the other, or by narrowing one",
		     r->name, r->action == HID_RULE_DENY ? "deny" : "allow", ref,
		     by->action == HID_RULE_DENY ? "deny" : "allow",
		     r->action == HID_RULE_DENY ? "deny" : "allow");
}

/*
 * A 64-bit summary of the vendors a rule set can match (bit vid % 64; all
 * bits for "any"). A set can cover another only if its summary holds the
 * other's: a cheap test that spares most of the set pairs a full comparison.
 */
static uint64_t vendor_summary(const struct policy_ruleset *s)
{
	uint64_t bits = 0;

	for (size_t i = 0; i < s->n_matches; i++) {
		const struct policy_id_set *v = &s->matches[i].vendors;

		if (v->any)
			return UINT64_MAX;
		for (size_t j = 0; j < v->n; j++)
			bits |= 1ull << (v->ids[j] % 64);
	}
	return bits;
}

/* The first rule of set A (up to rule LIMIT) that covers rule J, or NULL. */
static const struct policy_rule *covering_rule(const struct policy *p,
					       const struct rule_bytes *bytes,
					       const struct policy_ruleset *a, size_t limit,
					       size_t j)
{
	for (size_t i = a->first_rule; i < limit; i++)
		if (!bytes[i].impossible && !p->rules[i].invalid &&
		    rule_covers(&p->rules[i], &bytes[i], &p->rules[j], &bytes[j]))
			return &p->rules[i];
	return NULL;
}

/*
 * The first rule of set A before rule J with the other action that matches
 * some of J's requests, neither covering J (shadowing) nor covered by it.
 */
static const struct policy_rule *overlapping_rule(const struct policy *p,
						  const struct rule_bytes *bytes,
						  const struct policy_ruleset *a, size_t j)
{
	const struct policy_rule *r = &p->rules[j];
	size_t limit = a->first_rule + a->n_rules;

	if (limit > j && a->first_rule <= j)
		limit = j;
	for (size_t i = a->first_rule; i < limit; i++) {
		const struct policy_rule *o = &p->rules[i];

		/* whose requests two rules with senders share is decided at
		 * request time: not worked out here */
		if (bytes[i].impossible || o->invalid || o->action == r->action ||
		    o->sender.fields || r->sender.fields)
			continue;
		if (rules_intersect(o, &bytes[i], r, &bytes[j]) &&
		    !rule_covers(r, &bytes[j], o, &bytes[i]))
			return o;
	}
	return NULL;
}

/* Can one device have an ID of A and of B? */
static bool ids_meet(const struct policy_id_set *a, const struct policy_id_set *b)
{
	if (a->any || b->any)
		return true;
	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; j < b->n; j++)
			if (a->ids[i] == b->ids[j])
				return true;
	return false;
}

/* Can one device match both A and B? Its IDs, bus, descriptor hash and
 * interface are compared; names, serials and usages are taken to meet. */
static bool match_meets(const struct policy_match *a, const struct policy_match *b)
{
	bool hash = !a->n_hashes || !b->n_hashes, itf = !a->has_interfaces || !b->has_interfaces;

	for (size_t i = 0; i < a->n_hashes && !hash; i++)
		for (size_t j = 0; j < b->n_hashes && !hash; j++)
			hash = !memcmp(a->hashes[i], b->hashes[j], POLICY_SHA256_BYTES);
	for (size_t w = 0; w < ELEMENTSOF(a->interfaces) && !itf; w++)
		itf = a->interfaces[w] & b->interfaces[w];
	return (a->buses & b->buses) && ids_meet(&a->vendors, &b->vendors) &&
	       ids_meet(&a->products, &b->products) && hash && itf;
}

/* Can one device match rule sets A and B? */
static bool sets_meet(const struct policy_ruleset *a, const struct policy_ruleset *b)
{
	for (size_t i = 0; i < a->n_matches; i++)
		for (size_t j = 0; j < b->n_matches; j++)
			if (match_meets(&a->matches[i], &b->matches[j]))
				return true;
	return false;
}

/* Do rules A and B name the same senders (as written, in the same order)? */
static bool same_senders(const struct policy_rule *a, const struct policy_rule *b)
{
	const struct hid_rule_sender *x = &a->sender, *y = &b->sender;

	return x->fields == y->fields && x->origin == y->origin && x->n_uids == y->n_uids &&
	       x->n_gids == y->n_gids && x->n_exes == y->n_exes && x->n_units == y->n_units &&
	       !memcmp(x->uids, y->uids, sizeof(x->uids[0]) * x->n_uids) &&
	       !memcmp(x->gids, y->gids, sizeof(x->gids[0]) * x->n_gids) &&
	       !memcmp(x->exes, y->exes, sizeof(x->exes[0]) * x->n_exes) &&
	       !memcmp(a->units, b->units, sizeof(a->units[0]) * x->n_units);
}

/* Does an allow of set LATE before rule J, for the senders of rule O, let
 * through requests of both O and J (the later file's own exception)? */
static bool same_exception_before(const struct policy *p, const struct rule_bytes *bytes,
				  const struct policy_ruleset *late, size_t j, size_t o)
{
	for (size_t k = late->first_rule; k < j; k++) {
		const struct policy_rule *a = &p->rules[k];

		if (!a->invalid && !bytes[k].impossible && a->action == HID_RULE_ALLOW &&
		    same_senders(a, &p->rules[o]) &&
		    rules_intersect(a, &bytes[k], &p->rules[o], &bytes[o]) &&
		    rules_intersect(a, &bytes[k], &p->rules[j], &bytes[j]))
			return true;
	}
	return false;
}

/*
 * Order across files: the first rule that matches decides, and files are
 * read in the order of their names across the directories, so an allow in
 * a file that sorts first takes from a deny of a later file the requests
 * they share (a local allow saved as 10-... before a vendor's 40-...).
 * Within a file that is the usual exception ("allow this sender, deny the
 * rest"); across files nobody wrote it so, and each such allow is told
 * once, with the first enforcing deny it takes requests from, unless the
 * later file makes the same exception for the same senders before its
 * deny. What the overlap checks of check_reachability() tell at the deny
 * (an allow for anyone that hides the deny, or overlaps it in part) is not
 * told twice.
 */
static void check_order_across_files(const struct policy *p, const struct rule_bytes *bytes,
				     struct diag *diag)
{
	for (size_t e = 0; e < p->n_sets; e++) {
		const struct policy_ruleset *early = &p->sets[e];

		if (early->mode == HID_RULES_MODE_AUDIT)
			continue;	/* it only logs: it takes nothing */
		for (size_t i = early->first_rule; i < early->first_rule + early->n_rules; i++) {
			const struct policy_rule *o = &p->rules[i], *deny = NULL;
			const struct policy_ruleset *late = NULL;
			char ref[POLICY_TEXT_MAX];

			if (o->invalid || bytes[i].impossible || o->action != HID_RULE_ALLOW)
				continue;
			for (size_t s = e + 1; s < p->n_sets && !deny; s++) {
				late = &p->sets[s];
				if (late->file == early->file || late->mode == HID_RULES_MODE_AUDIT ||
				    !sets_meet(early, late))
					continue;
				for (size_t j = late->first_rule;
				     j < late->first_rule + late->n_rules && !deny; j++) {
					const struct policy_rule *r = &p->rules[j];

					if (r->invalid || bytes[j].impossible || r->action != HID_RULE_DENY ||
					    !rules_intersect(o, &bytes[i], r, &bytes[j]))
						continue;
					if (!o->sender.fields && set_covers(early, late) &&
					    (rule_covers(o, &bytes[i], r, &bytes[j]) ||
					     !rule_covers(r, &bytes[j], o, &bytes[i])))
						continue;	/* told at R: shadowed, or an overlap */
					if (same_exception_before(p, bytes, late, j, i))
						continue;
					deny = r;
				}
			}
			if (!deny)
				continue;
			rule_ref(p, deny, o, ref, sizeof(ref));
			rule_warning(p, o, diag, "rule \"%s\" (allow%s) takes requests from the deny of %s, in a file read after this one: the first rule that matches decides, and files are read in the order of their names across the directories; to keep the deny, name this file to sort after %s",
				     o->name, o->sender.fields ? ", for its senders" : "", ref,
				     p->files[late->file].name);
		}
	}
}

/*
 * A rule can never match when an earlier rule of its own set, or of an
 * earlier set that applies to every device its set does, matches every
 * request it matches. A rule of an audit-mode set never keeps a rule of an
 * enforcing set from deciding: it only logs (bpf/hid_rules.h).
 */
static void check_reachability(struct policy *p, struct diag *diag)
{
	_cleanup_free_ struct rule_bytes *bytes = NULL;
	_cleanup_free_ uint64_t *vendors = NULL;
	_cleanup_free_ size_t *covering = NULL;

	if (!p->n_rules)
		return;
	bytes = calloc(p->n_rules, sizeof(*bytes));
	vendors = calloc(p->n_sets, sizeof(*vendors));
	covering = calloc(p->n_sets, sizeof(*covering));
	if (!bytes || !vendors || !covering) {
		diag_error(diag, NULL, NULL, "out of memory while checking rules");
		return;
	}
	for (size_t i = 0; i < p->n_rules; i++) {
		rule_bytes_of(&p->rules[i], &bytes[i]);
		p->rules[i].impossible = bytes[i].impossible;
		if (bytes[i].impossible && !p->rules[i].invalid)
			rule_warning(p, &p->rules[i], diag,
				     "rule \"%s\" can never match: its payload conditions contradict each other",
				     p->rules[i].name);
	}

	for (size_t s = 0; s < p->n_sets; s++)
		vendors[s] = vendor_summary(&p->sets[s]);

	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];
		size_t n_covering = 0;

		if (!set->n_rules)
			continue;
		/* earlier sets that apply to every device this one does */
		for (size_t e = 0; e < s; e++)
			if (p->sets[e].n_rules && !(vendors[s] & ~vendors[e]) &&
			    !(p->sets[e].mode == HID_RULES_MODE_AUDIT &&
			      set->mode != HID_RULES_MODE_AUDIT) &&
			    set_covers(&p->sets[e], set))
				covering[n_covering++] = e;

		for (size_t j = set->first_rule; j < set->first_rule + set->n_rules; j++) {
			const struct policy_rule *by = NULL;

			if (bytes[j].impossible || p->rules[j].invalid)
				continue;
			for (size_t k = 0; k < n_covering && !by; k++) {
				const struct policy_ruleset *e = &p->sets[covering[k]];

				by = covering_rule(p, bytes, e, e->first_rule + e->n_rules, j);
			}
			if (!by)
				by = covering_rule(p, bytes, set, j, j);
			if (by) {
				report_shadowed(p, by, &p->rules[j], diag);
				continue;
			}
			by = overlapping_rule(p, bytes, set, j);
			for (size_t k = 0; k < n_covering && !by; k++)
				by = overlapping_rule(p, bytes, &p->sets[covering[k]], j);
			if (by)
				report_overlap(p, by, &p->rules[j], diag);
		}
	}
	check_order_across_files(p, bytes, diag);
}

static const struct policy *sort_policy;

static int cmp_rule_names(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_policy->rules[i].name, sort_policy->rules[j].name);

	return c ? c : (i > j) - (i < j);
}

static int check_names(const struct policy *p, struct diag *diag)
{
	_cleanup_free_ size_t *idx = calloc(p->n_rules + 1, sizeof(size_t));
	size_t n = 0;
	int r = 0;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_rules; i++)
		if (p->rules[i].name)
			idx[n++] = i;
	sort_policy = p;
	policy_sort(idx, n, sizeof(*idx), cmp_rule_names);
	for (size_t k = 1, first = 0; k < n; k++) {
		const struct policy_rule *a = &p->rules[idx[first]], *b = &p->rules[idx[k]];

		if (strcmp(a->name, b->name)) {
			first = k;
			continue;
		}
		diag_add_at(diag, DIAG_ERROR, file_of(p, b), b->at.line, b->at.column, b->path,
			    "duplicate rule name \"%s\" (first defined at %s:%d:%d: %s)",
			    b->name, file_of(p, a), a->at.line, a->at.column, a->path);
		r = -EINVAL;
	}
	return r;
}

static int check_limits(const struct policy *p, struct diag *diag)
{
	int r = 0;

	for (size_t s = 0; s < p->n_sets; s++) {
		size_t n = policy_set_copies(p, &p->sets[s]);

		if (n <= HID_RULES_MAX_RULES)
			continue;
		if (n == p->sets[s].n_rules)
			diag_add_at(diag, DIAG_ERROR, p->files[p->sets[s].file].path,
				    p->sets[s].at.line, p->sets[s].at.column, p->sets[s].path,
				    "%zu rules, more than the %d a device can hold",
				    n, HID_RULES_MAX_RULES);
		else
			diag_add_at(diag, DIAG_ERROR, p->files[p->sets[s].file].path,
				    p->sets[s].at.line, p->sets[s].at.column, p->sets[s].path,
				    "%zu rules can take %zu on a device (a rule naming HID++ features takes one per feature on each of the %d device indexes, and %d more), more than the %d a device can hold",
				    p->sets[s].n_rules, n, HIDPP_DEVICE_SLOTS,
				    (int)(POLICY_HIDPP_RULE_COPIES(0)), HID_RULES_MAX_RULES);
		r = -EINVAL;
	}
	return r;
}

/* What keyboards and mice declare: page 0x01's pointer, mouse, keyboard, keypad. */
static const uint32_t keyboard_usages[] = { 0x00010001, 0x00010002, 0x00010006, 0x00010007 };

/* Does GLOB leave some string out ("*" and "**" leave none)? */
static bool glob_narrows(const char *glob)
{
	return glob && glob[strspn(glob, "*")];
}

static bool usages_take_in_keyboards(const struct policy_match *m)
{
	if (!m->n_usages)
		return true;
	for (size_t i = 0; i < m->n_usages; i++)
		for (size_t j = 0; j < ELEMENTSOF(keyboard_usages); j++)
			if ((keyboard_usages[j] & m->usages[i].mask) == m->usages[i].value)
				return true;
	return false;
}

/*
 * Does M take in every keyboard or every mouse? Yes, unless something
 * leaves them out: a vendor or a product, a name, serial or place glob, a
 * descriptor hash, usages none of which keyboards and mice declare, or
 * buses none of them come on. An interface number does not: a keyboard can
 * be any interface of its device.
 */
static bool match_takes_in_keyboards(const struct policy_match *m)
{
	const uint32_t buses = 1u << BUS_USB | 1u << BUS_BLUETOOTH | 1u << BUS_I2C | 1u << BUS_SPI;

	return (m->buses & buses) && m->vendors.any && m->products.any &&
	       !glob_narrows(m->name) && !glob_narrows(m->uniq) && !glob_narrows(m->phys) &&
	       !m->n_hashes && usages_take_in_keyboards(m);
}

/* The first match of S that takes in every keyboard or mouse, or NULL. */
static const struct policy_match *keyboards_match(const struct policy_ruleset *s)
{
	for (size_t i = 0; i < s->n_matches; i++)
		if (match_takes_in_keyboards(&s->matches[i]))
			return &s->matches[i];
	return NULL;
}

/* Does R deny input events, some of them at least? */
static bool denies_input(const struct policy_rule *r)
{
	return !r->invalid && r->action == HID_RULE_DENY && (r->kinds & HID_RULE_KIND_INPUT_EVENT) &&
	       !contradicts_itself(r);
}

/* Does R allow every input event, whatever its report ID and bytes? */
static bool allows_all_input(const struct policy_rule *r)
{
	if (r->invalid || r->action != HID_RULE_ALLOW || !(r->kinds & HID_RULE_KIND_INPUT_EVENT) ||
	    r->n_conds)
		return false;
	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS; w++)
		if (r->report_ids[w] != UINT32_MAX)
			return false;
	return true;
}

static void lockout_error(struct diag *diag, const struct policy *p,
			  const struct policy_ruleset *set, struct json_pos at, const char *path,
			  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void lockout_error(struct diag *diag, const struct policy *p,
			  const struct policy_ruleset *set, struct json_pos at, const char *path,
			  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd_at(diag, DIAG_ERROR, p->files[set->file].path, at.line, at.column, path, fmt, ap);
	va_end(ap);
}

/*
 * Input events are what keyboards and mice are for: a rule set that can
 * refuse them locks the machine unless its author meant it. It may, only
 * by naming "input_event" in a rule's request list, and never for every
 * keyboard or mouse. These are errors:
 *  - a deny rule covering input events through "request": "any" alone;
 *  - "default": "deny" in a rule set none of whose rules names input_event
 *    (an input event no rule matches would meet the default);
 *  - on a rule set whose match takes in every keyboard or mouse, a deny rule
 *    for input events that no earlier rule of the set keeps from them, and
 *    "default": "deny" unless a rule allows every input event.
 * Audit-mode sets count too: they are the rollout of an enforcing set, and
 * would log every input event. A rule that can never match (its payload
 * conditions contradict each other, a warning of its own) refuses nothing.
 */
static int check_set_lockout(const struct policy *p, const struct policy_ruleset *set,
			     struct diag *diag)
{
	const struct policy_match *all = keyboards_match(set);
	bool named = false, input_allowed = false;
	char where[POLICY_PATH_MAX];
	int r = 0;

	for (size_t i = set->first_rule; i < set->first_rule + set->n_rules; i++) {
		const struct policy_rule *rule = &p->rules[i];

		named = named || rule->names_input_event;
		if (!denies_input(rule) || (rule->names_input_event && (!all || input_allowed))) {
			input_allowed = input_allowed || allows_all_input(rule);
			continue;
		}
		if (!rule->names_input_event)
			lockout_error(diag, p, set, rule->at, rule->path,
				      "rule \"%s\" denies input events (\"request\": \"any\"), which would lock out keyboards and mice: list the requests it refuses (get_report, set_report, output_report), or name \"input_event\" to refuse input on purpose",
				      rule->name);
		else
			lockout_error(diag, p, set, rule->at, rule->path,
				      "rule \"%s\" denies input events of every keyboard and mouse %s takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: match only the devices whose input it refuses (by vendor and product, uniq or descriptor_sha256)",
				      rule->name, all->path);
		r = -EINVAL;
	}
	if (!set->has_default || set->default_action != HID_RULE_DENY || (named && (!all || input_allowed)))
		return r;
	snprintf(where, sizeof(where), "%s.default", set->path);
	if (!named)
		lockout_error(diag, p, set, set->default_at, where,
			      "\"default\": \"deny\" refuses input events too, which would lock out keyboards and mice: add a rule for \"input_event\" (e.g. {\"name\": \"...-input\", \"request\": \"input_event\", \"report_id\": \"any\", \"action\": \"allow\"})");
	else
		lockout_error(diag, p, set, set->default_at, where,
			      "\"default\": \"deny\" refuses the input events no rule allows, of every keyboard and mouse %s takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: allow every input event (e.g. {\"name\": \"...-input\", \"request\": \"input_event\", \"report_id\": \"any\", \"action\": \"allow\"}), or match only the devices to lock down",
			      all->path);
	return -EINVAL;
}

static int check_lockout(const struct policy *p, struct diag *diag)
{
	int r = 0;

	for (size_t s = 0; s < p->n_sets; s++)
		if (check_set_lockout(p, &p->sets[s], diag) < 0)
			r = -EINVAL;
	return r;
}

int policy_validate(struct policy *p, struct diag *diag)
{
	int r = 0;

	if (check_lockout(p, diag) < 0)
		r = -EINVAL;

	if (check_names(p, diag) < 0)
		r = -EINVAL;
	if (check_limits(p, diag) < 0)
		r = -EINVAL;
	else if (r == 0 && policy_check_capacity(p, diag) < 0)
		r = -EINVAL;
	check_reachability(p, diag);
	return r;
}
