/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device manager's view of HID devices: identity read from sysfs, and
 * hotplug events from the kernel's uevent netlink socket (no udev needed).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hid_descriptor.h"
#include "sha256.h"

#define HID_SYSFS_DEVICES "/sys/bus/hid/devices"

struct hid_dev_info {
	char sysname[32];	/* BBBB:VVVV:PPPP.NNNN */
	uint32_t hid_id;	/* NNNN: the id HID-BPF attaches to */
	uint16_t bus, vendor, product;
	char name[128];		/* HID_NAME */
	char uniq[64];		/* HID_UNIQ */
	char phys[64];		/* HID_PHYS */
	bool bound;		/* hid-core has parsed its reports: a driver's
				 * probe connected it (hid_dev_read: it has a
				 * hidraw node; or its bind event came) */
	/* Its report descriptor, as sysfs shows it: empty until a driver's
	 * probe parsed it. */
	bool descriptor_known;	/* read, and not empty */
	bool descriptor_malformed;
	uint8_t n_usages;
	uint32_t usages[HID_DESCRIPTOR_USAGES_MAX];	/* top-level application collections */
	uint8_t descriptor_sha256[SHA256_BYTES];
	/* The reports it declares (hid_descriptor_reports()): none while
	 * the descriptor is not known, so that the firewall refuses every
	 * request from user space until it is. */
	uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32];
	/* its Input, Output and Feature items' report IDs and usages, from
	 * the same walk */
	uint8_t n_reports;
	bool reports_incomplete;	/* more than kept, or malformed */
	struct hid_report_usage reports[HID_DESCRIPTOR_REPORT_USAGES_MAX];
	bool has_interface;	/* USB: bInterfaceNumber of its interface */
	uint8_t interface;
	/* A paired device's own node, which hid-logitech-dj makes under its
	 * receiver: the receiver's HID device id, and the device index the
	 * driver writes over byte 1 of every HID++ message sent here (1-6);
	 * 0 and 0 for any other device. */
	uint32_t receiver_id;
	uint8_t receiver_index;
};

/* Parse a sysfs name into bus, vendor, product and hid_id. */
int hid_sysname_parse(const char *sysname, struct hid_dev_info *info);

/* What DESC (a report descriptor of LEN bytes) tells: its hash, usages and reports. */
void hid_dev_set_descriptor(struct hid_dev_info *info, const uint8_t *desc, size_t len);

/* Read at most SIZE bytes of the file NAME below DIRFD (a sysfs
 * attribute): how many, or -errno. */
ssize_t read_small_file(int dirfd, const char *name, void *buf, size_t size);

/* Read one device's identity from sysfs (root: HID_SYSFS_DEVICES). */
int hid_dev_read(const char *root, const char *sysname, struct hid_dev_info *info);

/* Call fn for every device present; stops at and returns fn's first
 * negative return. Devices that vanish while being read are skipped. */
int hid_dev_enumerate(const char *root,
		      int (*fn)(const struct hid_dev_info *info, void *userdata),
		      void *userdata);

/* Are the reports of device SYSNAME parsed now, as sysfs shows it at this
 * moment: a driver is bound and hid-core connected the device (its hidraw
 * node exists: hid-core creates it after it parsed the reports, and removes
 * it before it empties them at unbind)? Not a lock: a driver may unbind
 * right after; kernel_support.h says what that means. */
bool hid_dev_reports_parsed(const char *root, const char *sysname);

enum uevent_action {
	UEVENT_OTHER,
	UEVENT_ADD,
	UEVENT_BIND,
	UEVENT_UNBIND,
	UEVENT_REMOVE,
};

struct uevent {
	enum uevent_action action;
	char sysname[32];	/* "" when not a hid device event */
};

/* A non-blocking socket receiving the kernel's uevents. */
int uevent_open(void);
/* Receive one message; 0 with ev filled (sysname "" for events of other
 * subsystems or senders other than the kernel), -EAGAIN when none is
 * queued, or -errno. */
int uevent_receive(int fd, struct uevent *ev);
/* Parse one kernel uevent message (exposed for tests). */
int uevent_parse(const char *buf, size_t len, struct uevent *ev);
