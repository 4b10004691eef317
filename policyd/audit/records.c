// SPDX-License-Identifier: GPL-2.0-or-later
/* The firewall's decision records into the audit log: see records.h. */
#include "records.h"

#include <errno.h>
#include <stdio.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "bpf/hid_firewall.h"

/* Stops libbpf's read once the round's budget is spent. The record just
 * handed over is consumed either way: libbpf moves past it before the
 * callback and keeps that position when the callback fails. */
static int next_record(struct daemon *d)
{
	if (d->records_left > 0)
		d->records_left--;
	return d->records_left > 0 ? 0 : -EAGAIN;
}

static int write_record(void *ctx, void *data, size_t size)
{
	struct daemon *d = ctx;
	const struct hid_fw_record *rec = data;
	struct audit_context actx = {};
	struct managed_device *m;
	uint32_t exception_id;
	char name[40];

	if (size < sizeof(*rec))
		return next_record(d);
	m = daemon_find_device(d, rec->hid_id);
	if (m)
		actx.device = &m->info;
	if (rec->rule_index == HID_RULE_INDEX_UNDECLARED) {
		actx.rule_name = AUDIT_RULE_UNDECLARED;
	} else if (exception_index(rec->rule_index, &exception_id)) {
		snprintf(name, sizeof(name), "temporary-allow-%u", exception_id);
		actx.rule_name = name;
		actx.ruleset_name = "hid-policyctl allow";
	} else if (rec->rule_index < d->policy->n_rules) {
		const struct policy_rule *rule = &d->policy->rules[rec->rule_index];

		actx.rule_name = rule->name;
		if (rule->set < d->policy->n_sets)
			actx.ruleset_name = d->policy->sets[rule->set].name;
	}
	audit_write_record(&d->audit, rec, &actx);
	return next_record(d);
}

struct ring_buffer *records_open(struct daemon *d)
{
	return ring_buffer__new(d->loader.events_fd, write_record, d, NULL);
}

int records_read(struct daemon *d, size_t budget)
{
	int r;

	if (budget == 0)
		return 1;
	d->records_left = budget;
	r = ring_buffer__consume(d->events);
	if (r == -EAGAIN && d->records_left == 0)
		return 1;
	return r < 0 ? r : 0;
}

int records_read_waiting(struct daemon *d)
{
	/* each record: the ring buffer's 8-byte header, then the record,
	 * rounded up to 8 bytes */
	size_t one = BPF_RINGBUF_HDR_SZ + ((sizeof(struct hid_fw_record) + 7) & ~(size_t)7);

	return records_read(d, HID_FW_RINGBUF_BYTES / one + 1);
}
