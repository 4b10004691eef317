// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A device holds 64 rules. Rule sets of several files that can all match
 * one device must fit together: the check says which device and which rule
 * sets when they cannot, and lets through rule sets that never meet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy-helpers.h"

/* A rule set of N rules matching MATCH (a JSON object, single-quoted),
 * each for its own report ID from BASE on (so that none shadows another). */
static char *ruleset(const char *tag, const char *match, int base, int n)
{
	size_t size = 256 + (size_t)n * 160;
	char *s = malloc(size);
	size_t len;

	CHECK(s, "out of memory");
	len = (size_t)snprintf(s, size, "{'match': %s, 'rules': [", match);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, size - len,
					"%s{'name': '%s-%d', 'request': 'set_report', 'report_type': 'feature', 'report_id': %d, 'action': 'deny'}",
					i ? ", " : "", tag, i, base + i);
	snprintf(s + len, size - len, "]}");
	return s;
}

static char *document(const char *a, const char *b)
{
	char *s;

	CHECK(asprintf(&s, "{'version': 1, 'devices': [%s%s%s]}", a, b ? ", " : "", b ?: "") > 0,
	      "out of memory");
	return s;
}

/* Two files of 40 rules each in DIR; returns the policy (or NULL) and the
 * messages. */
static struct policy *two_files_in(const char *dir, const char *match_a, const char *match_b,
				   struct diag *d)
{
	char *a = ruleset("a", match_a, 0, 40), *b = ruleset("b", match_b, 100, 40);
	char *doc_a = document(a, NULL), *doc_b = document(b, NULL);
	const char *dirs[] = { dir };
	struct policy *p = NULL;

	write_policy(dir, "10-a.json", doc_a);
	write_policy(dir, "20-b.json", doc_b);
	policy_load_dirs(dirs, 1, true, d, &p);
	free(a);
	free(b);
	free(doc_a);
	free(doc_b);
	return p;
}

static struct policy *two_files(const char *match_a, const char *match_b, struct diag *d)
{
	char *dir = make_temp_dir();
	struct policy *p = two_files_in(dir, match_a, match_b, d);

	rm_tree(dir);
	return p;
}

/* The message is placed where the other semantic errors are: the file's
 * full path, line and column, and JSON path, here of the first match that
 * takes the device; every match that does is named the same way. */
static void two_files_for_the_same_device_that_do_not_fit_are_refused(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p = two_files_in(dir, "{'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}",
					"{'bus': 'any', 'vendor': '0x054c', 'product': 'any'}", &d);
	char *want = in_dir(dir, "10-a.json:1:38: devices[0].match: a device usb:054C:0CE6 would get 80 rules, more than the 64 a device holds, from the matches DIR/10-a.json:1:38: devices[0].match (40 rules), DIR/20-b.json:1:38: devices[0].match (40 rules); narrow them or merge their rule sets' rules");

	CHECK(!p, "80 rules for one device were accepted");
	CHECK_MESSAGES(&d, want);
	CHECK_EQ(d.entries[0].line, 1);
	CHECK_EQ(d.entries[0].column, 38);
	free(want);
	diag_done(&d);
	rm_tree(dir);
}

/* Lines and columns are the match's own, in a file written over several
 * lines, and a list of matches names the one that takes the device. */
static void the_matches_that_take_the_device_are_named_by_line_and_column(void)
{
	char *dir = make_temp_dir();
	char *a = ruleset("a", "{'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'}", 0, 40);
	char *b = ruleset("b", "[{'bus': 'bluetooth', 'vendor': 'any', 'product': 'any'},\n"
			       "   {'bus': 'usb', 'vendor': '0x046d', 'product': 'any'}]", 100, 40);
	char *doc_a = document(a, NULL), *doc_b, *want;
	const char *dirs[] = { dir };
	struct diag d = {};
	struct policy *p = NULL;

	CHECK(asprintf(&doc_b, "{'version': 1,\n 'devices': [\n  %s]}", b) > 0, "out of memory");
	write_policy(dir, "10-a.json", doc_a);
	write_policy(dir, "20-b.json", doc_b);
	CHECK_EQ(policy_load_dirs(dirs, 1, true, &d, &p), -EINVAL);
	want = in_dir(dir, "10-a.json:1:38: devices[0].match: a device usb:046D:C52B would get 80 rules, more than the 64 a device holds, from the matches DIR/10-a.json:1:38: devices[0].match (40 rules), DIR/20-b.json:4:4: devices[0].match[1] (40 rules); narrow them or merge their rule sets' rules");
	CHECK_MESSAGES(&d, want);
	free(want);
	free(a);
	free(b);
	free(doc_a);
	free(doc_b);
	diag_done(&d);
	rm_tree(dir);
}

/* Different products of one vendor, or different buses: no device gets
 * both rule sets. */
static void rule_sets_that_never_meet_on_one_device_are_accepted(void)
{
	struct diag d = {};
	struct policy *p;

	p = two_files("{'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}",
		      "{'bus': 'usb', 'vendor': '0x054c', 'product': ['0x09cc', '0x05c4']}", &d);
	CHECK(p, "rule sets for different products were refused");
	CHECK_EQ(d.n_errors, 0);
	policy_free(p);
	diag_done(&d);

	p = two_files("{'bus': 'usb', 'vendor': 'any', 'product': 'any'}",
		      "{'bus': 'bluetooth', 'vendor': 'any', 'product': 'any'}", &d);
	CHECK(p, "rule sets for different buses were refused");
	CHECK_EQ(d.n_errors, 0);
	policy_free(p);
	diag_done(&d);
}

/* "any" meets everything, on a device no rule set names. */
static void a_rule_set_for_any_device_meets_every_other(void)
{
	struct diag d = {};
	struct policy *p = two_files("{'bus': 'usb', 'vendor': '0x046d', 'product': '0xc52b'}",
				     "{'bus': 'any', 'vendor': 'any', 'product': 'any'}", &d);

	CHECK(!p, "80 rules for the receiver were accepted");
	CHECK_EQ(d.n_errors, 1);
	CHECK(strstr(d.entries[0].text, "usb:046D:C52B would get 80 rules"), "%s",
	      d.entries[0].text);
	diag_done(&d);
}

/* Three rule sets where each pair meets, but no device meets all three:
 * vendor 1 any product (40), product 2 of any vendor (20), product 3 of any
 * vendor (20). The most a device gets is 60. */
static void only_rule_sets_that_meet_on_one_device_are_added_up(void)
{
	char *dir = make_temp_dir();
	char *a = ruleset("a", "{'bus': 'any', 'vendor': '0x0001', 'product': 'any'}", 0, 40);
	char *b = ruleset("b", "{'bus': 'any', 'vendor': 'any', 'product': '0x0002'}", 100, 20);
	char *c = ruleset("c", "{'bus': 'any', 'vendor': 'any', 'product': '0x0003'}", 200, 20);
	char *doc, *bc;
	const char *dirs[] = { dir };
	struct diag d = {};
	struct policy *p = NULL;

	CHECK(asprintf(&bc, "%s, %s", b, c) > 0, "out of memory");
	doc = document(a, bc);
	write_policy(dir, "10-abc.json", doc);
	CHECK_EQ(policy_load_dirs(dirs, 1, true, &d, &p), 0);
	CHECK_EQ(d.n_errors, 0);
	policy_free(p);
	diag_done(&d);
	free(a);
	free(b);
	free(c);
	free(bc);
	free(doc);
	rm_tree(dir);
}

static const struct test_case tests[] = {
	{ "two_files_for_the_same_device_that_do_not_fit_are_refused",
	  two_files_for_the_same_device_that_do_not_fit_are_refused },
	{ "the_matches_that_take_the_device_are_named_by_line_and_column",
	  the_matches_that_take_the_device_are_named_by_line_and_column },
	{ "rule_sets_that_never_meet_on_one_device_are_accepted",
	  rule_sets_that_never_meet_on_one_device_are_accepted },
	{ "a_rule_set_for_any_device_meets_every_other", a_rule_set_for_any_device_meets_every_other },
	{ "only_rule_sets_that_meet_on_one_device_are_added_up",
	  only_rule_sets_that_meet_on_one_device_are_added_up },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-capacity", tests, ARRAY_SIZE(tests));
}
