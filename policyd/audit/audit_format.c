// SPDX-License-Identifier: GPL-2.0-or-later
/* Decision records as JSON lines; see audit_format.h. */
#include "audit_format.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "audit_process.h"
#include "common/util.h"
#include "hid_rules.h"
#include "policy/policy.h"

void audit_line_free(struct audit_line *l)
{
	free(l->buf);
	free(l->processes);
	*l = (struct audit_line){};
}

/* Make room for N more bytes past what the line has. */
static bool grow(struct audit_line *l, size_t n)
{
	size_t cap;
	char *p;

	if (l->error)
		return false;
	if (n > SIZE_MAX / 2 - l->len) {
		l->error = -ENOMEM;
		return false;
	}
	cap = l->cap ? l->cap : 1024;
	while (cap - l->len < n)
		cap *= 2;
	p = realloc(l->buf, cap);
	if (!p) {
		l->error = -ENOMEM;
		return false;
	}
	l->buf = p;
	l->cap = cap;
	return true;
}

/* Inline, so that a piece of known length is a few moves, not a call:
 * a record is written in many small pieces. */
static inline void put(struct audit_line *l, const char *s, size_t n)
{
	if (__builtin_expect(n > l->cap - l->len || l->error, 0) && !grow(l, n))
		return;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

#define PUT_LITERAL(l, s) put((l), (s), sizeof(s) - 1)

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp, min;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and values past Unicode are invalid */
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* The bytes a JSON string holds as they are: printable ASCII but the
 * quote and the backslash (one load a byte instead of four tests). */
static const bool plain_ascii[256] = {
	[0x20 ... 0x21] = true, [0x23 ... 0x5b] = true, [0x5d ... 0x7f] = true,
};

/* A JSON string of the first N bytes of S (fewer if S ends sooner). */
static void put_string(struct audit_line *l, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	PUT_LITERAL(l, "\"");
	while (i < n && u[i]) {
		size_t run = i, seq;
		char esc[8];

		/* copy the longest run that needs no escaping in one go */
		while (run < n && plain_ascii[u[run]])
			run++;
		put(l, s + i, run - i);
		i = run;
		if (i >= n || !u[i])
			break;
		if (u[i] == '"' || u[i] == '\\') {
			esc[0] = '\\';
			esc[1] = (char)u[i];
			put(l, esc, 2);
			i++;
		} else if (u[i] < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", u[i]);
			put(l, esc, 6);
			i++;
		} else if ((seq = utf8_sequence(u + i, strnlen(s + i, n - i))) > 0) {
			put(l, s + i, seq);
			i += seq;
		} else {
			PUT_LITERAL(l, "\\ufffd");
			i++;
		}
	}
	PUT_LITERAL(l, "\"");
}

/* A key, literal, and the colon; with the comma before it unless FIRST. */
#define put_key(l, key, first) \
	((first) ? PUT_LITERAL(l, "\"" key "\":") : PUT_LITERAL(l, ",\"" key "\":"))

/* Numbers are written by hand: printf's machinery was the largest cost
 * of a record. */
static void put_uint(struct audit_line *l, uint64_t v)
{
	char num[20];
	size_t i = sizeof(num);

	do {
		num[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(l, num + i, sizeof(num) - i);
}

static const char hex_digits[] = "0123456789abcdef";

/* V in lowercase hex, at least MIN_DIGITS digits, into OUT; its length. */
static size_t hex(char *out, uint64_t v, unsigned int min_digits)
{
	char tmp[16];
	size_t n = 0;

	do {
		tmp[n++] = hex_digits[v & 0xf];
		v >>= 4;
	} while (v || n < min_digits);
	for (size_t i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

#define put_key_string(l, key, s, n) do { \
	put_key(l, key, false); \
	put_string(l, s, n); \
} while (0)

#define put_key_uint(l, key, v) do { \
	put_key(l, key, false); \
	put_uint(l, v); \
} while (0)

void audit_format_time(char *buf, size_t size, uint64_t realtime_ns)
{
	time_t secs = realtime_ns / 1000000000ULL;
	struct tm tm;

	gmtime_r(&secs, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (unsigned int)(realtime_ns / 1000000ULL % 1000));
}

/* The time as audit_format_time() writes it, quoted; the seconds part is
 * formatted once per second (records come in bursts). */
static void put_time(struct audit_line *l, uint64_t realtime_ns)
{
	uint64_t secs = realtime_ns / 1000000000ULL;
	unsigned int ms = realtime_ns / 1000000ULL % 1000;
	char frac[6] = { '.', (char)('0' + ms / 100), (char)('0' + ms / 10 % 10),
			 (char)('0' + ms % 10), 'Z', '"' };

	if (!l->time_len || secs != l->time_secs) {
		char buf[40];
		int n;

		audit_format_time(buf, sizeof(buf), realtime_ns);
		n = (int)strcspn(buf, ".");
		l->time[0] = '"';
		memcpy(l->time + 1, buf, n);
		l->time_len = n + 1;
		l->time_secs = secs;
	}
	put(l, l->time, l->time_len);
	put(l, frac, sizeof(frac));
}

void audit_plain_text(char *out, size_t size, const char *str, size_t len)
{
	size_t i;

	if (!size)
		return;
	for (i = 0; i + 1 < size && i < len && str[i]; i++)
		out[i] = (unsigned char)str[i] < 0x20 || str[i] == 0x7f ? '?' : str[i];
	out[i] = '\0';
}

static const char *hook_name(uint8_t hook)
{
	switch (hook) {
	case HID_FW_HOOK_HW_REQUEST:
		return "hid_hw_request";
	case HID_FW_HOOK_OUTPUT_REPORT:
		return "hid_hw_output_report";
	case HID_FW_HOOK_DEVICE_EVENT:
		return "hid_device_event";
	}
	return "unknown";
}

const char *audit_request_name(const struct hid_fw_record *rec)
{
	/* The policy language's names (hid-policy.d(5)), so that a record
	 * reads as the rule that decided it. */
	if (rec->hook == HID_FW_HOOK_OUTPUT_REPORT)
		return "output_report";
	if (rec->hook == HID_FW_HOOK_DEVICE_EVENT)
		return "input_event";
	switch (rec->reqtype) {
	case HID_RULES_REQ_GET_REPORT:
		return "get_report";
	case HID_RULES_REQ_SET_REPORT:
		return "set_report";
	case 0x02:
		return "get_idle";
	case 0x03:
		return "get_protocol";
	case 0x0a:
		return "set_idle";
	case 0x0b:
		return "set_protocol";
	}
	return "unknown";
}

const char *audit_report_type_name(uint8_t rtype)
{
	switch (rtype) {
	case HID_RULES_RTYPE_INPUT:
		return "input";
	case HID_RULES_RTYPE_OUTPUT:
		return "output";
	case HID_RULES_RTYPE_FEATURE:
		return "feature";
	}
	return "unknown";
}

#define put_name(l, key, s) do { \
	const char *name_ = (s); \
	put_key_string(l, key, name_, strlen(name_)); \
} while (0)

static void format_device(struct audit_line *l, const struct hid_fw_record *rec,
			  const struct audit_context *ctx)
{
	const struct hid_dev_info *dev = ctx ? ctx->device : NULL;
	char id[4];

	put_key(l, "device", false);
	PUT_LITERAL(l, "{");
	put_key(l, "hid_id", true);
	put_uint(l, rec->hid_id);
	if (!dev) {
		PUT_LITERAL(l, "}");
		return;
	}
	put_key_string(l, "sysfs", dev->sysname, sizeof(dev->sysname));
	put_name(l, "bus", policy_bus_name(dev->bus));
	put_key_string(l, "vendor", id, hex(id, dev->vendor, 4));
	put_key_string(l, "product", id, hex(id, dev->product, 4));
	put_key_string(l, "name", dev->name, sizeof(dev->name));
	PUT_LITERAL(l, "}");
}

static void format_rule(struct audit_line *l, const struct hid_fw_record *rec,
			const struct audit_context *ctx)
{
	put_key(l, "rule", false);
	PUT_LITERAL(l, "{");
	if (rec->rule_index == HID_RULE_INDEX_DEFAULT) {
		put_key(l, "name", true);
		if (rec->flags & HID_FW_REC_NO_RULES)
			PUT_LITERAL(l, "\"(no rules loaded)\"");
		else
			PUT_LITERAL(l, "\"(default)\"");
	} else if (rec->rule_index == HID_RULE_INDEX_UNDECLARED) {
		put_key(l, "name", true);
		PUT_LITERAL(l, "\"" AUDIT_RULE_UNDECLARED "\"");
	} else {
		put_key(l, "index", true);
		put_uint(l, rec->rule_index);
		if (ctx && ctx->rule_name)
			put_name(l, "name", ctx->rule_name);
	}
	if (ctx && ctx->ruleset_name) {
		bool empty = l->len > 0 && l->buf[l->len - 1] == '{';

		put_key(l, "rule_set", empty);
		put_string(l, ctx->ruleset_name, strlen(ctx->ruleset_name));
	}
	PUT_LITERAL(l, "}");
}

/* The executable's path from /proc, where it leads to the file the
 * firewall recorded; without a record of the file, read later. */
static void subject_exe(const struct hid_fw_record *rec, const struct audit_process *proc,
			struct audit_subject *s)
{
	bool ino_same = proc->exe_stat && proc->exe_ino == rec->exe_ino;
	bool dev_same = proc->exe_stat && proc->exe_major == s->exe_major &&
			proc->exe_minor == s->exe_minor;

	if (s->have_exe_file && !ino_same)
		return;	/* another program now: an exec, or the pid reused */
	memcpy(s->exe, proc->exe, proc->exe_len);
	s->exe_len = proc->exe_len;
	s->exe[s->exe_len] = '\0';
	/* Same inode, other device: btrfs subvolumes and overlayfs show
	 * stat(2) another device than the super block's. */
	if (s->exe_len && (!s->have_exe_file || !dev_same))
		s->read_later |= AUDIT_READ_LATER_EXE;
}

/* The cgroup the firewall recorded, by its path now, and the unit that
 * path names. */
static void subject_cgroup(const struct hid_fw_record *rec, struct cgroup_names *names,
			   struct audit_subject *s)
{
	s->cgroup_id = rec->cgroup_id;
	if (cgroup_names_path(names, rec->cgroup_id, s->cgroup, sizeof(s->cgroup)) < 0) {
		s->cgroup[0] = '\0';
		return;
	}
	s->cgroup_len = strlen(s->cgroup);
	s->unit_len = cgroup_unit_of_path(s->cgroup, s->unit, sizeof(s->unit));
}

const char *audit_source_name(const struct hid_fw_record *rec)
{
	if (!rec->source)
		return "kernel";
	return rec->flags & HID_FW_REC_FROM_BPF ? "bpf" : "hidraw";
}

void audit_subject_read(const struct hid_fw_record *rec, struct audit_processes *cache,
			struct audit_subject *s)
{
	bool identity = !(rec->flags & HID_FW_REC_HAVE_UID) || !(rec->flags & HID_FW_REC_HAVE_COMM);
	uint32_t tgid = rec->pid_tgid >> 32;
	_cleanup_free_ struct audit_processes *local = NULL;
	const struct audit_process *proc;

	memset(s, 0, offsetof(struct audit_subject, comm));
	s->comm[0] = s->exe[0] = s->unit[0] = s->cgroup[0] = '\0';
	s->source = audit_source_name(rec);
	s->lent = rec->flags & HID_FW_REC_LENT;
	if (rec->flags & HID_FW_REC_HAVE_UID) {
		s->have_ids = true;
		s->uid = (uint32_t)rec->uid_gid;
		s->gid = rec->uid_gid >> 32;
		s->identity_from = "kernel";
	}
	if (rec->flags & HID_FW_REC_HAVE_COMM) {
		s->comm_len = strnlen(rec->comm, HID_FW_COMM_LEN);
		memcpy(s->comm, rec->comm, s->comm_len);
		s->have_comm = true;
		s->identity_from = "kernel";
	}
	if (rec->sender_flags & HID_FW_SENDER_HAVE_EIDS) {
		s->have_eids = true;
		s->euid = rec->euid;
		s->egid = rec->egid;
	}
	if (rec->sender_flags & HID_FW_SENDER_HAVE_EXE) {
		s->have_exe_file = true;
		s->exe_major = rec->exe_dev >> 20;
		s->exe_minor = rec->exe_dev & 0xfffff;
		s->exe_ino = rec->exe_ino;
	}
	if (!cache && (rec->flags & HID_FW_REC_HAVE_PID ||
		       rec->sender_flags & HID_FW_SENDER_HAVE_CGROUP)) {
		local = calloc(1, sizeof(*local));
		if (!local)
			return;
		cache = local;
	}
	if (rec->sender_flags & HID_FW_SENDER_HAVE_CGROUP)
		subject_cgroup(rec, &cache->cgroups, s);
	if (!(rec->flags & HID_FW_REC_HAVE_PID)) {
		s->comm[s->comm_len] = '\0';
		return;
	}
	s->have_pid = true;
	s->pid = tgid;
	s->tid = (uint32_t)rec->pid_tgid;
	/* What /proc says of the process, read once per batch. */
	proc = audit_process_get(cache, tgid, identity);
	subject_exe(rec, proc, s);
	if (!(rec->sender_flags & HID_FW_SENDER_HAVE_CGROUP) && proc->unit_len) {
		memcpy(s->unit, proc->unit, proc->unit_len);
		s->unit_len = proc->unit_len;
		s->unit[s->unit_len] = '\0';
		s->read_later |= AUDIT_READ_LATER_UNIT;
	}
	/* What the kernel could not tell, read from /proc when the record
	 * arrives: the process may have changed since, or be gone. */
	if (!s->have_ids && proc->have_ids) {
		s->have_ids = true;
		s->uid = proc->uid;
		s->gid = proc->gid;
		s->identity_from = "proc";
		s->read_later |= AUDIT_READ_LATER_IDS;
	}
	if (!s->have_comm && proc->have_comm) {
		s->comm_len = proc->comm_len;
		memcpy(s->comm, proc->comm, s->comm_len);
		s->have_comm = true;
		s->identity_from = "proc";
		s->read_later |= AUDIT_READ_LATER_COMM;
	}
	s->comm[s->comm_len] = '\0';
}

/* The fields of the "process" object read from /proc when the record
 * was read, with nothing the kernel recorded to check them against. */
static void format_read_later(struct audit_line *l, unsigned int read_later)
{
	static const struct {
		unsigned int bit;
		const char *json;
	} names[] = {
		{ AUDIT_READ_LATER_IDS, "\"uid\",\"gid\"" },
		{ AUDIT_READ_LATER_COMM, "\"comm\"" },
		{ AUDIT_READ_LATER_EXE, "\"exe\"" },
		{ AUDIT_READ_LATER_UNIT, "\"unit\"" },
	};
	bool first = true;

	if (!read_later)
		return;
	PUT_LITERAL(l, ",\"read_later\":[");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(read_later & names[i].bit))
			continue;
		if (!first)
			PUT_LITERAL(l, ",");
		put(l, names[i].json, strlen(names[i].json));
		first = false;
	}
	PUT_LITERAL(l, "]");
}

static void format_process(struct audit_line *l, const struct hid_fw_record *rec)
{
	const struct audit_subject *p = &l->subject;
	bool first = true;

	if ((rec->flags & HID_FW_REC_HAVE_PID || rec->sender_flags & HID_FW_SENDER_HAVE_CGROUP) &&
	    !l->processes) {
		l->processes = calloc(1, sizeof(*l->processes));
		if (!l->processes) {
			l->error = -ENOMEM;
			return;
		}
	}
	audit_subject_read(rec, l->processes, &l->subject);
	put_key(l, "process", false);
	PUT_LITERAL(l, "{");
	if (p->have_pid) {
		put_key(l, "pid", true);
		put_uint(l, p->pid);
		put_key_uint(l, "tid", p->tid);
		if (p->exe_len)
			put_key_string(l, "exe", p->exe, p->exe_len);
		first = false;
	}
	if (p->have_exe_file) {
		/* "MAJOR:MINOR", written by hand as the other numbers
		 * (not through snprintf()) */
		put_key(l, "exe_dev", first);
		PUT_LITERAL(l, "\"");
		put_uint(l, p->exe_major);
		PUT_LITERAL(l, ":");
		put_uint(l, p->exe_minor);
		PUT_LITERAL(l, "\"");
		put_key_uint(l, "exe_ino", p->exe_ino);
		first = false;
	}
	if (p->cgroup_id) {
		put_key(l, "cgroup_id", first);
		put_uint(l, p->cgroup_id);
		if (p->cgroup_len)
			put_key_string(l, "cgroup", p->cgroup, p->cgroup_len);
		first = false;
	}
	if (p->unit_len) {
		put_key(l, "unit", first);
		put_string(l, p->unit, p->unit_len);
		first = false;
	}
	if (p->have_ids) {
		put_key(l, "uid", first);
		put_uint(l, p->uid);
		put_key_uint(l, "gid", p->gid);
		first = false;
	}
	if (p->have_eids) {
		put_key(l, "euid", first);
		put_uint(l, p->euid);
		put_key_uint(l, "egid", p->egid);
		first = false;
	}
	if (p->have_comm) {
		put_key(l, "comm", first);
		put_string(l, p->comm, p->comm_len);
		first = false;
	}
	/* Where uid, gid and comm came from: the kernel at the request, or
	 * /proc when the record was read. */
	if (p->identity_from) {
		put_key(l, "identity_from", first);
		put_string(l, p->identity_from, strlen(p->identity_from));
		first = false;
	}
	/* Who made the request, without the kernel address the hook gives
	 * (the hidraw file, the calling program's context). */
	put_key(l, "source", first);
	put_string(l, p->source, strlen(p->source));
	/* An io_uring thread, or credentials put over the task's own: the
	 * ids and comm above need not be the sender's, and no sender's
	 * allow applied. */
	if (p->lent)
		PUT_LITERAL(l, ",\"identity_lent\":true");
	format_read_later(l, p->read_later);
	PUT_LITERAL(l, "}");
}

int audit_format_record(struct audit_line *l, const struct hid_fw_record *rec,
			const struct audit_context *ctx, uint64_t realtime_ns)
{
	char payload[2 * HID_FW_PAYLOAD_BYTES];
	bool enforced = rec->flags & HID_FW_REC_ENFORCED;
	unsigned int plen = rec->payload_len;

	l->len = 0;
	l->error = 0;
	if (plen > HID_FW_PAYLOAD_BYTES)
		plen = HID_FW_PAYLOAD_BYTES;
	for (unsigned int i = 0; i < plen; i++) {
		payload[2 * i] = hex_digits[rec->payload[i] >> 4];
		payload[2 * i + 1] = hex_digits[rec->payload[i] & 0xf];
	}

	PUT_LITERAL(l, "{");
	put_key(l, "time", true);
	put_time(l, realtime_ns);
	l->time_end = l->len;
	PUT_LITERAL(l, ",\"event\":\"decision\"");
	put_name(l, "action", rec->action == HID_RULE_DENY ? "deny" : "allow");
	put_key(l, "enforced", false);
	if (enforced) {
		const char *name = policy_errno_name(rec->err);
		char num[16];

		if (!name) {
			snprintf(num, sizeof(num), "%d", rec->err);
			name = num;
		}
		PUT_LITERAL(l, "true");
		put_name(l, "errno", name);
	} else {
		PUT_LITERAL(l, "false");
	}
	put_name(l, "hook", hook_name(rec->hook));
	put_name(l, "request", audit_request_name(rec));
	put_name(l, "report_type", audit_report_type_name(rec->rtype));
	put_key_uint(l, "report_id", rec->report_id);
	put_key_uint(l, "length", rec->len);
	put_key_string(l, "payload", payload, 2 * plen);
	format_device(l, rec, ctx);
	format_rule(l, rec, ctx);
	format_process(l, rec);
	PUT_LITERAL(l, "}");
	return l->error;
}

int audit_format_repeat(struct audit_line *l, const char *key, size_t key_len,
			const struct audit_span *span)
{
	l->len = 0;
	l->error = 0;
	l->time_end = 0;
	if (key_len < 2 || key[0] != ',' || key[key_len - 1] != '}')
		return -EINVAL;
	PUT_LITERAL(l, "{");
	put_key(l, "time", true);
	put_time(l, span->last_ns);
	l->time_end = l->len;
	put(l, key, key_len - 1);
	put_key_uint(l, "count", span->count);
	put_key(l, "first", false);
	put_time(l, span->first_ns);
	put_key(l, "last", false);
	put_time(l, span->last_ns);
	PUT_LITERAL(l, "}");
	return l->error;
}
