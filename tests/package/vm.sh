#!/bin/bash
# Boot the Debian trixie root (tests/package/debian-root.sh) on a test
# kernel with its own systemd as PID 1, its vendor HID drivers binding the
# devices they know as on a user's machine (scripts/vm.sh --vendor-drivers),
# and run tests/package/guest.sh there against the package
# tests/package/run.sh left in BUILD/package/.
# Result lines are "PASS: KERNEL/debian/...".
# Usage: tests/package/vm.sh BUILD_DIR KERNEL_NAME KERNEL_IMAGE
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$1 k=$2 image=$3

root_out=$("$repo/tests/package/debian-root.sh") || { echo "FAIL: $k/debian/setup_debian_root"; exit 1; }
root=$(sed -n 's/^ROOT=//p' <<< "$root_out")
missing=$(dirname "$root")/missing
[ -f "$missing" ] && sed 's/^/    not in the root: /' "$missing"

"$repo/scripts/vm.sh" --kernel "$image" --timeout "${HID_POLICY_VM_TIMEOUT:-1800}" --mem 2048 \
	--vendor-drivers \
	--root "$root" -- tests/package/guest.sh "$build" 2>&1 |
	sed -u -E "s#^(PASS|FAIL|SKIP): #\1: $k/#"
st=${PIPESTATUS[0]}
if [ "$st" -ge 124 ] && [ "$st" -le 126 ]; then
	echo "FAIL: $k/debian/guest_finished_with_a_clean_kernel_log (vm.sh exit $st)"
else
	echo "PASS: $k/debian/guest_finished_with_a_clean_kernel_log"
fi
exit "$st"
