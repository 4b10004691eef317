// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON views of devices and temporary allows. */
#include "views.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ctl_protocol.h"
#include "common/util.h"
#include "policy/policy.h"

json_t *view_report_ids(const uint32_t ids[HID_RULES_REPORT_ID_WORDS])
{
	char buf[2048] = "";
	size_t len = 0;
	int n = 0;

	for (int i = 0; i < 256; i++)
		n += (ids[i >> 5] >> (i & 31)) & 1;
	if (n == 256)
		return json_string("any");
	for (int i = 0; i < 256; i++) {
		int j = i;

		if (!((ids[i >> 5] >> (i & 31)) & 1))
			continue;
		while (j + 1 < 256 && ((ids[(j + 1) >> 5] >> ((j + 1) & 31)) & 1))
			j++;
		if (len < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, j > i ? "%s0x%02x-0x%02x" : "%s0x%02x",
						len ? ", " : "", i, j);
		i = j;
	}
	return json_string(buf);
}

json_t *view_kinds(uint8_t kinds)
{
	json_t *a = json_array();

	for (int bit = 0; bit < 8; bit++)
		if (kinds & (1u << bit))
			json_array_append_new(a, json_string(policy_kind_name((uint8_t)(1u << bit))));
	return a;
}

/*
 * A device's name is the device's to choose (USB and Bluetooth descriptors,
 * cut to the kernel's buffer), so it need not be UTF-8, which a JSON string
 * must be: json_pack() fails on it, and the whole record (an audit record of
 * a grant included) would be lost. Text that is not UTF-8 has every byte
 * beyond ASCII replaced by '?', in place.
 */
void view_utf8_or_ascii(char *text)
{
	json_t *s = json_string(text);

	if (s) {
		json_decref(s);
		return;
	}
	for (char *p = text; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
}

/* Text that may not be UTF-8 (a device's name, a path). */
static json_t *maybe_utf8_json(const char *name)
{
	_cleanup_free_ char *copy = strdup(name);

	if (!copy)
		return NULL;
	view_utf8_or_ascii(copy);
	return json_string(copy);
}

json_t *view_device(const struct hid_dev_info *info)
{
	char vid[8], pid[8];

	snprintf(vid, sizeof(vid), "%04x", info->vendor);
	snprintf(pid, sizeof(pid), "%04x", info->product);
	return json_pack("{s:I, s:s, s:s?, s:s, s:s, s:o}", "hid_id", (json_int_t)info->hid_id,
			 "sysfs", info->sysname, "bus", policy_bus_name(info->bus),
			 "vendor", vid, "product", pid, "name", maybe_utf8_json(info->name));
}

/* A device-supplied string as JSON: NULL (no key) when empty. */
static json_t *device_text_json(const char *s)
{
	return s[0] ? maybe_utf8_json(s) : NULL;
}

int view_device_class(json_t *o, const struct hid_dev_info *info)
{
	json_t *usages = json_array();
	char hash[2 * SHA256_BYTES + 1], buf[48];
	int r = 0;

	if (!usages)
		return -ENOMEM;
	for (size_t i = 0; i < info->n_usages; i++)
		json_array_append_new(usages, json_string(policy_usage_name(info->usages[i], buf, sizeof(buf))));
	r |= json_object_set_new(o, "uniq", device_text_json(info->uniq) ?: json_null());
	r |= json_object_set_new(o, "phys", device_text_json(info->phys) ?: json_null());
	r |= json_object_set_new(o, "interface", info->has_interface ?
				 json_integer(info->interface) : json_null());
	if (info->descriptor_known) {
		policy_sha256_format(info->descriptor_sha256, hash);
		r |= json_object_set_new(o, "usages", usages);
		r |= json_object_set_new(o, "descriptor_sha256", json_string(hash));
		if (info->descriptor_malformed)
			r |= json_object_set_new(o, "descriptor_malformed", json_true());
	} else {
		json_decref(usages);
		r |= json_object_set_new(o, "usages", json_null());
		r |= json_object_set_new(o, "descriptor_sha256", json_null());
	}
	return r ? -ENOMEM : 0;
}

json_t *view_grantor(const struct exception_grantor *g)
{
	return json_pack("{s:I, s:I, s:s}", "uid", (json_int_t)g->uid, "pid", (json_int_t)g->pid,
			 "comm", g->comm);
}

/* Whose requests an allow lets through: null for anyone's. */
static json_t *view_sender(const struct exception *e)
{
	json_t *o;

	if (!e->sender.fields)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	if (e->sender.fields & HID_SENDER_F_USER)
		json_object_set_new(o, "uid", json_integer(e->sender.uids[0]));
	if (e->sender.fields & HID_SENDER_F_GROUP) {
		json_t *gids = json_array();

		for (unsigned i = 0; i < e->sender.n_gids && i < HID_SENDER_MAX_IDS; i++)
			json_array_append_new(gids, json_integer(e->sender.gids[i]));
		json_object_set_new(o, "gids", gids);
	}
	if (e->sender.fields & HID_SENDER_F_EXECUTABLE)
		json_object_set_new(o, "executable", maybe_utf8_json(e->executable));
	if (e->sender.fields & HID_SENDER_F_UNIT)
		json_object_set_new(o, "unit", maybe_utf8_json(e->unit));
	if (e->for_pid)
		json_object_set_new(o, "pid", json_integer(e->for_pid));
	return o;
}

json_t *view_exception(const struct exception *e)
{
	uint64_t now = boottime_ms();
	uint64_t left_ms = e->expires_ms > now ? e->expires_ms - now : 0;
	char granted[48], expires[48];

	ctl_format_time(granted, sizeof(granted), e->granted_realtime_ns);
	ctl_format_time(expires, sizeof(expires), e->granted_realtime_ns + e->duration_s * 1000000000ULL);
	return json_pack("{s:I, s:s, s:I, s:o, s:o, s:s, s:s, s:I, s:I, s:o, s:o}",
			 "id", (json_int_t)e->id, "sysfs", e->sysname, "hid_id", (json_int_t)e->hid_id,
			 "requests", view_kinds(e->kinds), "report_ids", view_report_ids(e->report_ids),
			 "granted", granted, "expires", expires,
			 "duration_s", (json_int_t)e->duration_s,
			 "remaining_s", (json_int_t)((left_ms + 999) / 1000),
			 "granted_by", view_grantor(&e->by), "for", view_sender(e));
}
