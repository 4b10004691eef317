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

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/nrf_config.h"

/* The report descriptor of nRF Desktop's mouse with the configuration
 * channel and its output report (sdk-nrf applications/nrf_desktop
 * src/util/hid_report_desc.c: REPORT_MAP_MOUSE(1), REPORT_MAP_USER_CONFIG(6)
 * and REPORT_MAP_USER_CONFIG_OUT(7), 29 bytes each after the ID, in the
 * mouse's application collection). */
extern const uint8_t nrf_replica_mouse_rdesc[];
extern const size_t nrf_replica_mouse_rdesc_size;

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

/* The mouse after a firmware update that links its modules in another
 * order: motion, ble_bond, dfu (dfu/reboot is event ID 0x24 there). */
void nrf_replica_mouse_reordered(struct nrf_replica *r);

/* A SET_REPORT of FRAME (LEN bytes, the report ID first). Returns 0 or
 * -EINVAL (a frame the firmware does not parse). */
int nrf_replica_set(struct nrf_replica *r, const uint8_t *frame, size_t len);

/* A GET_REPORT: the last answer, into BUF (LEN bytes). */
void nrf_replica_get(const struct nrf_replica *r, uint8_t *buf, size_t len);

/*
 * The same behind a uhid device (tests/lib/uhid_dev.h): pass
 * nrf_replica_on_request as the device's on_request, a struct
 * nrf_replica_dev as its userdata. A SET_REPORT of feature 0x06 (or a
 * write of output report 0x07) is a question; the GET_REPORT right after
 * it answers "pending" (the header zeroed, as config_channel_transport.c's
 * fill_response_pending() does while the module works), the next one the
 * answer, and the ones after read it again. While SILENT, every GET_REPORT
 * answers "pending" (a device whose modules do not answer).
 */
struct uhid_dev;
struct uhid_dev_record;

struct nrf_replica_dev {
	pthread_mutex_t lock;
	struct nrf_replica r;
	bool silent;
	unsigned pending_gets;	/* GET_REPORTs still to answer "pending" */
	bool answer_due;	/* the next GET_REPORT reads the answer */
};

/* A mouse (nrf_replica_mouse()), answering. */
void nrf_replica_dev_init(struct nrf_replica_dev *d);
void nrf_replica_dev_set_silent(struct nrf_replica_dev *d, bool silent);
/* Run another firmware: its modules in the order of nrf_replica_mouse_reordered(). */
void nrf_replica_dev_reorder(struct nrf_replica_dev *d);
/* The FETCHes of EVENT_ID that reached it. */
unsigned nrf_replica_dev_fetches(struct nrf_replica_dev *d, uint8_t event_id);
/* The SETs (configuration writes) that reached it. */
unsigned nrf_replica_dev_sets(struct nrf_replica_dev *d);
bool nrf_replica_dev_rebooted(struct nrf_replica_dev *d);
void nrf_replica_on_request(struct uhid_dev *dev, const struct uhid_dev_record *req,
			    void *userdata);
