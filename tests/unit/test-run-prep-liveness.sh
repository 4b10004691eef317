#!/bin/bash
# scripts/test.sh waits for a kernel's preparation while that process
# runs (prep_running): it must tell the preparation from a process that
# got its pid after it ended (pids wrap at pid_max while kernels build),
# or the wait for a file that will never come would not end.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
suite=run-prep
failed=0
pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# The two functions, as test.sh defines them.
eval "$(awk '/^(prep_start_time|prep_running)\(\) \{/,/^\}/' "$repo/scripts/test.sh")"
declare -F prep_running prep_start_time > /dev/null ||
	{ fail functions_are_in_scripts_test_sh; exit 1; }

sleep 30 &
prep_pid=$!
# shellcheck disable=SC2034 # read by prep_running
prep_start=$(prep_start_time)
check running_preparation_is_running prep_running
kill "$prep_pid"
wait "$prep_pid" 2>/dev/null
not_running() { ! prep_running; }
check ended_preparation_is_not_running not_running

# Its pid, now another process's: a process started later stands in for
# it (0.1 s later: start times count in clock ticks of 10 ms or less, and
# a pid is reused only long after the first process with it started).
sleep 0.1
sleep 30 &
prep_pid=$!
check process_that_reuses_the_pid_is_not_the_preparation not_running
kill "$prep_pid"
[ $failed -eq 0 ]
