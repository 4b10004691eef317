// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rules in force on each device: compile the policy for it, put its
 * temporary allows first, set them in the kernel and attach (or adopt, or
 * detach) its firewall; publish the decision for udev.
 */
#include "enforce.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "allows.h"
#include "audit/say.h"
#include "common/util.h"
#include "decisions.h"
#include "state/views.h"

static bool device_present(const struct enforcer *en, const struct hid_dev_info *info)
{
	_cleanup_free_ char *path = NULL;

	if (asprintf(&path, "%s/%s", en->sysfs_devices, info->sysname) < 0)
		return true;
	return access(path, F_OK) == 0;
}

static void record_lost_firewall(struct enforcer *en, const struct managed_device *m,
				 bool reattached, int error)
{
	json_t *o = json_pack("{s:s, s:o, s:b}", "event", "firewall_detached",
			      "device", view_device(&m->info), "reattached", reattached);

	if (o && error)
		json_object_set_new(o, "error", json_string(strerror(-error)));
	if (!o || audit_write_json(en->audit, o) < 0)
		say(LOG_ERR, "cannot write the audit record of the detached firewall of %s",
		    m->info.sysname);
	json_decref(o);
	audit_flush(en->audit);
}

/*
 * Whether a device's reports are parsed is read from sysfs at the moment of
 * every registration (hotplug, bind, reload, a grant or the end of an
 * allow, a firewall attached again), never taken from what the daemon saw
 * before: its driver may have gone since, and a device unbound while
 * its event program is registered is the crash kernel_support.h describes.
 */
static bool reports_parsed_now(const struct enforcer *en, const struct hid_dev_info *info)
{
	if (hid_dev_reports_parsed(en->sysfs_devices, info->sysname))
		return true;
	say(LOG_WARNING, "%s (%s): its reports are not parsed now (no driver, or no hidraw node): its input is not filtered until a driver is bound",
	    info->sysname, info->name);
	return false;
}

/* Publish the decision on M for udev; one that was held goes with it. */
static void publish(struct enforcer *en, struct managed_device *m, bool protected)
{
	m->decision_held_until = 0;
	decisions_publish(en->runtime_dir, m->info.sysname, protected);
}

/* Has device HID_ID told, in its first round of learning, what it can of
 * what its rules need (or is nothing asked of it)? */
static bool first_learning_ended(const struct enforcer *en, uint32_t hid_id)
{
	return feature_indexes_first_rounds_ended(&en->features, hid_id) &&
	       nrf_modules_first_round_ended(&en->nrf, hid_id);
}

/*
 * Until a device has told what its rules need (HID++ feature indexes, nRF
 * modules), the rules refuse more than they name: every HID++ request but
 * IRoot's, every configuration frame. A program that opens the node as
 * soon as udev opens it (Solaar and fwupd watch udev) would be refused its
 * first requests, though nothing in them is dangerous. So the device's
 * first decision, which udev waits for before it opens the node to users,
 * waits for its first round of learning to end (told, failed or late, as
 * the learners decide), at most DECISION_HOLD_MS; its firewall is attached
 * meanwhile. A device that has a decision already (the daemon restarted,
 * a reload, a later compile) is not held: its nodes are open, and a late
 * decision would only delay what changes with it (its hiddev nodes
 * closed). A device whose driver was unbound is a new device to udev
 * when one binds it again: its nodes went with the driver, the new ones
 * come with the bind, and what it told before is forgotten
 * (feature_indexes_unbound(), nrf_modules_forget()). So its decision is
 * withdrawn at the unbind, stays so while no driver is bound, and is held
 * from the bind as a new device's. Returns true when M's decision waits.
 */
static bool hold_decision(struct enforcer *en, struct managed_device *m)
{
	if (m->decision_awaits_bind) {
		if (!m->info.bound) {
			/* The node udev opens at the bind must find none. */
			decisions_withdraw(en->runtime_dir, m->info.sysname);
			m->decision_held_until = 0;
			return true;
		}
		m->decision_awaits_bind = false;
	}
	if (first_learning_ended(en, m->info.hid_id))
		return false;
	if (m->decision_held_until)
		return true;
	if (decisions_read(en->runtime_dir, m->info.sysname) != -ENOENT)
		return false;
	m->decision_held_until = boottime_ms() + DECISION_HOLD_MS;
	return true;
}

/* M was protected, but its instance is no longer registered: someone
 * unregistered it through its pin (doc/security.md, section 3), and
 * attaching it again failed with R. Said once; retried by
 * enforce_check_firewalls(). */
static void firewall_lost(struct enforcer *en, struct managed_device *m, int r)
{
	if (!m->lost) {
		say(LOG_ERR, "firewall of %s (%s) was detached outside hid-policyd; cannot attach it again: %s; the device is not protected (retrying every %d ms)",
		    m->info.sysname, m->info.name, strerror(-r), CHECK_INTERVAL_MS);
		record_lost_firewall(en, m, false, r);
		publish(en, m, false);
	}
	m->protected = false;
	m->lost = true;
}

/* The same, when the firewall could be attached again. */
static void firewall_back(struct enforcer *en, const struct managed_device *m)
{
	say(LOG_WARNING, "firewall of %s (%s) was detached outside hid-policyd; %s",
	    m->info.sysname, m->info.name,
	    m->lost ? "attached again after failed attempts" : "re-attached");
	record_lost_firewall(en, m, true, 0);
}

/*
 * A device that a rule set matches but whose rules cannot be compiled or
 * stored (the rules map is full, say) gets its firewall without rules. The
 * firewall refuses every request of a device it finds no rules for and lets
 * its input through (bpf/hid_firewall.bpf.c, evaluate()): a policy that went
 * wrong costs the device its requests until it is fixed, never its
 * protection. The refusals are logged as "(no rules loaded)".
 */
static int protect_without_rules(struct enforcer *en, struct managed_device *m,
				 const struct hid_dev_info *info, const char *why)
{
	int r;

	fw_delete_rules(&en->loader, info->hid_id);
	r = fw_check_attached(&en->loader, info->hid_id);
	if (r == 0)
		r = fw_attach(&en->loader, info->hid_id, false);
	if (r < 0) {
		say(LOG_ERR, "%s (%s): %s, and its firewall cannot be attached: %s; the device is not protected",
		    info->sysname, info->name, why, strerror(-r));
		return r;
	}
	say(LOG_ERR, "%s (%s): %s; failing closed: every request to it is refused until its rules can be loaded",
	    info->sysname, info->name, why);
	m->protected = true;
	m->fail_closed = true;
	m->lost = false;
	m->mode = HID_RULES_MODE_ENFORCE;
	m->n_rules = 0;
	publish(en, m, true);
	return 0;
}

int enforce_know_self(struct enforcer *en, const char *exe)
{
	int r = policy_exe_identity(exe, &en->self_exe);

	if (r < 0)
		say(LOG_WARNING, "cannot tell which file this program runs from (%s): %s; the HID++ feature indexes rules name are not asked, and every feature but IRoot stays refused",
		    exe, strerror(-r));
	else if (r == POLICY_EXE_LAYERS_SHARE)
		say(LOG_WARNING, "this program runs from an overlay whose layers are on different file systems, without xino: a file of another layer with the same inode number, run by root, passes as this program's HID++ and nRF questions");
	en->self_exe_known = r >= 0;
	en->features.self_exe = r >= 0 ? &en->self_exe : NULL;
	en->nrf.self_exe = en->features.self_exe;
	return r;
}

void enforce_policy_device(struct enforcer *en, const struct hid_dev_info *info,
			   struct policy_device *pdev)
{
	state_policy_device(info, pdev);
	pdev->hidpp = feature_indexes_of(&en->features, info->hid_id);
	pdev->learner_exe = en->self_exe_known ? &en->self_exe : NULL;
	pdev->nrf = nrf_modules_of(&en->nrf, info->hid_id);
}

/* Rules naming HID++ features are compiled with the indexes the device
 * told: keep asking it for the features the rules name now (none: stop). */
static void follow_feature_indexes(struct enforcer *en, const struct policy *policy,
				   const struct policy_device *pdev,
				   const struct hid_dev_info *info,
				   const struct hid_device_rules *rules)
{
	uint16_t features[HIDPP_LEARN_FEATURES_MAX];
	size_t n = policy_hidpp_features(policy, pdev, features, ELEMENTSOF(features));

	if (n > ELEMENTSOF(features)) {
		say(LOG_WARNING, "%s (%s): its rules name %zu HID++ features; only the first %zu are asked, the others stay refused but at IRoot",
		    info->sysname, info->name, n, ELEMENTSOF(features));
		n = ELEMENTSOF(features);
	}
	feature_indexes_follow(&en->features, info, rules, features, n, boottime_ms());
}

/* Compile POLICY for a device and make the kernel enforce it: set its rules
 * (one atomic map update, temporary allows first), attach or adopt its
 * instance, or detach when no rule set matches any more. */
static int apply_policy(struct enforcer *en, const struct policy *policy,
			const struct hid_dev_info *info)
{
	struct policy_device pdev;
	_cleanup_(diag_done) struct diag diag = {};
	_cleanup_free_ struct hid_device_rules *rules = calloc(1, sizeof(*rules));
	struct managed_device *m;
	bool adopted = false, lost = false, input;
	int r, attached;

	enforce_policy_device(en, info, &pdev);
	if (!rules)
		return -ENOMEM;
	/* A rule set that matches by report descriptor may apply once a
	 * driver has parsed it: the decision waits for the bind event (the
	 * hidraw node, which udev holds until then, comes with the probe). */
	if (policy_waits_for_descriptor(policy, &pdev))
		return 0;
	m = state_add_device(en->state, info);
	if (!m)
		return -ENOMEM;
	m->info = *info;

	/* A paired device's own node asks nothing: its table, its
	 * receiver's answers, is there before its first compile. */
	if (info->receiver_id)
		follow_feature_indexes(en, policy, &pdev, info, NULL);
	pdev.hidpp = feature_indexes_of(&en->features, info->hid_id);
	r = policy_compile(policy, &pdev, rules, &diag);
	if (!info->receiver_id)
		follow_feature_indexes(en, policy, &pdev, info, r == 0 ? rules : NULL);
	/* Rules naming an nRF Desktop option: the device is asked for its
	 * modules once these rules, which keep its channel the daemon's
	 * until it has told, are in force (the next tick). */
	nrf_modules_follow(&en->nrf, info, r == 0 ? rules : NULL,
			   r != -ENOENT && policy_names_nrf_options(policy, &pdev), boottime_ms());
	if (r == -ENOENT) {
		free(m->policy_rules);
		m->policy_rules = NULL;
		if (fw_check_attached(&en->loader, info->hid_id) != 0) {
			r = fw_detach(&en->loader, info->hid_id);
			if (r < 0)
				say(LOG_ERR, "%s: cannot detach: %s", info->sysname, strerror(-r));
			else
				say(LOG_INFO, "%s (%s): no rule set matches any more, detached",
				    info->sysname, info->name);
		}
		m->protected = false;
		m->fail_closed = false;
		m->lost = false;
		m->n_rules = 0;
		allows_end_device(en, info->hid_id, "no rule set matches the device any more");
		publish(en, m, false);
		return 0;
	}
	if (r < 0) {
		for (size_t i = 0; i < diag.n; i++)
			say(LOG_ERR, "%s: %s", info->sysname, diag.entries[i].text);
		if (!m->protected || !m->policy_rules)
			return protect_without_rules(en, m, info, r == -E2BIG ?
						     "more rules apply than a device holds" :
						     "its rules cannot be compiled");
		say(LOG_ERR, "%s (%s): cannot compile its rules: %s; the rules in force stay",
		    info->sysname, info->name, strerror(-r));
		/* They stay, but a temporary allow that ended must not. */
		*rules = *m->policy_rules;
	} else {
		if (!m->policy_rules)
			m->policy_rules = malloc(sizeof(*rules));
		if (!m->policy_rules)
			return -ENOMEM;
		*m->policy_rules = *rules;
	}
	if (exception_prepend(&en->state->exceptions, info->hid_id, rules) == -E2BIG) {
		say(LOG_ERR, "%s: its rules leave no room for its temporary allows", info->sysname);
		allows_end_device(en, info->hid_id, "the device's rules leave no room for it");
	}

	r = fw_set_rules(&en->loader, info->hid_id, rules);
	if (r < 0 && (!m->protected || m->fail_closed)) {
		char why[128];

		snprintf(why, sizeof(why), "cannot store its rules: %s", strerror(-r));
		return protect_without_rules(en, m, info, why);
	}
	if (r < 0) {
		/* The map update is atomic: the rules in force stay. */
		say(LOG_ERR, "%s (%s): cannot store its new rules: %s; the rules in force stay",
		    info->sysname, info->name, strerror(-r));
		return r;
	}
	attached = fw_check_attached(&en->loader, info->hid_id);
	if (attached < 0) {
		say(LOG_ERR, "%s (%s): cannot tell whether its firewall is attached: %s",
		    info->sysname, info->name, strerror(-attached));
		return attached;
	}
	/* The input path gets a program only where a rule needs one, and only
	 * while a driver is bound: upstream HID-BPF (6.3 and later) sizes the
	 * event buffer from the parsed reports when the first hid_device_event
	 * program attaches, and one attached before the reports are parsed
	 * crashes the kernel at the device's first report (doc/security.md,
	 * section 4). Until the bind event, and from the unbind event on,
	 * requests alone are filtered. */
	input = fw_rules_need_input(rules) && info->bound &&
		reports_parsed_now(en, info);
	if (attached) {
		adopted = !m->protected;
		if (fw_attached_input(&en->loader, info->hid_id) != input) {
			r = fw_attach(&en->loader, info->hid_id, input);
			if (r < 0)
				say(LOG_ERR, "%s (%s): cannot %s the firewall's input filter: %s",
				    info->sysname, info->name, input ? "add" : "remove", strerror(-r));
		}
	} else {
		/* Protected, yet nothing registered: someone else
		 * unregistered its instance. */
		lost = m->protected || m->lost;
		r = fw_attach(&en->loader, info->hid_id, input);
		if (r < 0 && !device_present(en, info)) {
			/* Gone before we could attach: its remove event follows. */
			fw_delete_rules(&en->loader, info->hid_id);
			return 0;
		}
		if (r < 0) {
			say(LOG_ERR, "%s (%s): cannot attach the firewall: %s",
			    info->sysname, info->name, strerror(-r));
			if (lost)
				firewall_lost(en, m, r);
			return r;
		}
	}
	if (lost)
		firewall_back(en, m);
	else if (!m->protected)
		say(LOG_INFO, "%s (%s): protected, %u rule%s, %s mode%s", info->sysname,
		    info->name, rules->n_rules, rules->n_rules == 1 ? "" : "s",
		    rules->mode == HID_RULES_MODE_AUDIT ? "audit" : "enforce",
		    adopted ? " (adopted from a previous run)" : "");
	if (m->fail_closed)
		say(LOG_INFO, "%s (%s): its rules are loaded, no longer failing closed",
		    info->sysname, info->name);
	m->protected = true;
	m->fail_closed = false;
	m->lost = false;
	m->mode = rules->mode;
	m->n_rules = rules->n_rules;
	if (!hold_decision(en, m))
		publish(en, m, true);
	return 0;
}

int enforce_apply(struct enforcer *en, const struct hid_dev_info *info)
{
	struct hid_dev_info copy = *info;	/* INFO may live in en->state->devices */

	return apply_policy(en, en->state->policy, &copy);
}

void enforce_all(struct enforcer *en)
{
	for (size_t i = 0; i < en->state->n_devices; i++) {
		struct hid_dev_info info = en->state->devices[i].info;

		apply_policy(en, en->state->policy, &info);
	}
}

static int protect_present(const struct hid_dev_info *info, void *userdata)
{
	struct enforcer *en = userdata;

	apply_policy(en, en->state->policy, info);
	return 0;
}

int enforce_present(struct enforcer *en)
{
	return hid_dev_enumerate(en->sysfs_devices, protect_present, en);
}

void enforce_added(struct enforcer *en, const char *sysname, bool bound)
{
	struct hid_dev_info info;

	if (hid_dev_read(en->sysfs_devices, sysname, &info) < 0)
		return;
	/* A bind event follows a successful probe: the reports are parsed. */
	info.bound = info.bound || bound;
	if (info.descriptor_malformed)
		say(LOG_WARNING, "%s (%s): its report descriptor is malformed; rules match the application collections found before the fault, and a request to a report declared after it is refused",
		    info.sysname, info.name);
	apply_policy(en, en->state->policy, &info);
}

void enforce_unbound(struct enforcer *en, const char *sysname)
{
	struct hid_dev_info info;
	struct managed_device *m;

	if (hid_sysname_parse(sysname, &info) < 0)
		return;
	m = state_find_device(en->state, info.hid_id);
	if (!m)
		return;
	/* hid-core emptied its reports: no event program until the next
	 * bind, and the one it has is taken off now. */
	m->info.bound = false;
	/* Its node went with the driver; the next bind's must wait
	 * (hold_decision()). */
	m->decision_awaits_bind = true;
	decisions_withdraw(en->runtime_dir, m->info.sysname);
	feature_indexes_unbound(&en->features, m->info.hid_id);
	nrf_modules_forget(&en->nrf, m->info.hid_id);
	info = m->info;
	apply_policy(en, en->state->policy, &info);
}

void enforce_removed(struct enforcer *en, const char *sysname)
{
	struct hid_dev_info info;
	struct managed_device *m;

	if (hid_sysname_parse(sysname, &info) < 0)
		return;
	m = state_find_device(en->state, info.hid_id);
	/* The kernel made the instance inert; free its pin and rules. */
	fw_detach(&en->loader, info.hid_id);
	decisions_withdraw(en->runtime_dir, sysname);
	allows_end_device(en, info.hid_id, "device removed");
	feature_indexes_forget(&en->features, info.hid_id);
	nrf_modules_forget(&en->nrf, info.hid_id);
	if (m) {
		if (m->protected)
			say(LOG_INFO, "%s (%s): removed", m->info.sysname,
			    m->info.name);
		state_forget_device(en->state, m);
	}
}

/* Whoever can open a device's pin can unregister its firewall without us
 * (doc/security.md, section 3). Every CHECK_INTERVAL_MS, look whether each
 * protected device's instance is still registered (one map lookup through
 * the descriptor the loader keeps: CAP_BPF is enough). Where it is not,
 * apply_policy() attaches the firewall again and says so in the log and
 * the audit log; where that failed before, it tries again. */
void enforce_check_firewalls(struct enforcer *en)
{
	for (size_t i = 0; i < en->state->n_devices; i++) {
		struct managed_device *m = &en->state->devices[i];
		struct hid_dev_info info;
		int r;

		if (m->protected) {
			r = fw_check_attached(&en->loader, m->info.hid_id);
			if (r < 0 && !m->check_failed)
				say(LOG_ERR, "cannot check that the firewall of %s (%s) is still attached: %s",
				    m->info.sysname, m->info.name, strerror(-r));
			m->check_failed = r < 0;
			if (r != 0)
				continue;
		} else if (!m->lost) {
			continue;
		}
		/* Gone: the kernel made its instance inert and the remove
		 * event follows. */
		if (!device_present(en, &m->info))
			continue;
		info = m->info;
		apply_policy(en, en->state->policy, &info);
	}
}

void enforce_end_allow(struct enforcer *en, struct exception *e, const char *reason,
		       const struct exception_grantor *revoker)
{
	uint32_t hid_id = e->hid_id;
	struct managed_device *m;

	allows_end(en, e, reason, revoker);
	m = state_find_device(en->state, hid_id);
	if (m && m->protected && enforce_apply(en, &m->info) < 0)
		say(LOG_ERR, "%s: the ended temporary allow may still be in force: recompiling its rules failed",
		    m->info.sysname);
	allows_arm_expiry(en);
}

/* New answers: the device's rules compiled with them, in force. */
static void device_told(struct enforcer *en, uint32_t hid_id)
{
	const struct hidpp_features *t = feature_indexes_of(&en->features, hid_id);
	struct managed_device *m = state_find_device(en->state, hid_id);
	char told[2048];	/* 7 device indexes of 8 features: under 1100 */

	if (!m || !t)
		return;
	feature_indexes_describe(t, told, sizeof(told));
	say(LOG_INFO, "%s (%s): HID++ feature indexes it told: %s", m->info.sysname,
	    m->info.name, told);
	if (enforce_apply(en, &m->info) < 0)
		say(LOG_ERR, "%s (%s): the HID++ feature indexes it told are not in force: its rules cannot be stored",
		    m->info.sysname, m->info.name);
}

/* A receiver's answers are its paired devices' own nodes' too. */
static void feature_indexes_changed(struct enforcer *en, uint32_t hid_id)
{
	uint32_t paired[HIDPP_PAIRED_LAST * 4];
	size_t n = feature_indexes_paired(&en->features, hid_id, paired, ELEMENTSOF(paired));

	device_told(en, hid_id);
	for (size_t i = 0; i < n; i++)
		device_told(en, paired[i]);
}

bool enforce_feature_indexes_ready(struct enforcer *en, int fd)
{
	uint32_t hid_id;
	int r = feature_indexes_ready(&en->features, fd, boottime_ms(), &hid_id);

	if (r == -ENOENT)
		return false;
	if (r > 0)
		feature_indexes_changed(en, hid_id);
	return true;
}

void enforce_feature_indexes_tick(struct enforcer *en)
{
	uint32_t changed[16];
	size_t n = feature_indexes_tick(&en->features, boottime_ms(), changed, ELEMENTSOF(changed));

	for (size_t i = 0; i < n && i < ELEMENTSOF(changed); i++)
		feature_indexes_changed(en, changed[i]);
}

/* What an nRF Desktop device listed, in force. */
static void device_listed(struct enforcer *en, uint32_t hid_id)
{
	const struct nrf_config_table *t = nrf_modules_of(&en->nrf, hid_id);
	struct managed_device *m = state_find_device(en->state, hid_id);
	char listed[1024];	/* 16 modules of 16 bytes and their counts */

	if (!m || !t)
		return;
	/* Said once in force: the tests, and an administrator reading the
	 * log, take the line for the rules that follow from it. */
	if (enforce_apply(en, &m->info) < 0) {
		say(LOG_ERR, "%s (%s): the configuration-channel modules it listed are not in force: its rules cannot be stored",
		    m->info.sysname, m->info.name);
		return;
	}
	if (t->told) {
		nrf_modules_describe(t, listed, sizeof(listed));
		say(LOG_INFO, "%s (%s): configuration-channel modules it listed: %s",
		    m->info.sysname, m->info.name, listed);
	} else {
		say(LOG_INFO, "%s (%s): its configuration-channel modules are not known: every option's rule applies whole until it lists them",
		    m->info.sysname, m->info.name);
	}
}

bool enforce_nrf_modules_ready(struct enforcer *en, int fd)
{
	uint32_t hid_id;
	int r = nrf_modules_ready(&en->nrf, fd, boottime_ms(), &hid_id);

	if (r == -ENOENT)
		return false;
	if (r > 0)
		device_listed(en, hid_id);
	return true;
}

void enforce_nrf_modules_tick(struct enforcer *en)
{
	uint32_t changed[16];
	size_t n = nrf_modules_tick(&en->nrf, boottime_ms(), changed, ELEMENTSOF(changed));

	for (size_t i = 0; i < n; i++)
		device_listed(en, changed[i]);
}

void enforce_held_decisions(struct enforcer *en)
{
	uint64_t now = boottime_ms();

	for (size_t i = 0; i < en->state->n_devices; i++) {
		struct managed_device *m = &en->state->devices[i];
		bool ended;

		if (!m->decision_held_until)
			continue;
		ended = first_learning_ended(en, m->info.hid_id);
		if (!ended && now < m->decision_held_until)
			continue;
		if (!device_present(en, &m->info)) {
			/* Its remove event follows: nothing to publish. */
			m->decision_held_until = 0;
			continue;
		}
		/* Unbound, it has no node to open (a receiver's interface
		 * that no driver takes): nothing worth saying. */
		if (!ended && m->info.bound)
			say(LOG_INFO, "%s (%s): its first round of learning did not end in %d ms: its decision is published for udev, and what it has not told stays refused",
			    m->info.sysname, m->info.name, DECISION_HOLD_MS);
		publish(en, m, m->protected);
	}
}

uint64_t enforce_held_decisions_due(const struct enforcer *en)
{
	uint64_t due = 0;

	for (size_t i = 0; i < en->state->n_devices; i++) {
		uint64_t t = en->state->devices[i].decision_held_until;

		if (t && (!due || t < due))
			due = t;
	}
	return due;
}
