// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The USB backend of the test devices (uhid_dev.h): the device description
 * served through raw-gadget on a dummy_hcd UDC, so that the host side of
 * the same kernel enumerates it and usbhid binds it as it binds a real
 * device. One thread answers ep0 (enumeration and the HID class requests),
 * one reads the interrupt OUT endpoint; both record through uhid_dev.c.
 *
 * The device: one configuration, one HID interface, an interrupt IN
 * endpoint (input reports) and an interrupt OUT endpoint, so that
 * hid_hw_output_report reaches the device there, as on most gamepads.
 * Or, as a Logitech receiver has it, HID interfaces before that one (its
 * boot keyboard and mouse, each with its interrupt IN endpoint), whose
 * requests are answered and not recorded, and the test's interface with
 * an interrupt IN endpoint alone, its output reports on ep0.
 *
 * By default a high-speed device (interrupt endpoints of 1024 bytes: every
 * report a test sends is one packet). A replica of a real device gives its
 * own speed, packet sizes, intervals, attributes and strings
 * (uhid_dev_usb_device): raw-gadget passes the speed to the UDC
 * (raw_ioctl_init: usb_raw_init.speed becomes the driver's max_speed, which
 * udc-core gives dummy_udc_set_speed), dummy_hcd then reports the port as
 * full speed (no USB_PORT_STAT_HIGH_SPEED in dummy_hub_control) and takes
 * full-speed interrupt endpoints of up to 64 bytes (dummy_enable).
 * dummy_hcd does not model bInterval: it serves interrupt URBs at each of
 * its timer's ticks (125 us, DUMMY_TIMER_INT_NSECS), whatever the interval
 * ("FIXME is it urb->interval since the last xfer?", dummy_timer); nor does
 * it cut control transfers at the host's bMaxPacketSize0 (its ep0 takes
 * 64-byte packets, dummy_udc_update_ep0), which only enumeration reads.
 *
 * Blocking raw-gadget calls are ended by a signal sent to the thread that
 * waits in them (raw-gadget has no non-blocking mode).
 */
#include "usb_gadget.h"

#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/hid.h>
#include <linux/usb/ch9.h>
#include <linux/usb/raw_gadget.h>

#define UDC_DRIVER "dummy_udc"
#define UDC_CLASS_DIR "/sys/class/udc"
#define IO_MAX UHID_DEV_REPORT_MAX
/* A high-speed interrupt endpoint's largest packet: every report shorter
 * than this is one short packet, which ends the transfer on both sides. */
#define HS_MAX_PACKET 1024
#define HS_INTERVAL 4		/* 2^(4-1) microframes: 1 ms */
#define FS_MAX_PACKET 64	/* a full-speed interrupt endpoint's largest */
#define FS_INTERVAL 1		/* 1 frame: 1 ms */
#define EP0_MAX_PACKET 64
#define CONFIG_VALUE 1
#define ATTRIBUTES USB_CONFIG_ATT_ONE	/* bus powered, no remote wakeup */
#define MAX_POWER 50		/* bMaxPower, in 2 mA: 100 mA */
/* String indexes as a Logitech receiver numbers them (its lsusb -v:
 * iManufacturer 1, iProduct 2, iConfiguration 4); the serial number, which
 * it has not, takes 3. */
#define STRING_MANUFACTURER 1
#define STRING_PRODUCT 2
#define STRING_SERIAL 3
#define STRING_CONFIGURATION 4
#define MAX_INTERFACES 3	/* a receiver's keyboard, mouse and HID++ */
#define STRING_MAX_CHARS 126	/* a string descriptor is at most 255 bytes */
#define LANGID_EN_US 0x0409
#define STOP_SIGNAL SIGUSR2
#define STOP_POLL_NS (10 * 1000 * 1000)

/* HID 1.11, 6.2.1: the class descriptor that follows the interface's. */
struct hid_class_descriptor {
	uint8_t bLength;
	uint8_t bDescriptorType;	/* HID_DT_HID */
	uint16_t bcdHID;
	uint8_t bCountryCode;
	uint8_t bNumDescriptors;
	uint8_t bReportType;		/* HID_DT_REPORT */
	uint16_t wReportLength;
} __attribute__((packed));

/* The configuration with everything in it, as GET_DESCRIPTOR returns it:
 * at most this long. */
#define CONFIG_MAX (USB_DT_CONFIG_SIZE + MAX_INTERFACES * (USB_DT_INTERFACE_SIZE + \
		    sizeof(struct hid_class_descriptor) + USB_DT_ENDPOINT_SIZE) + USB_DT_ENDPOINT_SIZE)

/* One HID interface: its class descriptor, interrupt IN endpoint and
 * report descriptor. */
struct gadget_intf {
	struct usb_interface_descriptor desc;
	struct hid_class_descriptor hid;
	struct usb_endpoint_descriptor ep_in_desc;
	int ep_in;			/* raw-gadget endpoint handle */
	uint8_t rdesc[HID_MAX_DESCRIPTOR_SIZE];
	size_t rdesc_size;
};

/* raw-gadget's argument structs end in a flexible array: these give
 * them room. */
union ep_io {
	struct usb_raw_ep_io io;
	uint8_t bytes[sizeof(struct usb_raw_ep_io) + IO_MAX];
};

union raw_event {
	struct usb_raw_event ev;
	uint8_t bytes[sizeof(struct usb_raw_event) + sizeof(struct usb_ctrlrequest)];
};

struct usb_gadget_dev {
	struct uhid_dev *dev;		/* where requests are recorded */
	int fd;				/* /dev/raw-gadget */
	bool stopping;			/* atomic: the threads end */
	pthread_t ep0_thread, out_thread;
	bool ep0_running;
	bool out_running;		/* the ep0 thread's, read once it is gone */
	bool configured;		/* atomic: set by the ep0 thread */
	int ep_out;			/* raw-gadget endpoint handle */
	pthread_mutex_t in_lock;	/* one input report at a time */
	bool numbered;			/* the descriptor has report IDs */

	struct usb_device_descriptor device;
	unsigned int n_intf;
	unsigned int main;		/* the test's interface: the last */
	struct gadget_intf intf[MAX_INTERFACES];
	bool has_out;			/* the test's interface has an OUT endpoint */
	struct usb_endpoint_descriptor ep_out_desc;
	uint8_t config[CONFIG_MAX];
	size_t config_size;
	uint8_t max_power;		/* bMaxPower, in 2 mA */
	char udc[64];			/* the UDC it is bound to: dummy_udc.N */
	uint8_t product[2 + 2 * STRING_MAX_CHARS];	/* string descriptors */
	uint8_t serial[2 + 2 * STRING_MAX_CHARS];	/* [0] == 0: none */
	uint8_t manufacturer[2 + 2 * STRING_MAX_CHARS];	/* [0] == 0: none */
	uint8_t configuration[2 + 2 * STRING_MAX_CHARS];	/* [0] == 0: none */
};

static void on_stop_signal(int sig)
{
}

/* Without SA_RESTART, the signal ends a blocking raw-gadget call with
 * EINTR; the handler does nothing else. */
static void install_stop_handler(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(STOP_SIGNAL, &sa, NULL);
}

static bool stopping(struct usb_gadget_dev *g)
{
	return __atomic_load_n(&g->stopping, __ATOMIC_ACQUIRE);
}

/* Signal the thread until it has returned: a signal that lands before it
 * enters its next blocking call is followed by another. */
static void stop_thread(pthread_t thread)
{
	struct timespec until;

	for (;;) {
		pthread_kill(thread, STOP_SIGNAL);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += STOP_POLL_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (pthread_timedjoin_np(thread, NULL, &until) == 0)
			return;
	}
}

/* Does the report descriptor number its reports (a Report ID item)? */
static bool rdesc_numbers_reports(const uint8_t *d, size_t size)
{
	size_t i = 0;

	while (i < size) {
		uint8_t prefix = d[i];

		if (prefix == 0xfe) {		/* long item: its size follows */
			if (i + 1 >= size)
				break;
			i += 3 + d[i + 1];
			continue;
		}
		if ((prefix & 0xfc) == 0x84)	/* global item, tag 8: Report ID */
			return true;
		i += 1 + ((prefix & 3) == 3 ? 4 : (prefix & 3));
	}
	return false;
}

/* A string descriptor of TEXT; bytes beyond ASCII become '?'. */
static void string_descriptor(uint8_t *out, const char *text)
{
	size_t n = strnlen(text, STRING_MAX_CHARS);

	out[0] = 2 + 2 * n;
	out[1] = USB_DT_STRING;
	for (size_t i = 0; i < n; i++) {
		out[2 + 2 * i] = (uint8_t)text[i] < 0x80 ? (uint8_t)text[i] : '?';
		out[3 + 2 * i] = 0;
	}
}

static void endpoint_descriptor(struct usb_endpoint_descriptor *ep, uint8_t address,
				uint16_t max_packet, uint8_t interval)
{
	ep->bLength = USB_DT_ENDPOINT_SIZE;
	ep->bDescriptorType = USB_DT_ENDPOINT;
	ep->bEndpointAddress = address;
	ep->bmAttributes = USB_ENDPOINT_XFER_INT;
	ep->wMaxPacketSize = htole16(max_packet);
	ep->bInterval = interval;
}

/* The UDC's endpoints that take an interrupt endpoint in each direction:
 * a fixed one brings its number, a configurable one takes a free one. One
 * interface: the first of each. Several: configurable IN endpoints, which
 * take the numbers a receiver's have (0x81, 0x82, ...: raw-gadget enables
 * the first free endpoint that takes a descriptor's number and type). */
static int pick_endpoints(struct usb_gadget_dev *g, uint8_t *in_addr, uint8_t *out_addr)
{
	struct usb_raw_eps_info info;
	int in = -1, out = -1, n, any_in = 0;

	memset(&info, 0, sizeof(info));
	n = ioctl(g->fd, USB_RAW_IOCTL_EPS_INFO, &info);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		const struct usb_raw_ep_caps *caps = &info.eps[i].caps;

		if (!caps->type_int)
			continue;
		if (caps->dir_in && info.eps[i].addr == USB_RAW_EP_ADDR_ANY)
			any_in++;
		if (in < 0 && caps->dir_in)
			in = i;
		else if (out < 0 && caps->dir_out)
			out = i;
	}
	if (in < 0 || (g->has_out && out < 0))
		return -ENODEV;
	if (g->n_intf > 1) {
		if ((unsigned int)any_in < g->n_intf)
			return -ENODEV;
		for (unsigned int k = 0; k < g->n_intf; k++)
			in_addr[k] = (uint8_t)(USB_DIR_IN | (k + 1));
	} else {
		in_addr[0] = info.eps[in].addr == USB_RAW_EP_ADDR_ANY ? 1 : info.eps[in].addr;
		in_addr[0] |= USB_DIR_IN;
	}
	if (g->has_out)
		*out_addr = info.eps[out].addr == USB_RAW_EP_ADDR_ANY ? g->n_intf + 1 :
									info.eps[out].addr;
	return 0;
}

/* Append descriptor DESC (its first byte is its length) at OUT + *AT. */
static void put_descriptor(uint8_t *out, size_t *at, const void *desc)
{
	size_t n = *(const uint8_t *)desc;

	memcpy(out + *at, desc, n);
	*at += n;
}

/* The description's value V, or DEFAULT_VALUE where it gives none. */
static unsigned int or_default(unsigned int v, unsigned int default_value)
{
	return v ? v : default_value;
}

static void build_descriptors(struct usb_gadget_dev *g, const struct uhid_dev_config *cfg,
			      const char *serial, const uint8_t *in_addr, uint8_t out_addr)
{
	static const struct uhid_dev_usb_device defaults;
	const struct uhid_dev_usb_device *d = cfg->usb_device ? cfg->usb_device : &defaults;
	uint16_t max_packet = or_default(d->max_packet,
					 d->full_speed ? FS_MAX_PACKET : HS_MAX_PACKET);
	uint8_t interval = or_default(d->interval, d->full_speed ? FS_INTERVAL : HS_INTERVAL);
	struct usb_config_descriptor config = {
		.bLength = USB_DT_CONFIG_SIZE,
		.bDescriptorType = USB_DT_CONFIG,
		.bNumInterfaces = (uint8_t)g->n_intf,
		.bConfigurationValue = CONFIG_VALUE,
		.iConfiguration = d->configuration ? STRING_CONFIGURATION : 0,
		.bmAttributes = or_default(d->attributes, ATTRIBUTES),
		.bMaxPower = or_default(d->max_power, MAX_POWER),
	};
	size_t at = 0;

	g->max_power = config.bMaxPower;
	g->device = (struct usb_device_descriptor){
		.bLength = USB_DT_DEVICE_SIZE,
		.bDescriptorType = USB_DT_DEVICE,
		.bcdUSB = htole16(0x0200),
		.bMaxPacketSize0 = or_default(d->ep0_max_packet, EP0_MAX_PACKET),
		.idVendor = htole16(cfg->vendor),
		.idProduct = htole16(cfg->product),
		.bcdDevice = htole16(cfg->version),
		.iManufacturer = cfg->usb_manufacturer ? STRING_MANUFACTURER : 0,
		.iProduct = STRING_PRODUCT,
		.iSerialNumber = d->no_serial ? 0 : STRING_SERIAL,
		.bNumConfigurations = 1,
	};
	put_descriptor(g->config, &at, &config);
	for (unsigned int k = 0; k < g->n_intf; k++) {
		struct gadget_intf *f = &g->intf[k];
		bool out = k == g->main && g->has_out;
		uint16_t intf_max_packet = max_packet;
		uint8_t intf_interval = interval;

		f->desc = (struct usb_interface_descriptor){
			.bLength = USB_DT_INTERFACE_SIZE,
			.bDescriptorType = USB_DT_INTERFACE,
			.bInterfaceNumber = (uint8_t)k,
			.bNumEndpoints = out ? 2 : 1,
			.bInterfaceClass = USB_CLASS_HID,
		};
		if (k < g->main) {
			f->desc.bInterfaceSubClass = cfg->usb_before[k].subclass;
			f->desc.bInterfaceProtocol = cfg->usb_before[k].protocol;
			intf_max_packet = or_default(cfg->usb_before[k].max_packet, max_packet);
			intf_interval = or_default(cfg->usb_before[k].interval, interval);
		}
		f->hid = (struct hid_class_descriptor){
			.bLength = sizeof(f->hid),
			.bDescriptorType = HID_DT_HID,
			.bcdHID = htole16(0x0111),
			.bNumDescriptors = 1,
			.bReportType = HID_DT_REPORT,
			.wReportLength = htole16(f->rdesc_size),
		};
		endpoint_descriptor(&f->ep_in_desc, in_addr[k], intf_max_packet, intf_interval);
		put_descriptor(g->config, &at, &f->desc);
		put_descriptor(g->config, &at, &f->hid);
		put_descriptor(g->config, &at, &f->ep_in_desc);
		if (out) {
			endpoint_descriptor(&g->ep_out_desc, out_addr, max_packet, interval);
			put_descriptor(g->config, &at, &g->ep_out_desc);
		}
	}
	g->config_size = at;
	((struct usb_config_descriptor *)g->config)->wTotalLength = htole16((uint16_t)at);
	string_descriptor(g->product, cfg->name);
	if (!d->no_serial)
		string_descriptor(g->serial, serial);
	if (cfg->usb_manufacturer)
		string_descriptor(g->manufacturer, cfg->usb_manufacturer);
	if (d->configuration)
		string_descriptor(g->configuration, d->configuration);
}

/* ep0's data stages. A failed one (the host gave up, or we are stopping)
 * has nothing left to answer. */
static void ep0_in(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c,
		   const void *data, size_t size)
{
	union ep_io b;
	size_t max = le16toh(c->wLength);

	b.io.ep = 0;
	b.io.flags = 0;
	b.io.length = size < max ? size : max;
	memcpy(b.io.data, data, b.io.length);
	ioctl(g->fd, USB_RAW_IOCTL_EP0_WRITE, &b);
}

/* Read the OUT data stage (none: acknowledge); returns its length or -errno. */
static int ep0_out(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c, uint8_t *data)
{
	union ep_io b;
	size_t len = le16toh(c->wLength);
	int n;

	b.io.ep = 0;
	b.io.flags = 0;
	b.io.length = len < IO_MAX ? len : IO_MAX;
	n = ioctl(g->fd, USB_RAW_IOCTL_EP0_READ, &b);
	if (n < 0)
		return -errno;
	if (data)
		memcpy(data, b.io.data, n);
	return n;
}

static void *out_thread(void *arg);

/* SET_CONFIGURATION 1: the endpoints come to life. */
static bool set_configuration(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c)
{
	int r;

	if (le16toh(c->wValue) == CONFIG_VALUE && !g->configured) {
		for (unsigned int k = 0; k < g->n_intf; k++) {
			g->intf[k].ep_in = ioctl(g->fd, USB_RAW_IOCTL_EP_ENABLE, &g->intf[k].ep_in_desc);
			if (g->intf[k].ep_in < 0)
				return false;
		}
		if (g->has_out) {
			g->ep_out = ioctl(g->fd, USB_RAW_IOCTL_EP_ENABLE, &g->ep_out_desc);
			if (g->ep_out < 0)
				return false;
		}
		if (ioctl(g->fd, USB_RAW_IOCTL_VBUS_DRAW, g->max_power) < 0 ||
		    ioctl(g->fd, USB_RAW_IOCTL_CONFIGURE, 0) < 0)
			return false;
		if (g->has_out) {
			r = pthread_create(&g->out_thread, NULL, out_thread, g);
			if (r)
				return false;
			g->out_running = true;
		}
		__atomic_store_n(&g->configured, true, __ATOMIC_RELEASE);
	}
	ep0_out(g, c, NULL);
	return true;
}

static bool get_descriptor(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c)
{
	static const uint8_t langids[] = { 4, USB_DT_STRING, LANGID_EN_US & 0xff, LANGID_EN_US >> 8 };
	uint16_t value = le16toh(c->wValue), intf = le16toh(c->wIndex);
	uint8_t type = value >> 8, index = value & 0xff;
	const struct gadget_intf *f = intf < g->n_intf ? &g->intf[intf] : NULL;

	switch (type) {
	case USB_DT_DEVICE:
		ep0_in(g, c, &g->device, sizeof(g->device));
		return true;
	case USB_DT_CONFIG:
		ep0_in(g, c, g->config, g->config_size);
		return true;
	case USB_DT_STRING:
		if (index == 0)
			ep0_in(g, c, langids, sizeof(langids));
		else if (index == STRING_PRODUCT)
			ep0_in(g, c, g->product, g->product[0]);
		else if (index == STRING_SERIAL && g->serial[0])
			ep0_in(g, c, g->serial, g->serial[0]);
		else if (index == STRING_MANUFACTURER && g->manufacturer[0])
			ep0_in(g, c, g->manufacturer, g->manufacturer[0]);
		else if (index == STRING_CONFIGURATION && g->configuration[0])
			ep0_in(g, c, g->configuration, g->configuration[0]);
		else
			return false;
		return true;
	case HID_DT_HID:
		if (!f)
			return false;
		ep0_in(g, c, &f->hid, sizeof(f->hid));
		return true;
	case HID_DT_REPORT:
		/* the interface's, in wIndex */
		if (!f)
			return false;
		ep0_in(g, c, f->rdesc, f->rdesc_size);
		return true;
	}
	return false;	/* device qualifier, BOS, ...: a USB 2.0 device without them */
}

static bool standard_request(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c)
{
	static const uint8_t zeros[2], config_value = CONFIG_VALUE;

	switch (c->bRequest) {
	case USB_REQ_GET_DESCRIPTOR:
		return get_descriptor(g, c);
	case USB_REQ_SET_CONFIGURATION:
		return set_configuration(g, c);
	case USB_REQ_GET_CONFIGURATION:
		ep0_in(g, c, &config_value, 1);
		return true;
	case USB_REQ_GET_STATUS:
	case USB_REQ_GET_INTERFACE:
		ep0_in(g, c, zeros, sizeof(zeros));
		return true;
	case USB_REQ_SET_INTERFACE:
	case USB_REQ_SET_FEATURE:
	case USB_REQ_CLEAR_FEATURE:
		ep0_out(g, c, NULL);
		return true;
	}
	return false;
}

/* wValue's high byte (HID 1.11, 7.2.1) as uhid names the report types. */
static bool report_type(const struct usb_ctrlrequest *c, uint8_t *rtype)
{
	switch (le16toh(c->wValue) >> 8) {
	case 1:
		*rtype = UHID_INPUT_REPORT;
		return true;
	case 2:
		*rtype = UHID_OUTPUT_REPORT;
		return true;
	case 3:
		*rtype = UHID_FEATURE_REPORT;
		return true;
	}
	return false;
}

/* Records read as on uhid, data starting with the report ID byte. A
 * device that numbers its reports gets exactly the bytes that came over
 * the wire; one that does not receives its reports without an ID byte, so
 * its records get back the 0 that the hidraw buffer had in front. */
static void record_report(struct usb_gadget_dev *g, enum uhid_dev_request req, uint8_t rtype,
			  uint8_t rnum, const uint8_t *data, size_t size)
{
	uint8_t with_id[IO_MAX + 1];

	if (g->numbered) {
		uhid_dev_record(g->dev, req, rtype, rnum, data, size);
		return;
	}
	with_id[0] = 0;
	memcpy(with_id + 1, data, size);
	uhid_dev_record(g->dev, req, rtype, rnum, with_id, size + 1);
}

static bool get_report(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c)
{
	uint8_t rtype, rnum = le16toh(c->wValue) & 0xff;
	struct uhid_get_reply reply;
	size_t skip;

	if (!report_type(c, &rtype))
		return false;
	uhid_dev_record(g->dev, UHID_DEV_GET_REPORT, rtype, rnum, NULL, 0);
	uhid_dev_get_reply(g->dev, rnum, &reply);
	if (!reply.set || reply.err)
		return false;
	skip = !g->numbered && reply.size ? 1 : 0;	/* the 0 in front (record_report) */
	ep0_in(g, c, reply.data + skip, reply.size - skip);
	return true;
}

static bool set_report(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c)
{
	uint8_t rtype, rnum = le16toh(c->wValue) & 0xff, data[IO_MAX];
	int n;

	if (!report_type(c, &rtype))
		return false;
	if (uhid_dev_set_reply(g->dev)) {
		uhid_dev_record(g->dev, UHID_DEV_SET_REPORT, rtype, rnum, NULL, 0);
		return false;
	}
	n = ep0_out(g, c, data);
	if (n >= 0)
		record_report(g, UHID_DEV_SET_REPORT, rtype, rnum, data, n);
	return true;
}

/* What every interface answers alike: idle rate 0 (report only on
 * change), report protocol, and their settings taken and ignored. */
static bool idle_or_protocol_request(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c)
{
	static const uint8_t idle, report_protocol = 1;

	switch (c->bRequest) {
	case HID_REQ_GET_IDLE:
		ep0_in(g, c, &idle, 1);
		return true;
	case HID_REQ_GET_PROTOCOL:
		ep0_in(g, c, &report_protocol, 1);
		return true;
	case HID_REQ_SET_IDLE:
	case HID_REQ_SET_PROTOCOL:
		ep0_out(g, c, NULL);
		return true;
	}
	return false;
}

static bool class_request(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c)
{
	bool main_interface = (le16toh(c->wIndex) & 0xff) == g->main;

	switch (c->bRequest) {
	case HID_REQ_GET_REPORT:
		if (!main_interface)
			return false;
		return get_report(g, c);
	case HID_REQ_SET_REPORT:
		/* another interface's (a boot keyboard's LEDs): taken, not
		 * recorded; it reports nothing, so has no GET_REPORT */
		if (!main_interface) {
			ep0_out(g, c, NULL);
			return true;
		}
		return set_report(g, c);
	}
	return idle_or_protocol_request(g, c);
}

static void control(struct usb_gadget_dev *g, const struct usb_ctrlrequest *c)
{
	bool answered = false;

	switch (c->bRequestType & USB_TYPE_MASK) {
	case USB_TYPE_STANDARD:
		answered = standard_request(g, c);
		break;
	case USB_TYPE_CLASS:
		if ((c->bRequestType & USB_RECIP_MASK) == USB_RECIP_INTERFACE)
			answered = class_request(g, c);
		break;
	}
	if (!answered && !stopping(g))
		ioctl(g->fd, USB_RAW_IOCTL_EP0_STALL, 0);
}

static void *ep0_thread(void *arg)
{
	struct usb_gadget_dev *g = arg;
	union raw_event e;

	while (!stopping(g)) {
		e.ev.type = USB_RAW_EVENT_INVALID;
		e.ev.length = sizeof(struct usb_ctrlrequest);
		if (ioctl(g->fd, USB_RAW_IOCTL_EVENT_FETCH, &e) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* Newer kernels also report reset, suspend and the like:
		 * nothing to do for them. */
		if (e.ev.type == USB_RAW_EVENT_CONTROL &&
		    e.ev.length >= sizeof(struct usb_ctrlrequest))
			control(g, (const struct usb_ctrlrequest *)e.ev.data);
	}
	return NULL;
}

/* What arrives on the interrupt OUT endpoint: output reports. */
static void *out_thread(void *arg)
{
	struct usb_gadget_dev *g = arg;
	union ep_io b;
	int n;

	while (!stopping(g)) {
		b.io.ep = g->ep_out;
		b.io.flags = 0;
		b.io.length = IO_MAX;
		n = ioctl(g->fd, USB_RAW_IOCTL_EP_READ, &b);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* Only the data tells the report ID here. */
		record_report(g, UHID_DEV_OUTPUT, UHID_OUTPUT_REPORT,
			      g->numbered && n ? b.io.data[0] : 0, b.io.data, n);
	}
	return NULL;
}

/* Register on UDC at SPEED (raw-gadget binds it at once, or fails with
 * EBUSY). */
static int run_on(struct usb_gadget_dev *g, const char *udc, enum usb_device_speed speed)
{
	struct usb_raw_init init = { .speed = speed };
	int r = 0;

	g->fd = open("/dev/raw-gadget", O_RDWR | O_CLOEXEC);
	if (g->fd < 0)
		return -errno;
	snprintf((char *)init.driver_name, sizeof(init.driver_name), "%s", UDC_DRIVER);
	snprintf((char *)init.device_name, sizeof(init.device_name), "%s", udc);
	if (ioctl(g->fd, USB_RAW_IOCTL_INIT, &init) < 0 || ioctl(g->fd, USB_RAW_IOCTL_RUN, 0) < 0) {
		r = -errno;
		close(g->fd);
		g->fd = -1;
		return r;
	}
	snprintf(g->udc, sizeof(g->udc), "%s", udc);
	return 0;
}

/* The first dummy_hcd UDC no other gadget holds, at SPEED. */
static int bind_udc(struct usb_gadget_dev *g, enum usb_device_speed speed)
{
	DIR *dir = opendir(UDC_CLASS_DIR);
	struct dirent *de;
	int r = -ENODEV;

	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, UDC_DRIVER ".", strlen(UDC_DRIVER ".")))
			continue;
		r = run_on(g, de->d_name, speed);
		if (r != -EBUSY)
			break;
	}
	closedir(dir);
	return r;
}

int usb_gadget_dev_start(struct uhid_dev *dev, const struct uhid_dev_config *cfg,
			 const char *serial, struct usb_gadget_dev **out)
{
	struct usb_gadget_dev *g;
	uint8_t in_addr[MAX_INTERFACES], out_addr = 0;
	int r;

	if (cfg->rdesc_size > HID_MAX_DESCRIPTOR_SIZE || cfg->usb_n_before >= MAX_INTERFACES)
		return -EINVAL;
	for (size_t k = 0; k < cfg->usb_n_before; k++)
		if (cfg->usb_before[k].rdesc_size > HID_MAX_DESCRIPTOR_SIZE)
			return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->dev = dev;
	g->fd = -1;
	pthread_mutex_init(&g->in_lock, NULL);
	g->main = (unsigned int)cfg->usb_n_before;
	g->n_intf = g->main + 1;
	g->has_out = !cfg->usb_no_out_endpoint;
	for (unsigned int k = 0; k < g->main; k++) {
		memcpy(g->intf[k].rdesc, cfg->usb_before[k].rdesc, cfg->usb_before[k].rdesc_size);
		g->intf[k].rdesc_size = cfg->usb_before[k].rdesc_size;
	}
	memcpy(g->intf[g->main].rdesc, cfg->rdesc, cfg->rdesc_size);
	g->intf[g->main].rdesc_size = cfg->rdesc_size;
	g->numbered = rdesc_numbers_reports(cfg->rdesc, cfg->rdesc_size);
	install_stop_handler();

	r = bind_udc(g, cfg->usb_device && cfg->usb_device->full_speed ?
			USB_SPEED_FULL : USB_SPEED_HIGH);
	if (r == 0)
		r = pick_endpoints(g, in_addr, &out_addr);
	if (r < 0)
		goto fail;
	build_descriptors(g, cfg, serial, in_addr, out_addr);
	r = -pthread_create(&g->ep0_thread, NULL, ep0_thread, g);
	if (r < 0)
		goto fail;
	g->ep0_running = true;
	*out = g;
	return 0;
fail:
	usb_gadget_dev_stop(g);
	return r;
}

const char *usb_gadget_dev_udc(const struct usb_gadget_dev *g)
{
	return g->udc;
}

void usb_gadget_join_sender(pthread_t thread)
{
	install_stop_handler();
	stop_thread(thread);
}

void usb_gadget_dev_stop(struct usb_gadget_dev *g)
{
	__atomic_store_n(&g->stopping, true, __ATOMIC_RELEASE);
	if (g->ep0_running)
		stop_thread(g->ep0_thread);
	/* The ep0 thread started it and is gone: no race on out_running. */
	if (g->out_running)
		stop_thread(g->out_thread);
	if (g->fd >= 0)
		close(g->fd);	/* disconnects: the host removes the device */
	pthread_mutex_destroy(&g->in_lock);
	free(g);
}

int usb_gadget_dev_send_input(struct usb_gadget_dev *g, const void *data, size_t size)
{
	union ep_io b;
	int r = 0;

	if (size > IO_MAX)
		return -EINVAL;
	b.io.ep = g->intf[g->main].ep_in;
	b.io.flags = 0;
	b.io.length = size;
	memcpy(b.io.data, data, size);
	pthread_mutex_lock(&g->in_lock);
	if (!__atomic_load_n(&g->configured, __ATOMIC_ACQUIRE))
		r = -ENOTCONN;
	else if (ioctl(g->fd, USB_RAW_IOCTL_EP_WRITE, &b) < 0)
		r = -errno;
	pthread_mutex_unlock(&g->in_lock);
	return r;
}
