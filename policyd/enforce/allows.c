// SPDX-License-Identifier: GPL-2.0-or-later
/* Temporary allows over their life: grant, expiry, end, their audit records. */
#include "allows.h"

#include <sys/timerfd.h>
#include <syslog.h>
#include <time.h>

#include "audit/say.h"
#include "state/views.h"

static void write_audit(struct enforcer *en, json_t *o)
{
	if (!o) {
		say(LOG_ERR, "cannot build an audit record: out of memory");
		return;
	}
	if (audit_write_json(en->audit, o) < 0)
		say(LOG_ERR, "cannot write an audit record to %s", en->audit->path);
	json_decref(o);
}

void allows_granted(struct enforcer *en, const struct hid_dev_info *info, const struct exception *e)
{
	write_audit(en, json_pack("{s:s, s:o, s:o, s:o}", "event", "exception_granted",
				 "device", view_device(info), "exception", view_exception(e),
				 "granted_by", view_grantor(&e->by)));
	say(LOG_NOTICE, "%s: temporary allow #%u for %llu s granted by uid %u (%s, pid %d)",
	    info->sysname, e->id, (unsigned long long)e->duration_s, (unsigned int)e->by.uid,
	    e->by.comm, (int)e->by.pid);
	allows_arm_expiry(en);
}

struct exception *allows_due(struct enforcer *en, uint64_t now)
{
	for (size_t i = 0; i < en->state->exceptions.n; i++)
		if (en->state->exceptions.items[i].expires_ms <= now)
			return &en->state->exceptions.items[i];
	return NULL;
}

static json_t *exception_device_json(struct enforcer *en, const struct exception *e)
{
	struct managed_device *m = state_find_device(en->state, e->hid_id);

	if (m)
		return view_device(&m->info);
	return json_pack("{s:I, s:s}", "hid_id", (json_int_t)e->hid_id, "sysfs", e->sysname);
}

void allows_end(struct enforcer *en, struct exception *e, const char *reason,
		const struct exception_grantor *revoker)
{
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o}", "event", "exception_ended",
			      "reason", reason, "device", exception_device_json(en, e),
			      "exception", view_exception(e), "granted_by", view_grantor(&e->by));

	if (o && revoker)
		json_object_set_new(o, "revoked_by", view_grantor(revoker));
	write_audit(en, o);
	say(LOG_NOTICE, "%s: temporary allow #%u granted by uid %u (%s) ended: %s", e->sysname,
	    e->id, (unsigned int)e->by.uid, e->by.comm, reason);
	exception_remove(&en->state->exceptions, e);
}

void allows_end_device(struct enforcer *en, uint32_t hid_id, const char *reason)
{
	for (size_t i = 0; i < en->state->exceptions.n;) {
		struct exception *e = &en->state->exceptions.items[i];

		if (e->hid_id != hid_id) {
			i++;
			continue;
		}
		allows_end(en, e, reason, NULL);
	}
	allows_arm_expiry(en);
}

void allows_arm_expiry(struct enforcer *en)
{
	uint64_t next = exception_next_expiry(&en->state->exceptions);
	struct itimerspec its = {};

	if (en->timer_fd < 0)
		return;
	if (next) {
		its.it_value.tv_sec = (time_t)(next / 1000);
		its.it_value.tv_nsec = (long)(next % 1000) * 1000000L;
	}
	/* An absolute time already past fires at once; zero disarms. */
	if (timerfd_settime(en->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		say(LOG_ERR, "cannot arm the expiry timer of temporary allows: %m");
}
