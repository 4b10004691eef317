// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: hid-policyctl, run as root and as tests/lib/polkit_env's test
 * users (their own uid, gid and groups), against hid-policyd authorizing
 * every request with a real polkitd on a private system bus: hid-policy's
 * actions file and shipped rules, plus the test rules below. Each check
 * looks at what hid-policyctl printed and exited with, and at the other
 * end: the device, the audit log, the daemon's state.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "json_path.h"
#include "policyd_case.h"
#include "policyd_run.h"
#include "polkit_env.h"
#include "uhid_dev.h"

#define TEST_VENDOR 0x1234
#define TEST_PRODUCT 0x7a01
#define OTHER_PRODUCT 0x7a02
#define FIRMWARE_ID 0xf0	/* the refused "firmware update" feature report */
#define LOGGED_ID 3		/* an allowed feature report the policy logs */

#define ROOT_UID 0
#define EXIT_DENIED 3		/* hid-policyctl(1), EXIT STATUS */

/* Both products: a firmware update refused, feature 3 allowed and logged. */
static const char test_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"polkit-test-pad\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": [\"0x7a01\", \"0x7a02\"] },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-firmware-update\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": \"0xf0\", \"action\": \"deny\" },\n"
	"      { \"name\": \"log-feature-3\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": 3, \"action\": \"allow\", \"log\": true }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

/* The same device without its firmware rule: what a reload would bring. */
static const char open_policy[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"devices\": [ {\n"
	"    \"name\": \"polkit-test-pad\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": [\"0x7a01\", \"0x7a02\"] },\n"
	"    \"mode\": \"enforce\",\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"log-feature-3\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": 3, \"action\": \"allow\", \"log\": true }\n"
	"    ]\n"
	"  } ]\n"
	"}\n";

/*
 * hp-admin may reload and allow (and is the administrator polkit asks for
 * when auth_admin applies); hp-banned may do nothing. hp-user and
 * hp-auditor get the shipped defaults and rule (group adm reads the log).
 */
static const char test_rules[] =
	"polkit.addAdminRule(function(action, subject) {\n"
	"    return [\"unix-user:" POLKIT_ENV_ADMIN "\"];\n"
	"});\n"
	POLKIT_ENV_TEST_RULES;

struct fixture {
	struct polkit_env polkit;
	struct policyd_run run;
	struct uhid_dev dev[2];
	int fd[2];
	size_t n_devs;
};

/*
 * polkit first (it unshares the mount namespace, which needs a process
 * without threads; uhid devices start one each), then N_DEVS devices
 * (products TEST_PRODUCT, OTHER_PRODUCT) with their hidraw nodes open,
 * then the daemon, its run directory open to the test users.
 */
static void setup(struct fixture *f, size_t n_devs)
{
	static const uint16_t products[] = { TEST_PRODUCT, OTHER_PRODUCT };

	CHECK(n_devs <= ARRAY_SIZE(f->dev), "at most %zu devices", ARRAY_SIZE(f->dev));
	CHECK_OK(polkit_env_start(&f->polkit, test_rules));
	f->n_devs = n_devs;
	for (size_t i = 0; i < n_devs; i++) {
		const struct uhid_dev_config cfg = {
			.name = "polkit test pad",
			.vendor = TEST_VENDOR,
			.product = products[i],
			.rdesc = uhid_test_rdesc,
			.rdesc_size = uhid_test_rdesc_size,
		};

		CHECK_OK(uhid_dev_create(&f->dev[i], &cfg));
		f->fd[i] = uhid_dev_open_hidraw(&f->dev[i], 0);
		CHECK_OK(f->fd[i]);
	}
	CHECK_OK(policyd_prepare(&f->run));
	CHECK_OK(chmod(f->run.dir, 0755));
	CHECK_OK(policyd_write_policy(&f->run, "50-test.json", test_policy));
	CHECK_OK(policyd_start(&f->run, NULL));
}

static void teardown(struct fixture *f)
{
	policyd_stop(&f->run, false);
	CHECK_OK(policyd_cleanup(&f->run));
	for (size_t i = 0; i < f->n_devs; i++) {
		close(f->fd[i]);
		uhid_dev_destroy(&f->dev[i]);
	}
	polkit_env_stop(&f->polkit);
}

/*
 * hid-policyctl ARGS as UID is refused: exit 3, on stderr a message that
 * names ACTION and HOW (what to do about it), nothing on stdout; and with
 * --json the protocol's error object alone.
 */
static void expect_refused(struct fixture *f, uid_t uid, const char *action, const char *how,
			   const char *const *args)
{
	const char *argv[16] = { "--json" };
	struct policyctl_output o;
	size_t n = 1;
	json_t *j;

	CHECK_OK(policyctl_run(&f->run, uid, args, &o));
	test_log("uid %u %s: exit %d: %s", (unsigned int)uid, args[0], o.status, o.err);
	CHECK(o.status == EXIT_DENIED, "uid %u %s: exit %d (%s)", (unsigned int)uid, args[0],
	      o.status, o.err);
	CHECK(strstr(o.err, "not authorized") && strstr(o.err, action) && strstr(o.err, how),
	      "uid %u %s: the message lacks \"%s\" or \"%s\": %s", (unsigned int)uid, args[0],
	      action, how, o.err);
	CHECK(!o.out[0], "uid %u %s printed: %s", (unsigned int)uid, args[0], o.out);
	policyctl_output_done(&o);

	for (size_t i = 0; args[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	CHECK_OK(policyctl_run(&f->run, uid, argv, &o));
	CHECK_EQ(o.status, EXIT_DENIED);
	j = json_parse_check(o.out);
	CHECK(json_is_false(json_object_get(j, "ok")), "--json %s: %s", args[0], o.out);
	CHECK(!strcmp(json_path_str_or_empty(j, "error"), "denied"), "error %s", json_path_str_or_empty(j, "error"));
	CHECK(!strcmp(json_path_str_or_empty(j, "action"), action), "action %s", json_path_str_or_empty(j, "action"));
	CHECK(!json_object_get(j, "result") && !json_object_get(j, "record"),
	      "data came along: %s", o.out);
	json_decref(j);
	policyctl_output_done(&o);
}

#define REFUSED(f, uid, action, how, ...)                                      \
	expect_refused(f, uid, action, how, (const char *const[]){ __VA_ARGS__, NULL })

/* What an agentless refusal says to do: run on a terminal (a polkit agent
 * asks for a password there). */
#define HOW_AUTHENTICATE "run hid-policyctl on a terminal"
/* What a refusal by a rule says to do. */
#define HOW_ASK_ADMIN "ask an administrator"

static void test_root_runs_every_command_and_polkit_authorizes(void)
{
	static const char *const tables[] = { "status", "devices", "rules", "explain", "generate",
					      "log", "reload" };
	const char *const granted[] = { "event=exception_granted", "granted_by.uid=0", NULL };
	const char *const revoked[] = { "event=exception_ended", "reason=revoked",
					"revoked_by.uid=0", NULL };
	struct fixture f;
	json_t *j, *d, *list;
	size_t i, n = 0;
	bool found = false;

	setup(&f, 1);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(policyd_audit_count(&f.run, NULL, 1, 10000), 1);

	j = POLICYCTL_JSON(&f.run, ROOT_UID, "status");
	CHECK(!strcmp(json_path_str_or_empty(j, "daemon.authorization"), "polkit"), "authorization \"%s\"",
	      json_path_str_or_empty(j, "daemon.authorization"));
	CHECK(!strcmp(json_path_str_or_empty(j, "mode"), "enforce"), "mode %s", json_path_str_or_empty(j, "mode"));
	CHECK(json_path_int(j, "counters.denied") >= 1, "denied counter %lld", json_path_int(j, "counters.denied"));
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, ROOT_UID, "devices");
	list = json_object_get(j, "devices");
	json_array_foreach(list, i, d) {
		if (strcmp(json_path_str_or_empty(d, "sysfs"), f.dev[0].sysname))
			continue;
		found = true;
		CHECK(json_is_true(json_object_get(d, "protected")), "not protected");
		CHECK(json_is_true(json_object_get(d, "attached")), "not attached");
		/* root's hid-policyctl counts programs itself */
		CHECK_EQ(json_path_int(d, "programs"), 1);
	}
	CHECK(found, "%s is not among the devices", f.dev[0].sysname);
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, ROOT_UID, "rules", f.dev[0].sysname);
	CHECK_EQ(json_array_size(json_object_get(j, "rules")), 2);
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, ROOT_UID, "explain", f.dev[0].sysname, "set_report", "--report", "feature",
		     "--id", "0xf0");
	CHECK(!strcmp(json_path_str_or_empty(j, "decision.rule"), "no-firmware-update"), "rule \"%s\"",
	      json_path_str_or_empty(j, "decision.rule"));
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, ROOT_UID, "generate");
	CHECK(!strcmp(json_path_str_or_empty(json_array_get(json_object_get(json_object_get(j, "policy"), "devices"), 0),
			   "name"), "local-polkit-test-pad"), "generated policy");
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, ROOT_UID, "reload");
	CHECK_EQ(json_path_int(j, "rules"), 2);
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, ROOT_UID, "allow", f.dev[0].sysname, "--for", "10m");
	CHECK_EQ(json_path_int(j, "exception.granted_by.uid"), 0);
	json_decref(j);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), 0);
	j = POLICYCTL_JSON(&f.run, ROOT_UID, "revoke", f.dev[0].sysname);
	CHECK_EQ(json_array_size(json_object_get(j, "revoked")), 1);
	json_decref(j);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(uhid_dev_count(&f.dev[0], UHID_DEV_SET_REPORT, FIRMWARE_ID), 1);
	CHECK_EQ(policyd_audit_count(&f.run, granted, 1, 5000), 1);
	CHECK_EQ(policyd_audit_count(&f.run, revoked, 1, 5000), 1);

	/* log --json: one parsable record per line, each in the audit log. */
	{
		struct policyctl_output o;
		char *line, *save = NULL;

		POLICYCTL(&f.run, ROOT_UID, &o, "--json", "log");
		CHECK(o.status == 0, "log: exit %d: %s", o.status, o.err);
		for (line = strtok_r(o.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			json_t *rec = json_parse_check(line);

			CHECK(json_object_get(rec, "event"), "a record without an event: %s", line);
			json_decref(rec);
			n++;
		}
		CHECK_EQ(n, policyd_audit_count(&f.run, NULL, 0, 0));
		CHECK(n >= 4, "%zu records", n);
		policyctl_output_done(&o);
	}

	/* And the tables: each exits 0 and shows something. */
	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		const char *args[9] = { tables[i] };

		if (!strcmp(tables[i], "rules")) {
			args[1] = f.dev[0].sysname;
		} else if (!strcmp(tables[i], "explain")) {
			const char *const rest[] = { f.dev[0].sysname, "set_report", "--report",
						     "feature", "--id", "3" };

			for (size_t k = 0; k < ARRAY_SIZE(rest); k++)
				args[1 + k] = rest[k];
		}
		policyd_case_ctl_shows(&f.run, ROOT_UID, args);
	}

	teardown(&f);
}

static void test_users_see_the_firewall_unless_a_rule_refuses_them(void)
{
	struct fixture f;
	json_t *j, *d;
	size_t i;
	bool found = false;

	setup(&f, 1);

	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_USER_UID, "status");
	CHECK(!strcmp(json_path_str_or_empty(j, "daemon.authorization"), "polkit"), "authorization \"%s\"",
	      json_path_str_or_empty(j, "daemon.authorization"));
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_USER_UID, "devices");
	json_array_foreach(json_object_get(j, "devices"), i, d)
		found |= !strcmp(json_path_str_or_empty(d, "sysfs"), f.dev[0].sysname) &&
			 json_is_true(json_object_get(d, "protected"));
	CHECK(found, "%s is not shown as protected", f.dev[0].sysname);
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_USER_UID, "rules", f.dev[0].sysname);
	CHECK(!strcmp(json_path_str_or_empty(json_array_get(json_object_get(j, "rules"), 0), "name"),
		      "no-firmware-update"), "first rule");
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_USER_UID, "explain", f.dev[0].sysname, "set_report", "--report",
		     "feature", "--id", "0xf0");
	CHECK(!strcmp(json_path_str_or_empty(j, "decision.action"), "deny"), "decision \"%s\"",
	      json_path_str_or_empty(j, "decision.action"));
	json_decref(j);

	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_USER_UID, "generate");
	CHECK(json_array_size(json_object_get(json_object_get(j, "policy"), "devices")) == 1,
	      "generated policy");
	json_decref(j);

	/* The rule that refuses hp-banned everything beats the defaults. */
	REFUSED(&f, POLKIT_ENV_BANNED_UID, "org.hid-policy.status", HOW_ASK_ADMIN, "status");
	REFUSED(&f, POLKIT_ENV_BANNED_UID, "org.hid-policy.status", HOW_ASK_ADMIN, "devices");
	REFUSED(&f, POLKIT_ENV_BANNED_UID, "org.hid-policy.status", HOW_ASK_ADMIN, "explain",
		f.dev[0].sysname, "set_report", "--report", "feature", "--id", "0xf0");

	teardown(&f);
}

static void test_user_is_refused_log_reload_allow_revoke_and_nothing_changes(void)
{
	const char *const granted_to_user[] = { "event=exception_granted", "granted_by.uid=61001",
						NULL };
	const char *const ended[] = { "event=exception_ended", NULL };
	struct policyctl_output o;
	struct fixture f;
	json_t *j;

	setup(&f, 1);
	/* A record the user must not see. */
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(policyd_audit_count(&f.run, NULL, 1, 10000), 1);

	REFUSED(&f, POLKIT_ENV_USER_UID, "org.hid-policy.log", HOW_AUTHENTICATE, "log");
	REFUSED(&f, POLKIT_ENV_USER_UID, "org.hid-policy.log", HOW_AUTHENTICATE, "log", "--device",
		f.dev[0].sysname, "--action", "deny");
	/* The table form too: no header, no record, not the rule's name. */
	POLICYCTL(&f.run, POLKIT_ENV_USER_UID, &o, "log");
	CHECK(!strstr(o.out, "no-firmware-update") && !strstr(o.err, "no-firmware-update"),
	      "a record leaked: %s%s", o.out, o.err);
	policyctl_output_done(&o);

	/* allow: refused, and the firmware request is still refused. */
	REFUSED(&f, POLKIT_ENV_USER_UID, "org.hid-policy.allow", HOW_AUTHENTICATE, "allow",
		f.dev[0].sysname, "--for", "1h");
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(uhid_dev_count(&f.dev[0], UHID_DEV_SET_REPORT, FIRMWARE_ID), 0);
	CHECK_EQ(policyd_audit_count(&f.run, granted_to_user, 0, 0), 0);

	/* reload: refused, so a policy on disk that would let the firmware
	 * request through stays out of force. */
	CHECK_OK(policyd_write_policy(&f.run, "50-test.json", open_policy));
	REFUSED(&f, POLKIT_ENV_USER_UID, "org.hid-policy.reload", HOW_AUTHENTICATE, "reload");
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(uhid_dev_count(&f.dev[0], UHID_DEV_SET_REPORT, FIRMWARE_ID), 0);
	CHECK_OK(policyd_write_policy(&f.run, "50-test.json", test_policy));

	/* revoke: root's temporary allow (reads only, so the firmware rule
	 * still holds) outlives the user's attempt. */
	j = POLICYCTL_JSON(&f.run, ROOT_UID, "allow", f.dev[0].sysname, "--for", "1h", "--request",
		     "get_report");
	json_decref(j);
	REFUSED(&f, POLKIT_ENV_USER_UID, "org.hid-policy.allow", HOW_AUTHENTICATE, "revoke",
		f.dev[0].sysname);
	j = POLICYCTL_JSON(&f.run, ROOT_UID, "status");
	CHECK_EQ(json_array_size(json_object_get(j, "exceptions")), 1);
	json_decref(j);
	CHECK_EQ(policyd_audit_count(&f.run, ended, 0, 0), 0);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);

	/* The shipped adm rule gives group adm the log, not the rest. */
	REFUSED(&f, POLKIT_ENV_AUDITOR_UID, "org.hid-policy.allow", HOW_AUTHENTICATE, "allow",
		f.dev[0].sysname, "--for", "1h");
	REFUSED(&f, POLKIT_ENV_AUDITOR_UID, "org.hid-policy.reload", HOW_AUTHENTICATE, "reload");

	teardown(&f);
}

static void test_user_granted_by_a_rule_allows_for_2s_until_it_expires(void)
{
	const char *const granted[] = { "event=exception_granted", "granted_by.uid=61002",
					"granted_by.comm=hid-policyctl", NULL };
	const char *const expired[] = { "event=exception_ended", "reason=expired",
					"granted_by.uid=61002", NULL };
	const char *const revoked[] = { "event=exception_ended", "reason=revoked",
					"revoked_by.uid=61002", NULL };
	struct fixture f;
	json_t *j;

	setup(&f, 1);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);

	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_ADMIN_UID, "allow", f.dev[0].sysname, "--for", "2s",
		     "--request", "set_report", "--report", "feature", "--id", "0xf0");
	CHECK_EQ(json_path_int(j, "exception.duration_s"), 2);
	CHECK_EQ(json_path_int(j, "exception.granted_by.uid"), POLKIT_ENV_ADMIN_UID);
	json_decref(j);
	/* In the window the request reaches the device. */
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), 0);
	CHECK_EQ(uhid_dev_count(&f.dev[0], UHID_DEV_SET_REPORT, FIRMWARE_ID), 1);
	CHECK_EQ(policyd_audit_count(&f.run, granted, 1, 5000), 1);

	/* Nobody asks for the end: the daemon's timer ends it, and the
	 * record names who granted it. */
	CHECK_EQ(policyd_audit_count(&f.run, expired, 1, 10000), 1);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(uhid_dev_count(&f.dev[0], UHID_DEV_SET_REPORT, FIRMWARE_ID), 1);

	/* The rule gives reload and revoke too, */
	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_ADMIN_UID, "reload");
	CHECK_EQ(json_path_int(j, "rules"), 2);
	json_decref(j);
	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_ADMIN_UID, "allow", f.dev[0].sysname, "--for", "1h");
	json_decref(j);
	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_ADMIN_UID, "revoke", f.dev[0].sysname);
	CHECK_EQ(json_array_size(json_object_get(j, "revoked")), 1);
	json_decref(j);
	CHECK_EQ(policyd_audit_count(&f.run, revoked, 1, 5000), 1);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	/* but not the log. */
	REFUSED(&f, POLKIT_ENV_ADMIN_UID, "org.hid-policy.log", HOW_AUTHENTICATE, "log");

	teardown(&f);
}

/* Which records "log" should give for a query, decided from the audit log
 * as written, independently of the daemon's filter. */
struct log_query {
	const char *device;	/* sysfs name or hid_id; NULL any */
	time_t since;		/* 0: any */
	const char *action;	/* "allow", "deny"; NULL any */
};

static bool record_wanted(json_t *rec, const struct log_query *q)
{
	if (q->device) {
		json_t *dev = json_object_get(rec, "device");
		char id[24];

		snprintf(id, sizeof(id), "%lld", (long long)json_integer_value(json_object_get(dev, "hid_id")));
		if (strcmp(json_path_str_or_empty(dev, "sysfs"), q->device) && strcmp(id, q->device))
			return false;
	}
	if (q->since) {
		struct tm tm = {};
		const char *end = strptime(json_path_str_or_empty(rec, "time"), "%Y-%m-%dT%H:%M:%S", &tm);

		CHECK(end, "record time \"%s\"", json_path_str_or_empty(rec, "time"));
		if (timegm(&tm) < q->since)
			return false;
	}
	if (q->action && (strcmp(json_path_str_or_empty(rec, "event"), "decision") || strcmp(json_path_str_or_empty(rec, "action"), q->action)))
		return false;
	return true;
}

/* log --json with Q's filters as UID: exactly the records of the audit log
 * Q wants, in its order. Returns how many. */
static size_t check_log_query(struct fixture *f, uid_t uid, const struct log_query *q)
{
	const char *args[12] = { "--json", "log" };
	char since[32], *line = NULL, *save = NULL, *text;
	struct policyctl_output o;
	json_t *want = json_array();
	size_t n = 2, cap = 0, got = 0;
	FILE *log;

	if (q->device) {
		args[n++] = "--device";
		args[n++] = q->device;
	}
	if (q->since) {
		snprintf(since, sizeof(since), "@%lld", (long long)q->since);
		args[n++] = "--since";
		args[n++] = since;
	}
	if (q->action) {
		args[n++] = "--action";
		args[n++] = q->action;
	}
	args[n] = NULL;

	log = fopen(f->run.audit_log, "re");
	CHECK(log, "%s: %m", f->run.audit_log);
	while (getline(&line, &cap, log) > 0) {
		json_t *rec = json_parse_check(line);

		if (record_wanted(rec, q))
			json_array_append(want, rec);
		json_decref(rec);
	}
	free(line);
	fclose(log);

	CHECK_OK(policyctl_run(&f->run, uid, args, &o));
	CHECK(o.status == 0, "log: exit %d: %s", o.status, o.err);
	for (text = strtok_r(o.out, "\n", &save); text; text = strtok_r(NULL, "\n", &save)) {
		json_t *rec = json_parse_check(text);

		CHECK(got < json_array_size(want), "log %s%s%s%s%s%s: more records than the %zu wanted: %s",
		      q->device ? " --device " : "", q->device ?: "", q->since ? " --since " : "",
		      q->since ? since : "", q->action ? " --action " : "", q->action ?: "",
		      json_array_size(want), text);
		CHECK(json_equal(rec, json_array_get(want, got)), "record %zu differs: %s", got, text);
		json_decref(rec);
		got++;
	}
	CHECK(got == json_array_size(want), "%zu records shown, %zu wanted", got,
	      json_array_size(want));
	policyctl_output_done(&o);
	json_decref(want);
	return got;
}

static void test_adm_member_reads_the_log_and_filters_return_exactly_the_matching_records(void)
{
	struct policyctl_output o;
	struct fixture f;
	char b_id[16];
	time_t t;
	json_t *j;

	setup(&f, 2);
	snprintf(b_id, sizeof(b_id), "%d", f.dev[1].hid_id);

	/* Before T: a refused twice and a logged allow on a; b refused once,
	 * then a temporary allow on b granted and revoked by hp-admin. */
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], LOGGED_ID), 0);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[1], FIRMWARE_ID), EPERM);
	CHECK_EQ(policyd_audit_count(&f.run, NULL, 4, 10000), 4);
	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_ADMIN_UID, "allow", f.dev[1].sysname, "--for", "1h",
		     "--request", "get_report");
	json_decref(j);
	j = POLICYCTL_JSON(&f.run, POLKIT_ENV_ADMIN_UID, "revoke", f.dev[1].sysname);
	json_decref(j);
	CHECK_EQ(policyd_audit_count(&f.run, NULL, 6, 10000), 6);
	usleep(1100 * 1000);
	t = time(NULL);
	/* From T: b refused, a logged allow. */
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[1], FIRMWARE_ID), EPERM);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], LOGGED_ID), 0);
	CHECK_EQ(policyd_audit_count(&f.run, NULL, 8, 10000), 8);

	/* No password: the shipped rule gives group adm the log. */
	POLICYCTL(&f.run, POLKIT_ENV_AUDITOR_UID, &o, "log");
	CHECK(o.status == 0, "log: exit %d: %s", o.status, o.err);
	CHECK(strstr(o.out, f.dev[0].sysname) && strstr(o.out, f.dev[1].sysname) &&
	      strstr(o.out, "no-firmware-update"), "the table: %s", o.out);
	policyctl_output_done(&o);

	/* Each count is what the records above make. */
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID, &(struct log_query){}), 8);
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID,
				 &(struct log_query){ .device = f.dev[0].sysname }), 4);
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID, &(struct log_query){ .device = b_id }), 4);
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID, &(struct log_query){ .action = "deny" }), 4);
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID, &(struct log_query){ .action = "allow" }), 2);
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID, &(struct log_query){ .since = t }), 2);
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID,
				 &(struct log_query){ .since = t, .action = "deny" }), 1);
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID,
				 &(struct log_query){ .device = b_id, .action = "deny" }), 2);
	CHECK_EQ(check_log_query(&f, POLKIT_ENV_AUDITOR_UID,
				 &(struct log_query){ .device = f.dev[0].sysname, .since = t,
						      .action = "allow" }), 1);

	teardown(&f);
}

/* A terminal for the agent: devpts of our own, in the test's private
 * mount namespace (the guest mounts none). */
static void mount_devpts(void)
{
	CHECK(mkdir("/dev/pts", 0755) == 0 || errno == EEXIST, "mkdir /dev/pts: %m");
	CHECK(mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
		    "newinstance,ptmxmode=0666,mode=0620") == 0, "mount devpts: %m");
}

#define TTY_TIMEOUT_MS 90000	/* polkitd, the agent and PAM under TCG */

/* hid-policyctl ARGS as hp-user on a terminal, typing ANSWERS at prompts,
 * with the test's agent when TEST_AGENT (policyd_run.h says why). */
static void run_on_tty(struct fixture *f, const char *const *answers,
		       const char *const *args, struct policyctl_output *o)
{
	int r = policyctl_run_tty(&f->run, POLKIT_ENV_USER_UID, args, answers, TTY_TIMEOUT_MS, o);

	test_log("%s on a terminal: exit %d:\n%s", args[0], o->status, o->out ?: "");
	CHECK(r == 0, "on the terminal: %s", strerror(-r));
}

/* Did polkitd register an agent for process PID, with FLAGS on its
 * command line (pkttyagent's, as polkitd logs it)? */
static bool agent_registered_for(struct fixture *f, pid_t pid, const char *flags)
{
	char want[96], line[1024];
	bool found = false;
	FILE *log = fopen(f->polkit.polkitd_log, "re");

	CHECK(log, "%s: %m", f->polkit.polkitd_log);
	snprintf(want, sizeof(want), "%s--process %d]", flags, (int)pid);
	while (!found && fgets(line, sizeof(line), log))
		found = strstr(line, "Registered Authentication Agent") && strstr(line, want);
	fclose(log);
	return found;
}

/*
 * hp-user asks for a temporary allow on a terminal, outside any login
 * session (the VM has none). hid-policyctl starts pkttyagent there for
 * itself; polkit asks it for an administrator's password (auth_admin; the
 * test rules name hp-admin) and PAM checks what is typed against the
 * shadow copy: a wrong password leaves everything as it was, the right one
 * puts the allow in force, granted by hp-user.
 */
static void test_agent_on_a_terminal_takes_the_admin_password_and_refuses_a_wrong_one(void)
{
	const char *const granted[] = { "event=exception_granted", "granted_by.uid=61001", NULL };
	const char *const wrong[] = { "not hp-admin's password", NULL };
	const char *const right[] = { POLKIT_ENV_ADMIN_PASSWORD, NULL };
	struct policyctl_output o;
	struct fixture f;

	setup(&f, 1);
	mount_devpts();

	const char *const allow[] = { "allow", f.dev[0].sysname, "--for", "60s", "--request",
				      "set_report", "--report", "feature", "--id", "0xf0", NULL };
	const char *const allow_without_agent[] = { "--no-ask-password", "allow", f.dev[0].sysname,
						    "--for", "60s", NULL };

	/* --no-ask-password: no agent, no question. */
	run_on_tty(&f, NULL, allow_without_agent, &o);
	CHECK_EQ(o.status, EXIT_DENIED);
	CHECK(strstr(o.out, "no authentication agent could ask") && !strstr(o.out, "Password"),
	      "without an agent: %s", o.out);
	CHECK(!agent_registered_for(&f, o.pid, ""), "an agent was started for pid %d", (int)o.pid);
	policyctl_output_done(&o);

	/* hid-policyctl's own agent asks, registered for it alone, and says
	 * what is being approved: the requests, the sender, the device and
	 * how long (the details hid-policyd passes, in the action's
	 * message). */
	run_on_tty(&f, wrong, allow, &o);
	CHECK(agent_registered_for(&f, o.pid, ""),
	      "polkitd registered no pkttyagent for hid-policyctl (pid %d)", (int)o.pid);
	CHECK(strstr(o.out, "AUTHENTICATING FOR org.hid-policy.allow") &&
	      strstr(o.out, "(" POLKIT_ENV_ADMIN ")"), "the agent did not ask for hp-admin: %s", o.out);
	{
		char what[512];

		snprintf(what, sizeof(what),
			 "to let set_report feature requests with report ID 0xf0 from any process reach \"polkit test pad\" (%s) for 1 minute, past the HID firewall's rules",
			 f.dev[0].sysname);
		CHECK(strstr(o.out, what), "the prompt does not say \"%s\": %s", what, o.out);
	}
	CHECK_EQ(o.status, EXIT_DENIED);
	CHECK(strstr(o.out, "not authorized") && strstr(o.out, "org.hid-policy.allow"),
	      "after a wrong password: %s", o.out);
	CHECK(!strstr(o.out, wrong[0]), "the password was echoed");
	policyctl_output_done(&o);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), EPERM);
	CHECK_EQ(uhid_dev_count(&f.dev[0], UHID_DEV_SET_REPORT, FIRMWARE_ID), 0);
	CHECK_EQ(policyd_audit_count(&f.run, granted, 0, 0), 0);

	run_on_tty(&f, right, allow, &o);
	CHECK(strstr(o.out, "AUTHENTICATION COMPLETE"), "with the right password: %s", o.out);
	CHECK(!strstr(o.out, right[0]), "the password was echoed");
	CHECK_EQ(o.status, 0);
	policyctl_output_done(&o);
	CHECK_EQ(uhid_hidraw_set_feature(f.fd[0], FIRMWARE_ID), 0);
	CHECK_EQ(uhid_dev_count(&f.dev[0], UHID_DEV_SET_REPORT, FIRMWARE_ID), 1);
	CHECK_EQ(policyd_audit_count(&f.run, granted, 1, 5000), 1);

	teardown(&f);
}

static const struct test_case tests[] = {
	{ "root_runs_every_command_and_polkit_authorizes",
	  test_root_runs_every_command_and_polkit_authorizes, 180 },
	{ "users_see_the_firewall_unless_a_rule_refuses_them",
	  test_users_see_the_firewall_unless_a_rule_refuses_them, 180 },
	{ "user_is_refused_log_reload_allow_revoke_and_nothing_changes",
	  test_user_is_refused_log_reload_allow_revoke_and_nothing_changes, 180 },
	{ "user_granted_by_a_rule_allows_for_2s_until_it_expires",
	  test_user_granted_by_a_rule_allows_for_2s_until_it_expires, 180 },
	{ "adm_member_reads_the_log_and_filters_return_exactly_the_matching_records",
	  test_adm_member_reads_the_log_and_filters_return_exactly_the_matching_records, 180 },
	{ "agent_on_a_terminal_takes_the_admin_password_and_refuses_a_wrong_one",
	  test_agent_on_a_terminal_takes_the_admin_password_and_refuses_a_wrong_one, 300 },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "e2e-policyctl-polkit", tests, ARRAY_SIZE(tests));
}
