// SPDX-License-Identifier: GPL-2.0-or-later
/* The policy object's life: creation and release. */
#include <stdlib.h>

#include "policy.h"

struct policy *policy_new(void)
{
	return calloc(1, sizeof(struct policy));
}

static void match_done(struct policy_match *m)
{
	free(m->path);
	free(m->vendors.ids);
	free(m->products.ids);
	free(m->name);
	free(m->uniq);
	free(m->phys);
	free(m->usages);
	free(m->hashes);
}

void policy_free(struct policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_files; i++) {
		free(p->files[i].name);
		free(p->files[i].path);
		free(p->files[i].description);
		free(p->files[i].text);
	}
	for (size_t i = 0; i < p->n_sets; i++) {
		struct policy_ruleset *s = &p->sets[i];

		for (size_t j = 0; j < s->n_matches; j++)
			match_done(&s->matches[j]);
		free(s->matches);
		free(s->path);
		free(s->name);
		free(s->description);
	}
	for (size_t i = 0; i < p->n_rules; i++) {
		free(p->rules[i].name);
		free(p->rules[i].description);
		free(p->rules[i].path);
	}
	for (size_t i = 0; i < p->n_units; i++) {
		free(p->units[i].name);
		free(p->units[i].path);
	}
	for (size_t i = 0; i < p->n_assumed; i++)
		free(p->assumed[i].name);
	free(p->assumed);
	free(p->files);
	free(p->sets);
	free(p->rules);
	free(p->units);
	free(p);
}
