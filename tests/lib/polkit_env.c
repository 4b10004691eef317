// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A private system bus and polkitd for tests (see polkit_env.h). No GLib
 * here: a test forks processes that use GDBus (hid-policyd's authorizer),
 * which must not inherit GDBus threads that fork left behind; readiness is
 * asked of `gdbus wait` instead.
 */
#include "polkit_env.h"

#include <crypt.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SYSTEM_BUS_DIR "/run/dbus"
#define SYSTEM_BUS_SOCKET SYSTEM_BUS_DIR "/system_bus_socket"
#define POLKITD "/usr/lib/polkit-1/polkitd"
#define POLKIT_NAME "org.freedesktop.PolicyKit1"
#define READY_TIMEOUT_S "30"	/* polkitd under TCG on a busy host */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("polkit_env: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t len = strlen(text), done = 0;

	if (fd < 0) {
		say("cannot create %s: %m", path);
		return -errno;
	}
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0) {
			int r = -errno;

			say("cannot write %s: %m", path);
			close(fd);
			return r;
		}
		done += (size_t)n;
	}
	if (close(fd) < 0)
		return -errno;
	return 0;
}

/* Read all of PATH into a new string. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t size = 0;

	if (!f) {
		say("cannot read %s: %m", path);
		return NULL;
	}
	FILE *out = open_memstream(&text, &size);
	char buf[4096];
	size_t n;

	if (!out) {
		fclose(f);
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, out);
	fclose(f);
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int copy_file(const char *from, const char *to)
{
	char *text = read_file(from);
	int r;

	if (!text)
		return -EIO;
	r = write_file(to, text, 0644);
	free(text);
	return r;
}

/* A fresh tmpfs on DIR (made if missing). */
static int mount_tmpfs(const char *dir)
{
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		say("cannot create %s: %m", dir);
		return -errno;
	}
	if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0) {
		say("cannot mount a tmpfs on %s: %m", dir);
		return -errno;
	}
	return 0;
}

static int bind_file(const char *from, const char *to)
{
	if (mount(from, to, NULL, MS_BIND, NULL) < 0) {
		say("cannot bind %s over %s: %m", from, to);
		return -errno;
	}
	return 0;
}

static const struct {
	const char *name;
	unsigned int uid;
} test_users[] = {
	{ POLKIT_ENV_USER, POLKIT_ENV_USER_UID },
	{ POLKIT_ENV_ADMIN, POLKIT_ENV_ADMIN_UID },
	{ POLKIT_ENV_AUDITOR, POLKIT_ENV_AUDITOR_UID },
	{ POLKIT_ENV_BANNED, POLKIT_ENV_BANNED_UID },
};

/* /etc/passwd and /etc/group as the host has them plus the test users,
 * POLKIT_ENV_AUDITOR in group adm. */
static int write_user_db(const struct polkit_env *env, char *passwd, size_t passwd_size,
			 char *group, size_t group_size)
{
	char *host_passwd = read_file("/etc/passwd"), *host_group = read_file("/etc/group");
	char *text = NULL;
	size_t size = 0;
	FILE *out;
	int r = -ENOMEM;

	snprintf(passwd, passwd_size, "%s/passwd", env->dir);
	snprintf(group, group_size, "%s/group", env->dir);
	if (!host_passwd || !host_group)
		goto out;

	out = open_memstream(&text, &size);
	if (!out)
		goto out;
	fputs(host_passwd, out);
	for (size_t i = 0; i < sizeof(test_users) / sizeof(test_users[0]); i++)
		fprintf(out, "%s:x:%u:%u:hid-policy test user:/nonexistent:/usr/sbin/nologin\n",
			test_users[i].name, test_users[i].uid, test_users[i].uid);
	if (fclose(out) != 0)
		goto out;
	r = write_file(passwd, text, 0644);
	free(text);
	text = NULL;
	if (r < 0)
		goto out;

	r = -ENOMEM;
	out = open_memstream(&text, &size);
	if (!out)
		goto out;
	bool have_adm = false;

	for (char *line = strtok(host_group, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "adm:", 4) == 0) {
			/* adm:x:4:member,member */
			size_t len = strlen(line);

			fprintf(out, "%s%s%s\n", line, line[len - 1] == ':' ? "" : ",",
				POLKIT_ENV_AUDITOR);
			have_adm = true;
		} else {
			fprintf(out, "%s\n", line);
		}
	}
	if (!have_adm)
		fprintf(out, "adm:x:4:%s\n", POLKIT_ENV_AUDITOR);
	for (size_t i = 0; i < sizeof(test_users) / sizeof(test_users[0]); i++)
		fprintf(out, "%s:x:%u:\n", test_users[i].name, test_users[i].uid);
	if (fclose(out) != 0)
		goto out;
	r = write_file(group, text, 0644);
out:
	free(text);
	free(host_passwd);
	free(host_group);
	return r;
}

/* /etc/shadow as the host has it (when the guest may read it) plus the test
 * users: POLKIT_ENV_ADMIN with POLKIT_ENV_ADMIN_PASSWORD, the others locked.
 * Mode 0600: only root (pam_unix in polkit's setuid helper) reads it. */
static int write_shadow(const struct polkit_env *env, char *shadow, size_t shadow_size)
{
	FILE *host = fopen("/etc/shadow", "re");
	char *text = NULL, buf[4096];
	size_t size = 0, n;
	const char *salt, *hash;
	FILE *out;
	int r;

	snprintf(shadow, shadow_size, "%s/shadow", env->dir);
	out = open_memstream(&text, &size);
	if (!out) {
		if (host)
			fclose(host);
		return -ENOMEM;
	}
	while (host && (n = fread(buf, 1, sizeof(buf), host)) > 0)
		fwrite(buf, 1, n, out);
	if (host)
		fclose(host);

	salt = crypt_gensalt("$6$", 0, NULL, 0);
	hash = salt ? crypt(POLKIT_ENV_ADMIN_PASSWORD, salt) : NULL;
	if (!hash || hash[0] == '*') {
		say("cannot hash the test password: %m");
		fclose(out);
		free(text);
		return -EINVAL;
	}
	/* Changed today, no ageing: pam_unix's account check passes. */
	long today = (long)(time(NULL) / 86400);

	for (size_t i = 0; i < sizeof(test_users) / sizeof(test_users[0]); i++) {
		bool admin = !strcmp(test_users[i].name, POLKIT_ENV_ADMIN);

		fprintf(out, "%s:%s:%ld:0:99999:7:::\n", test_users[i].name, admin ? hash : "!",
			today);
	}
	if (fclose(out) != 0) {
		free(text);
		return -ENOMEM;
	}
	r = write_file(shadow, text, 0600);
	free(text);
	return r;
}

int polkit_env_isolate(struct polkit_env *env)
{
	char passwd[96], group[96], shadow[96];
	int r;

	memset(env, 0, sizeof(*env));
	env->dbus_pid = env->polkitd_pid = -1;
	snprintf(env->dir, sizeof(env->dir), "/tmp/polkit-env.XXXXXX");
	if (!mkdtemp(env->dir)) {
		say("cannot create a temporary directory: %m");
		return -errno;
	}
	snprintf(env->polkitd_log, sizeof(env->polkitd_log), "%s/polkitd.log", env->dir);
	snprintf(env->bus_log, sizeof(env->bus_log), "%s/dbus-daemon.log", env->dir);

	if (unshare(CLONE_NEWNS) < 0) {
		say("cannot enter a mount namespace of its own: %m");
		return -errno;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		say("cannot make the mounts private: %m");
		return -errno;
	}
	/* The authorizer must find this bus, whatever the caller's
	 * environment says. */
	unsetenv("DBUS_SYSTEM_BUS_ADDRESS");

	r = mount_tmpfs(SYSTEM_BUS_DIR);
	if (r < 0)
		return r;
	r = write_user_db(env, passwd, sizeof(passwd), group, sizeof(group));
	if (r < 0)
		return r;
	r = write_shadow(env, shadow, sizeof(shadow));
	if (r < 0)
		return r;
	r = bind_file(passwd, "/etc/passwd");
	if (r < 0)
		return r;
	r = bind_file(shadow, "/etc/shadow");
	if (r < 0)
		return r;
	return bind_file(group, "/etc/group");
}

/* The system bus as the guest needs it: no activation (polkitd runs only
 * when the test starts it), the services' own policies from system.d. */
static const char bus_config[] =
	"<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\"\n"
	" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
	"<busconfig>\n"
	"  <type>system</type>\n"
	"  <listen>unix:path=" SYSTEM_BUS_SOCKET "</listen>\n"
	"  <auth>EXTERNAL</auth>\n"
	"  <policy context=\"default\">\n"
	"    <allow user=\"*\"/>\n"
	"    <deny own=\"*\"/>\n"
	"    <deny send_type=\"method_call\"/>\n"
	"    <allow send_type=\"signal\"/>\n"
	"    <allow send_requested_reply=\"true\" send_type=\"method_return\"/>\n"
	"    <allow send_requested_reply=\"true\" send_type=\"error\"/>\n"
	"    <allow receive_type=\"method_call\"/>\n"
	"    <allow receive_type=\"method_return\"/>\n"
	"    <allow receive_type=\"error\"/>\n"
	"    <allow receive_type=\"signal\"/>\n"
	"    <allow send_destination=\"org.freedesktop.DBus\"\n"
	"           send_interface=\"org.freedesktop.DBus\"/>\n"
	"    <allow send_destination=\"org.freedesktop.DBus\"\n"
	"           send_interface=\"org.freedesktop.DBus.Introspectable\"/>\n"
	"    <allow send_destination=\"org.freedesktop.DBus\"\n"
	"           send_interface=\"org.freedesktop.DBus.Properties\"/>\n"
	"  </policy>\n"
	"  <includedir>/usr/share/dbus-1/system.d</includedir>\n"
	"</busconfig>\n";

/* Fork and exec ARGV with stdout and stderr to LOG (or inherited when
 * NULL) and OUT_FD, if >= 0, as fd 3. Returns the pid or -errno. */
static pid_t spawn(const char *const *argv, const char *log, int out_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid > 0)
		return pid;

	if (log) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
	}
	if (out_fd >= 0 && dup2(out_fd, 3) < 0)
		_exit(127);
	execv(argv[0], (char *const *)argv);
	fprintf(stderr, "polkit_env: cannot run %s: %m\n", argv[0]);
	_exit(127);
}

static int wait_exit(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return status;
}

static void show_log(const char *path)
{
	char *text = read_file(path);

	if (text && *text)
		say("%s:\n%s", path, text);
	free(text);
}

static int start_bus(struct polkit_env *env)
{
	char config[96], address[256];
	int pipefd[2];
	ssize_t n;
	size_t got = 0;
	int r;

	snprintf(config, sizeof(config), "%s/system-bus.conf", env->dir);
	r = write_file(config, bus_config, 0644);
	if (r < 0)
		return r;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;

	char config_arg[128];

	snprintf(config_arg, sizeof(config_arg), "--config-file=%s", config);
	const char *const argv[] = { "/usr/bin/dbus-daemon", config_arg, "--nofork",
				     "--nopidfile", "--print-address=3", NULL };

	env->dbus_pid = spawn(argv, env->bus_log, pipefd[1]);
	close(pipefd[1]);
	if (env->dbus_pid < 0) {
		r = env->dbus_pid;
		close(pipefd[0]);
		say("cannot start dbus-daemon: %s", strerror(-r));
		return r;
	}
	/* The address is printed once the socket listens: that is ready. */
	while (got < sizeof(address) - 1 &&
	       (n = read(pipefd[0], address + got, sizeof(address) - 1 - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += (size_t)n;
		if (memchr(address, '\n', got))
			break;
	}
	close(pipefd[0]);
	address[got] = '\0';
	if (!strchr(address, '\n')) {
		say("dbus-daemon exited before listening");
		show_log(env->bus_log);
		return -EIO;
	}
	return 0;
}

int polkit_env_start_polkitd(struct polkit_env *env)
{
	const char *const polkitd[] = { POLKITD, NULL };
	const char *const wait_cmd[] = { "/usr/bin/gdbus", "wait", "--system", "--timeout",
					 READY_TIMEOUT_S, POLKIT_NAME, NULL };
	pid_t waiter;
	int status;

	env->polkitd_pid = spawn(polkitd, env->polkitd_log, -1);
	if (env->polkitd_pid < 0) {
		say("cannot start %s: %s", POLKITD, strerror(-env->polkitd_pid));
		return env->polkitd_pid;
	}
	waiter = spawn(wait_cmd, NULL, -1);
	if (waiter < 0)
		return waiter;
	status = wait_exit(waiter);
	if (status < 0)
		return status;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		say("polkitd did not take the name %s within %s s", POLKIT_NAME, READY_TIMEOUT_S);
		show_log(env->polkitd_log);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Our actions file and shipped rules, as `meson install` puts them, and the
 * test's rules. */
static int install_polkit_files(const char *test_rules)
{
	static const char *const dirs[] = {
		"/usr/share/polkit-1/actions",
		"/usr/share/polkit-1/rules.d",
		"/etc/polkit-1/rules.d",
	};
	int r;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		r = mount_tmpfs(dirs[i]);
		if (r < 0)
			return r;
	}
	r = copy_file(HID_POLICY_SOURCE_DIR "/policyd/data/org.hid-policy.policy",
		      "/usr/share/polkit-1/actions/org.hid-policy.policy");
	if (r < 0)
		return r;
	r = copy_file(HID_POLICY_SOURCE_DIR "/policyd/data/50-hid-policy.rules",
		      "/usr/share/polkit-1/rules.d/50-hid-policy.rules");
	if (r < 0)
		return r;
	if (test_rules)
		r = write_file("/etc/polkit-1/rules.d/50-test.rules", test_rules, 0644);
	return r;
}

int polkit_env_start(struct polkit_env *env, const char *test_rules)
{
	int r = polkit_env_isolate(env);

	if (r < 0)
		return r;
	return polkit_env_start_services(env, test_rules);
}

int polkit_env_start_services(struct polkit_env *env, const char *test_rules)
{
	int r = install_polkit_files(test_rules);
	if (r < 0)
		return r;
	r = start_bus(env);
	if (r < 0)
		return r;
	return polkit_env_start_polkitd(env);
}

static void stop_pid(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(*pid, SIGTERM);
	wait_exit(*pid);
	*pid = -1;
}

int polkit_env_stop_polkitd(struct polkit_env *env)
{
	if (env->polkitd_pid <= 0)
		return -ESRCH;
	stop_pid(&env->polkitd_pid);
	return 0;
}

void polkit_env_stop(struct polkit_env *env)
{
	stop_pid(&env->polkitd_pid);
	stop_pid(&env->dbus_pid);
}

int polkit_env_restart(struct polkit_env *env)
{
	int r;

	polkit_env_stop(env);
	if (unlink(SYSTEM_BUS_SOCKET) < 0 && errno != ENOENT)
		return -errno;
	r = start_bus(env);
	if (r < 0)
		return r;
	return polkit_env_start_polkitd(env);
}

int polkit_env_subject_start(struct polkit_env_subject *s, uid_t uid)
{
	int keep[2], ready[2];
	char byte;

	if (pipe2(keep, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(ready, O_CLOEXEC) < 0) {
		int r = -errno;

		close(keep[0]);
		close(keep[1]);
		return r;
	}
	s->uid = uid;
	s->pid = fork();
	if (s->pid < 0) {
		int r = -errno;

		close(keep[0]);
		close(keep[1]);
		close(ready[0]);
		close(ready[1]);
		return r;
	}
	if (s->pid == 0) {
		/* Only its own pipe ends: a subject holding another one's
		 * keep_fd would keep that one alive. */
		if (dup2(keep[0], 3) < 0 || dup2(ready[1], 4) < 0 ||
		    close_range(5, ~0U, 0) < 0)
			_exit(127);
		if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			_exit(127);
		if (write(4, "r", 1) != 1)
			_exit(127);
		/* Until the test closes its end. */
		while (read(3, &byte, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(keep[0]);
	close(ready[1]);
	s->keep_fd = keep[1];
	ssize_t n;

	while ((n = read(ready[0], &byte, 1)) < 0 && errno == EINTR)
		;
	close(ready[0]);
	if (n != 1) {
		polkit_env_subject_end(s);
		return -ECHILD;
	}
	return 0;
}

void polkit_env_subject_end(struct polkit_env_subject *s)
{
	if (s->pid <= 0)
		return;
	close(s->keep_fd);
	wait_exit(s->pid);
	s->pid = -1;
}
