/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hid-policyd --wait-decided, run by udev for a new hidraw or hiddev node. */
#pragma once

#include "options.h"

/* Wait up to TIMEOUT_S for the daemon's decision on the HID device of
 * DEVPATH and print the word the udev rule acts on; on time-out, do what
 * ON_TIMEOUT says. Returns 0, or -errno (with a message on stderr) when
 * DEVPATH leads to no HID device. */
int wait_decided(const char *runtime_dir, const char *devpath, int timeout_s,
		 enum on_timeout on_timeout);
