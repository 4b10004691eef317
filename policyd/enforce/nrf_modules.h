/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The configuration-channel modules of the nRF Desktop devices whose rules
 * name an option ("nrf_config_option"): a learner per device
 * (hid/nrf_config_learn.h), its answers in the daemon's event loop while a
 * driver is bound; it asks anew at each bind, once the rules that keep
 * the channel the daemon's until then are in force.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hid/devices.h"
#include "hid/nrf_config_learn.h"
#include "policy/policy.h"

struct nrf_device {
	uint32_t hid_id;
	struct nrf_learner learner;
	bool said_unreachable;	/* the node could not be asked: said once */
	/* Asking was tried since this bind: its learner asks, or nothing
	 * can be listed (no channel, its rules refuse the daemon, its node
	 * cannot be opened). Not once its node went with the driver: the
	 * next bind asks again. */
	bool tried;
};

struct nrf_modules {
	int epoll_fd;			/* the daemon's event loop (-1: none) */
	const char *sysfs_devices;	/* HID_SYSFS_DEVICES */
	const char *dev_dir;		/* "/dev" */
	const struct hid_rule_exe *self_exe;	/* the daemon's executable; NULL: not known */
	struct nrf_device *items;
	size_t n, cap;
};

void nrf_modules_done(struct nrf_modules *nm);

/* What device HID_ID listed so far; NULL: nothing asked. */
const struct nrf_config_table *nrf_modules_of(const struct nrf_modules *nm, uint32_t hid_id);

/* Ask INFO's device for its modules while a driver is bound (WANTED: its
 * rules name an option); !WANTED: stop asking and forget. RULES, its
 * compiled rules, must let the daemon's questions through; NULL: none
 * compiled now, keep what is. The first question waits for the next
 * nrf_modules_tick(), after RULES are in force. */
void nrf_modules_follow(struct nrf_modules *nm, const struct hid_dev_info *info,
			const struct hid_device_rules *rules, bool wanted, uint64_t now_ms);

/* Has the device HID_ID listed what it can in its first round: asking was
 * tried since it was bound, and the first round ended (listed or failed)?
 * True for a device nothing is asked of. */
bool nrf_modules_first_round_ended(const struct nrf_modules *nm, uint32_t hid_id);

/* The device's driver was unbound, or the device removed: stop asking and
 * forget what it listed (the next bind asks anew). */
void nrf_modules_forget(struct nrf_modules *nm, uint32_t hid_id);

/* T in words, for the log: "motion (3 options), dfu (7), ble_bond (2)". */
void nrf_modules_describe(const struct nrf_config_table *t, char *buf, size_t size);

/* FD is readable. Returns -ENOENT when it is not a learner's, else 1 when
 * what device *HID_ID listed changed, 0 when not. */
int nrf_modules_ready(struct nrf_modules *nm, int fd, uint64_t now_ms, uint32_t *hid_id);

/* When nrf_modules_tick() is next due (CLOCK_BOOTTIME ms); 0: never. */
uint64_t nrf_modules_due(const struct nrf_modules *nm);

/* Rounds due and questions late: stores in CHANGED (room for MAX) the
 * devices whose answers changed; returns how many. */
size_t nrf_modules_tick(struct nrf_modules *nm, uint64_t now_ms, uint32_t *changed, size_t max);
