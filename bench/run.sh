#!/bin/bash
# HID-BPF benchmark, one command: builds the test kernel and the same kernel
# without CONFIG_HID_BPF, boots each in the VM and prints input reports per
# second through uhid -> hid-core -> hidraw with no program (a), one
# pass-through hid_device_event program (b) and 8 chained (c), the ratios
# b/a and c/a, each program's average run time from BPF stats, and (a) on
# the kernel without HID-BPF against (a) on ours.
#
# Usage: bench/run.sh [--seconds S] [--rounds R]   (defaults 2 s, 7 rounds;
#        each rate is the median of the rounds)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}
out=$build/bench

image_of() { sed -n 's/^KERNEL_IMAGE=//p'; }
img=$(kernel/build | image_of)
img_nobpf=$(kernel/build --config CONFIG_HID_BPF=n | image_of)

tests/kernel/build.sh "$build" "$(dirname "$img")"
mkdir -p "$out"
cc -O2 -g -Wall -Wextra -Wno-missing-field-initializers -Werror -std=gnu11 \
	-I"$repo/tests/lib" -I"$repo/tests/kernel" -o "$out/hid_bpf_bench" \
	bench/hid_bpf_bench.c tests/kernel/hid_bpf_loader.c tests/lib/uhid_dev.c \
	-lbpf -lpthread

# Without KVM, the guest often fails to calibrate its TSC and falls back to
# jiffies, which leaves BPF stats (sched_clock) with a 4 ms resolution: give
# it the host's TSC rate, which is what QEMU's TCG TSC runs at.
khz=$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
append=${khz:+tsc_early_khz=$khz tsc=reliable}

run_vm() {
	scripts/vm.sh --kernel "$1" --timeout 900 --append "$append" -- \
		env HID_BPF_TEST_OBJDIR="$build/tests/kernel/bpf" "$out/hid_bpf_bench" "${@:2}"
}

echo "== kernel with HID-BPF ($img)"
[ $# -gt 0 ] || set -- --seconds 2 --rounds 7
with=$(run_vm "$img" "$@")
echo "$with"
echo "== kernel without HID-BPF ($img_nobpf)"
without=$(run_vm "$img_nobpf" --no-bpf "$@")
echo "$without"

awk -v with="$with" -v without="$without" 'BEGIN {
	n = split(with, l, "\n")
	for (i = 1; i <= n; i++) {
		split(l[i], f, " ")
		if (f[1] == "rate") rate[f[2]] = f[3]
		if (f[1] == "prog") avg[f[2]] = f[4]
	}
	split(without, w, " ")
	printf "\nreports/s: none %d, 1 program %d, 8 programs %d, no HID-BPF kernel %d\n", rate["none"], rate["1"], rate["8"], w[3]
	printf "b/a (1 pass-through program):  %.3f\n", rate["1"] / rate["none"]
	printf "c/a (8 chained programs):      %.3f\n", rate["8"] / rate["none"]
	printf "average program run time: %.1f ns (1 attached), %.1f ns (8 attached)\n", avg["1"], avg["8"]
	printf "a / a without CONFIG_HID_BPF:  %.3f\n", rate["none"] / w[3]
}'
