// SPDX-License-Identifier: GPL-2.0-or-later
/* What the daemon knows: see state.h. */
#include "state.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void state_done(struct state *s)
{
	policy_free(s->policy);
	s->policy = NULL;
	for (size_t i = 0; i < s->n_devices; i++)
		free(s->devices[i].policy_rules);
	free(s->devices);
	s->devices = NULL;
	s->n_devices = s->cap_devices = 0;
	exception_table_done(&s->exceptions);
}

struct managed_device *state_find_device(const struct state *s, uint32_t hid_id)
{
	for (size_t i = 0; i < s->n_devices; i++)
		if (s->devices[i].info.hid_id == hid_id)
			return &s->devices[i];
	return NULL;
}

struct managed_device *state_add_device(struct state *s, const struct hid_dev_info *info)
{
	struct managed_device *m = state_find_device(s, info->hid_id);

	if (m)
		return m;
	if (GROW(s->devices, s->n_devices, s->cap_devices) < 0)
		return NULL;
	m = &s->devices[s->n_devices++];
	*m = (struct managed_device){ .info = *info };
	return m;
}

void state_forget_device(struct state *s, struct managed_device *m)
{
	size_t i = (size_t)(m - s->devices);

	free(m->policy_rules);
	memmove(&s->devices[i], &s->devices[i + 1],
		(s->n_devices - i - 1) * sizeof(*s->devices));
	s->n_devices--;
}

size_t state_n_protected(const struct state *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_devices; i++)
		n += s->devices[i].protected;
	return n;
}

void state_policy_device(const struct hid_dev_info *info, struct policy_device *pdev)
{
	*pdev = (struct policy_device){
		.bus = info->bus,
		.vendor = info->vendor,
		.product = info->product,
		.name = info->name,
		.uniq = info->uniq,
		.phys = info->phys,
		.descriptor_known = info->descriptor_known || info->bound,
		.usages = info->usages,
		.n_usages = info->n_usages,
		.descriptor_sha256 = info->descriptor_known ? info->descriptor_sha256 : NULL,
		.reports = info->reports,
		.n_reports = info->n_reports,
		.reports_incomplete = info->reports_incomplete,
		.has_interface = info->has_interface,
		.interface = info->interface,
		/* Always a table, empty while the descriptor is not known:
		 * the firewall then refuses every request from user space. */
		.declared = info->declared,
	};
}
