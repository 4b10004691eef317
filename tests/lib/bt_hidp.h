/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between uhid_dev.c and its Bluetooth backend (bt_hidp.c); tests use
 * uhid_dev.h only.
 */
#pragma once

#include "dev_backend.h"

struct bt_hidp_dev;

/* Serve CFG as a Bluetooth Classic HID device: two emulated controllers
 * (btvirt), an L2CAP control and interrupt channel between them, handed to
 * the kernel's hidp as bluetoothd does. Records into DEV. *UNIQ gets the
 * device side's address, the HID device's HID_UNIQ. Returns once hidp took
 * the connection: 0 with *OUT set, or -errno (-ENOENT without btvirt or
 * /dev/vhci). */
int bt_hidp_dev_start(struct uhid_dev *dev, const struct uhid_dev_config *cfg,
		      char *uniq, size_t uniq_size, struct bt_hidp_dev **out);
/* Disconnect, remove the controllers and free. */
void bt_hidp_dev_stop(struct bt_hidp_dev *b);
/* One input report (a DATA | INPUT message) on the interrupt channel. */
int bt_hidp_dev_send_input(struct bt_hidp_dev *b, const void *data, size_t size);
