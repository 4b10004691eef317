// SPDX-License-Identifier: GPL-2.0-or-later
/* The index of a device's compiled rules; see rule_index.h. */
#include "rule_index.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

int rule_index_build(struct hid_device_rules *rules)
{
	memset(rules->kind_rules, 0, sizeof(rules->kind_rules));
	memset(rules->report_id_rules, 0, sizeof(rules->report_id_rules));
	rules->task_sender_rules = 0;
	if (rules->n_rules > HID_RULES_MAX_RULES)
		return -E2BIG;
	for (uint32_t i = 0; i < rules->n_rules; i++) {
		const struct hid_rule *rule = &rules->rules[i];
		uint64_t bit = UINT64_C(1) << i;

		for (unsigned int k = 0; k < HID_RULES_KINDS; k++)
			if (rule->kinds & (1u << k))
				rules->kind_rules[k] |= bit;
		for (unsigned int id = 0; id < HID_RULES_REPORT_IDS; id++)
			if (hid_rule_has_report_id(rule, (uint8_t)id))
				rules->report_id_rules[id] |= bit;
		if (rule->sender.fields & (HID_SENDER_F_USER | HID_SENDER_F_GROUP |
					   HID_SENDER_F_EXECUTABLE))
			rules->task_sender_rules |= bit;
	}
	return 0;
}
