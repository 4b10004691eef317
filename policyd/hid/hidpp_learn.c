// SPDX-License-Identifier: GPL-2.0-or-later
/* A HID++ device's feature indexes, asked over its hidraw node. */
#include "hidpp_learn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/util.h"

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

#define ALL_PAIRED_SLOTS	0x7e	/* slots 1-6 */

static size_t report_len(uint8_t report_id)
{
	return report_id == HIDPP_REPORT_SHORT ? HIDPP_SHORT_LEN : HIDPP_LONG_LEN;
}

static int send_question(struct hidpp_learner *l, uint64_t now_ms)
{
	uint8_t q[HIDPP_LONG_LEN] = {};
	size_t len = report_len(l->report_id);
	uint16_t feature = l->features[l->next];
	ssize_t n;

	q[0] = l->report_id;
	q[HIDPP_OFFSET_DEVICE] = hidpp_slot_device(l->slot);
	q[HIDPP_OFFSET_FEATURE] = HIDPP_ROOT_INDEX;
	q[HIDPP_OFFSET_FUNCTION] = 0x00 << 4 | HIDPP_LEARN_SW_ID;	/* getFeature */
	q[4] = (uint8_t)(feature >> 8);
	q[5] = (uint8_t)feature;
	l->deadline_ms = now_ms + HIDPP_LEARN_ANSWER_MS;
	n = write(l->fd, q, len);
	if (n < 0)
		return errno == ENODEV || errno == EIO || errno == ESHUTDOWN ? -ENODEV : -errno;
	return n == (ssize_t)len ? 0 : -EIO;
}

/* Start on the next slot to ask, if none is being asked: those of the
 * open first, then an announced one if its round is due. */
static int ask_next_slot(struct hidpp_learner *l, uint64_t now_ms)
{
	if (l->slot >= 0 || l->fd < 0 || !l->n_features)
		return 0;
	if (l->to_ask) {
		l->slot = __builtin_ctz(l->to_ask);
	} else if (l->announced && now_ms >= l->next_round_ms) {
		l->slot = __builtin_ctz(l->announced);
		l->next_round_ms = now_ms + HIDPP_LEARN_ROUND_MS;
	} else {
		return 0;
	}
	l->to_ask &= (uint8_t)~(1u << l->slot);
	l->announced &= (uint8_t)~(1u << l->slot);
	l->next = 0;
	return send_question(l, now_ms);
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

/* SLOT's answers are gone: it is unknown until it answers again. */
static void forget_slot(struct hidpp_learner *l, int slot, bool *changed)
{
	struct hidpp_features *t = &l->table;
	uint8_t device = hidpp_slot_device(slot);
	size_t kept = 0;

	if (!((t->answered >> slot) & 1))
		return;
	for (size_t i = 0; i < t->n; i++)
		if (t->entries[i].device != device)
			t->entries[kept++] = t->entries[i];
	t->n = (uint8_t)kept;
	t->answered &= (uint8_t)~(1u << slot);
	*changed = true;
}

/* A receiver announced the device at SLOT: it may run other firmware now.
 * Announced again before its round is due, its old answers go (a device
 * may be swapped in quicker than we may ask). */
static int announced(struct hidpp_learner *l, int slot, uint64_t now_ms, bool *changed)
{
	if (now_ms < l->next_round_ms)
		forget_slot(l, slot, changed);
	l->announced |= (uint8_t)(1u << slot);
	return ask_next_slot(l, now_ms);
}

/* The slot being asked gave every answer: they replace its old ones. */
static void commit_slot(struct hidpp_learner *l, bool *changed)
{
	struct hidpp_features *t = &l->table;
	uint8_t device = hidpp_slot_device(l->slot);
	bool same = (t->answered >> l->slot) & 1;
	size_t kept = 0, old = 0;

	for (size_t j = 0; same && j < l->next; j++)
		same = table_has(t, &l->answers[j]);
	for (size_t i = 0; i < t->n; i++) {
		if (t->entries[i].device == device)
			old++;
		else
			t->entries[kept++] = t->entries[i];
	}
	same = same && old == l->next;
	t->n = (uint8_t)kept;
	for (size_t j = 0; j < l->next && t->n < HIDPP_FEATURES_MAX; j++)
		t->entries[t->n++] = l->answers[j];
	t->answered |= (uint8_t)(1u << l->slot);
	if (!same)
		*changed = true;
}

/* The slot being asked is done: answered or silent. */
static int slot_done(struct hidpp_learner *l, bool answered, bool *changed, uint64_t now_ms)
{
	if (answered)
		commit_slot(l, changed);
	l->slot = -1;
	return ask_next_slot(l, now_ms);
}

/* Slot 0 answered as a HID++ 1.0 device: a receiver; its devices are
 * asked next. */
static void found_receiver(struct hidpp_learner *l)
{
	l->to_ask |= ALL_PAIRED_SLOTS;
}

int hidpp_learner_take(struct hidpp_learner *l, const uint8_t *r, size_t len, uint64_t now_ms,
		       bool *changed)
{
	const uint8_t function = 0x00 << 4 | HIDPP_LEARN_SW_ID;
	uint8_t device;
	int slot;

	if (len < HIDPP_SHORT_LEN || (r[0] != HIDPP_REPORT_SHORT && r[0] != HIDPP_REPORT_LONG &&
				      r[0] != HIDPP_REPORT_VERY_LONG))
		return 0;
	slot = hidpp_device_slot(r[HIDPP_OFFSET_DEVICE]);
	if (slot < 0)
		return 0;

	if (r[0] == HIDPP_REPORT_SHORT && r[2] == HIDPP10_DEVICE_CONNECTION) {
		if (slot == 0 || (r[4] & HIDPP10_LINK_NOT_ESTABLISHED))
			return 0;
		return announced(l, slot, now_ms, changed);
	}
	/* A paired device's own node (hid-logitech-dj's): the driver puts the
	 * device's index in a question to 0xFF, and the answer comes back
	 * with it. Only the learner asks with software ID 0, one question at
	 * a time (the firewall keeps that ID to root). */
	if (slot != l->slot && !(l->slot == 0 && slot > 0))
		return 0;
	device = hidpp_slot_device(l->slot);

	if (r[2] == HIDPP_ROOT_INDEX && r[3] == function) {
		l->answers[l->next] = (struct hidpp_feature_index){
			.feature = l->features[l->next],
			.device = device,
			.index = r[4],
		};
		if (++l->next < l->n_features)
			return send_question(l, now_ms);
		return slot_done(l, true, changed, now_ms);
	}
	if (r[0] == HIDPP_REPORT_SHORT && r[2] == HIDPP10_ERROR && r[3] == HIDPP_ROOT_INDEX &&
	    r[4] == function) {
		/* A HID++ 1.0 device has no HID++ 2.0 feature: it answered
		 * index 0, "none", for each. */
		if (r[5] != HIDPP10_ERR_INVALID_SUBID)
			return slot_done(l, false, changed, now_ms);
		if (slot == 0)
			found_receiver(l);
		for (l->next = 0; l->next < l->n_features; l->next++)
			l->answers[l->next] = (struct hidpp_feature_index){
				.feature = l->features[l->next],
				.device = device,
			};
		return slot_done(l, true, changed, now_ms);
	}
	if (r[2] == HIDPP20_ERROR && r[3] == HIDPP_ROOT_INDEX && r[4] == function)
		return slot_done(l, false, changed, now_ms);
	return 0;
}

int hidpp_learner_read(struct hidpp_learner *l, uint64_t now_ms, bool *changed)
{
	/* A round at a time: a device that floods its node does not keep
	 * the daemon here. */
	for (int i = 0; i < 64; i++) {
		uint8_t r[64];
		ssize_t n = read(l->fd, r, sizeof(r));
		int ret;

		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ENODEV || errno == EIO || errno == ESHUTDOWN ? -ENODEV : -errno;
		if (n == 0)
			return -ENODEV;
		ret = hidpp_learner_take(l, r, (size_t)n, now_ms, changed);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int hidpp_learner_tick(struct hidpp_learner *l, uint64_t now_ms, bool *changed)
{
	if (l->slot < 0)
		return ask_next_slot(l, now_ms);
	if (now_ms < l->deadline_ms)
		return 0;
	return slot_done(l, false, changed, now_ms);
}

uint64_t hidpp_learner_due(const struct hidpp_learner *l)
{
	if (l->slot >= 0)
		return l->deadline_ms;
	if (l->announced && l->fd >= 0 && l->n_features)
		return l->next_round_ms ? l->next_round_ms : 1;
	return 0;
}

int hidpp_learner_ask(struct hidpp_learner *l, uint8_t slots, uint64_t now_ms)
{
	l->to_ask |= slots & ((1u << HIDPP_DEVICE_SLOTS) - 1);
	return ask_next_slot(l, now_ms);
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
	memcpy(l->features, features, n * sizeof(*features));
	l->n_features = (uint8_t)n;
}

/* The hidraw node of SYSNAME: its name under hidraw/ and its device number. */
static int hidraw_node(const char *sysfs_devices, const char *sysname, char *name, size_t size,
		       dev_t *devt)
{
	char path[PATH_MAX];
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *de;
	unsigned int major, minor;

	snprintf(path, sizeof(path), "%s/%s/hidraw", sysfs_devices, sysname);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		_cleanup_fclose_ FILE *f = NULL;

		if (strncmp(de->d_name, "hidraw", 6) || strlen(de->d_name) >= size)
			continue;
		snprintf(path, sizeof(path), "%s/%s/hidraw/%s/dev", sysfs_devices, sysname,
			 de->d_name);
		f = fopen(path, "re");
		if (!f || fscanf(f, "%u:%u", &major, &minor) != 2)
			return -ENOENT;
		memcpy(name, de->d_name, strlen(de->d_name) + 1);
		*devt = makedev(major, minor);
		return 0;
	}
	return -ENOENT;
}

int hidpp_learner_open(struct hidpp_learner *l, const char *sysfs_devices, const char *dev_dir,
		       const char *sysname, uint8_t report_id, const uint16_t *features,
		       size_t n)
{
	char name[32], path[PATH_MAX];
	dev_t before, after;
	struct stat st;
	int fd, r;

	hidpp_learner_init(l, report_id, features, n);
	r = hidraw_node(sysfs_devices, sysname, name, sizeof(name), &before);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/%s", dev_dir, name);
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* The node is the device's only if sysfs still names it after the
	 * open: an open node keeps its minor number from being reused. */
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_rdev != before ||
	    hidraw_node(sysfs_devices, sysname, name, sizeof(name), &after) < 0 ||
	    after != before) {
		close(fd);
		return -ENODEV;
	}
	l->fd = fd;
	return 0;
}

void hidpp_learner_close(struct hidpp_learner *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->slot = -1;
	l->to_ask = 0;
	l->announced = 0;
}
