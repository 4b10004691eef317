// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyd --announce-queued (decisions_announce_queued()), which runs
 * in the one unit of hid-policy that may write /sys/devices: whatever the
 * queue holds, it writes only the uevent file of a hidraw or hiddev node,
 * and takes every request off the queue, so that what it refuses does not
 * start it again and again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enforce/decisions.h"
#include "harness.h"

static char *runtime_dir(void)
{
	char *dir = strdup("/tmp/hid-policy-announce.XXXXXX"), *queue;

	CHECK(dir && mkdtemp(dir), "mkdtemp: %m");
	CHECK(asprintf(&queue, "%s/%s", dir, DECISIONS_ANNOUNCE_DIR) > 0, "out of memory");
	CHECK_OK(mkdir(queue, 0700));
	free(queue);
	return dir;
}

static void queue(const char *dir, const char *name, const char *text)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, DECISIONS_ANNOUNCE_DIR, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	CHECK_OK(fd);
	CHECK_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static bool queue_empty(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A %s/%s)\"", dir, DECISIONS_ANNOUNCE_DIR);
	return system(cmd) == 0;
}

/* Requests for anything but a node's uevent, each of which would change a
 * device or the system if written: refused, said, and taken off. */
static void requests_for_other_attributes_are_dropped_unwritten(void)
{
	static const char *const requests[][2] = {
		{ "power", "add /devices/pci0000:00/0000:00:01.0/power/control\n" },
		{ "hub", "add /devices/platform/dummy_hcd.0/usb1\n" },
		{ "dotdot", "add /devices/virtual/misc/uhid/0003:1234:5678.0001/hidraw/hidraw0/../../../../..\n" },
		{ "dotdot2", "add /devices/../kernel/hidraw/hidraw0\n" },
		{ "outside", "add /kernel/mm/hidraw/hidraw0\n" },
		{ "misnamed", "add /devices/virtual/misc/uhid/0003:1234:5678.0001/hidraw/hiddev0\n" },
		{ "suffix", "add /devices/virtual/misc/uhid/0003:1234:5678.0001/hidraw/hidraw0x\n" },
		{ "remove", "remove /devices/virtual/misc/uhid/0003:1234:5678.0001/hidraw/hidraw0\n" },
		{ "bind", "1-1 /devices/platform/dummy_hcd.0/usb1/bind\n" },
		{ "empty", "" },
		{ "noaction", "/devices/virtual/misc/uhid/0003:1234:5678.0001/hidraw/hidraw0\n" },
	};
	char *dir = runtime_dir(), *said = NULL;
	size_t said_len = 0;
	FILE *log = open_memstream(&said, &said_len);

	for (size_t i = 0; i < ARRAY_SIZE(requests); i++)
		queue(dir, requests[i][0], requests[i][1]);
	CHECK_EQ(decisions_announce_queued(dir, log), 0);
	fclose(log);
	CHECK(queue_empty(dir), "requests were left in the queue");
	for (size_t i = 0; i < ARRAY_SIZE(requests); i++) {
		char name[64];

		snprintf(name, sizeof(name), "/%s: ", requests[i][0]);
		CHECK(strstr(said, name), "nothing said of %s:\n%s", requests[i][0], said);
	}
	free(said);
	free(dir);
}

/* A node that went before its turn: said, taken off, nothing else. */
static void a_node_gone_is_said_and_taken_off(void)
{
	char *dir = runtime_dir(), *said = NULL;
	size_t said_len = 0;
	FILE *log = open_memstream(&said, &said_len);

	queue(dir, "hidraw9999",
	      "add /devices/virtual/misc/uhid/0003:1234:5678.9999/hidraw/hidraw9999\n");
	CHECK_EQ(decisions_announce_queued(dir, log), 0);
	fclose(log);
	CHECK(queue_empty(dir), "the request was left in the queue");
	CHECK(strstr(said, "cannot announce /devices/virtual/misc/uhid/0003:1234:5678.9999/hidraw/hidraw9999 again"),
	      "said: %s", said);
	free(said);
	free(dir);
}

static void no_queue_is_nothing_to_do(void)
{
	CHECK_EQ(decisions_announce_queued("/nonexistent/hid-policy", stderr), 0);
}

static const struct test_case tests[] = {
	{ "requests_for_other_attributes_are_dropped_unwritten",
	  requests_for_other_attributes_are_dropped_unwritten },
	{ "a_node_gone_is_said_and_taken_off", a_node_gone_is_said_and_taken_off },
	{ "no_queue_is_nothing_to_do", no_queue_is_nothing_to_do },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "announce-queue", tests, ARRAY_SIZE(tests));
}
