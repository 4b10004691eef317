// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness.h"

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_S 60
#define SKIP_REASON_MAX 512

static const char *current_test;
/* In a test's child: where test_skip() writes its reason for the parent. */
static int skip_reason_fd = -1;

int test_slow_factor(void)
{
	const char *v = getenv("HID_POLICY_SLOW_FACTOR");
	char *end;
	long f;

	if (!v || !*v)
		return 1;
	f = strtol(v, &end, 10);
	return *end || f < 1 || f > 10 ? 1 : (int)f;
}

void test_log(const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "    ");
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static void (*after_each_case)(void);

void test_after_each_case(void (*fn)(void))
{
	after_each_case = fn;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "    %s: %s:%d: ", current_test, file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	_exit(1);
}

void test_skip(const char *fmt, ...)
{
	char reason[SKIP_REASON_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(reason))
		n = sizeof(reason) - 1;
	fflush(stdout);
	if (skip_reason_fd < 0 || write(skip_reason_fd, reason, n) != n)
		printf("    skip reason: %s\n", reason);
	fflush(stdout);
	_exit(TEST_EXIT_SKIP);
}

/* The reason a skipped child left in the pipe, "" if none. */
static void read_skip_reason(int fd, char *out, size_t size)
{
	ssize_t n = read(fd, out, size - 1);

	out[n > 0 ? n : 0] = 0;
}

static bool selected(const struct test_case *t, int argc, char **argv)
{
	if (argc <= 1)
		return true;
	for (int i = 1; i < argc; i++)
		if (strstr(t->name, argv[i]))
			return true;
	return false;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run one test in a child; returns 0 pass, 1 fail, 2 skip. */
static int run_one(const char *suite, const struct test_case *t)
{
	/* a bound on a case that must end: as much longer as its waits */
	unsigned int timeout = (t->timeout_s ? t->timeout_s : DEFAULT_TIMEOUT_S) *
			       (unsigned int)test_slow_factor();
	char reason[SKIP_REASON_MAX];
	int status, skip_pipe[2];
	double start = now_s();
	pid_t pid;

	/* non-blocking: a helper the test left behind may hold the write end */
	if (pipe2(skip_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		printf("FAIL: %s/%s (pipe: %s)\n", suite, t->name, strerror(errno));
		return 1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		printf("FAIL: %s/%s (fork: %s)\n", suite, t->name, strerror(errno));
		close(skip_pipe[0]);
		close(skip_pipe[1]);
		return 1;
	}
	if (pid == 0) {
		close(skip_pipe[0]);
		skip_reason_fd = skip_pipe[1];
		current_test = t->name;
		/* Own process group, so the timeout kills helpers too. */
		setpgid(0, 0);
		alarm(timeout);
		t->fn();
		fflush(stdout);
		_exit(0);
	}
	close(skip_pipe[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);
	if (after_each_case)
		after_each_case();
	read_skip_reason(skip_pipe[0], reason, sizeof(reason));
	close(skip_pipe[0]);
	/* the case's wall time, its cleanup included: where a suite's time goes */
	printf("    took %.1f s\n", now_s() - start);

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("PASS: %s/%s\n", suite, t->name);
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == TEST_EXIT_SKIP) {
		if (reason[0])
			printf("SKIP: %s/%s (%s)\n", suite, t->name, reason);
		else
			printf("SKIP: %s/%s\n", suite, t->name);
		return 2;
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		printf("    timed out after %u s\n", timeout);
	else if (WIFSIGNALED(status))
		printf("    killed by signal %d (%s)\n", WTERMSIG(status),
		       strsignal(WTERMSIG(status)));
	printf("FAIL: %s/%s\n", suite, t->name);
	return 1;
}

static int fixture_start(const struct test_fixture *f)
{
	double start = now_s();
	int r;

	if (!f)
		return 0;
	fflush(stdout);
	r = f->setup();
	printf("    fixture %s: set up in %.1f s%s%s\n", f->name, now_s() - start,
	       r < 0 ? ": " : "", r < 0 ? strerror(-r) : "");
	return r < 0 ? r : 0;
}

static void fixture_end(const struct test_fixture *f, int err)
{
	if (f && !err && f->teardown) {
		fflush(stdout);
		f->teardown();
	}
}

int test_main(int argc, char **argv, const char *suite,
	      const struct test_case *tests, size_t n_tests)
{
	const struct test_fixture *fixture = NULL;
	int failed = 0, fixture_err = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < n_tests; i++)
			printf("%s/%s\n", suite, tests[i].name);
		return 0;
	}
	for (size_t i = 0; i < n_tests; i++) {
		const struct test_fixture *f = tests[i].fixture;

		if (!selected(&tests[i], argc, argv))
			continue;
		if (f != fixture) {
			fixture_end(fixture, fixture_err);
			fixture = f;
			fixture_err = fixture_start(fixture);
		}
		if (fixture && fixture_err) {
			printf("FAIL: %s/%s (its fixture %s could not be set up: %s)\n", suite,
			       tests[i].name, fixture->name, strerror(-fixture_err));
			failed++;
			continue;
		}
		if (run_one(suite, &tests[i]) == 1)
			failed++;
	}
	fixture_end(fixture, fixture_err);
	return failed ? 1 : 0;
}
