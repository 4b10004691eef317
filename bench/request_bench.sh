#!/bin/bash
# Request-hook benchmark, one command: HIDIOCSFEATURE and write() calls per
# second with no program, a pass-through and a hash-lookup request program,
# in the VM. Usage: bench/request_bench.sh [SECONDS_PER_MEASUREMENT]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}
out=$build/bench

img=$(kernel/build | sed -n 's/^KERNEL_IMAGE=//p')
tests/kernel/build.sh "$build" "$(dirname "$img")"
mkdir -p "$out/bpf"
clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	-I"$build/tests/kernel" -I"$repo/tests/kernel/bpf" \
	-c bench/bpf/request_bench.bpf.c -o "$out/bpf/request_bench.bpf.o"
cc -O2 -g -Wall -Wextra -Wno-missing-field-initializers -Werror -std=gnu11 -D_GNU_SOURCE \
	-I"$repo/tests/lib" -I"$repo/tests/kernel" -o "$out/request_bench" \
	bench/request_bench.c tests/kernel/hid_bpf_loader.c tests/lib/uhid_dev.c \
	-lbpf -lpthread
scripts/vm.sh --kernel "$img" --timeout 900 -- \
	env HID_BPF_TEST_OBJDIR="$out/bpf" "$out/request_bench" "${1:-1}"
