// SPDX-License-Identifier: GPL-2.0-or-later
/* Scalars of the policy language, each checked with a precise message. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "policy_internal.h"

const char *path_key(char *buf, size_t size, const char *parent, const char *key)
{
	if (parent && *parent)
		snprintf(buf, size, "%s.%s", parent, key);
	else
		snprintf(buf, size, "%s", key);
	return buf;
}

const char *path_index(char *buf, size_t size, const char *parent, size_t i)
{
	snprintf(buf, size, "%s[%zu]", parent ?: "", i);
	return buf;
}

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
		if (key_allowed(key, allowed))
			continue;
		perr(c, path, "unknown key \"%.64s\"", key);
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

/* Parse S fully as an unsigned number; HEX forces base 16 (0x optional). */
static int parse_number(const char *s, bool hex, unsigned long *ret)
{
	unsigned long n;
	char *end;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (hex) {
		base = 16;
	}
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, base);
	if (*end || errno)
		return -EINVAL;
	*ret = n;
	return 0;
}

static int number_in_range(struct parse_ctx *c, const char *path, json_t *v,
			   bool hex, unsigned long max, const char *what,
			   unsigned long *ret)
{
	unsigned long n;
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
	if (parse_number(json_string_value(v), hex, &n) < 0) {
		perr(c, path, "%s is not %s", json_describe(v, d, sizeof(d)), what);
		return -EINVAL;
	}
	if (n > max) {
		perr(c, path, "%.40s is out of range 0..%lu", json_string_value(v), max);
		return -ERANGE;
	}
	*ret = n;
	return 0;
}

int pv_uint(struct parse_ctx *c, const char *path, json_t *v, unsigned long max,
	    unsigned long *ret)
{
	return number_in_range(c, path, v, false, max,
			       "a number (integer, \"0x..\" or decimal string)", ret);
}

int pv_id16(struct parse_ctx *c, const char *path, json_t *v, uint16_t *ret)
{
	unsigned long n;
	int r;

	r = number_in_range(c, path, v, true, 0xffff,
			    "an ID (integer or hex string such as \"054c\")", &n);
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
		enum_list(names, list, sizeof(list));
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
			perr(c, path, "%s is not a known errno name (EPERM, EACCES, EIO, ENODEV, ENXIO, EBUSY, EINVAL, EAGAIN, EOPNOTSUPP, EPROTO, ETIMEDOUT)",
			     json_describe(v, d, sizeof(d)));
			return -EINVAL;
		}
		n = (unsigned long)e;
	} else {
		if (!json_is_integer(v)) {
			perr(c, path, "expected an errno name or number, got %s",
			     json_describe(v, d, sizeof(d)));
			return -EINVAL;
		}
		if (number_in_range(c, path, v, false, 4095, "", &n) < 0)
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

/* One list element or the whole value: an ID or a "lo-hi" range. */
static int report_id_item(struct parse_ctx *c, const char *path, json_t *v,
			  uint32_t ids[HID_RULES_REPORT_ID_WORDS])
{
	unsigned long lo, hi;
	const char *s, *dash;
	char d[64];

	if (json_is_string(v) && (dash = strchr((s = json_string_value(v)), '-')) &&
	    dash != s) {
		_cleanup_free_ char *first = strndup(s, dash - s);

		if (!first)
			return -ENOMEM;
		if (parse_number(first, false, &lo) < 0 || parse_number(dash + 1, false, &hi) < 0) {
			perr(c, path, "%s is not a report ID range such as \"0x10-0x1f\"",
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
		ids_set_range(ids, lo, hi);
		return 0;
	}
	if (number_in_range(c, path, v, false, 255,
			    "a report ID (0..255, \"0x..\", \"lo-hi\" or \"any\")", &lo) < 0)
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
		if (number_in_range(c, path, v, false, 255, "", &b) < 0)
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
