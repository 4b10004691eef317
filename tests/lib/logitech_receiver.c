// SPDX-License-Identifier: GPL-2.0-or-later
/* A Logitech receiver and its HID++ 2.0 devices; see logitech_receiver.h. */
#include "logitech_receiver.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/input.h>

#include "harness.h"
#include "replicas.h"

#define SHORT		0x10	/* HID++ short report: 7 bytes */
#define LONG		0x11	/* HID++ long report: 20 bytes */
#define SHORT_LEN	7
#define LONG_LEN	20
#define DJ_SHORT	0x20	/* DJ report: 15 bytes */
#define DJ_SHORT_LEN	15
#define RECEIVER	0xff

/* HID++ 1.0 (Solaar hidpp10_constants): sub-IDs and registers */
#define SET_REGISTER		0x80
#define GET_REGISTER		0x81
#define GET_LONG_REGISTER	0x83
#define HIDPP10_ERROR		0x8f
#define CONNECTION_NOTIFICATION	0x41
#define REG_NOTIFICATIONS	0x00
#define REG_CONNECTION_STATE	0x02
#define FAKE_DEVICE_ARRIVAL	0x02
#define REG_PAIRING_INFO	0xb5
#define REG_DFU_MODE		0xf0	/* fwupd: HIDPP_REGISTER_DEVICE_FIRMWARE_UPDATE_MODE */
#define REG_FIRMWARE		0xf1	/* Solaar: Registers.FIRMWARE */
#define RECEIVER_INFO		0x03	/* 0xB5's part: serial, max devices */
#define MAX_DEVICES		6
#define ERR10_INVALID_VALUE	0x03
#define ERR10_INVALID_SUBID	0x01
#define ERR10_INVALID_ADDRESS	0x02
#define ERR10_UNKNOWN_DEVICE	0x08
#define ERR10_RESOURCE_ERROR	0x09
#define LINK_NOT_ESTABLISHED	0x40
#define KIND_MOUSE		0x02
#define PROTOCOL_UNIFYING	0x04	/* eQUAD step 4 DJ */
#define PROTOCOL_BOLT		0x10

/* DJ (hid-logitech-dj): commands to the receiver, notifications */
#define DJ_SWITCH_MODE		0x80
#define DJ_GET_PAIRED		0x81
#define DJ_PAIRED		0x41
#define DJ_CONNECTION_STATUS	0x42
#define DJ_RF_MOUSE		(1u << 2)

/* HID++ 2.0 (Solaar hidpp20_constants): the error report, its codes */
#define HIDPP20_ERROR		0xff
#define ERR20_INVALID_ARGUMENT	0x02
#define ERR20_INVALID_INDEX	0x06
#define ERR20_INVALID_FUNCTION	0x07
#define ERR20_BUSY		0x08
#define PROTOCOL_MAJOR		4
#define PROTOCOL_MINOR		2

#define QUEUE_MAX	512
#define DEFAULT_MIN_MS	2
#define DEFAULT_MAX_MS	8
#define DEVICE_NAME	"MX Replica"
#define DEFAULT_DPI	1000
#define SLOTS		7	/* [0]: the device at 0xFF (direct); 1-6 paired */

const struct logi_table logi_table_mouse = {
	.features = {
		HIDPP_F_ROOT, HIDPP_F_FEATURE_SET, 0x0003, HIDPP_F_DEVICE_NAME,
		HIDPP_F_BATTERY, HIDPP_F_ADJUSTABLE_DPI, 0x0020, 0x0021,
		0x1814, 0x1815, 0x1b04, 0x1e00, 0x2110, 0x2130, 0x2150, 0x1802,
		0x1803, 0x1805, 0x1806, 0x1811, 0x1830, 0x1890, 0x1891, 0x18a1,
		0x1e02, 0x1e22, 0x1801, 0x18b1, 0x2250,
		HIDPP_F_RDFU, HIDPP_F_DFU, HIDPP_F_DFU_CONTROL_SIGNED,
	},
	.n = 32,
};

const struct logi_table logi_table_mouse_updated = {
	.features = {
		HIDPP_F_ROOT, HIDPP_F_FEATURE_SET, 0x0003, HIDPP_F_DEVICE_NAME,
		HIDPP_F_BATTERY, HIDPP_F_RDFU, 0x0020, 0x0021,
		0x1814, 0x1815, 0x1b04, 0x1e00, 0x2110, 0x2130, 0x2150, 0x1802,
		0x1803, 0x1805, 0x1806, 0x1811, 0x1830, 0x1890, 0x1891, 0x18a1,
		0x1e02, 0x1e22, 0x1801, 0x18b1, 0x2250,
		HIDPP_F_ADJUSTABLE_DPI, HIDPP_F_DFU, HIDPP_F_DFU_CONTROL_SIGNED,
	},
	.n = 32,
};

const struct logi_table logi_table_settings_mouse = {
	.features = {
		HIDPP_F_ROOT, HIDPP_F_FEATURE_SET, 0x0003, HIDPP_F_DEVICE_NAME,
		HIDPP_F_BATTERY, HIDPP_F_ADJUSTABLE_DPI,
		HIDPP_F_DFU_CONTROL_SIGNED, HIDPP_F_DFU, HIDPP_F_RDFU,
	},
	.n = 9,
};

struct paired {
	bool paired, connected;
	struct logi_table table;
	uint16_t wpid;
	uint16_t dpi;
	unsigned int dpi_set[16];	/* by software ID */
	unsigned int questions[16];	/* IRoot, IFeatureSet; by software ID */
};

struct pending {
	long long due_us;
	uint8_t len;
	uint8_t data[LONG_LEN];
};

struct fault {
	unsigned int n;
	uint16_t spare;
};

struct logi_receiver {
	enum logi_receiver_kind kind;
	enum test_dev_backend backend;
	struct uhid_dev *dev;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool thread_running;
	/* Everything below: under lock. */
	bool stopping;
	bool created;
	unsigned int seed;
	struct pending queue[QUEUE_MAX];
	unsigned int n_queue;
	unsigned int min_ms, max_ms;
	struct paired slots[SLOTS];
	bool dj_mode;
	struct fault lose, late, busy;
	unsigned int late_ms;
	unsigned int stall_ms;
	unsigned int receiver_questions[16];
	unsigned int dfu_reached;
	uint8_t last_dfu[LONG_LEN];
	unsigned int arrivals;
	unsigned int dfu_mode_writes;	/* register 0xF0 writes taken */
	uint8_t firmware[8];	/* register 0xF1, parts 1-4: two bytes each */
};

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

uint8_t logi_table_index(const struct logi_table *t, uint16_t feature)
{
	for (uint8_t i = 0; i < t->n; i++)
		if (t->features[i] == feature)
			return i;
	return 0;
}

bool logi_feature_is_dfu_family(uint16_t feature)
{
	return feature == HIDPP_F_DFU_CONTROL || feature == HIDPP_F_DFU_CONTROL_SIGNED ||
	       feature == HIDPP_F_DFU_CONTROL_BOLT || feature == HIDPP_F_DFU ||
	       feature == HIDPP_F_RDFU;
}

/* ---- the answers' thread ---- */

/* Queue a report to leave DELAY_MS from now (locked). */
static void send_in(struct logi_receiver *rep, const uint8_t *data, size_t len,
		    unsigned int delay_ms)
{
	struct pending *p;

	if (rep->n_queue == QUEUE_MAX)
		return;		/* a radio drops what it cannot hold */
	p = &rep->queue[rep->n_queue++];
	p->due_us = now_us() + delay_ms * 1000LL;
	p->len = (uint8_t)len;
	memcpy(p->data, data, len);
	pthread_cond_broadcast(&rep->cond);
}

/* An answer's delay: a random time in the window (locked). */
static unsigned int answer_delay(struct logi_receiver *rep)
{
	unsigned int span = rep->max_ms - rep->min_ms + 1;

	return rep->min_ms + (unsigned int)rand_r(&rep->seed) % span;
}

/* Answer Q with DATA (locked), as the device does a few ms later. */
static void answer(struct logi_receiver *rep, const uint8_t *data, size_t len)
{
	send_in(rep, data, len, answer_delay(rep));
}

/* The report due first, removed from the queue, if it is due (locked). */
static bool take_due(struct logi_receiver *rep, struct pending *out, long long *wait_us)
{
	unsigned int first = 0;

	if (!rep->n_queue) {
		*wait_us = -1;
		return false;
	}
	for (unsigned int i = 1; i < rep->n_queue; i++)
		if (rep->queue[i].due_us < rep->queue[first].due_us)
			first = i;
	*wait_us = rep->queue[first].due_us - now_us();
	if (*wait_us > 0)
		return false;
	*out = rep->queue[first];
	memmove(&rep->queue[first], &rep->queue[first + 1],
		(rep->n_queue - first - 1) * sizeof(rep->queue[0]));
	rep->n_queue--;
	return true;
}

static void *answers_thread(void *arg)
{
	struct logi_receiver *rep = arg;
	struct pending p;
	long long wait_us;

	pthread_mutex_lock(&rep->lock);
	while (!rep->stopping) {
		if (take_due(rep, &p, &wait_us)) {
			pthread_mutex_unlock(&rep->lock);
			/* USB: blocks until the host takes it */
			uhid_dev_send_input(rep->dev, p.data, p.len);
			pthread_mutex_lock(&rep->lock);
			continue;
		}
		if (wait_us < 0) {
			pthread_cond_wait(&rep->cond, &rep->lock);
		} else {
			struct timespec until;

			clock_gettime(CLOCK_MONOTONIC, &until);
			until.tv_sec += wait_us / 1000000;
			until.tv_nsec += (wait_us % 1000000) * 1000;
			if (until.tv_nsec >= 1000000000L) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&rep->cond, &rep->lock, &until);
		}
	}
	pthread_mutex_unlock(&rep->lock);
	return NULL;
}

/* ---- the receiver, HID++ 1.0 and DJ ---- */

static struct paired *slot_of(struct logi_receiver *rep, uint8_t index)
{
	if (rep->kind == LOGI_DIRECT)
		return index == RECEIVER ? &rep->slots[0] : NULL;
	return index >= 1 && index <= 6 ? &rep->slots[index] : NULL;
}

static void hidpp10_error(struct logi_receiver *rep, const uint8_t *q, uint8_t code)
{
	const uint8_t e[SHORT_LEN] = { SHORT, q[1], HIDPP10_ERROR, q[2], q[3], code, 0 };

	answer(rep, e, sizeof(e));
}

/* The connection notification for the device at INDEX, DELAY_MS from now. */
static void notify_connection(struct logi_receiver *rep, uint8_t index, unsigned int delay_ms)
{
	const struct paired *p = &rep->slots[index];
	const uint8_t n[SHORT_LEN] = {
		SHORT, index, CONNECTION_NOTIFICATION,
		rep->kind == LOGI_BOLT ? PROTOCOL_BOLT : PROTOCOL_UNIFYING,
		(uint8_t)(KIND_MOUSE | (p->connected ? 0 : LINK_NOT_ESTABLISHED)),
		(uint8_t)(p->wpid & 0xff), (uint8_t)(p->wpid >> 8),
	};

	send_in(rep, n, sizeof(n), delay_ms);
}

/* DJ mode: the "paired" notification of INDEX (hid-logitech-dj
 * logi_dj_recv_queue_notification: index, 0x41, special function, wireless
 * PID lsb and msb, the RF reports it sends, le32). */
static void notify_dj_paired(struct logi_receiver *rep, uint8_t index, unsigned int delay_ms)
{
	const struct paired *p = &rep->slots[index];
	const uint8_t n[DJ_SHORT_LEN] = {
		DJ_SHORT, index, DJ_PAIRED, 0x00,
		(uint8_t)(p->wpid & 0xff), (uint8_t)(p->wpid >> 8), DJ_RF_MOUSE,
	};

	send_in(rep, n, sizeof(n), delay_ms);
}

static void notify_dj_status(struct logi_receiver *rep, uint8_t index, bool lost)
{
	const uint8_t n[DJ_SHORT_LEN] = { DJ_SHORT, index, DJ_CONNECTION_STATUS, lost ? 1 : 0 };

	send_in(rep, n, sizeof(n), 0);
}

/* Register 0xB5, long: what the receiver holds about a paired device
 * (Solaar's receiver.py reads it; hid-logitech-hidpp hidpp_unifying_init
 * takes serial and name from it). */
static void pairing_information(struct logi_receiver *rep, const uint8_t *q)
{
	uint8_t r[LONG_LEN] = { LONG, RECEIVER, GET_LONG_REGISTER, REG_PAIRING_INFO, q[4] };
	uint8_t index = (uint8_t)((q[4] & 0x0f) + 1);
	const struct paired *p = index <= 6 ? &rep->slots[index] : NULL;

	/* The receiver's own: its serial number and how many devices it
	 * pairs (Solaar receiver.py Receiver.initialize: serial in bytes 1-4
	 * of what follows the register, max_devices in byte 6). */
	if (q[4] == RECEIVER_INFO) {
		r[5] = 0x8e;
		r[6] = 0x3f;
		r[7] = 0x21;
		r[8] = 0x07;
		r[10] = MAX_DEVICES;
		answer(rep, r, sizeof(r));
		return;
	}
	if (!p || !p->paired) {
		hidpp10_error(rep, q, ERR10_INVALID_ADDRESS);
		return;
	}
	switch (q[4] & 0xf0) {
	case 0x20:	/* destination, report interval, wireless PID, kind */
		r[5] = index + 0x40;
		r[6] = 8;
		r[7] = (uint8_t)(p->wpid >> 8);
		r[8] = (uint8_t)(p->wpid & 0xff);
		r[11] = KIND_MOUSE;
		break;
	case 0x30:	/* extended: serial number */
		r[5] = 0x5e;
		r[6] = 0x12;
		r[7] = 0x34;
		r[8] = index;
		break;
	case 0x40:	/* name: length, characters */
		r[5] = (uint8_t)strlen(DEVICE_NAME);
		memcpy(r + 6, DEVICE_NAME, strlen(DEVICE_NAME));
		break;
	default:
		hidpp10_error(rep, q, ERR10_INVALID_ADDRESS);
		return;
	}
	answer(rep, r, sizeof(r));
}

static void receiver_question(struct logi_receiver *rep, const uint8_t *q)
{
	uint8_t r[SHORT_LEN] = { SHORT, RECEIVER, q[2], q[3] };
	unsigned int connected = 0, delay;

	if (q[2] < 0x80) {
		/* A HID++ 2.0 question: the receiver speaks 1.0 */
		rep->receiver_questions[q[3] & 0x0f]++;
		hidpp10_error(rep, q, ERR10_INVALID_SUBID);
		return;
	}
	for (int i = 1; i <= 6; i++)
		connected += rep->slots[i].connected;
	switch (q[2]) {
	case SET_REGISTER:
		if (q[3] == REG_DFU_MODE) {
			/* "ICP": the receiver resets into its bootloader and
			 * answers nothing (fwupd fu-logitech-hidpp-runtime-
			 * unifying.c, fu_logitech_hidpp_runtime_unifying_detach,
			 * sends it without waiting for an answer); the replica
			 * stays, and counts it */
			rep->dfu_mode_writes++;
			return;
		}
		if (q[3] != REG_NOTIFICATIONS && q[3] != REG_CONNECTION_STATE)
			break;
		delay = answer_delay(rep);
		send_in(rep, r, sizeof(r), delay);
		if (q[3] == REG_CONNECTION_STATE && q[4] == FAKE_DEVICE_ARRIVAL) {
			/* after the acknowledgement, one notification per
			 * paired device, in index order */
			rep->arrivals++;
			for (uint8_t i = 1; i <= 6; i++)
				if (rep->slots[i].paired)
					notify_connection(rep, i, delay + i);
		}
		return;
	case GET_REGISTER:
		if (q[3] == REG_NOTIFICATIONS) {
			r[5] = 0x09;	/* wireless, software present */
		} else if (q[3] == REG_CONNECTION_STATE) {
			r[5] = (uint8_t)connected;
		} else if (q[3] == REG_FIRMWARE && q[4] >= 1 && q[4] <= 4 && q[4] != 3) {
			/* part 1: firmware major, minor; 2: build; 4:
			 * bootloader (Solaar hidpp10.py get_firmware, fwupd
			 * fu_logitech_hidpp_runtime_unifying_setup_internal) */
			r[4] = q[4];
			r[5] = rep->firmware[2 * (q[4] - 1)];
			r[6] = rep->firmware[2 * (q[4] - 1) + 1];
		} else if (q[3] == REG_FIRMWARE && q[4] == 3) {
			/* the hardware version: INVALID_VALUE on 12.01
			 * firmware (fwupd skips the part for it) */
			hidpp10_error(rep, q, ERR10_INVALID_VALUE);
			return;
		} else {
			break;
		}
		answer(rep, r, sizeof(r));
		return;
	case GET_LONG_REGISTER:
		if (q[3] == REG_PAIRING_INFO) {
			pairing_information(rep, q);
			return;
		}
		break;
	default:
		hidpp10_error(rep, q, ERR10_INVALID_SUBID);
		return;
	}
	hidpp10_error(rep, q, ERR10_INVALID_ADDRESS);
}

static void dj_command(struct logi_receiver *rep, const uint8_t *q)
{
	if (rep->kind != LOGI_UNIFYING || q[1] != RECEIVER)
		return;
	if (q[2] == DJ_SWITCH_MODE) {
		rep->dj_mode = true;
	} else if (q[2] == DJ_GET_PAIRED) {
		unsigned int delay = answer_delay(rep);

		for (uint8_t i = 1; i <= 6; i++)
			if (rep->slots[i].paired)
				notify_dj_paired(rep, i, delay + i);
	}
}

/* ---- a paired device, HID++ 2.0 ---- */

static void hidpp20_error(struct logi_receiver *rep, const uint8_t *q, uint8_t code,
			  unsigned int delay_ms)
{
	const uint8_t e[LONG_LEN] = { LONG, q[1], HIDPP20_ERROR, q[2], q[3], code };

	send_in(rep, e, sizeof(e), delay_ms);
}

/* Does FAULT take a question with software ID SW? Counts it down. */
static bool fault_takes(struct fault *f, uint8_t sw)
{
	if (!f->n || (f->spare >> sw) & 1)
		return false;
	f->n--;
	return true;
}

/* IRoot and IFeatureSet: what a client asks to find a feature. */
static bool feature_question(const struct paired *p, struct logi_receiver *rep, const uint8_t *q,
			     uint8_t *r)
{
	uint16_t feature = p->table.features[q[2]];
	uint8_t function = q[3] >> 4;

	if (feature == HIDPP_F_ROOT && function == 0) {		/* getFeature */
		r[4] = logi_table_index(&p->table, (uint16_t)(q[4] << 8 | q[5]));
		return true;
	}
	if (feature == HIDPP_F_ROOT && function == 1) {		/* ping */
		r[4] = PROTOCOL_MAJOR;
		r[5] = PROTOCOL_MINOR;
		r[6] = q[6];
		return true;
	}
	if (feature == HIDPP_F_FEATURE_SET && function == 0) {	/* getCount */
		r[4] = (uint8_t)(p->table.n - 1);
		return true;
	}
	if (feature == HIDPP_F_FEATURE_SET && function == 1) {	/* getFeatureID */
		if (q[4] >= p->table.n) {
			hidpp20_error(rep, q, ERR20_INVALID_ARGUMENT, answer_delay(rep));
			return false;
		}
		r[4] = (uint8_t)(p->table.features[q[4]] >> 8);
		r[5] = (uint8_t)p->table.features[q[4]];
		return true;
	}
	hidpp20_error(rep, q, ERR20_INVALID_FUNCTION, answer_delay(rep));
	return false;
}

/* The features a settings client reads and writes. */
static bool settings_question(struct paired *p, struct logi_receiver *rep, const uint8_t *q,
			      uint8_t *r)
{
	uint16_t feature = p->table.features[q[2]];
	uint8_t function = q[3] >> 4;

	switch (feature) {
	case HIDPP_F_DEVICE_NAME:
		if (function == 0) {			/* getCount */
			r[4] = (uint8_t)strlen(DEVICE_NAME);
		} else if (function == 1) {		/* getDeviceName(offset) */
			static const char name[] = DEVICE_NAME;

			for (size_t i = q[4]; i < sizeof(name) - 1 && 4 + i - q[4] < LONG_LEN; i++)
				r[4 + i - q[4]] = (uint8_t)name[i];
		} else if (function == 2) {		/* getDeviceType: mouse */
			r[4] = 3;
		} else {
			break;
		}
		return true;
	case HIDPP_F_BATTERY:
		if (function == 0) {			/* level, next level, status */
			r[4] = 90;
			r[5] = 50;
		} else if (function == 1) {		/* levels, flags */
			r[4] = 4;
		} else {
			break;
		}
		return true;
	case HIDPP_F_ADJUSTABLE_DPI:
		if (function == 0) {			/* getSensorCount */
			r[4] = 1;
		} else if (function == 1) {		/* getSensorDpiList */
			r[4] = q[4];
			r[5] = 0x01;	/* 400 */
			r[6] = 0x90;
			r[7] = 0x03;	/* 1000 */
			r[8] = 0xe8;
			r[9] = 0x06;	/* 1600 */
			r[10] = 0x40;
		} else if (function == 2) {		/* getSensorDpi */
			r[4] = q[4];
			r[5] = (uint8_t)(p->dpi >> 8);
			r[6] = (uint8_t)p->dpi;
			r[7] = DEFAULT_DPI >> 8;
			r[8] = DEFAULT_DPI & 0xff;
		} else if (function == 3) {		/* setSensorDpi */
			p->dpi = (uint16_t)(q[5] << 8 | q[6]);
			p->dpi_set[q[3] & 0x0f]++;
			r[4] = q[4];
			r[5] = q[5];
			r[6] = q[6];
		} else {
			break;
		}
		return true;
	default:
		/* an ordinary feature: its functions answer, with zeros */
		return true;
	}
	hidpp20_error(rep, q, ERR20_INVALID_FUNCTION, answer_delay(rep));
	return false;
}

static void device_question(struct logi_receiver *rep, struct paired *p, const uint8_t *q,
			    size_t len)
{
	uint8_t r[LONG_LEN] = { LONG, q[1], q[2], q[3] };
	uint8_t sw = q[3] & 0x0f;
	uint16_t feature;
	unsigned int delay = answer_delay(rep);

	if (q[2] >= p->table.n) {
		hidpp20_error(rep, q, ERR20_INVALID_INDEX, delay);
		return;
	}
	feature = p->table.features[q[2]];
	if (logi_feature_is_dfu_family(feature)) {
		rep->dfu_reached++;
		memset(rep->last_dfu, 0, sizeof(rep->last_dfu));
		memcpy(rep->last_dfu, q, len < LONG_LEN ? len : LONG_LEN);
		answer(rep, r, sizeof(r));
		return;
	}
	if (feature == HIDPP_F_ROOT || feature == HIDPP_F_FEATURE_SET) {
		p->questions[sw]++;
		if (fault_takes(&rep->lose, sw))
			return;
		if (fault_takes(&rep->busy, sw)) {
			hidpp20_error(rep, q, ERR20_BUSY, delay);
			return;
		}
		if (fault_takes(&rep->late, sw))
			delay = rep->late_ms;
		if (feature_question(p, rep, q, r))
			send_in(rep, r, sizeof(r), delay);
		return;
	}
	if (settings_question(p, rep, q, r))
		send_in(rep, r, sizeof(r), delay);
}

static void hidpp_message(struct logi_receiver *rep, const uint8_t *q, size_t len)
{
	struct paired *p;

	if (q[1] == RECEIVER && rep->kind != LOGI_DIRECT) {
		receiver_question(rep, q);
		return;
	}
	p = slot_of(rep, q[1]);
	if (!p)
		return;
	if (rep->kind == LOGI_DIRECT) {
		if (p->connected)
			device_question(rep, p, q, len);
		return;
	}
	if (!p->paired)
		hidpp10_error(rep, q, ERR10_UNKNOWN_DEVICE);
	else if (!p->connected)
		hidpp10_error(rep, q, ERR10_RESOURCE_ERROR);
	else
		device_question(rep, p, q, len);
}

static void on_request(struct uhid_dev *dev, const struct uhid_dev_record *req, void *userdata)
{
	struct logi_receiver *rep = userdata;
	unsigned int stall;

	if (!(req->request == UHID_DEV_OUTPUT ||
	      (req->request == UHID_DEV_SET_REPORT && req->rtype == UHID_OUTPUT_REPORT)))
		return;
	pthread_mutex_lock(&rep->lock);
	stall = rep->stall_ms;
	pthread_mutex_unlock(&rep->lock);
	if (stall)
		usleep(stall * 1000);
	if (req->size < 4)
		return;
	pthread_mutex_lock(&rep->lock);
	if (req->data[0] == DJ_SHORT)
		dj_command(rep, req->data);
	else if ((req->data[0] == SHORT && req->size >= SHORT_LEN) ||
		 (req->data[0] == LONG && req->size >= LONG_LEN))
		hidpp_message(rep, req->data, req->size);
	pthread_mutex_unlock(&rep->lock);
}

/* ---- descriptors ---- */

#define BYTES 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08
#define VENDOR_COLLECTION(usage, id, count) \
	0x06, 0x00, 0xff, 0x09, (usage), 0xa1, 0x01, BYTES, 0x85, (id), 0x95, (count), \
	0x09, (usage), 0x81, 0x00, 0x09, (usage), 0x91, 0x00, 0xc0

/* The Bolt receiver's HID++ interface: short and long HID++ reports, each
 * in its vendor collection (0xff000001, 0xff000002); no DJ reports. */
static const uint8_t bolt_rdesc[] = {
	VENDOR_COLLECTION(0x01, SHORT, 6),
	VENDOR_COLLECTION(0x02, LONG, 19),
};

/* A Bluetooth LE mouse: its mouse report (0x02: 16 buttons, x, y, wheel),
 * then its HID++ collections. */
static const uint8_t ble_mouse_rdesc[] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x02, 0x09, 0x01, 0xa1, 0x00,
	0x05, 0x09, 0x19, 0x01, 0x29, 0x10, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x10,
	0x81, 0x02,
	0x05, 0x01, 0x16, 0x01, 0x80, 0x26, 0xff, 0x7f, 0x75, 0x10, 0x95, 0x02, 0x09, 0x30,
	0x09, 0x31, 0x81, 0x06,
	0x15, 0x81, 0x25, 0x7f, 0x75, 0x08, 0x95, 0x01, 0x09, 0x38, 0x81, 0x06,
	0xc0, 0xc0,
	VENDOR_COLLECTION(0x01, SHORT, 6),
	VENDOR_COLLECTION(0x02, LONG, 19),
};

/*
 * A Unifying receiver on USB, firmware RQR12.11 (a Nordic receiver,
 * C-U0007), as it describes itself: a full-speed device, ep0 of 8 bytes,
 * bus powered with remote wakeup, 98 mA; strings Logitech (1), USB
 * Receiver (2) and its firmware (configuration string, 4), no serial
 * number; three HID interfaces, a boot keyboard (0: endpoint 0x81, 8
 * bytes, every 8 ms), a boot mouse (1: 0x82, 8 bytes, every 2 ms) and
 * HID++ (2: 0x83, 32 bytes, every 2 ms), each with its interrupt IN
 * endpoint alone: programs' output reports reach HID++ as SET_REPORT on
 * ep0. Sources: lsusb -v of RQR12.07_B0029 (fwupd plugins/logitech-hidpp/
 * data/lsusb-U0007.txt), of RQR12.10_B0032 (a blog post, search index file
 * id 28602587960: "Negotiated speed: Full Speed (12Mbps)"), and of 12.11
 * (the report descriptors' document, replicas.c), which agree on all of
 * it; the configuration string is RQR12.10's with 12.11's version, the
 * firmware this replica answers with (its build, B0032, as 12.10's).
 * hid-logitech-dj drops interfaces 0 and 1 (logi_dj_probe: no HID++
 * collection on a recvr_type_dj receiver, -ENODEV), which then have no
 * driver and no hidraw node.
 */
static const struct uhid_dev_usb_device unifying_usb_device = {
	.full_speed = true,
	.ep0_max_packet = 8,
	.max_packet = 32,
	.interval = 2,
	.attributes = 0xa0,
	.max_power = 49,
	.configuration = "RQR12.11_B0032",
	.no_serial = true,
};

/* Interfaces 0 and 1 of RQR12.11, byte for byte from the usbhid-dump that
 * replicas.c's unifying_rdesc cites (59 and 148 bytes, as lsusb -v of
 * RQR12.07 and 12.10 declares them); the DeskHop capture there has the
 * same bytes. RQR24.05's (fwupd lsusb-U0008.txt) differ: key codes up to
 * 0xa4, consumer usages up to 0x28c. */
static const uint8_t unifying_keyboard_rdesc[] = {
	0x05, 0x01, 0x09, 0x06, 0xa1, 0x01,	/* Generic Desktop, Keyboard, Application */
	0x95, 0x08, 0x75, 0x01, 0x15, 0x00, 0x25, 0x01,
	0x05, 0x07, 0x19, 0xe0, 0x29, 0xe7,	/* modifiers */
	0x81, 0x02,
	0x81, 0x03,				/* reserved byte */
	0x95, 0x05, 0x05, 0x08, 0x19, 0x01, 0x29, 0x05,	/* LEDs */
	0x91, 0x02,
	0x95, 0x01, 0x75, 0x03, 0x91, 0x01,
	0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x26, 0xff, 0x00,	/* 6 keys */
	0x05, 0x07, 0x19, 0x00, 0x2a, 0xff, 0x00,
	0x81, 0x00,
	0xc0,
};
_Static_assert(sizeof(unifying_keyboard_rdesc) == 59, "interface 0 is 59 bytes");

static const uint8_t unifying_mouse_rdesc[] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01,	/* Generic Desktop, Mouse, Application */
	0x85, 0x02,				/* Report ID 2 */
	0x09, 0x01, 0xa1, 0x00,			/* Pointer, Physical */
	0x95, 0x10, 0x75, 0x01, 0x15, 0x00, 0x25, 0x01,
	0x05, 0x09, 0x19, 0x01, 0x29, 0x10,	/* 16 buttons */
	0x81, 0x02,
	0x95, 0x02, 0x75, 0x0c, 0x16, 0x01, 0xf8, 0x26, 0xff, 0x07,
	0x05, 0x01, 0x09, 0x30, 0x09, 0x31,	/* X, Y: 12 bits each */
	0x81, 0x06,
	0x95, 0x01, 0x75, 0x08, 0x15, 0x81, 0x25, 0x7f,
	0x09, 0x38,				/* Wheel */
	0x81, 0x06,
	0x95, 0x01, 0x05, 0x0c, 0x0a, 0x38, 0x02,	/* Consumer, AC Pan */
	0x81, 0x06,
	0xc0, 0xc0,
	0x05, 0x0c, 0x09, 0x01, 0xa1, 0x01,	/* Consumer Control, Application */
	0x85, 0x03,				/* Report ID 3 */
	0x95, 0x02, 0x75, 0x10, 0x15, 0x01, 0x26, 0xff, 0x02,
	0x19, 0x01, 0x2a, 0xff, 0x02,
	0x81, 0x00,
	0xc0,
	0x05, 0x01, 0x09, 0x80, 0xa1, 0x01,	/* System Control, Application */
	0x85, 0x04,				/* Report ID 4 */
	0x95, 0x01, 0x75, 0x02, 0x15, 0x01, 0x25, 0x03,
	0x09, 0x82, 0x09, 0x81, 0x09, 0x83,	/* sleep, power down, wake up */
	0x81, 0x00,
	0x75, 0x06, 0x81, 0x03,
	0xc0,
	0x06, 0xbc, 0xff, 0x09, 0x88, 0xa1, 0x01,	/* Vendor 0xffbc, 0x88, Application */
	0x85, 0x08,				/* Report ID 8 */
	0x95, 0x01, 0x75, 0x08, 0x15, 0x01, 0x26, 0xff, 0x00,
	0x19, 0x01, 0x29, 0xff,
	0x81, 0x00,
	0xc0,
};
_Static_assert(sizeof(unifying_mouse_rdesc) == 148, "interface 1 is 148 bytes");

static const struct uhid_dev_usb_function unifying_usb_before[] = {
	{ 1, 1, unifying_keyboard_rdesc, sizeof(unifying_keyboard_rdesc), 8, 8 },
	{ 1, 2, unifying_mouse_rdesc, sizeof(unifying_mouse_rdesc), 8, 2 },
};

/* ---- the replica ---- */

struct logi_receiver *logi_receiver_new(enum logi_receiver_kind kind,
					enum test_dev_backend backend)
{
	struct logi_receiver *rep = calloc(1, sizeof(*rep));
	pthread_condattr_t attr;

	CHECK(rep, "out of memory");
	rep->kind = kind;
	rep->backend = backend;
	rep->min_ms = DEFAULT_MIN_MS;
	rep->max_ms = DEFAULT_MAX_MS;
	rep->seed = (unsigned int)getpid();
	/* RQR12.11_B0032, bootloader 01.02_B0009: a Nordic Unifying
	 * receiver's (bcdDevice 0x1211) */
	memcpy(rep->firmware, (const uint8_t[]){ 0x12, 0x11, 0x00, 0x32, 0, 0, 0x02, 0x09 }, 8);
	pthread_mutex_init(&rep->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&rep->cond, &attr);
	pthread_condattr_destroy(&attr);
	return rep;
}

void logi_receiver_free(struct logi_receiver *rep)
{
	if (!rep)
		return;
	logi_receiver_destroy(rep);
	pthread_cond_destroy(&rep->cond);
	pthread_mutex_destroy(&rep->lock);
	free(rep);
}

void logi_receiver_pair(struct logi_receiver *rep, uint8_t index, const struct logi_table *table,
			uint16_t wpid, bool connected)
{
	struct paired *p;

	pthread_mutex_lock(&rep->lock);
	p = slot_of(rep, index);
	CHECK(p, "no device index %#x on this receiver", index);
	*p = (struct paired){
		.paired = true, .connected = connected, .table = *table, .wpid = wpid,
		.dpi = DEFAULT_DPI,
	};
	if (rep->created && rep->kind != LOGI_DIRECT) {
		if (rep->dj_mode)
			notify_dj_paired(rep, index, 0);
		notify_connection(rep, index, 1);
	}
	pthread_mutex_unlock(&rep->lock);
}

void logi_receiver_disconnect(struct logi_receiver *rep, uint8_t index)
{
	pthread_mutex_lock(&rep->lock);
	CHECK(slot_of(rep, index) && rep->kind != LOGI_DIRECT, "no device index %#x", index);
	rep->slots[index].connected = false;
	if (rep->dj_mode)
		notify_dj_status(rep, index, true);
	notify_connection(rep, index, 1);
	pthread_mutex_unlock(&rep->lock);
}

void logi_receiver_connect(struct logi_receiver *rep, uint8_t index,
			   const struct logi_table *table)
{
	pthread_mutex_lock(&rep->lock);
	CHECK(slot_of(rep, index) && rep->kind != LOGI_DIRECT, "no device index %#x", index);
	rep->slots[index].table = *table;
	rep->slots[index].connected = true;
	if (rep->dj_mode)
		notify_dj_status(rep, index, false);
	notify_connection(rep, index, 1);
	pthread_mutex_unlock(&rep->lock);
}

void logi_receiver_set_delay(struct logi_receiver *rep, unsigned int min_ms, unsigned int max_ms)
{
	pthread_mutex_lock(&rep->lock);
	rep->min_ms = min_ms;
	rep->max_ms = max_ms < min_ms ? min_ms : max_ms;
	pthread_mutex_unlock(&rep->lock);
}

void logi_receiver_lose(struct logi_receiver *rep, unsigned int n, uint16_t spare)
{
	pthread_mutex_lock(&rep->lock);
	rep->lose = (struct fault){ n, spare };
	pthread_mutex_unlock(&rep->lock);
}

void logi_receiver_delay_next(struct logi_receiver *rep, unsigned int n, unsigned int late_ms,
			      uint16_t spare)
{
	pthread_mutex_lock(&rep->lock);
	rep->late = (struct fault){ n, spare };
	rep->late_ms = late_ms;
	pthread_mutex_unlock(&rep->lock);
}

void logi_receiver_busy(struct logi_receiver *rep, unsigned int n, uint16_t spare)
{
	pthread_mutex_lock(&rep->lock);
	rep->busy = (struct fault){ n, spare };
	pthread_mutex_unlock(&rep->lock);
}

void logi_receiver_stall_writes(struct logi_receiver *rep, unsigned int stall_ms)
{
	pthread_mutex_lock(&rep->lock);
	rep->stall_ms = stall_ms;
	pthread_mutex_unlock(&rep->lock);
}

int logi_receiver_create(struct logi_receiver *rep, struct uhid_dev *dev)
{
	struct uhid_dev_config cfg = {
		.backend = rep->backend,
		.name = "Logitech USB Receiver",
		.vendor = 0x046d,
		.on_request = on_request,
		.userdata = rep,
	};
	int r;

	switch (rep->kind) {
	case LOGI_UNIFYING:
		cfg.product = 0xc52b;
		cfg.rdesc = replica_unifying.rdesc;
		cfg.rdesc_size = replica_unifying.rdesc_size;
		/* the receiver's release: firmware 12.11, on a Nordic chip
		 * (fwupd fu_logitech_hidpp_runtime_probe: 0x12xx) */
		cfg.version = 0x1211;
		if (rep->backend == TEST_DEV_USB) {
			cfg.name = "USB Receiver";
			cfg.usb_manufacturer = "Logitech";
			cfg.usb_before = unifying_usb_before;
			cfg.usb_n_before = ARRAY_SIZE(unifying_usb_before);
			cfg.usb_no_out_endpoint = true;
			cfg.usb_device = &unifying_usb_device;
		}
		break;
	case LOGI_BOLT:
		cfg.product = 0xc548;
		cfg.rdesc = bolt_rdesc;
		cfg.rdesc_size = sizeof(bolt_rdesc);
		break;
	case LOGI_DIRECT:
		/* MX Master 3 over Bluetooth LE (hid-logitech-hidpp's table) */
		cfg.name = "MX Master 3";
		cfg.bus = BUS_BLUETOOTH;
		cfg.product = 0xb023;
		cfg.rdesc = ble_mouse_rdesc;
		cfg.rdesc_size = sizeof(ble_mouse_rdesc);
		break;
	}
	rep->dev = dev;
	rep->stopping = false;
	r = -pthread_create(&rep->thread, NULL, answers_thread, rep);
	if (r < 0)
		return r;
	rep->thread_running = true;
	pthread_mutex_lock(&rep->lock);
	rep->created = true;
	pthread_mutex_unlock(&rep->lock);
	r = uhid_dev_create(dev, &cfg);
	if (r < 0)
		logi_receiver_destroy(rep);
	return r;
}

void logi_receiver_destroy(struct logi_receiver *rep)
{
	if (!rep->thread_running)
		return;
	pthread_mutex_lock(&rep->lock);
	rep->stopping = true;
	rep->stall_ms = 0;
	pthread_cond_broadcast(&rep->cond);
	pthread_mutex_unlock(&rep->lock);
	/* An answer may wait for a host that stopped reading once every node
	 * closed (USB): the send is interrupted, not waited for. */
	uhid_dev_join_sender(rep->dev, rep->thread);
	rep->thread_running = false;
	uhid_dev_destroy(rep->dev);
	pthread_mutex_lock(&rep->lock);
	rep->created = false;
	rep->dj_mode = false;
	rep->n_queue = 0;
	pthread_mutex_unlock(&rep->lock);
}

unsigned int logi_receiver_dfu_reached(struct logi_receiver *rep)
{
	unsigned int n;

	pthread_mutex_lock(&rep->lock);
	n = rep->dfu_reached;
	pthread_mutex_unlock(&rep->lock);
	return n;
}

bool logi_receiver_last_dfu(struct logi_receiver *rep, uint8_t *out)
{
	bool any;

	pthread_mutex_lock(&rep->lock);
	any = rep->dfu_reached > 0;
	memcpy(out, rep->last_dfu, LONG_LEN);
	pthread_mutex_unlock(&rep->lock);
	return any;
}

unsigned int logi_receiver_dpi_set(struct logi_receiver *rep, uint8_t index, uint8_t sw)
{
	struct paired *p;
	unsigned int n = 0;

	pthread_mutex_lock(&rep->lock);
	p = slot_of(rep, index);
	if (p)
		n = p->dpi_set[sw & 0x0f];
	pthread_mutex_unlock(&rep->lock);
	return n;
}

unsigned int logi_receiver_questions(struct logi_receiver *rep, uint8_t index, int sw)
{
	const unsigned int *counts;
	struct paired *p;
	unsigned int n = 0;

	pthread_mutex_lock(&rep->lock);
	p = rep->kind == LOGI_DIRECT || index != RECEIVER ? slot_of(rep, index) : NULL;
	counts = p ? p->questions : index == RECEIVER ? rep->receiver_questions : NULL;
	for (int s = 0; counts && s < 16; s++)
		if (sw < 0 || s == sw)
			n += counts[s];
	pthread_mutex_unlock(&rep->lock);
	return n;
}

unsigned int logi_receiver_dfu_mode_writes(struct logi_receiver *rep)
{
	unsigned int n;

	pthread_mutex_lock(&rep->lock);
	n = rep->dfu_mode_writes;
	pthread_mutex_unlock(&rep->lock);
	return n;
}

unsigned int logi_receiver_arrival_requests(struct logi_receiver *rep)
{
	unsigned int n;

	pthread_mutex_lock(&rep->lock);
	n = rep->arrivals;
	pthread_mutex_unlock(&rep->lock);
	return n;
}

/* Is SYSNAME (under /sys/bus/hid/devices) the device with phys WANT? */
static bool has_phys(const char *sysname, const char *want)
{
	char path[PATH_MAX], uevent[2048];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/hid/devices/%s/uevent", sysname);
	n = read_file(path, uevent, sizeof(uevent) - 1);
	if (n <= 0)
		return false;
	uevent[n] = '\0';
	return strstr(uevent, want) != NULL;
}

static bool find_child(const struct uhid_dev *receiver, uint8_t index, char *hidraw, size_t size,
		       char *sysname, size_t sysname_size)
{
	char want[128], path[PATH_MAX];
	struct dirent *de, *h;
	bool found = false;
	DIR *dir, *raw;

	/* uhid: HID_PHYS is the receiver's phys; USB: usbhid's, which the
	 * receiver's uevent names */
	if (receiver->backend == TEST_DEV_UHID) {
		snprintf(want, sizeof(want), "HID_PHYS=%s:%u\n", receiver->phys, index);
	} else {
		char uevent[2048], *phys, *end;
		ssize_t n;

		snprintf(path, sizeof(path), "%s/uevent", receiver->syspath);
		n = read_file(path, uevent, sizeof(uevent) - 1);
		if (n <= 0)
			return false;
		uevent[n] = '\0';
		phys = strstr(uevent, "HID_PHYS=");
		if (!phys)
			return false;
		end = strchr(phys, '\n');
		if (end)
			*end = '\0';
		snprintf(want, sizeof(want), "%s:%u\n", phys, index);
	}
	dir = opendir("/sys/bus/hid/devices");
	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		if (de->d_name[0] == '.' || !has_phys(de->d_name, want))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/hid/devices/%s/hidraw", de->d_name);
		raw = opendir(path);
		if (!raw)
			continue;
		while ((h = readdir(raw)))
			if (!strncmp(h->d_name, "hidraw", 6)) {
				snprintf(hidraw, size, "/dev/%s", h->d_name);
				if (sysname)
					snprintf(sysname, sysname_size, "%s", de->d_name);
				found = access(hidraw, F_OK) == 0;
				break;
			}
		closedir(raw);
	}
	closedir(dir);
	return found;
}

int logi_receiver_child_hidraw(const struct uhid_dev *receiver, uint8_t index, char *hidraw, size_t size,
		       char *sysname, size_t sysname_size, int timeout_ms)
{
	for (int waited = 0; waited <= timeout_ms; waited += 20) {
		if (find_child(receiver, index, hidraw, size, sysname, sysname_size))
			return 0;
		usleep(20000);
	}
	return -ETIMEDOUT;
}
