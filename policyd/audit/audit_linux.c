// SPDX-License-Identifier: GPL-2.0-or-later
/* Audit records for the Linux audit subsystem; see audit_linux.h. */
#include "audit_linux.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <libaudit.h>

#include "audit.h"
#include "hid_rules.h"
#include "policy/policy.h"

_Static_assert(AUDIT_LINUX_TYPE == AUDIT_USER_DEVICE, "USER_DEVICE records");

int audit_linux_open(void)
{
	int fd = audit_open();

	return fd < 0 ? -errno : fd;
}

void audit_linux_close(int fd)
{
	if (fd >= 0)
		audit_close(fd);
}

/* A message being written into a fixed buffer. */
struct message {
	char *buf;
	size_t size, len;
	bool full;
};

static void put(struct message *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct message *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, m->size - m->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= m->size - m->len) {
		m->full = true;
		return;
	}
	m->len += (size_t)n;
}

/* The audit tools' convention for untrusted text: "value" when it holds
 * nothing but printable ASCII other than '"' and space, otherwise every
 * byte in hex (uppercase, unquoted). */
static bool needs_hex(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c >= 0x7f || c == '"')
			return true;
	}
	return false;
}

static void put_text(struct message *m, const char *key, const char *s, size_t max)
{
	size_t len = strnlen(s, max);

	put(m, " %s=", key);
	if (len == 0 || !needs_hex(s, len)) {
		put(m, "\"%.*s\"", (int)len, s);
		return;
	}
	for (size_t i = 0; i < len; i++)
		put(m, "%02X", (unsigned char)s[i]);
}

static int finish(struct message *m)
{
	return m->full ? -E2BIG : 0;
}

int audit_linux_decision(char *buf, size_t size, const struct hid_fw_record *rec,
			 const struct audit_context *ctx, const struct audit_subject *proc,
			 const struct audit_span *span)
{
	struct message m = { .buf = buf, .size = size };
	const struct hid_dev_info *dev = ctx ? ctx->device : NULL;
	const char *errno_name = policy_errno_name(rec->err);
	const char *rule;

	if (rec->action != HID_RULE_DENY || !(rec->flags & HID_FW_REC_ENFORCED))
		return -ENOENT;
	if (size)
		buf[0] = '\0';
	put(&m, "op=hid-request-denied request=%s", audit_request_name(rec));
	if (rec->hook == HID_FW_HOOK_HW_REQUEST)
		put(&m, " report_type=%s", audit_report_type_name(rec->rtype));
	put(&m, " report_id=0x%02x", rec->report_id);
	if (errno_name)
		put(&m, " errno=%s", errno_name);
	else
		put(&m, " errno=%d", rec->err);
	put(&m, " hid_id=%u", rec->hid_id);
	if (dev) {
		const char *bus = policy_bus_name(dev->bus);

		put_text(&m, "hid_dev", dev->sysname, sizeof(dev->sysname));
		if (bus)
			put(&m, " hid_dev_id=%s:%04x:%04x", bus, dev->vendor, dev->product);
		put_text(&m, "hid_dev_name", dev->name, sizeof(dev->name));
	}
	if (rec->rule_index == HID_RULE_INDEX_DEFAULT)
		rule = rec->flags & HID_FW_REC_NO_RULES ? "(no rules loaded)" : "(default)";
	else if (rec->rule_index == HID_RULE_INDEX_UNDECLARED)
		rule = AUDIT_RULE_UNDECLARED;
	else
		rule = ctx && ctx->rule_name ? ctx->rule_name : "?";
	put_text(&m, "rule", rule, strlen(rule));
	if (ctx && ctx->ruleset_name)
		put_text(&m, "rule_set", ctx->ruleset_name, strlen(ctx->ruleset_name));
	/* The requester as the object of the record: the kernel puts the
	 * sender's (hid-policyd's) pid and uid first. */
	if (proc->have_pid)
		put(&m, " opid=%u", proc->pid);
	if (proc->have_ids)
		put(&m, " ouid=%u ogid=%u", proc->uid, proc->gid);
	if (proc->have_comm)
		put_text(&m, "ocomm", proc->comm, proc->comm_len);
	if (proc->exe_len)
		put_text(&m, "oexe", proc->exe, proc->exe_len);
	if (proc->unit_len)
		put_text(&m, "ounit", proc->unit, proc->unit_len);
	put(&m, " source=%s", proc->source);
	if (proc->lent)
		put(&m, " identity_lent=1");
	if (span) {
		char first[48], last[48];

		audit_format_time(first, sizeof(first), span->first_ns);
		audit_format_time(last, sizeof(last), span->last_ns);
		put(&m, " count=%llu first=%s last=%s", (unsigned long long)span->count, first, last);
	}
	return finish(&m);
}


static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static long long num(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

static void put_json_text(struct message *m, const char *key, json_t *o, const char *field)
{
	const char *s = str(o, field);

	if (s)
		put_text(m, key, s, strlen(s));
}

/* Denials over a device's record budget: counted, not one by one. */
static int over_budget(struct message *m, json_t *record, bool *success)
{
	json_t *dev = json_object_get(record, "device");

	if (num(record, "denied") <= 0)
		return -ENOENT;
	put(m, "op=hid-requests-denied-unrecorded count=%lld", num(record, "denied"));
	if (json_is_integer(json_object_get(dev, "hid_id")))
		put(m, " hid_id=%lld", num(dev, "hid_id"));
	put_json_text(m, "hid_dev", dev, "sysfs");
	*success = false;
	return finish(m);
}

int audit_linux_event(char *buf, size_t size, json_t *record, bool *success)
{
	struct message m = { .buf = buf, .size = size };
	const char *event = str(record, "event");
	json_t *dev = json_object_get(record, "device"), *x = json_object_get(record, "exception");
	json_t *by = json_object_get(record, "granted_by"), *revoker = json_object_get(record, "revoked_by");
	char requests[256] = "";
	size_t i, len = 0;
	json_t *v;
	bool granted;

	if (size)
		buf[0] = '\0';
	if (event && !strcmp(event, "records_suppressed"))
		return over_budget(&m, record, success);
	if (!event || (strcmp(event, "exception_granted") && strcmp(event, "exception_ended")))
		return -ENOENT;
	granted = !strcmp(event, "exception_granted");
	put(&m, "op=%s exception=%lld", granted ? "hid-temporary-allow-granted" :
		"hid-temporary-allow-ended", num(x, "id"));
	if (json_is_integer(json_object_get(dev, "hid_id")))
		put(&m, " hid_id=%lld", num(dev, "hid_id"));
	put_json_text(&m, "hid_dev", dev, "sysfs");
	if (str(dev, "bus") && str(dev, "vendor") && str(dev, "product"))
		put(&m, " hid_dev_id=%s:%s:%s", str(dev, "bus"), str(dev, "vendor"), str(dev, "product"));
	put_json_text(&m, "hid_dev_name", dev, "name");
	put(&m, " duration=%lld", num(x, "duration_s"));
	/* "set_report feature,output_report": hex-encoded, for the space */
	json_array_foreach(json_object_get(x, "requests"), i, v)
		if (json_is_string(v) && len < sizeof(requests))
			len += (size_t)snprintf(requests + len, sizeof(requests) - len, "%s%s",
						len ? "," : "", json_string_value(v));
	put_text(&m, "requests", requests, len < sizeof(requests) ? len : sizeof(requests) - 1);
	put_json_text(&m, "report_ids", x, "report_ids");
	/* Who granted it: the object of the record. */
	put(&m, " opid=%lld ouid=%lld", num(by, "pid"), num(by, "uid"));
	put_json_text(&m, "ocomm", by, "comm");
	if (!granted)
		put_json_text(&m, "reason", record, "reason");
	if (revoker) {
		put(&m, " revoker_pid=%lld revoker_uid=%lld", num(revoker, "pid"), num(revoker, "uid"));
		put_json_text(&m, "revoker_comm", revoker, "comm");
	}
	*success = true;
	return finish(&m);
}

int audit_linux_send(int fd, const char *message, bool success)
{
	/* hostname, address and terminal: none ("" keeps libaudit from
	 * looking for a terminal on standard input). */
	errno = 0;
	if (audit_log_user_message(fd, AUDIT_LINUX_TYPE, message, NULL, NULL, "", success ? 1 : 0) <= 0)
		return errno ? -errno : -EIO;
	return 0;
}
