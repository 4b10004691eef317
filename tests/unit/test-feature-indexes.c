// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * When the daemon may open a device's node to users (enforce.c holds its
 * first decision until then): feature_indexes_first_rounds_ended()
 * (policyd/enforce/feature_indexes.c) for a receiver and for the node
 * hid-logitech-dj makes for a device paired at its index 1. The receiver's
 * learner asks over one end of a SOCK_SEQPACKET pair, the test's model
 * answers as a Unifying receiver does (HID++ 1.0 at 0xFF, "unknown
 * device" at an empty index). Checks: nothing waits for a device no rule
 * asks of; a device waits until bound and asked, and its paired device's
 * node until the receiver's round ended at 0xFF and at its index (told or
 * refused), not for the receiver's other indexes, and when it connects
 * after the receiver's first round, until a round at its index ended
 * after it came; a node that cannot be opened waits for nothing; an unbind
 * makes the next bind wait again, and forgets what the device told.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "enforce/feature_indexes.h"
#include "hidpp_replica.h"

#define RECEIVER_ID	0x0001
#define PAIRED_ID	0x0002
#define ORPHAN_ID	0x0003

static const uint16_t asked[] = { 0x00c2, 0x00d0, 0x00d1 };

static struct hid_dev_info device(uint32_t hid_id, bool bound)
{
	struct hid_dev_info info = { .hid_id = hid_id, .bound = bound };

	snprintf(info.sysname, sizeof(info.sysname), "0003:046D:C52B.%04X", hid_id);
	snprintf(info.name, sizeof(info.name), "Logitech USB Receiver");
	/* short HID++ output reports: the learner's questions */
	info.declared[HID_RULES_RTYPE_OUTPUT][HIDPP_REPORT_SHORT / 32] |=
		1u << (HIDPP_REPORT_SHORT % 32);
	return info;
}

static struct hid_dev_info paired(uint32_t hid_id, uint32_t receiver_id)
{
	struct hid_dev_info info = device(hid_id, true);

	info.receiver_id = receiver_id;
	info.receiver_index = 1;
	return info;
}

static struct feature_indexes indexes(void)
{
	return (struct feature_indexes){ .epoll_fd = -1, .sysfs_devices = "/nonexistent",
					 .dev_dir = "/nonexistent" };
}

static bool ended(const struct feature_indexes *fi, uint32_t hid_id)
{
	return feature_indexes_first_rounds_ended(fi, hid_id);
}

/* The receiver's learner, asking now over a socket whose other end is
 * returned: what asking after a bind does, but for the node's open. */
static int receiver_asks(struct feature_indexes *fi, uint64_t now)
{
	struct device_learner *d = NULL;
	int sv[2];

	for (size_t i = 0; i < fi->n; i++)
		if (fi->items[i].hid_id == RECEIVER_ID)
			d = &fi->items[i];
	CHECK(d, "the receiver is not followed");
	CHECK_OK(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv));
	hidpp_learner_init(&d->learner, HIDPP_REPORT_SHORT, asked, ARRAY_SIZE(asked));
	d->learner.fd = sv[0];
	d->tried = true;
	CHECK_OK(hidpp_learner_ask(&d->learner, 0x01, now));
	return sv[1];
}

/* The receiver answers one question: HID++ 1.0 at 0xFF (a HID++ 2.0
 * question is an invalid sub-ID to it), "unknown device" at 1 when
 * NOTHING_AT_1, else a ping's echo. */
static void receiver_answers(struct feature_indexes *fi, int dev, bool nothing_at_1, uint64_t now)
{
	uint8_t q[HIDPP_LONG_LEN], a[HIDPP_LONG_LEN] = {};
	uint32_t hid_id;
	ssize_t n = read(dev, q, sizeof(q));

	CHECK(n == HIDPP_SHORT_LEN, "no question: %zd", n);
	if (q[1] == HIDPP_DEVICE_SELF || nothing_at_1)
		CHECK(hidpp_replica_error10(q, q[1] == HIDPP_DEVICE_SELF ? 0x01 : 0x08, a) > 0,
		      "no error answer");
	else
		memcpy(a, q, HIDPP_SHORT_LEN);
	CHECK_EQ(write(dev, a, HIDPP_SHORT_LEN), (ssize_t)HIDPP_SHORT_LEN);
	CHECK(feature_indexes_ready(fi, fi->items[0].learner.fd, now, &hid_id) >= 0,
	      "the answer was not read");
}

static void nothing_waits_for_a_device_no_rule_asks_of(void)
{
	struct feature_indexes fi = indexes();

	CHECK(ended(&fi, RECEIVER_ID), "a device not followed waits");
	feature_indexes_done(&fi);
}

static void a_paired_device_waits_for_its_receivers_round_at_0xff_and_its_index(void)
{
	struct feature_indexes fi = indexes();
	struct hid_dev_info rcv = device(RECEIVER_ID, false), mouse = paired(PAIRED_ID, RECEIVER_ID);
	uint64_t now = 1000;
	int dev;

	/* the receiver's add event comes before its bind */
	feature_indexes_follow(&fi, &rcv, NULL, asked, ARRAY_SIZE(asked), now);
	feature_indexes_follow(&fi, &mouse, NULL, asked, ARRAY_SIZE(asked), now);
	CHECK(!ended(&fi, RECEIVER_ID), "a receiver not bound yet is taken for told");
	CHECK(!ended(&fi, PAIRED_ID), "a paired device whose receiver is not asked yet is taken for told");
	dev = receiver_asks(&fi, now);
	CHECK(!ended(&fi, PAIRED_ID), "a paired device taken for told before 0xFF answered");
	receiver_answers(&fi, dev, false, now + 5);
	CHECK(fi.items[0].learner.receiver, "0xFF not taken for a receiver");
	CHECK(!ended(&fi, PAIRED_ID), "a paired device taken for told once 0xFF answered");
	/* index 1's round: a ping, then the round fails at IFeatureSet */
	receiver_answers(&fi, dev, false, now + 10);
	receiver_answers(&fi, dev, true, now + 15);
	CHECK(ended(&fi, PAIRED_ID), "the paired device still waits once its index answered");
	CHECK(!ended(&fi, RECEIVER_ID), "the receiver taken for told while 2-6 are asked");
	for (int slot = 2; slot < HIDPP_DEVICE_SLOTS; slot++)
		receiver_answers(&fi, dev, true, now + 20);
	CHECK(ended(&fi, RECEIVER_ID), "the receiver still waits once every index answered");
	/* unbound: the next bind asks again, and waits again */
	feature_indexes_unbound(&fi, RECEIVER_ID);
	CHECK(!ended(&fi, RECEIVER_ID), "an unbound receiver is taken for told");
	CHECK(!ended(&fi, PAIRED_ID), "the paired device of an unbound receiver is taken for told");
	close(dev);
	feature_indexes_done(&fi);
}

/* A mouse asleep when the receiver came: hid-logitech-dj makes its node
 * when it connects, after the receiver's first round; the node waits for
 * the round the receiver starts at its index as it announces it. */
static void a_device_that_connects_after_the_receivers_first_round_waits_for_a_round_at_its_index(void)
{
	struct feature_indexes fi = indexes();
	struct hid_dev_info rcv = device(RECEIVER_ID, false), mouse = paired(PAIRED_ID, RECEIVER_ID);
	const uint8_t connected[HIDPP_SHORT_LEN] = { 0x10, 0x01, 0x41, 0x04, 0x02, 0x4d, 0x40 };
	uint64_t now = 1000;
	uint32_t hid_id;
	int dev;

	feature_indexes_follow(&fi, &rcv, NULL, asked, ARRAY_SIZE(asked), now);
	dev = receiver_asks(&fi, now);
	receiver_answers(&fi, dev, true, now + 5);	/* 0xFF: a receiver */
	for (int slot = 1; slot < HIDPP_DEVICE_SLOTS; slot++)
		receiver_answers(&fi, dev, true, now + 10);	/* nothing answers */
	CHECK(ended(&fi, RECEIVER_ID), "the receiver still waits after its first round");
	feature_indexes_follow(&fi, &mouse, NULL, asked, ARRAY_SIZE(asked), now + 100);
	CHECK(!ended(&fi, PAIRED_ID), "a device that connected later is taken for told before it was asked");
	CHECK_EQ(write(dev, connected, sizeof(connected)), (ssize_t)sizeof(connected));
	CHECK(feature_indexes_ready(&fi, fi.items[0].learner.fd, now + 110, &hid_id) >= 0,
	      "the announcement was not read");
	CHECK(!ended(&fi, PAIRED_ID), "taken for told while its index is asked");
	receiver_answers(&fi, dev, false, now + 115);	/* the ping's echo */
	receiver_answers(&fi, dev, true, now + 120);	/* gone again: the round fails */
	CHECK(ended(&fi, PAIRED_ID), "still waits once the round at its index ended");
	close(dev);
	feature_indexes_done(&fi);
}

/* hid-logitech-dj's node for a paired device, whose receiver no rule asks
 * of (or that sysfs listed first at a start): it waits, for the bound. */
static void a_paired_device_of_a_receiver_not_followed_waits(void)
{
	struct feature_indexes fi = indexes();
	struct hid_dev_info mouse = paired(PAIRED_ID, ORPHAN_ID);

	feature_indexes_follow(&fi, &mouse, NULL, asked, ARRAY_SIZE(asked), 1000);
	CHECK(!ended(&fi, PAIRED_ID), "taken for told without a receiver");
	feature_indexes_done(&fi);
}

/* The node cannot be opened (here: no such sysfs): nothing can be
 * learned, and nothing waits for it. */
static void a_node_that_cannot_be_opened_waits_for_nothing(void)
{
	struct feature_indexes fi = indexes();
	struct hid_dev_info rcv = device(RECEIVER_ID, true);
	struct hid_device_rules rules = {};	/* the daemon's questions pass */

	feature_indexes_follow(&fi, &rcv, &rules, asked, ARRAY_SIZE(asked), 1000);
	CHECK(fi.items[0].learner.fd < 0, "a node opened under /nonexistent");
	CHECK(ended(&fi, RECEIVER_ID), "waits for a node that cannot be opened");
	feature_indexes_done(&fi);
}

/* Nobody hears a device that has no driver: a paired device may come
 * back with other firmware meanwhile. What it told before an unbind is
 * forgotten there, so that its rules compiled at the unbind and the next
 * bind know nothing until it tells again; the features asked stay. */
static void an_unbind_forgets_what_the_device_told(void)
{
	struct feature_indexes fi = indexes();
	struct hid_dev_info rcv = device(RECEIVER_ID, false);
	const struct hidpp_features *t;
	uint64_t now = 1000;
	int dev;

	feature_indexes_follow(&fi, &rcv, NULL, asked, ARRAY_SIZE(asked), now);
	dev = receiver_asks(&fi, now);
	receiver_answers(&fi, dev, true, now + 5);	/* 0xFF: a receiver */
	t = feature_indexes_of(&fi, RECEIVER_ID);
	CHECK(t && (t->answered & 1), "the receiver's answer at 0xFF is not in its table");
	feature_indexes_unbound(&fi, RECEIVER_ID);
	t = feature_indexes_of(&fi, RECEIVER_ID);
	CHECK(t && t->answered == 0 && t->n == 0,
	      "what the receiver told before the unbind is still in its table (answered 0x%02x, %u entries)",
	      t ? t->answered : 0, t ? t->n : 0);
	CHECK_EQ(fi.items[0].learner.n_features, ARRAY_SIZE(asked));
	close(dev);
	feature_indexes_done(&fi);
}

static const struct test_case tests[] = {
	{ "nothing_waits_for_a_device_no_rule_asks_of", nothing_waits_for_a_device_no_rule_asks_of },
	{ "a_paired_device_waits_for_its_receivers_round_at_0xff_and_its_index", a_paired_device_waits_for_its_receivers_round_at_0xff_and_its_index },
	{ "a_device_that_connects_after_the_receivers_first_round_waits_for_a_round_at_its_index", a_device_that_connects_after_the_receivers_first_round_waits_for_a_round_at_its_index },
	{ "a_paired_device_of_a_receiver_not_followed_waits", a_paired_device_of_a_receiver_not_followed_waits },
	{ "a_node_that_cannot_be_opened_waits_for_nothing", a_node_that_cannot_be_opened_waits_for_nothing },
	{ "an_unbind_forgets_what_the_device_told", an_unbind_forgets_what_the_device_told },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "feature-indexes", tests, ARRAY_SIZE(tests));
}
