// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HID++ feature-index learner (policyd/hid/hidpp_learn.c) against a
 * scripted device: the learner's node is one end of a SOCK_SEQPACKET pair,
 * so each question it writes is one message the test reads, and each answer
 * the test writes is one report the learner reads. Checks which questions
 * go out (device index, getFeature of which feature, software ID 0), which
 * answers count (and which other clients' answers do not), and that a
 * receiver's connection notification has its device index asked again.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "hid/hidpp_learn.h"

#define DFU	0x00d0
#define RDFU	0x00d1

struct scripted {
	struct hidpp_learner l;
	int dev;		/* the device's end */
	uint64_t now;
	bool changed;
};

static void scripted_start(struct scripted *s, uint8_t report_id)
{
	static const uint16_t features[] = { DFU, RDFU };
	int sv[2];

	CHECK_OK(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv));
	hidpp_learner_init(&s->l, report_id, features, 2);
	s->l.fd = sv[0];
	s->dev = sv[1];
	s->now = 1000;
	s->changed = false;
}

static void scripted_done(struct scripted *s)
{
	hidpp_learner_close(&s->l);
	close(s->dev);
}

/* The next question must be getFeature(FEATURE) at DEVICE, in REPORT_ID. */
static void expect_question(struct scripted *s, uint8_t report_id, uint8_t device, uint16_t feature)
{
	uint8_t q[64];
	ssize_t n = read(s->dev, q, sizeof(q));

	CHECK(n > 0, "no question (expected getFeature 0x%04x at 0x%02x)", feature, device);
	if (n <= 0)
		return;
	CHECK_EQ((size_t)n, report_id == HIDPP_REPORT_SHORT ? (size_t)HIDPP_SHORT_LEN :
			    (size_t)HIDPP_LONG_LEN);
	CHECK_EQ(q[0], report_id);
	CHECK_EQ(q[1], device);
	CHECK_EQ(q[2], 0x00);		/* IRoot */
	CHECK_EQ(q[3], 0x00);		/* getFeature, software ID 0 */
	CHECK_EQ(q[4] << 8 | q[5], feature);
}

static void expect_no_question(struct scripted *s)
{
	uint8_t q[64];

	CHECK(read(s->dev, q, sizeof(q)) < 0 && errno == EAGAIN, "an unexpected question went out");
}

/* The device sends BYTES (a short report unless it starts with 0x11). */
static void device_says(struct scripted *s, const uint8_t *bytes, size_t len)
{
	uint8_t r[HIDPP_LONG_LEN] = {};
	size_t n = bytes[0] == HIDPP_REPORT_SHORT ? HIDPP_SHORT_LEN : HIDPP_LONG_LEN;

	memcpy(r, bytes, len < n ? len : n);
	CHECK_EQ(write(s->dev, r, n), (ssize_t)n);
	CHECK_OK(hidpp_learner_read(&s->l, s->now, &s->changed));
}
#define SAYS(s, ...) device_says(s, (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

static int index_of(const struct hidpp_features *t, uint8_t device, uint16_t feature)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->entries[i].device == device && t->entries[i].feature == feature)
			return t->entries[i].index;
	return -1;
}

static void a_direct_device_answers_at_0xff_and_nothing_else_is_asked(void)
{
	struct scripted s;

	scripted_start(&s, HIDPP_REPORT_LONG);
	CHECK_OK(hidpp_learner_ask(&s.l, 1, s.now));
	expect_question(&s, HIDPP_REPORT_LONG, 0xff, DFU);
	SAYS(&s, 0x11, 0xff, 0x00, 0x00, 0x00);			/* no DFU feature */
	CHECK(!s.changed, "the table changed before every answer came");
	expect_question(&s, HIDPP_REPORT_LONG, 0xff, RDFU);
	SAYS(&s, 0x11, 0xff, 0x00, 0x00, 0x0d, 0x00, 0x01);	/* RDFU at 0x0d */
	CHECK(s.changed, "the answers were not taken");
	CHECK_EQ(s.l.table.answered, 0x01);
	CHECK_EQ(index_of(&s.l.table, 0xff, DFU), 0);
	CHECK_EQ(index_of(&s.l.table, 0xff, RDFU), 0x0d);
	expect_no_question(&s);
	CHECK_EQ(hidpp_learner_due(&s.l), 0);
	scripted_done(&s);
}

static void a_receiver_has_its_paired_device_indexes_asked(void)
{
	struct scripted s;

	scripted_start(&s, HIDPP_REPORT_SHORT);
	CHECK_OK(hidpp_learner_ask(&s.l, 1, s.now));
	expect_question(&s, HIDPP_REPORT_SHORT, 0xff, DFU);
	/* HID++ 1.0 at 0xFF: error 0x8F, sub-ID 0, address 0, invalid sub-ID */
	SAYS(&s, 0x10, 0xff, 0x8f, 0x00, 0x00, 0x01, 0x00);
	CHECK_EQ(s.l.table.answered, 0x01);
	expect_question(&s, HIDPP_REPORT_SHORT, 0x01, DFU);
	SAYS(&s, 0x11, 0x01, 0x00, 0x00, 0x00);
	expect_question(&s, HIDPP_REPORT_SHORT, 0x01, RDFU);
	SAYS(&s, 0x11, 0x01, 0x00, 0x00, 0x0c);
	CHECK_EQ(index_of(&s.l.table, 0x01, RDFU), 0x0c);
	/* 2: paired, asleep: the receiver answers nothing in time (an
	 * answer at another device index is not 2's) */
	expect_question(&s, HIDPP_REPORT_SHORT, 0x02, DFU);
	SAYS(&s, 0x11, 0x03, 0x00, 0x00, 0x07);
	expect_no_question(&s);
	s.now += HIDPP_LEARN_ANSWER_MS - 1;
	CHECK_OK(hidpp_learner_tick(&s.l, s.now, &s.changed));
	expect_no_question(&s);
	s.now += 1;
	CHECK_EQ(hidpp_learner_due(&s.l), s.now);
	CHECK_OK(hidpp_learner_tick(&s.l, s.now, &s.changed));
	/* 3-6: nothing paired: HID++ 1.0 error "unknown device" (0x08) */
	for (uint8_t d = 3; d <= 6; d++) {
		expect_question(&s, HIDPP_REPORT_SHORT, d, DFU);
		SAYS(&s, 0x10, d, 0x8f, 0x00, 0x00, 0x08, 0x00);
	}
	expect_no_question(&s);
	/* 0xFF (HID++ 1.0: no such feature) and 1 answered; 2-6 unknown */
	CHECK_EQ(s.l.table.answered, 0x03);
	CHECK_EQ(index_of(&s.l.table, 0xff, DFU), 0);
	CHECK_EQ(index_of(&s.l.table, 0xff, RDFU), 0);
	CHECK_EQ(index_of(&s.l.table, 0x02, DFU), -1);
	scripted_done(&s);
}

static void other_clients_answers_are_not_taken(void)
{
	struct scripted s;

	scripted_start(&s, HIDPP_REPORT_LONG);
	CHECK_OK(hidpp_learner_ask(&s.l, 1, s.now));
	expect_question(&s, HIDPP_REPORT_LONG, 0xff, DFU);
	/* Solaar's getFeature answer (software ID 2), a notification of
	 * feature 5: neither is ours */
	SAYS(&s, 0x11, 0xff, 0x00, 0x02, 0x07);
	SAYS(&s, 0x11, 0xff, 0x05, 0x00, 0x07);
	expect_no_question(&s);
	SAYS(&s, 0x11, 0xff, 0x00, 0x00, 0x0e);
	expect_question(&s, HIDPP_REPORT_LONG, 0xff, RDFU);
	SAYS(&s, 0x11, 0xff, 0x00, 0x00, 0x00);
	CHECK_EQ(index_of(&s.l.table, 0xff, DFU), 0x0e);
	CHECK_EQ(index_of(&s.l.table, 0xff, RDFU), 0);
	scripted_done(&s);
}

static void an_error_leaves_the_device_index_unknown(void)
{
	struct scripted s;

	scripted_start(&s, HIDPP_REPORT_LONG);
	CHECK_OK(hidpp_learner_ask(&s.l, 1, s.now));
	expect_question(&s, HIDPP_REPORT_LONG, 0xff, DFU);
	/* HID++ 2.0 error: feature index 0xFF, then ours, function, code */
	SAYS(&s, 0x11, 0xff, 0xff, 0x00, 0x00, 0x05);
	CHECK_EQ(s.l.table.answered, 0x00);
	CHECK(!s.changed, "an error changed the table");
	expect_no_question(&s);
	scripted_done(&s);
}

static void a_connection_has_its_device_index_asked_again_and_old_answers_stay_until_new_ones(void)
{
	struct scripted s;

	scripted_start(&s, HIDPP_REPORT_SHORT);
	CHECK_OK(hidpp_learner_ask(&s.l, 0x04, s.now));	/* device index 2 */
	expect_question(&s, HIDPP_REPORT_SHORT, 0x02, DFU);
	SAYS(&s, 0x11, 0x02, 0x00, 0x00, 0x00);
	expect_question(&s, HIDPP_REPORT_SHORT, 0x02, RDFU);
	SAYS(&s, 0x11, 0x02, 0x00, 0x00, 0x0d);
	CHECK_EQ(index_of(&s.l.table, 0x02, RDFU), 0x0d);

	/* link lost (bit 6 of byte 4): nothing is asked */
	SAYS(&s, 0x10, 0x02, 0x41, 0x04, 0x42, 0x4d, 0x40);
	expect_no_question(&s);
	/* back, in its bootloader: DFU at 0x03, no RDFU */
	SAYS(&s, 0x10, 0x02, 0x41, 0x04, 0x02, 0x4d, 0x40);
	expect_question(&s, HIDPP_REPORT_SHORT, 0x02, DFU);
	s.changed = false;
	SAYS(&s, 0x11, 0x02, 0x00, 0x00, 0x03);
	CHECK(!s.changed, "the table changed before every answer came");
	CHECK_EQ(index_of(&s.l.table, 0x02, RDFU), 0x0d);
	expect_question(&s, HIDPP_REPORT_SHORT, 0x02, RDFU);
	SAYS(&s, 0x11, 0x02, 0x00, 0x00, 0x00);
	CHECK(s.changed, "the new answers were not taken");
	CHECK_EQ(index_of(&s.l.table, 0x02, DFU), 0x03);
	CHECK_EQ(index_of(&s.l.table, 0x02, RDFU), 0);

	/* the same answers again, a second later: no change to put in force */
	s.now += HIDPP_LEARN_ROUND_MS;
	SAYS(&s, 0x10, 0x02, 0x41, 0x04, 0x02, 0x4d, 0x40);
	expect_question(&s, HIDPP_REPORT_SHORT, 0x02, DFU);
	s.changed = false;
	SAYS(&s, 0x11, 0x02, 0x00, 0x00, 0x03);
	expect_question(&s, HIDPP_REPORT_SHORT, 0x02, RDFU);
	SAYS(&s, 0x11, 0x02, 0x00, 0x00, 0x00);
	CHECK(!s.changed, "the same answers count as a change");
	scripted_done(&s);
}

/* A device that announces itself at its report rate, answering
 * differently each time, gets a round a second: between rounds its device
 * index has no answers (refused but IRoot), never stale ones. */
static void a_flood_of_connections_gets_a_round_a_second_and_no_stale_answers(void)
{
	struct scripted s;
	int rounds = 0, changes = 0;

	scripted_start(&s, HIDPP_REPORT_SHORT);
	for (int ms = 0; ms < 3000; ms++, s.now++) {
		uint8_t q[64];

		s.changed = false;
		SAYS(&s, 0x10, 0x03, 0x41, 0x04, 0x02, 0x4d, 0x40);
		CHECK_OK(hidpp_learner_tick(&s.l, s.now, &s.changed));
		if (read(s.dev, q, sizeof(q)) > 0) {
			/* DFU at a new index each round */
			if (++rounds > 3) {
				CHECK(false, "round %d started at %d ms", rounds, ms);
				break;
			}
			SAYS(&s, 0x11, 0x03, 0x00, 0x00, (uint8_t)(0x10 + rounds));
			expect_question(&s, HIDPP_REPORT_SHORT, 0x03, RDFU);
			SAYS(&s, 0x11, 0x03, 0x00, 0x00, 0x00);
			CHECK_EQ(index_of(&s.l.table, 0x03, DFU), 0x10 + rounds);
		} else if (s.l.table.answered & (1u << hidpp_device_slot(0x03))) {
			CHECK(false, "at %d ms the device index kept answers though it was announced again", ms);
		}
		changes += s.changed;
	}
	CHECK_EQ(rounds, 3);
	CHECK(changes <= 2 * rounds, "%d changes to put in force in %d rounds", changes, rounds);
	CHECK_EQ(hidpp_learner_due(&s.l), s.l.next_round_ms);
	scripted_done(&s);
}

/* hid-logitech-dj gives each paired device a node of its own; a question
 * written there to 0xFF goes out with the device's index, and the answer
 * comes back with it. */
static void a_paired_devices_own_node_answers_with_its_index(void)
{
	struct scripted s;

	scripted_start(&s, HIDPP_REPORT_LONG);
	CHECK_OK(hidpp_learner_ask(&s.l, 1, s.now));
	expect_question(&s, HIDPP_REPORT_LONG, 0xff, DFU);
	SAYS(&s, 0x11, 0x03, 0x00, 0x00, 0x00);
	expect_question(&s, HIDPP_REPORT_LONG, 0xff, RDFU);
	SAYS(&s, 0x11, 0x03, 0x00, 0x00, 0x0b);
	CHECK(s.changed, "the answers were not taken");
	CHECK_EQ(s.l.table.answered, 0x01);
	CHECK_EQ(index_of(&s.l.table, 0xff, RDFU), 0x0b);
	scripted_done(&s);
}

static void a_closed_node_is_gone(void)
{
	struct scripted s;

	scripted_start(&s, HIDPP_REPORT_LONG);
	close(s.dev);
	s.dev = -1;
	CHECK_EQ(hidpp_learner_read(&s.l, s.now, &s.changed), -ENODEV);
	hidpp_learner_close(&s.l);
}

static const struct test_case tests[] = {
	{ "a_direct_device_answers_at_0xff_and_nothing_else_is_asked", a_direct_device_answers_at_0xff_and_nothing_else_is_asked },
	{ "a_receiver_has_its_paired_device_indexes_asked", a_receiver_has_its_paired_device_indexes_asked },
	{ "other_clients_answers_are_not_taken", other_clients_answers_are_not_taken },
	{ "an_error_leaves_the_device_index_unknown", an_error_leaves_the_device_index_unknown },
	{ "a_connection_has_its_device_index_asked_again_and_old_answers_stay_until_new_ones", a_connection_has_its_device_index_asked_again_and_old_answers_stay_until_new_ones },
	{ "a_flood_of_connections_gets_a_round_a_second_and_no_stale_answers", a_flood_of_connections_gets_a_round_a_second_and_no_stale_answers },
	{ "a_paired_devices_own_node_answers_with_its_index", a_paired_devices_own_node_answers_with_its_index },
	{ "a_closed_node_is_gone", a_closed_node_is_gone },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "hidpp-learn", tests, ARRAY_SIZE(tests));
}
