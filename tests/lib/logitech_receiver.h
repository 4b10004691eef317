/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Logitech receiver (Unifying 046D:C52B, Bolt 046D:C548) and the HID++
 * 2.0 devices paired to it, as they answer on the wire: the receiver's
 * HID++ interface (reports 0x10 and 0x11, the Unifying's DJ reports 0x20
 * and 0x21), the receiver itself at device index 0xFF speaking HID++ 1.0
 * (registers, connection notifications), each paired device at its index
 * speaking HID++ 2.0 from its own feature table. Or one HID++ 2.0 device
 * alone at index 0xFF (a Bluetooth LE mouse's own node).
 *
 * Timing as a radio link has it: every answer leaves from a thread of its
 * own a few milliseconds after the question (a random delay in a window,
 * so two outstanding questions may be answered in either order), never
 * from inside the request callback. Faults on demand: answers lost, late,
 * a busy error, and writes the device takes only after a stall.
 *
 * What it answers (facts from Solaar's hidpp10/hidpp20 constants, fwupd's
 * logitech-hidpp plugin and the kernel's hid-logitech-dj and -hidpp):
 *
 *   0xFF (receiver), HID++ 1.0: set register 0x00 (notifications) and
 *   0x02 (connection state; 02 = "fake device arrival": a 0x41
 *   notification for each connected device follows the acknowledgement);
 *   get register 0x02 (connected count); get register 0xF1 (firmware
 *   version, RQR12.11_B0032, parts 1, 2 and 4); get long register 0xB5
 *   (part 0x03: the receiver's serial and maximum of devices; pairing
 *   information, serial, name of a paired device); set register 0xF0
 *   (DFU mode, fwupd's "ICP"): taken without an answer, as the receiver
 *   that resets into its bootloader does; a HID++ 2.0 question
 *   gets error 0x01 (invalid sub-ID). DJ 0x20: switch to DJ mode, get
 *   paired devices (a DJ "paired" notification for each).
 *   1-6 with nothing paired: HID++ 1.0 error 0x08 (unknown device); a
 *   paired device out of reach: 0x09 (resource error).
 *   A paired device, HID++ 2.0: IRoot (index 0) getFeature, ping
 *   (protocol 4.2, the ping byte echoed); IFeatureSet getCount,
 *   getFeatureID; device name (0x0005), battery (0x1000), adjustable DPI
 *   (0x2201); an index past its table: error 6, an unknown function:
 *   error 7. Every answer echoes bytes 0-3 of the question.
 *
 * A connection notification: 10 <index> 41 <protocol> <flags> <wpid lsb>
 * <wpid msb>; flags bit 6 set: link not established.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "uhid_dev.h"

enum logi_receiver_kind {
	LOGI_UNIFYING,		/* 046D:C52B, bound by hid-logitech-dj */
	LOGI_BOLT,		/* 046D:C548 */
	LOGI_DIRECT,		/* no receiver: one device at 0xFF (Bluetooth LE) */
};

#define LOGI_FEATURES_MAX 32

/* HID++ 2.0 feature IDs the tests name. */
#define HIDPP_F_ROOT		0x0000
#define HIDPP_F_FEATURE_SET	0x0001
#define HIDPP_F_DEVICE_NAME	0x0005
#define HIDPP_F_DFU_CONTROL	0x00c1
#define HIDPP_F_DFU_CONTROL_SIGNED 0x00c2
#define HIDPP_F_DFU_CONTROL_BOLT 0x00c3
#define HIDPP_F_DFU		0x00d0
#define HIDPP_F_RDFU		0x00d1
#define HIDPP_F_BATTERY		0x1000
#define HIDPP_F_ADJUSTABLE_DPI	0x2201

/* A device's feature table: features[i] is the feature at index i
 * (features[0] is IRoot). */
struct logi_table {
	uint16_t features[LOGI_FEATURES_MAX];
	uint8_t n;
};

/* Index of FEATURE in T, 0 when it has none. */
uint8_t logi_table_index(const struct logi_table *t, uint16_t feature);
/* Is FEATURE one of DfuControl, DfuControlSigned, DfuControlBolt, DFU, RDFU? */
bool logi_feature_is_dfu_family(uint16_t feature);

/* A mouse's table as a firmware has it: IRoot, IFeatureSet, firmware
 * info, name, battery, DPI and ordinary features up to RDFU at 0x1d, DFU
 * at 0x1e, DfuControlSigned at 0x1f. */
extern const struct logi_table logi_table_mouse;
/* A mouse as a settings program (Solaar) sees one, few features beside
 * those it reads and writes: IRoot, IFeatureSet, firmware info (0x0003,
 * no entity), name, battery, DPI at 0x05, then DfuControlSigned at 0x06,
 * DFU at 0x07 and RDFU at 0x08. */
extern const struct logi_table logi_table_settings_mouse;
/* The same mouse after an update: RDFU moved to 0x05, where DPI was; DPI
 * at 0x1d, where RDFU was. */
extern const struct logi_table logi_table_mouse_updated;

struct logi_receiver;

/* A receiver of KIND (LOGI_DIRECT: the device alone), backend BACKEND,
 * nothing paired yet. */
struct logi_receiver *logi_receiver_new(enum logi_receiver_kind kind,
					enum test_dev_backend backend);
void logi_receiver_free(struct logi_receiver *rep);

/* Pair a device at INDEX (1-6; LOGI_DIRECT: 0xFF) with TABLE and wireless
 * PID WPID, connected (answering) or not. Before create: it is there when
 * the receiver comes; after: the receiver announces it (DJ "paired" in DJ
 * mode, and the HID++ connection notification). */
void logi_receiver_pair(struct logi_receiver *rep, uint8_t index, const struct logi_table *table,
			uint16_t wpid, bool connected);
/* The device at INDEX goes out of reach: the receiver's notification with
 * "link not established"; it answers nothing until it connects. */
void logi_receiver_disconnect(struct logi_receiver *rep, uint8_t index);
/* It comes back, running the firmware with TABLE: the notification with
 * the link established. */
void logi_receiver_connect(struct logi_receiver *rep, uint8_t index,
			   const struct logi_table *table);

/* Each answer leaves MIN_MS to MAX_MS after its question (default 2-8). */
void logi_receiver_set_delay(struct logi_receiver *rep, unsigned int min_ms, unsigned int max_ms);
/* Faults for the next N questions (IRoot and IFeatureSet, to a paired
 * device or 0xFF) whose software ID is not in SPARE (bit s: software ID
 * s spared: the kernel's 1 and a test's own): no answer at all; an answer
 * LATE_MS late; a busy error (HID++ 2.0 error 8) instead of the answer.
 * Linux 6.1's hid-logitech-hidpp pings (IRoot function 1) with software
 * ID 0 (6.12: 1): set faults for the daemon once the driver's probe is
 * done. */
void logi_receiver_lose(struct logi_receiver *rep, unsigned int n, uint16_t spare);
void logi_receiver_delay_next(struct logi_receiver *rep, unsigned int n, unsigned int late_ms,
			      uint16_t spare);
void logi_receiver_busy(struct logi_receiver *rep, unsigned int n, uint16_t spare);
/* The device takes each write (output report, SET_REPORT) STALL_MS late,
 * 0: at once. uhid: the SET_REPORT's reply waits that long (the writer of
 * a SET_REPORT, e.g. through a paired device's node, waits with it); USB:
 * ep0 and the OUT endpoint are not served meanwhile (the write after it
 * waits). */
void logi_receiver_stall_writes(struct logi_receiver *rep, unsigned int stall_ms);

/* Create its device (uhid_dev_create; hid-logitech-dj or hid-generic
 * binds it, per hid.ignore_special_drivers) and wait for its hidraw node. */
int logi_receiver_create(struct logi_receiver *rep, struct uhid_dev *dev);
/* Stop answering and destroy the device. */
void logi_receiver_destroy(struct logi_receiver *rep);

/* Messages that reached a DFU-family feature of the table in force at
 * their device index (any function, any software ID). */
unsigned int logi_receiver_dfu_reached(struct logi_receiver *rep);
/* The last of them (20 bytes) in OUT; false when none. */
bool logi_receiver_last_dfu(struct logi_receiver *rep, uint8_t *out);
/* setSensorDpi requests with software ID SW that reached the device at
 * INDEX. */
unsigned int logi_receiver_dpi_set(struct logi_receiver *rep, uint8_t index, uint8_t sw);
/* Questions to IRoot or IFeatureSet that reached the device at INDEX
 * (0xFF: the receiver) with software ID SW (-1: any). */
unsigned int logi_receiver_questions(struct logi_receiver *rep, uint8_t index, int sw);
/* The receiver's DFU mode writes (register 0xF0, fwupd's "ICP") that
 * reached it; it takes them silently. */
unsigned int logi_receiver_dfu_mode_writes(struct logi_receiver *rep);
/* The receiver's "fake device arrival" writes that reached it. */
unsigned int logi_receiver_arrival_requests(struct logi_receiver *rep);

/* The hidraw node of the HID device hid-logitech-dj made for the device
 * at INDEX (its phys is the receiver's and ":INDEX"), its sysfs name too
 * (SYSNAME, may be NULL); waits up to TIMEOUT_MS. 0 or -ETIMEDOUT. */
int logi_receiver_child_hidraw(const struct uhid_dev *receiver, uint8_t index, char *hidraw, size_t size,
		       char *sysname, size_t sysname_size, int timeout_ms);
