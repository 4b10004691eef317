// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What decides a USB device's usbfs node before its HID devices exist
 * (hid-policyd --wait-decided on a USB device): the interface classes its
 * raw descriptors declare, its ids from sysfs, and whether a rule set of
 * the policy may match those ids.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "hid/usb_device.h"
#include "policy-helpers.h"

/* A device descriptor, then a configuration of one interface of CLASS
 * with one endpoint; as sysfs' "descriptors" shows them. */
static size_t one_interface(uint8_t *d, uint8_t class)
{
	static const uint8_t device[18] = { 18, 1, 0x00, 0x02, 0, 0, 0, 8, 0x6d, 0x04, 0x2b, 0xc5,
					    0x11, 0x12, 1, 2, 0, 1 };
	const uint8_t config[9 + 9 + 7] = {
		9, 2, 25, 0, 1, 1, 0, 0xa0, 49,
		9, 4, 0, 0, 1, class, 0, 0, 0,
		7, 5, 0x81, 3, 8, 0, 8,
	};

	memcpy(d, device, sizeof(device));
	memcpy(d + sizeof(device), config, sizeof(config));
	return sizeof(device) + sizeof(config);
}

static void a_hid_interface_is_found_and_others_are_not(void)
{
	uint8_t d[64];
	size_t len;

	len = one_interface(d, 3);
	CHECK_EQ(usb_descriptors_have_hid(d, len), 1);
	len = one_interface(d, 8);	/* mass storage */
	CHECK_EQ(usb_descriptors_have_hid(d, len), 0);
	/* a class-specific descriptor between: walked over by its length */
	len = one_interface(d, 8);
	memmove(d + 18 + 9 + 9, d + 18 + 9, len - 18 - 9);
	memcpy(d + 18 + 9, (const uint8_t[9]){ 9, 0x21, 0x11, 0x01, 0, 1, 0x22, 59, 0 }, 9);
	d[18 + 9 + 9 + 5] = 3;
	CHECK_EQ(usb_descriptors_have_hid(d, len + 9), 1);
}

static void malformed_descriptors_are_an_error(void)
{
	uint8_t d[64];
	size_t len = one_interface(d, 3);

	CHECK_EQ(usb_descriptors_have_hid(d, 10), -EINVAL);		/* no whole device descriptor */
	d[18] = 0;							/* a length that never ends */
	CHECK_EQ(usb_descriptors_have_hid(d, len), -EINVAL);
	len = one_interface(d, 3);
	CHECK_EQ(usb_descriptors_have_hid(d, len - 20), -EINVAL);	/* cut in the interface */
}

static void write_attr(const char *dir, const char *name, const void *data, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0, "%s: %m", path);
	CHECK(write(fd, data, len) == (ssize_t)len, "%s: %m", path);
	close(fd);
}

static void a_device_is_read_from_sysfs_and_an_interface_is_not_one(void)
{
	_cleanup_free_ char *dir = make_temp_dir();
	struct usb_device_ids ids = {};
	char intf[512];
	uint8_t d[64];
	size_t len = one_interface(d, 3);

	write_attr(dir, "bNumConfigurations", "1\n", 2);
	write_attr(dir, "idVendor", "046d\n", 5);
	write_attr(dir, "idProduct", "c52b\n", 5);
	write_attr(dir, "descriptors", d, len);
	CHECK_OK(usb_device_read(dir, &ids));
	CHECK_EQ(ids.vendor, 0x046d);
	CHECK_EQ(ids.product, 0xc52b);
	CHECK(ids.has_hid_interface, "the HID interface was not seen");

	write_attr(dir, "idProduct", "c52b0\n", 6);
	CHECK_EQ(usb_device_read(dir, &ids), -EINVAL);

	snprintf(intf, sizeof(intf), "%s/1-1:1.0", dir);
	CHECK(mkdir(intf, 0755) == 0, "%s: %m", intf);
	write_attr(intf, "bInterfaceClass", "03\n", 3);
	CHECK_EQ(usb_device_read(intf, &ids), -ENOTTY);
	rm_tree(dir);
}

static void the_shipped_policies_may_match_their_usb_devices_only(void)
{
	_cleanup_(diag_done) struct diag diag = {};
	_cleanup_policy_ struct policy *p = NULL;
	char dir[512];
	const char *dirs[] = { dir };

	snprintf(dir, sizeof(dir), "%s/policies", getenv("HID_POLICY_SRCDIR") ?: ".");
	CHECK_OK(policy_load_dirs(dirs, 1, true, &diag, &p));
	CHECK(policy_may_match_usb(p, 0x28de, 0x1205), "the Steam Deck controller");
	CHECK(policy_may_match_usb(p, 0x054c, 0x0ce6), "the DualSense");
	CHECK(policy_may_match_usb(p, 0x046d, 0xc52b), "the Unifying receiver");
	CHECK(!policy_may_match_usb(p, 0x1234, 0x5678), "a device no rule set names");
}

static void a_rule_set_for_another_bus_does_not_close_usbfs(void)
{
	_cleanup_(diag_done) struct diag diag = {};
	_cleanup_policy_ struct policy *bt = load_text("bt.json",
		"{'version': 1, 'devices': [{'match': {'bus': 'bluetooth', 'vendor': '0x054c'}, "
		"'rules': [{'name': 'r', 'request': 'set_report', 'report_type': 'feature', "
		"'report_id': 244, 'action': 'deny'}]}]}",
		&diag);
	_cleanup_policy_ struct policy *any = load_text("any.json",
		"{'version': 1, 'devices': [{'match': {'name': 'Some pad*'}, "
		"'rules': [{'name': 'r', 'request': 'set_report', 'report_type': 'feature', "
		"'report_id': 244, 'action': 'deny'}]}]}",
		&diag);

	if (!bt || !any)
		diag_print(&diag, stdout);
	CHECK(bt && any, "the test policies did not load");
	CHECK(!policy_may_match_usb(bt, 0x054c, 0x0ce6), "a Bluetooth-only rule set closed usbfs");
	/* one that names no bus nor ids may match any device by its name */
	CHECK(policy_may_match_usb(any, 0x1234, 0x5678), "a rule set matching by name alone");
}

static const struct test_case tests[] = {
	{ "a_hid_interface_is_found_and_others_are_not", a_hid_interface_is_found_and_others_are_not },
	{ "malformed_descriptors_are_an_error", malformed_descriptors_are_an_error },
	{ "a_device_is_read_from_sysfs_and_an_interface_is_not_one",
	  a_device_is_read_from_sysfs_and_an_interface_is_not_one },
	{ "the_shipped_policies_may_match_their_usb_devices_only",
	  the_shipped_policies_may_match_their_usb_devices_only },
	{ "a_rule_set_for_another_bus_does_not_close_usbfs",
	  a_rule_set_for_another_bus_does_not_close_usbfs },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "usb-device", tests, ARRAY_SIZE(tests));
}
