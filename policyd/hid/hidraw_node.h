/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening the hidraw node of a HID device the daemon itself talks to (the
 * HID++ and nRF Desktop learners). Sysfs names the node; /dev holds it. A
 * device can go and another take its node's minor number between the two
 * lookups, so the node opened is the device's only if sysfs names the same
 * number after the open: an open node keeps its number from being reused.
 */
#pragma once

/* Open the hidraw node of device SYSNAME (a directory under SYSFS_DEVICES,
 * "0003:046D:C52B.0001") from DEV_DIR, read-write and non-blocking.
 * Returns the descriptor; -ENOENT when the device has no hidraw node;
 * -ENODEV when the node opened is not (or no longer) the device's; or the
 * error of the open. */
int hidraw_node_open(const char *sysfs_devices, const char *dev_dir, const char *sysname);
