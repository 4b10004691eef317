// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device classes: what a device is, as its report descriptor's top-level
 * application collections say (HID Usage Tables, Generic Desktop page 0x01
 * and Consumer page 0x0c), and descriptor hashes. Names, parsing, and the
 * match keys "usage", "interface" and "descriptor_sha256".
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "policy_internal.h"

#define USAGE(page, usage) ((uint32_t)(page) << 16 | (uint32_t)(usage))
#define EXACT 0xffffffffu

static const struct {
	const char *name;
	struct policy_usage u[3];
	size_t n;
} classes[] = {
	{ "pointer", { { USAGE(0x01, 0x01), EXACT } }, 1 },
	{ "mouse", { { USAGE(0x01, 0x02), EXACT } }, 1 },
	{ "joystick", { { USAGE(0x01, 0x04), EXACT } }, 1 },
	{ "game_pad", { { USAGE(0x01, 0x05), EXACT } }, 1 },
	{ "keyboard", { { USAGE(0x01, 0x06), EXACT } }, 1 },
	{ "keypad", { { USAGE(0x01, 0x07), EXACT } }, 1 },
	{ "multi_axis_controller", { { USAGE(0x01, 0x08), EXACT } }, 1 },
	{ "system_control", { { USAGE(0x01, 0x80), EXACT } }, 1 },
	{ "consumer_control", { { USAGE(0x0c, 0x01), EXACT } }, 1 },
	/* pages 0xff00..0xffff, any usage */
	{ "vendor_defined", { { 0xff000000u, 0xff000000u } }, 1 },
	/* every kind of game controller the Generic Desktop page names */
	{ "game_controller",
	  { { USAGE(0x01, 0x04), EXACT }, { USAGE(0x01, 0x05), EXACT },
	    { USAGE(0x01, 0x08), EXACT } }, 3 },
};

static const char *const class_names[] = {
	"pointer", "mouse", "joystick", "game_pad", "keyboard", "keypad",
	"multi_axis_controller", "system_control", "consumer_control",
	"vendor_defined", "game_controller", NULL,
};

const char *policy_usage_name(uint32_t usage, char *buf, size_t size)
{
	for (size_t i = 0; i < ELEMENTSOF(classes); i++)
		if (classes[i].n == 1 && classes[i].u[0].mask == EXACT &&
		    classes[i].u[0].value == usage)
			return classes[i].name;
	if ((usage >> 24) == 0xff)
		snprintf(buf, size, "vendor_defined (0x%04x:0x%04x)", usage >> 16, usage & 0xffff);
	else
		snprintf(buf, size, "0x%04x:0x%04x", usage >> 16, usage & 0xffff);
	return buf;
}

/* "0x" and 1..4 hex digits, the whole of S up to END. */
static int hex16(const char *s, const char *end, uint32_t *ret)
{
	size_t n = (size_t)(end - s);
	uint32_t v = 0;

	if (n < 3 || n > 6 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	for (s += 2; s < end; s++) {
		if (!isxdigit((unsigned char)*s))
			return -EINVAL;
		v = v << 4 | (uint32_t)(isdigit((unsigned char)*s) ? *s - '0' :
					tolower((unsigned char)*s) - 'a' + 10);
	}
	*ret = v;
	return 0;
}

int policy_usage_parse(const char *s, struct policy_usage *out, size_t max)
{
	const char *colon = strchr(s, ':');
	uint32_t page, usage;

	for (size_t i = 0; i < ELEMENTSOF(classes); i++)
		if (!strcmp(s, classes[i].name)) {
			if (classes[i].n > max)
				return -E2BIG;
			memcpy(out, classes[i].u, classes[i].n * sizeof(*out));
			return (int)classes[i].n;
		}
	if (max < 1)
		return -E2BIG;
	if (!colon) {
		if (hex16(s, s + strlen(s), &page) < 0)
			return -EINVAL;
		out[0] = (struct policy_usage){ USAGE(page, 0), 0xffff0000u };
		return 1;
	}
	if (hex16(s, colon, &page) < 0 || hex16(colon + 1, colon + 1 + strlen(colon + 1), &usage) < 0)
		return -EINVAL;
	out[0] = (struct policy_usage){ USAGE(page, usage), EXACT };
	return 1;
}

int policy_sha256_parse(const char *s, uint8_t out[POLICY_SHA256_BYTES])
{
	if (strlen(s) != 2 * POLICY_SHA256_BYTES ||
	    strspn(s, "0123456789abcdefABCDEF") != 2 * POLICY_SHA256_BYTES)
		return -EINVAL;
	for (size_t i = 0; i < POLICY_SHA256_BYTES; i++) {
		char pair[3] = { s[2 * i], s[2 * i + 1], 0 };

		out[i] = (uint8_t)strtoul(pair, NULL, 16);
	}
	return 0;
}

void policy_sha256_format(const uint8_t h[POLICY_SHA256_BYTES], char out[2 * POLICY_SHA256_BYTES + 1])
{
	for (size_t i = 0; i < POLICY_SHA256_BYTES; i++)
		snprintf(out + 2 * i, 3, "%02x", h[i]);
}

/* One item of "usage". */
static int usage_item(struct parse_ctx *c, const char *path, json_t *v,
		      struct policy_match *m)
{
	const char *near;
	char d[64];
	int n;

	if (!json_is_string(v)) {
		perr(c, path, "expected a device class such as \"game_pad\" or a usage \"0xPPPP:0xUUUU\", got %s",
		     json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	n = policy_usage_parse(json_string_value(v), m->usages + m->n_usages,
			       POLICY_USAGE_LIST_MAX - m->n_usages);
	if (n == -E2BIG) {
		perr(c, path, "more than %d usages in one match", POLICY_USAGE_LIST_MAX);
		return n;
	}
	if (n < 0) {
		near = nearest_name(json_string_value(v), class_names);
		perr(c, path, "%s is not a device class (pointer, mouse, joystick, game_pad, keyboard, keypad, multi_axis_controller, system_control, consumer_control, vendor_defined, game_controller) nor a usage \"0xPPPP:0xUUUU\" or page \"0xPPPP\"%s%s%s",
		     json_describe(v, d, sizeof(d)), near ? "; did you mean \"" : "", near ?: "",
		     near ? "\"?" : "");
		return -EINVAL;
	}
	m->n_usages += (size_t)n;
	return 0;
}

int pv_usages(struct parse_ctx *c, const char *path, json_t *v, struct policy_match *m)
{
	char sub[POLICY_PATH_MAX];
	size_t i;
	json_t *e;
	int r = 0;

	m->usages = calloc(POLICY_USAGE_LIST_MAX, sizeof(*m->usages));
	if (!m->usages)
		return -ENOMEM;
	if (!json_is_array(v))
		return usage_item(c, path, v, m) < 0 ? -EINVAL : 0;
	if (json_array_size(v) == 0) {
		perr(c, path, "empty list: it would match no device");
		return -EINVAL;
	}
	json_array_foreach(v, i, e)
		if (usage_item(c, path_index(sub, sizeof(sub), path, i), e, m) < 0)
			r = -EINVAL;
	return r;
}

int pv_interfaces(struct parse_ctx *c, const char *path, json_t *v, struct policy_match *m)
{
	char sub[POLICY_PATH_MAX];
	unsigned long n;
	size_t i;
	json_t *e;
	int r = 0;

	m->has_interfaces = true;
	if (!json_is_array(v)) {
		if (pv_uint(c, path, v, 255, &n) < 0)
			return -EINVAL;
		m->interfaces[n / 32] |= 1u << (n % 32);
		return 0;
	}
	if (json_array_size(v) == 0) {
		perr(c, path, "empty list: it would match no device");
		return -EINVAL;
	}
	json_array_foreach(v, i, e) {
		if (pv_uint(c, path_index(sub, sizeof(sub), path, i), e, 255, &n) < 0)
			r = -EINVAL;
		else
			m->interfaces[n / 32] |= 1u << (n % 32);
	}
	return r;
}

static int hash_item(struct parse_ctx *c, const char *path, json_t *v, struct policy_match *m)
{
	char d[64];

	if (!json_is_string(v) || policy_sha256_parse(json_string_value(v), m->hashes[m->n_hashes]) < 0) {
		perr(c, path, "expected the SHA-256 of a report descriptor (64 hex digits, as hid-policyctl devices shows it), got %s",
		     json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	m->n_hashes++;
	return 0;
}

int pv_hashes(struct parse_ctx *c, const char *path, json_t *v, struct policy_match *m)
{
	char sub[POLICY_PATH_MAX];
	size_t i, n = json_is_array(v) ? json_array_size(v) : 1;
	json_t *e;
	int r = 0;

	if (n == 0) {
		perr(c, path, "empty list: it would match no device");
		return -EINVAL;
	}
	if (n > POLICY_HASH_LIST_MAX) {
		perr(c, path, "%zu hashes, more than %d", n, POLICY_HASH_LIST_MAX);
		return -EINVAL;
	}
	m->hashes = calloc(n, sizeof(*m->hashes));
	if (!m->hashes)
		return -ENOMEM;
	if (!json_is_array(v))
		return hash_item(c, path, v, m);
	json_array_foreach(v, i, e)
		if (hash_item(c, path_index(sub, sizeof(sub), path, i), e, m) < 0)
			r = -EINVAL;
	return r;
}
