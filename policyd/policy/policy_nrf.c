// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "nrf_config_option": a rule about one option of an nRF Desktop device's
 * configuration channel ("dfu/reboot"), whose event ID (byte 2: module
 * index << 4 | option index) each firmware numbers itself
 * (common/nrf_config.h). The daemon asks the device for its modules
 * (hid/nrf_config_learn.h) and the rule is compiled with what it listed.
 */
#include <errno.h>
#include <string.h>

#include "policy_internal.h"

#define NRF_WRITES (HID_RULE_KIND_SET_FEATURE | HID_RULE_KIND_SET_OUTPUT | \
		    HID_RULE_KIND_OUTPUT_REPORT)

/* One part of "MODULE/OPTION": 1..NRF_CONFIG_NAME_MAX printable bytes, as
 * the firmware lists them (the listing's answers are the names' bytes). */
static bool name_ok(const char *s, size_t len)
{
	if (len == 0 || len > NRF_CONFIG_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x21 || s[i] > 0x7e || s[i] == '/')
			return false;
	return true;
}

int pv_nrf_option(struct parse_ctx *c, const char *path, json_t *v, struct policy_rule *rule)
{
	json_t *e = json_object_get(v, "nrf_config_option");
	char sub[POLICY_PATH_MAX], d[64];
	const char *s, *slash;
	bool other_ids = false;
	int r = 0;

	if (!e)
		return 0;
	path_key(sub, sizeof(sub), path, "nrf_config_option");
	s = json_is_string(e) ? json_string_value(e) : NULL;
	slash = s ? strchr(s, '/') : NULL;
	if (!slash || !name_ok(s, (size_t)(slash - s)) || !name_ok(slash + 1, strlen(slash + 1))) {
		perr(c, sub, "expected \"MODULE/OPTION\" as the device lists them in its configuration channel, each 1-%d printable characters, such as \"dfu/reboot\"; got %s",
		     NRF_CONFIG_NAME_MAX, json_describe(e, d, sizeof(d)));
		r = -EINVAL;
	} else {
		memcpy(rule->nrf_module, s, (size_t)(slash - s));
		rule->nrf_module[slash - s] = '\0';
		snprintf(rule->nrf_option, sizeof(rule->nrf_option), "%s", slash + 1);
	}
	if (json_object_get(v, "hidpp_feature")) {
		perr_key(c, sub, "a rule names a HID++ feature or an nRF Desktop configuration option, not both");
		r = -EINVAL;
	}
	if (json_object_get(v, "report_usage_page")) {
		perr_key(c, path_key(sub, sizeof(sub), path, "report_usage_page"),
			 "a rule naming an nRF Desktop configuration option names its reports by ID: \"report_id\" 0x06 (feature) or 0x07 (output)");
		r = -EINVAL;
	}
	for (size_t w = 0; w < HID_RULES_REPORT_ID_WORDS; w++)
		other_ids |= rule->report_ids[w] &
			     ~(w == 0 ? 1u << NRF_CONFIG_REPORT_FEATURE | 1u << NRF_CONFIG_REPORT_OUTPUT : 0);
	if (other_ids) {
		perr(c, path_key(sub, sizeof(sub), path, "report_id"),
		     "a rule naming an nRF Desktop configuration option names only the configuration channel's reports: 0x06 (feature) and 0x07 (output)");
		r = -EINVAL;
	}
	if (rule->kinds & ~NRF_WRITES) {
		perr(c, path_key(sub, sizeof(sub), path, "request"),
		     "a rule naming an nRF Desktop configuration option applies to the requests that write a configuration frame: \"set_report\" of feature report 0x06, \"output_report\" and \"set_report\" of output report 0x07 (a GET_REPORT or an input event carries nothing the caller wrote)");
		r = -EINVAL;
	}
	if (rule->n_conds > POLICY_NRF_RULE_CONDS) {
		perr(c, path_key(sub, sizeof(sub), path, "payload"),
		     "needs %u compiled conditions, more than the %d a rule naming an nRF Desktop configuration option has: its compiled copies add the recipient and the event ID",
		     rule->n_conds, POLICY_NRF_RULE_CONDS);
		r = -EINVAL;
	}
	return r;
}

bool nrf_options_cover(const struct policy_rule *a, const struct policy_rule *b)
{
	if (!a->nrf_module[0])
		return true;
	return b->nrf_module[0] && !strcmp(a->nrf_module, b->nrf_module) &&
	       !strcmp(a->nrf_option, b->nrf_option);
}

bool policy_names_nrf_options(const struct policy *p, const struct policy_device *dev)
{
	for (size_t s = 0; s < p->n_sets; s++) {
		const struct policy_ruleset *set = &p->sets[s];

		if (!policy_ruleset_matches(set, dev))
			continue;
		for (size_t i = set->first_rule; i < set->first_rule + set->n_rules; i++)
			if (p->rules[i].nrf_module[0])
				return true;
	}
	return false;
}

static void add_cond(struct hid_rule *hr, uint16_t offset, uint8_t value, uint8_t mask,
		     uint8_t flags)
{
	hr->conds[hr->n_conds++] = (struct hid_rule_cond){
		.offset = offset, .len = 1, .flags = flags, .value = { value }, .mask = { mask },
	};
}

static struct hid_rule *next_copy(const struct hid_rule *base, struct hid_rule *out, size_t max,
				  size_t *n)
{
	struct hid_rule *hr = *n < max ? &out[*n] : NULL;

	(*n)++;
	if (hr)
		*hr = *base;
	return hr;
}

/* A copy of BASE that lets the daemon's executable, run by root, send
 * the frame whose status is STATUS to the device itself. */
static void daemon_question(const struct hid_rule *base, const struct hid_rule_exe *self,
			    uint8_t status, struct hid_rule *out, size_t max, size_t *n)
{
	struct hid_rule *hr = next_copy(base, out, max, n);

	if (!hr)
		return;
	memset(&hr->sender, 0, sizeof(hr->sender));
	hr->action = HID_RULE_ALLOW;
	hr->err = 0;
	hr->sender.fields = HID_SENDER_F_USER | HID_SENDER_F_EXECUTABLE;
	hr->sender.n_uids = 1;	/* uid 0 */
	hr->sender.n_exes = 1;
	hr->sender.exes[0] = *self;
	hr->n_conds = 0;
	add_cond(hr, NRF_CONFIG_OFFSET_RECIPIENT, NRF_CONFIG_RECIPIENT_SELF, 0xff, 0);
	add_cond(hr, NRF_CONFIG_OFFSET_STATUS, status, 0xff, 0);
	if (status == NRF_CONFIG_STATUS_FETCH)
		add_cond(hr, NRF_CONFIG_OFFSET_EVENT, 0x00, 0x0f, 0);	/* option 0: the listing */
}

/*
 * A rule naming an option, on DEV:
 *  - until the device has told (no table, or a round not complete): a
 *    deny applies whole, and the channel is the daemon's: its own
 *    questions (GET_MAX_MOD_ID and the listing's FETCH of option 0, to the
 *    device itself) pass from its executable run by root, and every other
 *    frame on the rule's reports is refused to programs, whatever its
 *    status, so that none can put an answer or move a listing's cursor
 *    between the daemon's questions (hid/nrf_config_learn.h). The senders
 *    that rules before this one allow (fwupd.service) still pass. An
 *    allow applies to nothing: the option cannot be told from the others.
 *  - once it has: the copy [byte 1 == 0] [byte 2 == the option's event
 *    ID], none when the device listed no such option; a deny applies whole
 *    to a peer behind a dongle ([byte 1 != 0]), whose modules are not
 *    asked.
 */
void compile_nrf_rule(const struct policy_rule *pr, const struct policy_device *dev,
		      const struct hid_rule *base, struct hid_rule *out, size_t max, size_t *n)
{
	const struct nrf_config_table *t = dev->nrf;
	struct hid_rule *hr;
	uint8_t event_id;

	if (!t || !t->told) {
		if (base->action != HID_RULE_DENY)
			return;
		if (dev->learner_exe) {
			daemon_question(base, dev->learner_exe, NRF_CONFIG_STATUS_GET_MAX_MOD_ID,
					out, max, n);
			daemon_question(base, dev->learner_exe, NRF_CONFIG_STATUS_FETCH, out, max,
					n);
		}
		if ((hr = next_copy(base, out, max, n))) {
			memset(&hr->sender, 0, sizeof(hr->sender));
			hr->sender.fields = HID_SENDER_F_ORIGIN;
			hr->sender.origin = HID_SENDER_ORIGIN_USER;
			hr->n_conds = 0;
		}
		next_copy(base, out, max, n);
		return;
	}
	if (base->action == HID_RULE_DENY && (hr = next_copy(base, out, max, n)))
		add_cond(hr, NRF_CONFIG_OFFSET_RECIPIENT, NRF_CONFIG_RECIPIENT_SELF, 0xff,
			 HID_RULE_COND_F_NOT);
	if (!nrf_config_find(t, pr->nrf_module, pr->nrf_option, &event_id))
		return;
	if ((hr = next_copy(base, out, max, n))) {
		add_cond(hr, NRF_CONFIG_OFFSET_RECIPIENT, NRF_CONFIG_RECIPIENT_SELF, 0xff, 0);
		add_cond(hr, NRF_CONFIG_OFFSET_EVENT, event_id, 0xff, 0);
	}
}
