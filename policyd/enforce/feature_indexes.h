/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HID++ 2.0 feature indexes of the devices whose rules name a feature
 * ("hidpp_feature"): a learner per device (hid/hidpp_learn.h), its hidraw
 * node in the daemon's event loop while a driver is bound; it asks anew at
 * each bind. A paired device's own node (hid-logitech-dj's, see
 * hid_dev_info.receiver_id) has no learner: what reaches the device from
 * it goes through the receiver, whose learner asks the device, so one
 * learner asks each device; its table is the receiver's answers for its
 * device index, at every device index (the driver writes the device's
 * index over byte 1 of every HID++ message sent there).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hid/devices.h"
#include "hid/hidpp_learn.h"
#include "policy/policy.h"

struct device_learner {
	uint32_t hid_id;
	struct hidpp_learner learner;
	bool said_unreachable;	/* the node could not be opened: said once */
	/* Asking was tried since the device was followed or last unbound:
	 * its learner asks, or nothing can be learned (no HID++ report, its
	 * rules refuse the daemon, its node cannot be opened). */
	bool tried;
	/* a paired device's own node: its receiver and device index */
	uint32_t receiver_id;
	uint8_t receiver_index;
	struct hidpp_features derived;	/* from the receiver's answers */
	uint16_t receiver_rounds;	/* its receiver's rounds ended at its index
					 * when this node was first followed */
	bool said_receiver;	/* its receiver asks none of its features: said once */
};

struct feature_indexes {
	int epoll_fd;			/* the daemon's event loop (-1: none) */
	const char *sysfs_devices;	/* HID_SYSFS_DEVICES */
	const char *dev_dir;		/* "/dev" */
	const struct hid_rule_exe *self_exe;	/* the daemon's executable; NULL: not known */
	struct device_learner *items;
	size_t n, cap;
};

void feature_indexes_done(struct feature_indexes *fi);

/* What the device HID_ID answered so far (a paired device's own node: what
 * it answered its receiver); NULL: nothing asked. */
const struct hidpp_features *feature_indexes_of(struct feature_indexes *fi, uint32_t hid_id);

/* The paired devices' own nodes under receiver RECEIVER_ID whose tables
 * come from it: stores up to MAX of their ids in OUT, returns how many. */
size_t feature_indexes_paired(const struct feature_indexes *fi, uint32_t receiver_id,
			      uint32_t *out, size_t max);

/* Ask INFO's device for FEATURES (N of them) while a driver is bound, and
 * whenever its receiver says a device connected; N == 0: stop asking and
 * forget its answers. Asks again when the features change. RULES, the
 * device's compiled rules, must let the daemon's questions through (a
 * bootloader's rule set refuses every write): where they do not, nothing
 * is asked (and nothing refused is logged); NULL: none compiled now, keep
 * what is. */
void feature_indexes_follow(struct feature_indexes *fi, const struct hid_dev_info *info,
			    const struct hid_device_rules *rules, const uint16_t *features,
			    size_t n, uint64_t now_ms);

/* Has what the device HID_ID can learn in its first round been learned:
 * asking was tried since it was bound and its learner's first round ended
 * at every device index asked? A paired device's own node: its
 * receiver's first round at 0xFF and at its device index ended, and the
 * receiver knows the device at that index or a round there ended since
 * the node came (a device that connects after the receiver's first
 * round); its receiver not followed: not yet. True for a device nothing
 * is asked of. */
bool feature_indexes_first_rounds_ended(const struct feature_indexes *fi, uint32_t hid_id);

/* HID_ID's device was unbound: close its node and forget its answers
 * (nobody hears what changes until a driver binds it again). */
void feature_indexes_unbound(struct feature_indexes *fi, uint32_t hid_id);

/* Forget the device HID_ID (removed). */
void feature_indexes_forget(struct feature_indexes *fi, uint32_t hid_id);

/* T in words, for the log: "0xff: 0x00d0 none, 0x00d1 at 0x0d; 2: ...;
 * 1, 3-6 unknown" (the device indexes that have not answered last). */
void feature_indexes_describe(const struct hidpp_features *t, char *buf, size_t size);

/* FD is readable. Returns -ENOENT when it is not a learner's node, else 1
 * when the answers of device *HID_ID changed, 0 when not. */
int feature_indexes_ready(struct feature_indexes *fi, int fd, uint64_t now_ms, uint32_t *hid_id);

/* When feature_indexes_tick() is next due (CLOCK_BOOTTIME ms); 0: never. */
uint64_t feature_indexes_due(const struct feature_indexes *fi);

/* Questions that went unanswered in time: stores in CHANGED (room for MAX)
 * the devices whose answers changed; returns how many. */
size_t feature_indexes_tick(struct feature_indexes *fi, uint64_t now_ms, uint32_t *changed,
			    size_t max);
