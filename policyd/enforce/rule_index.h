/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The index of a device's compiled rules (bpf/hid_rules.h): which rules a
 * request of each kind, and to each report ID, can match, so that the
 * firewall looks at those alone.
 */
#pragma once

#include "hid_rules.h"

/* Fill RULES's kind_rules, report_id_rules and task_sender_rules from its
 * rules[0..n_rules).
 * Returns 0, or -E2BIG when n_rules is past HID_RULES_MAX_RULES (the index
 * is then empty, and the rules must not be stored). */
int rule_index_build(struct hid_device_rules *rules);
