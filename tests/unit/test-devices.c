// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device manager's parsers and the decisions board, on the host: sysfs
 * names, kernel uevent messages, and the files udev waits for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enforce/decisions.h"
#include "hid/devices.h"
#include "harness.h"

static void test_sysfs_name_gives_bus_vendor_product_and_hid_id(void)
{
	struct hid_dev_info info;

	CHECK_OK(hid_sysname_parse("0005:054C:0CE6.001A", &info));
	CHECK_EQ(info.bus, 5);
	CHECK_EQ(info.vendor, 0x054c);
	CHECK_EQ(info.product, 0x0ce6);
	CHECK_EQ(info.hid_id, 0x1a);
	CHECK(hid_sysname_parse("0005:054C:0CE6", &info) < 0, "no hid_id accepted");
	CHECK(hid_sysname_parse("0005:054C:0CE6.001A/hidraw", &info) < 0, "trailing text accepted");
	CHECK(hid_sysname_parse("hidraw0", &info) < 0, "hidraw name accepted");
}

static size_t message(char *buf, const char *const *parts)
{
	size_t len = 0;

	for (size_t i = 0; parts[i]; i++) {
		strcpy(buf + len, parts[i]);
		len += strlen(parts[i]) + 1;
	}
	return len;
}

static void test_kernel_uevent_for_a_hid_device_is_understood(void)
{
	static const char *const add[] = {
		"add@/devices/virtual/misc/uhid/0003:1234:5678.0002",
		"ACTION=add", "DEVPATH=/devices/virtual/misc/uhid/0003:1234:5678.0002",
		"SUBSYSTEM=hid", "HID_ID=0003:00001234:00005678", "SEQNUM=7", NULL
	};
	static const char *const remove[] = {
		"remove@/devices/virtual/misc/uhid/0003:1234:5678.0002",
		"ACTION=remove", "DEVPATH=/devices/virtual/misc/uhid/0003:1234:5678.0002",
		"SUBSYSTEM=hid", NULL
	};
	static const char *const unbind[] = {
		"unbind@/devices/virtual/misc/uhid/0003:1234:5678.0002",
		"ACTION=unbind", "DEVPATH=/devices/virtual/misc/uhid/0003:1234:5678.0002",
		"SUBSYSTEM=hid", "DRIVER=hid-generic", NULL
	};
	static const char *const hidraw[] = {
		"add@/devices/virtual/misc/uhid/0003:1234:5678.0002/hidraw/hidraw0",
		"ACTION=add", "DEVPATH=/devices/virtual/misc/uhid/0003:1234:5678.0002/hidraw/hidraw0",
		"SUBSYSTEM=hidraw", NULL
	};
	struct uevent ev;
	char buf[1024];

	CHECK_OK(uevent_parse(buf, message(buf, add), &ev));
	CHECK_EQ(ev.action, UEVENT_ADD);
	CHECK(!strcmp(ev.sysname, "0003:1234:5678.0002"), "sysname %s", ev.sysname);
	CHECK_OK(uevent_parse(buf, message(buf, remove), &ev));
	CHECK_EQ(ev.action, UEVENT_REMOVE);
	/* the driver went: the daemon takes the input filter off (enforce.c) */
	CHECK_OK(uevent_parse(buf, message(buf, unbind), &ev));
	CHECK_EQ(ev.action, UEVENT_UNBIND);
	CHECK(!strcmp(ev.sysname, "0003:1234:5678.0002"), "sysname %s", ev.sysname);
	CHECK_OK(uevent_parse(buf, message(buf, hidraw), &ev));
	CHECK(!ev.sysname[0], "a hidraw event was taken for a hid one");
}

static void test_truncated_uevent_is_ignored(void)
{
	static const char msg[] = "add@/x\0ACTION=add\0SUBSYSTEM=hid\0DEVPATH=/devices/0003:1234:5678.0002";
	struct uevent ev;

	/* The last key lacks its NUL: it must not be read past the end. */
	CHECK_OK(uevent_parse(msg, sizeof(msg) - 1, &ev));
	CHECK(!ev.sysname[0], "unterminated DEVPATH was used");
}

static void test_udev_wait_sees_published_decisions(void)
{
	char dir[] = "/tmp/decisions.XXXXXX";
	const char *hidraw = "/devices/virtual/misc/uhid/0003:1234:5678.0002/hidraw/hidraw0";

	CHECK(mkdtemp(dir), "mkdtemp: %m");
	CHECK_OK(decisions_init(dir, NULL, 0));
	CHECK_EQ(decisions_wait(dir, hidraw, 50), -ETIMEDOUT);
	CHECK_EQ(decisions_wait(dir, "/devices/virtual/misc/uhid", 50), -ENOENT);
	CHECK_OK(decisions_publish(dir, "0003:1234:5678.0002", true));
	CHECK_EQ(decisions_wait(dir, hidraw, 50), 1);
	CHECK_OK(decisions_publish(dir, "0003:1234:5678.0002", false));
	CHECK_EQ(decisions_wait(dir, hidraw, 50), 0);
	CHECK_OK(decisions_withdraw(dir, "0003:1234:5678.0002"));
	CHECK_EQ(decisions_wait(dir, hidraw, 50), -ETIMEDOUT);
}

/* A node udev closed on time-out is noted until its device's decision
 * comes; the note names the device, and decisions on others leave it. The
 * policy directories the daemon reads are published for the wait. */
static void test_closed_nodes_are_noted_until_their_device_is_decided(void)
{
	char dir[] = "/tmp/decisions.XXXXXX", mark[64];
	const char *const dirs[] = { "/etc/hid-policy.d", "/usr/share/hid-policy/policies.d" };
	const char *hidraw = "/devices/virtual/misc/uhid/0003:1234:5678.0002/hidraw/hidraw7";
	char **got = NULL;
	size_t n = 0;
	struct stat st;

	CHECK(mkdtemp(dir), "mkdtemp: %m");
	CHECK_OK(decisions_init(dir, dirs, 2));
	CHECK_OK(decisions_config_dirs(dir, &got, &n));
	CHECK_EQ(n, 2);
	CHECK(!strcmp(got[0], dirs[0]) && !strcmp(got[1], dirs[1]) && !got[2], "dirs %s, %s",
	      got[0], got[1]);
	for (size_t i = 0; i < n; i++)
		free(got[i]);
	free(got);

	snprintf(mark, sizeof(mark), "%s/closed/hidraw7", dir);
	CHECK_OK(decisions_mark_closed(dir, "0003:1234:5678.0002", hidraw));
	CHECK_OK(stat(mark, &st));
	CHECK_EQ(decisions_read(dir, "0003:1234:5678.0002"), -ENOENT);
	CHECK_OK(decisions_publish(dir, "0003:1234:5678.0003", true));
	CHECK_OK(stat(mark, &st));
	/* Its decision: the mark goes (announcing the node again fails
	 * here, there is no such node). */
	CHECK_OK(decisions_publish(dir, "0003:1234:5678.0002", true));
	CHECK_EQ(stat(mark, &st) < 0 ? errno : 0, ENOENT);
	CHECK_EQ(decisions_read(dir, "0003:1234:5678.0002"), 1);
	CHECK_EQ(decisions_mark_closed(dir, "0003:1234:5678.0002", "/devices/x/../.."), -EINVAL);
}

static int mkdir_p(const char *path)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	return system(cmd) == 0 ? 0 : -EIO;
}

/* Write LEN bytes of DATA to DIR/NAME. */
static void put_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f, "cannot create %s: %m", path);
	CHECK_EQ(fwrite(data, 1, len, f), len);
	fclose(f);
}

/*
 * A sysfs tree as the kernel lays it out for a USB receiver's interface 2
 * (the HID device under its USB interface, reached through a link in
 * bus/hid/devices), and a Bluetooth device whose descriptor no driver has
 * parsed yet (sysfs shows it empty until then).
 */
static void test_device_view_reads_descriptor_interface_and_serial(void)
{
	static const uint8_t rdesc[] = {
		0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0xc0,	/* keyboard */
		0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0xc0,	/* vendor-defined */
	};
	static const char uevent[] = "DRIVER=hid-generic\nHID_ID=0003:0000046D:0000C52B\n"
		"HID_NAME=Logitech USB Receiver\nHID_PHYS=usb-0000:00:14.0-3/input2\n"
		"HID_UNIQ=ABC123\nMODALIAS=hid:b0003g0000v0000046Dp0000C52B\n";
	static const char bt_uevent[] = "HID_NAME=Pad\nHID_UNIQ=aa:bb:cc:dd:ee:ff\n";
	char root[] = "/tmp/sysfs.XXXXXX", path[512], bus[256], hex[2 * SHA256_BYTES + 1];
	struct hid_dev_info info;
	uint8_t want[SHA256_BYTES];

	CHECK(mkdtemp(root), "mkdtemp: %m");
	snprintf(path, sizeof(path), "%s/usb1/1-3/1-3:1.2/0003:046D:C52B.0004/hidraw", root);
	CHECK_OK(mkdir_p(path));
	snprintf(path, sizeof(path), "%s/usb1/1-3/1-3:1.2", root);
	put_file(path, "bInterfaceNumber", "02\n", 3);
	strcat(path, "/0003:046D:C52B.0004");
	put_file(path, "uevent", uevent, strlen(uevent));
	put_file(path, "report_descriptor", rdesc, sizeof(rdesc));
	snprintf(bus, sizeof(bus), "%s/hid-devices", root);
	CHECK_OK(mkdir_p(bus));
	snprintf(path, sizeof(path), "%s/0003:046D:C52B.0004", bus);
	CHECK(symlink("../usb1/1-3/1-3:1.2/0003:046D:C52B.0004", path) == 0, "symlink: %m");

	CHECK_OK(hid_dev_read(bus, "0003:046D:C52B.0004", &info));
	CHECK(!strcmp(info.uniq, "ABC123"), "uniq %s", info.uniq);
	CHECK(!strcmp(info.phys, "usb-0000:00:14.0-3/input2"), "phys %s", info.phys);
	CHECK(info.bound, "a device with a hidraw node is bound");
	CHECK(info.has_interface && info.interface == 2, "interface %d", info.has_interface ? info.interface : -1);
	CHECK(info.descriptor_known && !info.descriptor_malformed, "descriptor not read");
	CHECK_EQ(info.n_usages, 2);
	CHECK_EQ(info.usages[0], 0x00010006u);
	CHECK_EQ(info.usages[1], 0xff000001u);
	sha256(rdesc, sizeof(rdesc), want);
	for (size_t i = 0; i < SHA256_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", info.descriptor_sha256[i]);
	CHECK(!memcmp(info.descriptor_sha256, want, SHA256_BYTES), "hash %s", hex);

	/* Bluetooth: no interface number even with the file next door; an
	 * empty descriptor is not known yet */
	snprintf(path, sizeof(path), "%s/0005:054C:0CE6.0005", bus);
	CHECK_OK(mkdir_p(path));
	put_file(path, "uevent", bt_uevent, strlen(bt_uevent));
	put_file(path, "report_descriptor", "", 0);
	put_file(bus, "bInterfaceNumber", "00\n", 3);
	CHECK_OK(hid_dev_read(bus, "0005:054C:0CE6.0005", &info));
	CHECK(!info.has_interface, "a Bluetooth device got an interface number");
	CHECK(!info.descriptor_known && info.n_usages == 0, "an empty descriptor counts as known");
	CHECK(!info.bound, "bound without a hidraw node");

	/* a malformed descriptor keeps what came before the fault */
	put_file(path, "report_descriptor", rdesc, 9);
	CHECK_OK(hid_dev_read(bus, "0005:054C:0CE6.0005", &info));
	CHECK(info.descriptor_known && info.descriptor_malformed, "truncated descriptor not malformed");
	CHECK_EQ(info.n_usages, 1);
	CHECK_EQ(info.usages[0], 0x00010006u);

	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	CHECK_EQ(system(path), 0);
}

/*
 * hid-logitech-dj's node of a paired device: a HID device under the
 * receiver's, phys the receiver's with ":1". The same layout with the
 * receiver bound by hid-generic, or with another phys, is no paired
 * device's node.
 */
static void test_a_paired_devices_node_names_its_receiver_and_index(void)
{
	static const char rcv_uevent[] = "HID_ID=0003:0000046D:0000C52B\n"
		"HID_NAME=Logitech USB Receiver\nHID_PHYS=usb-0000:00:14.0-3/input2\n";
	static const char child_uevent[] = "HID_ID=0003:0000046D:00004082\n"
		"HID_NAME=Logitech Wireless Mouse\nHID_PHYS=usb-0000:00:14.0-3/input2:1\n";
	char root[] = "/tmp/sysfs.XXXXXX", rcv[128], path[512], bus[256];
	struct hid_dev_info info;

	CHECK(mkdtemp(root), "mkdtemp: %m");
	snprintf(rcv, sizeof(rcv), "%s/usb1/1-3/1-3:1.2/0003:046D:C52B.0004", root);
	snprintf(path, sizeof(path), "%s/0003:046D:4082.0007/hidraw", rcv);
	CHECK_OK(mkdir_p(path));
	put_file(rcv, "uevent", rcv_uevent, strlen(rcv_uevent));
	snprintf(path, sizeof(path), "%s/0003:046D:4082.0007", rcv);
	put_file(path, "uevent", child_uevent, strlen(child_uevent));
	snprintf(path, sizeof(path), "%s/drivers/logitech-djreceiver", root);
	CHECK_OK(mkdir_p(path));
	snprintf(path, sizeof(path), "%s/driver", rcv);
	CHECK(symlink("../../../../drivers/logitech-djreceiver", path) == 0, "symlink: %m");
	snprintf(bus, sizeof(bus), "%s/hid-devices", root);
	CHECK_OK(mkdir_p(bus));
	snprintf(path, sizeof(path), "%s/0003:046D:4082.0007", bus);
	CHECK(symlink("../usb1/1-3/1-3:1.2/0003:046D:C52B.0004/0003:046D:4082.0007", path) == 0,
	      "symlink: %m");

	CHECK_OK(hid_dev_read(bus, "0003:046D:4082.0007", &info));
	CHECK_EQ(info.receiver_id, 4u);
	CHECK_EQ(info.receiver_index, 1);

	/* another driver on the parent: not hid-logitech-dj's */
	snprintf(path, sizeof(path), "%s/driver", rcv);
	CHECK_OK(unlink(path));
	CHECK(symlink("../../../../drivers/hid-generic", path) == 0, "symlink: %m");
	CHECK_OK(hid_dev_read(bus, "0003:046D:4082.0007", &info));
	CHECK_EQ(info.receiver_id, 0u);

	/* the driver's, but a phys that is not the receiver's with an index */
	CHECK_OK(unlink(path));
	CHECK(symlink("../../../../drivers/logitech-djreceiver", path) == 0, "symlink: %m");
	snprintf(path, sizeof(path), "%s/0003:046D:4082.0007", rcv);
	put_file(path, "uevent", "HID_PHYS=usb-0000:00:14.0-3/input2:9\n", 37);
	CHECK_OK(hid_dev_read(bus, "0003:046D:4082.0007", &info));
	CHECK_EQ(info.receiver_id, 0u);

	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	CHECK_EQ(system(path), 0);
}

static const struct test_case tests[] = {
	{ "a_paired_devices_node_names_its_receiver_and_index",
	  test_a_paired_devices_node_names_its_receiver_and_index },
	{ "closed_nodes_are_noted_until_their_device_is_decided",
	  test_closed_nodes_are_noted_until_their_device_is_decided },
	{ "sysfs_name_gives_bus_vendor_product_and_hid_id", test_sysfs_name_gives_bus_vendor_product_and_hid_id },
	{ "kernel_uevent_for_a_hid_device_is_understood", test_kernel_uevent_for_a_hid_device_is_understood },
	{ "truncated_uevent_is_ignored", test_truncated_uevent_is_ignored },
	{ "udev_wait_sees_published_decisions", test_udev_wait_sees_published_decisions },
	{ "device_view_reads_descriptor_interface_and_serial", test_device_view_reads_descriptor_interface_and_serial },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "devices", tests, ARRAY_SIZE(tests));
}
