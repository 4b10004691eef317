/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A report a device's descriptor declares, and a usage it carries: what the
 * descriptor parser (hid/) finds and the policy engine (policy/) resolves a
 * rule's "report_usage_page" with. Here, below both, so that neither needs
 * the other.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* Report types, one bit each, in the order of the GET/SET kind bits of
 * bpf/hid_rules.h (feature, input, output). */
#define HID_REPORT_FEATURE	(1u << 0)
#define HID_REPORT_INPUT	(1u << 1)
#define HID_REPORT_OUTPUT	(1u << 2)

struct hid_report_usage {
	uint8_t type;			/* one HID_REPORT_* bit */
	uint8_t id;			/* its report ID; 0 where the device numbers none */
	uint16_t page;			/* the usage page */
	bool has_usage;			/* false: the item names no usage, only the page */
	uint16_t usage_min, usage_max;	/* the usages of PAGE it carries (a range) */
};
