// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The root hidraw race, measured in the test VM (bench/race_bench.sh): a
 * virtual DualSense appears ROUNDS times while hid-policyd runs with the
 * shipped policy, and a root racer opens its hidraw node as soon as it
 * appears and at once starts a firmware update (SET_REPORT feature 0xF4).
 * There is no udev: root needs none to open the node. Printed:
 *
 *   reached   how many of the requests the device received;
 *   window    from the racer seeing the node to the daemon publishing its
 *             decision, which it does right after the firewall is attached
 *             (inotify on the runtime directory's devices/);
 *   racer     from the racer seeing the node to its request returning.
 *
 * --hold-probe tries the user-space ordering that closes the window on an
 * unmodified kernel: /sys/bus/hid/drivers_autoprobe is 0, so a new HID
 * device gets no driver and hence no hidraw node, and the device is probed
 * (echo SYSNAME > /sys/bus/hid/drivers_probe) only once the decision is
 * published. hid-policyd does not do this; here the benchmark does it.
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
#include "uhid_dev.h"

#define MAX_ROUNDS 1000
#define MAX_DECISIONS MAX_ROUNDS
#define FIRMWARE_UPDATE_REPORT 0xf4
#define AUTOPROBE "/sys/bus/hid/drivers_autoprobe"
#define DRIVERS_PROBE "/sys/bus/hid/drivers_probe"

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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "hold-probe", no_argument, NULL, 'h' },
		{}
	};
	static int64_t window[MAX_ROUNDS], racer_time[MAX_ROUNDS];
	const struct uhid_dev_config dualsense = {
		.name = "Sony Interactive Entertainment DualSense Wireless Controller",
		.vendor = 0x054c,
		.product = 0x0ce6,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};
	const struct hidraw_racer_config racer_cfg = {
		.report = { FIRMWARE_UPDATE_REPORT, 0x00 },
		.size = HIDRAW_RACER_REPORT_MAX,
		.timeout_ms = 20000,
	};
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	unsigned long reached = 0, refused = 0, opened = 0, n_window = 0, n_racer = 0;
	char path[512], policy[65536], old_autoprobe[8] = "1";
	struct policyd_run run;
	pthread_t thread;
	int rounds = 100, c, r;
	ssize_t len;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			rounds = atoi(optarg);
			if (rounds < 1 || rounds > MAX_ROUNDS) {
				fprintf(stderr, "bench-race: --rounds: 1..%d\n", MAX_ROUNDS);
				return 2;
			}
			break;
		case 'h':
			watch.hold_probe = true;
			break;
		default:
			fprintf(stderr, "usage: bench-race [--rounds N] [--hold-probe]\n");
			return 2;
		}
	}

	snprintf(path, sizeof(path), "%s/policies/20-sony-dualsense.json", src);
	len = read_file(path, policy, sizeof(policy) - 1);
	if (len < 0)
		die(path, (int)len);
	policy[len] = '\0';
	if ((r = policyd_prepare(&run)) < 0 ||
	    (r = policyd_write_policy(&run, "20-sony-dualsense.json", policy)) < 0 ||
	    (r = policyd_start(&run, NULL)) < 0)
		die("starting hid-policyd", r);

	snprintf(path, sizeof(path), "%s/devices", run.runtime_dir);
	watch.inotify_fd = inotify_init1(IN_CLOEXEC);
	if (watch.inotify_fd < 0 || inotify_add_watch(watch.inotify_fd, path, IN_MOVED_TO) < 0)
		die(path, -errno);
	if ((r = -pthread_create(&thread, NULL, watch_decisions, NULL)) < 0)
		die("watcher thread", r);
	if (watch.hold_probe) {
		len = read_file(AUTOPROBE, old_autoprobe, sizeof(old_autoprobe) - 1);
		old_autoprobe[len > 0 ? len : 0] = '\0';
		if ((r = write_sysfs(AUTOPROBE, "0")) < 0)
			die(AUTOPROBE, r);
	}

	printf("root racer against hid-policyd, %d rounds%s\n", rounds,
	       watch.hold_probe ? ", devices probed only once decided (--hold-probe)" : "");
	for (int i = 0; i < rounds; i++) {
		struct hidraw_race_result res;
		struct hidraw_racer racer;
		struct uhid_dev dev;
		int64_t decided;

		if ((r = hidraw_racer_start(&racer, &racer_cfg)) < 0)
			die("starting the racer", r);
		if ((r = uhid_dev_create(&dev, &dualsense)) < 0)
			die("creating the DualSense", r);
		if ((r = hidraw_racer_finish(&racer, &res)) < 0)
			die("the racer's result", r);
		reached += uhid_dev_count(&dev, UHID_DEV_SET_REPORT, FIRMWARE_UPDATE_REPORT);
		opened += res.opened;
		refused += res.opened && res.request_errno == EPERM;
		decided = decided_at(dev.sysname);
		if (res.opened) {
			racer_time[n_racer++] = res.answered_ns - res.created_ns;
			if (decided)
				window[n_window++] = decided - res.created_ns;
		}
		uhid_dev_destroy(&dev);
		uhid_wait_gone(dev.syspath, 10000);
	}

	printf("reached  %lu of %d firmware-update requests reached the device (%lu refused with EPERM, %lu racers opened the node)\n",
	       reached, rounds, refused, opened);
	print_ms("window", window, n_window);
	print_ms("racer", racer_time, n_racer);

	if (watch.hold_probe)
		write_sysfs(AUTOPROBE, old_autoprobe);
	policyd_stop(&run, false);
	policyd_cleanup(&run);
	return 0;
}
