// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The audit log's record lines and denial summaries (host): every line
 * parses as JSON and carries the record's fields, strings a program or a
 * device chose are escaped (never breaking or forging a line), and the
 * syslog/stderr summaries are rate-limited while the log keeps everything.
 */
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/audit_format.h"
#include "audit/cgroup_names.h"
#include "audit/records.h"
#include "harness.h"
#include "hid_rules.h"
#include "json_path.h"

/* 2026-12-03T06:29:40.123Z */
#define WHEN_NS 1796279380123000000ULL

static struct hid_fw_record deny_record(void)
{
	struct hid_fw_record rec = {
		.source = 0xffff888004a1b000ULL,
		.pid_tgid = (uint64_t)4242 << 32 | 4243,
		.uid_gid = (uint64_t)100 << 32 | 1000,
		.hid_id = 7,
		.rule_index = 3,
		.len = 64,
		.err = EPERM,
		.hook = HID_FW_HOOK_HW_REQUEST,
		.reqtype = HID_RULES_REQ_SET_REPORT,
		.rtype = HID_RULES_RTYPE_FEATURE,
		.report_id = 0xf4,
		.action = HID_RULE_DENY,
		.flags = HID_FW_REC_ENFORCED | HID_FW_REC_HAVE_PID | HID_FW_REC_HAVE_UID |
			 HID_FW_REC_HAVE_COMM,
		.payload_len = 3,
		.payload = { 0xf4, 0x0a, 0xff },
	};

	memcpy(rec.comm, "fw-attacker", 11);
	return rec;
}

static const struct hid_dev_info dualsense = {
	.sysname = "0003:054C:0CE6.0007",
	.hid_id = 7,
	.bus = 3,
	.vendor = 0x054c,
	.product = 0x0ce6,
	.name = "Sony Interactive Entertainment DualSense Wireless Controller",
};

static json_t *format(const struct hid_fw_record *rec, const struct audit_context *ctx)
{
	struct audit_line line = {};
	json_error_t err;
	json_t *o;

	CHECK_OK(audit_format_record(&line, rec, ctx, WHEN_NS));
	CHECK(!memchr(line.buf, '\n', line.len), "the line holds a newline");
	o = json_loadb(line.buf, line.len, 0, &err);
	CHECK(o, "line does not parse (%s): %.*s", err.text, (int)line.len, line.buf);
	audit_line_free(&line);
	return o;
}

static void test_decision_line_holds_every_field(void)
{
	const struct audit_context ctx = {
		.device = &dualsense, .rule_name = "dualsense-deny-firmware-update",
		.ruleset_name = "sony-dualsense",
	};
	struct hid_fw_record rec = deny_record();
	json_t *o = format(&rec, &ctx);

	CHECK(!strcmp(json_path_str(o, "time"), "2026-12-03T06:29:40.123Z"), "time %s", json_path_str(o, "time"));
	CHECK(!strcmp(json_path_str(o, "event"), "decision"), "event");
	CHECK(!strcmp(json_path_str(o, "action"), "deny"), "action");
	CHECK(json_is_true(json_object_get(o, "enforced")), "enforced");
	CHECK(!strcmp(json_path_str(o, "errno"), "EPERM"), "errno %s", json_path_str(o, "errno"));
	CHECK(!strcmp(json_path_str(o, "hook"), "hid_hw_request"), "hook");
	CHECK(!strcmp(json_path_str(o, "request"), "set_report"), "request");
	CHECK(!strcmp(json_path_str(o, "report_type"), "feature"), "report_type");
	CHECK_EQ(json_path_int(o, "report_id"), 0xf4);
	CHECK_EQ(json_path_int(o, "length"), 64);
	CHECK(!strcmp(json_path_str(o, "payload"), "f40aff"), "payload %s", json_path_str(o, "payload"));
	CHECK_EQ(json_path_int(o, "device.hid_id"), 7);
	CHECK(!strcmp(json_path_str(o, "device.sysfs"), "0003:054C:0CE6.0007"), "sysfs");
	CHECK(!strcmp(json_path_str(o, "device.bus"), "usb"), "bus %s", json_path_str(o, "device.bus"));
	CHECK(!strcmp(json_path_str(o, "device.vendor"), "054c"), "vendor");
	CHECK(!strcmp(json_path_str(o, "device.product"), "0ce6"), "product");
	CHECK(!strcmp(json_path_str(o, "device.name"), dualsense.name), "name");
	CHECK_EQ(json_path_int(o, "rule.index"), 3);
	CHECK(!strcmp(json_path_str(o, "rule.name"), "dualsense-deny-firmware-update"), "rule name");
	CHECK(!strcmp(json_path_str(o, "rule.rule_set"), "sony-dualsense"), "rule set");
	CHECK_EQ(json_path_int(o, "process.pid"), 4242);
	CHECK_EQ(json_path_int(o, "process.tid"), 4243);
	CHECK_EQ(json_path_int(o, "process.uid"), 1000);
	CHECK_EQ(json_path_int(o, "process.gid"), 100);
	CHECK(!strcmp(json_path_str(o, "process.comm"), "fw-attacker"), "comm");
	/* No kernel address (the hidraw file) leaves the daemon. */
	CHECK(!strcmp(json_path_str(o, "process.source"), "hidraw"), "source %s",
	      json_path_str(o, "process.source"));
	CHECK(!strcmp(json_path_str(o, "process.identity_from"), "kernel"), "identity_from %s",
	      json_path_str(o, "process.identity_from"));
	{
		char *text = json_dumps(o, 0);

		CHECK(text && !strstr(text, "ffff888004a1b000"), "a kernel address in the record");
		free(text);
	}
	json_decref(o);
}

/* Upstream kernels give the firewall the pid alone: uid, gid and comm
 * come from /proc when the record is read, and the record says so. */
static void test_identity_the_kernel_did_not_give_is_read_from_proc(void)
{
	struct hid_fw_record rec = deny_record();
	char comm[32] = "";
	json_t *o;
	FILE *f = fopen("/proc/self/comm", "r");

	CHECK(f && fgets(comm, sizeof(comm), f), "cannot read /proc/self/comm");
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	rec.flags = HID_FW_REC_ENFORCED | HID_FW_REC_HAVE_PID;
	rec.pid_tgid = (uint64_t)getpid() << 32 | (uint32_t)getpid();
	o = format(&rec, NULL);
	CHECK_EQ(json_path_int(o, "process.uid"), (long long)getuid());
	CHECK_EQ(json_path_int(o, "process.gid"), (long long)getgid());
	CHECK(!strcmp(json_path_str(o, "process.comm"), comm), "comm %s, not %s",
	      json_path_str(o, "process.comm"), comm);
	CHECK(!strcmp(json_path_str(o, "process.identity_from"), "proc"), "identity_from");
	CHECK(json_path_str(o, "process.exe")[0] == '/', "exe");
	/* and every field read so is marked as read later */
	CHECK_EQ(json_array_size(json_path(o, "process.read_later")), 4);
	CHECK(!strcmp(json_string_value(json_array_get(json_path(o, "process.read_later"), 0)), "uid"),
	      "read_later[0]");
	CHECK(!strcmp(json_string_value(json_array_get(json_path(o, "process.read_later"), 3)), "exe"),
	      "read_later[3]");
	json_decref(o);
}

/* A record names the executable the kernel recorded: the path /proc shows
 * now is given only when it leads to that file (device and inode), and is
 * then not marked as read later; when the process runs another file now
 * (it has run exec, or its pid is another's), the record gives the
 * recorded device and inode and no path. */
static void test_a_record_names_the_executable_the_kernel_recorded(void)
{
	struct hid_fw_record rec = deny_record();
	struct stat st;
	char dev[32];
	json_t *o;

	CHECK_OK(stat("/proc/self/exe", &st));
	rec.pid_tgid = (uint64_t)getpid() << 32 | (uint32_t)getpid();
	rec.sender_flags = HID_FW_SENDER_HAVE_EXE | HID_FW_SENDER_HAVE_EIDS;
	rec.exe_dev = major(st.st_dev) << 20 | minor(st.st_dev);
	rec.exe_ino = st.st_ino;
	rec.euid = 0;
	rec.egid = 5;
	snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
	o = format(&rec, NULL);
	CHECK(json_path_str(o, "process.exe")[0] == '/', "exe");
	CHECK(!strcmp(json_path_str(o, "process.exe_dev"), dev), "exe_dev %s",
	      json_path_str(o, "process.exe_dev"));
	CHECK_EQ(json_path_int(o, "process.exe_ino"), (long long)st.st_ino);
	CHECK_EQ(json_path_int(o, "process.euid"), 0);
	CHECK_EQ(json_path_int(o, "process.egid"), 5);
	CHECK(!json_path(o, "process.read_later"), "read_later");
	json_decref(o);

	rec.exe_ino = st.st_ino + 1;	/* another file: exec'd since */
	o = format(&rec, NULL);
	CHECK(!json_path(o, "process.exe"), "exe of another file: %s", json_path_str(o, "process.exe"));
	CHECK_EQ(json_path_int(o, "process.exe_ino"), (long long)st.st_ino + 1);
	json_decref(o);
}

/* A firewall adopted from a run before the sender fields writes shorter
 * records: they are read with those fields unknown, not dropped; a record
 * shorter still is refused. */
static void test_a_record_of_an_earlier_firewall_is_read_without_sender_fields(void)
{
	struct hid_fw_record rec = deny_record(), out;
	size_t earlier = offsetof(struct hid_fw_record, euid);
	unsigned char buf[sizeof(rec)];

	memset(buf, 0xa5, sizeof(buf));
	memcpy(buf, &rec, earlier);
	CHECK(records_decode(buf, earlier, &out), "a record of %zu bytes is refused", earlier);
	CHECK(!memcmp(&out, &rec, earlier), "fields before the sender's changed");
	CHECK_EQ(out.sender_flags, 0);
	CHECK_EQ(out.cgroup_id, 0);
	CHECK(!records_decode(buf, earlier - 1, &out), "a truncated record is read");
	CHECK(records_decode(&rec, sizeof(rec), &out), "a whole record is refused");
	CHECK(!memcmp(&out, &rec, sizeof(rec)), "a whole record changed");
}

/* The unit of a cgroup is named only where systemd alone could have made
 * the path: slices from the root, then a service or scope. A user's own
 * cgroup named fwupd.service, in their session's scope or below their
 * user manager, is not fwupd's. */
static void test_a_unit_is_named_only_from_a_path_systemd_made(void)
{
	static const struct {
		const char *path, *unit;
	} cases[] = {
		{ "/system.slice/fwupd.service", "fwupd.service" },
		{ "/system.slice/fwupd.service/helper", "fwupd.service" },
		{ "/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service" },
		{ "/init.scope", "init.scope" },
		{ "/user.slice/user-1000.slice/session-2.scope", "session-2.scope" },
		{ "/user.slice/user-1000.slice/session-2.scope/fwupd.service", "session-2.scope" },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/fwupd.service",
		  "user@1000.service" },
		{ "/fwupd", "" },
		{ "/my/fwupd.service", "" },
		{ "/", "" },
		{ "", "" },
	};
	char unit[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n = cgroup_unit_of_path(cases[i].path, unit, sizeof(unit));

		if (!n)
			unit[0] = '\0';
		CHECK(n == strlen(cases[i].unit) && !strcmp(unit, cases[i].unit),
		      "%s: \"%s\", not \"%s\"", cases[i].path, n ? unit : "", cases[i].unit);
	}
	CHECK_EQ(cgroup_unit_of_path("/system.slice/fwupd.service", unit, 13), 0);
}

static void test_default_decision_without_process_or_device(void)
{
	struct hid_fw_record rec = deny_record();
	json_t *o;

	rec.flags = HID_FW_REC_NO_RULES;	/* audit mode, nothing known */
	rec.rule_index = HID_RULE_INDEX_DEFAULT;
	rec.action = HID_RULE_ALLOW;
	rec.payload_len = 0;
	o = format(&rec, NULL);
	CHECK(!strcmp(json_path_str(o, "action"), "allow"), "action");
	CHECK(json_is_false(json_object_get(o, "enforced")), "enforced");
	CHECK(!json_object_get(o, "errno"), "errno without enforcement");
	CHECK(!strcmp(json_path_str(o, "payload"), ""), "payload");
	CHECK(!strcmp(json_path_str(o, "rule.name"), "(no rules loaded)"), "rule name");
	CHECK_EQ(json_object_size(json_object_get(o, "device")), 1);
	CHECK_EQ(json_object_size(json_object_get(o, "process")), 1);	/* source */
	json_decref(o);
}

static void test_hostile_strings_are_escaped_and_kept(void)
{
	/* A program names itself with quotes, a backslash, a newline, a
	 * control character and bytes that are not UTF-8; a device does
	 * the same with its name. Both stay in the record, escaped. */
	static const char comm[HID_FW_COMM_LEN] = "a\"b\\c\n}\x01\xff\xc3\xa9";
	struct hid_dev_info dev = dualsense;
	const struct audit_context ctx = { .device = &dev };
	struct hid_fw_record rec = deny_record();
	json_t *o;

	memcpy(rec.comm, comm, sizeof(comm));
	snprintf(dev.name, sizeof(dev.name), "pad\r\n{\"forged\":1}\xed\xa0\x80\xe2\x82");
	o = format(&rec, &ctx);
	CHECK(!strcmp(json_path_str(o, "process.comm"), "a\"b\\c\n}\x01\xef\xbf\xbd\xc3\xa9"),
	      "comm \"%s\"", json_path_str(o, "process.comm"));
	/* a surrogate (ED A0 80) and a cut sequence (E2 82) are not UTF-8 */
	CHECK(!strcmp(json_path_str(o, "device.name"),
		      "pad\r\n{\"forged\":1}\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"),
	      "name \"%s\"", json_path_str(o, "device.name"));
	CHECK(!json_object_get(o, "forged"), "the name forged a key");
	json_decref(o);
}

static void test_comm_of_full_length_is_not_read_past(void)
{
	struct hid_fw_record rec = deny_record();
	json_t *o;

	memset(rec.comm, 'x', sizeof(rec.comm));	/* no terminating NUL */
	rec.payload[0] = 'y';
	o = format(&rec, NULL);
	CHECK_EQ(strlen(json_path_str(o, "process.comm")), HID_FW_COMM_LEN);
	json_decref(o);
}

/* Count lines of PATH, and whether any contains TEXT. */
static size_t count_lines(const char *path, const char *text, size_t *matching)
{
	char line[1024];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	CHECK(f, "%s: %m", path);
	*matching = 0;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (text && strstr(line, text))
			(*matching)++;
	}
	fclose(f);
	return n;
}

#define PATH_LEN 64

/* Open A on a log in a new directory under /tmp, with this process's
 * stderr (where summaries go) moved to a file beside it. LOG and ERR
 * (PATH_LEN bytes each) get the two paths; returns the stderr file's fd
 * (read and write). */
static int open_audit_with_stderr(struct audit_log *a, char *log, char *err)
{
	char dir[] = "/tmp/test-audit.XXXXXX";
	int fd;

	CHECK(mkdtemp(dir), "mkdtemp: %m");
	snprintf(log, PATH_LEN, "%s/audit.jsonl", dir);
	snprintf(err, PATH_LEN, "%s/stderr", dir);
	fd = open(err, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK_OK(fd);
	CHECK_OK(dup2(fd, STDERR_FILENO));
	CHECK_OK(audit_log_open(a, log, true));
	return fd;
}

static void test_summaries_are_rate_limited_and_the_log_keeps_all(void)
{
	char log[PATH_LEN], err[PATH_LEN];
	const struct audit_context ctx = { .device = &dualsense, .rule_name = "r" };
	struct hid_fw_record rec = deny_record();
	struct audit_log a;
	size_t lines, said;

	open_audit_with_stderr(&a, log, err);
	a.summary_burst = 5;
	a.summary_interval_ms = 300;

	/* 50 refusals, each of its own payload (repeats would be coalesced) */
	for (int i = 0; i < 50; i++) {
		rec.payload[1] = (uint8_t)i;
		CHECK_OK(audit_write_record(&a, &rec, &ctx));
	}
	CHECK_OK(audit_flush(&a));
	CHECK_EQ(count_lines(log, NULL, &said), 50);
	lines = count_lines(err, "denied set_report feature report 0xf4", &said);
	CHECK_EQ(lines, 5);
	CHECK_EQ(said, 5);

	/* The next interval starts by saying what the last one held back. */
	usleep(400 * 1000);
	rec.payload[1] = 50;
	CHECK_OK(audit_write_record(&a, &rec, &ctx));
	CHECK_OK(audit_flush(&a));
	CHECK_EQ(count_lines(log, NULL, &said), 51);
	lines = count_lines(err, "45 more denials not summarized", &said);
	CHECK_EQ(said, 1);
	CHECK_EQ(lines, 7);
	audit_log_close(&a);
}

static void test_summary_line_has_no_control_characters(void)
{
	char log[PATH_LEN], err[PATH_LEN], text[512];
	struct hid_fw_record rec = deny_record();
	struct audit_log a;
	ssize_t n;
	int fd;

	fd = open_audit_with_stderr(&a, log, err);
	memcpy(rec.comm, "x\nFORGED\x1b[2J", 13);
	CHECK_OK(audit_write_record(&a, &rec, NULL));
	audit_log_close(&a);

	n = pread(fd, text, sizeof(text) - 1, 0);
	CHECK(n > 0, "nothing said");
	text[n] = '\0';
	CHECK(strchr(text, '\n') == text + n - 1, "summary is not one line: %s", text);
	CHECK(!strchr(text, '\x1b'), "escape character reached the summary");
	CHECK(strstr(text, "(x?FORGED?[2J)"), "comm not shown sanitized: %s", text);
}

/* Every line of PATH, parsed, as an array. */
static json_t *log_records(const char *path)
{
	json_t *all = json_array();
	char line[8192];
	FILE *f = fopen(path, "r");

	CHECK(f, "%s: %m", path);
	while (fgets(line, sizeof(line), f)) {
		json_error_t err;
		json_t *o = json_loads(line, 0, &err);

		CHECK(o, "a line does not parse (%s): %s", err.text, line);
		json_array_append_new(all, o);
	}
	fclose(f);
	return all;
}

/* How many decisions the records stand for: "count" each, 1 without. */
static long long decisions_in(json_t *records)
{
	long long n = 0;
	size_t i;
	json_t *o;

	json_array_foreach(records, i, o) {
		if (strcmp(json_path_str(o, "event") ?: "", "decision"))
			continue;
		n += json_object_get(o, "count") ? json_path_int(o, "count") : 1;
	}
	return n;
}

/* Two records equal but for time, count, first and last? */
static bool same_but_time(json_t *a, json_t *b)
{
	json_t *x = json_deep_copy(a), *y = json_deep_copy(b);
	bool same;

	for (int k = 0; k < 2; k++) {
		json_t *o = k ? y : x;

		json_object_del(o, "time");
		json_object_del(o, "count");
		json_object_del(o, "first");
		json_object_del(o, "last");
	}
	same = json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

/*
 * A program that repeats a refused request gets a line for the first
 * refusal, then one record for the repeats, with their count and the
 * times of the first and the last, when a different record comes; a
 * record that differs in any field (here the thread) is not a repeat.
 */
static void test_repeats_become_one_record_with_a_count(void)
{
	char log[PATH_LEN], err[PATH_LEN];
	const struct audit_context ctx = { .device = &dualsense, .rule_name = "r" };
	struct hid_fw_record rec = deny_record(), other;
	struct audit_log a;
	json_t *records, *first, *told;

	open_audit_with_stderr(&a, log, err);
	a.coalesce_ms = 60000;
	for (int i = 0; i < 100; i++) {
		rec.time_ns = (uint64_t)(i + 1) * 1000000ULL;
		CHECK_OK(audit_write_record(&a, &rec, &ctx));
	}
	other = rec;
	other.pid_tgid += 1;	/* another thread */
	CHECK_OK(audit_write_record(&a, &other, &ctx));
	CHECK_OK(audit_flush(&a));

	records = log_records(log);
	CHECK_EQ(json_array_size(records), 3);
	first = json_array_get(records, 0);
	told = json_array_get(records, 1);
	CHECK(!json_object_get(first, "count"), "the first refusal has a count");
	CHECK_EQ(json_path_int(told, "count"), 99);
	CHECK(same_but_time(first, told), "the repeats' record differs from the first");
	CHECK(strcmp(json_path_str(told, "first"), json_path_str(told, "last")) < 0,
	      "first %s, last %s", json_path_str(told, "first"), json_path_str(told, "last"));
	CHECK(!strcmp(json_path_str(told, "time"), json_path_str(told, "last")), "time is not the last");
	CHECK_EQ(json_path_int(json_array_get(records, 2), "process.tid"), 4244);
	CHECK(!json_object_get(json_array_get(records, 2), "count"), "another thread's refusal was coalesced");
	CHECK_EQ(decisions_in(records), 101);
	json_decref(records);
	audit_log_close(&a);
}

/* Repeats wait at most the interval (audit_tick), and are told when the
 * log is closed: none is lost. */
static void test_repeats_are_told_after_the_interval_and_at_close(void)
{
	char log[PATH_LEN], err[PATH_LEN];
	struct hid_fw_record rec = deny_record();
	struct audit_log a;
	json_t *records;
	int due;

	open_audit_with_stderr(&a, log, err);
	a.coalesce_ms = 100;
	CHECK_EQ(audit_tick(&a), -1);
	for (int i = 0; i < 6; i++)
		CHECK_OK(audit_write_record(&a, &rec, NULL));
	due = audit_tick(&a);
	CHECK(due > 0 && due <= 100, "repeats due in %d ms", due);
	CHECK_OK(audit_flush(&a));
	records = log_records(log);
	CHECK_EQ(json_array_size(records), 1);
	json_decref(records);

	usleep(150 * 1000);
	CHECK_EQ(audit_tick(&a), -1);
	CHECK_OK(audit_flush(&a));
	records = log_records(log);
	CHECK_EQ(json_array_size(records), 2);
	CHECK_EQ(json_path_int(json_array_get(records, 1), "count"), 5);
	json_decref(records);

	/* the key stays: more repeats are counted, and told at close */
	for (int i = 0; i < 3; i++)
		CHECK_OK(audit_write_record(&a, &rec, NULL));
	audit_log_close(&a);
	records = log_records(log);
	CHECK_EQ(json_array_size(records), 3);
	CHECK_EQ(json_path_int(json_array_get(records, 2), "count"), 3);
	CHECK_EQ(decisions_in(records), 9);
	json_decref(records);
}

static off_t size_of(const char *path)
{
	struct stat st;

	CHECK(stat(path, &st) == 0, "%s: %m", path);
	return st.st_size;
}

/*
 * The log's bound: a flood of distinct refusals on one device fills it to
 * the reserve, after which that device's decisions are counted; another
 * device's first refusal is still written; at the bound nothing more is;
 * the file never passes it; and after rotation the counts, per device, add
 * up with what was written to every decision made.
 */
static void test_the_bound_keeps_another_device_and_counts_the_rest(void)
{
	const uint64_t max = 64 * 1024;
	char log[PATH_LEN], err[PATH_LEN], rotated[PATH_LEN + 8];
	struct hid_dev_info other_dev = dualsense;
	const struct audit_context ctx_a = { .device = &dualsense, .rule_name = "r" };
	const struct audit_context ctx_b = { .device = &other_dev, .rule_name = "r" };
	struct hid_fw_record rec = deny_record(), rec_b;
	const long flood = 2000;
	json_t *records, *counts = NULL, *d;
	long long b_written = 0, a_counted = 0, b_counted = 0;
	struct audit_log a;
	size_t i;

	snprintf(other_dev.sysname, sizeof(other_dev.sysname), "0003:054C:0CE6.0008");
	other_dev.hid_id = 8;
	open_audit_with_stderr(&a, log, err);
	a.bound.max_size = max;
	a.summary_burst = 0;
	for (long n = 0; n < flood; n++) {
		rec.payload[1] = (uint8_t)n;
		rec.payload[2] = (uint8_t)(n >> 8);
		CHECK_OK(audit_write_record(&a, &rec, &ctx_a));
	}
	CHECK_OK(audit_flush(&a));

	/* device B, refusals of its own: the first one is written */
	rec_b = deny_record();
	rec_b.hid_id = 8;
	rec_b.payload[1] = 0x42;
	CHECK_OK(audit_write_record(&a, &rec_b, &ctx_b));
	rec_b.payload[1] = 0x43;
	CHECK_OK(audit_write_record(&a, &rec_b, &ctx_b));
	CHECK_OK(audit_flush(&a));
	CHECK((uint64_t)size_of(log) <= max, "the log passed its bound: %lld", (long long)size_of(log));

	/* past the audit_log_full record: one decision of each device */
	records = log_records(log);
	CHECK(json_array_size(records) > 10, "hardly anything written");
	{
		long long a_in_reserve = 0;
		bool full = false;

		json_array_foreach(records, i, d) {
			if (strcmp(json_path_str(d, "event") ?: "", "decision")) {
				full |= !strcmp(json_path_str(d, "event") ?: "", "audit_log_full");
				continue;
			}
			if (full && json_path_int(d, "device.hid_id") == 7)
				a_in_reserve++;
			if (json_path_int(d, "device.hid_id") == 8)
				b_written++;
		}
		CHECK(full, "no audit_log_full record");
		CHECK_EQ(a_in_reserve, 1);
	}
	CHECK_EQ(b_written, 1);

	/* rotation: the counts go to the new file */
	snprintf(rotated, sizeof(rotated), "%s.1", log);
	CHECK(rename(log, rotated) == 0, "rename: %m");
	CHECK_OK(audit_reopen(&a));
	json_decref(records);
	records = log_records(log);
	json_array_foreach(records, i, d)
		if (!strcmp(json_path_str(d, "event") ?: "", "records_not_written"))
			counts = d;
	CHECK(counts, "no records_not_written record after rotation");
	json_array_foreach(json_object_get(counts, "devices"), i, d) {
		if (json_path_int(d, "hid_id") == 7)
			a_counted = json_path_int(d, "denied");
		if (json_path_int(d, "hid_id") == 8)
			b_counted = json_path_int(d, "denied");
	}
	CHECK_EQ(b_counted, 1);
	{
		json_t *old = log_records(rotated);

		CHECK_EQ(decisions_in(old) + a_counted + b_counted, flood + 2);
		json_decref(old);
	}
	CHECK_EQ(json_path_int(counts, "decisions"), a_counted + b_counted);
	json_decref(records);
	audit_log_close(&a);
}

/*
 * A flood by one user on a device, past the reserve, hides no other
 * user's refusal on the same device: each user's first decision on each
 * device since the log filled up is written (an auditor reads who else
 * was refused); the same user's next is counted.
 */
static void test_the_bound_keeps_another_users_refusal_on_the_flooded_device(void)
{
	const uint64_t max = 64 * 1024;
	const struct audit_context ctx = { .device = &dualsense, .rule_name = "r" };
	struct hid_fw_record rec = deny_record(), other = deny_record();
	char log[PATH_LEN], err[PATH_LEN];
	long long flooder_after_full = 0, other_written = 0;
	bool full = false;
	struct audit_log a;
	json_t *records, *d;
	size_t i;

	open_audit_with_stderr(&a, log, err);
	a.bound.max_size = max;
	a.summary_burst = 0;
	for (long n = 0; n < 2000; n++) {
		rec.payload[1] = (uint8_t)n;
		rec.payload[2] = (uint8_t)(n >> 8);
		CHECK_OK(audit_write_record(&a, &rec, &ctx));
	}
	/* another user (uid 1001), refused twice on the same device */
	other.uid_gid = (uint64_t)100 << 32 | 1001;
	memcpy(other.comm, "other-tool\0", 11);
	other.payload[1] = 0x42;
	CHECK_OK(audit_write_record(&a, &other, &ctx));
	other.payload[1] = 0x43;
	CHECK_OK(audit_write_record(&a, &other, &ctx));
	CHECK_OK(audit_flush(&a));

	records = log_records(log);
	json_array_foreach(records, i, d) {
		if (strcmp(json_path_str(d, "event") ?: "", "decision")) {
			full |= !strcmp(json_path_str(d, "event") ?: "", "audit_log_full");
			continue;
		}
		if (json_path_int(d, "process.uid") == 1001)
			other_written++;
		else if (full)
			flooder_after_full++;
	}
	CHECK(full, "the flood did not fill the log to its reserve");
	CHECK_EQ(flooder_after_full, 1);
	CHECK_EQ(other_written, 1);
	json_decref(records);
	audit_log_close(&a);
}

static const struct test_case tests[] = {
	{ "decision_line_holds_every_field", test_decision_line_holds_every_field },
	{ "identity_the_kernel_did_not_give_is_read_from_proc",
	  test_identity_the_kernel_did_not_give_is_read_from_proc },
	{ "default_decision_without_process_or_device",
	  test_default_decision_without_process_or_device },
	{ "hostile_strings_are_escaped_and_kept", test_hostile_strings_are_escaped_and_kept },
	{ "comm_of_full_length_is_not_read_past", test_comm_of_full_length_is_not_read_past },
	{ "summaries_are_rate_limited_and_the_log_keeps_all",
	  test_summaries_are_rate_limited_and_the_log_keeps_all },
	{ "summary_line_has_no_control_characters", test_summary_line_has_no_control_characters },
	{ "repeats_become_one_record_with_a_count", test_repeats_become_one_record_with_a_count },
	{ "repeats_are_told_after_the_interval_and_at_close",
	  test_repeats_are_told_after_the_interval_and_at_close },
	{ "the_bound_keeps_another_device_and_counts_the_rest",
	  test_the_bound_keeps_another_device_and_counts_the_rest },
	{ "the_bound_keeps_another_users_refusal_on_the_flooded_device",
	  test_the_bound_keeps_another_users_refusal_on_the_flooded_device },
	{ "a_record_names_the_executable_the_kernel_recorded",
	  test_a_record_names_the_executable_the_kernel_recorded },
	{ "a_unit_is_named_only_from_a_path_systemd_made",
	  test_a_unit_is_named_only_from_a_path_systemd_made },
	{ "a_record_of_an_earlier_firewall_is_read_without_sender_fields",
	  test_a_record_of_an_earlier_firewall_is_read_without_sender_fields },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "audit", tests, ARRAY_SIZE(tests));
}
