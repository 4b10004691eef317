// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device classes: report descriptors read for their top-level application
 * collections (well-formed and malformed ones), the SHA-256 of a
 * descriptor, and rule sets matching by usage, USB interface and
 * descriptor hash.
 */
#include <errno.h>
#include <linux/input.h>

#include "policy-helpers.h"
#include "hid/hid_descriptor.h"
#include "hid/sha256.h"

#define GD(u) (0x00010000u | (u))	/* Generic Desktop page */

/* Parse DESC; the result must be R and the usages exactly WANT (0-ended). */
static void check_apps(const uint8_t *desc, size_t len, int r, const uint32_t *want)
{
	uint32_t usages[HID_DESCRIPTOR_USAGES_MAX];
	size_t n = 99, n_want = 0;

	while (want[n_want])
		n_want++;
	CHECK_EQ(hid_descriptor_applications(desc, len, usages, HID_DESCRIPTOR_USAGES_MAX, &n), r);
	CHECK_EQ(n, n_want);
	for (size_t i = 0; i < n && i < n_want; i++)
		CHECK(usages[i] == want[i], "usage %zu is 0x%08x, expected 0x%08x", i, usages[i], want[i]);
}
#define APPS(r, ...) check_apps(desc, sizeof(desc), r, (const uint32_t[]){ __VA_ARGS__, 0 })

static void game_pad_descriptor_is_one_game_pad(void)
{
	/* Usage Page (Generic Desktop), Usage (Game Pad), Collection (Application),
	 * Report ID 1, 16 buttons, End Collection */
	static const uint8_t desc[] = {
		0x05, 0x01, 0x09, 0x05, 0xa1, 0x01, 0x85, 0x01, 0x05, 0x09, 0x19, 0x01,
		0x29, 0x10, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x10, 0x81, 0x02,
		0xc0,
	};

	APPS(0, GD(0x05));
}

static void composite_keyboard_lists_every_top_level_collection_once(void)
{
	/* keyboard, consumer control, system control, a second keyboard */
	static const uint8_t desc[] = {
		0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x85, 0x01, 0x75, 0x08, 0x95, 0x01, 0x81, 0x01, 0xc0,
		0x05, 0x0c, 0x09, 0x01, 0xa1, 0x01, 0x85, 0x02, 0x75, 0x10, 0x95, 0x01, 0x81, 0x00, 0xc0,
		0x05, 0x01, 0x09, 0x80, 0xa1, 0x01, 0x85, 0x03, 0x75, 0x08, 0x95, 0x01, 0x81, 0x00, 0xc0,
		0x09, 0x06, 0xa1, 0x01, 0x85, 0x04, 0x75, 0x08, 0x95, 0x01, 0x81, 0x01, 0xc0,
	};

	APPS(0, GD(0x06), 0x000c0001u, GD(0x80));
}

static void nested_and_non_application_collections_do_not_count(void)
{
	/* mouse application holding a pointer physical collection and a nested
	 * application collection; then a top-level physical collection */
	static const uint8_t desc[] = {
		0x05, 0x01, 0x09, 0x02, 0xa1, 0x01,
		0x09, 0x01, 0xa1, 0x00, 0x09, 0x30, 0x81, 0x02, 0xc0,
		0x09, 0x05, 0xa1, 0x01, 0xc0,
		0xc0,
		0x09, 0x04, 0xa1, 0x00, 0xc0,
	};

	APPS(0, GD(0x02));
}

static void vendor_page_extended_usage_and_late_usage_page(void)
{
	static const uint8_t desc[] = {
		/* Usage Page (0xff00), Usage (0x01), Collection (Application) */
		0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x75, 0x08, 0x95, 0x3f, 0xb1, 0x02, 0xc0,
		/* a 4-byte Usage carries its page: Generic Desktop Joystick, while
		 * the global Usage Page is still 0xff00 */
		0x0b, 0x04, 0x00, 0x01, 0x00, 0xa1, 0x01, 0xc0,
		/* Usage before Usage Page: the page in force at the Collection counts */
		0x09, 0x01, 0x05, 0x0c, 0xa1, 0x01, 0xc0,
	};

	APPS(0, 0xff000001u, GD(0x04), 0x000c0001u);
}

static void push_pop_restore_the_usage_page_and_long_items_are_skipped(void)
{
	static const uint8_t desc[] = {
		0x05, 0x01, 0xa4, 0x05, 0x0c, 0xb4,	/* page 1, Push, page 0x0c, Pop */
		0xfe, 0x02, 0x10, 0xaa, 0xbb,		/* a long item, 2 data bytes */
		0x19, 0x02, 0x29, 0x03,			/* Usage Minimum 2 stands for the first usage */
		0xa1, 0x01, 0xc0,
	};

	APPS(0, GD(0x02));
}

static void truncated_item_is_malformed_and_keeps_what_came_before(void)
{
	static const uint8_t desc[] = {
		0x05, 0x01, 0x09, 0x05, 0xa1, 0x01, 0xc0,
		0x06, 0x00,				/* a 2-byte Usage Page with 1 byte left */
	};

	APPS(-EBADMSG, GD(0x05));
}

static void truncated_long_item_is_malformed(void)
{
	static const uint8_t desc[] = { 0x09, 0x06, 0xa1, 0x01, 0xc0, 0xfe, 0x10, 0x00, 0x01 };

	APPS(-EBADMSG, 0x00000006u);
}

static void unbalanced_collections_are_malformed(void)
{
	static const uint8_t end_first[] = { 0xc0, 0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0xc0 };
	static const uint8_t unclosed[] = { 0x05, 0x01, 0x09, 0x02, 0xa1, 0x01 };
	uint32_t none[] = { 0 }, mouse[] = { GD(0x02), 0 };

	check_apps(end_first, sizeof(end_first), -EBADMSG, none);
	check_apps(unclosed, sizeof(unclosed), -EBADMSG, mouse);
}

static void push_pop_out_of_balance_and_deep_nesting_are_malformed(void)
{
	uint8_t deep[2 * (HID_DESCRIPTOR_DEPTH_MAX + 1)], pushes[HID_DESCRIPTOR_PUSH_MAX + 1];
	static const uint8_t pop_first[] = { 0xb4, 0x05, 0x01 };
	uint32_t none[] = { 0 };

	for (size_t i = 0; i < sizeof(deep); i += 2)
		deep[i] = 0xa1, deep[i + 1] = 0x02;	/* Collection (Logical) */
	memset(pushes, 0xa4, sizeof(pushes));
	check_apps(deep, sizeof(deep), -EBADMSG, none);
	check_apps(pushes, sizeof(pushes), -EBADMSG, none);
	check_apps(pop_first, sizeof(pop_first), -EBADMSG, none);
	check_apps(pushes, 0, 0, none);
}

static void more_application_usages_than_kept_is_said(void)
{
	uint8_t desc[8 * (HID_DESCRIPTOR_USAGES_MAX + 1)];
	uint32_t usages[HID_DESCRIPTOR_USAGES_MAX];
	size_t n;

	/* Usage Page (0xff00 + i), Usage (1), Collection (Application), End */
	for (size_t i = 0; i <= HID_DESCRIPTOR_USAGES_MAX; i++) {
		const uint8_t app[] = { 0x06, (uint8_t)i, 0xff, 0x09, 0x01, 0xa1, 0x01, 0xc0 };

		memcpy(desc + 8 * i, app, sizeof(app));
	}
	CHECK_EQ(hid_descriptor_applications(desc, sizeof(desc), usages, HID_DESCRIPTOR_USAGES_MAX, &n),
		 -E2BIG);
	CHECK_EQ(n, HID_DESCRIPTOR_USAGES_MAX);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(usages[i], (uint32_t)(0xff00 + i) << 16 | 1);
}

/* Parse DESC for its reports; the result must be R and the entries exactly WANT. */
static void check_report_usages(const uint8_t *desc, size_t len, int r, const struct hid_report_usage *want,
				size_t n_want)
{
	struct hid_report_usage got[HID_DESCRIPTOR_REPORT_USAGES_MAX];
	size_t n = 999;

	CHECK_EQ(hid_descriptor_reports(desc, len, NULL, got, HID_DESCRIPTOR_REPORT_USAGES_MAX, &n), r);
	CHECK_EQ(n, n_want);
	for (size_t i = 0; i < n && i < n_want; i++)
		CHECK(got[i].type == want[i].type && got[i].id == want[i].id &&
		      got[i].page == want[i].page && got[i].has_usage == want[i].has_usage &&
		      got[i].usage_min == want[i].usage_min && got[i].usage_max == want[i].usage_max,
		      "entry %zu: type %u id 0x%02x page 0x%04x usage %d 0x%x-0x%x, expected type %u id 0x%02x page 0x%04x usage %d 0x%x-0x%x",
		      i, got[i].type, got[i].id, got[i].page, got[i].has_usage, got[i].usage_min,
		      got[i].usage_max, want[i].type, want[i].id, want[i].page, want[i].has_usage,
		      want[i].usage_min, want[i].usage_max);
}
#define REPORT_USAGES(r, ...)                                                                     \
	check_report_usages(desc, sizeof(desc), r, (const struct hid_report_usage[]){ __VA_ARGS__ }, \
			    sizeof((const struct hid_report_usage[]){ __VA_ARGS__ }) /                 \
				    sizeof(struct hid_report_usage))
#define U(t, i, pg, lo, hi) { .type = HID_REPORT_##t, .id = (i), .page = (pg), .has_usage = true, \
			      .usage_min = (lo), .usage_max = (hi) }
#define PAGE_ONLY(t, i, pg) { .type = HID_REPORT_##t, .id = (i), .page = (pg) }

static void each_report_is_listed_with_its_id_type_and_usages(void)
{
	/* a mouse (report 1: buttons 1-3 and padding), then PixArt's OTA
	 * report: a feature report of vendor page 0xFF02, usage 1, with an ID
	 * of its own (0x0B) */
	static const uint8_t desc[] = {
		0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x01, 0x05, 0x09, 0x19, 0x01,
		0x29, 0x03, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x03, 0x81, 0x02,
		0x95, 0x05, 0x81, 0x01, 0xc0,
		0x06, 0x02, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x85, 0x0b, 0x09, 0x01, 0x15, 0x00,
		0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x20, 0xb1, 0x02, 0xc0,
	};

	REPORT_USAGES(0, U(INPUT, 1, 0x0009, 1, 3), U(INPUT, 1, 0x0001, 2, 2), PAGE_ONLY(INPUT, 1, 0x0009),
		U(FEATURE, 0x0b, 0xff02, 1, 1));
}

static void push_pop_restore_the_report_id_and_extended_usages_carry_their_page(void)
{
	/* Usage Page 0xFF00, Usage 1, Collection (Application), Report ID 2,
	 * Push, Report ID 3, Usage (0x000C:0x00E9, 4 bytes), Output, Pop,
	 * Usage Maximum 5 (alone), Feature, Usage 7, Usage Page 0xFF01,
	 * Input (usage 7 is on the page in effect at the item), End */
	static const uint8_t desc[] = {
		0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x85, 0x02, 0xa4, 0x85, 0x03,
		0x0b, 0xe9, 0x00, 0x0c, 0x00, 0x91, 0x02, 0xb4, 0x29, 0x05, 0xb1, 0x02,
		0x09, 0x07, 0x06, 0x01, 0xff, 0x81, 0x02, 0xc0,
	};

	REPORT_USAGES(0, U(OUTPUT, 3, 0x000c, 0xe9, 0xe9), U(OUTPUT, 3, 0xff00, 1, 1),
		      U(FEATURE, 2, 0xff00, 5, 5), U(FEATURE, 2, 0xff00, 1, 1),
		      U(INPUT, 2, 0xff01, 7, 7), U(INPUT, 2, 0xff00, 1, 1));
}

static void more_report_usages_than_kept_is_said_and_every_report_is_still_declared(void)
{
	uint8_t desc[7 * (HID_DESCRIPTOR_REPORT_USAGES_MAX + 1)];
	struct hid_report_usage got[HID_DESCRIPTOR_REPORT_USAGES_MAX];
	uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32];
	size_t n;

	/* Usage Page (0xff00 + i), Report ID (i + 1), Feature: one entry each */
	for (size_t i = 0; i <= HID_DESCRIPTOR_REPORT_USAGES_MAX; i++) {
		const uint8_t item[] = { 0x06, (uint8_t)i, 0xff, 0x85, (uint8_t)(i + 1), 0xb1, 0x02 };

		memcpy(desc + 7 * i, item, sizeof(item));
	}
	CHECK_EQ(hid_descriptor_reports(desc, sizeof(desc), declared, got,
					HID_DESCRIPTOR_REPORT_USAGES_MAX, &n),
		 -E2BIG);
	CHECK_EQ(n, HID_DESCRIPTOR_REPORT_USAGES_MAX);
	for (size_t i = 0; i < n; i++)
		CHECK(got[i].page == 0xff00 + i && got[i].id == i + 1 && !got[i].has_usage,
		      "entry %zu: page 0x%04x id %u", i, got[i].page, got[i].id);
	/* the same walk: the report past the list's room is declared all the
	 * same, so that the firewall does not refuse it as undeclared */
	for (unsigned id = 1; id < HID_DESCRIPTOR_REPORT_IDS; id++)
		CHECK(((declared[2][id / 32] >> (id % 32)) & 1) == (id <= HID_DESCRIPTOR_REPORT_USAGES_MAX + 1),
		      "feature report %u %s", id, declared[2][id / 32] >> (id % 32) & 1 ? "declared" : "not declared");
}

static void more_usages_before_one_item_than_kept_is_said(void)
{
	uint8_t desc[2 * (HID_DESCRIPTOR_LOCALS_MAX + 1) + 2];
	struct hid_report_usage got[HID_DESCRIPTOR_REPORT_USAGES_MAX];
	size_t n, k = 0;

	for (size_t i = 0; i <= HID_DESCRIPTOR_LOCALS_MAX; i++) {
		desc[k++] = 0x09;
		desc[k++] = (uint8_t)(i + 1);
	}
	desc[k++] = 0x81;
	desc[k++] = 0x02;
	CHECK_EQ(hid_descriptor_reports(desc, sizeof(desc), NULL, got, HID_DESCRIPTOR_REPORT_USAGES_MAX, &n),
		 -E2BIG);
	CHECK_EQ(n, HID_DESCRIPTOR_LOCALS_MAX);
}

static void a_malformed_descriptor_keeps_the_reports_before_the_fault(void)
{
	/* Report ID 4, Usage Page 0xFF02, Feature, then an End Collection
	 * nothing opened */
	static const uint8_t desc[] = { 0x85, 0x04, 0x06, 0x02, 0xff, 0xb1, 0x02, 0xc0 };

	REPORT_USAGES(-EBADMSG, PAGE_ONLY(FEATURE, 4, 0xff02));
}

static void hex32(const uint8_t *h, char *out)
{
	for (int i = 0; i < SHA256_BYTES; i++)
		sprintf(out + 2 * i, "%02x", h[i]);
}

static void sha256_matches_the_standard_vectors(void)
{
	static const char *const from_range[][2] = {
		/* bytes 0, 1, ..., n-1 (hashlib): around the padding boundaries */
		{ "55", "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59" },
		{ "56", "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562" },
		{ "63", "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488" },
		{ "64", "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108" },
		{ "119", "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6" },
	};
	uint8_t h[SHA256_BYTES], buf[128];
	char hex[2 * SHA256_BYTES + 1];
	static char million[1000000];

	/* FIPS 180-2, appendix B */
	sha256("", 0, h);
	hex32(h, hex);
	CHECK(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "\"\": %s", hex);
	sha256("abc", 3, h);
	hex32(h, hex);
	CHECK(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "abc: %s", hex);
	sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, h);
	hex32(h, hex);
	CHECK(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"), "448 bits: %s", hex);
	memset(million, 'a', sizeof(million));
	sha256(million, sizeof(million), h);
	hex32(h, hex);
	CHECK(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"), "a x 10^6: %s", hex);

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)i;
	for (size_t i = 0; i < ARRAY_SIZE(from_range); i++) {
		sha256(buf, (size_t)atoi(from_range[i][0]), h);
		hex32(h, hex);
		CHECK(!strcmp(hex, from_range[i][1]), "%s bytes: %s", from_range[i][0], hex);
	}
}

/* Devices for the matching tests. */
static const uint32_t pad_usages[] = { GD(0x06), GD(0x05) };	/* keyboard and game pad */
static const uint32_t kbd_usages[] = { GD(0x06), 0x000c0001u };
static const uint32_t vendor_usages[] = { 0xffa00003u };
static const uint8_t some_hash[SHA256_BYTES] = { 0xab, 0xcd, [31] = 0x01 };

static struct policy_device device(uint16_t vendor, const uint32_t *usages, size_t n)
{
	return (struct policy_device){
		.bus = BUS_USB, .vendor = vendor, .product = 0x0001, .name = "x",
		.descriptor_known = true, .usages = usages, .n_usages = n,
	};
}

static struct policy *load_clean(const char *doc)
{
	struct diag d = {};
	struct policy *p = load_text("t.json", doc, &d);

	CHECK(p, "policy rejected");
	for (size_t i = 0; i < d.n; i++)
		test_log("message: %s", d.entries[i].text);
	CHECK_EQ(d.n, 0);
	diag_done(&d);
	return p;
}

#define SET(match) "{'match': " match ", 'rules': [{'name': 'r', 'request': 'output_report', 'report_id': 'any', 'action': 'deny'}]}"
#define DOC1(match) "{'version': 1, 'devices': [" SET(match) "]}"

static void usage_matches_every_vendor_with_that_application(void)
{
	struct policy *p = load_clean(DOC1("{'usage': 'game_controller'}"));
	struct policy_device pad = device(0x1234, pad_usages, 2), pad2 = device(0x0f0d, pad_usages + 1, 1);
	struct policy_device kbd = device(0x1234, kbd_usages, 2);

	CHECK(policy_ruleset_matches(&p->sets[0], &pad), "keyboard+game pad not matched");
	CHECK(policy_ruleset_matches(&p->sets[0], &pad2), "other vendor's game pad not matched");
	CHECK(!policy_ruleset_matches(&p->sets[0], &kbd), "keyboard matched as a game controller");
	policy_free(p);
}

static void usage_forms_page_names_and_exact_values(void)
{
	struct policy *vd = load_clean(DOC1("{'usage': 'vendor_defined'}"));
	struct policy *page = load_clean(DOC1("{'usage': '0x000c'}"));
	struct policy *exact = load_clean(DOC1("{'usage': ['0xffa0:0x0003', 'mouse']}"));
	struct policy_device ven = device(1, vendor_usages, 1), kbd = device(1, kbd_usages, 2);

	CHECK(policy_ruleset_matches(&vd->sets[0], &ven), "vendor page 0xffa0 not vendor_defined");
	CHECK(!policy_ruleset_matches(&vd->sets[0], &kbd), "keyboard is vendor_defined");
	CHECK(policy_ruleset_matches(&page->sets[0], &kbd), "consumer page not matched");
	CHECK(!policy_ruleset_matches(&page->sets[0], &ven), "vendor page matched as consumer");
	CHECK(policy_ruleset_matches(&exact->sets[0], &ven), "exact usage not matched");
	CHECK(!policy_ruleset_matches(&exact->sets[0], &kbd), "keyboard matched mouse");
	policy_free(vd);
	policy_free(page);
	policy_free(exact);
}

static void interface_and_hash_pin_one_function_of_one_device(void)
{
	char doc[512];
	char hex[2 * SHA256_BYTES + 1];
	struct policy *p;
	struct policy_device dev = device(0x046d, kbd_usages, 2);

	hex32(some_hash, hex);
	snprintf(doc, sizeof(doc), DOC1("{'vendor': '0x046d', 'interface': [1, '0x02'], 'descriptor_sha256': '%s'}"), hex);
	p = load_clean(doc);
	dev.has_interface = true;
	dev.interface = 1;
	CHECK(!policy_ruleset_matches(&p->sets[0], &dev), "matched without a descriptor hash");
	dev.descriptor_sha256 = some_hash;
	CHECK(policy_ruleset_matches(&p->sets[0], &dev), "interface 1 with the hash not matched");
	dev.interface = 2;
	CHECK(policy_ruleset_matches(&p->sets[0], &dev), "interface 2 with the hash not matched");
	dev.interface = 0;
	CHECK(!policy_ruleset_matches(&p->sets[0], &dev), "interface 0 matched");
	dev.has_interface = false;
	CHECK(!policy_ruleset_matches(&p->sets[0], &dev), "a device without interface matched");
	dev.has_interface = true;
	dev.interface = 1;
	dev.descriptor_sha256 = (const uint8_t[SHA256_BYTES]){ 0xab, 0xcd, [31] = 0x02 };
	CHECK(!policy_ruleset_matches(&p->sets[0], &dev), "another descriptor matched");
	policy_free(p);
}

static void unknown_descriptor_matches_nothing_and_the_decision_waits(void)
{
	struct policy *p = load_clean("{'version': 1, 'devices': [" SET("{'usage': 'game_pad', 'vendor': '0x054c'}") "]}");
	struct policy *ids = load_clean(DOC1("{'vendor': '0x054c'}"));
	struct policy_device dev = device(0x054c, pad_usages, 2), other = device(0x1234, NULL, 0);

	dev.descriptor_known = false;
	other.descriptor_known = false;
	CHECK(!policy_ruleset_matches(&p->sets[0], &dev), "usage matched an unparsed descriptor");
	CHECK(policy_waits_for_descriptor(p, &dev), "no wait for a descriptor that decides");
	CHECK(!policy_waits_for_descriptor(p, &other), "waits though the vendor does not match");
	CHECK(!policy_waits_for_descriptor(ids, &dev), "waits though no match reads the descriptor");
	dev.descriptor_known = true;
	CHECK(!policy_waits_for_descriptor(p, &dev), "waits once the descriptor is known");
	CHECK(policy_ruleset_matches(&p->sets[0], &dev), "game pad not matched once known");
	policy_free(p);
	policy_free(ids);
}

static void class_rule_set_shadows_a_narrower_class_rule_set(void)
{
	struct diag d = {};
	struct policy *p = load_text("t.json",
		"{'version': 1, 'devices': [" SET("{'usage': 'game_controller'}") ","
		"{'match': {'usage': 'game_pad', 'bus': 'usb'}, 'rules': [{'name': 'r2', 'request': 'output_report', 'report_id': 1, 'action': 'deny'}]},"
		"{'match': {'usage': 'keyboard'}, 'rules': [{'name': 'r3', 'request': 'output_report', 'report_id': 1, 'action': 'allow'}]}]}",
		&d);

	CHECK(p, "policy rejected");
	CHECK_MESSAGES(&d, "t.json:1:217: devices[1].rules[0]: warning: rule \"r2\" can never match: rule \"r\" (line 1: devices[0].rules[0]) comes first and matches every request it does");
	policy_free(p);
	diag_done(&d);
}

/* Parse DESC for its reports; the result must be R and the reports
 * declared exactly WANT: (type << 8 | id) pairs, ended by 0xffff. */
static void check_reports(const uint8_t *desc, size_t len, int r, const uint16_t *want)
{
	uint32_t declared[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32];
	uint32_t expected[HID_DESCRIPTOR_REPORT_TYPES][HID_DESCRIPTOR_REPORT_IDS / 32] = {};

	memset(declared, 0xa5, sizeof(declared));	/* cleared by the parser */
	for (size_t i = 0; want[i] != 0xffff; i++)
		expected[want[i] >> 8][(want[i] & 0xff) / 32] |= 1u << (want[i] % 32);
	CHECK_EQ(hid_descriptor_reports(desc, len, declared, NULL, 0, NULL), r);
	for (unsigned t = 0; t < HID_DESCRIPTOR_REPORT_TYPES; t++)
		for (unsigned id = 0; id < HID_DESCRIPTOR_REPORT_IDS; id++)
			CHECK(((declared[t][id / 32] ^ expected[t][id / 32]) >> (id % 32) & 1) == 0,
			      "report type %u ID %u: %s, expected %s", t, id,
			      declared[t][id / 32] >> (id % 32) & 1 ? "declared" : "not declared",
			      expected[t][id / 32] >> (id % 32) & 1 ? "declared" : "not declared");
}
#define IN(id)	(0x000 | (id))
#define OUT(id)	(0x100 | (id))
#define FEAT(id) (0x200 | (id))
#define REPORTS(r, ...) check_reports(desc, sizeof(desc), r, (const uint16_t[]){ __VA_ARGS__, 0xffff })

static void unnumbered_descriptor_declares_id_0_of_its_types_only(void)
{
	/* Steam Deck-like: vendor application, 64-byte input and feature
	 * reports, no Report ID, no output report */
	static const uint8_t desc[] = {
		0x06, 0xff, 0xff, 0x09, 0x01, 0xa1, 0x01,
		0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x40,
		0x09, 0x01, 0x81, 0x02, 0x09, 0x01, 0xb1, 0x02,
		0xc0,
	};

	REPORTS(0, IN(0), FEAT(0));
}

static void numbered_descriptor_declares_each_id_for_its_type(void)
{
	/* input 1, output 2, features 3 and 0xf0; a padding-only input
	 * field (no usage) in report 4 declares it too, as hid-core
	 * registers it */
	static const uint8_t desc[] = {
		0x05, 0x01, 0x09, 0x05, 0xa1, 0x01,
		0x85, 0x01, 0x75, 0x08, 0x95, 0x02, 0x09, 0x30, 0x81, 0x02,
		0x85, 0x02, 0x09, 0x40, 0x91, 0x02,
		0x85, 0x03, 0x09, 0x41, 0xb1, 0x02,
		0x85, 0xf0, 0x09, 0x42, 0xb1, 0x02,
		0x85, 0x04, 0x81, 0x01,
		0xc0,
	};

	REPORTS(0, IN(1), IN(4), OUT(2), FEAT(3), FEAT(0xf0));
}

static void push_pop_restore_the_report_id(void)
{
	/* Report ID 5, Push, Report ID 6, Feature (6), Pop, Feature (5) */
	static const uint8_t desc[] = {
		0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x75, 0x08, 0x95, 0x01,
		0x85, 0x05, 0xa4, 0x85, 0x06, 0x09, 0x01, 0xb1, 0x02, 0xb4, 0x09, 0x02, 0xb1, 0x02,
		0xc0,
	};

	REPORTS(0, FEAT(5), FEAT(6));
}

static void report_id_0_is_malformed_and_keeps_what_came_before(void)
{
	/* Input (0), Report ID 0 (hid-core refuses it), Output */
	static const uint8_t desc[] = {
		0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x75, 0x08, 0x95, 0x01,
		0x09, 0x01, 0x81, 0x02, 0x85, 0x00, 0x09, 0x02, 0x91, 0x02,
		0xc0,
	};

	REPORTS(-EBADMSG, IN(0));
}

static void truncated_descriptor_keeps_the_reports_before_the_fault(void)
{
	/* Report ID 2, Feature, then a 2-byte Report ID item cut short */
	static const uint8_t desc[] = {
		0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x75, 0x08, 0x95, 0x01,
		0x85, 0x02, 0x09, 0x01, 0xb1, 0x02, 0x86, 0x03,
	};

	REPORTS(-EBADMSG, FEAT(2));
}

static const struct test_case tests[] = {
	{ "game_pad_descriptor_is_one_game_pad", game_pad_descriptor_is_one_game_pad },
	{ "composite_keyboard_lists_every_top_level_collection_once", composite_keyboard_lists_every_top_level_collection_once },
	{ "nested_and_non_application_collections_do_not_count", nested_and_non_application_collections_do_not_count },
	{ "vendor_page_extended_usage_and_late_usage_page", vendor_page_extended_usage_and_late_usage_page },
	{ "push_pop_restore_the_usage_page_and_long_items_are_skipped", push_pop_restore_the_usage_page_and_long_items_are_skipped },
	{ "truncated_item_is_malformed_and_keeps_what_came_before", truncated_item_is_malformed_and_keeps_what_came_before },
	{ "truncated_long_item_is_malformed", truncated_long_item_is_malformed },
	{ "unbalanced_collections_are_malformed", unbalanced_collections_are_malformed },
	{ "push_pop_out_of_balance_and_deep_nesting_are_malformed", push_pop_out_of_balance_and_deep_nesting_are_malformed },
	{ "more_application_usages_than_kept_is_said", more_application_usages_than_kept_is_said },
	{ "each_report_is_listed_with_its_id_type_and_usages", each_report_is_listed_with_its_id_type_and_usages },
	{ "push_pop_restore_the_report_id_and_extended_usages_carry_their_page", push_pop_restore_the_report_id_and_extended_usages_carry_their_page },
	{ "more_report_usages_than_kept_is_said_and_every_report_is_still_declared", more_report_usages_than_kept_is_said_and_every_report_is_still_declared },
	{ "more_usages_before_one_item_than_kept_is_said", more_usages_before_one_item_than_kept_is_said },
	{ "a_malformed_descriptor_keeps_the_reports_before_the_fault", a_malformed_descriptor_keeps_the_reports_before_the_fault },
	{ "sha256_matches_the_standard_vectors", sha256_matches_the_standard_vectors },
	{ "usage_matches_every_vendor_with_that_application", usage_matches_every_vendor_with_that_application },
	{ "usage_forms_page_names_and_exact_values", usage_forms_page_names_and_exact_values },
	{ "interface_and_hash_pin_one_function_of_one_device", interface_and_hash_pin_one_function_of_one_device },
	{ "unknown_descriptor_matches_nothing_and_the_decision_waits", unknown_descriptor_matches_nothing_and_the_decision_waits },
	{ "class_rule_set_shadows_a_narrower_class_rule_set", class_rule_set_shadows_a_narrower_class_rule_set },
	{ "unnumbered_descriptor_declares_id_0_of_its_types_only", unnumbered_descriptor_declares_id_0_of_its_types_only },
	{ "numbered_descriptor_declares_each_id_for_its_type", numbered_descriptor_declares_each_id_for_its_type },
	{ "push_pop_restore_the_report_id", push_pop_restore_the_report_id },
	{ "report_id_0_is_malformed_and_keeps_what_came_before", report_id_0_is_malformed_and_keeps_what_came_before },
	{ "truncated_descriptor_keeps_the_reports_before_the_fault", truncated_descriptor_keeps_the_reports_before_the_fault },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "descriptor", tests, ARRAY_SIZE(tests));
}
