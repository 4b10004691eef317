// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the policy loader and validator on arbitrary bytes, then
 * the compiler and evaluator on whatever loads. Beyond memory errors (ASan),
 * it aborts when a compiled table breaks a bound of bpf/hid_rules.h, since
 * the BPF programs rely on those.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_table(const struct policy *p, const struct hid_device_rules *t)
{
	if (t->n_rules > HID_RULES_MAX_RULES || t->mode > HID_RULES_MODE_AUDIT ||
	    t->default_action > HID_RULE_DENY)
		abort();
	for (uint32_t i = 0; i < t->n_rules; i++) {
		const struct hid_rule *r = &t->rules[i];

		if (r->index >= p->n_rules || r->action > HID_RULE_DENY || !r->kinds ||
		    r->n_conds > HID_RULES_MAX_CONDS || (r->action == HID_RULE_DENY && !r->err))
			abort();
		for (unsigned c = 0; c < r->n_conds; c++) {
			const struct hid_rule_cond *hc = &r->conds[c];

			if (hc->len < 1 || hc->len > HID_RULES_COND_BYTES ||
			    hc->offset + hc->len > HID_RULES_MAX_PAYLOAD ||
			    (hc->flags & ~HID_RULE_COND_F_NOT))
				abort();
			for (unsigned b = 0; b < HID_RULES_COND_BYTES; b++)
				if ((hc->value[b] & ~hc->mask[b]) || (b >= hc->len && hc->mask[b]))
					abort();
		}
	}
}

/* What a device told of its HID++ features: device index 0xFF has 0x00D0
 * at 0x05 and none of 0x00D1; 2 has both; the others did not answer. */
static const struct hidpp_features told = {
	.answered = 1u << 0 | 1u << 2,
	.n = 4,
	.entries = {
		{ .device = 0xff, .feature = 0x00d0, .index = 0x05 },
		{ .device = 0xff, .feature = 0x00d1, .index = 0 },
		{ .device = 0x02, .feature = 0x00d0, .index = 0x0e },
		{ .device = 0x02, .feature = 0x00d1, .index = 0x0d },
	},
};

/* Compile for a device each match names (once without HID++ answers, once
 * with), and evaluate a few requests. */
static void exercise(const struct policy *p, FILE *null)
{
	static struct hid_device_rules table;
	static const uint8_t buf[8] = { 0xf4, 0x90, 0x04, 0xff, 0x80, 0xf0, 0x49, 0x43 };

	for (size_t s = 0; s < p->n_sets && s < 8; s++)
		for (size_t m = 0; m < 2 * p->sets[s].n_matches && m < 4; m++) {
			const struct policy_match *pm = &p->sets[s].matches[m / 2];
			struct policy_device dev = {
				.bus = 0x03,
				.vendor = pm->vendors.n ? pm->vendors.ids[0] : 0x054c,
				.product = pm->products.n ? pm->products.ids[0] : 0x0ce6,
				.name = pm->name ?: "DualSense",
				.uniq = pm->uniq,
				.phys = pm->phys,
				.hidpp = m % 2 ? &told : NULL,
			};
			struct policy_verdict v;

			if (policy_compile(p, &dev, &table, NULL) < 0)
				continue;
			check_table(p, &table);
			for (unsigned k = 0; k < 8; k++) {
				struct policy_request req = {
					.kind = (uint8_t)(1u << k), .report_id = buf[k],
					.data = buf, .len = k + 1,
				};

				policy_evaluate(&table, &req, &v);
				if (v.enforced && v.action != HID_RULE_DENY)
					abort();
			}
			struct policy_request req = { .kind = HID_RULE_KIND_SET_FEATURE,
						      .report_id = 0xf4, .data = buf, .len = 3 };
			policy_explain(p, &dev, &req, NULL, null, &v);
			/* a HID++ message, as short as can name a device index */
			req = (struct policy_request){ .kind = HID_RULE_KIND_OUTPUT_REPORT,
						       .report_id = 0x11, .data = buf + 1, .len = 2 };
			policy_explain(p, &dev, &req, NULL, null, &v);
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct diag d = {};
	struct policy *p = NULL;

	if (!null)
		null = fopen("/dev/null", "w");
	if (policy_load_buffer("fuzz.json", (const char *)data, size, &d, &p) == 0) {
		if (d.n_errors)
			abort();
		exercise(p, null);
	} else if (!d.n_errors && !d.oom) {
		abort(); /* rejected without saying why */
	}
	policy_free(p);
	diag_done(&d);
	return 0;
}
