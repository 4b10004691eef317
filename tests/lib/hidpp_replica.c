// SPDX-License-Identifier: GPL-2.0-or-later
/* What a HID++ device answers, as its firmware does. */
#include "hidpp_replica.h"

#include <string.h>

#define SHORT		0x10
#define LONG		0x11
#define VERY_LONG	0x12
#define FEATURE_SET	0x0001
/* HID++ 2.0 error codes (Solaar hidpp20_constants.py ErrorCode) */
#define ERR_INVALID_FEATURE_INDEX 0x06
#define ERR_INVALID_FUNCTION	0x07

/* Ordinary features a mouse has: name, battery, DPI, reprogrammable keys. */
static const uint16_t ordinary[] = {
	0x0003, 0x0005, 0x1000, 0x1d4b, 0x2201, 0x1b04, 0x1815, 0x2121, 0x1830, 0x1890,
	0x18b1, 0x1e00, 0x1802, 0x1805, 0x1806, 0x1811, 0x1813, 0x1817, 0x1861, 0x1875,
};

void hidpp_table_make(struct hidpp_table *t, uint8_t count, const uint16_t *placed,
		      const uint8_t *at, size_t n)
{
	size_t next = 0;

	memset(t, 0, sizeof(*t));
	if (count >= HIDPP_REPLICA_FEATURES_MAX)
		count = HIDPP_REPLICA_FEATURES_MAX - 1;
	t->count = count;
	t->ids[1] = FEATURE_SET;
	for (size_t k = 0; k < n; k++)
		if (at[k] > 1 && at[k] <= count)
			t->ids[at[k]] = placed[k];
	for (unsigned int i = 2; i <= count; i++)
		if (!t->ids[i])
			t->ids[i] = ordinary[next++ % (sizeof(ordinary) / sizeof(ordinary[0]))];
}

static size_t error20(const uint8_t *q, uint8_t code, uint8_t a[20])
{
	memset(a, 0, 20);
	a[0] = LONG;
	a[1] = q[1];
	a[2] = 0xff;
	a[3] = q[2];
	a[4] = q[3];
	a[5] = code;
	return 20;
}

size_t hidpp_replica_answer(const struct hidpp_table *t, const uint8_t *q, size_t len,
			    uint8_t a[20])
{
	uint8_t function = q[3] >> 4;
	uint16_t feature;

	if (len < 7 || (q[0] != SHORT && q[0] != LONG && q[0] != VERY_LONG))
		return 0;
	if (q[2] > t->count)
		return error20(q, ERR_INVALID_FEATURE_INDEX, a);
	memset(a, 0, 20);
	memcpy(a, q, 4);
	a[0] = LONG;
	feature = t->ids[q[2]];
	if (q[2] == 0 && function == 0) {		/* getFeature */
		uint16_t want = (uint16_t)(q[4] << 8 | q[5]);

		for (unsigned int i = 0; i <= t->count; i++)
			if (t->ids[i] == want)
				a[4] = (uint8_t)i;
		return 20;
	}
	if (q[2] == 0 && function == 1) {		/* ping: protocol 4.2 */
		a[4] = 4;
		a[5] = 2;
		a[6] = q[6];
		return 20;
	}
	if (feature == FEATURE_SET && function == 0) {	/* getCount */
		a[4] = t->count;
		return 20;
	}
	if (feature == FEATURE_SET && function == 1) {	/* getFeatureID */
		if (q[4] > t->count)
			return error20(q, 0x02, a);	/* invalid argument */
		a[4] = (uint8_t)(t->ids[q[4]] >> 8);
		a[5] = (uint8_t)t->ids[q[4]];
		return 20;
	}
	/* Other features' functions: an empty answer stands for their data
	 * (the tests look at what reaches the device, not at this). */
	if (q[2])
		return 20;
	return error20(q, ERR_INVALID_FUNCTION, a);
}

size_t hidpp_replica_error10(const uint8_t *q, uint8_t code, uint8_t a[7])
{
	const uint8_t e[7] = { SHORT, q[1], 0x8f, q[2], q[3], code, 0x00 };

	memcpy(a, e, sizeof(e));
	return sizeof(e);
}
