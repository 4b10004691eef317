// SPDX-License-Identifier: GPL-2.0-or-later
#include "log_filter.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int copy_string(json_t *args, const char *key, char *buf, size_t size,
		       char *err, size_t errsize)
{
	json_t *v = json_object_get(args, key);

	buf[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= size) {
		snprintf(err, errsize, "\"%s\" must be a string of 1..%zu bytes", key, size - 1);
		return -EINVAL;
	}
	memcpy(buf, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

/* N hex digits exactly. */
static bool hex_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* 0003:054C:0CE6.0001: bus, vendor, product and a sequence number, in hex. */
static bool is_sysfs_name(const char *s)
{
	return strlen(s) == 19 && hex_digits(s, 4) && s[4] == ':' && hex_digits(s + 5, 4) &&
	       s[9] == ':' && hex_digits(s + 10, 4) && s[14] == '.' && hex_digits(s + 15, 4);
}

/* 1 to 4 hex digits, as lowercase 4 digits into OUT[5]. */
static bool hex_id(const char *s, size_t len, char out[5])
{
	if (len < 1 || len > 4 || !hex_digits(s, len))
		return false;
	memset(out, '0', 4 - len);
	for (size_t i = 0; i < len; i++)
		out[4 - len + i] = (char)tolower((unsigned char)s[i]);
	out[4] = '\0';
	return true;
}

int log_filter_set_device(struct log_filter *f, const char *device)
{
	const char *c1, *c2;
	size_t bus_len, len;

	f->form = LOG_DEVICE_ANY;
	f->device[0] = '\0';
	if (!device || !device[0])
		return 0;
	len = strlen(device);
	if (len >= sizeof(f->device))
		return -EINVAL;
	if (is_sysfs_name(device)) {
		f->form = LOG_DEVICE_SYSFS;
	} else if (strspn(device, "0123456789") == len && len <= 10) {
		f->form = LOG_DEVICE_HID_ID;
	} else {
		/* BUS:VID:PID, the bus by name (usb) or number (0003) */
		c1 = strchr(device, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c1 || !c2 || strchr(c2 + 1, ':'))
			return -EINVAL;
		bus_len = (size_t)(c1 - device);
		if (bus_len == 0 || bus_len >= sizeof(f->bus) ||
		    strspn(device, "abcdefghijklmnopqrstuvwxyz0123456789") < bus_len ||
		    !hex_id(c1 + 1, (size_t)(c2 - c1 - 1), f->vendor) ||
		    !hex_id(c2 + 1, strlen(c2 + 1), f->product))
			return -EINVAL;
		memcpy(f->bus, device, bus_len);
		f->bus[bus_len] = '\0';
		f->form = LOG_DEVICE_ID;
	}
	memcpy(f->device, device, len + 1);
	return 0;
}

int log_filter_from_args(json_t *args, struct log_filter *f, char *err, size_t errsize)
{
	char device[64];
	int r;

	*f = (struct log_filter){};
	if ((r = copy_string(args, "device", device, sizeof(device), err, errsize)) < 0 ||
	    (r = copy_string(args, "since", f->since, sizeof(f->since), err, errsize)) < 0 ||
	    (r = copy_string(args, "action", f->action, sizeof(f->action), err, errsize)) < 0)
		return r;
	if (log_filter_set_device(f, device) < 0) {
		snprintf(err, errsize, "\"device\" \"%s\": expected a sysfs name (0003:054C:0CE6.0001), a hid_id or BUS:VID:PID (usb:054c:0ce6)",
			 device);
		return -EINVAL;
	}
	if (f->action[0] && strcmp(f->action, "allow") && strcmp(f->action, "deny")) {
		snprintf(err, errsize, "\"action\" must be \"allow\" or \"deny\", not \"%s\"", f->action);
		return -EINVAL;
	}
	return 0;
}

static bool string_is(json_t *v, const char *want)
{
	return json_is_string(v) && !strcasecmp(json_string_value(v), want);
}

/* The record's bus, by name ("usb") or number ("0003"), is BUS? */
static bool bus_matches(const char *bus, json_t *dev)
{
	json_t *sysfs = json_object_get(dev, "sysfs");

	if (string_is(json_object_get(dev, "bus"), bus))
		return true;
	/* by number: the sysfs name starts with it */
	return strlen(bus) == 4 && json_is_string(sysfs) &&
	       !strncasecmp(json_string_value(sysfs), bus, 4);
}

static bool device_matches(const struct log_filter *f, json_t *dev)
{
	json_t *hid_id = json_object_get(dev, "hid_id");

	switch (f->form) {
	case LOG_DEVICE_ANY:
		return true;
	case LOG_DEVICE_SYSFS:
		return string_is(json_object_get(dev, "sysfs"), f->device);
	case LOG_DEVICE_HID_ID:
		return json_is_integer(hid_id) &&
		       json_integer_value(hid_id) == (json_int_t)strtoull(f->device, NULL, 10);
	case LOG_DEVICE_ID:
		return bus_matches(f->bus, dev) &&
		       string_is(json_object_get(dev, "vendor"), f->vendor) &&
		       string_is(json_object_get(dev, "product"), f->product);
	}
	return false;
}

bool log_filter_match(const struct log_filter *f, json_t *rec)
{
	if (!device_matches(f, json_object_get(rec, "device")))
		return false;
	if (f->since[0]) {
		json_t *t = json_object_get(rec, "time");

		/* Times are all written in the same fixed-width UTC form. */
		if (!json_is_string(t) || strcmp(json_string_value(t), f->since) < 0)
			return false;
	}
	if (f->action[0]) {
		json_t *event = json_object_get(rec, "event");
		json_t *action = json_object_get(rec, "action");

		if (!json_is_string(event) || strcmp(json_string_value(event), "decision") ||
		    !json_is_string(action) || strcmp(json_string_value(action), f->action))
			return false;
	}
	return true;
}
