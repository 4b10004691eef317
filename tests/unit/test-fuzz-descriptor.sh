#!/bin/bash
# Short run (20 s) of the report descriptor reader fuzzer: builds it with
# clang -fsanitize=fuzzer,address,undefined and fails on any crash, leak,
# sanitizer report or result that breaks what hid_descriptor.h promises.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
name=fuzz/descriptor-reader-short-run
if ! command -v clang >/dev/null; then
	echo "    skip reason: clang is not installed (scripts/deps.sh)"
	echo "SKIP: $name"
	exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if HID_POLICY_FUZZ_TARGET=descriptor "$repo/tests/fuzz/run.sh" 20 >"$log" 2>&1; then
	grep -E '^(stat::number_of_executed_units|stat::new_units_added)|^#[0-9]+.*DONE' "$log" | sed 's/^/    /'
	echo "PASS: $name"
else
	tail -40 "$log" | sed 's/^/    /'
	echo "FAIL: $name"
	exit 1
fi
