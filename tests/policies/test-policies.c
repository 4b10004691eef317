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
 *   - a device of another vendor (1234:5678) with the same descriptor;
 *   - where the rule set matches a collection of the descriptor besides
 *     the IDs (the handhelds: 1A86 is a generic chip vendor's ID), a
 *     lookalike: the family's IDs, another collection (then a second
 *     replica beside it: the USB backend has two controllers).
 *
 * Senders: this process (in the cgroup2 root: no unit), and children it
 * moves into two cgroups it makes once the daemon runs, as systemd does
 * when a unit starts (the guest runs no systemd): system.slice/
 * fwupd.service, the unit fwupd's rules name, and x.slice/fwupd.service,
 * a cgroup of the same name elsewhere. The daemon must see the unit start
 * (fwupd-service-cgroup-is-followed) before any family runs.
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
 *                       leaves a leading zero out;
 *   fwupd/REQ           (requests of a fwupd plugin the rules refuse to
 *                       everyone but fwupd.service) sent from a process in
 *                       system.slice/fwupd.service, it reaches the device
 *                       byte for byte;
 *   not-fwupd/REQ       the same from this process, and
 *   impostor/REQ        from a process in x.slice/fwupd.service, is refused
 *                       as refused/REQ is;
 *   lookalike/REQ       every refused, audited and fwupd request passes on
 *                       the lookalike, which has no firewall and no record;
 *   ids-VVVV-PPPP/REQ   (the other IDs the rule set names for the family)
 *                       a replica with those IDs is protected and refuses
 *                       every refused request as refused/REQ.
 *
 * A family is one entry of the table below. Every allowed request is one a
 * public source sends, named in the comment above it (doc/devices.md has
 * the tables); refused ones follow the rule descriptions in policies/, and
 * are what the updaters send (tests/unit/test-client-replay.c has the
 * rows, with their sources). The HID++ 2.0 DFU feature's data and RDFU
 * are left out: the rules cannot name them yet (their feature index is
 * the device's own; the replay's known gaps).
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/hidraw.h>
#include <linux/input.h>

#include "harness.h"
#include "hidpp_replica.h"
#include "nrf_replica.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define SUITE "policies"
#define MAX_REPORTS 12		/* report declarations per family */
#define MAX_REQUESTS 10		/* requests per list of a family */
#define MAX_MORE_IDS 8		/* other IDs of a family */
#define REQ_PREFIX 16		/* bytes of a request the table spells out */
#define RDESC_MAX 256
#define OTHER_VENDOR 0x1234
#define OTHER_PRODUCT 0x5678
#define ATTACH_TIMEOUT_MS 30000	/* hotplug attach loads nothing, but TCG is slow */
#define AUDIT_TIMEOUT_MS 5000
#define OUTPUT_SETTLE_US 200000	/* output reports reach uhid after write() returns */
#define UNIT_TIMEOUT_MS 10000	/* the daemon sees a unit's cgroup made */
/* fwupd.service's cgroup as systemd makes it, and one of the same name
 * elsewhere, below the cgroup2 root scripts/vm-init mounts. */
#define CGROUP_ROOT "/sys/fs/cgroup"
#define FWUPD_CGROUP "system.slice/fwupd.service"
#define IMPOSTOR_CGROUP "x.slice/fwupd.service"
#define CHILD_SETUP_FAILED 255	/* exit status of a sender that could not move */

enum report_type { REPORT_INPUT, REPORT_OUTPUT, REPORT_FEATURE };

/* One report of the descriptor. id 0: the device does not number its
 * reports (then none of the family's reports may have an ID). size counts
 * the ID byte of numbered reports, as hidraw does. */
struct report_decl {
	enum report_type type;
	uint8_t id;
	uint16_t size;
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
	uint16_t len;		/* whole buffer, byte 0 is the report ID (0 when unnumbered) */
	uint8_t data[REQ_PREFIX]; /* its first bytes; the rest are zero */
	const char *rule;	/* refused, audited: the rule the audit record names */
	int err;		/* refused: the errno the caller gets */
};

struct family {
	const char *name;
	const char *product_name;
	uint16_t bus;
	uint16_t vendor, product;
	/* The application collection of the descriptor, where the rule set
	 * matches by it (0: vendor-defined 0xFF00, usage 1). */
	uint16_t usage_page, usage;
	/* Where it does: a device with the family's IDs whose collection is
	 * this one instead, which the rule set must leave alone (page 0:
	 * none). */
	uint16_t lookalike_page, lookalike_usage;
	struct report_decl reports[MAX_REPORTS]; /* size 0 ends the list */
	struct request refused[MAX_REQUESTS];
	struct request audited[MAX_REQUESTS];
	struct request allowed[MAX_REQUESTS];
	/* Requests fwupd's plugin sends that the rules refuse to every other
	 * sender: .rule names the rule that refuses them. */
	struct request fwupd[MAX_REQUESTS];
	/* Other IDs the rule set names for the family (vendor 0 ends the
	 * list): a replica with each must be protected and refuse the
	 * refused requests too. */
	struct ids { uint16_t vendor, product; } more_ids[MAX_MORE_IDS];
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
			/* A paired device (index 1) through the receiver: HID++ 2.0
			 * setDfuControl(enterDfu, "DFU"), function 1 of the
			 * DfuControl feature at the index the device gave it (0x0c
			 * here), software ID 7 (fwupd fu-logitech-hidpp-device.c
			 * fu_logitech_hidpp_device_detach) */
			{ REQ(WRITE_OUTPUT, "write-output-11-01-paired-device-enter-dfu", 20,
			      0x11, 0x01, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-11-01-paired-device-enter-dfu", 20,
			      0x11, 0x01, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
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
			/* Solaar receiver.py Receiver.set_lock: open the pairing lock */
			{ REQ(WRITE_OUTPUT, "write-output-10-ff80b2-open-pairing-lock", 7,
			      0x10, 0xff, 0x80, 0xb2, 0x01, 0x00, 0x00) },
			/* Solaar settings_templates.py AdjustableDpi: function 3 of
			 * the paired mouse's feature 0x0a */
			{ REQ(WRITE_OUTPUT, "write-output-10-01-set-mouse-dpi", 7,
			      0x10, 0x01, 0x0a, 0x3b, 0x00, 0x06, 0x40) },
		},
		.fwupd = {
			/* fwupd fu-logitech-hidpp-runtime-unifying.c
			 * fu_logitech_hidpp_runtime_unifying_detach */
			{ REQ(WRITE_OUTPUT, "write-output-10-ff80f0-icp-enter-dfu", 7,
			      0x10, 0xff, 0x80, 0xf0, 0x49, 0x43, 0x50),
			  DENIED("logitech-unifying-deny-dfu-mode") },
			/* fwupd fu-logitech-hidpp-device.c fu_logitech_hidpp_device_detach */
			{ REQ(WRITE_OUTPUT, "write-output-11-01-paired-device-enter-dfu", 20,
			      0x11, 0x01, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
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
			/* a paired device (index 2) through the receiver (fwupd
			 * fu-logitech-hidpp-device.c fu_logitech_hidpp_device_detach) */
			{ REQ(WRITE_OUTPUT, "write-output-11-02-paired-device-enter-dfu", 20,
			      0x11, 0x02, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-11-02-paired-device-enter-dfu", 20,
			      0x11, 0x02, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
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
			/* Solaar receiver.py Receiver.discover */
			{ REQ(WRITE_OUTPUT, "write-output-10-ff80c0-start-discovery", 7,
			      0x10, 0xff, 0x80, 0xc0, 0x1e, 0x01, 0x00) },
			/* Solaar receiver.py Receiver.pair_device */
			{ REQ(WRITE_OUTPUT, "write-output-11-ff82c1-pair-device", 20,
			      0x11, 0xff, 0x82, 0xc1, 0x01, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
			      0x06, 0x00, 0x14) },
		},
		.fwupd = {
			/* fwupd fu-logitech-hidpp-runtime-bolt.c
			 * fu_logitech_hidpp_runtime_bolt_detach */
			{ REQ(WRITE_OUTPUT, "write-output-11-ff82f501-pre-enter-dfu", 20,
			      0x11, 0xff, 0x82, 0xf5, 0x01, 0, 0, 0, 0x50, 0x52, 0x45),
			  DENIED("logitech-bolt-deny-dfu-control") },
			/* fwupd fu-logitech-hidpp-device.c fu_logitech_hidpp_device_detach */
			{ REQ(WRITE_OUTPUT, "write-output-11-02-paired-device-enter-dfu", 20,
			      0x11, 0x02, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
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
			/* fwupd fu-nordic-hid-cfg-channel.c dfu_reboot: a FETCH
			 * of the dfu module's reboot option, whose event ID is
			 * the one the device listed the daemon: 0x14 on the
			 * replica (dfu is its module 1: tests/lib/nrf_replica.c) */
			{ REQ(SET_FEATURE, "set-feature-06-status-07-dfu-reboot", 30,
			      0x06, 0x00, 0x14, 0x07),
			  DENIED("nordic-deny-config-fetch") },
			/* the same through the output report */
			{ REQ(WRITE_OUTPUT, "write-output-07-status-07-dfu-reboot", 30,
			      0x07, 0x00, 0x14, 0x07),
			  DENIED("nordic-deny-config-fetch-output") },
			/* a peer's behind a dongle (recipient 1): its modules
			 * are not asked, every FETCH is refused */
			{ REQ(SET_FEATURE, "set-feature-06-status-07-peer-config-fetch", 30,
			      0x06, 0x01, 0x15, 0x07),
			  DENIED("nordic-deny-config-fetch") },
		},
		.allowed = {
			/* fwupd fu-nordic-hid-cfg-channel.c receive (first: the
			 * replica's own answer to a question below would stand
			 * in for the reply the check sets) */
			{ REQ(GET_FEATURE, "get-feature-06-config-reply", 30, 0x06) },
			/* fwupd fu-nordic-hid-cfg-channel.c: CONFIG_STATUS_GET_BOARD_NAME */
			{ REQ(SET_FEATURE, "set-feature-06-status-03-get-board-name", 30,
			      0x06, 0x00, 0x00, 0x03) },
			/* fwupd-style reads by anyone, once the device has
			 * listed its modules: dfu/fwinfo
			 * (fu_nordic_hid_cfg_channel_dfu_fwinfo), dfu/sync
			 * (fu_nordic_hid_cfg_channel_dfu_sync_cb), the dfu
			 * module's listing (fu_nordic_hid_cfg_channel_load_module_opts) */
			{ REQ(SET_FEATURE, "set-feature-06-status-07-dfu-fwinfo", 30,
			      0x06, 0x00, 0x15, 0x07) },
			{ REQ(SET_FEATURE, "set-feature-06-status-07-dfu-sync", 30,
			      0x06, 0x00, 0x13, 0x07) },
			{ REQ(SET_FEATURE, "set-feature-06-status-07-dfu-listing", 30,
			      0x06, 0x00, 0x10, 0x07) },
			{ REQ(WRITE_OUTPUT, "write-output-07-status-07-dfu-fwinfo", 30,
			      0x07, 0x00, 0x15, 0x07) },
		},
		.fwupd = {
			/* fwupd fu-nordic-hid-cfg-channel.c
			 * fu_nordic_hid_cfg_channel_dfu_start: a SET of the dfu
			 * module's start option (event 0x11 on the replica) with
			 * the image's size and checksum */
			{ REQ(SET_FEATURE, "set-feature-06-status-06-dfu-start", 30,
			      0x06, 0x00, 0x11, 0x06, 0x0c, 0x00, 0x10, 0x00, 0x00),
			  DENIED("nordic-deny-config-set") },
			/* fu_nordic_hid_cfg_channel_write_firmware_chunk: a
			 * chunk as long as the 30-byte report holds */
			{ REQ(SET_FEATURE, "set-feature-06-status-06-dfu-data", 30,
			      0x06, 0x00, 0x12, 0x06, 0x18, 0x00, 0x01, 0x02, 0x03),
			  DENIED("nordic-deny-config-set") },
			/* fu_nordic_hid_cfg_channel_dfu_reboot */
			{ REQ(SET_FEATURE, "set-feature-06-status-07-dfu-reboot", 30,
			      0x06, 0x00, 0x14, 0x07),
			  DENIED("nordic-deny-config-fetch") },
		},
		/* the Lenovo keyboard fwupd's nordic-hid.quirk names */
		.more_ids = { { 0x17ef, 0x62cc } },
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
		.fwupd = {
			/* fwupd fu-pixart-rf-ble-device.c fu_pixart_rf_ble_device_fw_ota_init */
			{ REQ(SET_FEATURE, "set-feature-07-10-ota-init", 32, 0x07, 0x10),
			  DENIED("pixart-deny-ota-init") },
			/* fu_pixart_rf_ble_device_fw_upgrade */
			{ REQ(SET_FEATURE, "set-feature-07-18-fw-upgrade", 32, 0x07, 0x18, 0x00, 0x80,
			      0x00, 0x00, 0x34, 0x12),
			  DENIED("pixart-deny-fw-upgrade") },
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
		.fwupd = {
			/* fwupd fu-pixart-rf-receiver-device.c
			 * fu_pixart_rf_receiver_device_fw_upgrade, fu-pixart-rf-common.c
			 * fu_pixart_rf_composite_receiver_cmd */
			{ REQ(SET_FEATURE, "set-feature-03-65-18-receiver-fw-upgrade", 32,
			      0x03, 0x5a, 0x65, 0x0e, 0x02, 0x00, 0x18, 0x03, 0x0c, 0x18),
			  DENIED("pixart-deny-receiver-fw-upgrade") },
		},
	},
	{
		/* A mouse or keyboard paired to a receiver, on the node
		 * hid-logitech-dj gives it (vendor 046D, its wireless product
		 * ID, bus USB): the K780 keyboard fwupd's logitech-hidpp.quirk
		 * names. HID++ reports 0x10 and 0x11 beside its keyboard input. */
		.name = "logitech-paired-device",
		.product_name = "Logitech K780",
		.bus = BUS_USB, .vendor = 0x046d, .product = 0x405b,
		.reports = {
			{ REPORT_INPUT, 0x01, 8 },
			{ REPORT_INPUT, 0x10, 7 }, { REPORT_INPUT, 0x11, 20 },
			{ REPORT_OUTPUT, 0x10, 7 }, { REPORT_OUTPUT, 0x11, 20 },
		},
		.refused = {
			/* fwupd fu-logitech-hidpp-device.c fu_logitech_hidpp_device_detach:
			 * setDfuControl(enterDfu, "DFU") at index 0x0c, device index 1 */
			{ REQ(WRITE_OUTPUT, "write-output-11-01-enter-dfu", 20,
			      0x11, 0x01, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-11-01-enter-dfu", 20,
			      0x11, 0x01, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
		},
		.allowed = {
			/* hid-logitech-hidpp hidpp_root_get_protocol_version */
			{ REQ(WRITE_OUTPUT, "write-output-10-01-get-protocol-version", 7,
			      0x10, 0x01, 0x00, 0x11, 0x00, 0x00, 0x5a) },
			/* Solaar base.py ping */
			{ REQ(WRITE_OUTPUT, "write-output-10-01-ping", 7,
			      0x10, 0x01, 0x00, 0x1b, 0x00, 0x00, 0x5a) },
		},
		.fwupd = {
			/* fwupd fu-logitech-hidpp-device.c fu_logitech_hidpp_device_detach */
			{ REQ(WRITE_OUTPUT, "write-output-11-01-enter-dfu", 20,
			      0x11, 0x01, 0x0c, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
		},
	},
	{
		/* A Logitech device connected directly over Bluetooth LE (the M650
		 * mouse of fwupd's logitech-hidpp.quirk): HID++ 2.0 in long
		 * report 0x11 alone, device index FF. */
		.name = "logitech-bluetooth-le",
		.product_name = "M650 L Mouse",
		.bus = BUS_BLUETOOTH, .vendor = 0x046d, .product = 0xb02a,
		.reports = {
			{ REPORT_INPUT, 0x02, 8 },
			{ REPORT_INPUT, 0x11, 20 }, { REPORT_OUTPUT, 0x11, 20 },
		},
		.refused = {
			/* fwupd fu-logitech-hidpp-device.c fu_logitech_hidpp_device_detach:
			 * DfuControl at index 0x0b */
			{ REQ(WRITE_OUTPUT, "write-output-11-ff-enter-dfu", 20,
			      0x11, 0xff, 0x0b, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-11-ff-enter-dfu", 20,
			      0x11, 0xff, 0x0b, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
		},
		.allowed = {
			/* Solaar base.py ping */
			{ REQ(WRITE_OUTPUT, "write-output-11-ff-ping", 20,
			      0x11, 0xff, 0x00, 0x1b, 0x00, 0x00, 0x5a) },
		},
		.fwupd = {
			/* fwupd fu-logitech-hidpp-device.c fu_logitech_hidpp_device_detach */
			{ REQ(WRITE_OUTPUT, "write-output-11-ff-enter-dfu", 20,
			      0x11, 0xff, 0x0b, 0x17, 0x01, 0x00, 0x00, 0x00, 0x44, 0x46, 0x55),
			  DENIED("logitech-hidpp-deny-enter-dfu") },
		},
	},
	{
		/* The Bolt receiver's bootloader: the HID++ 2.0 DFU feature,
		 * device index FF (fwupd's quirk force-receiver-id). */
		.name = "logitech-bolt-bootloader",
		.product_name = "Logitech Bolt Bootloader",
		.bus = BUS_USB, .vendor = 0x046d, .product = 0xab07,
		.reports = {
			{ REPORT_INPUT, 0x10, 7 }, { REPORT_INPUT, 0x11, 20 },
			{ REPORT_OUTPUT, 0x10, 7 }, { REPORT_OUTPUT, 0x11, 20 },
		},
		.refused = {
			/* fwupd fu-logitech-hidpp-device.c
			 * fu_logitech_hidpp_device_write_firmware_pkt: command 4
			 * (data) of the DFU feature at index 3 */
			{ REQ(WRITE_OUTPUT, "write-output-11-ff03-dfu-data", 20,
			      0x11, 0xff, 0x03, 0x47, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07),
			  DENIED("logitech-bolt-bootloader-deny-writes") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-11-ff03-dfu-data", 20,
			      0x11, 0xff, 0x03, 0x47, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07),
			  DENIED("logitech-bolt-bootloader-deny-writes") },
		},
		.fwupd = {
			{ REQ(WRITE_OUTPUT, "write-output-11-ff03-dfu-data", 20,
			      0x11, 0xff, 0x03, 0x47, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07),
			  DENIED("logitech-bolt-bootloader-deny-writes") },
		},
	},
	{
		/* A laptop's PixArt touchpad on I2C (fwupd's pixart-tp plugin):
		 * feature 0x42 one system register (42, address, bank, value; bank
		 * bit 0x10 reads), 0x43 a user register, 0x41 a 256-byte burst. */
		.name = "pixart-touchpad",
		.product_name = "PIXA3854:00 093A:0343 Touchpad",
		.bus = BUS_I2C, .vendor = 0x093a, .product = 0x0343,
		.reports = {
			{ REPORT_INPUT, 0x01, 30 }, { REPORT_FEATURE, 0x41, 257 },
			{ REPORT_FEATURE, 0x42, 4 }, { REPORT_FEATURE, 0x43, 4 },
		},
		.refused = {
			/* fwupd fu-pixart-tp-device.c fu_pixart_tp_device_reset: bank 1
			 * registers 0x2C = AA, then 0x2D = CC (bootloader) */
			{ REQ(SET_FEATURE, "set-feature-42-2c-suspend-key", 4, 0x42, 0x2c, 0x01, 0xaa),
			  DENIED("pixart-tp-deny-register-write") },
			{ REQ(SET_FEATURE, "set-feature-42-2d-bootloader-key", 4, 0x42, 0x2d, 0x01, 0xcc),
			  DENIED("pixart-tp-deny-register-write") },
			/* fu_pixart_tp_device_flash_execute: bank 4 register 0x56 = 1 */
			{ REQ(SET_FEATURE, "set-feature-42-56-flash-execute", 4, 0x42, 0x56, 0x04, 0x01),
			  DENIED("pixart-tp-deny-register-write") },
			/* fu_pixart_tp_device_register_burst_write */
			{ REQ(SET_FEATURE, "set-feature-41-sram-burst", 257,
			      0x41, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07),
			  DENIED("pixart-tp-deny-burst-write") },
			/* fu_pixart_tp_device_register_user_write: the CRC trigger */
			{ REQ(SET_FEATURE, "set-feature-43-82-crc-trigger", 4, 0x43, 0x82, 0x00, 0x02),
			  DENIED("pixart-tp-deny-user-register-write") },
		},
		.allowed = {
			/* fwupd fu-pixart-tp-device.c fu_pixart_tp_device_register_read:
			 * the part ID, bank 0 | 0x10 (read), then the reply */
			{ REQ(SET_FEATURE, "set-feature-42-78-register-read", 4, 0x42, 0x78, 0x10, 0x00) },
			{ REQ(GET_FEATURE, "get-feature-42-register-value", 4, 0x42) },
		},
		.fwupd = {
			/* fwupd fu-pixart-tp-device.c fu_pixart_tp_device_detach */
			{ REQ(SET_FEATURE, "set-feature-42-2d-bootloader-key", 4, 0x42, 0x2d, 0x01, 0xcc),
			  DENIED("pixart-tp-deny-register-write") },
			/* fu_pixart_tp_device_write_sram_256b */
			{ REQ(SET_FEATURE, "set-feature-41-sram-burst", 257,
			      0x41, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07),
			  DENIED("pixart-tp-deny-burst-write") },
		},
		/* the other touchpads of fwupd's pixart-tp.quirk (4F07: the
		 * next family) */
		.more_ids = {
			{ 0x093a, 0x0239 }, { 0x093a, 0x0274 }, { 0x093a, 0x0360 },
			{ 0x093a, 0x1343 }, { 0x093a, 0x3307 }, { 0x093a, 0x3317 },
			{ 0x093a, 0x3601 },
		},
	},
	{
		/* A PixArt touchpad with a haptic controller behind it, here on
		 * USB (the rule set matches both buses): feature 0xCC carries
		 * the haptic controller's frames (5A, target 2C, RMI function). */
		.name = "pixart-touchpad-haptic",
		.product_name = "PixArt Touchpad",
		.bus = BUS_USB, .vendor = 0x093a, .product = 0x4f07,
		.reports = {
			{ REPORT_INPUT, 0x01, 30 }, { REPORT_FEATURE, 0x42, 4 },
			{ REPORT_FEATURE, 0xcc, 64 },
		},
		.refused = {
			/* fwupd fu-pixart-tp-device.c fu_pixart_tp_device_reset */
			{ REQ(SET_FEATURE, "set-feature-42-2d-bootloader-key", 4, 0x42, 0x2d, 0x01, 0xcc),
			  DENIED("pixart-tp-deny-register-write") },
			/* fu-pixart-tp-haptic-device.c
			 * fu_pixart_tp_haptic_device_tf_write_rmi_cmd: upgrade mode */
			{ REQ(SET_FEATURE, "set-feature-cc-5a2c00-upgrade-mode", 64,
			      0xcc, 0x5a, 0x2c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01),
			  DENIED("pixart-tp-deny-haptic-write") },
			/* fu_pixart_tp_haptic_device_tf_write_rmi_with_packet */
			{ REQ(SET_FEATURE, "set-feature-cc-5a2c04-upgrade-data", 64,
			      0xcc, 0x5a, 0x2c, 0x04, 0x02, 0x00, 0x44, 0x00, 0x10, 0x00, 0x01, 0x00),
			  DENIED("pixart-tp-deny-haptic-write") },
		},
		.allowed = {
			/* fu_pixart_tp_haptic_device_tf_read_rmi: the version */
			{ REQ(SET_FEATURE, "set-feature-cc-5a2c0b-read", 64,
			      0xcc, 0x5a, 0x2c, 0x0b, 0x07, 0x00, 0x02, 0x00, 0x03, 0x00) },
			/* fu_pixart_tp_device_register_read */
			{ REQ(SET_FEATURE, "set-feature-42-78-register-read", 4, 0x42, 0x78, 0x10, 0x00) },
		},
		.fwupd = {
			/* fu_pixart_tp_haptic_device_tf_write_rmi_cmd */
			{ REQ(SET_FEATURE, "set-feature-cc-5a2c00-upgrade-mode", 64,
			      0xcc, 0x5a, 0x2c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01),
			  DENIED("pixart-tp-deny-haptic-write") },
		},
	},
	{
		/* Legion Go 2 controller: output report 0x05 = length, main ID,
		 * sub ID, device, parameters; HHD also writes report 0x04. */
		.name = "lenovo-legion-go-2",
		.product_name = "Legion Controller for Windows",
		.bus = BUS_USB, .vendor = 0x17ef, .product = 0x61eb,
		.reports = {
			{ REPORT_INPUT, 0x04, 64 }, { REPORT_OUTPUT, 0x04, 64 },
			{ REPORT_OUTPUT, 0x05, 64 },
		},
		.refused = {
			/* fwupd fu-legion-hid-device.c fu_legion_hid_device_upgrade_start:
			 * main ID 0x53, sub ID 0x11, MCU (1), step 1, start (0x50) */
			{ REQ(WRITE_OUTPUT, "write-output-05-5311-upgrade-start", 64,
			      0x05, 0x0e, 0x53, 0x11, 0x01, 0x01, 0x08, 0x50, 0x00, 0x12, 0x34,
			      0x00, 0x40, 0x00, 0x01),
			  DENIED("legion-go-deny-upgrade") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-05-5311-upgrade-start", 64,
			      0x05, 0x0e, 0x53, 0x11, 0x03, 0x01, 0x08, 0x50, 0x00, 0x12, 0x34,
			      0x00, 0x40, 0x00, 0x01),
			  DENIED("legion-go-deny-upgrade") },
			/* fu_legion_hid_device_upgrade_write_data_chunk */
			{ REQ(WRITE_OUTPUT, "write-output-05-5311-upgrade-data", 64,
			      0x05, 0x26, 0x53, 0x11, 0x03, 0x02, 0x00, 0x01, 0x02, 0x03),
			  DENIED("legion-go-deny-upgrade") },
		},
		.allowed = {
			/* HHD legion_go/tablet/hid.py rgb_set_profile */
			{ REQ(WRITE_OUTPUT, "write-output-05-72-rgb-profile", 64,
			      0x05, 0x0c, 0x72, 0x01, 0x03, 0x01, 0xff, 0x00, 0x00, 0x3f, 0x00,
			      0x03, 0x01) },
			/* HHD controller_enable_gyro */
			{ REQ(WRITE_OUTPUT, "write-output-05-6a-enable-gyro", 64,
			      0x05, 0x06, 0x6a, 0x02, 0x03, 0x01, 0x01) },
			/* HHD controller_factory_reset */
			{ REQ(WRITE_OUTPUT, "write-output-04-05-factory-reset", 64,
			      0x04, 0x05, 0x05, 0x01, 0x01, 0x03, 0x01) },
			/* fwupd fu-legion-hid-device.c fu_legion_hid_device_get_version_internal */
			{ REQ(WRITE_OUTPUT, "write-output-05-79-get-version", 64,
			      0x05, 0x05, 0x79, 0x01, 0x01, 0x01) },
		},
		.fwupd = {
			{ REQ(WRITE_OUTPUT, "write-output-05-5311-upgrade-start", 64,
			      0x05, 0x0e, 0x53, 0x11, 0x01, 0x01, 0x08, 0x50, 0x00, 0x12, 0x34,
			      0x00, 0x40, 0x00, 0x01),
			  DENIED("legion-go-deny-upgrade") },
			{ REQ(WRITE_OUTPUT, "write-output-05-5311-upgrade-data", 64,
			      0x05, 0x26, 0x53, 0x11, 0x03, 0x02, 0x00, 0x01, 0x02, 0x03),
			  DENIED("legion-go-deny-upgrade") },
		},
		.more_ids = { { 0x17ef, 0x61ec }, { 0x17ef, 0x61ed }, { 0x17ef, 0x61ee } },
	},
	{
		/* Legion Go S controller: commands written with the command in
		 * byte 0, on the interface with vendor collection 0xFFA0:0x0001,
		 * which the rule set matches besides the IDs (1A86 is WCH's). The
		 * lookalike: the same IDs, another vendor collection. No public
		 * source shows that collection's reports: this descriptor numbers
		 * them with the commands the daemons and fwupd write, as the rule
		 * set's report IDs take them to be. */
		.name = "lenovo-legion-go-s",
		.product_name = "Legion Go S",
		.bus = BUS_USB, .vendor = 0x1a86, .product = 0xe310,
		.usage_page = 0xffa0, .usage = 0x0001,
		.lookalike_page = 0xff00, .lookalike_usage = 0x0001,
		.reports = {
			{ REPORT_INPUT, 0x04, 64 }, { REPORT_OUTPUT, 0x01, 64 },
			{ REPORT_OUTPUT, 0x04, 64 }, { REPORT_OUTPUT, 0x10, 64 },
			{ REPORT_OUTPUT, 0x12, 64 }, { REPORT_OUTPUT, 0xe1, 64 },
		},
		.refused = {
			/* fwupd fu-legion-hid2-device.c fu_legion_hid2_device_detach:
			 * E1 "UPGRADE" 01 */
			{ REQ(WRITE_OUTPUT, "write-output-e1-start-iap", 64,
			      0xe1, 0x55, 0x50, 0x47, 0x52, 0x41, 0x44, 0x45, 0x01),
			  DENIED("legion-go-s-deny-start-iap") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-e1-start-iap", 64,
			      0xe1, 0x55, 0x50, 0x47, 0x52, 0x41, 0x44, 0x45, 0x01),
			  DENIED("legion-go-s-deny-start-iap") },
		},
		.allowed = {
			/* HHD legion_go/slim/hid.py config_device: OS detection off */
			{ REQ(WRITE_OUTPUT, "write-output-04-09-os-detection", 64, 0x04, 0x09, 0x00) },
			/* HHD rgb_load_profile */
			{ REQ(WRITE_OUTPUT, "write-output-10-02-rgb-profile", 64, 0x10, 0x02, 0x03) },
			/* HHD config_device: turbo */
			{ REQ(WRITE_OUTPUT, "write-output-12-10-turbo", 64, 0x12, 0x10, 0x01) },
			/* InputPlumber legos/xinput_driver.rs haptic_rumble */
			{ REQ(WRITE_OUTPUT, "write-output-04-00-rumble", 64,
			      0x04, 0x00, 0x08, 0x00, 0x40, 0x40, 0x00, 0x00, 0x00) },
			/* fwupd fu-legion-hid2-device.c fu_legion_hid2_device_ensure_version */
			{ REQ(WRITE_OUTPUT, "write-output-01-get-version", 64, 0x01, 0x00, 0x00, 0x00) },
		},
		.fwupd = {
			{ REQ(WRITE_OUTPUT, "write-output-e1-start-iap", 64,
			      0xe1, 0x55, 0x50, 0x47, 0x52, 0x41, 0x44, 0x45, 0x01),
			  DENIED("legion-go-s-deny-start-iap") },
		},
		.more_ids = { { 0x1a86, 0xe311 } },
	},
	{
		/* The Legion Go S controller's IAP bootloader: TLV frames, tag in
		 * bytes 0-1 (5A80 unlock, 5A81 data), in a vendor-defined
		 * collection, which the rule set matches besides the IDs. The
		 * lookalike: the same IDs, a consumer-control collection. */
		.name = "lenovo-legion-go-s-iap",
		.product_name = "Legion Go S IAP",
		.bus = BUS_USB, .vendor = 0x1a86, .product = 0xfe10,
		.lookalike_page = 0x000c, .lookalike_usage = 0x0001,
		.reports = {
			{ REPORT_INPUT, 0x80, 64 }, { REPORT_OUTPUT, 0x80, 64 },
			{ REPORT_OUTPUT, 0x81, 64 }, { REPORT_OUTPUT, 0x83, 64 },
		},
		.refused = {
			/* fwupd fu-legion-hid2-iap-device.c
			 * fu_legion_hid2_iap_device_unlock_flash */
			{ REQ(WRITE_OUTPUT, "write-output-80-5a-unlock", 64, 0x80, 0x5a, 0x00, 0x00),
			  DENIED("legion-go-s-iap-deny-writes") },
			{ REQ(IOCTL_OUTPUT, "ioctl-output-80-5a-unlock", 64, 0x80, 0x5a, 0x00, 0x00),
			  DENIED("legion-go-s-iap-deny-writes") },
			/* fu_legion_hid2_iap_device_write_data_chunks */
			{ REQ(WRITE_OUTPUT, "write-output-81-5a-data", 64,
			      0x81, 0x5a, 0x3c, 0x00, 0x00, 0x01, 0x02, 0x03),
			  DENIED("legion-go-s-iap-deny-writes") },
		},
		.fwupd = {
			{ REQ(WRITE_OUTPUT, "write-output-80-5a-unlock", 64, 0x80, 0x5a, 0x00, 0x00),
			  DENIED("legion-go-s-iap-deny-writes") },
			{ REQ(WRITE_OUTPUT, "write-output-81-5a-data", 64,
			      0x81, 0x5a, 0x3c, 0x00, 0x00, 0x01, 0x02, 0x03),
			  DENIED("legion-go-s-iap-deny-writes") },
		},
	},
	{
		/* ROG Ally: the N-KEY interface, vendor collection 0xFF31:0x0076
		 * (fwupd's asus-hid checks it), report 0x5A as a feature report
		 * (fwupd) and written (HHD); the rule set matches page 0xFF31
		 * besides the IDs. The lookalike: the same IDs, page 0xFF00. */
		.name = "asus-rog-ally",
		.product_name = "ASUSTeK COMPUTER INC. N-KEY Device",
		.bus = BUS_USB, .vendor = 0x0b05, .product = 0x1abe,
		.usage_page = 0xff31, .usage = 0x0076,
		.lookalike_page = 0xff00, .lookalike_usage = 0x0001,
		.reports = {
			{ REPORT_INPUT, 0x5a, 64 }, { REPORT_OUTPUT, 0x5a, 64 },
			{ REPORT_FEATURE, 0x5a, 64 },
		},
		.refused = {
			/* fwupd fu-asus-hid-device.c fu_asus_hid_device_detach:
			 * PreUpdate, PreUpdate2, PreUpdate5, PreUpdate6 */
			{ REQ(SET_FEATURE, "set-feature-5a-05002000-pre-update", 64,
			      0x5a, 0x05, 0x00, 0x20, 0x00, 0x20),
			  DENIED("asus-ally-deny-pre-update") },
			{ REQ(SET_FEATURE, "set-feature-5a-07092000-pre-update-2", 64,
			      0x5a, 0x07, 0x09, 0x20, 0x00, 0x01),
			  DENIED("asus-ally-deny-pre-update-2") },
			{ REQ(SET_FEATURE, "set-feature-5a-080b2600-pre-update-5", 64,
			      0x5a, 0x08, 0x0b, 0x26, 0x00, 0x01, 0x02),
			  DENIED("asus-ally-deny-pre-update-5") },
			{ REQ(SET_FEATURE, "set-feature-5a-e0329300-pre-update-6", 64,
			      0x5a, 0xe0, 0x32, 0x93, 0x00, 0x00),
			  DENIED("asus-ally-deny-pre-update-6") },
			/* the same written, as HHD writes its commands */
			{ REQ(WRITE_OUTPUT, "write-output-5a-e0329300-pre-update-6", 64,
			      0x5a, 0xe0, 0x32, 0x93, 0x00, 0x00),
			  DENIED("asus-ally-deny-pre-update-6") },
		},
		.allowed = {
			/* HHD rog_ally/hid.py switch_mode (MODE_GAME) */
			{ REQ(WRITE_OUTPUT, "write-output-5a-d1-gamepad-mode", 64,
			      0x5a, 0xd1, 0x01, 0x01, 0x01) },
			/* HHD wait_for_ready */
			{ REQ(SET_FEATURE, "set-feature-5a-d10a-wait-ready", 64, 0x5a, 0xd1, 0x0a, 0x01) },
			/* HHD rgb_command */
			{ REQ(WRITE_OUTPUT, "write-output-5a-b3-rgb", 64,
			      0x5a, 0xb3, 0x00, 0x00, 0xff, 0x00, 0x00) },
			/* fwupd fu-asus-hid-child-device.c
			 * fu_asus_hid_child_device_ensure_version (FwVersion) */
			{ REQ(SET_FEATURE, "set-feature-5a-05033100-fw-version", 64,
			      0x5a, 0x05, 0x03, 0x31, 0x00, 0x20) },
			/* fu-asus-hid-device.c fu_asus_hid_device_transfer_feature: the reply */
			{ REQ(GET_FEATURE, "get-feature-5a-reply", 64, 0x5a) },
		},
		.fwupd = {
			{ REQ(SET_FEATURE, "set-feature-5a-05002000-pre-update", 64,
			      0x5a, 0x05, 0x00, 0x20, 0x00, 0x20),
			  DENIED("asus-ally-deny-pre-update") },
			{ REQ(SET_FEATURE, "set-feature-5a-e0329300-pre-update-6", 64,
			      0x5a, 0xe0, 0x32, 0x93, 0x00, 0x00),
			  DENIED("asus-ally-deny-pre-update-6") },
		},
		.more_ids = { { 0x0b05, 0x1b4c } },
	},
	{
		/* The ROG Ally X's ITE bootloader: feature reports C4 (reset into
		 * the application) and D1 (flash read command). */
		.name = "asus-rog-ally-bootloader",
		.product_name = "ITE Device",
		.bus = BUS_USB, .vendor = 0x048d, .product = 0x89dc,
		.reports = {
			{ REPORT_FEATURE, 0xc4, 64 }, { REPORT_FEATURE, 0xd1, 64 },
		},
		.refused = {
			/* fwupd fu-asus-hid-device.c fu_asus_hid_device_attach */
			{ REQ(SET_FEATURE, "set-feature-c4-flash-reset", 64, 0xc4, 0x00, 0x00),
			  DENIED("asus-ally-bootloader-deny-writes") },
			/* fu_asus_hid_device_dump_firmware */
			{ REQ(SET_FEATURE, "set-feature-d1-flash-read", 64, 0xd1, 0x00, 0x00, 0x00, 0x3a),
			  DENIED("asus-ally-bootloader-deny-writes") },
		},
		.fwupd = {
			{ REQ(SET_FEATURE, "set-feature-c4-flash-reset", 64, 0xc4, 0x00, 0x00),
			  DENIED("asus-ally-bootloader-deny-writes") },
		},
		.more_ids = { { 0x048d, 0x89db } },
	},
};

static struct policyd_run daemon_run;
static const struct family *current;
static enum test_dev_backend backend;
static const char *suite;	/* SUITE, then SUITE/usb */
static unsigned int n_failed_checks;

/* The descriptors' application collection: the family's (usage_page 0:
 * vendor-defined 0xFF00, usage 1) or its lookalike's. */
struct collection {
	uint16_t page, usage;
};

static struct collection collection_of(const struct family *f, bool lookalike)
{
	if (lookalike)
		return (struct collection){ f->lookalike_page, f->lookalike_usage };
	if (f->usage_page)
		return (struct collection){ f->usage_page, f->usage };
	return (struct collection){ 0xff00, 0x01 };
}

/* One application collection C holding the family's reports, 8-bit fields. */
static size_t build_rdesc(const struct family *f, struct collection c, uint8_t *out, size_t cap)
{
	static const uint8_t main_item[] = {
		[REPORT_INPUT] = 0x81, [REPORT_OUTPUT] = 0x91, [REPORT_FEATURE] = 0xb1,
	};
	const uint8_t head[] = {
		0x06, c.page & 0xff, c.page >> 8,	/* Usage Page */
		0x0a, c.usage & 0xff, c.usage >> 8,	/* Usage */
		0xa1, 0x01,		/* Collection (Application) */
		0x15, 0x00,		/*   Logical Minimum (0) */
		0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
		0x75, 0x08,		/*   Report Size (8) */
	};
	size_t n = sizeof(head);

	CHECK(cap >= sizeof(head) + 1, "descriptor buffer too small");
	memcpy(out, head, sizeof(head));
	for (size_t i = 0; i < MAX_REPORTS && f->reports[i].size; i++) {
		const struct report_decl *r = &f->reports[i];
		unsigned int count = r->size - (r->id ? 1 : 0);

		CHECK(count >= 1 && count <= 0xffff, "%s: report %#x: size %u", f->name, r->id, r->size);
		CHECK(n + 9 + 1 <= cap, "%s: descriptor longer than %zu bytes", f->name, cap);
		if (r->id) {
			out[n++] = 0x85;		/* Report ID */
			out[n++] = r->id;
		}
		out[n++] = 0x09;			/* Usage: one per report */
		out[n++] = (uint8_t)(i + 2);
		if (count <= 0xff) {
			out[n++] = 0x95;		/* Report Count */
			out[n++] = (uint8_t)count;
		} else {
			out[n++] = 0x96;		/* Report Count, 2 bytes */
			out[n++] = count & 0xff;
			out[n++] = (uint8_t)(count >> 8);
		}
		out[n++] = main_item[r->type];
		out[n++] = 0x02;			/* Data,Var,Abs */
	}
	out[n++] = 0xc0;				/* End Collection */
	return n;
}

enum device_role {
	REPLICA,
	OTHER_VENDOR_DEVICE,	/* 1234:5678, the family's descriptor */
	LOOKALIKE,		/* the family's IDs, the lookalike's collection */
};

/*
 * Logitech's devices tell the daemon their HID++ 2.0 feature indexes, which
 * the rules that refuse the DFU features are compiled with (hid-policyd(8),
 * HID++ feature indexes). The replicas answer the daemon's questions
 * (software ID 0) as the real devices do (tests/lib/hidpp_replica.h): a
 * receiver at 0xFF as a HID++ 1.0 device (invalid sub-ID), its paired
 * devices 1-6 and a device on its own node with a table of 16 features:
 * DfuControlSigned (0x00C2) at 0x0c, RDFU (0x00D1) at 0x0d, the others
 * none.
 */
#define LOGITECH 0x046d

static bool is_receiver(uint16_t product)
{
	return product == 0xc52b || product == 0xc548;
}

static uint8_t replica_feature_index(uint16_t feature)
{
	return feature == 0x00c2 ? 0x0c : feature == 0x00d1 ? 0x0d : 0x00;
}

static void answer_hidpp(struct uhid_dev *dev, const struct uhid_dev_record *req, void *userdata)
{
	static const uint16_t placed[] = { 0x00c2, 0x00d1 };
	const uint16_t *product = userdata;
	const uint8_t *q = req->data;
	struct hidpp_table table;
	uint8_t a[20];
	size_t n;

	if (!(req->request == UHID_DEV_OUTPUT ||
	      (req->request == UHID_DEV_SET_REPORT && req->rtype == UHID_OUTPUT_REPORT)) ||
	    req->size < 7 || (q[0] != 0x10 && q[0] != 0x11) || q[2] >= 0x80)
		return;
	if (q[1] == 0xff && is_receiver(*product)) {
		uhid_dev_send_input(dev, a, hidpp_replica_error10(q, 0x01, a));
		return;
	}
	if (q[1] != 0xff && (!is_receiver(*product) || q[1] < 1 || q[1] > 6))
		return;
	hidpp_table_make(&table, 16, placed,
			 (const uint8_t[]){ replica_feature_index(0x00c2), replica_feature_index(0x00d1) },
			 ARRAY_SIZE(placed));
	n = hidpp_replica_answer(&table, q, req->size, a);
	if (n)
		uhid_dev_send_input(dev, a, n);
}

/* What the daemon logs once the Logitech replica DEV told it every device
 * index's table, in the order of the features the shipped rules name. */
static void told_line(const struct uhid_dev *dev, const char *name, uint16_t product,
		      char *out, size_t size)
{
	static const uint16_t features[] = { 0x00c1, 0x00c2, 0x00c3, 0x00d0, 0x00d1 };
	size_t len = (size_t)snprintf(out, size, "%s (%s): HID++ feature indexes it told: ",
				      dev->sysname, name);

	for (int d = 0; d <= (is_receiver(product) ? 6 : 0) && len < size; d++) {
		len += (size_t)snprintf(out + len, size - len, "%s%s:", d ? "; " : "",
					d ? (char[2]){ (char)('0' + d), 0 } : "0xff");
		for (size_t i = 0; i < ARRAY_SIZE(features) && len < size; i++) {
			uint8_t index = d || !is_receiver(product) ?
					replica_feature_index(features[i]) : 0;

			if (index)
				len += (size_t)snprintf(out + len, size - len, "%s 0x%04x at 0x%02x",
							i ? "," : "", features[i], index);
			else
				len += (size_t)snprintf(out + len, size - len, "%s 0x%04x none",
							i ? "," : "", features[i]);
		}
	}
}

/*
 * nRF Desktop devices list their configuration-channel modules to the
 * daemon, which the rule refusing the dfu module's reboot is compiled
 * with (hid-policyd(8), nRF Desktop configuration modules). The replicas
 * answer the channel as the firmware does (tests/lib/nrf_replica.h): a
 * mouse whose modules are motion, dfu and ble_bond.
 */
static struct nrf_replica_dev nordic_channel;

static bool is_nordic(const struct family *f)
{
	return !strcmp(f->name, "nordic-nrf-desktop");
}

/* IDS: the replica's vendor and product, when not the family's. */
static void create_device_ids(struct uhid_dev *dev, const struct family *f, enum device_role role,
			      const struct ids *ids)
{
	static const char *const roles[] = {
		[REPLICA] = "replica", [OTHER_VENDOR_DEVICE] = "other vendor's",
		[LOOKALIKE] = "lookalike",
	};
	static uint16_t product;
	uint8_t rdesc[RDESC_MAX];
	const struct uhid_dev_config cfg = {
		.backend = backend,
		.name = role == OTHER_VENDOR_DEVICE ? "hid-policy generic test device" : f->product_name,
		.bus = f->bus,
		.vendor = role == OTHER_VENDOR_DEVICE ? OTHER_VENDOR : ids ? ids->vendor : f->vendor,
		.product = role == OTHER_VENDOR_DEVICE ? OTHER_PRODUCT : ids ? ids->product : f->product,
		.rdesc = rdesc,
		.rdesc_size = build_rdesc(f, collection_of(f, role == LOOKALIKE), rdesc, sizeof(rdesc)),
		.on_request = role != REPLICA ? NULL : f->vendor == LOGITECH ? answer_hidpp :
			      is_nordic(f) ? nrf_replica_on_request : NULL,
		.userdata = is_nordic(f) ? (void *)&nordic_channel : (void *)&product,
	};
	int r;

	product = ids ? ids->product : f->product;
	if (role == REPLICA && is_nordic(f))
		nrf_replica_dev_init(&nordic_channel);
	r = uhid_dev_create(dev, &cfg);

	CHECK(r == 0, "%s: cannot create the %s device: %s", f->name, roles[role], strerror(-r));
}

static void create_device(struct uhid_dev *dev, const struct family *f, enum device_role role)
{
	create_device_ids(dev, f, role, NULL);
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
static void fill_request(const struct request *r, uint8_t *buf)
{
	memset(buf, 0, r->len);
	memcpy(buf, r->data, r->len < REQ_PREFIX ? r->len : REQ_PREFIX);
}

static int send_request(int fd, const struct request *r, uint8_t *buf)
{
	ssize_t n;
	int ret;

	fill_request(r, buf);
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

/* Send the request as send_request() does, from a child process moved
 * into CGROUP (below the cgroup2 root) first; NULL: from this process.
 * buf receives the whole buffer sent. */
static int send_from(const char *cgroup, int fd, const struct request *r, uint8_t *buf)
{
	char procs[256];
	int status;
	pid_t pid;

	if (!cgroup)
		return send_request(fd, r, buf);
	fill_request(r, buf);
	snprintf(procs, sizeof(procs), "%s/%s/cgroup.procs", CGROUP_ROOT, cgroup);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		uint8_t child_buf[UHID_DEV_REPORT_MAX];
		int cg = open(procs, O_WRONLY | O_CLOEXEC);

		/* "0": the writing process itself */
		if (cg < 0 || write(cg, "0", 1) != 1) {
			fprintf(stderr, "    cannot move into %s: %s\n", procs, strerror(errno));
			_exit(CHILD_SETUP_FAILED);
		}
		close(cg);
		_exit(send_request(fd, r, child_buf));
	}
	if (waitpid(pid, &status, 0) != pid)
		return errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == CHILD_SETUP_FAILED) {
		test_log("the sender in %s did not run its request", cgroup);
		return ECHILD;
	}
	return WEXITSTATUS(status);
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

/* Refused from the sender in CGROUP (send_from), checked as WHAT. */
static void check_refused_from(struct uhid_dev *dev, int fd, const struct request *r,
			       const char *cgroup, const char *what)
{
	uint8_t buf[UHID_DEV_REPORT_MAX];
	unsigned long before = everything_received(dev);
	size_t logged = audit_records(r->rule, dev->hid_id, true, 0);
	int err = send_from(cgroup, fd, r, buf);
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
	check_line(ok, what, r->name);
}

static void check_refused(struct uhid_dev *dev, int fd, const struct request *r)
{
	check_refused_from(dev, fd, r, NULL, "refused");
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

/* See fwupd/REQ at the top: a request of fwupd's plugin, sent from a
 * process in fwupd.service's cgroup, reaches the device byte for byte. */
static void check_from_fwupd(struct uhid_dev *dev, int fd, const struct request *r)
{
	uint8_t buf[UHID_DEV_REPORT_MAX];
	unsigned long before = uhid_dev_count(dev, recorded_as(r->kind), r->data[0]);
	int err;
	bool ok = true;

	CHECK(r->kind != GET_FEATURE, "%s: a read is no update request", r->name);
	err = send_from(FWUPD_CGROUP, fd, r, buf);
	if (err) {
		test_log("errno %d (%s) from %s, expected success", err, strerror(err), FWUPD_CGROUP);
		ok = false;
	}
	ok = reached_device(dev, r, buf, before) && ok;
	check_line(ok, "fwupd", r->name);
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

/* A request the family's rules refuse or audit, sent to a device they do
 * not cover (see check_unmatched): nothing may stand in its way. */
static void check_passes(struct uhid_dev *dev, int fd, const struct request *r, const char *what)
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
	check_line(ok, what, r->name);
}

static bool listed(const struct request *list, const char *name)
{
	for (size_t i = 0; i < MAX_REQUESTS && list[i].name; i++)
		if (!strcmp(list[i].name, name))
			return true;
	return false;
}

/* A device the family's rule set must leave alone (the other vendor's, the
 * lookalike): no firewall, every refused and audited request passes, no
 * audit record. The setup checks are named WHAT/..., the requests' WHAT/REQ. */
static void check_unmatched(struct uhid_dev *dev, const char *what)
{
	const struct family *f = current;
	const char *filters[] = { NULL, NULL };
	char hid[48];
	int fd;

	fd = uhid_dev_open_hidraw(dev, 0);
	CHECK_OK(fd);
	for (size_t i = 0; i < MAX_REQUESTS && f->refused[i].name; i++)
		check_passes(dev, fd, &f->refused[i], what);
	for (size_t i = 0; i < MAX_REQUESTS && f->audited[i].name; i++)
		check_passes(dev, fd, &f->audited[i], what);
	for (size_t i = 0; i < MAX_REQUESTS && f->fwupd[i].name; i++)
		if (!listed(f->refused, f->fwupd[i].name))
			check_passes(dev, fd, &f->fwupd[i], what);
	snprintf(hid, sizeof(hid), "device.hid_id=%d", dev->hid_id);
	filters[0] = hid;
	check_line(policyd_audit_count(&daemon_run, filters, 0, 0) == 0, what, "no-audit-record");
	close(fd);
}

/* A Logitech replica with HID++ output reports whose rules let the daemon
 * ask: its answers are in force before the checks (until then every
 * feature but IRoot is refused at a device index that has not told); an
 * nRF Desktop replica: its modules listed (until then every FETCH is
 * refused). */
static void wait_told(const struct uhid_dev *dev, uint16_t product)
{
	const struct family *f = current;
	char line[2048], path[400], uevent[1024], *name;
	bool hidpp = false;
	ssize_t n;

	for (size_t i = 0; i < MAX_REPORTS && f->reports[i].size; i++)
		hidpp = hidpp || (f->reports[i].type == REPORT_OUTPUT &&
				  (f->reports[i].id == 0x10 || f->reports[i].id == 0x11));
	/* the Bolt bootloader's rule set refuses every write: not asked */
	if (!is_nordic(f) && (f->vendor != LOGITECH || !hidpp || product == 0xab07))
		return;
	/* the name the daemon says: HID_NAME, as the transport made it */
	snprintf(path, sizeof(path), "%s/uevent", dev->syspath);
	n = read_file(path, uevent, sizeof(uevent) - 1);
	uevent[n > 0 ? n : 0] = '\0';
	name = strstr(uevent, "HID_NAME=");
	CHECK(name, "%s: no HID_NAME", path);
	name += strlen("HID_NAME=");
	name[strcspn(name, "\n")] = '\0';
	if (is_nordic(f)) {
		snprintf(line, sizeof(line),
			 "%s (%s): configuration-channel modules it listed: motion (3 options), dfu (7 options), ble_bond (2 options)",
			 dev->sysname, name);
		check_line(policyd_said(&daemon_run, line, ATTACH_TIMEOUT_MS), "setup",
			   "replica-listed-its-configuration-modules");
		return;
	}
	told_line(dev, name, product, line, sizeof(line));
	check_line(policyd_said(&daemon_run, line, ATTACH_TIMEOUT_MS), "setup",
		   "replica-told-its-hidpp-feature-indexes");
}

/* Create BEFORE (the other vendor's device, the lookalike), then the
 * replica DEV: once the replica is protected, the daemon has handled the
 * earlier device's uevent too. At most two at a time: the USB backend has
 * two emulated controllers. */
static void create_pair(struct uhid_dev *before, enum device_role role, struct uhid_dev *dev)
{
	const struct family *f = current;

	create_device(before, f, role);
	create_device(dev, f, REPLICA);
	check_line(policyd_said(&daemon_run, dev->sysname, ATTACH_TIMEOUT_MS) &&
		   firewall_instance_count(dev->hid_id) == 1, "setup",
		   role == LOOKALIKE ? "replica-beside-lookalike-is-protected" : "replica-is-protected");
	check_line(firewall_instance_count(before->hid_id) == 0, "setup",
		   role == LOOKALIKE ? "lookalike-is-not-attached" : "other-vendor-is-not-attached");
	wait_told(dev, f->product);
	CHECK(n_failed_checks == 0, "%s: the replicas are not set up as the checks need", f->name);
}

/* A replica with one of the family's other IDS: protected, and the
 * refused requests refused (ids-VVVV-PPPP/...). */
static void check_more_ids(const struct ids *ids)
{
	const struct family *f = current;
	struct uhid_dev dev;
	char what[32];
	int fd;

	snprintf(what, sizeof(what), "ids-%04x-%04x", ids->vendor, ids->product);
	create_device_ids(&dev, f, REPLICA, ids);
	check_line(policyd_said(&daemon_run, dev.sysname, ATTACH_TIMEOUT_MS) &&
		   firewall_instance_count(dev.hid_id) == 1, what, "replica-is-protected");
	wait_told(&dev, ids->product);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	for (size_t i = 0; i < MAX_REQUESTS && f->refused[i].name; i++)
		check_refused_from(&dev, fd, &f->refused[i], NULL, what);
	close(fd);
	uhid_dev_destroy(&dev);
}

static void test_family(void)
{
	const struct family *f = current;
	struct uhid_dev dev, other;
	int fd;

	create_pair(&other, OTHER_VENDOR_DEVICE, &dev);
	fd = uhid_dev_open_hidraw(&dev, 0);
	CHECK_OK(fd);
	for (size_t i = 0; i < MAX_REQUESTS && f->refused[i].name; i++)
		check_refused(&dev, fd, &f->refused[i]);
	for (size_t i = 0; i < MAX_REQUESTS && f->audited[i].name; i++)
		check_audited(&dev, fd, &f->audited[i]);
	for (size_t i = 0; i < MAX_REQUESTS && f->allowed[i].name; i++)
		check_allowed(&dev, fd, &f->allowed[i]);
	for (size_t i = 0; f->reports[0].id && i < MAX_REQUESTS && f->refused[i].name; i++)
		check_zero_prefixed(&dev, fd, &f->refused[i]);
	for (size_t i = 0; i < MAX_REQUESTS && f->fwupd[i].name; i++) {
		check_from_fwupd(&dev, fd, &f->fwupd[i]);
		check_refused_from(&dev, fd, &f->fwupd[i], NULL, "not-fwupd");
		check_refused_from(&dev, fd, &f->fwupd[i], IMPOSTOR_CGROUP, "impostor");
	}
	close(fd);
	check_unmatched(&other, "other-vendor");
	uhid_dev_destroy(&dev);
	uhid_dev_destroy(&other);

	if (f->lookalike_page) {
		create_pair(&other, LOOKALIKE, &dev);
		check_unmatched(&other, "lookalike");
		uhid_dev_destroy(&dev);
		uhid_dev_destroy(&other);
	}
	for (size_t i = 0; i < MAX_MORE_IDS && f->more_ids[i].vendor; i++)
		check_more_ids(&f->more_ids[i]);
	CHECK(n_failed_checks == 0, "%s: %u check(s) failed", f->name, n_failed_checks);
}

/* The cgroups the senders are moved into, parents first. */
static const char *const cgroups[] = { "system.slice", FWUPD_CGROUP, "x.slice", IMPOSTOR_CGROUP };
static bool cgroup_made[ARRAY_SIZE(cgroups)];

/* Make fwupd.service's cgroup, as systemd does when the unit starts (the
 * guest runs no systemd), and the impostor's. The daemon is running: it
 * must see the unit start, as it does when fwupd is started on demand. */
static bool make_cgroups(void)
{
	char path[256];
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(cgroups) && ok; i++) {
		snprintf(path, sizeof(path), "%s/%s", CGROUP_ROOT, cgroups[i]);
		if (mkdir(path, 0755) == 0) {
			cgroup_made[i] = true;
		} else if (errno != EEXIST || strchr(cgroups[i], '/')) {
			/* a slice may be there (a guest with systemd), the
			 * units must be this run's own */
			printf("    mkdir %s: %s\n", path, strerror(errno));
			ok = false;
		}
	}
	ok = ok && policyd_said(&daemon_run, "unit fwupd.service: running", UNIT_TIMEOUT_MS);
	printf("%s: %s/fwupd-service-cgroup-is-followed\n", ok ? "PASS" : "FAIL", SUITE);
	return ok;
}

static void remove_cgroups(void)
{
	char path[256];

	for (size_t i = ARRAY_SIZE(cgroups); i-- > 0;) {
		if (!cgroup_made[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", CGROUP_ROOT, cgroups[i]);
		/* the senders are reaped, but a cgroup empties a moment later */
		for (int tries = 0; rmdir(path) < 0 && errno == EBUSY && tries < 100; tries++)
			usleep(10000);
	}
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
	/* The suites after this one in the same boot expect the VM's
	 * setting (hid-generic alone): put back what was found. */
	bool generic_only = test_dev_generic_driver_only_now();
	int failed = 0, r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!list) {
		r = test_dev_generic_driver_only(true);
		printf("%s: %s/replicas-bind-to-hid-generic\n", r == 0 ? "PASS" : "FAIL", SUITE);
		if (r < 0)
			printf("    hid.ignore_special_drivers: %s\n", strerror(-r));
		if (r < 0 || !start_daemon())
			return 1;
		if (!make_cgroups()) {
			remove_cgroups();
			test_dev_generic_driver_only(generic_only);
			policyd_stop(&daemon_run, false);
			policyd_cleanup(&daemon_run);
			return 1;
		}
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
		test_dev_generic_driver_only(generic_only);
		remove_cgroups();
		policyd_stop(&daemon_run, false);
		if (policyd_cleanup(&daemon_run) < 0) {
			printf("FAIL: %s/cleanup-detaches-every-firewall\n", SUITE);
			failed = 1;
		}
	}
	return failed ? 1 : 0;
}
