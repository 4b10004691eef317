// SPDX-License-Identifier: GPL-2.0-or-later
#include "audit_daemons.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define START_TIMEOUT_MS 10000

static const char *find_program(const char *const *paths)
{
	for (; *paths; paths++)
		if (access(*paths, X_OK) == 0)
			return *paths;
	return NULL;
}

static void show_file(const char *who, const char *path)
{
	char text[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n > 0) {
		text[n] = '\0';
		printf("    %s: %s\n", who, text);
	}
}

/* Start PROGRAM ARGV with stdout and stderr to LOG; its pid or -errno. */
static pid_t spawn(const char *const *argv, const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	pid_t pid;

	if (fd < 0)
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execv(argv[0], (char **)argv);
		_exit(127);
	}
	close(fd);
	return pid;
}

static int stop(pid_t *pid)
{
	int status = 0;

	if (*pid <= 0)
		return 0;
	kill(*pid, SIGTERM);
	if (waitpid(*pid, &status, 0) < 0)
		return -errno;
	*pid = -1;
	return status;
}

/* Wait until READY() holds, or the process exits, or the time is up. */
static int wait_ready(pid_t *pid, bool (*ready)(void *), void *data, const char *who,
		      const char *log)
{
	const int timeout_ms = START_TIMEOUT_MS * test_slow_factor();

	for (int waited = 0; !ready(data); waited += 20) {
		int status;

		if (waitpid(*pid, &status, WNOHANG) == *pid) {
			*pid = -1;
			printf("    %s exited before it was ready\n", who);
			show_file(who, log);
			return -ECHILD;
		}
		if (waited >= timeout_ms) {
			printf("    %s not ready within %d ms\n", who, timeout_ms);
			show_file(who, log);
			stop(pid);
			return -ETIMEDOUT;
		}
		usleep(20 * 1000);
	}
	return 0;
}

static bool journal_socket_exists(void *data)
{
	return access("/run/systemd/journal/socket", F_OK) == 0;
}

int journald_start(struct journald_run *j)
{
	static const char *const paths[] = { "/lib/systemd/systemd-journald",
					     "/usr/lib/systemd/systemd-journald", NULL };
	const char *journald = find_program(paths);
	static const char *const dirs[] = { "/run/systemd", "/run/log" };

	j->pid = -1;
	if (!journald)
		return -ENOENT;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		mkdir(dirs[i], 0755);
		if (mount("tmpfs", dirs[i], "tmpfs", 0, "mode=0755") < 0) {
			int r = -errno;

			printf("    mount tmpfs on %s: %s\n", dirs[i], strerror(-r));
			return r;
		}
	}
	/* journald finds its clients' units in the cgroup tree, and stops
	 * without one; the guest mounts none. */
	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK) < 0 &&
	    mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL) < 0) {
		int r = -errno;

		printf("    mount cgroup2 on /sys/fs/cgroup: %s\n", strerror(-r));
		return r;
	}
	snprintf(j->log, sizeof(j->log), "/tmp/journald.%d.log", (int)getpid());
	j->pid = spawn((const char *const[]){ journald, NULL }, j->log);
	if (j->pid < 0)
		return j->pid;
	return wait_ready(&j->pid, journal_socket_exists, NULL, "systemd-journald", j->log);
}

int journald_stop(struct journald_run *j)
{
	return stop(&j->pid);
}

int run_capture(const char *const *argv, char **out)
{
	char path[] = "/tmp/run-capture.XXXXXX";
	int fd = mkstemp(path), status;
	pid_t pid;
	off_t size;

	*out = NULL;
	if (fd < 0)
		return -errno;
	unlink(path);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -errno;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execvp(argv[0], (char **)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		close(fd);
		return -errno;
	}
	size = lseek(fd, 0, SEEK_END);
	*out = calloc(1, size > 0 ? (size_t)size + 1 : 1);
	if (*out && size > 0 && pread(fd, *out, (size_t)size, 0) < 0)
		(*out)[0] = '\0';
	close(fd);
	if (!*out)
		return -ENOMEM;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* "enabled 1" in auditctl -s: the kernel's setting, or -1. */
int audit_kernel_enabled(void)
{
	char *out = NULL, *at;
	int r = run_capture((const char *const[]){ "auditctl", "-s", NULL }, &out), v = -1;

	if (r == 0 && (at = strstr(out, "enabled ")))
		v = atoi(at + 8);
	free(out);
	return v;
}

/* Is auditd the kernel's audit daemon ("pid N" in auditctl -s)? */
static bool auditd_registered(void *data)
{
	const struct auditd_run *a = data;
	char *out = NULL, want[32];
	bool yes;

	snprintf(want, sizeof(want), "\npid %d\n", (int)a->pid);
	yes = run_capture((const char *const[]){ "auditctl", "-s", NULL }, &out) == 0 &&
	      strstr(out, want);
	free(out);
	return yes;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* Does PID run? A zombie does not: the guest's PID 1 may be slow to reap
 * an auditd whose test was killed. */
static bool process_runs(int pid)
{
	char path[32], stat[256], *paren;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, stat, sizeof(stat) - 1);
	close(fd);
	if (n <= 0)
		return false;
	stat[n] = '\0';
	paren = strrchr(stat, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/* auditd refuses to start while its pid file names another: remove one
 * whose process is gone (an auditd of a failed test, killed). */
static void stale_pid_file(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = 0;

	if (!f)
		return;
	if (fscanf(f, "%d", &pid) != 1 || pid <= 0 || !process_runs(pid))
		unlink(path);
	fclose(f);
}

/* The kernel forgets an audit daemon that died only when it next fails to
 * send it a record, and until then refuses a new one: send one. */
static void forget_dead_auditd(void)
{
	char *out = NULL, *at;
	int pid = 0;

	if (run_capture((const char *const[]){ "auditctl", "-s", NULL }, &out) == 0 &&
	    (at = strstr(out, "\npid ")))
		pid = atoi(at + 5);
	free(out);
	if (pid <= 0 || process_runs(pid))
		return;
	run_capture((const char *const[]){ "auditctl", "-m", "hid-policy test: the last auditd is gone",
					   NULL }, &out);
	free(out);
	usleep(200 * 1000);
}

int auditd_start(struct auditd_run *a)
{
	static const char *const paths[] = { "/sbin/auditd", "/usr/sbin/auditd", NULL };
	const char *auditd = find_program(paths);
	char conf[160], plugins[96], text[1024], log[128];
	int r;

	a->pid = -1;
	a->was_enabled = -1;
	if (!auditd)
		return -ENOENT;
	snprintf(a->dir, sizeof(a->dir), "/tmp/auditd.XXXXXX");
	if (!mkdtemp(a->dir))
		return -errno;
	snprintf(a->log, sizeof(a->log), "%s/audit.log", a->dir);
	snprintf(plugins, sizeof(plugins), "%s/plugins.d", a->dir);
	if (mkdir(plugins, 0750) < 0)
		return -errno;
	/* Every record written at once (flush = data), nothing sent on. */
	snprintf(text, sizeof(text),
		 "local_events = yes\nwrite_logs = yes\nlog_file = %s\nlog_format = ENRICHED\n"
		 "flush = DATA\nmax_log_file = 8\nmax_log_file_action = IGNORE\n"
		 "space_left = 2\nspace_left_action = IGNORE\nadmin_space_left = 1\n"
		 "admin_space_left_action = IGNORE\ndisk_full_action = IGNORE\n"
		 "disk_error_action = IGNORE\nplugin_dir = %s\nq_depth = 2000\n"
		 "overflow_action = IGNORE\nname_format = NONE\n",
		 a->log, plugins);
	snprintf(conf, sizeof(conf), "%s/auditd.conf", a->dir);
	if ((r = write_text(conf, text)) < 0 || chmod(conf, 0640) < 0)
		return r < 0 ? r : -errno;
	a->was_enabled = audit_kernel_enabled();
	stale_pid_file("/run/auditd.pid");
	forget_dead_auditd();
	snprintf(log, sizeof(log), "%s/auditd.out", a->dir);
	/* -n: no fork (-f would send the records to stderr instead of the
	 * log); -c: the test's configuration directory. */
	a->pid = spawn((const char *const[]){ auditd, "-n", "-c", a->dir, NULL }, log);
	if (a->pid < 0)
		return a->pid;
	r = wait_ready(&a->pid, auditd_registered, a, "auditd", log);
	if (r < 0)
		return r;
	/* The backlog distributions set (Debian's audit.rules: -b 8192): the
	 * kernel's default of 64 fills with the records of the firewall's
	 * program loads, and each process that adds one waits. */
	{
		char *out = NULL;

		r = run_capture((const char *const[]){ "auditctl", "-b", "8192", NULL }, &out);
		if (r != 0)
			printf("    auditctl -b 8192: %s\n", out ? out : "?");
		free(out);
	}
	r = audit_kernel_set_enabled(true);
	return r == 0 && audit_kernel_enabled() == 1 ? 0 : -EIO;
}

int audit_kernel_set_enabled(bool on)
{
	char *out = NULL;
	int r = run_capture((const char *const[]){ "auditctl", "-e", on ? "1" : "0", NULL }, &out);

	if (r != 0)
		printf("    auditctl -e %d: %s\n", on, out ? out : "?");
	free(out);
	return r == 0 ? 0 : -EIO;
}

int auditd_stop(struct auditd_run *a)
{
	int r = stop(&a->pid);

	if (a->was_enabled == 0)
		audit_kernel_set_enabled(false);
	return r;
}
