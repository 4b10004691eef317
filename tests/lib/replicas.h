/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replicas of real devices for their vendor drivers: the identity and a
 * report descriptor declaring the reports the driver uses (the DualSense's
 * is the one the controller sends), and answers to what the driver asks at
 * probe time, as the device gives them. Facts
 * (report IDs, sizes, offsets, commands) come from the drivers in
 * drivers/hid of Linux 6.1 and 6.12; each answer names the function that
 * reads it.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "uhid_dev.h"

/* One request a driver sends at probe: the kind, the report ID and, when
 * at >= 0, the command byte at that offset. */
struct probe_request {
	const char *what;		/* NULL ends a list */
	enum uhid_dev_request request;
	uint8_t id;
	int8_t at;
	uint8_t value;
};

struct replica;

struct replica_model {
	const char *name;		/* the device's product name */
	uint16_t bus, vendor, product;
	const uint8_t *rdesc;
	size_t rdesc_size;
	/* Answer one request (uhid_dev_request_fn's context). */
	void (*answer)(struct replica *rep, struct uhid_dev *dev,
		       const struct uhid_dev_record *req);
	/* The input report the device sends over and over, unasked, while
	 * the host polls it (sticks centred, nothing pressed), and how
	 * often: NULL for a device that sends none unasked. */
	const uint8_t *idle_input;
	size_t idle_input_size;
	unsigned int idle_input_interval_ms;
	/* For a device whose unasked reports change as it runs (a counter,
	 * its clock, the report the host switched it to): the next one,
	 * written to BUF (UHID_DEV_REPORT_MAX bytes), its size returned; sent
	 * every idle_input_interval_ms. NULL: idle_input, always the same. */
	size_t (*next_input)(struct replica *rep, uint8_t *buf);
};

/* replica_dualsense_bt is a DualSense on Bluetooth (bus BUS_BLUETOOTH, for
 * uhid): its Bluetooth descriptor, its answers signed with their CRC, and
 * its input reports: the simple report 0x01 until the host reads one of
 * its feature reports, the full report 0x31 from then on. */
extern const struct replica_model replica_dualsense, replica_dualsense_bt, replica_dualshock4,
	replica_switch_pro, replica_steam_deck, replica_steam_controller, replica_unifying;

/* What the drivers ask at probe, per driver. */
extern const struct probe_request replica_dualsense_probe[], replica_dualsense_bt_probe[],
	replica_dualshock4_probe_playstation[], replica_dualshock4_probe_sony[],
	replica_switch_pro_probe[], replica_steam_probe[], replica_unifying_probe[];

/* A replica that expects PROBE (a list ending with .what == NULL). */
struct replica *replica_new(const struct replica_model *model, const struct probe_request *probe);
void replica_free(struct replica *rep);
/* Answer each GET_REPORT MS milliseconds late, as a slow device does: the
 * driver's probe takes that much longer per request it reads (uhid waits
 * up to 5 s for one answer). */
void replica_set_answer_delay(struct replica *rep, unsigned int ms);
/* GET_REPORTs answered so far (the answer is on its way to the driver). */
unsigned int replica_get_reports_answered(struct replica *rep);
/* Create its uhid device (uhid_dev_create without waiting for hidraw). */
int replica_create(struct replica *rep, struct uhid_dev *dev);
/* The same on BACKEND: TEST_DEV_USB makes it a USB device on dummy_hcd
 * that usbhid binds, with a USB device above its hidraw node in sysfs as
 * on a user's machine (what user-space HID libraries look for). */
int replica_create_on(struct replica *rep, struct uhid_dev *dev, enum test_dev_backend backend);

/* Entries of the probe list. */
unsigned int replica_probe_count(const struct replica *rep);
/* Wait until every request of the probe list reached the replica (up to a
 * few seconds: some are sent from work the probe queued); returns how many
 * did not, naming them (test_log) when LOG. */
unsigned int replica_probe_missing(struct replica *rep, bool log);
/* Forget which probe requests were seen (before a driver binds again). */
void replica_forget_probe(struct replica *rep);

/* The input report the device sends next, unasked, into BUF
 * (UHID_DEV_REPORT_MAX bytes): its size, 0 for a device that sends none. */
size_t replica_next_input(struct replica *rep, uint8_t *buf);
