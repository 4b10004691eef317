// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hidraw race, measured in the test VM (bench/race_bench.sh): a virtual
 * DualSense appears ROUNDS times while hid-policyd runs with the shipped
 * policy, and a racer opens its hidraw node as soon as it can and at once
 * starts a firmware update (SET_REPORT feature 0xF4). Scenarios:
 *
 *   root             a root racer, no udev: root needs none to open the node;
 *   root-hold-probe  the same, with the user-space ordering that closes the
 *                    window on an unmodified kernel: drivers_autoprobe is 0 on
 *                    the hid bus, so a new device gets no driver and hence no
 *                    hidraw node until it is probed (echo SYSNAME >
 *                    /sys/bus/hid/drivers_probe), which happens here once the
 *                    decision is published. hid-policyd does not do this;
 *                    the benchmark does;
 *   user-no-rule     a uid-1000 racer, the real udevd with only a rule that
 *                    opens hidraw nodes to everybody (stand-in for Steam's
 *                    and uaccess rules), without 60-hid-policy.rules;
 *   user-rule        the same with 60-hid-policy.rules (what
 *                    tests/e2e/test-race.c asserts).
 *
 * Printed: how many requests reached the device; "window", from the racer
 * seeing the node to the daemon publishing its decision, which it does right
 * after attaching the firewall (inotify on the runtime directory's
 * devices/); "access", from the racer seeing the node to opening it;
 * "racer", from seeing the node to the request returning.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "hidraw_racer.h"
#include "policyd_run.h"
#include "udevd_run.h"
#include "uhid_dev.h"

#define MAX_ROUNDS 1000
#define MAX_DECISIONS MAX_ROUNDS
#define FIRMWARE_UPDATE_REPORT 0xf4
#define AUTOPROBE "/sys/bus/hid/drivers_autoprobe"
#define DRIVERS_PROBE "/sys/bus/hid/drivers_probe"
#define RUNTIME_DIR "/run/hid-policy"

static const char open_to_users_rule[] =
	"# stand-in for 60-steam-input.rules and uaccess\n"
	"ACTION==\"add\", KERNEL==\"hidraw*\", MODE=\"0666\"\n";

struct decision {
	char sysname[64];
	int64_t ns;
};

/* Decisions as they are published, with the time they were seen. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct decision seen[MAX_DECISIONS];
	size_t n;
	int inotify_fd;
	bool hold_probe;
} watch = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void die(const char *what, int r)
{
	fprintf(stderr, "bench-race: %s: %s\n", what, strerror(r < 0 ? -r : r));
	exit(1);
}

static int write_sysfs(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		r = -errno;
	close(fd);
	return r;
}

static bool seen_before(const char *sysname)
{
	bool seen = false;

	pthread_mutex_lock(&watch.lock);
	for (size_t i = 0; i < watch.n && !seen; i++)
		seen = !strcmp(watch.seen[i].sysname, sysname);
	pthread_mutex_unlock(&watch.lock);
	return seen;
}

static void *watch_decisions(void *arg)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	while ((n = read(watch.inotify_fd, buf, sizeof(buf))) > 0) {
		int64_t now = hidraw_racer_now_ns();

		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			int r;

			p += sizeof(*ev) + ev->len;
			/* The first decision only: a device is decided again on
			 * its bind event. */
			if (!ev->len || ev->name[0] == '.' || seen_before(ev->name))
				continue;
			if (watch.hold_probe) {
				r = write_sysfs(DRIVERS_PROBE, ev->name);
				if (r < 0)
					fprintf(stderr, "bench-race: probing %s: %s\n", ev->name,
						strerror(-r));
			}
			pthread_mutex_lock(&watch.lock);
			if (watch.n < MAX_DECISIONS) {
				snprintf(watch.seen[watch.n].sysname, sizeof(watch.seen[0].sysname),
					 "%s", ev->name);
				watch.seen[watch.n++].ns = now;
			}
			pthread_cond_broadcast(&watch.cond);
			pthread_mutex_unlock(&watch.lock);
		}
	}
	return NULL;
}

/* When the decision on SYSNAME was published; 0 if not within 10 s. */
static int64_t decided_at(const char *sysname)
{
	int64_t deadline = hidraw_racer_now_ns() + 10000000000LL, at = 0;

	pthread_mutex_lock(&watch.lock);
	while (!at && hidraw_racer_now_ns() < deadline) {
		struct timespec ts;

		for (size_t i = 0; i < watch.n && !at; i++)
			if (!strcmp(watch.seen[i].sysname, sysname))
				at = watch.seen[i].ns;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		if (!at)
			pthread_cond_timedwait(&watch.cond, &watch.lock, &ts);
	}
	pthread_mutex_unlock(&watch.lock);
	return at;
}

/* Keep the device until the daemon decided on it, so that every round
 * measures the window. */
static void wait_decided(const char *sysname, void *data)
{
	*(int64_t *)data = decided_at(sysname);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void print_ms(const char *label, int64_t *v, size_t n)
{
	if (!n) {
		printf("%-8s no data\n", label);
		return;
	}
	qsort(v, n, sizeof(*v), cmp_i64);
	printf("%-8s median %.2f ms, min %.2f ms, max %.2f ms (%zu rounds)\n", label,
	       v[n / 2] / 1e6, v[0] / 1e6, v[n - 1] / 1e6, n);
}

static const char *const scenarios[] = { "root", "root-hold-probe", "user-no-rule", "user-rule" };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{}
	};
	static int64_t window[MAX_ROUNDS], access_time[MAX_ROUNDS], racer_time[MAX_ROUNDS];
	const char *const daemon_args[] = { "--runtime-dir", RUNTIME_DIR, NULL };
	const struct uhid_dev_config dualsense = hidraw_race_dualsense();
	struct hidraw_racer_config racer_cfg = {
		.report = { FIRMWARE_UPDATE_REPORT, 0x00 },
		.size = HIDRAW_RACER_REPORT_MAX,
		.timeout_ms = 20000,
	};
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".", *scenario;
	unsigned long reached = 0, refused = 0, opened = 0;
	size_t n_window = 0, n_opened = 0;
	char path[512], policy[65536], old_autoprobe[8] = "1";
	struct udevd_run udevd = { .pid = -1 };
	struct policyd_run run;
	pthread_t thread;
	int rounds = 100, c, r;
	bool user;
	ssize_t len;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'r' || (rounds = atoi(optarg)) < 1 || rounds > MAX_ROUNDS) {
			fprintf(stderr, "usage: bench-race [--rounds 1..%d] SCENARIO\n", MAX_ROUNDS);
			return 2;
		}
	}
	scenario = optind < argc ? argv[optind] : "";
	for (c = 0; c < (int)(sizeof(scenarios) / sizeof(scenarios[0])); c++)
		if (!strcmp(scenario, scenarios[c]))
			break;
	if (c == (int)(sizeof(scenarios) / sizeof(scenarios[0]))) {
		fprintf(stderr, "bench-race: scenario: root, root-hold-probe, user-no-rule or user-rule\n");
		return 2;
	}
	watch.hold_probe = !strcmp(scenario, "root-hold-probe");
	user = !strncmp(scenario, "user", 4);
	if (user) {
		racer_cfg.drop_privileges = true;
		racer_cfg.uid = racer_cfg.gid = 1000;
		r = udevd_start(&udevd, !strcmp(scenario, "user-rule"), open_to_users_rule);
		if (r < 0)
			die("starting systemd-udevd (Debian package udev)", r);
	}

	snprintf(path, sizeof(path), "%s/policies/20-sony-dualsense.json", src);
	len = read_file(path, policy, sizeof(policy) - 1);
	if (len < 0)
		die(path, (int)len);
	policy[len] = '\0';
	if ((r = policyd_prepare(&run)) < 0 ||
	    (r = policyd_write_policy(&run, "20-sony-dualsense.json", policy)) < 0 ||
	    (r = policyd_start(&run, daemon_args)) < 0)
		die("starting hid-policyd", r);

	watch.inotify_fd = inotify_init1(IN_CLOEXEC);
	if (watch.inotify_fd < 0 ||
	    inotify_add_watch(watch.inotify_fd, RUNTIME_DIR "/devices", IN_MOVED_TO) < 0)
		die(RUNTIME_DIR "/devices", -errno);
	if ((r = -pthread_create(&thread, NULL, watch_decisions, NULL)) < 0)
		die("watcher thread", r);
	if (watch.hold_probe) {
		len = read_file(AUTOPROBE, old_autoprobe, sizeof(old_autoprobe) - 1);
		old_autoprobe[len > 0 ? len : 0] = '\0';
		if ((r = write_sysfs(AUTOPROBE, "0")) < 0)
			die(AUTOPROBE, r);
	}

	printf("scenario %s: %s racer against hid-policyd, %d rounds\n", scenario,
	       user ? "uid-1000" : "root", rounds);
	for (int i = 0; i < rounds; i++) {
		struct hidraw_race_round res;
		int64_t decided = 0;

		if ((r = hidraw_race_round(&racer_cfg, &dualsense, &res, wait_decided, &decided)) < 0)
			die("race round", r);
		if (user && (r = udevd_wait_idle(10000)) < 0)
			die("waiting for udev", r);
		reached += res.reached;
		opened += res.racer.opened;
		refused += res.racer.opened && res.racer.request_errno == EPERM;
		if (!res.racer.opened)
			continue;
		access_time[n_opened] = res.racer.opened_ns - res.racer.created_ns;
		racer_time[n_opened++] = res.racer.answered_ns - res.racer.created_ns;
		if (decided)
			window[n_window++] = decided - res.racer.created_ns;
	}

	printf("reached  %lu of %d firmware-update requests reached the device (%lu refused with EPERM, %lu racers opened the node)\n",
	       reached, rounds, refused, opened);
	print_ms("window", window, n_window);
	print_ms("access", access_time, n_opened);
	print_ms("racer", racer_time, n_opened);

	if (watch.hold_probe)
		write_sysfs(AUTOPROBE, old_autoprobe);
	policyd_stop(&run, false);
	policyd_cleanup(&run);
	if (user)
		udevd_stop(&udevd);
	return 0;
}
