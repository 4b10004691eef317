/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A real polkit for tests in the VM: a dbus-daemon serving the guest's
 * system bus (/run/dbus/system_bus_socket) and polkitd, with hid-policy's
 * actions file, its shipped rules file and a rules file the test writes.
 *
 * The guest's root file system is the host's, read-only. The calling
 * process first moves into a mount namespace of its own, in which fresh
 * tmpfs mounts cover /run/dbus, /usr/share/polkit-1/actions,
 * /usr/share/polkit-1/rules.d and /etc/polkit-1/rules.d, and copies of
 * /etc/passwd, /etc/group and /etc/shadow with the test users below are
 * bind-mounted over the originals. Nothing outside that namespace changes; the daemons are
 * the caller's children, in its process group (the test harness kills that
 * group after each test).
 *
 * Call polkit_env_start() (or polkit_env_isolate()) before creating
 * threads: it unshares the mount namespace of the calling thread only.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/* Test users, in the passwd copy. Their primary groups have their names. */
#define POLKIT_ENV_USER "hp-user"		/* nothing special */
#define POLKIT_ENV_USER_UID 61001
#define POLKIT_ENV_ADMIN "hp-admin"		/* for the test's rules to grant */
#define POLKIT_ENV_ADMIN_UID 61002
/* hp-admin's password, for an authentication agent to type (pam_unix reads
 * it from the shadow copy); the other test users have none. */
#define POLKIT_ENV_ADMIN_PASSWORD "hp-admin's test password"
#define POLKIT_ENV_AUDITOR "hp-auditor"		/* member of group adm */
#define POLKIT_ENV_AUDITOR_UID 61003
#define POLKIT_ENV_BANNED "hp-banned"		/* for the test's rules to refuse */
#define POLKIT_ENV_BANNED_UID 61004

/*
 * Rules for hid-policy's actions that the polkit tests share (JavaScript,
 * for polkit_env_start()'s TEST_RULES): hp-banned may do nothing, hp-admin
 * may reload and allow; the rest is left to the shipped defaults and rules.
 */
#define POLKIT_ENV_TEST_RULES                                                  \
	"polkit.addRule(function(action, subject) {\n"                        \
	"    if (action.id.indexOf(\"org.hid-policy.\") != 0)\n"              \
	"        return polkit.Result.NOT_HANDLED;\n"                          \
	"    if (subject.user == \"" POLKIT_ENV_BANNED "\")\n"                \
	"        return polkit.Result.NO;\n"                                   \
	"    if (subject.user == \"" POLKIT_ENV_ADMIN "\" &&\n"               \
	"        (action.id == \"org.hid-policy.reload\" ||"                  \
	" action.id == \"org.hid-policy.allow\"))\n"                          \
	"        return polkit.Result.YES;\n"                                  \
	"    return polkit.Result.NOT_HANDLED;\n"                              \
	"});\n"

struct polkit_env {
	char dir[64];		/* temporary directory: configuration, logs */
	char polkitd_log[96];	/* DIR/polkitd.log: polkitd's own messages */
	char bus_log[96];	/* DIR/dbus-daemon.log */
	pid_t dbus_pid;
	pid_t polkitd_pid;
};

/*
 * Private namespace, test users and an empty /run/dbus: no system bus, so
 * no polkit. polkit_env_start() does this first. Returns 0 or -errno.
 */
int polkit_env_isolate(struct polkit_env *env);

/*
 * Isolate, install the actions and rules files (TEST_RULES, JavaScript for
 * /etc/polkit-1/rules.d/50-test.rules, may be NULL), start the bus and
 * polkitd, and return once polkitd owns org.freedesktop.PolicyKit1 (0), or
 * -errno when something failed or did not get ready in time (the reason is
 * printed).
 */
int polkit_env_start(struct polkit_env *env, const char *test_rules);
/* The same after polkit_env_isolate(): polkit appearing later. */
int polkit_env_start_services(struct polkit_env *env, const char *test_rules);

/* Stop polkitd only (SIGTERM, wait), keeping the bus; start it again and
 * wait for its name. Both return 0 or -errno. */
int polkit_env_stop_polkitd(struct polkit_env *env);
int polkit_env_start_polkitd(struct polkit_env *env);
/* Stop both daemons. */
void polkit_env_stop(struct polkit_env *env);
/* Stop both and start them again (a new bus: every connection is lost). */
int polkit_env_restart(struct polkit_env *env);

/*
 * A real process running as UID (group UID too, no supplementary groups:
 * polkit takes groups from /etc/group), to be the subject of a check. It
 * has switched to UID when this returns, and lives until
 * polkit_env_subject_end(). Returns 0 or -errno.
 */
struct polkit_env_subject {
	pid_t pid;
	uid_t uid;
	int keep_fd;	/* closing it ends the subject */
};
int polkit_env_subject_start(struct polkit_env_subject *s, uid_t uid);
void polkit_env_subject_end(struct polkit_env_subject *s);
