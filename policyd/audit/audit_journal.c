// SPDX-License-Identifier: GPL-2.0-or-later
/* Audit records as systemd journal entries; see audit_journal.h. */
#include "audit_journal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <syslog.h>

#include "audit.h"
#include "hid_rules.h"
#include "policy/policy.h"

void journal_entry_done(struct journal_entry *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->fields[i].iov_base);
	*e = (struct journal_entry){};
}

static void add(struct journal_entry *e, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Add NAME=value. Values may hold any byte but NUL (the native protocol
 * carries newlines too); a program's or a device's name is cut at a NUL. */
static void add(struct journal_entry *e, const char *name, const char *fmt, ...)
{
	char *value = NULL, *field = NULL;
	va_list ap;
	int n;

	if (e->error)
		return;
	if (e->n == AUDIT_JOURNAL_FIELDS_MAX) {
		e->error = -E2BIG;
		return;
	}
	va_start(ap, fmt);
	n = vasprintf(&value, fmt, ap);
	va_end(ap);
	if (n < 0 || asprintf(&field, "%s=%s", name, value) < 0) {
		free(value);
		e->error = -ENOMEM;
		return;
	}
	free(value);
	e->fields[e->n].iov_base = field;
	e->fields[e->n].iov_len = strlen(field);
	e->n++;
}

/* NAME=the first LEN bytes of S (fewer at a NUL). */
static void add_bytes(struct journal_entry *e, const char *name, const char *s, size_t len)
{
	add(e, name, "%.*s", (int)strnlen(s, len), s);
}

const char *journal_entry_get(const struct journal_entry *e, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < e->n; i++) {
		const char *f = e->fields[i].iov_base;

		if (!strncmp(f, name, len) && f[len] == '=')
			return f + len + 1;
	}
	return NULL;
}

static void add_device(struct journal_entry *e, const struct hid_dev_info *dev)
{
	const char *bus = policy_bus_name(dev->bus);

	add_bytes(e, "HID_POLICY_DEVICE", dev->sysname, sizeof(dev->sysname));
	if (bus)
		add(e, "HID_POLICY_DEVICE_ID", "%s:%04x:%04x", bus, dev->vendor, dev->product);
	else
		add(e, "HID_POLICY_DEVICE_ID", "%04x:%04x:%04x", dev->bus, dev->vendor, dev->product);
	add_bytes(e, "HID_POLICY_DEVICE_NAME", dev->name, sizeof(dev->name));
}

/* The record's rule, as the JSON log names it. */
static const char *rule_name(const struct hid_fw_record *rec, const struct audit_context *ctx)
{
	if (rec->rule_index == HID_RULE_INDEX_DEFAULT)
		return rec->flags & HID_FW_REC_NO_RULES ? "(no rules loaded)" : "(default)";
	if (rec->rule_index == HID_RULE_INDEX_UNDECLARED)
		return AUDIT_RULE_UNDECLARED;
	return ctx && ctx->rule_name ? ctx->rule_name : NULL;
}

static void add_process(struct journal_entry *e, const struct audit_subject *p)
{
	if (p->have_pid) {
		add(e, "HID_POLICY_SUBJECT_PID", "%u", p->pid);
		/* journald adds OBJECT_UID, OBJECT_COMM, OBJECT_EXE,
		 * OBJECT_SYSTEMD_UNIT, ... of this process, while it lives. */
		add(e, "OBJECT_PID", "%u", p->pid);
	}
	if (p->have_ids) {
		add(e, "HID_POLICY_SUBJECT_UID", "%u", p->uid);
		add(e, "HID_POLICY_SUBJECT_GID", "%u", p->gid);
	}
	if (p->have_comm)
		add_bytes(e, "HID_POLICY_SUBJECT_COMM", p->comm, p->comm_len);
	if (p->exe_len)
		add_bytes(e, "HID_POLICY_SUBJECT_EXE", p->exe, p->exe_len);
	if (p->unit_len)
		add_bytes(e, "HID_POLICY_SUBJECT_UNIT", p->unit, p->unit_len);
	/* What the firewall recorded at the request (audit_format.h). */
	if (p->have_eids) {
		add(e, "HID_POLICY_SUBJECT_EUID", "%u", p->euid);
		add(e, "HID_POLICY_SUBJECT_EGID", "%u", p->egid);
	}
	if (p->have_exe_file)
		add(e, "HID_POLICY_SUBJECT_EXE_INODE", "%u:%u:%llu", p->exe_major, p->exe_minor,
		    (unsigned long long)p->exe_ino);
	if (p->cgroup_id)
		add(e, "HID_POLICY_SUBJECT_CGROUP_ID", "%llu", (unsigned long long)p->cgroup_id);
	if (p->cgroup_len)
		add_bytes(e, "HID_POLICY_SUBJECT_CGROUP", p->cgroup, p->cgroup_len);
	if (p->read_later) {
		char later[32];

		snprintf(later, sizeof(later), "%s%s%s%s",
			 p->read_later & AUDIT_READ_LATER_IDS ? " uid gid" : "",
			 p->read_later & AUDIT_READ_LATER_COMM ? " comm" : "",
			 p->read_later & AUDIT_READ_LATER_EXE ? " exe" : "",
			 p->read_later & AUDIT_READ_LATER_UNIT ? " unit" : "");
		add(e, "HID_POLICY_SUBJECT_READ_LATER", "%s", later + 1);
	}
	add(e, "HID_POLICY_SOURCE", "%s", p->source);
	if (p->lent)
		add(e, "HID_POLICY_SUBJECT_IDENTITY_LENT", "1");
}

/* "set_report feature 0xf4", "output_report 0x10": as a rule says it. */
static void request_text(char *buf, size_t size, const struct hid_fw_record *rec)
{
	const char *request = audit_request_name(rec);

	if (rec->hook == HID_FW_HOOK_HW_REQUEST)
		snprintf(buf, size, "%s %s 0x%02x", request, audit_report_type_name(rec->rtype),
			 rec->report_id);
	else
		snprintf(buf, size, "%s 0x%02x", request, rec->report_id);
}

int audit_journal_decision(struct journal_entry *e, const struct hid_fw_record *rec,
			   const struct audit_context *ctx, const struct audit_subject *proc,
			   const struct audit_span *span)
{
	const struct hid_dev_info *dev = ctx ? ctx->device : NULL;
	bool deny = rec->action == HID_RULE_DENY, enforced = rec->flags & HID_FW_REC_ENFORCED;
	const char *rule = rule_name(rec, ctx);
	char request[64], comm[HID_FW_COMM_LEN + 1] = "?", subject[64], payload[2 * HID_FW_PAYLOAD_BYTES + 1];
	char first[48] = "", last[48] = "", times[128] = "";
	unsigned int plen = rec->payload_len < HID_FW_PAYLOAD_BYTES ? rec->payload_len :
				    HID_FW_PAYLOAD_BYTES;

	*e = (struct journal_entry){};
	request_text(request, sizeof(request), rec);
	if (proc->have_comm)
		audit_plain_text(comm, sizeof(comm), proc->comm, proc->comm_len);
	for (unsigned int i = 0; i < plen; i++)
		snprintf(payload + 2 * i, 3, "%02x", rec->payload[i]);
	payload[2 * plen] = '\0';

	add(e, "MESSAGE_ID", "%s", AUDIT_JOURNAL_ID_DECISION);
	add(e, "PRIORITY", "%d", deny && enforced ? LOG_WARNING : deny ? LOG_NOTICE : LOG_INFO);
	add(e, "SYSLOG_IDENTIFIER", "%s", "hid-policyd");
	if (!proc->have_pid)
		snprintf(subject, sizeof(subject), "%s",
			 !strcmp(proc->source, "kernel") ? "a kernel driver" :
			 !strcmp(proc->source, "bpf") ? "a HID-BPF program" : "a program");
	else if (proc->have_ids)
		snprintf(subject, sizeof(subject), "%s (pid %u, uid %u)", comm, proc->pid, proc->uid);
	else
		snprintf(subject, sizeof(subject), "%s (pid %u)", comm, proc->pid);
	if (span) {
		audit_format_time(first, sizeof(first), span->first_ns);
		audit_format_time(last, sizeof(last), span->last_ns);
		snprintf(times, sizeof(times), " (%llu times more, %s to %s)",
			 (unsigned long long)span->count, first, last);
	}
	add(e, "MESSAGE", "%s %s on %s from %s: rule %s%s",
	    !deny ? "allowed" : enforced ? "denied" : "would deny (audit mode)", request,
	    dev ? dev->sysname : "?", subject, rule ?: "?", times);
	if (span) {
		add(e, "HID_POLICY_COUNT", "%llu", (unsigned long long)span->count);
		add(e, "HID_POLICY_FIRST", "%s", first);
		add(e, "HID_POLICY_LAST", "%s", last);
	}
	add(e, "HID_POLICY_EVENT", "%s", "decision");
	add(e, "HID_POLICY_ACTION", "%s", deny ? "deny" : "allow");
	add(e, "HID_POLICY_ENFORCED", "%d", enforced);
	if (enforced) {
		const char *name = policy_errno_name(rec->err);

		if (name)
			add(e, "HID_POLICY_ERRNO", "%s", name);
		else
			add(e, "HID_POLICY_ERRNO", "%d", rec->err);
	}
	add(e, "HID_POLICY_REQUEST", "%s", audit_request_name(rec));
	add(e, "HID_POLICY_REPORT_TYPE", "%s", audit_report_type_name(rec->rtype));
	add(e, "HID_POLICY_REPORT_ID", "0x%02x", rec->report_id);
	add(e, "HID_POLICY_LENGTH", "%u", rec->len);
	if (plen)
		add(e, "HID_POLICY_PAYLOAD", "%s", payload);
	add(e, "HID_POLICY_HID_ID", "%u", rec->hid_id);
	if (dev)
		add_device(e, dev);
	if (rule)
		add(e, "HID_POLICY_RULE", "%s", rule);
	if (ctx && ctx->ruleset_name)
		add(e, "HID_POLICY_RULE_SET", "%s", ctx->ruleset_name);
	add_process(e, proc);
	return e->error;
}

/* Shorthands for the JSON records the daemon builds (views.c). */
static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void add_json(struct journal_entry *e, const char *name, json_t *v)
{
	if (json_is_string(v))
		add(e, name, "%s", json_string_value(v));
	else if (json_is_integer(v))
		add(e, name, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		add(e, name, "%d", json_is_true(v));
}

static void add_device_json(struct journal_entry *e, json_t *dev)
{
	add_json(e, "HID_POLICY_HID_ID", json_object_get(dev, "hid_id"));
	add_json(e, "HID_POLICY_DEVICE", json_object_get(dev, "sysfs"));
	if (str(dev, "bus") && str(dev, "vendor") && str(dev, "product"))
		add(e, "HID_POLICY_DEVICE_ID", "%s:%s:%s", str(dev, "bus"), str(dev, "vendor"),
		    str(dev, "product"));
	add_json(e, "HID_POLICY_DEVICE_NAME", json_object_get(dev, "name"));
}

static void add_person(struct journal_entry *e, const char *prefix, json_t *who)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_UID", prefix);
	add_json(e, name, json_object_get(who, "uid"));
	snprintf(name, sizeof(name), "%s_PID", prefix);
	add_json(e, name, json_object_get(who, "pid"));
	snprintf(name, sizeof(name), "%s_COMM", prefix);
	add_json(e, name, json_object_get(who, "comm"));
}

/* "set_report feature, output_report" */
static void add_requests(struct journal_entry *e, json_t *requests)
{
	char buf[256] = "";
	size_t len = 0, i;
	json_t *v;

	json_array_foreach(requests, i, v)
		if (json_is_string(v) && len < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? ", " : "",
						json_string_value(v));
	add(e, "HID_POLICY_REQUESTS", "%s", buf);
}

static const char *dev_name(json_t *record)
{
	return str(json_object_get(record, "device"), "sysfs") ?: "?";
}

static void build_exception(struct journal_entry *e, json_t *record, bool granted)
{
	json_t *x = json_object_get(record, "exception"), *by = json_object_get(record, "granted_by");
	json_t *revoker = json_object_get(record, "revoked_by");

	add(e, "MESSAGE_ID", "%s", granted ? AUDIT_JOURNAL_ID_EXCEPTION_GRANTED :
					     AUDIT_JOURNAL_ID_EXCEPTION_ENDED);
	add(e, "PRIORITY", "%d", LOG_NOTICE);
	if (granted)
		add(e, "MESSAGE", "temporary allow #%lld on %s for %lld s granted by uid %lld (%s)",
		    (long long)json_integer_value(json_object_get(x, "id")), dev_name(record),
		    (long long)json_integer_value(json_object_get(x, "duration_s")),
		    (long long)json_integer_value(json_object_get(by, "uid")), str(by, "comm") ?: "?");
	else
		add(e, "MESSAGE", "temporary allow #%lld on %s ended: %s",
		    (long long)json_integer_value(json_object_get(x, "id")), dev_name(record),
		    str(record, "reason") ?: "?");
	add_json(e, "HID_POLICY_EXCEPTION", json_object_get(x, "id"));
	add_json(e, "HID_POLICY_DURATION_S", json_object_get(x, "duration_s"));
	add_json(e, "HID_POLICY_EXPIRES", json_object_get(x, "expires"));
	add_requests(e, json_object_get(x, "requests"));
	add_json(e, "HID_POLICY_REPORT_IDS", json_object_get(x, "report_ids"));
	add_person(e, "HID_POLICY_GRANTED_BY", by);
	if (!granted)
		add_json(e, "HID_POLICY_REASON", json_object_get(record, "reason"));
	if (revoker)
		add_person(e, "HID_POLICY_REVOKED_BY", revoker);
}

int audit_journal_event(struct journal_entry *e, json_t *record)
{
	const char *event = str(record, "event");

	*e = (struct journal_entry){};
	if (!event)
		return -ENOENT;
	if (!strcmp(event, "exception_granted") || !strcmp(event, "exception_ended")) {
		build_exception(e, record, !strcmp(event, "exception_granted"));
	} else if (!strcmp(event, "firewall_detached")) {
		bool back = json_is_true(json_object_get(record, "reattached"));

		add(e, "MESSAGE_ID", "%s", AUDIT_JOURNAL_ID_FIREWALL_DETACHED);
		add(e, "PRIORITY", "%d", back ? LOG_WARNING : LOG_ERR);
		add(e, "MESSAGE", "firewall of %s was detached outside hid-policyd; %s",
		    dev_name(record), back ? "attached again" : "cannot attach it again: not protected");
		add_json(e, "HID_POLICY_REATTACHED", json_object_get(record, "reattached"));
		add_json(e, "HID_POLICY_ERROR", json_object_get(record, "error"));
	} else if (!strcmp(event, "records_dropped")) {
		add(e, "MESSAGE_ID", "%s", AUDIT_JOURNAL_ID_RECORDS_DROPPED);
		add(e, "PRIORITY", "%d", LOG_WARNING);
		add(e, "MESSAGE", "%lld audit records lost: the firewall's ring buffer was full",
		    (long long)json_integer_value(json_object_get(record, "count")));
		add_json(e, "HID_POLICY_COUNT", json_object_get(record, "count"));
		add_json(e, "HID_POLICY_TOTAL", json_object_get(record, "total"));
	} else if (!strcmp(event, "records_suppressed")) {
		add(e, "MESSAGE_ID", "%s", AUDIT_JOURNAL_ID_OVER_BUDGET);
		add(e, "PRIORITY", "%d", LOG_WARNING);
		add(e, "MESSAGE", "%lld denials and %lld logged allows on %s not recorded individually: over the device's record budget",
		    (long long)json_integer_value(json_object_get(record, "denied")),
		    (long long)json_integer_value(json_object_get(record, "allowed")), dev_name(record));
		add_json(e, "HID_POLICY_DENIED", json_object_get(record, "denied"));
		add_json(e, "HID_POLICY_ALLOWED", json_object_get(record, "allowed"));
	} else if (!strcmp(event, "audit_log_full") || !strcmp(event, "records_not_written")) {
		bool full = !strcmp(event, "audit_log_full");

		add(e, "MESSAGE_ID", "%s", AUDIT_JOURNAL_ID_LOG_FULL);
		add(e, "PRIORITY", "%d", LOG_WARNING);
		if (full)
			add(e, "MESSAGE", "the audit log reached its bound (%lld bytes): each device's decisions past its first are counted, not written, until it is rotated",
			    (long long)json_integer_value(json_object_get(record, "max_size")));
		else
			add(e, "MESSAGE", "%lld decisions and %lld other records were not written to the audit log at its maximum size (counted per device there)",
			    (long long)json_integer_value(json_object_get(record, "decisions")),
			    (long long)json_integer_value(json_object_get(record, "other_records")));
		add_json(e, "HID_POLICY_MAX_SIZE", json_object_get(record, "max_size"));
		add_json(e, "HID_POLICY_DECISIONS", json_object_get(record, "decisions"));
	} else {
		return -ENOENT;
	}
	add(e, "SYSLOG_IDENTIFIER", "%s", "hid-policyd");
	add(e, "HID_POLICY_EVENT", "%s", event);
	if (json_is_object(json_object_get(record, "device")))
		add_device_json(e, json_object_get(record, "device"));
	return e->error;
}

int audit_journal_suppressed(struct journal_entry *e, uint64_t n)
{
	*e = (struct journal_entry){};
	add(e, "MESSAGE_ID", "%s", AUDIT_JOURNAL_ID_SUPPRESSED);
	add(e, "PRIORITY", "%d", LOG_NOTICE);
	add(e, "SYSLOG_IDENTIFIER", "%s", "hid-policyd");
	add(e, "MESSAGE", "%llu decision%s not sent to the journal (rate limit); every one is in the audit log",
	    (unsigned long long)n, n == 1 ? "" : "s");
	add(e, "HID_POLICY_EVENT", "%s", "journal_suppressed");
	add(e, "HID_POLICY_COUNT", "%llu", (unsigned long long)n);
	return e->error;
}

int audit_journal_send(const struct journal_entry *e)
{
	if (e->error)
		return e->error;
	return sd_journal_sendv(e->fields, (int)e->n);
}

bool audit_journal_default(void)
{
	return getenv("INVOCATION_ID") && sd_booted() > 0;
}
