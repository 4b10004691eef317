// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyd's seccomp allow-list, applied by the daemon's own sandbox
 * code: a syscall on the list still works, one outside it kills the process
 * with SIGSYS.
 */
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "sandbox.h"

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

static const struct test_case tests[] = {
	{ "allowed_syscalls_work_under_the_filter", test_allowed_syscalls_work_under_the_filter },
	{ "syscall_outside_the_list_kills_the_process", test_syscall_outside_the_list_kills_the_process },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "sandbox", tests, ARRAY_SIZE(tests));
}
