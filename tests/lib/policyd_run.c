// SPDX-License-Identifier: GPL-2.0-or-later
#include "policyd_run.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pty.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "enforce/loader.h"
#include "harness.h"
#include "json_path.h"

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
	snprintf(run->saved_dir, sizeof(run->saved_dir), "%s/saved", run->dir);
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
			run->daemon ? run->daemon : daemon_path(), "--foreground",
			"--config-dir", run->config_dir,
			"--audit-log", run->audit_log,
			"--state-dir", run->state_dir,
			"--runtime-dir", run->runtime_dir,
			"--saved-policy-dir", run->saved_dir,
		};
		size_t n = 12;
		int fd = open(run->stderr_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		if (!run->refuse_unsafe_input)
			argv[n++] = "--allow-unsafe-input-rules";
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

	deadline = now_ms() + (long)READY_TIMEOUT_MS * test_slow_factor();
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
	/* a reload may load and verify the input program: the guest's load
	 * stretches it as it does a start */
	long deadline = now_ms() + 20000L * test_slow_factor();

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

/* Does the value at FILTER's dotted path, as text, equal what follows '='? */
static bool field_equals(json_t *obj, const char *filter)
{
	char key[128], text[256];
	const char *eq = strchr(filter, '=');
	json_t *v;

	if (!eq || (size_t)(eq - filter) >= sizeof(key))
		return false;
	memcpy(key, filter, eq - filter);
	key[eq - filter] = '\0';
	v = json_path(obj, key);
	if (!eq[1])
		return v == NULL;
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

/* How many decisions a record stands for: a decision's record of repeats
 * says it in "count" (audit_repeat.h); any other record is one. */
static size_t decisions_of(json_t *rec)
{
	json_t *count = json_object_get(rec, "count");
	const char *event = json_string_value(json_object_get(rec, "event"));

	if (event && !strcmp(event, "decision") && json_is_integer(count) &&
	    json_integer_value(count) > 0)
		return (size_t)json_integer_value(count);
	return 1;
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
			n += decisions_of(rec);
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
	/* the daemon writes the records while other guests take the cores */
	long deadline = now_ms() + (long)timeout_ms * test_slow_factor();
	size_t n;

	for (;;) {
		n = scan_audit(run, filters, NULL);
		if (n >= want || now_ms() >= deadline)
			return n;
		usleep(20000);
	}
}

unsigned long long policyd_audit_sum(struct policyd_run *run, const char *const *filters,
				     const char *key)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long long sum = 0;
	FILE *f = fopen(run->audit_log, "r");

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		json_t *rec = json_loads(line, 0, NULL);
		json_t *v = rec ? json_path(rec, key) : NULL;

		if (rec && record_matches(rec, filters) && json_is_integer(v))
			sum += (unsigned long long)json_integer_value(v);
		json_decref(rec);
	}
	free(line);
	fclose(f);
	return sum;
}

json_t *policyd_audit_last(struct policyd_run *run, const char *const *filters)
{
	json_t *last = NULL;

	scan_audit(run, filters, &last);
	return last;
}

int firewall_instance_count(int hid_id)
{
	int n = fw_count_device_ops((uint32_t)hid_id, NULL);

	/* A count the kernel would not give must fail the check that
	 * reads it, not pass for "none attached". */
	if (n < 0)
		printf("    cannot count the programs of hid_id %d: %s\n", hid_id, strerror(-n));
	return n;
}

int firewall_input_filter_count(int hid_id)
{
	int inputs = 0, n = fw_count_device_ops((uint32_t)hid_id, &inputs);

	if (n < 0) {
		printf("    cannot count the programs of hid_id %d: %s\n", hid_id, strerror(-n));
		return n;
	}
	return inputs;
}

int firewall_detach_through_pin(const struct policyd_run *run, int hid_id)
{
	char path[PATH_MAX];
	uint32_t key = 0;
	int fd, r = 0;

	snprintf(path, sizeof(path), "%s/devices/%d", run->state_dir, hid_id);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	if (bpf_map_delete_elem(fd, &key) < 0)
		r = -errno;
	close(fd);
	return r;
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

/* Who a hid-policyctl child becomes. Worked out before fork: getpwuid()
 * is not for the child of a test with threads (uhid devices). */
struct run_as {
	bool change;		/* false: stay as the test */
	uid_t uid;
	gid_t gid;
	gid_t groups[64];
	int n_groups;
};

static int run_as_prepare(uid_t uid, struct run_as *ra)
{
	struct passwd *pw;

	*ra = (struct run_as){ .change = uid != (uid_t)-1, .uid = uid, .gid = (gid_t)uid };
	if (!ra->change)
		return 0;
	pw = getpwuid(uid);
	if (!pw) {
		/* No account: its own group alone. */
		ra->groups[0] = ra->gid;
		ra->n_groups = 1;
		return 0;
	}
	ra->gid = pw->pw_gid;
	ra->n_groups = (int)(sizeof(ra->groups) / sizeof(ra->groups[0]));
	if (getgrouplist(pw->pw_name, pw->pw_gid, ra->groups, &ra->n_groups) < 0)
		return -E2BIG;
	return 0;
}

/* In the child: as a login would, groups first. 0 or -1. */
static int run_as_apply(const struct run_as *ra)
{
	if (!ra->change)
		return 0;
	if (setgroups((size_t)ra->n_groups, ra->groups) < 0 || setgid(ra->gid) < 0 ||
	    setuid(ra->uid) < 0)
		return -1;
	return 0;
}

/* One hid-policyctl run: who it runs as and its command line. */
struct policyctl_cmd {
	struct run_as ra;
	char exe[512];
	char socket_path[160];
	const char *argv[40];
};

/* Fill CMD for hid-policyctl --socket RUN's socket ARGS... as UID, and
 * reset OUT to "did not exit". 0 or -errno. */
static int policyctl_cmd_prepare(struct policyctl_cmd *cmd, struct policyd_run *run, uid_t uid,
				 const char *const *args, struct policyctl_output *out)
{
	size_t n = 0;
	int r;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	r = run_as_prepare(uid, &cmd->ra);
	if (r < 0)
		return r;
	snprintf(cmd->exe, sizeof(cmd->exe), "%s", build_path("policyd/hid-policyctl"));
	snprintf(cmd->socket_path, sizeof(cmd->socket_path), "%s/control", run->runtime_dir);
	cmd->argv[n++] = cmd->exe;
	cmd->argv[n++] = "--socket";
	cmd->argv[n++] = cmd->socket_path;
	for (size_t i = 0; args[i] && n < sizeof(cmd->argv) / sizeof(cmd->argv[0]) - 1; i++)
		cmd->argv[n++] = args[i];
	cmd->argv[n] = NULL;
	return 0;
}

/* In the child: become the user and run it; never returns. */
static __attribute__((noreturn)) void policyctl_cmd_exec(const struct policyctl_cmd *cmd)
{
	/* Opened before the user is taken on: the checkout may lie where the
	 * user cannot go (a clone under /root, mode 0700). */
	int exe = open(cmd->exe, O_RDONLY | O_CLOEXEC);

	if (exe < 0 || run_as_apply(&cmd->ra) < 0)
		_exit(126);
	fexecve(exe, (char **)cmd->argv, environ);
	_exit(127);
}

int policyctl_run(struct policyd_run *run, uid_t uid, const char *const *args,
		  struct policyctl_output *out)
{
	struct policyctl_cmd cmd;
	int out_pipe[2], err_pipe[2], status, r;
	pid_t pid;

	r = policyctl_cmd_prepare(&cmd, run, uid, args, out);
	if (r < 0)
		return r;
	if (pipe2(out_pipe, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err_pipe, O_CLOEXEC) < 0) {
		close(out_pipe[0]);
		close(out_pipe[1]);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(out_pipe[0]);
		close(out_pipe[1]);
		close(err_pipe[0]);
		close(err_pipe[1]);
		return r;
	}
	if (pid == 0) {
		dup2(out_pipe[1], STDOUT_FILENO);
		dup2(err_pipe[1], STDERR_FILENO);
		policyctl_cmd_exec(&cmd);
	}
	out->pid = pid;
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

int policyd_check(struct policyd_run *run, struct policyctl_output *out)
{
	int out_pipe[2], status;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	if (pipe2(out_pipe, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(out_pipe[0]);
		close(out_pipe[1]);
		return -errno;
	}
	if (pid == 0) {
		dup2(out_pipe[1], STDOUT_FILENO);
		dup2(out_pipe[1], STDERR_FILENO);
		execl(daemon_path(), daemon_path(), "--check", "--config-dir", run->config_dir,
		      run->refuse_unsafe_input ? (char *)NULL : "--allow-unsafe-input-rules",
		      (char *)NULL);
		_exit(127);
	}
	out->pid = pid;
	close(out_pipe[1]);
	out->out = slurp(out_pipe[0]);
	out->err = strdup("");
	close(out_pipe[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	out->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return out->out && out->err ? 0 : -ENOMEM;
}

/* Append N bytes to the NUL-terminated growing buffer *BUF. */
static int append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t cap2 = *cap ? *cap : 4096;
		char *p;

		while (*len + n + 1 > cap2)
			cap2 *= 2;
		p = realloc(*buf, cap2);
		if (!p)
			return -ENOMEM;
		*buf = p;
		*cap = cap2;
	}
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

/* Wait until the terminal stops echoing (the agent reads a password, and
 * has flushed its input first). Returns 0 or -ETIMEDOUT. */
static int wait_echo_off(int master, long deadline)
{
	struct termios t;

	while (now_ms() < deadline) {
		if (tcgetattr(master, &t) == 0 && !(t.c_lflag & ECHO))
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

int policyctl_run_tty(struct policyd_run *run, uid_t uid, const char *const *args,
		      const char *const *answers, int timeout_ms,
		      struct policyctl_output *out)
{
	static const char prompt[] = "Password: ";
	char chunk[1024];
	struct policyctl_cmd cmd;
	size_t len = 0, cap = 0, scanned = 0, answered = 0;
	long deadline = now_ms() + timeout_ms;
	int master, status = 0, r;
	bool exited = false;
	pid_t pid;

	r = policyctl_cmd_prepare(&cmd, run, uid, args, out);
	if (r < 0)
		return r;
	out->err = strdup("");
	if (!out->err || append(&out->out, &len, &cap, "", 0) < 0)
		return -ENOMEM;

	/* The child leads a new session with the terminal as its
	 * controlling one, and stdin, stdout and stderr on it. */
	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0)
		return -errno;
	if (pid == 0)
		policyctl_cmd_exec(&cmd);
	out->pid = pid;

	r = 0;
	for (;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		char *found;
		ssize_t n;

		if (now_ms() >= deadline) {
			r = -ETIMEDOUT;
			break;
		}
		if (poll(&p, 1, 100) < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		/* hid-policyctl ended: agents left in its session go too, so
		 * that the terminal closes once its output is read. */
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = true;
			kill(-pid, SIGKILL);
		}
		if (p.revents) {
			n = read(master, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			/* EIO: every end of the terminal is closed. */
			if (n <= 0)
				break;
			if (append(&out->out, &len, &cap, chunk, (size_t)n) < 0) {
				r = -ENOMEM;
				break;
			}
		}
		found = strstr(out->out + scanned, prompt);
		if (!found)
			continue;
		scanned = (size_t)(found - out->out) + strlen(prompt);
		if (!answers || !answers[answered]) {
			r = -EPROTO;	/* asked once more than the test expected */
			break;
		}
		r = wait_echo_off(master, deadline);
		if (r < 0)
			break;
		if (write(master, answers[answered], strlen(answers[answered])) < 0 ||
		    write(master, "\n", 1) != 1) {
			r = -errno;
			break;
		}
		answered++;
	}
	if (r < 0)
		kill(-pid, SIGKILL);	/* its session, agents included */
	close(master);
	if (!exited && waitpid(pid, &status, 0) < 0)
		return r < 0 ? r : -errno;
	out->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return r;
}

void policyctl_output_done(struct policyctl_output *out)
{
	free(out->out);
	free(out->err);
	memset(out, 0, sizeof(*out));
}
