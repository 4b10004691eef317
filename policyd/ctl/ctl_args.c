// SPDX-License-Identifier: GPL-2.0-or-later
#include "ctl_args.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ctl_protocol.h"
#include "common/log_filter.h"
#include "common/util.h"

enum {
	OPT_JSON = 0x100,
	OPT_SOCKET,
	OPT_NO_ASK_PASSWORD,
	OPT_DEVICE,
	OPT_SINCE,
	OPT_ACTION,
	OPT_FOLLOW,
	OPT_FOR,
	OPT_REQUEST,
	OPT_REPORT,
	OPT_ID,
	OPT_PAYLOAD,
	OPT_EXCEPTION,
	OPT_USER,
	OPT_EXECUTABLE,
	OPT_PID,
	OPT_GROUP,
	OPT_ORIGIN,
	OPT_UNIT,
	OPT_USAGE,
	OPT_UNIQ,
	OPT_PHYS,
	OPT_INTERFACE,
	OPT_DESCRIPTOR_SHA256,
	OPT_HIDPP_FEATURE,
	OPT_LINES,
	OPT_UTC,
	OPT_VERSION,
};
#define OPT_LAST_COMMAND_OPTION OPT_UTC

void ctl_usage(FILE *f)
{
	fprintf(f,
		"Usage: hid-policyctl [--json] [--socket PATH] [--no-ask-password] COMMAND [ARGS]\n"
		"\n"
		"Commands:\n"
		"  status                      the daemon, kernel support, mode, counters, temporary allows\n"
		"  devices                     HID devices, matching rule sets, attached firewalls\n"
		"  rules DEVICE                the rules in force for DEVICE, in evaluation order\n"
		"  log [--device D] [--since T] [--action allow|deny] [--follow] [--lines N] [--utc]\n"
		"                              audit records (a table, or JSON lines with --json),\n"
		"                              rotated logs included; --follow starts at the end\n"
		"  report [--since T] [--device D] [--utc]\n"
		"                              denials per device, rule, program and user\n"
		"  explain DEVICE | --device DEVICE --request REQUEST [--report TYPE] --id ID\n"
		"          [--payload HEX]\n"
		"          [--usage USAGE]... [--uniq UNIQ] [--phys PHYS] [--interface N]\n"
		"          [--descriptor-sha256 HASH] [--hidpp-feature DEVICE_INDEX:FEATURE=INDEX]...\n"
		"          [--user USER] [--group GROUP]... [--executable PATH] | [--pid PID]\n"
		"          | [--origin kernel|user] [--unit UNIT]\n"
		"                              which rule decides a request, and why (REQUEST may\n"
		"                              follow DEVICE instead of --request); --usage, --uniq,\n"
		"                              --phys, --interface, --descriptor-sha256 and\n"
		"                              --hidpp-feature (what it answered HID++ getFeature)\n"
		"                              replace what DEVICE says of itself; the rest name\n"
		"                              the sender\n"
		"                              (the process's groups: every --group, its gid first)\n"
		"  reload                      read the policy again\n"
		"  allow DEVICE [--for DURATION] [--request REQUEST [--report TYPE]] [--id ID]\n"
		"        [--user USER] [--group GROUP]... [--executable PATH] [--pid PID]\n"
		"        [--unit UNIT]\n"
		"                              let DEVICE's requests through for a while (default 10m)\n"
		"                              from that sender (a member of any --group)\n"
		"  revoke DEVICE | --exception N\n"
		"                              end temporary allows early\n"
		"  generate                    print a policy protecting the devices present now\n"
		"\n"
		"DEVICE: a sysfs name (0003:054C:0CE6.0001), a hid_id, BUS:VID:PID, or hidrawN.\n"
		"REQUEST: get_report, set_report (with --report feature|input|output),\n"
		"         output_report or input_event. DURATION: 90, 30s, 5m, 1h30m (at most 24h).\n"
		"T: 7d or -10m (ago), @SECONDS, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z] (local time\n"
		"   unless Z). Times are shown in local time, in UTC with --utc.\n"
		"\n"
		"Options:\n"
		"  --json                 print replies as JSON\n"
		"  --socket PATH          the daemon's control socket (default /run/hid-policy/control)\n"
		"  --no-ask-password      do not start a polkit agent to ask for a password\n"
		"  -h, --help             show this help\n"
		"      --version          show the version\n"
		"\n"
		"Exit status: 0 done, 1 failed, 2 usage, 3 not authorized, 4 no daemon,\n"
		"5 unintelligible reply.\n");
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A usage error: say what is wrong, return -EINVAL. */
static int bad(const char *fmt, ...)
{
	va_list ap;

	fputs("hid-policyctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

/* Options each command takes (bit per OPT_* - OPT_DEVICE). */
#define BIT(o) (1u << ((o) - OPT_DEVICE))
/* Who sends a request: explain takes them all. --pid stands for the rest
 * but --origin; --origin kernel (a driver's own request) goes with none. */
#define SUBJECT_OPTIONS (BIT(OPT_USER) | BIT(OPT_GROUP) | BIT(OPT_EXECUTABLE) | BIT(OPT_PID) | \
			 BIT(OPT_ORIGIN) | BIT(OPT_UNIT))
#define PROCESS_OPTIONS (BIT(OPT_USER) | BIT(OPT_GROUP) | BIT(OPT_EXECUTABLE))
static const struct {
	const char *name;
	unsigned int operands_min, operands_max;
	unsigned int options;
} commands[] = {
	{ "status", 0, 0, 0 },
	{ "devices", 0, 0, 0 },
	{ "rules", 1, 1, 0 },
	{ "log", 0, 0, BIT(OPT_DEVICE) | BIT(OPT_SINCE) | BIT(OPT_ACTION) | BIT(OPT_FOLLOW) |
		       BIT(OPT_LINES) | BIT(OPT_UTC) },
	{ "report", 0, 0, BIT(OPT_DEVICE) | BIT(OPT_SINCE) | BIT(OPT_UTC) },
	/* DEVICE: the first operand, or --device as hid-policyd --explain
	 * takes it; REQUEST: --request, or the operand after DEVICE */
	{ "explain", 0, 2, BIT(OPT_DEVICE) | BIT(OPT_REQUEST) | BIT(OPT_REPORT) | BIT(OPT_ID) | BIT(OPT_PAYLOAD) |
			   BIT(OPT_USAGE) | BIT(OPT_UNIQ) | BIT(OPT_PHYS) | BIT(OPT_INTERFACE) |
			   BIT(OPT_DESCRIPTOR_SHA256) | BIT(OPT_HIDPP_FEATURE) | SUBJECT_OPTIONS },
	{ "reload", 0, 0, 0 },
	{ "allow", 1, 1, BIT(OPT_FOR) | BIT(OPT_REQUEST) | BIT(OPT_REPORT) | BIT(OPT_ID) |
			 BIT(OPT_USER) | BIT(OPT_GROUP) | BIT(OPT_EXECUTABLE) | BIT(OPT_PID) |
			 BIT(OPT_UNIT) },
	{ "revoke", 0, 1, BIT(OPT_EXCEPTION) },
	{ "generate", 0, 0, 0 },
};

static const char *const option_names[] = {
	[OPT_DEVICE - OPT_DEVICE] = "--device", [OPT_SINCE - OPT_DEVICE] = "--since",
	[OPT_ACTION - OPT_DEVICE] = "--action", [OPT_FOLLOW - OPT_DEVICE] = "--follow",
	[OPT_FOR - OPT_DEVICE] = "--for", [OPT_REQUEST - OPT_DEVICE] = "--request",
	[OPT_REPORT - OPT_DEVICE] = "--report", [OPT_ID - OPT_DEVICE] = "--id",
	[OPT_PAYLOAD - OPT_DEVICE] = "--payload", [OPT_EXCEPTION - OPT_DEVICE] = "--exception",
	[OPT_USER - OPT_DEVICE] = "--user", [OPT_EXECUTABLE - OPT_DEVICE] = "--executable",
	[OPT_PID - OPT_DEVICE] = "--pid", [OPT_GROUP - OPT_DEVICE] = "--group",
	[OPT_ORIGIN - OPT_DEVICE] = "--origin",
	[OPT_UNIT - OPT_DEVICE] = "--unit",
	[OPT_USAGE - OPT_DEVICE] = "--usage", [OPT_UNIQ - OPT_DEVICE] = "--uniq",
	[OPT_PHYS - OPT_DEVICE] = "--phys", [OPT_INTERFACE - OPT_DEVICE] = "--interface",
	[OPT_DESCRIPTOR_SHA256 - OPT_DEVICE] = "--descriptor-sha256",
	[OPT_HIDPP_FEATURE - OPT_DEVICE] = "--hidpp-feature",
	[OPT_LINES - OPT_DEVICE] = "--lines", [OPT_UTC - OPT_DEVICE] = "--utc",
};

bool ctl_is_hidraw_name(const char *s)
{
	if (!strncmp(s, "/dev/", 5))
		s += 5;
	return !strncmp(s, "hidraw", 6) && s[6] && strspn(s + 6, "0123456789") == strlen(s + 6);
}

static int parse_uint(const char *s, unsigned long max, unsigned long *ret)
{
	char *end;
	unsigned long v;

	/* decimal, or hexadecimal after "0x"; never octal */
	if (!s[0] || s[0] == '-' || s[0] == '+' || s[0] == ' ' ||
	    (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*ret = v;
	return 0;
}

int ctl_args_parse(int argc, char **argv, time_t now, struct ctl_args *a)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "no-ask-password", no_argument, NULL, OPT_NO_ASK_PASSWORD },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "action", required_argument, NULL, OPT_ACTION },
		{ "follow", no_argument, NULL, OPT_FOLLOW },
		{ "for", required_argument, NULL, OPT_FOR },
		{ "request", required_argument, NULL, OPT_REQUEST },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "id", required_argument, NULL, OPT_ID },
		{ "payload", required_argument, NULL, OPT_PAYLOAD },
		{ "exception", required_argument, NULL, OPT_EXCEPTION },
		{ "user", required_argument, NULL, OPT_USER },
		{ "executable", required_argument, NULL, OPT_EXECUTABLE },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "group", required_argument, NULL, OPT_GROUP },
		{ "origin", required_argument, NULL, OPT_ORIGIN },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{ "usage", required_argument, NULL, OPT_USAGE },
		{ "uniq", required_argument, NULL, OPT_UNIQ },
		{ "phys", required_argument, NULL, OPT_PHYS },
		{ "interface", required_argument, NULL, OPT_INTERFACE },
		{ "descriptor-sha256", required_argument, NULL, OPT_DESCRIPTOR_SHA256 },
		{ "hidpp-feature", required_argument, NULL, OPT_HIDPP_FEATURE },
		{ "lines", required_argument, NULL, OPT_LINES },
		{ "utc", no_argument, NULL, OPT_UTC },
		{}
	};
	unsigned int seen = 0, n_operands;
	unsigned long v;
	size_t cmd;
	int c, r;

	*a = (struct ctl_args){ .ask_password = true, .report_id = -1, .exception_id = -1,
				.uid = -1, .pid = -1, .lines = -1, .interface = -1 };
	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "hfn:", longopts, NULL)) >= 0) {
		if (c == 'n')
			c = OPT_LINES;
		if (c >= OPT_DEVICE && c <= OPT_LAST_COMMAND_OPTION) {
			if ((seen & BIT(c)) && c != OPT_USAGE && c != OPT_GROUP && c != OPT_HIDPP_FEATURE)
				return bad("%s is given twice", option_names[c - OPT_DEVICE]);
			seen |= BIT(c);
		}
		switch (c) {
		case 'h':
			a->help = true;
			return 0;
		case OPT_VERSION:
			a->version = true;
			return 0;
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_SOCKET:
			a->socket_path = optarg;
			break;
		case OPT_NO_ASK_PASSWORD:
			a->ask_password = false;
			break;
		case OPT_DEVICE:
			a->device = optarg;
			break;
		case OPT_SINCE:
			if (ctl_parse_since(optarg, now, a->since, sizeof(a->since)) < 0)
				return bad("--since \"%s\": expected -DURATION (-10m), @SECONDS, YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z]", optarg);
			break;
		case OPT_ACTION:
			if (strcmp(optarg, "allow") && strcmp(optarg, "deny"))
				return bad("--action \"%s\": expected allow or deny", optarg);
			a->action = optarg;
			break;
		case 'f':
			seen |= BIT(OPT_FOLLOW);
			/* fall through */
		case OPT_FOLLOW:
			a->follow = true;
			break;
		case OPT_FOR:
			r = ctl_parse_duration(optarg, &a->duration_s);
			if (r == -ERANGE)
				return bad("--for \"%s\": a temporary allow lasts 1 second to 24 hours", optarg);
			if (r < 0)
				return bad("--for \"%s\": expected a duration such as 90, 30s, 5m or 1h30m", optarg);
			break;
		case OPT_REQUEST:
			a->request = optarg;
			break;
		case OPT_REPORT:
			a->report = optarg;
			break;
		case OPT_ID:
			if (parse_uint(optarg, 255, &v) < 0)
				return bad("--id \"%s\": expected a report ID, 0..255 (decimal or 0x..)", optarg);
			a->report_id = (int)v;
			break;
		case OPT_PAYLOAD:
			a->payload = optarg;
			break;
		case OPT_LINES:
			if (parse_uint(optarg, CTL_LOG_LINES_MAX, &v) < 0)
				return bad("--lines \"%s\": expected a number of records, 0..%d", optarg,
					   CTL_LOG_LINES_MAX);
			a->lines = (long)v;
			break;
		case OPT_UTC:
			a->utc = true;
			break;
		case OPT_EXCEPTION:
			if (parse_uint(optarg, 0x0ffffffe, &v) < 0 || v == 0)
				return bad("--exception \"%s\": expected the number of a temporary allow (hid-policyctl status lists them)", optarg);
			a->exception_id = (long)v;
			break;
		/* A name goes to the daemon, which looks it up as it looks up
		 * the policy's: the same name is the same account there. */
		case OPT_USER:
			if (!*optarg)
				return bad("%s", "--user: expected a user name or uid");
			if (parse_uint(optarg, UINT32_MAX - 1, &v) == 0)
				a->uid = (long long)v;
			else
				a->user_name = optarg;
			break;
		case OPT_GROUP:
			if (a->n_gids == ELEMENTSOF(a->gids))
				return bad("at most %zu --group", ELEMENTSOF(a->gids));
			if (!*optarg)
				return bad("%s", "--group: expected a group name or gid");
			if (parse_uint(optarg, UINT32_MAX - 1, &v) == 0)
				a->gids[a->n_gids] = (uint32_t)v;
			else
				a->group_names[a->n_gids] = optarg;
			a->n_gids++;
			break;
		case OPT_ORIGIN:
			if (strcmp(optarg, "kernel") && strcmp(optarg, "user"))
				return bad("--origin \"%s\": expected kernel (a driver's own request) or user (a process's)", optarg);
			a->origin = optarg;
			break;
		case OPT_EXECUTABLE:
			if (optarg[0] != '/')
				return bad("--executable \"%s\": expected an absolute path", optarg);
			a->executable = optarg;
			break;
		case OPT_PID:
			if (parse_uint(optarg, INT32_MAX, &v) < 0 || v == 0)
				return bad("--pid \"%s\": expected a process ID", optarg);
			a->pid = (long)v;
			break;
		case OPT_UNIT:
			if (!*optarg)
				return bad("%s", "--unit: expected a unit name such as fwupd.service");
			a->unit = optarg;
			break;
		case OPT_USAGE:
			if (a->n_usages == ELEMENTSOF(a->usages))
				return bad("at most %zu --usage", ELEMENTSOF(a->usages));
			a->usages[a->n_usages++] = optarg;
			break;
		case OPT_HIDPP_FEATURE:
			if (a->n_hidpp_features == ELEMENTSOF(a->hidpp_features))
				return bad("at most %zu --hidpp-feature", ELEMENTSOF(a->hidpp_features));
			a->hidpp_features[a->n_hidpp_features++] = optarg;
			break;
		case OPT_UNIQ:
			a->uniq = optarg;
			break;
		case OPT_PHYS:
			a->phys = optarg;
			break;
		case OPT_INTERFACE:
			if (parse_uint(optarg, 255, &v) < 0)
				return bad("--interface \"%s\": expected a USB interface number, 0..255", optarg);
			a->interface = (int)v;
			break;
		case OPT_DESCRIPTOR_SHA256:
			if (strlen(optarg) != 64 || strspn(optarg, "0123456789abcdefABCDEF") != 64)
				return bad("--descriptor-sha256 \"%s\": expected the SHA-256 of a report descriptor, 64 hex digits", optarg);
			a->descriptor_sha256 = optarg;
			break;
		default:
			return -EINVAL;
		}
	}
	if ((seen & BIT(OPT_PID)) && (seen & PROCESS_OPTIONS))
		return bad("%s", "--pid names the process's user, groups and executable itself: give --pid or --user/--group/--executable");
	if (a->origin && !strcmp(a->origin, "kernel") &&
	    (seen & (PROCESS_OPTIONS | BIT(OPT_PID) | BIT(OPT_UNIT))))
		return bad("%s", "--origin kernel is a driver's own request, which has no user, group, executable, process or unit");
	if (optind >= argc)
		return bad("%s", "no command given (try --help)");
	a->command = argv[optind++];
	for (cmd = 0; cmd < ELEMENTSOF(commands); cmd++)
		if (!strcmp(commands[cmd].name, a->command))
			break;
	if (cmd == ELEMENTSOF(commands))
		return bad("unknown command \"%s\" (try --help)", a->command);
	for (int o = OPT_DEVICE; o <= OPT_LAST_COMMAND_OPTION; o++)
		if ((seen & BIT(o)) && !(commands[cmd].options & BIT(o))) {
			fprintf(stderr, "hid-policyctl: %s does not go with %s\n",
				option_names[o - OPT_DEVICE], a->command);
			return -EINVAL;
		}
	n_operands = (unsigned int)(argc - optind);
	if (n_operands < commands[cmd].operands_min || n_operands > commands[cmd].operands_max) {
		fprintf(stderr, "hid-policyctl: %s takes %s (try --help)\n", a->command,
			commands[cmd].operands_max == 0 ? "no arguments" :
			!strcmp(a->command, "explain") ? "a DEVICE, and its REQUEST unless --request gives it" :
			"one DEVICE");
		return -EINVAL;
	}
	if (!strcmp(a->command, "explain") && (seen & BIT(OPT_DEVICE))) {
		/* --device D [REQUEST] */
		if (n_operands == 2)
			return bad("the device is given twice: %s and --device %s (give one)",
				   argv[optind], a->device);
		if (n_operands == 1 && a->request)
			return bad("the request is given twice: %s and --request %s (give one)",
				   argv[optind], a->request);
		if (n_operands == 1)
			a->request = argv[optind];
	} else {
		if (!strcmp(a->command, "explain") && n_operands == 0)
			return bad("%s", "explain needs a DEVICE, after it or as --device DEVICE");
		if (n_operands >= 1)
			a->device = argv[optind];
		if (n_operands == 2 && a->request)
			return bad("the request is given twice: %s after DEVICE and --request %s (give one)",
				   argv[optind + 1], a->request);
		if (n_operands == 2)
			a->request = argv[optind + 1];
	}
	if (!strcmp(a->command, "explain") && !a->request)
		return bad("%s", "explain needs the request kind: --request REQUEST (get_report, set_report, output_report or input_event), or REQUEST after DEVICE");
	if (!strcmp(a->command, "explain") && (seen & BIT(OPT_PID)) && (seen & BIT(OPT_UNIT)))
		return bad("%s", "--pid names the process's unit itself (by its cgroup): give --pid or --unit");
	if (!strcmp(a->command, "explain") && a->report_id < 0)
		return bad("%s", "explain needs --id, the report ID of the request");
	if (!strcmp(a->command, "allow") && a->n_gids > CTL_ALLOW_GROUPS_MAX)
		return bad("allow takes at most %d --group (a member of any of them)", CTL_ALLOW_GROUPS_MAX);
	if (!strcmp(a->command, "revoke") && !a->device && a->exception_id < 0)
		return bad("%s", "revoke needs a DEVICE (all its temporary allows) or --exception N (one)");
	if (!strcmp(a->command, "revoke") && a->device && a->exception_id >= 0)
		return bad("%s", "revoke takes a DEVICE or --exception N, not both");
	if (a->report && !a->request)
		return bad("%s", "--report goes with a request kind (--request REQUEST)");
	if (a->device && (!strcmp(a->command, "log") || !strcmp(a->command, "report"))) {
		struct log_filter f;

		/* hidrawN is resolved before the request; every other form
		 * must be one the log knows, or nothing would ever match. */
		if (!ctl_is_hidraw_name(a->device) && log_filter_set_device(&f, a->device) < 0)
			return bad("--device \"%s\": expected a sysfs name (0003:054C:0CE6.0001), a hid_id, BUS:VID:PID (usb:054c:0ce6) or a hidraw node (/dev/hidraw3)",
				   a->device);
	}
	return 0;
}

/* The "Groups:" line of /proc/PID/status (after the key) into A's gids,
 * after the gid. Returns 0 or -E2BIG. */
static int read_groups(const char *list, struct ctl_args *a)
{
	const char *p = list;
	char *end;

	for (;;) {
		unsigned long g;

		p += strspn(p, " \t");
		if (!*p || *p == '\n')
			return 0;
		errno = 0;
		g = strtoul(p, &end, 10);
		if (end == p || errno || g >= UINT32_MAX)
			return -EIO;
		if (a->n_gids == ELEMENTSOF(a->gids))
			return -E2BIG;
		a->gids[a->n_gids++] = (uint32_t)g;
		p = end;
	}
}

/* The process's place in the unified cgroup hierarchy: the "0::" line of
 * /proc/PID/cgroup. None (a system without cgroup2) leaves it empty. */
static int read_cgroup(struct ctl_args *a)
{
	_cleanup_free_ char *line = NULL;
	char path[64];
	size_t size = 0;
	ssize_t n;
	FILE *f;

	a->pid_cgroup[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/cgroup", a->pid);
	f = fopen(path, "re");
	if (!f) {
		int r = -errno;

		fprintf(stderr, "hid-policyctl: --pid %ld: %s: %s\n", a->pid, path, strerror(-r));
		return r;
	}
	while ((n = getline(&line, &size, f)) > 0) {
		if (strncmp(line, "0::/", 4))
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line + 3) >= sizeof(a->pid_cgroup)) {
			fprintf(stderr, "hid-policyctl: --pid %ld: its cgroup path is too long\n", a->pid);
			fclose(f);
			return -ENAMETOOLONG;
		}
		strcpy(a->pid_cgroup, line + 3);
		break;
	}
	fclose(f);
	return 0;
}

int ctl_args_resolve_pid(struct ctl_args *a)
{
	bool groups = a->command && !strcmp(a->command, "explain");
	_cleanup_free_ char *line = NULL;
	bool have_gid = false, have_groups = false;
	char path[64];
	unsigned int uid, gid;
	size_t size = 0;
	long tracer = 0;
	ssize_t n;
	FILE *f;

	if (a->pid < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/exe", a->pid);
	n = readlink(path, a->pid_exe, sizeof(a->pid_exe) - 1);
	if (n < 0) {
		int r = -errno;

		fprintf(stderr, "hid-policyctl: --pid %ld: cannot read its executable: %s\n", a->pid,
			strerror(-r));
		return r;
	}
	a->pid_exe[n] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/status", a->pid);
	f = fopen(path, "re");
	if (!f) {
		int r = -errno;

		fprintf(stderr, "hid-policyctl: --pid %ld: %s\n", a->pid, strerror(-r));
		return r;
	}
	/* The real uid and gid come first on their lines: the firewall
	 * matches those. Groups: the supplementary groups, any number. */
	while (getline(&line, &size, f) > 0) {
		if (sscanf(line, "Uid: %u", &uid) == 1) {
			a->uid = uid;
		} else if (sscanf(line, "TracerPid: %ld", &tracer) == 1) {
			continue;
		} else if (groups && sscanf(line, "Gid: %u", &gid) == 1 && a->n_gids == 0) {
			a->gids[a->n_gids++] = gid;
			have_gid = true;
		} else if (groups && have_gid && !strncmp(line, "Groups:", 7)) {
			int r = read_groups(line + 7, a);

			if (r == -E2BIG) {
				fprintf(stderr, "hid-policyctl: --pid %ld: more than %d groups\n", a->pid,
					CTL_SUBJECT_GROUPS_MAX - 1);
				fclose(f);
				return r;
			}
			have_groups = r == 0;
		}
	}
	fclose(f);
	if (a->uid < 0 || (groups && !have_groups)) {
		fprintf(stderr, "hid-policyctl: --pid %ld: cannot tell its user%s\n", a->pid,
			groups ? " and groups" : "");
		return -EIO;
	}
	/* The firewall takes no traced task's executable as its identity
	 * (hid_firewall.bpf.c read_caller()): an answer for this one would
	 * not be what the firewall does. */
	if (tracer > 0) {
		fprintf(stderr, "hid-policyctl: --pid %ld is being traced (by pid %ld): the firewall does not count a traced process's executable (hid-policy.d(5)); name the sender with --user, --group, --executable or --unit instead\n",
			a->pid, tracer);
		return -EPERM;
	}
	a->executable = a->pid_exe;
	/* explain: the unit, told by the process's cgroup as the firewall
	 * tells it */
	return groups ? read_cgroup(a) : 0;
}

json_t *ctl_args_request(const struct ctl_args *a, bool interactive)
{
	json_t *args = json_object();

	if (!args)
		return NULL;
	if (a->device)
		json_object_set_new(args, "device", json_string(a->device));
	if (a->since[0])
		json_object_set_new(args, "since", json_string(a->since));
	if (a->action)
		json_object_set_new(args, "action", json_string(a->action));
	if (a->follow)
		json_object_set_new(args, "follow", json_true());
	if (a->lines >= 0)
		json_object_set_new(args, "lines", json_integer(a->lines));
	if (a->request)
		json_object_set_new(args, "request", json_string(a->request));
	if (a->report)
		json_object_set_new(args, "report", json_string(a->report));
	if (a->report_id >= 0)
		json_object_set_new(args, "id", json_integer(a->report_id));
	if (a->payload)
		json_object_set_new(args, "payload", json_string(a->payload));
	if (a->duration_s)
		json_object_set_new(args, "duration_s", json_integer((json_int_t)a->duration_s));
	if (a->exception_id >= 0)
		json_object_set_new(args, "id", json_integer(a->exception_id));
	if (a->uid >= 0)
		json_object_set_new(args, "user", json_integer(a->uid));
	else if (a->user_name)
		json_object_set_new(args, "user", json_string(a->user_name));
	if (a->executable)
		json_object_set_new(args, "executable", json_string(a->executable));
	if (a->n_gids) {
		json_t *g = json_array();

		for (size_t i = 0; i < a->n_gids; i++)
			json_array_append_new(g, a->group_names[i] ? json_string(a->group_names[i]) :
					      json_integer(a->gids[i]));
		json_object_set_new(args, "group", g);
	}
	if (a->origin)
		json_object_set_new(args, "origin", json_string(a->origin));
	if (a->pid >= 0)
		json_object_set_new(args, "pid", json_integer(a->pid));
	if (a->unit)
		json_object_set_new(args, "unit", json_string(a->unit));
	if (a->pid_cgroup[0])
		json_object_set_new(args, "cgroup", json_string(a->pid_cgroup));
	if (a->n_usages) {
		json_t *u = json_array();

		for (size_t i = 0; i < a->n_usages; i++)
			json_array_append_new(u, json_string(a->usages[i]));
		json_object_set_new(args, "usage", u);
	}
	if (a->n_hidpp_features) {
		json_t *h = json_array();

		for (size_t i = 0; i < a->n_hidpp_features; i++)
			json_array_append_new(h, json_string(a->hidpp_features[i]));
		json_object_set_new(args, "hidpp_feature", h);
	}
	if (a->uniq)
		json_object_set_new(args, "uniq", json_string(a->uniq));
	if (a->phys)
		json_object_set_new(args, "phys", json_string(a->phys));
	if (a->interface >= 0)
		json_object_set_new(args, "interface", json_integer(a->interface));
	if (a->descriptor_sha256)
		json_object_set_new(args, "descriptor_sha256", json_string(a->descriptor_sha256));
	if (!strcmp(a->command, "report"))	/* the log's denials, counted here */
		json_object_set_new(args, "action", json_string("deny"));
	return json_pack("{s:i, s:s, s:o, s:b}", "version", CTL_PROTOCOL_VERSION,
			 "command", !strcmp(a->command, "report") ? "log" : a->command,
			 "args", args, "interactive", interactive);
}
