// SPDX-License-Identifier: GPL-2.0-or-later
/* hid-policyd: the firewall service, and the policy commands --check and --explain. */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/audit_journal.h"
#include "common/ctl_protocol.h"
#include "common/util.h"
#include "daemon.h"
#include "enforce/decisions.h"
#include "enforce/loader.h"
#include "enforce/kernel_support.h"
#include "hid/devices.h"
#include "options.h"
#include "policy/policy.h"
#include "saved_policy.h"
#include "wait_decided.h"

static const char *const default_dirs[] = { POLICY_VENDOR_DIR, POLICY_ADMIN_DIR };

/* --check and --explain are dry runs, which may be about another machine
 * (an admin's, writing the policy for the ones it is deployed to): what a
 * sender names that is not here is assumed to be there, and said so. */
static int load(const struct options *opts, struct diag *diag, struct policy **ret)
{
	if (opts->n_config_dirs)
		return policy_load_dirs_dry_run(opts->config_dirs, opts->n_config_dirs, true, diag,
						ret);
	return policy_load_dirs_dry_run(default_dirs, ELEMENTSOF(default_dirs), false, diag, ret);
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* Does a rule name a sender by more than its origin (which every kernel
 * tells)? */
static bool names_senders(const struct policy *p)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (p->rules[i].sender.fields & ~HID_SENDER_F_ORIGIN)
			return true;
	return false;
}

/* What this kernel's firewall cannot enforce of P: the senders (only root
 * can load the probes that tell), and input rules (vmlinux BTF tells). */
static int check_kernel(const struct options *opts, const struct policy *p, struct diag *diag)
{
	bool senders = geteuid() == 0 && names_senders(p), input = fw_policy_needs_input(p);
	struct fw_features f = {};
	int r = 0;

	if (!senders && !input)
		return 0;
	fw_probe_features(&f);
	if (!f.hid_bpf) {
		/* a build host's check: say what it could not */
		if (input)
			fw_note_input_unchecked(p, diag);
		return 0;
	}
	if (senders && fw_check_senders(&f, p, diag) < 0)
		r = -EOPNOTSUPP;
	if (input && fw_check_input(&f, opts->allow_unsafe_input, p, diag) < 0)
		r = -EOPNOTSUPP;
	return r;
}

static int run_check(const struct options *opts)
{
	_cleanup_(diag_done) struct diag diag = {};
	_cleanup_policy_ struct policy *p = NULL;
	int r;

	r = load(opts, &diag, &p);
	if (r == 0)
		r = check_kernel(opts, p, &diag);
	diag_print(&diag, stdout);
	if (r == 0 && opts->strict && diag.n_warnings) {
		printf("policy rejected (--strict): 0 errors, %zu warning%s\n", diag.n_warnings,
		       plural(diag.n_warnings));
		return -EINVAL;
	}
	if (r < 0) {
		printf("policy rejected: %zu error%s, %zu warning%s\n", diag.n_errors,
		       plural(diag.n_errors), diag.n_warnings, plural(diag.n_warnings));
		return r;
	}
	printf("policy OK: %zu file%s, %zu rule set%s, %zu rule%s, %zu warning%s\n",
	       p->n_files, plural(p->n_files), p->n_sets, plural(p->n_sets),
	       p->n_rules, plural(p->n_rules), diag.n_warnings, plural(diag.n_warnings));
	return 0;
}

/*
 * A number on the command line: decimal, or hexadecimal after "0x", as in
 * the policy files; never octal ("010" is refused, not taken for 8).
 */
static int parse_cli_number(const char *s, unsigned long max, unsigned long *ret)
{
	unsigned long n;
	char *end;

	if (!isdigit((unsigned char)s[0]) || (s[0] == '0' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (*end || errno || n > max)
		return -EINVAL;
	*ret = n;
	return 0;
}

static int parse_request(const struct options *opts, uint8_t *buf, size_t size,
			 struct policy_request *req)
{
	unsigned long id;
	int n;

	if (policy_kind_from_names(opts->request, opts->report, &req->kind) < 0) {
		fprintf(stderr, "hid-policyd: --request %s%s%s: expected get_report or set_report with --report feature|input|output, or output_report or input_event alone\n",
			opts->request, opts->report ? " --report " : "", opts->report ?: "");
		return -EINVAL;
	}
	if (parse_cli_number(opts->id, 255, &id) < 0) {
		fprintf(stderr, "hid-policyd: --id \"%s\": expected a report ID 0..255 (decimal or 0x..)\n", opts->id);
		return -EINVAL;
	}
	req->report_id = (uint8_t)id;
	if (!opts->payload) {
		buf[0] = (uint8_t)id;
		req->data = buf;
		req->len = 1;
		return 0;
	}
	n = policy_hex_bytes(opts->payload, buf, size);
	if (n < 0) {
		fprintf(stderr, "hid-policyd: --payload: expected at most %zu hex bytes such as \"f4 00 01\"\n",
			size);
		return -EINVAL;
	}
	req->data = buf;
	req->len = (size_t)n;
	return 0;
}

/*
 * What --usage, --uniq, --phys, --interface and --descriptor-sha256 tell of
 * the device. Usages are the device's own, so each names one usage: a class
 * such as "game_pad" or "0xPPPP:0xUUUU". Its report descriptor counts as
 * known: whatever was not given, it does not have.
 */
static int describe_device(const struct options *opts, struct policy_device *dev,
			   uint32_t usages[POLICY_USAGE_LIST_MAX], uint8_t hash[POLICY_SHA256_BYTES])
{
	dev->uniq = opts->uniq;
	dev->phys = opts->phys;
	dev->descriptor_known = true;
	if (opts->n_usages > POLICY_USAGE_LIST_MAX) {
		fprintf(stderr, "hid-policyd: at most %d --usage\n", POLICY_USAGE_LIST_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < opts->n_usages; i++) {
		struct policy_usage u;

		if (policy_usage_parse(opts->usages[i], &u, 1) != 1 || u.mask != 0xffffffffu) {
			fprintf(stderr, "hid-policyd: --usage \"%s\": expected one usage: pointer, mouse, joystick, game_pad, keyboard, keypad, multi_axis_controller, system_control, consumer_control, or 0xPPPP:0xUUUU\n",
				opts->usages[i]);
			return -EINVAL;
		}
		usages[i] = u.value;
	}
	dev->usages = usages;
	dev->n_usages = opts->n_usages;
	if (opts->interface) {
		unsigned long n;

		if (parse_cli_number(opts->interface, 255, &n) < 0) {
			fprintf(stderr, "hid-policyd: --interface \"%s\": expected a USB interface number, 0..255\n",
				opts->interface);
			return -EINVAL;
		}
		dev->has_interface = true;
		dev->interface = (uint8_t)n;
	}
	if (opts->descriptor_sha256) {
		if (policy_sha256_parse(opts->descriptor_sha256, hash) < 0) {
			fprintf(stderr, "hid-policyd: --descriptor-sha256: expected 64 hex digits\n");
			return -EINVAL;
		}
		dev->descriptor_sha256 = hash;
	}
	return 0;
}

/*
 * --descriptor: a report descriptor file (a copy of a device's sysfs
 * report_descriptor), read as the daemon reads the device's, into INFO:
 * its application collections, hash and reports stand for --usage and
 * --descriptor-sha256.
 */
static int describe_from_descriptor(const struct options *opts, struct policy_device *dev,
				    struct hid_dev_info *info)
{
	_cleanup_fclose_ FILE *f = NULL;
	uint8_t desc[HID_DESCRIPTOR_SIZE_MAX + 1];
	size_t len;

	if (opts->n_usages || opts->descriptor_sha256) {
		fprintf(stderr, "hid-policyd: --descriptor gives the device's usages and hash: not with --usage or --descriptor-sha256\n");
		return -EINVAL;
	}
	f = fopen(opts->descriptor, "re");
	if (!f) {
		int r = -errno;

		fprintf(stderr, "hid-policyd: --descriptor %s: %s\n", opts->descriptor, strerror(-r));
		return r;
	}
	len = fread(desc, 1, sizeof(desc), f);
	if (ferror(f) || len > HID_DESCRIPTOR_SIZE_MAX) {
		fprintf(stderr, "hid-policyd: --descriptor %s: %s\n", opts->descriptor,
			ferror(f) ? "cannot be read" : "longer than a report descriptor (4096 bytes)");
		return -EINVAL;
	}
	hid_dev_set_descriptor(info, desc, len);
	if (info->descriptor_malformed)
		fprintf(stderr, "hid-policyd: --descriptor %s: malformed: read up to the fault\n",
			opts->descriptor);
	dev->usages = info->usages;
	dev->n_usages = info->n_usages;
	dev->descriptor_sha256 = len ? info->descriptor_sha256 : NULL;
	dev->reports = info->reports;
	dev->n_reports = info->n_reports;
	dev->reports_incomplete = info->reports_incomplete;
	/* as the daemon: a request to a report it does not declare is
	 * refused before any rule */
	dev->declared = info->declared;
	return 0;
}

/* A uid or gid: a number (decimal or 0x..) or a name; a name this machine
 * has not is assumed, as the dry run's policy assumes it (P), and said. */
static int cli_id(struct policy *p, const char *opt, const char *s, bool group, uint32_t *ret)
{
	unsigned long n;

	if (parse_cli_number(s, UINT32_MAX - 1, &n) == 0) {
		*ret = (uint32_t)n;
		return 0;
	}
	if (group) {
		struct group *gr = getgrnam(s);

		if (gr) {
			*ret = (uint32_t)gr->gr_gid;
			return 0;
		}
	} else {
		struct passwd *pw = getpwnam(s);

		if (pw) {
			*ret = (uint32_t)pw->pw_uid;
			return 0;
		}
	}
	if (policy_assume_id(p, s, group, ret) < 0) {
		fprintf(stderr, "hid-policyd: %s \"%s\": no such %s\n", opt, s, group ? "group" : "user");
		return -EINVAL;
	}
	printf("note: assuming %s \"%s\" exists where the policy is used (there is none on this system)\n",
	       group ? "group" : "user", s);
	return 0;
}

#define EXPLAIN_CGROUP_LEVELS 16	/* a unit's depth, and more */

/* --user, --group, --executable, --origin and --unit: who sends the
 * request, as far as they say. GIDS has room for every --group, CGROUPS
 * for EXPLAIN_CGROUP_LEVELS. */
static int explain_subject(const struct options *opts, struct policy *p, struct policy_subject *who,
			   uint32_t *gids, uint64_t *cgroups)
{
	int r;

	*who = (struct policy_subject){ .dry_run = true };
	if (opts->origin) {
		if (strcmp(opts->origin, "kernel") && strcmp(opts->origin, "user")) {
			fprintf(stderr, "hid-policyd: --origin \"%s\": expected kernel (a driver's own request) or user (a process's)\n",
				opts->origin);
			return -EINVAL;
		}
		who->given |= POLICY_SUBJECT_ORIGIN;
		who->from_kernel = !strcmp(opts->origin, "kernel");
		if (who->from_kernel && (opts->user || opts->n_groups || opts->executable || opts->unit)) {
			fprintf(stderr, "hid-policyd: --origin kernel is a driver's own request, which has no user, group, executable or unit\n");
			return -EINVAL;
		}
	}
	if (opts->user) {
		if (cli_id(p, "--user", opts->user, false, &who->uid) < 0)
			return -EINVAL;
		who->given |= POLICY_SUBJECT_USER;
	}
	for (size_t i = 0; i < opts->n_groups; i++)
		if (cli_id(p, "--group", opts->groups[i], true, &gids[i]) < 0)
			return -EINVAL;
	if (opts->n_groups) {
		who->given |= POLICY_SUBJECT_GROUPS;
		who->gid = gids[0];
		who->groups = gids + 1;
		who->n_groups = opts->n_groups - 1;
	}
	if (opts->executable) {
		if (opts->executable[0] != '/') {
			fprintf(stderr, "hid-policyd: --executable \"%s\": expected an absolute path\n",
				opts->executable);
			return -EINVAL;
		}
		r = policy_exe_identity(opts->executable, &who->exe);
		if (r == -ENOENT || r == -ENOTDIR) {
			/* not installed here: the explanation says what it assumed */
			policy_assumed_exe(opts->executable, &who->exe);
			r = 0;
		}
		if (r < 0) {
			fprintf(stderr, "hid-policyd: --executable %s: %s\n", opts->executable,
				r == -ENOEXEC ? "not a regular file" : strerror(-r));
			return -EINVAL;
		}
		who->executable = opts->executable;
		who->given |= POLICY_SUBJECT_EXECUTABLE;
	}
	if (opts->unit) {
		const char *why;

		if (policy_unit_cgroups_assumed(opts->unit, cgroups, EXPLAIN_CGROUP_LEVELS,
						&who->n_cgroups, &who->unit_running, &why) < 0) {
			fprintf(stderr, "hid-policyd: --unit \"%s\": %s\n", opts->unit, why);
			return -EINVAL;
		}
		who->unit = opts->unit;
		who->cgroups = cgroups;
		who->given |= POLICY_SUBJECT_UNIT;
	}
	return 0;
}

static int run_explain(const struct options *opts)
{
	_cleanup_(diag_done) struct diag diag = {};
	_cleanup_policy_ struct policy *p = NULL;
	_cleanup_free_ char *name = NULL;
	_cleanup_free_ struct hid_dev_info *info = NULL;
	struct policy_device dev;
	struct policy_request req = {};
	struct policy_verdict v;
	uint32_t usages[POLICY_USAGE_LIST_MAX];
	uint8_t hash[POLICY_SHA256_BYTES];
	uint8_t buf[4096];
	_cleanup_free_ uint32_t *gids = calloc(opts->n_groups + 1, sizeof(*gids));
	struct policy_subject who;
	uint64_t cgroups[EXPLAIN_CGROUP_LEVELS];
	struct hidpp_features hidpp = {};
	int r;

	if (!gids)
		return -ENOMEM;
	r = policy_device_parse(opts->device, &dev, &name);
	if (r < 0) {
		fprintf(stderr, "hid-policyd: --device \"%s\": expected BUS:VID:PID[:NAME], e.g. usb:054c:0ce6\n",
			opts->device);
		return r;
	}
	r = describe_device(opts, &dev, usages, hash);
	if (r < 0)
		return r;
	if (opts->descriptor) {
		info = calloc(1, sizeof(*info));
		if (!info)
			return -ENOMEM;
		r = describe_from_descriptor(opts, &dev, info);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < opts->n_hidpp_features; i++) {
		r = policy_hidpp_feature_parse(opts->hidpp_features[i], &hidpp);
		if (r < 0) {
			fprintf(stderr, r == -E2BIG ?
				"hid-policyd: --hidpp-feature \"%s\": more than %d answers\n" :
				"hid-policyd: --hidpp-feature \"%s\": expected DEVICE_INDEX:FEATURE=INDEX in hex, the device index ff or 1-6, e.g. 2:00d0=0e\n",
				opts->hidpp_features[i], HIDPP_FEATURES_MAX);
			return -EINVAL;
		}
		dev.hidpp = &hidpp;
	}
	r = parse_request(opts, buf, sizeof(buf), &req);
	if (r < 0)
		return r;
	r = load(opts, &diag, &p);
	if (r < 0) {
		diag_print(&diag, stderr);
		fprintf(stderr, "hid-policyd: the policy is rejected: nothing to explain\n");
		return r;
	}
	diag_print_only(&diag, DIAG_NOTE, stdout);	/* what it assumed */
	/* after the policy: a name the rules assumed is the same one here */
	r = explain_subject(opts, p, &who, gids, cgroups);
	if (r < 0)
		return r;
	r = policy_explain(p, &dev, &req, &who, stdout, &v);
	return r < 0 ? r : 0;
}

static int run_daemon(const struct options *opts)
{
	struct daemon_config cfg = {
		.config_dirs = opts->n_config_dirs ? opts->config_dirs : default_dirs,
		.n_config_dirs = opts->n_config_dirs ? opts->n_config_dirs : ELEMENTSOF(default_dirs),
		.require_dirs = opts->n_config_dirs > 0,
		.audit_log = opts->audit_log ?: AUDIT_LOG_DEFAULT,
		.audit_log_max_size = opts->audit_log_max_size ?: AUDIT_LOG_MAX_SIZE_DEFAULT,
		.record_burst = opts->record_budget_given ? opts->record_burst : HID_FW_BUDGET_BURST,
		.record_rate = opts->record_budget_given ? opts->record_rate : HID_FW_BUDGET_RATE,
		.state_dir = opts->state_dir ?: HID_FW_PIN_ROOT,
		.sysfs_devices = HID_SYSFS_DEVICES,
		.runtime_dir = opts->runtime_dir ?: RUNTIME_DIR_DEFAULT,
		.saved_policy_dir = opts->saved_policy_dir ?: SAVED_POLICY_DIR_DEFAULT,
		.foreground = opts->foreground,
		.sandbox = !opts->no_sandbox,
		.journal = opts->journal >= 0 ? opts->journal : audit_journal_default(),
		.linux_audit = opts->linux_audit > 0,
		.allow_unsafe_input = opts->allow_unsafe_input,
		.version = HID_POLICY_VERSION,
	};

	return daemon_run(&cfg);
}

static int run_cleanup(const struct options *opts)
{
	const char *dir = opts->state_dir ?: HID_FW_PIN_ROOT;
	int r = fw_cleanup(dir);

	if (r < 0)
		fprintf(stderr, "hid-policyd: cleaning up %s: %s\n", dir, strerror(-r));
	return r;
}

static int run_wait_decided(const struct options *opts)
{
	return wait_decided(opts->runtime_dir ?: RUNTIME_DIR_DEFAULT, opts->devpath,
			    opts->timeout_s, opts->on_timeout);
}

static int run_announce_queued(const struct options *opts)
{
	const char *dir = opts->runtime_dir ?: RUNTIME_DIR_DEFAULT;
	int r = decisions_announce_queued(dir, stderr);

	if (r < 0)
		fprintf(stderr, "hid-policyd: cannot read the queue in %s/%s: %s\n", dir,
			DECISIONS_ANNOUNCE_DIR, strerror(-r));
	return r;
}

int main(int argc, char **argv)
{
	struct options opts;
	int r;

	r = options_parse(argc, argv, &opts);
	if (r < 0) {
		options_usage(stderr);
		options_done(&opts);
		return 2;
	}
	switch (opts.command) {
	case COMMAND_HELP:
		options_usage(stdout);
		break;
	case COMMAND_VERSION:
		printf("hid-policyd %s\n", HID_POLICY_VERSION);
		break;
	case COMMAND_CHECK:
		r = run_check(&opts);
		break;
	case COMMAND_EXPLAIN:
		r = run_explain(&opts);
		break;
	case COMMAND_DAEMON:
		r = run_daemon(&opts);
		break;
	case COMMAND_CLEANUP:
		r = run_cleanup(&opts);
		break;
	case COMMAND_WAIT_DECIDED:
		r = run_wait_decided(&opts);
		break;
	case COMMAND_ANNOUNCE_QUEUED:
		r = run_announce_queued(&opts);
		break;
	case COMMAND_NONE:
		break;
	}
	options_done(&opts);
	return r < 0 ? 1 : 0;
}
