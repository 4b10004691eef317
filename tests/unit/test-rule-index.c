// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The index of compiled rules (policyd/enforce/rule_index.c) that the
 * firewall walks instead of every rule: for every request kind and report
 * ID, the candidates are exactly the rules whose kinds and report IDs
 * match it, so walking them in bit order decides as walking all rules in
 * order would.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "enforce/rule_index.h"
#include "harness.h"

static void name_report(struct hid_rule *rule, unsigned int id)
{
	rule->report_ids[id / 32] |= 1u << (id % 32);
}

/* The rules of R a request of kind slot K to report ID can match, the
 * firewall's way before the index: every rule, in order. */
static uint64_t linear_candidates(const struct hid_device_rules *r, unsigned int k,
				  unsigned int id)
{
	uint64_t set = 0;

	for (uint32_t i = 0; i < r->n_rules; i++)
		if ((r->rules[i].kinds & (1u << k)) && hid_rule_has_report_id(&r->rules[i], id))
			set |= UINT64_C(1) << i;
	return set;
}

static void check_against_linear(const struct hid_device_rules *r)
{
	for (unsigned int k = 0; k < HID_RULES_KINDS; k++)
		for (unsigned int id = 0; id < HID_RULES_REPORT_IDS; id++)
			CHECK(linear_candidates(r, k, id) == (r->kind_rules[k] & r->report_id_rules[id]),
			      "kind slot %u, report ID %u: index %#llx, rules %#llx", k, id,
			      (unsigned long long)(r->kind_rules[k] & r->report_id_rules[id]),
			      (unsigned long long)linear_candidates(r, k, id));
}

static void a_report_no_rule_names_has_no_candidate(void)
{
	struct hid_device_rules *r = calloc(1, sizeof(*r));

	r->n_rules = 2;
	r->rules[0].kinds = HID_RULE_KIND_SET_FEATURE;
	name_report(&r->rules[0], 0xf4);
	r->rules[1].kinds = HID_RULE_KIND_ALL;
	name_report(&r->rules[1], 0x80);
	CHECK_OK(rule_index_build(r));
	CHECK_EQ(r->report_id_rules[0x05], 0);
	CHECK_EQ(r->report_id_rules[0xf4], 1);
	CHECK_EQ(r->report_id_rules[0x80], 2);
	/* SET_REPORT feature is slot 3; GET_REPORT feature slot 0 */
	CHECK_EQ(r->kind_rules[3] & r->report_id_rules[0xf4], 1);
	CHECK_EQ(r->kind_rules[0] & r->report_id_rules[0xf4], 0);
	CHECK_EQ(r->kind_rules[0] & r->report_id_rules[0x80], 2);
	check_against_linear(r);
	free(r);
}

static void random_rule_sets_index_exactly_the_matching_rules(void)
{
	struct hid_device_rules *r = calloc(1, sizeof(*r));

	srand(19);
	for (int round = 0; round < 200; round++) {
		memset(r, 0, sizeof(*r));
		r->n_rules = (uint32_t)(rand() % (HID_RULES_MAX_RULES + 1));
		for (uint32_t i = 0; i < r->n_rules; i++) {
			struct hid_rule *rule = &r->rules[i];

			rule->kinds = (uint8_t)rand();
			if (rand() % 4 == 0)
				memset(rule->report_ids, 0xff, sizeof(rule->report_ids));
			for (int n = rand() % 4; n > 0; n--)
				name_report(rule, (unsigned int)(rand() % 256));
		}
		/* A stale index from the caller is replaced, not merged. */
		memset(r->kind_rules, 0xff, sizeof(r->kind_rules));
		memset(r->report_id_rules, 0xff, sizeof(r->report_id_rules));
		CHECK_OK(rule_index_build(r));
		check_against_linear(r);
	}
	free(r);
}

static void rules_past_n_rules_are_not_indexed(void)
{
	struct hid_device_rules *r = calloc(1, sizeof(*r));

	r->n_rules = 1;
	r->rules[0].kinds = HID_RULE_KIND_OUTPUT_REPORT;
	name_report(&r->rules[0], 2);
	r->rules[1] = r->rules[0];	/* left over past n_rules */
	CHECK_OK(rule_index_build(r));
	CHECK_EQ(r->report_id_rules[2], 1);
	CHECK_EQ(r->kind_rules[6], 1);
	free(r);
}

static void too_many_rules_leave_an_empty_index_and_fail(void)
{
	struct hid_device_rules *r = calloc(1, sizeof(*r));

	r->n_rules = HID_RULES_MAX_RULES + 1;
	memset(r->kind_rules, 0xff, sizeof(r->kind_rules));
	CHECK_EQ(rule_index_build(r), -E2BIG);
	for (unsigned int k = 0; k < HID_RULES_KINDS; k++)
		CHECK_EQ(r->kind_rules[k], 0);
	free(r);
}

/* The firewall reads the calling task only when a candidate rule needs
 * it: rules with a user, group or executable; not origin or unit alone. */
static void rules_that_need_the_task_are_marked(void)
{
	struct hid_device_rules *r = calloc(1, sizeof(*r));
	static const uint8_t fields[] = {
		0, HID_SENDER_F_ORIGIN, HID_SENDER_F_USER, HID_SENDER_F_UNIT,
		HID_SENDER_F_GROUP | HID_SENDER_F_UNIT, HID_SENDER_F_EXECUTABLE,
	};

	r->n_rules = ARRAY_SIZE(fields);
	for (uint32_t i = 0; i < r->n_rules; i++)
		r->rules[i].sender.fields = fields[i];
	/* past n_rules: never a candidate, never marked */
	r->rules[r->n_rules].sender.fields = HID_SENDER_F_USER;
	r->task_sender_rules = ~UINT64_C(0);
	CHECK_OK(rule_index_build(r));
	CHECK_EQ(r->task_sender_rules, (UINT64_C(1) << 2) | (UINT64_C(1) << 4) | (UINT64_C(1) << 5));
	free(r);
}

static const struct test_case tests[] = {
	{ "rules_that_need_the_task_are_marked", rules_that_need_the_task_are_marked },
	{ "a_report_no_rule_names_has_no_candidate", a_report_no_rule_names_has_no_candidate },
	{ "random_rule_sets_index_exactly_the_matching_rules", random_rule_sets_index_exactly_the_matching_rules },
	{ "rules_past_n_rules_are_not_indexed", rules_past_n_rules_are_not_indexed },
	{ "too_many_rules_leave_an_empty_index_and_fail", too_many_rules_leave_an_empty_index_and_fail },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "rule-index", tests, ARRAY_SIZE(tests));
}
