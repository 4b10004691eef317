#!/bin/bash
# The kernel test suite, run inside the test VM (scripts/vm.sh) after
# tests/kernel/build.sh built it on the host. Prints PASS:/FAIL:/SKIP: lines.
# Usage: tests/kernel/run.sh [BUILD_DIR] [TEST...]
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
[ $# -gt 0 ] && shift
# scripts/test.sh builds the suite per test kernel.
out=${HID_POLICY_KERNEL_BUILDDIR:-$build}/tests/kernel
export HID_BPF_TEST_OBJDIR=$out/bpf
status=0
for t in test-hid-bpf test-hid-bpf-requests; do
	if [ ! -x "$out/$t" ]; then
		echo "FAIL: kernel/build ($out/$t missing: run tests/kernel/build.sh)"
		status=1
		continue
	fi
	"$out/$t" "$@" || status=1
done
exit $status
