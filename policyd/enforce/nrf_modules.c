// SPDX-License-Identifier: GPL-2.0-or-later
/* The configuration-channel modules of the nRF Desktop devices whose
 * rules name an option. */
#include "nrf_modules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <syslog.h>
#include <unistd.h>

#include "audit/say.h"
#include "bpf/hid_rules.h"
#include "common/util.h"

static struct nrf_device *find(const struct nrf_modules *nm, uint32_t hid_id)
{
	for (size_t i = 0; i < nm->n; i++)
		if (nm->items[i].hid_id == hid_id)
			return &nm->items[i];
	return NULL;
}

static void stop_asking(struct nrf_modules *nm, struct nrf_device *d)
{
	int fd = nrf_learner_fd(&d->learner);

	if (fd >= 0 && nm->epoll_fd >= 0)
		epoll_ctl(nm->epoll_fd, EPOLL_CTL_DEL, fd, NULL);
	nrf_learner_close(&d->learner);
}

void nrf_modules_done(struct nrf_modules *nm)
{
	for (size_t i = 0; i < nm->n; i++)
		nrf_learner_close(&nm->items[i].learner);
	free(nm->items);
	nm->items = NULL;
	nm->n = nm->cap = 0;
}

const struct nrf_config_table *nrf_modules_of(const struct nrf_modules *nm, uint32_t hid_id)
{
	const struct nrf_device *d = find(nm, hid_id);

	return d ? &d->learner.table : NULL;
}

void nrf_modules_forget(struct nrf_modules *nm, uint32_t hid_id)
{
	struct nrf_device *d = find(nm, hid_id);
	size_t i;

	if (!d)
		return;
	stop_asking(nm, d);
	i = (size_t)(d - nm->items);
	memmove(&nm->items[i], &nm->items[i + 1], (nm->n - i - 1) * sizeof(*nm->items));
	nm->n--;
}

/* Would RULES let the daemon send its question of STATUS and EVENT_ID? */
static bool lets_us_ask(const struct nrf_modules *nm, const struct hid_device_rules *rules,
			uint8_t status, uint8_t event_id)
{
	const struct policy_sender_id self = {
		.known = true, .uid = getuid(), .gid = getgid(),
		.exe_known = nm->self_exe != NULL,
		.exe_ino = nm->self_exe ? nm->self_exe->ino : 0,
		.exe_dev = nm->self_exe ? nm->self_exe->dev : 0,
	};
	uint8_t q[NRF_CONFIG_REPORT_LEN];
	struct policy_request req = {
		.kind = HID_RULE_KIND_SET_FEATURE, .report_id = NRF_CONFIG_REPORT_FEATURE,
		.data = q, .len = sizeof(q), .sender = &self,
	};
	struct policy_verdict v;

	nrf_learner_question(status, event_id, q);
	policy_evaluate(rules, &req, &v);
	return !v.enforced;
}

static bool declares_feature(const struct hid_dev_info *info, uint8_t id)
{
	return (info->declared[HID_RULES_RTYPE_FEATURE][id / 32] >> (id % 32)) & 1;
}

static void start_asking(struct nrf_modules *nm, struct nrf_device *d,
			 const struct hid_dev_info *info, const struct hid_device_rules *rules,
			 uint64_t now_ms)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int r;

	stop_asking(nm, d);
	d->tried = true;
	/* A function of the device without the channel (a dongle's mouse
	 * interface, which the rule set matches too): nothing to ask. */
	if (!declares_feature(info, NRF_CONFIG_REPORT_FEATURE))
		return;
	if (!lets_us_ask(nm, rules, NRF_CONFIG_STATUS_GET_MAX_MOD_ID, 0x00) ||
	    !lets_us_ask(nm, rules, NRF_CONFIG_STATUS_FETCH, 0x10)) {
		if (!d->said_unreachable)
			say(LOG_INFO, "%s (%s): its rules refuse the daemon's configuration-channel questions too: its modules are not asked, and every option's rule applies whole",
			    info->sysname, info->name);
		d->said_unreachable = true;
		return;
	}
	r = nrf_learner_open(&d->learner, nm->sysfs_devices, nm->dev_dir, info->sysname);
	if (r < 0) {
		if (!d->said_unreachable)
			say(LOG_WARNING, "%s (%s): cannot open its hidraw node to ask its configuration-channel modules: %s; every option's rule applies whole",
			    info->sysname, info->name, strerror(-r));
		d->said_unreachable = true;
		return;
	}
	d->said_unreachable = false;
	ev.data.fd = nrf_learner_fd(&d->learner);
	if (nm->epoll_fd >= 0 && epoll_ctl(nm->epoll_fd, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0) {
		say(LOG_ERR, "%s: cannot watch its configuration-channel answers: %s",
		    info->sysname, strerror(errno));
		nrf_learner_close(&d->learner);
		return;
	}
	/* Asked at the next tick: the rules compiled with nothing told,
	 * which keep the channel the daemon's, are in force by then. */
	d->learner.ask_at = now_ms;
}

void nrf_modules_follow(struct nrf_modules *nm, const struct hid_dev_info *info,
			const struct hid_device_rules *rules, bool wanted, uint64_t now_ms)
{
	struct nrf_device *d = find(nm, info->hid_id);

	if (!wanted) {
		nrf_modules_forget(nm, info->hid_id);
		return;
	}
	if (!d) {
		if (GROW(nm->items, nm->n, nm->cap) < 0)
			return;
		d = &nm->items[nm->n++];
		*d = (struct nrf_device){ .hid_id = info->hid_id };
		nrf_learner_init(&d->learner);
	}
	if (!info->bound || !rules)
		return;
	if (d->learner.fd >= 0)
		return;		/* asking, or told, since this bind */
	start_asking(nm, d, info, rules, now_ms);
}

bool nrf_modules_first_round_ended(const struct nrf_modules *nm, uint32_t hid_id)
{
	const struct nrf_device *d = find(nm, hid_id);

	return !d || (d->tried && nrf_learner_first_round_ended(&d->learner));
}

void nrf_modules_describe(const struct nrf_config_table *t, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (uint8_t m = 0; m < t->n_modules && len + 1 < size; m++) {
		int n = snprintf(buf + len, size - len, "%s%s (%u option%s)", m ? ", " : "",
				 t->modules[m].name, t->modules[m].n_options,
				 t->modules[m].n_options == 1 ? "" : "s");

		if (n < 0)
			break;
		len = len + (size_t)n >= size ? size - 1 : len + (size_t)n;
	}
}

/*
 * D's node went with its driver: the unbind or remove event follows. Its
 * first round did not end for all that: a closed learner counts as ended
 * (a node that cannot be opened waits for nothing), and a decision held
 * for udev would be published here, before the daemon reads the unbind,
 * for udev to apply to the node the next bind makes, with the same device
 * number, while the daemon asks anew. Not tried until a bind asks again
 * (as feature_indexes.c, node_gone(), for HID++).
 */
static void node_gone(struct nrf_modules *nm, struct nrf_device *d)
{
	stop_asking(nm, d);
	d->tried = false;
}

int nrf_modules_ready(struct nrf_modules *nm, int fd, uint64_t now_ms, uint32_t *hid_id)
{
	bool changed = false;
	int r;

	for (size_t i = 0; i < nm->n; i++) {
		struct nrf_device *d = &nm->items[i];

		if (nrf_learner_fd(&d->learner) != fd)
			continue;
		*hid_id = d->hid_id;
		r = nrf_learner_read(&d->learner, now_ms, &changed);
		if (r == -ENODEV)
			node_gone(nm, d);
		else if (r < 0)
			say(LOG_WARNING, "HID device %04X: asking its configuration-channel modules: %s",
			    d->hid_id, strerror(-r));
		return changed;
	}
	return -ENOENT;
}

uint64_t nrf_modules_due(const struct nrf_modules *nm)
{
	uint64_t due = 0;

	for (size_t i = 0; i < nm->n; i++) {
		uint64_t t = nrf_learner_due(&nm->items[i].learner);

		if (t && (!due || t < due))
			due = t;
	}
	return due;
}

size_t nrf_modules_tick(struct nrf_modules *nm, uint64_t now_ms, uint32_t *changed, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < nm->n; i++) {
		struct nrf_device *d = &nm->items[i];
		bool c = false;

		if (nrf_learner_tick(&d->learner, now_ms, &c) == -ENODEV)
			node_gone(nm, d);
		if (c && n < max)
			changed[n++] = d->hid_id;
	}
	return n;
}
