/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run hid-policyd from a test: a policy directory written by the test, a
 * private audit log and bpffs state directory, readiness taken from the
 * daemon's own sd_notify READY=1.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>

struct policyd_run {
	pid_t pid;
	char dir[64];		/* temporary directory of this run */
	char config_dir[96];	/* DIR/policy.d */
	char audit_log[96];	/* DIR/audit.jsonl */
	char stderr_log[96];	/* DIR/stderr.log: the daemon's messages */
	char state_dir[96];	/* bpffs pin root */
	char runtime_dir[96];	/* DIR/run: decisions published for udev */
	char saved_dir[96];	/* DIR/saved: the policy in force, kept */
	/* Run the daemon and --check as a user's machine does by default:
	 * without --allow-unsafe-input-rules. Otherwise (false, what
	 * policyd_prepare() sets) the tests accept the risk, so that the
	 * input path is tested on upstream kernels too. */
	bool refuse_unsafe_input;
	/* Run this file instead of the build's hid-policyd (NULL: the
	 * build's); set after policyd_prepare(). */
	const char *daemon;
};

/* Create the directories and write one policy file NAME with TEXT. */
int policyd_prepare(struct policyd_run *run);
int policyd_write_policy(struct policyd_run *run, const char *name, const char *text);

/* Start the daemon in the foreground; returns once it sent READY=1
 * (0), or -errno when it exited or did not get ready in time. */
int policyd_start(struct policyd_run *run, const char *const *extra_args);
/* SIGTERM (or SIGKILL when kill9) and wait. Returns the exit status. */
int policyd_stop(struct policyd_run *run, bool kill9);
/* Send SIGHUP and wait until the daemon logged the reload's outcome. */
int policyd_reload(struct policyd_run *run);
/* Remove every pin under the state dir (hid-policyd --cleanup). */
int policyd_cleanup(struct policyd_run *run);

struct policyctl_output;
/* hid-policyd --check --config-dir RUN's policy directory, as an
 * administrator runs it before a reload: what it printed and its exit
 * status in OUT (policyctl_output_done() after). Returns 0 or -errno. */
int policyd_check(struct policyd_run *run, struct policyctl_output *out);

/* Audit records (one JSON object per line) matching every given
 * "key=value" filter, where key may be dotted ("device.hid_id"); "key="
 * with nothing after it matches records without that key. A decision's
 * record of repeats counts as the decisions it stands for ("count"). Waits
 * up to timeout_ms for at least `want` of them. Returns the count. */
size_t policyd_audit_count(struct policyd_run *run, const char *const *filters,
			   size_t want, int timeout_ms);
/* The sum of the integer at KEY (dotted) over the matching records. */
unsigned long long policyd_audit_sum(struct policyd_run *run, const char *const *filters,
				     const char *key);
/* The last matching record (new reference) or NULL. */
json_t *policyd_audit_last(struct policyd_run *run, const char *const *filters);

/* Does the daemon's stderr contain TEXT? Waits up to timeout_ms. */
bool policyd_said(struct policyd_run *run, const char *text, int timeout_ms);

/* Registered hid_bpf_ops instances attached to hid_id (the device's
 * program count), counted over every BPF map; -errno (printed) when the
 * kernel refuses the walk (EPERM without CAP_SYS_ADMIN). */
int firewall_instance_count(int hid_id);
/* How many of them have a hid_device_event program: the input path's
 * filters, which only a rule about input needs. */
int firewall_input_filter_count(int hid_id);
/* What an attacker with access to RUN's pins does (bpftool map delete
 * pinned .../devices/<hid_id> key 0 0 0 0): unregister the device's
 * firewall. 0 or -errno. */
int firewall_detach_through_pin(const struct policyd_run *run, int hid_id);

/* What a hid-policyctl run printed, and how it ended. */
struct policyctl_output {
	int status;		/* exit status, or -1 when it did not exit */
	char *out;		/* standard output (NUL-terminated) */
	char *err;		/* standard error */
	pid_t pid;		/* the process that ran it */
};

/*
 * Run hid-policyctl --socket RUN's control socket ARGS... (NULL-terminated)
 * as UID: the forked child takes UID's groups from /etc/group (its own
 * group alone when it has no account), then its gid and uid, as a login
 * would; (uid_t)-1: as the test. Standard input is the test's. Returns 0
 * with OUT filled, or -errno when it could not be run.
 */
int policyctl_run(struct policyd_run *run, uid_t uid, const char *const *args,
		  struct policyctl_output *out);

/*
 * The same on a new pseudo-terminal, its controlling terminal and standard
 * input, output and error: hid-policyctl starts its authentication agent
 * there. Each time "Password: " appears and the terminal stops echoing, the
 * next of ANSWERS (NULL-terminated, may be NULL) is typed, with a newline.
 *
 * OUT->out gets all the terminal showed (OUT->err stays empty). Once
 * hid-policyctl exited, whatever is left of its session is killed. Returns
 * 0, or -errno: -ETIMEDOUT when it did not end within TIMEOUT_MS, -EPROTO
 * when it asked once more than ANSWERS hold (its session is killed then,
 * and OUT holds what it showed until then). Needs devpts on /dev/pts.
 */
int policyctl_run_tty(struct policyd_run *run, uid_t uid, const char *const *args,
		      const char *const *answers, int timeout_ms,
		      struct policyctl_output *out);
void policyctl_output_done(struct policyctl_output *out);
