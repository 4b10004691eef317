// SPDX-License-Identifier: GPL-2.0-or-later
#include "util.h"

#include <errno.h>
#include <stdint.h>

int grow_array(void **array, size_t elem_size, size_t n, size_t *cap)
{
	size_t new_cap;
	void *p;

	if (n < *cap)
		return 0;
	new_cap = *cap ? *cap * 2 : 8;
	if (new_cap > SIZE_MAX / elem_size)
		return -ENOMEM;
	p = realloc(*array, new_cap * elem_size);
	if (!p)
		return -ENOMEM;
	*array = p;
	*cap = new_cap;
	return 0;
}
