// SPDX-License-Identifier: GPL-2.0-or-later
#include "decisions.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "hid/devices.h"

/* Write TEXT to PATH whole or not at all: a reader sees the old file or
 * the new one. */
static int write_whole(const char *dir, const char *name, const char *text)
{
	_cleanup_free_ char *path = NULL, *tmp = NULL;
	_cleanup_close_ int fd = -1;
	size_t len = strlen(text);

	if (asprintf(&path, "%s/%s", dir, name) < 0 || asprintf(&tmp, "%s/.%s", dir, name) < 0)
		return -ENOMEM;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		return -EIO;
	if (rename(tmp, path) < 0)
		return -errno;
	return 0;
}

int decisions_init(const char *runtime_dir, const char *const *config_dirs, size_t n)
{
	_cleanup_free_ char *devices = NULL, *closed = NULL, *announce = NULL, *text = NULL;
	size_t len = 0;

	if (asprintf(&devices, "%s/devices", runtime_dir) < 0 ||
	    asprintf(&closed, "%s/closed", runtime_dir) < 0 ||
	    asprintf(&announce, "%s/%s", runtime_dir, DECISIONS_ANNOUNCE_DIR) < 0)
		return -ENOMEM;
	if (mkdir(runtime_dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(devices, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(closed, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(announce, 0700) < 0 && errno != EEXIST)
		return -errno;
	for (size_t i = 0; i < n; i++)
		len += strlen(config_dirs[i]) + 1;
	text = calloc(1, len + 1);
	if (!text)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		strcat(text, config_dirs[i]);
		strcat(text, "\n");
	}
	return write_whole(runtime_dir, "policy-dirs", text);
}

int decisions_config_dirs(const char *runtime_dir, char ***dirs, size_t *n)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	char line[4096], **v = NULL;
	size_t count = 0;

	if (asprintf(&path, "%s/policy-dirs", runtime_dir) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char **grown;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '/')
			continue;
		grown = realloc(v, (count + 2) * sizeof(*v));
		if (!grown)
			goto oom;
		v = grown;
		v[count] = strdup(line);
		if (!v[count])
			goto oom;
		v[++count] = NULL;
	}
	if (!count) {
		free(v);
		return -ENOENT;
	}
	*dirs = v;
	*n = count;
	return 0;
oom:
	for (size_t i = 0; i < count; i++)
		free(v[i]);
	free(v);
	return -ENOMEM;
}

/* Each closed/<name> file holds "SYSNAME DEVPATH\n"; the name is the
 * node's (hidraw0, hiddev1). */
static int mark_name(const char *devpath, const char **name)
{
	const char *slash = strrchr(devpath, '/');

	*name = slash ? slash + 1 : devpath;
	if (!**name || **name == '.' || strchr(devpath, ' ') || strchr(devpath, '\n'))
		return -EINVAL;
	return 0;
}

int decisions_mark_closed(const char *runtime_dir, const char *sysname, const char *devpath)
{
	_cleanup_free_ char *dir = NULL, *text = NULL;
	const char *name;
	int r = mark_name(devpath, &name);

	if (r < 0)
		return r;
	if (asprintf(&dir, "%s/closed", runtime_dir) < 0 ||
	    asprintf(&text, "%s %s\n", sysname, devpath) < 0)
		return -ENOMEM;
	return write_whole(dir, name, text);
}

int decisions_unmark_closed(const char *runtime_dir, const char *devpath)
{
	_cleanup_free_ char *path = NULL;
	const char *name;
	int r = mark_name(devpath, &name);

	if (r < 0)
		return r;
	if (asprintf(&path, "%s/closed/%s", runtime_dir, name) < 0)
		return -ENOMEM;
	return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
}

/*
 * Announcing a node again is a write of "add" or "change" to its sysfs
 * uevent file. Only a hidraw or hiddev node's: DEVPATH must be
 * /devices/.../hidraw/hidrawN or /devices/.../usbmisc/hiddevN, with no "."
 * or ".." component; the kernel alone names directories in sysfs, and
 * only those nodes' directories are called so.
 */
static bool node_name_ok(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) || !name[n])
		return false;
	return strspn(name + n, "0123456789") == strlen(name + n);
}

static bool node_devpath_ok(const char *devpath)
{
	const char *last = strrchr(devpath, '/'), *class;

	if (strncmp(devpath, "/devices/", 9) || strstr(devpath, "//") ||
	    strstr(devpath, "/./") || strstr(devpath, "/../") || strchr(devpath, ' ') ||
	    strchr(devpath, '\n') || !last || last - devpath < 9)
		return false;
	for (class = last - 1; class > devpath && *class != '/'; class--)
		;
	if (!strncmp(class, "/hidraw/", 8))
		return node_name_ok(last + 1, "hidraw");
	if (!strncmp(class, "/usbmisc/", 9))
		return node_name_ok(last + 1, "hiddev");
	return false;
}

static bool action_ok(const char *action)
{
	return !strcmp(action, "add") || !strcmp(action, "change");
}

static int write_uevent(const char *devpath, const char *action)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int fd = -1;

	if (!node_devpath_ok(devpath) || !action_ok(action))
		return -EINVAL;
	if (asprintf(&path, "/sys%s/uevent", devpath) < 0)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	return write(fd, action, strlen(action)) == (ssize_t)strlen(action) ? 0 : -errno;
}

/* Queue DEVPATH for hid-policyd --announce-queued: written beside the
 * queue and renamed into it, so that the queue holds whole requests only. */
static int queue_announce(const char *runtime_dir, const char *devpath, const char *action)
{
	_cleanup_free_ char *tmp = NULL, *path = NULL, *text = NULL;
	_cleanup_close_ int fd = -1;
	const char *name = strrchr(devpath, '/') + 1;
	size_t len;

	if (asprintf(&tmp, "%s/.%s-%s", runtime_dir, DECISIONS_ANNOUNCE_DIR, name) < 0 ||
	    asprintf(&path, "%s/%s/%s", runtime_dir, DECISIONS_ANNOUNCE_DIR, name) < 0 ||
	    asprintf(&text, "%s %s\n", action, devpath) < 0)
		return -ENOMEM;
	len = strlen(text);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		return -EIO;
	return rename(tmp, path) < 0 ? -errno : 0;
}

/* Ask the kernel to announce DEVPATH again (ACTION "add" or "change"):
 * udev runs the rules anew. Where sysfs is read-only to the daemon (its
 * unit: hid-policyd.service keeps /sys read-only), the request is queued
 * for hid-policy-announce.service, which may write uevent files. */
static int announce_again(const char *runtime_dir, const char *devpath, const char *action)
{
	int r = write_uevent(devpath, action);

	if (r == -EROFS || r == -EACCES || r == -EPERM)
		r = queue_announce(runtime_dir, devpath, action);
	return r;
}

int decisions_announce_queued(const char *runtime_dir, FILE *log)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	int announced = 0;

	if (asprintf(&dir, "%s/%s", runtime_dir, DECISIONS_ANNOUNCE_DIR) < 0)
		return -ENOMEM;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		char text[512], *space;
		ssize_t n;
		int fd, r;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
		if (fd >= 0)
			close(fd);
		/* Taken off first, whatever it holds: what stays in the
		 * queue starts the service again. */
		unlinkat(dirfd(d), de->d_name, 0);
		if (n <= 0) {
			fprintf(log, "hid-policyd: %s/%s: cannot read the request; dropped\n", dir,
				de->d_name);
			continue;
		}
		text[n] = '\0';
		text[strcspn(text, "\n")] = '\0';
		space = strchr(text, ' ');
		if (space)
			*space = '\0';
		r = space ? write_uevent(space + 1, text) : -EINVAL;
		if (r == -EINVAL)
			fprintf(log, "hid-policyd: %s/%s: not a hidraw or hiddev node to announce again: dropped\n",
				dir, de->d_name);
		else if (r < 0)
			fprintf(log, "hid-policyd: cannot announce %s again: %s\n", space + 1,
				strerror(-r));
		else
			announced++;
	}
	return announced;
}

/* Open again the nodes of SYSNAME closed while its decision was late. */
static void reopen_closed(const char *runtime_dir, const char *sysname)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;

	if (asprintf(&dir, "%s/closed", runtime_dir) < 0)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char text[512], *space;
		ssize_t n;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
		if (n <= 0)
			continue;
		text[n] = '\0';
		text[strcspn(text, "\n")] = '\0';
		space = strchr(text, ' ');
		if (!space)
			continue;
		*space = '\0';
		if (strcmp(text, sysname))
			continue;
		/* Unmark first: the new event must not find the mark. */
		unlinkat(dirfd(d), de->d_name, 0);
		announce_again(runtime_dir, space + 1, "add");
	}
}

/*
 * SYSNAME has just become protected: its hiddev nodes, which the rules
 * opened while it was not (or before the daemon ran: coldplug), must be
 * closed now. A "change" event runs the rules again, and they find the
 * decision. A hiddev node hangs off the USB interface, beside the HID
 * device.
 */
static void close_hiddev_nodes(const char *runtime_dir, const char *sysname)
{
	_cleanup_free_ char *link = NULL, *dev = NULL, *misc = NULL;
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	char *slash;

	if (asprintf(&link, "%s/%s", HID_SYSFS_DEVICES, sysname) < 0)
		return;
	dev = realpath(link, NULL);
	if (!dev || strncmp(dev, "/sys/devices/", 13))
		return;
	slash = strrchr(dev, '/');
	*slash = '\0';
	if (asprintf(&misc, "%s/usbmisc", dev) < 0)
		return;
	d = opendir(misc);
	if (!d)
		return;		/* not usbhid's, or no hiddev node */
	while ((de = readdir(d))) {
		_cleanup_free_ char *devpath = NULL;

		if (strncmp(de->d_name, "hiddev", 6) || strchr(de->d_name, '/'))
			continue;
		if (asprintf(&devpath, "%s/%s", misc + 4, de->d_name) < 0)
			return;
		announce_again(runtime_dir, devpath, "change");
	}
}

int decisions_publish(const char *runtime_dir, const char *sysname, bool protected)
{
	_cleanup_free_ char *dir = NULL;
	bool was_protected = decisions_read(runtime_dir, sysname) == 1;
	int r;

	if (asprintf(&dir, "%s/devices", runtime_dir) < 0)
		return -ENOMEM;
	r = write_whole(dir, sysname, protected ? "protected\n" : "unprotected\n");
	if (r < 0)
		return r;
	if (protected && !was_protected)
		close_hiddev_nodes(runtime_dir, sysname);
	/* After the decision: a closing that comes later sees it
	 * (decisions_mark_closed() is followed by decisions_read()). A node
	 * that cannot be announced again is gone; where sysfs is read-only to
	 * the daemon, hid-policy-announce.service announces it. */
	reopen_closed(runtime_dir, sysname);
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

/* The deepest path component that is a HID device's sysfs name. */
static int hid_component(const char *devpath, char *out, size_t size)
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

/* A hiddev node (/devices/.../1-1:1.0/usbmisc/hiddev0) hangs off the USB
 * interface; usbhid's HID device is its sibling there. */
static int hiddev_sibling(const char *sysfs, const char *devpath, char *out, size_t size)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_closedir_ DIR *d = NULL;
	const char *misc = strstr(devpath, "/usbmisc/hiddev");
	struct dirent *de;

	if (!misc || strstr(devpath, "/../"))
		return -ENOENT;
	if (asprintf(&dir, "%s%.*s", sysfs, (int)(misc - devpath), devpath) < 0)
		return -ENOMEM;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct hid_dev_info info;

		if (hid_sysname_parse(de->d_name, &info) == 0 && strlen(de->d_name) < size) {
			snprintf(out, size, "%s", de->d_name);
			return 0;
		}
	}
	return -ENOENT;
}

int decisions_hid_sysname(const char *sysfs, const char *devpath, char *out, size_t size)
{
	int r = hid_component(devpath, out, size);

	return r == -ENOENT ? hiddev_sibling(sysfs, devpath, out, size) : r;
}

int decisions_read(const char *runtime_dir, const char *sysname)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int fd = -1;
	char text[32];
	ssize_t n;

	if (asprintf(&path, "%s/devices/%s", runtime_dir, sysname) < 0)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	if (n < 0)
		return -errno;
	text[n] = '\0';
	return !strcmp(text, "protected\n");
}

int decisions_wait(const char *runtime_dir, const char *devpath, int timeout_ms)
{
	struct timespec start, now;
	char sysname[64];
	int r;

	r = decisions_hid_sysname("/sys", devpath, sysname, sizeof(sysname));
	if (r < 0)
		return r;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		r = decisions_read(runtime_dir, sysname);
		if (r != -ENOENT)
			return r;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 >=
		    timeout_ms)
			return -ETIMEDOUT;
		usleep(5000);
	}
}
