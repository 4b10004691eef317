// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device manager's parsers and the decisions board, on the host: sysfs
 * names, kernel uevent messages, and the files udev waits for.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/decisions.h"
#include "daemon/devices.h"
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

static const struct test_case tests[] = {
	{ "closed_nodes_are_noted_until_their_device_is_decided",
	  test_closed_nodes_are_noted_until_their_device_is_decided },
	{ "sysfs_name_gives_bus_vendor_product_and_hid_id", test_sysfs_name_gives_bus_vendor_product_and_hid_id },
	{ "kernel_uevent_for_a_hid_device_is_understood", test_kernel_uevent_for_a_hid_device_is_understood },
	{ "truncated_uevent_is_ignored", test_truncated_uevent_is_ignored },
	{ "udev_wait_sees_published_decisions", test_udev_wait_sees_published_decisions },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "devices", tests, ARRAY_SIZE(tests));
}
