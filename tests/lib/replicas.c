// SPDX-License-Identifier: GPL-2.0-or-later
/* Replicas of real devices for their vendor drivers; see replicas.h. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/input.h>

#include "harness.h"
#include "replicas.h"

#define MAX_PROBE 16
#define PROBE_WAIT_MS 5000

struct replica {
	const struct replica_model *model;
	const struct probe_request *probe;
	unsigned int n_probe;
	atomic_uint seen[MAX_PROBE];
	uint8_t timer;			/* the Switch's report counter */
	uint8_t *flash;			/* the Switch's SPI flash */
	unsigned int delay_ms;		/* before each GET_REPORT answer */
	atomic_uint answered;		/* GET_REPORTs answered */
	/* The DualSense on Bluetooth: sends its full report 0x31 (set from
	 * the device's thread, read from the sender's), its reports' counter
	 * (the sender's alone), and when it connected (its sensor clock). */
	atomic_bool full_reports;
	uint8_t input_seq;
	struct timespec connected;
};

/* Little-endian 16-bit values into a report. */
static void put_le16(uint8_t *p, int v)
{
	p[0] = (uint8_t)(v & 0xff);
	p[1] = (uint8_t)((v >> 8) & 0xff);
}

static void reply_get(struct uhid_dev *dev, const uint8_t *data, size_t size)
{
	uhid_dev_set_get_reply(dev, data[0], data, size, 0);
}

/* ---- Sony: feature reports read with GET_REPORT, USB (no CRC) ---- */

/* The controllers' MAC addresses, in the byte order they send them: each
 * its own, as two controllers have. hid-playstation takes one device per
 * address, and refuses a second controller with the same one
 * (ps_devices_list_add: "Duplicate device found"), hid-sony likewise
 * (sony_check_add_dev_list). */
static const uint8_t dualsense_mac[6] = { 0x56, 0x34, 0x12, 0xef, 0xcd, 0xab };
static const uint8_t dualshock4_mac[6] = { 0x57, 0x34, 0x12, 0xef, 0xcd, 0xab };

/*
 * Gyroscope and accelerometer calibration as the USB reports carry it
 * (hid-playstation dualsense_get_calibration_data and
 * dualshock4_get_calibration_data, hid-sony dualshock4_get_calibration_data):
 * from byte 1, le16 each: pitch, yaw, roll bias; pitch +/-, yaw +/-,
 * roll +/-; gyro speed +/-; accelerometer x +/-, y +/-, z +/-. Values a real
 * controller reports, so no divisor is zero and the drivers do not warn.
 */
static void sony_calibration(uint8_t *r)
{
	static const int16_t values[] = {
		0, 0, 0,			/* gyro bias */
		8800, -8800, 8800, -8800, 8800, -8800,	/* gyro +/- per axis */
		540, 540,			/* gyro speed +/- */
		8200, -8200, 8200, -8200, 8200, -8200,	/* accelerometer +/- */
	};

	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		put_le16(r + 1 + 2 * i, values[i]);
}

static void dualsense_answer(struct replica *rep, struct uhid_dev *dev,
			     const struct uhid_dev_record *req)
{
	uint8_t r[64] = { req->rnum };

	if (req->request != UHID_DEV_GET_REPORT || req->rtype != UHID_FEATURE_REPORT)
		return;
	switch (req->rnum) {
	case 0x05:	/* DS_FEATURE_REPORT_CALIBRATION, 41 bytes */
		sony_calibration(r);
		reply_get(dev, r, 41);
		break;
	case 0x09:	/* DS_FEATURE_REPORT_PAIRING_INFO, 20 bytes, MAC from byte 1 */
		memcpy(r + 1, dualsense_mac, sizeof(dualsense_mac));
		reply_get(dev, r, 20);
		break;
	case 0x20:	/* DS_FEATURE_REPORT_FIRMWARE_INFO, 64 bytes: hardware
			 * version le32 at 24, firmware le32 at 28, update
			 * version le16 at 44 */
		put_le16(r + 24, 0x0617);
		put_le16(r + 28, 0x0110);
		r[30] = 0x01;
		put_le16(r + 44, 0x0224);
		reply_get(dev, r, 64);
		break;
	}
}

/* ---- Sony DualSense on Bluetooth ---- */

/* Its MAC address, in the order of sony_mac: another controller than the
 * USB replica's, as hid-playstation refuses a second device with the same
 * address (ps_devices_list_add) and SDL prefers a controller's USB
 * connection to its Bluetooth one of the same serial number
 * (SDL_hidapi_ps5.c, HIDAPI_DriverPS5_InitDevice). */
static const uint8_t dualsense_bt_mac[6] = { 0x9a, 0x78, 0x56, 0xef, 0xcd, 0xab };

/* The HIDP header byte of each kind of report, which the CRC covers first
 * (hid-playstation PS_INPUT_CRC32_SEED, PS_OUTPUT_, PS_FEATURE_). */
#define PS_CRC_INPUT 0xa1
#define PS_CRC_FEATURE 0xa3

#define DS_BT_INPUT_SIZE 78		/* report 0x31, its CRC included */
#define DS_BT_SIMPLE_SIZE 10		/* report 0x01 */
#define DS_BT_CALIBRATION_SIZE 41	/* the same sizes as over USB, the */
#define DS_BT_PAIRING_SIZE 20		/* last 4 bytes the CRC */
#define DS_BT_FIRMWARE_SIZE 64
/* 0x31's sensor clock counts in thirds of a microsecond (hid-playstation
 * dualsense_parse_report) */
#define DS_CLOCK_PER_US 3

static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (int)(v & 0xffff));
	put_le16(p + 2, (int)(v >> 16));
}

/* CRC-32 (IEEE, reflected: zlib's crc32) of SEED, then DATA, as the
 * kernel computes it (ps_check_crc32: crc32_le from ~0 over the seed and
 * the data, inverted) and SDL (SDL_hidapi_ps5.c, VerifyCRC). */
static uint32_t ps_crc32(uint8_t seed, const uint8_t *data, size_t len)
{
	uint32_t crc = 0xffffffff;

	for (size_t i = 0; i <= len; i++) {
		crc ^= i ? data[i - 1] : seed;
		for (int bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* A report of SIZE bytes signed: the CRC of the others in its last 4. */
static void ps_sign(uint8_t seed, uint8_t *r, size_t size)
{
	put_le32(r + size - 4, ps_crc32(seed, r, size - 4));
}

/*
 * The calibration a real DualSense gives (feature report 0x05, as recorded
 * by hid-tools, hidtools/device/sony_gamepad.py, PS5Controller.get_report):
 * le16 from byte 1, in dualsense_get_calibration_data's order, gyroscope
 * bias -1, -14, 4, its ranges +8861/-8866, +8850/-8878, +8890/-8879, speed
 * 540 both ways, accelerometer ranges +8187/-8187, +8067/-8295,
 * +8199/-8196; then 05 00, which neither driver reads.
 */
static const uint8_t dualsense_bt_calibration[] = {
	0x05, 0xff, 0xff, 0xf2, 0xff, 0x04, 0x00, 0x9d, 0x22, 0x5e, 0xdd, 0x92,
	0x22, 0x52, 0xdd, 0xba, 0x22, 0x51, 0xdd, 0x1c, 0x02, 0x1c, 0x02, 0xfb,
	0x1f, 0x05, 0xe0, 0x83, 0x1f, 0x99, 0xdf, 0x07, 0x20, 0xfc, 0xdf, 0x05,
	0x00,
};

/*
 * A real DualSense's firmware information over Bluetooth (feature report
 * 0x20, hid-tools as above), but for its CRC, which ps_sign gives again
 * (the recorded one, 98 d8 b3 b7, is what it gives): the build date "Aug
 * 18 2020" and time "06:20:29", hardware version 0x00000313 (le32 at 24),
 * firmware version 0x0100001e (le32 at 28), update version 0x0204 (le16
 * at 44: older than 2.21, so hid-playstation drives the motors the first
 * way, dualsense_create, and SDL emulates rumble the old way,
 * HIDAPI_DriverPS5_UpdateEffects).
 */
static const uint8_t dualsense_bt_firmware[DS_BT_FIRMWARE_SIZE - 4] = {
	0x20, 0x41, 0x75, 0x67, 0x20, 0x31, 0x38, 0x20, 0x32, 0x30, 0x32, 0x30,
	0x30, 0x36, 0x3a, 0x32, 0x30, 0x3a, 0x32, 0x39, 0x03, 0x00, 0x04, 0x00,
	0x13, 0x03, 0x00, 0x00, 0x1e, 0x00, 0x00, 0x01, 0x41, 0x0a, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x02, 0x00, 0x00,
	0x2a, 0x00, 0x01, 0x00, 0x06, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, 0x00,
};

/*
 * Feature reports, each signed with its CRC (hid-playstation ps_get_report
 * checks it over Bluetooth and fails the probe on a wrong one). Reading
 * one switches the controller from its simple report 0x01 to the full
 * report 0x31 (SDL_hidapi_ps5.c, HIDAPI_DriverPS5_InitDevice: the serial
 * number and firmware reads "will also enable enhanced reports over
 * Bluetooth"; hid-playstation reads all three before it takes reports).
 * The pairing information's bytes after the MAC address are not known
 * from a recording: zeros. What it is not asked, it does not answer.
 */
static void dualsense_bt_answer(struct replica *rep, struct uhid_dev *dev,
				const struct uhid_dev_record *req)
{
	uint8_t r[DS_BT_FIRMWARE_SIZE] = { req->rnum };
	size_t size;

	if (req->request != UHID_DEV_GET_REPORT || req->rtype != UHID_FEATURE_REPORT)
		return;
	switch (req->rnum) {
	case 0x05:	/* DS_FEATURE_REPORT_CALIBRATION */
		memcpy(r, dualsense_bt_calibration, sizeof(dualsense_bt_calibration));
		size = DS_BT_CALIBRATION_SIZE;
		break;
	case 0x09:	/* DS_FEATURE_REPORT_PAIRING_INFO, the MAC from byte 1 */
		memcpy(r + 1, dualsense_bt_mac, sizeof(dualsense_bt_mac));
		size = DS_BT_PAIRING_SIZE;
		break;
	case 0x20:	/* DS_FEATURE_REPORT_FIRMWARE_INFO */
		memcpy(r, dualsense_bt_firmware, sizeof(dualsense_bt_firmware));
		size = DS_BT_FIRMWARE_SIZE;
		break;
	default:
		return;
	}
	ps_sign(PS_CRC_FEATURE, r, size);
	atomic_store(&rep->full_reports, true);
	reply_get(dev, r, size);
}

/*
 * Its input reports at rest. Until switched, the simple report 0x01
 * (SDL's PS5SimpleStatePacket_t): sticks centred, the hat released (8 in
 * the low half of byte 5), triggers released. Then the full report 0x31:
 * byte 1 (which neither driver reads) 0, then hid-playstation's struct
 * dualsense_input_report from byte 2: sticks centred, the report counter
 * at 8, the hat released (byte 9), motion at zero, the sensor clock (le32
 * at 29) counting since the controller connected, both touch points lifted
 * (bit 7 at 34 and 38), on battery at 85% (status at 54: discharging,
 * level 8); the CRC last. SDL sets the light bar over Bluetooth only once
 * that clock is past 3.4 s, when the controller's own connection light has
 * ended (HIDAPI_DriverPS5_CheckPendingLEDReset).
 */
static size_t dualsense_bt_input(struct replica *rep, uint8_t *r)
{
	static const uint8_t simple[DS_BT_SIMPLE_SIZE] = {
		0x01, 0x80, 0x80, 0x80, 0x80, 0x08,
	};
	struct timespec now;
	uint64_t us;

	if (!atomic_load(&rep->full_reports)) {
		memcpy(r, simple, sizeof(simple));
		return sizeof(simple);
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	us = (uint64_t)(now.tv_sec - rep->connected.tv_sec) * 1000000 +
	     (now.tv_nsec - rep->connected.tv_nsec) / 1000;
	memset(r, 0, DS_BT_INPUT_SIZE);
	r[0] = 0x31;
	memset(r + 2, 0x80, 4);
	r[8] = rep->input_seq++;
	r[9] = 0x08;
	put_le32(r + 29, (uint32_t)(us * DS_CLOCK_PER_US));
	r[34] = 0x80;
	r[38] = 0x80;
	r[54] = 0x08;
	ps_sign(PS_CRC_INPUT, r, DS_BT_INPUT_SIZE);
	return DS_BT_INPUT_SIZE;
}

static void dualshock4_answer(struct replica *rep, struct uhid_dev *dev,
			      const struct uhid_dev_record *req)
{
	uint8_t r[64] = { req->rnum };

	if (req->request != UHID_DEV_GET_REPORT || req->rtype != UHID_FEATURE_REPORT)
		return;
	switch (req->rnum) {
	case 0x02:	/* calibration over USB, 37 bytes */
		sony_calibration(r);
		reply_get(dev, r, 37);
		break;
	case 0x12:	/* pairing information (hid-playstation), 16 bytes */
	case 0x81:	/* MAC address (hid-sony), 7 bytes */
		memcpy(r + 1, dualshock4_mac, sizeof(dualshock4_mac));
		reply_get(dev, r, req->rnum == 0x12 ? 16 : 7);
		break;
	case 0xa3:	/* firmware information, 49 bytes: hardware version
			 * le16 at 35, firmware le16 at 41 */
		put_le16(r + 35, 0x3100);
		put_le16(r + 41, 0x0801);
		reply_get(dev, r, 49);
		break;
	}
}

/* ---- Nintendo Switch Pro Controller (USB) ---- */

#define SWITCH_REPORT_SIZE 64
#define SWITCH_MAC_SIZE 6
#define SWITCH_FLASH_SIZE 0x10000

/* hid-nintendo's SPI flash addresses (JC_CAL_*, JC_IMU_CAL_*) */
#define FLASH_IMU_FACTORY 0x6020
#define FLASH_LEFT_STICK_FACTORY 0x603d
#define FLASH_RIGHT_STICK_FACTORY 0x6046

/* The controller's MAC address, most significant byte first. */
static const uint8_t switch_mac[SWITCH_MAC_SIZE] = { 0x98, 0xb6, 0xe9, 0x12, 0x34, 0x56 };

/* Two 12-bit values in three bytes, as the flash and the reports pack them. */
static void put_12bit_pair(uint8_t *p, unsigned int a, unsigned int b)
{
	p[0] = a & 0xff;
	p[1] = ((a >> 8) & 0x0f) | ((b & 0x0f) << 4);
	p[2] = (b >> 4) & 0xff;
}

/* A flash as it leaves the factory: no user calibration (its magic bytes
 * erased, 0xff), factory stick and IMU calibration present. */
static void switch_flash_init(uint8_t *flash)
{
	static const int16_t imu[12] = {
		0, 0, 0,		/* accelerometer offset */
		16384, 16384, 16384,	/* accelerometer scale */
		0, 0, 0,		/* gyroscope offset */
		13371, 13371, 13371,	/* gyroscope scale */
	};
	uint8_t *left = flash + FLASH_LEFT_STICK_FACTORY;
	uint8_t *right = flash + FLASH_RIGHT_STICK_FACTORY;

	memset(flash, 0xff, SWITCH_FLASH_SIZE);
	for (size_t i = 0; i < ARRAY_SIZE(imu); i++)
		put_le16(flash + FLASH_IMU_FACTORY + 2 * i, imu[i]);
	/* joycon_read_stick_calibration: left stick max-above, center,
	 * min-below; right stick center, min-below, max-above (x, y each) */
	put_12bit_pair(left, 1500, 1500);
	put_12bit_pair(left + 3, 2048, 2048);
	put_12bit_pair(left + 6, 1500, 1500);
	put_12bit_pair(right, 2048, 2048);
	put_12bit_pair(right + 3, 1500, 1500);
	put_12bit_pair(right + 6, 1500, 1500);
}

/* Input report 0x21, the reply to a subcommand (struct
 * joycon_input_report): timer, battery and connection, buttons, both
 * sticks centred, then ack, the subcommand's ID and its data from byte 15. */
static void switch_subcmd_reply(struct replica *rep, struct uhid_dev *dev, uint8_t ack,
				uint8_t subcmd, const uint8_t *data, size_t len)
{
	uint8_t r[SWITCH_REPORT_SIZE] = { 0x21, rep->timer++, 0x91 };

	put_12bit_pair(r + 6, 2048, 2048);
	put_12bit_pair(r + 9, 2048, 2048);
	r[13] = ack;
	r[14] = subcmd;
	if (len > sizeof(r) - 15)
		len = sizeof(r) - 15;
	memcpy(r + 15, data, len);
	uhid_dev_send_input(dev, r, sizeof(r));
}

static void switch_subcommand(struct replica *rep, struct uhid_dev *dev, const uint8_t *out,
			      size_t size)
{
	/* Output report 0x01: packet number, 8 bytes of rumble, the
	 * subcommand in byte 10, its arguments from byte 11. */
	uint8_t subcmd = out[10], data[40] = { 0 };
	uint32_t addr;
	uint8_t len;

	switch (subcmd) {
	case 0x02:	/* JC_SUBCMD_REQ_DEV_INFO (joycon_read_info): firmware
			 * version, controller type (3: Pro) at data[2], MAC
			 * from data[4] */
		data[0] = 0x04;
		data[1] = 0x21;
		data[2] = 0x03;
		data[3] = 0x02;
		memcpy(data + 4, switch_mac, sizeof(switch_mac));
		data[10] = 0x01;
		switch_subcmd_reply(rep, dev, 0x82, subcmd, data, 12);
		break;
	case 0x10:	/* JC_SUBCMD_SPI_FLASH_READ: address le32, length; the
			 * reply repeats both, the bytes follow from data[5] */
		if (size < 16)
			return;
		addr = out[11] | out[12] << 8 | out[13] << 16 | (uint32_t)out[14] << 24;
		len = out[15];
		if (addr >= SWITCH_FLASH_SIZE || len > SWITCH_FLASH_SIZE - addr ||
		    len > sizeof(data) - 5)
			return;
		memcpy(data, out + 11, 5);
		memcpy(data + 5, rep->flash + addr, len);
		switch_subcmd_reply(rep, dev, 0x90, subcmd, data, 5 + len);
		break;
	default:	/* report mode, IMU, vibration, lights: a plain ACK */
		switch_subcmd_reply(rep, dev, 0x80, subcmd, data, 0);
		break;
	}
}

static void switch_pro_answer(struct replica *rep, struct uhid_dev *dev,
			      const struct uhid_dev_record *req)
{
	const uint8_t *out = req->data;
	uint8_t r[SWITCH_REPORT_SIZE] = { 0x81 };

	if (req->request != UHID_DEV_OUTPUT || req->size < 2)
		return;
	switch (out[0]) {
	case 0x80:	/* JC_OUTPUT_USB_CMD: handshake (2) and baud rate (3)
			 * are acknowledged with input report 0x81 and the
			 * command; "no timeout" (4) gets no answer. Status (1),
			 * which SDL asks first to tell USB from Bluetooth
			 * (SDL_hidapi_switch.c, BReadDeviceInfo), is answered
			 * with the controller type (3: Pro) at 3 and the MAC
			 * address from 4, least significant byte first. */
		if (out[1] == 0x01) {
			r[1] = out[1];
			r[3] = 0x03;
			for (int i = 0; i < SWITCH_MAC_SIZE; i++)
				r[4 + i] = switch_mac[SWITCH_MAC_SIZE - 1 - i];
			uhid_dev_send_input(dev, r, sizeof(r));
		} else if (out[1] == 0x02 || out[1] == 0x03) {
			r[1] = out[1];
			uhid_dev_send_input(dev, r, sizeof(r));
		}
		break;
	case 0x01:	/* JC_OUTPUT_RUMBLE_AND_SUBCMD */
		if (req->size >= 11)
			switch_subcommand(rep, dev, out, req->size);
		break;
	}
}

/* ---- Valve Steam Deck controller and Steam Controller (USB) ---- */

/* Get attribute values (0x83), which Linux 7.x's hid-steam asks after the
 * serial number (steam_get_attributes): the command echoed, the length of
 * what follows, then 5-byte attributes, a tag and a little-endian 32-bit
 * value. The replica tells its product ID (tag 1) alone: it knows no real
 * controller's other values. A reply that does not echo the command, the
 * replica's answer before, is an "invalid reply" to 7.x. */
static void steam_attributes(struct replica *rep, struct uhid_dev *dev)
{
	uint8_t r[65] = { 0x00, 0x83, 5, 0x01 };

	put_le16(r + 4, rep->model->product);
	reply_get(dev, r, sizeof(r));
}

static void steam_answer(struct replica *rep, struct uhid_dev *dev,
			      const struct uhid_dev_record *req)
{
	/* Feature report 0, not numbered: byte 0 is 0, the command in byte
	 * 1. hid-steam steam_get_serial sends 0xae (get string attribute),
	 * the length it takes (0x15), 0x01 (serial number) and reads the
	 * reply from GET_REPORT: 0xae, the length, 0x01, the serial. Linux
	 * 6.1 wants the length repeated as it asked. */
	static const char serial[] = "FVZZ12345678";
	uint8_t r[65] = { 0x00, 0xae, 0, 0x01 };

	if (req->request != UHID_DEV_SET_REPORT || req->rtype != UHID_FEATURE_REPORT ||
	    req->size < 4)
		return;
	if (req->data[1] == 0x83) {
		steam_attributes(rep, dev);
		return;
	}
	if (req->data[1] != 0xae || req->data[3] != 0x01)
		return;
	r[2] = req->data[2];
	memcpy(r + 4, serial, sizeof(serial));
	reply_get(dev, r, sizeof(r));
}

/* ---- Logitech Unifying receiver (USB), with one paired mouse ---- */

#define HIDPP_SHORT 0x10
#define HIDPP_LONG 0x11
#define DJ_SHORT 0x20
#define RECEIVER 0xff
#define PAIRED_INDEX 1
#define PAIRED_WPID 0x4061		/* a Unifying mouse's wireless PID */

static void send_report(struct uhid_dev *dev, const uint8_t *r, size_t size)
{
	uhid_dev_send_input(dev, r, size);
}

/* A HID++ 1.0 error: 0x8f, the request's sub ID and register, the code. */
static void hidpp_error(struct uhid_dev *dev, const uint8_t *q, uint8_t code)
{
	uint8_t r[7] = { HIDPP_SHORT, q[1], 0x8f, q[2], q[3], code };

	send_report(dev, r, sizeof(r));
}

static void unifying_receiver_register(struct uhid_dev *dev, const uint8_t *q)
{
	uint8_t r[20] = { 0 };

	memcpy(r, q, 4);
	switch (q[2]) {
	case 0x80:	/* set short register: notifications (0x00), device
			 * arrival (0x02): acknowledged */
		r[0] = HIDPP_SHORT;
		send_report(dev, r, 7);
		break;
	case 0x83:	/* get long register */
		if (q[3] != 0xb5) {
			hidpp_error(dev, q, 0x02);	/* invalid address */
			break;
		}
		/* pairing information of the paired device (hid-logitech-
		 * hidpp hidpp_unifying_get_serial, _get_name), a long reply
		 * that hid-logitech-dj hands to the device it names in byte 4 */
		r[0] = HIDPP_LONG;
		r[4] = q[4];
		if ((q[4] & 0xf0) == 0x30) {		/* extended pairing: serial */
			memcpy(r + 5, (const uint8_t[]){ 0x1a, 0x2b, 0x3c, 0x4d }, 4);
		} else if ((q[4] & 0xf0) == 0x40) {	/* device name */
			r[5] = 4;
			memcpy(r + 6, "M705", 4);
		} else if ((q[4] & 0xf0) == 0x20) {	/* pairing: wireless PID, type */
			r[7] = PAIRED_WPID >> 8;
			r[8] = PAIRED_WPID & 0xff;
			r[11] = 0x02;			/* mouse */
		} else {
			hidpp_error(dev, q, 0x02);
			break;
		}
		send_report(dev, r, sizeof(r));
		break;
	default:
		hidpp_error(dev, q, 0x01);		/* invalid sub ID */
		break;
	}
}

static void unifying_answer(struct replica *rep, struct uhid_dev *dev,
			    const struct uhid_dev_record *req)
{
	const uint8_t *q = req->data;
	uint8_t r[15] = { DJ_SHORT };

	/* hid-logitech-dj and -hidpp send output reports with SET_REPORT */
	if (!(req->request == UHID_DEV_OUTPUT ||
	      (req->request == UHID_DEV_SET_REPORT && req->rtype == UHID_OUTPUT_REPORT)) ||
	    req->size < 4)
		return;
	if (q[0] == DJ_SHORT && q[1] == RECEIVER && q[2] == 0x81) {
		/* DJ "get paired devices" (logi_dj_recv_query_paired_devices):
		 * one "device paired" notification per device: index, 0x41,
		 * special function 0, wireless PID (lsb, msb), the RF reports
		 * it sends (le32; bit 2: standard mouse) */
		r[1] = PAIRED_INDEX;
		r[2] = 0x41;
		r[4] = PAIRED_WPID & 0xff;
		r[5] = PAIRED_WPID >> 8;
		r[6] = 1u << 2;
		send_report(dev, r, sizeof(r));
		return;
	}
	if (q[0] != HIDPP_SHORT && q[0] != HIDPP_LONG)
		return;
	if (q[1] == RECEIVER)
		unifying_receiver_register(dev, q);
	else if (q[1] == PAIRED_INDEX)
		/* The mouse speaks HID++ 1.0: a 2.0 request (root feature,
		 * protocol version) gets "invalid sub ID", which hid-logitech-
		 * hidpp takes for protocol 1.0 */
		hidpp_error(dev, q, 0x01);
}

/* ---- descriptors ---- */

#define VENDOR_BYTES(usage, count, main) 0x09, (usage), 0x95, (count), (main), 0x02
#define INPUT 0x81
#define OUTPUT 0x91
#define FEATURE 0xb1
#define BYTE_FIELDS 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08

/*
 * A DualSense's report descriptor over USB as the controller sends it (273
 * bytes; firmware of 2021 on: earlier ones lack the last two reports), as
 * recorded by hid-tools (hidtools/device/sony_gamepad.py, PS5ControllerUSB)
 * and by InputPlumber (src/drivers/dualsense/report_descriptor.rs,
 * DS_USB_DESCRIPTOR). What hid-playstation and SDL use of it: input 0x01
 * (63 bytes after the ID), output 0x02, features 0x05 (calibration), 0x09
 * (pairing information), 0x20 (firmware information); the updaters send
 * 0xf4 and read 0xf5 (doc/devices.md).
 */
#define DS_FEATURE(id, usage, count) 0x85, (id), 0x09, (usage), 0x95, (count), FEATURE, 0x02
static const uint8_t dualsense_rdesc[] = {
	0x05, 0x01, 0x09, 0x05, 0xa1, 0x01,	/* Generic Desktop, Gamepad, Application */
	0x85, 0x01,				/* input 0x01 */
	0x09, 0x30, 0x09, 0x31, 0x09, 0x32,	/* X, Y, Z, Rz, Rx, Ry: sticks, triggers */
	0x09, 0x35, 0x09, 0x33, 0x09, 0x34,
	BYTE_FIELDS, 0x95, 0x06, INPUT, 0x02,
	0x06, 0x00, 0xff, 0x09, 0x20, 0x95, 0x01, INPUT, 0x02,	/* sequence number */
	0x05, 0x01, 0x09, 0x39,			/* hat switch: 4 bits, 0..7, 0..315 degrees */
	0x15, 0x00, 0x25, 0x07, 0x35, 0x00, 0x46, 0x3b, 0x01, 0x65, 0x14,
	0x75, 0x04, 0x95, 0x01, INPUT, 0x42, 0x65, 0x00,
	0x05, 0x09, 0x19, 0x01, 0x29, 0x0f,	/* 15 buttons */
	0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x0f, INPUT, 0x02,
	0x06, 0x00, 0xff, 0x09, 0x21, 0x95, 0x0d, INPUT, 0x02,	/* 13 vendor bits */
	0x06, 0x00, 0xff, 0x09, 0x22, BYTE_FIELDS,	/* 52 bytes: motion, touch, battery */
	0x95, 0x34, INPUT, 0x02,
	0x85, 0x02, 0x09, 0x23, 0x95, 0x2f, OUTPUT, 0x02,	/* output 0x02: effects, lights */
	DS_FEATURE(0x05, 0x33, 40),		/* calibration */
	DS_FEATURE(0x08, 0x34, 47),
	DS_FEATURE(0x09, 0x24, 19),		/* pairing information */
	DS_FEATURE(0x0a, 0x25, 26),
	DS_FEATURE(0x20, 0x26, 63),		/* firmware information */
	DS_FEATURE(0x21, 0x27, 4),
	DS_FEATURE(0x22, 0x40, 63),
	DS_FEATURE(0x80, 0x28, 63),		/* NVS and test commands */
	DS_FEATURE(0x81, 0x29, 63),
	DS_FEATURE(0x82, 0x2a, 9),		/* stick calibration */
	DS_FEATURE(0x83, 0x2b, 63),
	DS_FEATURE(0x84, 0x2c, 63),
	DS_FEATURE(0x85, 0x2d, 2),
	DS_FEATURE(0xa0, 0x2e, 1),
	DS_FEATURE(0xe0, 0x2f, 63),
	DS_FEATURE(0xf0, 0x30, 63),
	DS_FEATURE(0xf1, 0x31, 63),
	DS_FEATURE(0xf2, 0x32, 15),
	DS_FEATURE(0xf4, 0x35, 63),		/* firmware update */
	DS_FEATURE(0xf5, 0x36, 3),		/* firmware update status */
	0xc0,
};
_Static_assert(sizeof(dualsense_rdesc) == 273, "the DualSense's USB descriptor is 273 bytes");

/*
 * A DualSense's report descriptor over Bluetooth as the controller sends it
 * (279 bytes), as recorded by hid-tools (hidtools/device/sony_gamepad.py,
 * PS5ControllerBluetooth; the kernel's HID selftests drive
 * hid-playstation with it, tools/testing/selftests/hid/tests/test_sony.py).
 * Its report 0x01 is the simple one a game sees before the host switches
 * the controller (4 stick bytes, the hat, 14 buttons, the triggers: 9
 * bytes after the ID); 0x31 is both the full input report and the output
 * report (77 bytes each after the ID, the CRC in the last 4); 0x32 to 0x39
 * carry audio; the features are the USB ones but for the update reports
 * 0xf4 and 0xf5, which it does not declare (the updaters work over USB).
 */
#define DS_BT_OUT(id, count) 0x85, (id), 0x09, (id), 0x95, (count), OUTPUT, 0x02
#define DS_BT_OUT16(id, count) \
	0x85, (id), 0x09, (id), 0x96, (count) & 0xff, (count) >> 8, OUTPUT, 0x02
static const uint8_t dualsense_bt_rdesc[] = {
	0x05, 0x01, 0x09, 0x05, 0xa1, 0x01,	/* Generic Desktop, Gamepad, Application */
	0x85, 0x01,				/* input 0x01, the simple report */
	0x09, 0x30, 0x09, 0x31, 0x09, 0x32, 0x09, 0x35,	/* X, Y, Z, Rz: the sticks */
	BYTE_FIELDS, 0x95, 0x04, INPUT, 0x02,
	0x09, 0x39,				/* hat switch: 4 bits, 0..7, 0..315 degrees */
	0x15, 0x00, 0x25, 0x07, 0x35, 0x00, 0x46, 0x3b, 0x01, 0x65, 0x14,
	0x75, 0x04, 0x95, 0x01, INPUT, 0x42, 0x65, 0x00,
	0x05, 0x09, 0x19, 0x01, 0x29, 0x0e,	/* 14 buttons, 6 bits padding */
	0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x0e, INPUT, 0x02,
	0x75, 0x06, 0x95, 0x01, INPUT, 0x01,
	0x05, 0x01, 0x09, 0x33, 0x09, 0x34,	/* Rx, Ry: the triggers */
	BYTE_FIELDS, 0x95, 0x02, INPUT, 0x02,
	0x06, 0x00, 0xff, BYTE_FIELDS, 0x95, 0x4d,	/* vendor defined, 77 bytes */
	0x85, 0x31, 0x09, 0x31, OUTPUT, 0x02,	/* 0x31: output (effects, lights) */
	0x09, 0x3b, INPUT, 0x02,		/* and the full input report */
	DS_BT_OUT(0x32, 141),
	DS_BT_OUT(0x33, 205),
	DS_BT_OUT16(0x34, 269),
	DS_BT_OUT16(0x35, 333),
	DS_BT_OUT16(0x36, 397),
	DS_BT_OUT16(0x37, 461),
	DS_BT_OUT16(0x38, 525),
	DS_BT_OUT16(0x39, 546),
	0x06, 0x80, 0xff,			/* vendor page 0xff80: features */
	DS_FEATURE(0x05, 0x33, 40),		/* calibration */
	DS_FEATURE(0x08, 0x34, 47),
	DS_FEATURE(0x09, 0x24, 19),		/* pairing information */
	DS_FEATURE(0x20, 0x26, 63),		/* firmware information */
	DS_FEATURE(0x22, 0x40, 63),
	DS_FEATURE(0x80, 0x28, 63),		/* NVS and test commands */
	DS_FEATURE(0x81, 0x29, 63),
	DS_FEATURE(0x82, 0x2a, 9),		/* stick calibration */
	DS_FEATURE(0x83, 0x2b, 63),
	DS_FEATURE(0xf1, 0x31, 63),
	DS_FEATURE(0xf2, 0x32, 15),
	DS_FEATURE(0xf0, 0x30, 63),
	0xc0,
};
_Static_assert(sizeof(dualsense_bt_rdesc) == 279, "the DualSense's Bluetooth descriptor is 279 bytes");

/* Report sizes below count the bytes after the report ID. */
static const uint8_t dualshock4_rdesc[] = {
	0x05, 0x01, 0x09, 0x05, 0xa1, 0x01,	/* Generic Desktop, Gamepad, Application */
	0x85, 0x01,				/* input 0x01: 63 bytes */
	0x09, 0x30, 0x09, 0x31, 0x09, 0x32, 0x09, 0x35, BYTE_FIELDS, 0x95, 0x04, INPUT, 0x02,
	0x05, 0x09, 0x19, 0x01, 0x29, 0x0e,	/* 14 buttons, 2 bits padding */
	0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x0e, INPUT, 0x02,
	0x95, 0x02, INPUT, 0x03,
	0x06, 0x00, 0xff, BYTE_FIELDS,		/* the rest: vendor defined */
	VENDOR_BYTES(0x20, 57, INPUT),
	0x85, 0x05, VENDOR_BYTES(0x21, 31, OUTPUT),	/* rumble, lightbar */
	0x85, 0x02, VENDOR_BYTES(0x22, 36, FEATURE),	/* calibration */
	0x85, 0x12, VENDOR_BYTES(0x23, 15, FEATURE),	/* pairing information */
	0x85, 0x81, VENDOR_BYTES(0x24, 6, FEATURE),	/* MAC address */
	0x85, 0xa3, VENDOR_BYTES(0x25, 48, FEATURE),	/* firmware information */
	0x85, 0xa0, VENDOR_BYTES(0x26, 63, FEATURE),	/* NVS */
	0x85, 0x90, VENDOR_BYTES(0x27, 63, FEATURE),	/* calibration writes */
	0xc0,
};

static const uint8_t switch_pro_rdesc[] = {
	0x05, 0x01, 0x09, 0x04, 0xa1, 0x01,	/* Generic Desktop, Joystick, Application */
	0x06, 0x01, 0xff, BYTE_FIELDS,		/* vendor defined, 63 bytes each */
	0x85, 0x21, VENDOR_BYTES(0x21, 63, INPUT),	/* subcommand replies */
	0x85, 0x30, VENDOR_BYTES(0x30, 63, INPUT),	/* full input reports */
	0x85, 0x81, VENDOR_BYTES(0x81, 63, INPUT),	/* USB command replies */
	0x85, 0x01, VENDOR_BYTES(0x01, 63, OUTPUT),	/* rumble and subcommand */
	0x85, 0x03, VENDOR_BYTES(0x03, 63, OUTPUT),	/* firmware update packet */
	0x85, 0x10, VENDOR_BYTES(0x10, 63, OUTPUT),	/* rumble */
	0x85, 0x80, VENDOR_BYTES(0x80, 63, OUTPUT),	/* USB commands */
	0xc0,
};

static const uint8_t steam_rdesc[] = {
	0x06, 0xff, 0xff, 0x09, 0x01, 0xa1, 0x01,	/* vendor defined, Application */
	BYTE_FIELDS,				/* reports not numbered, 64 bytes */
	VENDOR_BYTES(0x01, 64, INPUT),
	VENDOR_BYTES(0x01, 64, FEATURE),
	0xc0,
};

/*
 * The receiver's HID++/DJ interface, interface 2 of a Unifying receiver
 * 046D:C52B with firmware RQR12.11 (bcdDevice 12.11, the firmware this
 * replica gives, logitech_receiver.c), 93 bytes: HID++ short (0x10, 6
 * bytes) and long (0x11, 19 bytes) reports, each in its vendor collection
 * (0xff000001, 0xff000002, which hid-logitech-dj and Solaar look for), the
 * DJ reports 0x20 (14 bytes) and 0x21 (31 bytes) in the third
 * (0xff000004); input and output, arrays of bytes.
 *
 * The bytes are the receiver's, item for item, from a usbhid-dump of
 * interface 2 of that receiver (lsusb -v beside it: bcdDevice 12.11,
 * wDescriptorLength 93), in a public GitHub document, "USB HID device
 * report descriptors" (found through the search index, file id
 * 22408418873; its repository is not named there); a capture of a
 * receiver through DeskHop (its passthrough_dump_descriptors, same index,
 * file id 67621332366) has the same 93 bytes. Firmware RQR12.07 and
 * RQR12.10 declare 93 bytes too (fwupd plugins/logitech-hidpp/data/
 * lsusb-U0007.txt; the lsusb -v of an RQR12.10_B0032 in a blog post,
 * index file id 28602587960). The Texas Instruments receivers' firmware
 * (RQR24.xx) and RQR12.00 declare 98: the same reports, Report Size before
 * Report Count, and the 0x21 report repeating the logical range (fwupd
 * plugins/logitech-hidpp/data/lsusb-U0008.txt, RQR24.05).
 */
static const uint8_t unifying_rdesc[] = {
	0x06, 0x00, 0xff,	/* Usage Page (Vendor 0xff00) */
	0x09, 0x01,		/* Usage (0x01): HID++ short */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, 0x10,		/*  Report ID (0x10) */
	0x95, 0x06,		/*  Report Count (6) */
	0x75, 0x08,		/*  Report Size (8) */
	0x15, 0x00,		/*  Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*  Logical Maximum (255) */
	0x09, 0x01,		/*  Usage (0x01) */
	0x81, 0x00,		/*  Input (Data, Array, Abs) */
	0x09, 0x01,		/*  Usage (0x01) */
	0x91, 0x00,		/*  Output (Data, Array, Abs) */
	0xc0,			/* End Collection */
	0x06, 0x00, 0xff,	/* Usage Page (Vendor 0xff00) */
	0x09, 0x02,		/* Usage (0x02): HID++ long */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, 0x11,		/*  Report ID (0x11) */
	0x95, 0x13,		/*  Report Count (19) */
	0x75, 0x08,		/*  Report Size (8) */
	0x15, 0x00,		/*  Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*  Logical Maximum (255) */
	0x09, 0x02,		/*  Usage (0x02) */
	0x81, 0x00,		/*  Input (Data, Array, Abs) */
	0x09, 0x02,		/*  Usage (0x02) */
	0x91, 0x00,		/*  Output (Data, Array, Abs) */
	0xc0,			/* End Collection */
	0x06, 0x00, 0xff,	/* Usage Page (Vendor 0xff00) */
	0x09, 0x04,		/* Usage (0x04): DJ */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, 0x20,		/*  Report ID (0x20) */
	0x95, 0x0e,		/*  Report Count (14) */
	0x75, 0x08,		/*  Report Size (8) */
	0x15, 0x00,		/*  Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*  Logical Maximum (255) */
	0x09, 0x41,		/*  Usage (0x41) */
	0x81, 0x00,		/*  Input (Data, Array, Abs) */
	0x09, 0x41,		/*  Usage (0x41) */
	0x91, 0x00,		/*  Output (Data, Array, Abs) */
	0x85, 0x21,		/*  Report ID (0x21) */
	0x95, 0x1f,		/*  Report Count (31) */
	0x09, 0x42,		/*  Usage (0x42) */
	0x81, 0x00,		/*  Input (Data, Array, Abs) */
	0x09, 0x42,		/*  Usage (0x42) */
	0x91, 0x00,		/*  Output (Data, Array, Abs) */
	0xc0,			/* End Collection */
};
_Static_assert(sizeof(unifying_rdesc) == 93, "RQR12.11's interface 2 descriptor is 93 bytes");

/*
 * What a DualSense sends over USB at rest: input report 0x01, 64 bytes
 * (hid-playstation struct dualsense_input_report): sticks centred (0x80),
 * triggers released, the hat released (8 in the low half of the first
 * buttons byte, at 8), motion at zero, both touch points lifted (bit 7 of
 * their contact bytes, at 33 and 37), the battery full and wired (status
 * at 53: charging complete, level 10). SDL reads the first one when it
 * opens the controller: a 64-byte report tells it USB from Bluetooth
 * (SDL_hidapi_ps5.c, HIDAPI_DriverPS5_InitDevice).
 */
static const uint8_t dualsense_idle_input[64] = {
	[0] = 0x01, [1] = 0x80, [2] = 0x80, [3] = 0x80, [4] = 0x80,
	[8] = 0x08, [33] = 0x80, [37] = 0x80, [53] = 0x2a,
};

const struct replica_model replica_dualsense = {
	"Sony Interactive Entertainment DualSense Wireless Controller",
	BUS_USB, 0x054c, 0x0ce6, dualsense_rdesc, sizeof(dualsense_rdesc), dualsense_answer,
	/* 250 reports a second, the rate SDL gives its sensors over USB
	 * (SDL_hidapi_ps5.c, HIDAPI_DriverPS5_SetEnhancedMode) */
	dualsense_idle_input, sizeof(dualsense_idle_input), 4,
};
const struct replica_model replica_dualsense_bt = {
	/* its Bluetooth name, which BlueZ gives hidp for the HID device's */
	"DualSense Wireless Controller",
	BUS_BLUETOOTH, 0x054c, 0x0ce6, dualsense_bt_rdesc, sizeof(dualsense_bt_rdesc),
	dualsense_bt_answer,
	/* one report every 4 ms, as the USB replica's (SDL gives no rate
	 * for the reports over Bluetooth: its 1000 Hz there is the sensors',
	 * HIDAPI_DriverPS5_SetEnhancedMode) */
	NULL, 0, 4, dualsense_bt_input,
};
/*
 * What a DualShock 4 sends over USB at rest: input report 0x01, 64 bytes
 * (hid-playstation struct dualshock4_input_report_usb): sticks centred,
 * the hat released (8 in the low half of the byte at 5), motion at zero,
 * the battery full on the cable (status at 30: cable bit 0x10, level 11),
 * no touch (bit 7 of both points' contact bytes, at 35 and 39).
 */
static const uint8_t dualshock4_idle_input[64] = {
	[0] = 0x01, [1] = 0x80, [2] = 0x80, [3] = 0x80, [4] = 0x80,
	[5] = 0x08, [30] = 0x1b, [35] = 0x80, [39] = 0x80,
};

const struct replica_model replica_dualshock4 = {
	"Sony Interactive Entertainment Wireless Controller",
	BUS_USB, 0x054c, 0x09cc, dualshock4_rdesc, sizeof(dualshock4_rdesc), dualshock4_answer,
	/* 250 a second, as SDL_hidapi_ps4.c gives its sensors over USB */
	dualshock4_idle_input, sizeof(dualshock4_idle_input), 4,
};
const struct replica_model replica_switch_pro = {
	"Nintendo Co., Ltd. Pro Controller",
	BUS_USB, 0x057e, 0x2009, switch_pro_rdesc, sizeof(switch_pro_rdesc), switch_pro_answer,
};
/*
 * What the Steam Deck's controller sends at rest: a Valve input report,
 * not numbered, 64 bytes: report version 1 (16 bits, little-endian), type
 * 9 (the Deck's state), length 64, then nothing pressed and the sticks,
 * pads and motion at zero (SDL's steam/controller_structs.h,
 * ValveInReportHeader_t; hid-steam's steam_do_deck_input_event reads the
 * same). SDL reads one when it opens the controller, to tell its interface
 * from the Deck's keyboard and mouse, which share its IDs
 * (SDL_hidapi_steamdeck.c, HIDAPI_DriverSteamDeck_InitDevice).
 */
static const uint8_t steam_deck_idle_input[64] = { [0] = 0x01, [2] = 0x09, [3] = 0x40 };

const struct replica_model replica_steam_deck = {
	"Valve Software Steam Deck Controller",
	BUS_USB, 0x28de, 0x1205, steam_rdesc, sizeof(steam_rdesc), steam_answer,
	/* "about 4 ms" (SDL_hidapi_steamdeck.c, update_rate_us) */
	steam_deck_idle_input, sizeof(steam_deck_idle_input), 4,
};
const struct replica_model replica_steam_controller = {
	"Valve Software Steam Controller",
	BUS_USB, 0x28de, 0x1102, steam_rdesc, sizeof(steam_rdesc), steam_answer,
};
const struct replica_model replica_unifying = {
	"Logitech USB Receiver",
	BUS_USB, 0x046d, 0xc52b, unifying_rdesc, sizeof(unifying_rdesc), unifying_answer,
};

/* ---- what the drivers ask at probe ---- */

#define GET(id, what) { what, UHID_DEV_GET_REPORT, id, .at = -1 }
#define OUT(id, what) { what, UHID_DEV_OUTPUT, id, .at = -1 }
#define OUT_CMD(id, at_, v, what) { what, UHID_DEV_OUTPUT, id, at_, v }
#define SET_CMD(id, at_, v, what) { what, UHID_DEV_SET_REPORT, id, at_, v }

/* hid-playstation dualsense_create */
const struct probe_request replica_dualsense_probe[] = {
	GET(0x09, "get-feature-09-pairing-info"),
	GET(0x20, "get-feature-20-firmware-info"),
	GET(0x05, "get-feature-05-calibration"),
	OUT(0x02, "output-02-reset-leds"),
	{ 0 },
};

/* hid-playstation dualsense_create over Bluetooth: the same reads, each
 * answer's CRC checked, and the LED reset in output report 0x31 */
const struct probe_request replica_dualsense_bt_probe[] = {
	GET(0x09, "get-feature-09-pairing-info"),
	GET(0x20, "get-feature-20-firmware-info"),
	GET(0x05, "get-feature-05-calibration"),
	OUT(0x31, "output-31-reset-leds"),
	{ 0 },
};

/* hid-playstation dualshock4_create (Linux 6.2 and later) */
const struct probe_request replica_dualshock4_probe_playstation[] = {
	GET(0x12, "get-feature-12-pairing-info"),
	GET(0xa3, "get-feature-a3-firmware-info"),
	GET(0x02, "get-feature-02-calibration"),
	OUT(0x05, "output-05-lightbar"),
	{ 0 },
};

/* hid-sony sony_input_configured (Linux 6.1) */
const struct probe_request replica_dualshock4_probe_sony[] = {
	GET(0x81, "get-feature-81-mac-address"),
	GET(0x02, "get-feature-02-calibration"),
	GET(0xa3, "get-feature-a3-firmware-info"),
	OUT(0x05, "output-05-lightbar"),
	{ 0 },
};

/* hid-nintendo joycon_init, joycon_leds_create */
const struct probe_request replica_switch_pro_probe[] = {
	OUT_CMD(0x80, 1, 0x02, "output-80-02-usb-handshake"),
	OUT_CMD(0x80, 1, 0x03, "output-80-03-usb-baudrate"),
	OUT_CMD(0x80, 1, 0x04, "output-80-04-usb-no-timeout"),
	OUT_CMD(0x01, 10, 0x02, "output-01-subcommand-02-device-info"),
	OUT_CMD(0x01, 10, 0x10, "output-01-subcommand-10-spi-flash-read"),
	OUT_CMD(0x01, 10, 0x40, "output-01-subcommand-40-enable-imu"),
	OUT_CMD(0x01, 10, 0x03, "output-01-subcommand-03-report-mode"),
	OUT_CMD(0x01, 10, 0x48, "output-01-subcommand-48-enable-vibration"),
	OUT_CMD(0x01, 10, 0x30, "output-01-subcommand-30-player-lights"),
	OUT_CMD(0x01, 10, 0x38, "output-01-subcommand-38-home-light"),
	{ 0 },
};

/* hid-steam steam_register: serial number, lizard mode (default mappings,
 * then default settings; "default mouse" on Linux 6.1, the same command) */
const struct probe_request replica_steam_probe[] = {
	SET_CMD(0x00, 1, 0xae, "set-feature-00-ae-get-serial"),
	GET(0x00, "get-feature-00-reply"),
	SET_CMD(0x00, 1, 0x85, "set-feature-00-85-default-mappings"),
	SET_CMD(0x00, 1, 0x8e, "set-feature-00-8e-default-settings"),
	{ 0 },
};

/* hid-logitech-dj logi_dj_probe, then hid-logitech-hidpp's probe of the
 * paired mouse through the receiver */
const struct probe_request replica_unifying_probe[] = {
	OUT_CMD(DJ_SHORT, 2, 0x80, "output-20-ff80-switch-to-dj-mode"),
	OUT_CMD(HIDPP_SHORT, 2, 0x80, "output-10-ff80-notifications"),
	OUT_CMD(DJ_SHORT, 2, 0x81, "output-20-ff81-paired-devices"),
	OUT_CMD(HIDPP_SHORT, 3, 0xb5, "output-10-ff83b5-pairing-information"),
	OUT_CMD(HIDPP_SHORT, 1, PAIRED_INDEX, "output-10-01-mouse-protocol-version"),
	{ 0 },
};

/* ---- the replica ---- */

/* Output reports count whichever way they came: hid_hw_output_report
 * (UHID_OUTPUT) or SET_REPORT of an output report. */
static bool probe_matches(const struct probe_request *p, const struct uhid_dev_record *req)
{
	bool output = req->request == UHID_DEV_OUTPUT ||
		      (req->request == UHID_DEV_SET_REPORT && req->rtype == UHID_OUTPUT_REPORT);

	if (p->request == UHID_DEV_OUTPUT ? !output : p->request != req->request || output)
		return false;
	if (req->rnum != p->id)
		return false;
	return p->at < 0 || (p->at < req->size && req->data[p->at] == p->value);
}

static void on_request(struct uhid_dev *dev, const struct uhid_dev_record *req, void *userdata)
{
	struct replica *rep = userdata;

	for (unsigned int i = 0; i < rep->n_probe; i++)
		if (probe_matches(&rep->probe[i], req))
			atomic_fetch_add(&rep->seen[i], 1);
	if (rep->delay_ms && req->request == UHID_DEV_GET_REPORT)
		usleep(rep->delay_ms * 1000);
	rep->model->answer(rep, dev, req);
	if (req->request == UHID_DEV_GET_REPORT)
		atomic_fetch_add(&rep->answered, 1);
}

struct replica *replica_new(const struct replica_model *model, const struct probe_request *probe)
{
	struct replica *rep = calloc(1, sizeof(*rep));

	CHECK(rep, "out of memory");
	rep->model = model;
	rep->probe = probe;
	while (probe && probe[rep->n_probe].what)
		rep->n_probe++;
	CHECK(rep->n_probe <= MAX_PROBE, "%u probe requests, at most %d", rep->n_probe, MAX_PROBE);
	clock_gettime(CLOCK_MONOTONIC, &rep->connected);
	if (model == &replica_switch_pro) {
		rep->flash = malloc(SWITCH_FLASH_SIZE);
		CHECK(rep->flash, "out of memory");
		switch_flash_init(rep->flash);
	}
	return rep;
}

void replica_set_answer_delay(struct replica *rep, unsigned int ms)
{
	rep->delay_ms = ms;
}

unsigned int replica_get_reports_answered(struct replica *rep)
{
	return atomic_load(&rep->answered);
}

void replica_free(struct replica *rep)
{
	if (!rep)
		return;
	free(rep->flash);
	free(rep);
}

int replica_create(struct replica *rep, struct uhid_dev *dev)
{
	return replica_create_on(rep, dev, TEST_DEV_UHID);
}

int replica_create_on(struct replica *rep, struct uhid_dev *dev, enum test_dev_backend backend)
{
	const struct uhid_dev_config cfg = {
		.backend = backend,
		.name = rep->model->name,
		.bus = rep->model->bus,
		.vendor = rep->model->vendor,
		.product = rep->model->product,
		.rdesc = rep->model->rdesc,
		.rdesc_size = rep->model->rdesc_size,
		.on_request = on_request,
		.userdata = rep,
		.no_hidraw_wait = true,
	};

	return uhid_dev_create(dev, &cfg);
}

unsigned int replica_probe_count(const struct replica *rep)
{
	return rep->n_probe;
}

unsigned int replica_probe_missing(struct replica *rep, bool log)
{
	unsigned int missing = 0;

	for (int waited = 0; waited <= PROBE_WAIT_MS; waited += 50) {
		missing = 0;
		for (unsigned int i = 0; i < rep->n_probe; i++)
			missing += atomic_load(&rep->seen[i]) == 0;
		if (!missing)
			return 0;
		usleep(50000);
	}
	for (unsigned int i = 0; log && i < rep->n_probe; i++)
		if (atomic_load(&rep->seen[i]) == 0)
			test_log("the replica did not receive %s", rep->probe[i].what);
	return missing;
}

void replica_forget_probe(struct replica *rep)
{
	for (unsigned int i = 0; i < rep->n_probe; i++)
		atomic_store(&rep->seen[i], 0);
}

size_t replica_next_input(struct replica *rep, uint8_t *buf)
{
	if (rep->model->next_input)
		return rep->model->next_input(rep, buf);
	if (!rep->model->idle_input)
		return 0;
	memcpy(buf, rep->model->idle_input, rep->model->idle_input_size);
	return rep->model->idle_input_size;
}
