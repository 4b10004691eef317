// SPDX-License-Identifier: GPL-2.0-or-later
/* An nRF Desktop device's configuration-channel modules, asked over its
 * hidraw node; why its answers are facts: nrf_config_learn.h. */
#include "nrf_config_learn.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "hidraw_node.h"
#include "feature_exchange.h"

void nrf_learner_question(uint8_t status, uint8_t event_id, uint8_t *q)
{
	memset(q, 0, NRF_CONFIG_REPORT_LEN);
	q[0] = NRF_CONFIG_REPORT_FEATURE;
	q[NRF_CONFIG_OFFSET_RECIPIENT] = NRF_CONFIG_RECIPIENT_SELF;
	q[NRF_CONFIG_OFFSET_EVENT] = event_id;
	q[NRF_CONFIG_OFFSET_STATUS] = status;
}

static int send_question(struct nrf_learner *l, uint8_t status, uint8_t event_id,
			 uint64_t now_ms)
{
	uint8_t q[NRF_CONFIG_REPORT_LEN];
	int r;

	nrf_learner_question(status, event_id, q);
	l->expect_event = event_id;
	l->expect_status = status;
	l->deadline_ms = now_ms + NRF_LEARN_ANSWER_MS;
	l->questions++;
	if (l->send)
		return l->send(l->send_ctx, q, sizeof(q));
	if (!l->ex)
		return -ENODEV;
	r = feature_exchange_send(l->ex, q, sizeof(q), &l->seq);
	/* The last question is still being asked: this round ends at the
	 * deadline. */
	if (r == -EBUSY) {
		l->seq = 0;
		return 0;
	}
	return r;
}

static int fetch_listing(struct nrf_learner *l, uint64_t now_ms)
{
	return send_question(l, NRF_CONFIG_STATUS_FETCH, nrf_config_event_id(l->module, 0),
			     now_ms);
}

static int round_failed(struct nrf_learner *l, uint64_t now_ms, bool *changed)
{
	l->asking = false;
	l->rounds_failed++;
	l->first_round_ended = true;
	if (l->table.told)
		*changed = true;
	l->table = (struct nrf_config_table){ 0 };
	l->ask_at = now_ms + l->backoff;
	l->backoff = l->backoff * 2 > NRF_LEARN_RETRY_MAX_MS ? NRF_LEARN_RETRY_MAX_MS
							      : l->backoff * 2;
	return 0;
}

int nrf_learner_ask(struct nrf_learner *l, uint64_t now_ms)
{
	l->asking = true;
	l->ask_at = 0;
	l->step = NRF_STEP_MAX_MOD;
	l->round = (struct nrf_config_table){ 0 };
	return send_question(l, NRF_CONFIG_STATUS_GET_MAX_MOD_ID, 0, now_ms);
}

/* An item of a listing: printable, 1..NRF_CONFIG_NAME_MAX bytes, or the
 * end ("\n" alone). 1: a name in NAME, 0: the end, -EBADMSG: neither. */
static int listing_item(const uint8_t *data, uint8_t len, char *name)
{
	if (len == 1 && data[0] == NRF_CONFIG_END_OF_LISTING)
		return 0;
	if (len == 0 || len > NRF_CONFIG_NAME_MAX)
		return -EBADMSG;
	for (uint8_t i = 0; i < len; i++)
		if (data[i] < 0x21 || data[i] > 0x7e)
			return -EBADMSG;
	memcpy(name, data, len);
	name[len] = '\0';
	return 1;
}

static bool listings_agree(const struct nrf_learner *l)
{
	for (int k = 1; k < NRF_LEARN_LISTINGS; k++) {
		if (l->n_items[k] != l->n_items[0])
			return false;
		for (uint8_t i = 0; i < l->n_items[0]; i++)
			if (strcmp(l->items[k][i], l->items[0][i]))
				return false;
	}
	return true;
}

/* The module read twice alike: into the round, unless a name repeats. */
static int keep_module(struct nrf_learner *l)
{
	struct nrf_config_module *mod = &l->round.modules[l->module];

	if (l->n_items[0] == 0)
		return -EBADMSG;
	for (uint8_t m = 0; m < l->module; m++)
		if (!strcmp(l->round.modules[m].name, l->items[0][0]))
			return -EBADMSG;
	for (uint8_t i = 1; i < l->n_items[0]; i++)
		for (uint8_t j = 1; j < i; j++)
			if (!strcmp(l->items[0][i], l->items[0][j]))
				return -EBADMSG;
	memcpy(mod->name, l->items[0][0], sizeof(mod->name));
	mod->n_options = (uint8_t)(l->n_items[0] - 1);
	for (uint8_t o = 0; o < mod->n_options; o++)
		memcpy(mod->options[o], l->items[0][o + 1], sizeof(mod->options[o]));
	l->round.n_modules = (uint8_t)(l->module + 1);
	return 0;
}

static bool tables_equal(const struct nrf_config_table *a, const struct nrf_config_table *b)
{
	if (a->told != b->told || a->n_modules != b->n_modules)
		return false;
	for (uint8_t m = 0; m < a->n_modules; m++) {
		const struct nrf_config_module *x = &a->modules[m], *y = &b->modules[m];

		if (strcmp(x->name, y->name) || x->n_options != y->n_options)
			return false;
		for (uint8_t o = 0; o < x->n_options; o++)
			if (strcmp(x->options[o], y->options[o]))
				return false;
	}
	return true;
}

static int round_done(struct nrf_learner *l, bool *changed)
{
	l->asking = false;
	l->first_round_ended = true;
	l->round.told = true;
	l->backoff = NRF_LEARN_RETRY_MS;
	if (!tables_equal(&l->round, &l->table))
		*changed = true;
	l->table = l->round;
	return 0;
}

/* The next step of the round after a good answer of DATA (LEN bytes). */
static int take_listing(struct nrf_learner *l, const uint8_t *data, uint8_t len,
			uint64_t now_ms, bool *changed)
{
	char name[NRF_CONFIG_NAME_MAX + 1];
	int item = listing_item(data, len, name);

	if (item < 0)
		return item;
	if (l->step == NRF_STEP_SYNC) {
		if (item == 0) {
			l->step = NRF_STEP_LISTING;
			l->listing = 0;
			memset(l->n_items, 0, sizeof(l->n_items));
		} else if (++l->syncs > NRF_LEARN_ITEMS_MAX) {
			return -EBADMSG;	/* no end: not a listing */
		}
		return fetch_listing(l, now_ms);
	}
	if (item == 1) {
		uint8_t *n = &l->n_items[l->listing];

		if (*n >= NRF_LEARN_ITEMS_MAX)
			return -EBADMSG;
		memcpy(l->items[l->listing][(*n)++], name, sizeof(name));
		return fetch_listing(l, now_ms);
	}
	if (++l->listing < NRF_LEARN_LISTINGS)
		return fetch_listing(l, now_ms);
	if (!listings_agree(l) || keep_module(l) < 0)
		return -EBADMSG;
	if (l->module == l->max_module)
		return round_done(l, changed);
	l->module++;
	l->step = NRF_STEP_SYNC;
	l->syncs = 0;
	return fetch_listing(l, now_ms);
}

int nrf_learner_take(struct nrf_learner *l, int error, const uint8_t *a, size_t len,
		     uint64_t now_ms, bool *changed)
{
	uint8_t data_len;
	int r;

	if (!l->asking)
		return 0;	/* nothing asked: a late answer of a lost round */
	if (error < 0 || len < NRF_CONFIG_OFFSET_DATA + 1 || a[0] != NRF_CONFIG_REPORT_FEATURE ||
	    a[NRF_CONFIG_OFFSET_RECIPIENT] != NRF_CONFIG_RECIPIENT_SELF ||
	    a[NRF_CONFIG_OFFSET_EVENT] != l->expect_event ||
	    a[NRF_CONFIG_OFFSET_STATUS] != NRF_CONFIG_STATUS_SUCCESS)
		return round_failed(l, now_ms, changed);
	data_len = a[NRF_CONFIG_OFFSET_LEN];
	if (data_len > NRF_CONFIG_DATA_MAX || NRF_CONFIG_OFFSET_DATA + (size_t)data_len > len)
		return round_failed(l, now_ms, changed);
	if (l->step == NRF_STEP_MAX_MOD) {
		if (data_len < 1 || a[NRF_CONFIG_OFFSET_DATA] >= NRF_CONFIG_MODULES_MAX)
			return round_failed(l, now_ms, changed);
		l->max_module = a[NRF_CONFIG_OFFSET_DATA];
		l->module = 0;
		l->step = NRF_STEP_SYNC;
		l->syncs = 0;
		r = fetch_listing(l, now_ms);
	} else {
		r = take_listing(l, a + NRF_CONFIG_OFFSET_DATA, data_len, now_ms, changed);
	}
	if (r == -ENODEV)
		return r;
	if (r < 0)
		return round_failed(l, now_ms, changed);
	return 0;
}

int nrf_learner_read(struct nrf_learner *l, uint64_t now_ms, bool *changed)
{
	uint8_t a[NRF_CONFIG_REPORT_LEN];
	uint32_t seq;
	int r;

	if (!l->ex)
		return 0;
	for (;;) {
		seq = 0;
		r = feature_exchange_receive(l->ex, a, sizeof(a), &seq);
		if (r == -EAGAIN)
			return 0;
		if (!seq) {
			if (r == -EIO)
				continue;	/* not a whole record */
			return r;
		}
		/* Another question's answer, late: not this one's. */
		if (seq != l->seq)
			continue;
		l->seq = 0;
		if (r == -ENODEV)
			return r;
		r = nrf_learner_take(l, r, a, sizeof(a), now_ms, changed);
		if (r < 0)
			return r;
	}
}

int nrf_learner_tick(struct nrf_learner *l, uint64_t now_ms, bool *changed)
{
	if (l->asking && now_ms >= l->deadline_ms)
		return round_failed(l, now_ms, changed);
	if (!l->asking && l->ask_at && now_ms >= l->ask_at && (l->ex || l->send))
		return nrf_learner_ask(l, now_ms);
	return 0;
}

uint64_t nrf_learner_due(const struct nrf_learner *l)
{
	if (l->asking)
		return l->deadline_ms;
	return l->ex || l->send ? l->ask_at : 0;
}

bool nrf_learner_first_round_ended(const struct nrf_learner *l)
{
	return (!l->ex && !l->send) || l->first_round_ended;
}

int nrf_learner_fd(const struct nrf_learner *l)
{
	return l->ex ? feature_exchange_fd(l->ex) : -1;
}

void nrf_learner_init(struct nrf_learner *l)
{
	*l = (struct nrf_learner){ .fd = -1, .backoff = NRF_LEARN_RETRY_MS };
}


/* An answer the firmware has not made yet: status PENDING (the old
 * config_channel.c keeps the recipient and event ID; the transport of
 * config_channel_transport.c zeroes the header, which fwupd reads as
 * "busy"). */
static int answer_pending(const uint8_t *a, size_t len)
{
	return len > NRF_CONFIG_OFFSET_STATUS &&
	       a[NRF_CONFIG_OFFSET_STATUS] == NRF_CONFIG_STATUS_PENDING;
}

int nrf_learner_open(struct nrf_learner *l, const char *sysfs_devices, const char *dev_dir,
		     const char *sysname)
{
	int fd, r;

	nrf_learner_close(l);
	nrf_learner_init(l);
	fd = hidraw_node_open(sysfs_devices, dev_dir, sysname);
	if (fd < 0)
		return fd;
	r = feature_exchange_start(fd, answer_pending, &l->ex);
	if (r < 0) {
		close(fd);
		return r;
	}
	l->fd = fd;
	return 0;
}

void nrf_learner_close(struct nrf_learner *l)
{
	feature_exchange_stop(l->ex);
	l->ex = NULL;
	/* The tests' hook stands in for the node: closed, it goes too, and
	 * the learner is one that has no node (nrf_learner_first_round_ended()). */
	l->send = NULL;
	l->send_ctx = NULL;
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->asking = false;
	l->ask_at = 0;
	l->table = (struct nrf_config_table){ 0 };
}
