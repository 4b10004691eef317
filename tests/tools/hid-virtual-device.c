// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-virtual-device: create a uhid device and keep it until killed.
 *
 * Usage: hid-virtual-device [--bus usb|bluetooth] [--vid 0xVVVV]
 *                           [--pid 0xPPPP] [--name NAME]
 *        hid-virtual-device --replica dualsense|dualshock4|switch-pro|steam-deck|unifying
 *                           [--usb]
 *        hid-virtual-device --replica dualsense-bt
 * Prints "SYSNAME HIDRAW HIDRAW_DEVICE" once the device is ready: its HID
 * device, the hidraw node users open and the HID device that node is on
 * (SYSNAME, or where the driver gives the node to a device of its own, as
 * hid-steam does to its client, that device). Then it answers requests
 * (SET_REPORT accepted, GET_REPORT answered with zeros; a replica answers
 * as the real device does, tests/lib/replicas.h) and prints one line per
 * request that reaches the device, until SIGTERM or SIGINT.
 * --usb makes the replica a USB device on dummy_hcd (raw-gadget) that
 * usbhid binds, instead of a uhid device; there it sends its input
 * reports at rest while usbhid polls it, as the real one does.
 * dualsense-bt is a DualSense on Bluetooth, a uhid device on bus
 * Bluetooth (no --usb): once up, it sends its input reports unasked,
 * as a controller does over Bluetooth, the simple report until the host
 * reads a feature report, the full one (0x31, signed) from then on.
 * unifying is a Logitech Unifying receiver (tests/lib/logitech_receiver.h:
 * on USB, its three interfaces, HID++ on the third) with a mouse paired at
 * index 1 and connected (HID++ 2.0, logi_table_settings_mouse: name,
 * battery, adjustable DPI, and the DFU-family features), answering as the receiver and the mouse do; the
 * node printed is the receiver's HID++ interface's. User-space
 * HID libraries (SDL's hidapi) take a USB HID device without a USB device
 * above it in sysfs for no device at all. What reaches the device, one
 * line each (the first 16 bytes of what was sent):
 *   device received SET_REPORT feature report 0xf4, 64 bytes: f4 00 39 ...
 *   device received GET_REPORT feature report 0x05
 */
#include <getopt.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <linux/input.h>

#include "uhid_dev.h"
#include "harness.h"
#include "logitech_receiver.h"
#include "replicas.h"

/* The mouse paired to the unifying replica: an MX Master 3's wireless PID
 * (Solaar descriptors.py), at index 1. */
#define UNIFYING_MOUSE_WPID 0x4082
#define UNIFYING_MOUSE_INDEX 1

#define HIDRAW_WAIT_MS 10000
#define BYTES_SHOWN 16

static volatile sig_atomic_t stop;

/* The replica's input reports at rest, sent from their own thread. */
struct idle_sender {
	struct uhid_dev *dev;
	const struct replica_model *model;
	struct replica *rep;
	bool stop;			/* atomic */
	pthread_t thread;
	bool running;
};

/* On USB each send waits until usbhid polls the endpoint, which it does
 * while the device is open; until the device is configured it fails. */
static void *idle_sender_thread(void *arg)
{
	struct idle_sender *s = arg;
	const struct timespec pause = {
		.tv_nsec = s->model->idle_input_interval_ms * 1000000L,
	};
	uint8_t report[UHID_DEV_REPORT_MAX];

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		uhid_dev_send_input(s->dev, report, replica_next_input(s->rep, report));
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void idle_sender_stop(struct idle_sender *s)
{
	if (!s->running)
		return;
	__atomic_store_n(&s->stop, true, __ATOMIC_RELEASE);
	uhid_dev_join_sender(s->dev, s->thread);
	s->running = false;
}

static void on_signal(int sig)
{
	stop = 1;
}

static const char *request_name(enum uhid_dev_request r)
{
	switch (r) {
	case UHID_DEV_GET_REPORT:
		return "GET_REPORT";
	case UHID_DEV_SET_REPORT:
		return "SET_REPORT";
	case UHID_DEV_OUTPUT:
		return "OUTPUT";
	}
	return "?";
}

static const char *report_type_name(uint8_t rtype)
{
	switch (rtype) {
	case UHID_FEATURE_REPORT:
		return "feature";
	case UHID_OUTPUT_REPORT:
		return "output";
	case UHID_INPUT_REPORT:
		return "input";
	}
	return "?";
}

static void print_request(const struct uhid_dev_record *rec)
{
	printf("device received %s %s report 0x%02x", request_name(rec->request),
	       rec->request == UHID_DEV_OUTPUT ? "output" : report_type_name(rec->rtype),
	       rec->rnum);
	/* uhid tells a GET_REPORT's report, not the size asked for */
	if (rec->request != UHID_DEV_GET_REPORT) {
		printf(", %u bytes:", rec->size);
		for (unsigned int i = 0; i < rec->size && i < BYTES_SHOWN; i++)
			printf(" %02x", rec->data[i]);
		if (rec->size > BYTES_SHOWN)
			printf(" ...");
	}
	printf("\n");
}

/* The replica named NAME on DEV (BACKEND), the hidraw node users open
 * in *NODE; a receiver's in *RECEIVER. */
static int create_replica(const char *name, enum test_dev_backend backend,
			  const struct replica_model **model, struct replica **rep,
			  struct logi_receiver **receiver, struct uhid_dev *dev,
			  struct hidraw_node *node)
{
	static const struct {
		const char *name;
		const struct replica_model *model;
	} replicas[] = {
		{ "dualsense", &replica_dualsense },
		{ "dualsense-bt", &replica_dualsense_bt },
		{ "dualshock4", &replica_dualshock4 },
		{ "switch-pro", &replica_switch_pro },
		{ "steam-deck", &replica_steam_deck },
	};
	int r;

	*model = NULL;
	if (!strcmp(name, "unifying")) {
		*receiver = logi_receiver_new(LOGI_UNIFYING, backend);
		logi_receiver_pair(*receiver, UNIFYING_MOUSE_INDEX, &logi_table_settings_mouse,
				   UNIFYING_MOUSE_WPID, true);
		r = logi_receiver_create(*receiver, dev);
		return r < 0 ? r : uhid_dev_wait_user_hidraw(dev, node, HIDRAW_WAIT_MS);
	}
	for (size_t i = 0; i < ARRAY_SIZE(replicas) && !*model; i++)
		if (!strcmp(name, replicas[i].name))
			*model = replicas[i].model;
	if (!*model) {
		fprintf(stderr, "hid-virtual-device: no replica '%s' (dualsense, dualsense-bt, dualshock4, switch-pro, steam-deck, unifying)\n",
			name);
		return -EINVAL;
	}
	if ((*model)->bus == BUS_BLUETOOTH && backend != TEST_DEV_UHID) {
		fprintf(stderr, "hid-virtual-device: %s is a Bluetooth device: no --usb\n", name);
		return -EINVAL;
	}
	*rep = replica_new(*model, NULL);
	r = replica_create_on(*rep, dev, backend);
	if (r < 0)
		return r;
	r = uhid_dev_wait_user_hidraw(dev, node, HIDRAW_WAIT_MS);
	if (r < 0)
		uhid_dev_destroy(dev);
	return r;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "vid", required_argument, NULL, 'v' },
		{ "pid", required_argument, NULL, 'p' },
		{ "name", required_argument, NULL, 'n' },
		{ "replica", required_argument, NULL, 'r' },
		{ "usb", no_argument, NULL, 'u' },
		{}
	};
	struct uhid_dev_config cfg = {
		.name = "hid-policy virtual device",
		.bus = BUS_USB,
		.vendor = 0x1234,
		.product = 0x5678,
		.rdesc = uhid_test_rdesc,
		.rdesc_size = uhid_test_rdesc_size,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	uint8_t zeros[64] = {};
	unsigned long seen = 0;
	const char *replica_name = NULL;
	enum test_dev_backend backend = TEST_DEV_UHID;
	bool described = false;		/* --bus, --vid, --pid or --name */
	struct idle_sender idle = {};
	const struct replica_model *model = NULL;
	struct replica *rep = NULL;
	struct logi_receiver *receiver = NULL;
	struct hidraw_node node;
	struct uhid_dev dev;
	int c, r;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		described |= c != 'r' && c != 'u';
		switch (c) {
		case 'b':
			if (!strcmp(optarg, "usb"))
				cfg.bus = BUS_USB;
			else if (!strcmp(optarg, "bluetooth"))
				cfg.bus = BUS_BLUETOOTH;
			else {
				fprintf(stderr, "hid-virtual-device: unknown bus '%s'\n", optarg);
				return 2;
			}
			break;
		case 'v':
			cfg.vendor = strtoul(optarg, NULL, 0) & 0xffff;
			break;
		case 'p':
			cfg.product = strtoul(optarg, NULL, 0) & 0xffff;
			break;
		case 'n':
			cfg.name = optarg;
			break;
		case 'r':
			replica_name = optarg;
			break;
		case 'u':
			backend = TEST_DEV_USB;
			break;
		default:
			return 2;
		}
	}

	if (replica_name && described) {
		fprintf(stderr, "hid-virtual-device: --replica takes no other option but --usb\n");
		return 2;
	}
	if (!replica_name && backend == TEST_DEV_USB) {
		fprintf(stderr, "hid-virtual-device: --usb is for a --replica\n");
		return 2;
	}
	r = replica_name ? create_replica(replica_name, backend, &model, &rep, &receiver, &dev,
					  &node) :
			   uhid_dev_create(&dev, &cfg);
	if (r < 0) {
		fprintf(stderr, "hid-virtual-device: cannot create the device: %s\n",
			strerror(-r));
		replica_free(rep);
		logi_receiver_free(receiver);
		return 1;
	}
	for (int id = 0; !rep && !receiver && id < 256; id++) {
		zeros[0] = id;
		uhid_dev_set_get_reply(&dev, id, zeros, sizeof(zeros), 0);
	}
	/* On USB while usbhid polls; a Bluetooth device sends unasked. */
	if (model && (model->idle_input || model->next_input) &&
	    (backend == TEST_DEV_USB || model->bus == BUS_BLUETOOTH)) {
		idle.dev = &dev;
		idle.model = model;
		idle.rep = rep;
		r = -pthread_create(&idle.thread, NULL, idle_sender_thread, &idle);
		if (r < 0) {
			fprintf(stderr, "hid-virtual-device: %s\n", strerror(-r));
			uhid_dev_destroy(&dev);
			replica_free(rep);
			return 1;
		}
		idle.running = true;
	}
	if (!replica_name) {
		snprintf(node.sysname, sizeof(node.sysname), "%s", dev.sysname);
		snprintf(node.path, sizeof(node.path), "%s", dev.hidraw);
	}
	printf("%s %s %s\n", dev.sysname, node.path, node.sysname);
	fflush(stdout);

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop) {
		struct uhid_dev_record rec;

		pthread_mutex_lock(&dev.lock);
		while (!stop && dev.n_records == seen) {
			/* Timed, so that a signal ends the loop promptly. */
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 200 * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&dev.cond, &dev.lock, &ts);
		}
		if (dev.n_records > seen) {
			rec = dev.records[seen % UHID_DEV_MAX_RECORDS];
			seen++;
		} else {
			rec.size = 0xffff;
		}
		pthread_mutex_unlock(&dev.lock);
		if (rec.size != 0xffff)
			print_request(&rec);
		fflush(stdout);
	}
	idle_sender_stop(&idle);
	if (receiver)
		logi_receiver_free(receiver);	/* destroys DEV */
	else
		uhid_dev_destroy(&dev);
	replica_free(rep);
	return 0;
}
