// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host tests of the control socket's pure parts: durations and --since
 * times, hid-policyctl's command line and the request it sends, the log
 * filter, how temporary allows are placed before a device's rules, and what
 * hid-policyctl's text output lets through to a terminal.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ctl_protocol.h"
#include "common/log_filter.h"
#include "control/authorize.h"
#include "control/command_args.h"
#include "ctl/ctl_args.h"
#include "ctl/ctl_output.h"
#include "state/exceptions.h"
#include "state/views.h"
#include "harness.h"
#include "json_path.h"

static void test_durations_parse_with_units_and_stay_in_range(void)
{
	uint64_t s = 0;

	CHECK_OK(ctl_parse_duration("90", &s));
	CHECK_EQ(s, 90);
	CHECK_OK(ctl_parse_duration("2s", &s));
	CHECK_EQ(s, 2);
	CHECK_OK(ctl_parse_duration("5m", &s));
	CHECK_EQ(s, 300);
	CHECK_OK(ctl_parse_duration("1h30m", &s));
	CHECK_EQ(s, 5400);
	CHECK_OK(ctl_parse_duration("24h", &s));
	CHECK_EQ(s, CTL_ALLOW_MAX_S);

	CHECK_EQ(ctl_parse_duration("24h1s", &s), -ERANGE);
	CHECK_EQ(ctl_parse_duration("0", &s), -ERANGE);
	CHECK_EQ(ctl_parse_duration("0s", &s), -ERANGE);
	CHECK_EQ(ctl_parse_duration("99999999999999999999s", &s), -ERANGE);
	CHECK_EQ(ctl_parse_duration("", &s), -EINVAL);
	CHECK_EQ(ctl_parse_duration("m", &s), -EINVAL);
	CHECK_EQ(ctl_parse_duration("-5s", &s), -EINVAL);
	CHECK_EQ(ctl_parse_duration("5d", &s), -EINVAL);
	CHECK_EQ(ctl_parse_duration("1m30", &s), -EINVAL);
	CHECK_EQ(ctl_parse_duration("5 m", &s), -EINVAL);
}

static void test_since_values_become_utc_audit_log_times(void)
{
	/* 2026-12-03T10:00:00Z */
	const time_t now = 1796292000;
	char buf[40];

	CHECK_OK(ctl_parse_since("-10m", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-12-03T09:50:00.000Z"), "%s", buf);
	CHECK_OK(ctl_parse_since("-48h", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-12-01T10:00:00.000Z"), "%s", buf);
	/* days and weeks, with or without the minus: hid-policyctl report --since 7d */
	CHECK_OK(ctl_parse_since("7d", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-11-26T10:00:00.000Z"), "%s", buf);
	CHECK_OK(ctl_parse_since("-1w2d", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-11-24T10:00:00.000Z"), "%s", buf);
	CHECK_OK(ctl_parse_since("90", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-12-03T09:58:30.000Z"), "%s", buf);
	CHECK_OK(ctl_parse_since("@1796292001", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-12-03T10:00:01.000Z"), "%s", buf);
	CHECK_OK(ctl_parse_since("2026-12-03T08:15:30Z", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-12-03T08:15:30.000Z"), "%s", buf);
	CHECK_OK(ctl_parse_since("2026-12-03T08:15Z", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-12-03T08:15:00.000Z"), "%s", buf);
	/* Local time: fixed to UTC for the test. */
	setenv("TZ", "UTC", 1);
	tzset();
	CHECK_OK(ctl_parse_since("2026-12-02", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-12-02T00:00:00.000Z"), "%s", buf);
	CHECK_OK(ctl_parse_since("2026-12-02 07:00", now, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "2026-12-02T07:00:00.000Z"), "%s", buf);

	CHECK_EQ(ctl_parse_since("yesterday", now, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ctl_parse_since("2026-12-03T08", now, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ctl_parse_since("@", now, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ctl_parse_since("@-5", now, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ctl_parse_since("-", now, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ctl_parse_since("2026-12-03T08:15:30 junk", now, buf, sizeof(buf)), -EINVAL);
}

/* Parse a command line given as a NULL-terminated list. */
static int parse(struct ctl_args *a, const char *const *argv)
{
	char *copy[32];
	int argc = 0;

	copy[argc++] = (char *)"hid-policyctl";
	while (argv[argc - 1] && argc < 31) {
		copy[argc] = (char *)argv[argc - 1];
		argc++;
	}
	copy[argc] = NULL;
	return ctl_args_parse(argc, copy, 1796292000, a);
}

#define PARSE(a, ...) parse(a, (const char *const[]){ __VA_ARGS__, NULL })

static void test_command_lines_become_the_documented_requests(void)
{
	struct ctl_args a;
	json_t *req, *args;

	CHECK_OK(PARSE(&a, "--json", "allow", "0003:054C:0CE6.0001", "--for", "2s", "--request",
		       "set_report", "--report", "feature", "--id", "0xf4"));
	req = ctl_args_request(&a, true);
	CHECK(req, "request");
	CHECK_EQ(json_integer_value(json_object_get(req, "version")), CTL_PROTOCOL_VERSION);
	CHECK(!strcmp(json_string_value(json_object_get(req, "command")), "allow"), "command");
	CHECK(json_is_true(json_object_get(req, "interactive")), "interactive");
	args = json_object_get(req, "args");
	CHECK(!strcmp(json_string_value(json_object_get(args, "device")), "0003:054C:0CE6.0001"), "device");
	CHECK_EQ(json_integer_value(json_object_get(args, "duration_s")), 2);
	CHECK(!strcmp(json_string_value(json_object_get(args, "request")), "set_report"), "request");
	CHECK(!strcmp(json_string_value(json_object_get(args, "report")), "feature"), "report");
	CHECK_EQ(json_integer_value(json_object_get(args, "id")), 0xf4);
	CHECK(a.json, "--json");
	json_decref(req);

	/* Options may come before or after the command. */
	CHECK_OK(PARSE(&a, "log", "--since", "-10m", "--action", "deny", "-f", "--device", "7"));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK(!strcmp(json_string_value(json_object_get(args, "since")), "2026-12-03T09:50:00.000Z"),
	      "since %s", json_string_value(json_object_get(args, "since")));
	CHECK(!strcmp(json_string_value(json_object_get(args, "action")), "deny"), "action");
	CHECK(json_is_true(json_object_get(args, "follow")), "follow");
	CHECK(!strcmp(json_string_value(json_object_get(args, "device")), "7"), "device");
	json_decref(req);

	CHECK_OK(PARSE(&a, "explain", "usb:054c:0ce6", "set_report", "--report", "feature", "--id", "244",
		       "--payload", "f4 00"));
	CHECK(!strcmp(a.request, "set_report") && a.report_id == 244 && !strcmp(a.payload, "f4 00"),
	      "explain args");
	CHECK_OK(PARSE(&a, "allow", "hidraw3", "--unit", "fwupd.service", "--id", "0xf4"));
	req = ctl_args_request(&a, false);
	CHECK(req, "request");
	args = json_object_get(req, "args");
	CHECK(!strcmp(json_string_value(json_object_get(args, "unit")), "fwupd.service"), "unit");
	json_decref(req);
	CHECK_EQ(PARSE(&a, "allow", "hidraw3", "--unit", ""), -EINVAL);
	CHECK_EQ(PARSE(&a, "log", "--unit", "fwupd.service"), -EINVAL);	/* allow's option */
	CHECK_OK(PARSE(&a, "revoke", "--exception", "3"));
	CHECK_EQ(a.exception_id, 3);
	CHECK_OK(PARSE(&a, "--socket", "/tmp/s", "status"));
	CHECK(!strcmp(a.socket_path, "/tmp/s"), "socket");
	CHECK_OK(PARSE(&a, "--help"));
	CHECK(a.help, "help");
}

/* explain's sender: names become ids, every --group is kept (the gid
 * first), and --pid reads the process as the firewall reads its task. */
static void test_explain_names_its_sender_as_the_firewall_reads_it(void)
{
	struct ctl_args a;
	json_t *req, *args, *g;
	gid_t groups[CTL_SUBJECT_GROUPS_MAX];
	char exe[256];
	ssize_t n;
	int n_groups;
	char pid[16];

	CHECK_OK(PARSE(&a, "explain", "dev", "set_report", "--report", "feature", "--id", "3",
		       "--user", "root", "--group", "root", "--group", "100",
		       "--executable", "/bin/sh"));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK_EQ(json_integer_value(json_object_get(args, "user")), 0);
	g = json_object_get(args, "group");
	CHECK_EQ(json_array_size(g), 2);
	CHECK(!strcmp(json_string_value(json_array_get(g, 0)) ?: "", "root"), "a name goes as it is");
	CHECK_EQ(json_integer_value(json_array_get(g, 1)), 100);
	CHECK(!strcmp(json_string_value(json_object_get(args, "executable")), "/bin/sh"), "executable");
	CHECK(!json_object_get(args, "origin") && !json_object_get(args, "pid"), "origin, pid");
	json_decref(req);

	CHECK_OK(PARSE(&a, "explain", "dev", "set_report", "--report", "feature", "--id", "3",
		       "--origin", "kernel"));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK(!strcmp(json_string_value(json_object_get(args, "origin")), "kernel"), "origin");
	CHECK(!json_object_get(args, "user") && !json_object_get(args, "group"), "no user");
	json_decref(req);

	CHECK_OK(PARSE(&a, "explain", "dev", "set_report", "--report", "feature", "--id", "3",
		       "--unit", "fwupd.service", "--user", "0"));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK(!strcmp(json_string_value(json_object_get(args, "unit")), "fwupd.service"), "unit");
	json_decref(req);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--origin", "kernel",
		       "--unit", "fwupd.service"), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--pid", "1",
		       "--unit", "fwupd.service"), -EINVAL);	/* the process has its unit */

	/* this process: its real uid and gid, its supplementary groups */
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	CHECK_OK(PARSE(&a, "explain", "dev", "set_report", "--report", "feature", "--id", "3",
		       "--pid", pid));
	CHECK_OK(ctl_args_resolve_pid(&a));
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0, "readlink");
	exe[n] = '\0';
	n_groups = getgroups((int)ARRAY_SIZE(groups), groups);
	CHECK(n_groups >= 0, "getgroups");
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK_EQ(json_integer_value(json_object_get(args, "user")), getuid());
	CHECK_EQ(json_integer_value(json_object_get(args, "pid")), getpid());
	CHECK(!strcmp(json_string_value(json_object_get(args, "executable")), exe), "executable");
	g = json_object_get(args, "group");
	CHECK_EQ(json_array_size(g), (size_t)n_groups + 1);
	CHECK_EQ(json_integer_value(json_array_get(g, 0)), getgid());
	for (int i = 0; i < n_groups; i++)
		CHECK_EQ(json_integer_value(json_array_get(g, (size_t)i + 1)), groups[i]);
	/* and its cgroup, which tells its unit, as the 0:: line gives it */
	{
		FILE *f = fopen("/proc/self/cgroup", "re");
		json_t *c = json_object_get(args, "cgroup");
		char line[4096];
		bool found = false;

		CHECK(f, "/proc/self/cgroup: %s", strerror(errno));
		while (!found && fgets(line, sizeof(line), f))
			found = !strncmp(line, "0::/", 4);
		fclose(f);
		line[strcspn(line, "\n")] = '\0';
		if (found)
			CHECK(c && !strcmp(json_string_value(c), line + 3), "cgroup %s, expected %s",
			      c ? json_string_value(c) : "none", line + 3);
		else
			CHECK(!c, "a cgroup sent where /proc/self/cgroup has no cgroup2 line");
	}
	json_decref(req);

	/* allow --pid: the user and executable, as before; no groups */
	CHECK_OK(PARSE(&a, "allow", "dev", "--pid", pid));
	CHECK_OK(ctl_args_resolve_pid(&a));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK_EQ(json_integer_value(json_object_get(args, "user")), getuid());
	CHECK(!json_object_get(args, "group"), "allow sends no groups");
	CHECK(!json_object_get(args, "cgroup"), "allow sends no cgroup");
	json_decref(req);

	/* a name goes to the daemon, which looks it up as it looks up the
	 * policy's names (test_the_daemon_looks_up_the_names_it_is_sent) */
	CHECK_OK(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--group", "0",
		       "--group", "no-such-group-here", "--user", "no-such-user-here"));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK(!strcmp(json_string_value(json_object_get(args, "user")) ?: "", "no-such-user-here"),
	      "the user's name is not sent");
	g = json_object_get(args, "group");
	CHECK_EQ(json_integer_value(json_array_get(g, 0)), 0);
	CHECK(!strcmp(json_string_value(json_array_get(g, 1)) ?: "", "no-such-group-here"),
	      "the group's name is not sent");
	json_decref(req);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--user", ""), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--origin", "driver"), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--origin", "kernel",
		       "--user", "0"), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--origin", "kernel",
		       "--pid", "1"), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--pid", "1",
		       "--group", "0"), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--executable", "sh"), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--id", "3", "--origin", "user",
		       "--origin", "user"), -EINVAL);
	CHECK_EQ(PARSE(&a, "allow", "dev", "--origin", "user"), -EINVAL);	/* explain's */
}

/* The args of REQ, as a string that compares equal when they are. */
static char *request_args(const struct ctl_args *a)
{
	json_t *req = ctl_args_request(a, false);
	char *text = json_dumps(json_object_get(req, "args"), JSON_SORT_KEYS | JSON_COMPACT);

	json_decref(req);
	CHECK(text, "json_dumps");
	return text;
}

/* One question, one syntax: explain names its request with --request as
 * allow and hid-policyd --explain do (the second operand still works, for
 * the scripts written before), takes the device's interface and
 * descriptor hash as hid-policyd --explain does, and allow names a group
 * as a rule's sender does. */
static void test_explain_and_allow_name_a_request_device_and_sender_alike(void)
{
	static const char hash[] = "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF";
	struct ctl_args a;
	char *positional, *named;
	json_t *req, *args, *g;

	CHECK_OK(PARSE(&a, "explain", "dev", "set_report", "--report", "feature", "--id", "0xf4"));
	positional = request_args(&a);
	CHECK_OK(PARSE(&a, "explain", "dev", "--request", "set_report", "--report", "feature", "--id",
		       "0xf4"));
	CHECK(!strcmp(a.request, "set_report"), "request %s", a.request);
	named = request_args(&a);
	CHECK(!strcmp(positional, named), "%s is not %s", named, positional);
	free(positional);
	free(named);
	/* the options may come first, as for allow */
	CHECK_OK(PARSE(&a, "explain", "--request", "output_report", "--id", "2", "dev"));
	CHECK(!strcmp(a.request, "output_report") && !strcmp(a.device, "dev"), "explain args");
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report", "--request", "get_report", "--id", "1"),
		 -EINVAL);	/* twice */
	CHECK_EQ(PARSE(&a, "explain", "dev", "--id", "1"), -EINVAL);	/* none */
	/* the device as hid-policyd --explain takes it, --device */
	CHECK_OK(PARSE(&a, "explain", "--device", "dev", "--request", "set_report", "--report",
		       "feature", "--id", "0xf4"));
	named = request_args(&a);
	CHECK_OK(PARSE(&a, "explain", "--device", "dev", "set_report", "--report", "feature",
		       "--id", "0xf4"));
	positional = request_args(&a);
	CHECK(!strcmp(positional, named), "%s is not %s", named, positional);
	free(named);
	CHECK_OK(PARSE(&a, "explain", "dev", "set_report", "--report", "feature", "--id", "0xf4"));
	named = request_args(&a);
	CHECK(!strcmp(positional, named), "%s is not %s", named, positional);
	free(positional);
	free(named);
	CHECK_EQ(PARSE(&a, "explain", "--device", "dev", "dev2", "set_report", "--id", "1"),
		 -EINVAL);	/* the device twice */
	CHECK_EQ(PARSE(&a, "explain", "--device", "dev", "set_report", "--request", "set_report",
		       "--id", "1"), -EINVAL);	/* the request twice */
	CHECK_EQ(PARSE(&a, "explain", "--request", "set_report", "--id", "1"), -EINVAL);	/* no device */

	CHECK_OK(PARSE(&a, "explain", "dev", "--request", "output_report", "--id", "2",
		       "--interface", "3", "--descriptor-sha256", hash));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK_EQ(json_integer_value(json_object_get(args, "interface")), 3);
	CHECK(!strcmp(json_string_value(json_object_get(args, "descriptor_sha256")), hash), "hash");
	json_decref(req);
	CHECK_OK(PARSE(&a, "explain", "dev", "--request", "output_report", "--id", "2"));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	CHECK(!json_object_get(args, "interface") && !json_object_get(args, "descriptor_sha256"),
	      "not given, not sent");
	json_decref(req);
	CHECK_EQ(PARSE(&a, "explain", "dev", "--request", "output_report", "--id", "2",
		       "--interface", "256"), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "--request", "output_report", "--id", "2",
		       "--descriptor-sha256", "0011"), -EINVAL);
	CHECK_EQ(PARSE(&a, "allow", "dev", "--interface", "3"), -EINVAL);	/* explain's */

	CHECK_OK(PARSE(&a, "allow", "dev", "--group", "root", "--group", "100", "--request",
		       "set_report"));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	g = json_object_get(args, "group");
	CHECK_EQ(json_array_size(g), 2);
	CHECK_EQ(json_integer_value(json_array_get(g, 0)), 0);
	CHECK_EQ(json_integer_value(json_array_get(g, 1)), 100);
	json_decref(req);
	CHECK_EQ(PARSE(&a, "allow", "dev", "--group", "1", "--group", "2", "--group", "3",
		       "--group", "4", "--group", "5"), -EINVAL);	/* a rule lists 4 */
	CHECK_EQ(PARSE(&a, "allow", "dev", "--group", "1", "--pid", "1"), -EINVAL);
}

/* What the daemon reads of those args: the device's interface and
 * descriptor hash replaced for explain, the groups of an allow. */
static void test_the_daemon_reads_the_device_and_group_args_as_sent(void)
{
	json_t *args = json_pack("{s:i, s:s}", "interface", 3, "descriptor_sha256",
				 "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
	struct policy_device pdev = { .bus = 3, .vendor = 0x1234, .product = 0x5678 };
	struct hid_rule_sender s = {};
	uint32_t usages[POLICY_USAGE_LIST_MAX];
	uint8_t hash[POLICY_SHA256_BYTES];
	pid_t pid = 0;
	char err[256] = "";

	CHECK_OK(command_args_device(args, &pdev, usages, hash, err, sizeof(err)));
	CHECK(pdev.has_interface && pdev.interface == 3, "interface");
	CHECK(pdev.descriptor_known && pdev.descriptor_sha256 == hash, "hash");
	CHECK_EQ(hash[1], 0x11);
	CHECK_EQ(hash[31], 0xff);
	json_decref(args);

	args = json_pack("{s:i}", "interface", 256);
	CHECK_EQ(command_args_device(args, &pdev, usages, hash, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "\"interface\" must be a USB interface number"), "%s", err);
	json_decref(args);
	args = json_pack("{s:s}", "descriptor_sha256", "0011");
	CHECK_EQ(command_args_device(args, &pdev, usages, hash, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "\"descriptor_sha256\" must be 64 hex digits"), "%s", err);
	json_decref(args);

	args = json_pack("{s:i, s:[i, i]}", "user", 1000, "group", 27, 100);
	CHECK_OK(command_args_allow_ids(args, &s, &pid, err, sizeof(err)));
	CHECK_EQ(s.fields, HID_SENDER_F_USER | HID_SENDER_F_GROUP);
	CHECK_EQ(s.n_uids, 1);
	CHECK_EQ(s.uids[0], 1000);
	CHECK_EQ(s.n_gids, 2);
	CHECK_EQ(s.gids[0], 27);
	CHECK_EQ(s.gids[1], 100);
	CHECK_EQ(pid, 0);
	json_decref(args);
	s = (struct hid_rule_sender){};
	args = json_pack("{s:[i, i, i, i, i]}", "group", 1, 2, 3, 4, 5);
	CHECK_EQ(command_args_allow_ids(args, &s, &pid, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "\"group\" must list 1 to 4 gids"), "%s", err);
	json_decref(args);
	args = json_pack("{s:[]}", "group");
	CHECK_EQ(command_args_allow_ids(args, &s, &pid, err, sizeof(err)), -EINVAL);
	json_decref(args);
}

/* The names hid-policyctl sends are looked up before the command reads
 * its args (name_lookup.h, test-name-lookup): it reads ids, and a name
 * that reached it would be read as nothing else. */
static void test_the_command_reads_ids_the_names_became(void)
{
	json_t *args = json_pack("{s:i, s:[i, i]}", "user", 0, "group", 0, 100);
	struct hid_rule_sender s = {};
	uint32_t id = 7;
	pid_t pid = 0;
	char err[256] = "";

	CHECK_OK(command_args_allow_ids(args, &s, &pid, err, sizeof(err)));
	CHECK_EQ(s.uids[0], 0);
	CHECK_EQ(s.gids[0], 0);
	CHECK_EQ(s.gids[1], 100);
	json_decref(args);
	args = json_string("root");
	CHECK_EQ(command_args_id(args, false, &id, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "\"user\" must be user ids or names"), "%s", err);
	CHECK_EQ(id, 7);
	json_decref(args);
	args = json_real(1.5);
	CHECK_EQ(command_args_id(args, true, &id, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "\"group\" must be group ids or names"), "%s", err);
	json_decref(args);
}

/* hid-policyctl explain --hidpp-feature: the answers go as they are
 * written, and the daemon reads them in place of what the device told. */
static void test_explain_forwards_the_hidpp_answers_the_daemon_compiles_with(void)
{
	static const struct hidpp_features learned = { .answered = 1u << 2 };
	struct policy_device pdev = { .bus = 3, .vendor = 0x046d, .product = 0xc548, .hidpp = &learned };
	struct hidpp_features t;
	struct ctl_args a;
	char err[256] = "";
	json_t *req, *args, *h;

	CHECK_OK(PARSE(&a, "explain", "hidraw3", "output_report", "--id", "0x11",
		       "--hidpp-feature", "2:00d0=0e", "--hidpp-feature", "ff:d1=0"));
	req = ctl_args_request(&a, false);
	args = json_object_get(req, "args");
	h = json_object_get(args, "hidpp_feature");
	CHECK_EQ(json_array_size(h), 2);
	CHECK(!strcmp(json_string_value(json_array_get(h, 0)), "2:00d0=0e"), "first answer");
	CHECK_EQ(PARSE(&a, "allow", "hidraw3", "--hidpp-feature", "2:00d0=0e"), -EINVAL);

	CHECK_OK(command_args_hidpp(args, &pdev, &t, err, sizeof(err)));
	CHECK(pdev.hidpp == &t, "the answers replace the learned table");
	CHECK_EQ(t.answered, 1u << 0 | 1u << 2);
	CHECK_EQ(t.n, 2);
	CHECK_EQ(t.entries[0].device, 2);
	CHECK_EQ(t.entries[0].feature, 0x00d0);
	CHECK_EQ(t.entries[0].index, 0x0e);
	json_decref(req);

	args = json_pack("{s:[s]}", "hidpp_feature", "7:00d0=0e");
	CHECK_EQ(command_args_hidpp(args, &pdev, &t, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "hidpp_feature \"7:00d0=0e\": expected DEVICE_INDEX:FEATURE=INDEX"), "%s", err);
	json_decref(args);
	/* none given: what the device told stays */
	pdev.hidpp = &learned;
	args = json_object();
	CHECK_OK(command_args_hidpp(args, &pdev, &t, err, sizeof(err)));
	CHECK(pdev.hidpp == &learned, "kept");
	json_decref(args);
}

/* An allow for groups is shown as the members of any of them. */
static void test_an_allow_for_groups_is_shown_with_them(void)
{
	struct exception e = { .id = 7, .sysname = "0003:1234:5678.0001", .kinds = HID_RULE_KIND_SET_FEATURE,
			       .duration_s = 60,
			       .sender = { .fields = HID_SENDER_F_GROUP, .gids = { 27, 100 }, .n_gids = 2 } };
	json_t *v = view_exception(&e), *status;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(v, "view");
	CHECK_EQ(json_array_size(json_path(v, "for.gids")), 2);
	CHECK_EQ(json_integer_value(json_array_get(json_path(v, "for.gids"), 1)), 100);
	status = json_pack("{s:{s:s, s:I, s:b, s:s, s:i}, s:[o]}", "daemon", "version", "t", "pid",
			   (json_int_t)1, "sandbox", 0, "authorization", "root-only", "clients", 0,
			   "exceptions", v);
	CHECK(status, "status");
	f = open_memstream(&text, &len);
	CHECK(f, "open_memstream");
	ctl_print_result(f, "status", status);
	CHECK_OK(fclose(f));
	CHECK(strstr(text, ", only from in group 27 or 100;"), "%s", text);
	free(text);
	json_decref(status);
}

/* The <message> of ACTION in the shipped actions file, with $(key)
 * expanded from D as polkitd expands it (a key D lacks stays as written,
 * as polkitd leaves it). */
static char *shipped_message(const char *action, const struct authz_details *d)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	char path[512], want[160], *text = NULL, *at, *end, *out;
	size_t size = 0, len = 0;
	FILE *f, *o;

	snprintf(path, sizeof(path), "%s/policyd/data/org.hid-policy.policy", src);
	f = fopen(path, "re");
	CHECK(f, "%s: %s", path, strerror(errno));
	CHECK(getdelim(&text, &size, '\0', f) > 0, "%s: empty", path);
	fclose(f);
	snprintf(want, sizeof(want), "<action id=\"%s\">", action);
	at = strstr(text, want);
	CHECK(at && (at = strstr(at, "<message>")), "%s: no message for %s", path, action);
	at += strlen("<message>");
	end = strstr(at, "</message>");
	CHECK(end, "%s: message not closed", path);
	*end = '\0';

	o = open_memstream(&out, &len);
	CHECK(o, "open_memstream");
	while (*at) {
		char key[AUTHZ_DETAIL_KEY_SIZE];
		const char *close = strchr(at, ')'), *value;

		if (strncmp(at, "$(", 2) || !close || (size_t)(close - at - 2) >= sizeof(key)) {
			fputc(*at++, o);
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(close - at - 2), at + 2);
		value = authz_details_get(d, key);
		if (value)
			fputs(value, o);
		else
			fprintf(o, "$(%s)", key);
		at = (char *)close + 1;
	}
	CHECK_OK(fclose(o));
	free(text);
	return out;
}

/* A polkit prompt says what is being approved: an allow's device (as the
 * daemon names it), duration, sender and requests go into the check's
 * details, the shipped message names them all, and a rule can read each
 * as given. What a device or client chose cannot rewrite the prompt. */
static void test_an_allow_s_polkit_prompt_names_its_device_duration_sender_and_requests(void)
{
	json_t *args = json_pack("{s:s, s:i, s:s, s:s, s:i, s:s}", "device", "0003:054C:0CE6.0001",
				 "duration_s", 900, "request", "set_report", "report", "feature",
				 "id", 0xf4, "unit", "fwupd.service");
	struct authz_details d;
	char err[256] = "";
	char *msg;

	CHECK_OK(authz_details_for("allow", args, "\"DualSense Wireless Controller\" (0003:054C:0CE6.0001)",
				   &d, err, sizeof(err)));
	CHECK(!strcmp(authz_details_get(&d, "device"),
		      "\"DualSense Wireless Controller\" (0003:054C:0CE6.0001)"), "device");
	CHECK(!strcmp(authz_details_get(&d, "duration"), "15 minutes"), "%s",
	      authz_details_get(&d, "duration"));
	CHECK(!strcmp(authz_details_get(&d, "sender"), "processes of unit fwupd.service"), "%s",
	      authz_details_get(&d, "sender"));
	CHECK(!strcmp(authz_details_get(&d, "requests"),
		      "set_report feature requests with report ID 0xf4"), "%s",
	      authz_details_get(&d, "requests"));
	/* as given, for polkit rules */
	CHECK(!strcmp(authz_details_get(&d, "unit"), "fwupd.service"), "unit");
	CHECK(!strcmp(authz_details_get(&d, "duration_s"), "900"), "duration_s");
	CHECK(!strcmp(authz_details_get(&d, "sysfs"), "0003:054C:0CE6.0001"), "sysfs");
	CHECK(!authz_details_get(&d, "uid") && !authz_details_get(&d, "polkit.message"), "extra");
	msg = shipped_message(HID_POLICY_ACTION_ALLOW, &d);
	CHECK(!strcmp(msg, "Authentication is required to let set_report feature requests with report ID 0xf4 from processes of unit fwupd.service reach \"DualSense Wireless Controller\" (0003:054C:0CE6.0001) for 15 minutes, past the HID firewall's rules"),
	      "%s", msg);
	free(msg);
	json_decref(args);

	/* --pid grants its user and executable, and the prompt says so;
	 * the defaults: 10 minutes, every request but input */
	args = json_pack("{s:s, s:i, s:[i, i], s:s, s:i}", "device", "7", "user", 1000, "group", 27,
			 100, "executable", "/usr/bin/fwupdtool", "pid", 4242);
	CHECK_OK(authz_details_for("allow", args, NULL, &d, err, sizeof(err)));
	CHECK(!strcmp(authz_details_get(&d, "device"), "7"), "the device as given");
	CHECK(!strcmp(authz_details_get(&d, "duration"), "10 minutes"), "%s",
	      authz_details_get(&d, "duration"));
	CHECK(!strcmp(authz_details_get(&d, "sender"), "processes of uid 1000 in group 27 or 100 running /usr/bin/fwupdtool (as process 4242 is: every such process, not that one alone)"),
	      "%s", authz_details_get(&d, "sender"));
	CHECK(!strcmp(authz_details_get(&d, "requests"),
		      "requests of every kind but input, with any report ID"),
	      "%s", authz_details_get(&d, "requests"));
	CHECK(!strcmp(authz_details_get(&d, "gids"), "27,100"), "gids");
	CHECK(!strcmp(authz_details_get(&d, "pid"), "4242"), "pid");
	json_decref(args);
	args = json_pack("{s:s, s:i}", "device", "7", "duration_s", 5400);
	CHECK_OK(authz_details_for("allow", args, NULL, &d, err, sizeof(err)));
	CHECK(!strcmp(authz_details_get(&d, "duration"), "1 hour 30 minutes"), "%s",
	      authz_details_get(&d, "duration"));
	CHECK(!strcmp(authz_details_get(&d, "sender"), "any process"), "anyone");
	json_decref(args);
	args = json_pack("{s:s, s:s, s:i}", "device", "7", "request", "get_report", "id", 3);
	CHECK_OK(authz_details_for("allow", args, NULL, &d, err, sizeof(err)));
	CHECK(!strcmp(authz_details_get(&d, "requests"),
		      "get_report feature, get_report input, get_report output requests with report ID 0x03"),
	      "%s", authz_details_get(&d, "requests"));
	json_decref(args);

	/* a device's name with an escape sequence, a C1 control and bytes
	 * that are not UTF-8: every one a '?', the UTF-8 kept */
	args = json_pack("{s:s}", "device", "7");
	CHECK_OK(authz_details_for("allow", args, "\"Pad\x1b[2J\xc2\x9b\xff caf\xc3\xa9\" (7)", &d, err,
				   sizeof(err)));
	CHECK(!strcmp(authz_details_get(&d, "device"), "\"Pad?[2J??? caf\xc3\xa9\" (7)"), "%s",
	      authz_details_get(&d, "device"));
	json_decref(args);

	/* what the allow would refuse is refused before anyone is asked */
	args = json_pack("{s:s, s:i}", "device", "7", "duration_s", 0);
	CHECK_EQ(authz_details_for("allow", args, NULL, &d, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "\"duration_s\" must be 1..86400 seconds"), "%s", err);
	json_decref(args);

	/* revoke says what it ends, in a message of its own */
	args = json_pack("{s:s}", "device", "7");
	CHECK_OK(authz_details_for("revoke", args, "\"Pad\" (7)", &d, err, sizeof(err)));
	CHECK(strstr(authz_details_get(&d, "polkit.message"), "$(device)"), "revoke's message");
	CHECK(!strcmp(authz_details_get(&d, "device"), "\"Pad\" (7)"), "device");
	json_decref(args);
	/* and the other commands carry none */
	CHECK_OK(authz_details_for("reload", NULL, NULL, &d, err, sizeof(err)));
	CHECK_EQ(d.n, 0);
}

static void test_bad_command_lines_are_usage_errors(void)
{
	struct ctl_args a;

	CHECK_EQ(PARSE(&a, "frobnicate"), -EINVAL);
	CHECK_EQ(PARSE(&a, "--json"), -EINVAL);			/* no command */
	CHECK_EQ(PARSE(&a, "rules"), -EINVAL);			/* DEVICE missing */
	CHECK_EQ(PARSE(&a, "status", "extra"), -EINVAL);
	CHECK_EQ(PARSE(&a, "status", "--follow"), -EINVAL);	/* log's option */
	CHECK_EQ(PARSE(&a, "allow", "dev", "--for", "25h"), -EINVAL);
	CHECK_EQ(PARSE(&a, "allow", "dev", "--for", "soon"), -EINVAL);
	CHECK_EQ(PARSE(&a, "allow", "dev", "--id", "256"), -EINVAL);
	CHECK_EQ(PARSE(&a, "allow", "dev", "--id", "-1"), -EINVAL);
	CHECK_EQ(PARSE(&a, "allow", "dev", "--report", "feature"), -EINVAL); /* no --request */
	CHECK_EQ(PARSE(&a, "allow", "dev", "--for", "1m", "--for", "2m"), -EINVAL);
	CHECK_EQ(PARSE(&a, "explain", "dev", "set_report"), -EINVAL);	/* no --id */
	CHECK_EQ(PARSE(&a, "log", "--action", "erase"), -EINVAL);
	CHECK_EQ(PARSE(&a, "log", "--since", "whenever"), -EINVAL);
	CHECK_EQ(PARSE(&a, "revoke"), -EINVAL);
	CHECK_EQ(PARSE(&a, "revoke", "dev", "--exception", "2"), -EINVAL);
	CHECK_EQ(PARSE(&a, "revoke", "--exception", "0"), -EINVAL);
}

static void test_log_filter_passes_exactly_the_matching_records(void)
{
	json_t *deny = json_pack("{s:s, s:s, s:s, s:{s:i, s:s}}", "time", "2026-12-03T09:00:00.500Z",
				 "event", "decision", "action", "deny", "device", "hid_id", 12,
				 "sysfs", "0003:1234:5678.000C");
	json_t *grant = json_pack("{s:s, s:s, s:{s:i, s:s}}", "time", "2026-12-03T09:00:01.000Z",
				  "event", "exception_granted", "device", "hid_id", 12,
				  "sysfs", "0003:1234:5678.000C");
	json_t *args;
	struct log_filter f;
	char err[128];

	args = json_pack("{}");
	CHECK_OK(log_filter_from_args(args, &f, err, sizeof(err)));
	CHECK(log_filter_match(&f, deny) && log_filter_match(&f, grant), "no filter passes all");
	json_decref(args);

	args = json_pack("{s:s}", "device", "0003:1234:5678.000C");
	CHECK_OK(log_filter_from_args(args, &f, err, sizeof(err)));
	CHECK(log_filter_match(&f, deny) && log_filter_match(&f, grant), "by sysfs name");
	json_decref(args);
	args = json_pack("{s:s}", "device", "12");
	CHECK_OK(log_filter_from_args(args, &f, err, sizeof(err)));
	CHECK(log_filter_match(&f, deny), "by hid_id");
	json_decref(args);
	args = json_pack("{s:s}", "device", "1");
	CHECK_OK(log_filter_from_args(args, &f, err, sizeof(err)));
	CHECK(!log_filter_match(&f, deny), "hid_id 1 is not 12");
	json_decref(args);

	args = json_pack("{s:s}", "since", "2026-12-03T09:00:01.000Z");
	CHECK_OK(log_filter_from_args(args, &f, err, sizeof(err)));
	CHECK(!log_filter_match(&f, deny) && log_filter_match(&f, grant), "since is inclusive");
	json_decref(args);

	args = json_pack("{s:s}", "action", "deny");
	CHECK_OK(log_filter_from_args(args, &f, err, sizeof(err)));
	CHECK(log_filter_match(&f, deny) && !log_filter_match(&f, grant), "action: decisions only");
	json_decref(args);

	args = json_pack("{s:s}", "action", "erase");
	CHECK_EQ(log_filter_from_args(args, &f, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "erase"), "message: %s", err);
	json_decref(args);
	args = json_pack("{s:i}", "device", 3);
	CHECK_EQ(log_filter_from_args(args, &f, err, sizeof(err)), -EINVAL);
	json_decref(args);

	json_decref(deny);
	json_decref(grant);
}

/* Does the filter {"device": DEVICE} pass REC? -1: the filter is refused. */
static int device_filter(const char *device, json_t *rec)
{
	json_t *args = json_pack("{s:s}", "device", device);
	struct log_filter f;
	char err[256];
	int r = log_filter_from_args(args, &f, err, sizeof(err));

	json_decref(args);
	if (r < 0) {
		CHECK(strstr(err, device) && strstr(err, "BUS:VID:PID"), "message: %s", err);
		return -1;
	}
	return log_filter_match(&f, rec);
}

static void test_a_device_is_named_in_every_form_the_policy_knows_and_others_are_errors(void)
{
	json_t *rec = json_pack("{s:s, s:s, s:s, s:{s:i, s:s, s:s, s:s, s:s}}",
				"time", "2026-12-03T09:00:00.500Z", "event", "decision", "action", "deny",
				"device", "hid_id", 12, "sysfs", "0003:054C:0CE6.000C", "bus", "usb",
				"vendor", "054c", "product", "0ce6");
	json_t *unplugged = json_pack("{s:s, s:s, s:{s:i, s:s}}", "time", "2026-12-03T09:00:00.500Z",
				      "event", "exception_ended", "device", "hid_id", 13,
				      "sysfs", "0005:054C:0CE6.000D");

	/* the model, by bus name or number, any case and leading zeros */
	CHECK_EQ(device_filter("usb:054c:0ce6", rec), 1);
	CHECK_EQ(device_filter("usb:54C:CE6", rec), 1);
	CHECK_EQ(device_filter("0003:054c:0ce6", rec), 1);
	CHECK_EQ(device_filter("bluetooth:054c:0ce6", rec), 0);
	CHECK_EQ(device_filter("usb:054c:0ce7", rec), 0);
	/* a record without bus, vendor and product: by the sysfs name's bus */
	CHECK_EQ(device_filter("0005:054c:0ce6", unplugged), 0);
	/* the sysfs name, in either case; the hid_id */
	CHECK_EQ(device_filter("0003:054c:0ce6.000c", rec), 1);
	CHECK_EQ(device_filter("12", rec), 1);
	/* what is none of them: an error, not a filter that matches nothing */
	CHECK_EQ(device_filter("usb:054c", rec), -1);
	CHECK_EQ(device_filter("usb:054c:0ce6:1", rec), -1);
	CHECK_EQ(device_filter("usb:12345:0ce6", rec), -1);
	CHECK_EQ(device_filter("usb:xyz:0ce6", rec), -1);
	CHECK_EQ(device_filter("USB:054c:0ce6", rec), -1);
	CHECK_EQ(device_filter("hidraw3", rec), -1);
	CHECK_EQ(device_filter("DualSense", rec), -1);
	CHECK_EQ(device_filter("-1", rec), -1);
	json_decref(rec);
	json_decref(unplugged);
}

static void test_log_and_report_command_lines(void)
{
	struct ctl_args a;
	json_t *req;

	/* log --lines, --utc; a device form the log cannot know is a usage error */
	CHECK_OK(PARSE(&a, "log", "--follow", "--lines", "20", "--utc", "--device", "usb:054c:0ce6"));
	CHECK(a.follow && a.lines == 20 && a.utc, "log options");
	req = ctl_args_request(&a, false);
	CHECK_EQ(json_path_int(req, "args.lines"), 20);
	CHECK(!strcmp(json_path_str(req, "args.device"), "usb:054c:0ce6"), "device");
	json_decref(req);
	CHECK_EQ(PARSE(&a, "log", "--device", "DualSense"), -EINVAL);
	CHECK_EQ(PARSE(&a, "log", "--lines", "-1"), -EINVAL);
	CHECK_OK(PARSE(&a, "log", "--device", "/dev/hidraw3"));	/* resolved by main */
	/* report: the log's denials, since a time */
	CHECK_OK(PARSE(&a, "--json", "report", "--since", "7d"));
	req = ctl_args_request(&a, false);
	CHECK(!strcmp(json_path_str(req, "command"), "log"), "report asks for the log");
	CHECK(!strcmp(json_path_str(req, "args.action"), "deny"), "report counts denials");
	CHECK(!strcmp(json_path_str(req, "args.since"), "2026-11-26T10:00:00.000Z"), "since %s",
	      json_path_str(req, "args.since"));
	json_decref(req);
	CHECK_EQ(PARSE(&a, "report", "--follow"), -EINVAL);
	CHECK_EQ(PARSE(&a, "report", "--action", "allow"), -EINVAL);
}

static void test_times_are_shown_in_local_time_unless_utc_and_requests_in_policy_terms(void)
{
	json_t *out = json_pack("{s:s, s:s, s:s, s:i}", "request", "output", "report_type", "output",
				"time", "2026-12-03T06:29:40.123Z", "report_id", 16);
	json_t *set = json_pack("{s:s, s:s, s:i}", "request", "set_report", "report_type", "feature",
				"report_id", 0xf4);
	char buf[64];

	setenv("TZ", "CET-1", 1);	/* UTC+1, no DST rules */
	tzset();
	CHECK(!strcmp(ctl_output_time("2026-12-03T06:29:40.123Z", false, buf, sizeof(buf)),
		      "2026-12-03 07:29:40.123"), "local: %s", buf);
	CHECK(!strcmp(ctl_output_time("2026-12-03T06:29:40.123Z", true, buf, sizeof(buf)),
		      "2026-12-03T06:29:40.123Z"), "utc: %s", buf);
	CHECK(!strcmp(ctl_output_time("garbage", false, buf, sizeof(buf)), "garbage"), "%s", buf);
	CHECK(!strcmp(ctl_output_zone(false, buf, sizeof(buf)), "CET"), "zone %s", buf);
	/* older records said "output"; both read as the policy does */
	ctl_output_request(out, buf, sizeof(buf));
	CHECK(!strcmp(buf, "output_report 0x10"), "%s", buf);
	json_object_set_new(out, "request", json_string("output_report"));
	ctl_output_request(out, buf, sizeof(buf));
	CHECK(!strcmp(buf, "output_report 0x10"), "%s", buf);
	ctl_output_request(set, buf, sizeof(buf));
	CHECK(!strcmp(buf, "set_report feature 0xf4"), "%s", buf);
	json_decref(out);
	json_decref(set);
}

static void test_exceptions_come_before_the_rules_and_never_overflow(void)
{
	struct exception_table t = {};
	struct hid_device_rules *rules = calloc(1, sizeof(*rules));
	struct exception e = { .hid_id = 5, .kinds = HID_RULE_KIND_SET_FEATURE };
	uint32_t id1, id2, got;

	CHECK(rules, "calloc");
	e.report_ids[0xf4 >> 5] = 1u << (0xf4 & 31);
	rules->n_rules = 2;
	rules->rules[0].index = 0;
	rules->rules[0].action = HID_RULE_DENY;
	rules->rules[1].index = 1;

	CHECK_OK(exception_add(&t, &e, &id1));
	e.hid_id = 6;
	CHECK_OK(exception_add(&t, &e, &id2));
	CHECK(id2 > id1, "ids grow");
	CHECK_OK(exception_prepend(&t, 5, rules));
	CHECK_EQ(rules->n_rules, 3);
	CHECK(exception_index(rules->rules[0].index, &got) && got == id1, "exception first");
	CHECK_EQ(rules->rules[0].action, HID_RULE_ALLOW);
	CHECK(rules->rules[0].flags & HID_RULE_F_LOG, "uses are logged");
	CHECK(hid_rule_has_report_id(&rules->rules[0], 0xf4) && !hid_rule_has_report_id(&rules->rules[0], 3),
	      "report IDs narrowed");
	CHECK_EQ(rules->rules[1].index, 0);
	CHECK_EQ(rules->rules[1].action, HID_RULE_DENY);
	CHECK_EQ(rules->rules[2].index, 1);
	CHECK(!exception_index(HID_RULE_INDEX_DEFAULT, &got), "the default is no exception");
	CHECK(!exception_index(7, &got), "rule 7 is no exception");

	/* A full table takes no exception, and is left as it was. */
	rules->n_rules = HID_RULES_MAX_RULES;
	CHECK_EQ(exception_prepend(&t, 5, rules), -E2BIG);
	CHECK_EQ(rules->n_rules, HID_RULES_MAX_RULES);

	/* Per-device and total bounds. */
	e.hid_id = 9;
	for (int i = 0; i < EXCEPTIONS_PER_DEVICE_MAX; i++)
		CHECK_OK(exception_add(&t, &e, &got));
	CHECK_EQ(exception_add(&t, &e, &got), -ENOSPC);

	exception_remove(&t, exception_find(&t, id1));
	CHECK(!exception_find(&t, id1) && exception_find(&t, id2), "removed the right one");
	exception_table_done(&t);
	free(rules);
}

static void test_expiry_is_the_earliest_and_zero_when_empty(void)
{
	struct exception_table t = {};
	struct exception e = { .hid_id = 1, .expires_ms = 5000 };
	uint32_t id;

	CHECK_EQ(exception_next_expiry(&t), 0);
	CHECK_OK(exception_add(&t, &e, &id));
	e.expires_ms = 2000;
	CHECK_OK(exception_add(&t, &e, &id));
	CHECK_EQ(exception_next_expiry(&t), 2000);
	exception_remove(&t, exception_find(&t, id));
	CHECK_EQ(exception_next_expiry(&t), 5000);
	exception_table_done(&t);
}

/* Is every byte of TEXT printable, newlines only where NEWLINES allows
 * (anywhere, or only at the end)? No C0, DEL or C1 control gets through. */
static void check_terminal_safe(const char *text, bool newlines)
{
	const unsigned char *s = (const unsigned char *)text;

	for (size_t i = 0; s[i]; i++) {
		bool last = s[i + 1] == '\0';

		CHECK(s[i] >= 0x20 || (s[i] == '\n' && (newlines || last)),
		      "byte %zu is %#x in: %s", i, s[i], text);
		CHECK(s[i] != 0x7f, "DEL at byte %zu", i);
		CHECK(!(s[i] == 0xc2 && s[i + 1] >= 0x80 && s[i + 1] <= 0x9f), "C1 control at byte %zu", i);
	}
}

static char *print_record(json_t *rec)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f, "open_memstream");
	ctl_print_log_record(f, rec, true);
	CHECK_OK(fclose(f));
	return text;
}

static void test_log_rows_show_chosen_names_without_terminal_controls(void)
{
	/* A program names itself: a title-setting escape, a newline that
	 * would forge a second row, a C1 CSI. */
	static const char comm[] = "\x1b]0;owned\x07\nFAKE\xc2\x9b" "2J\x7f";
	static const char shown[] = "\\x1b]0;owned\\x07\\x0aFAKE\\xc2\\x9b2J\\x7f";
	json_t *rec = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:b, s:{s:s}, s:{s:i, s:s, s:i}, s:{s:s}}",
				"time", "2026-12-03T10:00:00.000Z", "event", "decision",
				"action", "deny", "request", "set_report", "report_type", "feature",
				"report_id", 0xf0, "enforced", 1, "device", "sysfs", "0003:1234:5678.0001",
				"process", "pid", 42, "comm", comm, "uid", 1000, "rule", "name", "r\x1b[2J");
	json_t *grant = json_pack("{s:s, s:s, s:{s:s}, s:{s:i, s:i}, s:{s:i, s:s, s:i}}",
				  "time", "2026-12-03T10:00:00.000Z", "event", "exception_granted",
				  "device", "sysfs", "0003:1234:5678.0001\n", "exception", "id", 1,
				  "duration_s", 60, "granted_by", "uid", 0, "comm", comm, "pid", 7);
	json_t *other = json_pack("{s:s, s:s, s:s}", "time", "2026-12-03T10:00:00.000Z",
				  "event", "something_new", "note", "\xc2\x9b" "2J");
	char *text;

	CHECK(rec && grant && other, "json_pack");
	text = print_record(rec);
	check_terminal_safe(text, false);
	CHECK(strstr(text, shown), "the name is not shown escaped: %s", text);
	CHECK(strstr(text, "rule r\\x1b[2J"), "the rule name: %s", text);
	free(text);

	text = print_record(grant);
	check_terminal_safe(text, false);
	CHECK(strstr(text, shown) && strstr(text, "0003:1234:5678.0001\\x0a"), "%s", text);
	free(text);

	text = print_record(other);
	check_terminal_safe(text, false);
	free(text);
	json_decref(rec);
	json_decref(grant);
	json_decref(other);
}

static void test_results_keep_their_lines_and_lose_terminal_controls(void)
{
	json_t *explain = json_pack("{s:s}", "text", "device \"pad\x1b[8m\"\ndecision: deny\n");
	json_t *devices = json_pack("{s:[{s:s, s:s, s:s, s:s, s:s, s:b, s:s, s:b, s:[], s:s, s:[s]}]}", "devices",
				    "sysfs", "0003:1234:5678.0001", "bus", "usb", "vendor", "1234",
				    "product", "5678", "name", "pad\x1b]52;c;ZWNobyBoaQ==\x07",
				    "protected", 1, "mode", "enforce", "attached", 1, "rule_sets",
				    "uniq", "SN\x1b[2J", "usages", "game_pad");
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(explain && devices, "json_pack");
	f = open_memstream(&text, &len);
	CHECK(f, "open_memstream");
	ctl_print_result(f, "explain", explain);
	CHECK_OK(fclose(f));
	check_terminal_safe(text, true);
	CHECK(!strcmp(text, "device \"pad\\x1b[8m\"\ndecision: deny\n"), "explain: %s", text);
	free(text);

	f = open_memstream(&text, &len);
	CHECK(f, "open_memstream");
	ctl_print_result(f, "devices", devices);
	CHECK_OK(fclose(f));
	check_terminal_safe(text, true);
	CHECK(strstr(text, "\"pad\\x1b]52;c;ZWNobyBoaQ==\\x07\""), "devices: %s", text);
	CHECK(strstr(text, "\n                       usages: game_pad; serial \"SN\\x1b[2J\"\n"), "devices: %s", text);
	/* a header, the device's row and its class's */
	CHECK_EQ(strchr(strchr(strchr(text, '\n') + 1, '\n') + 1, '\n') - text + 1, (long)strlen(text));
	free(text);
	json_decref(explain);
	json_decref(devices);
}

static const struct test_case tests[] = {
	{ "the_command_reads_ids_the_names_became", test_the_command_reads_ids_the_names_became },
	{ "durations_parse_with_units_and_stay_in_range",
	  test_durations_parse_with_units_and_stay_in_range },
	{ "since_values_become_utc_audit_log_times", test_since_values_become_utc_audit_log_times },
	{ "command_lines_become_the_documented_requests",
	  test_command_lines_become_the_documented_requests },
	{ "explain_names_its_sender_as_the_firewall_reads_it",
	  test_explain_names_its_sender_as_the_firewall_reads_it },
	{ "explain_and_allow_name_a_request_device_and_sender_alike",
	  test_explain_and_allow_name_a_request_device_and_sender_alike },
	{ "the_daemon_reads_the_device_and_group_args_as_sent",
	  test_the_daemon_reads_the_device_and_group_args_as_sent },
	{ "explain_forwards_the_hidpp_answers_the_daemon_compiles_with",
	  test_explain_forwards_the_hidpp_answers_the_daemon_compiles_with },
	{ "an_allow_for_groups_is_shown_with_them", test_an_allow_for_groups_is_shown_with_them },
	{ "an_allow_s_polkit_prompt_names_its_device_duration_sender_and_requests",
	  test_an_allow_s_polkit_prompt_names_its_device_duration_sender_and_requests },
	{ "bad_command_lines_are_usage_errors", test_bad_command_lines_are_usage_errors },
	{ "log_filter_passes_exactly_the_matching_records",
	  test_log_filter_passes_exactly_the_matching_records },
	{ "a_device_is_named_in_every_form_the_policy_knows_and_others_are_errors",
	  test_a_device_is_named_in_every_form_the_policy_knows_and_others_are_errors },
	{ "log_and_report_command_lines", test_log_and_report_command_lines },
	{ "times_are_shown_in_local_time_unless_utc_and_requests_in_policy_terms",
	  test_times_are_shown_in_local_time_unless_utc_and_requests_in_policy_terms },
	{ "exceptions_come_before_the_rules_and_never_overflow",
	  test_exceptions_come_before_the_rules_and_never_overflow },
	{ "expiry_is_the_earliest_and_zero_when_empty", test_expiry_is_the_earliest_and_zero_when_empty },
	{ "log_rows_show_chosen_names_without_terminal_controls",
	  test_log_rows_show_chosen_names_without_terminal_controls },
	{ "results_keep_their_lines_and_lose_terminal_controls",
	  test_results_keep_their_lines_and_lose_terminal_controls },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "unit-control", tests, ARRAY_SIZE(tests));
}
