// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HID-BPF core tests (issue 3), run in the test VM: struct_ops attach and
 * detach, device events, descriptor fixup, kfuncs from syscall programs,
 * limits, device removal and the verifier's write rules.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/hidraw.h>

#include "harness.h"
#include "hid_bpf_loader.h"
#include "kernel_fixture.h"
#include "test_rdesc.h"
#include "uhid_dev.h"

#define BPF_F_BEFORE	(1U << 3)
#define READ_TIMEOUT_MS	1000
#define QUIET_MS	200	/* how long "nothing arrives" is waited for */

static void make_device(struct uhid_dev *dev, const char *name)
{
	kt_make_device(dev, name, test_rdesc, sizeof(test_rdesc));
}

/* The device's hidraw node now (it changes when the device is reprobed). */
static void current_hidraw(struct uhid_dev *dev)
{
	char dir[400];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/hidraw", dev->syspath);
	for (int i = 0; i < 100; i++) {
		d = opendir(dir);
		while (d && (de = readdir(d))) {
			if (strncmp(de->d_name, "hidraw", 6))
				continue;
			snprintf(dev->hidraw, sizeof(dev->hidraw), "/dev/%s",
				 de->d_name);
			closedir(d);
			if (access(dev->hidraw, R_OK) == 0)
				return;
			d = NULL;
		}
		if (d)
			closedir(d);
		usleep(20000);
	}
	CHECK(0, "no hidraw node under %s", dir);
}

static int open_raw(struct uhid_dev *dev)
{
	return kt_open_hidraw(dev, O_NONBLOCK);
}

/* Next report from hidraw: its length, or -ETIMEDOUT. */
static int read_report(int fd, uint8_t *buf, size_t size, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, timeout_ms) <= 0)
		return -ETIMEDOUT;
	n = read(fd, buf, size);
	CHECK(n > 0, "read hidraw: %m");
	return n;
}

/* Send input report 1 with bytes 1 and 2 set, the rest zero. */
static void send_report1(struct uhid_dev *dev, uint8_t b1, uint8_t b2)
{
	uint8_t r[TEST_INPUT_LEN] = { 1, b1, b2 };

	CHECK_OK(uhid_dev_send_input(dev, r, sizeof(r)));
}

static struct bpf_object *load(const char *name, int hid_id)
{
	struct bpf_object *obj = hbt_load(name, hid_id, NULL, 0);

	CHECK(obj, "loading %s.bpf.o: %m", name);
	return obj;
}

/* What most event cases start from: a fresh device, event.bpf.o loaded
 * for it with struct_ops map MAP attached, and its hidraw node open. */
struct event_case {
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;
	int fd;
};

static void event_case_start(struct event_case *c, const char *name,
			     const char *map)
{
	make_device(&c->dev, name);
	c->obj = load("event", c->dev.hid_id);
	c->link = kt_attach(c->obj, map);
	c->fd = open_raw(&c->dev);
}

/* The next report hidraw delivers must be LEN bytes long. */
static void expect_report(int fd, uint8_t *buf, size_t size, int len)
{
	CHECK_EQ(read_report(fd, buf, size, READ_TIMEOUT_MS), len);
}

/* Nothing more arrives. */
static void expect_quiet(int fd)
{
	uint8_t buf[512];

	CHECK_EQ(read_report(fd, buf, sizeof(buf), QUIET_MS), -ETIMEDOUT);
}

static void test_event_rewrite_seen_by_hidraw_until_detach(void)
{
	struct event_case c;
	uint8_t buf[256];

	event_case_start(&c, "rewrite", "rewrite");
	send_report1(&c.dev, 0x20, 0);
	expect_report(c.fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[0], 1);
	CHECK_EQ(buf[1], 0x20);
	CHECK_EQ(buf[2], 0x21);
	CHECK_EQ(kt_global_u32(c.obj, "last_hid_id"), c.dev.hid_id);
	CHECK_EQ(kt_global_u32(c.obj, "calls"), 1);

	CHECK_OK(bpf_link__destroy(c.link));
	send_report1(&c.dev, 0x20, 0);
	expect_report(c.fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[2], 0);
	CHECK_EQ(kt_global_u32(c.obj, "calls"), 1);
}

static void test_event_subprogram_runs(void)
{
	struct event_case c;
	uint8_t buf[256];

	event_case_start(&c, "subprog", "subprog");
	send_report1(&c.dev, 1, 2);
	expect_report(c.fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[3], 0x5a);
	CHECK_EQ(kt_global_u32(c.obj, "calls"), 1);
}

static void test_reattach_same_map_refused(void)
{
	struct bpf_link *link, *again;
	struct uhid_dev dev;
	struct bpf_object *obj;

	make_device(&dev, "reattach");
	obj = load("event", dev.hid_id);
	link = kt_attach(obj, "rewrite");
	CHECK_EQ(hbt_attach(obj, "rewrite", &again), -EBUSY);
	CHECK_OK(bpf_link__destroy(link));
	/* a deleted struct_ops map cannot be registered again either */
	CHECK(hbt_attach(obj, "rewrite", &again) < 0, "re-registered");
}

static void test_attach_outlives_fds_when_pinned_then_detach(void)
{
	const char *pin = "/sys/fs/bpf/hid_bpf_test_rewrite";
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;
	uint8_t buf[256];
	int zero = 0, fd, map_fd;

	make_device(&dev, "pinning");
	obj = load("event", dev.hid_id);
	CHECK_OK(hbt_attach(obj, "rewrite", &link));
	unlink(pin);
	CHECK_OK(bpf_map__pin(bpf_object__find_map_by_name(obj, "rewrite"),
			      pin));
	/* drop every fd without deleting the element */
	bpf_link__disconnect(link);
	bpf_link__destroy(link);
	bpf_object__close(obj);

	fd = open_raw(&dev);
	send_report1(&dev, 0x30, 0);
	expect_report(fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[2], 0x31);

	map_fd = bpf_obj_get(pin);
	CHECK_OK(map_fd);
	CHECK_OK(bpf_map_delete_elem(map_fd, &zero));
	close(map_fd);
	CHECK_OK(unlink(pin));

	send_report1(&dev, 0x30, 0);
	expect_report(fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[2], 0);
}

static void test_event_changes_report_id_and_size(void)
{
	struct event_case c;
	uint8_t buf[256];

	event_case_start(&c, "change id", "change_id");
	send_report1(&c.dev, 0x44, 0x45);
	expect_report(c.fd, buf, sizeof(buf), TEST_SHORT_LEN);
	CHECK_EQ(buf[0], 2);
	CHECK_EQ(buf[1], 0x44);
	CHECK_EQ(buf[2], 0x45);
}

static void test_negative_return_drops_event_for_hidraw(void)
{
	struct event_case c;
	uint8_t buf[256];

	event_case_start(&c, "drop", "drop");
	send_report1(&c.dev, 0xdd, 0);
	send_report1(&c.dev, 0x01, 0);
	expect_report(c.fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[1], 0x01);
	expect_quiet(c.fd);
}

static void test_size_beyond_allocated_size_rejected(void)
{
	struct event_case c;
	uint8_t buf[512];

	event_case_start(&c, "size", "size");
	send_report1(&c.dev, 0xee, 0);	/* allocated_size + 1: rejected */
	send_report1(&c.dev, 0xef, 0);	/* allocated_size: accepted */
	expect_report(c.fd, buf, sizeof(buf), TEST_EVENT_BUF);
	CHECK_EQ(buf[1], 0xef);
	expect_quiet(c.fd);
}

/*
 * As upstream: the injected report is processed inside the hook, in the
 * device's event buffer, so the hook's data holds it afterwards and the
 * hook's own report goes on as a second copy of it.
 */
static void test_event_hook_injection_comes_first_and_replaces_the_data(void)
{
	struct event_case c;
	uint8_t buf[256];
	uint64_t source = 0;
	int32_t ret = -1;

	event_case_start(&c, "inject", "inject");
	send_report1(&c.dev, 0x10, 0x77);
	expect_report(c.fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[1], 0x11);
	CHECK_EQ(buf[2], 0x77);
	expect_report(c.fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[1], 0x11);
	CHECK_EQ(buf[2], 0x77);
	expect_quiet(c.fd);

	CHECK_OK(hbt_read_global(c.obj, "inject_ret", &ret, sizeof(ret)));
	CHECK_EQ(ret, 0);
	CHECK_EQ(kt_global_u32(c.obj, "calls"), 2);
	/* the nested run saw a non-zero source: the injecting context */
	CHECK_OK(hbt_read_global(c.obj, "last_source", &source, sizeof(source)));
	CHECK(source != 0, "source of the injected report is 0");
}

static void test_before_flag_orders_2_1_3_as_1_2_3(void)
{
	struct bpf_link *l1, *l2, *l3;
	struct uhid_dev dev;
	struct bpf_object *obj;
	uint32_t runs[8] = { 0 };
	uint8_t buf[256];
	int fd;

	make_device(&dev, "order");
	obj = hbt_load("order", dev.hid_id, "ops1", BPF_F_BEFORE);
	CHECK(obj, "loading order.bpf.o: %m");
	CHECK_OK(hbt_attach(obj, "ops2", &l2));
	CHECK_OK(hbt_attach(obj, "ops1", &l1));
	CHECK_OK(hbt_attach(obj, "ops3", &l3));
	fd = open_raw(&dev);

	send_report1(&dev, 0, 0);
	expect_report(fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(kt_global_u32(obj, "nruns"), 3);
	CHECK_OK(hbt_read_global(obj, "runs", runs, sizeof(runs)));
	CHECK_EQ(runs[0], 1);
	CHECK_EQ(runs[1], 2);
	CHECK_EQ(runs[2], 3);
}

static void test_program_on_device_a_never_runs_for_b(void)
{
	struct uhid_dev a, b;
	struct bpf_object *obj;
	struct bpf_link *link;
	uint8_t buf[256];
	int fd_a, fd_b;

	make_device(&a, "device A");
	make_device(&b, "device B");
	obj = load("event", a.hid_id);
	CHECK_OK(hbt_attach(obj, "rewrite", &link));
	fd_a = open_raw(&a);
	fd_b = open_raw(&b);

	send_report1(&b, 0x50, 0);
	expect_report(fd_b, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[2], 0);
	CHECK_EQ(kt_global_u32(obj, "calls"), 0);

	send_report1(&a, 0x50, 0);
	expect_report(fd_a, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[2], 0x51);
	CHECK_EQ(kt_global_u32(obj, "calls"), 1);
	CHECK_EQ(kt_global_u32(obj, "last_hid_id"), a.hid_id);
}

static void test_program_rewrites_device_name(void)
{
	struct event_case c;
	char name[256] = "";
	uint8_t buf[256];

	event_case_start(&c, "name before", "rename");
	send_report1(&c.dev, 0, 0);
	expect_report(c.fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_OK(ioctl(c.fd, HIDIOCGRAWNAME(sizeof(name)), name));
	CHECK(!strcmp(name, "BPF"), "name is '%s'", name);
}

static void expect_rejected(const char *name)
{
	struct uhid_dev dev;
	struct bpf_object *obj;

	make_device(&dev, name);
	obj = hbt_load(name, dev.hid_id, NULL, 0);
	CHECK(!obj, "%s.bpf.o loaded", name);
	CHECK_EQ(errno, EACCES);
}

static void test_verifier_rejects_write_to_allocated_size(void)
{
	expect_rejected("bad_write_allocated_size");
}

static void test_verifier_rejects_write_to_hid_device_fields(void)
{
	expect_rejected("bad_write_hid_field");
	expect_rejected("bad_write_name_nul");
}

static void test_invalid_flags_refused(void)
{
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;

	make_device(&dev, "flags");
	obj = hbt_load("passthrough", dev.hid_id, "pass", 1U << 0);
	CHECK(obj, "loading: %m");
	CHECK_EQ(hbt_attach(obj, "pass", &link), -EINVAL);
}

static void test_unknown_hid_id_refused(void)
{
	struct bpf_object *obj;
	struct bpf_link *link;
	int err;

	obj = load("passthrough", 0xfff0);
	err = hbt_attach(obj, "pass", &link);
	CHECK(err == -ENODEV || err == -EINVAL, "attach returned %d", err);
}

static void test_limit_64_ops_then_e2big(void)
{
	struct bpf_object *obj;
	struct bpf_link *link;
	struct uhid_dev dev;
	uint8_t buf[256];
	int fd;

	make_device(&dev, "limit");
	for (int i = 0; i < 64; i++) {
		obj = load("passthrough", dev.hid_id);
		CHECK_OK(hbt_attach(obj, "pass", &link));
	}
	obj = load("passthrough", dev.hid_id);
	CHECK_EQ(hbt_attach(obj, "pass", &link), -E2BIG);

	/* the 64 still run: the device keeps working */
	fd = open_raw(&dev);
	send_report1(&dev, 0x60, 0);
	expect_report(fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[1], 0x60);
}

static int read_rdesc_ioctl(struct uhid_dev *dev, uint8_t *out)
{
	struct hidraw_report_descriptor rd = { 0 };
	int fd, size = 0;

	current_hidraw(dev);
	fd = open_raw(dev);
	CHECK_OK(ioctl(fd, HIDIOCGRDESCSIZE, &size));
	rd.size = size;
	CHECK_OK(ioctl(fd, HIDIOCGRDESC, &rd));
	memcpy(out, rd.value, size);
	close(fd);
	return size;
}

static int read_rdesc_sysfs(struct uhid_dev *dev, uint8_t *out, size_t size)
{
	char path[400];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/report_descriptor", dev->syspath);
	n = read_file(path, out, size);
	CHECK_OK(n);
	return n;
}

static const uint8_t report5_items[] = {
	0x85, 0x05, 0x09, 0x06, 0x95, 0x04, 0x81, 0x02, 0xc0,
};

static void test_rdesc_fixup_grows_descriptor_until_detach(void)
{
	uint8_t rd[4096], sys[4096], buf[256];
	uint8_t r5[5] = { 5, 0xa, 0xb, 0xc, 0xd };
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;
	size_t base = sizeof(test_rdesc) - 1;
	int n, fd;

	make_device(&dev, "rdesc");
	obj = load("rdesc", dev.hid_id);
	CHECK_OK(hbt_attach(obj, "rdesc_a", &link));
	CHECK(kt_global_u32(obj, "calls") >= 1, "fixup did not run");

	n = read_rdesc_ioctl(&dev, rd);
	CHECK_EQ(n, base + sizeof(report5_items));
	CHECK(!memcmp(rd, test_rdesc, base), "prefix changed");
	CHECK(!memcmp(rd + base, report5_items, sizeof(report5_items)),
	      "added items differ");
	CHECK_EQ(read_rdesc_sysfs(&dev, sys, sizeof(sys)), n);
	CHECK(!memcmp(sys, rd, n), "sysfs and HIDIOCGRDESC differ");

	/* hid-core parsed the new descriptor: report 5 now exists */
	fd = open_raw(&dev);
	CHECK_OK(uhid_dev_send_input(&dev, r5, sizeof(r5)));
	expect_report(fd, buf, sizeof(buf), 5);
	CHECK_EQ(buf[4], 0xd);
	close(fd);

	CHECK_OK(bpf_link__destroy(link));
	n = read_rdesc_ioctl(&dev, rd);
	CHECK_EQ(n, sizeof(test_rdesc));
	CHECK(!memcmp(rd, test_rdesc, n), "descriptor not restored");
	CHECK_EQ(read_rdesc_sysfs(&dev, sys, sizeof(sys)), n);
	CHECK(!memcmp(sys, test_rdesc, n), "sysfs descriptor not restored");
}

static void test_rdesc_fixup_returning_0_keeps_its_changes(void)
{
	uint8_t rd[4096];
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;

	make_device(&dev, "rdesc in place");
	obj = load("rdesc", dev.hid_id);
	CHECK_OK(hbt_attach(obj, "rdesc_in_place", &link));
	CHECK(kt_global_u32(obj, "calls") >= 1, "fixup did not run");

	CHECK_EQ(read_rdesc_ioctl(&dev, rd), sizeof(test_rdesc));
	CHECK_EQ(rd[4], 0x42);
	CHECK(!memcmp(rd, test_rdesc, 4), "bytes before the change differ");
	CHECK(!memcmp(rd + 5, test_rdesc + 5, sizeof(test_rdesc) - 5),
	      "bytes after the change differ");
}

/*
 * The device lock is held while the fixup runs (probe): a kfunc request
 * from the fixup must not wait for it. Reports are not parsed yet, so the
 * request itself is refused.
 */
static void test_sleepable_rdesc_fixup_can_call_request_kfunc_during_probe(void)
{
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;
	uint8_t rd[4096];

	make_device(&dev, "rdesc request");
	obj = load("rdesc", dev.hid_id);
	CHECK_OK(hbt_attach(obj, "rdesc_request", &link));
	CHECK(kt_global_u32(obj, "fixup_requests") >= 1, "request did not return");
	CHECK_EQ(kt_global_s32(obj, "fixup_request_ret"), -EINVAL);
	/* the device came back */
	CHECK_EQ(read_rdesc_ioctl(&dev, rd), sizeof(test_rdesc));
}

static void test_task_helpers_name_the_attaching_process(void)
{
	char comm[16] = "", expected[16] = "";
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;

	make_device(&dev, "helpers");
	obj = load("task_helpers", dev.hid_id);
	/* reprobe is synchronous: the fixup runs for the attaching task */
	CHECK_OK(hbt_attach(obj, "fixup_caller_ids", &link));
	CHECK_EQ(kt_global_u64(obj, "pid_tgid") >> 32, getpid());
	CHECK_EQ(kt_global_u32(obj, "uid"), getuid());
	CHECK_EQ(kt_global_u32(obj, "gid"), getgid());
	CHECK_OK(hbt_read_global(obj, "comm", comm, sizeof(comm)));
	CHECK_OK(read_file("/proc/self/comm", expected, sizeof(expected) - 1));
	expected[strcspn(expected, "\n")] = 0;
	CHECK(!strcmp(comm, expected), "comm '%s', expected '%s'", comm,
	      expected);
}

static void test_second_rdesc_fixup_refused(void)
{
	struct bpf_link *a, *b;
	struct uhid_dev dev;
	struct bpf_object *obj;
	uint8_t rd[4096];

	make_device(&dev, "rdesc twice");
	obj = load("rdesc", dev.hid_id);
	CHECK_OK(hbt_attach(obj, "rdesc_a", &a));
	CHECK_EQ(hbt_attach(obj, "rdesc_b", &b), -EINVAL);
	CHECK_EQ(read_rdesc_ioctl(&dev, rd),
		 sizeof(test_rdesc) - 1 + sizeof(report5_items));
}

static void test_event_buffer_grows_when_reprobe_adds_longer_report(void)
{
	uint8_t r6[201] = { 6 }, buf[512];
	struct bpf_object *ev, *fix;
	struct bpf_link *l_ev, *l_fix;
	struct uhid_dev dev;
	int fd;

	make_device(&dev, "buffer growth");
	ev = load("event", dev.hid_id);
	fix = load("rdesc", dev.hid_id);
	CHECK_OK(hbt_attach(ev, "far", &l_ev));	/* buffer: 128 bytes */
	CHECK_OK(hbt_attach(fix, "rdesc_big", &l_fix));	/* report 6: 201 */

	current_hidraw(&dev);
	fd = open_raw(&dev);
	CHECK_OK(uhid_dev_send_input(&dev, r6, sizeof(r6)));
	expect_report(fd, buf, sizeof(buf), sizeof(r6));
	CHECK_EQ(buf[200], 0x77);
}

static void test_device_destroyed_while_attached_then_detached(void)
{
	struct bpf_link *ev, *rd;
	struct uhid_dev dev, other;
	struct bpf_object *obj, *fix;
	uint8_t buf[256];
	int fd;

	make_device(&dev, "destroyed");
	obj = load("event", dev.hid_id);
	fix = load("rdesc", dev.hid_id);
	CHECK_OK(hbt_attach(obj, "rewrite", &ev));
	CHECK_OK(hbt_attach(fix, "rdesc_a", &rd));
	current_hidraw(&dev);
	fd = open_raw(&dev);
	send_report1(&dev, 0x70, 0);
	expect_report(fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[2], 0x71);
	close(fd);

	uhid_dev_destroy(&dev);
	CHECK_OK(uhid_wait_gone(dev.syspath, 2000));
	/* the ops are inert: unregistering them is a harmless no-op */
	CHECK_OK(bpf_link__destroy(ev));
	CHECK_OK(bpf_link__destroy(rd));

	/* and they do not follow a new device around */
	make_device(&other, "after destroyed");
	fd = open_raw(&other);
	send_report1(&other, 0x70, 0);
	expect_report(fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[2], 0);
	CHECK_EQ(kt_global_u32(obj, "calls"), 1);
}

/* Must match struct hid_syscall_args in bpf/syscall.bpf.c. */
struct hid_syscall_args {
	unsigned int hid_id;
	int retval;
	uint8_t data[TEST_INPUT_LEN];
};

static void test_syscall_input_report_reaches_hidraw(void)
{
	struct hid_syscall_args args = { 0 };
	struct uhid_dev dev;
	struct bpf_object *obj;
	uint8_t buf[256];
	int fd;

	make_device(&dev, "syscall input");
	obj = load("syscall", dev.hid_id);
	fd = open_raw(&dev);
	args.hid_id = dev.hid_id;
	args.data[0] = 1;
	args.data[1] = 0x99;
	args.data[64] = 0x42;
	CHECK_EQ(hbt_run_syscall(obj, "input_report", &args, sizeof(args)), 0);
	CHECK_EQ(args.retval, 0);
	expect_report(fd, buf, sizeof(buf), TEST_INPUT_LEN);
	CHECK_EQ(buf[1], 0x99);
	CHECK_EQ(buf[64], 0x42);
}

static void test_syscall_hw_output_report_reaches_device(void)
{
	struct hid_syscall_args args = { 0 };
	struct uhid_dev_record rec;
	struct uhid_dev dev;
	struct bpf_object *obj;

	make_device(&dev, "syscall output");
	obj = load("syscall", dev.hid_id);
	args.hid_id = dev.hid_id;
	memcpy(args.data, "\x03" "abcdefgh", TEST_SHORT_LEN);
	CHECK_EQ(hbt_run_syscall(obj, "output_report", &args, sizeof(args)), 0);
	CHECK_EQ(args.retval, TEST_SHORT_LEN);
	CHECK_OK(uhid_dev_wait_count(&dev, UHID_DEV_OUTPUT, 3, 1, 2000));
	CHECK(uhid_dev_last(&dev, UHID_DEV_OUTPUT, &rec), "no output");
	CHECK_EQ(rec.size, TEST_SHORT_LEN);
	CHECK(!memcmp(rec.data, "\x03" "abcdefgh", TEST_SHORT_LEN),
	      "device got other bytes");
}

static void test_syscall_hw_request_gets_feature(void)
{
	const uint8_t reply[TEST_SHORT_LEN] = { 4, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct hid_syscall_args args = { 0 };
	struct uhid_dev dev;
	struct bpf_object *obj;

	make_device(&dev, "syscall request");
	uhid_dev_set_get_reply(&dev, 4, reply, sizeof(reply), 0);
	obj = load("syscall", dev.hid_id);
	args.hid_id = dev.hid_id;
	args.data[0] = 4;
	CHECK_EQ(hbt_run_syscall(obj, "get_feature", &args, sizeof(args)), 0);
	CHECK_EQ(args.retval, TEST_SHORT_LEN);
	CHECK(!memcmp(args.data, reply, sizeof(reply)), "answer differs");
	CHECK_EQ(uhid_dev_count(&dev, UHID_DEV_GET_REPORT, 4), 1);
}

/* Must match struct hid_get_data_args in bpf/port_syscall.bpf.c. */
struct hid_get_data_args {
	unsigned int hid_id;
	int got_data;
};

static void test_port_extension_syscall_get_data_is_null_on_allocated_context(void)
{
	struct hid_get_data_args args = { .got_data = -1 };
	struct uhid_dev dev;
	struct bpf_object *obj;

	kt_port_extension("hid_bpf_get_data() in SEC(\"syscall\") programs");
	make_device(&dev, "syscall get_data");
	obj = load("port_syscall", dev.hid_id);
	args.hid_id = dev.hid_id;
	CHECK_EQ(hbt_run_syscall(obj, "get_data_on_allocated_context", &args,
				 sizeof(args)), 0);
	CHECK_EQ(args.got_data, 0);
}

static void test_syscall_unknown_device_gets_no_context(void)
{
	struct hid_syscall_args args = { .hid_id = 0xfff0 };
	struct bpf_object *obj = load("syscall", 0);

	CHECK_EQ(hbt_run_syscall(obj, "input_report", &args, sizeof(args)),
		 -ENODEV);
}

static const struct test_case tests[] = {
	{ "event_rewrite_seen_by_hidraw_until_detach",
	  test_event_rewrite_seen_by_hidraw_until_detach },
	{ "event_subprogram_runs", test_event_subprogram_runs },
	{ "reattach_same_map_refused", test_reattach_same_map_refused },
	{ "attach_outlives_fds_when_pinned_then_detach",
	  test_attach_outlives_fds_when_pinned_then_detach },
	{ "event_changes_report_id_and_size",
	  test_event_changes_report_id_and_size },
	{ "negative_return_drops_event_for_hidraw",
	  test_negative_return_drops_event_for_hidraw },
	{ "size_beyond_allocated_size_rejected",
	  test_size_beyond_allocated_size_rejected },
	{ "event_hook_injection_comes_first_and_replaces_the_data",
	  test_event_hook_injection_comes_first_and_replaces_the_data },
	{ "before_flag_orders_2_1_3_as_1_2_3",
	  test_before_flag_orders_2_1_3_as_1_2_3 },
	{ "program_on_device_a_never_runs_for_b",
	  test_program_on_device_a_never_runs_for_b },
	{ "program_rewrites_device_name", test_program_rewrites_device_name },
	{ "verifier_rejects_write_to_allocated_size",
	  test_verifier_rejects_write_to_allocated_size },
	{ "verifier_rejects_write_to_hid_device_fields",
	  test_verifier_rejects_write_to_hid_device_fields },
	{ "invalid_flags_refused", test_invalid_flags_refused },
	{ "unknown_hid_id_refused", test_unknown_hid_id_refused },
	{ "limit_64_ops_then_e2big", test_limit_64_ops_then_e2big, 120 },
	{ "rdesc_fixup_grows_descriptor_until_detach",
	  test_rdesc_fixup_grows_descriptor_until_detach },
	{ "second_rdesc_fixup_refused", test_second_rdesc_fixup_refused },
	{ "rdesc_fixup_returning_0_keeps_its_changes",
	  test_rdesc_fixup_returning_0_keeps_its_changes },
	{ "sleepable_rdesc_fixup_can_call_request_kfunc_during_probe",
	  test_sleepable_rdesc_fixup_can_call_request_kfunc_during_probe },
	{ "task_helpers_name_the_attaching_process",
	  test_task_helpers_name_the_attaching_process },
	{ "event_buffer_grows_when_reprobe_adds_longer_report",
	  test_event_buffer_grows_when_reprobe_adds_longer_report },
	{ "device_destroyed_while_attached_then_detached",
	  test_device_destroyed_while_attached_then_detached },
	{ "syscall_input_report_reaches_hidraw",
	  test_syscall_input_report_reaches_hidraw },
	{ "syscall_hw_output_report_reaches_device",
	  test_syscall_hw_output_report_reaches_device },
	{ "syscall_hw_request_gets_feature",
	  test_syscall_hw_request_gets_feature },
	{ "syscall_unknown_device_gets_no_context",
	  test_syscall_unknown_device_gets_no_context },
	{ "port_extension_syscall_get_data_is_null_on_allocated_context",
	  test_port_extension_syscall_get_data_is_null_on_allocated_context },
};

int main(int argc, char **argv)
{
	/* HBT_VERBOSE=1 shows libbpf's messages, verifier logs included */
	if (!getenv("HBT_VERBOSE"))
		libbpf_set_print(NULL);
	return test_main(argc, argv, "kernel", tests, ARRAY_SIZE(tests));
}
