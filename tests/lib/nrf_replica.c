// SPDX-License-Identifier: GPL-2.0-or-later
/* The configuration channel of an nRF Desktop device (nrf_replica.h). */
#include "nrf_replica.h"

#include <errno.h>
#include <string.h>

#include "uhid_dev.h"

const uint8_t nrf_replica_mouse_rdesc[] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01,		/* Generic Desktop, Mouse, Application */
	0x09, 0x01, 0xa1, 0x00, 0x85, 0x01,		/* Pointer, Physical; report 1 */
	0x05, 0x09, 0x19, 0x01, 0x29, 0x08, 0x15, 0x00, 0x25, 0x01,
	0x75, 0x01, 0x95, 0x08, 0x81, 0x02,		/* 8 buttons */
	0x05, 0x01, 0x09, 0x38, 0x15, 0x81, 0x25, 0x7f,
	0x75, 0x08, 0x95, 0x01, 0x81, 0x06,		/* wheel */
	0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x16, 0x01, 0xf8, 0x26, 0xff, 0x07,
	0x75, 0x0c, 0x95, 0x02, 0x81, 0x06,		/* X, Y: 12 bits */
	0xc0,
	0x85, 0x06, 0x06, 0x00, 0xff, 0x0a, 0x01, 0xff,	/* report 6: vendor 0xFF01 */
	0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x1d, 0xb1, 0x02,
	0x85, 0x07, 0x06, 0x00, 0xff, 0x0a, 0x02, 0xff,	/* report 7: vendor 0xFF02 */
	0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x1d, 0x91, 0x02,
	0xc0,
};
const size_t nrf_replica_mouse_rdesc_size = sizeof(nrf_replica_mouse_rdesc);

static const char *const motion_options[] = { "module_variant", "cpi", "downshift", NULL };
static const char *const dfu_options[] = { "start", "data", "sync", "reboot", "fwinfo",
					   "module_variant", "devinfo", NULL };
static const char *const ble_bond_options[] = { "peer_erase", "peer_search", NULL };

static const struct nrf_replica_module mouse_modules[] = {
	{ "motion", motion_options },
	{ "dfu", dfu_options },
	{ "ble_bond", ble_bond_options },
};

static const struct nrf_replica_module reordered_modules[] = {
	{ "motion", motion_options },
	{ "ble_bond", ble_bond_options },
	{ "dfu", dfu_options },
};

void nrf_replica_mouse(struct nrf_replica *r)
{
	*r = (struct nrf_replica){ .modules = mouse_modules, .n_modules = 3 };
}

void nrf_replica_mouse_reordered(struct nrf_replica *r)
{
	*r = (struct nrf_replica){ .modules = reordered_modules, .n_modules = 3 };
}

static void answer(struct nrf_replica *r, const uint8_t *q, uint8_t status, const void *data,
		   size_t len)
{
	memset(r->answer, 0, sizeof(r->answer));
	r->answer[0] = NRF_CONFIG_REPORT_FEATURE;
	r->answer[NRF_CONFIG_OFFSET_RECIPIENT] = q[NRF_CONFIG_OFFSET_RECIPIENT];
	r->answer[NRF_CONFIG_OFFSET_EVENT] = q[NRF_CONFIG_OFFSET_EVENT];
	r->answer[NRF_CONFIG_OFFSET_STATUS] = status;
	r->answer[NRF_CONFIG_OFFSET_LEN] = (uint8_t)len;
	memcpy(&r->answer[NRF_CONFIG_OFFSET_DATA], data, len);
}

static size_t n_options(const struct nrf_replica_module *m)
{
	size_t n = 0;

	while (m->options[n])
		n++;
	return n;
}

/* GEN_CONFIG_EVENT_HANDLERS: option 0 lists, from the module's cursor. */
static void fetch(struct nrf_replica *r, const uint8_t *q)
{
	uint8_t event = q[NRF_CONFIG_OFFSET_EVENT], mod = event >> 4, opt = event & 0x0f;
	static const uint8_t fwinfo[] = { 0x00, 0x00, 0x10, 0x00, 0x00, 2, 1, 0, 0, 7, 0, 0, 0 };
	const struct nrf_replica_module *m;
	uint8_t *cur;

	if (mod >= r->n_modules) {
		answer(r, q, NRF_CONFIG_STATUS_SUCCESS, "", 0);	/* no module takes it */
		return;
	}
	m = &r->modules[mod];
	cur = &r->cursor[mod];
	if (opt == 0) {
		if (*cur < n_options(m) + 1) {
			const char *s = *cur == 0 ? m->name : m->options[*cur - 1];

			answer(r, q, NRF_CONFIG_STATUS_SUCCESS, s, strlen(s));
			(*cur)++;
		} else {
			answer(r, q, NRF_CONFIG_STATUS_SUCCESS, "\n", 1);
			*cur = 0;
		}
		return;
	}
	if (opt > n_options(m)) {
		answer(r, q, NRF_CONFIG_STATUS_SUCCESS, "", 0);
		return;
	}
	if (!strcmp(m->name, "dfu") && !strcmp(m->options[opt - 1], "reboot")) {
		r->rebooted = true;
		answer(r, q, NRF_CONFIG_STATUS_SUCCESS, "\x01", 1);	/* reboot requested */
		return;
	}
	answer(r, q, NRF_CONFIG_STATUS_SUCCESS, fwinfo, sizeof(fwinfo));
}

int nrf_replica_set(struct nrf_replica *r, const uint8_t *q, size_t len)
{
	static const uint8_t hwid[8] = { 0xa1, 0x5e, 0x01, 0x77, 0x20, 0x09, 0xc3, 0x4d };
	static const char board[] = "nrf52840dk";
	uint8_t status, max;

	if (len < NRF_CONFIG_OFFSET_DATA || q[NRF_CONFIG_OFFSET_LEN] > len - NRF_CONFIG_OFFSET_DATA)
		return -EINVAL;
	status = q[NRF_CONFIG_OFFSET_STATUS];
	if (q[NRF_CONFIG_OFFSET_RECIPIENT] != NRF_CONFIG_RECIPIENT_SELF) {
		answer(r, q, 12 /* DISCONNECTED */, "", 0);
		return 0;
	}
	switch (status) {
	case NRF_CONFIG_STATUS_GET_MAX_MOD_ID:
		max = (uint8_t)(r->n_modules - 1);
		answer(r, q, NRF_CONFIG_STATUS_SUCCESS, &max, 1);
		break;
	case 2:	/* GET_HWID: info.c */
		answer(r, q, NRF_CONFIG_STATUS_SUCCESS, hwid, sizeof(hwid));
		break;
	case 3:	/* GET_BOARD_NAME: info.c */
		answer(r, q, NRF_CONFIG_STATUS_SUCCESS, board, strlen(board));
		break;
	case NRF_CONFIG_STATUS_SET:
		r->sets++;
		answer(r, q, NRF_CONFIG_STATUS_SUCCESS, "", 0);
		break;
	case NRF_CONFIG_STATUS_FETCH:
		r->fetches[q[NRF_CONFIG_OFFSET_EVENT]]++;
		fetch(r, q);
		break;
	default:
		answer(r, q, 10 /* REJECT */, "", 0);
		break;
	}
	return 0;
}

void nrf_replica_get(const struct nrf_replica *r, uint8_t *buf, size_t len)
{
	memset(buf, 0, len);
	memcpy(buf, r->answer, len < sizeof(r->answer) ? len : sizeof(r->answer));
}

void nrf_replica_dev_init(struct nrf_replica_dev *d)
{
	pthread_mutex_init(&d->lock, NULL);
	pthread_mutex_lock(&d->lock);
	nrf_replica_mouse(&d->r);
	d->silent = false;
	d->pending_gets = 0;
	d->answer_due = false;
	pthread_mutex_unlock(&d->lock);
}

void nrf_replica_dev_set_silent(struct nrf_replica_dev *d, bool silent)
{
	pthread_mutex_lock(&d->lock);
	d->silent = silent;
	pthread_mutex_unlock(&d->lock);
}

void nrf_replica_dev_reorder(struct nrf_replica_dev *d)
{
	pthread_mutex_lock(&d->lock);
	nrf_replica_mouse_reordered(&d->r);
	d->pending_gets = 0;
	d->answer_due = false;
	pthread_mutex_unlock(&d->lock);
}

unsigned nrf_replica_dev_fetches(struct nrf_replica_dev *d, uint8_t event_id)
{
	unsigned n;

	pthread_mutex_lock(&d->lock);
	n = d->r.fetches[event_id];
	pthread_mutex_unlock(&d->lock);
	return n;
}

unsigned nrf_replica_dev_sets(struct nrf_replica_dev *d)
{
	unsigned n;

	pthread_mutex_lock(&d->lock);
	n = d->r.sets;
	pthread_mutex_unlock(&d->lock);
	return n;
}

bool nrf_replica_dev_rebooted(struct nrf_replica_dev *d)
{
	bool b;

	pthread_mutex_lock(&d->lock);
	b = d->r.rebooted;
	pthread_mutex_unlock(&d->lock);
	return b;
}

void nrf_replica_on_request(struct uhid_dev *dev, const struct uhid_dev_record *req,
			    void *userdata)
{
	static const uint8_t pending[NRF_CONFIG_REPORT_LEN] = { NRF_CONFIG_REPORT_FEATURE };
	struct nrf_replica_dev *d = userdata;
	uint8_t a[NRF_CONFIG_REPORT_LEN];
	bool question = (req->request == UHID_DEV_SET_REPORT && req->rtype == UHID_FEATURE_REPORT &&
			 req->rnum == NRF_CONFIG_REPORT_FEATURE) ||
			((req->request == UHID_DEV_OUTPUT ||
			  (req->request == UHID_DEV_SET_REPORT && req->rtype == UHID_OUTPUT_REPORT)) &&
			 req->size > 0 && req->data[0] == NRF_CONFIG_REPORT_OUTPUT);

	pthread_mutex_lock(&d->lock);
	if (question) {
		uint8_t q[NRF_CONFIG_REPORT_LEN] = { 0 };

		memcpy(q, req->data, req->size < sizeof(q) ? req->size : sizeof(q));
		q[0] = NRF_CONFIG_REPORT_FEATURE;
		if (nrf_replica_set(&d->r, q, sizeof(q)) == 0) {
			d->pending_gets = 1;
			d->answer_due = true;
		}
		uhid_dev_set_get_reply(dev, NRF_CONFIG_REPORT_FEATURE, pending, sizeof(pending), 0);
	} else if (req->request == UHID_DEV_GET_REPORT && req->rnum == NRF_CONFIG_REPORT_FEATURE) {
		if (d->silent || d->pending_gets) {
			if (d->pending_gets)
				d->pending_gets--;
			uhid_dev_set_get_reply(dev, NRF_CONFIG_REPORT_FEATURE, pending,
					       sizeof(pending), 0);
		} else if (d->answer_due) {
			d->answer_due = false;
			nrf_replica_get(&d->r, a, sizeof(a));
			uhid_dev_set_get_reply(dev, NRF_CONFIG_REPORT_FEATURE, a, sizeof(a), 0);
		}
		/* else the reply set last stays: the answer read again, or
		 * the one a test set */
	}
	pthread_mutex_unlock(&d->lock);
}
