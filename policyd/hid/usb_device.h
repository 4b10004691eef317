/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A USB device as sysfs shows it when its uevent comes, before its
 * interfaces and their HID devices exist: its ids, and whether its
 * configuration declares a HID interface. What decides its usbfs node
 * (/dev/bus/usb/BBB/DDD), through which a program that may write it can
 * detach usbhid and send the device anything, past every HID-BPF program.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct usb_device_ids {
	uint16_t vendor, product;
	bool has_hid_interface;
};

/* Whether the raw descriptors DESC (LEN bytes, as sysfs' "descriptors":
 * the device descriptor, then the configurations') declare an interface
 * of class HID: 1 yes, 0 no, -EINVAL when malformed. */
int usb_descriptors_have_hid(const uint8_t *desc, size_t len);

/* The USB device at sysfs directory DIR (a usb_device, not an interface):
 * 0, -ENOTTY when DIR is no USB device, or -errno. */
int usb_device_read(const char *dir, struct usb_device_ids *ids);
