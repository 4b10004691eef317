// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a request asks polkit to approve, in words (authorize.h): an allow's
 * device, duration, sender and requests, which org.hid-policy.allow's
 * message names, so that the prompt says what is being approved, not a
 * bare action; and, for polkit rules, each of them as given. A value may
 * hold what a device or a client chose (a device's name, a path), and a
 * terminal's agent prints it: it is made valid UTF-8 without controls.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "authorize.h"
#include "command_args.h"
#include "common/ctl_protocol.h"
#include "common/util.h"

/* The length of the UTF-8 sequence at P as g_utf8_validate() takes it
 * (no overlong forms, no surrogates, nothing past U+10FFFF); 0 when it
 * is none. */
static size_t utf8_len(const unsigned char *p)
{
	uint32_t c;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* the NUL too */
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

/*
 * TEXT as a prompt may show it, in place: D-Bus takes UTF-8 alone, and a
 * terminal obeys C0, DEL and C1 controls (an escape sequence in a device's
 * name could rewrite the prompt). Each byte of anything else is a '?'.
 */
static void prompt_text(char *text)
{
	unsigned char *p = (unsigned char *)text;

	while (*p) {
		size_t len = utf8_len(p);

		if (len == 0 || (len == 1 && (*p < 0x20 || *p == 0x7f)) ||
		    (len == 2 && p[0] == 0xc2 && p[1] <= 0x9f))
			*p++ = '?';	/* a C1's second byte is then no sequence either */
		else
			p += len;
	}
}

static int detail_set(struct authz_details *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Add KEY with the value FMT makes (cut to fit, then made prompt text). */
static int detail_set(struct authz_details *d, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (d->n == AUTHZ_DETAILS_MAX)
		return -E2BIG;
	snprintf(d->items[d->n].key, sizeof(d->items[d->n].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(d->items[d->n].value, sizeof(d->items[d->n].value), fmt, ap);
	va_end(ap);
	prompt_text(d->items[d->n].value);
	d->n++;
	return 0;
}

const char *authz_details_get(const struct authz_details *d, const char *key)
{
	for (size_t i = 0; i < d->n && i < AUTHZ_DETAILS_MAX; i++)
		if (!strcmp(d->items[i].key, key))
			return d->items[i].value;
	return NULL;
}

/* "1 hour 30 minutes", "90 seconds" is "1 minute 30 seconds". */
static void duration_text(uint64_t s, char *buf, size_t size)
{
	static const struct {
		uint64_t seconds;
		const char *unit;
	} units[] = { { 3600, "hour" }, { 60, "minute" }, { 1, "second" } };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ELEMENTSOF(units) && len < size; i++) {
		uint64_t n = s / units[i].seconds;

		s %= units[i].seconds;
		if (n)
			len += (size_t)snprintf(buf + len, size - len, "%s%llu %s%s", len ? " " : "",
						(unsigned long long)n, units[i].unit, n == 1 ? "" : "s");
	}
}

/* "set_report feature requests with report ID 0xf4", "requests of every
 * kind but input, with any report ID". */
static void requests_text(uint8_t kinds, int id, char *buf, size_t size)
{
	size_t len = 0;
	char ids[32];

	if (id < 0)
		snprintf(ids, sizeof(ids), "any report ID");
	else
		snprintf(ids, sizeof(ids), "report ID 0x%02x", id);
	if (kinds == (HID_RULE_KIND_ALL & ~HID_RULE_KIND_INPUT_EVENT)) {
		snprintf(buf, size, "requests of every kind but input, with %s", ids);
		return;
	}
	buf[0] = '\0';
	for (int bit = 0; bit < 8 && len < size; bit++)
		if (kinds & (1u << bit))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						policy_kind_name((uint8_t)(1u << bit)));
	if (len < size)
		snprintf(buf + len, size - len, " requests with %s", ids);
}

/* "processes of uid 1000 in group 27 or 100 running /usr/bin/x", as
 * allow's sender lets them through; "any process" for none. */
static void sender_text(const struct hid_rule_sender *s, json_t *args, pid_t pid, char *buf,
			size_t size)
{
	json_t *unit = json_object_get(args, "unit"), *exe = json_object_get(args, "executable");
	size_t len;

	if (!s->fields && !unit && !exe) {
		snprintf(buf, size, "any process");
		return;
	}
	len = (size_t)snprintf(buf, size, "processes");
	if (unit && len < size)
		len += (size_t)snprintf(buf + len, size - len, " of unit %s", json_string_value(unit));
	if ((s->fields & HID_SENDER_F_USER) && len < size)
		len += (size_t)snprintf(buf + len, size - len, " of uid %u", s->uids[0]);
	for (unsigned i = 0; i < s->n_gids && i < HID_SENDER_MAX_IDS && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %u", i ? " or" : " in group", s->gids[i]);
	if (exe && len < size)
		len += (size_t)snprintf(buf + len, size - len, " running %s", json_string_value(exe));
	/* --pid stands for its user and executable, not for itself. */
	if (pid && len < size)
		snprintf(buf + len, size - len, " (as process %d is: every such process, not that one alone)",
			 (int)pid);
}

/* allow's sender, each part as given, for polkit rules. */
static int sender_details(const struct hid_rule_sender *s, json_t *args, pid_t pid,
			  struct authz_details *d)
{
	json_t *unit = json_object_get(args, "unit"), *exe = json_object_get(args, "executable");
	char gids[64] = "";
	size_t len = 0;
	int r = 0;

	if (unit)
		r |= detail_set(d, "unit", "%s", json_string_value(unit));
	if (s->fields & HID_SENDER_F_USER)
		r |= detail_set(d, "uid", "%u", s->uids[0]);
	for (unsigned i = 0; i < s->n_gids && i < HID_SENDER_MAX_IDS && len < sizeof(gids); i++)
		len += (size_t)snprintf(gids + len, sizeof(gids) - len, "%s%u", i ? "," : "", s->gids[i]);
	if (len)
		r |= detail_set(d, "gids", "%s", gids);
	if (exe)
		r |= detail_set(d, "executable", "%s", json_string_value(exe));
	if (pid)
		r |= detail_set(d, "pid", "%d", (int)pid);
	return r;
}

/* Only the strings of ARGS that the texts above print. */
static int check_strings(json_t *args, char *err, size_t errsize)
{
	static const char *const keys[] = { "device", "unit", "executable" };

	for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
		json_t *v = json_object_get(args, keys[i]);

		if (v && !json_is_string(v))
			return command_failf(err, errsize, -EINVAL, "\"%s\" must be a string", keys[i]);
	}
	return 0;
}

static int allow_details(json_t *args, const char *device, struct authz_details *d, char *err,
			 size_t errsize)
{
	struct hid_rule_sender s = {};
	char text[AUTHZ_DETAIL_VALUE_SIZE];
	uint64_t duration;
	uint8_t kinds;
	pid_t pid = 0;
	int id, r;

	if ((r = check_strings(args, err, errsize)) < 0 ||
	    (r = command_args_duration(args, &duration, err, errsize)) < 0 ||
	    (r = command_args_kinds(args, false, &kinds, err, errsize)) < 0 ||
	    (r = command_args_report_id(args, &id, err, errsize)) < 0 ||
	    (r = command_args_allow_ids(args, &s, &pid, err, errsize)) < 0)
		return r;
	/* as the allow will: input comes from the device, not a sender */
	if (s.fields || json_object_get(args, "unit") || json_object_get(args, "executable"))
		kinds &= (uint8_t)~HID_RULE_KIND_INPUT_EVENT;

	r = detail_set(d, "command", "allow");
	r |= detail_set(d, "device", "%s", device ?: json_string_value(json_object_get(args, "device")) ?: "?");
	r |= detail_set(d, "sysfs", "%s", json_string_value(json_object_get(args, "device")) ?: "?");
	duration_text(duration, text, sizeof(text));
	r |= detail_set(d, "duration", "%s", text);
	r |= detail_set(d, "duration_s", "%llu", (unsigned long long)duration);
	sender_text(&s, args, pid, text, sizeof(text));
	r |= detail_set(d, "sender", "%s", text);
	requests_text(kinds, id, text, sizeof(text));
	r |= detail_set(d, "requests", "%s", text);
	r |= sender_details(&s, args, pid, d);
	return r ? command_failf(err, errsize, -EINVAL, "the request cannot be told in %d details", AUTHZ_DETAILS_MAX) : 0;
}

/* revoke's own message: the action's tells of an allow. */
static int revoke_details(json_t *args, const char *device, struct authz_details *d, char *err,
			  size_t errsize)
{
	json_t *id = json_object_get(args, "id");
	int r;

	if ((r = check_strings(args, err, errsize)) < 0)
		return r;
	r = detail_set(d, "command", "revoke");
	if (id && json_is_integer(id)) {
		r |= detail_set(d, "exception", "%lld", (long long)json_integer_value(id));
		r |= detail_set(d, "polkit.message", "Authentication is required to end temporary allow #$(exception), which lets requests the HID firewall's rules refuse reach a device");
	} else {
		r |= detail_set(d, "device", "%s", device ?: json_string_value(json_object_get(args, "device")) ?: "?");
		r |= detail_set(d, "sysfs", "%s", json_string_value(json_object_get(args, "device")) ?: "?");
		r |= detail_set(d, "polkit.message", "Authentication is required to end the temporary allows that let requests the HID firewall's rules refuse reach $(device)");
	}
	return r ? command_failf(err, errsize, -EINVAL, "the request cannot be told in %d details", AUTHZ_DETAILS_MAX) : 0;
}

int authz_details_for(const char *command, json_t *args, const char *device,
		      struct authz_details *d, char *err, size_t errsize)
{
	d->n = 0;
	if (!strcmp(command, "allow"))
		return allow_details(args, device, d, err, errsize);
	if (!strcmp(command, "revoke"))
		return revoke_details(args, device, d, err, errsize);
	return 0;
}
