// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The audit trail where auditors and fleets look: a real systemd-journald
 * and a real auditd run in the guest, hid-policyd sends to them from its
 * sandbox, and each case finds what it sent with the auditors' own tools
 * (journalctl by fields, ausearch), besides the JSON audit log, which
 * keeps every record. hid-policyctl report's counts are checked against a
 * count of the JSON log made here.
 */
#include <fcntl.h>
#include <poll.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "audit_daemons.h"
#include "audit/audit_journal.h"
#include "harness.h"
#include "json_path.h"
#include "policyd_case.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define TEST_VENDOR 0x1234
#define TEST_PRODUCT 0x5678
#define OTHER_PRODUCT 0x5679

/* Feature 0xf0 is the "firmware update", feature 4 a second refused
 * request under another rule; feature 3 is allowed and logged (reports the
 * test descriptor declares: any other is refused before the rules). */
static const char test_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"trail-device\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": [\"0x5678\", \"0x5679\"] },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" },\n"
	"      { \"name\": \"no-calibration-write\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": 4, \"action\": \"deny\" },\n"
	"      { \"name\": \"log-feature-3\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": 3, \"action\": \"allow\", \"log\": true }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

static void create_device(struct uhid_dev *dev, uint16_t product)
{
	const struct uhid_dev_config cfg = {
		.name = "audit trail test device",
		.vendor = TEST_VENDOR,
		.product = product,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};

	CHECK_OK(uhid_dev_create(dev, &cfg));
}

static void start_daemon(struct policyd_run *run, const char *const *outlet_args)
{
	CHECK_OK(policyd_prepare(run));
	CHECK_OK(policyd_write_policy(run, "50-test.json", test_policy));
	CHECK_OK(policyd_start(run, outlet_args));
}

static void stop_daemon(struct policyd_run *run)
{
	CHECK(kill(run->pid, 0) == 0, "hid-policyd died (a seccomp kill is in the kernel log)");
	policyd_stop(run, false);
	CHECK_OK(policyd_cleanup(run));
}

static void start_journald(struct journald_run *j)
{
	int r = journald_start(j);

	CHECK(r == 0, "systemd-journald did not start: %s (scripts/deps.sh installs systemd)",
	      strerror(-r));
}

static void start_auditd(struct auditd_run *a)
{
	int r = auditd_start(a);

	CHECK(r == 0, "auditd did not start: %s (scripts/deps.sh installs auditd)", strerror(-r));
}

/* journalctl -o json MATCHES...: the entries, once there are WANT of them
 * (journald writes asynchronously); waits up to 10 s. */
static json_t *journal_entries(const char *const *matches, size_t want)
{
	for (int waited = 0;; waited += 100) {
		const char *argv[16] = { "journalctl", "--no-pager", "-o", "json" };
		size_t n = 4;
		json_t *list = json_array();
		char *out = NULL, *line, *save = NULL;
		int st;

		for (size_t i = 0; matches[i] && n < 15; i++)
			argv[n++] = matches[i];
		argv[n] = NULL;
		st = run_capture(argv, &out);
		CHECK(st >= 0, "journalctl: %s", strerror(-st));
		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			json_t *e = json_loads(line, 0, NULL);

			if (json_is_object(e))
				json_array_append_new(list, e);
			else
				json_decref(e);
		}
		free(out);
		if (json_array_size(list) >= want)
			return list;
		if (waited >= 10000) {
			/* What the journal holds instead. */
			CHECK_OK(run_capture((const char *const[]){ "journalctl", "--no-pager", "-n", "10",
								    "-o", "short-monotonic", NULL }, &out));
			printf("    no %zu entries; the journal's last ones:\n%s\n", want, out);
			free(out);

			return list;
		}
		json_decref(list);
		usleep(100 * 1000);
	}
}

static const char *field(json_t *entry, const char *name)
{
	return json_string_value(json_object_get(entry, name)) ?: "(missing)";
}

#define CHECK_FIELD(entry, name, want)                                         \
	CHECK(!strcmp(field(entry, name), want), "%s=%s, expected %s", name,   \
	      field(entry, name), want)

/* ausearch --input LOG ARGS... -i: its output, once TEXT is in it (auditd
 * writes as records come); waits up to 10 s. */
static char *ausearch(const struct auditd_run *a, const char *const *args, const char *text)
{
	for (int waited = 0;; waited += 100) {
		const char *argv[16] = { "ausearch", "--input", a->log, "-i" };
		size_t n = 4;
		char *out = NULL;

		for (size_t i = 0; args[i] && n < 15; i++)
			argv[n++] = args[i];
		argv[n] = NULL;
		CHECK_OK(run_capture(argv, &out));
		if (strstr(out, text) || waited >= 10000)
			return out;
		free(out);
		usleep(100 * 1000);
	}
}

static size_t occurrences(const char *haystack, const char *needle)
{
	size_t n = 0;

	for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

#define USER_UID 1000

/* A program of an unprivileged user that asks the device for feature ID
 * and waits, so that its record can name it (its executable and identity
 * are read from /proc when the record arrives). */
struct requester {
	pid_t pid;
	int release;		/* closing it lets the program end */
};

static int request_as_user(struct requester *q, const char *hidraw, uint8_t id)
{
	int result[2], release[2], err = -1;

	CHECK_OK(chmod(hidraw, 0666));	/* as game launchers' udev rules do */
	CHECK_OK(pipe(result));
	CHECK_OK(pipe(release));
	fflush(stdout);
	q->pid = fork();
	CHECK_OK(q->pid);
	if (q->pid == 0) {
		char c;
		int fd;

		close(result[0]);
		close(release[1]);
		if (setgroups(0, NULL) < 0 || setgid(USER_UID) < 0 || setuid(USER_UID) < 0)
			_exit(1);
		fd = open(hidraw, O_RDWR | O_CLOEXEC);
		err = fd < 0 ? -errno : uhid_hidraw_set_feature(fd, id);
		if (write(result[1], &err, sizeof(err)) != sizeof(err))
			_exit(1);
		while (read(release[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(result[1]);
	close(release[0]);
	q->release = release[1];
	CHECK(read(result[0], &err, sizeof(err)) == sizeof(err), "the requester died");
	close(result[0]);
	return err;
}

/* Its record was read: end it (a requester started later holds this
 * one's pipe too, so closing it is not enough). */
static void requester_end(struct requester *q)
{
	close(q->release);
	kill(q->pid, SIGTERM);
	waitpid(q->pid, NULL, 0);
}

/* ausearch -i names a uid by its account, when it has one. */
static void interpreted_uid(char *buf, size_t size, const char *key, uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, size, "%s=%s", key, pw->pw_name);
	else
		snprintf(buf, size, "%s=unknown(%u)", key, (unsigned int)uid);
}

static void test_a_denial_is_found_with_journalctl_by_its_fields_and_with_ausearch(void)
{
	const char *const outlets[] = { "--journal", "--linux-audit", NULL };
	const char *const denials[] = { "event=decision", "action=deny", NULL };
	const char *const logged[] = { "event=decision", "action=allow", NULL };
	struct journald_run j;
	struct auditd_run a;
	struct policyd_run run;
	struct uhid_dev dev;
	struct requester q;
	char dev_match[300], pid_text[16], daemon_pid[16], exe[512], opid[32], hid_dev[300];
	char ouid[64], uid_text[16];
	const char *const deny_matches[] = { "MESSAGE_ID=" AUDIT_JOURNAL_ID_DECISION,
					     "HID_POLICY_ACTION=deny", dev_match, NULL };
	const char *const allow_matches[] = { "MESSAGE_ID=" AUDIT_JOURNAL_ID_DECISION,
					      "HID_POLICY_ACTION=allow", dev_match, NULL };
	const char *const user_device[] = { "-m", "USER_DEVICE", NULL };
	const char *const refused[] = { "-m", "USER_DEVICE", "--success", "no", NULL };
	json_t *entries, *e, *status, *last;
	ssize_t n;
	char *out;
	int fd;

	start_journald(&j);
	start_auditd(&a);
	create_device(&dev, TEST_PRODUCT);
	start_daemon(&run, outlets);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);

	/* uid 1000's program is refused; root's logged read goes through. */
	CHECK_EQ(request_as_user(&q, dev.hidraw, 0xf0), EPERM);
	CHECK_EQ(policyd_audit_count(&run, denials, 1, 10000), 1);
	CHECK_EQ(uhid_hidraw_set_feature(fd, 3), 0);
	CHECK_EQ(policyd_audit_count(&run, logged, 1, 10000), 1);

	/* journalctl MESSAGE_ID=... HID_POLICY_ACTION=deny finds the one
	 * refusal, sent by the daemon, naming rule, device and requester. */
	snprintf(dev_match, sizeof(dev_match), "HID_POLICY_DEVICE=%s", dev.sysname);
	snprintf(pid_text, sizeof(pid_text), "%d", (int)q.pid);
	snprintf(uid_text, sizeof(uid_text), "%d", USER_UID);
	snprintf(daemon_pid, sizeof(daemon_pid), "%d", (int)run.pid);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);	/* the requester's too */
	CHECK(n > 0, "readlink /proc/self/exe");
	exe[n] = '\0';
	entries = journal_entries(deny_matches, 1);
	CHECK_EQ(json_array_size(entries), 1);
	e = json_array_get(entries, 0);
	CHECK_FIELD(e, "_PID", daemon_pid);
	CHECK_FIELD(e, "SYSLOG_IDENTIFIER", "hid-policyd");
	CHECK_FIELD(e, "PRIORITY", "4");
	CHECK_FIELD(e, "HID_POLICY_EVENT", "decision");
	CHECK_FIELD(e, "HID_POLICY_ENFORCED", "1");
	CHECK_FIELD(e, "HID_POLICY_ERRNO", "EPERM");
	CHECK_FIELD(e, "HID_POLICY_REQUEST", "set_report");
	CHECK_FIELD(e, "HID_POLICY_REPORT_TYPE", "feature");
	CHECK_FIELD(e, "HID_POLICY_REPORT_ID", "0xf0");
	CHECK_FIELD(e, "HID_POLICY_RULE", "no-firmware-update");
	CHECK_FIELD(e, "HID_POLICY_RULE_SET", "trail-device");
	CHECK_FIELD(e, "HID_POLICY_DEVICE_ID", "usb:1234:5678");
	CHECK_FIELD(e, "HID_POLICY_DEVICE_NAME", "audit trail test device");
	CHECK_FIELD(e, "HID_POLICY_SUBJECT_PID", pid_text);
	CHECK_FIELD(e, "HID_POLICY_SUBJECT_UID", uid_text);
	/* The executable: the sandboxed daemon may not read another user's
	 * /proc/PID/exe (no CAP_SYS_PTRACE), so the entry has it where the
	 * JSON record has it; journald adds it from OBJECT_PID itself. */
	last = policyd_audit_last(&run, denials);
	if (json_is_string(json_path(last, "process.exe")))
		CHECK_FIELD(e, "HID_POLICY_SUBJECT_EXE", json_path_str(last, "process.exe"));
	else
		CHECK(!json_object_get(e, "HID_POLICY_SUBJECT_EXE"), "exe in the journal, not in the log");
	json_decref(last);
	CHECK_FIELD(e, "OBJECT_PID", pid_text);
	CHECK_FIELD(e, "OBJECT_EXE", exe);
	CHECK_FIELD(e, "OBJECT_UID", uid_text);
	CHECK_FIELD(e, "HID_POLICY_SOURCE", "hidraw");
	CHECK(strstr(field(e, "MESSAGE"), "denied set_report feature 0xf0") &&
	      strstr(field(e, "MESSAGE"), "no-firmware-update"), "MESSAGE=%s", field(e, "MESSAGE"));
	json_decref(entries);
	/* The logged allow is an entry too, with its own action. */
	entries = journal_entries(allow_matches, 1);
	CHECK_EQ(json_array_size(entries), 1);
	CHECK_FIELD(json_array_get(entries, 0), "HID_POLICY_RULE", "log-feature-3");
	json_decref(entries);

	/* ausearch -m USER_DEVICE -i finds the refusal, and only it: an
	 * allow is not an audit event. */
	snprintf(opid, sizeof(opid), "opid=%d", (int)q.pid);
	snprintf(hid_dev, sizeof(hid_dev), "hid_dev=\"%s\"", dev.sysname);
	interpreted_uid(ouid, sizeof(ouid), "ouid", USER_UID);
	out = ausearch(&a, user_device, "op=hid-request-denied");
	CHECK(occurrences(out, "op=hid-request-denied") == 1, "ausearch -i shows:\n%s", out);
	CHECK(strstr(out, "rule=\"no-firmware-update\"") && strstr(out, opid) && strstr(out, hid_dev) &&
	      strstr(out, "report_id=0xf0") && strstr(out, "res=failed") && strstr(out, ouid),
	      "ausearch -i shows (%s wanted):\n%s", ouid, out);
	CHECK(!strstr(out, "log-feature-3"), "the allow went to Linux audit:\n%s", out);
	free(out);
	out = ausearch(&a, refused, "op=hid-request-denied");
	CHECK_EQ(occurrences(out, "op=hid-request-denied"), 1);
	free(out);

	/* The sandboxed daemon sent both without a failure. */
	status = POLICYCTL_JSON(&run, (uid_t)-1, "status");
	CHECK_EQ(json_path_int(status, "audit_log.outlets.journal.sent"), 2);
	CHECK_EQ(json_path_int(status, "audit_log.outlets.journal.failed"), 0);
	CHECK_EQ(json_path_int(status, "audit_log.outlets.linux_audit.sent"), 1);
	CHECK_EQ(json_path_int(status, "audit_log.outlets.linux_audit.failed"), 0);
	CHECK(json_is_true(json_path(status, "daemon.sandbox")), "the daemon is not sandboxed");
	json_decref(status);

	requester_end(&q);
	close(fd);
	stop_daemon(&run);
	uhid_dev_destroy(&dev);
	CHECK_OK(auditd_stop(&a));
	CHECK_OK(journald_stop(&j));
}

static void test_a_temporary_allow_is_in_the_journal_and_in_the_audit_trail(void)
{
	const char *const outlets[] = { "--journal", "--linux-audit", NULL };
	const char *const ended[] = { "event=exception_ended", NULL };
	struct journald_run j;
	struct auditd_run a;
	struct policyd_run run;
	struct uhid_dev dev;
	struct policyctl_output o;
	char dev_match[300];
	const char *const granted_matches[] = { "MESSAGE_ID=" AUDIT_JOURNAL_ID_EXCEPTION_GRANTED,
						dev_match, NULL };
	const char *const ended_matches[] = { "MESSAGE_ID=" AUDIT_JOURNAL_ID_EXCEPTION_ENDED,
					      dev_match, NULL };
	const char *const user_device[] = { "-m", "USER_DEVICE", NULL };
	json_t *entries;
	char *out;

	start_journald(&j);
	start_auditd(&a);
	create_device(&dev, TEST_PRODUCT);
	start_daemon(&run, outlets);
	snprintf(dev_match, sizeof(dev_match), "HID_POLICY_DEVICE=%s", dev.sysname);

	POLICYCTL(&run, (uid_t)-1, &o, "allow", dev.sysname, "--for", "1s");
	CHECK(o.status == 0, "allow: exit %d: %s", o.status, o.err);
	policyctl_output_done(&o);
	CHECK_EQ(policyd_audit_count(&run, ended, 1, 10000), 1);

	entries = journal_entries(granted_matches, 1);
	CHECK_EQ(json_array_size(entries), 1);
	CHECK_FIELD(json_array_get(entries, 0), "HID_POLICY_GRANTED_BY_UID", "0");
	CHECK_FIELD(json_array_get(entries, 0), "HID_POLICY_DURATION_S", "1");
	json_decref(entries);
	entries = journal_entries(ended_matches, 1);
	CHECK_EQ(json_array_size(entries), 1);
	CHECK_FIELD(json_array_get(entries, 0), "HID_POLICY_REASON", "expired");
	json_decref(entries);

	out = ausearch(&a, user_device, "op=hid-temporary-allow-ended");
	if (occurrences(out, "op=hid-temporary-allow-granted") != 1) {
		json_t *status = POLICYCTL_JSON(&run, (uid_t)-1, "status");

		printf("    status: %s\n", json_dumps(json_path(status, "audit_log"), JSON_COMPACT));
	}
	CHECK(occurrences(out, "op=hid-temporary-allow-granted") == 1 &&
	      occurrences(out, "op=hid-temporary-allow-ended") == 1, "ausearch -i shows:\n%s", out);
	CHECK(strstr(out, "duration=1") && strstr(out, "reason=\"expired\"") && strstr(out, "res=success"),
	      "ausearch -i shows:\n%s", out);
	free(out);

	stop_daemon(&run);
	uhid_dev_destroy(&dev);
	CHECK_OK(auditd_stop(&a));
	CHECK_OK(journald_stop(&j));
}

static void test_outlets_switched_off_get_nothing_and_the_log_keeps_everything(void)
{
	const char *const off[] = { "--no-journal", "--no-linux-audit", NULL };
	const char *const denials[] = { "event=decision", "action=deny", NULL };
	struct journald_run j;
	struct auditd_run a;
	struct policyd_run run;
	struct uhid_dev dev;
	char dev_match[300];
	const char *const matches[] = { dev_match, NULL };
	json_t *entries, *status;
	char *out = NULL;
	int fd;

	start_journald(&j);
	start_auditd(&a);
	create_device(&dev, TEST_PRODUCT);
	start_daemon(&run, off);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	snprintf(dev_match, sizeof(dev_match), "HID_POLICY_DEVICE=%s", dev.sysname);

	CHECK_EQ(uhid_hidraw_set_feature(fd, 0xf0), EPERM);
	CHECK_EQ(policyd_audit_count(&run, denials, 1, 10000), 1);
	/* Give the outlets the time they would take. */
	usleep(1000 * 1000);
	entries = journal_entries(matches, 0);
	CHECK_EQ(json_array_size(entries), 0);
	json_decref(entries);
	CHECK_EQ(run_capture((const char *const[]){ "ausearch", "--input", a.log, "-m", "USER_DEVICE",
						    NULL }, &out), 1);	/* 1: no matches */
	free(out);
	status = POLICYCTL_JSON(&run, (uid_t)-1, "status");
	CHECK(json_is_null(json_path(status, "audit_log.outlets.journal")) &&
	      json_is_null(json_path(status, "audit_log.outlets.linux_audit")), "outlets not off");
	json_decref(status);

	close(fd);
	stop_daemon(&run);
	uhid_dev_destroy(&dev);
	CHECK_OK(auditd_stop(&a));
	CHECK_OK(journald_stop(&j));
}

/* The row of REPORT's TABLE whose KEY is VALUE; fails the test if none. */
static json_t *report_row(json_t *report, const char *table, const char *key, const char *value)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(report, table), i, r)
		if (json_is_string(json_object_get(r, key)) &&
		    !strcmp(json_string_value(json_object_get(r, key)), value))
			return r;
	test_fail(__FILE__, __LINE__, "no %s row with %s %s", table, key, value);
}

/* Every table of a report counts every denial once. */
static void check_tables_add_up(json_t *report)
{
	static const char *const tables[] = { "by_device", "by_rule", "by_program", "by_user" };

	for (size_t t = 0; t < ARRAY_SIZE(tables); t++) {
		long long sum = 0;
		json_t *r;
		size_t i;

		json_array_foreach(json_object_get(report, tables[t]), i, r)
			sum += json_path_int(r, "denials");
		CHECK(sum == json_path_int(report, "denials"), "%s adds up to %lld, not %lld", tables[t],
		      sum, json_path_int(report, "denials"));
	}
}

static void test_report_counts_equal_a_count_of_the_json_log(void)
{
	const char *const off[] = { "--no-journal", NULL };
	const char *const denials[] = { "event=decision", "action=deny", NULL };
	const char *const of_a[] = { "event=decision", "action=deny", "device.product=5678", NULL };
	const char *const of_b[] = { "event=decision", "action=deny", "device.product=5679", NULL };
	const char *const firmware[] = { "event=decision", "action=deny", "rule.name=no-firmware-update", NULL };
	const char *const by_user[] = { "event=decision", "action=deny", "process.uid=1000", NULL };
	const char *const calibration[] = { "event=decision", "action=deny",
					    "rule.name=no-calibration-write", NULL };
	struct policyd_run run;
	struct uhid_dev a, b;
	struct requester q1, q2;
	struct policyctl_output o;
	char since[32];
	json_t *report;
	int fa, fb;
	size_t n_deny, n_a, n_b, n_fw, n_user, n_calibration;
	time_t t;

	create_device(&a, TEST_PRODUCT);
	create_device(&b, OTHER_PRODUCT);
	start_daemon(&run, off);
	fa = uhid_dev_open_hidraw(&a, 0);
	fb = uhid_dev_open_hidraw(&b, 0);
	CHECK_OK(fa);
	CHECK_OK(fb);

	for (int i = 0; i < 3; i++)
		CHECK_EQ(uhid_hidraw_set_feature(fa, 0xf0), EPERM);
	CHECK_EQ(request_as_user(&q1, a.hidraw, 4), EPERM);
	CHECK_EQ(request_as_user(&q2, a.hidraw, 0xf0), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(fb, 0xf0), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(fa, 3), 0);	/* logged, allowed: no denial */
	CHECK_EQ(policyd_audit_count(&run, NULL, 7, 10000), 7);
	usleep(1100 * 1000);
	t = time(NULL);
	CHECK_EQ(uhid_hidraw_set_feature(fb, 4), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(fb, 4), EPERM);
	CHECK_EQ(policyd_audit_count(&run, NULL, 9, 10000), 9);
	requester_end(&q1);
	requester_end(&q2);

	/* The counts, made here from the JSON log. */
	n_deny = policyd_audit_count(&run, denials, 0, 0);
	n_a = policyd_audit_count(&run, of_a, 0, 0);
	n_b = policyd_audit_count(&run, of_b, 0, 0);
	n_fw = policyd_audit_count(&run, firmware, 0, 0);
	n_user = policyd_audit_count(&run, by_user, 0, 0);
	CHECK(n_deny == 8 && n_a == 5 && n_b == 3 && n_fw == 5 && n_user == 2,
	      "the log holds %zu denials (%zu, %zu, %zu, %zu)", n_deny, n_a, n_b, n_fw, n_user);

	report = POLICYCTL_JSON(&run, (uid_t)-1, "report");
	CHECK_EQ(json_path_int(report, "denials"), n_deny);
	CHECK_EQ(json_path_int(report, "enforced"), n_deny);
	CHECK_EQ(json_path_int(report_row(report, "by_device", "device", "usb:1234:5678"), "denials"), n_a);
	CHECK_EQ(json_path_int(report_row(report, "by_device", "device", "usb:1234:5679"), "denials"), n_b);
	CHECK_EQ(json_path_int(report_row(report, "by_rule", "rule", "no-firmware-update"), "denials"), n_fw);
	{
		json_t *r, *user = NULL;
		size_t i;

		json_array_foreach(json_object_get(report, "by_user"), i, r)
			if (json_path_int(r, "uid") == USER_UID)
				user = r;
		CHECK(user, "no row for uid %d", USER_UID);
		CHECK_EQ(json_path_int(user, "denials"), n_user);
	}
	check_tables_add_up(report);
	json_decref(report);

	/* --since: only what came after */
	snprintf(since, sizeof(since), "@%lld", (long long)t);
	n_calibration = 0;
	{
		json_t *last = policyd_audit_last(&run, calibration);

		CHECK(last, "no calibration denial in the log");
		json_decref(last);
	}
	report = POLICYCTL_JSON(&run, (uid_t)-1, "report", "--since", since);
	CHECK_EQ(json_path_int(report, "denials"), 2);
	n_calibration = (size_t)json_path_int(report_row(report, "by_rule", "rule", "no-calibration-write"),
					     "denials");
	CHECK_EQ(n_calibration, 2);
	CHECK_EQ(json_array_size(json_object_get(report, "by_device")), 1);
	check_tables_add_up(report);
	json_decref(report);

	/* the tables, for a terminal */
	POLICYCTL(&run, (uid_t)-1, &o, "report", "--utc");
	CHECK(o.status == 0 && strstr(o.out, "denials since the log's start: 8 (8 enforced)") &&
	      strstr(o.out, "usb:1234:5678 \"audit trail test device\"") &&
	      strstr(o.out, "no-firmware-update in trail-device"), "report shows:\n%s%s", o.out, o.err);
	policyctl_output_done(&o);

	close(fa);
	close(fb);
	stop_daemon(&run);
	uhid_dev_destroy(&a);
	uhid_dev_destroy(&b);
}

/* Write FROM compressed to TO, and remove FROM (logrotate's compress). */
static void gzip_file(const char *from, const char *to)
{
	char buf[4096];
	ssize_t n;
	int fd = open(from, O_RDONLY | O_CLOEXEC);
	gzFile gz = gzopen(to, "wb");

	CHECK(fd >= 0 && gz, "gzip %s", from);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		CHECK(gzwrite(gz, buf, (unsigned int)n) == n, "gzwrite");
	close(fd);
	CHECK(gzclose(gz) == Z_OK, "gzclose");
	CHECK_OK(unlink(from));
}

/* hid-policyctl --json log ARGS: the records, in order (a JSON array). */
static json_t *log_json(struct policyd_run *run, const char *const *args)
{
	const char *argv[16] = { "--json", "log" };
	struct policyctl_output o;
	json_t *list = json_array();
	char *line, *save = NULL;
	size_t n = 2;

	for (size_t i = 0; args && args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	CHECK_OK(policyctl_run(run, (uid_t)-1, argv, &o));
	CHECK(o.status == 0, "log: exit %d: %s", o.status, o.err);
	for (line = strtok_r(o.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		json_array_append_new(list, json_parse_check(line));
	policyctl_output_done(&o);
	return list;
}

static const char *rule_of(json_t *list, size_t i)
{
	return json_path_str_or_empty(json_array_get(list, i), "rule.name");
}

/* hid-policyctl --json log --follow ARGS in the background; its output. */
static pid_t follow(struct policyd_run *run, const char *const *args, int *out)
{
	char socket_path[160];
	int pipefd[2];
	pid_t pid;

	snprintf(socket_path, sizeof(socket_path), "%s/control", run->runtime_dir);
	CHECK_OK(pipe(pipefd));
	fflush(stdout);
	pid = fork();
	CHECK_OK(pid);
	if (pid == 0) {
		const char *build = getenv("HID_POLICY_BUILDDIR");
		const char *argv[16] = { NULL, "--socket", socket_path, "--json", "log", "--follow" };
		char exe[512];
		size_t n = 6;

		snprintf(exe, sizeof(exe), "%s/policyd/hid-policyctl", build ? build : "build");
		argv[0] = exe;
		for (size_t i = 0; args && args[i] && n < 15; i++)
			argv[n++] = args[i];
		argv[n] = NULL;
		dup2(pipefd[1], STDOUT_FILENO);
		execv(exe, (char **)argv);
		_exit(127);
	}
	close(pipefd[1]);
	*out = pipefd[0];
	return pid;
}

/* The next record the follower printed (waits up to 10 s), or NULL. */
static json_t *next_followed(int fd, int timeout_ms)
{
	char line[8192];
	size_t n = 0;

	while (n < sizeof(line) - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, timeout_ms) != 1 || read(fd, line + n, 1) != 1)
			return NULL;
		if (line[n] == '\n') {
			line[n] = '\0';
			return json_parse_check(line);
		}
		n++;
	}
	return NULL;
}

static void test_log_reads_rotated_and_compressed_logs_in_order_and_follows_from_the_end(void)
{
	const char *const off[] = { "--no-journal", NULL };
	const char *const lines2[] = { "--lines", "2", NULL };
	const char *const model[] = { "--device", "usb:1234:5678", NULL };
	const char *const other_model[] = { "--device", "usb:1234:9999", NULL };
	const char *const last1[] = { "--lines", "1", NULL };
	const char *const calibration[] = { "rule.name=no-calibration-write", NULL };
	struct policyd_run run;
	struct policyctl_output o;
	struct uhid_dev dev;
	char rotated[160], compressed[160], newest[40];
	json_t *list, *rec;
	int fd, out, sent;
	pid_t pid;

	create_device(&dev, TEST_PRODUCT);
	start_daemon(&run, off);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);

	/* three generations: audit.jsonl.2.gz, audit.jsonl.1, audit.jsonl */
	CHECK_EQ(uhid_hidraw_set_feature(fd, 0xf0), EPERM);
	CHECK_EQ(policyd_audit_count(&run, NULL, 1, 10000), 1);
	snprintf(rotated, sizeof(rotated), "%s.2", run.audit_log);
	snprintf(compressed, sizeof(compressed), "%s.2.gz", run.audit_log);
	CHECK_OK(rename(run.audit_log, rotated));
	gzip_file(rotated, compressed);
	CHECK_OK(policyd_reload(&run));
	CHECK_EQ(uhid_hidraw_set_feature(fd, 4), EPERM);
	CHECK_EQ(policyd_audit_count(&run, NULL, 1, 10000), 1);
	snprintf(rotated, sizeof(rotated), "%s.1", run.audit_log);
	CHECK_OK(rename(run.audit_log, rotated));
	CHECK_OK(policyd_reload(&run));
	CHECK_EQ(uhid_hidraw_set_feature(fd, 3), 0);
	CHECK_EQ(policyd_audit_count(&run, NULL, 1, 10000), 1);

	list = log_json(&run, NULL);
	CHECK_EQ(json_array_size(list), 3);
	CHECK(!strcmp(rule_of(list, 0), "no-firmware-update") && !strcmp(rule_of(list, 1), "no-calibration-write") &&
	      !strcmp(rule_of(list, 2), "log-feature-3"), "order: %s, %s, %s", rule_of(list, 0),
	      rule_of(list, 1), rule_of(list, 2));
	CHECK(strcmp(json_path_str(json_array_get(list, 0), "time"),
		     json_path_str(json_array_get(list, 2), "time")) <= 0, "times out of order");
	json_decref(list);
	list = log_json(&run, lines2);
	CHECK(json_array_size(list) == 2 && !strcmp(rule_of(list, 0), "no-calibration-write") &&
	      !strcmp(rule_of(list, 1), "log-feature-3"), "--lines 2: %zu records", json_array_size(list));
	json_decref(list);
	list = log_json(&run, model);
	CHECK_EQ(json_array_size(list), 3);
	json_decref(list);
	list = log_json(&run, other_model);
	CHECK_EQ(json_array_size(list), 0);
	json_decref(list);
	POLICYCTL(&run, (uid_t)-1, &o, "log", "--device", "DualSense");
	CHECK(o.status == 2 && strstr(o.err, "BUS:VID:PID"), "an unknown device form: exit %d: %s",
	      o.status, o.err);
	policyctl_output_done(&o);
	POLICYCTL(&run, (uid_t)-1, &o, "log", "--device", "/dev/hidraw99");
	CHECK(o.status == 1 && strstr(o.err, "no such hidraw device"), "exit %d: %s", o.status, o.err);
	policyctl_output_done(&o);
	/* in the policy's words, in local time (the guest's is UTC) */
	POLICYCTL(&run, (uid_t)-1, &o, "log", "--device", dev.hidraw);
	CHECK(o.status == 0 && strstr(o.out, "set_report feature 0xf0") && strstr(o.out, "TIME ("),
	      "log shows:\n%s%s", o.out, o.err);
	policyctl_output_done(&o);

	/* --follow starts at the end: the first record is a new one. The
	 * follower may reach the end only after its authorization, so new
	 * requests are made until one shows; each is newer than the log. */
	list = log_json(&run, NULL);
	snprintf(newest, sizeof(newest), "%s",
		 json_path_str(json_array_get(list, json_array_size(list) - 1), "time"));
	json_decref(list);
	pid = follow(&run, NULL, &out);
	rec = next_followed(out, 700);
	CHECK(!rec, "--follow replayed the log: %s", json_dumps(rec, 0));
	for (sent = 0; sent < 10 && !rec; sent++) {
		CHECK_EQ(uhid_hidraw_set_feature(fd, 4), EPERM);
		rec = next_followed(out, 1000);
	}
	CHECK(rec && !strcmp(json_path_str_or_empty(rec, "rule.name"), "no-calibration-write") &&
	      strcmp(json_path_str_or_empty(rec, "time"), newest) > 0,
	      "followed (the log ended at %s): %s", newest, rec ? json_dumps(rec, 0) : "nothing");
	json_decref(rec);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	close(out);
	/* Every request above is in the log before the next follower
	 * starts: one made before the first showed may be written after it
	 * (seen with five guests on two cores), and would be "new" then. */
	CHECK_EQ(policyd_audit_count(&run, calibration, (size_t)sent, 10000), (size_t)sent);

	/* --follow --lines 1: the last record first, then the new ones */
	pid = follow(&run, last1, &out);
	rec = next_followed(out, 10000);
	CHECK(rec && !strcmp(json_path_str_or_empty(rec, "rule.name"), "no-calibration-write"),
	      "the last record: %s", rec ? json_dumps(rec, 0) : "nothing");
	json_decref(rec);
	rec = next_followed(out, 700);
	CHECK(!rec, "more than --lines 1 of the history: %s", json_dumps(rec, 0));
	CHECK_EQ(uhid_hidraw_set_feature(fd, 0xf0), EPERM);
	rec = next_followed(out, 10000);
	CHECK(rec && !strcmp(json_path_str_or_empty(rec, "rule.name"), "no-firmware-update"),
	      "followed: %s", rec ? json_dumps(rec, 0) : "nothing");
	json_decref(rec);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	close(out);

	close(fd);
	stop_daemon(&run);
	uhid_dev_destroy(&dev);
}

static const struct test_case tests[] = {
	{ "a_denial_is_found_with_journalctl_by_its_fields_and_with_ausearch",
	  test_a_denial_is_found_with_journalctl_by_its_fields_and_with_ausearch },
	{ "a_temporary_allow_is_in_the_journal_and_in_the_audit_trail",
	  test_a_temporary_allow_is_in_the_journal_and_in_the_audit_trail },
	{ "outlets_switched_off_get_nothing_and_the_log_keeps_everything",
	  test_outlets_switched_off_get_nothing_and_the_log_keeps_everything },
	{ "report_counts_equal_a_count_of_the_json_log",
	  test_report_counts_equal_a_count_of_the_json_log },
	{ "log_reads_rotated_and_compressed_logs_in_order_and_follows_from_the_end",
	  test_log_reads_rotated_and_compressed_logs_in_order_and_follows_from_the_end },
};

int main(int argc, char **argv)
{
	int was = audit_kernel_enabled(), r;

	r = test_main(argc, argv, "audit-trail", tests, ARRAY_SIZE(tests));
	/* A failed case may have left auditing on: the suites after this
	 * one run as before. */
	if (was == 0)
		audit_kernel_set_enabled(false);
	return r;
}
