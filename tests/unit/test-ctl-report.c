// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyctl report (host): denials counted per device model, rule,
 * program and user, with first and last seen, from a log whose counts are
 * written out by hand below; other records are not denials and are not
 * counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl_report.h"
#include "harness.h"
#include "json_path.h"

/*
 * Denials: lines 1, 2, 3, 6, 7 (5, of which 4 enforced: 3 is audit mode).
 *   device usb:054c:0ce6: 1 2 3 7 (two units of the model); bluetooth:057e:2009: 6
 *   rule no-fw in sony: 1 2; no-calibration in sony: 3; no-fw in nintendo: 6;
 *        (default) without a rule set: 7
 *   program /usr/bin/evil: 1 2 6; [steam] (no exe): 3; (a kernel driver): 7
 *   user 1000: 1 2 6; 1001: 3; unknown: 7
 */
static const char *const log_lines[] = {
	/* 1 */ "{\"time\":\"2026-12-03T09:00:01.000Z\",\"event\":\"decision\",\"action\":\"deny\",\"enforced\":true,"
		"\"device\":{\"hid_id\":1,\"sysfs\":\"0003:054C:0CE6.0001\",\"bus\":\"usb\",\"vendor\":\"054c\",\"product\":\"0ce6\",\"name\":\"DualSense\"},"
		"\"rule\":{\"index\":0,\"name\":\"no-fw\",\"rule_set\":\"sony\"},"
		"\"process\":{\"pid\":10,\"exe\":\"/usr/bin/evil\",\"uid\":1000,\"comm\":\"evil\",\"source\":\"hidraw\"}}",
	/* 2 */ "{\"time\":\"2026-12-03T09:00:05.000Z\",\"event\":\"decision\",\"action\":\"deny\",\"enforced\":true,"
		"\"device\":{\"hid_id\":1,\"sysfs\":\"0003:054C:0CE6.0001\",\"bus\":\"usb\",\"vendor\":\"054c\",\"product\":\"0ce6\",\"name\":\"DualSense\"},"
		"\"rule\":{\"index\":0,\"name\":\"no-fw\",\"rule_set\":\"sony\"},"
		"\"process\":{\"pid\":11,\"exe\":\"/usr/bin/evil\",\"uid\":1000,\"comm\":\"evil\",\"source\":\"hidraw\"}}",
	/* 3 */ "{\"time\":\"2026-12-03T09:10:00.000Z\",\"event\":\"decision\",\"action\":\"deny\",\"enforced\":false,"
		"\"device\":{\"hid_id\":1,\"sysfs\":\"0003:054C:0CE6.0001\",\"bus\":\"usb\",\"vendor\":\"054c\",\"product\":\"0ce6\",\"name\":\"DualSense\"},"
		"\"rule\":{\"index\":1,\"name\":\"no-calibration\",\"rule_set\":\"sony\"},"
		"\"process\":{\"pid\":12,\"uid\":1001,\"comm\":\"steam\",\"source\":\"hidraw\"}}",
	/* 4 */ "{\"time\":\"2026-12-03T09:11:00.000Z\",\"event\":\"decision\",\"action\":\"allow\",\"enforced\":false,"
		"\"device\":{\"hid_id\":1,\"sysfs\":\"0003:054C:0CE6.0001\",\"bus\":\"usb\",\"vendor\":\"054c\",\"product\":\"0ce6\"},"
		"\"rule\":{\"index\":2,\"name\":\"log-reads\",\"rule_set\":\"sony\"},\"process\":{\"pid\":12,\"uid\":1001}}",
	/* 5 */ "{\"time\":\"2026-12-03T09:12:00.000Z\",\"event\":\"exception_granted\","
		"\"device\":{\"hid_id\":1,\"sysfs\":\"0003:054C:0CE6.0001\"},\"exception\":{\"id\":1}}",
	/* 6 */ "{\"time\":\"2026-12-03T08:59:59.000Z\",\"event\":\"decision\",\"action\":\"deny\",\"enforced\":true,"
		"\"device\":{\"hid_id\":2,\"sysfs\":\"0005:057E:2009.0002\",\"bus\":\"bluetooth\",\"vendor\":\"057e\",\"product\":\"2009\",\"name\":\"Pro Controller\"},"
		"\"rule\":{\"index\":0,\"name\":\"no-fw\",\"rule_set\":\"nintendo\"},"
		"\"process\":{\"pid\":13,\"exe\":\"/usr/bin/evil\",\"uid\":1000,\"source\":\"hidraw\"}}",
	/* 7 */ "{\"time\":\"2026-12-03T09:20:00.000Z\",\"event\":\"decision\",\"action\":\"deny\",\"enforced\":true,"
		"\"device\":{\"hid_id\":3,\"sysfs\":\"0003:054C:0CE6.0003\",\"bus\":\"usb\",\"vendor\":\"054c\",\"product\":\"0ce6\",\"name\":\"DualSense\"},"
		"\"rule\":{\"name\":\"(default)\"},\"process\":{\"source\":\"kernel\"}}",
};

static void fill(struct ctl_report *r)
{
	*r = (struct ctl_report){};
	for (size_t i = 0; i < ARRAY_SIZE(log_lines); i++) {
		json_t *rec = json_loads(log_lines[i], 0, NULL);

		CHECK(rec, "line %zu does not parse", i + 1);
		ctl_report_add(r, rec);
		json_decref(rec);
	}
	CHECK_OK(r->error);
}

/* The row of TABLE whose KEY is VALUE (and, if SET, whose rule_set is SET). */
static json_t *row(json_t *report, const char *table, const char *key, const char *value,
		   const char *set)
{
	json_t *rows = json_object_get(report, table), *r;
	size_t i;

	json_array_foreach(rows, i, r) {
		json_t *v = json_object_get(r, key);
		const char *s = json_string_value(json_object_get(r, "rule_set"));

		if (((value && json_is_string(v) && !strcmp(json_string_value(v), value)) ||
		     (!value && json_is_null(v))) &&
		    (!set || (s && !strcmp(s, set))))
			return r;
	}
	test_fail(__FILE__, __LINE__, "no %s row %s=%s", table, key, value ? value : "null");
}

#define CHECK_ROW(r, denials_, enforced_, first_, last_)                         \
	do {                                                                        \
		CHECK_EQ(json_path_int(r, "denials"), denials_);                    \
		CHECK_EQ(json_path_int(r, "enforced"), enforced_);                  \
		CHECK(!strcmp(json_path_str(r, "first"), first_), "first %s", json_path_str(r, "first")); \
		CHECK(!strcmp(json_path_str(r, "last"), last_), "last %s", json_path_str(r, "last")); \
	} while (0)

static void test_denials_are_counted_per_device_rule_program_and_user(void)
{
	struct ctl_report r;
	json_t *o;

	fill(&r);
	o = ctl_report_json(&r, "2026-12-03T00:00:00.000Z");
	CHECK_EQ(json_path_int(o, "denials"), 5);
	CHECK_EQ(json_path_int(o, "enforced"), 4);
	CHECK(!strcmp(json_path_str(o, "first"), "2026-12-03T08:59:59.000Z"), "first");
	CHECK(!strcmp(json_path_str(o, "last"), "2026-12-03T09:20:00.000Z"), "last");
	CHECK(!strcmp(json_path_str(o, "since"), "2026-12-03T00:00:00.000Z"), "since");

	CHECK_EQ(json_array_size(json_object_get(o, "by_device")), 2);
	CHECK_ROW(row(o, "by_device", "device", "usb:054c:0ce6", NULL), 4, 3,
		  "2026-12-03T09:00:01.000Z", "2026-12-03T09:20:00.000Z");
	CHECK(!strcmp(json_path_str(row(o, "by_device", "device", "usb:054c:0ce6", NULL), "name"),
		      "DualSense"), "device name");
	CHECK_ROW(row(o, "by_device", "device", "bluetooth:057e:2009", NULL), 1, 1,
		  "2026-12-03T08:59:59.000Z", "2026-12-03T08:59:59.000Z");

	CHECK_EQ(json_array_size(json_object_get(o, "by_rule")), 4);
	CHECK_ROW(row(o, "by_rule", "rule", "no-fw", "sony"), 2, 2, "2026-12-03T09:00:01.000Z",
		  "2026-12-03T09:00:05.000Z");
	CHECK_ROW(row(o, "by_rule", "rule", "no-fw", "nintendo"), 1, 1, "2026-12-03T08:59:59.000Z",
		  "2026-12-03T08:59:59.000Z");
	CHECK_ROW(row(o, "by_rule", "rule", "no-calibration", "sony"), 1, 0,
		  "2026-12-03T09:10:00.000Z", "2026-12-03T09:10:00.000Z");
	CHECK_ROW(row(o, "by_rule", "rule", "(default)", NULL), 1, 1, "2026-12-03T09:20:00.000Z",
		  "2026-12-03T09:20:00.000Z");

	CHECK_EQ(json_array_size(json_object_get(o, "by_program")), 3);
	CHECK_ROW(row(o, "by_program", "program", "/usr/bin/evil", NULL), 3, 3,
		  "2026-12-03T08:59:59.000Z", "2026-12-03T09:00:05.000Z");
	CHECK_ROW(row(o, "by_program", "program", "[steam]", NULL), 1, 0, "2026-12-03T09:10:00.000Z",
		  "2026-12-03T09:10:00.000Z");
	CHECK_ROW(row(o, "by_program", "program", "(a kernel driver)", NULL), 1, 1,
		  "2026-12-03T09:20:00.000Z", "2026-12-03T09:20:00.000Z");

	CHECK_EQ(json_array_size(json_object_get(o, "by_user")), 3);
	{
		json_t *users = json_object_get(o, "by_user"), *u1000 = json_array_get(users, 0);

		/* busiest first */
		CHECK_EQ(json_path_int(u1000, "uid"), 1000);
		CHECK_EQ(json_path_int(u1000, "denials"), 3);
	}
	json_decref(o);
	ctl_report_done(&r);
}

static void test_the_table_shows_chosen_names_without_terminal_controls(void)
{
	static const char hostile[] =
		"{\"time\":\"2026-12-03T09:00:01.000Z\",\"event\":\"decision\",\"action\":\"deny\",\"enforced\":true,"
		"\"device\":{\"hid_id\":1,\"bus\":\"usb\",\"vendor\":\"054c\",\"product\":\"0ce6\",\"name\":\"pad\\u001b[2J\"},"
		"\"rule\":{\"name\":\"r\"},\"process\":{\"comm\":\"x\\nFAKE ROW\",\"uid\":5}}";
	struct ctl_report r = {};
	json_t *rec = json_loads(hostile, 0, NULL);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(rec && f, "setup");
	ctl_report_add(&r, rec);
	ctl_report_print(f, &r, "", true);
	CHECK_OK(fclose(f));
	CHECK(!strchr(text, 0x1b), "an escape reached the table:\n%s", text);
	CHECK(!strstr(text, "\nFAKE ROW"), "a forged row:\n%s", text);
	CHECK(strstr(text, "[x\\x0aFAKE ROW]"), "the name, escaped:\n%s", text);
	free(text);
	json_decref(rec);
	ctl_report_done(&r);
}

/* A record of repeats counts as the denials it stands for, from its
 * "first" time on. */
static void test_a_record_of_repeats_counts_as_its_denials(void)
{
	static const char *const lines[] = {
		"{\"time\":\"2026-12-03T09:00:00.000Z\",\"event\":\"decision\",\"action\":\"deny\",\"enforced\":true,"
		"\"device\":{\"hid_id\":1,\"bus\":\"usb\",\"vendor\":\"054c\",\"product\":\"0ce6\"},"
		"\"rule\":{\"name\":\"r\"},\"process\":{\"comm\":\"x\",\"uid\":5}}",
		"{\"time\":\"2026-12-03T09:00:09.000Z\",\"event\":\"decision\",\"action\":\"deny\",\"enforced\":true,"
		"\"device\":{\"hid_id\":1,\"bus\":\"usb\",\"vendor\":\"054c\",\"product\":\"0ce6\"},"
		"\"rule\":{\"name\":\"r\"},\"process\":{\"comm\":\"x\",\"uid\":5},"
		"\"count\":41,\"first\":\"2026-12-03T09:00:00.500Z\",\"last\":\"2026-12-03T09:00:09.000Z\"}",
	};
	struct ctl_report r = {};

	for (size_t i = 0; i < 2; i++) {
		json_t *rec = json_loads(lines[i], 0, NULL);

		CHECK(rec, "line %zu", i);
		ctl_report_add(&r, rec);
		json_decref(rec);
	}
	CHECK_EQ(r.denials, 42);
	CHECK_EQ(r.enforced, 42);
	CHECK_EQ(r.rules.n, 1);
	CHECK_EQ(r.rules.rows[0].denials, 42);
	CHECK(!strcmp(r.first, "2026-12-03T09:00:00.000Z"), "first %s", r.first);
	CHECK(!strcmp(r.last, "2026-12-03T09:00:09.000Z"), "last %s", r.last);
	ctl_report_done(&r);
}

static const struct test_case tests[] = {
	{ "denials_are_counted_per_device_rule_program_and_user",
	  test_denials_are_counted_per_device_rule_program_and_user },
	{ "the_table_shows_chosen_names_without_terminal_controls",
	  test_the_table_shows_chosen_names_without_terminal_controls },
	{ "a_record_of_repeats_counts_as_its_denials", test_a_record_of_repeats_counts_as_its_denials },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "unit-ctl-report", tests, ARRAY_SIZE(tests));
}
