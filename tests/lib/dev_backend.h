/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uhid_dev.c's side for its backends (usb_gadget.c, bt_hidp.c), called from
 * their threads: record a request, look up the configured answers (each
 * takes the device's lock).
 */
#pragma once

#include "uhid_dev.h"

void uhid_dev_record(struct uhid_dev *dev, enum uhid_dev_request req, uint8_t rtype,
		     uint8_t rnum, const void *data, size_t size);
void uhid_dev_get_reply(struct uhid_dev *dev, uint8_t rnum, struct uhid_get_reply *out);
int uhid_dev_set_reply(struct uhid_dev *dev);
