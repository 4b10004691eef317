// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyd's seccomp allow-list, applied by the daemon's own sandbox
 * code: a syscall on the list still works, one outside it kills the process
 * with SIGSYS.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "control/name_lookup.h"
#include "service/sandbox.h"
#include "harness.h"

/* Run fn in a child under the filter; return its wait status. */
static int run_filtered(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	CHECK_OK(pid);
	if (pid == 0) {
		/* without CAP_SYS_ADMIN, seccomp needs no_new_privs */
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (sandbox_install_seccomp() < 0)
			_exit(3);
		_exit(fn());
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	return status;
}

static int allowed_calls(void)
{
	char buf[8];

	/* read, write and getpid are on the list */
	return getpid() > 0 && write(STDOUT_FILENO, "", 0) == 0 &&
	       read(-1, buf, 0) < 0 ? 0 : 1;
}

static int forbidden_fork(void)
{
	/* the daemon never forks: not on the list */
	syscall(SYS_fork);
	return 0;
}

static int forbidden_ptrace(void)
{
	syscall(SYS_ptrace, 0, 0, 0, 0);
	return 0;
}

/* libpolkit-gobject 124 and later (Debian 13) opens a pidfd for the
 * control client it asks polkitd about (PolkitUnixProcess); Debian 12's
 * does not. */
static int polkit_subject_pidfd(void)
{
	int fd = syscall(SYS_pidfd_open, getpid(), 0);

	return fd >= 0 && close(fd) == 0 ? 0 : 1;
}

static void test_polkit_subject_pidfd_is_allowed(void)
{
	int status = run_filtered(polkit_subject_pidfd);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
}

/* GLib's log writer: is stderr the journal's socket? (getpeername) */
static int glib_asks_whether_stderr_is_the_journal(void)
{
	struct sockaddr_un addr;
	socklen_t len = sizeof(addr);
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 2;
	return getpeername(sv[0], (struct sockaddr *)&addr, &len) == 0 ? 0 : 1;
}

static void test_glib_log_writers_journal_check_is_allowed(void)
{
	int status = run_filtered(glib_asks_whether_stderr_is_the_journal);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
}

/* A name /etc has not goes on to nss-systemd where nsswitch.conf lists
 * it (Debian's default), which reads getrandom. */
static int unknown_name_is_looked_up(void)
{
	char err[256];
	uint32_t id;

	return name_lookup_nss("hp-no-such-user", false, &id, err, sizeof(err)) == -EINVAL &&
	       strstr(err, "no user") ? 0 : 1;
}

static void test_a_name_the_system_lacks_is_looked_up_under_the_filter(void)
{
	int status = run_filtered(unknown_name_is_looked_up);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
}

static void test_allowed_syscalls_work_under_the_filter(void)
{
	int status = run_filtered(allowed_calls);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
}

static void test_syscall_outside_the_list_kills_the_process(void)
{
	int status = run_filtered(forbidden_fork);

	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS, "fork: status %#x", status);
	status = run_filtered(forbidden_ptrace);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS, "ptrace: status %#x", status);
}

static void *thread_returns(void *arg)
{
	return arg;
}

static int thread_start_and_join(void)
{
	pthread_t t;
	void *ret = NULL;

	if (pthread_create(&t, NULL, thread_returns, (void *)1) != 0)
		return 1;
	return pthread_join(t, &ret) == 0 && ret == (void *)1 ? 0 : 1;
}

static int forbidden_clone_process(void)
{
	/* clone without CLONE_THREAD: a new process, as fork makes */
	long pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);

	if (pid == 0)
		_exit(0);
	return 0;
}

static void test_threads_may_start_under_the_filter_processes_may_not(void)
{
	int status;
	pid_t pid = fork();

	CHECK_OK(pid);
	if (pid == 0) {
		/* As in the daemon, whose polkit worker exists before the
		 * sandbox: glibc's one-time set-up for threads (signal
		 * handlers) is done by then. */
		if (thread_start_and_join() != 0)
			_exit(2);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (sandbox_install_seccomp() < 0)
			_exit(3);
		_exit(thread_start_and_join());
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "thread: status %#x", status);
	status = run_filtered(forbidden_clone_process);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS, "clone: status %#x", status);
}

static int early_thread_pipe[2];

/* Started before the filter: waits for the go, then makes a call off the
 * list. */
static void *early_thread(void *arg)
{
	char byte;

	if (read(early_thread_pipe[0], &byte, 1) == 1)
		syscall(SYS_ptrace, 0, 0, 0, 0);
	return arg;
}

static int filter_reaches_earlier_thread(void)
{
	pthread_t t;

	if (pipe(early_thread_pipe) < 0 || pthread_create(&t, NULL, early_thread, NULL) != 0)
		return 1;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (sandbox_install_seccomp() < 0)
		return 3;
	if (write(early_thread_pipe[1], "g", 1) != 1)
		return 1;
	pthread_join(t, NULL);
	return 0;
}

static void test_filter_covers_threads_started_before_it(void)
{
	int status;
	pid_t pid = fork();

	CHECK_OK(pid);
	if (pid == 0)
		_exit(filter_reaches_earlier_thread());
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS, "status %#x", status);
}

static const struct test_case tests[] = {
	{ "a_name_the_system_lacks_is_looked_up_under_the_filter",
	  test_a_name_the_system_lacks_is_looked_up_under_the_filter },
	{ "a_name_the_system_lacks_is_looked_up_under_the_filter",
	  test_a_name_the_system_lacks_is_looked_up_under_the_filter },
	{ "allowed_syscalls_work_under_the_filter", test_allowed_syscalls_work_under_the_filter },
	{ "polkit_subject_pidfd_is_allowed", test_polkit_subject_pidfd_is_allowed },
	{ "glib_log_writers_journal_check_is_allowed", test_glib_log_writers_journal_check_is_allowed },
	{ "syscall_outside_the_list_kills_the_process", test_syscall_outside_the_list_kills_the_process },
	{ "threads_may_start_under_the_filter_processes_may_not",
	  test_threads_may_start_under_the_filter_processes_may_not },
	{ "filter_covers_threads_started_before_it", test_filter_covers_threads_started_before_it },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "sandbox", tests, ARRAY_SIZE(tests));
}
