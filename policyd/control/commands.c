// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the control socket's commands do (every request arriving here is
 * authorized already): status, devices, rules, explain, generate, reload,
 * and the temporary allows (allow, revoke). They change the daemon only
 * through enforcement (enforce.c, allows.c, units.c) and the reload hook
 * the service passes in.
 */
#include "commands.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ctl_protocol.h"
#include "command_args.h"
#include "common/util.h"
#include "enforce/allows.h"
#include "enforce/enforce.h"
#include "enforce/units.h"
#include "state/state.h"
#include "state/views.h"

#define _cleanup_json_ _cleanup_(json_decrefp)	/* jansson.h has json_decrefp */

/* A device named by sysfs name, hid_id or (when only one matches) BUS:VID:PID. */
static struct managed_device *lookup_device(struct commands *cmds, json_t *args, char *err,
					    size_t errsize, int *r)
{
	json_t *v = json_object_get(args, "device");
	struct managed_device *found = NULL;
	_cleanup_free_ char *name = NULL;
	struct policy_device want;
	const char *s;
	size_t n = 0;

	if (!json_is_string(v)) {
		*r = command_failf(err, errsize, -EINVAL, "\"device\" is missing (a sysfs name such as 0003:054C:0CE6.0001, a hid_id, or BUS:VID:PID)");
		return NULL;
	}
	s = json_string_value(v);
	for (size_t i = 0; i < cmds->state->n_devices; i++)
		if (!strcmp(cmds->state->devices[i].info.sysname, s))
			return &cmds->state->devices[i];
	if (s[0] >= '0' && s[0] <= '9' && strspn(s, "0123456789") == strlen(s) && strlen(s) < 11) {
		unsigned long id = strtoul(s, NULL, 10);

		if (id <= UINT32_MAX && (found = state_find_device(cmds->state, (uint32_t)id)))
			return found;
	} else if (policy_device_parse(s, &want, &name) == 0) {
		for (size_t i = 0; i < cmds->state->n_devices; i++) {
			const struct hid_dev_info *info = &cmds->state->devices[i].info;

			if (info->bus == want.bus && info->vendor == want.vendor &&
			    info->product == want.product && (!name || !strcmp(name, info->name))) {
				found = &cmds->state->devices[i];
				n++;
			}
		}
		if (n == 1)
			return found;
		if (n > 1) {
			*r = command_failf(err, errsize, -EINVAL, "\"%.64s\" matches %zu devices: name one by its sysfs name", s, n);
			return NULL;
		}
	}
	*r = command_failf(err, errsize, -ENOENT, "no HID device \"%.64s\" (hid-policyctl devices lists them)", s);
	return NULL;
}

/* The rules in force for a device: compiled policy, exceptions first. */
static int effective_rules(struct commands *cmds, const struct managed_device *m,
			   struct hid_device_rules *rules)
{
	struct policy_device pdev;
	int r;

	/* as enforce.c compiles: the HID++ feature indexes the device told */
	enforce_policy_device(cmds->en, &m->info, &pdev);
	r = policy_compile(cmds->state->policy, &pdev, rules, NULL);
	if (r < 0)
		return r;
	return exception_prepend(&cmds->state->exceptions, m->info.hid_id, rules);
}

static const char *mode_name(uint8_t mode)
{
	return mode == HID_RULES_MODE_AUDIT ? "audit" : "enforce";
}

/* What went to the journal and to Linux audit, or null where it is off. */
static json_t *outlet_json(bool on, const struct audit_outlet_counts *c)
{
	if (!on)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:s?}", "sent", (json_int_t)c->sent,
			 "failed", (json_int_t)c->failed, "held", (json_int_t)c->held,
			 "last_error", c->last_error ? strerror(-c->last_error) : NULL);
}

static json_t *outlets_json(const struct audit_outlets *o)
{
	return json_pack("{s:o, s:o}", "journal", outlet_json(o->journal, &o->journal_counts),
			 "linux_audit", outlet_json(o->linux_fd >= 0, &o->linux_counts));
}

static int cmd_status(struct commands *cmds, json_t *args, json_t **result, char *err, size_t errsize)
{
	struct hid_fw_stats st = {};
	size_t n_protected = 0, n_audit = 0;
	const char *mode;
	json_t *exc = json_array();
	int r;

	r = fw_read_stats(&cmds->en->loader, &st);
	if (r < 0)
		return command_failf(err, errsize, r, "cannot read the firewall's counters: %s", strerror(-r));
	for (size_t i = 0; i < cmds->state->n_devices; i++) {
		n_protected += cmds->state->devices[i].protected;
		n_audit += cmds->state->devices[i].protected && cmds->state->devices[i].mode == HID_RULES_MODE_AUDIT;
	}
	mode = n_protected == 0 ? "idle" : n_audit == 0 ? "enforce" :
	       n_audit == n_protected ? "audit" : "mixed";
	for (size_t i = 0; i < cmds->state->exceptions.n; i++)
		json_array_append_new(exc, view_exception(&cmds->state->exceptions.items[i]));
	*result = json_pack("{s:{s:s, s:I, s:b, s:s, s:i}, s:{s:b, s:b, s:b, s:b},"
			    " s:s, s:{s:I, s:I}, s:{s:I, s:I, s:I, s:I}, s:{s:s, s:I, s:I},"
			    " s:{s:I, s:I}, s:o}",
			    "daemon", "version", cmds->version ?: "unknown",
			    "pid", (json_int_t)getpid(), "sandbox", cmds->sandboxed,
			    "authorization", authorizer_uses_polkit(cmds->authz) ? "polkit" : "root-only",
			    "clients", (int)control_n_clients(cmds->control),
			    "kernel", "hid_bpf", cmds->en->loader.features.hid_bpf,
			    "pid_tgid", cmds->en->loader.features.pid_tgid,
			    "uid_gid", cmds->en->loader.features.uid_gid, "comm", cmds->en->loader.features.comm,
			    "mode", mode,
			    "devices", "present", (json_int_t)cmds->state->n_devices, "protected", (json_int_t)n_protected,
			    "counters", "allowed", (json_int_t)st.allowed, "denied", (json_int_t)st.denied,
			    "logged", (json_int_t)st.logged, "dropped", (json_int_t)st.dropped,
			    "audit_log", "path", cmds->audit->path, "written", (json_int_t)cmds->audit->written,
			    "failed", (json_int_t)cmds->audit->failed,
			    "policy", "rule_sets", (json_int_t)cmds->state->policy->n_sets,
			    "rules", (json_int_t)cmds->state->policy->n_rules,
			    "exceptions", exc);
	if (*result) {
		json_object_set_new(json_object_get(*result, "audit_log"), "outlets",
				    outlets_json(&cmds->audit->outlets));
		/* the configured policy was rejected at start */
		json_object_set_new(json_object_get(*result, "policy"), "kept_copy",
				    json_boolean(cmds->state->policy_is_kept_copy));
	}
	return *result ? 0 : command_failf(err, errsize, -ENOMEM, "out of memory");
}

static json_t *ruleset_ref_json(const struct policy *p, size_t s)
{
	const struct policy_ruleset *set = &p->sets[s];

	return json_pack("{s:s?, s:s, s:s}", "name", set->name, "file", p->files[set->file].name,
			 "path", set->path);
}

static int cmd_devices(struct commands *cmds, json_t *args, json_t **result, char *err, size_t errsize)
{
	json_t *list = json_array();

	for (size_t i = 0; i < cmds->state->n_devices; i++) {
		const struct managed_device *m = &cmds->state->devices[i];
		struct policy_device pdev;
		json_t *o = view_device(&m->info), *sets = json_array();
		size_t n_exc = 0;
		/* Walks every BPF map of the system: EPERM without
		 * CAP_SYS_ADMIN, which the sandbox dropped. */
		int programs = fw_count_device_ops(m->info.hid_id, NULL);

		state_policy_device(&m->info, &pdev);
		if (o)
			view_device_class(o, &m->info);
		for (size_t s = 0; s < cmds->state->policy->n_sets; s++)
			if (policy_ruleset_matches(&cmds->state->policy->sets[s], &pdev))
				json_array_append_new(sets, ruleset_ref_json(cmds->state->policy, s));
		for (size_t k = 0; k < cmds->state->exceptions.n; k++)
			n_exc += cmds->state->exceptions.items[k].hid_id == m->info.hid_id;
		json_object_set_new(o, "rule_sets", sets);
		json_object_set_new(o, "protected", json_boolean(m->protected));
		json_object_set_new(o, "attached", json_boolean(fw_is_attached(&cmds->en->loader, m->info.hid_id)));
		/* Whether input reports pass through a program of ours: only
		 * while a rule in force concerns input. */
		json_object_set_new(o, "input_filter",
				    json_boolean(fw_attached_input(&cmds->en->loader, m->info.hid_id) == 1));
		if (m->protected) {
			/* No rules could be loaded: every request is refused. */
			json_object_set_new(o, "fail_closed", json_boolean(m->fail_closed));
			json_object_set_new(o, "mode", json_string(mode_name(m->mode)));
			json_object_set_new(o, "rules", json_integer(m->n_rules));
		}
		json_object_set_new(o, "exceptions", json_integer((json_int_t)n_exc));
		/* null when the daemon cannot count (hid-policyctl run as
		 * root counts itself then), with the reason. */
		if (programs >= 0) {
			json_object_set_new(o, "programs", json_integer(programs));
		} else {
			json_object_set_new(o, "programs", json_null());
			json_object_set_new(o, "programs_error", json_string(programs == -EPERM ?
					    "counting needs CAP_SYS_ADMIN, which the daemon does not keep" :
					    strerror(-programs)));
		}
		json_array_append_new(list, o);
	}
	*result = json_pack("{s:o}", "devices", list);
	return *result ? 0 : command_failf(err, errsize, -ENOMEM, "out of memory");
}

static json_t *rule_json(struct commands *cmds, const struct hid_device_rules *rules, uint32_t pos)
{
	const struct hid_rule *hr = &rules->rules[pos];
	const struct policy *p = cmds->state->policy;
	json_t *o = json_pack("{s:I, s:s, s:o, s:o, s:b, s:b}", "position", (json_int_t)pos,
			      "action", hr->action == HID_RULE_DENY ? "deny" : "allow",
			      "requests", view_kinds(hr->kinds), "report_ids", view_report_ids(hr->report_ids),
			      "log", (hr->flags & HID_RULE_F_LOG) != 0, "audit", (hr->flags & HID_RULE_F_AUDIT) != 0);
	json_t *conds = json_array();
	uint32_t exc_id;

	if (!o)
		return NULL;
	if (hr->action == HID_RULE_DENY)
		json_object_set_new(o, "errno", json_string(policy_errno_name(hr->err) ?: "?"));
	for (unsigned c = 0; c < hr->n_conds && c < HID_RULES_MAX_CONDS; c++) {
		char value[3 * HID_RULES_COND_BYTES + 1] = "", mask[3 * HID_RULES_COND_BYTES + 1] = "";

		for (unsigned i = 0; i < hr->conds[c].len && i < HID_RULES_COND_BYTES; i++) {
			snprintf(value + 3 * i, 4, i ? " %02x" : "%02x", hr->conds[c].value[i]);
			snprintf(mask + 3 * i, 4, i ? " %02x" : "%02x", hr->conds[c].mask[i]);
		}
		json_array_append_new(conds, json_pack("{s:i, s:s, s:s, s:b}", "offset", hr->conds[c].offset,
						       "value", value, "mask", mask,
						       "not", (hr->conds[c].flags & HID_RULE_COND_F_NOT) != 0));
	}
	json_object_set_new(o, "payload", conds);
	if (exception_index(hr->index, &exc_id)) {
		struct exception *e = exception_find(&cmds->state->exceptions, exc_id);

		json_object_set_new(o, "name", json_sprintf("temporary-allow-%u", exc_id));
		if (e)
			json_object_set_new(o, "exception", view_exception(e));
	} else if (hr->index < p->n_rules) {
		const struct policy_rule *pr = &p->rules[hr->index];

		json_object_set_new(o, "name", json_string(pr->name));
		json_object_set_new(o, "index", json_integer(hr->index));
		json_object_set_new(o, "rule_set", ruleset_ref_json(p, pr->set));
		json_object_set_new(o, "file", json_string(p->files[p->sets[pr->set].file].name));
		json_object_set_new(o, "path", json_string(pr->path));
		if (pr->description)
			json_object_set_new(o, "description", json_string(pr->description));
	}
	return o;
}

static int cmd_rules(struct commands *cmds, json_t *args, json_t **result, char *err, size_t errsize)
{
	_cleanup_free_ struct hid_device_rules *rules = calloc(1, sizeof(*rules));
	struct managed_device *m;
	json_t *list;
	int r = 0;

	if (!rules)
		return -ENOMEM;
	m = lookup_device(cmds, args, err, errsize, &r);
	if (!m)
		return r;
	r = effective_rules(cmds, m, rules);
	if (r == -ENOENT) {
		*result = json_pack("{s:o, s:b, s:[]}", "device", view_device(&m->info),
				    "protected", 0, "rules");
		return *result ? 0 : -ENOMEM;
	}
	if (r < 0)
		return command_failf(err, errsize, r, "%s: its rules cannot be compiled: %s", m->info.sysname,
			     strerror(-r));
	list = json_array();
	for (uint32_t i = 0; i < rules->n_rules && i < HID_RULES_MAX_RULES; i++)
		json_array_append_new(list, rule_json(cmds, rules, i));
	*result = json_pack("{s:o, s:b, s:s, s:o, s:{s:s, s:s?}}", "device", view_device(&m->info),
			    "protected", 1, "mode", mode_name(rules->mode), "rules", list,
			    "default", "action", rules->default_action == HID_RULE_DENY ? "deny" : "allow",
			    "errno", rules->default_action == HID_RULE_DENY ?
				     policy_errno_name(rules->default_err) : NULL);
	return *result ? 0 : command_failf(err, errsize, -ENOMEM, "out of memory");
}

/*
 * explain's "origin", "user", "group", "executable", "unit", "pid" and the
 * process's "cgroup": who sends the request, as far as the question says.
 * "group" lists the gid first, then the supplementary groups (room for
 * CTL_SUBJECT_GROUPS_MAX in GIDS).
 */
#define EXPLAIN_CGROUP_LEVELS 16	/* a unit's depth, and more */

static int explain_subject(json_t *args, struct policy_subject *who, uint32_t *gids,
			   uint64_t *cgroups, char *err, size_t errsize)
{
	json_t *origin = json_object_get(args, "origin"), *user = json_object_get(args, "user");
	json_t *group = json_object_get(args, "group"), *exe = json_object_get(args, "executable");
	json_t *pid = json_object_get(args, "pid"), *unit = json_object_get(args, "unit"), *g;
	json_t *cgroup = json_object_get(args, "cgroup");
	size_t i;
	int r;

	/* Ids told bare: this runs on the event loop, for any local user,
	 * and a name service may hang (name_lookup.h). */
	*who = (struct policy_subject){ .no_names = true };
	if (origin) {
		const char *o = json_is_string(origin) ? json_string_value(origin) : "";

		if (strcmp(o, "kernel") && strcmp(o, "user"))
			return command_failf(err, errsize, -EINVAL, "\"origin\" must be \"kernel\" (a driver's own request) or \"user\" (a process's)");
		who->given |= POLICY_SUBJECT_ORIGIN;
		who->from_kernel = !strcmp(o, "kernel");
	}
	if (who->from_kernel && (user || group || exe || pid || unit || cgroup))
		return command_failf(err, errsize, -EINVAL, "a driver's own request (origin \"kernel\") has no user, group, executable, process or unit");
	if (unit) {
		const char *why;

		if (!json_is_string(unit))
			return command_failf(err, errsize, -EINVAL, "\"unit\" must be a unit name");
		who->unit = json_string_value(unit);
		if (policy_unit_cgroups(who->unit, cgroups, EXPLAIN_CGROUP_LEVELS, &who->n_cgroups,
					&who->unit_running, &why) < 0)
			return command_failf(err, errsize, -EINVAL, "unit \"%.256s\": %s", who->unit, why);
		who->cgroups = cgroups;
		who->given |= POLICY_SUBJECT_UNIT;
	}
	if (cgroup) {
		const char *why;

		/* A process's cgroup, which hid-policyctl read with the rest. */
		if (!pid || unit)
			return command_failf(err, errsize, -EINVAL, "\"cgroup\" is a process's: it comes with \"pid\" and without \"unit\"");
		if (!json_is_string(cgroup))
			return command_failf(err, errsize, -EINVAL, "\"cgroup\" must be a cgroup path");
		who->cgroup = json_string_value(cgroup);
		if (policy_cgroup_ancestry(who->cgroup, cgroups, EXPLAIN_CGROUP_LEVELS, &who->n_cgroups,
					   &who->unit_running, &why) < 0)
			return command_failf(err, errsize, -EINVAL, "cgroup \"%.256s\": %s", who->cgroup, why);
		who->cgroups = cgroups;
		who->given |= POLICY_SUBJECT_UNIT;
	}
	if (pid) {
		/* hid-policyctl reads the process, as for allow --pid. */
		if (!user || !group || !exe)
			return command_failf(err, errsize, -EINVAL, "\"pid\" comes with the process's \"user\", \"group\" and \"executable\"");
		if (!json_is_integer(pid) || json_integer_value(pid) < 1 ||
		    json_integer_value(pid) > INT32_MAX)
			return command_failf(err, errsize, -EINVAL, "\"pid\" must be a process ID");
		who->pid = (long)json_integer_value(pid);
	}
	if (user) {
		if (command_args_id(user, false, &who->uid, err, errsize) < 0)
			return -EINVAL;
		who->given |= POLICY_SUBJECT_USER;
	}
	if (group) {
		if (!json_is_array(group) || json_array_size(group) == 0 ||
		    json_array_size(group) > CTL_SUBJECT_GROUPS_MAX)
			return command_failf(err, errsize, -EINVAL, "\"group\" must list 1 to %d gids: the gid, then the supplementary groups",
				     CTL_SUBJECT_GROUPS_MAX);
		json_array_foreach(group, i, g)
			if (command_args_id(g, true, &gids[i], err, errsize) < 0)
				return -EINVAL;
		who->given |= POLICY_SUBJECT_GROUPS;
		who->gid = gids[0];
		who->groups = gids + 1;
		who->n_groups = json_array_size(group) - 1;
	}
	if (exe) {
		if (!json_is_string(exe) || json_string_value(exe)[0] != '/')
			return command_failf(err, errsize, -EINVAL, "\"executable\" must be an absolute path");
		who->executable = json_string_value(exe);
		r = policy_exe_identity(who->executable, &who->exe);
		if (r == -ENOEXEC)
			return command_failf(err, errsize, -EINVAL, "%.256s is not a regular file", who->executable);
		if (r < 0)
			return command_failf(err, errsize, r == -ENOENT ? -EINVAL : r, "%.256s: %s",
				     who->executable, strerror(-r));
		who->given |= POLICY_SUBJECT_EXECUTABLE;
	}
	return 0;
}

static int cmd_explain(struct commands *cmds, json_t *args, json_t **result, char *err, size_t errsize)
{
	json_t *payload = json_object_get(args, "payload");
	struct policy_request req = {};
	struct policy_verdict v = {};
	struct policy_device pdev;
	struct managed_device *m;
	_cleanup_free_ char *text = NULL;
	size_t text_len = 0;
	uint8_t buf[HID_RULES_MAX_PAYLOAD];
	uint32_t usages[POLICY_USAGE_LIST_MAX];
	uint8_t hash[POLICY_SHA256_BYTES];
	_cleanup_free_ uint32_t *gids = calloc(CTL_SUBJECT_GROUPS_MAX, sizeof(*gids));
	struct policy_subject who;
	uint64_t cgroups[EXPLAIN_CGROUP_LEVELS];
	struct hidpp_features hidpp;
	FILE *f;
	int r = 0, id, depends;

	if (!gids)
		return command_failf(err, errsize, -ENOMEM, "out of memory");
	m = lookup_device(cmds, args, err, errsize, &r);
	if (!m)
		return r;
	if ((r = command_args_kinds(args, true, &req.kind, err, errsize)) < 0 ||
	    (r = command_args_report_id(args, &id, err, errsize)) < 0 ||
	    (r = explain_subject(args, &who, gids, cgroups, err, errsize)) < 0)
		return r;
	if (id < 0)
		return command_failf(err, errsize, -EINVAL, "\"id\" (the report ID) is missing");
	req.report_id = (uint8_t)id;
	if (payload) {
		int n = json_is_string(payload) ?
			policy_hex_bytes(json_string_value(payload), buf, sizeof(buf)) : -EINVAL;

		if (n < 0)
			return command_failf(err, errsize, -EINVAL, "\"payload\" must be at most %zu hex bytes such as \"f4 00 01\"",
				     sizeof(buf));
		req.len = (size_t)n;
	} else {
		buf[0] = req.report_id;
		req.len = 1;
	}
	req.data = buf;

	enforce_policy_device(cmds->en, &m->info, &pdev);
	r = command_args_device(args, &pdev, usages, hash, err, errsize);
	if (r == 0)
		r = command_args_hidpp(args, &pdev, &hidpp, err, errsize);
	if (r < 0)
		return r;
	f = open_memstream(&text, &text_len);
	if (!f)
		return command_failf(err, errsize, -ENOMEM, "out of memory");
	depends = policy_explain(cmds->state->policy, &pdev, &req, &who, f, &v);
	if (fclose(f) != 0 || !text)
		return command_failf(err, errsize, -ENOMEM, "out of memory");
	view_utf8_or_ascii(text);	/* it names the device */
	if (depends < 0)
		return command_failf(err, errsize, depends, "%s", text);

	/* A temporary allow that matches decides before any rule, but not
	 * before the check of the reports the descriptor declares. */
	for (size_t i = 0; v.index != HID_RULE_INDEX_UNDECLARED && i < cmds->state->exceptions.n; i++) {
		const struct exception *e = &cmds->state->exceptions.items[i];
		struct hid_rule hr = { .kinds = e->kinds, .action = HID_RULE_ALLOW, .sender = e->sender };
		enum policy_match_result em;

		memcpy(hr.report_ids, e->report_ids, sizeof(hr.report_ids));
		if (e->hid_id != m->info.hid_id ||
		    (em = policy_rule_matches_subject(&hr, &req, &who)) == POLICY_MATCH_NEVER)
			continue;
		*result = json_pack("{s:o, s:{s:s, s:b, s:b, s:s, s:b}, s:o, s:s+++}",
				    "device", view_device(&m->info),
				    "decision", "action", "allow", "enforced", 0, "logged", 1,
				    "rule", "temporary-allow",
				    "depends_on_sender", em == POLICY_MATCH_DEPENDS,
				    "exception", view_exception(e),
				    "text", "decision: allow by a temporary allow (hid-policyctl allow), before every rule; it is logged and ends when it expires, is revoked or the device goes away\n",
				    em == POLICY_MATCH_DEPENDS ?
				    "it lets through only the sender it was granted for (hid-policyctl status names it): name the sender to know whether it is this one\n" : "",
				    "without it, the policy decides:\n", text);
		return *result ? 0 : -ENOMEM;
	}

	*result = json_pack("{s:o, s:{s:s, s:b, s:b, s:b}, s:s}", "device", view_device(&m->info),
			    "decision", "action", v.action == HID_RULE_DENY ? "deny" : "allow",
			    "enforced", v.enforced, "logged", v.logged,
			    "depends_on_sender", depends > 0, "text", text);
	if (*result && v.rule >= 0 && v.index < cmds->state->policy->n_rules)
		json_object_set_new(json_object_get(*result, "decision"), "rule",
				    json_string(cmds->state->policy->rules[v.index].name));
	return *result ? 0 : -ENOMEM;
}

static int cmd_reload(struct commands *cmds, json_t *args, json_t **result, char *err, size_t errsize)
{
	_cleanup_json_ json_t *messages = json_array();
	int r = cmds->reload(cmds->userdata, messages);

	if (r < 0) {
		size_t len = (size_t)snprintf(err, errsize, "the policy is rejected, the rules in force stay in force");

		for (size_t i = 0; i < json_array_size(messages) && len < errsize; i++)
			len += (size_t)snprintf(err + len, errsize - len, "\n  %s",
						json_string_value(json_array_get(messages, i)));
		return r == -ENOENT ? -EIO : r;
	}
	*result = json_pack("{s:I, s:I, s:O}", "rule_sets", (json_int_t)cmds->state->policy->n_sets,
			    "rules", (json_int_t)cmds->state->policy->n_rules, "warnings", messages);
	return *result ? 0 : -ENOMEM;
}

_Static_assert(sizeof(((struct exception_grantor *)NULL)->comm) >= CONTROL_COMM_SIZE,
	       "a grantor's comm holds the control socket's escaped comm");

static void grantor_of(const struct control_request *req, struct exception_grantor *g)
{
	g->uid = req->peer->uid;
	g->pid = req->peer->pid;
	snprintf(g->comm, sizeof(g->comm), "%s", req->comm);
}

/* allow's "unit": one of the policy's units from now on, so that its
 * cgroup is followed as the unit starts and stops. */
static int allow_unit(struct commands *cmds, json_t *unit, struct exception *e, char *err,
		      size_t errsize)
{
	const char *why;
	int r;

	if (!json_is_string(unit) || strlen(json_string_value(unit)) >= sizeof(e->unit))
		return command_failf(err, errsize, -EINVAL, "\"unit\" must be a unit name");
	if (!cmds->en->loader.features.cgroup)
		return command_failf(err, errsize, -EOPNOTSUPP, "this kernel does not let the firewall read the cgroup of who sends a request: an allow for one unit cannot be enforced here");
	r = policy_unit_add(cmds->state->policy, json_string_value(unit), &why);
	if (r < 0)
		return command_failf(err, errsize, r, "unit \"%s\": %s", json_string_value(unit), why);
	snprintf(e->unit, sizeof(e->unit), "%s", json_string_value(unit));
	e->sender.fields |= HID_SENDER_F_UNIT;
	e->sender.n_units = 1;
	return 0;
}

/* allow's "user", "group", "executable", "pid" and "unit": whose requests
 * it lets through. */
static int allow_sender(struct commands *cmds, json_t *args, struct exception *e, char *err,
			size_t errsize)
{
	json_t *exe = json_object_get(args, "executable"), *unit = json_object_get(args, "unit");
	int r;

	if (unit && (r = allow_unit(cmds, unit, e, err, errsize)) < 0)
		return r;
	r = command_args_allow_ids(args, &e->sender, &e->for_pid, err, errsize);
	if (r < 0)
		return r;
	if (exe) {
		if (!json_is_string(exe) || json_string_value(exe)[0] != '/' ||
		    strlen(json_string_value(exe)) >= sizeof(e->executable))
			return command_failf(err, errsize, -EINVAL, "\"executable\" must be an absolute path");
		snprintf(e->executable, sizeof(e->executable), "%s", json_string_value(exe));
		r = policy_exe_identity(e->executable, &e->sender.exes[0]);
		if (r < 0)
			return command_failf(err, errsize, r, "%s: %s", e->executable, strerror(-r));
		e->sender.fields |= HID_SENDER_F_EXECUTABLE;
		e->sender.n_exes = 1;
	}
	return 0;
}

static int cmd_allow(struct commands *cmds, const struct control_request *req, json_t **result,
		     char *err, size_t errsize)
{
	_cleanup_free_ struct hid_device_rules *rules = calloc(1, sizeof(*rules));
	json_t *args = req->args;
	struct exception e = {}, *added;
	struct managed_device *m;
	uint64_t duration;
	uint32_t id;
	int r = 0, rid;

	if (!rules)
		return -ENOMEM;
	m = lookup_device(cmds, args, err, errsize, &r);
	if (!m)
		return r;
	if ((r = command_args_duration(args, &duration, err, errsize)) < 0 ||
	    (r = command_args_kinds(args, false, &e.kinds, err, errsize)) < 0 ||
	    (r = command_args_report_id(args, &rid, err, errsize)) < 0 ||
	    (r = allow_sender(cmds, args, &e, err, errsize)) < 0)
		return r;
	if ((e.sender.fields & ~HID_SENDER_F_UNIT) && !cmds->en->loader.features.uid_gid)
		return command_failf(err, errsize, -EOPNOTSUPP, "this kernel does not let the firewall read who sends a request: an allow for one user, group, executable or process cannot be enforced here");
	/* Input comes from the device: an allow for a sender is for requests. */
	if (e.sender.fields)
		e.kinds &= (uint8_t)~HID_RULE_KIND_INPUT_EVENT;
	if (rid < 0)
		memset(e.report_ids, 0xff, sizeof(e.report_ids));
	else
		e.report_ids[rid >> 5] = 1u << (rid & 31);
	if (!m->protected)
		return command_failf(err, errsize, -EINVAL, "%s is not protected: no rule set matches it, so every request is allowed already",
			     m->info.sysname);

	e.hid_id = m->info.hid_id;
	snprintf(e.sysname, sizeof(e.sysname), "%s", m->info.sysname);
	e.duration_s = duration;
	e.granted_realtime_ns = realtime_ns();
	e.expires_ms = boottime_ms() + duration * 1000;
	grantor_of(req, &e.by);
	r = exception_add(&cmds->state->exceptions, &e, &id);
	if (r == -ENOSPC)
		return command_failf(err, errsize, r, "too many temporary allows (at most %d, %d per device): revoke one first",
			     EXCEPTIONS_MAX, EXCEPTIONS_PER_DEVICE_MAX);
	if (r < 0)
		return command_failf(err, errsize, r, "cannot add a temporary allow: %s", strerror(-r));
	/* Its unit's cgroup, watched from now on. */
	if (e.sender.fields & HID_SENDER_F_UNIT)
		units_watch(cmds->en);
	r = effective_rules(cmds, m, rules);
	if (r == -E2BIG) {
		exception_remove(&cmds->state->exceptions, exception_find(&cmds->state->exceptions, id));
		return command_failf(err, errsize, r, "%s: its rules leave no room for a temporary allow (%d rules at most)",
			     m->info.sysname, HID_RULES_MAX_RULES);
	}
	if (r == 0)
		r = enforce_apply(cmds->en, &m->info);
	if (r < 0) {
		/* Not in force: take it back, and put the rules back as they were. */
		exception_remove(&cmds->state->exceptions, exception_find(&cmds->state->exceptions, id));
		enforce_apply(cmds->en, &m->info);
		return command_failf(err, errsize, r, "%s: cannot put the temporary allow in force: %s",
			     m->info.sysname, strerror(-r));
	}
	added = exception_find(&cmds->state->exceptions, id);
	allows_granted(cmds->en, &m->info, added);
	*result = json_pack("{s:o}", "exception", view_exception(added));
	return *result ? 0 : -ENOMEM;
}

static int cmd_revoke(struct commands *cmds, const struct control_request *req, json_t **result,
		      char *err, size_t errsize)
{
	json_t *idv = json_object_get(req->args, "id");
	struct exception_grantor by;
	struct managed_device *m = NULL;
	json_t *ended = json_array();
	uint32_t hid_id = 0;
	int r = 0;

	if (!ended)
		return -ENOMEM;
	grantor_of(req, &by);
	if (idv) {
		struct exception *e;

		if (!json_is_integer(idv) || json_integer_value(idv) < 1 ||
		    json_integer_value(idv) > EXCEPTION_ID_MAX ||
		    !(e = exception_find(&cmds->state->exceptions, (uint32_t)json_integer_value(idv)))) {
			json_decref(ended);
			return command_failf(err, errsize, idv && json_is_integer(idv) ? -ENOENT : -EINVAL,
				     "no temporary allow with that id (hid-policyctl status lists them)");
		}
		json_array_append_new(ended, json_integer(e->id));
		enforce_end_allow(cmds->en, e, "revoked", &by);
	} else {
		m = lookup_device(cmds, req->args, err, errsize, &r);
		if (!m) {
			json_decref(ended);
			return r;
		}
		hid_id = m->info.hid_id;
		for (size_t i = 0; i < cmds->state->exceptions.n;) {
			struct exception *e = &cmds->state->exceptions.items[i];

			if (e->hid_id != hid_id) {
				i++;
				continue;
			}
			json_array_append_new(ended, json_integer(e->id));
			enforce_end_allow(cmds->en, e, "revoked", &by);	/* removes it */
		}
		if (json_array_size(ended) == 0) {
			json_decref(ended);
			return command_failf(err, errsize, -ENOENT, "%s has no temporary allow", m->info.sysname);
		}
	}
	*result = json_pack("{s:o}", "revoked", ended);
	return *result ? 0 : -ENOMEM;
}

/* "local-" and NAME as a rule or rule-set name (1..POLICY_NAME_MAX of [A-Za-z0-9._-]). */
static json_t *local_name(const char *name)
{
	char buf[POLICY_NAME_MAX + 1];

	snprintf(buf, sizeof(buf), "local-%s", name);
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			*p = '-';
	return json_string(buf);
}

/* One rule set of the generated policy: SET's rules for the devices in MATCH. */
static json_t *generated_set(struct commands *cmds, size_t s, json_t *match, const char *names,
			     char *err, size_t errsize)
{
	const struct policy_ruleset *set = &cmds->state->policy->sets[s];
	const struct policy_file *file = &cmds->state->policy->files[set->file];
	_cleanup_json_ json_t *doc = NULL;
	json_t *orig, *copy, *rules, *rule;
	json_error_t jerr;
	size_t k, i;
	char base[64];

	if (sscanf(set->path, "devices[%zu]", &k) != 1) {
		command_failf(err, errsize, -EIO, "%s: unexpected rule-set path %s", file->name, set->path);
		return NULL;
	}
	doc = json_load_file(file->path, JSON_REJECT_DUPLICATES, &jerr);
	orig = json_array_get(json_object_get(doc, "devices"), k);
	if (!json_is_object(orig)) {
		command_failf(err, errsize, -EIO, "%s changed since it was loaded (reload first)", file->path);
		return NULL;
	}
	copy = json_deep_copy(orig);
	if (!copy)
		return NULL;
	snprintf(base, sizeof(base), "%s", set->name ?: file->name);
	if (!set->name)
		base[strcspn(base, ".")] = '\0';
	json_object_set_new(copy, "name", local_name(base));
	json_object_set_new(copy, "description",
			    json_sprintf("Generated by hid-policyctl generate from %s: %s for the devices present: %s",
					 file->name, set->path, names));
	json_object_set(copy, "match", match);
	rules = json_object_get(copy, "rules");
	json_array_foreach(rules, i, rule) {
		json_t *name = json_object_get(rule, "name");

		if (json_is_string(name))
			json_object_set_new(rule, "name", local_name(json_string_value(name)));
	}
	return copy;
}

/* fnmatch(3) pattern matching S alone: glob characters escaped. */
static char *glob_literal(const char *s)
{
	char *out = malloc(2 * strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (strchr("*?[]\\", *s))
			*o++ = '\\';
		*o++ = *s;
	}
	*o = 0;
	return out;
}

/*
 * A match for this device alone, as far as it can tell: its IDs, its
 * report descriptor's hash (once a driver parsed it), and its serial
 * (HID_UNIQ) where it has one. A bus without a name in the format matches
 * any bus.
 */
static json_t *pinned_match(const struct hid_dev_info *info)
{
	char vid[8], pid[8], hash[2 * SHA256_BYTES + 1];
	json_t *o;

	snprintf(vid, sizeof(vid), "0x%04x", info->vendor);
	snprintf(pid, sizeof(pid), "0x%04x", info->product);
	o = json_pack("{s:s*, s:s, s:s}", "bus", policy_bus_name(info->bus), "vendor", vid,
		      "product", pid);
	if (o && info->descriptor_known) {
		policy_sha256_format(info->descriptor_sha256, hash);
		json_object_set_new(o, "descriptor_sha256", json_string(hash));
	}
	if (o && info->uniq[0]) {
		_cleanup_free_ char *glob = glob_literal(info->uniq);
		json_t *s = glob ? json_string(glob) : NULL;

		/* a serial that is not UTF-8 cannot be written in JSON: left out */
		if (s)
			json_object_set_new(o, "uniq", s);
	}
	return o;
}

static int cmd_generate(struct commands *cmds, json_t *args, json_t **result, char *err, size_t errsize)
{
	_cleanup_json_ json_t *policy = NULL;
	_cleanup_(diag_done) struct diag diag = {};
	_cleanup_policy_ struct policy *check = NULL;
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ bool *covered = calloc(cmds->state->n_devices + 1, sizeof(bool));
	_cleanup_json_ json_t *uncovered = json_array();
	_cleanup_json_ json_t *covered_list = json_array();
	json_t *sets = json_array();
	char when[48];
	int r;

	ctl_format_time(when, sizeof(when), realtime_ns());
	policy = json_pack("{s:i, s:s+, s:o}", "version", POLICY_FORMAT_VERSION,
			   "description", "Generated by hid-policyctl generate at ", when, "devices", sets);
	if (!policy || !covered || !uncovered || !covered_list)
		return -ENOMEM;
	for (size_t s = 0; s < cmds->state->policy->n_sets; s++) {
		const struct policy_ruleset *set = &cmds->state->policy->sets[s];
		_cleanup_json_ json_t *match = json_array();
		char names[512] = "";
		size_t names_len = 0;
		json_t *gen;

		/* Sets generated before would only be copied again. */
		if (set->name && !strncmp(set->name, "local-", 6))
			continue;
		for (size_t i = 0; i < cmds->state->n_devices; i++) {
			const struct hid_dev_info *info = &cmds->state->devices[i].info;
			struct policy_device pdev;

			state_policy_device(info, &pdev);
			if (!policy_ruleset_matches(set, &pdev))
				continue;
			covered[i] = true;
			json_array_append_new(match, pinned_match(info));
			if (names_len < sizeof(names))
				names_len += (size_t)snprintf(names + names_len, sizeof(names) - names_len,
							      "%s%s", names_len ? ", " : "", info->sysname);
		}
		if (json_array_size(match) == 0)
			continue;
		gen = generated_set(cmds, s, match, names, err, errsize);
		if (!gen)
			return err[0] ? -EIO : -ENOMEM;
		json_array_append_new(sets, gen);
	}
	for (size_t i = 0; i < cmds->state->n_devices; i++)
		json_array_append_new(covered[i] ? covered_list : uncovered,
				      json_string(cmds->state->devices[i].info.sysname));

	/* What we hand out must load. */
	text = json_dumps(policy, JSON_INDENT(2));
	if (!text)
		return -ENOMEM;
	r = policy_load_buffer("generated.json", text, strlen(text), &diag, &check);
	if (r < 0)
		return command_failf(err, errsize, -EIO, "the generated policy does not load: %s",
			     diag.n ? diag.entries[0].text : "?");
	*result = json_pack("{s:O, s:O, s:O}", "policy", policy, "protected_devices", covered_list,
			    "unknown_devices", uncovered);
	return *result ? 0 : -ENOMEM;
}

int commands_describe_device(void *userdata, json_t *args, char *text, size_t text_size,
			     char *sysname, size_t sysname_size)
{
	struct commands *cmds = userdata;
	const struct managed_device *m;
	char err[256];
	int r = 0;

	m = lookup_device(cmds, args, err, sizeof(err), &r);
	if (!m)
		return r;
	if (m->info.name[0])
		snprintf(text, text_size, "\"%s\" (%s)", m->info.name, m->info.sysname);
	else
		snprintf(text, text_size, "%s", m->info.sysname);
	snprintf(sysname, sysname_size, "%s", m->info.sysname);
	return 0;
}

int commands_run(void *userdata, const struct control_request *req, json_t **result,
		 char *err, size_t errsize)
{
	struct commands *cmds = userdata;
	const char *c = req->command;

	*result = NULL;
	if (!strcmp(c, "status"))
		return cmd_status(cmds, req->args, result, err, errsize);
	if (!strcmp(c, "devices"))
		return cmd_devices(cmds, req->args, result, err, errsize);
	if (!strcmp(c, "rules"))
		return cmd_rules(cmds, req->args, result, err, errsize);
	if (!strcmp(c, "explain"))
		return cmd_explain(cmds, req->args, result, err, errsize);
	if (!strcmp(c, "generate"))
		return cmd_generate(cmds, req->args, result, err, errsize);
	if (!strcmp(c, "reload"))
		return cmd_reload(cmds, req->args, result, err, errsize);
	if (!strcmp(c, "allow"))
		return cmd_allow(cmds, req, result, err, errsize);
	if (!strcmp(c, "revoke"))
		return cmd_revoke(cmds, req, result, err, errsize);
	return command_failf(err, errsize, -EINVAL, "no such command");
}
