// SPDX-License-Identifier: GPL-2.0-or-later
/* Repeats of one decision, coalesced; see audit_repeat.h. */
#include "audit_repeat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"

bool audit_repeat_same(const struct audit_repeat *r, const char *key, size_t len)
{
	return r->have_key && r->key_len == len && !memcmp(r->key, key, len);
}

int audit_repeat_set(struct audit_repeat *r, const char *key, size_t len)
{
	r->have_key = false;
	if (len > r->key_cap) {
		char *k = realloc(r->key, len);

		if (!k)
			return -ENOMEM;
		r->key = k;
		r->key_cap = len;
	}
	memcpy(r->key, key, len);
	r->key_len = len;
	r->have_key = true;
	return 0;
}

void audit_repeat_add(struct audit_repeat *r, const struct hid_fw_record *rec,
		      const struct audit_context *ctx, const struct audit_subject *subject,
		      uint64_t realtime_ns, uint64_t now_ms)
{
	if (r->span.count++ == 0) {
		r->span.first_ns = realtime_ns;
		r->since_ms = now_ms;
		r->rec = *rec;
		r->have_device = ctx && ctx->device;
		if (r->have_device)
			r->device = *ctx->device;
		/* Without memory the names are left out of the outlets'
		 * copy; the line (the key) has them. */
		r->rule_name = ctx && ctx->rule_name ? strdup(ctx->rule_name) : NULL;
		r->ruleset_name = ctx && ctx->ruleset_name ? strdup(ctx->ruleset_name) : NULL;
		r->subject = *subject;
	}
	r->span.last_ns = realtime_ns;
}

void audit_repeat_context(const struct audit_repeat *r, struct audit_context *ctx)
{
	*ctx = (struct audit_context){
		.device = r->have_device ? &r->device : NULL,
		.rule_name = r->rule_name,
		.ruleset_name = r->ruleset_name,
	};
}

void audit_repeat_told(struct audit_repeat *r)
{
	free(r->rule_name);
	free(r->ruleset_name);
	r->rule_name = r->ruleset_name = NULL;
	r->span = (struct audit_span){};
}

void audit_repeat_free(struct audit_repeat *r)
{
	audit_repeat_told(r);
	free(r->key);
	audit_line_free(&r->line);
	*r = (struct audit_repeat){};
}
