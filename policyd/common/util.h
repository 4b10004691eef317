/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers shared by policyd's files: cleanup attributes, arrays,
 * clocks. */
#pragma once

#include <dirent.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_closedir_ _cleanup_(closedirp)
#define _cleanup_close_ _cleanup_(closep)

/* Hand a pointer over to the caller: the cleanup handler then sees NULL. */
#define TAKE_PTR(p)                                                            \
	({                                                                     \
		__typeof__(p) __p = (p);                                       \
		(p) = NULL;                                                    \
		__p;                                                           \
	})

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Grow *array (of *n elements, capacity *cap) so that one more fits.
 * Returns 0 or -ENOMEM.
 */
int grow_array(void **array, size_t elem_size, size_t n, size_t *cap);

#define GROW(array, n, cap) grow_array((void **)&(array), sizeof(*(array)), (n), &(cap))

/* CLOCK_BOOTTIME in milliseconds: expiries, the event loop's timing. */
static inline uint64_t boottime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000ULL + (uint64_t)ts.tv_nsec / 1000000ULL;
}

/* CLOCK_REALTIME in nanoseconds: when a temporary allow was granted. */
static inline uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
