// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sdl-gamepad: open the first game controller with the system's SDL 2, as
 * a game does, with SDL's HIDAPI drivers (their default), and use what a
 * game uses: the controller's calibration (SDL reads it when it opens the
 * controller; on the Steam Deck, SDL turns the controller's mouse and
 * keyboard emulation off instead), its sensors, rumble, the light bar where
 * it has one and the player light.
 *
 * Usage: sdl-gamepad dualsense|dualshock4|switch-pro|steam-deck [NODE]
 * Opens the first controller SDL takes for one of that type, whatever
 * other controllers there are; with NODE, the one SDL drives through
 * that hidraw node (SDL_GameControllerPathForIndex, SDL 2.24 and later:
 * the path its HIDAPI driver opened), to tell a controller on Bluetooth
 * from the same model on USB. Prints what SDL says of the controller and
 * each call's result; exits 0
 * when SDL opened that controller through its HIDAPI driver and every call
 * succeeded, 1 otherwise, 2 on a usage error or when libSDL2-2.0.so.0
 * cannot be loaded.
 *
 * SDL is loaded with dlopen(), the way SDL's own dynamic API loads it, so
 * that this test tool builds without SDL's headers: the few functions and
 * constants used are SDL 2's stable ABI (SDL.h, SDL_gamecontroller.h).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SDL_INIT_JOYSTICK	0x00000200u
#define SDL_INIT_GAMECONTROLLER	0x00002000u
#define SDL_INIT_SENSOR		0x00008000u
#define SDL_SENSOR_ACCEL	1
#define SDL_SENSOR_GYRO		2
#define SDL_CONTROLLER_TYPE_UNKNOWN	0
#define SDL_CONTROLLER_TYPE_PS4	4
#define SDL_CONTROLLER_TYPE_NINTENDO_SWITCH_PRO 5
#define SDL_CONTROLLER_TYPE_PS5	7
#define WAIT_STEPS		100	/* 100 x 100 ms for the controller to appear */

struct sdl {
	int (*Init)(uint32_t flags);
	void (*Quit)(void);
	const char *(*GetError)(void);
	int (*SetHint)(const char *name, const char *value);
	int (*NumJoysticks)(void);
	int (*IsGameController)(int index);
	int (*GameControllerTypeForIndex)(int index);
	const char *(*GameControllerNameForIndex)(int index);
	const char *(*GameControllerPathForIndex)(int index);
	void *(*GameControllerOpen)(int index);
	const char *(*GameControllerName)(void *gc);
	int (*GameControllerGetType)(void *gc);
	int (*GameControllerHasSensor)(void *gc, int type);
	int (*GameControllerSetSensorEnabled)(void *gc, int type, int enabled);
	int (*GameControllerRumble)(void *gc, uint16_t low, uint16_t high, uint32_t ms);
	int (*GameControllerSetLED)(void *gc, uint8_t r, uint8_t g, uint8_t b);
	void (*GameControllerSetPlayerIndex)(void *gc, int index);
	void (*GameControllerUpdate)(void);
	void (*GameControllerClose)(void *gc);
	void (*Delay)(uint32_t ms);
};

static int load(struct sdl *s)
{
	void *lib = dlopen("libSDL2-2.0.so.0", RTLD_NOW);
	const struct { const char *name; void **fn; } syms[] = {
		{ "SDL_Init", (void **)&s->Init },
		{ "SDL_Quit", (void **)&s->Quit },
		{ "SDL_GetError", (void **)&s->GetError },
		{ "SDL_SetHint", (void **)&s->SetHint },
		{ "SDL_NumJoysticks", (void **)&s->NumJoysticks },
		{ "SDL_IsGameController", (void **)&s->IsGameController },
		{ "SDL_GameControllerTypeForIndex", (void **)&s->GameControllerTypeForIndex },
		{ "SDL_GameControllerNameForIndex", (void **)&s->GameControllerNameForIndex },
		{ "SDL_GameControllerPathForIndex", (void **)&s->GameControllerPathForIndex },
		{ "SDL_GameControllerOpen", (void **)&s->GameControllerOpen },
		{ "SDL_GameControllerName", (void **)&s->GameControllerName },
		{ "SDL_GameControllerGetType", (void **)&s->GameControllerGetType },
		{ "SDL_GameControllerHasSensor", (void **)&s->GameControllerHasSensor },
		{ "SDL_GameControllerSetSensorEnabled", (void **)&s->GameControllerSetSensorEnabled },
		{ "SDL_GameControllerRumble", (void **)&s->GameControllerRumble },
		{ "SDL_GameControllerSetLED", (void **)&s->GameControllerSetLED },
		{ "SDL_GameControllerSetPlayerIndex", (void **)&s->GameControllerSetPlayerIndex },
		{ "SDL_GameControllerUpdate", (void **)&s->GameControllerUpdate },
		{ "SDL_GameControllerClose", (void **)&s->GameControllerClose },
		{ "SDL_Delay", (void **)&s->Delay },
	};

	if (!lib) {
		fprintf(stderr, "sdl-gamepad: %s\n", dlerror());
		return -1;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		*syms[i].fn = dlsym(lib, syms[i].name);
		if (!*syms[i].fn) {
			fprintf(stderr, "sdl-gamepad: %s: %s\n", syms[i].name, dlerror());
			return -1;
		}
	}
	return 0;
}

/* One call's result, said; true when it succeeded. */
static int said(struct sdl *s, const char *what, int r)
{
	printf("%s: %s%s\n", what, r == 0 ? "ok" : "failed: ", r == 0 ? "" : s->GetError());
	return r == 0;
}

/* What SDL makes of each controller: the type it names, and the name
 * where SDL 2 has no type of its own for it (the Steam Deck's HIDAPI driver
 * names it "Steam Deck": SDL_hidapi_steamdeck.c, _InitDevice), the HIDAPI
 * driver's hint, and whether the controller has a light bar
 * (SDL_GameControllerSetLED: the Switch Pro Controller and the Deck have
 * none). */
static const struct controller {
	const char *name;
	int type;
	const char *sdl_name;
	const char *driver_hint;
	int light_bar;
} controllers[] = {
	{ "dualsense", SDL_CONTROLLER_TYPE_PS5, NULL, "SDL_JOYSTICK_HIDAPI_PS5", 1 },
	{ "dualshock4", SDL_CONTROLLER_TYPE_PS4, NULL, "SDL_JOYSTICK_HIDAPI_PS4", 1 },
	{ "switch-pro", SDL_CONTROLLER_TYPE_NINTENDO_SWITCH_PRO, NULL, "SDL_JOYSTICK_HIDAPI_SWITCH", 0 },
	{ "steam-deck", SDL_CONTROLLER_TYPE_UNKNOWN, "Steam Deck", "SDL_JOYSTICK_HIDAPI_STEAMDECK", 0 },
};

/* Is SDL's controller INDEX one of WANT's, at NODE when given? */
static int is_wanted(struct sdl *s, int index, const struct controller *want, const char *node)
{
	const char *name, *path;

	if (!s->IsGameController(index) || s->GameControllerTypeForIndex(index) != want->type)
		return 0;
	path = s->GameControllerPathForIndex(index);
	if (node && (!path || strcmp(path, node)))
		return 0;
	name = s->GameControllerNameForIndex(index);
	return !want->sdl_name || (name && !strcmp(name, want->sdl_name));
}

int main(int argc, char **argv)
{
	const struct controller *want = NULL;
	const char *node = argc == 3 ? argv[2] : NULL;
	struct sdl s;
	void *gc = NULL;
	int ok = 1, i;

	for (size_t c = 0; (argc == 2 || argc == 3) && c < sizeof(controllers) / sizeof(controllers[0]); c++)
		if (!strcmp(argv[1], controllers[c].name))
			want = &controllers[c];
	if (!want) {
		fprintf(stderr, "usage: sdl-gamepad dualsense|dualshock4|switch-pro|steam-deck [NODE]\n");
		return 2;
	}
	if (load(&s))
		return 2;
	/* SDL's defaults, said out loud: the HIDAPI drivers talk to the
	 * controller's hidraw node, as in every SDL game; the Sony
	 * controllers' effects (rumble, lights) are on. */
	s.SetHint("SDL_JOYSTICK_HIDAPI", "1");
	s.SetHint(want->driver_hint, "1");
	s.SetHint("SDL_JOYSTICK_HIDAPI_PS4_RUMBLE", "1");
	s.SetHint("SDL_JOYSTICK_HIDAPI_PS5_RUMBLE", "1");
	if (s.Init(SDL_INIT_GAMECONTROLLER | SDL_INIT_JOYSTICK | SDL_INIT_SENSOR)) {
		fprintf(stderr, "sdl-gamepad: SDL_Init: %s\n", s.GetError());
		return 1;
	}
	for (i = 0; i < WAIT_STEPS && !gc; i++) {
		s.GameControllerUpdate();
		/* the controller of that type among those SDL found */
		for (int j = 0; j < s.NumJoysticks() && !gc; j++)
			if (is_wanted(&s, j, want, node))
				gc = s.GameControllerOpen(j);
		if (!gc)
			s.Delay(100);
	}
	if (!gc) {
		fprintf(stderr, "sdl-gamepad: no %s%s%s among %d joysticks (%s)\n", want->name,
			node ? " at " : "", node ? node : "", s.NumJoysticks(), s.GetError());
		s.Quit();
		return 1;
	}
	printf("controller: %s, type %d\n", s.GameControllerName(gc), s.GameControllerGetType(gc));
	if (s.GameControllerGetType(gc) != want->type) {
		printf("not the type SDL gives a %s (%d)\n", want->name, want->type);
		ok = 0;
	}
	/* The gyroscope and accelerometer, which SDL has through its HIDAPI
	 * driver alone (evdev gives it none). The DualSense driver has them in
	 * its enhanced mode, which over USB it takes when the first input
	 * report is the 64-byte one, over Bluetooth when it is the full
	 * report 0x31 or the rumble hint is on, as set above
	 * (SDL_hidapi_ps5.c, HIDAPI_DriverPS5_InitDevice, _SetEnhancedMode); it reads the
	 * calibration (feature report 0x05) then, and goes on without it when
	 * the read fails: that the read reached the device, the device's log
	 * says. The Switch driver has them when it read the IMU calibration
	 * from the controller's flash (SDL_hidapi_switch.c,
	 * LoadIMUCalibration). The Deck's has them from the start
	 * (SDL_hidapi_steamdeck.c, _OpenJoystick). */
	printf("sensors: gyro %d, accel %d\n", s.GameControllerHasSensor(gc, SDL_SENSOR_GYRO),
	       s.GameControllerHasSensor(gc, SDL_SENSOR_ACCEL));
	ok &= s.GameControllerHasSensor(gc, SDL_SENSOR_GYRO) && s.GameControllerHasSensor(gc, SDL_SENSOR_ACCEL);
	ok &= said(&s, "gyro on", s.GameControllerSetSensorEnabled(gc, SDL_SENSOR_GYRO, 1));
	ok &= said(&s, "rumble", s.GameControllerRumble(gc, 0x4000, 0x8000, 200));
	if (want->light_bar)
		ok &= said(&s, "light bar", s.GameControllerSetLED(gc, 0x10, 0x80, 0xff));
	s.GameControllerSetPlayerIndex(gc, 1);
	/* SDL sends its effects from the update loop. */
	for (i = 0; i < 10; i++) {
		s.GameControllerUpdate();
		s.Delay(50);
	}
	s.GameControllerClose(gc);
	s.Quit();
	return ok ? 0 : 1;
}
