// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shipped rule sets (policies/) against what real programs send, read
 * from their sources: SDL's HIDAPI drivers, InputPlumber and HHD (the
 * handheld daemons), Solaar, the kernel's drivers, fwupd's plugins and
 * Valve's controller updater. One row per request: the program, the source
 * file and function, the device, the request as the firewall sees it
 * (kind, report ID, the buffer's first bytes from byte 0), who sends it and
 * what the rules must decide. Every row is one test; the engine decides it
 * exactly as the firewall's BPF programs do (policy_evaluate), the check
 * made before any rule included where the row's device has its reports
 * (the reports its descriptor declares) in the table of devices below, or
 * where the row carries the descriptor itself.
 *
 * The claims: the requests of games, handheld daemons, drivers and Solaar
 * pass; flashing and bootloader requests are refused from every sender but
 * the device's trusted updater, a system service: fwupd.service where one
 * of fwupd's plugins updates the device, jupiter-controller-update.service
 * (SteamOS) for the Steam Deck controller. A row the policy language cannot
 * decide yet (an index the device assigns at run time and does not tell)
 * stays in the table as a known gap and is reported as SKIP with the
 * reason, never as PASS. Where a rule names HID++ 2.0 features, the row
 * gives what the device told the daemon's getFeature (its "hidpp" table),
 * as the daemon compiles the device's rules with it.
 *
 * Who sends: the updaters' units are given the cgroups running units would
 * have; the others are a user in a login session, root in a login session
 * (a program such as fwupdtool run by hand), a daemon running as root in
 * another service (InputPlumber, HHD), and a driver's own request.
 */
#include "policy-helpers.h"
#include "hid/hid_descriptor.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cgroup ids the trusted updaters' units are given, in system.slice. */
#define FWUPD_CGROUP	0x4242
#define VALVE_CGROUP	0x4243

enum sender { FWUPD, VALVE_UPDATER, USER, ROOT, DAEMON, KERNEL };
/* a program's ordinary request, an update's, or an ordinary request the
 * rules hold back on purpose until the device tells what they need (the
 * HID++ feature indexes of a device index that has not answered yet) */
enum use { PLAY, FLASH, HELD };
enum want { ALLOW, DENY };

struct replay {
	const char *name;
	const char *program;
	const char *source;	/* file (function) in the program's repository */
	const char *device;	/* BUS:VID:PID, as hid-policyd --explain takes it */
	uint32_t usage;		/* an application collection the device has
				 * (page << 16 | usage), where a rule set matches by it */
	uint8_t kind;		/* HID_RULE_KIND_* */
	uint8_t report_id;	/* as the hook gets it */
	const char *bytes;	/* the buffer's first bytes, from byte 0 */
	enum sender sender;
	enum use use;
	enum want want;
	const char *gap;	/* a known gap: why no rule can decide it yet */
	/* its report descriptor, where a rule names reports by usage page
	 * (NULL: it declares nothing the rules look for) */
	const uint8_t *descriptor;
	size_t descriptor_len;
	/* the HID++ 2.0 feature indexes the device told the daemon, where a
	 * rule names HID++ features (NULL: it told nothing) */
	const struct hidpp_features *hidpp;
	/* the configuration-channel modules an nRF Desktop device listed to
	 * the daemon, where a rule names an option (NULL: it listed nothing) */
	const struct nrf_config_table *nrf;
};

#define DESCRIPTOR(d) .descriptor = (d), .descriptor_len = sizeof(d)

/* A PixArt Bluetooth mouse whose OTA report is feature report 0x09, not the
 * usual 0x07: input report 1 (three buttons, padding), then vendor page
 * 0xFF02, usage 1, an application collection holding feature report 0x09
 * of usage 1 (Data, Var, Abs) and 32 bytes: what fwupd's lookup wants
 * (fu_hid_descriptor_find_report: usage-page 0xFF02, usage 1, feature 0x02). */
static const uint8_t pixart_ota_on_0x09[] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x01, 0x05, 0x09, 0x19, 0x01,
	0x29, 0x03, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x03, 0x81, 0x02,
	0x95, 0x05, 0x81, 0x01, 0xc0,
	0x06, 0x02, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x85, 0x09, 0x09, 0x01, 0x15, 0x00,
	0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x20, 0xb1, 0x02, 0xc0,
};

#define SET_FEATURE	HID_RULE_KIND_SET_FEATURE
#define GET_FEATURE	HID_RULE_KIND_GET_FEATURE
#define SET_OUTPUT	HID_RULE_KIND_SET_OUTPUT
#define SET_INPUT	HID_RULE_KIND_SET_INPUT
#define WRITE		HID_RULE_KIND_OUTPUT_REPORT

#define ROW(n, prog, src, dev, k, id, b, who, u, w)                            \
	.name = (n), .program = (prog), .source = (src), .device = (dev),      \
	.kind = (k), .report_id = (id), .bytes = (b), .sender = (who),         \
	.use = (u), .want = (w)

#define SDL		"SDL"
#define FWUPD_LOGI	"fwupd (logitech-hidpp)"
#define FWUPD_NORDIC	"fwupd (nordic-hid)"
#define FWUPD_PXRF	"fwupd (pixart-rf)"
#define FWUPD_PXTP	"fwupd (pixart-tp)"
#define FWUPD_LEGION	"fwupd (legion-hid)"
#define FWUPD_LEGION2	"fwupd (legion-hid2)"
#define FWUPD_ASUS	"fwupd (asus-hid)"
#define VALVE		"Valve jupiter-hw-support"
#define IP		"InputPlumber"
#define HHD		"HHD"
#define SOLAAR		"Solaar"

/*
 * What the Logitech rows' devices answer the getFeature (IRoot) the daemon
 * asks for each feature the shipped rules name: DfuControl (0x00C1),
 * DfuControlSigned (0x00C2), DfuControlBolt (0x00C3), DFU (0x00D0), RDFU
 * (0x00D1). Each device numbers its features itself: a paired mouse
 * running its firmware has DfuControl at 0x0c and RDFU at 0x0d, in its
 * bootloader DFU at 0x0e; the receivers (HID++ 1.0 at index FF) have none
 * of them. The device indexes no table lists did not answer.
 */
#define ANSWERS(d, c1, c2, c3, d0, d1)                                        \
	{ .device = (d), .feature = 0x00c1, .index = (c1) },                  \
	{ .device = (d), .feature = 0x00c2, .index = (c2) },                  \
	{ .device = (d), .feature = 0x00c3, .index = (c3) },                  \
	{ .device = (d), .feature = 0x00d0, .index = (d0) },                  \
	{ .device = (d), .feature = 0x00d1, .index = (d1) }
#define NONE(d)		ANSWERS(d, 0, 0, 0, 0, 0)
#define RUNTIME(d)	ANSWERS(d, 0x0c, 0, 0, 0, 0x0d)
#define BOOTLOADER(d)	ANSWERS(d, 0, 0, 0, 0x0e, 0)
#define SLOT(d)		(1u << ((d) == 0xff ? 0 : (d)))

/*
 * What the nRF Desktop rows' mouse lists the daemon (GET_MAX_MOD_ID, then
 * each module's option 0): its dfu module is module 5, whose options are
 * numbered from 1 in the firmware's order (sdk-nrf
 * src/modules/config_channel_dfu.c, opt_descr[]: start, data, sync,
 * reboot, fwinfo, module_variant, devinfo): so dfu/start is event ID 0x51,
 * data 0x52, sync 0x53, reboot 0x54, fwinfo 0x55, module_variant 0x56,
 * devinfo 0x57, and 0x50 is the dfu module's listing.
 */
static const struct nrf_config_table nrf_mouse = {
	.told = true,
	.n_modules = 6,
	.modules = {
		{ .name = "motion", .n_options = 2, .options = { "module_variant", "cpi" } },
		{ .name = "ble_bond", .n_options = 2, .options = { "peer_erase", "peer_search" } },
		{ .name = "ble_adv" },
		{ .name = "led_stream" },
		{ .name = "power_manager" },
		{ .name = "dfu", .n_options = 7, .options = { "start", "data", "sync", "reboot",
							       "fwinfo", "module_variant",
							       "devinfo" } },
	},
};

/* a receiver, and the mouse paired at device index 1 */
static const struct hidpp_features receiver_mouse_on_1 = {
	.answered = SLOT(0xff) | SLOT(1), .n = 10, .entries = { NONE(0xff), RUNTIME(1) },
};
/* a Bolt receiver, and the mouse paired at 2 running its firmware */
static const struct hidpp_features bolt_mouse_on_2 = {
	.answered = SLOT(0xff) | SLOT(2), .n = 10, .entries = { NONE(0xff), RUNTIME(2) },
};
/* ... and the mouse at 2 in its bootloader */
static const struct hidpp_features bolt_mouse_on_2_in_bootloader = {
	.answered = SLOT(0xff) | SLOT(2), .n = 10, .entries = { NONE(0xff), BOOTLOADER(2) },
};
/* a receiver, no paired device answered yet */
static const struct hidpp_features receiver_alone = {
	.answered = SLOT(0xff), .n = 5, .entries = { NONE(0xff) },
};
/* a keyboard's own node (hid-logitech-dj), which answers as device index 1 */
static const struct hidpp_features keyboard_on_1 = {
	.answered = SLOT(1), .n = 5, .entries = { RUNTIME(1) },
};
/* a Bluetooth LE mouse: DfuControl at 0x0b */
static const struct hidpp_features bluetooth_mouse = {
	.answered = SLOT(0xff), .n = 5, .entries = { ANSWERS(0xff, 0x0b, 0, 0, 0, 0) },
};
/* the Bolt receiver's bootloader: DFU at 0x03 */
static const struct hidpp_features bolt_bootloader = {
	.answered = SLOT(0xff), .n = 5, .entries = { ANSWERS(0xff, 0, 0, 0, 0x03, 0) },
};

static const struct replay rows[] = {
	/* Sony DualSense and DualShock 4 */
	{ ROW("sdl-ps5-reads-calibration", SDL, "src/joystick/hidapi/SDL_hidapi_ps5.c (HIDAPI_DriverPS5_LoadCalibrationData)",
	      "usb:054c:0ce6", GET_FEATURE, 0x05, "05", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps5-reads-serial-number", SDL, "src/joystick/hidapi/SDL_hidapi_ps5.c (HIDAPI_DriverPS5_InitDevice)",
	      "usb:054c:0ce6", GET_FEATURE, 0x09, "09", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps5-reads-firmware-info", SDL, "src/joystick/hidapi/SDL_hidapi_ps5.c (HIDAPI_DriverPS5_InitDevice)",
	      "usb:054c:0ce6", GET_FEATURE, 0x20, "20", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps5-sends-usb-effects", SDL, "src/joystick/hidapi/SDL_hidapi_ps5.c (HIDAPI_DriverPS5_InternalSendJoystickEffect)",
	      "usb:054c:0ce6", WRITE, 0x02, "02 03 00 80 80", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps5-sends-bluetooth-effects", SDL, "src/joystick/hidapi/SDL_hidapi_ps5.c (HIDAPI_DriverPS5_InternalSendJoystickEffect)",
	      "bluetooth:054c:0ce6", WRITE, 0x31, "31 00 10 03 00 80 80", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps5-tickles-bluetooth", SDL, "src/joystick/hidapi/SDL_hidapi_ps5.c (HIDAPI_DriverPS5_TickleBluetooth)",
	      "bluetooth:054c:0df2", WRITE, 0x31, "31 02", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps4-reads-usb-calibration", SDL, "src/joystick/hidapi/SDL_hidapi_ps4.c (HIDAPI_DriverPS4_LoadOfficialCalibrationData)",
	      "usb:054c:09cc", GET_FEATURE, 0x02, "02", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps4-reads-bluetooth-calibration", SDL, "src/joystick/hidapi/SDL_hidapi_ps4.c (HIDAPI_DriverPS4_LoadOfficialCalibrationData)",
	      "bluetooth:054c:05c4", GET_FEATURE, 0x05, "05", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps4-reads-wired-serial", SDL, "src/joystick/hidapi/SDL_hidapi_ps4.c (ReadWiredSerial)",
	      "usb:054c:09cc", GET_FEATURE, 0x12, "12", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps4-sends-usb-effects", SDL, "src/joystick/hidapi/SDL_hidapi_ps4.c (HIDAPI_DriverPS4_InternalSendJoystickEffect)",
	      "usb:054c:09cc", WRITE, 0x05, "05 07 00 00 80 80", USER, PLAY, ALLOW) },
	{ ROW("sdl-ps4-sends-bluetooth-effects", SDL, "src/joystick/hidapi/SDL_hidapi_ps4.c (HIDAPI_DriverPS4_InternalSendJoystickEffect)",
	      "bluetooth:054c:09cc", WRITE, 0x11, "11 c0 00 07", USER, PLAY, ALLOW) },

	/* Nintendo Switch Pro Controller */
	{ ROW("sdl-switch-usb-handshake", SDL, "src/joystick/hidapi/SDL_hidapi_switch.c (BTrySetupUSB, WriteProprietary)",
	      "usb:057e:2009", WRITE, 0x80, "80 02", USER, PLAY, ALLOW) },
	{ ROW("sdl-switch-enables-vibration", SDL, "src/joystick/hidapi/SDL_hidapi_switch.c (SetVibrationEnabled, WriteSubcommand)",
	      "usb:057e:2009", WRITE, 0x01, "01 00 00 01 40 40 00 01 40 40 48 01", USER, PLAY, ALLOW) },
	{ ROW("sdl-switch-sets-input-mode", SDL, "src/joystick/hidapi/SDL_hidapi_switch.c (SetInputMode, WriteSubcommand)",
	      "bluetooth:057e:2009", WRITE, 0x01, "01 01 00 01 40 40 00 01 40 40 03 30", USER, PLAY, ALLOW) },
	{ ROW("sdl-switch-reads-stick-calibration", SDL, "src/joystick/hidapi/SDL_hidapi_switch.c (LoadStickCalibration, WriteSubcommand)",
	      "usb:057e:2009", WRITE, 0x01, "01 02 00 01 40 40 00 01 40 40 10 3d 60 00 00 12", USER, PLAY, ALLOW) },
	{ ROW("sdl-switch-sets-player-lights", SDL, "src/joystick/hidapi/SDL_hidapi_switch.c (UpdateSlotLED, WriteSubcommand)",
	      "bluetooth:057e:2007", WRITE, 0x01, "01 03 00 01 40 40 00 01 40 40 30 01", USER, PLAY, ALLOW) },
	{ ROW("sdl-switch-rumbles", SDL, "src/joystick/hidapi/SDL_hidapi_switch.c (WriteRumble)",
	      "usb:057e:2009", WRITE, 0x10, "10 04 00 01 40 40 00 01 40 40", USER, PLAY, ALLOW) },

	/* Valve Steam Controller, Steam Deck controller and its bootloader */
	{ ROW("sdl-steam-controller-gets-attributes", SDL, "src/joystick/hidapi/SDL_hidapi_steam.c (ResetSteamController)",
	      "usb:28de:1102", SET_FEATURE, 0x00, "00 83", USER, PLAY, ALLOW) },
	{ ROW("sdl-steam-controller-clears-mappings", SDL, "src/joystick/hidapi/SDL_hidapi_steam.c (ResetSteamController)",
	      "usb:28de:1142", SET_FEATURE, 0x00, "00 81", USER, PLAY, ALLOW) },
	{ ROW("sdl-steam-controller-sets-settings", SDL, "src/joystick/hidapi/SDL_hidapi_steam.c (ResetSteamController)",
	      "usb:28de:1102", SET_FEATURE, 0x00, "00 87 0c 31 02 00 07 07 00 08 07 00 18 00 00", USER, PLAY, ALLOW) },
	{ ROW("sdl-steam-controller-enables-pairing", SDL, "src/joystick/hidapi/SDL_hidapi_steam.c (SetPairingState)",
	      "usb:28de:1142", SET_FEATURE, 0x00, "00 ad 02", USER, PLAY, ALLOW) },
	{ ROW("steam-controller-factory-reset-as-report-id", SDL, "src/joystick/hidapi/controller_constants.h (ID_FACTORY_RESET), byte 0 as the report ID: a report the descriptor does not declare, refused before any rule",
	      "usb:28de:1102", SET_FEATURE, 0x86, "86 00", USER, FLASH, DENY) },
	{ ROW("sdl-steam-dongle-wireless-state", SDL, "src/joystick/hidapi/SDL_hidapi_steam.c (HIDAPI_DriverSteam_InitDevice)",
	      "usb:28de:1142", SET_FEATURE, 0x00, "00 b4", USER, PLAY, ALLOW) },
	{ ROW("sdl-deck-clears-mappings", SDL, "src/joystick/hidapi/SDL_hidapi_steamdeck.c (DisableDeckLizardMode)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 81 00", USER, PLAY, ALLOW) },
	{ ROW("sdl-deck-sets-trackpad-mode", SDL, "src/joystick/hidapi/SDL_hidapi_steamdeck.c (DisableDeckLizardMode)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 87 03 08 07 00", USER, PLAY, ALLOW) },
	{ ROW("sdl-deck-reads-reply", SDL, "src/joystick/hidapi/SDL_hidapi_steamdeck.c (FeedDeckLizardWatchdog)",
	      "usb:28de:1205", GET_FEATURE, 0x00, "00", USER, PLAY, ALLOW) },
	{ ROW("sdl-deck-rumbles", SDL, "src/joystick/hidapi/SDL_hidapi_steamdeck.c (HIDAPI_DriverSteamDeck_RumbleJoystick)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 eb 09 00 00 00 ff ff ff ff", USER, PLAY, ALLOW) },
	/* InputPlumber writes the command as byte 0, which hidraw gives as
	 * the report ID: an output report the Deck does not declare, which
	 * its firmware reads as the command (commands_in_payload). */
	{ ROW("inputplumber-deck-writes-register", IP, "src/drivers/steam_deck/driver.rs (Driver::write_register)",
	      "usb:28de:1205", WRITE, 0x87, "87 03 08 07 00", DAEMON, PLAY, ALLOW) },
	{ ROW("inputplumber-deck-clears-mappings", IP, "src/drivers/steam_deck/driver.rs (Driver::set_lizard_mode)",
	      "usb:28de:1205", WRITE, 0x81, "81", DAEMON, PLAY, ALLOW) },
	{ ROW("inputplumber-deck-rumbles", IP, "src/drivers/steam_deck/driver.rs (Driver::haptic_rumble)",
	      "usb:28de:1205", WRITE, 0xeb, "eb 09 00 00 00 00 40 00 40", DAEMON, PLAY, ALLOW) },
	{ ROW("inputplumber-deck-register-write-as-set-output-report", IP, "src/drivers/steam_deck/driver.rs (Driver::write_register), on a transport without an interrupt OUT endpoint (hidraw falls back to SET_REPORT output, byte 0 the report ID)",
	      "usb:28de:1205", SET_OUTPUT, 0x87, "87 03 08 07 00", DAEMON, PLAY, ALLOW) },
	{ ROW("steamos-updater-service-reboots-deck-into-isp", VALVE, "usr/bin/jupiter-controller-update (run_firmware_tool), d21bootloader16.py (DogBootloader._reboot_into_isp)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 90 04 00 00 00 00", VALVE_UPDATER, FLASH, ALLOW) },
	{ ROW("steamos-updater-service-sends-firmware-data", VALVE, "usr/bin/jupiter-controller-update (run_firmware_tool program), d21bootloader16.py (DogBootloader._send_data)",
	      "usb:28de:1004", SET_FEATURE, 0x00, "00 92 32 00 40 00 20", VALVE_UPDATER, FLASH, ALLOW) },
	{ ROW("steamos-updater-service-erases-a-row", VALVE, "usr/bin/jupiter-controller-update (run_firmware_tool program), d20bootloader.py (DogBootloader.erase_row)",
	      "usb:28de:1004", SET_FEATURE, 0x00, "00 b1 04 00 40 00 00", VALVE_UPDATER, FLASH, ALLOW) },
	{ ROW("valve-updater-reboots-deck-into-isp", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._reboot_into_isp)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 90 04 00 00 00 00", USER, FLASH, DENY) },
	{ ROW("deck-update-refused-to-fwupd", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._reboot_into_isp), sent from fwupd.service",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 90 04 00 00 00 00", FWUPD, FLASH, DENY) },
	{ ROW("valve-updater-reboot-into-isp-by-root", VALVE, "usr/share/jupiter_controller_fw_updater/d20bootloader.py (DogBootloader._reboot_into_isp)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 90 04 00 00 00 00", ROOT, FLASH, DENY) },
	{ ROW("reboot-into-isp-written-with-a-leading-zero", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._reboot_into_isp), on the output path",
	      "usb:28de:1205", WRITE, 0x00, "00 90 04 00 00 00 00", USER, FLASH, DENY) },
	{ ROW("reboot-into-isp-as-set-output-report", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._reboot_into_isp), as HIDIOCSOUTPUT",
	      "usb:28de:1205", SET_OUTPUT, 0x00, "00 90 04 00 00 00 00", USER, FLASH, DENY) },
	{ ROW("reboot-into-isp-written-as-the-report-id", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._reboot_into_isp), written as InputPlumber writes its commands",
	      "usb:28de:1205", WRITE, 0x90, "90 04 00 00 00 00", USER, FLASH, DENY) },
	{ ROW("reboot-into-isp-as-set-output-report-id", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._reboot_into_isp), byte 0 as the report ID of a SET_REPORT output",
	      "usb:28de:1205", SET_OUTPUT, 0x90, "90 04 00 00 00 00", DAEMON, FLASH, DENY) },
	{ ROW("reboot-into-isp-as-feature-report-id", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._reboot_into_isp), byte 0 as the report ID of a SET_REPORT feature",
	      "usb:28de:1205", SET_FEATURE, 0x90, "90 04 00 00 00 00", ROOT, FLASH, DENY) },
	{ ROW("reboot-into-isp-as-set-input-report", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._reboot_into_isp), as HIDIOCSINPUT of report 0",
	      "usb:28de:1205", SET_INPUT, 0x00, "00 90 04 00 00 00 00", USER, FLASH, DENY) },
	{ ROW("valve-updater-erases-firmware", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader.erase)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 91 00", USER, FLASH, DENY) },
	{ ROW("valve-updater-sends-firmware-data", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._send_data)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 92 32 00 40 00 20", USER, FLASH, DENY) },
	{ ROW("valve-updater-completes-update", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._complete_update)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 93 10 12 34 56 78 5a 5a", USER, FLASH, DENY) },
	{ ROW("valve-updater-reboots-after-update", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader.reboot)",
	      "usb:28de:1205", SET_FEATURE, 0x00, "00 95", USER, FLASH, DENY) },
	{ ROW("valve-bootloader-takes-no-firmware-data", VALVE, "usr/share/jupiter_controller_fw_updater/d21bootloader16.py (DogBootloader._send_data)",
	      "usb:28de:1004", SET_FEATURE, 0x00, "00 92 32 00 40 00 20", USER, FLASH, DENY) },
	{ ROW("valve-bootloader-takes-no-row-erase", VALVE, "usr/share/jupiter_controller_fw_updater/d20bootloader.py (DogBootloader.erase_row)",
	      "usb:28de:1004", SET_FEATURE, 0x00, "00 b1 04 00 40 00 00", ROOT, FLASH, DENY) },
	{ ROW("valve-bootloader-takes-no-32-byte-write", VALVE, "usr/share/jupiter_controller_fw_updater/d20bootloader.py (DogBootloader.write_32b)",
	      "usb:28de:1004", SET_FEATURE, 0x00, "00 b2 24 00 40 00 00", USER, FLASH, DENY) },

	/* Logitech receivers, paired devices, Bluetooth LE devices, Bolt bootloader */
	{ ROW("kernel-dj-switches-receiver-to-dj-mode", "Linux hid-logitech-dj", "drivers/hid/hid-logitech-dj.c (logi_dj_recv_switch_to_dj_mode)",
	      "usb:046d:c52b", SET_OUTPUT, 0x20, "20 ff 80 3f 00", KERNEL, PLAY, ALLOW), .hidpp = &receiver_mouse_on_1 },
	{ ROW("solaar-sets-notification-flags", SOLAAR, "lib/logitech_receiver/hidpp10.py (Hidpp10.set_notification_flags), base.py (write)",
	      "usb:046d:c52b", WRITE, 0x10, "10 ff 80 00 00 09 00", USER, PLAY, ALLOW), .hidpp = &receiver_mouse_on_1 },
	{ ROW("solaar-opens-unifying-pairing-lock", SOLAAR, "lib/logitech_receiver/receiver.py (Receiver.set_lock), hidpp10.py (write_register)",
	      "usb:046d:c52b", WRITE, 0x10, "10 ff 80 b2 01 00 00", USER, PLAY, ALLOW), .hidpp = &receiver_mouse_on_1 },
	{ ROW("solaar-pings-paired-device", SOLAAR, "lib/logitech_receiver/base.py (ping)",
	      "usb:046d:c52b", WRITE, 0x10, "10 01 00 1b 00 00 5a", USER, PLAY, ALLOW), .hidpp = &receiver_mouse_on_1 },
	{ ROW("solaar-sets-mouse-dpi", SOLAAR, "lib/logitech_receiver/settings_templates.py (AdjustableDpi, write_fnid 0x30), base.py (request)",
	      "usb:046d:c52b", WRITE, 0x10, "10 01 0a 3b 00 06 40", USER, PLAY, ALLOW), .hidpp = &receiver_mouse_on_1 },
	{ ROW("solaar-starts-bolt-discovery", SOLAAR, "lib/logitech_receiver/receiver.py (Receiver.discover), hidpp10.py (write_register)",
	      "usb:046d:c548", WRITE, 0x10, "10 ff 80 c0 1e 01 00", USER, PLAY, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("solaar-pairs-bolt-device", SOLAAR, "lib/logitech_receiver/receiver.py (Receiver.pair_device), hidpp10.py (write_register)",
	      "usb:046d:c548", WRITE, 0x11, "11 ff 82 c1 01 00 01 02 03 04 05 06 00 14", USER, PLAY, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("solaar-pings-bluetooth-device", SOLAAR, "lib/logitech_receiver/base.py (ping)",
	      "bluetooth:046d:b02a", WRITE, 0x11, "11 ff 00 1b 00 00 5a", USER, PLAY, ALLOW), .hidpp = &bluetooth_mouse },
	{ ROW("fwupd-reads-unifying-firmware-version", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-runtime-unifying.c (fu_logitech_hidpp_runtime_unifying_setup_internal)",
	      "usb:046d:c52b", WRITE, 0x10, "10 ff 81 f1 01", FWUPD, PLAY, ALLOW), .hidpp = &receiver_mouse_on_1 },
	{ ROW("fwupd-reads-bolt-pairing-information", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-runtime-bolt.c (fu_logitech_hidpp_runtime_bolt_poll_peripheral)",
	      "usb:046d:c548", WRITE, 0x10, "10 ff 83 b5 51", FWUPD, PLAY, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("fwupd-enters-unifying-dfu", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-runtime-unifying.c (fu_logitech_hidpp_runtime_unifying_detach)",
	      "usb:046d:c52b", WRITE, 0x10, "10 ff 80 f0 49 43 50", FWUPD, FLASH, ALLOW), .hidpp = &receiver_mouse_on_1 },
	{ ROW("unifying-dfu-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-runtime-unifying.c (fu_logitech_hidpp_runtime_unifying_detach)",
	      "usb:046d:c52b", WRITE, 0x10, "10 ff 80 f0 49 43 50", USER, FLASH, DENY), .hidpp = &receiver_mouse_on_1 },
	{ ROW("unifying-dfu-refused-to-fwupdtool-as-root", "fwupdtool (root, outside fwupd.service)", "plugins/logitech-hidpp/fu-logitech-hidpp-runtime-unifying.c (fu_logitech_hidpp_runtime_unifying_detach)",
	      "usb:046d:c52b", SET_OUTPUT, 0x10, "10 ff 80 f0 49 43 50", ROOT, FLASH, DENY), .hidpp = &receiver_mouse_on_1 },
	{ ROW("fwupd-enters-bolt-dfu", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-runtime-bolt.c (fu_logitech_hidpp_runtime_bolt_detach)",
	      "usb:046d:c548", WRITE, 0x11, "11 ff 82 f5 01 00 00 00 50 52 45", FWUPD, FLASH, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("bolt-dfu-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-runtime-bolt.c (fu_logitech_hidpp_runtime_bolt_detach)",
	      "usb:046d:c548", WRITE, 0x11, "11 ff 82 f5 01 00 00 00 50 52 45", USER, FLASH, DENY), .hidpp = &bolt_mouse_on_2 },
	{ ROW("fwupd-enters-paired-device-dfu-via-receiver", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_detach)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0c 17 01 00 00 00 44 46 55", FWUPD, FLASH, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("paired-device-dfu-via-receiver-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_detach)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0c 17 01 00 00 00 44 46 55", USER, FLASH, DENY), .hidpp = &bolt_mouse_on_2 },
	{ ROW("paired-device-dfu-via-unifying-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_detach)",
	      "usb:046d:c52b", SET_OUTPUT, 0x11, "11 01 0c 17 01 00 00 00 44 46 55", USER, FLASH, DENY), .hidpp = &receiver_mouse_on_1 },
	{ ROW("fwupd-enters-paired-device-dfu-via-its-own-node", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_detach), logitech-hidpp.quirk (K780 046D:405B)",
	      "usb:046d:405b", WRITE, 0x11, "11 01 0c 17 01 00 00 00 44 46 55", FWUPD, FLASH, ALLOW), .hidpp = &keyboard_on_1 },
	{ ROW("paired-device-dfu-via-its-own-node-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_detach)",
	      "usb:046d:405b", WRITE, 0x11, "11 01 0c 17 01 00 00 00 44 46 55", USER, FLASH, DENY), .hidpp = &keyboard_on_1 },
	{ ROW("kernel-dj-forwards-a-paired-device-request", "Linux hid-logitech-dj", "drivers/hid/hid-logitech-dj.c (logi_dj_ll_raw_request): the paired device's node judged the request",
	      "usb:046d:c52b", SET_OUTPUT, 0x11, "11 01 0c 17 01 00 00 00 44 46 55", KERNEL, PLAY, ALLOW), .hidpp = &receiver_mouse_on_1 },
	{ ROW("fwupd-enters-bluetooth-device-dfu", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_detach), logitech-hidpp.quirk (M650 BLE 046D:B02A)",
	      "bluetooth:046d:b02a", WRITE, 0x11, "11 ff 0b 17 01 00 00 00 44 46 55", FWUPD, FLASH, ALLOW), .hidpp = &bluetooth_mouse },
	{ ROW("bluetooth-device-dfu-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_detach)",
	      "bluetooth:046d:b02a", WRITE, 0x11, "11 ff 0b 17 01 00 00 00 44 46 55", USER, FLASH, DENY), .hidpp = &bluetooth_mouse },
	{ ROW("fwupd-writes-bolt-bootloader", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_write_firmware_pkt)",
	      "usb:046d:ab07", WRITE, 0x11, "11 ff 03 47 00 01 02 03 04 05 06 07", FWUPD, FLASH, ALLOW), .hidpp = &bolt_bootloader },
	{ ROW("bolt-bootloader-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_write_firmware_pkt)",
	      "usb:046d:ab07", WRITE, 0x11, "11 ff 03 47 00 01 02 03 04 05 06 07", USER, FLASH, DENY), .hidpp = &bolt_bootloader },
	{ ROW("paired-device-dfu-data-in-its-bootloader", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_write_firmware_dfu_img, fu_logitech_hidpp_device_write_firmware_pkt)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0e 17 10 11 12 13 14 15 16 17", USER, FLASH, DENY), .hidpp = &bolt_mouse_on_2_in_bootloader },
	{ ROW("paired-device-rdfu-start", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_start_dfu)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0d 17 00 00 00 00 00 00 00 00 00 00 00", USER, FLASH, DENY), .hidpp = &bolt_mouse_on_2 },
	{ ROW("paired-device-rdfu-transfer", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_transfer_pkt)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0d 47 00 01 02 03 04 05 06 07", USER, FLASH, DENY), .hidpp = &bolt_mouse_on_2 },
	{ ROW("paired-device-rdfu-apply", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_apply_dfu)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0d 37 00 00", USER, FLASH, DENY), .hidpp = &bolt_mouse_on_2 },
	{ ROW("fwupd-writes-paired-device-dfu-data-in-its-bootloader", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_write_firmware_dfu_img, fu_logitech_hidpp_device_write_firmware_pkt)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0e 17 10 11 12 13 14 15 16 17", FWUPD, FLASH, ALLOW), .hidpp = &bolt_mouse_on_2_in_bootloader },
	{ ROW("fwupd-starts-paired-device-rdfu", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_start_dfu)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0d 17 00 00 00 00 00 00 00 00 00 00 00", FWUPD, FLASH, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("fwupd-transfers-paired-device-rdfu-data", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_transfer_pkt)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0d 47 00 01 02 03 04 05 06 07", FWUPD, FLASH, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("fwupd-applies-paired-device-rdfu", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_apply_dfu)",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0d 37 00 00", FWUPD, FLASH, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("paired-device-dfu-control-without-the-magic-refused-to-a-user", "setDfuControl with another dfuControlParam than fwupd's", "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_detach): the same function, parameter 01",
	      "usb:046d:c548", WRITE, 0x11, "11 02 0c 17 01 01 00 00 44 46 55", USER, FLASH, DENY), .hidpp = &bolt_mouse_on_2 },
	{ ROW("bluetooth-device-rdfu-at-another-device-index-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_start_dfu), sent to device index 1 of a device that answered as FF only: every feature but IRoot is refused there",
	      "bluetooth:046d:b02a", WRITE, 0x11, "11 01 0d 17 00 00 00 00", USER, FLASH, DENY), .hidpp = &bluetooth_mouse },
	{ ROW("solaar-sets-smartshift-on-a-learned-device", SOLAAR, "lib/logitech_receiver/settings_templates.py (SmartShift, write_fnid 0x10), base.py (request): another feature of the device whose DFU features the rules name",
	      "usb:046d:c548", WRITE, 0x10, "10 02 0b 1a 02 1e 00", USER, PLAY, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("solaar-asks-getfeature-at-a-device-index-that-has-not-answered", SOLAAR, "lib/logitech_receiver/hidpp20.py (FeaturesArray.get_feature: IRoot getFeature), base.py (request)",
	      "usb:046d:c548", WRITE, 0x10, "10 03 00 0a 00 d1 00", USER, PLAY, ALLOW), .hidpp = &bolt_mouse_on_2 },
	{ ROW("solaar-sets-smartshift-at-a-device-index-that-has-not-answered", SOLAAR, "lib/logitech_receiver/settings_templates.py (SmartShift, write_fnid 0x10), base.py (request): held back until the device at index 3 tells its features",
	      "usb:046d:c548", WRITE, 0x10, "10 03 0b 1a 02 1e 00", USER, HELD, DENY), .hidpp = &bolt_mouse_on_2 },
	{ ROW("rdfu-via-its-own-node-under-another-device-index-refused-to-a-user", "a program writing to the paired keyboard's own node", "Linux drivers/hid/hid-logitech-dj.c (logi_dj_ll_raw_request writes the paired device's own index over byte 1), fwupd fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_start_dfu)",
	      "usb:046d:405b", WRITE, 0x11, "11 07 0d 17 00 00 00 00", USER, FLASH, DENY), .hidpp = &keyboard_on_1 },
	{ ROW("rdfu-at-a-device-index-that-has-not-answered-refused-to-a-user", FWUPD_LOGI, "plugins/logitech-hidpp/fu-logitech-hidpp-device.c (fu_logitech_hidpp_device_rdfu_transfer_pkt), to a device paired after the receiver was asked",
	      "usb:046d:c52b", WRITE, 0x11, "11 04 0d 47 00 01 02 03 04 05 06 07", USER, FLASH, DENY), .hidpp = &receiver_alone },

	/* Nordic nRF Desktop (frame: ID, recipient, event ID, status, length, data) */
	{ ROW("fwupd-fetches-nordic-dfu-info", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_fwinfo)",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 55 07 00", FWUPD, PLAY, ALLOW), .nrf = &nrf_mouse },
	{ ROW("fwupd-starts-nordic-dfu", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_start)",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 51 06 0c 00 10 00 00", FWUPD, FLASH, ALLOW), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-start-refused-to-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_start)",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 51 06 0c 00 10 00 00", USER, FLASH, DENY), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-data-refused-to-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_write_firmware_chunk)",
	      "bluetooth:1915:52de", SET_FEATURE, 0x06, "06 00 52 06 3c 00 01 02 03", USER, FLASH, DENY), .nrf = &nrf_mouse },
	{ ROW("fwupd-starts-lenovo-keyboard-dfu", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_start), nordic-hid.quirk (17EF:62CC)",
	      "usb:17ef:62cc", SET_FEATURE, 0x06, "06 00 51 06 0c 00 10 00 00", FWUPD, FLASH, ALLOW) },
	{ ROW("lenovo-keyboard-dfu-refused-to-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_start), nordic-hid.quirk (17EF:62CC)",
	      "usb:17ef:62cc", SET_FEATURE, 0x06, "06 00 51 06 0c 00 10 00 00", USER, FLASH, DENY) },
	/* fwupd's reads, the same requests from a user: they pass once the
	 * device has listed its modules (issue 37's four false positives) */
	{ ROW("fwupd-lists-nordic-modules", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_get_modinfo, fu_nordic_hid_cfg_channel_load_module_opts)",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 50 07 00", FWUPD, PLAY, ALLOW), .nrf = &nrf_mouse },
	{ ROW("nordic-module-listing-read-by-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_load_module_opts), run by a user",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 50 07 00", USER, PLAY, ALLOW), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-fwinfo-read-by-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_fwinfo), run by a user",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 55 07 00", USER, PLAY, ALLOW), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-sync-read-by-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_sync_cb), run by a user",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 53 07 00", USER, PLAY, ALLOW), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-devinfo-read-by-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_get_devinfo), run by a user",
	      "bluetooth:1915:52de", SET_FEATURE, 0x06, "06 00 57 07 00", USER, PLAY, ALLOW), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-fwinfo-held-until-the-device-lists-its-modules", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_fwinfo), run by a user before the device has listed its modules to the daemon",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 55 07 00", USER, HELD, DENY) },
	{ ROW("nordic-board-name-held-until-the-device-lists-its-modules", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_get_board_name), run by a user while the daemon asks the device",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 00 03 00", USER, HELD, DENY) },
	{ ROW("fwupd-asks-nordic-board-name-while-the-daemon-asks", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_get_board_name)",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 00 03 00", FWUPD, PLAY, ALLOW) },
	{ ROW("nordic-board-name-read-by-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_get_board_name), run by a user",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 00 03 00", USER, PLAY, ALLOW), .nrf = &nrf_mouse },
	/* the reboot is a FETCH of the dfu module's reboot option, at the
	 * event ID the device listed */
	{ ROW("fwupd-reboots-nordic-into-the-new-image", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_reboot)",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 54 07 00", FWUPD, FLASH, ALLOW), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-reboot-refused-to-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_reboot)",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 54 07 00", USER, FLASH, DENY), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-reboot-refused-to-a-user-before-the-device-lists-its-modules", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_reboot)",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 54 07 00", USER, FLASH, DENY) },
	{ ROW("nordic-dfu-reboot-refused-to-root-running-another-program", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_reboot), fwupdtool run by hand",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 00 54 07 00", ROOT, FLASH, DENY), .nrf = &nrf_mouse },
	{ ROW("nordic-dfu-reboot-through-the-output-report-refused-to-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_reboot), sdk-nrf nrf_desktop REPORT_ID_USER_CONFIG_OUT",
	      "bluetooth:1915:52de", WRITE, 0x07, "07 00 54 07 00", USER, FLASH, DENY), .nrf = &nrf_mouse },
	{ ROW("nordic-peer-dfu-reboot-refused-to-a-user", FWUPD_NORDIC, "plugins/nordic-hid/fu-nordic-hid-cfg-channel.c (fu_nordic_hid_cfg_channel_dfu_reboot) of a peer behind a dongle (recipient 1), whose modules the daemon does not ask",
	      "usb:1915:52de", SET_FEATURE, 0x06, "06 01 55 07 00", USER, FLASH, DENY), .nrf = &nrf_mouse },

	/* PixArt RF: Bluetooth devices (feature 0x07), receivers (feature 0x03, RF command 0x65) */
	{ ROW("fwupd-reads-pixart-firmware-info", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_get_info)",
	      "bluetooth:093a:2801", SET_FEATURE, 0x07, "07 23", FWUPD, PLAY, ALLOW) },
	{ ROW("pixart-firmware-info-read-by-a-user", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_get_info)",
	      "bluetooth:093a:2801", SET_FEATURE, 0x07, "07 23", USER, PLAY, ALLOW) },
	{ ROW("fwupd-inits-pixart-ota", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_ota_init)",
	      "bluetooth:093a:2801", SET_FEATURE, 0x07, "07 10", FWUPD, FLASH, ALLOW) },
	{ ROW("pixart-ota-init-refused-to-a-user", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_ota_init)",
	      "bluetooth:093a:2801", SET_FEATURE, 0x07, "07 10", USER, FLASH, DENY) },
	{ ROW("fwupd-creates-pixart-object", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_object_create)",
	      "bluetooth:0461:4f28", SET_FEATURE, 0x07, "07 25 00 00 00 00 00 10 00 00", FWUPD, FLASH, ALLOW) },
	{ ROW("pixart-upgrade-refused-to-a-user", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_upgrade)",
	      "bluetooth:0461:4f28", SET_FEATURE, 0x07, "07 18 00 80 00 00 34 12", USER, FLASH, DENY) },
	{ ROW("pixart-reset-refused-to-a-user", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_reset)",
	      "bluetooth:093a:2801", SET_FEATURE, 0x07, "07 22 03", USER, FLASH, DENY) },
	{ ROW("chicony-ota-init-new-refused-to-a-user", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_ota_init_new), pixart-rf.quirk (04F2:2051)",
	      "bluetooth:04f2:2051", SET_FEATURE, 0x07, "07 27 00 80 00 00 00", USER, FLASH, DENY) },
	{ ROW("fwupd-inits-chicony-ota", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_ota_init_new), pixart-rf.quirk (04F2:2051)",
	      "bluetooth:04f2:2051", SET_FEATURE, 0x07, "07 27 00 80 00 00 00", FWUPD, FLASH, ALLOW) },
	{ ROW("hp-receiver-upgrade-refused-to-a-user", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-receiver-device.c (fu_pixart_rf_receiver_device_fw_upgrade), fu-pixart-rf-common.c (fu_pixart_rf_composite_receiver_cmd), pixart-rf.quirk (03F0:9F4A)",
	      "usb:03f0:9f4a", SET_FEATURE, 0x03, "03 5a 65 0e 02 00 18 03 0c 18", USER, FLASH, DENY) },
	{ ROW("fwupd-upgrades-hp-receiver", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-receiver-device.c (fu_pixart_rf_receiver_device_fw_upgrade), pixart-rf.quirk (03F0:9F4A)",
	      "usb:03f0:9f4a", SET_FEATURE, 0x03, "03 5a 65 0e 02 00 18 03 0c 18", FWUPD, FLASH, ALLOW) },
	{ ROW("targus-mouse-ota-init-refused-to-a-user", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_fw_ota_init), pixart-rf.quirk (1048:1013)",
	      "bluetooth:1048:1013", SET_FEATURE, 0x07, "07 10", USER, FLASH, DENY) },
	{ ROW("pixart-ota-on-a-report-the-descriptor-names", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_check_support_report_id, fu_pixart_rf_ble_device_fw_ota_init)",
	      "bluetooth:03f0:b14a", SET_FEATURE, 0x09, "09 10", USER, FLASH, DENY), DESCRIPTOR(pixart_ota_on_0x09) },
	{ ROW("fwupd-inits-ota-on-the-report-the-descriptor-names", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_check_support_report_id, fu_pixart_rf_ble_device_fw_ota_init)",
	      "bluetooth:03f0:b14a", SET_FEATURE, 0x09, "09 10", FWUPD, FLASH, ALLOW), DESCRIPTOR(pixart_ota_on_0x09) },
	{ ROW("object-create-on-the-report-the-descriptor-names-refused-to-root", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_check_support_report_id, fu_pixart_rf_ble_device_fw_object_create)",
	      "bluetooth:03f0:b14a", SET_FEATURE, 0x09, "09 25 00 00 00 00 00 10 00 00", ROOT, FLASH, DENY), DESCRIPTOR(pixart_ota_on_0x09) },
	{ ROW("firmware-info-on-the-report-the-descriptor-names-read-by-a-user", FWUPD_PXRF, "plugins/pixart-rf/fu-pixart-rf-ble-device.c (fu_pixart_rf_ble_device_check_support_report_id, fu_pixart_rf_ble_device_fw_get_info)",
	      "bluetooth:03f0:b14a", SET_FEATURE, 0x09, "09 23", USER, PLAY, ALLOW), DESCRIPTOR(pixart_ota_on_0x09) },

	/* PixArt touchpads (pixart-tp), I2C and USB */
	{ ROW("fwupd-reads-touchpad-part-id", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_register_read)",
	      "i2c:093a:0343", SET_FEATURE, 0x42, "42 78 10 00", FWUPD, PLAY, ALLOW) },
	{ ROW("touchpad-register-read-by-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_register_read)",
	      "i2c:093a:0343", SET_FEATURE, 0x42, "42 78 10 00", USER, PLAY, ALLOW) },
	{ ROW("fwupd-reboots-touchpad-into-bootloader", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_reset, fu_pixart_tp_device_detach)",
	      "i2c:093a:0343", SET_FEATURE, 0x42, "42 2d 01 cc", FWUPD, FLASH, ALLOW) },
	{ ROW("touchpad-suspend-key-refused-to-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_reset)",
	      "i2c:093a:0343", SET_FEATURE, 0x42, "42 2c 01 aa", USER, FLASH, DENY) },
	{ ROW("touchpad-bootloader-key-refused-to-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_reset)",
	      "i2c:093a:0343", SET_FEATURE, 0x42, "42 2d 01 cc", USER, FLASH, DENY) },
	{ ROW("touchpad-bootloader-key-refused-on-usb", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_reset)",
	      "usb:093a:0343", SET_FEATURE, 0x42, "42 2d 01 cc", ROOT, FLASH, DENY) },
	{ ROW("touchpad-flash-execute-refused-to-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_flash_execute)",
	      "i2c:093a:0274", SET_FEATURE, 0x42, "42 56 04 01", USER, FLASH, DENY) },
	{ ROW("fwupd-bursts-touchpad-sram", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_register_burst_write)",
	      "i2c:093a:0343", SET_FEATURE, 0x41, "41 00 01 02 03 04 05 06 07", FWUPD, FLASH, ALLOW) },
	{ ROW("touchpad-sram-burst-refused-to-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_register_burst_write)",
	      "i2c:093a:0343", SET_FEATURE, 0x41, "41 00 01 02 03 04 05 06 07", USER, FLASH, DENY) },
	{ ROW("plp239-flash-command-refused-to-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-plp239-device.c (fu_pixart_tp_plp239_device_set_flash_command)",
	      "i2c:093a:0239", SET_FEATURE, 0x42, "42 25 06 02", USER, FLASH, DENY) },
	{ ROW("touchpad-crc-trigger-refused-to-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-device.c (fu_pixart_tp_device_register_user_write)",
	      "i2c:093a:0343", SET_FEATURE, 0x43, "43 82 00 02", USER, FLASH, DENY) },
	{ ROW("fwupd-enters-haptic-upgrade-mode", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-haptic-device.c (fu_pixart_tp_haptic_device_tf_write_rmi_cmd)",
	      "i2c:093a:4f07", SET_FEATURE, 0xcc, "cc 5a 2c 00 01 00 01 00 01", FWUPD, FLASH, ALLOW) },
	{ ROW("haptic-upgrade-mode-refused-to-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-haptic-device.c (fu_pixart_tp_haptic_device_tf_write_rmi_cmd)",
	      "i2c:093a:4f07", SET_FEATURE, 0xcc, "cc 5a 2c 00 01 00 01 00 01", USER, FLASH, DENY) },
	{ ROW("haptic-upgrade-data-refused-to-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-haptic-device.c (fu_pixart_tp_haptic_device_tf_write_rmi_with_packet)",
	      "i2c:093a:4f07", SET_FEATURE, 0xcc, "cc 5a 2c 04 02 00 44 00 10 00 01 00", USER, FLASH, DENY) },
	{ ROW("haptic-version-read-by-a-user", FWUPD_PXTP, "plugins/pixart-tp/fu-pixart-tp-haptic-device.c (fu_pixart_tp_haptic_device_tf_read_rmi)",
	      "i2c:093a:4f07", SET_FEATURE, 0xcc, "cc 5a 2c 0b 07 00 02 00 03 00", USER, PLAY, ALLOW) },

	/* Lenovo Legion Go 2 (report 0x05: length, main ID, sub ID, device, ...) */
	{ ROW("hhd-sets-legion-go-rgb-profile", HHD, "src/hhd/device/legion_go/tablet/hid.py (rgb_set_profile)",
	      "usb:17ef:61eb", WRITE, 0x05, "05 0c 72 01 03 01 ff 00 00 3f 00 03 01", DAEMON, PLAY, ALLOW) },
	{ ROW("hhd-enables-legion-go-gyro", HHD, "src/hhd/device/legion_go/tablet/hid.py (controller_enable_gyro)",
	      "usb:17ef:61eb", WRITE, 0x05, "05 06 6a 02 03 01 01", DAEMON, PLAY, ALLOW) },
	{ ROW("hhd-swaps-legion-go-buttons", HHD, "src/hhd/device/legion_go/tablet/hid.py (controller_legion_swap)",
	      "usb:17ef:61ec", WRITE, 0x05, "05 06 69 04 01 01 01", DAEMON, PLAY, ALLOW) },
	{ ROW("hhd-resets-legion-go-controllers", HHD, "src/hhd/device/legion_go/tablet/hid.py (controller_factory_reset)",
	      "usb:17ef:61eb", WRITE, 0x04, "04 05 05 01 01 03 01", DAEMON, PLAY, ALLOW) },
	{ ROW("fwupd-reads-legion-go-version", FWUPD_LEGION, "plugins/legion-hid/fu-legion-hid-device.c (fu_legion_hid_device_get_version_internal)",
	      "usb:17ef:61eb", WRITE, 0x05, "05 05 79 01 01 01", FWUPD, PLAY, ALLOW) },
	{ ROW("fwupd-starts-legion-go-upgrade", FWUPD_LEGION, "plugins/legion-hid/fu-legion-hid-device.c (fu_legion_hid_device_upgrade_start)",
	      "usb:17ef:61eb", WRITE, 0x05, "05 0e 53 11 01 01 08 50 00 12 34 00 40 00 01", FWUPD, FLASH, ALLOW) },
	{ ROW("legion-go-upgrade-start-refused-to-a-user", FWUPD_LEGION, "plugins/legion-hid/fu-legion-hid-device.c (fu_legion_hid_device_upgrade_start)",
	      "usb:17ef:61eb", WRITE, 0x05, "05 0e 53 11 01 01 08 50 00 12 34 00 40 00 01", USER, FLASH, DENY) },
	{ ROW("legion-go-upgrade-start-refused-to-a-daemon", FWUPD_LEGION, "plugins/legion-hid/fu-legion-hid-device.c (fu_legion_hid_device_upgrade_start)",
	      "usb:17ef:61ee", SET_OUTPUT, 0x05, "05 0e 53 11 03 01 08 50 00 12 34 00 40 00 01", DAEMON, FLASH, DENY) },
	{ ROW("legion-go-upgrade-data-refused-to-a-user", FWUPD_LEGION, "plugins/legion-hid/fu-legion-hid-device.c (fu_legion_hid_device_upgrade_write_data_chunk)",
	      "usb:17ef:61eb", WRITE, 0x05, "05 26 53 11 03 02 00 01 02 03", USER, FLASH, DENY) },

	/* Lenovo Legion Go S (1A86, a generic vendor ID: matched by its 0xFFA0 collection too) */
	{ ROW("hhd-disables-legion-go-s-os-detection", HHD, "src/hhd/device/legion_go/slim/hid.py (config_device)",
	      "usb:1a86:e310", WRITE, 0x04, "04 09 00", DAEMON, PLAY, ALLOW), .usage = 0xffa00001 },
	{ ROW("hhd-loads-legion-go-s-rgb-profile", HHD, "src/hhd/device/legion_go/slim/hid.py (rgb_load_profile)",
	      "usb:1a86:e310", WRITE, 0x10, "10 02 03", DAEMON, PLAY, ALLOW), .usage = 0xffa00001 },
	{ ROW("hhd-sets-legion-go-s-turbo", HHD, "src/hhd/device/legion_go/slim/hid.py (config_device)",
	      "usb:1a86:e311", WRITE, 0x12, "12 10 01", DAEMON, PLAY, ALLOW), .usage = 0xffa00001 },
	{ ROW("inputplumber-rumbles-legion-go-s", IP, "src/drivers/legos/xinput_driver.rs (XInputDriver::haptic_rumble), hid_report.rs (RumbleOutputDataReport)",
	      "usb:1a86:e310", WRITE, 0x04, "04 00 08 00 40 40 00 00 00", DAEMON, PLAY, ALLOW), .usage = 0xffa00001 },
	{ ROW("fwupd-reads-legion-go-s-version", FWUPD_LEGION2, "plugins/legion-hid2/fu-legion-hid2-device.c (fu_legion_hid2_device_ensure_version)",
	      "usb:1a86:e310", WRITE, 0x01, "01 00 00 00", FWUPD, PLAY, ALLOW), .usage = 0xffa00001 },
	{ ROW("fwupd-starts-legion-go-s-iap", FWUPD_LEGION2, "plugins/legion-hid2/fu-legion-hid2-device.c (fu_legion_hid2_device_detach)",
	      "usb:1a86:e310", WRITE, 0xe1, "e1 55 50 47 52 41 44 45 01", FWUPD, FLASH, ALLOW), .usage = 0xffa00001 },
	{ ROW("legion-go-s-start-iap-refused-to-a-user", FWUPD_LEGION2, "plugins/legion-hid2/fu-legion-hid2-device.c (fu_legion_hid2_device_detach)",
	      "usb:1a86:e310", WRITE, 0xe1, "e1 55 50 47 52 41 44 45 01", USER, FLASH, DENY), .usage = 0xffa00001 },
	{ ROW("legion-go-s-start-iap-refused-to-a-daemon", FWUPD_LEGION2, "plugins/legion-hid2/fu-legion-hid2-device.c (fu_legion_hid2_device_detach)",
	      "usb:1a86:e311", SET_OUTPUT, 0xe1, "e1 55 50 47 52 41 44 45 01", DAEMON, FLASH, DENY), .usage = 0xffa00001 },
	{ ROW("fwupd-unlocks-legion-go-s-iap-flash", FWUPD_LEGION2, "plugins/legion-hid2/fu-legion-hid2-iap-device.c (fu_legion_hid2_iap_device_unlock_flash)",
	      "usb:1a86:fe10", WRITE, 0x80, "80 5a 00 00", FWUPD, FLASH, ALLOW), .usage = 0xff000001 },
	{ ROW("legion-go-s-iap-unlock-refused-to-a-user", FWUPD_LEGION2, "plugins/legion-hid2/fu-legion-hid2-iap-device.c (fu_legion_hid2_iap_device_unlock_flash)",
	      "usb:1a86:fe10", WRITE, 0x80, "80 5a 00 00", USER, FLASH, DENY), .usage = 0xff000001 },
	{ ROW("legion-go-s-iap-data-refused-to-a-user", FWUPD_LEGION2, "plugins/legion-hid2/fu-legion-hid2-iap-device.c (fu_legion_hid2_iap_device_write_data_chunks)",
	      "usb:1a86:fe10", WRITE, 0x81, "81 5a 3c 00 00 01 02 03", USER, FLASH, DENY), .usage = 0xff000001 },

	/* ASUS ROG Ally and Ally X (report 0x5A, command in bytes 1-4) and their ITE bootloader */
	{ ROW("hhd-sets-ally-gamepad-mode", HHD, "src/hhd/device/rog_ally/hid.py (switch_mode), const.py (MODE_GAME)",
	      "usb:0b05:1abe", WRITE, 0x5a, "5a d1 01 01 01", DAEMON, PLAY, ALLOW), .usage = 0xff310080 },
	{ ROW("hhd-waits-for-ally-ready", HHD, "src/hhd/device/rog_ally/hid.py (wait_for_ready), const.py (WAIT_READY)",
	      "usb:0b05:1abe", SET_FEATURE, 0x5a, "5a d1 0a 01", DAEMON, PLAY, ALLOW), .usage = 0xff310080 },
	{ ROW("hhd-sets-ally-rgb", HHD, "src/hhd/device/rog_ally/hid.py (rgb_command)",
	      "usb:0b05:1b4c", WRITE, 0x5a, "5a b3 00 00 ff 00 00 00 00 00 00 00 00", DAEMON, PLAY, ALLOW), .usage = 0xff310080 },
	{ ROW("hhd-applies-ally-rgb", HHD, "src/hhd/device/rog_ally/const.py (RGB_APPLY)",
	      "usb:0b05:1abe", WRITE, 0x5a, "5a b4", DAEMON, PLAY, ALLOW), .usage = 0xff310080 },
	{ ROW("hhd-sets-ally-brightness", HHD, "src/hhd/device/rog_ally/hid.py (rgb_set_brightness)",
	      "usb:0b05:1abe", WRITE, 0x5a, "5a ba c5 c4 03", DAEMON, PLAY, ALLOW), .usage = 0xff310080 },
	{ ROW("fwupd-inits-ally", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_init_seq)",
	      "usb:0b05:1abe", SET_FEATURE, 0x5a, "5a d1 01 01 01 00", FWUPD, PLAY, ALLOW), .usage = 0xff310076 },
	{ ROW("fwupd-reads-ally-mcu-version", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-child-device.c (fu_asus_hid_child_device_ensure_version)",
	      "usb:0b05:1abe", SET_FEATURE, 0x5a, "5a 05 03 31 00 20", FWUPD, PLAY, ALLOW), .usage = 0xff310076 },
	{ ROW("fwupd-prepares-ally-update", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_detach)",
	      "usb:0b05:1abe", SET_FEATURE, 0x5a, "5a 05 00 20 00 20", FWUPD, FLASH, ALLOW), .usage = 0xff310076 },
	{ ROW("ally-pre-update-refused-to-a-user", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_detach)",
	      "usb:0b05:1abe", SET_FEATURE, 0x5a, "5a 05 00 20 00 20", USER, FLASH, DENY), .usage = 0xff310076 },
	{ ROW("ally-pre-update-2-refused-to-a-user", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_detach)",
	      "usb:0b05:1b4c", SET_FEATURE, 0x5a, "5a 07 09 20 00 01", USER, FLASH, DENY), .usage = 0xff310076 },
	{ ROW("ally-pre-update-5-refused-to-a-user", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_detach)",
	      "usb:0b05:1abe", SET_FEATURE, 0x5a, "5a 08 0b 26 00 01 02 00 00 00", USER, FLASH, DENY), .usage = 0xff310076 },
	{ ROW("ally-pre-update-6-refused-to-a-user", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_detach)",
	      "usb:0b05:1abe", SET_FEATURE, 0x5a, "5a e0 32 93 00 00", USER, FLASH, DENY), .usage = 0xff310076 },
	{ ROW("ally-pre-update-6-written-refused-to-a-daemon", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_detach), written as HHD writes",
	      "usb:0b05:1b4c", WRITE, 0x5a, "5a e0 32 93 00 00", DAEMON, FLASH, DENY), .usage = 0xff310080 },
	{ ROW("fwupd-resets-ally-bootloader", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_attach)",
	      "usb:048d:89db", SET_FEATURE, 0xc4, "c4 00 00", FWUPD, FLASH, ALLOW) },
	{ ROW("ally-bootloader-reset-refused-to-a-user", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_attach)",
	      "usb:048d:89db", SET_FEATURE, 0xc4, "c4 00 00", USER, FLASH, DENY) },
	{ ROW("ally-x-bootloader-flash-read-refused-to-a-user", FWUPD_ASUS, "plugins/asus-hid/fu-asus-hid-device.c (fu_asus_hid_device_dump_firmware)",
	      "usb:048d:89dc", SET_FEATURE, 0xd1, "d1 00 00 00 3a", USER, FLASH, DENY) },
};

/* The reports the descriptors of some devices declare, (type << 8 | id)
 * pairs ended by 0xffff, from the devices' descriptors as the kernel
 * reads them: the Steam Deck controller and the Steam Controller number
 * no report and have a 64-byte input and feature report each (hid-steam
 * reads both; no output report). Rows of other devices skip the check. */
static const struct {
	const char *device;
	uint16_t reports[8];
} device_reports[] = {
	{ "usb:28de:1205", { 0x0000, 0x0200, 0xffff } },
	{ "usb:28de:1102", { 0x0000, 0x0200, 0xffff } },
	{ "usb:28de:1142", { 0x0000, 0x0200, 0xffff } },
};

/* The shipped policy, loaded once; the updaters' units given cgroups. */
static struct policy *shipped;
static char load_error[1024];
static const struct replay *current;

static const uint64_t in_fwupd[] = { 1, 2, FWUPD_CGROUP };
static const uint64_t in_valve_updater[] = { 1, 2, VALVE_CGROUP };
static const uint64_t in_session[] = { 1, 3, 4, 5 };
static const uint64_t in_other_service[] = { 1, 2, 6 };

static const struct policy_sender_id senders[] = {
	[FWUPD] = { .known = true, .cgroups = in_fwupd, .n_cgroups = ARRAY_SIZE(in_fwupd) },
	[VALVE_UPDATER] = { .known = true, .cgroups = in_valve_updater,
			    .n_cgroups = ARRAY_SIZE(in_valve_updater) },
	[USER] = { .known = true, .uid = 1000, .gid = 1000, .cgroups = in_session,
		   .n_cgroups = ARRAY_SIZE(in_session) },
	[ROOT] = { .known = true, .cgroups = in_session, .n_cgroups = ARRAY_SIZE(in_session) },
	[DAEMON] = { .known = true, .cgroups = in_other_service,
		     .n_cgroups = ARRAY_SIZE(in_other_service) },
	[KERNEL] = { .from_kernel = true },
};

static const char *const sender_names[] = {
	[FWUPD] = "fwupd.service", [VALVE_UPDATER] = "jupiter-controller-update.service",
	[USER] = "a user", [ROOT] = "root in a login session",
	[DAEMON] = "a daemon in another service", [KERNEL] = "a driver",
};

/* The trusted updaters' units, and the cgroup each is given. */
static const struct {
	const char *unit;
	uint64_t cgroup;
} updaters[] = {
	{ "fwupd.service", FWUPD_CGROUP },
	{ "jupiter-controller-update.service", VALVE_CGROUP },
};

/* Load policies/ and give each updater's unit its cgroup (level 2, in
 * system.slice, as the senders' cgroups above are); on failure,
 * LOAD_ERROR says why. */
static void load_shipped(void)
{
	const char *src = getenv("HID_POLICY_SRCDIR") ?: ".";
	char dir[256];
	const char *dirs[] = { dir };
	struct diag d = {};

	snprintf(dir, sizeof(dir), "%s/policies", src);
	if (policy_load_dirs(dirs, 1, true, &d, &shipped) < 0) {
		snprintf(load_error, sizeof(load_error), "%s rejected: %s", dir,
			 d.n ? d.entries[0].text : "no message");
		diag_done(&d);
		return;
	}
	diag_done(&d);
	for (size_t u = 0; u < ARRAY_SIZE(updaters); u++) {
		struct policy_unit *unit = NULL;

		for (size_t i = 0; i < shipped->n_units && !unit; i++)
			if (!strcmp(shipped->units[i].name, updaters[u].unit))
				unit = &shipped->units[i];
		if (!unit) {
			snprintf(load_error, sizeof(load_error), "no rule names %s", updaters[u].unit);
			return;
		}
		if (unit->level != 2) {
			snprintf(load_error, sizeof(load_error), "%s is at cgroup level %u, not in system.slice",
				 unit->name, unit->level);
			return;
		}
		unit->cgroup_id = updaters[u].cgroup;
	}
}

/* What the shipped rules decide for row R; returns 0 or a negative errno
 * with WHY set. */
static int replay_row(const struct replay *r, struct policy_verdict *v, const char **why)
{
	struct policy_device dev;
	struct hid_device_rules rules;
	struct hid_report_usage reports[HID_DESCRIPTOR_REPORT_USAGES_MAX];
	uint32_t declared[HID_RULES_RTYPES][HID_RULES_REPORT_ID_WORDS] = {};
	uint8_t buf[64];
	char *name = NULL;
	int n, ret;

	if (policy_device_parse(r->device, &dev, &name) < 0) {
		*why = "the device is not BUS:VID:PID";
		return -EINVAL;
	}
	free(name);	/* the device has no name: nothing points into it */
	dev.name = NULL;
	dev.descriptor_known = true;
	dev.hidpp = r->hidpp;
	dev.nrf = r->nrf;
	if (r->usage) {
		dev.usages = &r->usage;
		dev.n_usages = 1;
	}
	if (r->descriptor) {
		/* as the daemon reads it (hid_dev_set_descriptor): the
		 * reports declared and the usages they carry, in one walk */
		if (hid_descriptor_reports(r->descriptor, r->descriptor_len, declared, reports,
					   HID_DESCRIPTOR_REPORT_USAGES_MAX, &dev.n_reports) < 0) {
			*why = "the row's descriptor does not parse";
			return -EINVAL;
		}
		dev.reports = reports;
		dev.declared = declared;
	}
	for (size_t i = 0; !r->descriptor && i < ARRAY_SIZE(device_reports); i++) {
		if (strcmp(device_reports[i].device, r->device))
			continue;
		for (const uint16_t *t = device_reports[i].reports; *t != 0xffff; t++)
			declared[*t >> 8][(*t & 0xff) / 32] |= 1u << (*t % 32);
		dev.declared = declared;
	}
	n = policy_hex_bytes(r->bytes, buf, sizeof(buf));
	if (n < 0) {
		*why = "the bytes are not hexadecimal pairs";
		return n;
	}
	ret = policy_compile(shipped, &dev, &rules, NULL);
	if (ret < 0 && ret != -ENOENT) {
		*why = "the device's rules do not compile";
		return ret;
	}
	policy_evaluate(&rules, &(struct policy_request){ .kind = r->kind, .report_id = r->report_id,
							  .data = buf, .len = (size_t)n,
							  .sender = &senders[r->sender] }, v);
	return 0;
}

static const char *rule_name(const struct policy_verdict *v)
{
	if (v->index == HID_RULE_INDEX_UNDECLARED)
		return "(report type and ID the descriptor does not declare)";
	return v->index == HID_RULE_INDEX_DEFAULT ? "(the default)" : shipped->rules[v->index].name;
}

static void replay_current(void)
{
	const struct replay *r = current;
	struct policy_verdict v;
	const char *why = NULL;
	bool refused;

	if (r->gap)
		SKIP("known gap: %s", r->gap);
	if (!shipped) {
		if (!policy_cgroup_root())
			SKIP("this machine has no cgroup2 hierarchy: a policy naming a unit cannot be read");
		CHECK(shipped, "%s", load_error);
	}
	CHECK(!load_error[0], "%s", load_error);
	CHECK_OK(replay_row(r, &v, &why));
	refused = v.action == HID_RULE_DENY && v.enforced;
	if (refused != (r->want == DENY)) {
		test_log("%s, %s: %s %s report %#04x \"%s\" from %s", r->program, r->source,
			 r->device, policy_kind_name(r->kind), r->report_id, r->bytes,
			 sender_names[r->sender]);
		CHECK(refused == (r->want == DENY), "%s by rule %s, expected %s",
		      refused ? "refused" : "allowed", rule_name(&v),
		      r->want == DENY ? "refused" : "allowed");
	}
	if (refused)
		CHECK_EQ(v.err, EPERM);
}

/* The counts the issue asks for, from the parent's own replay. */
static void print_summary(void)
{
	unsigned int play[2] = {}, flash_refused = 0, flash_trusted = 0, flash_other = 0, gaps = 0;
	unsigned int held = 0;

	if (!shipped || load_error[0])
		return;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct replay *r = &rows[i];
		struct policy_verdict v;
		const char *why;
		bool refused;

		if (r->gap) {
			gaps++;
			continue;
		}
		if (replay_row(r, &v, &why) < 0)
			continue;
		refused = v.action == HID_RULE_DENY && v.enforced;
		if (r->use == PLAY)
			play[refused]++;
		else if (r->use == HELD)
			held += refused;
		else if (refused)
			flash_refused++;
		else if (r->sender == FWUPD || r->sender == VALVE_UPDATER)
			flash_trusted++;
		else
			flash_other++;
	}
	test_log("replay: ordinary requests (games, handheld daemons, drivers, Solaar, updaters' reads): %u allowed, %u refused; flashing and bootloader requests: %u refused, %u allowed to the trusted updaters (fwupd.service, jupiter-controller-update.service), %u allowed to any other sender; %u ordinary requests held back at devices (HID++ device indexes, nRF Desktop configuration channels) that have not told what the rules need; %u known gaps (SKIP)",
		 play[0], play[1], flash_refused, flash_trusted, flash_other, held, gaps);
}

int main(int argc, char **argv)
{
	bool listing = argc > 1 && !strcmp(argv[1], "--list");
	int failed = 0;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(rows[i].name, rows[j].name)) {
				printf("FAIL: client-replay/unique-row-names (%s twice)\n", rows[i].name);
				return 1;
			}
	if (!listing)
		load_shipped();
	/* One row per test: each runs in its own child, which inherits CURRENT. */
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct test_case t = { rows[i].name, replay_current };

		current = &rows[i];
		failed |= test_main(argc, argv, "client-replay", &t, 1);
	}
	if (argc == 1)
		print_summary();
	policy_free(shipped);
	return failed;
}
