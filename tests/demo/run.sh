#!/bin/bash
# The main job's story (scripts/demo-guest.sh, what scripts/demo.sh shows)
# as a test, in the test VM: one PASS:/FAIL: line per step of the story,
# each a claim the demo checks at both ends (the caller's errno, what the
# device received, the audit record). A step the demo never reached or
# never checked fails too, so the demo cannot drop a step of its story, or
# end early with status 0, unnoticed.
# Usage (in the guest): tests/demo/run.sh BUILD_DIR
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
suite=demo
steps=(kernel-has-hid-bpf controller-appears daemon-protects-the-controller
       game-reads-calibration user-update-refused fwupd-allowed fwupd-update-passes
       user-update-still-refused administrator-reads-the-log)

out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$repo/scripts/demo-guest.sh" "$build" > "$out" 2>&1
status=$?
sed 's/^/    /' "$out"

failed=0
for s in "${steps[@]}"; do
	why=$(sed -n "s/^   DOES NOT HOLD: $s: //p" "$out")
	if [ -n "$why" ]; then
		echo "FAIL: $suite/$s ($why)"
		failed=1
	elif grep -qx "   holds: $s" "$out"; then
		echo "PASS: $suite/$s"
	else
		echo "FAIL: $suite/$s (the demo never checked it: it stopped before, or its story has no such step)"
		failed=1
	fi
done
if [ $status -eq 0 ] && grep -q "^== the story holds" "$out"; then
	echo "PASS: $suite/exits-0-at-the-end-of-the-story"
else
	echo "FAIL: $suite/exits-0-at-the-end-of-the-story (status $status$(grep -q '^== the story holds' "$out" || echo ', did not reach its end'))"
	failed=1
fi
exit $failed
