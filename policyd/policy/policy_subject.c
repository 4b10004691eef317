// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who sends a request, as far as a question about it says (hid-policyctl
 * explain --user ...): which rules match for every sender the question
 * stands for, for none, or for some. Each is decided by the firewall's own
 * evaluation (policy_rule_matches), tried on one sender of each kind the
 * rule's sender tells apart: every value it lists and one it does not, for
 * each field the question leaves open. A sender's fields must all hold, so
 * those kinds cover every sender.
 */
#include "policy_internal.h"

/* Each of IDS[0..N) and one value none of them is: one sender of each kind
 * a rule's list tells apart. Returns how many went to OUT. */
static size_t each_id_and_another(const uint32_t *ids, uint8_t n, uint32_t *out)
{
	uint32_t other = UINT32_MAX - 1;	/* (uid_t)-1 is nobody's */
	size_t k = 0;

	for (unsigned i = 0; i < n && i < HID_SENDER_MAX_IDS; i++)
		out[k++] = ids[i];
	while (sender_lists_id(ids, n, other))
		other--;
	out[k++] = other;
	return k;
}

static size_t each_exe_and_another(const struct hid_rule_sender *s, struct hid_rule_exe *out)
{
	struct hid_rule_exe other = {};
	size_t k = 0;

	for (unsigned i = 0; i < s->n_exes && i < HID_SENDER_MAX_IDS; i++)
		out[k++] = s->exes[i];
	while (sender_lists_exe(s, &other))
		other.ino++;
	out[k++] = other;
	return k;
}

unsigned int policy_subject_given(const struct policy_subject *who)
{
	return who ? who->given : 0;
}

bool policy_subject_is_process(const struct policy_subject *who)
{
	unsigned int given = policy_subject_given(who);

	return (given & (POLICY_SUBJECT_USER | POLICY_SUBJECT_GROUPS | POLICY_SUBJECT_EXECUTABLE |
			 POLICY_SUBJECT_UNIT)) ||
	       ((given & POLICY_SUBJECT_ORIGIN) && !who->from_kernel);
}

bool policy_subject_is_driver(const struct policy_subject *who)
{
	return (policy_subject_given(who) & POLICY_SUBJECT_ORIGIN) && who->from_kernel;
}

void policy_subject_sender(const struct policy_subject *who, struct policy_sender_id *id)
{
	unsigned int given = policy_subject_given(who);

	*id = (struct policy_sender_id){ .known = true, .exe_known = true,
					 .from_kernel = policy_subject_is_driver(who) };
	if (given & POLICY_SUBJECT_USER)
		id->uid = who->uid;
	if (given & POLICY_SUBJECT_GROUPS) {
		id->gid = who->gid;
		id->groups = who->groups;
		id->n_groups = who->n_groups;
		/* The firewall searches all the groups a task can have;
		 * more than the kernel allows is no task. */
		id->known = who->n_groups <= HID_SENDER_GROUPS_MAX;
	}
	if (given & POLICY_SUBJECT_EXECUTABLE) {
		id->exe_ino = who->exe.ino;
		id->exe_dev = who->exe.dev;
	}
	if (given & POLICY_SUBJECT_UNIT) {
		id->cgroups = who->cgroups;
		id->n_cgroups = who->n_cgroups;
	}
}

/* Deep enough for any unit a rule names: system.slice/x.service is 2. */
#define UNIT_LEVELS_MAX 16

/* A sender in each unit S lists that is running, and one in none of them:
 * cgroup ancestries that tell them apart (an id no cgroup has fills the
 * levels a unit does not decide). Returns how many went to OUT/N_OUT. */
static size_t each_unit_and_none(const struct hid_rule_sender *s,
				 uint64_t out[][UNIT_LEVELS_MAX], size_t *n_out)
{
	size_t k = 0;

	for (unsigned i = 0; i < s->n_units && i < HID_SENDER_MAX_IDS; i++) {
		const struct hid_rule_unit *u = &s->units[i];

		if (!u->cgroup_id || u->level >= UNIT_LEVELS_MAX)
			continue;	/* not running: none of its processes exists */
		for (uint32_t l = 0; l <= u->level; l++)
			out[k][l] = UINT64_MAX;
		out[k][u->level] = u->cgroup_id;
		n_out[k++] = u->level + 1;
	}
	n_out[k++] = 0;
	return k;
}

/* The fields of a rule's sender that a subject can name, each tried below. */
#define SUBJECT_FIELDS (HID_SENDER_F_ORIGIN | HID_SENDER_F_USER | HID_SENDER_F_GROUP | \
			HID_SENDER_F_EXECUTABLE | HID_SENDER_F_UNIT)

enum policy_match_result policy_rule_matches_subject(const struct hid_rule *r,
						     const struct policy_request *req,
						     const struct policy_subject *who)
{
	const struct hid_rule_sender *s = &r->sender;
	unsigned int given = policy_subject_given(who);
	uint32_t uids[HID_SENDER_MAX_IDS + 1], gids[HID_SENDER_MAX_IDS + 1];
	struct hid_rule_exe exes[HID_SENDER_MAX_IDS + 1];
	uint64_t cgroups[HID_SENDER_MAX_IDS + 1][UNIT_LEVELS_MAX];
	size_t n_cgroups[HID_SENDER_MAX_IDS + 1];
	bool from_kernel[2] = { false, true };
	size_t n_origins = 2, n_uids = 1, n_gids = 1, n_exes = 1, n_units = 1;
	struct policy_request q = *req;
	struct policy_sender_id id;
	bool some = false, all = true;

	/* What WHO gives is one value; what it leaves open, every kind of
	 * value the rule tells apart. */
	policy_subject_sender(who, &id);
	if ((given & POLICY_SUBJECT_ORIGIN) || policy_subject_is_process(who)) {
		from_kernel[0] = policy_subject_is_driver(who);
		n_origins = 1;
	}
	if (!(given & POLICY_SUBJECT_USER))
		n_uids = each_id_and_another(s->uids, s->n_uids, uids);
	if (!(given & POLICY_SUBJECT_GROUPS))
		n_gids = each_id_and_another(s->gids, s->n_gids, gids);
	if (!(given & POLICY_SUBJECT_EXECUTABLE))
		n_exes = each_exe_and_another(s, exes);
	if (!(given & POLICY_SUBJECT_UNIT))
		n_units = each_unit_and_none(s, cgroups, n_cgroups);

	q.sender = &id;
	for (size_t c = 0; c < n_units; c++) {
		for (size_t o = 0; o < n_origins; o++)
			for (size_t u = 0; u < n_uids; u++)
				for (size_t g = 0; g < n_gids; g++)
					for (size_t e = 0; e < n_exes; e++) {
						bool m;

						id.from_kernel = from_kernel[o];
						if (!(given & POLICY_SUBJECT_USER))
							id.uid = uids[u];
						if (!(given & POLICY_SUBJECT_GROUPS))
							id.gid = gids[g];
						if (!(given & POLICY_SUBJECT_EXECUTABLE)) {
							id.exe_ino = exes[e].ino;
							id.exe_dev = exes[e].dev;
						}
						if (!(given & POLICY_SUBJECT_UNIT)) {
							id.cgroups = cgroups[c];
							id.n_cgroups = n_cgroups[c];
						}
						m = policy_rule_matches(r, &q);
						some |= m;
						all &= m;
					}
	}
	/* A field a subject cannot name yet (one the firewall learnt before
	 * this file did) is not guessed: all fields must hold, so where the
	 * others can, the rule matches for some senders. */
	if ((s->fields & ~SUBJECT_FIELDS) && some)
		return POLICY_MATCH_DEPENDS;
	return all ? POLICY_MATCH_ALWAYS : some ? POLICY_MATCH_DEPENDS : POLICY_MATCH_NEVER;
}
