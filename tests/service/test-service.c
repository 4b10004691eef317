// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyd as systemd runs it: the installed hid-policyd.service, under
 * the guest's own systemd (PID 1), systemd-udevd with the installed udev
 * rule, journald, D-Bus and polkitd. tests/service/run.sh installed what
 * `meson install` installs and the test users; every test starts the unit
 * from a stopped state with its own policy in /etc/hid-policy.d, and looks
 * at both ends: what systemctl says, and what the device received.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "hidraw_racer.h"
#include "json_path.h"
#include "man_example.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define UNIT "hid-policyd.service"
#define POLICY_DIR "/etc/hid-policy.d"
#define POLICY_NAME "50-service-test.json"
#define POLICY_FILE POLICY_DIR "/" POLICY_NAME
#define TEST_VENDOR 0x1234
#define TEST_PRODUCT 0x7b01
#define FIRMWARE_ID 0xf0	/* refused by firmware_policy */
#define FEATURE_ID 4		/* refused by the reloaded policy instead */
#define CAP_BPF_BIT 39
#define EXIT_DENIED 3		/* hid-policyctl(1), EXIT STATUS */

/* tests/service/run.sh creates these users (hp-svc-auditor in group adm). */
#define USER_PLAIN "hp-svc-user"
#define USER_AUDITOR "hp-svc-auditor"

static const char firmware_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"service-test-pad\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x7b01\" },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

/* What a good reload brings: 0xf0 allowed, feature 4 refused. */
static const char feature4_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"service-test-pad\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x7b01\" },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-feature-4\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0x04\", \"action\": \"deny\" }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

/* A rule with a misspelt key: a semantic error with a JSON path. */
static const char broken_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"service-test-pad\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x7b01\" },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-feature-4\", \"requets\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0x04\", \"action\": \"deny\" }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Run a shell command; its exit status, and what it printed (stdout and
 * stderr) in OUT when not NULL (free it). */
static int sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh(char **out, const char *fmt, ...)
{
	char *cmd = NULL, *full = NULL, *text = NULL, buf[4096];
	size_t size = 0, n;
	FILE *p, *mem;
	va_list ap;
	int status, len;

	va_start(ap, fmt);
	len = vasprintf(&cmd, fmt, ap);
	va_end(ap);
	CHECK(len >= 0, "out of memory");
	CHECK(asprintf(&full, "( %s ) 2>&1", cmd) >= 0, "out of memory");
	free(cmd);
	p = popen(full, "r");
	CHECK(p, "cannot run %s: %s", full, strerror(errno));
	mem = open_memstream(&text, &size);
	CHECK(mem, "out of memory");
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, mem);
	fclose(mem);
	status = pclose(p);
	if (out)
		*out = text;
	else
		free(text);
	free(full);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A path that run.sh exported (the build's install directories). */
static const char *installed(const char *var)
{
	const char *v = getenv(var);

	CHECK(v && *v, "%s is not set: run this through tests/service/run.sh", var);
	return v;
}

/* `systemctl show -p NAME --value` of the unit, into BUF. */
static const char *unit_property(const char *name, char *buf, size_t size)
{
	char *out = NULL;
	size_t len;

	CHECK_EQ(sh(&out, "systemctl show -p %s --value " UNIT, name), 0);
	snprintf(buf, size, "%s", out);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	free(out);
	return buf;
}

static pid_t main_pid(void)
{
	char buf[32];

	return (pid_t)atoi(unit_property("MainPID", buf, sizeof(buf)));
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f, "cannot write %s: %s", path, strerror(errno));
	fputs(text, f);
	CHECK(fclose(f) == 0, "cannot write %s: %s", path, strerror(errno));
}

/*
 * Every test starts here: the unit stopped and not failed, no firewall
 * left (hid-policyd --cleanup, as hid-policyd(8) says), POLICY as the only
 * administrator's rule set.
 */
static void service_reset(const char *policy)
{
	char *out = NULL;

	sh(NULL, "systemctl stop " UNIT "; systemctl reset-failed " UNIT);
	CHECK(sh(&out, "%s/hid-policyd --cleanup", installed("HID_POLICY_SBINDIR")) == 0,
	      "hid-policyd --cleanup failed: %s", out);
	free(out);
	CHECK_EQ(sh(NULL, "rm -f " POLICY_DIR "/*.json"), 0);
	write_text(POLICY_FILE, policy);
}

static void service_start(void)
{
	char *out = NULL;
	int st = sh(&out, "systemctl start " UNIT);

	if (st != 0) {
		char *journal = NULL;

		sh(&journal, "journalctl -b -u " UNIT " -o cat --no-pager | tail -n 30");
		CHECK(st == 0, "systemctl start: exit %d: %s\nthe unit's journal:\n%s", st, out,
		      journal);
	}
	free(out);
}

static void test_pad_create(struct uhid_dev *dev, int *fd)
{
	const struct uhid_dev_config cfg = {
		.name = "service test pad",
		.vendor = TEST_VENDOR,
		.product = TEST_PRODUCT,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};

	CHECK_OK(uhid_dev_create(dev, &cfg));
	*fd = uhid_dev_open_hidraw(dev, 0);
	CHECK_OK(*fd);
}

/* The firmware update is refused with EPERM and never reaches the device. */
static void expect_refused(struct uhid_dev *dev, int fd, uint8_t id, const char *when)
{
	unsigned long before = uhid_dev_count(dev, UHID_DEV_SET_REPORT, id);
	int err = uhid_hidraw_set_feature(fd, id);

	CHECK(err == EPERM, "%s: feature 0x%02x: %s, not EPERM", when, id, strerror(err));
	CHECK(uhid_dev_count(dev, UHID_DEV_SET_REPORT, id) == before,
	      "%s: feature 0x%02x reached the device", when, id);
}

static void expect_reaches(struct uhid_dev *dev, int fd, uint8_t id, const char *when)
{
	unsigned long before = uhid_dev_count(dev, UHID_DEV_SET_REPORT, id);
	int err = uhid_hidraw_set_feature(fd, id);

	CHECK(err == 0, "%s: feature 0x%02x: %s", when, id, strerror(err));
	CHECK(uhid_dev_count(dev, UHID_DEV_SET_REPORT, id) == before + 1,
	      "%s: feature 0x%02x did not reach the device", when, id);
}

static void test_start_is_active_only_once_present_devices_are_protected(void)
{
	struct uhid_dev dev;
	char buf[256];
	int fd;

	service_reset(firmware_policy);
	test_pad_create(&dev, &fd);
	expect_reaches(&dev, fd, FIRMWARE_ID, "before the start");
	CHECK_EQ(firewall_instance_count(dev.hid_id), 0);

	/* Type=notify: systemctl start returns when the daemon said READY=1. */
	service_start();
	CHECK(!strcmp(unit_property("ActiveState", buf, sizeof(buf)), "active"),
	      "ActiveState %s", buf);
	CHECK_EQ(firewall_instance_count(dev.hid_id), 1);
	expect_refused(&dev, fd, FIRMWARE_ID, "right after systemctl start");
	CHECK(!strcmp(unit_property("StatusText", buf, sizeof(buf)),
		      "running: 1 device protected"),
	      "StatusText \"%s\"", buf);
	close(fd);
	uhid_dev_destroy(&dev);
}

/* Stand-in for the rules that open controllers to users (Steam's
 * 60-steam-input.rules, uaccess), sorting after the installed rule. */
#define OPEN_TO_USERS_RULE "/run/udev/rules.d/61-service-test-open.rules"

static void test_hotplugged_device_is_protected_before_its_node_opens_to_users(void)
{
	struct passwd *pw = getpwnam(USER_PLAIN);
	const struct uhid_dev_config dualsense = hidraw_race_dualsense();
	unsigned int rounds = 5;

	CHECK(pw, "no user %s (tests/service/run.sh creates it)", USER_PLAIN);
	/* The shipped DualSense rule set (installed in the vendor directory)
	 * refuses the firmware update 0xf4. */
	service_reset("{ \"version\": 1, \"devices\": [] }\n");
	write_text(OPEN_TO_USERS_RULE,
		   "# service test: every hidraw node open to everybody\n"
		   "ACTION==\"add\", KERNEL==\"hidraw*\", MODE=\"0666\"\n");
	CHECK_EQ(sh(NULL, "udevadm control --reload"), 0);
	service_start();

	for (unsigned int i = 0; i < rounds; i++) {
		const struct hidraw_racer_config cfg = {
			.drop_privileges = true,
			.uid = pw->pw_uid,
			.gid = pw->pw_gid,
			.report = { 0xf4, 0x00 },
			.size = HIDRAW_RACER_REPORT_MAX,
			.timeout_ms = 20000,
		};
		struct hidraw_race_round r;

		CHECK_OK(hidraw_race_round(&cfg, &dualsense, &r, NULL, NULL));
		test_log("round %u: %s opened %s after %.1f ms, request: %s, reached the device %lu times",
			 i, USER_PLAIN, r.racer.node,
			 (r.racer.opened_ns - r.racer.created_ns) / 1e6,
			 r.racer.request_errno ? strerror(r.racer.request_errno) : "accepted",
			 r.reached);
		/* The racer got in (udev opened the node to it) and was
		 * refused: the firewall was there first. */
		CHECK(r.racer.opened, "round %u: the racer never opened %s (%s)", i,
		      r.racer.node, strerror(r.racer.open_errno));
		CHECK(r.racer.request_errno == EPERM, "round %u: request %s", i,
		      strerror(r.racer.request_errno));
		CHECK_EQ(r.reached, 0);
		CHECK_EQ(sh(NULL, "udevadm settle --timeout=30"), 0);
	}
	unlink(OPEN_TO_USERS_RULE);
	sh(NULL, "udevadm control --reload");
}

static void test_reload_of_a_broken_policy_fails_and_keeps_the_rules(void)
{
	struct uhid_dev dev;
	char buf[512], *out = NULL;
	pid_t pid;
	int fd, st;

	service_reset(firmware_policy);
	test_pad_create(&dev, &fd);
	service_start();
	pid = main_pid();
	expect_refused(&dev, fd, FIRMWARE_ID, "after the start");

	write_text(POLICY_FILE, broken_policy);
	st = sh(&out, "systemctl reload " UNIT);
	test_log("systemctl reload (broken policy): exit %d: %s", st, out);
	CHECK(st != 0, "systemctl reload of a broken policy succeeded");
	free(out);
	CHECK(!strcmp(unit_property("ActiveState", buf, sizeof(buf)), "active"),
	      "ActiveState %s after the failed reload", buf);
	CHECK_EQ(main_pid(), pid);
	CHECK(strstr(unit_property("StatusText", buf, sizeof(buf)), "reload failed"),
	      "StatusText \"%s\"", buf);
	expect_refused(&dev, fd, FIRMWARE_ID, "after the failed reload");
	expect_reaches(&dev, fd, FEATURE_ID, "after the failed reload");
	/* The unit's journal has the daemon's and hid-policyctl's account:
	 * the file (its full path, line and column), the JSON path and the
	 * key. */
	CHECK_EQ(sh(&out, "journalctl -b -u " UNIT " -o cat --no-pager"), 0);
	CHECK(strstr(out, POLICY_FILE ":") &&
	      strstr(out, ": devices[0].rules[0]: unknown key \"requets\"") &&
	      strstr(out, "hid-policyctl: reload: the policy is rejected"),
	      "the journal does not name %s and its error:\n%s", POLICY_NAME, out);
	free(out);

	write_text(POLICY_FILE, feature4_policy);
	st = sh(&out, "systemctl reload " UNIT);
	CHECK(st == 0, "systemctl reload of a good policy: exit %d: %s", st, out);
	free(out);
	CHECK(!strcmp(unit_property("StatusText", buf, sizeof(buf)),
		      "running: 1 device protected"),
	      "StatusText \"%s\"", buf);
	/* In force as soon as systemctl returned. */
	expect_refused(&dev, fd, FEATURE_ID, "after the good reload");
	expect_reaches(&dev, fd, FIRMWARE_ID, "after the good reload");
	CHECK_EQ(main_pid(), pid);
	close(fd);
	uhid_dev_destroy(&dev);
}

/* Wait until the unit is active with a main process other than OLD. */
static pid_t wait_restarted(pid_t old, int timeout_ms)
{
	long deadline = now_ms() + timeout_ms;
	char buf[64];

	while (now_ms() < deadline) {
		pid_t pid = main_pid();

		if (pid > 0 && pid != old &&
		    !strcmp(unit_property("ActiveState", buf, sizeof(buf)), "active"))
			return pid;
		usleep(50000);
	}
	return 0;
}

static void test_stop_keeps_firewalls_restart_adopts_and_a_killed_daemon_comes_back(void)
{
	struct uhid_dev dev;
	char buf[64], *out = NULL;
	pid_t pid, fresh;
	int fd;

	service_reset(firmware_policy);
	test_pad_create(&dev, &fd);
	service_start();
	CHECK_EQ(firewall_instance_count(dev.hid_id), 1);

	/* KillMode=process: stop ends the daemon alone; the firewall stays. */
	CHECK_EQ(sh(NULL, "systemctl stop " UNIT), 0);
	CHECK(!strcmp(unit_property("ActiveState", buf, sizeof(buf)), "inactive"),
	      "ActiveState %s after stop", buf);
	CHECK_EQ(firewall_instance_count(dev.hid_id), 1);
	expect_refused(&dev, fd, FIRMWARE_ID, "with the unit stopped");

	/* The next start adopts the pinned instance: still one. */
	service_start();
	CHECK_EQ(firewall_instance_count(dev.hid_id), 1);
	CHECK_EQ(sh(&out, "journalctl -b -u " UNIT " -o cat --no-pager"), 0);
	CHECK(strstr(out, "adopted from a previous run"), "no adoption in the journal:\n%s", out);
	free(out);
	pid = main_pid();
	CHECK_EQ(sh(NULL, "systemctl restart " UNIT), 0);
	CHECK(main_pid() != pid, "systemctl restart kept process %d", (int)pid);
	CHECK_EQ(firewall_instance_count(dev.hid_id), 1);
	expect_refused(&dev, fd, FIRMWARE_ID, "after systemctl restart");

	/* Restart=on-failure: kill -9, protection holds while it is down,
	 * and systemd starts it again (RestartSec=1s). */
	pid = main_pid();
	unsigned int restarts = (unsigned int)atoi(unit_property("NRestarts", buf, sizeof(buf)));

	CHECK_OK(kill(pid, SIGKILL));
	expect_refused(&dev, fd, FIRMWARE_ID, "right after kill -9");
	fresh = wait_restarted(pid, 60000);
	CHECK(fresh > 0, "the unit did not come back after kill -9 of %d", (int)pid);
	CHECK_EQ(atoi(unit_property("NRestarts", buf, sizeof(buf))), restarts + 1);
	CHECK_EQ(firewall_instance_count(dev.hid_id), 1);
	expect_refused(&dev, fd, FIRMWARE_ID, "after the automatic restart");
	close(fd);
	uhid_dev_destroy(&dev);
}

/* The value of FIELD ("CapEff:") in a /proc status file, or "". */
static const char *status_field(const char *status, const char *field, char *buf, size_t size)
{
	const char *p = strstr(status, field);
	size_t n = 0;

	buf[0] = '\0';
	if (!p)
		return buf;
	p += strlen(field);
	while (*p == ' ' || *p == '\t')
		p++;
	while (p[n] && p[n] != '\n' && n < size - 1)
		n++;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

static void test_sandbox_in_proc_is_what_the_manual_says(void)
{
	char path[128], status[8192], v[64], cap_bpf[32], own[64], theirs[64];
	unsigned int n_tasks = 0;
	struct dirent *task;
	struct uhid_dev dev;
	pid_t pid;
	DIR *tasks;
	int fd;

	service_reset(firmware_policy);
	test_pad_create(&dev, &fd);
	service_start();
	pid = main_pid();
	snprintf(cap_bpf, sizeof(cap_bpf), "%016llx", 1ULL << CAP_BPF_BIT);

	/* hid-policyd(8), Sandbox: the main thread keeps CAP_BPF alone,
	 * every thread has an empty bounding set, no_new_privs and a seccomp
	 * filter; the polkit worker and its threads hold no capability. */
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	tasks = opendir(path);
	CHECK(tasks, "cannot list %s: %s", path, strerror(errno));
	while ((task = readdir(tasks))) {
		int tid = atoi(task->d_name);
		bool main_thread = tid == pid;
		ssize_t n;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, tid);
		n = read_file(path, status, sizeof(status) - 1);
		CHECK(n > 0, "cannot read %s", path);
		status[n] = '\0';
		n_tasks++;
		CHECK(!strcmp(status_field(status, "CapEff:", v, sizeof(v)),
			      main_thread ? cap_bpf : "0000000000000000"),
		      "thread %d: CapEff %s", tid, v);
		CHECK(!strcmp(status_field(status, "CapPrm:", v, sizeof(v)),
			      main_thread ? cap_bpf : "0000000000000000"),
		      "thread %d: CapPrm %s", tid, v);
		CHECK(!strcmp(status_field(status, "CapInh:", v, sizeof(v)), "0000000000000000"),
		      "thread %d: CapInh %s", tid, v);
		CHECK(!strcmp(status_field(status, "CapBnd:", v, sizeof(v)), "0000000000000000"),
		      "thread %d: CapBnd %s", tid, v);
		CHECK(!strcmp(status_field(status, "CapAmb:", v, sizeof(v)), "0000000000000000"),
		      "thread %d: CapAmb %s", tid, v);
		CHECK(!strcmp(status_field(status, "NoNewPrivs:", v, sizeof(v)), "1"),
		      "thread %d: NoNewPrivs %s", tid, v);
		CHECK(!strcmp(status_field(status, "Seccomp:", v, sizeof(v)), "2"),
		      "thread %d: Seccomp %s (2: filter)", tid, v);
		/* systemd's filters (SystemCallFilter=, ...) and the daemon's */
		CHECK(atoi(status_field(status, "Seccomp_filters:", v, sizeof(v))) >= 2,
		      "thread %d: Seccomp_filters %s", tid, v);
	}
	closedir(tasks);
	CHECK(n_tasks >= 1, "no threads listed");
	test_log("%u threads checked", n_tasks);

	/* The unit's namespaces: its own mounts (ProtectSystem=strict,
	 * PrivateDevices=, ...) and its own network (PrivateNetwork=). */
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	CHECK(readlink(path, theirs, sizeof(theirs) - 1) > 0, "%s", path);
	CHECK(readlink("/proc/1/ns/mnt", own, sizeof(own) - 1) > 0, "/proc/1/ns/mnt");
	CHECK(strcmp(own, theirs) != 0, "the daemon shares PID 1's mount namespace");
	memset(own, 0, sizeof(own));
	memset(theirs, 0, sizeof(theirs));
	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	CHECK(readlink(path, theirs, sizeof(theirs) - 1) > 0, "%s", path);
	CHECK(readlink("/proc/1/ns/net", own, sizeof(own) - 1) > 0, "/proc/1/ns/net");
	CHECK(strcmp(own, theirs) != 0, "the daemon shares PID 1's network namespace");
	/* ... and still protects under them. */
	expect_refused(&dev, fd, FIRMWARE_ID, "in the sandbox");
	close(fd);
	uhid_dev_destroy(&dev);
}

/* hid-policyctl ARGS as USER in a login session (runuser -l: PAM, with
 * pam_systemd registering the session with logind). */
static int policyctl_as(const char *user, char **out, const char *args)
{
	return sh(out, "runuser -l %s -c '%s/hid-policyctl --no-ask-password %s'", user,
		  installed("HID_POLICY_BINDIR"), args);
}

static void test_policyctl_through_socket_and_polkit_as_users(void)
{
	struct uhid_dev dev;
	json_t *j;
	char *out = NULL;
	int fd, st;

	service_reset(firmware_policy);
	test_pad_create(&dev, &fd);
	service_start();
	expect_refused(&dev, fd, FIRMWARE_ID, "for the audit log");
	CHECK_EQ(sh(NULL, "systemctl start polkit.service"), 0);

	/* Root, as ExecReload= runs it. */
	st = sh(&out, "%s/hid-policyctl --json status", installed("HID_POLICY_BINDIR"));
	CHECK(st == 0, "root status: exit %d: %s", st, out);
	j = json_parse_check(out);
	test_log("root: authorization %s", json_path_str_or_empty(j, "daemon.authorization"));
	CHECK(!strcmp(json_path_str_or_empty(j, "daemon.authorization"), "polkit"),
	      "authorization \"%s\"", json_path_str_or_empty(j, "daemon.authorization"));
	json_decref(j);
	free(out);

	/* A user: status is everyone's, reload needs an administrator. */
	st = policyctl_as(USER_PLAIN, &out, "--json status");
	CHECK(st == 0, "%s status: exit %d: %s", USER_PLAIN, st, out);
	j = json_parse_check(out);
	CHECK(json_path_int(j, "counters.denied") >= 1, "denied counter %lld",
	      json_path_int(j, "counters.denied"));
	json_decref(j);
	free(out);
	st = policyctl_as(USER_PLAIN, &out, "reload");
	test_log("%s reload: exit %d: %s", USER_PLAIN, st, out);
	CHECK(st == EXIT_DENIED && strstr(out, "not authorized") &&
	      strstr(out, "org.hid-policy.reload"),
	      "%s reload: exit %d: %s", USER_PLAIN, st, out);
	free(out);
	/* The shipped polkit rule: group adm reads the audit log. */
	st = policyctl_as(USER_AUDITOR, &out, "--json log");
	CHECK(st == 0 && strstr(out, "no-firmware-update"), "%s log: exit %d: %s", USER_AUDITOR,
	      st, out);
	free(out);
	st = policyctl_as(USER_PLAIN, &out, "log");
	CHECK(st == EXIT_DENIED, "%s log: exit %d: %s", USER_PLAIN, st, out);
	free(out);
	/* Those commands ran in a session of logind's (pam_systemd put
	 * them in its scope), as a login's do. */
	CHECK_EQ(sh(&out, "runuser -l %s -c 'cat /proc/self/cgroup'", USER_PLAIN), 0);
	CHECK(strstr(out, "/session-") && strstr(out, ".scope"),
	      "%s's command is in no logind session: %s", USER_PLAIN, out);
	free(out);
	close(fd);
	uhid_dev_destroy(&dev);
}

static void test_journal_holds_the_daemons_messages(void)
{
	struct uhid_dev dev;
	char *out = NULL, since[64];
	int fd;

	service_reset(firmware_policy);
	/* Only what this test's run of the daemon logs. */
	snprintf(since, sizeof(since), "--since=@%lld", (long long)time(NULL) - 1);
	test_pad_create(&dev, &fd);
	service_start();
	expect_refused(&dev, fd, FIRMWARE_ID, "for the journal");
	CHECK_EQ(sh(NULL, "systemctl stop " UNIT), 0);
	CHECK_EQ(sh(&out, "journalctl -b %s SYSLOG_IDENTIFIER=hid-policyd -o cat --no-pager",
		    since), 0);
	test_log("journal:\n%s", out);
	CHECK(strstr(out, "running: 1 device protected"), "no start message");
	CHECK(strstr(out, "no-firmware-update"), "no denial naming the rule");
	CHECK(strstr(out, "stopping:"), "no stop message");
	free(out);
	close(fd);
	uhid_dev_destroy(&dev);
}

/* build/tests/hidraw-set-feature, which sends one feature report and exits
 * with the errno it got. */
static const char *set_feature_tool(void)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/tests/hidraw-set-feature",
		 installed("HID_POLICY_BUILDDIR"));
	return path;
}

/* Send feature ID to DEV from a transient unit NAME that systemd starts
 * (systemd-run --wait gives the unit's exit status, the errno); and check
 * that the device received it when WANT is 0, and did not otherwise. The
 * unit waits a second before it sends: the daemon hears of a unit's new
 * cgroup when systemd makes it, and until it has the unit's rules refuse
 * (hid-policy.d(5), "Senders"). */
/* hid-policyctl explain of a firmware update on DEV sent by SENDER (its
 * options): it succeeds and its text holds WANT and WANT2 (if given). */
static void explain_firmware_update(const struct uhid_dev *dev, const char *sender,
				    const char *want, const char *want2)
{
	char *out = NULL;
	int st = sh(&out, "%s/hid-policyctl --no-ask-password explain %s set_report --report feature --id 0x%02x %s",
		    installed("HID_POLICY_BINDIR"), strrchr(dev->hidraw, '/') + 1, FIRMWARE_ID,
		    sender);

	CHECK(st == 0 && strstr(out, want) && (!want2 || strstr(out, want2)),
	      "explain %s: exit %d, expected \"%s\"%s%s%s in: %s", sender, st, want,
	      want2 ? " and \"" : "", want2 ?: "", want2 ? "\"" : "", out);
	free(out);
}

static void send_from_unit(struct uhid_dev *dev, const char *name, uint8_t id, int want)
{
	unsigned long before = uhid_dev_count(dev, UHID_DEV_SET_REPORT, id);
	char *out = NULL;
	int st;

	st = sh(&out, "systemd-run --quiet --collect --wait --unit=%s -p Type=exec /bin/sh -c 'sleep 1; exec %s %s %u'",
		name, set_feature_tool(), dev->hidraw, (unsigned int)id);
	CHECK(st == want, "from %s: exit %d, expected %d (%s): %s", name, st, want,
	      want ? strerror(want) : "accepted", out);
	CHECK(uhid_dev_count(dev, UHID_DEV_SET_REPORT, id) == before + (want == 0),
	      "from %s: the device received %lu feature 0x%02x reports, expected %d", name,
	      uhid_dev_count(dev, UHID_DEV_SET_REPORT, id) - before, (unsigned int)id, want == 0);
	free(out);
}

/* Clock ticks process PID has run (user and system), from /proc. */
static unsigned long long cpu_ticks(pid_t pid)
{
	unsigned long long utime = 0, stime = 0;
	char path[64], buf[1024], *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "%s: %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	CHECK(n > 0, "%s: cannot read", path);
	buf[n] = 0;
	/* after "(comm) ", fields 3..: utime and stime are 14 and 15 */
	end = strrchr(buf, ')');
	CHECK(end && sscanf(end + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			    &utime, &stime) == 2, "%s: cannot parse", path);
	return utime + stime;
}

/* Acceptance (a): a firmware update reaches a game controller from
 * fwupd.service alone, whatever else runs as root. Also: explain tells the
 * same by unit and by process, hid-policyctl allow --unit opens a window for
 * that unit alone, and the daemon, watching the units' slices, sleeps while
 * nothing happens. */
static void test_a_firmware_update_passes_from_the_updater_unit_alone(void)
{
	static const uint8_t pad_rdesc[] = UHID_CLASS_RDESC(0x05);
	const struct uhid_dev_config cfg = {
		.name = "any vendor's game pad", .vendor = 0x2dc8, .product = 0x3106,
		.rdesc = pad_rdesc, .rdesc_size = sizeof(pad_rdesc),
	};
	const char *impostor = "/sys/fs/cgroup/hp-impostor.slice";
	unsigned long before;
	struct uhid_dev dev;
	char *out = NULL, *policy;
	int st;

	/* Acceptance (a) of the policy language, as hid-policy.d(5) prints
	 * it: every game controller, any vendor, refuses the firmware update
	 * (feature reports 0xF0 to 0xF4) except from fwupd.service. */
	policy = man_example("30-game-controllers.json");
	service_reset(policy);
	free(policy);
	CHECK_OK(uhid_dev_create(&dev, &cfg));
	/* fwupd.service has never run: the daemon starts with its cgroup
	 * unknown and must see it made. */
	CHECK(sh(NULL, "systemctl is-active --quiet fwupd.service") != 0,
	      "fwupd.service is running before the test");
	service_start();

	send_from_unit(&dev, "fwupd.service", FIRMWARE_ID, 0);
	send_from_unit(&dev, "hp-other-updater.service", FIRMWARE_ID, EPERM);
	/* Started again: a new cgroup, followed. */
	send_from_unit(&dev, "fwupd.service", FIRMWARE_ID, 0);

	/* Root outside the unit, in the test's own cgroup. */
	before = uhid_dev_count(&dev, UHID_DEV_SET_REPORT, FIRMWARE_ID);
	st = sh(&out, "%s %s %u", set_feature_tool(), dev.hidraw, FIRMWARE_ID);
	CHECK(st == EPERM, "root outside the unit: exit %d: %s", st, out);
	free(out);

	/* A cgroup of the same name elsewhere is not the unit. */
	CHECK_EQ(sh(NULL, "mkdir -p %s/fwupd.service", impostor), 0);
	st = sh(&out, "/bin/sh -c 'echo $$ > %s/fwupd.service/cgroup.procs && exec %s %s %u'",
		impostor, set_feature_tool(), dev.hidraw, FIRMWARE_ID);
	CHECK(st == EPERM, "from %s/fwupd.service: exit %d: %s", impostor, st, out);
	free(out);
	CHECK(uhid_dev_count(&dev, UHID_DEV_SET_REPORT, FIRMWARE_ID) == before,
	      "a request from outside the unit reached the device");
	sh(NULL, "rmdir %s/fwupd.service %s", impostor, impostor);

	/* The daemon said when the unit ran. */
	sh(&out, "journalctl -b -u " UNIT " -o cat --no-pager");
	CHECK(strstr(out, "unit fwupd.service: running"), "no message of the unit starting:\n%s", out);
	free(out);

	/* hid-policyctl explain --unit, with the unit running and not. */
	CHECK_EQ(sh(NULL, "systemd-run --quiet --collect --unit=fwupd.service /bin/sleep 60"), 0);
	sleep(1);	/* the daemon compiles the rules with the unit's new cgroup */
	explain_firmware_update(&dev, "--unit fwupd.service",
				"decision: allow by rule \"controllers-firmware-by-fwupd\"", NULL);
	/* --pid: the process's unit, told by its cgroup; this test's own
	 * process is in no such unit */
	explain_firmware_update(&dev, "--pid $(systemctl show -P MainPID fwupd.service)",
				"in cgroup /system.slice/fwupd.service",
				"decision: allow by rule \"controllers-firmware-by-fwupd\"");
	/* (the shell that runs the command: this program may be in a home
	 * directory, which the daemon's unit cannot see) */
	explain_firmware_update(&dev, "--pid $$", "is not in the unit the rule names",
				"decision: deny (EPERM) by rule \"controllers-deny-feature-f0-f4\"");
	CHECK_EQ(sh(NULL, "systemctl stop fwupd.service"), 0);
	explain_firmware_update(&dev, "--unit hp-other-updater.service", "not running now",
				"decision: deny (EPERM) by rule \"controllers-deny-feature-f0-f4\"");

	/* A temporary allow for one unit that has not run yet: it alone. */
	st = sh(&out, "%s/hid-policyctl --no-ask-password allow %s --for 5m --request set_report --report feature --id 0xf0 --unit hp-flasher.service",
		installed("HID_POLICY_BINDIR"), strrchr(dev.hidraw, '/') + 1);
	CHECK(st == 0, "allow --unit: exit %d: %s", st, out);
	CHECK(strstr(out, "unit hp-flasher.service"), "the allow does not name its unit: %s", out);
	free(out);
	send_from_unit(&dev, "hp-flasher.service", FIRMWARE_ID, 0);
	send_from_unit(&dev, "hp-other-updater.service", FIRMWARE_ID, EPERM);

	/* Idle for 3 s: a daemon woken by its own watches would spin. */
	{
		pid_t pid = main_pid();
		long hz = sysconf(_SC_CLK_TCK);
		unsigned long long idle_from = cpu_ticks(pid), used;

		sleep(3);
		used = cpu_ticks(pid) - idle_from;
		test_log("hid-policyd ran %llu of %ld ticks while idle", used, 3 * hz);
		CHECK(used < (unsigned long long)hz / 2, "hid-policyd ran %llu clock ticks in 3 s of idling (%ld a second): it is busy with nothing",
		      used, hz);
	}
	uhid_dev_destroy(&dev);
}

/* A writable attribute of a device under /sys/devices that the daemon
 * has no business writing: the USB root hub's authorized_default (which
 * devices get a driver; dummy_hcd's hub is always there), in PATH. */
static void foreign_attribute(char *path, size_t size)
{
	char *out = NULL;
	size_t len;

	CHECK_EQ(sh(&out, "realpath /sys/bus/usb/devices/usb*/authorized_default | head -n 1"), 0);
	snprintf(path, size, "%s", out);
	free(out);
	len = strlen(path);
	while (len > 0 && path[len - 1] == '\n')
		path[--len] = '\0';
	CHECK(!strncmp(path, "/sys/devices/", 13), "no USB root hub's authorized_default: '%s'",
	      path);
}

/* Write the value ATTR holds back to it, in the mount namespace of the
 * daemon's main process (where the unit's ReadOnlyPaths= hold): the exit
 * status, and what the shell said in *OUT. */
static int rewrite_in_daemons_mounts(pid_t pid, const char *attr, char **out)
{
	return sh(out, "nsenter -t %d -m -- sh -c 'v=$(cat %s) && echo \"$v\" > %s'", (int)pid,
		  attr, attr);
}

/* The unit keeps /sys read-only (the daemon used to be able to write any
 * attribute of /sys/devices: power/control, authorized, remove, a
 * driver_override), and a node udev kept closed while the decision was
 * late is still announced again once the daemon decides: through the
 * queue and hid-policy-announce.service. */
static void test_the_daemon_writes_no_sysfs_attribute_yet_a_late_node_opens(void)
{
	struct uhid_dev_config ds_cfg = hidraw_race_dualsense();
	char attr[512], uevent[600], buf[64], *out = NULL;
	struct uhid_dev ds;
	struct stat st;
	pid_t pid;

	/* The shipped DualSense rule set (the vendor directory) matches. */
	service_reset("{ \"version\": 1, \"devices\": [] }\n");
	write_text(OPEN_TO_USERS_RULE,
		   "# service test: every hidraw node open to everybody\n"
		   "ACTION==\"add\", KERNEL==\"hidraw*\", MODE=\"0666\"\n");
	CHECK_EQ(sh(NULL, "udevadm control --reload"), 0);
	service_start();
	pid = main_pid();

	foreign_attribute(attr, sizeof(attr));
	CHECK(sh(&out, "v=$(cat %s) && echo \"$v\" > %s", attr, attr) == 0,
	      "outside the unit, %s cannot be written either: %s", attr, out);
	free(out);
	CHECK(rewrite_in_daemons_mounts(pid, attr, &out) != 0,
	      "the daemon's unit may write %s", attr);
	CHECK(strstr(out, "Read-only file system"), "writing %s: %s", attr, out);
	free(out);

	/* Late: the daemon stopped, udev's helper gives up after 5 s and
	 * keeps the node closed. */
	CHECK_OK(kill(pid, SIGSTOP));
	CHECK_OK(uhid_dev_create(&ds, &ds_cfg));
	CHECK_EQ(sh(NULL, "udevadm settle --timeout=60"), 0);
	CHECK(stat(ds.hidraw, &st) == 0, "%s: %s", ds.hidraw, strerror(errno));
	CHECK((st.st_mode & 07777) == 0600, "%s is %04o while undecided", ds.hidraw,
	      st.st_mode & 07777);
	/* ... nor this node's uevent, which only the announcer writes */
	snprintf(uevent, sizeof(uevent), "/sys/class/hidraw/%s/uevent", strrchr(ds.hidraw, '/') + 1);
	CHECK(sh(&out, "nsenter -t %d -m -- sh -c 'echo change > %s'", (int)pid, uevent) != 0,
	      "the daemon's unit may write %s", uevent);
	free(out);

	CHECK_OK(kill(pid, SIGCONT));
	for (int i = 0; i < 300; i++) {
		if (stat(ds.hidraw, &st) == 0 && (st.st_mode & 07777) == 0666)
			break;
		usleep(100 * 1000);
	}
	if (stat(ds.hidraw, &st) < 0 || (st.st_mode & 07777) != 0666) {
		sh(&out, "ls -la /run/hid-policy/announce /run/hid-policy/closed; "
			 "systemctl status --no-pager hid-policy-announce.path hid-policy-announce.service; "
			 "journalctl -b --no-pager -o cat -u " UNIT " -u hid-policy-announce.path "
			 "-u hid-policy-announce.service | tail -n 40");
		CHECK(false, "%s is %04o 30 s after the daemon went on: not announced again\n%s",
		      ds.hidraw, st.st_mode & 07777, out);
	}
	CHECK(!strcmp(unit_property("ActiveState", buf, sizeof(buf)), "active"),
	      "the daemon is %s", buf);
	CHECK_EQ(sh(&out, "journalctl -b -u hid-policy-announce.service -o cat --no-pager"), 0);
	test_log("hid-policy-announce.service: %s", out);
	free(out);

	uhid_dev_destroy(&ds);
	unlink(OPEN_TO_USERS_RULE);
	sh(NULL, "udevadm control --reload");
}

static const struct test_case tests[] = {
	{ "a_firmware_update_passes_from_the_updater_unit_alone",
	  test_a_firmware_update_passes_from_the_updater_unit_alone, 240 },
	{ "start_is_active_only_once_present_devices_are_protected",
	  test_start_is_active_only_once_present_devices_are_protected, 180 },
	{ "hotplugged_device_is_protected_before_its_node_opens_to_users",
	  test_hotplugged_device_is_protected_before_its_node_opens_to_users, 300 },
	{ "reload_of_a_broken_policy_fails_and_keeps_the_rules",
	  test_reload_of_a_broken_policy_fails_and_keeps_the_rules, 180 },
	{ "stop_keeps_firewalls_restart_adopts_and_a_killed_daemon_comes_back",
	  test_stop_keeps_firewalls_restart_adopts_and_a_killed_daemon_comes_back, 240 },
	{ "sandbox_in_proc_is_what_the_manual_says",
	  test_sandbox_in_proc_is_what_the_manual_says, 180 },
	{ "policyctl_through_socket_and_polkit_as_users",
	  test_policyctl_through_socket_and_polkit_as_users, 300 },
	{ "journal_holds_the_daemons_messages", test_journal_holds_the_daemons_messages, 180 },
	{ "the_daemon_writes_no_sysfs_attribute_yet_a_late_node_opens",
	  test_the_daemon_writes_no_sysfs_attribute_yet_a_late_node_opens, 180 },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "service", tests, ARRAY_SIZE(tests));
}
