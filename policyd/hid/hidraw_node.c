// SPDX-License-Identifier: GPL-2.0-or-later
/* The hidraw node of a HID device, opened so that it is the device's. */
#include "hidraw_node.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/util.h"

/* The node sysfs names for SYSNAME: its name under hidraw/ and its number. */
static int hidraw_node_find(const char *sysfs_devices, const char *sysname, char *name,
			    size_t size, dev_t *devt)
{
	char path[PATH_MAX];
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *de;
	unsigned int major, minor;

	snprintf(path, sizeof(path), "%s/%s/hidraw", sysfs_devices, sysname);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		_cleanup_fclose_ FILE *f = NULL;

		if (strncmp(de->d_name, "hidraw", 6) || strlen(de->d_name) >= size)
			continue;
		snprintf(path, sizeof(path), "%s/%s/hidraw/%s/dev", sysfs_devices, sysname,
			 de->d_name);
		f = fopen(path, "re");
		if (!f || fscanf(f, "%u:%u", &major, &minor) != 2)
			return -ENOENT;
		snprintf(name, size, "%s", de->d_name);
		*devt = makedev(major, minor);
		return 0;
	}
	return -ENOENT;
}

int hidraw_node_open(const char *sysfs_devices, const char *dev_dir, const char *sysname)
{
	char name[32], path[PATH_MAX];
	dev_t before, after;
	struct stat st;
	int fd, r;

	r = hidraw_node_find(sysfs_devices, sysname, name, sizeof(name), &before);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/%s", dev_dir, name);
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_rdev != before ||
	    hidraw_node_find(sysfs_devices, sysname, name, sizeof(name), &after) < 0 ||
	    after != before) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}
