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

	for (int i = 0; i < 50; i++)
		CHECK_OK(audit_write_record(&a, &rec, &ctx));
	CHECK_OK(audit_flush(&a));
	CHECK_EQ(count_lines(log, NULL, &said), 50);
	lines = count_lines(err, "denied set_report feature report 0xf4", &said);
	CHECK_EQ(lines, 5);
	CHECK_EQ(said, 5);

	/* The next interval starts by saying what the last one held back. */
	usleep(400 * 1000);
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
