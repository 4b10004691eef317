// SPDX-License-Identifier: GPL-2.0-or-later
#include "devices.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/input.h>
#include <linux/netlink.h>

#include "common/hidpp.h"
#include "common/util.h"

#define UEVENT_BUFFER_SIZE 8192

int hid_sysname_parse(const char *sysname, struct hid_dev_info *info)
{
	unsigned int bus, vendor, product, id;
	int end = 0;

	if (strlen(sysname) >= sizeof(info->sysname))
		return -EINVAL;
	if (sscanf(sysname, "%4X:%4X:%4X.%X%n", &bus, &vendor, &product, &id, &end) != 4 ||
	    sysname[end] != '\0')
		return -EINVAL;
	snprintf(info->sysname, sizeof(info->sysname), "%s", sysname);
	info->bus = bus;
	info->vendor = vendor;
	info->product = product;
	info->hid_id = id;
	return 0;
}

ssize_t read_small_file(int dirfd, const char *name, void *buf, size_t size)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	size_t total = 0;

	if (fd < 0)
		return -errno;
	while (total < size) {
		ssize_t n = read(fd, (char *)buf + total, size - total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		total += n;
	}
	return total;
}

static void copy_value(char *dst, size_t size, const char *uevent, const char *key)
{
	size_t klen = strlen(key);
	const char *p = uevent;

	dst[0] = '\0';
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			size_t vlen = len - klen - 1;

			if (vlen >= size)
				vlen = size - 1;
			memcpy(dst, p + klen + 1, vlen);
			dst[vlen] = '\0';
			return;
		}
		p = eol ? eol + 1 : NULL;
	}
}

_Static_assert(HID_DESCRIPTOR_REPORT_USAGES_MAX <= UINT8_MAX, "n_reports is a uint8_t");

void hid_dev_set_descriptor(struct hid_dev_info *info, const uint8_t *desc, size_t len)
{
	size_t n = 0;
	int r;

	info->descriptor_known = len > 0;
	info->n_usages = 0;
	memset(info->declared, 0, sizeof(info->declared));
	info->n_reports = 0;
	info->reports_incomplete = false;
	if (!len)
		return;
	sha256(desc, len, info->descriptor_sha256);
	r = hid_descriptor_applications(desc, len, info->usages, HID_DESCRIPTOR_USAGES_MAX, &n);
	info->n_usages = (uint8_t)n;
	info->descriptor_malformed = r == -EBADMSG;
	/* One walk for both. Malformed: the reports before the fault
	 * (hid-core would not have parsed it; requests to any other are
	 * refused, and usage page rules see only those). */
	r = hid_descriptor_reports(desc, len, info->declared, info->reports,
				   HID_DESCRIPTOR_REPORT_USAGES_MAX, &n);
	info->n_reports = (uint8_t)n;
	info->reports_incomplete = r < 0;
}

/* The USB interface a HID device hangs from is its parent directory in sysfs. */
static void read_interface(int dirfd, struct hid_dev_info *info)
{
	char buf[8];
	unsigned long n;
	char *end;
	ssize_t k;

	k = read_small_file(dirfd, "../bInterfaceNumber", buf, sizeof(buf) - 1);
	if (k <= 0)
		return;
	buf[k] = '\0';
	n = strtoul(buf, &end, 16);
	if (end == buf || (*end && *end != '\n') || n > 255)
		return;
	info->has_interface = true;
	info->interface = (uint8_t)n;
}

/*
 * A device that hid-logitech-dj made for a device paired to its receiver
 * (logi_dj_recv_add_djhid_device()): its parent in sysfs is the receiver's
 * HID device, bound by the driver "logitech-djreceiver", and its phys is
 * the receiver's with ":INDEX" added. Only that driver adds HID devices
 * under a HID device it binds; sysfs is the kernel's word.
 */
static void read_receiver(const char *path, int dirfd, struct hid_dev_info *info)
{
	char link[PATH_MAX], real[PATH_MAX], uevent[2048], phys[sizeof(info->phys)];
	struct hid_dev_info receiver;
	const char *driver, *parent;
	unsigned int index;
	char *slash, tail;
	ssize_t n;

	n = readlinkat(dirfd, "../driver", link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	driver = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	if (strcmp(driver, "logitech-djreceiver") || !realpath(path, real))
		return;
	slash = strrchr(real, '/');
	if (!slash)
		return;
	*slash = '\0';
	parent = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	if (hid_sysname_parse(parent, &receiver) < 0)
		return;
	n = read_small_file(dirfd, "../uevent", uevent, sizeof(uevent) - 1);
	if (n <= 0)
		return;
	uevent[n] = '\0';
	copy_value(phys, sizeof(phys), uevent, "HID_PHYS");
	n = (ssize_t)strlen(phys);
	if (!n || strncmp(info->phys, phys, (size_t)n) ||
	    sscanf(info->phys + n, ":%u%c", &index, &tail) != 1 ||
	    index < HIDPP_PAIRED_FIRST || index > HIDPP_PAIRED_LAST)
		return;
	info->receiver_id = receiver.hid_id;
	info->receiver_index = (uint8_t)index;
}

int hid_dev_read(const char *root, const char *sysname, struct hid_dev_info *info)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int dirfd = -1;
	uint8_t desc[HID_DESCRIPTOR_SIZE_MAX + 1];
	char uevent[2048];
	ssize_t n;
	int r;

	memset(info, 0, sizeof(*info));
	r = hid_sysname_parse(sysname, info);
	if (r < 0)
		return r;
	if (asprintf(&path, "%s/%s", root, sysname) < 0)
		return -ENOMEM;
	dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;

	n = read_small_file(dirfd, "uevent", uevent, sizeof(uevent) - 1);
	if (n < 0)
		return (int)n;
	uevent[n] = '\0';
	copy_value(info->name, sizeof(info->name), uevent, "HID_NAME");
	copy_value(info->uniq, sizeof(info->uniq), uevent, "HID_UNIQ");
	copy_value(info->phys, sizeof(info->phys), uevent, "HID_PHYS");
	/* The driver link appears before the driver's probe runs, so it
	 * says nothing of the reports. A hidraw node is created when
	 * hid-core connects the device, after it parsed them (the bind
	 * event, which follows a successful probe, says so too). */
	info->bound = faccessat(dirfd, "hidraw", F_OK, AT_SYMLINK_NOFOLLOW) == 0;

	/* One byte more than the kernel's limit tells a descriptor cut short. */
	n = read_small_file(dirfd, "report_descriptor", desc, sizeof(desc));
	if (n > 0 && (size_t)n < sizeof(desc))
		hid_dev_set_descriptor(info, desc, (size_t)n);
	if (info->bus == BUS_USB)
		read_interface(dirfd, info);
	if (info->bus == BUS_USB)
		read_receiver(path, dirfd, info);
	return 0;
}

bool hid_dev_reports_parsed(const char *root, const char *sysname)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int dirfd = -1;

	if (asprintf(&path, "%s/%s", root, sysname) < 0)
		return false;
	dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return false;
	return faccessat(dirfd, "driver", F_OK, AT_SYMLINK_NOFOLLOW) == 0 &&
	       faccessat(dirfd, "hidraw", F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

int hid_dev_enumerate(const char *root,
		      int (*fn)(const struct hid_dev_info *info, void *userdata),
		      void *userdata)
{
	_cleanup_closedir_ DIR *dir = opendir(root);
	struct dirent *de;

	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		struct hid_dev_info info;
		int r;

		if (de->d_name[0] == '.')
			continue;
		if (hid_dev_read(root, de->d_name, &info) < 0)
			continue;
		r = fn(&info, userdata);
		if (r < 0)
			return r;
	}
	return 0;
}

int uevent_open(void)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,	/* the kernel's own events, not udev's */
	};
	int fd, one = 1;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	/* Large enough that a burst of hotplug events is not lost. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &(int){ 1 << 20 }, sizeof(int));
	setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

int uevent_parse(const char *buf, size_t len, struct uevent *ev)
{
	const char *devpath = NULL, *subsystem = NULL, *action = NULL;
	size_t i = 0;

	memset(ev, 0, sizeof(*ev));
	/* "action@devpath\0KEY=value\0...": skip the header, read the keys. */
	while (i < len && buf[i])
		i++;
	for (i++; i < len; ) {
		const char *kv = buf + i;
		size_t n = strnlen(kv, len - i);

		if (n == len - i)
			break;	/* not terminated: ignore the rest */
		if (!strncmp(kv, "ACTION=", 7))
			action = kv + 7;
		else if (!strncmp(kv, "DEVPATH=", 8))
			devpath = kv + 8;
		else if (!strncmp(kv, "SUBSYSTEM=", 10))
			subsystem = kv + 10;
		i += n + 1;
	}
	if (!action || !devpath || !subsystem || strcmp(subsystem, "hid"))
		return 0;
	if (!strcmp(action, "add"))
		ev->action = UEVENT_ADD;
	else if (!strcmp(action, "bind"))
		ev->action = UEVENT_BIND;
	else if (!strcmp(action, "unbind"))
		ev->action = UEVENT_UNBIND;
	else if (!strcmp(action, "remove"))
		ev->action = UEVENT_REMOVE;
	else
		ev->action = UEVENT_OTHER;

	{
		const char *base = strrchr(devpath, '/');
		struct hid_dev_info info;

		base = base ? base + 1 : devpath;
		if (hid_sysname_parse(base, &info) < 0)
			return 0;
		snprintf(ev->sysname, sizeof(ev->sysname), "%s", base);
	}
	return 0;
}

int uevent_receive(int fd, struct uevent *ev)
{
	char buf[UEVENT_BUFFER_SIZE];
	struct sockaddr_nl from = {};
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	union {
		struct cmsghdr hdr;
		char space[CMSG_SPACE(sizeof(struct ucred))];
	} control;
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = &control,
		.msg_controllen = sizeof(control),
	};
	ssize_t n;

	memset(ev, 0, sizeof(*ev));
	n = recvmsg(fd, &msg, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	/* Only the kernel (port 0) speaks for devices. */
	if (from.nl_pid != 0 || (msg.msg_flags & MSG_TRUNC))
		return 0;
	return uevent_parse(buf, n, ev);
}
