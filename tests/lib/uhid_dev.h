/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * HID test devices: a virtual HID device whose "hardware" side is this
 * process. Every GET_REPORT, SET_REPORT and OUTPUT that reaches the device is
 * recorded, so a test can check what really got through, not only the errno
 * the caller saw.
 *
 * One description, two backends (uhid_dev_config.backend):
 *
 *   TEST_DEV_UHID  a uhid device (the default);
 *   TEST_DEV_USB   a USB device on dummy_hcd served through raw-gadget
 *                  (usb_gadget.c), bound by usbhid as users' devices are:
 *                  GET_REPORT and SET_REPORT are class requests on ep0,
 *                  OUTPUT is what arrives on its interrupt OUT endpoint,
 *                  input reports leave on its interrupt IN endpoint.
 *   TEST_DEV_BT    a Bluetooth Classic device on the kernel's hidp, between
 *                  two emulated controllers (bt_hidp.c): GET_REPORT and
 *                  SET_REPORT are HIDP messages on its control channel,
 *                  OUTPUT and input reports DATA messages on its interrupt
 *                  channel.
 *
 * Every call below works on both. Records read the same on both: data
 * starts with the report ID byte, 0 for a report the device does not
 * number (on USB such a report travels without it; the record puts it
 * back). On USB, a device whose descriptor numbers its reports records
 * exactly the bytes that came over the wire, and the report ID of a
 * control transfer is wValue's low byte. What the USB backend cannot
 * mirror is said where it matters.
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/uhid.h>

#define UHID_DEV_MAX_RECORDS 512
#define UHID_DEV_REPORT_MAX UHID_DATA_MAX

enum uhid_dev_request {
	UHID_DEV_GET_REPORT,	/* UHID_GET_REPORT (hid_hw_raw_request GET) */
	UHID_DEV_SET_REPORT,	/* UHID_SET_REPORT (hid_hw_raw_request SET) */
	UHID_DEV_OUTPUT,	/* UHID_OUTPUT (hid_hw_output_report) */
};

struct uhid_dev_record {
	enum uhid_dev_request request;
	uint8_t rtype;		/* UHID_FEATURE_REPORT, UHID_OUTPUT_REPORT, ... */
	uint8_t rnum;		/* report ID (for OUTPUT: data[0]) */
	uint16_t size;
	uint8_t data[UHID_DEV_REPORT_MAX];
};

enum test_dev_backend {
	TEST_DEV_UHID,
	TEST_DEV_USB,
	TEST_DEV_BT,
};

/* "uhid", "usb", "bt": for result names. */
const char *test_dev_backend_name(enum test_dev_backend backend);

struct uhid_dev;

/* Called from the device's thread for each request that reaches it, once it
 * is recorded and before a GET_REPORT or SET_REPORT is answered: it may set
 * the answer (uhid_dev_set_get_reply) and send input reports
 * (uhid_dev_send_input), as a device replies to commands. It must not wait
 * for another request to reach the device. */
typedef void (*uhid_dev_request_fn)(struct uhid_dev *dev, const struct uhid_dev_record *req,
				    void *userdata);

/* USB: a HID interface of the device besides the one a test talks to (a
 * Logitech receiver's boot keyboard and mouse): its own report descriptor
 * and interrupt IN endpoint; what the host asks of it is answered (SET_IDLE,
 * its descriptors, a keyboard's LED report taken), never recorded. */
struct uhid_dev_usb_function {
	uint8_t subclass;	/* bInterfaceSubClass: 1, boot interface */
	uint8_t protocol;	/* bInterfaceProtocol: 1 keyboard, 2 mouse */
	const uint8_t *rdesc;
	size_t rdesc_size;
	uint16_t max_packet;	/* its endpoint's wMaxPacketSize; 0: as the
				 * test's interface's */
	uint8_t interval;	/* its bInterval; 0: as the test's interface's */
};

/* USB: the device as a real one describes itself, where it differs from
 * the test device's defaults (a high-speed device: ep0 and interrupt
 * endpoints of 64 and 1024 bytes, polled every 1 ms; bus powered, 100 mA;
 * no configuration string; a serial number). */
struct uhid_dev_usb_device {
	bool full_speed;		/* 12 Mbit/s; interrupt packets of 64 bytes at most */
	uint8_t ep0_max_packet;		/* bMaxPacketSize0; 0: 64 */
	uint16_t max_packet;		/* the test's interface's endpoints' wMaxPacketSize */
	uint8_t interval;		/* their bInterval (frames at full speed) */
	uint8_t attributes;		/* bmAttributes; 0: 0x80, bus powered */
	uint8_t max_power;		/* bMaxPower, in 2 mA; 0: 50 */
	const char *configuration;	/* iConfiguration's string; NULL: none */
	/* No iSerialNumber: the device is then found by the dummy_hcd port
	 * it is on (each test device takes a UDC of its own). */
	bool no_serial;
};

struct uhid_dev_config {
	enum test_dev_backend backend;	/* default TEST_DEV_UHID */
	const char *name;	/* default "hid-policy test device"; USB: the
				 * product string (no manufacturer string) */
	uint16_t bus;		/* BUS_USB, BUS_BLUETOOTH, ... (default BUS_USB);
				 * USB: always BUS_USB; BT: BUS_BLUETOOTH */
	uint32_t vendor, product, version; /* USB: idVendor, idProduct, bcdDevice */
	const char *uniq;	/* default ""; USB: the serial number, default a
				 * token unique to this device (none with
				 * usb_device->no_serial); BT: always the
				 * device side's address */
	const char *phys;	/* default: a token unique to this device; USB:
				 * usbhid's own (usb-dummy_hcd.N-1/input0) */
	const uint8_t *rdesc;	/* report descriptor (required) */
	size_t rdesc_size;
	/* When set, the device sends this input report over and over from
	 * the moment it is created (before hid-core has bound it) until it
	 * is destroyed, as a controller that streams its state does.
	 * uhid only (USB, BT: -EOPNOTSUPP). */
	const uint8_t *stream_report;
	size_t stream_size;
	/* See uhid_dev_request_fn; called from creation on, so a kernel
	 * driver's requests at probe time are answered too. */
	uhid_dev_request_fn on_request;
	void *userdata;
	/* Return once the device is in sysfs, without waiting for a driver
	 * and a hidraw node: for drivers that bind later, may fail to, or
	 * keep hidraw to themselves (hid-steam). */
	bool no_hidraw_wait;
	/* USB only (ignored elsewhere). The interfaces before the one
	 * described here, which takes the next interface number (N_BEFORE):
	 * NULL, none. */
	const struct uhid_dev_usb_function *usb_before;
	size_t usb_n_before;
	/* Its interface has an interrupt IN endpoint alone: output reports
	 * reach the device as SET_REPORT on ep0 (usbhid falls back to it,
	 * hidraw's write too), as on a Logitech receiver's HID++ interface. */
	bool usb_no_out_endpoint;
	const char *usb_manufacturer;	/* the manufacturer string; NULL: none */
	const struct uhid_dev_usb_device *usb_device;	/* NULL: the defaults */
};

struct usb_gadget_dev;
struct bt_hidp_dev;

struct uhid_get_reply {
	bool set;
	int err;		/* errno returned to the caller, 0 for data */
	uint16_t size;
	uint8_t data[UHID_DEV_REPORT_MAX];
};

struct uhid_dev {
	enum test_dev_backend backend;
	struct usb_gadget_dev *usb;	/* TEST_DEV_USB */
	struct bt_hidp_dev *bt;		/* TEST_DEV_BT */
	int fd;				/* /dev/uhid (TEST_DEV_UHID) */
	int stop_fd;			/* eventfd that ends the thread */
	int hid_id;			/* last field of the sysfs name */
	char sysname[256];		/* e.g. 0003:1234:5678.000A */
	char syspath[300];		/* /sys/bus/hid/devices/<sysname> */
	char hidraw[300];		/* /dev/hidrawN ("" until found) */
	char phys[64];			/* uhid: HID_PHYS; USB: the USB serial number, or
					 * with none the UDC's host port, usbhid's phys
					 * up to the interface ("usb-dummy_hcd.N-1/");
					 * BT: HID_UNIQ */

	pthread_t thread;
	bool thread_running;
	pthread_t stream_thread;	/* see uhid_dev_config.stream_report */
	bool stream_running;
	bool stream_stop;		/* atomic: ends the stream thread */
	unsigned long n_streamed;	/* atomic: input reports the kernel took */
	struct uhid_event stream_event;
	uhid_dev_request_fn on_request;	/* set before the thread starts */
	void *userdata;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* Everything below is protected by lock. */
	bool started, opened;
	unsigned long n_get, n_set, n_output;	/* totals, never wrap here */
	unsigned long n_records;		/* records[n % MAX] is newest-1 */
	struct uhid_dev_record *records;
	struct uhid_get_reply get_reply[256];	/* by report ID */
	int set_reply_err;			/* errno for SET_REPORT, 0 = ok */
};

/* Create the device and wait until hid-core bound it and its hidraw node
 * exists (see uhid_dev_config.no_hidraw_wait). Returns 0 or a negative
 * errno. USB: what the enumeration sent is not recorded; -EBUSY when
 * every dummy_hcd UDC is taken. */
int uhid_dev_create(struct uhid_dev *dev, const struct uhid_dev_config *cfg);
/* Destroy the device (UHID_DESTROY; USB: disconnect, and wait until the
 * HID device is gone) and free everything. Idempotent. */
void uhid_dev_destroy(struct uhid_dev *dev);

/* Inject an input report as the device would send it. USB: blocks until
 * the host took it, which it does while the device is open (hidraw or an
 * input handler). */
/* Wait until the device's hidraw node exists (after a create with
 * no_hidraw_wait); 0 or -ETIMEDOUT after TIMEOUT_MS times
 * test_slow_factor(). */
int uhid_dev_wait_hidraw(struct uhid_dev *dev, int timeout_ms);

/* A hidraw node and the HID device it belongs to. */
struct hidraw_node {
	char sysname[256];		/* e.g. 0003:28DE:1205.000B */
	int hid_id;			/* last field of the sysfs name */
	char path[300];			/* /dev/hidrawN */
};

/* Wait until the hidraw node users open for the device exists: its own,
 * or, where its driver connects hidraw to a HID device of its own with the
 * device's identity and phys instead (hid-steam's client), that device's.
 * Fills *NODE; 0 or -ETIMEDOUT after TIMEOUT_MS times test_slow_factor(). */
int uhid_dev_wait_user_hidraw(struct uhid_dev *dev, struct hidraw_node *node, int timeout_ms);

/* Inject an input report as the device would send it. */
int uhid_dev_send_input(struct uhid_dev *dev, const void *data, size_t size);

/* Join THREAD, a sender of DEV's input reports told to stop: on USB its
 * uhid_dev_send_input() waits for the host to read, which usbhid does only
 * while the device is open, so it is interrupted (the send fails) until
 * the thread has returned. */
void uhid_dev_join_sender(struct uhid_dev *dev, pthread_t thread);

/* Answer GET_REPORT for report ID rnum with data (data[0] is the ID), or
 * with errno err when err != 0. Unset IDs are answered with EIO. USB: an
 * error is a stall of ep0, which the caller sees as EPIPE. */
void uhid_dev_set_get_reply(struct uhid_dev *dev, uint8_t rnum,
			    const void *data, size_t size, int err);
/* Errno returned for every SET_REPORT (0: accept). USB: a stall, as
 * above, and the record has no data (the device did not take it). */
void uhid_dev_set_set_reply(struct uhid_dev *dev, int err);

/* Number of recorded requests of one kind, with report ID rnum (-1: any). */
unsigned long uhid_dev_count(struct uhid_dev *dev, enum uhid_dev_request req,
			     int rnum);
/* Wait until at least n requests of this kind (report ID rnum, -1: any)
 * have reached the device. Output reports reach uhid asynchronously, after
 * write() returned. Returns 0 or -ETIMEDOUT. */
int uhid_dev_wait_count(struct uhid_dev *dev, enum uhid_dev_request req,
			int rnum, unsigned long n, int timeout_ms);
/* Copy the most recent request of this kind into *out; false if none. */
bool uhid_dev_last(struct uhid_dev *dev, enum uhid_dev_request req,
		   struct uhid_dev_record *out);
/* Forget every record (counters included). */
void uhid_dev_clear(struct uhid_dev *dev);

/* Open the device's hidraw node (O_RDWR | flags). Returns fd or -errno. */
int uhid_dev_open_hidraw(struct uhid_dev *dev, int flags);
/* Byte 1 of the next input report read from hidraw node FD (the byte
 * after a numbered report's ID), -ETIMEDOUT when none comes in TIMEOUT_MS,
 * or -EIO when the read fails or is shorter than 2 bytes. */
int uhid_hidraw_read_input_byte1(int fd, int timeout_ms);

/* SET_FEATURE of 64-byte feature report ID (the other bytes 0) on the
 * hidraw node FD: 0, or the errno the caller saw. */
int uhid_hidraw_set_feature(int fd, uint8_t id);

/* Have hid-generic bind the HID devices created from now on, and no
 * vendor driver (hid-core's parameter ignore_special_drivers), or no
 * longer. Returns 0 or -errno. */
int test_dev_generic_driver_only(bool on);
/* Is that so now? (The test VM boots with it on: scripts/vm-init.) A test
 * that changes it puts back what it found. */
bool test_dev_generic_driver_only_now(void);
/* Have the setting found now put back after each case (test_main()), so
 * that a case failing before it puts it back fails no case after it. */
void test_dev_keep_driver_setting(void);

/* Unbind the device from DRIVER (e.g. "hid-generic"); bind it to DRIVER
 * and wait for its hidraw node. 0 or -errno. */
int uhid_dev_unbind(const struct uhid_dev *dev, const char *driver);
int uhid_dev_bind(struct uhid_dev *dev, const char *driver, int timeout_ms);

/* Wait until the device's sysfs directory is gone (after destroy), at
 * most TIMEOUT_MS times test_slow_factor(). */
int uhid_wait_gone(const char *syspath, int timeout_ms);

/* Read the whole of a small file (sysfs attribute) into buf. */
ssize_t read_file(const char *path, void *buf, size_t size);

/* A generic descriptor with a 64-byte input report (ID 1), an output
 * report (ID 2) and feature reports with IDs 3, 4 and 0xf0 (64 bytes each). */
extern const uint8_t uhid_test_rdesc[];
extern const size_t uhid_test_rdesc_size;

/* The same reports in a top-level application collection of Generic
 * Desktop usage USAGE (0x04 joystick, 0x05 game pad), their fields under
 * the vendor page: what a device class rule sees of a game controller. */
#define UHID_CLASS_RDESC(usage)                                                \
	{ 0x05, 0x01, 0x09, (usage), 0xa1, 0x01, 0x06, 0x00, 0xff,             \
	  0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x3f,                  \
	  0x85, 0x01, 0x09, 0x02, 0x81, 0x02, 0x85, 0x02, 0x09, 0x03, 0x91, 0x02, \
	  0x85, 0x03, 0x09, 0x04, 0xb1, 0x02, 0x85, 0x04, 0x09, 0x05, 0xb1, 0x02, \
	  0x85, 0xf0, 0x09, 0x06, 0xb1, 0x02, 0xc0 }
