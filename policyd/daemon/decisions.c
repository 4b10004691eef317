// SPDX-License-Identifier: GPL-2.0-or-later
#include "decisions.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "devices.h"

int decisions_init(const char *runtime_dir)
{
	_cleanup_free_ char *devices = NULL;

	if (asprintf(&devices, "%s/devices", runtime_dir) < 0)
		return -ENOMEM;
	if (mkdir(runtime_dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(devices, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int decisions_publish(const char *runtime_dir, const char *sysname, bool protected)
{
	_cleanup_free_ char *path = NULL, *tmp = NULL;
	const char *text = protected ? "protected\n" : "unprotected\n";
	_cleanup_close_ int fd = -1;

	if (asprintf(&path, "%s/devices/%s", runtime_dir, sysname) < 0 ||
	    asprintf(&tmp, "%s/devices/.%s", runtime_dir, sysname) < 0)
		return -ENOMEM;
	/* Write then rename: a reader sees the whole word or nothing. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return -EIO;
	if (rename(tmp, path) < 0)
		return -errno;
	return 0;
}

int decisions_withdraw(const char *runtime_dir, const char *sysname)
{
	_cleanup_free_ char *path = NULL;

	if (asprintf(&path, "%s/devices/%s", runtime_dir, sysname) < 0)
		return -ENOMEM;
	if (unlink(path) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

/* The HID device's sysfs name in a devpath such as
 * /devices/.../0003:054C:0CE6.0001/hidraw/hidraw0. */
static int hid_sysname_of(const char *devpath, char *out, size_t size)
{
	_cleanup_free_ char *copy = strdup(devpath);
	char *part, *save = NULL;
	int found = -ENOENT;

	if (!copy)
		return -ENOMEM;
	for (part = strtok_r(copy, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		struct hid_dev_info info;

		if (hid_sysname_parse(part, &info) == 0 && strlen(part) < size) {
			snprintf(out, size, "%s", part);
			found = 0;	/* keep the deepest one */
		}
	}
	return found;
}

int decisions_wait(const char *runtime_dir, const char *devpath, int timeout_ms)
{
	struct timespec start, now;
	char sysname[64], text[32];
	_cleanup_free_ char *path = NULL;
	int r;

	r = hid_sysname_of(devpath, sysname, sizeof(sysname));
	if (r < 0)
		return r;
	if (asprintf(&path, "%s/devices/%s", runtime_dir, sysname) < 0)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			ssize_t n = read(fd, text, sizeof(text) - 1);

			if (n < 0)
				return -errno;
			text[n] = '\0';
			return !strcmp(text, "protected\n");
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 >=
		    timeout_ms)
			return -ETIMEDOUT;
		usleep(5000);
	}
}
