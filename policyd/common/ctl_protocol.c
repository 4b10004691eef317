// SPDX-License-Identifier: GPL-2.0-or-later
/* The control protocol's shared parts: commands, durations, times, replies. */
#include "ctl_protocol.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct ctl_command commands[] = {
	{ "status", HID_POLICY_ACTION_STATUS, false },
	{ "devices", HID_POLICY_ACTION_STATUS, false },
	{ "rules", HID_POLICY_ACTION_STATUS, false },
	{ "explain", HID_POLICY_ACTION_STATUS, false },
	{ "generate", HID_POLICY_ACTION_STATUS, false },
	{ "log", HID_POLICY_ACTION_LOG, true },
	{ "reload", HID_POLICY_ACTION_RELOAD, false },
	{ "allow", HID_POLICY_ACTION_ALLOW, false },
	{ "revoke", HID_POLICY_ACTION_ALLOW, false },
};

const struct ctl_command *ctl_command_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

const char *ctl_command_list(void)
{
	return "status, devices, rules, explain, generate, log, reload, allow, revoke";
}

static int parse_duration(const char *s, uint64_t max, bool days, uint64_t *ret_s)
{
	uint64_t total = 0;
	const char *p = s;

	if (!*p)
		return -EINVAL;
	while (*p) {
		uint64_t n = 0, unit;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++) {
			n = n * 10 + (uint64_t)(*p - '0');
			if (n > max)
				return -ERANGE;
		}
		switch (*p) {
		case '\0':
			/* plain seconds, only as the whole argument */
			if (total)
				return -EINVAL;
			unit = 1;
			break;
		case 's':
			unit = 1;
			p++;
			break;
		case 'm':
			unit = 60;
			p++;
			break;
		case 'h':
			unit = 3600;
			p++;
			break;
		case 'd':
		case 'w':
			if (!days)
				return -EINVAL;
			unit = *p == 'd' ? 24 * 3600 : 7 * 24 * 3600;
			p++;
			break;
		default:
			return -EINVAL;
		}
		total += n * unit;	/* n, total <= max: no overflow */
		if (total > max)
			return -ERANGE;
	}
	if (total == 0)
		return -ERANGE;
	*ret_s = total;
	return 0;
}

int ctl_parse_duration(const char *s, uint64_t *ret_s)
{
	return parse_duration(s, CTL_ALLOW_MAX_S, false, ret_s);
}

/* How far back --since may reach with "-DURATION": ten years. */
#define SINCE_MAX_S (10ULL * 366 * 24 * 3600)

void ctl_format_time(char *buf, size_t size, uint64_t realtime_ns)
{
	time_t secs = (time_t)(realtime_ns / 1000000000ULL);
	struct tm tm;
	char base[32];

	gmtime_r(&secs, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%s.%03uZ", base, (unsigned int)(realtime_ns / 1000000ULL % 1000));
}

/* All of S parsed as strptime FORMAT into TM? */
static bool parse_whole(const char *s, const char *format, struct tm *tm)
{
	const char *end;

	memset(tm, 0, sizeof(*tm));
	end = strptime(s, format, tm);
	return end && *end == '\0';
}

int ctl_parse_since(const char *s, time_t now, char *buf, size_t size)
{
	static const char *const formats[] = {
		"%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M",
		"%Y-%m-%d %H:%M", "%Y-%m-%d",
	};
	_cleanup_free_ char *copy = NULL;
	time_t t = (time_t)-1;
	struct tm tm;
	bool utc = false;
	uint64_t ago;

	if (s[0] == '-' || (isdigit((unsigned char)s[0]) && parse_duration(s, SINCE_MAX_S, true, &ago) == 0)) {
		/* "-7d" or "7d": that long ago */
		if (parse_duration(s + (s[0] == '-'), SINCE_MAX_S, true, &ago) < 0 || (time_t)ago > now)
			return -EINVAL;
		t = now - (time_t)ago;
	} else if (s[0] == '@') {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(s + 1, &end, 10);
		if (errno || end == s + 1 || *end || v < 0)
			return -EINVAL;
		t = (time_t)v;
	} else {
		size_t len = strlen(s);

		copy = strdup(s);
		if (!copy)
			return -ENOMEM;
		if (len > 0 && copy[len - 1] == 'Z') {
			copy[len - 1] = '\0';
			utc = true;
		}
		for (size_t i = 0; i < ELEMENTSOF(formats) && t == (time_t)-1; i++) {
			if (!parse_whole(copy, formats[i], &tm))
				continue;
			tm.tm_isdst = -1;
			t = utc ? timegm(&tm) : mktime(&tm);
		}
		if (t == (time_t)-1)
			return -EINVAL;
	}
	ctl_format_time(buf, size, (uint64_t)t * 1000000000ULL);
	return 0;
}

json_t *ctl_reply_ok(json_t *result)
{
	return json_pack("{s:i, s:b, s:o}", "version", CTL_PROTOCOL_VERSION, "ok", 1,
			 "result", result ? result : json_object());
}

json_t *ctl_reply_error(const char *code, const char *message, const char *action)
{
	json_t *o = json_pack("{s:i, s:b, s:s, s:s}", "version", CTL_PROTOCOL_VERSION, "ok", 0,
			      "error", code, "message", message);

	if (o && action)
		json_object_set_new(o, "action", json_string(action));
	return o;
}
