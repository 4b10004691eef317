// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "common/ctl_protocol.h"
#include "common/util.h"
#include "hid_firewall.h"
#include "options.h"
#include "policy/policy.h"
#include "saved_policy.h"

enum {
	OPT_CHECK = 0x100,
	OPT_EXPLAIN,
	OPT_CONFIG_DIR,
	OPT_DEVICE,
	OPT_REQUEST,
	OPT_REPORT,
	OPT_ID,
	OPT_PAYLOAD,
	OPT_VERSION,
	OPT_FOREGROUND,
	OPT_AUDIT_LOG,
	OPT_STATE_DIR,
	OPT_CLEANUP,
	OPT_NO_SANDBOX,
	OPT_RUNTIME_DIR,
	OPT_WAIT_DECIDED,
	OPT_ANNOUNCE_QUEUED,
	OPT_TIMEOUT,
	OPT_ON_TIMEOUT,
	OPT_STRICT,
	OPT_USAGE,
	OPT_UNIQ,
	OPT_PHYS,
	OPT_INTERFACE,
	OPT_DESCRIPTOR_SHA256,
	OPT_DESCRIPTOR,
	OPT_HIDPP_FEATURE,
	OPT_JOURNAL,
	OPT_NO_JOURNAL,
	OPT_LINUX_AUDIT,
	OPT_NO_LINUX_AUDIT,
	OPT_USER,
	OPT_GROUP,
	OPT_EXECUTABLE,
	OPT_ORIGIN,
	OPT_UNIT,
	OPT_ALLOW_UNSAFE_INPUT_RULES,
	OPT_SAVED_POLICY_DIR,
	OPT_AUDIT_LOG_MAX_SIZE,
	OPT_RECORD_BUDGET,
};

void options_usage(FILE *f)
{
	fprintf(f,
		"Usage: hid-policyd [--foreground] [--config-dir DIR]... [--audit-log FILE]\n"
		"                   [--audit-log-max-size SIZE] [--record-budget BURST/RATE]\n"
		"                   [--[no-]journal] [--[no-]linux-audit] [--state-dir DIR]\n"
		"                   [--allow-unsafe-input-rules] [--saved-policy-dir DIR]\n"
		"       hid-policyd --cleanup [--state-dir DIR]\n"
		"       hid-policyd --wait-decided DEVPATH [--timeout SECONDS] [--on-timeout WHAT]\n"
		"                   [--runtime-dir DIR]\n"
		"       hid-policyd --announce-queued [--runtime-dir DIR]\n"
		"       hid-policyd --check [--strict] [--allow-unsafe-input-rules]\n"
		"                   [--config-dir DIR]...\n"
		"       hid-policyd --explain --device BUS:VID:PID[:NAME] [--usage USAGE]...\n"
		"                   [--uniq UNIQ] [--phys PHYS] [--interface N]\n"
		"                   [--descriptor-sha256 HASH | --descriptor FILE] --request REQUEST\n"
		"                   [--report TYPE] --id ID [--payload HEX] [--config-dir DIR]...\n"
		"                   [--user USER] [--group GROUP]... [--executable PATH]\n"
		"                   [--origin kernel|user] [--unit UNIT]\n"
		"                   [--hidpp-feature DEVICE_INDEX:FEATURE=INDEX]...\n"
		"       hid-policyd --explain BUS:VID:PID[:NAME] [REQUEST] [OPTIONS]\n"
		"                   (the device and request as hid-policyctl explain takes them)\n"
		"\n"
		"  (no command)        run the firewall service\n"
		"  --foreground        log to stderr instead of syslog\n"
		"  --audit-log FILE    audit records, one JSON object per line\n"
		"                      (default " AUDIT_LOG_DEFAULT ")\n"
		"  --audit-log-max-size SIZE  the audit log's bound, in bytes (K, M, G:\n"
		"                      KiB, MiB, GiB; at least 64K; default 256M): past it,\n"
		"                      decisions are counted rather than written (hid-policyd(8))\n"
		"  --record-budget BURST/RATE  audit records each device may send: BURST at\n"
		"                      once, then RATE a second; past it they are counted\n"
		"                      (default 1000/100; 0: no budget)\n"
		"  --journal           every audit record to the systemd journal too (default\n"
		"                      when started by systemd); --no-journal: not\n"
		"  --linux-audit       denials and temporary allows to the kernel's audit\n"
		"                      subsystem too (ausearch -m USER_DEVICE); keeps\n"
		"                      CAP_AUDIT_WRITE; --no-linux-audit: not (default)\n"
		"  --state-dir DIR     bpffs directory of pinned state (default " HID_FW_PIN_ROOT ")\n"
		"  --runtime-dir DIR   where decisions are published for udev\n"
		"                      (default " RUNTIME_DIR_DEFAULT ")\n"
		"  --no-sandbox        keep every privilege and allow every syscall (debugging)\n"
		"  --saved-policy-dir DIR  where the policy in force is kept, for a start whose\n"
		"                      policy is broken (default " SAVED_POLICY_DIR_DEFAULT ")\n"
		"  --allow-unsafe-input-rules  accept rules on input reports on a kernel whose\n"
		"                      HID-BPF input path a device can make write past its\n"
		"                      buffer (upstream 6.3 and later; see hid-policyd(8))\n"
		"  --wait-decided P    wait until the daemon decided on the HID device of sysfs\n"
		"                      path P (udev's %%p); exit 0 when it did, 1 otherwise;\n"
		"                      for a USB device, say at once whether a rule set may\n"
		"                      match it (its usbfs node stays root's)\n"
		"  --timeout SECONDS   how long --wait-decided waits (default 5)\n"
		"  --on-timeout WHAT   then: closed-if-matched (the default: keep the node\n"
		"                      closed when a rule set matches the device), closed, open\n"
		"  --announce-queued   announce again the nodes the daemon queued in the\n"
		"                      runtime directory's announce/ (hid-policy-announce.service)\n"
		"  --cleanup           detach every firewall and remove the state directory\n"
		"  --check             validate the policy and print a summary\n"
		"  --strict            with --check: warnings fail it too\n"
		"  --explain           tell which rule decides a request, and why (dry run)\n"
		"  --config-dir DIR    read policies from DIR (repeatable; replaces the defaults\n"
		"                      " POLICY_VENDOR_DIR " and " POLICY_ADMIN_DIR ",\n"
		"                      this build's: the man pages write /usr/share, --prefix=/usr)\n"
		"  --device D          BUS:VID:PID[:NAME], e.g. usb:054c:0ce6:DualSense\n"
		"  --usage USAGE       an application collection of the device: game_pad,\n"
		"                      keyboard, ... or 0xPPPP:0xUUUU (repeatable)\n"
		"  --uniq UNIQ         its serial (HID_UNIQ)\n"
		"  --phys PHYS         its physical path (HID_PHYS)\n"
		"  --interface N       its USB interface number\n"
		"  --descriptor-sha256 HASH  the SHA-256 of its report descriptor\n"
		"  --descriptor FILE   its report descriptor (as sysfs' report_descriptor):\n"
		"                      its usages, hash and reports, all at once\n"
		"  --hidpp-feature DEVICE_INDEX:FEATURE=INDEX  what the device told the\n"
		"                      daemon's HID++ 2.0 getFeature, hex (e.g. 2:00d0=0e;\n"
		"                      INDEX 0: it has no such feature; repeatable); a device\n"
		"                      index not given is one that has not told its features\n"
		"  --request REQUEST   get_report, set_report, output_report or input_event\n"
		"  --report TYPE       feature, input or output (get_report and set_report)\n"
		"  --id ID             report ID, 0..255 (decimal or 0x..)\n"
		"  --payload HEX       the buffer from byte 0 (the report ID byte included)\n"
		"  --user USER         who sends it: a user name or uid (the real uid)\n"
		"  --group GROUP       a group name or gid (repeatable: the first is the gid,\n"
		"                      every one counts, as supplementary groups do)\n"
		"  --executable PATH   the program that sends it, matched by file identity\n"
		"  --origin ORIGIN     kernel (a driver's own request, none of the above) or user\n"
		"  --unit UNIT         the systemd unit it runs in (its cgroup as it is now)\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n");
}

/* "65536", "64K", "256M", "1G" (binary units), into *OUT. */
static int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end == 'K')
		shift = 10;
	else if (*end == 'M')
		shift = 20;
	else if (*end == 'G')
		shift = 30;
	else if (*end)
		return -EINVAL;
	if (shift && end[1])
		return -EINVAL;
	if (v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

/* "BURST/RATE", or "0" for no budget. */
static int parse_budget(const char *s, struct options *opts)
{
	unsigned long burst, rate;
	char *end;

	errno = 0;
	if (!strcmp(s, "0")) {
		opts->record_burst = opts->record_rate = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	burst = strtoul(s, &end, 10);
	if (errno || *end != '/' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	rate = strtoul(end + 1, &end, 10);
	if (errno || *end || burst < 1 || burst > 1000000 || rate < 1 || rate > 1000000)
		return -EINVAL;
	opts->record_burst = (uint32_t)burst;
	opts->record_rate = (uint32_t)rate;
	return 0;
}

static int set_command(struct options *opts, enum policyd_command c)
{
	if (opts->command != COMMAND_NONE && opts->command != c) {
		fprintf(stderr, "hid-policyd: --check, --explain, --cleanup, --wait-decided and --announce-queued exclude each other\n");
		return -EINVAL;
	}
	opts->command = c;
	return 0;
}

/* --explain's operands: the device (unless --device gave it), then the
 * request (unless --request did); each given twice is an error. */
static int explain_operands(int argc, char **argv, struct options *opts)
{
	if (optind < argc && opts->device && argc - optind == 2) {
		fprintf(stderr, "hid-policyd: the device is given twice: %s and --device %s (give one)\n",
			argv[optind], opts->device);
		return -EINVAL;
	}
	if (optind < argc && !opts->device)
		opts->device = argv[optind++];
	if (optind < argc && opts->request) {
		fprintf(stderr, "hid-policyd: the request is given twice: %s and --request %s (give one)\n",
			argv[optind], opts->request);
		return -EINVAL;
	}
	if (optind < argc)
		opts->request = argv[optind++];
	return 0;
}

int options_parse(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "config-dir", required_argument, NULL, OPT_CONFIG_DIR },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "request", required_argument, NULL, OPT_REQUEST },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "id", required_argument, NULL, OPT_ID },
		{ "payload", required_argument, NULL, OPT_PAYLOAD },
		{ "foreground", no_argument, NULL, OPT_FOREGROUND },
		{ "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
		{ "audit-log-max-size", required_argument, NULL, OPT_AUDIT_LOG_MAX_SIZE },
		{ "record-budget", required_argument, NULL, OPT_RECORD_BUDGET },
		{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
		{ "cleanup", no_argument, NULL, OPT_CLEANUP },
		{ "no-sandbox", no_argument, NULL, OPT_NO_SANDBOX },
		{ "allow-unsafe-input-rules", no_argument, NULL, OPT_ALLOW_UNSAFE_INPUT_RULES },
		{ "saved-policy-dir", required_argument, NULL, OPT_SAVED_POLICY_DIR },
		{ "runtime-dir", required_argument, NULL, OPT_RUNTIME_DIR },
		{ "wait-decided", required_argument, NULL, OPT_WAIT_DECIDED },
		{ "announce-queued", no_argument, NULL, OPT_ANNOUNCE_QUEUED },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "on-timeout", required_argument, NULL, OPT_ON_TIMEOUT },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "usage", required_argument, NULL, OPT_USAGE },
		{ "uniq", required_argument, NULL, OPT_UNIQ },
		{ "phys", required_argument, NULL, OPT_PHYS },
		{ "interface", required_argument, NULL, OPT_INTERFACE },
		{ "descriptor-sha256", required_argument, NULL, OPT_DESCRIPTOR_SHA256 },
		{ "descriptor", required_argument, NULL, OPT_DESCRIPTOR },
		{ "hidpp-feature", required_argument, NULL, OPT_HIDPP_FEATURE },
		{ "journal", no_argument, NULL, OPT_JOURNAL },
		{ "no-journal", no_argument, NULL, OPT_NO_JOURNAL },
		{ "linux-audit", no_argument, NULL, OPT_LINUX_AUDIT },
		{ "no-linux-audit", no_argument, NULL, OPT_NO_LINUX_AUDIT },
		{ "user", required_argument, NULL, OPT_USER },
		{ "group", required_argument, NULL, OPT_GROUP },
		{ "executable", required_argument, NULL, OPT_EXECUTABLE },
		{ "origin", required_argument, NULL, OPT_ORIGIN },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{}
	};
	int c;

	*opts = (struct options){ .journal = -1, .linux_audit = -1 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) >= 0) {
		switch (c) {
		case 'h':
			opts->command = COMMAND_HELP;
			return 0;
		case OPT_VERSION:
			opts->command = COMMAND_VERSION;
			return 0;
		case OPT_CHECK:
			if (set_command(opts, COMMAND_CHECK) < 0)
				return -EINVAL;
			break;
		case OPT_EXPLAIN:
			if (set_command(opts, COMMAND_EXPLAIN) < 0)
				return -EINVAL;
			break;
		case OPT_CONFIG_DIR:
			if (GROW(opts->config_dirs, opts->n_config_dirs, opts->cap_config_dirs) < 0)
				return -ENOMEM;
			opts->config_dirs[opts->n_config_dirs++] = optarg;
			break;
		case OPT_DEVICE:
			opts->device = optarg;
			break;
		case OPT_REQUEST:
			opts->request = optarg;
			break;
		case OPT_REPORT:
			opts->report = optarg;
			break;
		case OPT_ID:
			opts->id = optarg;
			break;
		case OPT_PAYLOAD:
			opts->payload = optarg;
			break;
		case OPT_FOREGROUND:
			opts->foreground = true;
			break;
		case OPT_AUDIT_LOG:
			opts->audit_log = optarg;
			break;
		case OPT_AUDIT_LOG_MAX_SIZE:
			if (parse_size(optarg, &opts->audit_log_max_size) < 0 ||
			    opts->audit_log_max_size < AUDIT_LOG_MAX_SIZE_MIN) {
				fprintf(stderr, "hid-policyd: --audit-log-max-size \"%s\": expected bytes, at least 64K (K, M and G: KiB, MiB, GiB)\n", optarg);
				return -EINVAL;
			}
			break;
		case OPT_RECORD_BUDGET:
			if (parse_budget(optarg, opts) < 0) {
				fprintf(stderr, "hid-policyd: --record-budget \"%s\": expected BURST/RATE (1..1000000 each), or 0 for none\n", optarg);
				return -EINVAL;
			}
			opts->record_budget_given = true;
			break;
		case OPT_STATE_DIR:
			opts->state_dir = optarg;
			break;
		case OPT_RUNTIME_DIR:
			opts->runtime_dir = optarg;
			break;
		case OPT_WAIT_DECIDED:
			if (set_command(opts, COMMAND_WAIT_DECIDED) < 0)
				return -EINVAL;
			opts->devpath = optarg;
			break;
		case OPT_ANNOUNCE_QUEUED:
			if (set_command(opts, COMMAND_ANNOUNCE_QUEUED) < 0)
				return -EINVAL;
			break;
		case OPT_TIMEOUT: {
			char *end;
			long t;

			errno = 0;
			t = strtol(optarg, &end, 10);
			if (errno || *end || t < 0 || t > 3600) {
				fprintf(stderr, "hid-policyd: --timeout \"%s\": expected seconds, 0..3600\n", optarg);
				return -EINVAL;
			}
			opts->timeout_s = (int)t;
			break;
		}
		case OPT_JOURNAL:
		case OPT_NO_JOURNAL:
			opts->journal = c == OPT_JOURNAL;
			break;
		case OPT_LINUX_AUDIT:
		case OPT_NO_LINUX_AUDIT:
			opts->linux_audit = c == OPT_LINUX_AUDIT;
			break;
		case OPT_ON_TIMEOUT:
			if (!strcmp(optarg, "closed-if-matched")) {
				opts->on_timeout = ON_TIMEOUT_CLOSED_IF_MATCHED;
			} else if (!strcmp(optarg, "closed")) {
				opts->on_timeout = ON_TIMEOUT_CLOSED;
			} else if (!strcmp(optarg, "open")) {
				opts->on_timeout = ON_TIMEOUT_OPEN;
			} else {
				fprintf(stderr, "hid-policyd: --on-timeout \"%s\": expected closed-if-matched, closed or open\n", optarg);
				return -EINVAL;
			}
			opts->on_timeout_given = true;
			break;
		case OPT_STRICT:
			opts->strict = true;
			break;
		case OPT_USAGE:
			if (GROW(opts->usages, opts->n_usages, opts->cap_usages) < 0)
				return -ENOMEM;
			opts->usages[opts->n_usages++] = optarg;
			break;
		case OPT_UNIQ:
			opts->uniq = optarg;
			break;
		case OPT_PHYS:
			opts->phys = optarg;
			break;
		case OPT_INTERFACE:
			opts->interface = optarg;
			break;
		case OPT_DESCRIPTOR_SHA256:
			opts->descriptor_sha256 = optarg;
			break;
		case OPT_HIDPP_FEATURE:
			if (GROW(opts->hidpp_features, opts->n_hidpp_features, opts->cap_hidpp_features) < 0)
				return -ENOMEM;
			opts->hidpp_features[opts->n_hidpp_features++] = optarg;
			break;
		case OPT_DESCRIPTOR:
			opts->descriptor = optarg;
			break;
		case OPT_USER:
			opts->user = optarg;
			break;
		case OPT_GROUP:
			if (GROW(opts->groups, opts->n_groups, opts->cap_groups) < 0)
				return -ENOMEM;
			opts->groups[opts->n_groups++] = optarg;
			break;
		case OPT_EXECUTABLE:
			opts->executable = optarg;
			break;
		case OPT_UNIT:
			opts->unit = optarg;
			break;
		case OPT_ORIGIN:
			opts->origin = optarg;
			break;
		case OPT_NO_SANDBOX:
			opts->no_sandbox = true;
			break;
		case OPT_ALLOW_UNSAFE_INPUT_RULES:
			opts->allow_unsafe_input = true;
			break;
		case OPT_SAVED_POLICY_DIR:
			opts->saved_policy_dir = optarg;
			break;
		case OPT_CLEANUP:
			if (set_command(opts, COMMAND_CLEANUP) < 0)
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	/* --explain DEVICE [REQUEST], as hid-policyctl explain takes them */
	if (opts->command == COMMAND_EXPLAIN && explain_operands(argc, argv, opts) < 0)
		return -EINVAL;
	if (optind < argc) {
		fprintf(stderr, "hid-policyd: unexpected argument \"%s\"\n", argv[optind]);
		return -EINVAL;
	}
	if (opts->command == COMMAND_NONE)
		opts->command = COMMAND_DAEMON;
	if (opts->command != COMMAND_DAEMON &&
	    (opts->foreground || opts->audit_log || opts->no_sandbox || opts->journal >= 0 ||
	     opts->linux_audit >= 0 || opts->saved_policy_dir || opts->audit_log_max_size ||
	     opts->record_budget_given)) {
		fprintf(stderr, "hid-policyd: --foreground, --audit-log, --audit-log-max-size, --record-budget, --[no-]journal, --[no-]linux-audit, --no-sandbox and --saved-policy-dir go with running the daemon\n");
		return -EINVAL;
	}
	if (opts->allow_unsafe_input && opts->command != COMMAND_DAEMON &&
	    opts->command != COMMAND_CHECK) {
		fprintf(stderr, "hid-policyd: --allow-unsafe-input-rules goes with running the daemon or --check\n");
		return -EINVAL;
	}
	if (opts->state_dir && opts->command != COMMAND_DAEMON && opts->command != COMMAND_CLEANUP) {
		fprintf(stderr, "hid-policyd: --state-dir goes with running the daemon or --cleanup\n");
		return -EINVAL;
	}
	if (opts->runtime_dir && opts->command != COMMAND_DAEMON &&
	    opts->command != COMMAND_WAIT_DECIDED && opts->command != COMMAND_ANNOUNCE_QUEUED) {
		fprintf(stderr, "hid-policyd: --runtime-dir goes with running the daemon, --wait-decided or --announce-queued\n");
		return -EINVAL;
	}
	if (opts->command == COMMAND_WAIT_DECIDED) {
		if (!opts->timeout_s)
			opts->timeout_s = 5;
	} else if (opts->timeout_s || opts->on_timeout_given) {
		fprintf(stderr, "hid-policyd: --timeout and --on-timeout go with --wait-decided\n");
		return -EINVAL;
	}
	if (opts->command == COMMAND_CLEANUP && opts->n_config_dirs) {
		fprintf(stderr, "hid-policyd: --cleanup takes no --config-dir\n");
		return -EINVAL;
	}
	if (opts->command != COMMAND_EXPLAIN &&
	    (opts->device || opts->request || opts->report || opts->id || opts->payload ||
	     opts->n_usages || opts->n_hidpp_features || opts->uniq || opts->phys || opts->interface ||
	     opts->descriptor_sha256 || opts->descriptor || opts->user || opts->n_groups || opts->executable ||
	     opts->origin || opts->unit)) {
		fprintf(stderr, "hid-policyd: --device, --usage, --uniq, --phys, --interface, --descriptor-sha256, --descriptor, --hidpp-feature, --request, --report, --id, --payload, --user, --group, --executable, --origin and --unit go with --explain\n");
		return -EINVAL;
	}
	if (opts->strict && opts->command != COMMAND_CHECK) {
		fprintf(stderr, "hid-policyd: --strict goes with --check\n");
		return -EINVAL;
	}
	if (opts->command == COMMAND_EXPLAIN && (!opts->device || !opts->request || !opts->id)) {
		fprintf(stderr, "hid-policyd: --explain needs --device, --request and --id\n");
		return -EINVAL;
	}
	return 0;
}

void options_done(struct options *opts)
{
	free(opts->config_dirs);
	free(opts->usages);
	free(opts->hidpp_features);
	free(opts->groups);
	*opts = (struct options){};
}
