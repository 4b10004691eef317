// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sdl-gamepad: open the first game controller with the system's SDL 2, as
 * a game does, with SDL's HIDAPI drivers (their default), and use what a
 * game uses: the controller's calibration (SDL reads it when it opens the
 * controller), its sensors, rumble, the light bar and the player light.
 *
 * Usage: sdl-gamepad
 * Prints what SDL says of the controller and each call's result; exits 0
 * when SDL opened a controller through its HIDAPI driver and every call
 * succeeded, 1 otherwise, 2 when libSDL2-2.0.so.0 cannot be loaded.
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
#define SDL_CONTROLLER_TYPE_PS5	7
#define WAIT_STEPS		100	/* 100 x 100 ms for the controller to appear */

struct sdl {
	int (*Init)(uint32_t flags);
	void (*Quit)(void);
	const char *(*GetError)(void);
	int (*SetHint)(const char *name, const char *value);
	int (*NumJoysticks)(void);
	int (*IsGameController)(int index);
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

int main(void)
{
	struct sdl s;
	void *gc = NULL;
	int ok = 1, i;

	if (load(&s))
		return 2;
	/* SDL's defaults, said out loud: the HIDAPI drivers talk to the
	 * controller's hidraw node, as in every SDL game. */
	s.SetHint("SDL_JOYSTICK_HIDAPI", "1");
	s.SetHint("SDL_JOYSTICK_HIDAPI_PS5", "1");
	s.SetHint("SDL_JOYSTICK_HIDAPI_PS5_RUMBLE", "1");
	if (s.Init(SDL_INIT_GAMECONTROLLER | SDL_INIT_JOYSTICK | SDL_INIT_SENSOR)) {
		fprintf(stderr, "sdl-gamepad: SDL_Init: %s\n", s.GetError());
		return 1;
	}
	for (i = 0; i < WAIT_STEPS && !gc; i++) {
		s.GameControllerUpdate();
		for (int j = 0; j < s.NumJoysticks() && !gc; j++)
			if (s.IsGameController(j))
				gc = s.GameControllerOpen(j);
		if (!gc)
			s.Delay(100);
	}
	if (!gc) {
		fprintf(stderr, "sdl-gamepad: no game controller (%s)\n", s.GetError());
		s.Quit();
		return 1;
	}
	printf("controller: %s, type %d\n", s.GameControllerName(gc), s.GameControllerGetType(gc));
	if (s.GameControllerGetType(gc) != SDL_CONTROLLER_TYPE_PS5) {
		printf("not driven by SDL's DualSense driver\n");
		ok = 0;
	}
	/* The gyroscope and accelerometer: SDL has them only where it read
	 * the controller's calibration (feature report 0x05). */
	printf("sensors: gyro %d, accel %d\n", s.GameControllerHasSensor(gc, SDL_SENSOR_GYRO),
	       s.GameControllerHasSensor(gc, SDL_SENSOR_ACCEL));
	ok &= s.GameControllerHasSensor(gc, SDL_SENSOR_GYRO) && s.GameControllerHasSensor(gc, SDL_SENSOR_ACCEL);
	ok &= said(&s, "gyro on", s.GameControllerSetSensorEnabled(gc, SDL_SENSOR_GYRO, 1));
	ok &= said(&s, "rumble", s.GameControllerRumble(gc, 0x4000, 0x8000, 200));
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
