/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The configuration channel of Nordic's nRF Desktop firmware: what the
 * policy engine (policy/, which compiles a rule naming a module's option)
 * and the daemon's module learner (hid/nrf_config_learn.h) both need. Here,
 * below both, so that neither needs the other.
 *
 * A frame, in feature report 0x06 (REPORT_ID_USER_CONFIG, 30 bytes) and,
 * where the firmware is built with CONFIG_DESKTOP_CONFIG_CHANNEL_OUT_REPORT,
 * output report 0x07 (fwupd plugins/nordic-hid fu-nordic-hid-cfg-channel.c,
 * FuNordicCfgChannelMsg; nrfconnect/sdk-nrf applications/nrf_desktop
 * src/util/config_channel_transport.c, config_channel_report_parse()):
 *
 *	byte 0	report ID
 *	byte 1	recipient: 0 the device itself, else a peer behind a dongle
 *	byte 2	event ID: module index << 4 | option index
 *	byte 3	status: what is asked (SET, FETCH, GET_MAX_MOD_ID, ...), and
 *		in an answer how it went (SUCCESS, PENDING, ...)
 *	byte 4	data length
 *	byte 5-	data
 *
 * A host writes a frame with SET_REPORT and reads the answer with
 * GET_REPORT. The modules have no fixed index: each firmware numbers them
 * in the order they are linked (sdk-nrf src/events/config_event.h,
 * GEN_CONFIG_EVENT_HANDLERS: a module's place in the config_channel_modules
 * section), and a host lists them: GET_MAX_MOD_ID answers the highest
 * module index in data byte 0; a FETCH of a module's option 0 answers, one
 * FETCH after another, the module's name, then each option's name, then
 * "\n" (MODULE_DESCR_END_CHAR), and starts again. The option named k-th
 * (from 1) has option index k (OPT_ID_GET(); fwupd
 * fu_nordic_hid_cfg_channel_load_module_opts()).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define NRF_CONFIG_REPORT_FEATURE	0x06
#define NRF_CONFIG_REPORT_OUTPUT	0x07
#define NRF_CONFIG_REPORT_LEN		30

#define NRF_CONFIG_OFFSET_RECIPIENT	1
#define NRF_CONFIG_OFFSET_EVENT		2
#define NRF_CONFIG_OFFSET_STATUS	3
#define NRF_CONFIG_OFFSET_LEN		4
#define NRF_CONFIG_OFFSET_DATA		5
#define NRF_CONFIG_DATA_MAX		(NRF_CONFIG_REPORT_LEN - NRF_CONFIG_OFFSET_DATA)

#define NRF_CONFIG_RECIPIENT_SELF	0x00

/* sdk-nrf config_event.h CONFIG_STATUS_LIST; fwupd fu-nordic-hid.rs
 * FuNordicHidCfgStatus. */
#define NRF_CONFIG_STATUS_PENDING	0
#define NRF_CONFIG_STATUS_GET_MAX_MOD_ID 1
#define NRF_CONFIG_STATUS_SET		6
#define NRF_CONFIG_STATUS_FETCH		7
#define NRF_CONFIG_STATUS_SUCCESS	8

#define NRF_CONFIG_END_OF_LISTING	'\n'
/* The module and option fields are 4 bits each; option 0 is the listing,
 * so a module has at most 15 options (BUILD_ASSERT(ARRAY_SIZE(opt_descr)
 * <= OPT_FIELD_MASK)); a name is at most CONFIG_CHANNEL_FETCHED_DATA_MAX_SIZE
 * bytes. */
#define NRF_CONFIG_MODULES_MAX		16
#define NRF_CONFIG_OPTIONS_MAX		15
#define NRF_CONFIG_NAME_MAX		16

static inline uint8_t nrf_config_event_id(uint8_t module, uint8_t option)
{
	return (uint8_t)((module & 0x0f) << 4 | (option & 0x0f));
}

struct nrf_config_module {
	char name[NRF_CONFIG_NAME_MAX + 1];
	uint8_t n_options;
	char options[NRF_CONFIG_OPTIONS_MAX][NRF_CONFIG_NAME_MAX + 1];
};

/* What a device listed: module i has module index i. */
struct nrf_config_table {
	bool told;		/* false: unknown, every option's rule applies whole */
	uint8_t n_modules;
	struct nrf_config_module modules[NRF_CONFIG_MODULES_MAX];
};

/* The event ID of MODULE's OPTION in T: 1 and *EVENT_ID, or 0 when the
 * device listed no such module or option. */
static inline int nrf_config_find(const struct nrf_config_table *t, const char *module,
				  const char *option, uint8_t *event_id)
{
	for (uint8_t m = 0; m < t->n_modules && m < NRF_CONFIG_MODULES_MAX; m++) {
		const struct nrf_config_module *mod = &t->modules[m];

		if (strcmp(mod->name, module))
			continue;
		for (uint8_t o = 0; o < mod->n_options && o < NRF_CONFIG_OPTIONS_MAX; o++)
			if (!strcmp(mod->options[o], option)) {
				*event_id = nrf_config_event_id(m, (uint8_t)(o + 1));
				return 1;
			}
		return 0;
	}
	return 0;
}
