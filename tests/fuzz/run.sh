#!/bin/bash
# Build a fuzzer (clang, libFuzzer, ASan, UBSan) and run it: the policy
# loader (HID_POLICY_FUZZ_TARGET=policy, the default) or the report
# descriptor reader (HID_POLICY_FUZZ_TARGET=descriptor).
#
# Usage: tests/fuzz/run.sh [SECONDS] [libFuzzer options...]
# Default 20 s. The committed seeds (tests/fuzz/corpus, corpus-descriptor)
# are copied into a scratch corpus under the build directory, so a run never
# changes them. Crash inputs land in $out/crashes. Exit status is libFuzzer's.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${HID_POLICY_BUILDDIR:-$repo/build}
out=$build/fuzz
seconds=${1:-20}
shift || true

target=${HID_POLICY_FUZZ_TARGET:-policy}
case $target in
policy)
	sources=(
		"$repo"/policyd/policy/{diag,policy,policy_capacity,policy_compile,policy_explain,policy_load,policy_match,policy_parse,policy_sender,policy_subject,policy_validate,policy_value,trusted_file,policy_positions,policy_class,policy_sort}.c
		"$repo"/policyd/common/util.c
		"$repo"/tests/fuzz/fuzz-policy.c
	)
	seeds=corpus corpus=corpus extra=(-dict="$repo/tests/fuzz/policy.dict")
	;;
descriptor)
	sources=("$repo"/policyd/hid/{hid_descriptor,sha256}.c "$repo"/tests/fuzz/fuzz-descriptor.c)
	seeds=corpus-descriptor corpus=corpus-descriptor extra=()
	;;
*)
	echo "run.sh: unknown HID_POLICY_FUZZ_TARGET '$target' (policy, descriptor)" >&2
	exit 2
	;;
esac
binary=$out/fuzz-$target

mkdir -p "$out/$corpus" "$out/crashes"
# Rebuild when a source is newer than the binary.
if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" "$repo"/policyd/{policy,common,hid}/*.h "$repo"/bpf/hid_rules.h -newer "$binary" 2>/dev/null)" ]; then
	clang -std=gnu11 -g -O1 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I"$repo" -I"$repo/policyd" "${sources[@]}" \
		$(pkg-config --cflags --libs jansson) -o "$binary"
fi
cp -n "$repo"/tests/fuzz/"$seeds"/* "$out/$corpus/" 2>/dev/null || true

cd "$out"
exec "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
	"${extra[@]}" -artifact_prefix="$out/crashes/" \
	-print_final_stats=1 "$@" "$corpus"
