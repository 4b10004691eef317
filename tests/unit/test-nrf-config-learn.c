// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The nRF Desktop module learner (policyd/hid/nrf_config_learn.c) against a
 * scripted device: the learner's questions go to a replica of the firmware's
 * configuration channel (tests/lib/nrf_replica.c: one answer for whoever
 * reads next, one listing cursor per module), whose answers the test hands
 * back. Between the learner's question and its answer the test may put
 * another asker's (fwupd listing the same module, a board-name question
 * echoing the learner's event ID). Checks: the dfu module's reboot option
 * is learned whatever the cursor's place at the start; an interleaved
 * asker fails the round, which leaves the device unknown and is asked again
 * with a growing backoff; answers that echo another event ID, recipient or
 * status, or repeat a module's name, are not taken; a late answer is not.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "hid/feature_exchange.h"
#include "hid/nrf_config_learn.h"
#include "nrf_replica.h"

struct scripted {
	struct nrf_learner l;
	struct nrf_replica dev;
	uint64_t now;
	bool changed;
	uint8_t q[NRF_CONFIG_REPORT_LEN];	/* the learner's last question */
	bool asked;
	/* Between the SET and the GET of the learner's N-th question (from
	 * 1), another asker's frame, when set. */
	unsigned interleave_at[4];
	uint8_t other[NRF_CONFIG_REPORT_LEN];
};

static int scripted_send(void *ctx, const uint8_t *q, size_t len)
{
	struct scripted *s = ctx;

	CHECK_EQ(len, (size_t)NRF_CONFIG_REPORT_LEN);
	memcpy(s->q, q, len);
	s->asked = true;
	return 0;
}

static void scripted_start(struct scripted *s)
{
	memset(s, 0, sizeof(*s));
	nrf_learner_init(&s->l);
	s->l.send = scripted_send;
	s->l.send_ctx = s;
	nrf_replica_mouse(&s->dev);
	s->now = 1000;
}

static bool interleaved_now(const struct scripted *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(s->interleave_at); i++)
		if (s->interleave_at[i] && s->interleave_at[i] == s->l.questions)
			return true;
	return false;
}

/* The device answers each question until none is left, or MAX of them. */
static unsigned serve(struct scripted *s, unsigned max)
{
	uint8_t a[NRF_CONFIG_REPORT_LEN];
	unsigned n = 0;

	while (s->asked && n < max) {
		s->asked = false;
		n++;
		CHECK_OK(nrf_replica_set(&s->dev, s->q, sizeof(s->q)));
		if (interleaved_now(s))
			CHECK_OK(nrf_replica_set(&s->dev, s->other, sizeof(s->other)));
		nrf_replica_get(&s->dev, a, sizeof(a));
		s->now += 2;
		CHECK_OK(nrf_learner_take(&s->l, 0, a, sizeof(a), s->now, &s->changed));
	}
	return n;
}

static void fetch_frame(uint8_t *f, uint8_t status, uint8_t event_id)
{
	nrf_learner_question(status, event_id, f);
}

static void check_reboot_at(const struct scripted *s, uint8_t want)
{
	uint8_t event_id = 0;

	CHECK(s->l.table.told, "the device told nothing");
	CHECK(nrf_config_find(&s->l.table, "dfu", "reboot", &event_id), "no dfu/reboot learned");
	CHECK_EQ(event_id, want);
}

static void dfu_reboot_is_learned_from_the_listing(void)
{
	struct scripted s;
	uint8_t event_id;

	scripted_start(&s);
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 1000);
	CHECK(!s.l.asking, "the round did not end");
	CHECK(s.changed, "a told table is a change");
	check_reboot_at(&s, 0x14);
	CHECK(nrf_config_find(&s.l.table, "dfu", "fwinfo", &event_id), "no dfu/fwinfo");
	CHECK_EQ(event_id, 0x15);
	CHECK(nrf_config_find(&s.l.table, "motion", "cpi", &event_id), "no motion/cpi");
	CHECK_EQ(event_id, 0x02);
	CHECK(!nrf_config_find(&s.l.table, "dfu", "erase", &event_id), "an option never listed");
	CHECK(!nrf_config_find(&s.l.table, "led", "reboot", &event_id), "a module never listed");
	CHECK_EQ(s.l.table.n_modules, 3);
	/* never a FETCH of an option but the listing */
	for (unsigned e = 0; e < 256; e++)
		if (e & 0x0f)
			CHECK_EQ(s.dev.fetches[e], 0u);
	CHECK(!s.dev.rebooted, "the learner rebooted the device");
}

static void a_listing_left_halfway_is_read_from_its_end(void)
{
	struct scripted s;

	scripted_start(&s);
	s.dev.cursor[1] = 3;	/* fwupd stopped after "dfu", "start", "data" */
	s.dev.cursor[0] = 4;	/* and at motion's end */
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 1000);
	check_reboot_at(&s, 0x14);
}

/* fwupd.service, which the rules let through, lists the dfu module while
 * the learner does: its FETCH takes an item from the learner's listing. */
static void fwupd_listing_the_same_module_meanwhile_fails_the_round(void)
{
	struct scripted s;
	unsigned n;

	scripted_start(&s);
	fetch_frame(s.other, NRF_CONFIG_STATUS_FETCH, 0x10);
	/* questions: 1 max, motion: 1 sync to "\n"... dfu's first listing
	 * begins at question 1 + 5 + 5 + 5 + 9 = 25; its 4th item is "sync" */
	s.interleave_at[0] = 25 + 4;
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 1000);
	CHECK(!s.l.asking, "the round did not end");
	CHECK(!s.l.table.told, "a round with an item taken is in force");
	CHECK_EQ(s.l.rounds_failed, 1ull);
	/* asked again after the backoff, then learned */
	CHECK_EQ(nrf_learner_due(&s.l), s.now + NRF_LEARN_RETRY_MS);
	s.interleave_at[0] = 0;
	s.now = nrf_learner_due(&s.l);
	CHECK_OK(nrf_learner_tick(&s.l, s.now, &s.changed));
	n = serve(&s, 1000);
	CHECK(n > 0, "not asked again");
	check_reboot_at(&s, 0x14);
}

/* The same, with fwupd taking an item from each listing but at other
 * places: the listings differ. */
static void fwupd_taking_from_both_listings_fails_the_round(void)
{
	struct scripted s;

	scripted_start(&s);
	fetch_frame(s.other, NRF_CONFIG_STATUS_FETCH, 0x10);
	s.interleave_at[0] = 25 + 2;
	s.interleave_at[1] = 25 + 9 + 6;
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 1000);
	CHECK(!s.l.table.told, "listings that differ are in force");
}

/* A board-name question with the learner's event ID copied: its answer
 * stands in for one item of one listing. */
static void an_answer_to_another_question_fails_the_round(void)
{
	struct scripted s;

	scripted_start(&s);
	fetch_frame(s.other, 3 /* GET_BOARD_NAME */, 0x10);
	s.interleave_at[0] = 25 + 1;
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 1000);
	CHECK(!s.l.table.told, "the board name was taken for a module's name");
}

static void answers_echoing_another_question_are_not_taken(void)
{
	static const struct {
		uint8_t offset, value;
	} wrong[] = {
		{ NRF_CONFIG_OFFSET_RECIPIENT, 0x01 },	/* a peer's */
		{ NRF_CONFIG_OFFSET_EVENT, 0x20 },	/* another module's */
		{ NRF_CONFIG_OFFSET_STATUS, NRF_CONFIG_STATUS_PENDING },
		{ NRF_CONFIG_OFFSET_STATUS, 9 },	/* TIMEOUT */
		{ 0, 0x07 },				/* another report */
		{ NRF_CONFIG_OFFSET_LEN, 26 },		/* past the report */
	};

	for (size_t i = 0; i < ARRAY_SIZE(wrong); i++) {
		struct scripted s;
		uint8_t a[NRF_CONFIG_REPORT_LEN];

		scripted_start(&s);
		CHECK_OK(nrf_learner_ask(&s.l, s.now));
		serve(&s, 1);	/* GET_MAX_MOD_ID */
		CHECK_EQ(s.q[NRF_CONFIG_OFFSET_EVENT], 0x00);
		CHECK_EQ(s.q[NRF_CONFIG_OFFSET_STATUS], NRF_CONFIG_STATUS_FETCH);
		CHECK_OK(nrf_replica_set(&s.dev, s.q, sizeof(s.q)));
		nrf_replica_get(&s.dev, a, sizeof(a));
		a[wrong[i].offset] = wrong[i].value;
		CHECK_OK(nrf_learner_take(&s.l, 0, a, sizeof(a), s.now, &s.changed));
		CHECK(!s.l.asking && !s.l.table.told, "case %zu: taken", i);
		CHECK_EQ(s.l.rounds_failed, 1ull);
	}
}

static void a_module_named_twice_fails_the_round(void)
{
	static const char *const none[] = { NULL };
	static const char *const reboot[] = { "reboot", NULL };
	static const struct nrf_replica_module twice[] = {
		{ "dfu", none }, { "dfu", reboot },
	};
	struct scripted s;

	scripted_start(&s);
	s.dev.modules = twice;
	s.dev.n_modules = 2;
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 1000);
	CHECK(!s.l.table.told, "two modules named dfu");
}

static void a_late_answer_fails_the_round_and_is_not_taken_after(void)
{
	struct scripted s;
	uint8_t a[NRF_CONFIG_REPORT_LEN];
	uint64_t due;

	scripted_start(&s);
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 30);
	CHECK(s.l.asking, "the round ended early");
	/* the device answers nothing now */
	due = nrf_learner_due(&s.l);
	CHECK_EQ(due, s.now + NRF_LEARN_ANSWER_MS);
	s.now = due;
	CHECK_OK(nrf_learner_tick(&s.l, s.now, &s.changed));
	CHECK(!s.l.asking && !s.l.table.told, "a late round is in force");
	/* its answer comes after all: nothing asked, nothing taken */
	CHECK_OK(nrf_replica_set(&s.dev, s.q, sizeof(s.q)));
	nrf_replica_get(&s.dev, a, sizeof(a));
	CHECK_OK(nrf_learner_take(&s.l, 0, a, sizeof(a), s.now, &s.changed));
	CHECK(!s.l.asking && !s.l.table.told, "a late answer was taken");
}

/* The daemon holds the device's node from udev until its first round has
 * ended: listed, or failed (late here); later rounds hold nothing. */
static void the_first_round_ends_listed_or_late(void)
{
	struct scripted s;

	scripted_start(&s);
	CHECK(!nrf_learner_first_round_ended(&s.l), "a node open but not asked yet taken for one whose round ended");
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 30);
	CHECK(!nrf_learner_first_round_ended(&s.l), "a round halfway is not waited for");
	s.now = nrf_learner_due(&s.l);
	CHECK_OK(nrf_learner_tick(&s.l, s.now, &s.changed));
	CHECK(!s.l.asking, "the late round did not end");
	CHECK(nrf_learner_first_round_ended(&s.l), "a late round still waited for");
	/* the next round, listed, holds nothing meanwhile */
	s.now = nrf_learner_due(&s.l);
	CHECK_OK(nrf_learner_tick(&s.l, s.now, &s.changed));
	CHECK(s.l.asking, "not asked again");
	CHECK(nrf_learner_first_round_ended(&s.l), "a second round waited for");
	serve(&s, 1000);
	check_reboot_at(&s, 0x14);

	scripted_start(&s);
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 1000);
	check_reboot_at(&s, 0x14);
	CHECK(nrf_learner_first_round_ended(&s.l), "a listed round still waited for");
	/* a learner without a node waits for nothing */
	nrf_learner_init(&s.l);
	CHECK(nrf_learner_first_round_ended(&s.l), "a learner without a node waits");
}

static void a_failing_device_is_asked_again_with_a_growing_backoff(void)
{
	struct scripted s;
	uint32_t want = NRF_LEARN_RETRY_MS;

	scripted_start(&s);
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	for (int i = 0; i < 9; i++) {
		CHECK(s.l.asking, "round %d not asked", i);
		CHECK_OK(nrf_learner_take(&s.l, -EPIPE, NULL, 0, s.now, &s.changed));
		CHECK_EQ(nrf_learner_due(&s.l), s.now + want);
		s.now += want;
		CHECK_OK(nrf_learner_tick(&s.l, s.now, &s.changed));
		want = want * 2 > NRF_LEARN_RETRY_MAX_MS ? NRF_LEARN_RETRY_MAX_MS : want * 2;
	}
	CHECK_EQ(s.l.backoff, (uint32_t)NRF_LEARN_RETRY_MAX_MS);
	/* a round that ends well starts the backoff over */
	serve(&s, 1000);
	check_reboot_at(&s, 0x14);
	CHECK_EQ(s.l.backoff, (uint32_t)NRF_LEARN_RETRY_MS);
}

static void a_failed_round_forgets_what_was_told(void)
{
	struct scripted s;

	scripted_start(&s);
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	serve(&s, 1000);
	check_reboot_at(&s, 0x14);
	s.changed = false;
	CHECK_OK(nrf_learner_ask(&s.l, s.now));
	CHECK_OK(nrf_learner_take(&s.l, -EIO, NULL, 0, s.now, &s.changed));
	CHECK(!s.l.table.told && s.changed, "a failed round kept the old answers");
}

/* The exchange thread: once its answer can be read, the next question is
 * taken (a learner reads an answer and asks the next question at once; a
 * refusal then would cost the round its deadline). The node here is a
 * socket: each ioctl fails at once, and the failure is the answer. */
static void the_next_question_is_taken_as_soon_as_the_answer_is_read(void)
{
	struct feature_exchange *ex;
	uint8_t q[NRF_CONFIG_REPORT_LEN] = { 0x06 }, a[NRF_CONFIG_REPORT_LEN];
	uint32_t seq, got;
	int sv[2];

	CHECK_OK(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
	CHECK_OK(feature_exchange_start(sv[0], NULL, &ex));
	for (int i = 0; i < 2000; i++) {
		struct pollfd p = { .fd = feature_exchange_fd(ex), .events = POLLIN };
		int r;

		CHECK_EQ(feature_exchange_send(ex, q, sizeof(q), &seq), 0);
		CHECK_EQ(poll(&p, 1, 5000), 1);
		r = feature_exchange_receive(ex, a, sizeof(a), &got);
		CHECK_EQ(got, seq);
		CHECK_EQ(r, -ENOTTY);
	}
	feature_exchange_stop(ex);
	close(sv[0]);
	close(sv[1]);
}

static const struct test_case tests[] = {
	{ "the_next_question_is_taken_as_soon_as_the_answer_is_read", the_next_question_is_taken_as_soon_as_the_answer_is_read },
	{ "dfu_reboot_is_learned_from_the_listing", dfu_reboot_is_learned_from_the_listing },
	{ "a_listing_left_halfway_is_read_from_its_end", a_listing_left_halfway_is_read_from_its_end },
	{ "fwupd_listing_the_same_module_meanwhile_fails_the_round", fwupd_listing_the_same_module_meanwhile_fails_the_round },
	{ "fwupd_taking_from_both_listings_fails_the_round", fwupd_taking_from_both_listings_fails_the_round },
	{ "an_answer_to_another_question_fails_the_round", an_answer_to_another_question_fails_the_round },
	{ "answers_echoing_another_question_are_not_taken", answers_echoing_another_question_are_not_taken },
	{ "a_module_named_twice_fails_the_round", a_module_named_twice_fails_the_round },
	{ "a_late_answer_fails_the_round_and_is_not_taken_after", a_late_answer_fails_the_round_and_is_not_taken_after },
	{ "the_first_round_ends_listed_or_late", the_first_round_ends_listed_or_late },
	{ "a_failing_device_is_asked_again_with_a_growing_backoff", a_failing_device_is_asked_again_with_a_growing_backoff },
	{ "a_failed_round_forgets_what_was_told", a_failed_round_forgets_what_was_told },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "nrf-config-learn", tests, ARRAY_SIZE(tests));
}
