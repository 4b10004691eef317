// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sorting without qsort(3): glibc's qsort asks the kernel how much memory
 * the machine has (sysinfo(2)) before sorting more than 1 KiB, a system
 * call hid-policyd's seccomp filter does not allow, so a reload of a larger
 * policy would kill the daemon. A heap sort: in place, no allocation,
 * O(n log n) whatever the input.
 */
#include <string.h>

#include "policy_internal.h"

static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
	while (size--) {
		unsigned char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

/* Let element I sink until the heap of the first N elements holds. */
static void sift_down(unsigned char *base, size_t i, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t child = 2 * i + 1, largest = i;

		if (child < n && cmp(base + child * size, base + largest * size) > 0)
			largest = child;
		if (child + 1 < n && cmp(base + (child + 1) * size, base + largest * size) > 0)
			largest = child + 1;
		if (largest == i)
			return;
		swap_bytes(base + i * size, base + largest * size, size);
		i = largest;
	}
}

void policy_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char *b = base;

	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (size_t end = n - 1; end > 0; end--) {
		swap_bytes(b, b + end * size, size);
		sift_down(b, 0, end, size, cmp);
	}
}
