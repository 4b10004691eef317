// SPDX-License-Identifier: GPL-2.0-or-later
#include "audit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "hid_rules.h"
#include "policy.h"
#include "util.h"

static int open_log(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	return fd < 0 ? -errno : fd;
}

/* Create the log's directory (not its parents) when it is missing. */
static void make_parent_dir(const char *path)
{
	_cleanup_free_ char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;

	if (!slash || slash == dir)
		return;
	*slash = '\0';
	mkdir(dir, 0750);
}

int audit_open(struct audit_log *a, const char *path, bool foreground)
{
	memset(a, 0, sizeof(*a));
	make_parent_dir(path);
	a->foreground = foreground;
	a->path = strdup(path);
	if (!a->path)
		return -ENOMEM;
	a->fd = open_log(path);
	if (a->fd < 0) {
		int r = a->fd;

		free(a->path);
		a->path = NULL;
		return r;
	}
	if (!foreground)
		openlog("hid-policyd", LOG_PID | LOG_NDELAY, LOG_DAEMON);
	return 0;
}

int audit_reopen(struct audit_log *a)
{
	int fd;

	audit_flush(a);
	fd = open_log(a->path);

	if (fd < 0)
		return fd;
	close(a->fd);
	a->fd = fd;
	return 0;
}

void audit_close(struct audit_log *a)
{
	if (a->fd >= 0) {
		audit_flush(a);
		close(a->fd);
	}
	a->fd = -1;
	free(a->path);
	a->path = NULL;
}

/* "2026-12-03T06:29:40.123Z" for a CLOCK_REALTIME time in nanoseconds. */
static void format_time(char *buf, size_t size, uint64_t realtime_ns)
{
	time_t secs = realtime_ns / 1000000000ULL;
	struct tm tm;
	char base[32];

	gmtime_r(&secs, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%s.%03uZ", base, (unsigned int)(realtime_ns / 1000000ULL % 1000));
}

static uint64_t timespec_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A CLOCK_BOOTTIME stamp from BPF, as wall-clock time. */
static uint64_t boottime_to_realtime(uint64_t boot_ns)
{
	uint64_t now_boot = timespec_ns(CLOCK_BOOTTIME);
	uint64_t now_real = timespec_ns(CLOCK_REALTIME);
	uint64_t age = now_boot > boot_ns ? now_boot - boot_ns : 0;

	return now_real > age ? now_real - age : 0;
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

static const char *request_name(const struct hid_fw_record *rec)
{
	if (rec->hook == HID_FW_HOOK_OUTPUT_REPORT)
		return "output";
	if (rec->hook == HID_FW_HOOK_DEVICE_EVENT)
		return "input";
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

static const char *report_type_name(uint8_t rtype)
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

/* The executable of a process, if it still exists; NULL otherwise. */
static char *process_exe(uint32_t tgid)
{
	char link[64], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%u/exe", tgid);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	return strdup(target);
}

static int set_new(json_t *obj, const char *key, json_t *value)
{
	return value ? json_object_set_new(obj, key, value) : -1;
}

json_t *audit_record_json(const struct hid_fw_record *rec, const struct audit_context *ctx)
{
	char when[48], payload[2 * HID_FW_PAYLOAD_BYTES + 1], comm[HID_FW_COMM_LEN + 1];
	bool denied = rec->action == HID_RULE_DENY;
	json_t *o = json_object(), *dev, *rule, *proc;
	unsigned int plen = rec->payload_len;

	if (!o)
		return NULL;
	format_time(when, sizeof(when), boottime_to_realtime(rec->time_ns));
	if (plen > HID_FW_PAYLOAD_BYTES)
		plen = HID_FW_PAYLOAD_BYTES;
	for (unsigned int i = 0; i < plen; i++)
		snprintf(payload + 2 * i, 3, "%02x", rec->payload[i]);
	payload[2 * plen] = '\0';

	set_new(o, "time", json_string(when));
	set_new(o, "event", json_string("decision"));
	set_new(o, "action", json_string(denied ? "deny" : "allow"));
	set_new(o, "enforced", json_boolean(rec->flags & HID_FW_REC_ENFORCED));
	if (rec->flags & HID_FW_REC_ENFORCED)
		set_new(o, "errno", json_string(policy_errno_name(rec->err)));
	set_new(o, "hook", json_string(hook_name(rec->hook)));
	set_new(o, "request", json_string(request_name(rec)));
	set_new(o, "report_type", json_string(report_type_name(rec->rtype)));
	set_new(o, "report_id", json_integer(rec->report_id));
	set_new(o, "length", json_integer(rec->len));
	set_new(o, "payload", json_string(payload));

	dev = json_object();
	set_new(dev, "hid_id", json_integer(rec->hid_id));
	if (ctx && ctx->device) {
		set_new(dev, "sysfs", json_string(ctx->device->sysname));
		set_new(dev, "bus", json_string(policy_bus_name(ctx->device->bus)));
		set_new(dev, "vendor", json_sprintf("%04x", ctx->device->vendor));
		set_new(dev, "product", json_sprintf("%04x", ctx->device->product));
		set_new(dev, "name", json_string(ctx->device->name));
	}
	set_new(o, "device", dev);

	rule = json_object();
	if (rec->rule_index == HID_RULE_INDEX_DEFAULT) {
		set_new(rule, "name", json_string(rec->flags & HID_FW_REC_NO_RULES ?
						  "(no rules loaded)" : "(default)"));
	} else {
		set_new(rule, "index", json_integer(rec->rule_index));
		if (ctx && ctx->rule_name)
			set_new(rule, "name", json_string(ctx->rule_name));
	}
	if (ctx && ctx->ruleset_name)
		set_new(rule, "rule_set", json_string(ctx->ruleset_name));
	set_new(o, "rule", rule);

	proc = json_object();
	if (rec->flags & HID_FW_REC_HAVE_PID) {
		uint32_t tgid = rec->pid_tgid >> 32;
		_cleanup_free_ char *exe = process_exe(tgid);

		set_new(proc, "pid", json_integer(tgid));
		set_new(proc, "tid", json_integer((uint32_t)rec->pid_tgid));
		if (exe)
			set_new(proc, "exe", json_string(exe));
	}
	if (rec->flags & HID_FW_REC_HAVE_UID) {
		set_new(proc, "uid", json_integer((uint32_t)rec->uid_gid));
		set_new(proc, "gid", json_integer(rec->uid_gid >> 32));
	}
	if (rec->flags & HID_FW_REC_HAVE_COMM) {
		memcpy(comm, rec->comm, HID_FW_COMM_LEN);
		comm[HID_FW_COMM_LEN] = '\0';
		set_new(proc, "comm", json_string(comm));
	}
	set_new(proc, "source", json_sprintf("%#llx", (unsigned long long)rec->source));
	set_new(o, "process", proc);
	return o;
}

/* Write out what is buffered; on failure the records are lost and counted. */
int audit_flush(struct audit_log *a)
{
	size_t done = 0;
	int r = 0;

	while (done < a->buf_len) {
		ssize_t n = write(a->fd, a->buf + done, a->buf_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		done += n;
	}
	if (r < 0) {
		/* Lines not fully written: count each as failed. */
		for (size_t i = done; i < a->buf_len; i++)
			if (a->buf[i] == '\n') {
				a->failed++;
				a->written--;
			}
	}
	a->buf_len = 0;
	return r;
}

/*
 * Lines are collected and written together when the caller flushes (after
 * each batch the ring buffer hands over) or the buffer fills: one write(2)
 * per batch instead of one per record, each line whole.
 */
static int append_line(struct audit_log *a, json_t *obj)
{
	_cleanup_free_ char *line = json_dumps(obj, JSON_COMPACT);
	size_t len;
	int r;

	if (!line) {
		a->failed++;
		return -ENOMEM;
	}
	len = strlen(line);
	if (a->buf_len + len + 1 > sizeof(a->buf)) {
		r = audit_flush(a);
		if (r < 0)
			return r;
	}
	if (len + 1 > sizeof(a->buf)) {
		/* Larger than the buffer: write it alone. */
		line[len] = '\n';
		if (write(a->fd, line, len + 1) != (ssize_t)(len + 1)) {
			a->failed++;
			return -EIO;
		}
		a->written++;
		return 0;
	}
	memcpy(a->buf + a->buf_len, line, len);
	a->buf[a->buf_len + len] = '\n';
	a->buf_len += len + 1;
	a->written++;
	return 0;
}

static void summarize_denial(struct audit_log *a, const struct hid_fw_record *rec,
			     const struct audit_context *ctx)
{
	char comm[HID_FW_COMM_LEN + 1] = "?";
	const char *dev = ctx && ctx->device ? ctx->device->sysname : "?";
	const char *rule = ctx && ctx->rule_name ? ctx->rule_name : "(default)";
	char line[256];

	if (rec->flags & HID_FW_REC_HAVE_COMM) {
		memcpy(comm, rec->comm, HID_FW_COMM_LEN);
		comm[HID_FW_COMM_LEN] = '\0';
	}

	/* One line, formatted once, for stderr or syslog. */
	snprintf(line, sizeof(line), "%s %s %s report 0x%02x on %s by pid %u (%s) uid %u: rule %s",
		 rec->flags & HID_FW_REC_ENFORCED ? "denied" : "would deny (audit)",
		 request_name(rec), report_type_name(rec->rtype), rec->report_id,
		 dev, (uint32_t)(rec->pid_tgid >> 32), comm, (uint32_t)rec->uid_gid, rule);
	if (a->foreground)
		fprintf(stderr, "%s\n", line);
	else
		syslog(LOG_NOTICE, "%s", line);
}

int audit_write_record(struct audit_log *a, const struct hid_fw_record *rec,
		       const struct audit_context *ctx)
{
	json_t *obj = audit_record_json(rec, ctx);
	int r;

	if (!obj) {
		a->failed++;
		return -ENOMEM;
	}
	r = append_line(a, obj);
	json_decref(obj);
	if (rec->action == HID_RULE_DENY)
		summarize_denial(a, rec, ctx);
	return r;
}

int audit_write_json(struct audit_log *a, json_t *obj)
{
	char when[48];
	int r;

	format_time(when, sizeof(when), timespec_ns(CLOCK_REALTIME));
	json_object_set_new(obj, "time", json_string(when));
	r = append_line(a, obj);
	return r < 0 ? r : audit_flush(a);
}
