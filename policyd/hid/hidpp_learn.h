/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A HID++ device's feature indexes, asked of the device over its hidraw node
 * and kept current while the node is open (the protocol: common/hidpp.h).
 *
 * The learner asks IRoot's getFeature for each feature the rules name, one
 * question at a time: first at device index 0xFF; where that answers as a
 * HID++ 1.0 device (a Unifying or Bolt receiver), at the paired device
 * indexes 1-6. A device index that stays silent, or answers with an error,
 * stays unknown. A receiver announces every device that connects (the
 * HID++ 1.0 notification 0x41): its index is asked again then, since a
 * device that comes back may run other firmware (its bootloader, or a new
 * image) with another table. Until the new answers are complete, the old
 * ones stay. A device announced again before HIDPP_LEARN_ROUND_MS since the
 * last round so started has its answers dropped (every feature but IRoot
 * refused at its index) and is asked when that time is up: a device that
 * floods notifications, or alternates its answers, gets a round a second
 * and a recompile or two a second, not one per report.
 *
 * Its questions carry software ID 0, which HID++ reserves for the
 * device's own notifications: no client (Solaar cycles 2-15, fwupd uses 7,
 * the kernel's hid-logitech-hidpp 1) takes the answers for its own, and
 * the learner takes no other client's answer for its own (the firewall
 * refuses IRoot questions with software ID 0 from anyone but root:
 * policy_compile()).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hidpp.h"

#define HIDPP_LEARN_SW_ID	0x0
/* How long a device index has to answer one question. */
#define HIDPP_LEARN_ANSWER_MS	500
#define HIDPP_LEARN_FEATURES_MAX 8
/* Rounds started by connection notifications: at most one in this time. */
#define HIDPP_LEARN_ROUND_MS	1000

struct hidpp_learner {
	int fd;			/* the device's hidraw node (-1: closed) */
	uint8_t report_id;	/* HIDPP_REPORT_SHORT or _LONG, as the descriptor declares */
	uint8_t n_features;
	uint16_t features[HIDPP_LEARN_FEATURES_MAX];
	struct hidpp_features table;	/* the complete answers so far */
	uint8_t to_ask;		/* bit s: slot s is to be asked (at open) */
	uint8_t announced;	/* bit s: slot s connected: to be asked again */
	uint64_t next_round_ms;	/* CLOCK_BOOTTIME: an announced slot may be asked */
	int slot;		/* the slot being asked; -1: none */
	uint8_t next;		/* its feature being asked */
	struct hidpp_feature_index answers[HIDPP_LEARN_FEATURES_MAX];
	uint64_t deadline_ms;	/* CLOCK_BOOTTIME: the question's answer is late */
};

/* A learner with no node yet, to ask FEATURES (N of them, at most
 * HIDPP_LEARN_FEATURES_MAX) with REPORT_ID. */
void hidpp_learner_init(struct hidpp_learner *l, uint8_t report_id, const uint16_t *features,
			size_t n);

/* Open the hidraw node of HID device SYSNAME (sysfs: SYSFS_DEVICES, nodes
 * under DEV_DIR, "/dev"), checking the node opened is that device's, to
 * ask FEATURES (N of them, at most HIDPP_LEARN_FEATURES_MAX) with
 * REPORT_ID. Asks nothing yet. */
int hidpp_learner_open(struct hidpp_learner *l, const char *sysfs_devices, const char *dev_dir,
		       const char *sysname, uint8_t report_id, const uint16_t *features,
		       size_t n);

/* Close the node; the answers stay (a device that binds again runs the
 * same firmware until it says otherwise). */
void hidpp_learner_close(struct hidpp_learner *l);

/* Does the learner ask for exactly FEATURES (N)? */
bool hidpp_learner_asks(const struct hidpp_learner *l, const uint16_t *features, size_t n);

/* Ask the device indexes of SLOTS (bit s: slot s) again, from device
 * index 0xFF on when SLOTS has bit 0. */
int hidpp_learner_ask(struct hidpp_learner *l, uint8_t slots, uint64_t now_ms);

/* Read what the device sent (the node is non-blocking) and go on asking.
 * *CHANGED: the table has new answers. -ENODEV: the node is gone. */
int hidpp_learner_read(struct hidpp_learner *l, uint64_t now_ms, bool *changed);

/* The question in flight is late (its device index is silent: go on), or
 * an announced device index may be asked now. */
int hidpp_learner_tick(struct hidpp_learner *l, uint64_t now_ms, bool *changed);

/* When hidpp_learner_tick() is due (CLOCK_BOOTTIME ms); 0: nothing to do. */
uint64_t hidpp_learner_due(const struct hidpp_learner *l);

/* What one report of LEN bytes from the device means to the learner:
 * exported for the unit tests, which feed it a device's answers. */
int hidpp_learner_take(struct hidpp_learner *l, const uint8_t *r, size_t len, uint64_t now_ms,
		       bool *changed);
