// SPDX-License-Identifier: GPL-2.0-or-later
/* The audit log's size bound; see audit_bound.h. */
#include "audit_bound.h"

#include <string.h>

#include "common/util.h"

/* Where the reserve begins. */
static uint64_t reserve_start(const struct audit_bound *b)
{
	return b->max_size - b->max_size / 16;
}

static struct audit_unwritten *device(struct audit_bound *b, uint32_t hid_id, const char *sysname)
{
	struct audit_unwritten *u;

	for (size_t i = 0; i < b->n_devices; i++)
		if (b->devices[i].hid_id == hid_id)
			return &b->devices[i];
	if (b->n_devices >= AUDIT_BOUND_DEVICES_MAX ||
	    GROW(b->devices, b->n_devices, b->cap_devices) < 0)
		return NULL;
	u = &b->devices[b->n_devices++];
	*u = (struct audit_unwritten){ .hid_id = hid_id };
	if (sysname)
		snprintf(u->sysname, sizeof(u->sysname), "%s", sysname);
	return u;
}

/* Whether UID may still put a decision on HID_ID into the reserve: it has
 * not, and the table has room to remember it (reserve_take()). */
static bool reserve_open(struct audit_bound *b, uint32_t hid_id, uint32_t uid)
{
	for (size_t i = 0; i < b->n_reserved; i++)
		if (b->reserved[i].hid_id == hid_id && b->reserved[i].uid == uid)
			return false;
	return b->n_reserved < AUDIT_BOUND_RESERVED_MAX &&
	       GROW(b->reserved, b->n_reserved, b->cap_reserved) == 0;
}

static void reserve_take(struct audit_bound *b, uint32_t hid_id, uint32_t uid)
{
	b->reserved[b->n_reserved++] = (struct audit_reserved){ .hid_id = hid_id, .uid = uid };
}

/* Is there room for LEN bytes below the reserve, or in it? */
static enum audit_room room(struct audit_bound *b, size_t len, bool in_reserve_too)
{
	if (!b->max_size || b->size + len <= reserve_start(b))
		return AUDIT_ROOM_WRITE;
	if (!in_reserve_too || b->size + len > b->max_size)
		return AUDIT_ROOM_COUNTED;
	if (!b->full_told) {
		b->full_told = true;
		return AUDIT_ROOM_WRITE_FULL;
	}
	return AUDIT_ROOM_WRITE;
}

enum audit_room audit_bound_decision(struct audit_bound *b, size_t len, uint32_t hid_id,
				     uint32_t uid, const char *sysname, bool deny,
				     uint64_t count)
{
	struct audit_unwritten *u = NULL;
	enum audit_room r = room(b, len, false);

	if (r != AUDIT_ROOM_COUNTED)
		return r;
	u = device(b, hid_id, sysname);
	/* Each user's first decision on a device since the log filled up
	 * goes into the reserve: a flood hides no other device, and no
	 * other user's refusal on the flooded device. */
	if (reserve_open(b, hid_id, uid)) {
		r = room(b, len, true);
		if (r != AUDIT_ROOM_COUNTED) {
			reserve_take(b, hid_id, uid);
			return r;
		}
	}
	if (!u)
		b->decisions_unattributed += count;
	else if (deny)
		u->denied += count;
	else
		u->allowed += count;
	return AUDIT_ROOM_COUNTED;
}

enum audit_room audit_bound_event(struct audit_bound *b, size_t len)
{
	enum audit_room r = room(b, len, true);

	if (r == AUDIT_ROOM_COUNTED)
		b->events++;
	return r;
}

void audit_bound_wrote(struct audit_bound *b, size_t len)
{
	b->size += len;
}

bool audit_bound_has_counts(const struct audit_bound *b)
{
	if (b->events || b->decisions_unattributed)
		return true;
	for (size_t i = 0; i < b->n_devices; i++)
		if (b->devices[i].denied || b->devices[i].allowed)
			return true;
	return false;
}

json_t *audit_bound_counts_json(const struct audit_bound *b, uint64_t *total)
{
	json_t *o = json_pack("{s:s, s:s, s:I}", "event", "records_not_written",
			      "reason", "audit log at its maximum size",
			      "max_size", (json_int_t)b->max_size);
	json_t *devices = json_array();
	uint64_t decisions = b->decisions_unattributed;

	if (!o || !devices) {
		json_decref(o);
		json_decref(devices);
		return NULL;
	}
	for (size_t i = 0; i < b->n_devices; i++) {
		const struct audit_unwritten *u = &b->devices[i];
		json_t *d;

		if (!u->denied && !u->allowed)
			continue;
		d = json_pack("{s:I, s:I, s:I}", "hid_id", (json_int_t)u->hid_id,
			      "denied", (json_int_t)u->denied, "allowed", (json_int_t)u->allowed);
		if (d && u->sysname[0])
			json_object_set_new(d, "sysfs", json_string(u->sysname));
		json_array_append_new(devices, d);
		decisions += u->denied + u->allowed;
	}
	json_object_set_new(o, "devices", devices);
	json_object_set_new(o, "decisions", json_integer((json_int_t)decisions));
	if (b->decisions_unattributed)
		json_object_set_new(o, "decisions_of_unknown_devices",
				    json_integer((json_int_t)b->decisions_unattributed));
	json_object_set_new(o, "other_records", json_integer((json_int_t)b->events));
	*total = decisions + b->events;
	return o;
}

void audit_bound_reset(struct audit_bound *b, uint64_t size)
{
	b->size = size;
	b->full_told = false;
	b->n_devices = 0;
	b->n_reserved = 0;
	b->events = 0;
	b->decisions_unattributed = 0;
}

void audit_bound_free(struct audit_bound *b)
{
	free(b->devices);
	free(b->reserved);
	*b = (struct audit_bound){};
}
