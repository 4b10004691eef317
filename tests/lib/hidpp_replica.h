/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a HID++ device answers, as its firmware does (Solaar
 * lib/logitech_receiver/base.py and hidpp20.py, fwupd
 * plugins/logitech-hidpp): a HID++ 2.0 device's IRoot (getFeature, ping)
 * and IFeatureSet (getCount, getFeatureID), and the error report for a
 * question at another feature or function; a HID++ 1.0 error as a receiver
 * gives it for itself ("invalid sub-ID" to a HID++ 2.0 question) or for a
 * paired device it cannot reach. Every answer echoes the question's device
 * index, feature index and function byte (with its software ID).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIDPP_REPLICA_FEATURES_MAX 64

/* A device's feature table: ids[i] is the feature at index i (ids[0] is
 * IRoot), count the features after IRoot. */
struct hidpp_table {
	uint8_t count;
	uint16_t ids[HIDPP_REPLICA_FEATURES_MAX];
};

/* A table of COUNT features after IRoot: IFeatureSet at 1, the feature
 * PLACED[k] at index AT[k] (N of them), ordinary features elsewhere. */
void hidpp_table_make(struct hidpp_table *t, uint8_t count, const uint16_t *placed,
		      const uint8_t *at, size_t n);

/* The answer of a HID++ 2.0 device with table T to question Q (LEN bytes),
 * in A (20 bytes, a long report); returns its length, 0 when Q is no
 * HID++ question. */
size_t hidpp_replica_answer(const struct hidpp_table *t, const uint8_t *q, size_t len,
			    uint8_t a[20]);

/* A HID++ 1.0 error with CODE for question Q, in A (7 bytes, a short
 * report): 0x01 invalid sub-ID (a receiver asked a HID++ 2.0 question),
 * 0x09 resource error (a paired device asleep, out of range). */
size_t hidpp_replica_error10(const uint8_t *q, uint8_t code, uint8_t a[7]);
