/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decisions published in the runtime directory (/run/hid-policy): one file
 * per HID device the daemon has decided on, devices/<sysname>, holding
 * "protected" or "unprotected". udev waits for it (hid-policyd
 * --wait-decided) before it opens a hidraw node to users, so that no user
 * program can reach a device the policy protects before the firewall is in
 * place.
 */
#pragma once

#include <stdbool.h>

#define RUNTIME_DIR_DEFAULT "/run/hid-policy"

/* Create RUNTIME_DIR/devices. */
int decisions_init(const char *runtime_dir);
int decisions_publish(const char *runtime_dir, const char *sysname, bool protected);
int decisions_withdraw(const char *runtime_dir, const char *sysname);

/* Wait until the daemon decided on the HID device a sysfs path leads to
 * (a hid device or any path below one, such as its hidraw child). Returns
 * 1 protected, 0 unprotected, -ETIMEDOUT, -ENOENT when the path names no
 * HID device, or -errno. */
int decisions_wait(const char *runtime_dir, const char *devpath, int timeout_ms);
