// SPDX-License-Identifier: GPL-2.0-or-later
/* A HID++ device's feature indexes, asked over its hidraw node; why its
 * answers are facts: hidpp_learn.h. */
#include "hidpp_learn.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "hidraw_node.h"
#include "hidpp_writer.h"

/* HID++ 1.0 (Solaar lib/logitech_receiver/hidpp10_constants.py, fwupd
 * fu-logitech-hidpp.rs): an error answer has sub-ID 0x8F and names the
 * question's sub-ID and address; a device that speaks only HID++ 1.0
 * answers a HID++ 2.0 question (feature index 0 is sub-ID 0 to it) with
 * "invalid sub-ID". A receiver's device connection notification has sub-ID
 * 0x41; bit 6 of its byte 4 says the link is not established. */
#define HIDPP10_ERROR			0x8f
#define HIDPP10_ERR_INVALID_SUBID	0x01
#define HIDPP10_DEVICE_CONNECTION	0x41
#define HIDPP10_LINK_NOT_ESTABLISHED	0x40
/* HID++ 2.0: an error answer has feature index 0xFF, then the question's
 * feature index and function byte, then the error code. */
#define HIDPP20_ERROR			0xff

/* hid-logitech-hidpp's ping byte (hidpp_root_get_protocol_version()) */
#define HIDPP_KERNEL_PING_DATA	0x5a

static size_t report_len(uint8_t report_id)
{
	return report_id == HIDPP_REPORT_SHORT ? HIDPP_SHORT_LEN : HIDPP_LONG_LEN;
}

static uint8_t bit(int slot)
{
	return (uint8_t)(1u << slot);
}

/* Ask the slot being asked FUNCTION of the feature at FEATURE_INDEX, with
 * parameters P (bytes 4-6); its answer must echo bytes 2 and 3. */
static int send_question(struct hidpp_learner *l, uint8_t feature_index, uint8_t function,
			 const uint8_t p[3], uint64_t now_ms)
{
	uint8_t q[HIDPP_LONG_LEN] = {
		l->report_id, hidpp_slot_device(l->slot), feature_index,
		(uint8_t)(function << 4 | HIDPP_LEARN_SW_ID), p[0], p[1], p[2],
	};
	size_t len = report_len(l->report_id);
	ssize_t n;
	int r;

	l->expect_feature = feature_index;
	l->expect_function = q[HIDPP_OFFSET_FUNCTION];
	l->deadline_ms = now_ms + HIDPP_LEARN_ANSWER_MS;
	l->questions++;
	if (l->writer) {
		r = hidpp_writer_send(l->writer, q, len);
		/* The last question is still being written: this one waits
		 * for nothing, its round ends at the deadline. */
		return r == -EBUSY ? 0 : r;
	}
	n = write(l->fd, q, len);
	if (n < 0)
		return errno == ENODEV || errno == EIO || errno == ESHUTDOWN ? -ENODEV : -errno;
	return n == (ssize_t)len ? 0 : -EIO;
}

static int ask_step(struct hidpp_learner *l, uint64_t now_ms)
{
	uint16_t feature;

	switch (l->step) {
	case HIDPP_STEP_PING:
		return send_question(l, HIDPP_ROOT_INDEX, HIDPP_ROOT_PING,
				     (const uint8_t[3]){ 0, 0, l->nonce }, now_ms);
	case HIDPP_STEP_FEATURE_SET:
		return send_question(l, HIDPP_ROOT_INDEX, HIDPP_ROOT_GET_FEATURE,
				     (const uint8_t[3]){ HIDPP_FEATURE_SET >> 8,
							 HIDPP_FEATURE_SET & 0xff, 0 }, now_ms);
	case HIDPP_STEP_COUNT:
		return send_question(l, l->feature_set, HIDPP_FEATURE_SET_COUNT,
				     (const uint8_t[3]){ 0 }, now_ms);
	case HIDPP_STEP_FEATURE_ID:
		return send_question(l, l->feature_set, HIDPP_FEATURE_SET_ID,
				     (const uint8_t[3]){ (uint8_t)l->next, 0, 0 }, now_ms);
	case HIDPP_STEP_CHECK:
		feature = l->features[l->next];
		return send_question(l, HIDPP_ROOT_INDEX, HIDPP_ROOT_GET_FEATURE,
				     (const uint8_t[3]){ (uint8_t)(feature >> 8), (uint8_t)feature, 0 },
				     now_ms);
	}
	return -EINVAL;
}

static int start_round(struct hidpp_learner *l, int slot, uint64_t now_ms)
{
	l->slot = slot;
	l->step = HIDPP_STEP_PING;
	/* A byte no answer of an earlier round carries, nor the kernel's
	 * own ping: hid-logitech-hidpp's probe pings with software ID 0
	 * too, always with 0x5A (hidpp_root_get_protocol_version()). */
	do
		l->nonce = (uint8_t)(l->nonce + 1);
	while (l->nonce == 0 || l->nonce == HIDPP_KERNEL_PING_DATA);
	l->feature_set = 0;
	l->count = 0;
	l->next = 0;
	memset(l->ids, 0, sizeof(l->ids));
	l->ask_at[slot] = 0;
	if (l->verifying & bit(slot))
		l->verified_at[slot] = now_ms;
	return ask_step(l, now_ms);
}

/* Start on the device index due first, if none is being asked. */
static int ask_next_slot(struct hidpp_learner *l, uint64_t now_ms)
{
	int due = -1;

	if (l->slot >= 0 || l->fd < 0 || !l->n_features)
		return 0;
	for (int s = 0; s < HIDPP_DEVICE_SLOTS; s++)
		if (l->ask_at[s] && l->ask_at[s] <= now_ms &&
		    (due < 0 || l->ask_at[s] < l->ask_at[due]))
			due = s;
	return due < 0 ? 0 : start_round(l, due, now_ms);
}

/* SLOT's answers are gone: it is unknown until a round completes. */
static void forget_slot(struct hidpp_learner *l, int slot, bool *changed)
{
	struct hidpp_features *t = &l->table;
	uint8_t device = hidpp_slot_device(slot);
	size_t kept = 0;

	if (!(t->answered & bit(slot)))
		return;
	for (size_t i = 0; i < t->n; i++)
		if (t->entries[i].device != device)
			t->entries[kept++] = t->entries[i];
	t->n = (uint8_t)kept;
	t->answered &= (uint8_t)~bit(slot);
	*changed = true;
}

/* Does the table hold ANSWER for its device index? */
static bool table_has(const struct hidpp_features *t, const struct hidpp_feature_index *answer)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->entries[i].device == answer->device &&
		    t->entries[i].feature == answer->feature)
			return t->entries[i].index == answer->index;
	return false;
}

/* SLOT's answers are now ANSWERS (one per feature asked). */
static void set_slot(struct hidpp_learner *l, int slot, const struct hidpp_feature_index *answers,
		     bool *changed)
{
	struct hidpp_features *t = &l->table;
	bool same = t->answered & bit(slot);

	for (size_t j = 0; same && j < l->n_features; j++)
		same = table_has(t, &answers[j]);
	if (same)
		return;
	forget_slot(l, slot, changed);
	for (size_t j = 0; j < l->n_features && t->n < HIDPP_FEATURES_MAX; j++)
		t->entries[t->n++] = answers[j];
	t->answered |= bit(slot);
	*changed = true;
}

/* The round's device index told something unexpected, an error, or
 * nothing in time: unknown, and asked again after its backoff. */
static int round_failed(struct hidpp_learner *l, uint64_t now_ms, bool *changed)
{
	int s = l->slot;

	forget_slot(l, s, changed);
	l->verifying &= (uint8_t)~bit(s);
	/* A failed round at a paired index (nothing paired there, a device
	 * asleep) ends its first round: waiting would only hold the node.
	 * At 0xFF it does not: the device itself, or the receiver, answers
	 * its own questions, and one answer late (the test replica's receiver
	 * answers behind a slow mouse's; a busy device may too) would open the node with 0xFF unknown, every
	 * register read refused; the retry, or the daemon's bound on the
	 * wait (DECISION_HOLD_MS), ends it. */
	if (s != 0)
		l->first_pending &= (uint8_t)~bit(s);
	l->rounds_ended[s]++;
	l->ask_at[s] = now_ms + l->backoff[s];
	l->backoff[s] = l->backoff[s] * 2 > HIDPP_LEARN_RETRY_MAX_MS ? HIDPP_LEARN_RETRY_MAX_MS :
								       l->backoff[s] * 2;
	l->slot = -1;
	return ask_next_slot(l, now_ms);
}

static int round_done(struct hidpp_learner *l, const struct hidpp_feature_index *answers,
		      uint64_t now_ms, bool *changed)
{
	int s = l->slot;

	set_slot(l, s, answers, changed);
	l->link_up |= bit(s);
	l->verifying &= (uint8_t)~bit(s);
	l->first_pending &= (uint8_t)~bit(s);
	l->rounds_ended[s]++;
	l->backoff[s] = HIDPP_LEARN_RETRY_MS;
	l->slot = -1;
	return ask_next_slot(l, now_ms);
}

/* The index the table read through IFeatureSet gives FEATURE; 0: none. */
static uint8_t table_index(const struct hidpp_learner *l, uint16_t feature)
{
	for (unsigned int i = 1; i <= l->count; i++)
		if (l->ids[i] == feature)
			return (uint8_t)i;
	return 0;
}

/* The table is whole: IFeatureSet is where IRoot said, and no feature the
 * rules name is at two indexes. */
static bool table_consistent(const struct hidpp_learner *l)
{
	if (l->ids[l->feature_set] != HIDPP_FEATURE_SET)
		return false;
	for (size_t j = 0; j < l->n_features; j++) {
		unsigned int seen = 0;

		for (unsigned int i = 1; i <= l->count; i++)
			seen += l->ids[i] == l->features[j];
		if (seen > 1)
			return false;
	}
	return true;
}

/* A HID++ 1.0 device has no HID++ 2.0 feature: "none" for each. At 0xFF
 * it is a receiver, whose paired devices are asked next. */
static int speaks_hidpp10(struct hidpp_learner *l, uint64_t now_ms, bool *changed)
{
	struct hidpp_feature_index answers[HIDPP_LEARN_FEATURES_MAX];
	uint8_t device = hidpp_slot_device(l->slot);

	for (size_t j = 0; j < l->n_features; j++)
		answers[j] = (struct hidpp_feature_index){ .feature = l->features[j],
							    .device = device };
	if (l->slot == 0 && !l->receiver) {
		l->receiver = true;
		for (int s = 1; s < HIDPP_DEVICE_SLOTS; s++) {
			if (!l->ask_at[s])
				l->ask_at[s] = now_ms;
			/* Part of the first round now: a paired device's
			 * node opens once its own has ended. */
			l->first_pending |= bit(s);
		}
	}
	return round_done(l, answers, now_ms, changed);
}

/* The answer to the question in flight: R's parameters from byte 4. */
static int take_answer(struct hidpp_learner *l, const uint8_t *r, uint64_t now_ms, bool *changed)
{
	struct hidpp_feature_index answers[HIDPP_LEARN_FEATURES_MAX];

	switch (l->step) {
	case HIDPP_STEP_PING:
		if (r[6] != l->nonce)
			return 0;	/* an earlier round's echo */
		l->step = HIDPP_STEP_FEATURE_SET;
		break;
	case HIDPP_STEP_FEATURE_SET:
		/* Without IFeatureSet no answer names its feature. */
		if (!r[4])
			return round_failed(l, now_ms, changed);
		l->feature_set = r[4];
		l->step = HIDPP_STEP_COUNT;
		break;
	case HIDPP_STEP_COUNT:
		if (!r[4] || l->feature_set > r[4])
			return round_failed(l, now_ms, changed);
		l->count = r[4];
		l->next = 1;
		l->step = HIDPP_STEP_FEATURE_ID;
		break;
	case HIDPP_STEP_FEATURE_ID:
		l->ids[l->next] = (uint16_t)(r[4] << 8 | r[5]);
		if (l->next < l->count) {
			l->next++;
			break;
		}
		if (!table_consistent(l))
			return round_failed(l, now_ms, changed);
		l->next = 0;
		l->step = HIDPP_STEP_CHECK;
		break;
	case HIDPP_STEP_CHECK:
		if (r[4] != table_index(l, l->features[l->next]))
			return round_failed(l, now_ms, changed);
		if (++l->next < l->n_features)
			break;
		for (size_t j = 0; j < l->n_features; j++)
			answers[j] = (struct hidpp_feature_index){
				.feature = l->features[j],
				.device = hidpp_slot_device(l->slot),
				.index = table_index(l, l->features[j]),
			};
		return round_done(l, answers, now_ms, changed);
	}
	return ask_step(l, now_ms);
}

/* A report from the device index being asked. */
static int take_from_slot(struct hidpp_learner *l, const uint8_t *r, uint64_t now_ms,
			  bool *changed)
{
	bool answer = r[2] == l->expect_feature && r[3] == l->expect_function;
	bool error20 = r[2] == HIDPP20_ERROR && r[3] == l->expect_feature &&
		       r[4] == l->expect_function;
	bool error10 = r[0] == HIDPP_REPORT_SHORT && r[2] == HIDPP10_ERROR &&
		       r[3] == l->expect_feature && r[4] == l->expect_function;
	bool ours_at = r[2] == HIDPP_ROOT_INDEX || (l->feature_set && r[2] == l->feature_set);
	bool ours_err = r[2] == HIDPP20_ERROR &&
			(r[3] == HIDPP_ROOT_INDEX || (l->feature_set && r[3] == l->feature_set));

	if (answer)
		return take_answer(l, r, now_ms, changed);
	if (l->step == HIDPP_STEP_PING && error10 && r[5] == HIDPP10_ERR_INVALID_SUBID)
		return speaks_hidpp10(l, now_ms, changed);
	if (error20 || error10)
		return round_failed(l, now_ms, changed);
	/* Before the ping's echo, answers to earlier questions are due. */
	if (l->step == HIDPP_STEP_PING)
		return 0;
	/* hid-logitech-hidpp's probe ping, which Linux 6.1 sends with
	 * software ID 0 too (a paired device's probe, while the receiver's
	 * learner asks it): its echo carries 0x5A, which the daemon's ping
	 * never does, and answers no question a round asks after the ping,
	 * so it neither is the daemon's answer nor stands in for one. */
	if (r[2] == HIDPP_ROOT_INDEX && r[3] == (HIDPP_ROOT_PING << 4 | HIDPP_LEARN_SW_ID) &&
	    r[6] == HIDPP_KERNEL_PING_DATA)
		return 0;
	/* Software ID 0 at IRoot or IFeatureSet that answers nothing asked:
	 * someone else asked (or the device misspoke); nothing of this round
	 * can be trusted. */
	if ((ours_at && (r[3] & 0x0f) == HIDPP_LEARN_SW_ID) ||
	    (ours_err && (r[4] & 0x0f) == HIDPP_LEARN_SW_ID))
		return round_failed(l, now_ms, changed);
	return 0;
}

/* A receiver announced the device at SLOT: LINK_FLAGS is byte 4. */
static int announced(struct hidpp_learner *l, int slot, uint8_t link_flags, uint64_t now_ms,
		     bool *changed)
{
	uint32_t wait;

	if (link_flags & HIDPP10_LINK_NOT_ESTABLISHED) {
		/* Off, or rebooting into other firmware: unknown until it
		 * connects (asked in a while anyway, should that notice be
		 * lost). */
		l->link_up &= (uint8_t)~bit(slot);
		l->verifying &= (uint8_t)~bit(slot);
		/* Nothing there answers now: waiting would only delay
		 * what cannot be learned. */
		l->first_pending &= (uint8_t)~bit(slot);
		l->rounds_ended[slot]++;
		forget_slot(l, slot, changed);
		if (l->slot == slot)
			l->slot = -1;
		l->ask_at[slot] = now_ms + HIDPP_LEARN_RETRY_MAX_MS;
		l->backoff[slot] = HIDPP_LEARN_RETRY_MS;
		return ask_next_slot(l, now_ms);
	}
	/* Being asked: a round that started with the link up is as good. */
	if (l->slot == slot)
		return 0;
	if ((l->link_up & bit(slot)) && (l->table.answered & bit(slot))) {
		/* The same link: no reboot, no other firmware. Check the
		 * answers, less often for each repeat. */
		if (l->ask_at[slot])
			return 0;
		wait = l->verify_wait[slot] ? l->verify_wait[slot] : HIDPP_LEARN_VERIFY_MS;
		l->ask_at[slot] = l->verified_at[slot] + wait > now_ms ?
				  l->verified_at[slot] + wait : now_ms;
		l->verify_wait[slot] = wait * 2 > HIDPP_LEARN_RETRY_MAX_MS ?
				       HIDPP_LEARN_RETRY_MAX_MS : wait * 2;
		l->verifying |= bit(slot);
		return ask_next_slot(l, now_ms);
	}
	/* A new link, or a device never learned: unknown until asked, now. */
	l->link_up |= bit(slot);
	l->verify_wait[slot] = HIDPP_LEARN_VERIFY_MS;
	l->backoff[slot] = HIDPP_LEARN_RETRY_MS;
	forget_slot(l, slot, changed);
	l->ask_at[slot] = now_ms;
	return ask_next_slot(l, now_ms);
}

int hidpp_learner_take(struct hidpp_learner *l, const uint8_t *r, size_t len, uint64_t now_ms,
		       bool *changed)
{
	int slot;

	if (len < HIDPP_SHORT_LEN || (r[0] != HIDPP_REPORT_SHORT && r[0] != HIDPP_REPORT_LONG &&
				      r[0] != HIDPP_REPORT_VERY_LONG))
		return 0;
	slot = hidpp_device_slot(r[HIDPP_OFFSET_DEVICE]);
	if (slot < 0)
		return 0;
	if (r[0] == HIDPP_REPORT_SHORT && r[2] == HIDPP10_DEVICE_CONNECTION) {
		if (slot == 0 || !l->receiver)
			return 0;
		return announced(l, slot, r[4], now_ms, changed);
	}
	if (slot != l->slot)
		return 0;
	return take_from_slot(l, r, now_ms, changed);
}

void hidpp_learner_queue_overflowed(struct hidpp_learner *l, uint64_t now_ms, bool *changed)
{
	if (!l->receiver)
		return;
	for (int s = 1; s < HIDPP_DEVICE_SLOTS; s++) {
		if (!(l->link_up & bit(s)))
			continue;
		l->link_up &= (uint8_t)~bit(s);
		l->verifying &= (uint8_t)~bit(s);
		forget_slot(l, s, changed);
		if (l->slot == s)
			l->slot = -1;
		l->ask_at[s] = now_ms;
	}
}

int hidpp_learner_read(struct hidpp_learner *l, uint64_t now_ms, bool *changed)
{
	int n_read = 0;

	/* At most a queue's worth: a device that floods its node does not
	 * keep the daemon here. */
	while (n_read < HIDPP_LEARN_QUEUE) {
		uint8_t r[64];
		ssize_t n = read(l->fd, r, sizeof(r));
		int ret;

		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ENODEV || errno == EIO || errno == ESHUTDOWN ? -ENODEV : -errno;
		if (n == 0)
			return -ENODEV;
		n_read++;
		ret = hidpp_learner_take(l, r, (size_t)n, now_ms, changed);
		if (ret < 0)
			return ret;
	}
	if (n_read >= HIDPP_LEARN_QUEUE_SUSPECT) {
		hidpp_learner_queue_overflowed(l, now_ms, changed);
		return ask_next_slot(l, now_ms);
	}
	return 0;
}

int hidpp_learner_tick(struct hidpp_learner *l, uint64_t now_ms, bool *changed)
{
	int r;

	if (l->slot < 0)
		return ask_next_slot(l, now_ms);
	if (now_ms < l->deadline_ms)
		return 0;
	/* The daemon may have been busy past the deadline (a reload
	 * compiles and stores every device's rules) while the answer came
	 * in time: its loop ticks after what it was busy with, before it
	 * looks at the nodes again. What waits in the queue is read first;
	 * an answer there is taken as any other (a ping's byte and the
	 * question's echo tell it from an earlier round's), and the round
	 * goes on with the next question's deadline. */
	r = hidpp_learner_read(l, now_ms, changed);
	if (r < 0)
		return r;
	if (l->slot < 0 || now_ms < l->deadline_ms)
		return 0;
	return round_failed(l, now_ms, changed);
}

uint64_t hidpp_learner_due(const struct hidpp_learner *l)
{
	uint64_t due = 0;

	if (l->fd < 0 || !l->n_features)
		return 0;
	if (l->slot >= 0)
		return l->deadline_ms;
	for (int s = 0; s < HIDPP_DEVICE_SLOTS; s++)
		if (l->ask_at[s] && (!due || l->ask_at[s] < due))
			due = l->ask_at[s];
	return due;
}

int hidpp_learner_ask(struct hidpp_learner *l, uint8_t slots, uint64_t now_ms)
{
	for (int s = 0; s < HIDPP_DEVICE_SLOTS; s++) {
		if (!(slots & bit(s)))
			continue;
		l->ask_at[s] = now_ms ? now_ms : 1;
		l->backoff[s] = HIDPP_LEARN_RETRY_MS;
	}
	/* Nothing is asked on a learner without a node or features. */
	if (l->fd >= 0 && l->n_features)
		l->first_pending |= slots;
	return ask_next_slot(l, now_ms);
}

uint16_t hidpp_learner_rounds_ended(const struct hidpp_learner *l, int slot)
{
	return l->rounds_ended[slot];
}

bool hidpp_learner_first_rounds_ended(const struct hidpp_learner *l, int slot)
{
	uint8_t waited = slot < 0 ? 0xff : (uint8_t)(bit(0) | bit(slot));

	return l->fd < 0 || !(l->first_pending & waited);
}

bool hidpp_learner_asks(const struct hidpp_learner *l, const uint16_t *features, size_t n)
{
	return n == l->n_features && !memcmp(features, l->features, n * sizeof(*features));
}

void hidpp_learner_init(struct hidpp_learner *l, uint8_t report_id, const uint16_t *features,
			size_t n)
{
	*l = (struct hidpp_learner){ .fd = -1, .report_id = report_id, .slot = -1 };
	if (n > HIDPP_LEARN_FEATURES_MAX)
		n = HIDPP_LEARN_FEATURES_MAX;
	if (n)
		memcpy(l->features, features, n * sizeof(*features));
	l->n_features = (uint8_t)n;
	for (int s = 0; s < HIDPP_DEVICE_SLOTS; s++) {
		l->backoff[s] = HIDPP_LEARN_RETRY_MS;
		l->verify_wait[s] = HIDPP_LEARN_VERIFY_MS;
	}
}


int hidpp_learner_open(struct hidpp_learner *l, const char *sysfs_devices, const char *dev_dir,
		       const char *sysname, uint8_t report_id, const uint16_t *features,
		       size_t n)
{
	int fd, r;

	hidpp_learner_init(l, report_id, features, n);
	fd = hidraw_node_open(sysfs_devices, dev_dir, sysname);
	if (fd < 0)
		return fd;
	r = hidpp_writer_start(fd, &l->writer);
	if (r < 0) {
		close(fd);
		return r;
	}
	l->fd = fd;
	return 0;
}

void hidpp_learner_close(struct hidpp_learner *l)
{
	hidpp_writer_stop(l->writer);
	l->writer = NULL;
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->slot = -1;
	/* What happens while nobody listens is not known: a link's state,
	 * and the questions due, start anew at the next open. */
	l->link_up = 0;
	l->verifying = 0;
	l->first_pending = 0;
	memset(l->ask_at, 0, sizeof(l->ask_at));
}
