// SPDX-License-Identifier: GPL-2.0-or-later
/* Scalars of the policy language, each checked with a precise message. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "policy_internal.h"

const char *json_describe(const json_t *v, char *buf, size_t size)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		if (json_string_length(v) > 40)
			snprintf(buf, size, "\"%.37s...\"", json_string_value(v));
		else
			snprintf(buf, size, "\"%s\"", json_string_value(v));
		return buf;
	case JSON_INTEGER:
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return buf;
	case JSON_REAL:
		snprintf(buf, size, "%g", json_real_value(v));
		return buf;
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	case JSON_NULL:
		return "null";
	}
	return "?";
}

struct json_pos parse_pos(const struct parse_ctx *c, const char *path)
{
	return pos_map_find(c->pos, path, false);
}

static void perr_at(struct parse_ctx *c, enum diag_severity sev, const char *path, bool key,
		    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

static void perr_at(struct parse_ctx *c, enum diag_severity sev, const char *path, bool key,
		    const char *fmt, va_list ap)
{
	struct json_pos at = pos_map_find(c->pos, path, key);

	diag_vadd_at(c->diag, sev, c->file, at.line, at.column, path, fmt, ap);
}

void perr(struct parse_ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	perr_at(c, DIAG_ERROR, path, false, fmt, ap);
	va_end(ap);
}

void perr_key(struct parse_ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	perr_at(c, DIAG_ERROR, path, true, fmt, ap);
	va_end(ap);
}

void pwarn(struct parse_ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	perr_at(c, DIAG_WARNING, path, false, fmt, ap);
	va_end(ap);
}

void pnote(struct parse_ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	perr_at(c, DIAG_NOTE, path, false, fmt, ap);
	va_end(ap);
}

/* Edit distance of A and B (ASCII case folded), a swap of two neighbours
 * counting as one edit; anything over MAX is MAX + 1. */
static size_t edit_distance(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[POLICY_NAME_MAX + 1][POLICY_NAME_MAX + 1];

	if (la > POLICY_NAME_MAX || lb > POLICY_NAME_MAX || (la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb] > max ? max + 1 : d[la][lb];
}

/* Is the shorter of A and B, 3 characters or more, how the other starts? */
static bool prefix_of_other(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;

	return n >= 3 && !strncasecmp(a, b, n);
}

/* Is S another form of the word NAME: do they share NAME's stem, all of it
 * but its last two letters and at least 4 ("enforcing" for "enforce")? */
static bool same_stem(const char *s, const char *name)
{
	size_t len = strlen(name), stem = len > 2 ? len - 2 : 0;

	return stem >= 4 && strlen(s) >= stem && !strncasecmp(s, name, stem);
}

const char *nearest_name(const char *s, const char *const *names)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;

	for (; *names; names++) {
		/* a third of the name's letters may be wrong, at least one, at most 3 */
		size_t len = strlen(*names), max = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;
		size_t d = prefix_of_other(s, *names) || same_stem(s, *names) ? 1 :
			   edit_distance(s, *names, max);

		if (d <= max && d < best_d) {
			best = *names;
			best_d = d;
		}
	}
	return best;
}

/* An error shown at PATH, placed where the key KEY_PATH starts. */
static void perr_at_key_of(struct parse_ctx *c, const char *key_path, const char *path,
			   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void perr_at_key_of(struct parse_ctx *c, const char *key_path, const char *path,
			   const char *fmt, ...)
{
	struct json_pos at = pos_map_find(c->pos, key_path, true);
	va_list ap;

	va_start(ap, fmt);
	diag_vadd_at(c->diag, DIAG_ERROR, c->file, at.line, at.column, path, fmt, ap);
	va_end(ap);
}

static bool key_allowed(const char *key, const char *const *allowed)
{
	for (; *allowed; allowed++)
		if (!strcmp(key, *allowed))
			return true;
	return false;
}

int pv_check_keys(struct parse_ctx *c, const char *path, json_t *obj,
		  const char *const *allowed)
{
	const char *key;
	json_t *v;
	int r = 0;

	json_object_foreach(obj, key, v) {
		char sub[POLICY_PATH_MAX];
		const char *near;

		if (key_allowed(key, allowed))
			continue;
		/* the message names the object; the position is the key's */
		path_key(sub, sizeof(sub), path, key);
		near = nearest_name(key, allowed);
		if (near)
			perr_at_key_of(c, sub, path, "unknown key \"%.64s\"; did you mean \"%s\"?", key, near);
		else
			perr_at_key_of(c, sub, path, "unknown key \"%.64s\"", key);
		r = -EINVAL;
	}
	return r;
}

int pv_expect_object(struct parse_ctx *c, const char *path, json_t *v)
{
	char d[64];

	if (json_is_object(v))
		return 0;
	perr(c, path, "expected an object, got %s", json_describe(v, d, sizeof(d)));
	return -EINVAL;
}

/*
 * A number in a string is hex and says so: "0x" and 1..8 hex digits. Every
 * string form is hex and every JSON integer decimal, so "10" never means
 * ten in one place and sixteen in another.
 */
static int parse_hex_string(const char *s, unsigned long *ret)
{
	unsigned long n = 0;
	size_t digits;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	s += 2;
	digits = strspn(s, "0123456789abcdefABCDEF");
	if (digits == 0 || s[digits] || digits > 8)
		return -EINVAL;
	for (size_t i = 0; i < digits; i++)
		n = n << 4 | (unsigned long)(isdigit((unsigned char)s[i]) ? s[i] - '0' :
					     tolower((unsigned char)s[i]) - 'a' + 10);
	*ret = n;
	return 0;
}

/* Why the string S is no number, with the spellings that were likely meant. */
static void number_string_error(struct parse_ctx *c, const char *path, const char *s,
				const char *what)
{
	size_t len = strlen(s);

	/* all decimal digits: the integer they spell (leading zeros dropped, "0"
	 * kept), or the same digits as hex */
	if (len && len <= 8 && strspn(s, "0123456789") == len)
		perr(c, path, "\"%s\" is not %s: a number in a string is hex and starts with \"0x\"; write %s (a JSON integer, decimal) or \"0x%s\" (hex)",
		     s, what, s + strspn(s, "0") - (strspn(s, "0") == len), s);
	else if (len && len <= 8 && strspn(s, "0123456789abcdefABCDEF") == len)
		perr(c, path, "\"%s\" is not %s: a number in a string is hex and starts with \"0x\"; write \"0x%s\"",
		     s, what, s);
	else
		perr(c, path, "\"%.40s%s\" is not %s", s, len > 40 ? "..." : "", what);
}

/*
 * Version 1 files, as earlier releases read them, also wrote numbers in
 * strings without "0x": IDs in hex as lsusb prints them ("054c"), every
 * other number in decimal ("16"). Such files keep loading with the meaning
 * they had, and a warning says how to write the number now. Keys newer than
 * that spelling never had it.
 */
enum old_spelling {
	OLD_NONE,	/* a key newer than the old spelling */
	OLD_HEX,	/* vendor and product IDs */
	OLD_DECIMAL,	/* report IDs and payload offsets */
};

/* S, 1..8 digits without "0x", in the old spelling OLD of C's document. */
static int parse_old_string(const struct parse_ctx *c, const char *s, enum old_spelling old,
			    unsigned long *ret)
{
	const char *digits = old == OLD_HEX ? "0123456789abcdefABCDEF" : "0123456789";
	unsigned long n = 0, base = old == OLD_HEX ? 16 : 10;
	size_t len = strlen(s);

	if (old == OLD_NONE || c->version != 1 || len == 0 || len > 8 || strspn(s, digits) != len)
		return -EINVAL;
	for (; *s; s++)
		n = n * base + (unsigned long)(isdigit((unsigned char)*s) ? *s - '0' :
					       tolower((unsigned char)*s) - 'a' + 10);
	*ret = n;
	return 0;
}

static void old_spelling_warning(struct parse_ctx *c, const char *path, const char *s,
				 enum old_spelling old, unsigned long n)
{
	if (old == OLD_HEX)
		pwarn(c, path, "\"%s\" is an ID in the old spelling, hex without \"0x\", read as 0x%04lx as before; write \"0x%04lx\" (a number in a string is hex and starts with \"0x\")",
		      s, n, n);
	else
		pwarn(c, path, "\"%s\" is a number in the old spelling, a decimal string, read as %lu as before; write %lu (a JSON integer) or \"0x%02lx\" (a number in a string is hex and starts with \"0x\")",
		      s, n, n, n);
}

static int number_in_range(struct parse_ctx *c, const char *path, json_t *v, unsigned long max,
			   enum old_spelling old, const char *what, unsigned long *ret)
{
	bool old_form = false;
	unsigned long n;
	const char *s;
	char d[64];

	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		if (i < 0 || (unsigned long long)i > max) {
			perr(c, path, "%" JSON_INTEGER_FORMAT " is out of range 0..%lu", i, max);
			return -ERANGE;
		}
		*ret = (unsigned long)i;
		return 0;
	}
	if (!json_is_string(v)) {
		perr(c, path, "expected %s, got %s", what, json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	s = json_string_value(v);
	if (parse_hex_string(s, &n) < 0) {
		if (parse_old_string(c, s, old, &n) < 0) {
			number_string_error(c, path, s, what);
			return -EINVAL;
		}
		old_form = true;
	}
	if (n > max) {
		perr(c, path, "%.40s is out of range 0..%lu", s, max);
		return -ERANGE;
	}
	if (old_form)
		old_spelling_warning(c, path, s, old, n);
	*ret = n;
	return 0;
}

int pv_uint(struct parse_ctx *c, const char *path, json_t *v, unsigned long max,
	    unsigned long *ret)
{
	return number_in_range(c, path, v, max, OLD_NONE,
			       "a number (a JSON integer, or hex such as \"0x1f\")", ret);
}

int pv_uint_v1(struct parse_ctx *c, const char *path, json_t *v, unsigned long max,
	       unsigned long *ret)
{
	return number_in_range(c, path, v, max, OLD_DECIMAL,
			       "a number (a JSON integer, or hex such as \"0x1f\")", ret);
}

int pv_id16(struct parse_ctx *c, const char *path, json_t *v, uint16_t *ret)
{
	unsigned long n;
	int r;

	r = number_in_range(c, path, v, 0xffff, OLD_HEX,
			    "an ID (hex such as \"0x054c\", or a JSON integer)", &n);
	if (r < 0)
		return r;
	*ret = (uint16_t)n;
	return 0;
}

static bool is_any(json_t *v)
{
	return json_is_string(v) && !strcmp(json_string_value(v), "any");
}

int pv_id_set(struct parse_ctx *c, const char *path, json_t *v,
	      struct policy_id_set *ret)
{
	char sub[POLICY_PATH_MAX];
	size_t i;
	json_t *e;
	int r = 0;

	*ret = (struct policy_id_set){};
	if (is_any(v)) {
		ret->any = true;
		return 0;
	}
	if (!json_is_array(v)) {
		ret->ids = calloc(1, sizeof(uint16_t));
		if (!ret->ids)
			return -ENOMEM;
		r = pv_id16(c, path, v, &ret->ids[0]);
		if (r < 0)
			return r;
		ret->n = 1;
		return 0;
	}
	if (json_array_size(v) == 0) {
		perr(c, path, "empty list: it would match nothing (write \"any\" to match all)");
		return -EINVAL;
	}
	if (json_array_size(v) > POLICY_ID_LIST_MAX) {
		perr(c, path, "%zu IDs, more than %d", json_array_size(v), POLICY_ID_LIST_MAX);
		return -EINVAL;
	}
	ret->ids = calloc(json_array_size(v), sizeof(uint16_t));
	if (!ret->ids)
		return -ENOMEM;
	json_array_foreach(v, i, e) {
		uint16_t id;

		if (pv_id16(c, path_index(sub, sizeof(sub), path, i), e, &id) < 0)
			r = -EINVAL;
		else
			ret->ids[ret->n++] = id;
	}
	return r;
}

int pv_string(struct parse_ctx *c, const char *path, json_t *v, size_t max, char **ret)
{
	char d[64];

	if (!json_is_string(v)) {
		perr(c, path, "expected a string, got %s", json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	if (json_string_length(v) > max) {
		perr(c, path, "string of %zu bytes is longer than %zu", json_string_length(v), max);
		return -EINVAL;
	}
	*ret = strdup(json_string_value(v));
	return *ret ? 0 : -ENOMEM;
}

int pv_name(struct parse_ctx *c, const char *path, json_t *v, char **ret)
{
	const char *s;
	char d[64];

	if (!json_is_string(v)) {
		perr(c, path, "expected a name, got %s", json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	s = json_string_value(v);
	if (json_string_length(v) == 0 || json_string_length(v) > POLICY_NAME_MAX ||
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") !=
		    json_string_length(v)) {
		perr(c, path, "%s is not a valid name (1..%d characters of A-Z a-z 0-9 . _ -)",
		     json_describe(v, d, sizeof(d)), POLICY_NAME_MAX);
		return -EINVAL;
	}
	*ret = strdup(s);
	return *ret ? 0 : -ENOMEM;
}

static int enum_index(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static void enum_list(const char *const *names, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; names[i] && len < size; i++)
		len += snprintf(buf + len, size - len, "%s\"%s\"",
				i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
}

int pv_enum(struct parse_ctx *c, const char *path, json_t *v,
	    const char *const *names, int *ret)
{
	char d[64], list[256];
	int i;

	i = json_is_string(v) ? enum_index(json_string_value(v), names) : -1;
	if (i < 0) {
		const char *near = json_is_string(v) ? nearest_name(json_string_value(v), names) : NULL;

		enum_list(names, list, sizeof(list));
		if (near)
			perr(c, path, "expected %s, got %s; did you mean \"%s\"?", list,
			     json_describe(v, d, sizeof(d)), near);
		else
			perr(c, path, "expected %s, got %s", list, json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	*ret = i;
	return 0;
}

int pv_enum_set(struct parse_ctx *c, const char *path, json_t *v,
		const char *const *names, uint32_t *ret)
{
	char sub[POLICY_PATH_MAX];
	uint32_t set = 0;
	size_t i;
	json_t *e;
	int r = 0, k;

	if (!json_is_array(v)) {
		r = pv_enum(c, path, v, names, &k);
		if (r < 0)
			return r;
		*ret = 1u << k;
		return 0;
	}
	if (json_array_size(v) == 0) {
		perr(c, path, "empty list: it would match nothing");
		return -EINVAL;
	}
	json_array_foreach(v, i, e) {
		if (pv_enum(c, path_index(sub, sizeof(sub), path, i), e, names, &k) < 0)
			r = -EINVAL;
		else
			set |= 1u << k;
	}
	*ret = set;
	return r;
}

static const struct {
	const char *name;
	int err;
} errno_names[] = {
	{ "EPERM", EPERM },	{ "EACCES", EACCES },	{ "EIO", EIO },
	{ "ENODEV", ENODEV },	{ "ENXIO", ENXIO },	{ "EBUSY", EBUSY },
	{ "EINVAL", EINVAL },	{ "EAGAIN", EAGAIN },	{ "ENOSYS", ENOSYS },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "EPROTO", EPROTO }, { "ETIMEDOUT", ETIMEDOUT },
};

const char *policy_errno_name(int err)
{
	for (size_t i = 0; i < ELEMENTSOF(errno_names); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	return NULL;
}

int policy_errno_from_name(const char *s)
{
	for (size_t i = 0; i < ELEMENTSOF(errno_names); i++)
		if (!strcmp(errno_names[i].name, s))
			return errno_names[i].err;
	return -EINVAL;
}

int pv_errno(struct parse_ctx *c, const char *path, json_t *v, uint16_t *ret)
{
	unsigned long n;
	char d[64];
	int e;

	if (json_is_string(v)) {
		e = policy_errno_from_name(json_string_value(v));
		if (e < 0) {
			const char *names[ELEMENTSOF(errno_names) + 1], *near;
			size_t k = 0;

			/* ENOSYS is known, and refused (pv_errno below) */
			for (size_t i = 0; i < ELEMENTSOF(errno_names); i++)
				if (errno_names[i].err != ENOSYS)
					names[k++] = errno_names[i].name;
			names[k] = NULL;
			near = nearest_name(json_string_value(v), names);
			perr(c, path, "%s is not a known errno name (EPERM, EACCES, EIO, ENODEV, ENXIO, EBUSY, EINVAL, EAGAIN, EOPNOTSUPP, EPROTO, ETIMEDOUT)%s%s%s",
			     json_describe(v, d, sizeof(d)), near ? "; did you mean \"" : "",
			     near ?: "", near ? "\"?" : "");
			return -EINVAL;
		}
		n = (unsigned long)e;
	} else {
		if (!json_is_integer(v)) {
			perr(c, path, "expected an errno name or number, got %s",
			     json_describe(v, d, sizeof(d)));
			return -EINVAL;
		}
		if (number_in_range(c, path, v, 4095, OLD_NONE, "an errno", &n) < 0)
			return -ERANGE;
		if (n == 0) {
			perr(c, path, "errno 0 would not refuse anything: use 1..4095");
			return -ERANGE;
		}
	}
	/* hidraw takes ENOSYS from an output report as "this transport has
	 * none" and sends the same bytes again as a SET_REPORT, which this
	 * rule may not cover. */
	if (n == ENOSYS) {
		perr(c, path, "ENOSYS would not refuse an output report: the kernel sends it again as a SET_REPORT; use EPERM, EIO or another errno");
		return -EINVAL;
	}
	*ret = (uint16_t)n;
	return 0;
}

static void ids_set_range(uint32_t ids[HID_RULES_REPORT_ID_WORDS], unsigned lo, unsigned hi)
{
	for (unsigned id = lo; id <= hi; id++)
		ids[id >> 5] |= 1u << (id & 31);
}

/* One end of a report ID range: hex with "0x", or decimal in the old
 * spelling (then *OLD is set). */
static int range_end(const struct parse_ctx *c, const char *s, unsigned long *ret, bool *old)
{
	if (parse_hex_string(s, ret) == 0)
		return 0;
	if (parse_old_string(c, s, OLD_DECIMAL, ret) < 0)
		return -EINVAL;
	*old = true;
	return 0;
}

/* One list element or the whole value: an ID or a "lo-hi" range. */
static int report_id_item(struct parse_ctx *c, const char *path, json_t *v,
			  uint32_t ids[HID_RULES_REPORT_ID_WORDS])
{
	unsigned long lo, hi;
	const char *s, *dash;
	bool old = false;
	char d[64];

	if (json_is_string(v) && (dash = strchr((s = json_string_value(v)), '-')) &&
	    dash != s) {
		_cleanup_free_ char *first = strndup(s, dash - s);

		if (!first)
			return -ENOMEM;
		if (range_end(c, first, &lo, &old) < 0 || range_end(c, dash + 1, &hi, &old) < 0) {
			perr(c, path, "%s is not a report ID range such as \"0x10-0x1f\" (both ends hex, with \"0x\")",
			     json_describe(v, d, sizeof(d)));
			return -EINVAL;
		}
		if (lo > 255 || hi > 255) {
			perr(c, path, "%.40s is out of range 0..255", s);
			return -ERANGE;
		}
		if (lo > hi) {
			perr(c, path, "%.40s is an empty range (%lu > %lu)", s, lo, hi);
			return -EINVAL;
		}
		if (old)
			pwarn(c, path, "\"%s\" is a range in the old spelling, decimal without \"0x\", read as 0x%02lx-0x%02lx as before; write \"0x%02lx-0x%02lx\" (a number in a string is hex and starts with \"0x\")",
			      s, lo, hi, lo, hi);
		ids_set_range(ids, lo, hi);
		return 0;
	}
	if (number_in_range(c, path, v, 255, OLD_DECIMAL,
			    "a report ID (0..255, \"0x..\", \"0xlo-0xhi\" or \"any\")", &lo) < 0)
		return -EINVAL;
	ids_set_range(ids, lo, lo);
	return 0;
}

int pv_report_ids(struct parse_ctx *c, const char *path, json_t *v,
		  uint32_t ids[HID_RULES_REPORT_ID_WORDS])
{
	char sub[POLICY_PATH_MAX];
	size_t i;
	json_t *e;
	int r = 0;

	memset(ids, 0, sizeof(uint32_t) * HID_RULES_REPORT_ID_WORDS);
	if (is_any(v)) {
		ids_set_range(ids, 0, 255);
		return 0;
	}
	if (!json_is_array(v))
		return report_id_item(c, path, v, ids);
	if (json_array_size(v) == 0) {
		perr(c, path, "empty list: it would match nothing (write \"any\" to match all)");
		return -EINVAL;
	}
	json_array_foreach(v, i, e)
		if (report_id_item(c, path_index(sub, sizeof(sub), path, i), e, ids) < 0)
			r = -EINVAL;
	return r;
}

int policy_hex_bytes(const char *s, uint8_t *buf, size_t size)
{
	size_t n = 0;

	for (;;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		/* "0x90" is one byte: the prefix must be followed by one pair alone */
		bool prefixed = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

		if (prefixed)
			s += 2;
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) ||
		    (prefixed && s[2] && s[2] != ' '))
			return -EINVAL;
		if (n == size)
			return -E2BIG;
		char pair[3] = { s[0], s[1], 0 };
		buf[n++] = (uint8_t)strtoul(pair, NULL, 16);
		s += 2;
	}
	return n ? (int)n : -EINVAL;
}

int pv_bytes(struct parse_ctx *c, const char *path, json_t *v, uint8_t *buf,
	     size_t size, size_t *n)
{
	unsigned long b;
	char d[64];
	int r;

	if (json_is_integer(v)) {
		if (number_in_range(c, path, v, 255, OLD_NONE, "a byte", &b) < 0)
			return -ERANGE;
		buf[0] = (uint8_t)b;
		*n = 1;
		return 0;
	}
	if (!json_is_string(v)) {
		perr(c, path, "expected a byte (0..255) or hex bytes such as \"ff 80\", got %s",
		     json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	r = policy_hex_bytes(json_string_value(v), buf, size);
	if (r == -E2BIG) {
		perr(c, path, "more than %zu bytes", size);
		return r;
	}
	if (r < 0) {
		perr(c, path, "%s is not hex bytes such as \"ff 80 f0\"",
		     json_describe(v, d, sizeof(d)));
		return r;
	}
	*n = (size_t)r;
	return 0;
}

int pv_hidpp_features(struct parse_ctx *c, const char *path, json_t *v,
		      uint16_t features[HIDPP_RULE_FEATURES_MAX], uint8_t *n)
{
	char sub[POLICY_PATH_MAX];
	size_t i, count = json_is_array(v) ? json_array_size(v) : 1;
	json_t *e;
	int r = 0;

	*n = 0;
	if (json_is_array(v) && count == 0) {
		perr(c, path, "empty list: name a HID++ 2.0 feature ID such as \"0x00D0\", or a list of up to %d",
		     HIDPP_RULE_FEATURES_MAX);
		return -EINVAL;
	}
	if (count > HIDPP_RULE_FEATURES_MAX) {
		perr(c, path, "%zu features, more than the %d a rule names: split the rule", count,
		     HIDPP_RULE_FEATURES_MAX);
		return -EINVAL;
	}
	for (i = 0; i < count; i++) {
		const char *at = json_is_array(v) ? path_index(sub, sizeof(sub), path, i) : path;
		unsigned long id;
		bool twice = false;

		e = json_is_array(v) ? json_array_get(v, i) : v;
		if (pv_uint(c, at, e, 0xffff, &id) < 0) {
			r = -EINVAL;
			continue;
		}
		/* IRoot answers getFeature: its index is 0 in every device,
		 * and the index is never asked of it */
		if (id == 0) {
			perr(c, at, "0x0000 is IRoot, at feature index 0 in every device: name it with a payload condition on byte 2 (\"offset\": 2, \"value\": 0)");
			r = -EINVAL;
			continue;
		}
		for (uint8_t k = 0; k < *n; k++)
			twice |= features[k] == id;
		if (twice) {
			perr(c, at, "feature 0x%04lX is named twice", id);
			r = -EINVAL;
			continue;
		}
		features[(*n)++] = (uint16_t)id;
	}
	return r;
}
