// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The audit log's outlets and its history (host): a decision's journal
 * entry carries the fields journalctl matches on and the same facts as the
 * JSON record; Linux audit messages are key=value with untrusted text
 * quoted or hex-encoded, never able to forge a field; the rate limit
 * counts what it holds back; the rotated logs are read oldest first,
 * compressed or not; a record names its request as the policy does.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "audit/audit.h"
#include "audit/audit_format.h"
#include "audit/audit_journal.h"
#include "audit/audit_linux.h"
#include "audit/audit_outlets.h"
#include "audit/log_files.h"
#include "harness.h"
#include "hid_rules.h"
#include "json_path.h"

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
		.flags = HID_FW_REC_ENFORCED | HID_FW_REC_HAVE_UID | HID_FW_REC_HAVE_COMM,
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

static const struct audit_context dualsense_ctx = {
	.device = &dualsense, .rule_name = "dualsense-deny-firmware-update",
	.ruleset_name = "sony-dualsense",
};

#define CHECK_FIELD(e, name, want)                                             \
	CHECK(journal_entry_get(e, name) && !strcmp(journal_entry_get(e, name), want), \
	      "%s=%s, expected %s", name, journal_entry_get(e, name) ?: "(missing)", want)

static void test_a_decision_s_journal_entry_has_its_fields_and_message_id(void)
{
	struct hid_fw_record rec = deny_record();
	struct audit_subject proc;
	struct journal_entry e;

	audit_subject_read(&rec, NULL, &proc);
	CHECK_OK(audit_journal_decision(&e, &rec, &dualsense_ctx, &proc, NULL));
	CHECK_FIELD(&e, "MESSAGE_ID", AUDIT_JOURNAL_ID_DECISION);
	CHECK_FIELD(&e, "PRIORITY", "4");
	CHECK_FIELD(&e, "HID_POLICY_ACTION", "deny");
	CHECK_FIELD(&e, "HID_POLICY_ENFORCED", "1");
	CHECK_FIELD(&e, "HID_POLICY_ERRNO", "EPERM");
	CHECK_FIELD(&e, "HID_POLICY_REQUEST", "set_report");
	CHECK_FIELD(&e, "HID_POLICY_REPORT_TYPE", "feature");
	CHECK_FIELD(&e, "HID_POLICY_REPORT_ID", "0xf4");
	CHECK_FIELD(&e, "HID_POLICY_PAYLOAD", "f40aff");
	CHECK_FIELD(&e, "HID_POLICY_RULE", "dualsense-deny-firmware-update");
	CHECK_FIELD(&e, "HID_POLICY_RULE_SET", "sony-dualsense");
	CHECK_FIELD(&e, "HID_POLICY_DEVICE", "0003:054C:0CE6.0007");
	CHECK_FIELD(&e, "HID_POLICY_DEVICE_ID", "usb:054c:0ce6");
	CHECK_FIELD(&e, "HID_POLICY_SUBJECT_UID", "1000");
	CHECK_FIELD(&e, "HID_POLICY_SUBJECT_COMM", "fw-attacker");
	CHECK_FIELD(&e, "HID_POLICY_SOURCE", "hidraw");
	/* no pid from the kernel: no pid field, no OBJECT_PID */
	CHECK(!journal_entry_get(&e, "HID_POLICY_SUBJECT_PID") && !journal_entry_get(&e, "OBJECT_PID"),
	      "a pid the record does not have");
	CHECK(strstr(journal_entry_get(&e, "MESSAGE"), "denied set_report feature 0xf4 on 0003:054C:0CE6.0007"),
	      "MESSAGE=%s", journal_entry_get(&e, "MESSAGE"));
	/* every field NAME=value, NAME as journald accepts it */
	for (size_t i = 0; i < e.n; i++) {
		const char *f = e.fields[i].iov_base;
		size_t name = strcspn(f, "=");

		CHECK(name > 0 && f[name] == '=' && strspn(f, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == name &&
		      f[0] != '_', "field %zu: %s", i, f);
	}
	journal_entry_done(&e);

	/* audit mode and the default rule */
	rec.flags &= ~HID_FW_REC_ENFORCED;
	rec.rule_index = HID_RULE_INDEX_DEFAULT;
	CHECK_OK(audit_journal_decision(&e, &rec, NULL, &proc, NULL));
	CHECK_FIELD(&e, "HID_POLICY_ENFORCED", "0");
	CHECK_FIELD(&e, "PRIORITY", "5");
	CHECK_FIELD(&e, "HID_POLICY_RULE", "(default)");
	CHECK(!journal_entry_get(&e, "HID_POLICY_ERRNO") && !journal_entry_get(&e, "HID_POLICY_DEVICE"),
	      "errno or device that are not there");
	journal_entry_done(&e);
}

static void test_other_records_get_their_own_message_ids(void)
{
	json_t *grant = json_pack("{s:s, s:{s:i, s:s, s:s, s:s, s:s, s:s}, s:{s:i, s:i, s:[s, s], s:s}, s:{s:i, s:i, s:s}}",
				  "event", "exception_granted",
				  "device", "hid_id", 7, "sysfs", "0003:054C:0CE6.0007", "bus", "usb",
				  "vendor", "054c", "product", "0ce6", "name", "DualSense",
				  "exception", "id", 3, "duration_s", 900, "requests", "set_report feature",
				  "output_report", "report_ids", "0xf0-0xff",
				  "granted_by", "uid", 1000, "pid", 77, "comm", "hid-policyctl");
	json_t *dropped = json_pack("{s:s, s:i, s:i}", "event", "records_dropped", "count", 5, "total", 9);
	json_t *other = json_pack("{s:s}", "event", "something_new");
	struct journal_entry e;

	CHECK_OK(audit_journal_event(&e, grant));
	CHECK_FIELD(&e, "MESSAGE_ID", AUDIT_JOURNAL_ID_EXCEPTION_GRANTED);
	CHECK_FIELD(&e, "HID_POLICY_EXCEPTION", "3");
	CHECK_FIELD(&e, "HID_POLICY_DURATION_S", "900");
	CHECK_FIELD(&e, "HID_POLICY_REQUESTS", "set_report feature, output_report");
	CHECK_FIELD(&e, "HID_POLICY_GRANTED_BY_UID", "1000");
	CHECK_FIELD(&e, "HID_POLICY_DEVICE", "0003:054C:0CE6.0007");
	CHECK_FIELD(&e, "HID_POLICY_DEVICE_ID", "usb:054c:0ce6");
	journal_entry_done(&e);
	CHECK_OK(audit_journal_event(&e, dropped));
	CHECK_FIELD(&e, "MESSAGE_ID", AUDIT_JOURNAL_ID_RECORDS_DROPPED);
	CHECK_FIELD(&e, "HID_POLICY_COUNT", "5");
	journal_entry_done(&e);
	CHECK_EQ(audit_journal_event(&e, other), -ENOENT);
	journal_entry_done(&e);
	json_decref(grant);
	json_decref(dropped);
	json_decref(other);
}

/*
 * A request a HID-BPF program made through a kfunc (HID_FW_REC_FROM_BPF)
 * is told as the program's in every outlet, not as a hidraw client's:
 * the hook's source is then the program's context, not a file, and
 * an auditor looking for who opened a node must not be sent there.
 */
static void test_a_kfunc_request_is_told_as_a_hid_bpf_program_s(void)
{
	struct hid_fw_record rec = deny_record();
	struct audit_subject proc;
	struct journal_entry e;
	struct audit_line line = {};
	char msg[AUDIT_LINUX_MESSAGE_MAX];

	rec.flags |= HID_FW_REC_FROM_BPF;
	audit_subject_read(&rec, NULL, &proc);
	CHECK(!strcmp(proc.source, "bpf"), "source %s", proc.source);
	CHECK_OK(audit_journal_decision(&e, &rec, &dualsense_ctx, &proc, NULL));
	CHECK_FIELD(&e, "HID_POLICY_SOURCE", "bpf");
	journal_entry_done(&e);
	CHECK_OK(audit_linux_decision(msg, sizeof(msg), &rec, &dualsense_ctx, &proc, NULL));
	CHECK(strstr(msg, " source=bpf"), "%s", msg);
	CHECK_OK(audit_format_record(&line, &rec, &dualsense_ctx, 0));
	CHECK(memmem(line.buf, line.len, "\"source\":\"bpf\"", strlen("\"source\":\"bpf\"")), "%.*s", (int)line.len, line.buf);
	audit_line_free(&line);

	/* the flag means nothing without a source: a driver's request */
	rec.source = 0;
	audit_subject_read(&rec, NULL, &proc);
	CHECK(!strcmp(proc.source, "kernel"), "source %s", proc.source);
	rec.source = 0xffff888004a1b000ULL;
	rec.flags &= ~HID_FW_REC_FROM_BPF;
	audit_subject_read(&rec, NULL, &proc);
	CHECK(!strcmp(proc.source, "hidraw"), "source %s", proc.source);
}

static void test_linux_audit_messages_cannot_be_forged_by_names(void)
{
	struct hid_dev_info dev = dualsense;
	const struct audit_context ctx = { .device = &dev, .rule_name = "no-fw", .ruleset_name = "sony" };
	struct hid_fw_record rec = deny_record();
	struct audit_subject proc;
	char msg[AUDIT_LINUX_MESSAGE_MAX];

	/* a program and a device that name themselves to look like fields */
	memcpy(rec.comm, "x res=success", 13);
	snprintf(dev.name, sizeof(dev.name), "pad\" rule=\"ok");
	audit_subject_read(&rec, NULL, &proc);
	CHECK_OK(audit_linux_decision(msg, sizeof(msg), &rec, &ctx, &proc, NULL));
	CHECK(!strncmp(msg, "op=hid-request-denied request=set_report report_type=feature report_id=0xf4 errno=EPERM hid_id=7 hid_dev=\"0003:054C:0CE6.0007\" hid_dev_id=usb:054c:0ce6 ",
		       strlen("op=hid-request-denied request=set_report report_type=feature report_id=0xf4 errno=EPERM hid_id=7 hid_dev=\"0003:054C:0CE6.0007\" hid_dev_id=usb:054c:0ce6 ")),
	      "%s", msg);
	/* hex, as the audit tools decode it */
	CHECK(strstr(msg, " hid_dev_name=706164222072756C653D226F6B "), "%s", msg);
	CHECK(strstr(msg, " ocomm=78207265733D73756363657373 "), "%s", msg);
	CHECK(strstr(msg, " rule=\"no-fw\" rule_set=\"sony\" "), "%s", msg);
	CHECK(strstr(msg, " ouid=1000 ogid=100 "), "%s", msg);
	CHECK(!strstr(msg, "res=") && !strstr(msg, "rule=\"ok"), "a forged field: %s", msg);

	/* allows and audit-mode denials are not audit events */
	rec.flags &= ~HID_FW_REC_ENFORCED;
	CHECK_EQ(audit_linux_decision(msg, sizeof(msg), &rec, &ctx, &proc, NULL), -ENOENT);
	/* too small a buffer is an error, not a cut message */
	rec.flags |= HID_FW_REC_ENFORCED;
	CHECK_EQ(audit_linux_decision(msg, 40, &rec, &ctx, &proc, NULL), -E2BIG);
}

static void test_the_rate_limit_counts_what_it_holds_and_tells_it_once(void)
{
	struct audit_rate r = { .burst = 3, .interval_ms = 1000 };
	uint64_t ended;
	int sent = 0;

	for (int i = 0; i < 10; i++) {
		sent += audit_rate_take(&r, 5000 + i, &ended);
		CHECK_EQ(ended, 0);
	}
	CHECK_EQ(sent, 3);
	CHECK_EQ(r.held, 7);
	/* the next interval: the 7 are told, once */
	CHECK(audit_rate_take(&r, 6000, &ended), "a new interval sends");
	CHECK_EQ(ended, 7);
	CHECK(audit_rate_take(&r, 6001, &ended), "second of the burst");
	CHECK_EQ(ended, 0);
}

static void test_an_output_report_is_named_as_the_policy_names_it(void)
{
	struct hid_fw_record rec = deny_record();
	struct audit_line line = {};
	json_t *o;

	rec.hook = HID_FW_HOOK_OUTPUT_REPORT;
	rec.rtype = HID_RULES_RTYPE_OUTPUT;
	CHECK_OK(audit_format_record(&line, &rec, NULL, 1796279380123000000ULL));
	o = json_loadb(line.buf, line.len, 0, NULL);
	CHECK(!strcmp(json_path_str(o, "request"), "output_report"), "request %s", json_path_str(o, "request"));
	json_decref(o);
	audit_line_free(&line);
	CHECK(!strcmp(audit_request_name(&(struct hid_fw_record){ .hook = HID_FW_HOOK_DEVICE_EVENT }),
		      "input_event"), "input");
}

static void write_plain(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f, "%s", path);
	fputs(text, f);
	CHECK_OK(fclose(f));
}

static void write_gz(const char *path, const char *text)
{
	gzFile gz = gzopen(path, "wb");

	CHECK(gz, "%s", path);
	CHECK(gzputs(gz, text) == (int)strlen(text), "gzputs");
	CHECK(gzclose(gz) == Z_OK, "gzclose");
}

static void test_rotated_logs_are_read_oldest_first_compressed_or_not(void)
{
	char dir[] = "/tmp/log-files.XXXXXX", path[160], log[96], buf[256], all[1024] = "";
	struct log_reader r;
	char **files;
	size_t n;

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(log, sizeof(log), "%s/audit.jsonl", dir);
	write_plain(log, "{\"n\":5}\n");
	snprintf(path, sizeof(path), "%s.1", log);
	write_plain(path, "{\"n\":4}\n");
	snprintf(path, sizeof(path), "%s.2.gz", log);
	write_gz(path, "{\"n\":3}\n");
	snprintf(path, sizeof(path), "%s.10.gz", log);
	write_gz(path, "{\"n\":1}\n{\"n\":2}\n");
	/* not rotated logs of this one */
	snprintf(path, sizeof(path), "%s/audit.jsonl.bak", dir);
	write_plain(path, "x\n");
	snprintf(path, sizeof(path), "%s/other.jsonl.1", dir);
	write_plain(path, "x\n");

	CHECK_OK(log_files_rotated(log, "", &files, &n));
	CHECK_EQ(n, 3);
	for (size_t i = 0; i < n; i++) {
		ssize_t got;

		CHECK_OK(log_reader_open(&r, files[i]));
		while ((got = log_reader_read(&r, buf, sizeof(buf) - 1)) > 0) {
			buf[got] = '\0';
			strcat(all, buf);
		}
		CHECK_EQ(got, 0);
		log_reader_close(&r);
	}
	CHECK(!strcmp(all, "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n{\"n\":4}\n"), "read: %s", all);
	log_files_free(files, n);

	/* files last written before --since are left out */
	snprintf(path, sizeof(path), "%s.10.gz", log);
	CHECK_OK(utimensat(AT_FDCWD, path, (const struct timespec[]){ { .tv_sec = 1000000000 },
								       { .tv_sec = 1000000000 } }, 0));
	CHECK_OK(log_files_rotated(log, "2020-01-01T00:00:00.000Z", &files, &n));
	CHECK_EQ(n, 2);
	CHECK(strstr(files[0], "audit.jsonl.2.gz"), "%s", files[0]);
	log_files_free(files, n);

	/* a corrupt compressed file is an error, not an empty one */
	snprintf(path, sizeof(path), "%s.3.gz", log);
	write_plain(path, "\x1f\x8b\x08\x00garbage that is not deflate data\n");
	CHECK_OK(log_reader_open(&r, path));
	{
		ssize_t got;

		while ((got = log_reader_read(&r, buf, sizeof(buf))) > 0)
			;
		CHECK(got < 0, "corrupt data read as %zd", got);
	}
	log_reader_close(&r);

	/* so is one cut short (compressed while it was read) */
	snprintf(path, sizeof(path), "%s.4.gz", log);
	{
		char big[8192];
		struct stat st;

		for (size_t i = 0; i < sizeof(big) - 1; i++)
			big[i] = (char)('a' + (i * 7919) % 26);
		big[sizeof(big) - 1] = '\0';
		write_gz(path, big);
		CHECK_OK(stat(path, &st));
		CHECK_OK(truncate(path, st.st_size / 2));
	}
	CHECK_OK(log_reader_open(&r, path));
	{
		ssize_t got;

		while ((got = log_reader_read(&r, buf, sizeof(buf))) > 0)
			;
		CHECK(got < 0, "a cut file read to its end (%zd)", got);
	}
	log_reader_close(&r);

	/* a missing directory lists nothing */
	CHECK_OK(log_files_rotated("/nonexistent/dir/audit.jsonl", "", &files, &n));
	CHECK_EQ(n, 0);
}

/* The record of repeats of a decision says how many, and when, in the
 * journal and in Linux audit alike; denials over a device's record budget
 * reach both as a count, and a full log reaches the journal. */
static void test_repeats_and_counts_reach_the_journal_and_linux_audit(void)
{
	/* 2026-12-03T06:29:40.123Z and 06:29:50.456Z */
	const struct audit_span span = {
		.count = 41, .first_ns = 1796279380123000000ULL, .last_ns = 1796279390456000000ULL,
	};
	struct hid_fw_record rec = deny_record();
	json_t *over = json_pack("{s:s, s:{s:i, s:s}, s:i, s:i}", "event", "records_suppressed",
				 "device", "hid_id", 7, "sysfs", "0003:054C:0CE6.0007",
				 "denied", 12345, "allowed", 0);
	json_t *full = json_pack("{s:s, s:i}", "event", "audit_log_full", "max_size", 65536);
	char msg[AUDIT_LINUX_MESSAGE_MAX];
	struct audit_subject proc;
	struct journal_entry e;
	bool success = true;

	audit_subject_read(&rec, NULL, &proc);
	CHECK_OK(audit_journal_decision(&e, &rec, &dualsense_ctx, &proc, &span));
	CHECK_FIELD(&e, "HID_POLICY_COUNT", "41");
	CHECK_FIELD(&e, "HID_POLICY_FIRST", "2026-12-03T06:29:40.123Z");
	CHECK_FIELD(&e, "HID_POLICY_LAST", "2026-12-03T06:29:50.456Z");
	CHECK(strstr(journal_entry_get(&e, "MESSAGE"), "(41 times more,"), "%s",
	      journal_entry_get(&e, "MESSAGE"));
	journal_entry_done(&e);
	CHECK_OK(audit_journal_decision(&e, &rec, &dualsense_ctx, &proc, NULL));
	CHECK(!journal_entry_get(&e, "HID_POLICY_COUNT"), "a single decision has a count");
	journal_entry_done(&e);

	CHECK_OK(audit_linux_decision(msg, sizeof(msg), &rec, &dualsense_ctx, &proc, &span));
	CHECK(strstr(msg, " count=41 first=2026-12-03T06:29:40.123Z last=2026-12-03T06:29:50.456Z"),
	      "%s", msg);
	CHECK_OK(audit_linux_event(msg, sizeof(msg), over, &success));
	CHECK(!strcmp(msg, "op=hid-requests-denied-unrecorded count=12345 hid_id=7 hid_dev=\"0003:054C:0CE6.0007\""),
	      "%s", msg);
	CHECK(!success, "denials reported as a success");

	CHECK_OK(audit_journal_event(&e, over));
	CHECK_FIELD(&e, "MESSAGE_ID", AUDIT_JOURNAL_ID_OVER_BUDGET);
	CHECK_FIELD(&e, "HID_POLICY_DENIED", "12345");
	CHECK_FIELD(&e, "HID_POLICY_DEVICE", "0003:054C:0CE6.0007");
	journal_entry_done(&e);
	CHECK_OK(audit_journal_event(&e, full));
	CHECK_FIELD(&e, "MESSAGE_ID", AUDIT_JOURNAL_ID_LOG_FULL);
	CHECK_FIELD(&e, "HID_POLICY_MAX_SIZE", "65536");
	journal_entry_done(&e);
	json_decref(over);
	json_decref(full);
}

static const struct test_case tests[] = {
	{ "a_decision_s_journal_entry_has_its_fields_and_message_id",
	  test_a_decision_s_journal_entry_has_its_fields_and_message_id },
	{ "other_records_get_their_own_message_ids", test_other_records_get_their_own_message_ids },
	{ "linux_audit_messages_cannot_be_forged_by_names",
	  test_linux_audit_messages_cannot_be_forged_by_names },
	{ "a_kfunc_request_is_told_as_a_hid_bpf_program_s",
	  test_a_kfunc_request_is_told_as_a_hid_bpf_program_s },
	{ "the_rate_limit_counts_what_it_holds_and_tells_it_once",
	  test_the_rate_limit_counts_what_it_holds_and_tells_it_once },
	{ "an_output_report_is_named_as_the_policy_names_it",
	  test_an_output_report_is_named_as_the_policy_names_it },
	{ "rotated_logs_are_read_oldest_first_compressed_or_not",
	  test_rotated_logs_are_read_oldest_first_compressed_or_not },
	{ "repeats_and_counts_reach_the_journal_and_linux_audit",
	  test_repeats_and_counts_reach_the_journal_and_linux_audit },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "audit-outlets", tests, ARRAY_SIZE(tests));
}
