/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run the real systemd-udevd from a test, with only the rules the test
 * names: the repository's 60-hid-policy.rules (its @SBINDIR@ pointing at
 * the build) and a rule text of the test's. The calling process moves to a
 * private mount namespace with a fresh /run and empty system rule
 * directories, so nothing of this outlives it and the host's installed
 * rules play no part.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/* Where the test's rule goes: sorts after 60-hid-policy.rules, as Steam's
 * 60-steam-input.rules does. */
#define UDEVD_TEST_RULE_FILE "/run/udev/rules.d/60-steam-input.rules"

/* A rule that opens every hidraw and hiddev node to everybody, standing in
 * for the rules that open controllers to users (Steam's
 * 60-steam-input.rules, uaccess): no ACTION, as theirs, so that "udevadm
 * trigger" (change) applies it again. */
#define UDEVD_OPEN_TO_USERS_RULE \
	"# test stand-in for 60-steam-input.rules and uaccess: no ACTION, as\n" \
	"# theirs, so that \"udevadm trigger\" (change) applies it again\n" \
	"KERNEL==\"hidraw*|hiddev*\", MODE=\"0666\", TAG+=\"uaccess\"\n"

struct udevd_run {
	pid_t pid;
	char log[64];		/* udevd's stderr */
};

/* Returns 0 once udevd hears the kernel's uevents (it answered a ping:
 * udevadm control --ping), -ENOENT when systemd-udevd is not
 * installed, or -errno (udevd's messages are then on stdout). */
int udevd_start(struct udevd_run *u, bool with_policy_rule, const char *test_rule);
/* The same with the policy rules' @SBINDIR@ replaced by SBINDIR (NULL: no
 * policy rules), where a test puts a helper of its own or none. */
int udevd_start_at(struct udevd_run *u, const char *sbindir, const char *test_rule);
/* SIGTERM and wait. */
int udevd_stop(struct udevd_run *u);
/* Wait until udevd has no event queued or running. The waits below are
 * TIMEOUT_MS times test_slow_factor(): things that must happen. */
int udevd_wait_idle(int timeout_ms);
/* Wait until udevd has run the rules of NODE's add event (its database
 * entry exists), then until it is idle. udevd_wait_idle() alone returns at
 * once while udevd has not yet read an event from the kernel, and a node
 * then still has the kernel's 0600. The entry exists once the rules gave
 * the device a property or tag, as 60-hid-policy.rules and the tests'
 * stand-in rules do. */
int udevd_wait_node(const char *node, int timeout_ms);
