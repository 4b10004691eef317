#!/bin/bash
# Upstream's HID-BPF selftest (tools/testing/selftests/hid/hid_bpf.c of
# linux-source-6.12, or of linux-source-7.3 on a 7.x kernel), run inside
# the test VM after tests/hid-selftests/build.sh built it on the host for
# this kernel. Turns its TAP output into PASS:/FAIL:/SKIP: lines, one per
# selftest (FIXTURE_VARIANT.TEST where the fixture has variants); a test
# build.sh left out (see its "excluded" file) is a SKIP with the reason.
#
# The tests kernel/upstream's selftest patch adds (build.sh's
# "series-tests") check the series' fixes and fail without them, some by
# an oops: they run on a kernel named *-fixed (HID_POLICY_KERNEL_NAME), or
# on any when HID_SELFTESTS_SERIES=1 (to see them fail on the unfixed
# kernel), and are a SKIP elsewhere.
# Usage: tests/hid-selftests/run.sh [BUILD_DIR] [TEST...]
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
[ $# -gt 0 ] && shift
# scripts/test.sh builds the suite per test kernel.
out=${HID_POLICY_KERNEL_BUILDDIR:-$build}/tests/hid-selftests
suite=hid-selftests

if [ ! -x "$out/hid_bpf" ]; then
	echo "FAIL: $suite/build ($out/hid_bpf missing: run tests/hid-selftests/build.sh)"
	exit 1
fi

args=()
for t in "$@"; do
	args+=(-t "$t")
done
while IFS=$'\t' read -r name reason; do
	[ -n "$name" ] || continue
	args+=(-T "$name")
	echo "SKIP: $suite/$name ($reason)"
done < "$out/excluded"
if [[ "${HID_POLICY_KERNEL_NAME:-}" != *-fixed ]] && [ "${HID_SELFTESTS_SERIES:-0}" != 1 ]; then
	while read -r name; do
		[ -n "$name" ] || continue
		args+=(-T "$name")
		echo "SKIP: $suite/$name (tests kernel/upstream/series, which kernel ${HID_POLICY_KERNEL_NAME:-?} does not have)"
	done < <(cat "$out/series-tests" 2>/dev/null)
fi

# The harness prints "ok N hid_bpf.NAME", "not ok N hid_bpf.NAME" and
# "ok N hid_bpf.NAME # SKIP reason"; everything else is shown as it is.
status=0
log=$(mktemp)
"$out/hid_bpf" "${args[@]}" > "$log" 2>&1 || status=1
sed -E \
	-e 's/^ok [0-9]+ hid_bpf\.([A-Za-z0-9_.]+) # SKIP ?(.*)$/SKIP: '"$suite"'\/\1 (\2)/' \
	-e 't' \
	-e 's/^ok [0-9]+ hid_bpf\.([A-Za-z0-9_.]+)$/PASS: '"$suite"'\/\1/' \
	-e 's/^not ok [0-9]+ hid_bpf\.([A-Za-z0-9_.]+).*$/FAIL: '"$suite"'\/\1/' \
	"$log"
if ! grep -qE '^(not )?ok [0-9]+ hid_bpf\.' "$log"; then
	echo "FAIL: $suite/ran (no test result from hid_bpf)"
	status=1
fi
rm -f "$log"
exit $status
