// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: hid-policyctl talking to a running hid-policyd through its
 * control socket. The guest has no polkit, so the daemon runs on the
 * root-only fallback: root may do everything, anyone else nothing. Every
 * check looks at both ends: what hid-policyctl printed and exited with, and
 * what the device, the audit log or the file system shows.
 */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "json_path.h"
#include "policyd_case.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define TEST_VENDOR 0x1234
#define TEST_PRODUCT 0x5678
#define OTHER_PRODUCT 0x5679
#define USER_UID 1000

/* Feature 0xf0 is the "firmware update"; feature 3 reads are logged. */
static const char test_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"test-device\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": [\"0x5678\", \"0x5679\"] },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" },\n"
	"      { \"name\": \"log-feature-3\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": 3, \"action\": \"allow\", \"log\": true }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

static void create_device(struct uhid_dev *dev, uint16_t product)
{
	const struct uhid_dev_config cfg = {
		.name = "control test device",
		.vendor = TEST_VENDOR,
		.product = product,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};

	CHECK_OK(uhid_dev_create(dev, &cfg));
}

/* The frame of most cases: a device of product TEST_PRODUCT named NAME,
 * the daemon with its run directory open to other users, the device's
 * hidraw node. */
static void start_named_case(struct policyd_case *c, const char *name)
{
	const struct uhid_dev_config cfg = {
		.name = name,
		.vendor = TEST_VENDOR,
		.product = TEST_PRODUCT,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};

	policyd_case_start_shared(c, &cfg, test_policy);
}

static void start_case(struct policyd_case *c)
{
	start_named_case(c, "control test device");
}

/* The daemon, with its run directory open to other users (mkdtemp makes
 * it 0700) so that uid 1000 reaches the socket as on a real system. */
static void start_daemon(struct policyd_run *run)
{
	CHECK_OK(policyd_prepare(run));
	CHECK_OK(chmod(run->dir, 0755));
	CHECK_OK(policyd_write_policy(run, "50-test.json", test_policy));
	CHECK_OK(policyd_start(run, NULL));
}

static void stop_daemon(struct policyd_run *run)
{
	policyd_stop(run, false);
	CHECK_OK(policyd_cleanup(run));
}

/* log --json ARGS: one JSON record per line; returns how many, all parsed. */
static size_t log_records(struct policyd_run *run, const char *const *extra, json_t **last)
{
	const char *args[16] = { "--json", "log" };
	struct policyctl_output o;
	size_t n = 0, k = 2;
	char *line, *save = NULL;

	for (size_t i = 0; extra && extra[i] && k < 15; i++)
		args[k++] = extra[i];
	args[k] = NULL;
	CHECK_OK(policyctl_run(run, (uid_t)-1, args, &o));
	CHECK(o.status == 0, "log exit %d: %s", o.status, o.err);
	for (line = strtok_r(o.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *rec = json_parse_check(line);

		n++;
		if (last) {
			json_decref(*last);
			*last = rec;
		} else {
			json_decref(rec);
		}
	}
	policyctl_output_done(&o);
	return n;
}

static void test_every_command_works_as_root_and_its_json_parses(void)
{
	static const char *const tables[] = { "status", "devices", "rules", "generate", "log", "reload" };
	struct policyd_case c;
	json_t *j, *d, *list;
	size_t i;

	start_case(&c);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "status");
	CHECK(!strcmp(json_path_str_or_empty(j, "daemon.authorization"), "root-only"), "authorization %s",
	      json_path_str_or_empty(j, "daemon.authorization"));
	CHECK(!strcmp(json_path_str_or_empty(j, "mode"), "enforce"), "mode %s", json_path_str_or_empty(j, "mode"));
	CHECK(json_is_true(json_object_get(json_object_get(j, "kernel"), "hid_bpf")), "kernel support");
	CHECK(json_is_integer(json_object_get(json_object_get(j, "counters"), "denied")), "counters");
	json_decref(j);

	d = policyd_case_device_view(&c);
	CHECK(json_is_true(json_object_get(d, "protected")), "protected");
	CHECK(json_is_true(json_object_get(d, "attached")), "attached");
	CHECK_EQ(json_integer_value(json_object_get(d, "programs")), 1);
	CHECK(!strcmp(json_path_str_or_empty(json_array_get(json_object_get(d, "rule_sets"), 0), "name"),
		      "test-device"), "rule set");
	json_decref(d);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "rules", c.dev.sysname);
	list = json_object_get(j, "rules");
	CHECK_EQ(json_array_size(list), 2);
	CHECK(!strcmp(json_path_str_or_empty(json_array_get(list, 0), "name"), "no-firmware-update"), "rule 0");
	CHECK(!strcmp(json_path_str_or_empty(json_array_get(list, 1), "name"), "log-feature-3"), "rule 1");
	json_decref(j);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "explain", c.dev.sysname, "set_report", "--report", "feature", "--id", "0xf0");
	CHECK(!strcmp(json_path_str_or_empty(j, "decision.action"), "deny"), "decision %s", json_path_str_or_empty(j, "decision.action"));
	CHECK(!strcmp(json_path_str_or_empty(j, "decision.rule"), "no-firmware-update"), "rule %s", json_path_str_or_empty(j, "decision.rule"));
	CHECK(strstr(json_path_str_or_empty(j, "text"), "no-firmware-update"), "text: %s", json_path_str_or_empty(j, "text"));
	json_decref(j);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "generate");
	CHECK(!strcmp(json_path_str_or_empty(json_array_get(json_object_get(json_object_get(j, "policy"), "devices"), 0),
			   "name"), "local-test-device"), "generated: %s", json_dumps(j, 0));
	json_decref(j);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "reload");
	CHECK_EQ(json_integer_value(json_object_get(j, "rules")), 2);
	json_decref(j);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "allow", c.dev.sysname, "--for", "60s");
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(j, "exception"), "duration_s")), 60);
	json_decref(j);
	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "revoke", c.dev.sysname);
	CHECK_EQ(json_array_size(json_object_get(j, "revoked")), 1);
	json_decref(j);
	CHECK(log_records(&c.run, NULL, NULL) >= 2, "grant and end records");

	/* The tables too: every command exits 0 and prints something. */
	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		const char *args[3] = { tables[i], !strcmp(tables[i], "rules") ? c.dev.sysname : NULL };

		policyd_case_ctl_shows(&c.run, (uid_t)-1, args);
	}

	policyd_case_end(&c);
}

static void test_log_filters_return_exactly_the_matching_records(void)
{
	struct policyd_run run;
	struct uhid_dev a, b;
	char since[32], b_id[16];
	const char *const by_a[] = { "--device", a.sysname, NULL };
	const char *const by_b_id[] = { "--device", b_id, NULL };
	const char *const denies[] = { "--action", "deny", NULL };
	const char *const allows[] = { "--action", "allow", NULL };
	const char *const recent[] = { "--since", since, NULL };
	int fa, fb;
	time_t t;

	create_device(&a, TEST_PRODUCT);
	create_device(&b, OTHER_PRODUCT);
	start_daemon(&run);
	fa = uhid_dev_open_hidraw(&a, 0);
	fb = uhid_dev_open_hidraw(&b, 0);
	CHECK_OK(fa);
	CHECK_OK(fb);

	/* Before: a denied twice, b once; an allow logged on a. */
	CHECK_EQ(uhid_hidraw_set_feature(fa, 0xf0), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(fa, 0xf0), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(fb, 0xf0), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(fa, 3), 0);
	CHECK_EQ(policyd_audit_count(&run, NULL, 4, 10000), 4);
	usleep(1100 * 1000);
	t = time(NULL);
	/* After: one more denial on b. */
	CHECK_EQ(uhid_hidraw_set_feature(fb, 0xf0), EPERM);
	CHECK_EQ(policyd_audit_count(&run, NULL, 5, 10000), 5);

	CHECK_EQ(log_records(&run, NULL, NULL), 5);
	CHECK_EQ(log_records(&run, by_a, NULL), 3);
	snprintf(b_id, sizeof(b_id), "%d", b.hid_id);
	CHECK_EQ(log_records(&run, by_b_id, NULL), 2);
	CHECK_EQ(log_records(&run, denies, NULL), 4);
	CHECK_EQ(log_records(&run, allows, NULL), 1);
	snprintf(since, sizeof(since), "@%lld", (long long)t);
	{
		json_t *last = NULL;

		CHECK_EQ(log_records(&run, recent, &last), 1);
		CHECK(!strcmp(json_path_str_or_empty(last, "device.sysfs"), b.sysname), "the recent record: %s",
		      json_path_str_or_empty(last, "device.sysfs"));
		json_decref(last);
	}

	close(fa);
	close(fb);
	stop_daemon(&run);
	uhid_dev_destroy(&a);
	uhid_dev_destroy(&b);
}

static void test_allow_for_2s_lets_a_denied_request_through_until_it_expires(void)
{
	const char *const granted[] = { "event=exception_granted", "granted_by.uid=0", NULL };
	const char *const expired[] = { "event=exception_ended", "reason=expired",
					"granted_by.uid=0", NULL };
	struct policyd_case c;
	json_t *j;

	start_case(&c);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "allow", c.dev.sysname, "--for", "2s", "--request", "set_report",
		     "--report", "feature", "--id", "0xf0");
	json_decref(j);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 1);
	CHECK_EQ(policyd_audit_count(&c.run, granted, 1, 5000), 1);

	/* Expiry is the daemon's timer: nobody asks for it. */
	CHECK_EQ(policyd_audit_count(&c.run, expired, 1, 10000), 1);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 1);

	policyd_case_end(&c);
}

static void test_allow_survives_a_reload_and_revoke_ends_it(void)
{
	const char *const revoked[] = { "event=exception_ended", "reason=revoked",
					"revoked_by.uid=0", NULL };
	struct policyd_case c;
	json_t *j;

	start_case(&c);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "allow", c.dev.sysname, "--for", "10m");
	json_decref(j);
	CHECK_OK(policyd_reload(&c.run));
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), 0);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "revoke", c.dev.sysname);
	json_decref(j);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 1);
	CHECK_EQ(policyd_audit_count(&c.run, revoked, 1, 5000), 1);

	policyd_case_end(&c);
}

static void test_allow_ends_when_the_device_is_removed(void)
{
	const char *const removed[] = { "event=exception_ended", "reason=device removed", NULL };
	struct policyd_run run;
	struct uhid_dev dev;
	json_t *j;

	create_device(&dev, TEST_PRODUCT);
	start_daemon(&run);
	j = POLICYCTL_JSON(&run, (uid_t)-1, "allow", dev.sysname, "--for", "10m");
	json_decref(j);
	uhid_dev_destroy(&dev);

	CHECK_EQ(policyd_audit_count(&run, removed, 1, 10000), 1);
	j = POLICYCTL_JSON(&run, (uid_t)-1, "status");
	CHECK_EQ(json_array_size(json_object_get(j, "exceptions")), 0);
	json_decref(j);

	stop_daemon(&run);
}

static void test_stopping_the_daemon_ends_its_temporary_allows(void)
{
	const char *const stopped[] = { "event=exception_ended", "reason=daemon stopped", NULL };
	struct policyd_case c;
	json_t *j;

	start_case(&c);
	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "allow", c.dev.sysname, "--for", "1h");
	json_decref(j);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), 0);

	CHECK_EQ(policyd_stop(&c.run, false), 0);
	/* The firewall outlives the daemon, the temporary allow does not. */
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 1);
	CHECK_EQ(policyd_audit_count(&c.run, stopped, 1, 0), 1);

	policyd_case_end(&c);
}

static void test_unprivileged_user_is_refused_with_a_clear_message_and_no_data(void)
{
	struct policyd_case c;
	struct policyctl_output o;

	start_case(&c);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);	/* a record to keep from them */

	POLICYCTL(&c.run, USER_UID, &o, "allow", c.dev.sysname, "--for", "1h");
	CHECK_EQ(o.status, 3);
	CHECK(strstr(o.err, "not authorized") && strstr(o.err, "org.hid-policy.allow"),
	      "message: %s", o.err);
	CHECK(!o.out[0], "stdout: %s", o.out);
	policyctl_output_done(&o);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);

	POLICYCTL(&c.run, USER_UID, &o, "reload");
	CHECK(o.status == 3 && strstr(o.err, "org.hid-policy.reload"), "reload: %d %s", o.status, o.err);
	policyctl_output_done(&o);

	POLICYCTL(&c.run, USER_UID, &o, "log");
	CHECK(o.status == 3 && strstr(o.err, "org.hid-policy.log"), "log: %d %s", o.status, o.err);
	CHECK(!o.out[0], "log printed: %s", o.out);
	policyctl_output_done(&o);

	/* --json: the refusal, and nothing else. */
	POLICYCTL(&c.run, USER_UID, &o, "--json", "status");
	CHECK_EQ(o.status, 3);
	{
		json_t *j = json_parse_check(o.out);

		CHECK(!strcmp(json_path_str_or_empty(j, "error"), "denied"), "error %s", json_path_str_or_empty(j, "error"));
		CHECK(!strcmp(json_path_str_or_empty(j, "action"), "org.hid-policy.status"), "action %s", json_path_str_or_empty(j, "action"));
		CHECK(!json_object_get(j, "result"), "a result came along");
		json_decref(j);
	}
	policyctl_output_done(&o);

	policyd_case_end(&c);
}

static mode_t mode_of(const char *path, uid_t *owner, bool *is_socket)
{
	struct stat st;

	CHECK(lstat(path, &st) == 0, "%s: %s", path, strerror(errno));
	if (owner)
		*owner = st.st_uid;
	if (is_socket)
		*is_socket = S_ISSOCK(st.st_mode);
	return st.st_mode & 07777;
}

static void test_runtime_dir_socket_and_audit_log_have_the_documented_modes(void)
{
	struct policyd_run run;
	char path[160];
	uid_t owner;
	bool sock;
	int fd;

	/* Looser modes left behind are repaired, with a message. */
	CHECK_OK(policyd_prepare(&run));
	CHECK_OK(chmod(run.dir, 0755));
	CHECK_OK(policyd_write_policy(&run, "50-test.json", test_policy));
	CHECK_OK(mkdir(run.runtime_dir, 0755));
	CHECK_OK(chmod(run.runtime_dir, 0777));
	fd = open(run.audit_log, O_WRONLY | O_CREAT, 0644);
	CHECK_OK(fd);
	CHECK_OK(fchmod(fd, 0644));
	close(fd);
	CHECK_OK(policyd_start(&run, NULL));

	CHECK_EQ(mode_of(run.runtime_dir, &owner, NULL), 0755);
	CHECK_EQ(owner, 0);
	snprintf(path, sizeof(path), "%s/control", run.runtime_dir);
	CHECK_EQ(mode_of(path, &owner, &sock), 0666);
	CHECK(sock, "%s is not a socket", path);
	CHECK_EQ(owner, 0);
	CHECK_EQ(mode_of(run.audit_log, &owner, NULL), 0600);
	CHECK_EQ(owner, 0);
	CHECK(policyd_said(&run, "had mode 0777; changed to 0755", 1000), "no word on the runtime dir");
	CHECK(policyd_said(&run, "had mode 0644; changed to 0600", 1000), "no word on the audit log");

	/* And uid 1000 cannot open the log. */
	{
		pid_t pid = fork();
		int status;

		CHECK_OK(pid);
		if (pid == 0) {
			if (setgid(USER_UID) < 0 || setuid(USER_UID) < 0)
				_exit(2);
			_exit(open(run.audit_log, O_RDONLY) < 0 && errno == EACCES ? 0 : 1);
		}
		CHECK_OK(waitpid(pid, &status, 0));
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "uid %d could open the audit log",
		      USER_UID);
	}
	stop_daemon(&run);
}

static int connect_control(struct policyd_run *run)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	CHECK_OK(fd);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/control", run->runtime_dir);
	CHECK_OK(connect(fd, (struct sockaddr *)&addr, sizeof(addr)));
	return fd;
}

/* The daemon's first reply line on FD (10 s at most). */
static json_t *read_reply(int fd)
{
	char buf[4096];
	size_t got = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		CHECK(poll(&p, 1, 10000) == 1, "no reply");
		n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
		if (n <= 0)
			break;
		got += (size_t)n;
		if (memchr(buf, '\n', got))
			break;
	}
	buf[got] = '\0';
	return json_parse_check(buf);
}

/* Send RAW on a fresh connection; the daemon's reply. */
static json_t *raw_request(struct policyd_run *run, const void *raw, size_t len)
{
	int fd = connect_control(run);
	json_t *reply;

	/* An oversize request is refused before it is all sent: EPIPE
	 * or ECONNRESET then are fine. */
	(void)!send(fd, raw, len, MSG_NOSIGNAL);
	reply = read_reply(fd);
	close(fd);
	return reply;
}

static void expect_error(struct policyd_run *run, const char *raw, size_t len, const char *code,
			 const char *words)
{
	json_t *r = raw_request(run, raw, len);

	CHECK(json_is_false(json_object_get(r, "ok")), "not refused");
	CHECK(!strcmp(json_path_str_or_empty(r, "error"), code), "error %s, expected %s (%s)", json_path_str_or_empty(r, "error"), code,
	      json_path_str_or_empty(r, "message"));
	CHECK(strstr(json_path_str_or_empty(r, "message"), words), "message \"%s\" lacks \"%s\"", json_path_str_or_empty(r, "message"),
	      words);
	json_decref(r);
}

static void test_malformed_requests_get_clear_errors_and_the_daemon_keeps_running(void)
{
	static const char not_json[] = "this is not json\n";
	static const char unknown[] = "{\"version\":1,\"command\":\"format-disk\"}\n";
	static const char wrong_version[] = "{\"version\":2,\"command\":\"status\"}\n";
	static const char no_version[] = "{\"command\":\"status\"}\n";
	static const char bad_args[] = "{\"version\":1,\"command\":\"log\",\"args\":{\"action\":\"erase\"}}\n";
	static const char status[] = "{\"version\":1,\"command\":\"status\"}\n";
	struct policyd_run run;
	size_t big_len = 70 * 1024;
	char *big = malloc(big_len);
	int silent[32];
	json_t *j;

	CHECK(big, "malloc");
	memset(big, 'x', big_len);
	start_daemon(&run);

	expect_error(&run, not_json, strlen(not_json), "bad-request", "not JSON");
	expect_error(&run, unknown, strlen(unknown), "unknown-command", "format-disk");
	expect_error(&run, wrong_version, strlen(wrong_version), "unsupported-version", "version 2");
	expect_error(&run, no_version, strlen(no_version), "bad-request", "version");
	expect_error(&run, bad_args, strlen(bad_args), "bad-request", "erase");
	expect_error(&run, big, big_len, "too-large", "longer than");

	/* A client that says nothing does not hold up the others. */
	silent[0] = connect_control(&run);
	j = POLICYCTL_JSON(&run, (uid_t)-1, "status");
	CHECK(json_object_get(j, "daemon"), "status while a client stalls");
	json_decref(j);

	/* 32 clients at once: the 33rd is told so, and served once one left. */
	for (size_t i = 1; i < ARRAY_SIZE(silent); i++)
		silent[i] = connect_control(&run);
	/* Connections are accepted in order: this one is the 33rd. */
	expect_error(&run, status, strlen(status), "busy", "too many clients");
	for (size_t i = 0; i < ARRAY_SIZE(silent); i++)
		close(silent[i]);
	/* The daemon notices the closes in its own time. */
	for (int tries = 0;; tries++) {
		j = raw_request(&run, status, strlen(status));
		if (json_is_true(json_object_get(j, "ok")))
			break;
		CHECK(tries < 100 && !strcmp(json_path_str_or_empty(j, "error"), "busy"), "status after the crowd left: %s",
		      json_path_str_or_empty(j, "message"));
		json_decref(j);
		usleep(50 * 1000);
	}
	json_decref(j);

	CHECK(kill(run.pid, 0) == 0, "the daemon died");
	free(big);
	stop_daemon(&run);
}

/* The next line the follower prints, as JSON (10 s at most). */
static json_t *next_streamed(int fd, char *buf, size_t size, size_t *got)
{
	char *nl;
	json_t *rec;

	while (!(nl = memchr(buf, '\n', *got))) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		CHECK(poll(&p, 1, 10000) == 1, "no record streamed");
		CHECK(*got < size - 1, "line too long");
		n = read(fd, buf + *got, size - 1 - *got);
		CHECK(n > 0, "the follower ended");
		*got += (size_t)n;
	}
	*nl = '\0';
	rec = json_parse_check(buf);
	*got -= (size_t)(nl + 1 - buf);
	memmove(buf, nl + 1, *got);
	return rec;
}

static void test_log_follow_streams_records_as_they_happen_and_after_rotation(void)
{
	struct policyd_case c;
	char socket_path[160], rotated[160], buf[8192];
	int pipefd[2];
	size_t got = 0;
	pid_t pid;
	json_t *rec;

	start_case(&c);
	snprintf(socket_path, sizeof(socket_path), "%s/control", c.run.runtime_dir);
	CHECK_OK(pipe(pipefd));
	pid = fork();
	CHECK_OK(pid);
	if (pid == 0) {
		const char *build = getenv("HID_POLICY_BUILDDIR");
		char exe[512];

		snprintf(exe, sizeof(exe), "%s/policyd/hid-policyctl", build ? build : "build");
		dup2(pipefd[1], STDOUT_FILENO);
		execl(exe, exe, "--socket", socket_path, "--json", "log", "--follow", "--action", "deny",
		      (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	/* Let it reach the end of the (empty) log, then make a record. */
	usleep(500 * 1000);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	rec = next_streamed(pipefd[0], buf, sizeof(buf), &got);
	CHECK(!strcmp(json_path_str_or_empty(rec, "action"), "deny") && !strcmp(json_path_str_or_empty(rec, "device.sysfs"), c.dev.sysname),
	      "streamed: %s", json_dumps(rec, 0));
	json_decref(rec);

	/* logrotate: move the file away, SIGHUP; the follower goes on with
	 * the new file. */
	snprintf(rotated, sizeof(rotated), "%s.1", c.run.audit_log);
	CHECK_OK(rename(c.run.audit_log, rotated));
	CHECK_OK(policyd_reload(&c.run));
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);
	rec = next_streamed(pipefd[0], buf, sizeof(buf), &got);
	CHECK(!strcmp(json_path_str_or_empty(rec, "action"), "deny"), "streamed after rotation: %s", json_dumps(rec, 0));
	json_decref(rec);
	CHECK_EQ(policyd_audit_count(&c.run, NULL, 1, 0), 1);	/* it came from the new file */

	CHECK(kill(pid, 0) == 0, "the follower should still run");
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	close(pipefd[0]);

	policyd_case_end(&c);
}

/* A reload refused because two rule sets together hold more rules than a
 * device takes leaves the rules in force; a temporary allow placed before
 * them still ends when it expires. */
static void test_an_allow_expires_even_where_a_reload_left_the_old_rules(void)
{
	const char *const expired[] = { "event=exception_ended", "reason=expired", NULL };
	struct policyd_case c;
	json_t *j;
	char *many = NULL;
	size_t len = 0;
	FILE *f;

	start_case(&c);
	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "allow", c.dev.sysname, "--for", "4s", "--request", "set_report",
		     "--report", "feature", "--id", "0xf0");
	json_decref(j);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), 0);

	/* 64 more rules for the same device: 66 in all, two too many. */
	f = open_memstream(&many, &len);
	CHECK(f, "open_memstream");
	fprintf(f, "{ \"version\": 1, \"devices\": [ { \"name\": \"many\",\n"
		   "  \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5678\" },\n"
		   "  \"rules\": [\n");
	for (int i = 0; i < 64; i++)
		fprintf(f, "    %s{ \"name\": \"read-%d\", \"request\": \"get_report\", \"report_type\": \"feature\", \"report_id\": %d, \"action\": \"allow\" }\n",
			i ? "," : "", i, i);
	fprintf(f, "  ] } ] }\n");
	CHECK_OK(fclose(f));
	CHECK_OK(policyd_write_policy(&c.run, "60-many.json", many));
	free(many);
	CHECK_OK(policyd_reload(&c.run));
	CHECK(policyd_said(&c.run, "would get 66 rules, more than the 64 a device holds", 5000),
	      "the reload was not refused for the device's 66 rules");
	CHECK(policyd_said(&c.run, "reload failed: the rules in force stay in force", 5000),
	      "the reload did not say the rules in force stay");
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), 0);

	CHECK_EQ(policyd_audit_count(&c.run, expired, 1, 10000), 1);
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 0xf0), EPERM);		/* the allow is gone */
	CHECK_EQ(uhid_hidraw_set_feature(c.fd, 3), 0);		/* the old rules are still there */
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 2);

	policyd_case_end(&c);
}

/* A client names itself (prctl(PR_SET_NAME)): bytes that are not UTF-8,
 * an escape sequence and a newline reach the audit log and the daemon's
 * messages escaped, and its grant is still audited. */
static void test_a_granting_client_s_command_name_is_escaped_and_its_grant_audited(void)
{
	static const char comm[] = "\xff\x1b[31mx\ny";
	static const char escaped[] = "\\xff\\x1b[31mx\\x0ay";
	char by_comm[64], request[512];
	const char *granted[] = { "event=exception_granted", by_comm, NULL };
	struct policyd_case c;
	json_t *j;

	start_case(&c);
	snprintf(by_comm, sizeof(by_comm), "granted_by.comm=%s", escaped);
	snprintf(request, sizeof(request),
		 "{\"version\":1,\"command\":\"allow\",\"args\":{\"device\":\"%s\",\"duration_s\":60}}\n",
		 c.dev.sysname);

	CHECK_OK(prctl(PR_SET_NAME, comm, 0, 0, 0));
	j = raw_request(&c.run, request, strlen(request));
	CHECK(json_is_true(json_object_get(j, "ok")), "allow: %s", json_path_str_or_empty(j, "message"));
	CHECK(!strcmp(json_path_str_or_empty(j, "result.exception.granted_by.comm"), escaped), "reply names %s",
	      json_path_str_or_empty(j, "result.exception.granted_by.comm"));
	json_decref(j);

	CHECK_EQ(policyd_audit_count(&c.run, granted, 1, 5000), 1);
	CHECK(policyd_said(&c.run, escaped, 5000), "the daemon's message lacks the escaped name");
	CHECK(!policyd_said(&c.run, "\x1b[31m", 0), "the daemon wrote the escape sequence as it came");

	policyd_case_end(&c);
}

/* The decision explain names for REQUEST... (--json), or "" for a default. */
static char *explained_rule(struct policyd_run *run, const char *const *args)
{
	const char *argv[24] = { "--json", "explain" };
	struct policyctl_output o;
	size_t k = 2;
	json_t *j;
	char *rule;

	for (size_t i = 0; args[i] && k < 23; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	CHECK_OK(policyctl_run(run, (uid_t)-1, argv, &o));
	CHECK(o.status == 0, "explain exit %d: %s", o.status, o.err);
	j = json_parse_check(o.out);
	rule = strdup(json_path_str_or_empty(j, "decision.rule"));
	json_decref(j);
	policyctl_output_done(&o);
	return rule;
}

#define CHECK_EXPLAINED(run, want, ...)                                                   \
	do {                                                                              \
		char *got_ = explained_rule(run, (const char *const[]){ __VA_ARGS__, NULL }); \
		CHECK(!strcmp(got_, want), "decided by \"%s\", not \"%s\"", got_, want);    \
		free(got_);                                                               \
	} while (0)

/* explain asks as allow and hid-policyd --explain do: the request with
 * --request (the second operand still works), and the device's USB
 * interface and report descriptor hash replaced, which the daemon takes
 * (the uhid device has no interface, and another hash). */
static void test_explain_takes_the_request_interface_and_descriptor_hash_as_options(void)
{
	static const char hash[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	static const char policy[] =
		"{ \"version\": 1, \"devices\": [\n"
		"  { \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5678\" },\n"
		"    \"rules\": [ { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
		"      \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" } ] },\n"
		"  { \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5678\",\n"
		"                \"interface\": 2 },\n"
		"    \"rules\": [ { \"name\": \"interface-2-no-output\", \"request\": \"output_report\",\n"
		"      \"report_id\": \"any\", \"action\": \"deny\" } ] },\n"
		"  { \"match\": { \"descriptor_sha256\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\" },\n"
		"    \"rules\": [ { \"name\": \"hash-no-feature-3\", \"request\": \"set_report\",\n"
		"      \"report_type\": \"feature\", \"report_id\": 3, \"action\": \"deny\" } ] } ] }\n";
	const struct uhid_dev_config cfg = {
		.name = "control test device",
		.vendor = TEST_VENDOR,
		.product = TEST_PRODUCT,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};
	struct policyctl_output out;
	struct policyd_case c;
	json_t *j;

	policyd_case_start(&c, &cfg, policy);
	CHECK_EXPLAINED(&c.run, "no-firmware-update", c.dev.sysname, "set_report", "--report",
			"feature", "--id", "0xf0");
	CHECK_EXPLAINED(&c.run, "no-firmware-update", c.dev.sysname, "--request", "set_report",
			"--report", "feature", "--id", "0xf0");
	CHECK_EXPLAINED(&c.run, "no-firmware-update", "--request", "set_report", "--report",
			"feature", "--id", "0xf0", c.dev.sysname);

	/* output report 2, which the descriptor declares (1 is an input
	 * report's: refused before any rule) */
	CHECK_EXPLAINED(&c.run, "", c.dev.sysname, "--request", "output_report", "--id", "2");
	CHECK_EXPLAINED(&c.run, "interface-2-no-output", c.dev.sysname, "--request",
			"output_report", "--id", "2", "--interface", "2");
	CHECK_EXPLAINED(&c.run, "", c.dev.sysname, "--request", "output_report", "--id", "2",
			"--interface", "1");

	CHECK_EXPLAINED(&c.run, "", c.dev.sysname, "--request", "set_report", "--report",
			"feature", "--id", "3");
	CHECK_EXPLAINED(&c.run, "hash-no-feature-3", c.dev.sysname, "--request", "set_report",
			"--report", "feature", "--id", "3", "--descriptor-sha256", hash);

	/* Output report 1 is not declared: refused before any rule, before
	 * a temporary allow too. */
	POLICYCTL(&c.run, (uid_t)-1, &out, "allow", c.dev.sysname, "--for", "60s");
	CHECK(out.status == 0, "allow: exit %d: %s", out.status, out.err);
	policyctl_output_done(&out);
	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "explain", c.dev.sysname, "--request", "output_report",
			   "--id", "1");
	CHECK(!strcmp(json_path_str_or_empty(j, "decision.action"), "deny") &&
	      json_is_true(json_object_get(json_object_get(j, "decision"), "enforced")),
	      "an undeclared output report is not refused");
	CHECK(strstr(json_path_str_or_empty(j, "text"), "declares no output report with ID 0x01"),
	      "explain says: %s", json_path_str_or_empty(j, "text"));
	json_decref(j);

	policyd_case_end(&c);
}

/* A device names itself too: a name that is not UTF-8 is listed (its
 * foreign bytes as '?') and a grant for the device is audited. */
static void test_a_device_name_that_is_not_utf8_is_listed_and_its_grant_audited(void)
{
	char by_device[300];
	const char *granted[] = { "event=exception_granted", by_device, NULL };
	struct policyd_case c;
	json_t *j, *d;

	start_named_case(&c, "bad \xff\xfe name");
	snprintf(by_device, sizeof(by_device), "device.sysfs=%s", c.dev.sysname);

	d = policyd_case_device_view(&c);
	CHECK(!strcmp(json_path_str_or_empty(d, "name"), "bad ?? name"), "name \"%s\"", json_path_str_or_empty(d, "name"));
	CHECK(json_is_true(json_object_get(d, "protected")), "not protected");
	json_decref(d);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "explain", c.dev.sysname, "set_report", "--report", "feature", "--id", "0xf0");
	CHECK(!strcmp(json_path_str_or_empty(j, "decision.action"), "deny"), "explain: %s", json_path_str_or_empty(j, "decision.action"));
	json_decref(j);

	j = POLICYCTL_JSON(&c.run, (uid_t)-1, "allow", c.dev.sysname, "--for", "1m");
	json_decref(j);
	CHECK_EQ(policyd_audit_count(&c.run, granted, 1, 5000), 1);

	policyd_case_end(&c);
}

/* A device named with a C1 control (U+009B, CSI on some terminals) shows
 * up escaped in hid-policyctl's output, as text and as JSON. */
static void test_hid_policyctl_prints_no_c1_control_of_a_device_name(void)
{
	struct policyd_case c;
	struct policyctl_output o;
	json_t *j, *d;
	size_t i;
	bool found = false;

	start_named_case(&c, "pad \xc2\x9b" "2J");

	POLICYCTL(&c.run, (uid_t)-1, &o, "--json", "devices");
	CHECK_EQ(o.status, 0);
	CHECK(!strstr(o.out, "\xc2\x9b"), "--json printed the C1 control");
	j = json_parse_check(o.out);
	json_array_foreach(json_object_get(j, "devices"), i, d)
		found |= !strcmp(json_path_str_or_empty(d, "name"), "pad \xc2\x9b" "2J");
	CHECK(found, "the name does not parse back: %s", o.out);
	json_decref(j);
	policyctl_output_done(&o);

	POLICYCTL(&c.run, (uid_t)-1, &o, "devices");
	CHECK_EQ(o.status, 0);
	CHECK(!strstr(o.out, "\xc2\x9b") && strstr(o.out, "pad \\xc2\\x9b2J"), "devices: %s", o.out);
	policyctl_output_done(&o);

	policyd_case_end(&c);
}

/* polkit knows a client by pid and start time. One that exited before the
 * daemon accepted it may have left its pid to another process: it is
 * refused, not authorized as whoever holds the pid now. */
static void test_a_client_that_exited_before_it_was_accepted_is_refused(void)
{
	static const char status[] = "{\"version\":1,\"command\":\"status\"}\n";
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct policyd_run run;
	int fd, wstatus;
	pid_t child;
	json_t *j;

	start_daemon(&run);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/control", run.runtime_dir);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK_OK(fd);

	/* The daemon cannot accept while stopped; the connecting child is
	 * gone, and reaped, before it can. */
	CHECK_OK(kill(run.pid, SIGSTOP));
	child = fork();
	CHECK_OK(child);
	if (child == 0)
		_exit(connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0);
	CHECK_OK(waitpid(child, &wstatus, 0));
	CHECK(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0, "the child could not connect");
	CHECK_EQ(send(fd, status, strlen(status), MSG_NOSIGNAL), (long)strlen(status));
	CHECK_OK(kill(run.pid, SIGCONT));

	j = read_reply(fd);
	CHECK(json_is_false(json_object_get(j, "ok")), "a vanished client was served");
	CHECK(!json_object_get(j, "result"), "a result came along");
	CHECK(!strcmp(json_path_str_or_empty(j, "error"), "failed") && strstr(json_path_str_or_empty(j, "message"), "exited"),
	      "error %s: %s", json_path_str_or_empty(j, "error"), json_path_str_or_empty(j, "message"));
	json_decref(j);
	close(fd);

	/* A live client is served as ever. */
	j = POLICYCTL_JSON(&run, (uid_t)-1, "status");
	CHECK(json_object_get(j, "daemon"), "status");
	json_decref(j);
	stop_daemon(&run);
}

/* Clients the daemon holds besides the one asking (a root client: root
 * is never told busy while there is a free slot). */
static long long other_clients(struct policyd_run *run)
{
	static const char status[] = "{\"version\":1,\"command\":\"status\"}\n";
	json_t *j = raw_request(run, status, strlen(status));
	long long n;

	CHECK(json_is_true(json_object_get(j, "ok")), "status: %s", json_path_str_or_empty(j, "message"));
	n = json_integer_value(json_object_get(json_object_get(json_object_get(j, "result"), "daemon"),
						"clients"));
	json_decref(j);
	return n - 1;
}

/* Four users with eight clients each would fill the daemon's 32 slots:
 * users other than root together get 28, and root still gets in. */
static void test_users_together_cannot_lock_root_out_of_the_control_socket(void)
{
	enum { USERS = 4, PER_USER = 8, N = USERS * PER_USER };
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct policyd_run run;
	int fds[N], hold[2], ready[2], accepted = 0, refused = 0;
	pid_t children[N];
	json_t *j;

	start_daemon(&run);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/control", run.runtime_dir);
	CHECK_OK(pipe2(hold, O_CLOEXEC));
	CHECK_OK(pipe2(ready, O_CLOEXEC));
	for (int i = 0; i < N; i++) {
		uid_t uid = USER_UID + (uid_t)(i / PER_USER);
		bool done = false;

		fds[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		CHECK_OK(fds[i]);
		children[i] = fork();
		CHECK_OK(children[i]);
		if (children[i] == 0) {
			char c = 'c';

			/* Connected as UID, and alive until the test ends. */
			close(hold[1]);
			if (setgid(uid) < 0 || setuid(uid) < 0 ||
			    connect(fds[i], (struct sockaddr *)&addr, sizeof(addr)) < 0)
				c = 'x';
			(void)!write(ready[1], &c, 1);
			(void)!read(hold[0], &c, 1);
			_exit(0);
		}
		{
			char c = 0;

			CHECK(read(ready[0], &c, 1) == 1 && c == 'c', "client %d (uid %u) could not connect",
			      i, (unsigned int)uid);
		}
		/* Told busy, or accepted (the daemon holds one client more). */
		for (int tries = 0; !done && tries < 200; tries++) {
			struct pollfd p = { .fd = fds[i], .events = POLLIN };

			if (poll(&p, 1, 10) == 1) {
				json_t *r = read_reply(fds[i]);

				CHECK(!strcmp(json_path_str_or_empty(r, "error"), "busy"), "client %d: %s", i,
				      json_path_str_or_empty(r, "message"));
				json_decref(r);
				refused++;
				done = true;
			} else if (other_clients(&run) == accepted + 1) {
				accepted++;
				done = true;
			}
		}
		CHECK(done, "client %d was neither accepted nor refused", i);
	}
	CHECK_EQ(accepted, 28);
	CHECK_EQ(refused, N - 28);

	/* hid-policyctl as root, with the users' 28 clients still there. */
	j = POLICYCTL_JSON(&run, (uid_t)-1, "status");
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(j, "daemon"), "clients")), 29);
	json_decref(j);

	close(hold[1]);
	for (int i = 0; i < N; i++) {
		waitpid(children[i], NULL, 0);
		close(fds[i]);
	}
	close(hold[0]);
	close(ready[0]);
	close(ready[1]);
	stop_daemon(&run);
}

/* A log that cannot be read (here a directory where the file was) ends
 * the stream with an error, not with "0 records". */
static void test_log_that_cannot_be_read_is_an_error_not_an_empty_log(void)
{
	struct policyctl_output o;
	struct policyd_run run;
	char moved[160];

	start_daemon(&run);
	snprintf(moved, sizeof(moved), "%s.moved", run.audit_log);
	CHECK_OK(rename(run.audit_log, moved));
	CHECK_OK(mkdir(run.audit_log, 0700));
	POLICYCTL(&run, (uid_t)-1, &o, "log");
	CHECK(o.status != 0, "log of an unreadable file exited 0: %s", o.out);
	CHECK(strstr(o.err, "reading the audit log failed"), "message: %s", o.err);
	policyctl_output_done(&o);
	CHECK_OK(rmdir(run.audit_log));
	CHECK_OK(rename(moved, run.audit_log));
	stop_daemon(&run);
}

/* The allow request for DEV whose sender is ARGS (JSON members). */
static void allow_request(char *buf, size_t size, const struct uhid_dev *dev, const char *args)
{
	snprintf(buf, size,
		 "{\"version\": 1, \"command\": \"allow\", \"args\": {\"device\": \"%s\", "
		 "\"duration_s\": 600, %s}}\n", dev->sysname, args);
}

/* Whether FD has something to read now. */
static bool answered(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/*
 * The names an allow carries are the system's: a group name becomes its
 * gid, and a name the system lacks is a bad request naming it. A name
 * service that does not answer (a FIFO over /etc/group, in a mount
 * namespace of the case's own that the daemon shares: the lookup waits
 * to open it) holds up that request and nothing else: another client's
 * status is answered and a device plugged meanwhile is protected. Before,
 * the daemon looked names up on its event loop and answered nobody until
 * the lookup ended; and the sandbox killed it for a name /etc lacks
 * (nss-systemd's getrandom and prctl).
 */
static void test_a_name_service_that_hangs_holds_up_no_one_else(void)
{
	static const char status[] = "{\"version\": 1, \"command\": \"status\"}\n";
	char fifo[PATH_MAX], request[512];
	struct policyd_case c;
	struct uhid_dev other;
	json_t *reply;
	int slow, fd, waited_ms = 0;
	char *text;

	CHECK_OK(unshare(CLONE_NEWNS));
	CHECK_OK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	start_case(&c);

	allow_request(request, sizeof(request), &c.dev, "\"group\": [\"users\"]");
	reply = raw_request(&c.run, request, strlen(request));
	text = json_dumps(reply, JSON_COMPACT);
	test_log("allow for group users: %s", text);
	CHECK(text && strstr(text, "\"gids\":[100]"), "not an allow for gid 100: %s", text);
	free(text);
	json_decref(reply);
	allow_request(request, sizeof(request), &c.dev, "\"user\": \"hp-no-such-user\"");
	expect_error(&c.run, request, strlen(request), "bad-request",
		     "no user \"hp-no-such-user\" on this system");

	snprintf(fifo, sizeof(fifo), "%s/group.fifo", c.run.dir);
	CHECK_OK(mkfifo(fifo, 0644));
	CHECK_OK(mount(fifo, "/etc/group", NULL, MS_BIND, NULL));
	slow = connect_control(&c.run);
	allow_request(request, sizeof(request), &c.dev, "\"group\": [\"hp-slow\"]");
	CHECK_EQ(send(slow, request, strlen(request), MSG_NOSIGNAL), (ssize_t)strlen(request));

	reply = raw_request(&c.run, status, strlen(status));
	CHECK(json_is_true(json_object_get(reply, "ok")), "status: %s",
	      json_path_str_or_empty(reply, "message"));
	json_decref(reply);
	create_device(&other, OTHER_PRODUCT);
	while (firewall_instance_count(other.hid_id) < 1) {
		CHECK(waited_ms < 20000, "a device plugged during the lookup is not protected within 20 s");
		usleep(50 * 1000);
		waited_ms += 50;
	}
	CHECK(!answered(slow), "the allow was answered before its group was looked up");

	/* The name service gives up: opened, the FIFO cannot be read as
	 * a file (glibc seeks it), and the lookup goes on without it. */
	fd = open(fifo, O_WRONLY | O_CLOEXEC);
	CHECK_OK(fd);
	close(fd);
	reply = read_reply(slow);
	close(slow);
	CHECK(!json_is_true(json_object_get(reply, "ok")), "an allow for a group no one knows");
	CHECK(strstr(json_path_str_or_empty(reply, "message"), "no group \"hp-slow\" on this system"),
	      "%s", json_path_str_or_empty(reply, "message"));
	json_decref(reply);

	CHECK_OK(umount("/etc/group"));
	uhid_dev_destroy(&other);
	policyd_case_end(&c);
}

static const struct test_case tests[] = {
	{ "a_name_service_that_hangs_holds_up_no_one_else",
	  test_a_name_service_that_hangs_holds_up_no_one_else },
	{ "log_that_cannot_be_read_is_an_error_not_an_empty_log",
	  test_log_that_cannot_be_read_is_an_error_not_an_empty_log },
	{ "every_command_works_as_root_and_its_json_parses",
	  test_every_command_works_as_root_and_its_json_parses, 120 },
	{ "log_filters_return_exactly_the_matching_records",
	  test_log_filters_return_exactly_the_matching_records },
	{ "allow_for_2s_lets_a_denied_request_through_until_it_expires",
	  test_allow_for_2s_lets_a_denied_request_through_until_it_expires },
	{ "allow_survives_a_reload_and_revoke_ends_it",
	  test_allow_survives_a_reload_and_revoke_ends_it },
	{ "allow_ends_when_the_device_is_removed",
	  test_allow_ends_when_the_device_is_removed },
	{ "stopping_the_daemon_ends_its_temporary_allows",
	  test_stopping_the_daemon_ends_its_temporary_allows },
	{ "unprivileged_user_is_refused_with_a_clear_message_and_no_data",
	  test_unprivileged_user_is_refused_with_a_clear_message_and_no_data },
	{ "runtime_dir_socket_and_audit_log_have_the_documented_modes",
	  test_runtime_dir_socket_and_audit_log_have_the_documented_modes },
	{ "malformed_requests_get_clear_errors_and_the_daemon_keeps_running",
	  test_malformed_requests_get_clear_errors_and_the_daemon_keeps_running },
	{ "log_follow_streams_records_as_they_happen_and_after_rotation",
	  test_log_follow_streams_records_as_they_happen_and_after_rotation },
	{ "an_allow_expires_even_where_a_reload_left_the_old_rules",
	  test_an_allow_expires_even_where_a_reload_left_the_old_rules },
	{ "a_granting_client_s_command_name_is_escaped_and_its_grant_audited",
	  test_a_granting_client_s_command_name_is_escaped_and_its_grant_audited },
	{ "explain_takes_the_request_interface_and_descriptor_hash_as_options",
	  test_explain_takes_the_request_interface_and_descriptor_hash_as_options },
	{ "a_device_name_that_is_not_utf8_is_listed_and_its_grant_audited",
	  test_a_device_name_that_is_not_utf8_is_listed_and_its_grant_audited },
	{ "hid_policyctl_prints_no_c1_control_of_a_device_name",
	  test_hid_policyctl_prints_no_c1_control_of_a_device_name },
	{ "a_client_that_exited_before_it_was_accepted_is_refused",
	  test_a_client_that_exited_before_it_was_accepted_is_refused },
	{ "users_together_cannot_lock_root_out_of_the_control_socket",
	  test_users_together_cannot_lock_root_out_of_the_control_socket },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "e2e-control", tests, ARRAY_SIZE(tests));
}
