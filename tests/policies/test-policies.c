// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shipped rule sets (policies/) against replicas of the devices they
 * are written for. One hid-policyd reads policies/ unchanged for the whole
 * suite; each family then gets, in its own test process, once on each
 * backend of the test devices (results "policies/FAMILY/..." on uhid,
 * "policies/usb/FAMILY/..." on USB, where usbhid carries the requests):
 *
 *   - a replica with the family's vendor and product IDs and a report
 *     descriptor declaring the report IDs it uses (on uhid, on the
 *     family's real bus; a Bluetooth family's replica is a USB device on
 *     USB, as its devices are when plugged in);
 *   - a device of another vendor (1234:5678) with the same descriptor.
 *
 * Every replica is bound to hid-generic, as the rules are checked through
 * hidraw: the vendor drivers of these IDs (hid-playstation, hid-nintendo,
 * hid-steam, hid-logitech-dj, built into the test kernels) would talk to
 * the device in their probes and may not bind a replica at all. Vendor
 * drivers under the firewall are another suite's concern.
 *
 * and these checks, each printing its own PASS:/FAIL: line:
 *
 *   refused/REQ         the request fails with the rule's errno, nothing
 *                       reaches the device, and the audit log names the rule;
 *   audited/REQ         (rules the spec marks UNVERIFIED, shipped in audit
 *                       mode) the request passes, reaches the device, and an
 *                       unenforced denial naming the rule is logged;
 *   allowed/REQ         the request passes and reaches the device intact;
 *   other-vendor/REQ    every refused or audited request passes on the other
 *                       vendor's device, which has no firewall and no record;
 *   zero-prefixed/REQ   (families that number their reports) the refused
 *                       request with a zero byte in front, report ID 0 to
 *                       the firewall, is refused too or reaches the device
 *                       as written, never as the refused report: usbhid
 *                       leaves a leading zero out.
 *
 * A family is one entry of the table below. Every allowed request is one a
 * public source sends, named in the comment above it (doc/devices.md has
 * the tables); refused ones follow the rule descriptions in policies/.
 */
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/hidraw.h>
#include <linux/input.h>

#include "harness.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define SUITE "policies"
#define MAX_REPORTS 12		/* report declarations per family */
#define MAX_REQUESTS 10		/* requests per list of a family */
#define REQ_PREFIX 16		/* bytes of a request the table spells out */
#define RDESC_MAX 256
#define OTHER_VENDOR 0x1234
#define OTHER_PRODUCT 0x5678
#define ATTACH_TIMEOUT_MS 30000	/* hotplug attach loads nothing, but TCG is slow */
#define AUDIT_TIMEOUT_MS 5000
#define OUTPUT_SETTLE_US 200000	/* output reports reach uhid after write() returns */

enum report_type { REPORT_INPUT, REPORT_OUTPUT, REPORT_FEATURE };

/* One report of the descriptor. id 0: the device does not number its
 * reports (then none of the family's reports may have an ID). size counts
 * the ID byte of numbered reports, as hidraw does. */
struct report_decl {
	enum report_type type;
	uint8_t id;
	uint8_t size;
};

enum request_kind {
	SET_FEATURE,	/* HIDIOCSFEATURE: hid_hw_raw_request SET_REPORT feature */
	GET_FEATURE,	/* HIDIOCGFEATURE: hid_hw_raw_request GET_REPORT feature */
	WRITE_OUTPUT,	/* write(): hid_hw_output_report */
	IOCTL_OUTPUT,	/* HIDIOCSOUTPUT: hid_hw_output_report too on uhid and on
			 * usbhid with an interrupt OUT endpoint, as both
			 * replicas have; SET_REPORT output only on transports
			 * without one */
};

struct request {
	const char *name;	/* NULL ends a list */
	enum request_kind kind;
	uint8_t len;		/* whole buffer, byte 0 is the report ID (0 when unnumbered) */
	uint8_t data[REQ_PREFIX]; /* its first bytes; the rest are zero */
	const char *rule;	/* refused, audited: the rule the audit record names */
	int err;		/* refused: the errno the caller gets */
};

struct family {
	const char *name;
	const char *product_name;
	uint16_t bus;
	uint16_t vendor, product;
	struct report_decl reports[MAX_REPORTS]; /* size 0 ends the list */
	struct request refused[MAX_REQUESTS];
	struct request audited[MAX_REQUESTS];
	struct request allowed[MAX_REQUESTS];
};

#define REQ(k, n, l, ...) .kind = (k), .name = (n), .len = (l), .data = { __VA_ARGS__ }
#define DENIED(r) .rule = (r), .err = EPERM

/* Byte 10 of the Switch's output report 0x01 is the subcommand; bytes 2-9
 * carry rumble data. */
#define SWITCH_SUBCMD(id) 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, (id)

static const struct family families[] = {
	{
		.name = "sony-dualsense",
		.product_name = "Sony Interactive Entertainment DualSense Wireless Controller",
		.bus = BUS_USB, .vendor = 0x054c, .product = 0x0ce6,
		.reports = {
			{ REPORT_INPUT, 0x01, 64 }, { REPORT_OUTPUT, 0x02, 48 },
			{ REPORT_FEATURE, 0x03, 48 }, { REPORT_FEATURE, 0x05, 41 },
			{ REPORT_FEATURE, 0x09, 20 }, { REPORT_FEATURE, 0x20, 64 },
			{ REPORT_FEATURE, 0x80, 64 }, { REPORT_FEATURE, 0x82, 64 },
			{ REPORT_FEATURE, 0xf4, 64 }, { REPORT_FEATURE, 0xf5, 4 },
		},
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-f4-00-update-start", 64, 0xf4, 0x00, 0x39),
			  DENIED("dualsense-deny-firmware-update") },
			{ REQ(SET_FEATURE, "set-feature-f4-01-write-image", 64, 0xf4, 0x01, 0x39),
			  DENIED("dualsense-deny-firmware-update") },
			{ REQ(SET_FEATURE, "set-feature-f4-02-verify", 64, 0xf4, 0x02),
			  DENIED("dualsense-deny-firmware-update") },
			{ REQ(SET_FEATURE, "set-feature-f4-03-finalize", 64, 0xf4, 0x03),
			  DENIED("dualsense-deny-firmware-update") },
			{ REQ(SET_FEATURE, "set-feature-80-0302-nvs-unlock", 64,
			      0x80, 0x03, 0x02, 0x65, 0x32, 0x40, 0x0c),
			  DENIED("dualsense-deny-nvs-unlock") },
			/* dualshock-tools ds5-controller.js calibrateSticksEnd */
			{ REQ(SET_FEATURE, "set-feature-82-0201-calibration-write", 64, 0x82, 0x02, 0x01, 0x01),
			  DENIED("dualsense-deny-calibration-write") },
		},
		.allowed = {
			/* hid-playstation dualsense_get_calibration_data, SDL_hidapi_ps5.c
			 * HIDAPI_DriverPS5_LoadCalibrationData */
			{ REQ(GET_FEATURE, "get-feature-05-calibration", 41, 0x05) },
			/* hid-playstation dualsense_get_mac_address, SDL_hidapi_ps5.c InitDevice */
			{ REQ(GET_FEATURE, "get-feature-09-pairing-info", 20, 0x09) },
			/* hid-playstation dualsense_get_firmware_info, SDL_hidapi_ps5.c InitDevice */
			{ REQ(GET_FEATURE, "get-feature-20-firmware-info", 64, 0x20) },
			/* dualsense-updater-rs protocol.rs: the update status, read back */
			{ REQ(GET_FEATURE, "get-feature-f5-update-status", 4, 0xf5) },
			/* SDL_hidapi_ps5.c InternalSendJoystickEffect: 48 bytes over USB */
			{ REQ(WRITE_OUTPUT, "write-output-02-sdl-effects", 48, 0x02, 0xff, 0xf7) },
			/* hid-playstation dualsense_send_output_report: 63 bytes over
			 * USB, valid_flag1 0x04 = lightbar */
			{ REQ(WRITE_OUTPUT, "write-output-02-hid-playstation-lightbar", 63, 0x02, 0x00, 0x04) },
			/* dualshock-tools ds5-controller.js nvsLock */
			{ REQ(SET_FEATURE, "set-feature-80-0301-nvs-lock", 64, 0x80, 0x03, 0x01) },
		},
	},
	{
		.name = "sony-dualshock4",
		.product_name = "Sony Interactive Entertainment Wireless Controller",
		.bus = BUS_USB, .vendor = 0x054c, .product = 0x09cc,
		.reports = {
			{ REPORT_INPUT, 0x01, 64 }, { REPORT_OUTPUT, 0x05, 32 },
			{ REPORT_FEATURE, 0x02, 37 }, { REPORT_FEATURE, 0x12, 16 },
			{ REPORT_FEATURE, 0x81, 7 }, { REPORT_FEATURE, 0xa3, 49 },
			{ REPORT_FEATURE, 0xa0, 64 }, { REPORT_FEATURE, 0x90, 64 },
		},
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-a0-0a02-nvs-unlock", 64,
			      0xa0, 0x0a, 0x02, 0x3e, 0x71, 0x7f, 0x89),
			  DENIED("dualshock4-deny-nvs-unlock") },
			{ REQ(SET_FEATURE, "set-feature-a0-0a02-nvs-unlock-other-key", 64,
			      0xa0, 0x0a, 0x02, 0x00, 0x00, 0x00, 0x00),
			  DENIED("dualshock4-deny-nvs-unlock") },
			/* dualshock-tools ds4-controller.js calibrateSticksEnd */
			{ REQ(SET_FEATURE, "set-feature-90-0201-calibration-write", 64, 0x90, 0x02, 0x01, 0x01),
			  DENIED("dualshock4-deny-calibration-write") },
		},
		.allowed = {
			/* hid-playstation dualshock4_get_calibration_data (USB),
			 * SDL_hidapi_ps4.c LoadOfficialCalibrationData */
			{ REQ(GET_FEATURE, "get-feature-02-calibration", 37, 0x02) },
			/* hid-playstation dualshock4_get_mac_address (USB), SDL_hidapi_ps4.c InitDevice */
			{ REQ(GET_FEATURE, "get-feature-12-pairing-info", 16, 0x12) },
			/* hid-sony sony_check_add (kernels before hid-playstation took the
			 * DualShock 4), dualshock-tools ds4-controller.js getInfo */
			{ REQ(GET_FEATURE, "get-feature-81-mac-address", 7, 0x81) },
			/* hid-playstation dualshock4_get_firmware_info */
			{ REQ(GET_FEATURE, "get-feature-a3-firmware-info", 49, 0xa3) },
			/* hid-playstation dualshock4_output_worker, SDL_hidapi_ps4.c effects */
			{ REQ(WRITE_OUTPUT, "write-output-05-rumble-and-leds", 32, 0x05, 0xff) },
			/* dualshock-tools ds4-controller.js nvsLock */
			{ REQ(SET_FEATURE, "set-feature-a0-0a01-nvs-lock", 64, 0xa0, 0x0a, 0x01, 0x00) },
		},
	},
	{
		.name = "nintendo-switch-pro",
		.product_name = "Pro Controller",
		.bus = BUS_BLUETOOTH, .vendor = 0x057e, .product = 0x2009,
		.reports = {
			{ REPORT_INPUT, 0x21, 49 }, { REPORT_INPUT, 0x30, 49 },
			{ REPORT_INPUT, 0x3f, 12 },
			{ REPORT_OUTPUT, 0x01, 49 }, { REPORT_OUTPUT, 0x03, 49 },
			{ REPORT_OUTPUT, 0x10, 49 }, { REPORT_OUTPUT, 0x80, 49 },
			{ REPORT_FEATURE, 0x70, 64 }, { REPORT_FEATURE, 0x73, 64 },
			{ REPORT_FEATURE, 0x74, 64 }, { REPORT_FEATURE, 0x75, 64 },
		},
		.refused = {
			{ REQ(WRITE_OUTPUT, "write-output-01-subcommand-11-spi-flash-write", 49,
			      SWITCH_SUBCMD(0x11), 0x10, 0x60),
			  DENIED("switch-deny-spi-flash-write") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-01-subcommand-11-spi-flash-write", 49,
			      SWITCH_SUBCMD(0x11), 0x10, 0x60),
			  DENIED("switch-deny-spi-flash-write") },
			{ REQ(WRITE_OUTPUT, "write-output-03-firmware-update-packet", 49, 0x03, 0x00),
			  DENIED("switch-deny-firmware-update-packet") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-03-firmware-update-packet", 49, 0x03, 0x00),
			  DENIED("switch-deny-firmware-update-packet") },
		},
		.audited = {
			{ REQ(SET_FEATURE, "set-feature-70-ota-firmware-upgrade", 64, 0x70),
			  .rule = "switch-audit-ota-firmware-upgrade" },
			{ REQ(SET_FEATURE, "set-feature-73-erase-memory-sector", 64, 0x73),
			  .rule = "switch-audit-erase-memory-sector" },
			{ REQ(SET_FEATURE, "set-feature-74-memory-write", 64, 0x74),
			  .rule = "switch-audit-memory-write" },
			{ REQ(SET_FEATURE, "set-feature-75-launch", 64, 0x75),
			  .rule = "switch-audit-launch" },
		},
		/* Subcommands hid-nintendo (joycon_request_spi_flash_read,
		 * joycon_set_report_mode, joycon_set_player_leds,
		 * joycon_enable_rumble) and SDL_hidapi_switch.c (ESwitchSubcommandIDs)
		 * send; rumble-only 0x10 and USB command 0x80 02 (JC_USB_CMD_HANDSHAKE)
		 * from both. */
		.allowed = {
			{ REQ(WRITE_OUTPUT, "write-output-01-subcommand-10-spi-flash-read", 49,
			      SWITCH_SUBCMD(0x10), 0x3d, 0x60) },
			{ REQ(WRITE_OUTPUT, "write-output-01-subcommand-03-report-mode", 49,
			      SWITCH_SUBCMD(0x03), 0x30) },
			{ REQ(WRITE_OUTPUT, "write-output-01-subcommand-30-player-lights", 49,
			      SWITCH_SUBCMD(0x30), 0x01) },
			{ REQ(WRITE_OUTPUT, "write-output-01-subcommand-48-vibration", 49,
			      SWITCH_SUBCMD(0x48), 0x01) },
			{ REQ(WRITE_OUTPUT, "write-output-10-rumble", 49, 0x10, 0x01) },
			{ REQ(WRITE_OUTPUT, "write-output-80-02-usb-handshake", 49, 0x80, 0x02) },
		},
	},
	{
		.name = "valve-steam-deck",
		.product_name = "Valve Software Steam Deck Controller",
		.bus = BUS_USB, .vendor = 0x28de, .product = 0x1205,
		.reports = { { REPORT_INPUT, 0, 64 }, { REPORT_FEATURE, 0, 64 } },
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-00-90-reboot-to-isp", 64, 0x00, 0x90, 0x04),
			  DENIED("valve-deck-deny-reboot-to-isp") },
			{ REQ(SET_FEATURE, "set-feature-00-91-update-start", 64, 0x00, 0x91),
			  DENIED("valve-deck-deny-update-start") },
			{ REQ(SET_FEATURE, "set-feature-00-92-update-data", 64, 0x00, 0x92, 0x3c),
			  DENIED("valve-deck-deny-update-data") },
			{ REQ(SET_FEATURE, "set-feature-00-93-update-complete", 64, 0x00, 0x93),
			  DENIED("valve-deck-deny-update-complete") },
			{ REQ(SET_FEATURE, "set-feature-00-95-update-reboot", 64, 0x00, 0x95),
			  DENIED("valve-deck-deny-update-reboot") },
		},
		.allowed = {
			/* SDL_hidapi_steamdeck.c FeedDeckLizardWatchdog: one setting,
			 * right trackpad mode (8) = none (7) */
			{ REQ(SET_FEATURE, "set-feature-00-87-set-settings", 64, 0x00, 0x87, 0x03, 0x08, 0x07) },
			/* hid-steam steam_set_lizard_mode, SDL_hidapi_steamdeck.c DisableDeckLizardMode */
			{ REQ(SET_FEATURE, "set-feature-00-81-clear-mappings", 64, 0x00, 0x81) },
			/* hid-steam steam_set_lizard_mode */
			{ REQ(SET_FEATURE, "set-feature-00-8e-load-default-settings", 64, 0x00, 0x8e) },
			/* hid-steam steam_haptic_pulse: 0x8f, length 8 */
			{ REQ(SET_FEATURE, "set-feature-00-8f-haptic-pulse", 64, 0x00, 0x8f, 0x08) },
			/* hid-steam steam_get_serial */
			{ REQ(SET_FEATURE, "set-feature-00-ae-get-string-attribute", 64, 0x00, 0xae, 0x15, 0x01) },
			/* hid-steam steam_haptic_rumble: 0xeb, length 9 */
			{ REQ(SET_FEATURE, "set-feature-00-eb-rumble", 64, 0x00, 0xeb, 0x09) },
			/* hid-steam steam_recv_report */
			{ REQ(GET_FEATURE, "get-feature-00-reply", 64, 0x00) },
		},
	},
	{
		.name = "valve-steam-controller",
		.product_name = "Valve Software Wireless Steam Controller",
		.bus = BUS_USB, .vendor = 0x28de, .product = 0x1142,
		.reports = { { REPORT_INPUT, 0, 64 }, { REPORT_FEATURE, 0, 64 } },
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-00-86-factory-reset", 64, 0x00, 0x86),
			  DENIED("valve-sc-deny-factory-reset") },
			{ REQ(SET_FEATURE, "set-feature-00-a9-set-serial-number", 64, 0x00, 0xa9, 0x0a),
			  DENIED("valve-sc-deny-set-serial-number") },
			{ REQ(SET_FEATURE, "set-feature-00-af-radio-erase-records", 64, 0x00, 0xaf),
			  DENIED("valve-sc-deny-radio-erase-records") },
			{ REQ(SET_FEATURE, "set-feature-00-b0-radio-write-record", 64, 0x00, 0xb0),
			  DENIED("valve-sc-deny-radio-write-record") },
			{ REQ(SET_FEATURE, "set-feature-00-b7-audio-update-start", 64, 0x00, 0xb7),
			  DENIED("valve-sc-deny-audio-update-start") },
			{ REQ(SET_FEATURE, "set-feature-00-b8-audio-update-data", 64, 0x00, 0xb8),
			  DENIED("valve-sc-deny-audio-update-data") },
			{ REQ(SET_FEATURE, "set-feature-00-b9-audio-update-complete", 64, 0x00, 0xb9),
			  DENIED("valve-sc-deny-audio-update-complete") },
		},
		.allowed = {
			/* SDL_hidapi_steam.c ResetSteamController: 4 settings, wireless
			 * packet version (49) = 2, trackpad modes (7, 8) = none (7),
			 * smooth absolute mouse (24) = 0 */
			{ REQ(SET_FEATURE, "set-feature-00-87-set-settings", 64, 0x00, 0x87, 0x0c,
			      0x31, 0x02, 0x00, 0x07, 0x07, 0x00, 0x08, 0x07, 0x00, 0x18, 0x00, 0x00) },
			/* SDL_hidapi_steam.c ResetSteamController */
			{ REQ(SET_FEATURE, "set-feature-00-83-get-attributes", 64, 0x00, 0x83) },
			/* hid-steam steam_set_lizard_mode, SDL_hidapi_steam.c ResetSteamController */
			{ REQ(SET_FEATURE, "set-feature-00-81-clear-mappings", 64, 0x00, 0x81) },
			/* SDL_hidapi_steam.c SetPairingState(false) */
			{ REQ(SET_FEATURE, "set-feature-00-ad-enable-pairing", 64, 0x00, 0xad, 0x02) },
			/* hid-steam steam_request_conn_status (wireless dongle) */
			{ REQ(SET_FEATURE, "set-feature-00-b4-get-wireless-state", 64, 0x00, 0xb4) },
			/* SDL_hidapi_steam.c CommitPairing */
			{ REQ(SET_FEATURE, "set-feature-00-b3-commit-device", 64, 0x00, 0xb3) },
			/* hid-steam steam_get_serial */
			{ REQ(SET_FEATURE, "set-feature-00-ae-get-string-attribute", 64, 0x00, 0xae, 0x15, 0x01) },
			{ REQ(GET_FEATURE, "get-feature-00-reply", 64, 0x00) },
		},
	},
	{
		.name = "logitech-unifying",
		.product_name = "Logitech USB Receiver",
		.bus = BUS_USB, .vendor = 0x046d, .product = 0xc52b,
		.reports = {
			{ REPORT_INPUT, 0x10, 7 }, { REPORT_INPUT, 0x11, 20 },
			{ REPORT_INPUT, 0x20, 15 },
			{ REPORT_OUTPUT, 0x10, 7 }, { REPORT_OUTPUT, 0x11, 20 },
			{ REPORT_OUTPUT, 0x20, 15 },
		},
		.refused = {
			{ REQ(WRITE_OUTPUT, "write-output-10-ff80f0-icp-enter-dfu", 7,
			      0x10, 0xff, 0x80, 0xf0, 0x49, 0x43, 0x50),
			  DENIED("logitech-unifying-deny-dfu-mode") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-10-ff80f0-icp-enter-dfu", 7,
			      0x10, 0xff, 0x80, 0xf0, 0x49, 0x43, 0x50),
			  DENIED("logitech-unifying-deny-dfu-mode") },
		},
		.allowed = {
			/* hid-logitech-dj logi_dj_recv_switch_to_dj_mode: HID++
			 * notifications, a write of register 0x00 */
			{ REQ(IOCTL_OUTPUT, "ioctl-output-10-ff8000-notifications", 7,
			      0x10, 0xff, 0x80, 0x00, 0x00, 0x09, 0x00) },
			/* hid-logitech-dj logi_dj_recv_switch_to_dj_mode (timeout 0 at probe) */
			{ REQ(IOCTL_OUTPUT, "ioctl-output-20-ff80-dj-mode", 15, 0x20, 0xff, 0x80, 0x3f, 0x00) },
			/* hid-logitech-dj logi_dj_recv_query_paired_devices */
			{ REQ(IOCTL_OUTPUT, "ioctl-output-20-ff81-paired-devices", 15, 0x20, 0xff, 0x81) },
			/* fwupd fu-logitech-hidpp-runtime-unifying.c setup: register 0xF1 */
			{ REQ(WRITE_OUTPUT, "write-output-10-ff81f1-read-firmware-version", 7,
			      0x10, 0xff, 0x81, 0xf1, 0x01) },
			/* hid-logitech-hidpp hidpp_root_get_protocol_version to paired
			 * device 1: root feature, function 1 | software ID 1, ping 0x5a */
			{ REQ(WRITE_OUTPUT, "write-output-10-01-get-protocol-version", 7,
			      0x10, 0x01, 0x00, 0x11, 0x00, 0x00, 0x5a) },
		},
	},
	{
		.name = "logitech-bolt",
		.product_name = "Logitech USB Receiver",
		.bus = BUS_USB, .vendor = 0x046d, .product = 0xc548,
		.reports = {
			{ REPORT_INPUT, 0x10, 7 }, { REPORT_INPUT, 0x11, 20 },
			{ REPORT_INPUT, 0x20, 15 },
			{ REPORT_OUTPUT, 0x10, 7 }, { REPORT_OUTPUT, 0x11, 20 },
			{ REPORT_OUTPUT, 0x20, 15 },
		},
		.refused = {
			{ REQ(WRITE_OUTPUT, "write-output-11-ff82f501-pre-enter-dfu", 20,
			      0x11, 0xff, 0x82, 0xf5, 0x01, 0, 0, 0, 0x50, 0x52, 0x45),
			  DENIED("logitech-bolt-deny-dfu-control") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-11-ff82f501-pre-enter-dfu", 20,
			      0x11, 0xff, 0x82, 0xf5, 0x01, 0, 0, 0, 0x50, 0x52, 0x45),
			  DENIED("logitech-bolt-deny-dfu-control") },
		},
		.allowed = {
			/* hid-logitech-dj logi_dj_recv_query_hidpp_devices (the Bolt
			 * receiver is not a DJ receiver) */
			{ REQ(IOCTL_OUTPUT, "ioctl-output-10-ff8002-device-arrival", 7,
			      0x10, 0xff, 0x80, 0x02, 0x02) },
			/* hid-logitech-dj logi_dj_recv_switch_to_dj_mode: HID++ notifications */
			{ REQ(IOCTL_OUTPUT, "ioctl-output-10-ff8000-notifications", 7,
			      0x10, 0xff, 0x80, 0x00, 0x00, 0x09, 0x00) },
			/* fwupd fu-logitech-hidpp-runtime-bolt.c poll_peripherals:
			 * pairing information (0x50 | slot 1), a short request */
			{ REQ(WRITE_OUTPUT, "write-output-10-ff83b5-read-pairing-info", 7,
			      0x10, 0xff, 0x83, 0xb5, 0x51) },
			/* fwupd fu-logitech-hidpp-runtime-bolt.c setup: receiver firmware
			 * information (long register 0xF4), entity 0 */
			{ REQ(WRITE_OUTPUT, "write-output-10-ff83f4-read-firmware-info", 7,
			      0x10, 0xff, 0x83, 0xf4, 0x00) },
			/* hid-logitech-hidpp hidpp_root_get_protocol_version to paired device 2 */
			{ REQ(WRITE_OUTPUT, "write-output-10-02-get-protocol-version", 7,
			      0x10, 0x02, 0x00, 0x11, 0x00, 0x00, 0x5a) },
		},
	},
	{
		.name = "nordic-nrf-desktop",
		.product_name = "Nordic Semiconductor nRF52 Desktop Mouse",
		.bus = BUS_USB, .vendor = 0x1915, .product = 0x52de,
		.reports = {
			{ REPORT_INPUT, 0x01, 9 }, { REPORT_FEATURE, 0x06, 30 },
			{ REPORT_OUTPUT, 0x07, 30 },
		},
		.refused = {
			/* report ID, recipient, event (module and option), status SET */
			{ REQ(SET_FEATURE, "set-feature-06-status-06-config-set", 30,
			      0x06, 0x00, 0x41, 0x06, 0x04, 0x00, 0x10, 0x00, 0x00),
			  DENIED("nordic-deny-config-set") },
			{ REQ(SET_FEATURE, "set-feature-06-status-06-config-set-other-module", 30,
			      0x06, 0x01, 0x12, 0x06, 0x02, 0x20, 0x03),
			  DENIED("nordic-deny-config-set") },
			/* the same frame in output report 0x07 (sdk-nrf nrf_desktop
			 * REPORT_ID_USER_CONFIG_OUT) */
			{ REQ(WRITE_OUTPUT, "write-output-07-status-06-config-set", 30,
			      0x07, 0x00, 0x41, 0x06, 0x04, 0x00, 0x10, 0x00, 0x00),
			  DENIED("nordic-deny-config-set-output") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-07-status-06-config-set", 30,
			      0x07, 0x00, 0x41, 0x06, 0x04, 0x00, 0x10, 0x00, 0x00),
			  DENIED("nordic-deny-config-set-output") },
		},
		.allowed = {
			/* fwupd fu-nordic-hid-cfg-channel.c: CONFIG_STATUS_FETCH of an option */
			{ REQ(SET_FEATURE, "set-feature-06-status-07-config-fetch", 30,
			      0x06, 0x00, 0x41, 0x07) },
			/* fwupd fu-nordic-hid-cfg-channel.c: CONFIG_STATUS_GET_BOARD_NAME */
			{ REQ(SET_FEATURE, "set-feature-06-status-03-get-board-name", 30,
			      0x06, 0x00, 0x00, 0x03) },
			/* fwupd fu-nordic-hid-cfg-channel.c receive */
			{ REQ(GET_FEATURE, "get-feature-06-config-reply", 30, 0x06) },
			/* a fetch through the output report, as the nrf_desktop dongle
			 * forwards it (sdk-nrf hid_forward.c) */
			{ REQ(WRITE_OUTPUT, "write-output-07-status-07-config-fetch", 30,
			      0x07, 0x00, 0x41, 0x07) },
		},
	},
	{
		.name = "pixart-rf",
		.product_name = "PixArt Wireless Mouse",
		.bus = BUS_BLUETOOTH, .vendor = 0x093a, .product = 0x2800,
		.reports = {
			{ REPORT_INPUT, 0x01, 8 }, { REPORT_OUTPUT, 0x06, 32 },
			{ REPORT_FEATURE, 0x07, 32 },
		},
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-07-10-ota-init", 32, 0x07, 0x10),
			  DENIED("pixart-deny-ota-init") },
			{ REQ(SET_FEATURE, "set-feature-07-17-fw-write", 32, 0x07, 0x17),
			  DENIED("pixart-deny-fw-write") },
			{ REQ(SET_FEATURE, "set-feature-07-18-fw-upgrade", 32, 0x07, 0x18),
			  DENIED("pixart-deny-fw-upgrade") },
			{ REQ(SET_FEATURE, "set-feature-07-22-mcu-reset", 32, 0x07, 0x22),
			  DENIED("pixart-deny-mcu-reset") },
			{ REQ(SET_FEATURE, "set-feature-07-25-object-create", 32, 0x07, 0x25),
			  DENIED("pixart-deny-object-create") },
			{ REQ(SET_FEATURE, "set-feature-07-27-ota-init-new", 32, 0x07, 0x27),
			  DENIED("pixart-deny-ota-init-new") },
			/* the first protocol: commands in output report 0x06 (fwupd
			 * fu-pxi-device.c fw_ota_init, fw_upgrade) */
			{ REQ(WRITE_OUTPUT, "write-output-06-10-ota-init", 32, 0x06, 0x10),
			  DENIED("pixart-deny-output-ota-init") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-06-18-fw-upgrade", 32, 0x06, 0x18),
			  DENIED("pixart-deny-output-fw-upgrade") },
		},
		.allowed = {
			/* fwupd fu-pxi-device.c fw_get_info (the first protocol) */
			{ REQ(WRITE_OUTPUT, "write-output-06-23-fw-get-info", 32, 0x06, 0x23) },
			/* fwupd fu-pxi-ble-device.c: the reply to every command */
			{ REQ(GET_FEATURE, "get-feature-07-ota-status", 32, 0x07) },
			/* fwupd fu-pxi-ble-device.c fw_get_info (FU_PXI_DEVICE_CMD_FW_GET_INFO) */
			{ REQ(SET_FEATURE, "set-feature-07-23-fw-get-info", 32, 0x07, 0x23) },
		},
	},
	{
		.name = "primax",
		.product_name = "Primax Wireless Mouse",
		.bus = BUS_USB, .vendor = 0x0461, .product = 0x4d81,
		.reports = {
			{ REPORT_INPUT, 0x01, 8 }, { REPORT_FEATURE, 0x03, 32 },
			{ REPORT_FEATURE, 0x07, 32 },
		},
		/* Receivers: feature 0x03 = ID, checksum, RF command 0x65, length,
		 * serial number, target, OTA opcode (fwupd fu-pxi-common.c
		 * fu_pxi_composite_receiver_cmd) */
		.refused = {
			{ REQ(SET_FEATURE, "set-feature-07-27-ota-init-new", 32, 0x07, 0x27),
			  DENIED("pixart-deny-ota-init-new") },
			{ REQ(SET_FEATURE, "set-feature-07-17-fw-write", 32, 0x07, 0x17),
			  DENIED("pixart-deny-fw-write") },
			{ REQ(SET_FEATURE, "set-feature-03-65-27-receiver-ota-init-new", 32,
			      0x03, 0x9c, 0x65, 0x12, 0x01, 0x00, 0x27, 0x02, 0x06, 0x27),
			  DENIED("pixart-deny-receiver-ota-init-new") },
			{ REQ(SET_FEATURE, "set-feature-03-65-40-receiver-payload", 32,
			      0x03, 0x00, 0x65, 0x06, 0x05, 0x00, 0x40, 0x06, 0x04),
			  DENIED("pixart-deny-receiver-payload") },
			{ REQ(SET_FEATURE, "set-feature-03-65-22-receiver-mcu-reset", 32,
			      0x03, 0x00, 0x65, 0x03, 0x09, 0x00, 0x22, 0x0a, 0x01, 0x22),
			  DENIED("pixart-deny-receiver-mcu-reset") },
		},
		.allowed = {
			/* fwupd fu-pxi-receiver-device.c get_cmd_response */
			{ REQ(GET_FEATURE, "get-feature-03-receiver-reply", 32, 0x03) },
			/* fwupd fu-pxi-ble-device.c: the reply to every command */
			{ REQ(GET_FEATURE, "get-feature-07-ota-status", 32, 0x07) },
		},
	},
};

static struct policyd_run daemon_run;
static const struct family *current;
static enum test_dev_backend backend;
static const char *suite;	/* SUITE, then SUITE/usb */
static unsigned int n_failed_checks;

/* Vendor-defined collection holding the family's reports, 8-bit fields. */
static size_t build_rdesc(const struct family *f, uint8_t *out, size_t cap)
{
	static const uint8_t head[] = {
		0x06, 0x00, 0xff,	/* Usage Page (Vendor Defined 0xFF00) */
		0x09, 0x01,		/* Usage (0x01) */
		0xa1, 0x01,		/* Collection (Application) */
		0x15, 0x00,		/*   Logical Minimum (0) */
		0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
		0x75, 0x08,		/*   Report Size (8) */
	};
	static const uint8_t main_item[] = {
		[REPORT_INPUT] = 0x81, [REPORT_OUTPUT] = 0x91, [REPORT_FEATURE] = 0xb1,
	};
	size_t n = sizeof(head);

	CHECK(cap >= sizeof(head) + 1, "descriptor buffer too small");
	memcpy(out, head, sizeof(head));
	for (size_t i = 0; i < MAX_REPORTS && f->reports[i].size; i++) {
		const struct report_decl *r = &f->reports[i];
		unsigned int count = r->size - (r->id ? 1 : 0);

		CHECK(count >= 1 && count <= 255, "%s: report %#x: size %u", f->name, r->id, r->size);
		CHECK(n + 8 + 1 <= cap, "%s: descriptor longer than %zu bytes", f->name, cap);
		if (r->id) {
			out[n++] = 0x85;		/* Report ID */
			out[n++] = r->id;
		}
		out[n++] = 0x09;			/* Usage: one per report */
		out[n++] = (uint8_t)(i + 2);
		out[n++] = 0x95;			/* Report Count */
		out[n++] = (uint8_t)count;
		out[n++] = main_item[r->type];
		out[n++] = 0x02;			/* Data,Var,Abs */
	}
	out[n++] = 0xc0;				/* End Collection */
	return n;
}

static void create_device(struct uhid_dev *dev, const struct family *f, bool other_vendor)
{
	uint8_t rdesc[RDESC_MAX];
	const struct uhid_dev_config cfg = {
		.backend = backend,
		.name = other_vendor ? "hid-policy generic test device" : f->product_name,
		.bus = f->bus,
		.vendor = other_vendor ? OTHER_VENDOR : f->vendor,
		.product = other_vendor ? OTHER_PRODUCT : f->product,
		.rdesc = rdesc,
		.rdesc_size = build_rdesc(f, rdesc, sizeof(rdesc)),
	};
	int r = uhid_dev_create(dev, &cfg);

	CHECK(r == 0, "%s: cannot create the %s device: %s", f->name,
	      other_vendor ? "other vendor's" : "replica", strerror(-r));
}

static void check_line(bool ok, const char *what, const char *req)
{
	printf("%s: %s/%s/%s/%s\n", ok ? "PASS" : "FAIL", suite, current->name, what, req);
	if (!ok)
		n_failed_checks++;
}

static enum uhid_dev_request recorded_as(enum request_kind kind)
{
	switch (kind) {
	case GET_FEATURE:
		return UHID_DEV_GET_REPORT;
	case WRITE_OUTPUT:
	case IOCTL_OUTPUT:
		return UHID_DEV_OUTPUT;
	case SET_FEATURE:
		break;
	}
	return UHID_DEV_SET_REPORT;
}

static unsigned long everything_received(struct uhid_dev *dev)
{
	return uhid_dev_count(dev, UHID_DEV_GET_REPORT, -1) +
	       uhid_dev_count(dev, UHID_DEV_SET_REPORT, -1) +
	       uhid_dev_count(dev, UHID_DEV_OUTPUT, -1);
}

/* Send the request through hidraw, as a user program would; 0 or the errno.
 * buf receives the whole buffer sent. */
static int send_request(int fd, const struct request *r, uint8_t *buf)
{
	ssize_t n;
	int ret;

	memset(buf, 0, r->len);
	memcpy(buf, r->data, r->len < REQ_PREFIX ? r->len : REQ_PREFIX);
	switch (r->kind) {
	case SET_FEATURE:
		ret = ioctl(fd, HIDIOCSFEATURE(r->len), buf);
		break;
	case GET_FEATURE:
		ret = ioctl(fd, HIDIOCGFEATURE(r->len), buf);
		break;
	case IOCTL_OUTPUT:
		ret = ioctl(fd, HIDIOCSOUTPUT(r->len), buf);
		break;
	case WRITE_OUTPUT:
		n = write(fd, buf, r->len);
		if (n >= 0 && n != r->len) {
			test_log("write() of %u bytes wrote %zd", r->len, n);
			return EIO;
		}
		ret = n < 0 ? -1 : 0;
		break;
	default:
		return EINVAL;
	}
	return ret < 0 ? errno : 0;
}

/* Audit records naming this rule, device and enforcement. */
static size_t audit_records(const char *rule, int hid_id, bool enforced, size_t want)
{
	char rule_f[96], hid_f[48];
	const char *filters[] = { "action=deny", rule_f, hid_f,
				  enforced ? "enforced=true" : "enforced=false", NULL };

	snprintf(rule_f, sizeof(rule_f), "rule.name=%s", rule);
	snprintf(hid_f, sizeof(hid_f), "device.hid_id=%d", hid_id);
	return policyd_audit_count(&daemon_run, filters, want, want ? AUDIT_TIMEOUT_MS : 0);
}

/* Did the device get this request, byte for byte? Waits for it. */
static bool reached_device(struct uhid_dev *dev, const struct request *r,
			   const uint8_t *buf, unsigned long before)
{
	enum uhid_dev_request kind = recorded_as(r->kind);
	struct uhid_dev_record rec;

	if (uhid_dev_wait_count(dev, kind, r->data[0], before + 1, AUDIT_TIMEOUT_MS) < 0) {
		test_log("the device did not receive it");
		return false;
	}
	if (kind == UHID_DEV_GET_REPORT)
		return true;	/* a GET_REPORT carries no data to the device */
	if (!uhid_dev_last(dev, kind, &rec) || rec.size != r->len || memcmp(rec.data, buf, r->len)) {
		test_log("the device received %u bytes, not the %u sent", rec.size, r->len);
		return false;
	}
	return true;
}

static void check_refused(struct uhid_dev *dev, int fd, const struct request *r)
{
	uint8_t buf[UHID_DEV_REPORT_MAX];
	unsigned long before = everything_received(dev);
	size_t logged = audit_records(r->rule, dev->hid_id, true, 0);
	int err = send_request(fd, r, buf);
	bool ok = true;

	if (recorded_as(r->kind) == UHID_DEV_OUTPUT)
		usleep(OUTPUT_SETTLE_US);
	if (err != r->err) {
		test_log("errno %d (%s), expected %d (%s)", err, strerror(err), r->err, strerror(r->err));
		ok = false;
	}
	if (everything_received(dev) != before) {
		test_log("the device received %lu request(s)", everything_received(dev) - before);
		ok = false;
	}
	if (audit_records(r->rule, dev->hid_id, true, logged + 1) != logged + 1) {
		test_log("no enforced denial by rule %s in the audit log", r->rule);
		ok = false;
	}
	check_line(ok, "refused", r->name);
}

static void check_audited(struct uhid_dev *dev, int fd, const struct request *r)
{
	uint8_t buf[UHID_DEV_REPORT_MAX];
	unsigned long before = uhid_dev_count(dev, recorded_as(r->kind), r->data[0]);
	size_t logged = audit_records(r->rule, dev->hid_id, false, 0);
	int err = send_request(fd, r, buf);
	bool ok = true;

	if (err) {
		test_log("errno %d (%s), expected success", err, strerror(err));
		ok = false;
	}
	ok = reached_device(dev, r, buf, before) && ok;
	if (audit_records(r->rule, dev->hid_id, false, logged + 1) != logged + 1) {
		test_log("no unenforced denial by rule %s in the audit log", r->rule);
		ok = false;
	}
	check_line(ok, "audited", r->name);
}

static void check_allowed(struct uhid_dev *dev, int fd, const struct request *r)
{
	uint8_t buf[UHID_DEV_REPORT_MAX], reply[UHID_DEV_REPORT_MAX] = { r->data[0], 0x5a };
	unsigned long before = uhid_dev_count(dev, recorded_as(r->kind), r->data[0]);
	int err;
	bool ok = true;

	if (r->kind == GET_FEATURE)
		uhid_dev_set_get_reply(dev, r->data[0], reply, r->len, 0);
	err = send_request(fd, r, buf);
	if (err) {
		test_log("errno %d (%s), expected success", err, strerror(err));
		ok = false;
	}
	ok = reached_device(dev, r, buf, before) && ok;
	if (r->kind == GET_FEATURE && !err && memcmp(buf, reply, r->len)) {
		test_log("the caller did not get the device's reply");
		ok = false;
	}
	check_line(ok, "allowed", r->name);
}

/* See zero-prefixed/REQ at the top. */
static void check_zero_prefixed(struct uhid_dev *dev, int fd, const struct request *r)
{
	enum uhid_dev_request kind = recorded_as(r->kind);
	uint8_t buf[UHID_DEV_REPORT_MAX];
	unsigned long all = everything_received(dev);
	unsigned long as_zero = uhid_dev_count(dev, kind, 0);
	unsigned long as_refused = uhid_dev_count(dev, kind, r->data[0]);
	struct request z = *r;
	bool ok = true;
	int err;

	CHECK(!r->data[REQ_PREFIX - 1], "%s: no room for the zero byte", r->name);
	z.len = r->len + 1;
	z.data[0] = 0;
	memcpy(z.data + 1, r->data, REQ_PREFIX - 1);
	err = send_request(fd, &z, buf);
	if (kind == UHID_DEV_OUTPUT)
		usleep(OUTPUT_SETTLE_US);
	if (uhid_dev_count(dev, kind, r->data[0]) != as_refused) {
		test_log("the device received it as report %#x", r->data[0]);
		ok = false;
	} else if (err == r->err) {
		if (everything_received(dev) != all) {
			test_log("refused, yet the device received %lu request(s)",
				 everything_received(dev) - all);
			ok = false;
		}
	} else if (err) {
		test_log("errno %d (%s), expected %d (%s) or success", err, strerror(err), r->err,
			 strerror(r->err));
		ok = false;
	} else if (!reached_device(dev, &z, buf, as_zero)) {
		struct uhid_dev_record rec;

		if (uhid_dev_last(dev, kind, &rec) && rec.size)
			test_log("it arrived as report ID %#x, its data starting with %#x "
				 "(the refused report is %#x)", rec.rnum, rec.data[0], r->data[0]);
		ok = false;
	}
	check_line(ok, "zero-prefixed", r->name);
}

/* A request the family's rules refuse or audit, sent to a device of
 * another vendor with the same reports: nothing may stand in its way. */
static void check_other_vendor(struct uhid_dev *dev, int fd, const struct request *r)
{
	uint8_t buf[UHID_DEV_REPORT_MAX];
	unsigned long before = uhid_dev_count(dev, recorded_as(r->kind), r->data[0]);
	int err = send_request(fd, r, buf);
	bool ok = true;

	if (err) {
		test_log("errno %d (%s), expected success", err, strerror(err));
		ok = false;
	}
	ok = reached_device(dev, r, buf, before) && ok;
	check_line(ok, "other-vendor", r->name);
}

static void test_family(void)
{
	const struct family *f = current;
	const char *other_filters[] = { NULL, NULL };
	struct uhid_dev dev, other;
	char other_hid[48];
	int fd, other_fd;

	/* The other vendor's device first: once the replica is attached, the
	 * daemon has handled the earlier device's uevent too. */
	create_device(&other, f, true);
	create_device(&dev, f, false);
	check_line(policyd_said(&daemon_run, dev.sysname, ATTACH_TIMEOUT_MS) &&
		   firewall_instance_count(dev.hid_id) == 1, "setup", "replica-is-protected");
	check_line(firewall_instance_count(other.hid_id) == 0, "setup", "other-vendor-is-not-attached");
	CHECK(n_failed_checks == 0, "%s: the replicas are not set up as the checks need", f->name);

	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	other_fd = uhid_dev_open_hidraw(&other, 0);
	CHECK_OK(other_fd);

	for (size_t i = 0; i < MAX_REQUESTS && f->refused[i].name; i++)
		check_refused(&dev, fd, &f->refused[i]);
	for (size_t i = 0; i < MAX_REQUESTS && f->audited[i].name; i++)
		check_audited(&dev, fd, &f->audited[i]);
	for (size_t i = 0; i < MAX_REQUESTS && f->allowed[i].name; i++)
		check_allowed(&dev, fd, &f->allowed[i]);
	for (size_t i = 0; f->reports[0].id && i < MAX_REQUESTS && f->refused[i].name; i++)
		check_zero_prefixed(&dev, fd, &f->refused[i]);
	for (size_t i = 0; i < MAX_REQUESTS && f->refused[i].name; i++)
		check_other_vendor(&other, other_fd, &f->refused[i]);
	for (size_t i = 0; i < MAX_REQUESTS && f->audited[i].name; i++)
		check_other_vendor(&other, other_fd, &f->audited[i]);

	snprintf(other_hid, sizeof(other_hid), "device.hid_id=%d", other.hid_id);
	other_filters[0] = other_hid;
	check_line(policyd_audit_count(&daemon_run, other_filters, 0, 0) == 0,
		   "other-vendor", "no-audit-record");

	close(fd);
	close(other_fd);
	uhid_dev_destroy(&dev);
	uhid_dev_destroy(&other);
	CHECK(n_failed_checks == 0, "%s: %u check(s) failed", f->name, n_failed_checks);
}

static bool start_daemon(void)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	char policies[512];
	const char *args[] = { "--config-dir", policies, NULL };
	int r;

	snprintf(policies, sizeof(policies), "%s/policies", src);
	r = policyd_prepare(&daemon_run);
	if (r == 0)
		r = policyd_start(&daemon_run, args);
	printf("%s: %s/daemon-starts-with-the-shipped-policies\n", r == 0 ? "PASS" : "FAIL", SUITE);
	if (r < 0)
		printf("    hid-policyd --config-dir %s: %s\n", policies, strerror(-r));
	return r == 0;
}

int main(int argc, char **argv)
{
	static const struct { enum test_dev_backend backend; const char *suite; } runs[] = {
		{ TEST_DEV_UHID, SUITE },
		{ TEST_DEV_USB, SUITE "/usb" },
	};
	bool list = argc > 1 && !strcmp(argv[1], "--list");
	int failed = 0, r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!list) {
		r = test_dev_generic_driver_only(true);
		printf("%s: %s/replicas-bind-to-hid-generic\n", r == 0 ? "PASS" : "FAIL", SUITE);
		if (r < 0)
			printf("    hid.ignore_special_drivers: %s\n", strerror(-r));
		if (r < 0 || !start_daemon())
			return 1;
	}
	for (size_t b = 0; b < ARRAY_SIZE(runs); b++) {
		backend = runs[b].backend;
		suite = runs[b].suite;
		for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
			const struct test_case t = { families[i].name, test_family, 180 };

			current = &families[i];
			failed |= test_main(argc, argv, suite, &t, 1);
		}
	}
	if (!list) {
		test_dev_generic_driver_only(false);
		policyd_stop(&daemon_run, false);
		if (policyd_cleanup(&daemon_run) < 0) {
			printf("FAIL: %s/cleanup-detaches-every-firewall\n", SUITE);
			failed = 1;
		}
	}
	return failed ? 1 : 0;
}
