// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules naming a HID++ 2.0 feature ("hidpp_feature"), in force with the
 * indexes the device itself told the daemon: a replica of a Logitech
 * receiver (046D:C548) that answers IRoot getFeature as a receiver does
 * (HID++ 1.0 at 0xFF, its paired devices at 1-6), on uhid and on USB.
 * The paired devices answer as HID++ 2.0 firmware does (tests/lib/
 * hidpp_replica.h), the receiver for itself as HID++ 1.0.
 * Checks: the daemon asks, with software ID 0; the feature's index is
 * refused at the device index that has it and another feature's passes; a
 * device index that has not answered refuses everything but IRoot; a
 * receiver's connection notification has the device asked again, and its
 * bootloader's table is in force next; a flood of notifications on a live
 * link keeps the answers in force and is checked less and less often; the
 * answers follow the device through unbind, bind and a reload; a question
 * with software ID 0 from another program, root's included, is refused
 * (it could pose as the device's answer to the daemon).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "hidpp_replica.h"
#include "policyd_case.h"

#define DFU	0x00d0
#define RDFU	0x00d1

static enum test_dev_backend backend;

/* Vendor page 0xFF00: reports 0x10 (6 bytes) and 0x11 (19 bytes), input
 * and output, as a receiver's HID++ interface declares them. */
static const uint8_t receiver_rdesc[] = {
	0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01,
	0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08,
	0x85, 0x10, 0x95, 0x06, 0x09, 0x01, 0x81, 0x00, 0x09, 0x01, 0x91, 0x00,
	0x85, 0x11, 0x95, 0x13, 0x09, 0x02, 0x81, 0x00, 0x09, 0x02, 0x91, 0x00,
	0xc0,
};

static const char policy[] =
	"{ \"version\": 1, \"devices\": [ {\n"
	"    \"name\": \"receiver\", \"match\": [ { \"vendor\": \"0x046d\", \"product\": \"0xc548\" } ],\n"
	"    \"default\": \"allow\",\n"
	"    \"rules\": [\n"
	"      { \"name\": \"no-dfu\", \"request\": [\"output_report\", \"set_report\"],\n"
	"        \"report_type\": \"output\", \"report_id\": [\"0x10\", \"0x11\"],\n"
	"        \"hidpp_feature\": [\"0x00D0\", \"0x00D1\"],\n"
	"        \"action\": \"deny\" }\n"
	"    ] } ] }\n";

/* What each device index answers: its index of DFU and RDFU, or silence. */
struct paired {
	bool awake;
	uint8_t dfu, rdfu;
};

struct receiver {
	pthread_mutex_t lock;
	struct paired devices[7];	/* [0]: unused (0xFF is the receiver) */
	atomic_uint questions_sw0;	/* HID++ 2.0 questions with software ID 0 */
	atomic_uint rounds[7];		/* the daemon's pings, per device index */
};

static struct receiver receiver;

/* 16 features after IRoot, DFU and RDFU where P has them (0: absent). */
static void paired_table(const struct paired *p, struct hidpp_table *t)
{
	uint16_t placed[2];
	uint8_t at[2];
	size_t n = 0;

	if (p->dfu) {
		placed[n] = DFU;
		at[n++] = p->dfu;
	}
	if (p->rdfu) {
		placed[n] = RDFU;
		at[n++] = p->rdfu;
	}
	hidpp_table_make(t, 16, placed, at, n);
}

static void answer(struct uhid_dev *dev, const uint8_t *q, size_t len)
{
	struct hidpp_table table;
	uint8_t r[20] = {};
	struct paired p = {};
	size_t n;

	if (len < 7 || (q[0] != 0x10 && q[0] != 0x11))
		return;
	if ((q[3] & 0x0f) == 0 && q[2] < 0x80) {
		atomic_fetch_add(&receiver.questions_sw0, 1);
		if (q[2] == 0x00 && q[3] == 0x10 && q[1] >= 1 && q[1] <= 6)
			atomic_fetch_add(&receiver.rounds[q[1]], 1);
	}
	if (q[1] == 0xff) {
		/* the receiver speaks HID++ 1.0 */
		if (q[2] < 0x80)
			uhid_dev_send_input(dev, r, hidpp_replica_error10(q, 0x01, r));
		return;
	}
	if (q[1] < 1 || q[1] > 6)
		return;
	pthread_mutex_lock(&receiver.lock);
	p = receiver.devices[q[1]];
	pthread_mutex_unlock(&receiver.lock);
	if (!p.awake) {
		/* 1: its device asleep, silent; 3-6: nothing paired */
		if (q[1] != 1)
			uhid_dev_send_input(dev, r, hidpp_replica_error10(q, 0x09, r));
		return;
	}
	paired_table(&p, &table);
	n = hidpp_replica_answer(&table, q, len, r);
	if (n)
		uhid_dev_send_input(dev, r, n);
}

static void on_request(struct uhid_dev *dev, const struct uhid_dev_record *req, void *userdata)
{
	if (req->request == UHID_DEV_OUTPUT ||
	    (req->request == UHID_DEV_SET_REPORT && req->rtype == UHID_OUTPUT_REPORT))
		answer(dev, req->data, req->size);
}

static void receiver_reset(void)
{
	pthread_mutex_lock(&receiver.lock);
	memset(receiver.devices, 0, sizeof(receiver.devices));
	/* 2: running, RDFU at 0x0d; 1: asleep; 3-6: nothing paired */
	receiver.devices[2] = (struct paired){ .awake = true, .dfu = 0, .rdfu = 0x0d };
	pthread_mutex_unlock(&receiver.lock);
	atomic_store(&receiver.questions_sw0, 0);
	for (int i = 0; i < 7; i++)
		atomic_store(&receiver.rounds[i], 0);
}

static struct uhid_dev_config receiver_config(void)
{
	return (struct uhid_dev_config){
		.backend = backend,
		.name = "Logitech USB Receiver (replica)",
		.vendor = 0x046d, .product = 0xc548,
		.rdesc = receiver_rdesc, .rdesc_size = sizeof(receiver_rdesc),
		.on_request = on_request,
	};
}

/* The replica answers IRoot alone: hid-generic must bind it, not
 * hid-logitech-dj (which binds a receiver on USB and asks it much more).
 * Solaar and fwupd read a receiver's node with either bound. */
static void start_receiver(struct policyd_case *c)
{
	struct uhid_dev_config cfg = receiver_config();
	bool generic_only = test_dev_generic_driver_only_now();

	receiver_reset();
	CHECK_OK(test_dev_generic_driver_only(true));
	policyd_case_start(c, &cfg, policy);
	CHECK_OK(test_dev_generic_driver_only(generic_only));
}

/* Write a long HID++ message to DEVICE's FEATURE index, function 1
 * (software ID 7, as fwupd); 0 or the errno. */
static int send_long(int fd, uint8_t device, uint8_t feature, uint8_t function_sw)
{
	uint8_t m[20] = { 0x11, device, feature, function_sw, 0x01, 0x02, 0x03 };

	return write(fd, m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : errno;
}

/* Until TIMEOUT_MS: wait for a message to DEVICE's FEATURE index to
 * pass (the daemon has its answers). When it does not, say what the
 * daemon said and what reached the device. */
static int wait_passes(struct policyd_case *c, uint8_t device, uint8_t feature, int timeout_ms)
{
	char text[4096];
	ssize_t n;
	int r = -1;

	for (int waited = 0; waited < timeout_ms; waited += 50) {
		r = send_long(c->fd, device, feature, 0x17);
		if (r == 0)
			return 0;
		usleep(50000);
	}
	n = read_file(c->run.stderr_log, text, sizeof(text) - 1);
	text[n > 0 ? n : 0] = '\0';
	test_log("the device got %lu output reports, %lu SET_REPORTs, %u questions with software ID 0; the daemon said:\n%s",
		 uhid_dev_count(&c->dev, UHID_DEV_OUTPUT, -1),
		 uhid_dev_count(&c->dev, UHID_DEV_SET_REPORT, -1),
		 atomic_load(&receiver.questions_sw0), text);
	return r;
}

static void set_paired(uint8_t index, struct paired p)
{
	pthread_mutex_lock(&receiver.lock);
	receiver.devices[index] = p;
	pthread_mutex_unlock(&receiver.lock);
}

/* The device at INDEX connects as P: the receiver announces it. */
static void device_connects(struct policyd_case *c, uint8_t index, struct paired p)
{
	const uint8_t connected[7] = { 0x10, index, 0x41, 0x04, 0x02, 0x4d, 0x40 };

	set_paired(index, p);
	CHECK_OK(uhid_dev_send_input(&c->dev, connected, sizeof(connected)));
}

static void features_are_refused_where_the_device_said_they_are(void)
{
	struct policyd_case c;

	start_receiver(&c);
	/* 2 answered: RDFU at 0x0d; another feature there passes */
	CHECK_EQ(wait_passes(&c, 0x02, 0x05, 5000 * test_slow_factor()), 0);
	CHECK(atomic_load(&receiver.questions_sw0) > 0, "the daemon asked nothing with software ID 0");
	/* and says what the device told */
	CHECK(policyd_said(&c.run, "): HID++ feature indexes it told: 0xff: 0x00d0 none, 0x00d1 none; 2: 0x00d0 none, 0x00d1 at 0x0d; unknown: 1, 3, 4, 5, 6", 2000),
	      "the daemon did not log what the receiver told");
	CHECK_EQ(send_long(c.fd, 0x02, 0x0d, 0x17), EPERM);
	CHECK_EQ(send_long(c.fd, 0x02, 0x0d, 0x47), EPERM);
	CHECK_EQ(send_long(c.fd, 0x02, 0x0e, 0x17), 0);
	/* 1 (asleep) and 3 (nothing paired) did not answer: all but IRoot
	 * refused there; IRoot passes (with a client's software ID) */
	CHECK_EQ(send_long(c.fd, 0x01, 0x05, 0x17), EPERM);
	CHECK_EQ(send_long(c.fd, 0x03, 0x0d, 0x17), EPERM);
	CHECK_EQ(send_long(c.fd, 0x01, 0x00, 0x07), 0);
	/* the receiver itself answered as HID++ 1.0: its registers pass */
	CHECK_EQ(send_long(c.fd, 0xff, 0x83, 0xb5), 0);
	/* what was refused never reached the device (output reports reach
	 * it after write() returned: the earlier ones first) */
	usleep(500000);
	uhid_dev_clear(&c.dev);
	CHECK_EQ(send_long(c.fd, 0x02, 0x0d, 0x37), EPERM);
	CHECK_EQ(send_long(c.fd, 0x02, 0x0e, 0x37), 0);
	/* output reports reach the device after write() returned */
	CHECK_OK(uhid_dev_wait_count(&c.dev, UHID_DEV_OUTPUT, 0x11, 1, 2000) == 0 ||
		 uhid_dev_wait_count(&c.dev, UHID_DEV_SET_REPORT, 0x11, 1, 2000) == 0 ? 0 : -ETIMEDOUT);
	CHECK_EQ(uhid_dev_count(&c.dev, UHID_DEV_OUTPUT, 0x11) +
		 uhid_dev_count(&c.dev, UHID_DEV_SET_REPORT, 0x11), 1);
	policyd_case_end(&c);
}

static void a_device_that_connects_is_asked_and_its_bootloader_table_is_in_force(void)
{
	struct policyd_case c;

	start_receiver(&c);
	CHECK_EQ(wait_passes(&c, 0x02, 0x05, 5000 * test_slow_factor()), 0);
	CHECK_EQ(send_long(c.fd, 0x01, 0x03, 0x17), EPERM);

	/* device 1 wakes up in its bootloader: DFU at 0x03 */
	device_connects(&c, 0x01, (struct paired){ .awake = true, .dfu = 0x03 });
	CHECK_EQ(wait_passes(&c, 0x01, 0x05, 5000 * test_slow_factor()), 0);
	CHECK_EQ(send_long(c.fd, 0x01, 0x03, 0x17), EPERM);
	/* RDFU's old index at 2 is still refused, 2's others pass */
	CHECK_EQ(send_long(c.fd, 0x02, 0x0d, 0x17), EPERM);
	CHECK_EQ(send_long(c.fd, 0x02, 0x03, 0x17), 0);
	policyd_case_end(&c);
}

/* Device 2 gets new firmware (RDFU at 0x0e) while its receiver is
 * unbound, device 1 wakes up in its bootloader while the daemon reloads:
 * the answers after each are in force, and a question the unbind cut off
 * leaves nothing stale behind. */
static void the_answers_follow_the_device_through_unbind_bind_and_a_reload(void)
{
	struct policyd_case c;
	unsigned int asked;

	start_receiver(&c);
	CHECK_EQ(wait_passes(&c, 0x02, 0x05, 5000 * test_slow_factor()), 0);
	CHECK_EQ(send_long(c.fd, 0x02, 0x0d, 0x17), EPERM);

	set_paired(0x02, (struct paired){ .awake = true, .rdfu = 0x0e });
	asked = atomic_load(&receiver.questions_sw0);
	close(c.fd);
	CHECK_OK(uhid_dev_unbind(&c.dev, "hid-generic"));
	CHECK_OK(uhid_dev_bind(&c.dev, "hid-generic", 5000 * test_slow_factor()));
	c.fd = uhid_dev_open_hidraw(&c.dev, 0);
	CHECK(c.fd >= 0, "the hidraw node is not back after bind");
	/* asked again: 0x0d is an ordinary feature now, 0x0e is RDFU */
	CHECK_EQ(wait_passes(&c, 0x02, 0x0d, 5000 * test_slow_factor()), 0);
	CHECK(atomic_load(&receiver.questions_sw0) > asked, "the daemon did not ask again after bind");
	CHECK_EQ(send_long(c.fd, 0x02, 0x0e, 0x17), EPERM);

	device_connects(&c, 0x01, (struct paired){ .awake = true, .dfu = 0x04 });
	CHECK_OK(policyd_reload(&c.run));
	CHECK_EQ(wait_passes(&c, 0x01, 0x05, 5000 * test_slow_factor()), 0);
	CHECK_EQ(send_long(c.fd, 0x01, 0x04, 0x17), EPERM);
	CHECK_EQ(send_long(c.fd, 0x02, 0x0e, 0x17), EPERM);
	CHECK_EQ(send_long(c.fd, 0x02, 0x0d, 0x17), 0);
	policyd_case_end(&c);
}

static long clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* How many times the daemon logged what a device told. */
static int told_lines(struct policyd_case *c)
{
	static char text[1 << 20];
	ssize_t n = read_file(c->run.stderr_log, text, sizeof(text) - 1);
	int count = 0;

	text[n > 0 ? n : 0] = '\0';
	for (const char *p = text; (p = strstr(p, "HID++ feature indexes it told")); p++)
		count++;
	return count;
}

/* Device 2 is announced a thousand times a second while its link stays
 * up (what a program writing "report connected devices" in a loop makes a
 * receiver send): it cannot have other firmware without a link loss, so
 * its answers stay in force throughout (Solaar's requests pass, RDFU stays
 * refused), and the daemon checks them at 0 s and 2 s of 3 s, logging
 * nothing new. */
static void a_flood_of_arrivals_on_a_live_link_keeps_the_answers(void)
{
	static const uint8_t connected[7] = { 0x10, 0x02, 0x41, 0x04, 0x02, 0x4d, 0x40 };
	struct policyd_case c;
	unsigned int rounds;
	int told, sent = 0, refused_settings = 0, passed_rdfu = 0;
	long start, took;

	start_receiver(&c);
	CHECK_EQ(wait_passes(&c, 0x02, 0x05, 5000 * test_slow_factor()), 0);
	CHECK(policyd_said(&c.run, "HID++ feature indexes it told", 2000), "nothing told");
	told = told_lines(&c);
	atomic_store(&receiver.rounds[2], 0);
	start = clock_ms();
	while (clock_ms() - start < 3000) {
		if (uhid_dev_send_input(&c.dev, connected, sizeof(connected)) == 0)
			sent++;
		if (sent % 50 == 0) {
			refused_settings += send_long(c.fd, 0x02, 0x05, 0x17) != 0;
			passed_rdfu += send_long(c.fd, 0x02, 0x0d, 0x17) == 0;
		}
		usleep(1000);
	}
	took = clock_ms() - start;
	rounds = atomic_load(&receiver.rounds[2]);
	test_log("%d notifications in %ld ms; %u rounds of questions; %d more told lines", sent,
		 took, rounds, told_lines(&c) - told);
	CHECK(sent > 100, "only %d notifications went out", sent);
	CHECK_EQ(passed_rdfu, 0);
	CHECK_EQ(refused_settings, 0);
	CHECK(rounds >= 1 && rounds <= (unsigned int)(took / 1000), "%u rounds in %ld ms", rounds, took);
	CHECK_EQ(told_lines(&c) - told, 0);
	policyd_case_end(&c);
}

static void a_question_with_software_id_0_from_another_program_is_refused(void)
{
	uint8_t q[7] = { 0x10, 0x02, 0x00, 0x00, 0x00, 0xd1, 0x00 };
	struct policyd_case c;
	pid_t pid;
	int st;

	start_receiver(&c);
	CHECK_EQ(wait_passes(&c, 0x02, 0x05, 5000 * test_slow_factor()), 0);
	/* from root running another program (as root in a container given
	 * the node): refused; its ping too */
	CHECK_EQ(write(c.fd, q, sizeof(q)) < 0 ? errno : 0, EPERM);
	q[3] = 0x10;
	CHECK_EQ(write(c.fd, q, sizeof(q)) < 0 ? errno : 0, EPERM);
	/* from a process that is not root: refused; a client's own software
	 * ID passes */
	pid = fork();
	if (pid == 0) {
		q[3] = 0x00;
		if (setgid(65534) || setuid(65534))
			_exit(100);
		if (write(c.fd, q, sizeof(q)) >= 0)
			_exit(0);
		if (errno != EPERM)
			_exit(101);
		q[3] = 0x07;
		_exit(write(c.fd, q, sizeof(q)) == (ssize_t)sizeof(q) ? 1 : 102);
	}
	CHECK(pid > 0, "fork: %s", strerror(errno));
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "the sender did not exit");
	CHECK(WEXITSTATUS(st) == 1, "the sender's IRoot questions: exit %d (0: software ID 0 passed)",
	      WEXITSTATUS(st));
	policyd_case_end(&c);
}

static const struct test_case tests[] = {
	{ "features_are_refused_where_the_device_said_they_are",
	  features_are_refused_where_the_device_said_they_are, 120 },
	{ "a_device_that_connects_is_asked_and_its_bootloader_table_is_in_force",
	  a_device_that_connects_is_asked_and_its_bootloader_table_is_in_force, 120 },
	{ "the_answers_follow_the_device_through_unbind_bind_and_a_reload",
	  the_answers_follow_the_device_through_unbind_bind_and_a_reload, 120 },
	{ "a_flood_of_arrivals_on_a_live_link_keeps_the_answers",
	  a_flood_of_arrivals_on_a_live_link_keeps_the_answers, 120 },
	{ "a_question_with_software_id_0_from_another_program_is_refused",
	  a_question_with_software_id_0_from_another_program_is_refused, 120 },
};

int main(int argc, char **argv)
{
	int failed;

	test_dev_keep_driver_setting();
	pthread_mutex_init(&receiver.lock, NULL);
	backend = TEST_DEV_UHID;
	failed = test_main(argc, argv, "e2e-feature-indexes", tests, ARRAY_SIZE(tests));
	backend = TEST_DEV_USB;
	failed |= test_main(argc, argv, "e2e-feature-indexes/usb", tests, ARRAY_SIZE(tests));
	return failed;
}
