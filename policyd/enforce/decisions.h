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
#include <stddef.h>
#include <stdio.h>

/* RUNTIME_DIR/announce: nodes the daemon asks to be announced again where
 * it may not write sysfs itself (see decisions_announce_queued()). */
#define DECISIONS_ANNOUNCE_DIR "announce"

/* Create RUNTIME_DIR/devices, RUNTIME_DIR/closed and the announce queue, and note there the
 * policy directories the daemon reads (policy-dirs, one per line). */
int decisions_init(const char *runtime_dir, const char *const *config_dirs, size_t n);
/* Publish the daemon's decision on a HID device, then open again every
 * node of it that udev closed while the decision was late (see
 * decisions_mark_closed()): a new "add" event runs the rules once more,
 * and they find the decision. */
int decisions_publish(const char *runtime_dir, const char *sysname, bool protected);
int decisions_withdraw(const char *runtime_dir, const char *sysname);

/* hid-policyd --announce-queued, run by hid-policy-announce.service: the
 * daemon's unit keeps /sys read-only, so the requests to announce a node
 * again that the daemon queued in RUNTIME_DIR/announce are carried out
 * here, in a unit that may write /sys/devices. Each request is taken off
 * the queue and only a hidraw or hiddev node's uevent file is written;
 * what is refused or fails is said on LOG. Returns the number of nodes
 * announced, or -errno when the queue cannot be read. */
int decisions_announce_queued(const char *runtime_dir, FILE *log);

/* The policy directories published by decisions_init(): *dirs is a
 * NULL-ended array that one free() releases. -ENOENT when none are. */
int decisions_config_dirs(const char *runtime_dir, char ***dirs, size_t *n);

/* udev closed the node at DEVPATH (hidraw or hiddev) of HID device SYSNAME
 * because no decision came in time: noted in RUNTIME_DIR/closed, for
 * decisions_publish() to open it again. */
int decisions_mark_closed(const char *runtime_dir, const char *sysname, const char *devpath);
int decisions_unmark_closed(const char *runtime_dir, const char *devpath);

/* The decision on SYSNAME, without waiting: 1 protected, 0 unprotected,
 * -ENOENT when there is none yet. */
int decisions_read(const char *runtime_dir, const char *sysname);

/* The HID device a sysfs path leads to: a hid device or a path below one
 * (its hidraw child), or a hiddev node, whose HID device is its sibling
 * under the USB interface. SYSFS is where sysfs is mounted. */
int decisions_hid_sysname(const char *sysfs, const char *devpath, char *out, size_t size);

/* Wait until the daemon decided on the HID device a sysfs path leads to
 * (a hid device or any path below one, such as its hidraw child). Returns
 * 1 protected, 0 unprotected, -ETIMEDOUT, -ENOENT when the path names no
 * HID device, or -errno. */
int decisions_wait(const char *runtime_dir, const char *devpath, int timeout_ms);
