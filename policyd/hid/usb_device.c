// SPDX-License-Identifier: GPL-2.0-or-later
/* A USB device's ids and interface classes from sysfs; see usb_device.h. */
#include "usb_device.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/util.h"
#include "devices.h"

#define USB_DT_DEVICE_SIZE	18
#define USB_DT_INTERFACE	4
#define USB_DT_INTERFACE_SIZE	9
#define USB_CLASS_HID		3
/* usbfs keeps at most this much of a configuration, times a few
 * configurations: more is not a device's */
#define DESCRIPTORS_MAX		(64 * 1024)

int usb_descriptors_have_hid(const uint8_t *desc, size_t len)
{
	size_t at;

	if (len < USB_DT_DEVICE_SIZE || desc[0] != USB_DT_DEVICE_SIZE)
		return -EINVAL;
	for (at = USB_DT_DEVICE_SIZE; at < len; at += desc[at]) {
		/* a descriptor of length 0 or 1 would never end */
		if (desc[at] < 2 || desc[at] > len - at)
			return -EINVAL;
		if (desc[at + 1] == USB_DT_INTERFACE && desc[at] >= USB_DT_INTERFACE_SIZE &&
		    desc[at + 5] == USB_CLASS_HID)
			return 1;
	}
	return 0;
}

static int read_hex_id(int dirfd, const char *name, uint16_t *id)
{
	char text[16], *end;
	unsigned long v;
	ssize_t n = read_small_file(dirfd, name, text, sizeof(text) - 1);

	if (n < 0)
		return (int)n;
	text[n] = '\0';
	errno = 0;
	v = strtoul(text, &end, 16);
	if (errno || end == text || (*end && *end != '\n') || v > UINT16_MAX)
		return -EINVAL;
	*id = (uint16_t)v;
	return 0;
}

int usb_device_read(const char *dir, struct usb_device_ids *ids)
{
	_cleanup_close_ int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_free_ uint8_t *desc = NULL;
	ssize_t len;
	int r;

	if (dirfd < 0)
		return -errno;
	/* an interface has bInterfaceClass, a device has these */
	if (faccessat(dirfd, "bNumConfigurations", F_OK, 0) < 0)
		return -ENOTTY;
	r = read_hex_id(dirfd, "idVendor", &ids->vendor);
	if (r == 0)
		r = read_hex_id(dirfd, "idProduct", &ids->product);
	if (r < 0)
		return r;
	desc = malloc(DESCRIPTORS_MAX);
	if (!desc)
		return -ENOMEM;
	len = read_small_file(dirfd, "descriptors", desc, DESCRIPTORS_MAX);
	if (len < 0)
		return (int)len;
	if (len == DESCRIPTORS_MAX)
		return -EFBIG;
	r = usb_descriptors_have_hid(desc, (size_t)len);
	if (r < 0)
		return r;
	ids->has_hid_interface = r;
	return 0;
}
