/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A HID++ device's feature indexes, asked of the device over its hidraw node
 * and kept current while the node is open (the protocol: common/hidpp.h).
 *
 * Trust. What the learner reads from the node comes from the device: a
 * program can put nothing in it, only make the device answer a question of
 * its own, and the device echoes the question's software ID (the low nibble
 * of byte 3). The learner asks with software ID 0, which HID++ keeps for
 * the device's notifications and no client uses (Solaar cycles 2-15, fwupd
 * 7, the kernel's hid-logitech-hidpp 1); the firewall refuses HID++ 2.0
 * questions with software ID 0 to every program but the daemon
 * (policy_compile(), guard_daemon_questions()), so an answer with software
 * ID 0 at the IRoot or IFeatureSet index is one to the daemon's own
 * question. On a paired device's own node (hid-logitech-dj's) the device's
 * answers also reach its receiver's node, and questions written there reach
 * the device through the receiver: no learner runs on such a node
 * (feature_indexes.c compiles it from what its receiver's learner learned),
 * so one learner, one question at a time, asks each physical device.
 *
 * Facts, not guesses. A round for one device index:
 *  1. ping with a fresh byte the answer must echo: the answers to any
 *     earlier question (a lost round's, late) come before its echo and are
 *     dropped; a HID++ 1.0 device answers "invalid sub-ID" and has no
 *     HID++ 2.0 feature (a receiver at 0xFF: its paired devices are asked);
 *  2. getFeature(IFeatureSet), its getCount, then getFeatureID of every
 *     index: each answer names the feature at its index, so the whole table
 *     is read, and a feature the rules name that is in none of its entries
 *     is absent;
 *  3. getFeature of each feature the rules name, which must agree with the
 *     table read in 2.
 * An answer from another device index or with another software ID is not
 * the daemon's; an unexpected answer at IRoot or IFeatureSet with software
 * ID 0 (but the echo of hid-logitech-hidpp's probe ping, 0x5A, which Linux
 * 6.1 sends with software ID 0 too), an error, a late or lost answer, or a
 * disagreement ends the round:
 * the device index is unknown (its rules refuse every feature but IRoot) and
 * is asked again after a backoff (HIDPP_LEARN_RETRY_MS, doubling to
 * HIDPP_LEARN_RETRY_MAX_MS). Only a complete round's answers are in force.
 *
 * A receiver announces a paired device's link: lost (the device went off,
 * or reboots, into its bootloader or a new image): its answers go at once,
 * and it is asked when it connects; connected after a loss, or never
 * learned: asked now, unknown meanwhile. A device announced as connected
 * while its link stayed up (a program writes "report connected devices",
 * which Solaar sends) cannot have changed its firmware, which takes a
 * reboot: its answers stay, and it is asked again to check them, at most
 * once per HIDPP_LEARN_VERIFY_MS, doubling with each repeat to
 * HIDPP_LEARN_RETRY_MAX_MS. The one way to miss a link loss is the node's
 * queue overflowing (hidraw keeps HIDPP_LEARN_QUEUE - 1 reports and drops
 * the newest): a read that finds the queue full forgets every paired
 * device's answers, which are asked again.
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
/* A failed round is tried again after this, doubling up to the maximum. */
#define HIDPP_LEARN_RETRY_MS	1000
#define HIDPP_LEARN_RETRY_MAX_MS 64000
/* A device announced again while its link stayed up: checked at most so often. */
#define HIDPP_LEARN_VERIFY_MS	1000
/* hidraw's queue per open node (HIDRAW_BUFFER_SIZE, a ring that holds one
 * report less), and the reads found in one wakeup that say it was full:
 * reports may have been dropped. */
#define HIDPP_LEARN_QUEUE	64
#define HIDPP_LEARN_QUEUE_SUSPECT (HIDPP_LEARN_QUEUE - 1)

struct hidpp_writer;

enum hidpp_learn_step {
	HIDPP_STEP_PING,
	HIDPP_STEP_FEATURE_SET,	/* getFeature(IFeatureSet) */
	HIDPP_STEP_COUNT,	/* IFeatureSet getCount */
	HIDPP_STEP_FEATURE_ID,	/* IFeatureSet getFeatureID, index by index */
	HIDPP_STEP_CHECK,	/* getFeature of each rule's feature */
};

struct hidpp_learner {
	int fd;			/* the device's hidraw node (-1: closed) */
	struct hidpp_writer *writer;	/* writes off the event loop; NULL: write() here */
	uint8_t report_id;	/* HIDPP_REPORT_SHORT or _LONG, as the descriptor declares */
	uint8_t n_features;
	uint16_t features[HIDPP_LEARN_FEATURES_MAX];
	struct hidpp_features table;	/* the complete rounds' answers */
	bool receiver;		/* 0xFF answered as HID++ 1.0: slots 1-6 are paired devices */
	uint8_t link_up;	/* bit s: slot s answered, or was announced, and no loss since */
	uint8_t verifying;	/* bit s: slot s is asked while its answers stay */
	uint64_t ask_at[HIDPP_DEVICE_SLOTS];	/* CLOCK_BOOTTIME ms; 0: not to be asked */
	uint32_t backoff[HIDPP_DEVICE_SLOTS];	/* the next wait after a failed round */
	uint32_t verify_wait[HIDPP_DEVICE_SLOTS]; /* the next wait between checks */
	uint64_t verified_at[HIDPP_DEVICE_SLOTS]; /* the last check's start */
	/* bit s: slot s is to be asked and its first round since the node
	 * opened has not ended (the daemon holds the device's decision for
	 * udev until it has: enforce.c, hold_decision()) */
	uint8_t first_pending;
	/* rounds ended at slot s since the node opened (told, failed, or
	 * the link announced down; wraps): a paired device's node that
	 * appears later waits for one (feature_indexes.c) */
	uint16_t rounds_ended[HIDPP_DEVICE_SLOTS];
	/* the round in progress */
	int slot;		/* -1: none */
	enum hidpp_learn_step step;
	uint8_t nonce;		/* the ping's byte */
	uint8_t expect_feature, expect_function;	/* bytes 2 and 3 of its answer */
	uint8_t feature_set;	/* IFeatureSet's index */
	uint8_t count;		/* features after IRoot */
	uint16_t next;		/* the index or feature being asked */
	uint16_t ids[256];	/* ids[i]: the feature at index i */
	uint64_t deadline_ms;	/* CLOCK_BOOTTIME: the question's answer is late */
	uint64_t questions;	/* asked since init, for the tests and the log */
};

/* A learner with no node yet, to ask FEATURES (N of them, at most
 * HIDPP_LEARN_FEATURES_MAX) with REPORT_ID. */
void hidpp_learner_init(struct hidpp_learner *l, uint8_t report_id, const uint16_t *features,
			size_t n);

/* Open the hidraw node of HID device SYSNAME (sysfs: SYSFS_DEVICES, nodes
 * under DEV_DIR, "/dev"), checking the node opened is that device's, to
 * ask FEATURES (N of them, at most HIDPP_LEARN_FEATURES_MAX) with
 * REPORT_ID; its questions are written by a thread of their own (a write
 * to a USB device can block for seconds). Asks nothing yet. */
int hidpp_learner_open(struct hidpp_learner *l, const char *sysfs_devices, const char *dev_dir,
		       const char *sysname, uint8_t report_id, const uint16_t *features,
		       size_t n);

/* Close the node; the answers stay (a device that binds again runs the
 * same firmware until it says otherwise, and is asked again then). */
void hidpp_learner_close(struct hidpp_learner *l);

/* Does the learner ask for exactly FEATURES (N)? */
bool hidpp_learner_asks(const struct hidpp_learner *l, const uint16_t *features, size_t n);

/* Ask the device indexes of SLOTS (bit s: slot s) now, from device index
 * 0xFF on when SLOTS has bit 0. */
int hidpp_learner_ask(struct hidpp_learner *l, uint8_t slots, uint64_t now_ms);

/* Has the first round since the node opened ended, answered or failed (or
 * the receiver said the device's link is down), at every device index
 * asked (SLOT < 0), or at SLOT and at 0xFF (whose answer tells whether
 * SLOT, a paired device, is asked at all)? A closed learner waits for
 * nothing. */
bool hidpp_learner_first_rounds_ended(const struct hidpp_learner *l, int slot);

/* How many rounds ended at SLOT since the node opened (wraps). */
uint16_t hidpp_learner_rounds_ended(const struct hidpp_learner *l, int slot);

/* Read what the device sent (the node is non-blocking) and go on asking.
 * *CHANGED: the table changed. -ENODEV: the node is gone. */
int hidpp_learner_read(struct hidpp_learner *l, uint64_t now_ms, bool *changed);

/* The question in flight is late (once what waits in the node's queue is
 * read: an answer there is not late), or a device index is due to be
 * asked. */
int hidpp_learner_tick(struct hidpp_learner *l, uint64_t now_ms, bool *changed);

/* When hidpp_learner_tick() is due (CLOCK_BOOTTIME ms); 0: nothing to do. */
uint64_t hidpp_learner_due(const struct hidpp_learner *l);

/* What one report of LEN bytes from the device means to the learner:
 * exported for the unit tests, which feed it a device's answers. */
int hidpp_learner_take(struct hidpp_learner *l, const uint8_t *r, size_t len, uint64_t now_ms,
		       bool *changed);

/* Reports may have been dropped from the node's queue: every paired
 * device's link is in doubt. Exported for the unit tests. */
void hidpp_learner_queue_overflowed(struct hidpp_learner *l, uint64_t now_ms, bool *changed);
