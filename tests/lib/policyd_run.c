// SPDX-License-Identifier: GPL-2.0-or-later
#include "policyd_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "loader.h"

#define READY_TIMEOUT_MS 30000

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static const char *build_path(const char *rel)
{
	static char path[512];
	const char *build = getenv("HID_POLICY_BUILDDIR");

	snprintf(path, sizeof(path), "%s/%s", build ? build : "build", rel);
	return path;
}

static const char *daemon_path(void)
{
	static char path[512];
	const char *build = getenv("HID_POLICY_BUILDDIR");

	snprintf(path, sizeof(path), "%s/policyd/hid-policyd", build ? build : "build");
	return path;
}

int policyd_prepare(struct policyd_run *run)
{
	static unsigned int counter;

	memset(run, 0, sizeof(*run));
	snprintf(run->dir, sizeof(run->dir), "/tmp/policyd-test.XXXXXX");
	if (!mkdtemp(run->dir))
		return -errno;
	snprintf(run->config_dir, sizeof(run->config_dir), "%s/policy.d", run->dir);
	snprintf(run->audit_log, sizeof(run->audit_log), "%s/audit.jsonl", run->dir);
	snprintf(run->stderr_log, sizeof(run->stderr_log), "%s/stderr.log", run->dir);
	snprintf(run->runtime_dir, sizeof(run->runtime_dir), "%s/run", run->dir);
	snprintf(run->state_dir, sizeof(run->state_dir), "/sys/fs/bpf/hid-policy-test-%d-%u",
		 (int)getpid(), counter++);
	if (mkdir(run->config_dir, 0755) < 0)
		return -errno;
	return 0;
}

int policyd_write_policy(struct policyd_run *run, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", run->config_dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* A daemon that did not start: show why, in the test's output. */
static void show_daemon_messages(struct policyd_run *run)
{
	char line[1024];
	FILE *f = fopen(run->stderr_log, "r");

	while (f && fgets(line, sizeof(line), f))
		printf("    daemon: %s", line);
	if (f)
		fclose(f);
}

int policyd_start(struct policyd_run *run, const char *const *extra_args)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char buf[256];
	int sock, r = -ETIMEDOUT;
	long deadline;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/notify", run->dir);
	unlink(addr.sun_path);
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return -errno;
	if (bind(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		r = -errno;
		close(sock);
		return r;
	}

	run->pid = fork();
	if (run->pid < 0) {
		r = -errno;
		close(sock);
		return r;
	}
	if (run->pid == 0) {
		const char *argv[32] = {
			daemon_path(), "--foreground",
			"--config-dir", run->config_dir,
			"--audit-log", run->audit_log,
			"--state-dir", run->state_dir,
			"--runtime-dir", run->runtime_dir,
		};
		size_t n = 10;
		int fd = open(run->stderr_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		for (size_t i = 0; extra_args && extra_args[i] && n < 31; i++)
			argv[n++] = extra_args[i];
		argv[n] = NULL;
		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			dup2(fd, STDOUT_FILENO);
		}
		setenv("NOTIFY_SOCKET", addr.sun_path, 1);
		execv(argv[0], (char **)argv);
		_exit(127);
	}

	deadline = now_ms() + READY_TIMEOUT_MS;
	while (now_ms() < deadline) {
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		int status;

		if (poll(&pfd, 1, 100) == 1) {
			ssize_t n = recv(sock, buf, sizeof(buf) - 1, 0);

			if (n > 0) {
				buf[n] = '\0';
				if (strstr(buf, "READY=1")) {
					r = 0;
					break;
				}
			}
		}
		if (waitpid(run->pid, &status, WNOHANG) == run->pid) {
			run->pid = 0;
			r = -ECHILD;
			break;
		}
	}
	close(sock);
	if (r < 0)
		show_daemon_messages(run);
	return r;
}

int policyd_stop(struct policyd_run *run, bool kill9)
{
	int status = 0;

	if (run->pid <= 0)
		return -ECHILD;
	kill(run->pid, kill9 ? SIGKILL : SIGTERM);
	if (waitpid(run->pid, &status, 0) < 0)
		return -errno;
	run->pid = 0;
	return status;
}

static size_t count_occurrences(const char *path, const char *text)
{
	char line[4096];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, text))
			n++;
	fclose(f);
	return n;
}

int policyd_reload(struct policyd_run *run)
{
	size_t before = count_occurrences(run->stderr_log, "policy reloaded") +
			count_occurrences(run->stderr_log, "reload failed");
	long deadline = now_ms() + 20000;

	if (kill(run->pid, SIGHUP) < 0)
		return -errno;
	while (now_ms() < deadline) {
		if (count_occurrences(run->stderr_log, "policy reloaded") +
		    count_occurrences(run->stderr_log, "reload failed") > before)
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

int policyd_cleanup(struct policyd_run *run)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execl(daemon_path(), daemon_path(), "--cleanup", "--state-dir",
		      run->state_dir, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

bool policyd_said(struct policyd_run *run, const char *text, int timeout_ms)
{
	long deadline = now_ms() + timeout_ms;

	do {
		if (count_occurrences(run->stderr_log, text))
			return true;
		usleep(10000);
	} while (now_ms() < deadline);
	return false;
}

/* Value at a dotted path as text, for comparison with a filter. */
static bool field_equals(json_t *obj, const char *filter)
{
	char key[128], *dot, *cur;
	const char *eq = strchr(filter, '=');
	char text[256];
	json_t *v = obj;

	if (!eq || (size_t)(eq - filter) >= sizeof(key))
		return false;
	memcpy(key, filter, eq - filter);
	key[eq - filter] = '\0';
	for (cur = key; cur; cur = dot ? dot + 1 : NULL) {
		dot = strchr(cur, '.');
		if (dot)
			*dot = '\0';
		v = json_object_get(v, cur);
		if (!v)
			return false;
	}
	if (json_is_string(v))
		snprintf(text, sizeof(text), "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		snprintf(text, sizeof(text), "%s", json_is_true(v) ? "true" : "false");
	else
		return false;
	return !strcmp(text, eq + 1);
}

static bool record_matches(json_t *rec, const char *const *filters)
{
	for (size_t i = 0; filters && filters[i]; i++)
		if (!field_equals(rec, filters[i]))
			return false;
	return true;
}

static size_t scan_audit(struct policyd_run *run, const char *const *filters, json_t **last)
{
	char *line = NULL;
	size_t cap = 0, n = 0;
	FILE *f = fopen(run->audit_log, "r");

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		json_t *rec = json_loads(line, 0, NULL);

		if (!rec)
			continue;
		if (record_matches(rec, filters)) {
			n++;
			if (last) {
				json_decref(*last);
				*last = json_incref(rec);
			}
		}
		json_decref(rec);
	}
	free(line);
	fclose(f);
	return n;
}

size_t policyd_audit_count(struct policyd_run *run, const char *const *filters,
			   size_t want, int timeout_ms)
{
	long deadline = now_ms() + timeout_ms;
	size_t n;

	for (;;) {
		n = scan_audit(run, filters, NULL);
		if (n >= want || now_ms() >= deadline)
			return n;
		usleep(20000);
	}
}

json_t *policyd_audit_last(struct policyd_run *run, const char *const *filters)
{
	json_t *last = NULL;

	scan_audit(run, filters, &last);
	return last;
}

int firewall_instance_count(int hid_id)
{
	int n = fw_count_device_ops((uint32_t)hid_id);

	/* A count the kernel would not give must fail the check that
	 * reads it, not pass for "none attached". */
	if (n < 0)
		printf("    cannot count the programs of hid_id %d: %s\n", hid_id, strerror(-n));
	return n;
}

/* Everything FD gives until EOF, as a string. */
static char *slurp(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);

	while (buf) {
		ssize_t n;

		if (cap - len < 2048) {
			char *p = realloc(buf, cap * 2);

			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

int policyctl_run(struct policyd_run *run, uid_t uid, const char *const *args,
		  struct policyctl_output *out)
{
	char socket_path[160];
	int out_pipe[2], err_pipe[2], status;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	snprintf(socket_path, sizeof(socket_path), "%s/control", run->runtime_dir);
	if (pipe2(out_pipe, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err_pipe, O_CLOEXEC) < 0) {
		close(out_pipe[0]);
		close(out_pipe[1]);
		return -errno;
	}
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		const char *argv[40] = { build_path("policyd/hid-policyctl"), "--socket", socket_path };
		size_t n = 3;

		for (size_t i = 0; args[i] && n < 39; i++)
			argv[n++] = args[i];
		argv[n] = NULL;
		dup2(out_pipe[1], STDOUT_FILENO);
		dup2(err_pipe[1], STDERR_FILENO);
		if (uid != (uid_t)-1 && (setgid(uid) < 0 || setuid(uid) < 0))
			_exit(126);
		execv(argv[0], (char **)argv);
		_exit(127);
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	/* Replies are small: stdout first, then stderr, never deadlocks
	 * below the pipe buffer size. */
	out->out = slurp(out_pipe[0]);
	out->err = slurp(err_pipe[0]);
	close(out_pipe[0]);
	close(err_pipe[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	out->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return out->out && out->err ? 0 : -ENOMEM;
}

void policyctl_output_done(struct policyctl_output *out)
{
	free(out->out);
	free(out->err);
	memset(out, 0, sizeof(*out));
}
