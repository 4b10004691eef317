/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * HID++ 2.0, the protocol Logitech's mice, keyboards and receivers speak in
 * HID reports: what the policy engine (policy/, which compiles a rule naming
 * a feature) and the daemon's feature-index learner (hid/) both need. Here,
 * below both, so that neither needs the other.
 *
 * A message (fwupd plugins/logitech-hidpp/fu-logitech-hidpp.rs,
 * FuStructLogitechHidppMsg; Solaar lib/logitech_receiver/base.py):
 *
 *	byte 0	report ID: 0x10 short (7 bytes), 0x11 long (20), 0x12 very long (64)
 *	byte 1	device index: 0xFF the device itself (or a receiver),
 *		1-6 a device paired to the receiver the message goes through
 *	byte 2	feature index: 0 is IRoot in every device
 *	byte 3	function << 4 | software ID
 *	byte 4-	parameters
 *
 * A feature (DFU 0x00D0, RDFU 0x00D1, ...) has no fixed index: each device
 * numbers its features in its firmware, and a client asks IRoot's
 * getFeature (function 0, the feature ID in bytes 4-5) for the index, which
 * the answer carries in byte 4, 0 when the device has no such feature
 * (fu_logitech_hidpp_device_feature_search()). A device keeps its table
 * while it runs the same firmware; its bootloader has another.
 */
#pragma once

#include <stdint.h>

#define HIDPP_REPORT_SHORT	0x10
#define HIDPP_REPORT_LONG	0x11
#define HIDPP_REPORT_VERY_LONG	0x12
#define HIDPP_SHORT_LEN		7
#define HIDPP_LONG_LEN		20

#define HIDPP_OFFSET_DEVICE	1
#define HIDPP_OFFSET_FEATURE	2
#define HIDPP_OFFSET_FUNCTION	3

#define HIDPP_ROOT_INDEX	0x00	/* IRoot: getFeature is its function 0 */
/* IRoot's functions (Solaar lib/logitech_receiver/base.py ping(), fwupd
 * fu-logitech-hidpp-common.c): getFeature(featureID) answers the index in
 * byte 4; ping (getProtocolVersion) answers the protocol in bytes 4-5 and
 * echoes byte 6, the ping data. */
#define HIDPP_ROOT_GET_FEATURE	0x0
#define HIDPP_ROOT_PING		0x1
/* IFeatureSet (feature 0x0001): getCount answers in byte 4 how many
 * features follow IRoot (indexes 1..count); getFeatureID(index in byte 4)
 * answers the feature ID at that index in bytes 4-5: an answer that names
 * the feature it is about. */
#define HIDPP_FEATURE_SET	0x0001
#define HIDPP_FEATURE_SET_COUNT	0x0
#define HIDPP_FEATURE_SET_ID	0x1
#define HIDPP_DEVICE_SELF	0xff
#define HIDPP_PAIRED_FIRST	1
#define HIDPP_PAIRED_LAST	6
/* The device indexes a rule is compiled for: 0xFF and 1-6. */
#define HIDPP_DEVICE_SLOTS	7

/* Slot 0 is device index 0xFF, slot d is device index d (1-6); -1: none. */
static inline int hidpp_device_slot(uint8_t device)
{
	if (device == HIDPP_DEVICE_SELF)
		return 0;
	if (device >= HIDPP_PAIRED_FIRST && device <= HIDPP_PAIRED_LAST)
		return device;
	return -1;
}

static inline uint8_t hidpp_slot_device(int slot)
{
	return slot == 0 ? HIDPP_DEVICE_SELF : (uint8_t)slot;
}

/* Feature IDs a rule names, at most, and answers a device's table holds. */
#define HIDPP_RULE_FEATURES_MAX	4
#define HIDPP_FEATURES_MAX	(HIDPP_DEVICE_SLOTS * 8)

/* One answer: at DEVICE (its index), FEATURE has INDEX; 0: it has none. */
struct hidpp_feature_index {
	uint16_t feature;
	uint8_t device;
	uint8_t index;
};

/*
 * What the daemon learned of one HID device's HID++ 2.0 feature tables.
 * Bit s of "answered": the device index of slot s answered every
 * getFeature asked of it, and entries hold those answers (index 0
 * included). A device index that has not answered (nothing paired there,
 * asleep, not HID++ 2.0, the device is not asked yet) is unknown: a rule
 * naming a feature refuses every feature index but IRoot's there, until it
 * answers.
 */
struct hidpp_features {
	uint8_t answered;
	uint8_t n;
	struct hidpp_feature_index entries[HIDPP_FEATURES_MAX];
};
