// SPDX-License-Identifier: GPL-2.0-or-later
#include "udevd_run.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "uhid_dev.h"

#define START_TIMEOUT_MS 10000

static const char *find_udevd(void)
{
	static const char *const paths[] = { "/lib/systemd/systemd-udevd",
					     "/usr/lib/systemd/systemd-udevd" };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	return NULL;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* The shipped rule file NAME, with every @SBINDIR@ replaced by SBINDIR,
 * into /run/udev/rules.d. */
static int install_rule_file(const char *name, const char *sbindir)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	static const char var[] = "@SBINDIR@";
	char path[512], text[8192], out[16384];
	const char *from;
	size_t len = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/policyd/data/%s", src, name);
	n = read_file(path, text, sizeof(text) - 1);
	if (n < 0) {
		/* Not -ENOENT: that says udevd is missing, and the test
		 * would skip instead of failing. */
		printf("    %s: %s\n", path, strerror((int)-n));
		return -EIO;
	}
	text[n] = '\0';
	for (from = text; *from;) {
		const char *at = strstr(from, var);
		size_t keep = at ? (size_t)(at - from) : strlen(from);
		int k = snprintf(out + len, sizeof(out) - len, "%.*s%s", (int)keep, from,
				 at ? sbindir : "");

		if (k < 0 || (size_t)k >= sizeof(out) - len)
			return -E2BIG;
		len += (size_t)k;
		from += keep + (at ? strlen(var) : 0);
	}
	snprintf(path, sizeof(path), "/run/udev/rules.d/%s", name);
	return write_text(path, out);
}

static int install_policy_rule(const char *sbindir)
{
	int r = install_rule_file("60-hid-policy.rules", sbindir);

	return r < 0 ? r : install_rule_file("99-hid-policy-closed.rules", sbindir);
}

static int private_mounts(void)
{
	static const char *const tmpfs_dirs[] = { "/run", "/usr/lib/udev/rules.d",
						  "/etc/udev/rules.d" };

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(tmpfs_dirs) / sizeof(tmpfs_dirs[0]); i++) {
		if (mount("tmpfs", tmpfs_dirs[i], "tmpfs", 0, "mode=0755") < 0) {
			int r = -errno;

			printf("    mount tmpfs on %s: %s\n", tmpfs_dirs[i], strerror(-r));
			return r;
		}
	}
	if (mkdir("/run/udev", 0755) < 0 || mkdir("/run/udev/rules.d", 0755) < 0)
		return -errno;
	return 0;
}

static void show_log(const struct udevd_run *u)
{
	char text[4096];
	ssize_t n = read_file(u->log, text, sizeof(text) - 1);

	if (n > 0) {
		text[n] = '\0';
		printf("    udevd: %s\n", text);
	}
}

/*
 * The control socket is not yet a sign that udevd hears the kernel:
 * systemd-udevd (252) binds /run/udev/control before it binds its uevent
 * socket, and a device added in between never reaches the rules (its node
 * keeps no database entry, and udevd_wait_node() waits in vain: with four
 * guests on two cores, 30 s once). udevd answers a ping from its event
 * loop, which starts after both sockets are bound; from then on no uevent
 * is lost.
 */
static int udevd_ping_once(const struct udevd_run *u, const char *udevadm, int timeout_s)
{
	char timeout[32];
	pid_t pid;
	int status;

	snprintf(timeout, sizeof(timeout), "--timeout=%d", timeout_s);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(u->log, O_WRONLY | O_APPEND | O_CLOEXEC);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execl(udevadm, udevadm, "control", "--ping", timeout, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("    udevadm control --ping: %s %d\n",
		       WIFEXITED(status) ? "exit" : "signal",
		       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * One lost ping is udevd's, not a sign that it is deaf: it turns on
 * SO_PASSCRED on a control connection only after accepting it
 * (systemd src/udev/udev-ctrl.c, udev_ctrl_event_handler), and neither
 * its listening socket nor udevadm's asks for credentials, so a message
 * sent between the two carries none: udevd logs "Invalid sender uid 65534,
 * ignoring message" (the overflow uid) and drops the connection. Seen once
 * on two cores; ask again within the start time-out.
 */
static int udevd_ping(const struct udevd_run *u)
{
	static const char *const paths[] = { "/usr/bin/udevadm", "/bin/udevadm" };
	int limit_s = START_TIMEOUT_MS / 1000 * test_slow_factor();
	const char *udevadm = NULL;
	int r = -ETIMEDOUT;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]) && !udevadm; i++)
		if (access(paths[i], X_OK) == 0)
			udevadm = paths[i];
	if (!udevadm) {
		printf("    udevadm is not installed: cannot tell when udevd hears the kernel\n");
		return -EIO;
	}
	for (int tries = 0; tries < 3 && r < 0; tries++)
		r = udevd_ping_once(u, udevadm, limit_s);
	return r;
}

int udevd_start(struct udevd_run *u, bool with_policy_rule, const char *test_rule)
{
	char sbindir[512];

	if (!with_policy_rule)
		return udevd_start_at(u, NULL, test_rule);
	snprintf(sbindir, sizeof(sbindir), "%s/policyd", getenv("HID_POLICY_BUILDDIR") ?: "build");
	return udevd_start_at(u, sbindir, test_rule);
}

int udevd_start_at(struct udevd_run *u, const char *sbindir, const char *test_rule)
{
	const char *udevd = find_udevd();
	int fd, r;

	u->pid = -1;
	if (!udevd)
		return -ENOENT;
	r = private_mounts();
	if (r < 0)
		return r;
	if (sbindir && (r = install_policy_rule(sbindir)) < 0)
		return r;
	if (test_rule && (r = write_text(UDEVD_TEST_RULE_FILE, test_rule)) < 0)
		return r;

	snprintf(u->log, sizeof(u->log), "/tmp/udevd.%d.log", (int)getpid());
	fd = open(u->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	fflush(stdout);
	u->pid = fork();
	if (u->pid < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (u->pid == 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execl(udevd, udevd, (char *)NULL);
		_exit(127);
	}
	close(fd);
	for (int waited = 0; access("/run/udev/control", F_OK) < 0; waited += 10) {
		int status;

		if (waitpid(u->pid, &status, WNOHANG) == u->pid) {
			u->pid = -1;
			show_log(u);
			return -ECHILD;
		}
		if (waited >= START_TIMEOUT_MS * test_slow_factor()) {
			show_log(u);
			return -ETIMEDOUT;
		}
		usleep(10000);
	}
	r = udevd_ping(u);
	if (r < 0)
		show_log(u);
	return r;
}

int udevd_stop(struct udevd_run *u)
{
	int status;

	if (u->pid <= 0)
		return -ECHILD;
	kill(u->pid, SIGTERM);
	while (waitpid(u->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	u->pid = -1;
	unlink(u->log);
	return 0;
}

/* Wait until udevd's queue is empty, WAITED of LIMIT_MS (already scaled)
 * spent before. */
static int wait_queue_empty(int waited, int limit_ms)
{
	for (; access("/run/udev/queue", F_OK) == 0; waited += 10) {
		if (waited >= limit_ms)
			return -ETIMEDOUT;
		usleep(10000);
	}
	return 0;
}

int udevd_wait_idle(int timeout_ms)
{
	return wait_queue_empty(0, timeout_ms * test_slow_factor());
}

int udevd_wait_node(const char *node, int timeout_ms)
{
	char entry[64];
	struct stat st;
	int waited = 0;

	timeout_ms *= test_slow_factor();

	/* devtmpfs makes the node a moment after the device appears */
	for (; stat(node, &st) < 0; waited += 10) {
		if (errno != ENOENT || waited >= timeout_ms)
			return -errno;
		usleep(10000);
	}
	snprintf(entry, sizeof(entry), "/run/udev/data/%c%u:%u", S_ISBLK(st.st_mode) ? 'b' : 'c',
		 major(st.st_rdev), minor(st.st_rdev));
	for (; access(entry, F_OK) < 0; waited += 10) {
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		usleep(10000);
	}
	return wait_queue_empty(waited, timeout_ms);
}
