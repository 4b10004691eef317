// SPDX-License-Identifier: GPL-2.0-or-later
/* The HID++ feature indexes of the devices whose rules name a feature. */
#include "feature_indexes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <syslog.h>

#include "audit/say.h"
#include "bpf/hid_rules.h"
#include "common/hidpp.h"
#include "common/util.h"

/* Device index 0xFF first; a receiver's devices follow from its answer. */
#define ASK_FROM_THE_DEVICE	0x01

static struct device_learner *find(const struct feature_indexes *fi, uint32_t hid_id)
{
	for (size_t i = 0; i < fi->n; i++)
		if (fi->items[i].hid_id == hid_id)
			return &fi->items[i];
	return NULL;
}

static void remove_item(struct feature_indexes *fi, struct device_learner *d)
{
	size_t i = (size_t)(d - fi->items);

	hidpp_learner_close(&d->learner);
	memmove(&fi->items[i], &fi->items[i + 1], (fi->n - i - 1) * sizeof(*fi->items));
	fi->n--;
}

void feature_indexes_done(struct feature_indexes *fi)
{
	for (size_t i = 0; i < fi->n; i++)
		hidpp_learner_close(&fi->items[i].learner);
	free(fi->items);
	fi->items = NULL;
	fi->n = fi->cap = 0;
}

/* A paired device's own node: its receiver's answers for its device
 * index, at each device index; none while the receiver has not answered
 * every feature its rules name there. */
static const struct hidpp_features *derive(struct feature_indexes *fi, struct device_learner *d)
{
	const struct device_learner *rcv = find(fi, d->receiver_id);
	const struct hidpp_features *t = rcv ? &rcv->learner.table : NULL;
	struct hidpp_features *out = &d->derived;
	bool complete = t && ((t->answered >> d->receiver_index) & 1);

	memset(out, 0, sizeof(*out));
	for (size_t j = 0; complete && j < d->learner.n_features; j++) {
		bool found = false;

		for (size_t i = 0; i < t->n; i++)
			found |= t->entries[i].device == d->receiver_index &&
				 t->entries[i].feature == d->learner.features[j];
		complete = found;
	}
	if (!complete)
		return out;
	for (int slot = 0; slot < HIDPP_DEVICE_SLOTS; slot++) {
		for (size_t i = 0; i < t->n && out->n < HIDPP_FEATURES_MAX; i++) {
			if (t->entries[i].device != d->receiver_index)
				continue;
			out->entries[out->n] = t->entries[i];
			out->entries[out->n++].device = hidpp_slot_device(slot);
		}
		out->answered |= (uint8_t)(1u << slot);
	}
	return out;
}

const struct hidpp_features *feature_indexes_of(struct feature_indexes *fi, uint32_t hid_id)
{
	struct device_learner *d = find(fi, hid_id);

	if (!d)
		return NULL;
	return d->receiver_id ? derive(fi, d) : &d->learner.table;
}

size_t feature_indexes_paired(const struct feature_indexes *fi, uint32_t receiver_id,
			      uint32_t *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < fi->n; i++)
		if (fi->items[i].receiver_id == receiver_id && n < max)
			out[n++] = fi->items[i].hid_id;
	return n;
}

static bool declares_output(const struct hid_dev_info *info, uint8_t id)
{
	return (info->declared[HID_RULES_RTYPE_OUTPUT][id / 32] >> (id % 32)) & 1;
}

/* HID++ questions go in an output report the descriptor declares (the
 * firewall refuses any other before its rules): short where there is one,
 * long otherwise (Bluetooth LE devices declare only long reports). */
static uint8_t question_report(const struct hid_dev_info *info)
{
	if (declares_output(info, HIDPP_REPORT_SHORT))
		return HIDPP_REPORT_SHORT;
	if (declares_output(info, HIDPP_REPORT_LONG))
		return HIDPP_REPORT_LONG;
	return 0;
}

/* Would RULES let the daemon ask with REPORT_ID? */
static bool rules_let_us_ask(const struct feature_indexes *fi, const struct hid_device_rules *rules, uint8_t report_id,
			     uint16_t feature)
{
	const struct policy_sender_id self = {
		.known = true, .uid = getuid(), .gid = getgid(),
		.exe_known = fi->self_exe != NULL,
		.exe_ino = fi->self_exe ? fi->self_exe->ino : 0,
		.exe_dev = fi->self_exe ? fi->self_exe->dev : 0,
	};
	uint8_t q[HIDPP_LONG_LEN] = {
		report_id, HIDPP_DEVICE_SELF, HIDPP_ROOT_INDEX, 0x00 << 4 | HIDPP_LEARN_SW_ID,
		(uint8_t)(feature >> 8), (uint8_t)feature,
	};
	struct policy_request req = {
		.kind = HID_RULE_KIND_OUTPUT_REPORT, .report_id = report_id, .data = q,
		.len = report_id == HIDPP_REPORT_SHORT ? HIDPP_SHORT_LEN : HIDPP_LONG_LEN,
		.sender = &self,
	};
	struct policy_verdict v;

	policy_evaluate(rules, &req, &v);
	return !v.enforced;
}

static void start_asking(struct feature_indexes *fi, struct device_learner *d,
			 const struct hid_dev_info *info, const struct hid_device_rules *rules,
			 const uint16_t *features, size_t n, uint64_t now_ms)
{
	uint8_t report_id = question_report(info);
	struct epoll_event ev = { .events = EPOLLIN };
	int r;

	hidpp_learner_close(&d->learner);
	d->tried = true;
	/* A function of the device that speaks no HID++ (a receiver's
	 * keyboard and mouse interfaces, which its rule set matches too):
	 * nothing to ask, and no HID++ message passes its declared-reports
	 * check anyway. */
	if (!report_id) {
		hidpp_learner_init(&d->learner, 0, features, n);
		return;
	}
	if (!rules_let_us_ask(fi, rules, report_id, features[0])) {
		hidpp_learner_init(&d->learner, 0, features, n);
		if (!d->said_unreachable)
			say(LOG_INFO, "%s (%s): its rules refuse the daemon's HID++ questions too: its feature indexes are not asked, and every feature but IRoot stays refused",
			    info->sysname, info->name);
		d->said_unreachable = true;
		return;
	}
	/* Asked anew: what happened while the node was closed is not known. */
	r = hidpp_learner_open(&d->learner, fi->sysfs_devices, fi->dev_dir, info->sysname,
			       report_id, features, n);
	if (r < 0) {
		if (!d->said_unreachable)
			say(LOG_WARNING, "%s (%s): cannot open its hidraw node to ask its HID++ feature indexes: %s; every feature but IRoot stays refused at the device indexes that have not answered",
			    info->sysname, info->name, strerror(-r));
		d->said_unreachable = true;
		return;
	}
	d->said_unreachable = false;
	ev.data.fd = d->learner.fd;
	if (fi->epoll_fd >= 0 && epoll_ctl(fi->epoll_fd, EPOLL_CTL_ADD, d->learner.fd, &ev) < 0) {
		say(LOG_ERR, "%s: cannot watch its hidraw node: %s", info->sysname, strerror(errno));
		hidpp_learner_close(&d->learner);
		return;
	}
	r = hidpp_learner_ask(&d->learner, ASK_FROM_THE_DEVICE, now_ms);
	if (r < 0)
		say(LOG_WARNING, "%s (%s): cannot ask its HID++ feature indexes: %s",
		    info->sysname, info->name, strerror(-r));
}

/* A paired device's own node: nothing asked here; its receiver's learner
 * must ask for its features. */
static void follow_receiver(struct feature_indexes *fi, struct device_learner *d,
			    const struct hid_dev_info *info, const uint16_t *features, size_t n)
{
	const struct device_learner *rcv = find(fi, info->receiver_id);
	bool asked = true;

	hidpp_learner_close(&d->learner);
	hidpp_learner_init(&d->learner, 0, features, n);
	if (d->receiver_id != info->receiver_id || d->receiver_index != info->receiver_index)
		d->receiver_rounds = rcv ? hidpp_learner_rounds_ended(&rcv->learner,
						hidpp_device_slot(info->receiver_index)) : 0;
	d->receiver_id = info->receiver_id;
	d->receiver_index = info->receiver_index;
	/* A receiver not followed yet (its node comes first, or later):
	 * nothing to say; the table stays empty until it answers. */
	for (size_t j = 0; rcv && asked && j < n; j++) {
		bool found = false;

		for (size_t k = 0; k < rcv->learner.n_features; k++)
			found |= rcv->learner.features[k] == features[j];
		asked = found;
	}
	if (!asked && !d->said_receiver)
		say(LOG_WARNING, "%s (%s): a device paired to receiver %04X, whose rules do not name all of this device's HID++ features: the daemon learns a paired device's features through its receiver, so every feature but IRoot stays refused here",
		    info->sysname, info->name, info->receiver_id);
	d->said_receiver = !asked;
}

void feature_indexes_follow(struct feature_indexes *fi, const struct hid_dev_info *info,
			    const struct hid_device_rules *rules, const uint16_t *features,
			    size_t n, uint64_t now_ms)
{
	struct device_learner *d = find(fi, info->hid_id);

	if (n == 0) {
		if (d)
			remove_item(fi, d);
		return;
	}
	if (!d) {
		if (GROW(fi->items, fi->n, fi->cap) < 0)
			return;
		d = &fi->items[fi->n++];
		*d = (struct device_learner){ .hid_id = info->hid_id };
		hidpp_learner_init(&d->learner, 0, NULL, 0);
	}
	if (info->receiver_id) {
		follow_receiver(fi, d, info, features, n);
		return;
	}
	if (!info->bound || !rules)
		return;
	if (d->learner.fd >= 0 && hidpp_learner_asks(&d->learner, features, n))
		return;
	start_asking(fi, d, info, rules, features, n, now_ms);
}

bool feature_indexes_first_rounds_ended(const struct feature_indexes *fi, uint32_t hid_id)
{
	const struct device_learner *d = find(fi, hid_id), *rcv;
	int slot;

	if (!d)
		return true;
	if (!d->receiver_id)
		return d->tried && hidpp_learner_first_rounds_ended(&d->learner, -1);
	/* A receiver comes before its paired devices' nodes (hid-logitech-dj
	 * adds them from its probe); at a start, sysfs may list them first. */
	rcv = find(fi, d->receiver_id);
	if (!rcv || !rcv->tried)
		return false;
	slot = hidpp_device_slot(d->receiver_index);
	if (!hidpp_learner_first_rounds_ended(&rcv->learner, slot))
		return false;
	/* hid-logitech-dj makes the node when the device connects, which
	 * may be long after the receiver's first round (a mouse asleep at
	 * plug-in, paired later): the receiver asks it then, as it says it
	 * connected. */
	return rcv->learner.fd < 0 || ((rcv->learner.table.answered >> slot) & 1) ||
	       hidpp_learner_rounds_ended(&rcv->learner, slot) != d->receiver_rounds;
}

/*
 * Nobody listens to a device without a driver: its link notifications
 * (a paired device gone and back with other firmware, where RDFU took
 * the index a setting had) reach no one. What it told before is not
 * known to hold when a driver binds it again, so it is forgotten now:
 * its rules, compiled at this unbind and at the bind, refuse every
 * feature but IRoot until it tells again, as a new device's do. The
 * features asked stay the ones its rules name.
 */
void feature_indexes_unbound(struct feature_indexes *fi, uint32_t hid_id)
{
	struct device_learner *d = find(fi, hid_id);
	uint16_t features[HIDPP_LEARN_FEATURES_MAX];
	size_t n;

	if (!d)
		return;
	n = d->learner.n_features;
	memcpy(features, d->learner.features, n * sizeof(*features));
	hidpp_learner_close(&d->learner);
	hidpp_learner_init(&d->learner, 0, features, n);
	d->tried = false;
}

void feature_indexes_forget(struct feature_indexes *fi, uint32_t hid_id)
{
	struct device_learner *d = find(fi, hid_id);

	if (d)
		remove_item(fi, d);
}

void feature_indexes_describe(const struct hidpp_features *t, char *buf, size_t size)
{
	size_t len = 0;
	bool unknown = false;

	buf[0] = '\0';
#define PUT(...) \
	do { \
		int n_ = snprintf(buf + len, size - len, __VA_ARGS__); \
		len = n_ < 0 ? len : len + (size_t)n_ >= size ? size - 1 : len + (size_t)n_; \
	} while (0)
	for (int slot = 0; slot < HIDPP_DEVICE_SLOTS; slot++) {
		uint8_t device = hidpp_slot_device(slot);
		bool first = true;

		if (!(t->answered & (1u << slot)))
			continue;
		PUT("%s%s%x:", len ? "; " : "", device == HIDPP_DEVICE_SELF ? "0x" : "", device);
		for (size_t i = 0; i < t->n; i++) {
			const struct hidpp_feature_index *e = &t->entries[i];

			if (e->device != device)
				continue;
			if (e->index)
				PUT("%s 0x%04x at 0x%02x", first ? "" : ",", e->feature, e->index);
			else
				PUT("%s 0x%04x none", first ? "" : ",", e->feature);
			first = false;
		}
	}
	for (int slot = 0; slot < HIDPP_DEVICE_SLOTS; slot++) {
		uint8_t device = hidpp_slot_device(slot);

		if (t->answered & (1u << slot))
			continue;
		PUT("%s%s%x", unknown ? ", " : len ? "; unknown: " : "unknown: ",
		    device == HIDPP_DEVICE_SELF ? "0x" : "", device);
		unknown = true;
	}
#undef PUT
}

/*
 * D's node went with its driver: the unbind or remove event follows. Its
 * first round did not end for all that: a closed learner counts as ended
 * (a node that cannot be opened waits for nothing), and a decision held
 * for udev would be published here, before the daemon reads the unbind,
 * for udev to open the node the next bind makes, with the same device
 * number, while the daemon asks anew. Not tried until a bind asks again.
 */
static void node_gone(struct device_learner *d)
{
	hidpp_learner_close(&d->learner);
	d->tried = false;
}

int feature_indexes_ready(struct feature_indexes *fi, int fd, uint64_t now_ms, uint32_t *hid_id)
{
	bool changed = false;
	int r;

	for (size_t i = 0; i < fi->n; i++) {
		struct device_learner *d = &fi->items[i];

		if (d->learner.fd != fd)
			continue;
		*hid_id = d->hid_id;
		r = hidpp_learner_read(&d->learner, now_ms, &changed);
		if (r == -ENODEV)
			node_gone(d);
		else if (r < 0)
			say(LOG_WARNING, "HID device %04X: asking its HID++ feature indexes: %s",
			    d->hid_id, strerror(-r));
		return changed;
	}
	return -ENOENT;
}

uint64_t feature_indexes_due(const struct feature_indexes *fi)
{
	uint64_t due = 0;

	for (size_t i = 0; i < fi->n; i++) {
		uint64_t t = hidpp_learner_due(&fi->items[i].learner);

		if (t && (!due || t < due))
			due = t;
	}
	return due;
}

size_t feature_indexes_tick(struct feature_indexes *fi, uint64_t now_ms, uint32_t *changed,
			    size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < fi->n; i++) {
		struct device_learner *d = &fi->items[i];
		bool c = false;

		if (hidpp_learner_tick(&d->learner, now_ms, &c) == -ENODEV)
			node_gone(d);
		if (c && n < max)
			changed[n++] = d->hid_id;
	}
	return n;
}
