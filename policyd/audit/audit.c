// SPDX-License-Identifier: GPL-2.0-or-later
#include "audit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit_format.h"
#include "audit_process.h"
#include "common/util.h"
#include "hid_rules.h"
#include "policy/policy.h"
#include "say.h"

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

/* The size of the file open at FD, 0 when unknown. */
static uint64_t file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
}

int audit_log_open(struct audit_log *a, const char *path, bool foreground)
{
	memset(a, 0, sizeof(*a));
	a->outlets.linux_fd = -1;
	make_parent_dir(path);
	a->foreground = foreground;
	a->summary_burst = AUDIT_SUMMARY_BURST;
	a->summary_interval_ms = AUDIT_SUMMARY_INTERVAL_MS;
	a->coalesce_ms = AUDIT_COALESCE_MS;
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
	a->bound.size = file_size(a->fd);
	if (!foreground)
		openlog("hid-policyd", LOG_PID | LOG_NDELAY, LOG_DAEMON);
	return 0;
}

static uint64_t timespec_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The clocks, read once per batch (audit_flush() ends one) instead of
 * three times a record. */
static void batch_clocks(struct audit_log *a)
{
	if (a->clocks_read)
		return;
	a->boot_ns = timespec_ns(CLOCK_BOOTTIME);
	a->real_ns = timespec_ns(CLOCK_REALTIME);
	a->mono_ms = timespec_ns(CLOCK_MONOTONIC) / 1000000ULL;
	a->clocks_read = true;
}

/* A CLOCK_BOOTTIME stamp from BPF, as wall-clock time: the wall clock
 * less the stamp's age, both as the batch's first record read them (a
 * stamp past that moment, of a record that came during the batch, is
 * that much later). */
static uint64_t boottime_to_realtime(struct audit_log *a, uint64_t boot_ns)
{
	uint64_t age;

	batch_clocks(a);
	if (boot_ns > a->boot_ns)
		return a->real_ns + (boot_ns - a->boot_ns);
	age = a->boot_ns - boot_ns;
	return a->real_ns > age ? a->real_ns - age : 0;
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
	a->clocks_read = false;
	/* The batch is out: what /proc said of its processes is not
	 * taken for the next one. */
	if (a->line.processes)
		audit_processes_forget(a->line.processes);
	return r;
}

/*
 * Lines are collected and written together when the caller flushes (after
 * each batch the ring buffer hands over) or the buffer fills: one write(2)
 * per batch instead of one per record, each line whole.
 */
static int append_line(struct audit_log *a, const char *line, size_t len)
{
	int r;

	if (a->buf_len + len + 1 > sizeof(a->buf)) {
		r = audit_flush(a);
		if (r < 0)
			return r;
	}
	if (len + 1 > sizeof(a->buf)) {
		/* Larger than the buffer: write it alone. */
		struct iovec iov[2] = {
			{ .iov_base = (void *)line, .iov_len = len },
			{ .iov_base = (void *)"\n", .iov_len = 1 },
		};

		if (writev(a->fd, iov, 2) != (ssize_t)(len + 1)) {
			a->failed++;
			return -EIO;
		}
		a->written++;
		audit_bound_wrote(&a->bound, len + 1);
		return 0;
	}
	memcpy(a->buf + a->buf_len, line, len);
	a->buf[a->buf_len + len] = '\n';
	a->buf_len += len + 1;
	a->written++;
	audit_bound_wrote(&a->bound, len + 1);
	return 0;
}

static void say_summary(struct audit_log *a, const char *line)
{
	if (a->foreground)
		fprintf(stderr, "%s\n", line);
	else
		syslog(LOG_NOTICE, "%s", line);
}

/* May one more summary line go out now? Starts a new interval when the
 * last one is over, reporting what the last one suppressed. */
static bool summary_allowed(struct audit_log *a)
{
	uint64_t now;

	if (a->summary_burst == 0)
		return false;	/* summaries are off */
	batch_clocks(a);
	now = a->mono_ms;
	if (now - a->summary_window_ms >= a->summary_interval_ms || a->summary_window_ms == 0) {
		if (a->summaries_suppressed) {
			char line[160];

			snprintf(line, sizeof(line),
				 "%llu more denial%s not summarized here (rate limit); every one is in the audit log",
				 (unsigned long long)a->summaries_suppressed,
				 a->summaries_suppressed == 1 ? "" : "s");
			say_summary(a, line);
		}
		a->summary_window_ms = now ? now : 1;
		a->summaries_in_window = 0;
		a->summaries_suppressed = 0;
	}
	if (a->summaries_in_window >= a->summary_burst) {
		a->summaries_suppressed++;
		return false;
	}
	a->summaries_in_window++;
	return true;
}

static void summarize_denial(struct audit_log *a, const struct hid_fw_record *rec,
			     const struct audit_context *ctx, const struct audit_span *span)
{
	char comm[HID_FW_COMM_LEN + 1] = "?";
	const char *dev = ctx && ctx->device ? ctx->device->sysname : "?";
	const char *rule = ctx && ctx->rule_name ? ctx->rule_name : "(default)";
	char line[256];

	if (!summary_allowed(a))
		return;
	/* The program names itself: no control characters may reach a log
	 * line, or it could forge lines of its own. */
	if (rec->flags & HID_FW_REC_HAVE_COMM)
		audit_plain_text(comm, sizeof(comm), rec->comm, HID_FW_COMM_LEN);

	/* One line, formatted once, for stderr or syslog. */
	snprintf(line, sizeof(line), "%s %s %s report 0x%02x on %s by pid %u (%s) uid %u: rule %s%s",
		 rec->flags & HID_FW_REC_ENFORCED ? "denied" : "would deny (audit)",
		 audit_request_name(rec), audit_report_type_name(rec->rtype), rec->report_id,
		 dev, (uint32_t)(rec->pid_tgid >> 32), comm, (uint32_t)rec->uid_gid, rule,
		 span ? " (again; count in the audit log)" : "");
	say_summary(a, line);
}

/* A JSON object as a line (adds "time"); NULL without memory. */
static char *json_line(json_t *obj)
{
	char when[48];

	audit_format_time(when, sizeof(when), timespec_ns(CLOCK_REALTIME));
	json_object_set_new(obj, "time", json_string(when));
	return json_dumps(obj, JSON_COMPACT);
}

/* The log reached its reserve (audit_bound.h): say so, in it. */
static void tell_full(struct audit_log *a)
{
	json_t *o = json_pack("{s:s, s:I, s:s}", "event", "audit_log_full",
			      "max_size", (json_int_t)a->bound.max_size, "message",
			      "decisions past each user's first on each device are counted, not written, until the log is rotated");
	_cleanup_free_ char *line = o ? json_line(o) : NULL;

	say(LOG_WARNING, "the audit log %s is near its maximum size (%llu bytes): until it is rotated, only each user's first decision on each device is written, the others are counted",
	    a->path, (unsigned long long)a->bound.max_size);
	if (line)
		append_line(a, line, strlen(line));
	else
		a->failed++;
	if (o)
		audit_outlets_json(&a->outlets, o);
	json_decref(o);
}

/* Write L, a decision of SUBJECT's standing for COUNT of them, as far as
 * the size bound lets: what it does not, it counts. SUBJECT's uid is the
 * kernel's or, where the kernel gave none, /proc's. */
static int write_decision(struct audit_log *a, const struct audit_line *l,
			  const struct hid_fw_record *rec, const struct audit_context *ctx,
			  const struct audit_subject *subject, uint64_t count)
{
	const char *sysname = ctx && ctx->device ? ctx->device->sysname : NULL;
	uint32_t uid = subject->have_ids ? subject->uid : AUDIT_BOUND_NO_UID;

	switch (audit_bound_decision(&a->bound, l->len + 1, rec->hid_id, uid, sysname,
				     rec->action == HID_RULE_DENY, count)) {
	case AUDIT_ROOM_COUNTED:
		return 0;
	case AUDIT_ROOM_WRITE_FULL:
		tell_full(a);
		break;
	case AUDIT_ROOM_WRITE:
		break;
	}
	return append_line(a, l->buf, l->len);
}

/* Write the record of the repeats of the last decision, if any. */
static void tell_repeats(struct audit_log *a)
{
	struct audit_repeat *rp = &a->repeat;
	struct audit_context ctx;

	if (!rp->span.count)
		return;
	audit_repeat_context(rp, &ctx);
	if (audit_format_repeat(&rp->line, rp->key, rp->key_len, &rp->span) < 0)
		a->failed++;
	else
		write_decision(a, &rp->line, &rp->rec, &ctx, &rp->subject, rp->span.count);
	audit_outlets_record(&a->outlets, &rp->rec, &ctx, &rp->subject, &rp->span);
	if (rp->rec.action == HID_RULE_DENY)
		summarize_denial(a, &rp->rec, &ctx, &rp->span);
	audit_repeat_told(rp);
}

int audit_tick(struct audit_log *a)
{
	uint64_t now = timespec_ns(CLOCK_MONOTONIC) / 1000000ULL;
	uint64_t since = a->repeat.since_ms;

	if (!a->repeat.span.count)
		return -1;
	if (now - since >= a->coalesce_ms) {
		tell_repeats(a);
		return -1;
	}
	return (int)(a->coalesce_ms - (now - since));
}

int audit_write_record(struct audit_log *a, const struct hid_fw_record *rec,
		       const struct audit_context *ctx)
{
	uint64_t when = boottime_to_realtime(a, rec->time_ns);
	int r = audit_format_record(&a->line, rec, ctx, when);
	const char *key;
	size_t key_len;

	if (r < 0) {
		a->failed++;
		return r;
	}
	key = a->line.buf + a->line.time_end;
	key_len = a->line.len - a->line.time_end;
	if (a->coalesce_ms && audit_repeat_same(&a->repeat, key, key_len)) {
		audit_repeat_add(&a->repeat, rec, ctx, &a->line.subject, when, a->mono_ms);
		return 0;
	}
	tell_repeats(a);
	r = write_decision(a, &a->line, rec, ctx, &a->line.subject, 1);
	/* Without memory for the key, the next repeat is a line of its own. */
	if (a->coalesce_ms)
		audit_repeat_set(&a->repeat, key, key_len);
	audit_outlets_record(&a->outlets, rec, ctx, &a->line.subject, NULL);
	if (rec->action == HID_RULE_DENY)
		summarize_denial(a, rec, ctx, NULL);
	return r;
}

int audit_write_json(struct audit_log *a, json_t *obj)
{
	_cleanup_free_ char *line = NULL;
	int r = 0;

	tell_repeats(a);
	line = json_line(obj);
	if (!line) {
		a->failed++;
		return -ENOMEM;
	}
	switch (audit_bound_event(&a->bound, strlen(line) + 1)) {
	case AUDIT_ROOM_COUNTED:
		break;
	case AUDIT_ROOM_WRITE_FULL:
		tell_full(a);
		/* fall through */
	case AUDIT_ROOM_WRITE:
		r = append_line(a, line, strlen(line));
		break;
	}
	audit_outlets_json(&a->outlets, obj);
	return r < 0 ? r : audit_flush(a);
}

/* The records the size bound counted, as one record (in the file or
 * not: FORCE writes it past the bound, when the daemon stops). */
static void tell_counts(struct audit_log *a, bool force, uint64_t new_size)
{
	uint64_t total = 0;
	json_t *o;

	if (!audit_bound_has_counts(&a->bound)) {
		audit_bound_reset(&a->bound, new_size);
		return;
	}
	o = audit_bound_counts_json(&a->bound, &total);
	say(LOG_WARNING, "%llu audit record%s not written while the log %s was at its maximum size; counted per device in a records_not_written record",
	    (unsigned long long)total, total == 1 ? "" : "s", a->path);
	audit_bound_reset(&a->bound, new_size);
	if (!o) {
		a->failed++;
		return;
	}
	if (force) {
		_cleanup_free_ char *line = json_line(o);

		if (line)
			append_line(a, line, strlen(line));
		else
			a->failed++;
		audit_outlets_json(&a->outlets, o);
	} else {
		audit_write_json(a, o);
	}
	json_decref(o);
}

int audit_reopen(struct audit_log *a)
{
	int fd;

	tell_repeats(a);
	audit_flush(a);
	fd = open_log(a->path);

	if (fd < 0)
		return fd;
	close(a->fd);
	a->fd = fd;
	tell_counts(a, false, file_size(fd));
	audit_flush(a);
	return 0;
}

void audit_log_close(struct audit_log *a)
{
	if (a->fd >= 0) {
		tell_repeats(a);
		tell_counts(a, true, 0);
		audit_flush(a);
		close(a->fd);
	}
	a->fd = -1;
	audit_outlets_close(&a->outlets);
	free(a->path);
	a->path = NULL;
	audit_line_free(&a->line);
	audit_repeat_free(&a->repeat);
	audit_bound_free(&a->bound);
}

/* The audit log holds what users did and which programs they ran: root's
 * alone (auditors read it through "hid-policyctl log"). */
int audit_log_secure(struct audit_log *a)
{
	struct stat st;

	if (fstat(a->fd, &st) < 0)
		return -errno;
	if (st.st_uid != geteuid()) {
		say(LOG_ERR, "the audit log %s belongs to uid %u, not to the daemon (uid %u): refusing to write it",
		    a->path, (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if ((st.st_mode & 07777) != 0600) {
		if (fchmod(a->fd, 0600) < 0) {
			int r = -errno;

			say(LOG_ERR, "the audit log %s has mode %04o and cannot be changed to 0600: %s",
			    a->path, (unsigned int)(st.st_mode & 07777), strerror(-r));
			return r;
		}
		say(LOG_WARNING, "the audit log %s had mode %04o; changed to 0600", a->path,
		    (unsigned int)(st.st_mode & 07777));
	}
	return 0;
}
