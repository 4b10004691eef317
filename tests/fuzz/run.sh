#!/bin/bash
# Build the policy fuzzer (clang, libFuzzer, ASan, UBSan) and run it.
#
# Usage: tests/fuzz/run.sh [SECONDS] [libFuzzer options...]
# Default 20 s. The committed seeds (tests/fuzz/corpus) are copied into a
# scratch corpus under the build directory, so a run never changes them.
# Crash inputs land in $out/crashes. Exit status is libFuzzer's.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${HID_POLICY_BUILDDIR:-$repo/build}
out=$build/fuzz
seconds=${1:-20}
shift || true

mkdir -p "$out/corpus" "$out/crashes"
sources=(
	"$repo"/policyd/policy/{diag,policy,policy_capacity,policy_compile,policy_explain,policy_load,policy_match,policy_parse,policy_sender,policy_validate,policy_value,trusted_file}.c
	"$repo"/policyd/common/util.c
	"$repo"/tests/fuzz/fuzz-policy.c
)
# Rebuild when a source is newer than the binary.
if [ ! -x "$out/fuzz-policy" ] || [ -n "$(find "${sources[@]}" "$repo"/policyd/{policy,common}/*.h "$repo"/bpf/hid_rules.h -newer "$out/fuzz-policy" 2>/dev/null)" ]; then
	clang -std=gnu11 -g -O1 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I"$repo" -I"$repo/policyd" "${sources[@]}" \
		$(pkg-config --cflags --libs jansson) -o "$out/fuzz-policy"
fi
cp -n "$repo"/tests/fuzz/corpus/* "$out/corpus/" 2>/dev/null || true

cd "$out"
exec ./fuzz-policy -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
	-dict="$repo/tests/fuzz/policy.dict" -artifact_prefix="$out/crashes/" \
	-print_final_stats=1 "$@" corpus
