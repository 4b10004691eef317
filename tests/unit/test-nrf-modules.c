// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * When the daemon may open an nRF Desktop device's node to users (enforce.c
 * holds its first decision until then): nrf_modules_first_round_ended()
 * (policyd/enforce/nrf_modules.c). The device's learner asks through its
 * test hook, which stands in for the node. Checks: a device waits until
 * bound and asked; a node that cannot be opened waits for nothing; a node
 * that goes with its driver in the first round does not end that round
 * (the unbind event follows, and the next bind asks again).
 */
#include <errno.h>
#include <stdio.h>

#include "harness.h"
#include "enforce/nrf_modules.h"

#define MOUSE_ID	0x0001

static struct hid_dev_info device(bool bound)
{
	struct hid_dev_info info = { .hid_id = MOUSE_ID, .bound = bound };

	snprintf(info.sysname, sizeof(info.sysname), "0003:1915:52DE.%04X", MOUSE_ID);
	snprintf(info.name, sizeof(info.name), "Nordic nRF52 Desktop Mouse");
	/* the configuration channel's feature report */
	info.declared[HID_RULES_RTYPE_FEATURE][NRF_CONFIG_REPORT_FEATURE / 32] |=
		1u << (NRF_CONFIG_REPORT_FEATURE % 32);
	return info;
}

static struct nrf_modules modules(void)
{
	return (struct nrf_modules){ .epoll_fd = -1, .sysfs_devices = "/nonexistent",
				     .dev_dir = "/nonexistent" };
}

static bool ended(const struct nrf_modules *nm)
{
	return nrf_modules_first_round_ended(nm, MOUSE_ID);
}

/* The node went with its driver: every question fails so. */
static int node_gone(void *ctx, const uint8_t *q, size_t len)
{
	unsigned *asked = ctx;

	(void)q;
	(void)len;
	(*asked)++;
	return -ENODEV;
}

/* The node cannot be opened (here: no such sysfs): nothing can be
 * listed, and nothing waits for it. */
static void a_node_that_cannot_be_opened_waits_for_nothing(void)
{
	struct nrf_modules nm = modules();
	struct hid_dev_info info = device(true);
	struct hid_device_rules rules = {};	/* the daemon's questions pass */

	nrf_modules_follow(&nm, &info, &rules, true, 1000);
	CHECK_EQ(nm.n, (size_t)1);
	CHECK(nrf_learner_fd(&nm.items[0].learner) < 0, "a node opened under /nonexistent");
	CHECK(ended(&nm), "waits for a node that cannot be opened");
	nrf_modules_done(&nm);
}

/*
 * The driver unbound while the first round asks: the node goes, the
 * question fails with -ENODEV, and the daemon reads the unbind event
 * after. Had the closed learner's round counted as ended, the decision
 * held for udev would be published before the unbind withdraws it, for
 * udev to apply to the node the next bind makes (the same device number)
 * while the daemon asks anew.
 */
static void a_node_gone_with_its_driver_does_not_end_the_first_round(void)
{
	struct nrf_modules nm = modules();
	struct hid_dev_info info = device(false);
	struct nrf_device *d;
	uint32_t changed[4];
	unsigned asked = 0;
	uint64_t now = 1000;

	/* the add event comes before the bind */
	nrf_modules_follow(&nm, &info, NULL, true, now);
	CHECK_EQ(nm.n, (size_t)1);
	CHECK(!ended(&nm), "a device not bound yet is taken for listed");
	/* what asking after the bind does, but for the node's open: the
	 * first question at the next tick */
	d = &nm.items[0];
	d->learner.send = node_gone;
	d->learner.send_ctx = &asked;
	d->learner.ask_at = now;
	d->tried = true;
	CHECK(!ended(&nm), "taken for listed before it was asked");
	CHECK_EQ(nrf_modules_tick(&nm, now, changed, ARRAY_SIZE(changed)), (size_t)0);
	CHECK_EQ(asked, 1u);
	CHECK(!d->learner.send && !d->learner.asking, "the learner still asks a node that went");
	CHECK(!ended(&nm), "the first round of a device whose node went with its driver taken for ended");
	CHECK(!nrf_modules_of(&nm, MOUSE_ID)->told, "a node that went told something");
	/* nothing asked until a bind: a tick later is no round either */
	CHECK_EQ(nrf_modules_due(&nm), (uint64_t)0);
	CHECK_EQ(nrf_modules_tick(&nm, now + 5000, changed, ARRAY_SIZE(changed)), (size_t)0);
	CHECK_EQ(asked, 1u);
	CHECK(!ended(&nm), "the round of a node that went taken for ended later");
	/* the unbind event: forgotten; the add event of the next bind */
	nrf_modules_forget(&nm, MOUSE_ID);
	nrf_modules_follow(&nm, &info, NULL, true, now + 10);
	CHECK(!ended(&nm), "a device unbound and not bound again is taken for listed");
	nrf_modules_done(&nm);
}

static const struct test_case tests[] = {
	{ "a_node_that_cannot_be_opened_waits_for_nothing", a_node_that_cannot_be_opened_waits_for_nothing },
	{ "a_node_gone_with_its_driver_does_not_end_the_first_round", a_node_gone_with_its_driver_does_not_end_the_first_round },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "nrf-modules", tests, ARRAY_SIZE(tests));
}
