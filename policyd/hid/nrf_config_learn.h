/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An nRF Desktop device's configuration-channel modules, asked of the
 * device over its hidraw node (the protocol: common/nrf_config.h), so that
 * a rule naming a module's option ("nrf_config_option": "dfu/reboot") can
 * refuse that option's event ID alone.
 *
 * Trust. The answer a GET_REPORT of feature 0x06 reads is whatever the
 * firmware's channel holds: the answer to the last SET_REPORT, whoever made
 * it (sdk-nrf src/util/config_channel_transport.c,
 * config_channel_transport_get() copies it for any asker), and the listing
 * of a module is one cursor that every asker's FETCH of option 0 moves
 * (config_event.h, GEN_CONFIG_EVENT_HANDLERS, cur_opt_descr). An answer
 * carries no mark of its asker: its recipient and event ID echo the
 * question's, which anyone can copy. So what makes the answers the daemon's
 * is who else may ask meanwhile. Until a device has told, a rule naming an
 * option refuses every configuration-channel SET_REPORT (every status, on
 * each report the rule names: feature 0x06, output 0x07) to every program
 * but the daemon's own executable run as root (policy_compile.c,
 * compile_nrf_rule()): a user cannot put a question between the daemon's,
 * nor move a cursor, nor make the device answer something that stands in
 * for a name. Root in a container given the node runs another file and is
 * refused too.
 *
 * The rules allow some senders before that rule: the shipped ones,
 * fwupd.service, which lists a device's modules in its setup, at the same
 * moment the daemon asks (both start when the device binds). What then:
 *  - an answer to another of fwupd's questions (the board name, the
 *    hardware ID, a peer, another module's option) taken for the daemon's
 *    echoes another event ID or status, or replaces one item of one
 *    listing: the round fails;
 *  - fwupd listing the same module takes items from the cursor: each
 *    listing is read from the end of the one before (a "\n" first), twice,
 *    and the two must agree item for item: an item fwupd took from one
 *    makes it shorter than the other, and the round fails.
 * What no check can tell is fwupd taking the very same places in both
 * listings (a question of its own exactly once per the daemon's listing
 * length, twice running): then an item is missing from both and the
 * options after it are numbered one too low. A failed round leaves the
 * device unknown (every FETCH and SET refused to users, as before this
 * learner, and every other frame of the channel with them) and is asked
 * again after NRF_LEARN_RETRY_MS, doubling to
 * NRF_LEARN_RETRY_MAX_MS. (fwupd's own listing is as wrong then: the
 * interleaving costs both, and only fwupd.service can cause it;
 * doc/security.md section 10.)
 *
 * Facts, not guesses. A round: GET_MAX_MOD_ID (status SUCCESS, event ID 0,
 * data byte 0 at most 15), then for each module 0..max: FETCH option 0
 * until "\n" (at most 17 answers: a name and 15 options, then the end),
 * then two whole listings, each a name and up to 15 option names, printable
 * and 1..16 bytes, then "\n". Every answer must echo recipient 0 and the
 * event ID asked, status SUCCESS. Module names must differ, and so must a
 * module's options. Only a whole round is in force. A device lists the
 * modules of the firmware it runs, which changes only with a reboot, which
 * is a new device to the kernel (a USB or Bluetooth reconnection): a round
 * at each open of the node is enough.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/nrf_config.h"

/* How long one question (a SET_REPORT, then GET_REPORTs until the answer
 * is ready) may take. */
#define NRF_LEARN_ANSWER_MS	1000
#define NRF_LEARN_RETRY_MS	1000
#define NRF_LEARN_RETRY_MAX_MS	64000
/* Two listings of a module, read from the end of a third. */
#define NRF_LEARN_LISTINGS	2
#define NRF_LEARN_ITEMS_MAX	(1 + NRF_CONFIG_OPTIONS_MAX)

struct feature_exchange;

enum nrf_learn_step {
	NRF_STEP_MAX_MOD,	/* GET_MAX_MOD_ID */
	NRF_STEP_SYNC,		/* FETCH option 0 until "\n" */
	NRF_STEP_LISTING,	/* FETCH option 0: a name, or "\n" */
};

struct nrf_learner {
	int fd;			/* the device's hidraw node (-1: closed) */
	struct feature_exchange *ex;	/* asks off the event loop */
	/* Where questions go instead, for the unit tests: 0 or -errno. */
	int (*send)(void *ctx, const uint8_t *q, size_t len);
	void *send_ctx;
	struct nrf_config_table table;	/* the complete rounds' answers */
	uint64_t ask_at;	/* CLOCK_BOOTTIME ms; 0: not to be asked */
	uint32_t backoff;	/* the next wait after a failed round */
	/* the round in progress */
	bool asking;
	enum nrf_learn_step step;
	uint8_t expect_event, expect_status;	/* the question asked */
	uint32_t seq;		/* its number at the exchange */
	uint8_t max_module, module;
	uint8_t syncs;		/* answers read while looking for "\n" */
	uint8_t listing;	/* 0..NRF_LEARN_LISTINGS-1 */
	uint8_t n_items[NRF_LEARN_LISTINGS];
	char items[NRF_LEARN_LISTINGS][NRF_LEARN_ITEMS_MAX][NRF_CONFIG_NAME_MAX + 1];
	struct nrf_config_table round;
	uint64_t deadline_ms;	/* CLOCK_BOOTTIME: the question's answer is late */
	uint64_t questions;	/* asked since init, for the tests and the log */
	uint64_t rounds_failed;
	/* A round has ended, listed or failed, since the node opened (the
	 * daemon holds the device's decision for udev until then:
	 * enforce.c, hold_decision()). */
	bool first_round_ended;
};

/* A learner with no node: nothing told. */
void nrf_learner_init(struct nrf_learner *l);

/* Open the hidraw node of HID device SYSNAME (sysfs: SYSFS_DEVICES, nodes
 * under DEV_DIR), checking the node opened is that device's; its questions
 * are asked by a thread of their own. Asks nothing yet. */
int nrf_learner_open(struct nrf_learner *l, const char *sysfs_devices, const char *dev_dir,
		     const char *sysname);

/* Stop asking and close the node (or drop the tests' hook); what it told
 * is forgotten (the next open asks anew). */
void nrf_learner_close(struct nrf_learner *l);

/* The descriptor the event loop watches: readable when an answer is ready;
 * -1: none. */
int nrf_learner_fd(const struct nrf_learner *l);

/* Has the first round since the node opened ended, listed or failed? A
 * closed learner waits for nothing. */
bool nrf_learner_first_round_ended(const struct nrf_learner *l);

/* Start a round now. */
int nrf_learner_ask(struct nrf_learner *l, uint64_t now_ms);

/* Take what the exchange thread answered. *CHANGED: the table changed. */
int nrf_learner_read(struct nrf_learner *l, uint64_t now_ms, bool *changed);

/* The question in flight is late, or a round is due. */
int nrf_learner_tick(struct nrf_learner *l, uint64_t now_ms, bool *changed);

/* When nrf_learner_tick() is due (CLOCK_BOOTTIME ms); 0: nothing to do. */
uint64_t nrf_learner_due(const struct nrf_learner *l);

/* What one answer (LEN bytes, the report ID first) means to the learner,
 * or ERROR (a -errno: the question failed): exported for the unit tests,
 * which feed it a scripted device's answers. */
int nrf_learner_take(struct nrf_learner *l, int error, const uint8_t *answer, size_t len,
		     uint64_t now_ms, bool *changed);

/* Would the daemon's questions be the frame Q (NRF_CONFIG_REPORT_LEN
 * bytes)? For the rules check: the listing's FETCH (option 0) and
 * GET_MAX_MOD_ID, to recipient 0. */
void nrf_learner_question(uint8_t status, uint8_t event_id, uint8_t *q);
