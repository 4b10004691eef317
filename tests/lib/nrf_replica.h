/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The configuration channel of an nRF Desktop device, answering as its
 * firmware does (nrfconnect/sdk-nrf applications/nrf_desktop:
 * src/util/config_channel_transport.c, config_channel_transport_set() and
 * _get(); src/events/config_event.h, GEN_CONFIG_EVENT_HANDLERS; src/modules
 * info.c, config_channel_dfu.c): a SET_REPORT of feature 0x06 is a
 * question, whose answer the next GET_REPORT reads, whoever asks it; a
 * FETCH of a module's option 0 answers its name, then its options' names,
 * then "\n", from one cursor per module that every asker moves. Shared by
 * the learner's unit test and the e2e replica.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/nrf_config.h"

struct nrf_replica_module {
	const char *name;
	const char *const *options;	/* NULL-terminated */
};

struct nrf_replica {
	const struct nrf_replica_module *modules;
	uint8_t n_modules;
	uint8_t cursor[NRF_CONFIG_MODULES_MAX];	/* cur_opt_descr of each module */
	uint8_t answer[NRF_CONFIG_REPORT_LEN];	/* what a GET_REPORT reads */
	/* what it was asked, for the checks: FETCHes per event ID, SETs */
	unsigned fetches[256];
	unsigned sets;
	bool rebooted;		/* a FETCH of dfu/reboot came */
};

/* A mouse as nRF Desktop's reference configuration builds it: modules
 * "motion", "dfu" (start, data, sync, reboot, fwinfo, module_variant,
 * devinfo: config_channel_dfu.c opt_descr[]) and "ble_bond": dfu/reboot is
 * event ID 0x14 there. */
void nrf_replica_mouse(struct nrf_replica *r);

/* A SET_REPORT of FRAME (LEN bytes, the report ID first). Returns 0 or
 * -EINVAL (a frame the firmware does not parse). */
int nrf_replica_set(struct nrf_replica *r, const uint8_t *frame, size_t len);

/* A GET_REPORT: the last answer, into BUF (LEN bytes). */
void nrf_replica_get(const struct nrf_replica *r, uint8_t *buf, size_t len);
