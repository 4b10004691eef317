// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Control-socket authorization against a real polkitd on a real system bus
 * (tests/lib/polkit_env): hid-policy's actions file and shipped rules, plus
 * the test rules below. Checks go through authorize.h as hid-policyd makes
 * them; every subject is a live process running as the user in question.
 */
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gio/gio.h>

#include "common/util.h"
#include "control/authorize.h"
#include "service/sandbox.h"
#include "harness.h"
#include "polkit_env.h"

#define VERDICT_TIMEOUT_MS 20000

static const char *const all_actions[] = {
	HID_POLICY_ACTION_STATUS, HID_POLICY_ACTION_LOG,
	HID_POLICY_ACTION_RELOAD, HID_POLICY_ACTION_ALLOW,
};

static const char *verdict_name(enum authz_verdict v)
{
	switch (v) {
	case AUTHZ_ALLOWED: return "allowed";
	case AUTHZ_DENIED: return "denied";
	case AUTHZ_CHALLENGE: return "challenge";
	case AUTHZ_ERROR: return "error";
	}
	return "?";
}

static void start_env(struct polkit_env *env)
{
	CHECK_OK(polkit_env_start(env, POLKIT_ENV_TEST_RULES));
}

static void submit(struct authorizer *a, uint64_t cookie, const struct polkit_env_subject *s,
		   const char *action, bool interactive)
{
	struct peer_cred peer = { .pid = s->pid, .uid = s->uid, .gid = s->uid };

	CHECK_OK(peer_cred_start_time(s->pid, &peer.start_time));
	CHECK_OK(authorizer_submit(a, cookie, &peer, action, NULL, interactive));
}

/* The next verdict, waited for on authorizer_fd() as the daemon would. */
static struct authz_result next_verdict(struct authorizer *a, int timeout_ms)
{
	struct pollfd pfd = { .fd = authorizer_fd(a), .events = POLLIN };
	struct authz_result res;
	int r;

	for (;;) {
		r = authorizer_take(a, &res);
		if (r == 0)
			return res;
		CHECK_EQ(r, -EAGAIN);
		r = poll(&pfd, 1, timeout_ms);
		CHECK(r >= 0, "poll: %m");
		CHECK(r == 1, "no verdict within %d ms", timeout_ms);
	}
}

/* Check and wait: the verdict must be WANT, its message contain every
 * string of NEEDLES (NULL-terminated). */
static void expect(struct authorizer *a, const struct polkit_env_subject *s, const char *action,
		   bool interactive, enum authz_verdict want, const char *const *needles)
{
	static uint64_t cookie = 1000;
	struct authz_result res;

	submit(a, ++cookie, s, action, interactive);
	res = next_verdict(a, VERDICT_TIMEOUT_MS);
	CHECK_EQ(res.cookie, cookie);
	test_log("uid %u %s%s: %s: %s", (unsigned int)s->uid, action,
		 interactive ? " (interactive)" : "", verdict_name(res.verdict), res.message);
	CHECK(res.verdict == want, "uid %u %s: %s, expected %s (%s)", (unsigned int)s->uid, action,
	      verdict_name(res.verdict), verdict_name(want), res.message);
	for (size_t i = 0; needles && needles[i]; i++)
		CHECK(strstr(res.message, needles[i]), "message \"%s\" lacks \"%s\"", res.message,
		      needles[i]);
}

static struct authorizer *new_authorizer(void)
{
	struct authorizer *a;

	CHECK_OK(authorizer_new(&a));
	return a;
}

/* What most checks start from: polkit with the test rules, one live
 * process as the subject, and an authorizer. */
struct subject_case {
	struct polkit_env env;
	struct polkit_env_subject subject;
	struct authorizer *a;
};

static void subject_case_start(struct subject_case *c, uid_t uid)
{
	start_env(&c->env);
	CHECK_OK(polkit_env_subject_start(&c->subject, uid));
	c->a = new_authorizer();
}

static void subject_case_end(struct subject_case *c)
{
	authorizer_free(c->a);
	polkit_env_subject_end(&c->subject);
	polkit_env_stop(&c->env);
}

/* One check for expect(): ACTION, asked INTERACTIVE or not, gets WANT
 * with a message holding every one of NEEDLES (NULL-terminated, may be
 * NULL). */
struct expectation {
	const char *action;
	bool interactive;
	enum authz_verdict want;
	const char *const *needles;
};

/* UID's checks E[0..N), in order, as one subject with one authorizer. */
static void expect_each(uid_t uid, const struct expectation *e, size_t n)
{
	struct subject_case c;

	subject_case_start(&c, uid);
	for (size_t i = 0; i < n; i++)
		expect(c.a, &c.subject, e[i].action, e[i].interactive, e[i].want, e[i].needles);
	subject_case_end(&c);
}

/* pkaction --verbose's value for FIELD ("implicit any") in OUT. */
static bool pkaction_field_is(const char *out, const char *field, const char *want)
{
	const char *p = strstr(out, field);
	size_t len = strlen(want);

	if (!p)
		return false;
	p += strlen(field);
	if (*p++ != ':')
		return false;
	p += strspn(p, " ");
	return strncmp(p, want, len) == 0 && (p[len] == '\n' || p[len] == '\0');
}

static void test_pkaction_lists_the_actions_with_their_defaults(void)
{
	static const struct {
		const char *id, *implicit, *description;
	} actions[] = {
		{ HID_POLICY_ACTION_STATUS, "yes", "See the HID firewall's status, devices and rules" },
		{ HID_POLICY_ACTION_LOG, "auth_admin_keep", "Read the HID firewall's audit log" },
		{ HID_POLICY_ACTION_RELOAD, "auth_admin_keep", "Reload the HID firewall's rule sets" },
		{ HID_POLICY_ACTION_ALLOW, "auth_admin_keep",
		  "Grant or revoke a temporary exception to the HID firewall's rules" },
	};
	struct polkit_env env;

	start_env(&env);
	for (size_t i = 0; i < ARRAY_SIZE(actions); i++) {
		char cmd[160], out[4096];
		size_t n;
		FILE *p;

		snprintf(cmd, sizeof(cmd), "pkaction --verbose --action-id %s 2>&1", actions[i].id);
		p = popen(cmd, "r");
		CHECK(p, "popen: %m");
		n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = '\0';
		CHECK_EQ(pclose(p), 0);
		CHECK(pkaction_field_is(out, "description", actions[i].description), "%s", out);
		CHECK(pkaction_field_is(out, "implicit any", actions[i].implicit), "%s", out);
		CHECK(pkaction_field_is(out, "implicit inactive", actions[i].implicit), "%s", out);
		CHECK(pkaction_field_is(out, "implicit active", actions[i].implicit), "%s", out);
	}
	polkit_env_stop(&env);
}

static void test_root_is_allowed_every_action(void)
{
	struct subject_case c;

	subject_case_start(&c, 0);
	CHECK(authorizer_uses_polkit(c.a), "polkit answers, yet the fallback is in use");
	for (size_t i = 0; i < ARRAY_SIZE(all_actions); i++)
		expect(c.a, &c.subject, all_actions[i], false, AUTHZ_ALLOWED, NULL);
	subject_case_end(&c);
}

static void test_user_sees_status_and_must_authenticate_for_the_rest(void)
{
	const struct expectation checks[] = {
		{ HID_POLICY_ACTION_STATUS, false, AUTHZ_ALLOWED, NULL },
		{ HID_POLICY_ACTION_LOG, false, AUTHZ_CHALLENGE,
		  (const char *const[]){ "read the audit log", HID_POLICY_ACTION_LOG, NULL } },
		{ HID_POLICY_ACTION_RELOAD, false, AUTHZ_CHALLENGE,
		  (const char *const[]){ "authentication is required to reload the rule sets",
					 HID_POLICY_ACTION_RELOAD, "run as root", NULL } },
		/* Interactive, but nobody runs an authentication agent here. */
		{ HID_POLICY_ACTION_ALLOW, true, AUTHZ_CHALLENGE,
		  (const char *const[]){ "grant or revoke temporary exceptions",
					 HID_POLICY_ACTION_ALLOW, "no authentication agent",
					 "run as root", NULL } },
	};

	expect_each(POLKIT_ENV_USER_UID, checks, ARRAY_SIZE(checks));
}

static void test_user_refused_by_a_rule_is_denied_naming_the_action(void)
{
	const struct expectation checks[] = {
		{ HID_POLICY_ACTION_STATUS, false, AUTHZ_DENIED,
		  (const char *const[]){ "uid 61004 is not authorized", "see the firewall's status",
					 HID_POLICY_ACTION_STATUS, NULL } },
		{ HID_POLICY_ACTION_RELOAD, true, AUTHZ_DENIED,
		  (const char *const[]){ "reload the rule sets", HID_POLICY_ACTION_RELOAD, NULL } },
	};

	expect_each(POLKIT_ENV_BANNED_UID, checks, ARRAY_SIZE(checks));
}

static void test_user_granted_by_a_rule_may_reload_and_allow(void)
{
	const struct expectation checks[] = {
		{ HID_POLICY_ACTION_RELOAD, false, AUTHZ_ALLOWED, NULL },
		{ HID_POLICY_ACTION_ALLOW, false, AUTHZ_ALLOWED, NULL },
		/* The rule grants those two, not the log. */
		{ HID_POLICY_ACTION_LOG, false, AUTHZ_CHALLENGE, NULL },
	};

	expect_each(POLKIT_ENV_ADMIN_UID, checks, ARRAY_SIZE(checks));
}

static void test_adm_member_reads_the_log_without_authenticating(void)
{
	const struct expectation checks[] = {
		{ HID_POLICY_ACTION_LOG, false, AUTHZ_ALLOWED, NULL },
		/* Reading is all group adm gives. */
		{ HID_POLICY_ACTION_RELOAD, false, AUTHZ_CHALLENGE, NULL },
		{ HID_POLICY_ACTION_ALLOW, false, AUTHZ_CHALLENGE, NULL },
	};

	expect_each(POLKIT_ENV_AUDITOR_UID, checks, ARRAY_SIZE(checks));
}

static void test_cancel_drops_a_pending_check(void)
{
	struct subject_case c;
	struct authz_result res;

	subject_case_start(&c, POLKIT_ENV_USER_UID);
	/* A frozen polkitd keeps the first check waiting for its answer. */
	CHECK_OK(kill(c.env.polkitd_pid, SIGSTOP));
	submit(c.a, 1, &c.subject, HID_POLICY_ACTION_STATUS, false);
	/* Let the worker send it; the claim holds whether or not it did. */
	usleep(300 * 1000);
	CHECK_EQ(authorizer_take(c.a, &res), -EAGAIN);
	authorizer_cancel(c.a, 1);
	CHECK_OK(kill(c.env.polkitd_pid, SIGCONT));

	/* polkitd answers in order: had the first verdict survived the
	 * cancel, it would be queued before the second one's. */
	submit(c.a, 2, &c.subject, HID_POLICY_ACTION_STATUS, false);
	res = next_verdict(c.a, VERDICT_TIMEOUT_MS);
	CHECK_EQ(res.cookie, 2);
	CHECK_EQ(res.verdict, AUTHZ_ALLOWED);
	CHECK_EQ(authorizer_take(c.a, &res), -EAGAIN);

	subject_case_end(&c);
}

/* What the seccomp filter and the capability sets say of every thread of
 * this process: all filtered, and none but the first with a capability. */
static void check_threads_confined(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *de;
	int threads = 0;

	CHECK(dir, "/proc/self/task: %m");
	while ((de = readdir(dir))) {
		char path[300], line[256];
		bool filtered = false, capless = false;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", de->d_name);
		f = fopen(path, "re");
		CHECK(f, "%s: %m", path);
		while (fgets(line, sizeof(line), f)) {
			if (strcmp(line, "Seccomp:\t2\n") == 0)
				filtered = true;
			if (strcmp(line, "CapEff:\t0000000000000000\n") == 0)
				capless = true;
		}
		fclose(f);
		CHECK(filtered, "thread %s runs without the seccomp filter", de->d_name);
		if (atoi(de->d_name) != getpid())
			CHECK(capless, "thread %s holds capabilities", de->d_name);
		threads++;
	}
	closedir(dir);
	/* the checker, the polkit worker and GDBus's thread at least */
	CHECK(threads >= 3, "%d threads", threads);
}

/* The sandboxed checker's wait status: exit 0, and nothing killed it. */
static void check_sandboxed_checker_ended_well(int status)
{
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the sandboxed checker ended with status %#x%s", status,
	      WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS
	      ? " (SIGSYS: a syscall off the seccomp list; see the kernel log)" : "");
}

/* The checking process enters hid-policyd's sandbox after creating the
 * authorizer, as the daemon does; its seccomp filter kills it on any
 * syscall off the list, from any of its threads. */
static void test_checks_work_inside_the_daemon_sandbox(void)
{
	struct polkit_env_subject root, user, admin;
	struct polkit_env env;
	int status;
	pid_t pid;

	start_env(&env);
	CHECK_OK(polkit_env_subject_start(&root, 0));
	CHECK_OK(polkit_env_subject_start(&user, POLKIT_ENV_USER_UID));
	CHECK_OK(polkit_env_subject_start(&admin, POLKIT_ENV_ADMIN_UID));

	pid = fork();
	CHECK_OK(pid);
	if (pid == 0) {
		struct authorizer *a = new_authorizer();

		CHECK(authorizer_uses_polkit(a), "polkit answers, yet the fallback is in use");
		CHECK_OK(sandbox_enter(false));
		expect(a, &root, HID_POLICY_ACTION_RELOAD, false, AUTHZ_ALLOWED, NULL);
		expect(a, &user, HID_POLICY_ACTION_STATUS, false, AUTHZ_ALLOWED, NULL);
		expect(a, &user, HID_POLICY_ACTION_ALLOW, true, AUTHZ_CHALLENGE, NULL);
		expect(a, &admin, HID_POLICY_ACTION_ALLOW, false, AUTHZ_ALLOWED, NULL);
		check_threads_confined();
		authorizer_free(a);
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	check_sandboxed_checker_ended_well(status);

	polkit_env_subject_end(&root);
	polkit_env_subject_end(&user);
	polkit_env_subject_end(&admin);
	polkit_env_stop(&env);
}

/* The daemon starts before D-Bus at boot: the authorizer falls back, the
 * sandbox closes, and polkit has to be reached from inside it later. */
static void test_polkit_appearing_after_the_sandbox_is_used(void)
{
	struct polkit_env_subject user;
	struct polkit_env env;
	int go[2], status;
	pid_t pid;

	CHECK_OK(polkit_env_isolate(&env));
	CHECK_OK(polkit_env_subject_start(&user, POLKIT_ENV_USER_UID));
	CHECK_OK(pipe(go));
	pid = fork();
	CHECK_OK(pid);
	if (pid == 0) {
		struct authorizer *a = new_authorizer();
		char byte;

		close(go[1]);
		CHECK(!authorizer_uses_polkit(a), "no bus yet, but polkit is said to be in use");
		CHECK_OK(sandbox_enter(false));
		CHECK_EQ(read(go[0], &byte, 1), 1);
		expect(a, &user, HID_POLICY_ACTION_STATUS, false, AUTHZ_ALLOWED, NULL);
		CHECK(authorizer_uses_polkit(a), "polkit answers, yet the fallback is in use");
		expect(a, &user, HID_POLICY_ACTION_RELOAD, false, AUTHZ_CHALLENGE, NULL);
		check_threads_confined();
		authorizer_free(a);
		_exit(0);
	}
	close(go[0]);
	CHECK_OK(polkit_env_start_services(&env, POLKIT_ENV_TEST_RULES));
	CHECK_EQ(write(go[1], "g", 1), 1);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	check_sandboxed_checker_ended_well(status);
	polkit_env_subject_end(&user);
	polkit_env_stop(&env);
}

/* authorizer_new()'s stderr, in a file. */
static struct authorizer *new_authorizer_capturing(const struct polkit_env *env, char *said,
						    size_t said_size)
{
	char path[128];
	struct authorizer *a;
	int saved, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/authorizer.stderr", env->dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK_OK(fd);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	CHECK_OK(saved);
	CHECK_OK(dup2(fd, STDERR_FILENO));
	int r = authorizer_new(&a);

	fflush(stderr);
	CHECK_OK(dup2(saved, STDERR_FILENO));
	close(saved);
	CHECK_OK(r);
	n = pread(fd, said, said_size - 1, 0);
	CHECK_OK(n);
	said[n] = '\0';
	close(fd);
	return a;
}

static void test_without_a_bus_only_root_is_allowed_and_the_daemon_says_so(void)
{
	struct polkit_env_subject root, user;
	struct polkit_env env;
	struct authorizer *a;
	char said[512];

	CHECK_OK(polkit_env_isolate(&env));
	CHECK_OK(polkit_env_subject_start(&root, 0));
	CHECK_OK(polkit_env_subject_start(&user, POLKIT_ENV_USER_UID));
	a = new_authorizer_capturing(&env, said, sizeof(said));
	test_log("authorizer_new said: %s", said);
	CHECK(strstr(said, "polkit is not available") &&
	      strstr(said, "only root may use the control socket"), "stderr: \"%s\"", said);
	CHECK(strstr(said, "system bus"), "the reason is missing: \"%s\"", said);
	CHECK(!authorizer_uses_polkit(a), "no bus, yet polkit is said to be in use");

	for (size_t i = 0; i < ARRAY_SIZE(all_actions); i++)
		expect(a, &root, all_actions[i], false, AUTHZ_ALLOWED, NULL);
	expect(a, &user, HID_POLICY_ACTION_STATUS, true, AUTHZ_DENIED,
	       (const char *const[]){ "only root may", "polkit is not available",
				      "uid 61001", NULL });
	expect(a, &user, HID_POLICY_ACTION_RELOAD, false, AUTHZ_DENIED,
	       (const char *const[]){ "reload the rule sets", HID_POLICY_ACTION_RELOAD, NULL });
	authorizer_free(a);
	polkit_env_subject_end(&root);
	polkit_env_subject_end(&user);
}

static void test_polkit_going_away_and_coming_back_is_followed(void)
{
	struct polkit_env_subject root, user;
	struct polkit_env env;
	struct authorizer *a;

	start_env(&env);
	CHECK_OK(polkit_env_subject_start(&root, 0));
	CHECK_OK(polkit_env_subject_start(&user, POLKIT_ENV_USER_UID));
	a = new_authorizer();
	expect(a, &user, HID_POLICY_ACTION_STATUS, false, AUTHZ_ALLOWED, NULL);

	/* Gone: the root-only rule decides. */
	CHECK_OK(polkit_env_stop_polkitd(&env));
	expect(a, &user, HID_POLICY_ACTION_STATUS, false, AUTHZ_DENIED,
	       (const char *const[]){ "polkit is not available", NULL });
	CHECK(!authorizer_uses_polkit(a), "polkit is gone, yet said to be in use");
	expect(a, &root, HID_POLICY_ACTION_ALLOW, false, AUTHZ_ALLOWED, NULL);

	/* Back: polkit decides again, from the next check on. */
	CHECK_OK(polkit_env_start_polkitd(&env));
	expect(a, &user, HID_POLICY_ACTION_STATUS, false, AUTHZ_ALLOWED, NULL);
	CHECK(authorizer_uses_polkit(a), "polkit is back, yet the fallback is in use");
	expect(a, &user, HID_POLICY_ACTION_RELOAD, false, AUTHZ_CHALLENGE, NULL);

	authorizer_free(a);
	polkit_env_subject_end(&root);
	polkit_env_subject_end(&user);
	polkit_env_stop(&env);
}

/* Whether polkitd (PID) has a child named COMM: a rule's polkit.spawn(). */
static bool has_child_named(pid_t pid, const char *comm)
{
	_cleanup_closedir_ DIR *proc = opendir("/proc");
	struct dirent *e;

	CHECK(proc, "/proc: %m");
	while ((e = readdir(proc))) {
		char path[300], stat[256], name[32];
		int ppid;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		/* "pid (comm) state ppid": comm has no ')' here. */
		if (fgets(stat, sizeof(stat), f) &&
		    sscanf(stat, "%*d (%31[^)]) %*c %d", name, &ppid) == 2 && ppid == pid &&
		    strcmp(name, comm) == 0) {
			fclose(f);
			return true;
		}
		fclose(f);
	}
	return false;
}

/* polkitd dies while it decides (a rule of the test makes it wait in
 * polkit.spawn()): the check in flight is decided as if polkit had been
 * gone, by the root-only rule, not failed with the bus's error. Before,
 * the daemon answered "error: Remote peer disconnected". */
static void test_a_check_in_flight_when_polkitd_dies_is_decided_without_polkit(void)
{
	static const char rules[] =
		"polkit.addRule(function(action, subject) {\n"
		"    if (action.id == \"org.hid-policy.log\" && subject.user == \"" POLKIT_ENV_USER "\")\n"
		"        polkit.spawn([\"/bin/sleep\", \"8\"]);\n"
		"    return polkit.Result.NOT_HANDLED;\n"
		"});\n";
	struct polkit_env_subject user;
	struct polkit_env env;
	struct authorizer *a;
	struct authz_result res;
	int waited_ms = 0;

	CHECK_OK(polkit_env_start(&env, rules));
	CHECK_OK(polkit_env_subject_start(&user, POLKIT_ENV_USER_UID));
	a = new_authorizer();
	expect(a, &user, HID_POLICY_ACTION_STATUS, false, AUTHZ_ALLOWED, NULL);

	submit(a, 77, &user, HID_POLICY_ACTION_LOG, false);
	while (!has_child_named(env.polkitd_pid, "sleep")) {
		CHECK(waited_ms < 20000, "polkitd's rule did not start sleep within 20 s");
		usleep(50 * 1000);
		waited_ms += 50;
	}
	CHECK_OK(kill(env.polkitd_pid, SIGKILL));
	CHECK_OK(polkit_env_stop_polkitd(&env));

	res = next_verdict(a, VERDICT_TIMEOUT_MS);
	test_log("check in flight: %s: %s", verdict_name(res.verdict), res.message);
	CHECK_EQ(res.cookie, 77);
	CHECK(res.verdict == AUTHZ_DENIED, "%s, expected denied: %s", verdict_name(res.verdict),
	      res.message);
	CHECK(strstr(res.message, "polkit is not available"), "%s", res.message);
	CHECK(strstr(res.message, "left the system bus during the check"), "%s", res.message);
	CHECK(!authorizer_uses_polkit(a), "polkit died, yet is said to be in use");

	authorizer_free(a);
	polkit_env_subject_end(&user);
	polkit_env_stop(&env);
}

/* The client went away before polkit looked at it: polkit's reason, as an
 * error, not a verdict about somebody else's process. */
static void test_check_of_a_vanished_client_is_an_error_with_polkits_reason(void)
{
	struct polkit_env_subject user;
	struct polkit_env env;
	struct authorizer *a;
	struct authz_result res;
	struct peer_cred peer;

	start_env(&env);
	CHECK_OK(polkit_env_subject_start(&user, POLKIT_ENV_USER_UID));
	peer = (struct peer_cred){ .pid = user.pid, .uid = user.uid, .gid = user.uid };
	CHECK_OK(peer_cred_start_time(user.pid, &peer.start_time));
	polkit_env_subject_end(&user);
	a = new_authorizer();

	CHECK_OK(authorizer_submit(a, 7, &peer, HID_POLICY_ACTION_STATUS, NULL, false));
	res = next_verdict(a, VERDICT_TIMEOUT_MS);
	test_log("vanished client: %s: %s", verdict_name(res.verdict), res.message);
	CHECK_EQ(res.cookie, 7);
	CHECK(res.verdict == AUTHZ_ERROR, "%s: %s", verdict_name(res.verdict), res.message);
	CHECK(strstr(res.message, "polkit could not check " HID_POLICY_ACTION_STATUS ": "),
	      "%s", res.message);

	authorizer_free(a);
	polkit_env_stop(&env);
}

static void test_daemon_survives_a_bus_restart_and_reconnects(void)
{
	struct subject_case c;

	subject_case_start(&c, POLKIT_ENV_USER_UID);
	expect(c.a, &c.subject, HID_POLICY_ACTION_STATUS, false, AUTHZ_ALLOWED, NULL);

	/* GLib's default would raise SIGTERM when the bus goes away; the
	 * test process would die here. */
	CHECK_OK(polkit_env_restart(&c.env));
	expect(c.a, &c.subject, HID_POLICY_ACTION_STATUS, false, AUTHZ_ALLOWED, NULL);
	expect(c.a, &c.subject, HID_POLICY_ACTION_RELOAD, false, AUTHZ_CHALLENGE, NULL);
	CHECK(authorizer_uses_polkit(c.a), "polkit is back, yet the fallback is in use");

	subject_case_end(&c);
}

/* One allow's check with the details hid-policyd builds from ARGS (a
 * JSON object, taken), as SUBJECT, not interactive: the verdict. */
static enum authz_verdict check_allow(struct authorizer *a, const struct polkit_env_subject *s,
				      uint64_t cookie, json_t *args)
{
	struct peer_cred peer = { .pid = s->pid, .uid = s->uid, .gid = s->uid };
	struct authz_details d;
	struct authz_result res;
	char err[256] = "";

	CHECK_OK(authz_details_for("allow", args, NULL, &d, err, sizeof(err)));
	json_decref(args);
	CHECK_OK(peer_cred_start_time(s->pid, &peer.start_time));
	CHECK_OK(authorizer_submit(a, cookie, &peer, HID_POLICY_ACTION_ALLOW, &d, false));
	res = next_verdict(a, VERDICT_TIMEOUT_MS);
	CHECK_EQ(res.cookie, cookie);
	test_log("allow for %s: %s: %s", authz_details_get(&d, "sender"), verdict_name(res.verdict),
		 res.message);
	return res.verdict;
}

/* The details reach polkit (the daemon is uid 0, whose details polkit
 * takes): a local rule may let a user grant allows for fwupd.service
 * alone, reading what is being approved. */
static void test_a_rule_may_grant_allows_for_one_unit_by_what_the_check_details(void)
{
	static const char rules[] =
		"polkit.addRule(function(action, subject) {\n"
		"    if (action.id == \"org.hid-policy.allow\" && subject.user == \"" POLKIT_ENV_USER "\" &&\n"
		"        action.lookup(\"command\") == \"allow\" &&\n"
		"        action.lookup(\"unit\") == \"fwupd.service\" &&\n"
		"        parseInt(action.lookup(\"duration_s\")) <= 900)\n"
		"        return polkit.Result.YES;\n"
		"    return polkit.Result.NOT_HANDLED;\n"
		"});\n";
	struct polkit_env_subject user;
	struct polkit_env env;
	struct authorizer *a;

	CHECK_OK(polkit_env_start(&env, rules));
	CHECK_OK(polkit_env_subject_start(&user, POLKIT_ENV_USER_UID));
	a = new_authorizer();

	CHECK(check_allow(a, &user, 1, json_pack("{s:s, s:s, s:i}", "device", "1", "unit",
						 "fwupd.service", "duration_s", 900)) == AUTHZ_ALLOWED,
	      "an allow for fwupd.service is not granted by the rule");
	CHECK(check_allow(a, &user, 2, json_pack("{s:s, s:s, s:i}", "device", "1", "unit",
						 "other.service", "duration_s", 900)) == AUTHZ_CHALLENGE,
	      "the rule granted an allow for another unit");
	CHECK(check_allow(a, &user, 3, json_pack("{s:s, s:s, s:i}", "device", "1", "unit",
						 "fwupd.service", "duration_s", 3600)) == AUTHZ_CHALLENGE,
	      "the rule granted a longer allow");
	CHECK(check_allow(a, &user, 4, json_pack("{s:s}", "device", "1")) == AUTHZ_CHALLENGE,
	      "the rule granted an allow for anyone");

	authorizer_free(a);
	polkit_env_subject_end(&user);
	polkit_env_stop(&env);
}

/*
 * In polkitd's place on the test's bus: a process that owns polkit's name
 * as the user polkitd and answers each CheckAuthorization from LETTERS, one
 * per call in order, the last letter for the calls beyond it:
 * 'm' as polkitd 122 answers a caller whose uid it took from the wrong
 * answer (authorize_polkit.c, caller_misread()), 'a' authorized. It writes
 * the letter to COUNT_FD per call. The real polkitd 122 misread our uid 15
 * times in 27,000 checks in guests on refined-jiffies, too rarely to test
 * with it.
 */
struct misreading_polkit {
	pid_t pid;
	int count_fd;	/* the test's end: the letter of each call */
};

static const char misreading_polkit_xml[] =
	"<node><interface name='org.freedesktop.PolicyKit1.Authority'>"
	"<method name='CheckAuthorization'>"
	"<arg type='(sa{sv})' direction='in'/><arg type='s' direction='in'/>"
	"<arg type='a{ss}' direction='in'/><arg type='u' direction='in'/>"
	"<arg type='s' direction='in'/><arg type='(bba{ss})' direction='out'/>"
	"</method>"
	"<method name='CancelCheckAuthorization'><arg type='s' direction='in'/></method>"
	"</interface></node>";

struct misreading_script {
	const char *letters;
	size_t calls;
	int count_fd;
};

static void misreading_polkit_call(GDBusConnection *bus, const char *sender, const char *path,
				   const char *iface, const char *method, GVariant *params,
				   GDBusMethodInvocation *inv, gpointer userdata)
{
	struct misreading_script *s = userdata;
	size_t len = strlen(s->letters);
	char letter;

	(void)bus, (void)sender, (void)path, (void)iface, (void)params;
	if (strcmp(method, "CheckAuthorization") != 0) {
		g_dbus_method_invocation_return_value(inv, NULL);
		return;
	}
	letter = s->letters[s->calls < len ? s->calls : len - 1];
	s->calls++;
	if (write(s->count_fd, &letter, 1) != 1)
		_exit(3);
	if (letter == 'm')
		/* polkitbackendinteractiveauthority.c, check_authorization() */
		g_dbus_method_invocation_return_dbus_error(
			inv, "org.freedesktop.PolicyKit1.Error.NotAuthorized",
			"Only trusted callers (e.g. uid 0 or an action owner) can use "
			"CheckAuthorization() and pass details");
	else
		g_dbus_method_invocation_return_value(
			inv, g_variant_new("((bb@a{ss}))", TRUE, FALSE,
					   g_variant_new_array(G_VARIANT_TYPE("{ss}"), NULL, 0)));
}

static void misreading_polkit_serve(const char *letters, int count_fd, int ready_fd)
{
	static const GDBusInterfaceVTable vtable = { .method_call = misreading_polkit_call };
	struct misreading_script s = { .letters = letters, .count_fd = count_fd };
	struct passwd *pw = getpwnam("polkitd");
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusNodeInfo) node = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	g_autoptr(GVariant) reply = NULL;
	guint32 owned = 0;

	/* The bus lets only the user polkitd own polkit's name
	 * (org.freedesktop.PolicyKit1.conf). */
	if (!pw || setgroups(0, NULL) < 0 || setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0 ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0)
		_exit(4);
	node = g_dbus_node_info_new_for_xml(misreading_polkit_xml, &error);
	bus = node ? g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error) : NULL;
	if (!bus || !g_dbus_connection_register_object(bus, "/org/freedesktop/PolicyKit1/Authority",
						       node->interfaces[0], &vtable, &s, NULL,
						       &error)) {
		fprintf(stderr, "misreading polkit: %s\n", error->message);
		_exit(5);
	}
	reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
					    "org.freedesktop.DBus", "RequestName",
					    g_variant_new("(su)", "org.freedesktop.PolicyKit1", 4),
					    G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL,
					    &error);
	if (reply)
		g_variant_get(reply, "(u)", &owned);
	if (owned != 1) {
		fprintf(stderr, "misreading polkit: cannot own org.freedesktop.PolicyKit1: %s\n",
			error ? error->message : "not the primary owner");
		_exit(6);
	}
	if (write(ready_fd, "r", 1) != 1)
		_exit(7);
	close(ready_fd);
	g_main_loop_run(g_main_loop_new(NULL, false));
	_exit(0);
}

/* Stop ENV's polkitd and start the misreading polkit on its bus, before
 * the test's process uses GLib (the child must not inherit GDBus state). */
static void misreading_polkit_start(struct polkit_env *env, struct misreading_polkit *p,
				    const char *letters)
{
	int count[2], ready[2];
	char byte;

	CHECK_OK(polkit_env_stop_polkitd(env));
	CHECK(pipe2(count, O_CLOEXEC) == 0 && pipe2(ready, O_CLOEXEC) == 0, "pipe2: %m");
	p->pid = fork();
	CHECK(p->pid >= 0, "fork: %m");
	if (p->pid == 0) {
		close(count[0]);
		close(ready[0]);
		misreading_polkit_serve(letters, count[1], ready[1]);
	}
	close(count[1]);
	close(ready[1]);
	CHECK(read(ready[0], &byte, 1) == 1, "the misreading polkit did not start");
	close(ready[0]);
	p->count_fd = count[0];
}

/* How it answered so far, a letter per call. */
static void misreading_polkit_calls(struct misreading_polkit *p, char *out, size_t size)
{
	ssize_t n;

	CHECK_OK(fcntl(p->count_fd, F_SETFL, O_NONBLOCK));
	n = read(p->count_fd, out, size - 1);
	CHECK(n >= 0 || errno == EAGAIN, "read: %m");
	out[n > 0 ? n : 0] = '\0';
}

static void misreading_polkit_stop(struct misreading_polkit *p)
{
	int status;

	kill(p->pid, SIGTERM);
	CHECK(waitpid(p->pid, &status, 0) == p->pid, "waitpid: %m");
	close(p->count_fd);
}

/* An allow with details, as root's hid-policyctl asks: its verdict. */
static struct authz_result root_allow(struct authorizer *a, const struct polkit_env_subject *s,
				      uint64_t cookie)
{
	struct peer_cred peer = { .pid = s->pid, .uid = s->uid, .gid = s->uid };
	json_t *args = json_pack("{s:s, s:i}", "device", "1", "duration_s", 600);
	struct authz_details d;
	struct authz_result res;
	char err[256] = "";

	CHECK_OK(authz_details_for("allow", args, NULL, &d, err, sizeof(err)));
	json_decref(args);
	CHECK_OK(peer_cred_start_time(s->pid, &peer.start_time));
	CHECK_OK(authorizer_submit(a, cookie, &peer, HID_POLICY_ACTION_ALLOW, &d, false));
	res = next_verdict(a, VERDICT_TIMEOUT_MS);
	CHECK_EQ(res.cookie, cookie);
	test_log("allow: %s: %s", verdict_name(res.verdict), res.message);
	return res;
}

/* polkitd 122 took our pid for our uid once (the misreading polkit's
 * first answer): the daemon, uid 0, asks once more and gets polkit's real
 * answer, allowed. The failure this fixes: e2e-policyctl-polkit's root
 * case, "hid-policyctl: the authorization check for org.hid-policy.allow
 * failed: ... Only trusted callers ...". */
static void test_root_asks_once_more_when_polkit_misreads_its_uid(void)
{
	struct misreading_polkit p;
	struct polkit_env env;
	struct polkit_env_subject root;
	struct authorizer *a;
	struct authz_result res;
	char calls[16];

	CHECK_OK(polkit_env_start(&env, NULL));
	misreading_polkit_start(&env, &p, "mama");
	CHECK_OK(polkit_env_subject_start(&root, 0));
	a = new_authorizer();

	res = root_allow(a, &root, 1);
	misreading_polkit_calls(&p, calls, sizeof(calls));
	CHECK(!strcmp(calls, "ma"), "polkit answered \"%s\", not a misreading then \"a\"", calls);
	CHECK(res.verdict == AUTHZ_ALLOWED, "%s: %s", verdict_name(res.verdict), res.message);

	/* Each check has its own second chance: the next misreading too. */
	res = root_allow(a, &root, 2);
	misreading_polkit_calls(&p, calls, sizeof(calls));
	CHECK(!strcmp(calls, "ma"), "polkit answered \"%s\"", calls);
	CHECK(res.verdict == AUTHZ_ALLOWED, "%s: %s", verdict_name(res.verdict), res.message);

	authorizer_free(a);
	polkit_env_subject_end(&root);
	misreading_polkit_stop(&p);
	polkit_env_stop(&env);
}

/* Asking again never allows by itself: a second refusal is the verdict
 * (an error naming polkit's reason), and polkit is not asked a third time. */
static void test_a_second_misreading_is_an_error_and_no_third_check_is_made(void)
{
	struct misreading_polkit p;
	struct polkit_env env;
	struct polkit_env_subject root;
	struct authorizer *a;
	struct authz_result res;
	char calls[16];

	CHECK_OK(polkit_env_start(&env, NULL));
	misreading_polkit_start(&env, &p, "m");
	CHECK_OK(polkit_env_subject_start(&root, 0));
	a = new_authorizer();

	res = root_allow(a, &root, 1);
	CHECK(res.verdict == AUTHZ_ERROR, "%s: %s", verdict_name(res.verdict), res.message);
	CHECK(strstr(res.message, "Only trusted callers"), "message: %s", res.message);
	misreading_polkit_calls(&p, calls, sizeof(calls));
	CHECK(!strcmp(calls, "mm"), "polkit was asked %zu times (\"%s\"), not twice",
	      strlen(calls), calls);

	authorizer_free(a);
	polkit_env_subject_end(&root);
	misreading_polkit_stop(&p);
	polkit_env_stop(&env);
}

/* A daemon that is not uid 0 is not trusted by polkit: its refusal is
 * polkit's real answer, taken as it is (one call). The daemon's side runs
 * in a child as POLKIT_ENV_USER and exits with its verdict. */
static void test_a_daemon_not_running_as_root_takes_the_refusal_as_it_is(void)
{
	struct misreading_polkit p;
	struct polkit_env env;
	char calls[16];
	int status;
	pid_t pid;

	CHECK_OK(polkit_env_start(&env, NULL));
	misreading_polkit_start(&env, &p, "ma");
	pid = fork();
	CHECK(pid >= 0, "fork: %m");
	if (pid == 0) {
		struct polkit_env_subject self = { .pid = getpid(), .uid = POLKIT_ENV_USER_UID };
		struct authorizer *a;

		if (setgroups(0, NULL) < 0 ||
		    setresgid(POLKIT_ENV_USER_UID, POLKIT_ENV_USER_UID, POLKIT_ENV_USER_UID) < 0 ||
		    setresuid(POLKIT_ENV_USER_UID, POLKIT_ENV_USER_UID, POLKIT_ENV_USER_UID) < 0 ||
		    authorizer_new(&a) < 0)
			_exit(100);
		_exit(root_allow(a, &self, 1).verdict);
	}
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid: %m");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == AUTHZ_ERROR,
	      "the unprivileged daemon's verdict: status %#x, not %d (error)", status, AUTHZ_ERROR);
	misreading_polkit_calls(&p, calls, sizeof(calls));
	CHECK(!strcmp(calls, "m"), "polkit was asked %zu times (\"%s\"), not once",
	      strlen(calls), calls);

	misreading_polkit_stop(&p);
	polkit_env_stop(&env);
}

static const struct test_case tests[] = {
	{ "pkaction_lists_the_actions_with_their_defaults",
	  test_pkaction_lists_the_actions_with_their_defaults, 120 },
	{ "root_is_allowed_every_action", test_root_is_allowed_every_action, 120 },
	{ "user_sees_status_and_must_authenticate_for_the_rest",
	  test_user_sees_status_and_must_authenticate_for_the_rest, 120 },
	{ "user_refused_by_a_rule_is_denied_naming_the_action",
	  test_user_refused_by_a_rule_is_denied_naming_the_action, 120 },
	{ "user_granted_by_a_rule_may_reload_and_allow",
	  test_user_granted_by_a_rule_may_reload_and_allow, 120 },
	{ "adm_member_reads_the_log_without_authenticating",
	  test_adm_member_reads_the_log_without_authenticating, 120 },
	{ "cancel_drops_a_pending_check", test_cancel_drops_a_pending_check, 120 },
	{ "checks_work_inside_the_daemon_sandbox", test_checks_work_inside_the_daemon_sandbox, 120 },
	{ "polkit_appearing_after_the_sandbox_is_used",
	  test_polkit_appearing_after_the_sandbox_is_used, 120 },
	{ "without_a_bus_only_root_is_allowed_and_the_daemon_says_so",
	  test_without_a_bus_only_root_is_allowed_and_the_daemon_says_so, 120 },
	{ "check_of_a_vanished_client_is_an_error_with_polkits_reason",
	  test_check_of_a_vanished_client_is_an_error_with_polkits_reason, 120 },
	{ "daemon_survives_a_bus_restart_and_reconnects",
	  test_daemon_survives_a_bus_restart_and_reconnects, 120 },
	{ "polkit_going_away_and_coming_back_is_followed",
	  test_polkit_going_away_and_coming_back_is_followed, 120 },
	{ "a_check_in_flight_when_polkitd_dies_is_decided_without_polkit",
	  test_a_check_in_flight_when_polkitd_dies_is_decided_without_polkit, 120 },
	{ "a_rule_may_grant_allows_for_one_unit_by_what_the_check_details",
	  test_a_rule_may_grant_allows_for_one_unit_by_what_the_check_details, 120 },
	{ "root_asks_once_more_when_polkit_misreads_its_uid",
	  test_root_asks_once_more_when_polkit_misreads_its_uid, 120 },
	{ "a_second_misreading_is_an_error_and_no_third_check_is_made",
	  test_a_second_misreading_is_an_error_and_no_third_check_is_made, 120 },
	{ "a_daemon_not_running_as_root_takes_the_refusal_as_it_is",
	  test_a_daemon_not_running_as_root_takes_the_refusal_as_it_is, 120 },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "authorize", tests, ARRAY_SIZE(tests));
}
