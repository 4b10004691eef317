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
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "audit_daemons.h"
#include "daemon/audit_journal.h"
#include "harness.h"
#include "json_path.h"
#include "policyd_case.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define TEST_VENDOR 0x1234
#define TEST_PRODUCT 0x5678
#define OTHER_PRODUCT 0x5679

/* Feature 0xf0 is the "firmware update", feature 0xf1 a second refused
 * request under another rule; feature 3 is allowed and logged. */
static const char test_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"trail-device\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"1234\", \"product\": [\"5678\", \"5679\"] },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" },\n"
	"      { \"name\": \"no-calibration-write\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf1\", \"action\": \"deny\" },\n"
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

static void requester_end(struct requester *q)
{
	close(q->release);
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

static const struct test_case tests[] = {
	{ "a_denial_is_found_with_journalctl_by_its_fields_and_with_ausearch",
	  test_a_denial_is_found_with_journalctl_by_its_fields_and_with_ausearch },
	{ "a_temporary_allow_is_in_the_journal_and_in_the_audit_trail",
	  test_a_temporary_allow_is_in_the_journal_and_in_the_audit_trail },
	{ "outlets_switched_off_get_nothing_and_the_log_keeps_everything",
	  test_outlets_switched_off_get_nothing_and_the_log_keeps_everything },
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
