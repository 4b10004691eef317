/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real systemd-journald and auditd in a test, where hid-policyd's
 * audit outlets send (the guest's PID 1 is not systemd, so they are started
 * by hand). journald_start() moves the calling process to a private mount
 * namespace with fresh /run/systemd and /run/log (and the cgroup2 tree,
 * which journald needs), so journald's sockets and its volatile journal are
 * the test's alone. auditd_start() runs auditd
 * with a configuration of the test's (its log in a temporary directory)
 * and switches the kernel's auditing on; auditd_stop() sets it back.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

struct journald_run {
	pid_t pid;
	char log[64];		/* journald's own stderr */
};

/* 0 once journald listens on /run/systemd/journal/socket; -ENOENT when it
 * is not installed; -errno otherwise (its messages printed). */
int journald_start(struct journald_run *j);
int journald_stop(struct journald_run *j);

struct auditd_run {
	pid_t pid;
	char dir[64];		/* auditd.conf, the plugin directory, audit.log */
	char log[96];		/* DIR/audit.log */
	int was_enabled;	/* the kernel's "enabled" before, -1 unknown */
};

/* 0 once auditd is the kernel's audit daemon and auditing is on;
 * -ENOENT when auditd is not installed; -errno otherwise. */
int auditd_start(struct auditd_run *a);
int auditd_stop(struct auditd_run *a);

/* The kernel's auditing: on (1), off (0), unknown (-1); switch it. */
int audit_kernel_enabled(void);
int audit_kernel_set_enabled(bool on);

/* Run ARGV (NULL-terminated; ARGV[0] a path or a name in $PATH) with
 * standard input /dev/null; *OUT gets standard output and error (malloc'd,
 * NUL-terminated). Returns its exit status, or -errno. */
int run_capture(const char *const *argv, char **out);
