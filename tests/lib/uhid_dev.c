// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness.h"
#include "uhid_dev.h"
#include "bt_hidp.h"
#include "usb_gadget.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/hidraw.h>
#include <linux/input.h>
#include <sys/eventfd.h>

#define FIND_TIMEOUT_MS 10000
#define USB_FIND_TIMEOUT_MS 30000	/* enumeration under TCG on a busy host */
#define USB_GONE_TIMEOUT_MS 10000

const uint8_t uhid_test_rdesc[] = {
	0x06, 0x00, 0xff,	/* Usage Page (Vendor Defined 0xFF00) */
	0x09, 0x01,		/* Usage (0x01) */
	0xa1, 0x01,		/* Collection (Application) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x3f,		/*   Report Count (63) */
	0x85, 0x01,		/*   Report ID (1) */
	0x09, 0x02,		/*   Usage (0x02) */
	0x81, 0x02,		/*   Input (Data,Var,Abs) */
	0x85, 0x02,		/*   Report ID (2) */
	0x09, 0x03,		/*   Usage (0x03) */
	0x91, 0x02,		/*   Output (Data,Var,Abs) */
	0x85, 0x03,		/*   Report ID (3) */
	0x09, 0x04,		/*   Usage (0x04) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0x85, 0x04,		/*   Report ID (4) */
	0x09, 0x05,		/*   Usage (0x05) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0x85, 0xf0,		/*   Report ID (0xf0) */
	0x09, 0x06,		/*   Usage (0x06) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0xc0,			/* End Collection */
};
const size_t uhid_test_rdesc_size = sizeof(uhid_test_rdesc);

const char *test_dev_backend_name(enum test_dev_backend backend)
{
	switch (backend) {
	case TEST_DEV_USB:
		return "usb";
	case TEST_DEV_BT:
		return "bt";
	default:
		return "uhid";
	}
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

ssize_t read_file(const char *path, void *buf, size_t size)
{
	ssize_t n, total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((size_t)total < size) {
		n = read(fd, (char *)buf + total, size - total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	return total;
}

static int uhid_write(int fd, const struct uhid_event *ev)
{
	ssize_t n = write(fd, ev, sizeof(*ev));

	if (n < 0)
		return -errno;
	return n == sizeof(*ev) ? 0 : -EIO;
}

static struct uhid_dev_record *record(struct uhid_dev *dev, enum uhid_dev_request req,
				      uint8_t rtype, uint8_t rnum, const void *data, size_t size)
{
	struct uhid_dev_record *r;

	if (size > UHID_DEV_REPORT_MAX)
		size = UHID_DEV_REPORT_MAX;
	r = &dev->records[dev->n_records % UHID_DEV_MAX_RECORDS];
	r->request = req;
	r->rtype = rtype;
	r->rnum = rnum;
	r->size = size;
	if (size)
		memcpy(r->data, data, size);
	dev->n_records++;
	switch (req) {
	case UHID_DEV_GET_REPORT:
		dev->n_get++;
		break;
	case UHID_DEV_SET_REPORT:
		dev->n_set++;
		break;
	case UHID_DEV_OUTPUT:
		dev->n_output++;
		break;
	}
	pthread_cond_broadcast(&dev->cond);
	return r;
}

/* Record a request; hand it to the device's on_request hook, outside the
 * lock (the hook sets replies and sends input through the locked calls). */
static void take_request(struct uhid_dev *dev, enum uhid_dev_request req, uint8_t rtype,
			 uint8_t rnum, const void *data, size_t size)
{
	struct uhid_dev_record copy;

	pthread_mutex_lock(&dev->lock);
	copy = *record(dev, req, rtype, rnum, data, size);
	pthread_mutex_unlock(&dev->lock);
	if (dev->on_request)
		dev->on_request(dev, &copy, dev->userdata);
}

/* The USB and Bluetooth backends' requests: the hook sees them as uhid's
 * (before a GET_REPORT is answered from the replies set). */
void uhid_dev_record(struct uhid_dev *dev, enum uhid_dev_request req, uint8_t rtype,
		     uint8_t rnum, const void *data, size_t size)
{
	take_request(dev, req, rtype, rnum, data, size);
}

void uhid_dev_get_reply(struct uhid_dev *dev, uint8_t rnum, struct uhid_get_reply *out)
{
	pthread_mutex_lock(&dev->lock);
	*out = dev->get_reply[rnum];
	pthread_mutex_unlock(&dev->lock);
}

int uhid_dev_set_reply(struct uhid_dev *dev)
{
	int err;

	pthread_mutex_lock(&dev->lock);
	err = dev->set_reply_err;
	pthread_mutex_unlock(&dev->lock);
	return err;
}

static void handle_event(struct uhid_dev *dev, const struct uhid_event *ev)
{
	struct uhid_event reply = {};

	switch (ev->type) {
	case UHID_OUTPUT:
		take_request(dev, UHID_DEV_OUTPUT, ev->u.output.rtype,
			     ev->u.output.size ? ev->u.output.data[0] : 0,
			     ev->u.output.data, ev->u.output.size);
		return;
	case UHID_GET_REPORT:
		take_request(dev, UHID_DEV_GET_REPORT, ev->u.get_report.rtype,
			     ev->u.get_report.rnum, NULL, 0);
		break;
	case UHID_SET_REPORT:
		take_request(dev, UHID_DEV_SET_REPORT, ev->u.set_report.rtype,
			     ev->u.set_report.rnum, ev->u.set_report.data,
			     ev->u.set_report.size);
		break;
	default:
		break;
	}

	pthread_mutex_lock(&dev->lock);
	switch (ev->type) {
	case UHID_START:
		dev->started = true;
		pthread_cond_broadcast(&dev->cond);
		break;
	case UHID_OPEN:
		dev->opened = true;
		break;
	case UHID_CLOSE:
		dev->opened = false;
		break;
	case UHID_GET_REPORT: {
		const struct uhid_get_reply *g = &dev->get_reply[ev->u.get_report.rnum];

		reply.type = UHID_GET_REPORT_REPLY;
		reply.u.get_report_reply.id = ev->u.get_report.id;
		if (!g->set) {
			reply.u.get_report_reply.err = EIO;
		} else {
			reply.u.get_report_reply.err = g->err;
			reply.u.get_report_reply.size = g->size;
			memcpy(reply.u.get_report_reply.data, g->data, g->size);
		}
		break;
	}
	case UHID_SET_REPORT:
		reply.type = UHID_SET_REPORT_REPLY;
		reply.u.set_report_reply.id = ev->u.set_report.id;
		reply.u.set_report_reply.err = dev->set_reply_err;
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&dev->lock);

	/* Reply outside the lock: the write may block on hid-core. */
	if (reply.type)
		uhid_write(dev->fd, &reply);
}

static void *device_thread(void *arg)
{
	struct uhid_dev *dev = arg;
	struct pollfd fds[2] = {
		{ .fd = dev->fd, .events = POLLIN },
		{ .fd = dev->stop_fd, .events = POLLIN },
	};
	struct uhid_event ev;

	for (;;) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[1].revents)
			break;
		if (!(fds[0].revents & POLLIN))
			continue;
		if (read(dev->fd, &ev, sizeof(ev)) <= 0)
			continue;
		handle_event(dev, &ev);
	}
	return NULL;
}

/* Read the sysfs attribute REL (relative to HID device SYSNAME's
 * directory) into BUF, its newline cut: false when it cannot be read. */
static bool read_hid_attr(const char *sysname, const char *rel, char *buf, size_t size)
{
	char path[320];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/hid/devices/%s/%s", sysname, rel);
	n = read_file(path, buf, size - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* The value of KEY ("HID_PHYS=") in HID device SYSNAME's uevent, with its
 * newline, into OUT; false when there is none. */
static bool uevent_line(const char *sysname, const char *key, char *out, size_t size)
{
	char path[320], uevent[1024];
	const char *at, *end;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/hid/devices/%s/uevent", sysname);
	n = read_file(path, uevent, sizeof(uevent) - 1);
	if (n <= 0)
		return false;
	uevent[n] = '\0';
	at = strstr(uevent, key);
	if (!at || (at != uevent && at[-1] != '\n'))
		return false;
	end = strchr(at, '\n');
	snprintf(out, size, "%.*s", (int)(end ? end - at + 1 : (long)strlen(at)), at);
	return true;
}

/* Is the HID device SYSNAME on USB interface number INTF? */
static bool on_usb_interface(const char *sysname, size_t intf)
{
	char number[8];

	return read_hid_attr(sysname, "../bInterfaceNumber", number, sizeof(number)) &&
	       strtoul(number, NULL, 16) == intf;
}

/* Is HID device SYSNAME on the USB device whose serial number is SERIAL?
 * (the HID device, its USB interface, the USB device) */
static bool on_usb_serial(const char *sysname, const char *serial)
{
	char value[96];

	return read_hid_attr(sysname, "../../serial", value, sizeof(value)) &&
	       !strcmp(value, serial);
}

/* Is HID device SYSNAME on the USB port whose path is PORT, usbhid's phys
 * up to the interface ("usb-dummy_hcd.0-1/")? */
static bool on_usb_port(const char *sysname, const char *port)
{
	char phys[96];

	return uevent_line(sysname, "HID_PHYS=", phys, sizeof(phys)) &&
	       !strncmp(phys + strlen("HID_PHYS="), port, strlen(port));
}

/* Find our device in sysfs by bus/vendor/product and its unique token
 * (uhid gives it as phys; USB as the USB device's serial number, which
 * usbhid also copies to HID_UNIQ, but hid-playstation and hid-sony put the
 * controller's MAC address there once they probed it: dualsense_create,
 * dualshock4_create, sony_check_add; a USB device without one by the port
 * of the UDC it holds alone; BT as HID_UNIQ); of several, the first
 * created (lowest hid_id): a driver may add devices of its own with the
 * same identity (hid-steam's hidraw client). On USB with interfaces before
 * the test's, the HID device of the test's interface. */
static bool find_sysfs(struct uhid_dev *dev, const struct uhid_dev_config *cfg)
{
	char prefix[32], path[320], uevent[1024], want[96];
	struct dirent *de;
	bool found = false;
	DIR *dir;

	snprintf(prefix, sizeof(prefix), "%04X:%04X:%04X.", cfg->bus,
		 cfg->vendor & 0xffff, cfg->product & 0xffff);
	snprintf(want, sizeof(want), "%s=%s\n",
		 dev->backend == TEST_DEV_UHID ? "HID_PHYS" : "HID_UNIQ", dev->phys);
	dir = opendir("/sys/bus/hid/devices");
	if (!dir)
		return false;
	while ((de = readdir(dir))) {
		int id;
		ssize_t n;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (dev->backend == TEST_DEV_USB) {
			if (cfg->usb_device && cfg->usb_device->no_serial ?
			    !on_usb_port(de->d_name, dev->phys) : !on_usb_serial(de->d_name, dev->phys))
				continue;
		} else {
			snprintf(path, sizeof(path), "/sys/bus/hid/devices/%s/uevent", de->d_name);
			n = read_file(path, uevent, sizeof(uevent) - 1);
			if (n <= 0)
				continue;
			uevent[n] = '\0';
			if (!strstr(uevent, want))
				continue;
		}
		if (dev->backend == TEST_DEV_USB && cfg->usb_n_before &&
		    !on_usb_interface(de->d_name, cfg->usb_n_before))
			continue;
		id = (int)strtol(de->d_name + strlen(prefix), NULL, 16);
		if (found && id > dev->hid_id)
			continue;
		snprintf(dev->sysname, sizeof(dev->sysname), "%s", de->d_name);
		snprintf(dev->syspath, sizeof(dev->syspath), "/sys/bus/hid/devices/%s",
			 de->d_name);
		dev->hid_id = id;
		found = true;
	}
	closedir(dir);
	return found;
}

/* The hidraw node of HID device SYSNAME, "/dev/hidrawN", into NODE:
 * false while it has none, or its node is not in /dev yet. */
static bool hidraw_of(const char *sysname, char *node, size_t size)
{
	char path[320];
	struct dirent *de;
	bool found = false;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/bus/hid/devices/%s/hidraw", sysname);
	dir = opendir(path);
	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		if (strncmp(de->d_name, "hidraw", 6))
			continue;
		snprintf(node, size, "/dev/%s", de->d_name);
		found = access(node, F_OK) == 0;
	}
	closedir(dir);
	return found;
}

static bool find_hidraw(struct uhid_dev *dev)
{
	return hidraw_of(dev->sysname, dev->hidraw, sizeof(dev->hidraw));
}

/* A HID device besides DEV with DEV's identity and phys and a hidraw node:
 * hid-steam's client (steam_create_client_hid copies the real device's
 * bus, IDs and phys and connects hidraw to it alone). Fills NODE. */
static bool find_client_hidraw(const struct uhid_dev *dev, struct hidraw_node *node)
{
	char prefix[32], phys[96], other[96];
	struct dirent *de;
	bool found = false;
	DIR *dir;

	if (!uevent_line(dev->sysname, "HID_PHYS=", phys, sizeof(phys)))
		return false;
	/* "BBBB:VVVV:PPPP.": the sysname up to the device's number */
	snprintf(prefix, sizeof(prefix), "%.15s", dev->sysname);
	dir = opendir("/sys/bus/hid/devices");
	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) || !strcmp(de->d_name, dev->sysname))
			continue;
		if (!uevent_line(de->d_name, "HID_PHYS=", other, sizeof(other)) ||
		    strcmp(other, phys) || !hidraw_of(de->d_name, node->path, sizeof(node->path)))
			continue;
		snprintf(node->sysname, sizeof(node->sysname), "%s", de->d_name);
		node->hid_id = (int)strtol(de->d_name + strlen(prefix), NULL, 16);
		found = true;
	}
	closedir(dir);
	return found;
}

/* Send the stream report until told to stop; a report the kernel refuses
 * (no driver bound yet, device going away) is simply the next one's turn. */
static void *stream_thread(void *arg)
{
	struct uhid_dev *dev = arg;
	const struct timespec pause = { .tv_nsec = 200 * 1000 };

	while (!__atomic_load_n(&dev->stream_stop, __ATOMIC_ACQUIRE)) {
		if (uhid_write(dev->fd, &dev->stream_event) == 0)
			__atomic_fetch_add(&dev->n_streamed, 1, __ATOMIC_RELAXED);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void stream_end(struct uhid_dev *dev)
{
	if (!dev->stream_running)
		return;
	__atomic_store_n(&dev->stream_stop, true, __ATOMIC_RELEASE);
	pthread_join(dev->stream_thread, NULL);
	dev->stream_running = false;
}

static int start_uhid(struct uhid_dev *dev, const struct uhid_dev_config *cfg)
{
	struct uhid_event ev = { .type = UHID_CREATE2 };
	struct uhid_create2_req *c = &ev.u.create2;
	int r;

	dev->fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
	if (dev->fd < 0)
		return -errno;
	dev->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (dev->stop_fd < 0)
		return -errno;

	snprintf((char *)c->name, sizeof(c->name), "%s", cfg->name);
	snprintf((char *)c->phys, sizeof(c->phys), "%s", dev->phys);
	snprintf((char *)c->uniq, sizeof(c->uniq), "%s", cfg->uniq ? cfg->uniq : "");
	c->rd_size = cfg->rdesc_size;
	c->bus = cfg->bus;
	c->vendor = cfg->vendor;
	c->product = cfg->product;
	c->version = cfg->version;
	memcpy(c->rd_data, cfg->rdesc, cfg->rdesc_size);
	r = uhid_write(dev->fd, &ev);
	if (r < 0)
		return r;

	if (cfg->stream_report && cfg->stream_size) {
		dev->stream_event.type = UHID_INPUT2;
		dev->stream_event.u.input2.size = cfg->stream_size;
		memcpy(dev->stream_event.u.input2.data, cfg->stream_report, cfg->stream_size);
		r = -pthread_create(&dev->stream_thread, NULL, stream_thread, dev);
		if (r < 0)
			return r;
		dev->stream_running = true;
	}

	r = -pthread_create(&dev->thread, NULL, device_thread, dev);
	if (r < 0)
		return r;
	dev->thread_running = true;
	return 0;
}

/* The host side of dummy_hcd's UDC "dummy_udc.N" is dummy_hcd.N (dummy_hcd
 * creates both platform devices with the same id, dummy_hcd.c init), whose
 * one root port carries the gadget: usbhid's phys for it, up to the
 * interface, into PORT (usb_make_path: "usb-" bus name "-" devpath). */
static int usb_port_of(const char *udc, char *port, size_t size)
{
	const char *id = strrchr(udc, '.');

	if (!id || strncmp(udc, "dummy_udc.", strlen("dummy_udc.")))
		return -ENODEV;
	snprintf(port, size, "usb-dummy_hcd%s-1/", id);
	return 0;
}

int uhid_dev_create(struct uhid_dev *dev, const struct uhid_dev_config *cfg)
{
	static unsigned int counter;
	struct uhid_dev_config defaults = *cfg;
	bool usb = cfg->backend == TEST_DEV_USB, bt = cfg->backend == TEST_DEV_BT;
	unsigned int n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
	long deadline;
	int r;

	memset(dev, 0, sizeof(*dev));
	dev->backend = cfg->backend;
	dev->fd = -1;
	dev->stop_fd = -1;
	if (!cfg->rdesc || !cfg->rdesc_size || cfg->rdesc_size > HID_MAX_DESCRIPTOR_SIZE)
		return -EINVAL;
	if (cfg->stream_size > sizeof(dev->stream_event.u.input2.data))
		return -EINVAL;
	if ((usb || bt) && cfg->stream_size)
		return -EOPNOTSUPP;
	if (!defaults.bus || usb)
		defaults.bus = BUS_USB;
	if (bt)
		defaults.bus = BUS_BLUETOOTH;
	if (!defaults.name)
		defaults.name = "hid-policy test device";
	if (usb && defaults.uniq)
		snprintf(dev->phys, sizeof(dev->phys), "%s", defaults.uniq);
	else if (!usb && defaults.phys)
		snprintf(dev->phys, sizeof(dev->phys), "%s", defaults.phys);
	else
		snprintf(dev->phys, sizeof(dev->phys), "%s-test/%d/%u",
			 test_dev_backend_name(cfg->backend), (int)getpid(), n);

	dev->records = calloc(UHID_DEV_MAX_RECORDS, sizeof(*dev->records));
	if (!dev->records)
		return -ENOMEM;
	pthread_mutex_init(&dev->lock, NULL);
	pthread_cond_init(&dev->cond, NULL);

	dev->on_request = cfg->on_request;
	dev->userdata = cfg->userdata;
	if (usb) {
		r = usb_gadget_dev_start(dev, &defaults, dev->phys, &dev->usb);
		if (r == 0 && cfg->usb_device && cfg->usb_device->no_serial)
			r = usb_port_of(usb_gadget_dev_udc(dev->usb), dev->phys, sizeof(dev->phys));
	} else if (bt)
		r = bt_hidp_dev_start(dev, &defaults, dev->phys, sizeof(dev->phys), &dev->bt);
	else
		r = start_uhid(dev, &defaults);
	if (r < 0)
		goto fail;

	deadline = now_ms() + (long)(usb || bt ? USB_FIND_TIMEOUT_MS : FIND_TIMEOUT_MS) *
			       test_slow_factor();
	while (!find_sysfs(dev, &defaults) || (!cfg->no_hidraw_wait && !find_hidraw(dev))) {
		if (now_ms() > deadline) {
			r = -ETIMEDOUT;
			goto fail;
		}
		usleep(2000);
	}
	return 0;
fail:
	uhid_dev_destroy(dev);
	return r;
}

void uhid_dev_destroy(struct uhid_dev *dev)
{
	struct uhid_event ev = { .type = UHID_DESTROY };

	stream_end(dev);
	if (dev->usb) {
		usb_gadget_dev_stop(dev->usb);
		dev->usb = NULL;
		if (dev->syspath[0])
			uhid_wait_gone(dev->syspath, USB_GONE_TIMEOUT_MS);
	}
	if (dev->bt) {
		bt_hidp_dev_stop(dev->bt);
		dev->bt = NULL;
		if (dev->syspath[0])
			uhid_wait_gone(dev->syspath, USB_GONE_TIMEOUT_MS);
	}
	if (dev->fd >= 0)
		uhid_write(dev->fd, &ev);
	if (dev->thread_running) {
		uint64_t one = 1;

		if (write(dev->stop_fd, &one, sizeof(one)) != sizeof(one))
			pthread_cancel(dev->thread);
		pthread_join(dev->thread, NULL);
		dev->thread_running = false;
	}
	if (dev->stop_fd >= 0)
		close(dev->stop_fd);
	if (dev->fd >= 0)
		close(dev->fd);
	dev->stop_fd = dev->fd = -1;
	if (dev->records) {
		pthread_cond_destroy(&dev->cond);
		pthread_mutex_destroy(&dev->lock);
		free(dev->records);
		dev->records = NULL;
	}
}

int uhid_dev_wait_hidraw(struct uhid_dev *dev, int timeout_ms)
{
	long deadline = now_ms() + (long)timeout_ms * test_slow_factor();

	while (!find_hidraw(dev)) {
		if (now_ms() > deadline)
			return -ETIMEDOUT;
		usleep(2000);
	}
	return 0;
}

int uhid_dev_wait_user_hidraw(struct uhid_dev *dev, struct hidraw_node *node, int timeout_ms)
{
	long deadline = now_ms() + (long)timeout_ms * test_slow_factor();

	for (;;) {
		if (find_hidraw(dev)) {
			snprintf(node->sysname, sizeof(node->sysname), "%s", dev->sysname);
			snprintf(node->path, sizeof(node->path), "%s", dev->hidraw);
			node->hid_id = dev->hid_id;
			return 0;
		}
		if (find_client_hidraw(dev, node))
			return 0;
		if (now_ms() > deadline)
			return -ETIMEDOUT;
		usleep(2000);
	}
}

int uhid_dev_send_input(struct uhid_dev *dev, const void *data, size_t size)
{
	struct uhid_event ev = { .type = UHID_INPUT2 };

	if (size > sizeof(ev.u.input2.data))
		return -EINVAL;
	if (dev->usb)
		return usb_gadget_dev_send_input(dev->usb, data, size);
	if (dev->bt)
		return bt_hidp_dev_send_input(dev->bt, data, size);
	ev.u.input2.size = size;
	memcpy(ev.u.input2.data, data, size);
	return uhid_write(dev->fd, &ev);
}

void uhid_dev_join_sender(struct uhid_dev *dev, pthread_t thread)
{
	if (dev->usb)
		usb_gadget_join_sender(thread);
	else
		pthread_join(thread, NULL);
}

void uhid_dev_set_get_reply(struct uhid_dev *dev, uint8_t rnum,
			    const void *data, size_t size, int err)
{
	struct uhid_get_reply *g = &dev->get_reply[rnum];

	if (size > sizeof(g->data))
		size = sizeof(g->data);
	pthread_mutex_lock(&dev->lock);
	g->set = true;
	g->err = err;
	g->size = err ? 0 : size;
	if (!err)
		memcpy(g->data, data, size);
	pthread_mutex_unlock(&dev->lock);
}

void uhid_dev_set_set_reply(struct uhid_dev *dev, int err)
{
	pthread_mutex_lock(&dev->lock);
	dev->set_reply_err = err;
	pthread_mutex_unlock(&dev->lock);
}

static unsigned long count_locked(struct uhid_dev *dev, enum uhid_dev_request req,
				  int rnum)
{
	unsigned long n = 0, first;

	if (rnum < 0) {
		n = req == UHID_DEV_GET_REPORT ? dev->n_get :
		    req == UHID_DEV_SET_REPORT ? dev->n_set : dev->n_output;
	} else {
		first = dev->n_records > UHID_DEV_MAX_RECORDS ?
			dev->n_records - UHID_DEV_MAX_RECORDS : 0;
		for (unsigned long i = first; i < dev->n_records; i++) {
			const struct uhid_dev_record *r =
				&dev->records[i % UHID_DEV_MAX_RECORDS];

			if (r->request == req && r->rnum == rnum)
				n++;
		}
	}
	return n;
}

unsigned long uhid_dev_count(struct uhid_dev *dev, enum uhid_dev_request req,
			     int rnum)
{
	unsigned long n;

	pthread_mutex_lock(&dev->lock);
	n = count_locked(dev, req, rnum);
	pthread_mutex_unlock(&dev->lock);
	return n;
}

int uhid_dev_wait_count(struct uhid_dev *dev, enum uhid_dev_request req,
			int rnum, unsigned long n, int timeout_ms)
{
	struct timespec deadline;
	int r = 0;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&dev->lock);
	while (count_locked(dev, req, rnum) < n) {
		if (pthread_cond_timedwait(&dev->cond, &dev->lock, &deadline) == ETIMEDOUT) {
			r = count_locked(dev, req, rnum) < n ? -ETIMEDOUT : 0;
			break;
		}
	}
	pthread_mutex_unlock(&dev->lock);
	return r;
}

bool uhid_dev_last(struct uhid_dev *dev, enum uhid_dev_request req,
		   struct uhid_dev_record *out)
{
	bool found = false;
	unsigned long first;

	pthread_mutex_lock(&dev->lock);
	first = dev->n_records > UHID_DEV_MAX_RECORDS ?
		dev->n_records - UHID_DEV_MAX_RECORDS : 0;
	for (unsigned long i = dev->n_records; i > first; i--) {
		const struct uhid_dev_record *r =
			&dev->records[(i - 1) % UHID_DEV_MAX_RECORDS];

		if (r->request == req) {
			*out = *r;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&dev->lock);
	return found;
}

void uhid_dev_clear(struct uhid_dev *dev)
{
	pthread_mutex_lock(&dev->lock);
	dev->n_records = dev->n_get = dev->n_set = dev->n_output = 0;
	pthread_mutex_unlock(&dev->lock);
}

int uhid_dev_open_hidraw(struct uhid_dev *dev, int flags)
{
	int fd = open(dev->hidraw, O_RDWR | O_CLOEXEC | flags);

	return fd < 0 ? -errno : fd;
}

int uhid_hidraw_read_input_byte1(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t buf[64];

	if (poll(&p, 1, timeout_ms * test_slow_factor()) <= 0)
		return -ETIMEDOUT;
	if (read(fd, buf, sizeof(buf)) < 2)
		return -EIO;
	return buf[1];
}

int uhid_hidraw_set_feature(int fd, uint8_t id)
{
	uint8_t buf[64] = { id };

	return ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0 ? errno : 0;
}

bool test_dev_generic_driver_only_now(void)
{
	char value[8] = "";

	return read_file("/sys/module/hid/parameters/ignore_special_drivers", value,
			 sizeof(value) - 1) > 0 && (value[0] == '1' || value[0] == 'Y');
}

int test_dev_generic_driver_only(bool on)
{
	int fd = open("/sys/module/hid/parameters/ignore_special_drivers", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, on ? "1" : "0", 1);
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static int write_sysfs(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	n = n < 0 ? -errno : n == (ssize_t)strlen(text) ? 0 : -EIO;
	close(fd);
	return (int)n;
}

int uhid_dev_unbind(const struct uhid_dev *dev, const char *driver)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/hid/drivers/%s/unbind", driver);
	return write_sysfs(path, dev->sysname);
}

int uhid_dev_bind(struct uhid_dev *dev, const char *driver, int timeout_ms)
{
	char path[PATH_MAX];
	int r;

	snprintf(path, sizeof(path), "/sys/bus/hid/drivers/%s/bind", driver);
	r = write_sysfs(path, dev->sysname);
	return r < 0 ? r : uhid_dev_wait_hidraw(dev, timeout_ms);
}

static int kept_generic_only = -1;

static void put_back_driver_setting(void)
{
	if (kept_generic_only >= 0 && test_dev_generic_driver_only_now() != kept_generic_only)
		test_dev_generic_driver_only(kept_generic_only);
}

void test_dev_keep_driver_setting(void)
{
	kept_generic_only = test_dev_generic_driver_only_now();
	test_after_each_case(put_back_driver_setting);
}

int uhid_wait_gone(const char *syspath, int timeout_ms)
{
	long deadline = now_ms() + (long)timeout_ms * test_slow_factor();

	while (access(syspath, F_OK) == 0) {
		if (now_ms() > deadline)
			return -ETIMEDOUT;
		usleep(2000);
	}
	return 0;
}
