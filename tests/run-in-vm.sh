#!/bin/bash
# Runs inside the test VM (scripts/vm.sh): the named suites, one after the
# other. A suite S is tests/S/run.sh when that exists, otherwise every
# build/tests/S/test-* program. Each prints PASS:/FAIL:/SKIP: lines.
# Usage (in the guest): tests/run-in-vm.sh BUILD_DIR SUITE...
set -u
build=$1
shift
export HID_POLICY_SRCDIR=$PWD HID_POLICY_BUILDDIR=$build
status=0
for suite in "$@"; do
	echo "== suite $suite (in the VM, kernel $(uname -r))"
	start=$SECONDS
	if [ -x "tests/$suite/run.sh" ]; then
		"tests/$suite/run.sh" "$build" || status=1
		echo "== suite $suite took $((SECONDS - start)) s"
		continue
	fi
	found=0
	for t in "$build/tests/$suite"/test-*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		found=1
		t_start=$SECONDS
		"$t" || status=1
		echo "== $suite/${t##*/} took $((SECONDS - t_start)) s"
	done
	if [ $found -eq 0 ]; then
		echo "FAIL: $suite (no test programs in $build/tests/$suite)"
		status=1
	fi
	echo "== suite $suite took $((SECONDS - start)) s"
done
exit $status
