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

# The two kernels boot alternately, BOOTS times each ($HID_BPF_BENCH_BOOTS,
# default 2), and every figure is the median over the boots: the host's
# load changes between boots more than within one.
boots=${HID_BPF_BENCH_BOOTS:-2}
with_all=
without_all=
for ((b = 1; b <= boots; b++)); do
	echo "== boot $b/$boots: kernel with HID-BPF ($img)"
	out_with=$(run_vm "$img" "$@")
	echo "$out_with"
	with_all+="$out_with"$'\n'
	echo "== boot $b/$boots: kernel without HID-BPF ($img_nobpf)"
	out_without=$(run_vm "$img_nobpf" --no-bpf "$@")
	echo "$out_without"
	without_all+="$out_without"$'\n'
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pick() { awk -v k1="$2" -v k2="$3" '$1 == k1 && $2 == k2 { print $NF }' <<< "$1" | median; }

a=$(pick "$with_all" rate none)
b=$(pick "$with_all" rate 1)
c=$(pick "$with_all" rate 8)
p1=$(pick "$with_all" prog 1)
p8=$(pick "$with_all" prog 8)
n=$(pick "$without_all" rate none)

echo
echo "medians over $boots boots of each kernel (reports/s):"
echo "  (a) no program:            $a"
echo "  (b) 1 pass-through program: $b"
echo "  (c) 8 chained programs:     $c"
echo "  (a) without CONFIG_HID_BPF: $n"
awk -v a="$a" -v b="$b" -v c="$c" -v n="$n" -v p1="$p1" -v p8="$p8" 'BEGIN {
	printf "b/a: %.3f   c/a: %.3f   a/a(no HID-BPF): %.3f\n", b / a, c / a, a / n
	printf "average program run time (BPF stats): %.1f ns with 1 attached, %.1f ns with 8 attached\n", p1, p8
}'
