// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Bluetooth backend of the test devices (uhid_dev.h): a Bluetooth
 * Classic HID device on the kernel's hidp, as users' paired controllers
 * are. BlueZ's btvirt emulates two controllers on /dev/vhci, both in this
 * kernel: the device side listens on the HID control (PSM 0x11) and
 * interrupt (PSM 0x13) channels, the host side connects to both and hands
 * the two sockets to hidp with HIDPCONNADD, as bluetoothd's input plugin
 * does (profiles/input/device.c). hidp then adds a HID device on bus 0005
 * whose HID_UNIQ is the device side's address.
 *
 * What hidp sends (net/bluetooth/hidp/core.c), one HIDP message per L2CAP
 * packet, a header byte of transaction type and parameter first:
 *   control:   GET_REPORT | type, then the report ID (answered with
 *              DATA | type and the report, or a HANDSHAKE error);
 *              SET_REPORT | type, then the report ID (0 when unnumbered)
 *              and the data (answered with a HANDSHAKE);
 *   interrupt: DATA | OUTPUT, then the report as hid_hw_output_report got
 *              it (its first byte the ID, 0 when unnumbered).
 * Records keep the bytes after the header, which already start with the
 * report ID as uhid's do. Input reports leave as DATA | INPUT on the
 * interrupt channel; hidp passes every byte to hid-core, whatever the
 * descriptor declares.
 *
 * One thread reads both channels of the device side and answers; btvirt
 * runs as a child process for as long as the device lives, and ending it
 * removes both controllers, so nothing outlives the device.
 */
#include "bt_hidp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The kernel's Bluetooth socket ABI (include/net/bluetooth/), which has no
 * UAPI header; libbluetooth-dev's copies would be the only other source. */
#define BTPROTO_L2CAP 0
#define BTPROTO_HCI 1
#define BTPROTO_HIDP 6
#define HCIDEVUP _IOW('H', 201, int)
#define HCIGETDEVLIST _IOR('H', 210, int)
#define HCIGETDEVINFO _IOR('H', 211, int)
#define HCISETSCAN _IOW('H', 221, int)
#define HIDPCONNADD _IOW('H', 200, int)
#define SCAN_PAGE 0x02
#define HCI_MAX_DEV 16

typedef struct {
	uint8_t b[6];
} __attribute__((packed)) bt_addr;

struct sockaddr_l2 {
	sa_family_t l2_family;
	uint16_t l2_psm;	/* little endian */
	bt_addr l2_bdaddr;
	uint16_t l2_cid;
	uint8_t l2_bdaddr_type;
};

struct hci_dev_req {
	uint16_t dev_id;
	uint32_t dev_opt;
};

struct hci_dev_list {
	uint16_t dev_num;
	struct hci_dev_req dev_req[HCI_MAX_DEV];
};

struct hci_dev_info {
	uint16_t dev_id;
	char name[8];
	bt_addr bdaddr;
	uint32_t flags;
	uint8_t type;
	uint8_t features[8];
	uint32_t pkt_type, link_policy, link_mode;
	uint16_t acl_mtu, acl_pkts, sco_mtu, sco_pkts;
	uint32_t stat[10];
};

struct hidp_connadd_req {
	int ctrl_sock;
	int intr_sock;
	uint16_t parser;
	uint16_t rd_size;
	uint8_t *rd_data;
	uint8_t country;
	uint8_t subclass;
	uint16_t vendor;
	uint16_t product;
	uint16_t version;
	uint32_t flags;
	uint32_t idle_to;
	char name[128];
};

/* HIDP (Bluetooth HID profile 1.1, 3.1): header byte = transaction type
 * (high nibble) | parameter (low nibble). */
#define PSM_HID_CONTROL 0x11
#define PSM_HID_INTERRUPT 0x13
#define HIDP_HANDSHAKE 0x00
#define HIDP_GET_REPORT 0x40
#define HIDP_SET_REPORT 0x50
#define HIDP_DATA 0xa0
#define HIDP_TYPE_MASK 0xf0
#define HIDP_RTYPE_MASK 0x03
#define HIDP_RTYPE_INPUT 0x01
#define HIDP_RTYPE_OUTPUT 0x02
#define HIDP_RTYPE_FEATURE 0x03
#define HSHK_SUCCESSFUL 0x00
#define HSHK_ERR_INVALID_REPORT_ID 0x02
#define HSHK_ERR_UNSUPPORTED_REQUEST 0x03
#define HSHK_ERR_INVALID_PARAMETER 0x04

#define CONTROLLERS_TIMEOUT_MS 20000	/* btvirt's start under TCG */
#define IO_MAX (UHID_DEV_REPORT_MAX + 1)	/* a report and its header */

struct bt_hidp_dev {
	struct uhid_dev *dev;
	pid_t btvirt;
	int hci;		/* BTPROTO_HCI socket for the ioctls */
	bt_addr host, device;
	int ctrl_listen, intr_listen;	/* device side */
	int ctrl, intr;			/* device side, connected */
	int stop_fd;
	pthread_t thread;
	bool thread_running;
	pthread_mutex_t send_lock;	/* the interrupt channel's writers */
};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int list_controllers(int hci, uint16_t *ids, size_t max)
{
	struct hci_dev_list list = { .dev_num = HCI_MAX_DEV };
	size_t n = 0;

	if (ioctl(hci, HCIGETDEVLIST, &list) < 0)
		return -errno;
	for (unsigned int i = 0; i < list.dev_num && i < HCI_MAX_DEV && n < max; i++)
		ids[n++] = list.dev_req[i].dev_id;
	return (int)n;
}

static bool listed(const uint16_t *ids, int n, uint16_t id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Start btvirt with two BR/EDR controllers and find them: the two ids
 * that were not there before. Lower id: host side. */
static int start_controllers(struct bt_hidp_dev *b, uint16_t *host_id, uint16_t *device_id)
{
	static char *const argv[] = { "btvirt", "-B", "-l2", NULL };
	uint16_t before[HCI_MAX_DEV], now[HCI_MAX_DEV], fresh[2];
	posix_spawn_file_actions_t actions;
	int n_before, n_now, n_fresh, r;
	long deadline;

	n_before = list_controllers(b->hci, before, HCI_MAX_DEV);
	if (n_before < 0)
		return n_before;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	r = -posix_spawnp(&b->btvirt, "btvirt", &actions, NULL, argv, NULL);
	posix_spawn_file_actions_destroy(&actions);
	if (r < 0) {
		b->btvirt = 0;
		return r;
	}
	deadline = now_ms() + CONTROLLERS_TIMEOUT_MS;
	for (;;) {
		n_now = list_controllers(b->hci, now, HCI_MAX_DEV);
		if (n_now < 0)
			return n_now;
		n_fresh = 0;
		for (int i = 0; i < n_now && n_fresh < 2; i++)
			if (!listed(before, n_before, now[i]))
				fresh[n_fresh++] = now[i];
		if (n_fresh == 2)
			break;
		if (waitpid(b->btvirt, NULL, WNOHANG) == b->btvirt) {
			b->btvirt = 0;
			return -ECHILD;
		}
		if (now_ms() > deadline)
			return -ETIMEDOUT;
		usleep(20000);
	}
	*host_id = fresh[0] < fresh[1] ? fresh[0] : fresh[1];
	*device_id = fresh[0] < fresh[1] ? fresh[1] : fresh[0];
	return 0;
}

/* Power the controller on and read its address. */
static int bring_up(struct bt_hidp_dev *b, uint16_t id, bt_addr *addr)
{
	struct hci_dev_info info = { .dev_id = id };

	if (ioctl(b->hci, HCIDEVUP, (unsigned long)id) < 0 && errno != EALREADY)
		return -errno;
	if (ioctl(b->hci, HCIGETDEVINFO, &info) < 0)
		return -errno;
	*addr = info.bdaddr;
	return 0;
}

static int l2cap_socket(const bt_addr *local)
{
	struct sockaddr_l2 a = { .l2_family = AF_BLUETOOTH, .l2_bdaddr = *local };
	int fd = socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_CLOEXEC, BTPROTO_L2CAP);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

static int l2cap_listen(const bt_addr *local, uint16_t psm)
{
	struct sockaddr_l2 a = {
		.l2_family = AF_BLUETOOTH, .l2_psm = htole16(psm), .l2_bdaddr = *local,
	};
	int fd = socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_CLOEXEC, BTPROTO_L2CAP);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 1) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

/* Connect the host side to the device side's PSM and accept it there:
 * the host's end in *HOST_FD, the device's in *DEVICE_FD. The kernel
 * completes the channel before accept(), so one thread does both. */
static int open_channel(struct bt_hidp_dev *b, int listen_fd, uint16_t psm,
			int *host_fd, int *device_fd)
{
	struct sockaddr_l2 to = {
		.l2_family = AF_BLUETOOTH, .l2_psm = htole16(psm), .l2_bdaddr = b->device,
	};
	int fd = l2cap_socket(&b->host), r;

	if (fd < 0)
		return fd;
	if (connect(fd, (struct sockaddr *)&to, sizeof(to)) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	r = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (r < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	*host_fd = fd;
	*device_fd = r;
	return 0;
}

/* hidp takes its own references to both sockets: ours close after. */
static int hand_to_hidp(struct bt_hidp_dev *b, const struct uhid_dev_config *cfg,
			int ctrl, int intr)
{
	struct hidp_connadd_req req = {
		.ctrl_sock = ctrl,
		.intr_sock = intr,
		.parser = 0x0100,
		.rd_size = (uint16_t)cfg->rdesc_size,
		.rd_data = (uint8_t *)cfg->rdesc,
		.vendor = (uint16_t)cfg->vendor,
		.product = (uint16_t)cfg->product,
		.version = (uint16_t)cfg->version,
	};
	int fd, r = 0;

	snprintf(req.name, sizeof(req.name), "%s", cfg->name);
	fd = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HIDP);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, HIDPCONNADD, &req) < 0)
		r = -errno;
	close(fd);
	return r;
}

static uint8_t uhid_rtype(uint8_t hidp_rtype)
{
	switch (hidp_rtype) {
	case HIDP_RTYPE_INPUT:
		return UHID_INPUT_REPORT;
	case HIDP_RTYPE_OUTPUT:
		return UHID_OUTPUT_REPORT;
	default:
		return UHID_FEATURE_REPORT;
	}
}

static void send_handshake(struct bt_hidp_dev *b, uint8_t result)
{
	uint8_t h = HIDP_HANDSHAKE | result;

	if (send(b->ctrl, &h, 1, MSG_NOSIGNAL) != 1)
		return;	/* the host is gone; the thread sees it next */
}

static void get_report(struct bt_hidp_dev *b, const uint8_t *msg, size_t len)
{
	uint8_t rtype = msg[0] & HIDP_RTYPE_MASK, rnum = len > 1 ? msg[1] : 0;
	uint8_t out[IO_MAX];
	struct uhid_get_reply reply;

	if (rtype == 0) {
		send_handshake(b, HSHK_ERR_INVALID_PARAMETER);
		return;
	}
	uhid_dev_record(b->dev, UHID_DEV_GET_REPORT, uhid_rtype(rtype), rnum, NULL, 0);
	uhid_dev_get_reply(b->dev, rnum, &reply);
	if (!reply.set || reply.err) {
		send_handshake(b, HSHK_ERR_INVALID_REPORT_ID);
		return;
	}
	out[0] = HIDP_DATA | rtype;
	memcpy(out + 1, reply.data, reply.size);
	if (send(b->ctrl, out, reply.size + 1, MSG_NOSIGNAL) < 0)
		return;
}

static void set_report(struct bt_hidp_dev *b, const uint8_t *msg, size_t len)
{
	uint8_t rtype = msg[0] & HIDP_RTYPE_MASK, rnum = len > 1 ? msg[1] : 0;

	if (rtype == 0) {
		send_handshake(b, HSHK_ERR_INVALID_PARAMETER);
		return;
	}
	/* A refusing device records the request without data, as the USB
	 * backend's stall does. */
	if (uhid_dev_set_reply(b->dev)) {
		uhid_dev_record(b->dev, UHID_DEV_SET_REPORT, uhid_rtype(rtype), rnum, NULL, 0);
		send_handshake(b, HSHK_ERR_INVALID_PARAMETER);
		return;
	}
	uhid_dev_record(b->dev, UHID_DEV_SET_REPORT, uhid_rtype(rtype), rnum, msg + 1, len - 1);
	send_handshake(b, HSHK_SUCCESSFUL);
}

static void control_message(struct bt_hidp_dev *b, const uint8_t *msg, size_t len)
{
	switch (msg[0] & HIDP_TYPE_MASK) {
	case HIDP_GET_REPORT:
		get_report(b, msg, len);
		break;
	case HIDP_SET_REPORT:
		set_report(b, msg, len);
		break;
	case HIDP_HANDSHAKE:
	case 0x10:	/* HID_CONTROL: suspend, unplug; nothing to answer */
		break;
	default:
		send_handshake(b, HSHK_ERR_UNSUPPORTED_REQUEST);
		break;
	}
}

static void interrupt_message(struct bt_hidp_dev *b, const uint8_t *msg, size_t len)
{
	if (msg[0] != (HIDP_DATA | HIDP_RTYPE_OUTPUT) || len < 2)
		return;
	uhid_dev_record(b->dev, UHID_DEV_OUTPUT, UHID_OUTPUT_REPORT, msg[1], msg + 1, len - 1);
}

static void *device_thread(void *arg)
{
	struct bt_hidp_dev *b = arg;
	uint8_t msg[IO_MAX];

	for (;;) {
		struct pollfd fds[3] = {
			{ .fd = b->ctrl, .events = POLLIN },
			{ .fd = b->intr, .events = POLLIN },
			{ .fd = b->stop_fd, .events = POLLIN },
		};
		ssize_t n;

		if (poll(fds, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[2].revents)
			break;
		for (int i = 0; i < 2; i++) {
			if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = recv(fds[i].fd, msg, sizeof(msg), MSG_DONTWAIT);
			if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
				return NULL;	/* the host disconnected */
			if (n <= 0)
				continue;
			if (i == 0)
				control_message(b, msg, (size_t)n);
			else
				interrupt_message(b, msg, (size_t)n);
		}
	}
	return NULL;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int connect_hidp(struct bt_hidp_dev *b, const struct uhid_dev_config *cfg)
{
	int host_ctrl = -1, host_intr = -1, r;

	b->ctrl_listen = l2cap_listen(&b->device, PSM_HID_CONTROL);
	if (b->ctrl_listen < 0)
		return b->ctrl_listen;
	b->intr_listen = l2cap_listen(&b->device, PSM_HID_INTERRUPT);
	if (b->intr_listen < 0)
		return b->intr_listen;
	r = open_channel(b, b->ctrl_listen, PSM_HID_CONTROL, &host_ctrl, &b->ctrl);
	if (r == 0)
		r = open_channel(b, b->intr_listen, PSM_HID_INTERRUPT, &host_intr, &b->intr);
	/* The thread answers hidp's requests from the moment it binds. */
	if (r == 0) {
		r = -pthread_create(&b->thread, NULL, device_thread, b);
		b->thread_running = r == 0;
	}
	if (r == 0)
		r = hand_to_hidp(b, cfg, host_ctrl, host_intr);
	close_fd(&host_ctrl);
	close_fd(&host_intr);
	return r;
}

int bt_hidp_dev_start(struct uhid_dev *dev, const struct uhid_dev_config *cfg,
		      char *uniq, size_t uniq_size, struct bt_hidp_dev **out)
{
	uint16_t host_id, device_id;
	struct bt_hidp_dev *b;
	int r;

	if (cfg->rdesc_size > UINT16_MAX)
		return -EINVAL;
	if (access("/dev/vhci", R_OK | W_OK) < 0)
		return -ENOENT;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->dev = dev;
	b->ctrl_listen = b->intr_listen = b->ctrl = b->intr = -1;
	pthread_mutex_init(&b->send_lock, NULL);
	b->stop_fd = eventfd(0, EFD_CLOEXEC);
	b->hci = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
	if (b->stop_fd < 0 || b->hci < 0) {
		r = -errno;
		goto fail;
	}
	r = start_controllers(b, &host_id, &device_id);
	if (r == 0)
		r = bring_up(b, host_id, &b->host);
	if (r == 0)
		r = bring_up(b, device_id, &b->device);
	/* The device side answers pages (connection requests). */
	if (r == 0 && ioctl(b->hci, HCISETSCAN, &(struct hci_dev_req){ device_id, SCAN_PAGE }) < 0)
		r = -errno;
	if (r == 0)
		r = connect_hidp(b, cfg);
	if (r < 0)
		goto fail;
	/* hidp's uniq is the remote address, printed as %pMR: most
	 * significant byte first. */
	snprintf(uniq, uniq_size, "%02x:%02x:%02x:%02x:%02x:%02x", b->device.b[5],
		 b->device.b[4], b->device.b[3], b->device.b[2], b->device.b[1], b->device.b[0]);
	*out = b;
	return 0;
fail:
	bt_hidp_dev_stop(b);
	return r;
}

void bt_hidp_dev_stop(struct bt_hidp_dev *b)
{
	if (b->thread_running) {
		uint64_t one = 1;

		if (write(b->stop_fd, &one, sizeof(one)) != sizeof(one))
			pthread_cancel(b->thread);
		pthread_join(b->thread, NULL);
	}
	/* Closing the device side disconnects both channels: hidp ends the
	 * session and removes the HID device. */
	close_fd(&b->ctrl);
	close_fd(&b->intr);
	close_fd(&b->ctrl_listen);
	close_fd(&b->intr_listen);
	if (b->btvirt > 0) {
		kill(b->btvirt, SIGTERM);
		waitpid(b->btvirt, NULL, 0);
	}
	close_fd(&b->hci);
	close_fd(&b->stop_fd);
	pthread_mutex_destroy(&b->send_lock);
	free(b);
}

int bt_hidp_dev_send_input(struct bt_hidp_dev *b, const void *data, size_t size)
{
	uint8_t msg[IO_MAX];
	ssize_t n;

	if (size + 1 > sizeof(msg))
		return -EINVAL;
	msg[0] = HIDP_DATA | HIDP_RTYPE_INPUT;
	memcpy(msg + 1, data, size);
	pthread_mutex_lock(&b->send_lock);
	n = send(b->intr, msg, size + 1, MSG_NOSIGNAL);
	pthread_mutex_unlock(&b->send_lock);
	if (n < 0)
		return -errno;
	return n == (ssize_t)(size + 1) ? 0 : -EIO;
}
