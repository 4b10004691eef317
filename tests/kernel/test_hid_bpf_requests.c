// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HID-BPF request hooks (issue 4), run in the test VM: hid_hw_request and
 * hid_hw_output_report see every request hidraw and the kernel make, can
 * refuse or answer them, tell openers apart by source, and cannot recurse.
 * Every check looks at both ends: what the caller got and what reached the
 * uhid device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/hidraw.h>
#include <linux/input.h>

#include "harness.h"
#include "hid_bpf_loader.h"
#include "kernel_fixture.h"
#include "uhid_dev.h"

#define QUIET_MS 200	/* how long "nothing arrives" is waited for */
#define LEN 64		/* feature 3, 4, 0xf0 and output 2 of uhid_test_rdesc */

static void make_test_device(struct uhid_dev *dev)
{
	kt_make_device(dev, "request hooks", uhid_test_rdesc, uhid_test_rdesc_size);
}

static struct bpf_object *load_object(const char *name, int hid_id)
{
	struct bpf_object *obj = hbt_load(name, hid_id, NULL, 0);

	CHECK(obj, "loading %s.bpf.o: %m", name);
	return obj;
}

static struct bpf_object *load_requests(int hid_id)
{
	return load_object("requests", hid_id);
}

/* What most request cases start from: the test device, requests.bpf.o
 * loaded for it with MAP attached (NULL: none yet), one hidraw opener. */
struct request_case {
	struct uhid_dev dev;
	struct bpf_object *obj;
	struct bpf_link *link;
	int fd;
};

static void request_case_start(struct request_case *c, const char *map)
{
	make_test_device(&c->dev);
	c->obj = load_requests(c->dev.hid_id);
	c->link = map ? kt_attach(c->obj, map) : NULL;
	c->fd = kt_open_hidraw(&c->dev, 0);
}

static void request_case_end(struct request_case *c)
{
	close(c->fd);
	bpf_object__close(c->obj);
	uhid_dev_destroy(&c->dev);
}

static void set_refused_id(struct bpf_object *obj, uint8_t id)
{
	CHECK_OK(hbt_write_global(obj, "refused_id", &id, sizeof(id)));
}

/* ioctl results as 0 / errno, for short checks. */
static int get_feature(int fd, uint8_t id, uint8_t *out)
{
	uint8_t buf[LEN] = { id };
	int r = ioctl(fd, HIDIOCGFEATURE(LEN), buf);

	if (r < 0)
		return errno;
	if (out)
		memcpy(out, buf, LEN);
	return 0;
}

static int set_feature(int fd, uint8_t id, uint8_t byte1)
{
	uint8_t buf[LEN] = { id, byte1 };

	return ioctl(fd, HIDIOCSFEATURE(LEN), buf) < 0 ? errno : 0;
}

static int write_output(int fd, uint8_t id)
{
	uint8_t buf[LEN] = { id, 0x5a };

	return write(fd, buf, LEN) < 0 ? errno : 0;
}

static void answer_feature(struct uhid_dev *dev, uint8_t id, uint8_t byte1)
{
	uint8_t reply[LEN] = { id, byte1 };

	uhid_dev_set_get_reply(dev, id, reply, sizeof(reply), 0);
}

static void test_get_feature_refused_with_errno_then_works_after_detach(void)
{
	struct request_case c;
	uint8_t got[LEN];

	request_case_start(&c, "refuse_get");
	answer_feature(&c.dev, 3, 0x77);

	CHECK_EQ(get_feature(c.fd, 3, NULL), EACCES);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, -1), 0);

	CHECK_OK(bpf_link__destroy(c.link));
	CHECK_EQ(get_feature(c.fd, 3, got), 0);
	CHECK_EQ(got[1], 0x77);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, 3), 1);
	request_case_end(&c);
}

static void test_refused_set_feature_id_blocks_only_that_id(void)
{
	struct request_case c;

	request_case_start(&c, "refuse_set_id");
	set_refused_id(c.obj, 0xf0);

	CHECK_EQ(set_feature(c.fd, 0xf0, 1), EACCES);
	CHECK_EQ(set_feature(c.fd, 3, 1), 0);
	CHECK_EQ(set_feature(c.fd, 4, 1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0xf0), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 3), 1);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 4), 1);
	/* GET of the refused ID is not a SET: it passes */
	answer_feature(&c.dev, 0xf0, 0);
	CHECK_EQ(get_feature(c.fd, 0xf0, NULL), 0);
	request_case_end(&c);
}

static void test_request_answered_per_opener_by_source(void)
{
	struct request_case c;
	uint8_t got[LEN];
	int b;

	request_case_start(&c, "answer_get");
	b = kt_open_hidraw(&c.dev, 0);

	CHECK_EQ(get_feature(c.fd, 3, got), 0);
	CHECK_EQ(got[1], 0x11);
	CHECK_EQ(get_feature(b, 3, got), 0);
	CHECK_EQ(got[1], 0x22);
	CHECK_EQ(get_feature(c.fd, 3, got), 0);
	CHECK_EQ(got[1], 0x11);
	/* the program answered: the device was never asked */
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, -1), 0);
	CHECK(kt_global_u64(c.obj, "first_source") != 0, "hidraw passed source 0");
	close(b);
	request_case_end(&c);
}

static void test_sleepable_hook_forwards_and_recursion_gets_edeadlock(void)
{
	struct request_case c;
	uint8_t got[LEN];

	request_case_start(&c, "forward_request");
	answer_feature(&c.dev, 3, 0x5e);

	CHECK_EQ(get_feature(c.fd, 3, got), 0);
	/* the device's answer, brought back by the kfunc */
	CHECK_EQ(got[1], 0x5e);
	CHECK_EQ(kt_global_s32(c.obj, "outer_ret"), LEN);
	/* the forwarded request came through the hook, which could not
	 * forward it again */
	CHECK_EQ(kt_global_u64(c.obj, "calls"), 2);
	CHECK_EQ(kt_global_s32(c.obj, "inner_ret"), -EDEADLOCK);
	CHECK(kt_global_u64(c.obj, "inner_source") != 0, "kfunc request had source 0");
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, 3), 1);
	request_case_end(&c);
}

static void test_program_decides_on_payload_byte(void)
{
	struct request_case c;

	request_case_start(&c, "refuse_payload");

	CHECK_EQ(set_feature(c.fd, 4, 0x66), EACCES);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 4), 0);
	CHECK_EQ(set_feature(c.fd, 4, 0x67), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 4), 1);
	request_case_end(&c);
}

/* A child named hid-requester, as uid 4321 and gid 1234, asks for feature
 * report 3 on c's hidraw node; returns its pid once it exited cleanly. */
static pid_t request_from_child(struct request_case *c)
{
	int status;
	pid_t child;

	child = fork();
	CHECK_OK(child);
	if (child == 0) {
		prctl(PR_SET_NAME, "hid-requester");
		if (setresgid(1234, 1234, 1234) || setresuid(4321, 4321, 4321))
			_exit(2);
		_exit(get_feature(c->fd, 3, NULL) ? 1 : 0);
	}
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && !WEXITSTATUS(status), "child status %#x", status);
	return child;
}

static void test_pid_helpers_name_the_calling_process(void)
{
	struct { uint32_t pid, tgid; } ns_ids;
	struct request_case c;
	uint64_t pid_tgid;
	struct stat ns;
	pid_t child;

	request_case_start(&c, "caller");
	answer_feature(&c.dev, 3, 0);
	CHECK_OK(stat("/proc/self/ns/pid", &ns));
	CHECK_OK(hbt_write_global(c.obj, "ns_dev", &(uint64_t){ ns.st_dev }, 8));
	CHECK_OK(hbt_write_global(c.obj, "ns_ino", &(uint64_t){ ns.st_ino }, 8));
	child = request_from_child(&c);

	pid_tgid = kt_global_u64(c.obj, "pid_tgid");
	CHECK_EQ(pid_tgid >> 32, child);
	CHECK_EQ((uint32_t)pid_tgid, child);
	/* the guest runs in the initial pid namespace: the same numbers */
	CHECK_EQ(kt_global_s32(c.obj, "ns_ret"), 0);
	CHECK_OK(hbt_read_global(c.obj, "ns_ids", &ns_ids, sizeof(ns_ids)));
	CHECK_EQ(ns_ids.pid, child);
	CHECK_EQ(ns_ids.tgid, child);
	request_case_end(&c);
}

/* Loaded with CAP_PERFMON (the test runs as root), a program reads the
 * caller's uid, gid and name from the current task. */
static void test_task_helpers_name_the_calling_process(void)
{
	struct request_case c;
	char comm[16] = "";
	pid_t child;

	make_test_device(&c.dev);
	c.obj = load_object("task_helpers", c.dev.hid_id);
	c.link = kt_attach(c.obj, "caller_ids");
	c.fd = kt_open_hidraw(&c.dev, 0);
	answer_feature(&c.dev, 3, 0);
	child = request_from_child(&c);

	CHECK_OK(hbt_read_global(c.obj, "comm", comm, sizeof(comm)));
	CHECK_EQ(kt_global_u64(c.obj, "pid_tgid") >> 32, child);
	CHECK_EQ(kt_global_u32(c.obj, "uid"), 4321);
	CHECK_EQ(kt_global_u32(c.obj, "gid"), 1234);
	CHECK(!strcmp(comm, "hid-requester"), "comm \"%s\"", comm);
	request_case_end(&c);
}

/* Upstream 6.12 gives hid_bpf_ops programs neither helper; the port must
 * not either, or a firewall that names callers on the port fails to on
 * users' 6.12 kernels. 7.x gives both (bpf_base_func_proto() has them),
 * which the firewall does not rely on: it reads the task on every kernel. */
static void test_uid_and_comm_helpers_are_refused_as_upstream_refuses(void)
{
	struct uhid_dev dev;
	struct bpf_object *obj;

	make_test_device(&dev);
	obj = hbt_load("uid_comm_helpers", dev.hid_id, NULL, 0);
	if (kt_is_7x()) {
		CHECK(obj, "7.x gives bpf_get_current_uid_gid() and bpf_get_current_comm(), yet the program did not load");
		bpf_object__close(obj);
	} else {
		CHECK(!obj, "a program calling bpf_get_current_uid_gid() and bpf_get_current_comm() loaded");
	}
	uhid_dev_destroy(&dev);
}

/* Must match struct hid_syscall_args in bpf/syscall.bpf.c. */
struct hid_syscall_args {
	unsigned int hid_id;
	int retval;
	uint8_t data[65];
};

static void test_oversized_answer_is_clamped_to_the_request_length(void)
{
	struct hid_syscall_args args = { 0 };
	struct bpf_object *sys;
	struct request_case c;
	uint8_t got[LEN];

	request_case_start(&c, "oversized");
	sys = load_object("syscall", c.dev.hid_id);

	/* a kfunc request of 9 bytes gets 9, not the 109 the program claims */
	args.hid_id = c.dev.hid_id;
	args.data[0] = 4;
	CHECK_EQ(hbt_run_syscall(sys, "get_feature", &args, sizeof(args)), 0);
	CHECK_EQ(args.retval, 9);
	CHECK_EQ(args.data[1], 0x33);
	/* hidraw's 64 bytes: 64 */
	CHECK_EQ(ioctl(c.fd, HIDIOCGFEATURE(LEN), got), LEN);
	CHECK_EQ(got[1], 0x33);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_GET_REPORT, -1), 0);
	bpf_object__close(sys);
	request_case_end(&c);
}

static void test_sources_differ_per_opener(void)
{
	struct request_case c;
	uint64_t sa, sb;
	int b;

	request_case_start(&c, "caller");
	answer_feature(&c.dev, 3, 0);
	b = kt_open_hidraw(&c.dev, 0);
	CHECK_EQ(get_feature(c.fd, 3, NULL), 0);
	sa = kt_global_u64(c.obj, "last_source");
	CHECK_EQ(get_feature(b, 3, NULL), 0);
	sb = kt_global_u64(c.obj, "last_source");
	CHECK(sa && sb && sa != sb, "sources %#llx and %#llx", (unsigned long long)sa,
	      (unsigned long long)sb);
	CHECK_EQ(get_feature(c.fd, 3, NULL), 0);
	CHECK_EQ(kt_global_u64(c.obj, "last_source"), sa);
	close(b);
	request_case_end(&c);
}

static void test_output_report_refused_then_works_after_detach(void)
{
	struct request_case c;

	request_case_start(&c, "refuse_output");

	CHECK_EQ(write_output(c.fd, 2), EACCES);
	CHECK_EQ(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 1, QUIET_MS), -ETIMEDOUT);

	CHECK_OK(bpf_link__destroy(c.link));
	CHECK_EQ(write_output(c.fd, 2), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, 2, 1, 2000));
	request_case_end(&c);
}

static void test_output_report_answered_per_opener_by_source(void)
{
	struct request_case c;
	int b;

	request_case_start(&c, "answer_output");
	b = kt_open_hidraw(&c.dev, 0);

	/* the first opener's report is swallowed (reported as sent) */
	CHECK_EQ(write_output(c.fd, 2), 0);
	CHECK_EQ(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 1, QUIET_MS), -ETIMEDOUT);
	/* the second opener's goes to the device */
	CHECK_EQ(write_output(b, 2), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, 2, 1, 2000));
	CHECK_EQ(write_output(c.fd, 2), 0);
	CHECK_EQ(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 2, QUIET_MS), -ETIMEDOUT);
	close(b);
	request_case_end(&c);
}

static void test_output_forward_recursion_gets_edeadlock(void)
{
	struct request_case c;

	request_case_start(&c, "forward_output");

	CHECK_EQ(write_output(c.fd, 2), 0);
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, 2, 1, 2000));
	CHECK_EQ(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 2, QUIET_MS), -ETIMEDOUT);
	CHECK_EQ(kt_global_s32(c.obj, "outer_ret"), LEN);
	CHECK_EQ(kt_global_u64(c.obj, "calls"), 2);
	CHECK_EQ(kt_global_s32(c.obj, "inner_ret"), -EDEADLOCK);
	CHECK(kt_global_u64(c.obj, "inner_source") != 0, "kfunc output had source 0");
	request_case_end(&c);
}

static void test_write_refused_on_output_path_and_set_report_fallback(void)
{
	struct request_case c;
	struct uhid_dev_record rec;
	struct bpf_link *fw, *no_output;

	request_case_start(&c, NULL);
	set_refused_id(c.obj, 2);

	/* Without output reports in the transport, write() is a SET_REPORT. */
	no_output = kt_attach(c.obj, "no_output");
	CHECK_EQ(write_output(c.fd, 2), 0);
	CHECK(uhid_dev_last(&c.dev, UHID_DEV_SET_REPORT, &rec), "fallback SET_REPORT missing");
	CHECK_EQ(rec.rtype, UHID_OUTPUT_REPORT);
	CHECK_EQ(rec.rnum, 2);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, -1), 0);

	/* The firewall refuses it on that path... */
	fw = kt_attach(c.obj, "output_firewall");
	CHECK_EQ(write_output(c.fd, 2), EACCES);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 2), 1);
	/* ...and on the output report path. */
	CHECK_OK(bpf_link__destroy(no_output));
	CHECK_EQ(write_output(c.fd, 2), EACCES);
	CHECK_EQ(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 1, QUIET_MS), -ETIMEDOUT);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 2), 1);
	/* HIDIOCSOUTPUT is a SET_REPORT too */
	{
		uint8_t buf[LEN] = { 2 };

		CHECK_EQ(ioctl(c.fd, HIDIOCSOUTPUT(LEN), buf), -1);
		CHECK_EQ(errno, EACCES);
	}
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 2), 1);
	CHECK_OK(bpf_link__destroy(fw));
	request_case_end(&c);
}

/* A keyboard whose output report 2 carries the LEDs: the kernel sends it
 * by itself when an LED changes. */
static const uint8_t led_keyboard_rdesc[] = {
	0x05, 0x01,		/* Usage Page (Generic Desktop) */
	0x09, 0x06,		/* Usage (Keyboard) */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, 0x01,		/*   Report ID (1) */
	0x05, 0x07,		/*   Usage Page (Keyboard) */
	0x19, 0xe0, 0x29, 0xe7,	/*   Usage Minimum/Maximum (modifiers) */
	0x15, 0x00, 0x25, 0x01,	/*   Logical Minimum (0), Maximum (1) */
	0x75, 0x01, 0x95, 0x08,	/*   Report Size (1), Count (8) */
	0x81, 0x02,		/*   Input (Data,Var,Abs) */
	0x85, 0x02,		/*   Report ID (2) */
	0x05, 0x08,		/*   Usage Page (LEDs) */
	0x19, 0x01, 0x29, 0x05,	/*   Usage Minimum (1), Maximum (5) */
	0x95, 0x05,		/*   Report Count (5) */
	0x91, 0x02,		/*   Output (Data,Var,Abs) */
	0x95, 0x01, 0x75, 0x03,	/*   Report Count (1), Size (3) */
	0x91, 0x01,		/*   Output (Const) */
	0xc0,			/* End Collection */
};

/* The evdev node of a HID device's input device. */
static int open_event_node(struct uhid_dev *dev)
{
	char path[512];
	struct dirent *de;
	DIR *d;

	for (int i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "%s/input", dev->syspath);
		d = opendir(path);
		while (d && (de = readdir(d))) {
			char sub[800];
			struct dirent *e;
			DIR *in;

			if (strncmp(de->d_name, "input", 5))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			in = opendir(sub);
			while (in && (e = readdir(in))) {
				if (!strncmp(e->d_name, "event", 5)) {
					snprintf(path, sizeof(path), "/dev/input/%s", e->d_name);
					closedir(in);
					closedir(d);
					return open(path, O_RDWR | O_CLOEXEC);
				}
			}
			if (in)
				closedir(in);
		}
		if (d)
			closedir(d);
		usleep(20000);
	}
	return -ENOENT;
}

static void test_kernel_issued_output_report_has_source_0(void)
{
	struct input_event ev[2] = {
		{ .type = EV_LED, .code = LED_CAPSL, .value = 1 },
		{ .type = EV_SYN, .code = SYN_REPORT },
	};
	struct uhid_dev_record rec;
	struct bpf_object *obj;
	struct uhid_dev dev;
	int fd;

	kt_make_device(&dev, "LED keyboard", led_keyboard_rdesc, sizeof(led_keyboard_rdesc));
	obj = load_requests(dev.hid_id);
	kt_attach(obj, "output_source");
	CHECK_OK(hbt_write_global(obj, "last_source", &(uint64_t){ 0xdead }, sizeof(uint64_t)));
	fd = open_event_node(&dev);
	CHECK_OK(fd);

	CHECK_EQ(write(fd, ev, sizeof(ev)), sizeof(ev));
	CHECK_OK(uhid_dev_wait_count(&dev, UHID_DEV_OUTPUT, 2, 1, 2000));
	CHECK(uhid_dev_last(&dev, UHID_DEV_OUTPUT, &rec), "no LED report");
	CHECK_EQ(rec.data[1] & 0x02, 0x02);	/* Caps Lock is LED usage 2 */
	CHECK(kt_global_u64(obj, "calls") >= 1, "hook not called");
	CHECK_EQ(kt_global_u64(obj, "last_source"), 0);
	close(fd);
	bpf_object__close(obj);
	uhid_dev_destroy(&dev);
}

/* A mouse whose wheel has a Resolution Multiplier, in feature report 2
 * with a second field: hid-input asks for that report while it probes. */
static const uint8_t multiplier_mouse_rdesc[] = {
	0x05, 0x01,		/* Usage Page (Generic Desktop) */
	0x09, 0x02,		/* Usage (Mouse) */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, 0x01,		/*   Report ID (1) */
	0x09, 0x01,		/*   Usage (Pointer) */
	0xa1, 0x00,		/*   Collection (Physical) */
	0x05, 0x09,		/*     Usage Page (Button) */
	0x19, 0x01, 0x29, 0x03,	/*     Usage Minimum (1), Maximum (3) */
	0x15, 0x00, 0x25, 0x01,	/*     Logical Minimum (0), Maximum (1) */
	0x95, 0x03, 0x75, 0x01,	/*     Report Count (3), Size (1) */
	0x81, 0x02,		/*     Input (Data,Var,Abs) */
	0x95, 0x01, 0x75, 0x05,	/*     Report Count (1), Size (5) */
	0x81, 0x01,		/*     Input (Const) */
	0x05, 0x01,		/*     Usage Page (Generic Desktop) */
	0x09, 0x30, 0x09, 0x31,	/*     Usage (X), Usage (Y) */
	0x09, 0x38,		/*     Usage (Wheel) */
	0x15, 0x81, 0x25, 0x7f,	/*     Logical Minimum (-127), Maximum (127) */
	0x75, 0x08, 0x95, 0x03,	/*     Report Size (8), Count (3) */
	0x81, 0x06,		/*     Input (Data,Var,Rel) */
	0xc0,			/*   End Collection */
	0x85, 0x02,		/*   Report ID (2) */
	0x09, 0x48,		/*   Usage (Resolution Multiplier) */
	0x15, 0x00, 0x25, 0x01,	/*   Logical Minimum (0), Maximum (1) */
	0x35, 0x01, 0x45, 0x04,	/*   Physical Minimum (1), Maximum (4) */
	0x75, 0x02, 0x95, 0x01,	/*   Report Size (2), Count (1) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0x09, 0x3b,		/*   Usage (Byte Count) */
	0x35, 0x00, 0x45, 0x00,	/*   Physical Minimum (0), Maximum (0) */
	0x75, 0x06,		/*   Report Size (6) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0xc0,			/* End Collection */
};

/*
 * A request hook runs for a driver's request during probe, with the device
 * lock held: a kfunc request from it must not wait for that lock. The
 * device answers the program's request and then the kernel's.
 */
static void test_sleepable_request_hook_can_call_request_kfunc_during_probe(void)
{
	const uint8_t reply[2] = { 2, 0x01 };
	struct bpf_object *obj;
	struct uhid_dev dev;

	kt_make_device(&dev, "multiplier mouse", multiplier_mouse_rdesc,
		       sizeof(multiplier_mouse_rdesc));
	uhid_dev_set_get_reply(&dev, 2, reply, sizeof(reply), 0);
	obj = load_requests(dev.hid_id);
	kt_attach(obj, "request_in_probe");	/* reprobes: hid-input asks */

	CHECK(kt_global_u32(obj, "probe_requests") >= 1, "hook did not run in probe");
	CHECK_EQ(kt_global_s32(obj, "probe_request_ret"), 2);
	CHECK(uhid_dev_count(&dev, UHID_DEV_GET_REPORT, 2) >= 2,
	      "the device saw %lu GET_REPORT 2",
	      uhid_dev_count(&dev, UHID_DEV_GET_REPORT, 2));
	bpf_object__close(obj);
	uhid_dev_destroy(&dev);
}

static void on_interrupt(int sig)
{
	(void)sig;
}

/*
 * Send SIGUSR1 to this process after SECONDS, so that a task waiting
 * interruptibly in the kernel gives up (-EINTR) instead of hanging the test.
 */
static timer_t arm_interrupt(unsigned int seconds)
{
	struct sigaction sa = { .sa_handler = on_interrupt };
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec when = { .it_value.tv_sec = seconds };
	timer_t timer;

	CHECK_OK(sigaction(SIGUSR1, &sa, NULL));	/* no SA_RESTART */
	CHECK_OK(timer_create(CLOCK_MONOTONIC, &sev, &timer));
	CHECK_OK(timer_settime(timer, 0, &when, NULL));
	return timer;
}

/*
 * While hid-input probes the mouse it holds the device's input lock and
 * asks for feature report 2; a sleepable request hook that injects an input
 * report from that request must be told at once (-EDEADLOCK, as for recursion) instead of
 * waiting for the lock its own task holds. A timer interrupts the wait on a
 * kernel that does wait, so that the case fails instead of hanging.
 */
static void test_input_report_from_a_request_in_probe_does_not_wait_for_itself(void)
{
	const uint8_t reply[2] = { 2, 0x01 };
	struct bpf_object *obj;
	struct uhid_dev dev;
	timer_t timer;
	int ret;

	kt_make_device(&dev, "multiplier mouse", multiplier_mouse_rdesc,
		       sizeof(multiplier_mouse_rdesc));
	uhid_dev_set_get_reply(&dev, 2, reply, sizeof(reply), 0);
	obj = load_requests(dev.hid_id);
	timer = arm_interrupt(5);
	kt_attach(obj, "inject_in_probe");	/* reprobes: hid-input asks */
	timer_delete(timer);

	CHECK(kt_global_u32(obj, "probe_injections") >= 1, "hook did not run in probe");
	ret = kt_global_s32(obj, "probe_inject_ret");
	if (ret == -EINTR && kt_is_upstream())
		SKIP("upstream HID-BPF waits for the input lock its own probe holds, until "
		     "a signal; kernel/upstream/0006 fixes it");
	CHECK_EQ(ret, -EDEADLOCK);
	/* the probe itself went on: the kernel's request reached the device */
	CHECK(uhid_dev_count(&dev, UHID_DEV_GET_REPORT, 2) >= 1,
	      "the device saw no GET_REPORT 2");
	bpf_object__close(obj);
	uhid_dev_destroy(&dev);
}

static void test_sleepable_device_event_refused(void)
{
	struct bpf_object *obj = hbt_open("sleepable_event", 1, NULL, 0);
	struct bpf_program *prog;

	CHECK(obj, "opening sleepable_event.bpf.o: %m");
	bpf_object__for_each_program(prog, obj)
		CHECK_OK(bpf_program__set_flags(prog, BPF_F_SLEEPABLE));
	CHECK(bpf_object__load(obj) < 0, "a sleepable hid_device_event loaded");
	bpf_object__close(obj);
}

static const struct test_case tests[] = {
	{ "get_feature_refused_with_errno_then_works_after_detach",
	  test_get_feature_refused_with_errno_then_works_after_detach },
	{ "refused_set_feature_id_blocks_only_that_id",
	  test_refused_set_feature_id_blocks_only_that_id },
	{ "request_answered_per_opener_by_source",
	  test_request_answered_per_opener_by_source },
	{ "sleepable_hook_forwards_and_recursion_gets_edeadlock",
	  test_sleepable_hook_forwards_and_recursion_gets_edeadlock },
	{ "program_decides_on_payload_byte", test_program_decides_on_payload_byte },
	{ "pid_helpers_name_the_calling_process",
	  test_pid_helpers_name_the_calling_process },
	{ "task_helpers_name_the_calling_process",
	  test_task_helpers_name_the_calling_process },
	{ "uid_and_comm_helpers_are_refused_as_upstream_refuses",
	  test_uid_and_comm_helpers_are_refused_as_upstream_refuses },
	{ "oversized_answer_is_clamped_to_the_request_length",
	  test_oversized_answer_is_clamped_to_the_request_length },
	{ "sources_differ_per_opener", test_sources_differ_per_opener },
	{ "output_report_refused_then_works_after_detach",
	  test_output_report_refused_then_works_after_detach },
	{ "output_report_answered_per_opener_by_source",
	  test_output_report_answered_per_opener_by_source },
	{ "output_forward_recursion_gets_edeadlock",
	  test_output_forward_recursion_gets_edeadlock },
	{ "write_refused_on_output_path_and_set_report_fallback",
	  test_write_refused_on_output_path_and_set_report_fallback },
	{ "kernel_issued_output_report_has_source_0",
	  test_kernel_issued_output_report_has_source_0 },
	{ "sleepable_request_hook_can_call_request_kfunc_during_probe",
	  test_sleepable_request_hook_can_call_request_kfunc_during_probe },
	{ "input_report_from_a_request_in_probe_does_not_wait_for_itself",
	  test_input_report_from_a_request_in_probe_does_not_wait_for_itself },
	{ "sleepable_device_event_refused", test_sleepable_device_event_refused },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "kernel-requests", tests, ARRAY_SIZE(tests));
}
