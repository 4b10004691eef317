/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Minimal test harness shared by every hid-policy test program.
 *
 * A test program is a table of named tests. Each test runs in its own forked
 * child with a timeout, so a crash, a hang or a leaked device in one test
 * cannot affect the next. Results are printed one per line, each after a
 * line with the case's wall time ("    took 2.5 s"):
 *
 *   PASS: suite/name
 *   FAIL: suite/name
 *   SKIP: suite/name (reason)
 *
 * scripts/test.sh counts these lines. A program exits 0 when nothing failed.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

/*
 * What consecutive cases share, set up in the harness's own process before
 * the first of them and torn down after the last: a daemon whose start
 * costs seconds, for cases that only differ in what they send it. Each case
 * still runs in its own child; what a case changes in the fixture, the
 * next one sees, so a fixture serves cases that leave it as they found it.
 */
struct test_fixture {
	const char *name;
	int (*setup)(void);	/* 0, or -errno: each of its cases fails */
	void (*teardown)(void);
};

struct test_case {
	const char *name;
	void (*fn)(void);
	unsigned int timeout_s; /* 0: the harness default (60 s) */
	const struct test_fixture *fixture; /* NULL: none */
};

#define TEST_EXIT_SKIP 77

int test_main(int argc, char **argv, const char *suite,
	      const struct test_case *tests, size_t n_tests);

void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
void test_skip(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void test_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* How many times longer than usual a test waits for what must happen (a
 * daemon ready, a udev node, a case's end; never a wait for nothing to
 * happen): $HID_POLICY_SLOW_FACTOR (1 to 10; scripts/test.sh sets it on the
 * debug kernels and when more guests run than the host has cores,
 * scripts/bench.sh when the guest counts instructions), else 1. */
int test_slow_factor(void);

/* FN runs in the parent after each case, however the case ended: it puts
 * back what a case changes outside itself (a module parameter) when the
 * case fails before it could. */
void test_after_each_case(void (*fn)(void));

/* Fail the running test, with the failed condition and a message. */
#define CHECK(cond, fmt, ...)                                                  \
	do {                                                                   \
		if (!(cond))                                                   \
			test_fail(__FILE__, __LINE__, "check `%s` failed: " fmt, \
				  #cond, ##__VA_ARGS__);                       \
	} while (0)

/* Fail unless a call returned 0 or more; shows errno for -1 returns. */
#define CHECK_OK(expr)                                                         \
	do {                                                                   \
		long __r = (long)(expr);                                       \
		if (__r < 0)                                                   \
			test_fail(__FILE__, __LINE__, "`%s` returned %ld (%s)", \
				  #expr, __r,                                  \
				  strerror(__r == -1 ? errno : (int)-__r));    \
	} while (0)

#define CHECK_EQ(a, b)                                                         \
	do {                                                                   \
		long long __a = (long long)(a), __b = (long long)(b);          \
		if (__a != __b)                                                \
			test_fail(__FILE__, __LINE__, "`%s` is %lld, expected %lld (`%s`)", \
				  #a, __a, __b, #b);                           \
	} while (0)

#define SKIP(fmt, ...) test_skip(fmt, ##__VA_ARGS__)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
