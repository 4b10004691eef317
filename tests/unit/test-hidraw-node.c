// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hidraw_node_open() (policyd/hid/hidraw_node.c) on a made-up sysfs and /dev
 * in a temporary directory, with /dev/null (1:3) and /dev/zero (1:5) for the
 * nodes. Checks: the node sysfs names is opened when it is that device; a
 * node whose number is another device's (the device went and its number was
 * given to another), or which is no character device, is refused with
 * ENODEV and not left open; a device without a hidraw node, or whose node
 * is missing from /dev, is ENOENT.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness.h"
#include "hid/hidraw_node.h"

#define SYSNAME "0003:046D:C52B.0001"

/* Each case makes its own directory in ROOT, which main() removes. */
static char root[] = "/tmp/test-hidraw-node.XXXXXX";
static char sysfs[PATH_MAX], dev[PATH_MAX];

/* A device SYSNAME whose hidraw directory names NODE with number DEVT ("1:3"),
 * or has no node when NODE is NULL. */
static void make_device(const char *node, const char *devt)
{
	char path[PATH_MAX * 2], dir[128];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/case.XXXXXX", root);
	CHECK(mkdtemp(dir), "mkdtemp: %m");
	snprintf(sysfs, sizeof(sysfs), "%s/sys", dir);
	snprintf(dev, sizeof(dev), "%s/dev", dir);
	CHECK_OK(mkdir(sysfs, 0755));
	CHECK_OK(mkdir(dev, 0755));
	snprintf(path, sizeof(path), "%s/%s", sysfs, SYSNAME);
	CHECK_OK(mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/%s/hidraw", sysfs, SYSNAME);
	CHECK_OK(mkdir(path, 0755));
	if (!node)
		return;
	snprintf(path, sizeof(path), "%s/%s/hidraw/%s", sysfs, SYSNAME, node);
	CHECK_OK(mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/%s/hidraw/%s/dev", sysfs, SYSNAME, node);
	f = fopen(path, "we");
	CHECK(f, "%s: %m", path);
	fprintf(f, "%s\n", devt);
	fclose(f);
}

/* /dev/NODE as a link to TARGET (a link stands for devtmpfs's node here). */
static void make_node(const char *node, const char *target)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", dev, node);
	CHECK_OK(symlink(target, path));
}

static int open_fds(void)
{
	int n = 0;

	for (int fd = 3; fd < 256; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

static void the_devices_own_node_is_opened(void)
{
	struct stat st;
	int fd;

	make_device("hidraw3", "1:3");
	make_node("hidraw3", "/dev/null");
	fd = hidraw_node_open(sysfs, dev, SYSNAME);
	CHECK(fd >= 0, "hidraw_node_open: %s", strerror(-fd));
	CHECK_OK(fstat(fd, &st));
	CHECK(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3), "opened another file");
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC, "the node is inherited by children");
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK, "reads of the node block");
	CHECK_EQ(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDWR);
	close(fd);
}

static void a_node_whose_number_is_another_devices_is_refused(void)
{
	int before = open_fds();

	make_device("hidraw3", "1:3");
	make_node("hidraw3", "/dev/zero");
	CHECK_EQ(hidraw_node_open(sysfs, dev, SYSNAME), -ENODEV);
	CHECK_EQ(open_fds(), before);
}

static void a_node_that_is_no_character_device_is_refused(void)
{
	char path[PATH_MAX * 2];
	int before = open_fds(), fd;

	make_device("hidraw3", "1:3");
	snprintf(path, sizeof(path), "%s/hidraw3", dev);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	CHECK_OK(fd);
	close(fd);
	CHECK_EQ(hidraw_node_open(sysfs, dev, SYSNAME), -ENODEV);
	CHECK_EQ(open_fds(), before);
}

static void a_device_without_a_node_is_enoent(void)
{
	make_device(NULL, NULL);
	CHECK_EQ(hidraw_node_open(sysfs, dev, SYSNAME), -ENOENT);
	/* nor is another device's directory taken for it */
	CHECK_EQ(hidraw_node_open(sysfs, dev, "0003:046D:C52B.0002"), -ENOENT);
}

static void a_node_missing_from_dev_is_enoent(void)
{
	make_device("hidraw3", "1:3");
	CHECK_EQ(hidraw_node_open(sysfs, dev, SYSNAME), -ENOENT);
}

static const struct test_case tests[] = {
	{ "the_devices_own_node_is_opened", the_devices_own_node_is_opened },
	{ "a_node_whose_number_is_another_devices_is_refused", a_node_whose_number_is_another_devices_is_refused },
	{ "a_node_that_is_no_character_device_is_refused", a_node_that_is_no_character_device_is_refused },
	{ "a_device_without_a_node_is_enoent", a_device_without_a_node_is_enoent },
	{ "a_node_missing_from_dev_is_enoent", a_node_missing_from_dev_is_enoent },
};

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	int r;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	r = test_main(argc, argv, "hidraw-node", tests, ARRAY_SIZE(tests));
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return r;
}
