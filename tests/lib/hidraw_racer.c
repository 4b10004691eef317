// SPDX-License-Identifier: GPL-2.0-or-later
#include "hidraw_racer.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/hidraw.h>

#include "harness.h"

#define READY_TIMEOUT_MS 10000
/* Between attribute events, an open that failed is retried this often. */
#define RETRY_MS 1

int64_t hidraw_racer_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Read queued inotify events; note the first hidraw node created. */
static void read_events(int in, struct hidraw_race_result *res)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			p += sizeof(*ev) + ev->len;
			if (res->seen || !(ev->mask & IN_CREATE) || !ev->len ||
			    strncmp(ev->name, "hidraw", 6) ||
			    strlen(ev->name) >= sizeof(res->node))
				continue;
			res->seen = true;
			res->created_ns = hidraw_racer_now_ns();
			snprintf(res->node, sizeof(res->node), "%s", ev->name);
		}
	}
}

static void send_request(int fd, const struct hidraw_racer_config *cfg,
			 struct hidraw_race_result *res)
{
	uint8_t buf[HIDRAW_RACER_REPORT_MAX];

	memcpy(buf, cfg->report, cfg->size);
	res->request_errno = ioctl(fd, HIDIOCSFEATURE(cfg->size), buf) < 0 ? errno : 0;
	res->answered_ns = hidraw_racer_now_ns();
}

static int racer_main(const struct hidraw_racer_config *cfg, int ready_fd)
{
	struct hidraw_race_result res = { .request_errno = -1 };
	int64_t deadline;
	char path[64];
	int in;

	prctl(PR_SET_NAME, "hidraw-racer");
	if (cfg->drop_privileges &&
	    (setgroups(0, NULL) < 0 || setresgid(cfg->gid, cfg->gid, cfg->gid) < 0 ||
	     setresuid(cfg->uid, cfg->uid, cfg->uid) < 0))
		return 2;
	in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (in < 0 || inotify_add_watch(in, "/dev", IN_CREATE | IN_ATTRIB) < 0)
		return 2;
	if (write(ready_fd, "r", 1) != 1)
		return 2;
	close(ready_fd);

	deadline = hidraw_racer_now_ns() + (int64_t)cfg->timeout_ms * 1000000;
	while (hidraw_racer_now_ns() < deadline) {
		struct pollfd p = { .fd = in, .events = POLLIN };
		int fd;

		/* An attribute change of the node, or the retry period, ends
		 * the wait once the node exists. */
		poll(&p, 1, res.seen ? RETRY_MS : 100);
		read_events(in, &res);
		if (!res.seen)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", res.node);
		res.open_attempts++;
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			res.open_errno = errno;
			continue;
		}
		res.opened = true;
		res.opened_ns = hidraw_racer_now_ns();
		send_request(fd, cfg, &res);
		close(fd);
		break;
	}
	return write(STDOUT_FILENO, &res, sizeof(res)) == sizeof(res) ? 0 : 2;
}

int hidraw_racer_start(struct hidraw_racer *r, const struct hidraw_racer_config *cfg)
{
	int ready[2], result[2], err;
	struct pollfd p;
	char c;

	r->pid = -1;
	r->result_fd = -1;
	if (cfg->size == 0 || cfg->size > HIDRAW_RACER_REPORT_MAX)
		return -EINVAL;
	if (pipe2(ready, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(result, O_CLOEXEC) < 0) {
		err = -errno;
		close(ready[0]);
		close(ready[1]);
		return err;
	}
	fflush(stdout);
	r->pid = fork();
	if (r->pid < 0) {
		err = -errno;
		close(ready[0]);
		close(ready[1]);
		close(result[0]);
		close(result[1]);
		return err;
	}
	if (r->pid == 0) {
		close(ready[0]);
		close(result[0]);
		/* The result goes to the pipe as the racer's stdout. */
		if (dup2(result[1], STDOUT_FILENO) < 0)
			_exit(2);
		_exit(racer_main(cfg, ready[1]));
	}
	close(ready[1]);
	close(result[1]);
	r->result_fd = result[0];

	p = (struct pollfd){ .fd = ready[0], .events = POLLIN };
	err = poll(&p, 1, READY_TIMEOUT_MS * test_slow_factor()) == 1 && read(ready[0], &c, 1) == 1 ? 0 : -ECHILD;
	close(ready[0]);
	if (err < 0) {
		struct hidraw_race_result ignored;

		hidraw_racer_finish(r, &ignored);
	}
	return err;
}

int hidraw_racer_finish(struct hidraw_racer *r, struct hidraw_race_result *res)
{
	ssize_t n = -1;
	int status;

	memset(res, 0, sizeof(*res));
	if (r->result_fd >= 0) {
		do
			n = read(r->result_fd, res, sizeof(*res));
		while (n < 0 && errno == EINTR);
		close(r->result_fd);
		r->result_fd = -1;
	}
	if (r->pid > 0) {
		while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
			;
		r->pid = -1;
	}
	return n == sizeof(*res) ? 0 : -ECHILD;
}

/* uhid_test_rdesc's reports with the DualSense's firmware-update feature
 * report 0xF4 in place of 0xF0: the firewall refuses a report the
 * descriptor does not declare before the rule the racers are judged by. */
static const uint8_t dualsense_rdesc[] = {
	0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x15, 0x00, 0x26, 0xff, 0x00,
	0x75, 0x08, 0x95, 0x3f,
	0x85, 0x01, 0x09, 0x02, 0x81, 0x02,	/* input 1 */
	0x85, 0x02, 0x09, 0x03, 0x91, 0x02,	/* output 2 */
	0x85, 0x03, 0x09, 0x04, 0xb1, 0x02,	/* feature 3 */
	0x85, 0x04, 0x09, 0x05, 0xb1, 0x02,	/* feature 4 */
	0x85, 0xf4, 0x09, 0x06, 0xb1, 0x02,	/* feature 0xf4 */
	0xc0,
};

struct uhid_dev_config hidraw_race_dualsense(void)
{
	return (struct uhid_dev_config){
		.name = "Sony Interactive Entertainment DualSense Wireless Controller",
		.vendor = 0x054c,
		.product = 0x0ce6,
		.rdesc = dualsense_rdesc,
		.rdesc_size = sizeof(dualsense_rdesc),
	};
}

int hidraw_race_round(const struct hidraw_racer_config *cfg,
		      const struct uhid_dev_config *dev_cfg, struct hidraw_race_round *out,
		      void (*before_destroy)(const char *sysname, void *data), void *data)
{
	struct hidraw_racer racer;
	struct uhid_dev dev;
	int r;

	memset(out, 0, sizeof(*out));
	r = hidraw_racer_start(&racer, cfg);
	if (r < 0)
		return r;
	r = uhid_dev_create(&dev, dev_cfg);
	if (r < 0) {
		struct hidraw_race_result ignored;

		hidraw_racer_finish(&racer, &ignored);
		return r;
	}
	r = hidraw_racer_finish(&racer, &out->racer);
	out->reached = uhid_dev_count(&dev, UHID_DEV_SET_REPORT, cfg->report[0]);
	snprintf(out->sysname, sizeof(out->sysname), "%s", dev.sysname);
	if (before_destroy)
		before_destroy(dev.sysname, data);
	uhid_dev_destroy(&dev);
	if (r < 0)
		return r;
	return uhid_wait_gone(dev.syspath, 10000);
}
