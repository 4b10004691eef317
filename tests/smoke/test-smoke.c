// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VM smoke tests: the test kernel has what every later test relies on
 * (uhid, hidraw, BTF, BPF maps), and the uhid test library sees what
 * reaches the device.
 */
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/hidraw.h>
#include <sys/ioctl.h>

#include "harness.h"
#include "uhid_dev.h"

static void create_test_device(struct uhid_dev *dev)
{
	const struct uhid_dev_config cfg = {
		.name = "smoke test device",
		.vendor = 0x1234,
		.product = 0x5678,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};

	CHECK_OK(uhid_dev_create(dev, &cfg));
}

static void test_kernel_has_uhid_and_btf(void)
{
	CHECK(access("/dev/uhid", R_OK | W_OK) == 0, "/dev/uhid: %m");
	CHECK(access("/sys/kernel/btf/vmlinux", R_OK) == 0,
	      "/sys/kernel/btf/vmlinux: %m");
}

static void test_bpf_hash_map_update_and_lookup(void)
{
	__u32 key = 7, value = 0xabcd, out = 0;
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, "smoke", sizeof(key),
				sizeof(value), 16, NULL);

	CHECK_OK(fd);
	CHECK_OK(bpf_map_update_elem(fd, &key, &value, BPF_ANY));
	CHECK_OK(bpf_map_lookup_elem(fd, &key, &out));
	CHECK_EQ(out, value);
	close(fd);
}

static void test_uhid_device_gets_sysfs_entry_and_hidraw(void)
{
	struct uhid_dev dev;
	char syspath[300];

	create_test_device(&dev);
	CHECK(access(dev.syspath, F_OK) == 0, "%s: %m", dev.syspath);
	CHECK(strncmp(dev.sysname, "0003:1234:5678.", 15) == 0, "sysname %s", dev.sysname);
	CHECK(dev.hid_id > 0, "hid_id %d", dev.hid_id);
	CHECK(access(dev.hidraw, R_OK | W_OK) == 0, "%s: %m", dev.hidraw);
	snprintf(syspath, sizeof(syspath), "%s", dev.syspath);
	uhid_dev_destroy(&dev);
	CHECK_OK(uhid_wait_gone(syspath, 5000));
}

static void test_input_report_reaches_hidraw_unchanged(void)
{
	uint8_t report[64], got[128];
	struct pollfd pfd;
	struct uhid_dev dev;
	ssize_t n;

	create_test_device(&dev);
	pfd.fd = uhid_dev_open_hidraw(&dev, O_NONBLOCK);
	CHECK_OK(pfd.fd);
	pfd.events = POLLIN;
	report[0] = 1;
	for (size_t i = 1; i < sizeof(report); i++)
		report[i] = (uint8_t)(i * 7);
	CHECK_OK(uhid_dev_send_input(&dev, report, sizeof(report)));
	CHECK(poll(&pfd, 1, 5000) == 1, "no input report on %s", dev.hidraw);
	n = read(pfd.fd, got, sizeof(got));
	CHECK_EQ(n, sizeof(report));
	CHECK(memcmp(got, report, sizeof(report)) == 0, "report changed on the way");
	close(pfd.fd);
	uhid_dev_destroy(&dev);
}

static void test_hidiocgrdesc_returns_the_descriptor_given(void)
{
	struct hidraw_report_descriptor desc = {};
	struct uhid_dev dev;
	int size = 0, fd;

	create_test_device(&dev);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	CHECK_OK(ioctl(fd, HIDIOCGRDESCSIZE, &size));
	CHECK_EQ(size, uhid_test_rdesc_size);
	desc.size = size;
	CHECK_OK(ioctl(fd, HIDIOCGRDESC, &desc));
	CHECK(memcmp(desc.value, uhid_test_rdesc, size) == 0, "descriptor differs");
	close(fd);
	uhid_dev_destroy(&dev);
}

static void test_set_feature_reaches_device_with_the_bytes_sent(void)
{
	struct uhid_dev_record rec;
	uint8_t buf[64];
	struct uhid_dev dev;
	int fd;

	create_test_device(&dev);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	buf[0] = 4;
	for (size_t i = 1; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(0xa0 + i);
	CHECK_EQ(ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf), sizeof(buf));
	CHECK_EQ(uhid_dev_count(&dev, UHID_DEV_SET_REPORT, 4), 1);
	CHECK(uhid_dev_last(&dev, UHID_DEV_SET_REPORT, &rec), "no SET_REPORT recorded");
	CHECK_EQ(rec.rtype, UHID_FEATURE_REPORT);
	CHECK_EQ(rec.size, sizeof(buf));
	CHECK(memcmp(rec.data, buf, sizeof(buf)) == 0, "payload differs");
	close(fd);
	uhid_dev_destroy(&dev);
}

static void test_get_feature_returns_the_device_answer(void)
{
	uint8_t reply[64], buf[64] = { 3 };
	struct uhid_dev dev;
	int fd;

	create_test_device(&dev);
	reply[0] = 3;
	for (size_t i = 1; i < sizeof(reply); i++)
		reply[i] = (uint8_t)(0x55 ^ i);
	uhid_dev_set_get_reply(&dev, 3, reply, sizeof(reply), 0);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	CHECK_EQ(ioctl(fd, HIDIOCGFEATURE(sizeof(buf)), buf), sizeof(buf));
	CHECK(memcmp(buf, reply, sizeof(buf)) == 0, "reply differs");
	CHECK_EQ(uhid_dev_count(&dev, UHID_DEV_GET_REPORT, 3), 1);
	close(fd);
	uhid_dev_destroy(&dev);
}

static void test_output_write_reaches_device(void)
{
	struct uhid_dev_record rec;
	uint8_t buf[64] = { 2, 0x10, 0x20 };
	struct uhid_dev dev;
	int fd;

	create_test_device(&dev);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	CHECK_EQ(write(fd, buf, sizeof(buf)), sizeof(buf));
	CHECK_OK(uhid_dev_wait_count(&dev, UHID_DEV_OUTPUT, 2, 1, 5000));
	CHECK(uhid_dev_last(&dev, UHID_DEV_OUTPUT, &rec), "no OUTPUT recorded");
	CHECK_EQ(rec.rnum, 2);
	CHECK_EQ(rec.rtype, UHID_OUTPUT_REPORT);
	CHECK(memcmp(rec.data, buf, sizeof(buf)) == 0, "payload differs");
	close(fd);
	uhid_dev_destroy(&dev);
}

static const struct test_case tests[] = {
	{ "kernel_has_uhid_and_btf", test_kernel_has_uhid_and_btf },
	{ "bpf_hash_map_update_and_lookup", test_bpf_hash_map_update_and_lookup },
	{ "uhid_device_gets_sysfs_entry_and_hidraw", test_uhid_device_gets_sysfs_entry_and_hidraw },
	{ "input_report_reaches_hidraw_unchanged", test_input_report_reaches_hidraw_unchanged },
	{ "hidiocgrdesc_returns_the_descriptor_given", test_hidiocgrdesc_returns_the_descriptor_given },
	{ "set_feature_reaches_device_with_the_bytes_sent", test_set_feature_reaches_device_with_the_bytes_sent },
	{ "get_feature_returns_the_device_answer", test_get_feature_returns_the_device_answer },
	{ "output_write_reaches_device", test_output_write_reaches_device },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "smoke", tests, ARRAY_SIZE(tests));
}
