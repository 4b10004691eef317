// SPDX-License-Identifier: GPL-2.0-or-later
#include "log_filter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int log_filter_from_args(json_t *args, struct log_filter *f, char *err, size_t errsize)
{
	int r;

	*f = (struct log_filter){};
	if ((r = copy_string(args, "device", f->device, sizeof(f->device), err, errsize)) < 0 ||
	    (r = copy_string(args, "since", f->since, sizeof(f->since), err, errsize)) < 0 ||
	    (r = copy_string(args, "action", f->action, sizeof(f->action), err, errsize)) < 0)
		return r;
	if (f->action[0] && strcmp(f->action, "allow") && strcmp(f->action, "deny")) {
		snprintf(err, errsize, "\"action\" must be \"allow\" or \"deny\", not \"%s\"", f->action);
		return -EINVAL;
	}
	return 0;
}

static bool device_matches(const char *want, json_t *dev)
{
	json_t *sysfs = json_object_get(dev, "sysfs");
	json_t *hid_id = json_object_get(dev, "hid_id");
	char *end;
	unsigned long id;

	if (json_is_string(sysfs) && !strcmp(json_string_value(sysfs), want))
		return true;
	if (want[0] < '0' || want[0] > '9')
		return false;
	errno = 0;
	id = strtoul(want, &end, 10);
	return !errno && !*end && json_is_integer(hid_id) &&
	       json_integer_value(hid_id) == (json_int_t)id;
}

bool log_filter_match(const struct log_filter *f, json_t *rec)
{
	if (f->device[0] && !device_matches(f->device, json_object_get(rec, "device")))
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
