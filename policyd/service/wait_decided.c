// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyd --wait-decided: what udev runs before it opens a new hidraw
 * (or hiddev, or usbfs) node to users (data/60-hid-policy.rules). It prints
 * one word for the rule to act on:
 *
 *	protected	the firewall is attached
 *	unprotected	no rule set matches the device
 *	closed		no decision came in time, or the decision cannot be
 *			read; keep the node root's
 *	undecided	no decision came in time; leave the node to the other rules
 *
 * A daemon that is slow or dead must not open a device it would protect,
 * so by default a time-out keeps the node closed when a rule set of the
 * daemon's policy matches the device. The daemon opens it once it decides
 * (decisions_publish()).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "enforce/decisions.h"
#include "hid/devices.h"
#include "hid/usb_device.h"
#include "policy/policy.h"
#include "state/state.h"
#include "wait_decided.h"

static const char *const default_dirs[] = { POLICY_VENDOR_DIR, POLICY_ADMIN_DIR };

/* The daemon's policy, from the directories it published (or the
 * default ones before it ever ran), into *P; WHAT names the device in
 * messages. */
static int load_policy(const char *runtime_dir, const char *what, struct policy **p)
{
	_cleanup_(diag_done) struct diag diag = {};
	char **dirs = NULL;
	size_t n = 0;
	int r;

	r = decisions_config_dirs(runtime_dir, &dirs, &n);
	if (r == -ENOENT)
		r = policy_load_dirs(default_dirs, ELEMENTSOF(default_dirs), false, &diag, p);
	else if (r == 0)
		r = policy_load_dirs((const char *const *)dirs, n, true, &diag, p);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	if (r < 0) {
		diag_print(&diag, stderr);
		fprintf(stderr, "hid-policyd: %s: the policy cannot be read: %s\n", what,
			strerror(-r));
	}
	return r;
}

/* Does a rule set of the daemon's policy match SYSNAME? 1 yes, 0 no, or
 * -errno when it cannot be told (the caller then closes the node). */
static int policy_matches(const char *runtime_dir, const char *sysname)
{
	_cleanup_policy_ struct policy *p = NULL;
	struct hid_dev_info info;
	struct policy_device dev;
	int r;

	r = hid_dev_read(HID_SYSFS_DEVICES, sysname, &info);
	if (r < 0) {
		fprintf(stderr, "hid-policyd: %s: cannot read the device: %s\n", sysname, strerror(-r));
		return r;
	}
	r = load_policy(runtime_dir, sysname, &p);
	if (r < 0)
		return r;
	/* The whole device as the daemon sees it: rule sets match by usage,
	 * interface and descriptor hash too. One that waits for a descriptor
	 * no driver has parsed yet may match once one has: closed till then. */
	state_policy_device(&info, &dev);
	if (policy_waits_for_descriptor(p, &dev))
		return 1;
	for (size_t s = 0; s < p->n_sets; s++)
		if (policy_ruleset_matches(&p->sets[s], &dev))
			return 1;
	return 0;
}

/*
 * A USB device's usbfs node, when its uevent comes: its interfaces and
 * HID devices do not exist yet, so nothing the daemon decides can be
 * waited for. Whoever may write the node can detach usbhid from the
 * device and send it any request, which no HID-BPF program sees (Valve's
 * steam-devices gives the seat's user every 28DE device's node): a device
 * with a HID interface whose vendor and product a rule set of the policy
 * may match is "protected", and the rules keep the node root's. Every
 * error closes it.
 */
static const char *usbfs_decided(const char *runtime_dir, const char *dir)
{
	_cleanup_policy_ struct policy *p = NULL;
	struct usb_device_ids ids = {};
	int r = usb_device_read(dir, &ids);

	if (r < 0) {
		fprintf(stderr, "hid-policyd: %s: cannot read the USB device: %s: closed\n", dir,
			strerror(-r));
		return "closed";
	}
	if (!ids.has_hid_interface)
		return "unprotected";
	if (load_policy(runtime_dir, dir, &p) < 0)
		return "closed";
	return policy_may_match_usb(p, ids.vendor, ids.product) ? "protected" : "unprotected";
}

/* Keep the node closed, and noted for the daemon to open it once it
 * decides. A decision that came meanwhile wins: the note is taken back. */
static const char *close_node(const char *runtime_dir, const char *sysname, const char *devpath)
{
	int r = decisions_mark_closed(runtime_dir, sysname, devpath);

	if (r < 0)
		fprintf(stderr, "hid-policyd: %s: cannot note the closed node (the daemon will not open it): %s\n",
			devpath, strerror(-r));
	r = decisions_read(runtime_dir, sysname);
	if (r < 0)
		return "closed";
	decisions_unmark_closed(runtime_dir, devpath);
	return r ? "protected" : "unprotected";
}

/* Whether DEVPATH (a sysfs path below /sys) is a USB device, not one of
 * its interfaces: its directory into DIR. */
static bool is_usb_device(const char *devpath, char *dir, size_t size)
{
	char path[PATH_MAX];

	if (devpath[0] != '/' || strstr(devpath, "/../") ||
	    snprintf(dir, size, "/sys%s", devpath) >= (int)size ||
	    snprintf(path, sizeof(path), "%s/bNumConfigurations", dir) >= (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

int wait_decided(const char *runtime_dir, const char *devpath, int timeout_s,
		 enum on_timeout on_timeout)
{
	char sysname[64], usb_dir[PATH_MAX];
	const char *word;
	int r;

	/* Every error keeps the node closed: a node udev cannot ask about is
	 * one it must not open. */
	r = decisions_hid_sysname("/sys", devpath, sysname, sizeof(sysname));
	if (r < 0 && is_usb_device(devpath, usb_dir, sizeof(usb_dir))) {
		printf("%s\n", usbfs_decided(runtime_dir, usb_dir));
		return 0;
	}
	if (r < 0) {
		fprintf(stderr, "hid-policyd: %s: not the path of a HID device, hidraw or hiddev node: closed\n",
			devpath);
		printf("closed\n");
		return 0;
	}
	r = decisions_wait(runtime_dir, devpath, timeout_s * 1000);
	if (r >= 0) {
		printf("%s\n", r ? "protected" : "unprotected");
		return 0;
	}
	if (r != -ETIMEDOUT) {
		word = close_node(runtime_dir, sysname, devpath);
		fprintf(stderr, "hid-policyd: %s: cannot read the decision: %s: %s\n", devpath,
			strerror(-r), word);
		printf("%s\n", word);
		return 0;
	}

	switch (on_timeout) {
	case ON_TIMEOUT_OPEN:
		word = "undecided";
		break;
	case ON_TIMEOUT_CLOSED:
		word = close_node(runtime_dir, sysname, devpath);
		break;
	case ON_TIMEOUT_CLOSED_IF_MATCHED:
	default:
		r = policy_matches(runtime_dir, sysname);
		word = r == 0 ? "undecided" : close_node(runtime_dir, sysname, devpath);
		break;
	}
	fprintf(stderr, "hid-policyd: %s: no decision in %d s (is hid-policyd running?): %s\n",
		devpath, timeout_s, word);
	printf("%s\n", word);
	return 0;
}
