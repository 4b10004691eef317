// SPDX-License-Identifier: GPL-2.0-or-later
/* What the args of explain and allow say (command_args.h). */
#include "command_args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/ctl_protocol.h"
#include "common/util.h"

int command_failf(char *err, size_t errsize, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsize, fmt, ap);
	va_end(ap);
	return r;
}

int command_args_kinds(json_t *args, bool required, uint8_t *kinds, char *err, size_t errsize)
{
	static const char *const types[] = { "feature", "input", "output" };
	json_t *req = json_object_get(args, "request"), *rep = json_object_get(args, "report");
	const char *report = json_is_string(rep) ? json_string_value(rep) : NULL;

	if ((req && !json_is_string(req)) || (rep && !json_is_string(rep)))
		return command_failf(err, errsize, -EINVAL, "\"request\" and \"report\" must be strings");
	if (!req) {
		if (required || report)
			return command_failf(err, errsize, -EINVAL, "a request kind is needed (get_report, set_report, output_report or input_event)");
		/* Every request; input events only when asked for: an
		 * allow logs what it lets through, and a device's input
		 * would flood the audit trail. */
		*kinds = HID_RULE_KIND_ALL & ~HID_RULE_KIND_INPUT_EVENT;
		return 0;
	}
	if (policy_kind_from_names(json_string_value(req), report, kinds) == 0)
		return 0;
	/* allow: get_report or set_report without a report type means all three. */
	if (!required && !report) {
		uint8_t all = 0, k;

		for (size_t i = 0; i < ELEMENTSOF(types); i++) {
			if (policy_kind_from_names(json_string_value(req), types[i], &k) < 0)
				break;
			all |= k;
		}
		if (all) {
			*kinds = all;
			return 0;
		}
	}
	return command_failf(err, errsize, -EINVAL,
		     "request \"%.32s\"%s%.16s: expected get_report or set_report with a report type (feature, input, output), or output_report or input_event alone",
		     json_string_value(req), report ? " report " : "", report ?: "");
}

int command_args_report_id(json_t *args, int *id, char *err, size_t errsize)
{
	json_t *v = json_object_get(args, "id");

	*id = -1;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 255)
		return command_failf(err, errsize, -EINVAL, "\"id\" must be a report ID, 0..255");
	*id = (int)json_integer_value(v);
	return 0;
}

/* "interface" and "descriptor_sha256": the USB interface number and the
 * report descriptor's hash, replaced; a hash makes the descriptor known. */
static int device_interface_and_hash(json_t *args, struct policy_device *pdev,
				     uint8_t hash[POLICY_SHA256_BYTES], char *err, size_t errsize)
{
	json_t *itf = json_object_get(args, "interface"), *h = json_object_get(args, "descriptor_sha256");

	if (itf) {
		if (!json_is_integer(itf) || json_integer_value(itf) < 0 || json_integer_value(itf) > 255)
			return command_failf(err, errsize, -EINVAL, "\"interface\" must be a USB interface number, 0..255");
		pdev->has_interface = true;
		pdev->interface = (uint8_t)json_integer_value(itf);
	}
	if (h) {
		if (!json_is_string(h) || policy_sha256_parse(json_string_value(h), hash) < 0)
			return command_failf(err, errsize, -EINVAL, "\"descriptor_sha256\" must be 64 hex digits");
		pdev->descriptor_sha256 = hash;
		pdev->descriptor_known = true;
	}
	return 0;
}

int command_args_device(json_t *args, struct policy_device *pdev, uint32_t *usages,
			uint8_t hash[POLICY_SHA256_BYTES], char *err, size_t errsize)
{
	json_t *u = json_object_get(args, "usage"), *uniq = json_object_get(args, "uniq"),
	       *phys = json_object_get(args, "phys"), *e;
	size_t i;
	int r;

	if ((uniq && !json_is_string(uniq)) || (phys && !json_is_string(phys)))
		return command_failf(err, errsize, -EINVAL, "\"uniq\" and \"phys\" must be strings");
	if (uniq)
		pdev->uniq = json_string_value(uniq);
	if (phys)
		pdev->phys = json_string_value(phys);
	r = device_interface_and_hash(args, pdev, hash, err, errsize);
	if (r < 0 || !u)
		return r;
	if (!json_is_array(u) || json_array_size(u) > POLICY_USAGE_LIST_MAX)
		return command_failf(err, errsize, -EINVAL, "\"usage\" must be a list of at most %d usages",
			     POLICY_USAGE_LIST_MAX);
	json_array_foreach(u, i, e) {
		struct policy_usage pu;

		if (!json_is_string(e) || policy_usage_parse(json_string_value(e), &pu, 1) != 1 ||
		    pu.mask != 0xffffffffu)
			return command_failf(err, errsize, -EINVAL, "usage \"%.32s\": expected one usage: pointer, mouse, joystick, game_pad, keyboard, keypad, multi_axis_controller, system_control, consumer_control, or 0xPPPP:0xUUUU",
				     json_is_string(e) ? json_string_value(e) : "?");
		usages[i] = pu.value;
	}
	pdev->usages = usages;
	pdev->n_usages = json_array_size(u);
	pdev->descriptor_known = true;
	return 0;
}

int command_args_hidpp(json_t *args, struct policy_device *pdev, struct hidpp_features *t,
		       char *err, size_t errsize)
{
	json_t *h = json_object_get(args, "hidpp_feature"), *e;
	size_t i;

	if (!h)
		return 0;
	if (!json_is_array(h) || json_array_size(h) > HIDPP_FEATURES_MAX)
		return command_failf(err, errsize, -EINVAL, "\"hidpp_feature\" must be a list of at most %d answers",
				     HIDPP_FEATURES_MAX);
	*t = (struct hidpp_features){};
	json_array_foreach(h, i, e)
		if (!json_is_string(e) || policy_hidpp_feature_parse(json_string_value(e), t) < 0)
			return command_failf(err, errsize, -EINVAL, "hidpp_feature \"%.32s\": expected DEVICE_INDEX:FEATURE=INDEX in hex, the device index ff or 1-6, e.g. 2:00d0=0e",
					     json_is_string(e) ? json_string_value(e) : "?");
	pdev->hidpp = t;
	return 0;
}

int command_args_id(json_t *v, bool group, uint32_t *ret, char *err, size_t errsize)
{
	const char *what = group ? "group" : "user";

	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < UINT32_MAX) {
		*ret = (uint32_t)json_integer_value(v);
		return 0;
	}
	/* Names were looked up before the request got here
	 * (name_lookup.h): what is left is neither. */
	return command_failf(err, errsize, -EINVAL, "\"%s\" must be %s ids or names", what, what);
}

int command_args_duration(json_t *args, uint64_t *duration_s, char *err, size_t errsize)
{
	json_t *v = json_object_get(args, "duration_s");

	*duration_s = CTL_ALLOW_DEFAULT_S;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > CTL_ALLOW_MAX_S)
		return command_failf(err, errsize, -EINVAL, "\"duration_s\" must be 1..%d seconds", CTL_ALLOW_MAX_S);
	*duration_s = (uint64_t)json_integer_value(v);
	return 0;
}

_Static_assert(CTL_ALLOW_GROUPS_MAX == HID_SENDER_MAX_IDS, "an allow's groups are a sender's");

/* allow's "group": 1 to HID_SENDER_MAX_IDS gids, a member of any of them. */
static int allow_groups(json_t *group, struct hid_rule_sender *s, char *err, size_t errsize)
{
	size_t i;
	json_t *g;

	if (!json_is_array(group) || json_array_size(group) == 0 ||
	    json_array_size(group) > HID_SENDER_MAX_IDS)
		return command_failf(err, errsize, -EINVAL, "\"group\" must list 1 to %d gids (a member of any of them)",
			     HID_SENDER_MAX_IDS);
	json_array_foreach(group, i, g)
		if (command_args_id(g, true, &s->gids[i], err, errsize) < 0)
			return -EINVAL;
	s->fields |= HID_SENDER_F_GROUP;
	s->n_gids = (uint8_t)json_array_size(group);
	return 0;
}

int command_args_allow_ids(json_t *args, struct hid_rule_sender *s, pid_t *for_pid, char *err,
			   size_t errsize)
{
	json_t *user = json_object_get(args, "user"), *group = json_object_get(args, "group");
	json_t *pid = json_object_get(args, "pid");

	/* hid-policyctl reads a process's user and executable and sends
	 * them along (the daemon keeps no right to read other users'
	 * processes); the pid is kept for the record. */
	if (pid) {
		if (!user || !json_object_get(args, "executable"))
			return command_failf(err, errsize, -EINVAL, "\"pid\" comes with the process's \"user\" and \"executable\"");
		if (!json_is_integer(pid) || json_integer_value(pid) < 1 ||
		    json_integer_value(pid) > INT32_MAX)
			return command_failf(err, errsize, -EINVAL, "\"pid\" must be a process ID");
		*for_pid = (pid_t)json_integer_value(pid);
	}
	if (user) {
		if (command_args_id(user, false, &s->uids[0], err, errsize) < 0)
			return -EINVAL;
		s->fields |= HID_SENDER_F_USER;
		s->n_uids = 1;
	}
	return group ? allow_groups(group, s, err, errsize) : 0;
}
