// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-to-end: requests another HID-BPF program sends to a guarded device
 * through the kfuncs (hid_bpf_hw_request(), hid_bpf_hw_output_report())
 * meet the same rules as hidraw's, on every test kernel.
 *
 * The kernels differ on an unnumbered report. Up to 6.12 (and the port)
 * the kfuncs cut the caller's buffer to the report's length without its
 * report number byte, so the device gets the report number and all but
 * the last data byte; 7.x reserves the report number byte (upstream
 * __hid_bpf_hw_check_params(), for hid_hw_request and output reports), so
 * the device gets every byte. The firewall sees what the device gets, on
 * each kernel: a rule on a data byte both send is decided the same on all
 * three, and a rule on the last byte refuses it wherever the byte would
 * reach the device. Each case checks the kfunc's return, what the device
 * received (its length names the kernel's behaviour, so a kernel that
 * changes it again fails here), and the audit record (source "bpf", not
 * "hidraw"). 6.12 also tells the calling program a refused SET_REPORT
 * went through (see refused_set_report_ret()): the decision and the
 * device are checked apart from that return.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/hidraw.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "kfunc_requests.h"
#include "kfunc_requests.skel.h"
#include "policyd_case.h"
#include "uhid_dev.h"

static enum test_dev_backend backend;

/* Unnumbered input, output and feature reports of 8 bytes each. */
static const uint8_t unnumbered_rdesc[] = {
	0x06, 0x00, 0xff,	/* Usage Page (Vendor Defined 0xFF00) */
	0x09, 0x01,		/* Usage (0x01) */
	0xa1, 0x01,		/* Collection (Application) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x08,		/*   Report Count (8) */
	0x09, 0x02,		/*   Usage (0x02) */
	0x81, 0x02,		/*   Input (Data,Var,Abs) */
	0x09, 0x03,		/*   Usage (0x03) */
	0x91, 0x02,		/*   Output (Data,Var,Abs) */
	0x09, 0x04,		/*   Usage (0x04) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0xc0,			/* End Collection */
};

/* Offsets are those of hidraw's buffer: byte 0 the report number 0, the
 * report's 8 data bytes at 1 to 8. */
static const char policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"name\": \"unnumbered\",\n"
	"    \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x5703\" },\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"feature-command-0x90\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": 0,\n"
	"        \"payload\": [ { \"offset\": 1, \"value\": \"0x90\" } ], \"action\": \"deny\" },\n"
	"      { \"name\": \"output-command-0x90\", \"request\": \"output_report\",\n"
	"        \"report_id\": 0,\n"
	"        \"payload\": [ { \"offset\": 1, \"value\": \"0x90\" } ], \"action\": \"deny\" },\n"
	"      { \"name\": \"feature-last-byte-0x77\", \"request\": \"set_report\",\n"
	"        \"report_type\": \"feature\", \"report_id\": 0,\n"
	"        \"payload\": [ { \"offset\": 8, \"value\": \"0x77\" } ], \"action\": \"deny\" },\n"
	"      { \"name\": \"output-last-byte-0x77\", \"request\": \"output_report\",\n"
	"        \"report_id\": 0,\n"
	"        \"payload\": [ { \"offset\": 8, \"value\": \"0x77\" } ], \"action\": \"deny\" }\n"
	"    ] } ] }\n";

static struct uhid_dev_config device(void)
{
	return (struct uhid_dev_config){
		.backend = backend,
		.name = "unnumbered reports",
		.vendor = 0x1234,
		.product = 0x5703,
		.rdesc = unnumbered_rdesc,
		.rdesc_size = sizeof(unnumbered_rdesc),
	};
}

/* The test kernels, as far as the kfuncs differ. */
enum kernel {
	KERNEL_PORT,		/* 6.1 with kernel/'s HID-BPF core */
	KERNEL_6_12,		/* upstream, upstream-fixed */
	KERNEL_7,		/* latest, latest-fixed */
};

/* Told by the test run (scripts/test.sh), else by the release. */
static enum kernel kernel(void)
{
	const char *name = getenv("HID_POLICY_KERNEL_NAME");
	struct utsname u;

	if (name && *name) {
		if (!strcmp(name, "port"))
			return KERNEL_PORT;
		return strncmp(name, "latest", 6) ? KERNEL_6_12 : KERNEL_7;
	}
	CHECK_OK(uname(&u));
	if (!strncmp(u.release, "6.1.", 4))
		return KERNEL_PORT;
	return atoi(u.release) >= 7 ? KERNEL_7 : KERNEL_6_12;
}

/* Does the kfunc keep the report number byte of an unnumbered report? */
static bool kfunc_keeps_report_number(void)
{
	return kernel() == KERNEL_7;
}

/* What the device gets of KFUNC_REQ_LEN bytes: all of them, or all but
 * the last. */
static uint16_t delivered_len(void)
{
	return kfunc_keeps_report_number() ? KFUNC_REQ_LEN : KFUNC_REQ_LEN - 1;
}

/*
 * What hid_bpf_hw_request() returns for a SET_REPORT the firewall refused.
 * 6.12 compares the int it got from the transport with the size_t length
 * ("if (ret > size) ret = size;"), so -EPERM becomes the length and the
 * calling program is told the request went through, though the firewall
 * refused it and the device got nothing; 7.x compares as signed (ssize_t)
 * and returns -EPERM, as the port does. hid_bpf_hw_output_report() returns
 * -EPERM on all three.
 */
static int refused_set_report_ret(void)
{
	return kernel() == KERNEL_6_12 ? (int)delivered_len() : -EPERM;
}

/* Run PROG on the device with DATA; the kfunc's return. */
static int run(struct bpf_program *prog, const struct uhid_dev *dev,
	       const uint8_t data[KFUNC_REQ_LEN])
{
	struct kfunc_request_args args = { .hid_id = dev->hid_id };
	/* a syscall program's ctx_in is copied back when it returns */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args, .ctx_size_in = sizeof(args));

	memcpy(args.data, data, KFUNC_REQ_LEN);
	CHECK_OK(bpf_prog_test_run_opts(bpf_program__fd(prog), &opts));
	CHECK_EQ((int)opts.retval, 0);
	return args.retval;
}

static size_t denials(struct policyd_case *c, const char *rule, size_t want)
{
	char hid_id[32], name[64];
	const char *filters[] = { hid_id, name, "enforced=true", NULL };

	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c->dev.hid_id);
	snprintf(name, sizeof(name), "rule.name=%s", rule);
	return policyd_audit_count(&c->run, filters, want, 3000);
}

/* Those of them told as made by SOURCE ("hidraw", "bpf"). */
static size_t denials_from(struct policyd_case *c, const char *rule, const char *source,
			   size_t want)
{
	char hid_id[32], name[64], from[32];
	const char *filters[] = { hid_id, name, from, "enforced=true", NULL };

	snprintf(hid_id, sizeof(hid_id), "device.hid_id=%d", c->dev.hid_id);
	snprintf(name, sizeof(name), "rule.name=%s", rule);
	snprintf(from, sizeof(from), "process.source=%s", source);
	return policyd_audit_count(&c->run, filters, want, 3000);
}

/* One daemon for both cases, which only differ in what they send. */
POLICYD_SHARED_FIXTURE(shared_daemon, policy);

static struct kfunc_requests_bpf *open_programs(void)
{
	struct kfunc_requests_bpf *skel = kfunc_requests_bpf__open_and_load();

	CHECK(skel, "loading kfunc_requests.bpf.o: %s", strerror(errno));
	return skel;
}

/* A command in the first data byte is refused through either kfunc on
 * every kernel, and nothing reaches the device; another command passes,
 * and the device gets what the kernel sends of it. */
static void test_a_command_byte_is_decided_alike_on_every_kernel(void)
{
	struct uhid_dev_config cfg = device();
	struct kfunc_requests_bpf *skel = open_programs();
	const uint8_t refused[KFUNC_REQ_LEN] = { 0x00, 0x90, 0x04 };
	const uint8_t passed[KFUNC_REQ_LEN] = { 0x00, 0x11, 0x04 };
	uint8_t buf[KFUNC_REQ_LEN];
	struct uhid_dev_record r;
	struct policyd_case c;

	policyd_case_start_on(&c, &shared_daemon_run, &cfg);

	/* hidraw's request, as the rule was written for */
	memcpy(buf, refused, KFUNC_REQ_LEN);
	CHECK(ioctl(c.fd, HIDIOCSFEATURE(KFUNC_REQ_LEN), buf) < 0 && errno == EPERM,
	      "hidraw's SET_REPORT was not refused");
	CHECK_EQ(run(skel->progs.set_feature, &c.dev, refused), refused_set_report_ret());
	CHECK_EQ(run(skel->progs.output_report, &c.dev, refused), -EPERM);
	CHECK_EQ(denials(&c, "feature-command-0x90", 2), 2);
	CHECK_EQ(denials(&c, "output-command-0x90", 1), 1);
	/* the records tell the program's requests from hidraw's */
	CHECK_EQ(denials_from(&c, "feature-command-0x90", "hidraw", 1), 1);
	CHECK_EQ(denials_from(&c, "feature-command-0x90", "bpf", 1), 1);
	CHECK_EQ(denials_from(&c, "output-command-0x90", "bpf", 1), 1);
	usleep(200 * 1000);	/* output reports reach uhid asynchronously */
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, -1), 0);

	CHECK(run(skel->progs.set_feature, &c.dev, passed) >= 0, "SET_REPORT was refused");
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0, 1, 3000));
	CHECK(run(skel->progs.output_report, &c.dev, passed) >= 0, "the output report was refused");
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 1, 3000));
	usleep(200 * 1000);	/* output reports reach uhid asynchronously */
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 1);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, -1), 1);

	CHECK(uhid_dev_last(&c.dev, UHID_DEV_SET_REPORT, &r), "no SET_REPORT record");
	CHECK_EQ(r.size, delivered_len());
	CHECK_EQ(r.data[1], 0x11);
	CHECK(uhid_dev_last(&c.dev, UHID_DEV_OUTPUT, &r), "no output record");
	CHECK_EQ(r.size, delivered_len());
	CHECK_EQ(r.data[1], 0x11);

	policyd_case_end(&c);
	kfunc_requests_bpf__destroy(skel);
}

/* 0x77 in the last data byte: a kernel that sends the byte has it refused;
 * one that cuts it off sends the rest, which the rule does not concern.
 * On every kernel the device never gets a report with that byte. */
static void test_the_last_data_byte_is_decided_on_what_the_device_gets(void)
{
	struct uhid_dev_config cfg = device();
	struct kfunc_requests_bpf *skel = open_programs();
	const uint8_t last[KFUNC_REQ_LEN] = { 0x00, 0x11, [8] = 0x77 };
	struct uhid_dev_record r;
	struct policyd_case c;
	int set, out;

	policyd_case_start_on(&c, &shared_daemon_run, &cfg);

	set = run(skel->progs.set_feature, &c.dev, last);
	out = run(skel->progs.output_report, &c.dev, last);
	usleep(200 * 1000);	/* output reports reach uhid asynchronously */
	if (kfunc_keeps_report_number()) {
		CHECK_EQ(set, refused_set_report_ret());
		CHECK_EQ(out, -EPERM);
		CHECK_EQ(denials(&c, "feature-last-byte-0x77", 1), 1);
		CHECK_EQ(denials(&c, "output-last-byte-0x77", 1), 1);
		CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, -1), 0);
		CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, -1), 0);
	} else {
		CHECK(set >= 0, "SET_REPORT was refused: %d", set);
		CHECK(out >= 0, "the output report was refused: %d", out);
		CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0, 1, 3000));
		CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, -1, 1, 3000));
		CHECK(uhid_dev_last(&c.dev, UHID_DEV_SET_REPORT, &r), "no SET_REPORT record");
		CHECK_EQ(r.size, KFUNC_REQ_LEN - 1);
		CHECK(uhid_dev_last(&c.dev, UHID_DEV_OUTPUT, &r), "no output record");
		CHECK_EQ(r.size, KFUNC_REQ_LEN - 1);
		CHECK_EQ(denials(&c, "feature-last-byte-0x77", 0), 0);
		CHECK_EQ(denials(&c, "output-last-byte-0x77", 0), 0);
	}

	policyd_case_end(&c);
	kfunc_requests_bpf__destroy(skel);
}

int main(int argc, char **argv)
{
	static const struct test_case tests[] = {
		{ "a_command_byte_is_decided_alike_on_every_kernel",
		  test_a_command_byte_is_decided_alike_on_every_kernel, 0, &shared_daemon },
		{ "the_last_data_byte_is_decided_on_what_the_device_gets",
		  test_the_last_data_byte_is_decided_on_what_the_device_gets, 0, &shared_daemon },
	};
	int failed;

	failed = test_main(argc, argv, "e2e-kfunc-requests", tests, ARRAY_SIZE(tests));
	backend = TEST_DEV_USB;
	failed |= test_main(argc, argv, "e2e-kfunc-requests/usb", tests, ARRAY_SIZE(tests));
	return failed;
}
