#!/bin/bash
# The kernel test suite, run inside the test VM (scripts/vm.sh) after
# tests/kernel/build.sh built it on the host. Prints PASS:/FAIL:/SKIP: lines.
# Usage: tests/kernel/run.sh [BUILD_DIR] [TEST...]
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
[ $# -gt 0 ] && shift
out=$build/tests/kernel
if [ ! -x "$out/test-hid-bpf" ]; then
	echo "FAIL: kernel/build (no $out/test-hid-bpf: run tests/kernel/build.sh)"
	exit 1
fi
export HID_BPF_TEST_OBJDIR=$out/bpf
exec "$out/test-hid-bpf" "$@"
