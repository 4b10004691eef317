#!/bin/bash
# Runs inside the test VM (scripts/vm.sh): the named suites, one after the
# other. A suite S is tests/S/run.sh when that exists, otherwise every
# build/tests/S/test-* program. Each prints PASS:/FAIL:/SKIP: lines.
# A part of such a suite (scripts/vm-boots splits one over several boots):
#   S:test-a,test-b    only those programs (each must exist)
#   S:-test-a,test-b   every program but those
# Usage (in the guest): tests/run-in-vm.sh BUILD_DIR SUITE[:[-]PROGRAMS]...
set -u
build=$1
shift
export HID_POLICY_SRCDIR=$PWD HID_POLICY_BUILDDIR=$build
status=0
for arg in "$@"; do
	suite=${arg%%:*}
	mode=all
	picked=
	if [ "$arg" != "$suite" ]; then
		picked=${arg#*:}
		mode=only
		[[ "$picked" != -* ]] || { mode=but; picked=${picked#-}; }
		picked=",$picked,"
	fi
	echo "== suite $arg (in the VM, kernel $(uname -r))"
	start=$SECONDS
	if [ -x "tests/$suite/run.sh" ] && [ $mode = all ]; then
		"tests/$suite/run.sh" "$build" || status=1
		echo "== suite $suite took $((SECONDS - start)) s"
		continue
	fi
	if [ $mode = only ]; then
		# a program named but gone would otherwise not run anywhere
		for p in ${picked//,/ }; do
			[ -x "$build/tests/$suite/$p" ] && continue
			echo "FAIL: $suite/$p (named to run, no such program in $build/tests/$suite)"
			status=1
		done
	fi
	found=0
	for t in "$build/tests/$suite"/test-*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		case "$mode,$picked" in
		only,*",${t##*/},"*) ;;
		only,*) continue ;;
		but,*",${t##*/},"*) continue ;;
		esac
		found=1
		t_start=$SECONDS
		"$t" || status=1
		echo "== $suite/${t##*/} took $((SECONDS - t_start)) s"
	done
	if [ $found -eq 0 ] && [ $mode != but ]; then
		echo "FAIL: $suite (no test programs in $build/tests/$suite)"
		status=1
	fi
	echo "== suite $arg took $((SECONDS - start)) s"
done
exit $status
