// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shipped Logitech rules (policies/, as the daemon loads them) on the
 * topology users have (issue 37): a Unifying receiver (046D:C52B) bound by
 * hid-logitech-dj, which gives the paired HID++ 2.0 mouse at index 1 a
 * node of its own, and a Bolt receiver (046D:C548), on uhid and on USB; a
 * Bluetooth LE mouse alone at 0xFF, bound by hid-logitech-hidpp. The
 * replicas (tests/lib/logitech_receiver.h) answer everything a HID++ client
 * asks, a few milliseconds later from a thread of their own, and may lose,
 * delay or refuse (busy) an answer.
 *
 * Every case checks, as uid 1000 (user_writer.h): each function of
 * DfuControlSigned, DFU and RDFU at the index the device has them, written
 * to the receiver's node at index 1 and to the mouse's own node at 0xFF
 * and at 1, fails with EPERM and never reaches the device; a DPI setting
 * (setSensorDpi, software ID 0xA, 0xB) reaches it once the daemon has
 * logged the indexes the device told, and the daemon never logged one it
 * did not. The cases: a client that opens the receiver's node the moment
 * udev opens it (the real udevd, the repository's rule); paired at start;
 * paired later; a user's flood of
 * "fake device arrival" register writes; a firmware update that moves
 * RDFU to the DPI feature's index; lost, late and busy answers; a device
 * whose writes stall while another device is plugged in; around a held
 * decision (the real udevd): change events, the driver unbound and bound
 * again, a reload; the driver bound again after the decision, the mouse
 * updated meanwhile.
 *
 * A check that fails is logged ("check failed: ...") and the case goes on
 * to its other checks, so one run shows all that fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "logitech_receiver.h"
#include "policyd_run.h"
#include "udevd_run.h"
#include "uhid_dev.h"
#include "user_writer.h"

#define PAIRED		0x01
#define SELF		0xff
#define MOUSE_WPID	0x4082
#define BLE_PRODUCT	0xb023
#define USER_UID	1000
#define SW_SETTINGS	0xa	/* Solaar's kind of software ID */
#define SW_SETTINGS_OWN	0xb	/* the same, on the mouse's own node */
#define SW_DFU		0xe
/* The replica's faults spare the kernel's questions (software ID 1) and
 * the test's own. */
#define SPARED ((1u << 1) | (1u << SW_SETTINGS) | (1u << SW_SETTINGS_OWN) | (1u << SW_DFU))
#define OUTPUT_SETTLE_US 300000	/* output reports reach the device after write() */
#define LEARN_MS	5000
#define CHILD_MS	15000

static enum test_dev_backend backend;
static enum logi_receiver_kind kind;
static unsigned int failures;
/* topo_start() runs this hid-policyd (NULL: the build's) */
static const char *daemon_file;

static void expect(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void expect(bool ok, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (ok)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	test_log("check failed: %s", text);
	failures++;
}

static long clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* The receiver, the daemon with the shipped rules, a user's writer. */
struct topo {
	struct logi_receiver *rep;
	struct uhid_dev dev;
	struct policyd_run run;
	struct user_writer user;
	int fd;			/* the receiver's node (the BLE mouse's own) */
	int own_fd;		/* the paired mouse's own node; -1: none */
	char own[64];		/* its sysfs name */
};

/* Where a user's program sends a message for the mouse. */
struct path {
	int fd;
	uint8_t device;		/* byte 1 */
	const char *name;
};

static size_t paths(const struct topo *t, struct path *out)
{
	size_t n = 0;

	if (kind == LOGI_DIRECT) {
		out[n++] = (struct path){ t->fd, SELF, "its node at 0xff" };
		return n;
	}
	out[n++] = (struct path){ t->fd, PAIRED, "the receiver's node at 1" };
	if (t->own_fd >= 0) {
		out[n++] = (struct path){ t->own_fd, SELF, "the mouse's node at 0xff" };
		out[n++] = (struct path){ t->own_fd, PAIRED, "the mouse's node at 1" };
	}
	return n;
}

static int user_write(struct topo *t, int fd, const uint8_t *m, size_t len)
{
	int r = user_writer_write(&t->user, fd, m, len);

	CHECK(r >= 0, "the user's writer: %s", strerror(-r));
	return r;
}

/* The daemon says it protects SYSNAME (its firewall attached) within
 * TIMEOUT_MS. */
static bool protected(struct topo *t, const char *sysname, int timeout_ms)
{
	static char text[1 << 20];
	char want[128];

	snprintf(want, sizeof(want), "%s (", sysname);
	for (long end = clock_ms() + timeout_ms; ; usleep(20000)) {
		ssize_t n = read_file(t->run.stderr_log, text, sizeof(text) - 1);

		text[n > 0 ? n : 0] = '\0';
		for (const char *p = text; (p = strstr(p, want)); p++) {
			const char *eol = strchr(p, '\n');

			if (strstr(p, "): protected") && (!eol || strstr(p, "): protected") < eol))
				return true;
		}
		if (clock_ms() > end)
			return false;
	}
}

/* The mouse's own node, once hid-logitech-dj made it and the daemon
 * protects it (a real system keeps it closed to users until then). */
static void open_own_node(struct topo *t)
{
	char hidraw[300];

	t->own_fd = -1;
	if (kind != LOGI_UNIFYING)
		return;
	CHECK_OK(logi_receiver_child_hidraw(&t->dev, PAIRED, hidraw, sizeof(hidraw), t->own,
				    sizeof(t->own), CHILD_MS * test_slow_factor()));
	CHECK(protected(t, t->own, CHILD_MS * test_slow_factor()),
	      "the daemon does not protect the mouse's own node %s", t->own);
	t->own_fd = open(hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t->own_fd >= 0, "%s: %s", hidraw, strerror(errno));
}

static void driver_of(const char *syspath, char *out, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "%s/driver", syspath);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	snprintf(out, size, "%s", strrchr(target, '/') ? strrchr(target, '/') + 1 : "none");
}

/* The replica (the mouse paired at 1 when PAIRED_AT_START), bound by the
 * vendor drivers, then faults set by SETUP; then the daemon with the
 * shipped rules, as on a machine that boots with the receiver plugged in. */
static void topo_start(struct topo *t, bool paired_at_start,
		       void (*setup)(struct logi_receiver *rep))
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	char policies[512], driver[64];
	const char *args[] = { "--config-dir", policies, NULL };

	memset(t, 0, sizeof(*t));
	t->fd = t->own_fd = -1;
	failures = 0;
	CHECK_OK(test_dev_generic_driver_only(false));
	t->rep = logi_receiver_new(kind, backend);
	if (paired_at_start)
		logi_receiver_pair(t->rep, kind == LOGI_DIRECT ? SELF : PAIRED, &logi_table_mouse,
				   kind == LOGI_DIRECT ? BLE_PRODUCT : MOUSE_WPID, true);
	CHECK_OK(logi_receiver_create(t->rep, &t->dev));
	driver_of(t->dev.syspath, driver, sizeof(driver));
	test_log("%s (%s) bound by %s", t->dev.sysname, test_dev_backend_name(backend), driver);
	if (paired_at_start && kind == LOGI_UNIFYING) {
		char hidraw[300];

		CHECK_OK(logi_receiver_child_hidraw(&t->dev, PAIRED, hidraw, sizeof(hidraw), NULL, 0,
					    CHILD_MS * test_slow_factor()));
	}
	/* once the drivers' probes are done: Linux 6.1's hid-logitech-hidpp
	 * pings with software ID 0, the daemon's */
	if (setup)
		setup(t->rep);

	snprintf(policies, sizeof(policies), "%s/policies", src);
	CHECK_OK(policyd_prepare(&t->run));
	t->run.daemon = daemon_file;
	CHECK_OK(policyd_start(&t->run, args));
	t->fd = uhid_dev_open_hidraw(&t->dev, 0);
	CHECK_OK(t->fd);
	CHECK_OK(user_writer_start(&t->user, USER_UID, USER_UID));
	if (paired_at_start)
		open_own_node(t);
}

static void topo_end(struct topo *t)
{
	user_writer_stop(&t->user);
	if (t->own_fd >= 0)
		close(t->own_fd);
	close(t->fd);
	policyd_stop(&t->run, false);
	CHECK_OK(policyd_cleanup(&t->run));
	logi_receiver_free(t->rep);
	CHECK(failures == 0, "%u check(s) failed (above)", failures);
}

/* Every function (0-2) of every DFU-family feature of TABLE, from the
 * user, on each path: refused, and nothing reached the device. WHEN says
 * in the log at which step. */
static void dfu_family_refused(struct topo *t, const struct logi_table *table, const char *when)
{
	struct path p[3];
	size_t n = paths(t, p);
	unsigned int before = logi_receiver_dfu_reached(t->rep), reached, wrong = 0;
	uint8_t last[20];

	for (uint8_t i = 0; i < table->n; i++) {
		if (!logi_feature_is_dfu_family(table->features[i]))
			continue;
		for (size_t k = 0; k < n; k++)
			for (uint8_t fn = 0; fn < 3; fn++) {
				const uint8_t m[20] = { 0x11, p[k].device, i, (uint8_t)(fn << 4 | SW_DFU),
							0x01, 0x00, 0x00, 0x00, 'D', 'F', 'U' };
				int err = user_write(t, p[k].fd, m, sizeof(m));

				if (err == EPERM)
					continue;
				wrong++;
				test_log("%s: 0x%04x (11 %02x %02x %02x ...) on %s: %s, expected EPERM",
					 when, table->features[i], m[1], m[2], m[3], p[k].name,
					 err ? strerror(err) : "written");
			}
	}
	usleep(OUTPUT_SETTLE_US);
	reached = logi_receiver_dfu_reached(t->rep) - before;
	if (reached && logi_receiver_last_dfu(t->rep, last))
		test_log("%s: %u DFU-family request(s) reached the device, the last 11 %02x %02x %02x",
			 when, reached, last[1], last[2], last[3]);
	expect(wrong == 0 && reached == 0,
	       "%s: every DFU-family request from uid %d is refused and none reaches the device (%u not refused, %u reached)",
	       when, USER_UID, wrong, reached);
}

/* setSensorDpi from the user at the DPI feature's index of TABLE, on each
 * path, until it reaches the device or TIMEOUT_MS is up: the time it
 * took (ms), or -1. */
static long settings_pass(struct topo *t, const struct logi_table *table, int timeout_ms,
			  const char *when)
{
	uint8_t index = logi_table_index(table, HIDPP_F_ADJUSTABLE_DPI);
	uint8_t at = kind == LOGI_DIRECT ? SELF : PAIRED;
	struct path p[3];
	size_t n = paths(t, p);
	long start = clock_ms(), took = 0;

	for (size_t k = 0; k < n && k < 2; k++) {
		uint8_t sw = k == 0 ? SW_SETTINGS : SW_SETTINGS_OWN;
		int err = 0;
		bool reached = false;

		while (!reached && clock_ms() - start < timeout_ms) {
			const uint8_t m[20] = { 0x11, p[k].device, index, (uint8_t)(0x30 | sw),
						0x00, 0x03, 0x20 };
			unsigned int before = logi_receiver_dpi_set(t->rep, at, sw);

			err = user_write(t, p[k].fd, m, sizeof(m));
			for (int w = 0; !err && !reached && w < 1000; w += 20) {
				reached = logi_receiver_dpi_set(t->rep, at, sw) > before;
				if (!reached)
					usleep(20000);
			}
			if (!reached)
				usleep(100000);
		}
		if (!reached) {
			test_log("%s: setSensorDpi at 0x%02x on %s: %s", when, index, p[k].name,
				 err ? strerror(err) : "written, never reached the device");
			return -1;
		}
	}
	took = clock_ms() - start;
	test_log("%s: the DPI setting passed after %ld ms", when, took);
	return took;
}

/* "<LABEL>: 0x00c1 none, 0x00c2 at 0x1f, ...": the indexes of TABLE as
 * the daemon logs them, in the order the shipped rules name the features. */
static void told_segment(const struct logi_table *table, const char *label, char *out,
			 size_t size)
{
	static const uint16_t named[] = {
		HIDPP_F_DFU_CONTROL, HIDPP_F_DFU_CONTROL_SIGNED, HIDPP_F_DFU_CONTROL_BOLT,
		HIDPP_F_DFU, HIDPP_F_RDFU,
	};
	size_t len = (size_t)snprintf(out, size, "%s:", label);

	for (size_t i = 0; i < ARRAY_SIZE(named) && len < size; i++) {
		uint8_t index = table ? logi_table_index(table, named[i]) : 0;

		if (index)
			len += (size_t)snprintf(out + len, size - len, "%s 0x%04x at 0x%02x",
						i ? "," : "", named[i], index);
		else
			len += (size_t)snprintf(out + len, size - len, "%s 0x%04x none",
						i ? "," : "", named[i]);
	}
}

/* The daemon logged TABLE as the mouse's within TIMEOUT_MS. */
static bool told(struct topo *t, const struct logi_table *table, int timeout_ms)
{
	char want[256];

	told_segment(table, kind == LOGI_DIRECT ? "0xff" : "1", want, sizeof(want));
	if (policyd_said(&t->run, want, timeout_ms))
		return true;
	test_log("the daemon never logged \"%s\"", want);
	return false;
}

/* Is SEGMENT (up to ';' or the end of the line) one of the true ones for
 * LABEL: the mouse's tables, or (the receiver's 0xFF) no feature at all? */
static bool segment_true(const char *segment, size_t len, bool receiver_self,
			 const struct logi_table *const *tables, size_t n_tables, const char *label)
{
	char want[256];

	if (receiver_self) {
		told_segment(NULL, "0xff", want, sizeof(want));
		return len == strlen(want) && !memcmp(segment, want, len);
	}
	for (size_t i = 0; i < n_tables; i++) {
		told_segment(tables[i], label, want, sizeof(want));
		if (len == strlen(want) && !memcmp(segment, want, len))
			return true;
	}
	return false;
}

/* Every line where the daemon logged what the receiver or the mouse told:
 * each fact about the mouse is one of TABLES, the receiver has no HID++
 * 2.0 feature. Returns the number of wrong lines (logged). */
static unsigned int wrong_facts(struct topo *t, const struct logi_table *const *tables,
				size_t n_tables)
{
	static char text[1 << 20];
	const char *key = "HID++ feature indexes it told: ";
	ssize_t n = read_file(t->run.stderr_log, text, sizeof(text) - 1);
	unsigned int wrong = 0;

	text[n > 0 ? n : 0] = '\0';
	for (char *line = text, *eol; *line; line = eol + 1) {
		bool on_receiver, on_own, bad = false;
		char *facts;

		eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		on_receiver = kind != LOGI_DIRECT && strstr(line, t->dev.sysname) &&
			      strstr(line, t->dev.sysname) < eol;
		on_own = (kind == LOGI_DIRECT && strstr(line, t->dev.sysname) &&
			  strstr(line, t->dev.sysname) < eol) ||
			 (t->own[0] && strstr(line, t->own) && strstr(line, t->own) < eol);
		facts = strstr(line, key);
		if ((!on_receiver && !on_own) || !facts || facts > eol)
			goto next;
		facts += strlen(key);
		for (char *s = facts, *end; s < eol; s = end + 2) {
			end = strstr(s, "; ");
			if (!end || end > eol)
				end = eol;
			if (on_receiver && !strncmp(s, "1:", 2))
				bad |= !segment_true(s, (size_t)(end - s), false, tables, n_tables, "1");
			else if (on_receiver && !strncmp(s, "0xff:", 5))
				bad |= !segment_true(s, (size_t)(end - s), true, tables, n_tables, NULL);
			else if (on_own && !strncmp(s, "0xff:", 5))
				bad |= !segment_true(s, (size_t)(end - s), false, tables, n_tables,
						     "0xff");
			if (end == eol)
				break;
		}
		if (bad) {
			wrong++;
			test_log("a wrong fact: %.*s", (int)(eol - line), line);
		}
next:
		if (!*eol)
			break;
	}
	return wrong;
}

static void learned_and_true(struct topo *t, const struct logi_table *table,
			     const struct logi_table *const *tables, size_t n_tables, int timeout_ms,
			     const char *when)
{
	char what[128];

	expect(told(t, table, timeout_ms), "%s: the daemon logs the indexes the mouse told", when);
	expect(settings_pass(t, table, timeout_ms, when) >= 0,
	       "%s: a DPI setting from uid %d reaches the mouse", when, USER_UID);
	snprintf(what, sizeof(what), "%s, learned", when);
	dfu_family_refused(t, table, what);
	expect(wrong_facts(t, tables, n_tables) == 0, "%s: the daemon logged no wrong fact", when);
}

/* ---- the cases ---- */

static void paired_at_start_dfu_family_is_refused_and_settings_pass(void)
{
	const struct logi_table *tables[] = { &logi_table_mouse };
	struct topo t;

	topo_start(&t, true, NULL);
	dfu_family_refused(&t, &logi_table_mouse, "at start");
	learned_and_true(&t, &logi_table_mouse, tables, 1, LEARN_MS * test_slow_factor(),
			 "at start");
	topo_end(&t);
}

static void paired_later_dfu_family_is_refused_and_settings_pass(void)
{
	const struct logi_table *tables[] = { &logi_table_mouse };
	struct topo t;

	topo_start(&t, false, NULL);
	/* nothing paired: index 1 is unknown */
	dfu_family_refused(&t, &logi_table_mouse, "nothing paired");
	logi_receiver_pair(t.rep, PAIRED, &logi_table_mouse, MOUSE_WPID, true);
	open_own_node(&t);
	dfu_family_refused(&t, &logi_table_mouse, "paired");
	learned_and_true(&t, &logi_table_mouse, tables, 1, LEARN_MS * test_slow_factor(),
			 "paired later");
	topo_end(&t);
}

/* A user writes register 0x02 "fake device arrival" (Solaar does, to list
 * the devices) again and again; the receiver announces the mouse each
 * time. */
static void a_users_flood_of_fake_arrivals_keeps_dfu_refused_and_settings_pass_after(void)
{
	static const uint8_t arrival[7] = { 0x10, 0xff, 0x80, 0x02, 0x02, 0x00, 0x00 };
	const struct logi_table *tables[] = { &logi_table_mouse };
	unsigned int arrivals, not_written = 0;
	struct topo t;
	long start, last_check = 0;
	int sent = 0;

	topo_start(&t, true, NULL);
	expect(settings_pass(&t, &logi_table_mouse, LEARN_MS * test_slow_factor(),
			     "before the flood") >= 0, "before the flood: a DPI setting passes");
	arrivals = logi_receiver_arrival_requests(t.rep);
	start = clock_ms();
	while (clock_ms() - start < 3000) {
		if (user_write(&t, t.fd, arrival, sizeof(arrival)) == 0)
			sent++;
		else
			not_written++;
		if (clock_ms() - last_check >= 700) {
			dfu_family_refused(&t, &logi_table_mouse, "during the flood");
			last_check = clock_ms();
		}
		usleep(20000);
	}
	usleep(OUTPUT_SETTLE_US);
	test_log("%d fake arrivals written, %u reached the receiver", sent,
		 logi_receiver_arrival_requests(t.rep) - arrivals);
	expect(not_written == 0, "the user's arrival writes pass (%u refused)", not_written);
	expect(logi_receiver_arrival_requests(t.rep) - arrivals > 10,
	       "the fake arrivals reach the receiver");
	/* bounded: a round a second, and the answers' time */
	learned_and_true(&t, &logi_table_mouse, tables, 1, 3000 * test_slow_factor(),
			 "after the flood");
	topo_end(&t);
}

/* fwupd updated the mouse: it leaves (link not established) and comes back
 * with a table where RDFU is at 0x05, the DPI feature's index before. */
static void a_firmware_update_that_moves_rdfu_to_a_settings_index_is_refused_there(void)
{
	const struct logi_table *tables[] = { &logi_table_mouse, &logi_table_mouse_updated };
	uint8_t rdfu = logi_table_index(&logi_table_mouse_updated, HIDPP_F_RDFU);
	const uint8_t m[20] = { 0x11, PAIRED, rdfu, 0x10 | SW_DFU, 0x01 };
	unsigned int before;
	struct topo t;

	if (kind == LOGI_DIRECT)
		SKIP("a Bluetooth LE mouse has no receiver to announce it");
	topo_start(&t, true, NULL);
	learned_and_true(&t, &logi_table_mouse, tables, 1, LEARN_MS * test_slow_factor(),
			 "before the update");
	logi_receiver_disconnect(t.rep, PAIRED);
	usleep(300000);
	before = logi_receiver_dfu_reached(t.rep);
	logi_receiver_connect(t.rep, PAIRED, &logi_table_mouse_updated);
	/* right after the notification, while the daemon asks */
	for (int i = 0; i < 3; i++) {
		int err = user_write(&t, t.fd, m, sizeof(m));

		expect(err == EPERM, "%d ms after the reconnection: RDFU's new index 0x%02x on the receiver's node: %s, expected EPERM",
		       i * 20, rdfu, err ? strerror(err) : "written");
		usleep(20000);
	}
	usleep(OUTPUT_SETTLE_US);
	expect(logi_receiver_dfu_reached(t.rep) == before,
	       "right after the reconnection: no RDFU request reaches the mouse (%u did)",
	       logi_receiver_dfu_reached(t.rep) - before);
	dfu_family_refused(&t, &logi_table_mouse_updated, "updated");
	learned_and_true(&t, &logi_table_mouse_updated, tables, 2, LEARN_MS * test_slow_factor(),
			 "updated");
	topo_end(&t);
}

static void faults(struct logi_receiver *rep)
{
	/* the daemon's first two questions lost, the third answered busy,
	 * the fourth 700 ms late */
	logi_receiver_lose(rep, 2, SPARED);
	logi_receiver_busy(rep, 1, SPARED);
	logi_receiver_delay_next(rep, 1, 700, SPARED);
}

static void lost_late_and_busy_answers_teach_no_wrong_index_and_are_asked_again(void)
{
	const struct logi_table *tables[] = { &logi_table_mouse };
	/* four rounds fail; a learner that waits 1 s, then 2, 4, 8 (doubling)
	 * before each new round has the answers in some 17 s */
	int limit = 25000 * test_slow_factor();
	struct topo t;
	long start;
	bool passed = false;

	topo_start(&t, true, faults);
	start = clock_ms();
	while (!passed && clock_ms() - start < limit) {
		dfu_family_refused(&t, &logi_table_mouse, "while answers go astray");
		passed = settings_pass(&t, &logi_table_mouse, 500, "while answers go astray") >= 0;
	}
	expect(passed, "the mouse is learned within %d ms despite lost, busy and late answers",
	       limit);
	test_log("the mouse was asked %u IRoot and IFeatureSet questions",
		 logi_receiver_questions(t.rep, kind == LOGI_DIRECT ? SELF : PAIRED, -1));
	learned_and_true(&t, &logi_table_mouse, tables, 1, 2000 * test_slow_factor(),
			 "after the faults");
	topo_end(&t);
}

/* While the receiver takes each write 3 s late (the daemon asks the mouse
 * its receiver announced), game controllers are plugged in one after the
 * other for 5 s: the daemon protects each as soon as its node is there.
 * The node itself may come late: hidraw makes it only once no write to
 * any node is under way (hidraw_write() holds minors_rwsem for reading,
 * hidraw_connect() takes it for writing), so any program's blocked write,
 * the daemon's writer thread's included, holds it back; that is the
 * kernel's, logged, not checked (doc/security.md, section 8). */
static void a_receiver_whose_writes_stall_does_not_hold_up_another_devices_hotplug(void)
{
	static const uint8_t pad_rdesc[] = UHID_CLASS_RDESC(0x05);
	const struct uhid_dev_config pad = {
		.name = "Sony Interactive Entertainment DualSense Wireless Controller",
		.vendor = 0x054c, .product = 0x0ce6,
		.rdesc = pad_rdesc, .rdesc_size = sizeof(pad_rdesc),
	};
	const int limit = 1500 * test_slow_factor();
	long begin, created, start, took, worst = 0;
	struct uhid_dev dev;
	struct topo t;
	int plugged = 0;
	bool ok = true;

	if (kind == LOGI_DIRECT)
		SKIP("the Bluetooth LE mouse: the receivers' case covers it");
	topo_start(&t, true, NULL);
	expect(settings_pass(&t, &logi_table_mouse, LEARN_MS * test_slow_factor(),
			     "before the stall") >= 0, "before the stall: a DPI setting passes");
	logi_receiver_stall_writes(t.rep, 3000);
	/* the mouse is announced: the daemon asks it */
	logi_receiver_connect(t.rep, PAIRED, &logi_table_mouse);
	CHECK_OK(test_dev_generic_driver_only(true));
	for (begin = clock_ms(); clock_ms() - begin < 5000; plugged++) {
		usleep(200000);
		created = clock_ms();
		CHECK_OK(uhid_dev_create(&dev, &pad));
		start = clock_ms();
		ok = protected(&t, dev.sysname, 30000) && ok;
		took = clock_ms() - start;
		worst = took > worst ? took : worst;
		test_log("controller %s, plugged in %ld ms after the announcement: its node there %ld ms later, protected %ld ms after that",
			 dev.sysname, created - begin, start - created, took);
		uhid_dev_destroy(&dev);
	}
	expect(ok && worst <= limit,
	       "the daemon protects each of %d devices plugged in within %d ms of its node while the receiver stalls its writes (the slowest: %ld ms)",
	       plugged, limit, worst);
	logi_receiver_stall_writes(t.rep, 0);
	topo_end(&t);
}

/* The answer to Q (on FD within TIMEOUT_MS): a report whose bytes FROM to
 * UPTO - 1 are Q's (a register read's answer echoes its device index,
 * sub-ID, register and part; a feature's, its index and function byte). */
static bool answer_seen(int fd, const uint8_t *q, size_t from, size_t upto, int timeout_ms)
{
	uint8_t r[32];

	for (long end = clock_ms() + timeout_ms; clock_ms() < end;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 50) != 1)
			continue;
		n = read(fd, r, sizeof(r));
		if (n >= (ssize_t)upto && !memcmp(r + from, q + from, upto - from))
			return true;
	}
	return false;
}

/*
 * Solaar's first question to a receiver it opens, a HID++ 1.0 register
 * read at 0xFF: long register 0xB5 (pairing information), part 0x03, the
 * receiver's serial number (Solaar receiver.py Receiver.initialize,
 * RECEIVER_INFO; sent as 10 ff 83 b5 03: sub-ID 0x83 is in byte 2, where a
 * HID++ 2.0 message has its feature index). Until the receiver told the
 * daemon that it speaks HID++ 1.0 there (no feature at 0xFF) the rules
 * naming features refuse it with every index but IRoot's; once it told,
 * the read passes and the receiver answers. With OVERLAY the daemon runs
 * from an overlay whose layers are on different file systems, as apt
 * installs it in the package suite's Debian guest (a tmpfs over the shared
 * root): there it took itself for no program, refused its own questions,
 * and the read stayed refused for good.
 */
static void solaars_register_read_of_the_receiver_passes_once_it_told(bool overlay)
{
	const uint8_t q[7] = { 0x10, SELF, 0x83, 0xb5, 0x03, 0x00, 0x00 };
	const char *build = getenv("HID_POLICY_BUILDDIR") ?: "build";
	char dir[] = "/tmp/hp-daemon-overlay.XXXXXX", path[PATH_MAX], options[PATH_MAX + 256];
	char want[256];
	struct topo t;
	int err = EPERM;

	if (kind == LOGI_DIRECT)
		SKIP("a Bluetooth LE mouse has no receiver");
	if (overlay) {
		/* lower: the build's policyd directory (9p); upper: a tmpfs */
		CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
		snprintf(path, sizeof(path), "%s/rw", dir);
		CHECK_OK(mkdir(path, 0755));
		CHECK_OK(mount("tmpfs", path, "tmpfs", 0, "mode=0755"));
		snprintf(path, sizeof(path), "%s/rw/upper", dir);
		CHECK_OK(mkdir(path, 0755));
		snprintf(path, sizeof(path), "%s/rw/work", dir);
		CHECK_OK(mkdir(path, 0755));
		snprintf(path, sizeof(path), "%s/merged", dir);
		CHECK_OK(mkdir(path, 0755));
		snprintf(options, sizeof(options),
			 "lowerdir=%s/policyd,upperdir=%s/rw/upper,workdir=%s/rw/work,xino=off",
			 build, dir, dir);
		CHECK(mount("overlay", path, "overlay", 0, options) == 0, "mount overlay %s: %s",
		      options, strerror(errno));
		snprintf(path, sizeof(path), "%s/merged/hid-policyd", dir);
		daemon_file = path;
	}
	topo_start(&t, true, NULL);
	daemon_file = NULL;
	if (overlay)
		expect(policyd_said(&t.run, "without xino", 3000 * test_slow_factor()),
		       "the daemon warns that it runs from an overlay whose layers share inode numbers");
	told_segment(NULL, "0xff", want, sizeof(want));
	expect(policyd_said(&t.run, want, LEARN_MS * test_slow_factor()),
	       "the daemon logs that the receiver has no HID++ 2.0 feature at 0xff (\"%s\")", want);
	for (long end = clock_ms() + LEARN_MS * test_slow_factor(); err && clock_ms() < end;) {
		err = user_write(&t, t.fd, q, sizeof(q));
		if (err)
			usleep(100000);
	}
	expect(err == 0, "Solaar's read 10 ff 83 b5 03 from uid %d passes: %s", USER_UID,
	       err ? strerror(err) : "written");
	expect(!err && answer_seen(t.fd, q, 1, 5, 2000 * test_slow_factor()),
	       "the receiver answers Solaar's read");
	topo_end(&t);
	if (overlay) {
		snprintf(path, sizeof(path), "%s/merged", dir);
		CHECK_OK(umount2(path, MNT_DETACH));
		snprintf(path, sizeof(path), "%s/rw", dir);
		CHECK_OK(umount2(path, MNT_DETACH));
		snprintf(path, sizeof(path), "rm -rf '%s'", dir);
		CHECK_OK(system(path));
	}
}

/* udev opened NODE to users (the stand-in rule's 0666) within
 * TIMEOUT_MS: how long it took (ms), or -1. A udev-driven client
 * (Solaar, fwupd) opens a node once udev tells it the node is there,
 * after the rules ran; the mode is the last thing they change. */
static long opened_to_users(const char *node, int timeout_ms)
{
	long start = clock_ms();
	struct stat st;

	for (;;) {
		if (stat(node, &st) == 0 && (st.st_mode & 0066) == 0066)
			return clock_ms() - start;
		if (clock_ms() - start > timeout_ms)
			return -1;
		usleep(1000);
	}
}

/* What a client sends first, the moment the node is open to it, from uid
 * 1000 on FD: NAME, Q (LEN bytes) must pass and be answered (bytes FROM
 * to UPTO - 1 echoed). */
static void passes_at_once(struct topo *t, int fd, const char *name, const uint8_t *q,
			   size_t len, size_t from, size_t upto)
{
	int err = user_write(t, fd, q, len);

	expect(err == 0, "%s (%02x %02x %02x %02x ...) from uid %d the moment udev opened the node passes: %s",
	       name, q[0], q[1], q[2], q[3], USER_UID, err ? strerror(err) : "written");
	expect(!err && answer_seen(fd, q, from, upto, 2000 * test_slow_factor()),
	       "%s is answered", name);
}

/* Did the daemon log a line about SYSNAME that says TEXT? */
static bool daemon_said_of(const struct policyd_run *run, const char *sysname, const char *text)
{
	FILE *f = fopen(run->stderr_log, "re");
	char line[1024];
	bool said = false;

	while (f && !said && fgets(line, sizeof(line), f))
		said = strstr(line, sysname) && strstr(line, text);
	if (f)
		fclose(f);
	return said;
}

/* The daemon's lines about SYSNAME and its reloads, into the test's log:
 * for the reader of a failure, what it decided and when its rounds
 * ended. */
static void log_daemon_lines(const struct policyd_run *run, const char *sysname)
{
	FILE *f = fopen(run->stderr_log, "re");
	char line[1024];

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, sysname) || strstr(line, "reload"))
			test_log("daemon: %s", line);
	}
	if (f)
		fclose(f);
}

/* The daemon as udev's rule finds it: the shipped rules, its decisions in
 * /run/hid-policy (the rule's helper reads them there). */
static char udev_policies[512];
static const char *const udev_daemon_args[] = {
	"--config-dir", udev_policies, "--runtime-dir", "/run/hid-policy", NULL,
};

/* The real udevd with the repository's rule and one that opens every
 * node to users after it, the daemon, a user's writer; then the receiver
 * plugged in (the mouse paired at 1 when PAIRED), its answers to the
 * daemon's questions 300 ms late when SLOW. */
static void udev_topo_start(struct topo *t, struct udevd_run *u, bool paired, bool slow)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	int r;

	memset(t, 0, sizeof(*t));
	t->fd = t->own_fd = -1;
	failures = 0;
	r = udevd_start(u, true, UDEVD_OPEN_TO_USERS_RULE);
	if (r == -ENOENT)
		SKIP("systemd-udevd is not installed (Debian package udev; scripts/deps.sh)");
	CHECK_OK(r);
	CHECK_OK(test_dev_generic_driver_only(false));
	snprintf(udev_policies, sizeof(udev_policies), "%s/policies", src);
	CHECK_OK(policyd_prepare(&t->run));
	CHECK_OK(policyd_start(&t->run, udev_daemon_args));
	CHECK_OK(user_writer_start(&t->user, USER_UID, USER_UID));
	t->rep = logi_receiver_new(kind, backend);
	if (paired)
		logi_receiver_pair(t->rep, PAIRED, &logi_table_mouse, MOUSE_WPID, true);
	/* every question but the kernel's and the test's */
	if (slow)
		logi_receiver_delay_next(t->rep, 100000, 300, SPARED);
	CHECK_OK(logi_receiver_create(t->rep, &t->dev));
}

/*
 * The receiver is plugged in while udev and the daemon run: the rule
 * holds its node until the daemon decides, and a client that opens it the
 * moment udev opens it to users (Solaar and fwupd watch udev) sends at
 * once Solaar's first register reads at 0xFF (firmware, 10 ff 81 f1 01;
 * serial, 10 ff 83 b5 03: Solaar receiver.py) and a feature read at the
 * paired mouse's index 1 (getDeviceNameCount). Each passes and is
 * answered, because the daemon decides once the receiver's first round of
 * HID++ questions has ended; the DFU family is refused all the same. On a
 * Unifying receiver the mouse's own node (hid-logitech-dj's) opens once
 * the receiver's round at index 1 ended, and a read there passes too.
 */
static void a_client_that_opens_the_receiver_when_udev_does_is_answered_and_dfu_refused(void)
{
	uint8_t name_index = logi_table_index(&logi_table_mouse, HIDPP_F_DEVICE_NAME);
	const uint8_t firmware[7] = { 0x10, SELF, 0x81, 0xf1, 0x01 };
	const uint8_t serial[7] = { 0x10, SELF, 0x83, 0xb5, 0x03 };
	const uint8_t name_count[20] = { 0x11, PAIRED, name_index, 0x00 | SW_SETTINGS };
	const uint8_t own_name_count[20] = { 0x11, SELF, name_index, 0x00 | SW_SETTINGS_OWN };
	char hidraw[300] = "";
	struct udevd_run u;
	struct topo t;
	long took;

	udev_topo_start(&t, &u, true, false);
	took = opened_to_users(t.dev.hidraw, 10000 * test_slow_factor());
	CHECK(took >= 0, "udev never opened the receiver's node %s to users", t.dev.hidraw);
	t.fd = open(t.dev.hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t.fd >= 0, "%s: %s", t.dev.hidraw, strerror(errno));
	passes_at_once(&t, t.fd, "Solaar's firmware read", firmware, sizeof(firmware), 1, 5);
	passes_at_once(&t, t.fd, "Solaar's serial read", serial, sizeof(serial), 1, 5);
	passes_at_once(&t, t.fd, "a feature read at index 1", name_count, sizeof(name_count), 1, 4);
	test_log("udev opened the receiver's node %ld ms after it appeared", took);
	expect(took < 5000, "the node opened from the daemon's decision, before the rule's 5 s time-out (%ld ms)",
	       took);

	if (kind == LOGI_UNIFYING) {
		CHECK_OK(logi_receiver_child_hidraw(&t.dev, PAIRED, hidraw, sizeof(hidraw), t.own,
						    sizeof(t.own), CHILD_MS * test_slow_factor()));
		took = opened_to_users(hidraw, 10000 * test_slow_factor());
		CHECK(took >= 0, "udev never opened the mouse's own node %s to users", hidraw);
		t.own_fd = open(hidraw, O_RDWR | O_CLOEXEC);
		CHECK(t.own_fd >= 0, "%s: %s", hidraw, strerror(errno));
		/* hid-logitech-dj passes the answer on with the device's index */
		passes_at_once(&t, t.own_fd, "a feature read on the mouse's own node", own_name_count,
			       sizeof(own_name_count), 2, 4);
	}
	dfu_family_refused(&t, &logi_table_mouse, "the moment udev opened the nodes");

	/* A reload and a restart (which asks the receiver anew) hold
	 * nothing: the decisions are published, the nodes stay open. */
	CHECK_OK(policyd_reload(&t.run));
	policyd_stop(&t.run, false);
	CHECK_OK(policyd_start(&t.run, udev_daemon_args));
	CHECK(policyd_said(&t.run, "adopted", 10000 * test_slow_factor()),
	      "the restarted daemon did not adopt the receiver's firewall");
	CHECK_OK(udevd_wait_idle(5000));
	expect(opened_to_users(t.dev.hidraw, 0) >= 0,
	       "the receiver's node stays open to users over a reload and a restart");
	expect(kind != LOGI_UNIFYING || opened_to_users(hidraw, 0) >= 0,
	       "the mouse's own node stays open to users over a reload and a restart");
	topo_end(&t);
	CHECK_OK(udevd_stop(&u));
}

/*
 * A mouse that connects after the receiver came (asleep at plug-in, or
 * paired later): hid-logitech-dj makes its node then, and a client that
 * opens it the moment udev does (fwupd probes a paired device there) has
 * its feature read passed and answered, the DFU family refused.
 */
static void a_mouse_that_connects_later_opens_once_the_receiver_asked_it(void)
{
	uint8_t name_index = logi_table_index(&logi_table_mouse, HIDPP_F_DEVICE_NAME);
	const uint8_t own_name_count[20] = { 0x11, SELF, name_index, 0x00 | SW_SETTINGS_OWN };
	char hidraw[300];
	struct udevd_run u;
	struct topo t;
	long took;

	if (kind != LOGI_UNIFYING)
		SKIP("only hid-logitech-dj's Unifying receiver gives a paired device a node");
	udev_topo_start(&t, &u, false, false);
	CHECK(opened_to_users(t.dev.hidraw, 10000 * test_slow_factor()) >= 0,
	      "udev never opened the receiver's node %s to users", t.dev.hidraw);
	t.fd = open(t.dev.hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t.fd >= 0, "%s: %s", t.dev.hidraw, strerror(errno));
	logi_receiver_pair(t.rep, PAIRED, &logi_table_mouse, MOUSE_WPID, true);
	CHECK_OK(logi_receiver_child_hidraw(&t.dev, PAIRED, hidraw, sizeof(hidraw), t.own,
					    sizeof(t.own), CHILD_MS * test_slow_factor()));
	took = opened_to_users(hidraw, 10000 * test_slow_factor());
	CHECK(took >= 0, "udev never opened the mouse's own node %s to users", hidraw);
	test_log("udev opened the mouse's own node %ld ms after it appeared", took);
	t.own_fd = open(hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t.own_fd >= 0, "%s: %s", hidraw, strerror(errno));
	passes_at_once(&t, t.own_fd, "a feature read on the mouse's own node", own_name_count,
		       sizeof(own_name_count), 2, 4);
	dfu_family_refused(&t, &logi_table_mouse, "the moment udev opened the mouse's node");
	topo_end(&t);
	CHECK_OK(udevd_stop(&u));
}

/*
 * A paired mouse that answers each of the daemon's questions 300 ms late
 * (a radio link on its last legs; the round, some 40 questions, would take
 * 12 s): the daemon publishes its decision on the receiver after 3 s,
 * well before the rule's 5 s time-out would have kept the node closed, and
 * says so. What the receiver told passes (Solaar's serial read at 0xFF);
 * what the mouse has not told stays refused (a feature read at index 1).
 */
static void a_receiver_whose_mouse_answers_slowly_opens_after_three_seconds(void)
{
	uint8_t name_index = logi_table_index(&logi_table_mouse, HIDPP_F_DEVICE_NAME);
	const uint8_t serial[7] = { 0x10, SELF, 0x83, 0xb5, 0x03 };
	const uint8_t name_count[20] = { 0x11, PAIRED, name_index, 0x00 | SW_SETTINGS };
	struct udevd_run u;
	struct topo t;
	long took;
	int err;

	udev_topo_start(&t, &u, true, true);
	took = opened_to_users(t.dev.hidraw, 10000 * test_slow_factor());
	CHECK(took >= 0, "udev never opened the receiver's node %s to users", t.dev.hidraw);
	test_log("udev opened the receiver's node %ld ms after it appeared", took);
	expect(took >= 2500 && took < 5000,
	       "the node opened from the daemon's decision after its 3 s, before the rule's 5 s time-out (%ld ms)",
	       took);
	expect(policyd_said(&t.run, "did not end in 3000 ms", 0),
	       "the daemon says the receiver's first round did not end in 3 s");
	t.fd = open(t.dev.hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t.fd >= 0, "%s: %s", t.dev.hidraw, strerror(errno));
	passes_at_once(&t, t.fd, "Solaar's serial read", serial, sizeof(serial), 1, 5);
	err = user_write(&t, t.fd, name_count, sizeof(name_count));
	expect(err == EPERM, "a feature read at index 1, which the mouse has not told, is refused: %s",
	       err ? strerror(err) : "written");
	topo_end(&t);
	CHECK_OK(udevd_stop(&u));
}

/* ---- the life around a held decision: change events, a driver bound
 * again, a reload ---- */

/* Where the daemon publishes its decisions for udev's rule
 * (udev_daemon_args' runtime directory). */
#define DECISIONS_DIR	"/run/hid-policy/devices"

/* The daemon's decision on SYSNAME for udev: 1 protected, 0 unprotected,
 * -1 none published. */
static int decision_of(const char *sysname)
{
	char path[PATH_MAX], text[32];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", DECISIONS_DIR, sysname);
	n = read_file(path, text, sizeof(text) - 1);
	if (n < 0)
		return -1;
	text[n] = '\0';
	return !strcmp(text, "protected\n");
}

/* Is NODE open to users now (the stand-in rule's 0666)? */
static bool open_to_users(const char *node)
{
	struct stat st;

	return stat(node, &st) == 0 && (st.st_mode & 0066) == 0066;
}

/* Watch NODE, every millisecond for up to TIMEOUT_MS, until it is open
 * to users with the daemon's decision on SYSNAME published: how long it
 * took (ms), or -1. *EARLY counts the looks that found it open with no
 * decision published: udev's rule must keep it closed until there is
 * one. (The node is looked at first: a decision published between the
 * two looks is not taken for an early opening.) */
static long opened_with_decision(const char *node, const char *sysname, int timeout_ms,
				 unsigned int *early)
{
	long start = clock_ms();

	for (;;) {
		if (open_to_users(node)) {
			if (decision_of(sysname) >= 0)
				return clock_ms() - start;
			++*early;
		}
		if (clock_ms() - start > timeout_ms)
			return -1;
		usleep(1000);
	}
}

/* NODE stayed open to users over FOR_MS (looked at every millisecond). */
static bool stays_open(const char *node, int for_ms)
{
	for (long start = clock_ms(); clock_ms() - start < for_ms; usleep(1000))
		if (!open_to_users(node))
			return false;
	return true;
}

/* What "udevadm trigger --action=change" does to the device of sysfs
 * directory SYSPATH: the kernel announces it again, ACTION=change. */
static void announce_change(const char *syspath)
{
	char path[PATH_MAX];
	int fd, r = 0;

	snprintf(path, sizeof(path), "%s/uevent", syspath);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "change", 6) != 6)
		r = -errno;
	if (fd >= 0)
		close(fd);
	CHECK(r == 0, "%s: %s", path, strerror(-r));
}

/* The sysfs directory of the receiver's hidraw node. */
static void hidraw_syspath(const struct topo *t, char *out, size_t size)
{
	const char *name = strrchr(t->dev.hidraw, '/');

	snprintf(out, size, "%s/hidraw/%s", t->dev.syspath, name ? name + 1 : t->dev.hidraw);
}

/* udev's database entry of NODE (its rules' properties at the last
 * event udevd ran for it) in TEXT; returns the entry's inode number, which
 * changes each time udevd writes it (a new file renamed over the old), or
 * 0 when there is none. */
static unsigned long udev_entry(const char *node, char *text, size_t size)
{
	char entry[64];
	struct stat st;
	ssize_t n = -1;

	text[0] = '\0';
	if (stat(node, &st) < 0)
		return 0;
	snprintf(entry, sizeof(entry), "/run/udev/data/c%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	if (stat(entry, &st) < 0)
		return 0;
	n = read_file(entry, text, size - 1);
	text[n > 0 ? n : 0] = '\0';
	return st.st_ino;
}

/* Wait until udevd has run NODE's rules again since it wrote the entry
 * of inode BEFORE, then until it is idle; the entry it wrote in TEXT. */
static bool udev_ran_again(const char *node, unsigned long before, char *text, size_t size,
			   int timeout_ms)
{
	for (long end = clock_ms() + timeout_ms; clock_ms() < end; usleep(5000)) {
		unsigned long now = udev_entry(node, text, size);

		if (now && now != before)
			return udevd_wait_idle(5000) == 0;
	}
	return false;
}

/*
 * "udevadm trigger" (which packages such as steam-devices run as they
 * install) announces devices again with ACTION=change: here the
 * receiver's hidraw node and its HID device, half a second after the
 * receiver came, while the daemon holds its decision (the mouse answers
 * 300 ms late). udevd runs a device's events one after the other, so the
 * node's change waits behind its add, whose helper waits for the daemon:
 * the node opens at the decision, after the daemon's 3 s, and never
 * before it. Announced again once open, the node stays open: the rule's
 * helper finds the decision (udev's entry says "protected"), which the
 * daemon keeps, and Solaar's serial read passes.
 */
static void a_change_event_while_the_decision_is_held_opens_the_node_only_at_the_decision(void)
{
	const uint8_t serial[7] = { 0x10, SELF, 0x83, 0xb5, 0x03 };
	static char entry[8192];
	char node_dir[PATH_MAX];
	unsigned int early = 0;
	unsigned long written;
	struct udevd_run u;
	struct topo t;
	long start, took;

	udev_topo_start(&t, &u, true, true);
	start = clock_ms();
	hidraw_syspath(&t, node_dir, sizeof(node_dir));
	usleep(500000);
	expect(!open_to_users(t.dev.hidraw) && decision_of(t.dev.sysname) < 0,
	       "500 ms after the receiver came, its node is closed and no decision is published");
	announce_change(node_dir);
	announce_change(t.dev.syspath);
	took = opened_with_decision(t.dev.hidraw, t.dev.sysname, 10000 * test_slow_factor(), &early);
	CHECK(took >= 0, "udev never opened the receiver's node %s to users", t.dev.hidraw);
	took = clock_ms() - start;
	test_log("the node opened %ld ms after the receiver came (changes announced at 500 ms)", took);
	expect(early == 0, "the node is never open to users before the daemon's decision (open at %u looks without one)",
	       early);
	expect(took >= 2500 && took < 5000,
	       "the node opened at the daemon's decision after its 3 s, before the rule's 5 s time-out (%ld ms)",
	       took);

	/* after the decision */
	CHECK_OK(udevd_wait_idle(5000));
	written = udev_entry(t.dev.hidraw, entry, sizeof(entry));
	announce_change(node_dir);
	announce_change(t.dev.syspath);
	expect(stays_open(t.dev.hidraw, 500), "the node stays open to users while udev runs the change events");
	expect(udev_ran_again(t.dev.hidraw, written, entry, sizeof(entry), 5000 * test_slow_factor()),
	       "udev ran the rules of the node's change event");
	expect(strstr(entry, "E:HID_POLICY=protected\n") != NULL,
	       "the rule's helper found the decision at the change event (udev's entry: %s)", entry);
	expect(open_to_users(t.dev.hidraw), "the node is open to users after the change events");
	expect(decision_of(t.dev.sysname) == 1, "the daemon's decision is still published: protected");
	t.fd = open(t.dev.hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t.fd >= 0, "%s: %s", t.dev.hidraw, strerror(errno));
	passes_at_once(&t, t.fd, "Solaar's serial read after the change events", serial, sizeof(serial),
		       1, 5);
	topo_end(&t);
	CHECK_OK(udevd_stop(&u));
}

/*
 * The receiver's driver is unbound and bound again (sysfs; what a vendor
 * driver's module loaded after hid-generic took the device does) 800 ms
 * after it came, while the daemon holds its decision: the new node opens
 * only with the daemon's decision, after it asked the receiver anew, and
 * Solaar's serial read at 0xFF passes the moment it opens (the receiver
 * told since the bind); the mouse, not told yet, stays refused at index
 * 1, the DFU family too.
 */
static void a_driver_bound_again_while_the_decision_is_held_opens_the_new_node_with_it(void)
{
	uint8_t name_index = logi_table_index(&logi_table_mouse, HIDPP_F_DEVICE_NAME);
	const uint8_t serial[7] = { 0x10, SELF, 0x83, 0xb5, 0x03 };
	const uint8_t name_count[20] = { 0x11, PAIRED, name_index, 0x00 | SW_SETTINGS };
	const struct logi_table *tables[] = { &logi_table_mouse };
	char driver[64];
	unsigned int early = 0;
	struct udevd_run u;
	struct topo t;
	long took;
	int err;

	udev_topo_start(&t, &u, true, true);
	driver_of(t.dev.syspath, driver, sizeof(driver));
	usleep(800000);
	expect(!open_to_users(t.dev.hidraw), "800 ms after the receiver came its node is closed");
	CHECK_OK(uhid_dev_unbind(&t.dev, driver));
	CHECK_OK(uhid_dev_bind(&t.dev, driver, 5000 * test_slow_factor()));
	test_log("%s unbound from %s and bound again: its node %s", t.dev.sysname, driver,
		 t.dev.hidraw);
	took = opened_with_decision(t.dev.hidraw, t.dev.sysname, 10000 * test_slow_factor(), &early);
	CHECK(took >= 0, "udev never opened the receiver's new node %s to users", t.dev.hidraw);
	test_log("the new node opened %ld ms after the bind", took);
	expect(early == 0, "the new node is never open to users before the daemon's decision (open at %u looks without one)",
	       early);
	t.fd = open(t.dev.hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t.fd >= 0, "%s: %s", t.dev.hidraw, strerror(errno));
	passes_at_once(&t, t.fd, "Solaar's serial read on the new node", serial, sizeof(serial), 1, 5);
	err = user_write(&t, t.fd, name_count, sizeof(name_count));
	expect(err == EPERM, "a feature read at index 1, which the mouse has not told since the bind, is refused: %s",
	       err ? strerror(err) : "written");
	dfu_family_refused(&t, &logi_table_mouse, "bound again while held");
	expect(wrong_facts(&t, tables, 1) == 0, "the daemon logged no wrong fact");
	topo_end(&t);
	CHECK_OK(udevd_stop(&u));
}

/*
 * The receiver's driver is unbound and bound again long after the
 * decision, and meanwhile, while no driver listened, the mouse came back
 * with new firmware (its link notifications reached nobody): RDFU at
 * 0x05, where DPI was. What the receiver told before the unbind does not
 * hold any more. A user's RDFU request at 0x05 through the new node the
 * moment it is there (opened by root and handed over: whatever udev does
 * meanwhile), with every answer 300 ms late until then, is refused and
 * never reaches the mouse; udev opens the node only with the daemon's
 * decision, and then too RDFU at 0x05 is refused while Solaar's serial
 * read passes. The new table is learned and in force after.
 */
static void a_driver_bound_again_after_the_decision_keeps_nothing_it_told_before(void)
{
	const struct logi_table *tables[] = { &logi_table_mouse, &logi_table_mouse_updated };
	uint8_t rdfu = logi_table_index(&logi_table_mouse_updated, HIDPP_F_RDFU);
	const uint8_t serial[7] = { 0x10, SELF, 0x83, 0xb5, 0x03 };
	const uint8_t rdfu_request[20] = { 0x11, PAIRED, rdfu, 0x10 | SW_DFU, 0x01 };
	unsigned int early = 0, before;
	char driver[64];
	struct udevd_run u;
	struct topo t;
	long bound, took;
	int err;

	udev_topo_start(&t, &u, true, false);
	CHECK(opened_to_users(t.dev.hidraw, 10000 * test_slow_factor()) >= 0,
	      "udev never opened the receiver's node %s to users", t.dev.hidraw);
	expect(told(&t, &logi_table_mouse, LEARN_MS * test_slow_factor()),
	       "before the unbind: the daemon logs the indexes the mouse told");
	driver_of(t.dev.syspath, driver, sizeof(driver));
	CHECK_OK(uhid_dev_unbind(&t.dev, driver));
	logi_receiver_disconnect(t.rep, PAIRED);
	usleep(100000);
	logi_receiver_connect(t.rep, PAIRED, &logi_table_mouse_updated);
	usleep(100000);
	/* every answer from now on 300 ms late, the receiver's own too */
	logi_receiver_set_delay(t.rep, 300, 300);
	before = logi_receiver_dfu_reached(t.rep);
	CHECK_OK(uhid_dev_bind(&t.dev, driver, 5000 * test_slow_factor()));
	bound = clock_ms();
	t.fd = open(t.dev.hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t.fd >= 0, "%s: %s", t.dev.hidraw, strerror(errno));
	err = user_write(&t, t.fd, rdfu_request, sizeof(rdfu_request));
	expect(err == EPERM, "RDFU at its new index 0x%02x (11 01 %02x %02x) from uid %d %ld ms after the bind: %s, expected EPERM",
	       rdfu, rdfu, rdfu_request[3], USER_UID, clock_ms() - bound,
	       err ? strerror(err) : "written");
	/* the answers on time again: the daemon's round since the bind ends
	 * within the hold (6.1's hid-logitech-dj and -hidpp question the
	 * receiver too, and all of it 300 ms late outlasts the 3 s) */
	logi_receiver_set_delay(t.rep, 2, 8);

	took = opened_with_decision(t.dev.hidraw, t.dev.sysname, 10000 * test_slow_factor(), &early);
	CHECK(took >= 0, "udev never opened the receiver's new node %s to users", t.dev.hidraw);
	took = clock_ms() - bound;
	test_log("udev opened the new node %ld ms after the bind", took);
	expect(early == 0, "the new node is never open to users before the daemon's decision (open at %u looks without one)",
	       early);
	err = user_write(&t, t.fd, rdfu_request, sizeof(rdfu_request));
	expect(err == EPERM, "RDFU at 0x%02x from uid %d the moment udev opened the new node: %s, expected EPERM",
	       rdfu, USER_UID, err ? strerror(err) : "written");
	passes_at_once(&t, t.fd, "Solaar's serial read on the new node", serial, sizeof(serial), 1, 5);
	usleep(OUTPUT_SETTLE_US);
	expect(logi_receiver_dfu_reached(t.rep) == before,
	       "no RDFU request reached the mouse after the bind (%u did)",
	       logi_receiver_dfu_reached(t.rep) - before);
	dfu_family_refused(&t, &logi_table_mouse_updated, "bound again");
	learned_and_true(&t, &logi_table_mouse_updated, tables, 2, LEARN_MS * test_slow_factor(),
			 "bound again, updated");
	topo_end(&t);
	CHECK_OK(udevd_stop(&u));
}

/*
 * The daemon reloads its policy (SIGHUP, as "hid-policyctl reload" asks)
 * 2 s into the hold of the receiver's decision: the reload publishes
 * nothing early, nor starts the hold again; the node opens at the
 * daemon's 3 s, from the receiver's coming, and Solaar's serial read
 * passes.
 */
static void a_reload_while_the_decision_is_held_opens_the_node_neither_early_nor_late(void)
{
	const uint8_t serial[7] = { 0x10, SELF, 0x83, 0xb5, 0x03 };
	unsigned int early = 0;
	struct udevd_run u;
	struct topo t;
	long start, took, reloaded;

	udev_topo_start(&t, &u, true, true);
	start = clock_ms();
	usleep(2000000);
	expect(!open_to_users(t.dev.hidraw) && decision_of(t.dev.sysname) < 0,
	       "2 s after the receiver came its node is closed and no decision is published");
	reloaded = clock_ms();
	CHECK_OK(policyd_reload(&t.run));
	reloaded = clock_ms() - reloaded;
	took = opened_with_decision(t.dev.hidraw, t.dev.sysname, 10000 * test_slow_factor(), &early);
	CHECK(took >= 0, "udev never opened the receiver's node %s to users", t.dev.hidraw);
	took = clock_ms() - start;
	test_log("the node opened %ld ms after the receiver came (reloaded at 2000 ms, in %ld ms; %s)",
		 took, reloaded, daemon_said_of(&t.run, t.dev.sysname, "did not end in") ?
		 "published at the daemon's 3 s bound" : "published as its first round ended");
	expect(early == 0, "the node is never open to users before the daemon's decision (open at %u looks without one)",
	       early);
	expect(took >= 2500 && took < 4500,
	       "the node opened at the daemon's 3 s from the receiver's coming, not from the reload (%ld ms)",
	       took);
	if (failures)
		log_daemon_lines(&t.run, t.dev.sysname);
	t.fd = open(t.dev.hidraw, O_RDWR | O_CLOEXEC);
	CHECK(t.fd >= 0, "%s: %s", t.dev.hidraw, strerror(errno));
	passes_at_once(&t, t.fd, "Solaar's serial read", serial, sizeof(serial), 1, 5);
	topo_end(&t);
	CHECK_OK(udevd_stop(&u));
}

static void solaars_register_read_of_the_receiver_passes(void)
{
	solaars_register_read_of_the_receiver_passes_once_it_told(false);
}

static void solaars_register_read_passes_with_the_daemon_on_an_overlay_of_two_file_systems(void)
{
	solaars_register_read_of_the_receiver_passes_once_it_told(true);
}

/* The sysfs attribute DIR/NAME, its newline cut, into OUT ("" when it
 * cannot be read); its length, or -1. */
static ssize_t attr(const char *dir, const char *name, char *out, size_t size)
{
	char path[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = read_file(path, out, size - 1);
	out[n > 0 ? n : 0] = '\0';
	if (n > 0 && out[n - 1] == '\n')
		out[--n] = '\0';
	return n;
}

static void expect_attr(const char *dir, const char *name, const char *want)
{
	char value[128];

	attr(dir, name, value, sizeof(value));
	expect(!strcmp(value, want), "%s/%s is \"%s\", the receiver's is \"%s\"", dir, name,
	       value, want);
}

/* The report descriptor length that USB interface INTF's HID descriptor
 * declares (wDescriptorLength, what lsusb -v shows), from USB device
 * USB's descriptors as the host read them (the device descriptor, then
 * the configuration with all it holds); -1 when it has none. Also the
 * configuration's wTotalLength in *TOTAL. */
static int hid_descriptor_length(const char *usb, unsigned int intf, int *total)
{
	char path[PATH_MAX + 16];
	uint8_t d[1024];
	ssize_t n;
	int in = -1;

	*total = -1;
	snprintf(path, sizeof(path), "%s/descriptors", usb);
	n = read_file(path, d, sizeof(d));
	for (ssize_t at = 0; n > 0 && at + 2 <= n && d[at] >= 2; at += d[at]) {
		if (d[at + 1] == 2 && at + 4 <= n)		/* configuration */
			*total = d[at + 2] | d[at + 3] << 8;
		else if (d[at + 1] == 4 && at + 3 <= n)		/* interface */
			in = d[at + 2];
		else if (d[at + 1] == 0x21 && in == (int)intf && at + 9 <= n)	/* HID */
			return d[at + 7] | d[at + 8] << 8;
	}
	return -1;
}

/*
 * The Unifying replica describes itself as a real receiver with firmware
 * RQR12.11 does (lsusb -v of RQR12.07, fwupd plugins/logitech-hidpp/data/
 * lsusb-U0007.txt; of 12.10 and 12.11, see tests/lib/logitech_receiver.c):
 * interface 2's report descriptor of 93 bytes; on USB a full-speed device,
 * ep0 of 8 bytes, remote wakeup, 98 mA, the strings Logitech, USB Receiver
 * and RQR12.11_B0032 and no serial number, interfaces 0, 1 and 2 (boot
 * keyboard, boot mouse, HID++) with report descriptors of 59, 148 and 93
 * bytes and interrupt IN endpoints of 8, 8 and 32 bytes polled every 8, 2
 * and 2 ms, hid-logitech-dj bound to the third alone.
 */
static void the_unifying_receiver_describes_itself_as_a_real_rqr12_11_does(void)
{
	static const struct {
		const char *subclass, *protocol, *ep, *max_packet, *interval;
		int rdesc_size;
	} intf[] = {
		{ "01", "01", "ep_81", "0008", "08", 59 },
		{ "01", "02", "ep_82", "0008", "02", 148 },
		{ "00", "00", "ep_83", "0020", "02", 93 },
	};
	char hid[PATH_MAX], usb[PATH_MAX], dir[PATH_MAX + 16], driver[64], rdesc[4096];
	struct logi_receiver *rep;
	struct uhid_dev dev;
	int total = -1;

	if (kind != LOGI_UNIFYING)
		SKIP("the Unifying receiver's descriptors");
	failures = 0;
	CHECK_OK(test_dev_generic_driver_only(false));
	rep = logi_receiver_new(kind, backend);
	CHECK_OK(logi_receiver_create(rep, &dev));
	snprintf(dir, sizeof(dir), "%s/report_descriptor", dev.syspath);
	expect(read_file(dir, rdesc, sizeof(rdesc)) == 93,
	       "interface 2's report descriptor is not the receiver's 93 bytes");
	driver_of(dev.syspath, driver, sizeof(driver));
	expect(!strcmp(driver, "logitech-djreceiver"), "%s: driver %s", dev.sysname, driver);
	if (backend != TEST_DEV_USB)
		goto out;

	/* the HID device, its interface (1-1:1.2), its USB device (1-1) */
	CHECK(realpath(dev.syspath, hid), "%s: %s", dev.syspath, strerror(errno));
	snprintf(usb, sizeof(usb), "%s", hid);
	*strrchr(usb, '/') = '\0';
	*strrchr(usb, '/') = '\0';
	expect_attr(usb, "speed", "12");
	expect_attr(usb, "bMaxPacketSize0", "8");
	expect_attr(usb, "bcdDevice", "1211");
	expect_attr(usb, "manufacturer", "Logitech");
	expect_attr(usb, "product", "USB Receiver");
	expect_attr(usb, "configuration", "RQR12.11_B0032");
	expect_attr(usb, "bmAttributes", "a0");
	expect_attr(usb, "bMaxPower", "98mA");
	expect_attr(usb, "bNumInterfaces", " 3");
	snprintf(dir, sizeof(dir), "%s/serial", usb);
	expect(access(dir, F_OK) < 0, "the replica has a serial number (%s); the receiver has none",
	       dir);
	for (unsigned int k = 0; k < ARRAY_SIZE(intf); k++) {
		char ep[PATH_MAX + 32];
		int length;

		snprintf(dir, sizeof(dir), "%s/%s:1.%u", usb, strrchr(usb, '/') + 1, k);
		expect_attr(dir, "bInterfaceClass", "03");
		expect_attr(dir, "bInterfaceSubClass", intf[k].subclass);
		expect_attr(dir, "bInterfaceProtocol", intf[k].protocol);
		expect_attr(dir, "bNumEndpoints", "01");
		snprintf(ep, sizeof(ep), "%s/%s", dir, intf[k].ep);
		expect_attr(ep, "wMaxPacketSize", intf[k].max_packet);
		expect_attr(ep, "bInterval", intf[k].interval);
		length = hid_descriptor_length(usb, k, &total);
		expect(length == intf[k].rdesc_size,
		       "interface %u's report descriptor: %d bytes, the receiver's %d", k, length,
		       intf[k].rdesc_size);
	}
	expect(total == 84, "the configuration is %d bytes, the receiver's 84", total);
out:
	logi_receiver_free(rep);
	CHECK(failures == 0, "%u check(s) failed (above)", failures);
}

static const struct test_case receiver_cases[] = {
	{ "the_unifying_receiver_describes_itself_as_a_real_rqr12_11_does",
	  the_unifying_receiver_describes_itself_as_a_real_rqr12_11_does, 60 },
	{ "a_client_that_opens_the_receiver_when_udev_does_is_answered_and_dfu_refused",
	  a_client_that_opens_the_receiver_when_udev_does_is_answered_and_dfu_refused, 180 },
	{ "a_mouse_that_connects_later_opens_once_the_receiver_asked_it",
	  a_mouse_that_connects_later_opens_once_the_receiver_asked_it, 180 },
	{ "a_receiver_whose_mouse_answers_slowly_opens_after_three_seconds",
	  a_receiver_whose_mouse_answers_slowly_opens_after_three_seconds, 180 },
	{ "a_change_event_while_the_decision_is_held_opens_the_node_only_at_the_decision",
	  a_change_event_while_the_decision_is_held_opens_the_node_only_at_the_decision, 180 },
	{ "a_driver_bound_again_while_the_decision_is_held_opens_the_new_node_with_it",
	  a_driver_bound_again_while_the_decision_is_held_opens_the_new_node_with_it, 180 },
	{ "a_driver_bound_again_after_the_decision_keeps_nothing_it_told_before",
	  a_driver_bound_again_after_the_decision_keeps_nothing_it_told_before, 180 },
	{ "a_reload_while_the_decision_is_held_opens_the_node_neither_early_nor_late",
	  a_reload_while_the_decision_is_held_opens_the_node_neither_early_nor_late, 180 },
	{ "solaars_register_read_of_the_receiver_passes",
	  solaars_register_read_of_the_receiver_passes, 180 },
	{ "solaars_register_read_passes_with_the_daemon_on_an_overlay_of_two_file_systems",
	  solaars_register_read_passes_with_the_daemon_on_an_overlay_of_two_file_systems, 180 },
	{ "paired_at_start_dfu_family_is_refused_and_settings_pass",
	  paired_at_start_dfu_family_is_refused_and_settings_pass, 180 },
	{ "paired_later_dfu_family_is_refused_and_settings_pass",
	  paired_later_dfu_family_is_refused_and_settings_pass, 180 },
	{ "a_users_flood_of_fake_arrivals_keeps_dfu_refused_and_settings_pass_after",
	  a_users_flood_of_fake_arrivals_keeps_dfu_refused_and_settings_pass_after, 180 },
	{ "a_firmware_update_that_moves_rdfu_to_a_settings_index_is_refused_there",
	  a_firmware_update_that_moves_rdfu_to_a_settings_index_is_refused_there, 180 },
	{ "lost_late_and_busy_answers_teach_no_wrong_index_and_are_asked_again",
	  lost_late_and_busy_answers_teach_no_wrong_index_and_are_asked_again, 180 },
	{ "a_receiver_whose_writes_stall_does_not_hold_up_another_devices_hotplug",
	  a_receiver_whose_writes_stall_does_not_hold_up_another_devices_hotplug, 180 },
};

/* A Bluetooth LE mouse is a uhid device (BlueZ's HoG): bus Bluetooth,
 * hid-logitech-hidpp binds it, its own node, HID++ at 0xFF. */
static const struct test_case ble_cases[] = {
	{ "paired_at_start_dfu_family_is_refused_and_settings_pass",
	  paired_at_start_dfu_family_is_refused_and_settings_pass, 180 },
	{ "lost_late_and_busy_answers_teach_no_wrong_index_and_are_asked_again",
	  lost_late_and_busy_answers_teach_no_wrong_index_and_are_asked_again, 180 },
};

int main(int argc, char **argv)
{
	static const struct {
		const char *suite;
		enum logi_receiver_kind kind;
		enum test_dev_backend backend;
	} runs[] = {
		{ "e2e-hidpp-topology/unifying", LOGI_UNIFYING, TEST_DEV_UHID },
		{ "e2e-hidpp-topology/unifying/usb", LOGI_UNIFYING, TEST_DEV_USB },
		{ "e2e-hidpp-topology/bolt", LOGI_BOLT, TEST_DEV_UHID },
		{ "e2e-hidpp-topology/bolt/usb", LOGI_BOLT, TEST_DEV_USB },
	};
	int failed = 0;

	test_dev_keep_driver_setting();
	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		kind = runs[i].kind;
		backend = runs[i].backend;
		failed |= test_main(argc, argv, runs[i].suite, receiver_cases,
				    ARRAY_SIZE(receiver_cases));
	}
	kind = LOGI_DIRECT;
	backend = TEST_DEV_UHID;
	failed |= test_main(argc, argv, "e2e-hidpp-topology/ble", ble_cases, ARRAY_SIZE(ble_cases));
	return failed;
}
