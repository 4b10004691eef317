// SPDX-License-Identifier: GPL-2.0-or-later
/* The firewall's decision records into the audit log: see records.h. */
#include "records.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "bpf/hid_firewall.h"

/* Stops libbpf's read once the round's budget is spent. The record just
 * handed over is consumed either way: libbpf moves past it before the
 * callback and keeps that position when the callback fails. */
static int next_record(struct records *r)
{
	if (r->left > 0)
		r->left--;
	return r->left > 0 ? 0 : -EAGAIN;
}

/* Name the rule a record names: a temporary allow, or one of the policy
 * in force (records read before a reload name the old policy's rules:
 * records_read_waiting() runs first). */
static void name_rule(const struct state *s, uint32_t rule_index, struct audit_context *actx,
		      char *name, size_t size)
{
	const struct policy *p = s->policy;
	uint32_t exception_id;

	if (rule_index == HID_RULE_INDEX_UNDECLARED) {
		actx->rule_name = AUDIT_RULE_UNDECLARED;
	} else if (exception_index(rule_index, &exception_id)) {
		snprintf(name, size, "temporary-allow-%u", exception_id);
		actx->rule_name = name;
		actx->ruleset_name = "hid-policyctl allow";
	} else if (p && rule_index < p->n_rules) {
		const struct policy_rule *rule = &p->rules[rule_index];

		actx->rule_name = rule->name;
		if (rule->set < p->n_sets)
			actx->ruleset_name = p->sets[rule->set].name;
	}
}

bool records_decode(const void *data, size_t size, struct hid_fw_record *out)
{
	if (size < offsetof(struct hid_fw_record, euid))
		return false;
	memset(out, 0, sizeof(*out));
	memcpy(out, data, size < sizeof(*out) ? size : sizeof(*out));
	return true;
}

static int write_record(void *ctx, void *data, size_t size)
{
	struct records *r = ctx;
	struct hid_fw_record full;
	const struct hid_fw_record *rec = data;
	struct audit_context actx = {};
	struct managed_device *m;
	char name[40];

	if (size < sizeof(*rec)) {
		if (!records_decode(data, size, &full))
			return next_record(r);
		rec = &full;
	}
	m = state_find_device(r->state, rec->hid_id);
	if (m)
		actx.device = &m->info;
	name_rule(r->state, rec->rule_index, &actx, name, sizeof(name));
	audit_write_record(r->audit, rec, &actx);
	return next_record(r);
}

int records_open(struct records *r, int events_fd, const struct state *state,
		 struct audit_log *audit)
{
	*r = (struct records){ .state = state, .audit = audit };
	r->ring = ring_buffer__new(events_fd, write_record, r, NULL);
	return r->ring ? 0 : -errno;
}

void records_close(struct records *r)
{
	if (!r->ring)
		return;
	records_read_waiting(r);
	ring_buffer__free(r->ring);
	r->ring = NULL;
}

int records_fd(const struct records *r)
{
	return ring_buffer__epoll_fd(r->ring);
}

int records_read(struct records *r, size_t budget)
{
	int ret;

	if (budget == 0)
		return 1;
	r->left = budget;
	ret = ring_buffer__consume(r->ring);
	if (ret == -EAGAIN && r->left == 0)
		return 1;
	return ret < 0 ? ret : 0;
}

int records_read_waiting(struct records *r)
{
	/* each record: the ring buffer's 8-byte header, then the record,
	 * rounded up to 8 bytes */
	size_t one = BPF_RINGBUF_HDR_SZ + ((sizeof(struct hid_fw_record) + 7) & ~(size_t)7);

	return records_read(r, HID_FW_RINGBUF_BYTES / one + 1);
}
