#!/bin/bash
# Run the benchmarks on both test kernels and print, for every figure, the
# median and spread over the rounds, the port against upstream, and the
# ratios measured side by side within each boot.
#
# Usage: scripts/bench.sh [--rounds N] [--seconds S] [--baseline BUILD_DIR]
#                         [--out FILE] [NAME...]
#   NAME        paths, rules, audit, hotplug, start, dispatch
#               (bench/bench-firewall.c, in the VM) or policy (the policy
#               compiler, on the host); default: paths rules audit start
#   --rounds N  boots of each kernel, in an order that rotates from round
#               to round (default 5, at least 5 for figures that mean
#               anything)
#   --kernel K  only this test kernel (port or upstream; repeatable)
#   --image LABEL=BZIMAGE  also boot this kernel image in every round, its
#               figures labelled LABEL (e.g. port-before=... for the port
#               as it was before a change; repeatable)
#   --seconds S length of each rate measurement (default 0.5)
#   --icount    the guests' clock counts instructions (vm.sh --icount 0:
#               one instruction, one ns), so that a time measured in the
#               guest is the instructions executed, whatever the host's
#               load: for comparing the kernels' code paths (function
#               profiles, BPF stats); rates then mean nothing
#   --baseline  also run hid-policyd of BUILD_DIR (another checkout's
#               build) in the same boots, before this build's: its figures
#               are named before.*, this build's after.*
#   --baseline-for "NAME..."  only these benchmarks run for both builds
#               (default: all named)
#   --out FILE  keep every figure of every boot there (default: a file in
#               the build directory, named on stdout)
# Absolute figures in an emulated VM mean little; ratios do.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}

rounds=5
seconds=0.5
baseline=
baseline_for=
kernels=()
extra=()
icount=()
out=
names=()
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--icount) icount=(--icount 0); shift ;;
	--kernel)
		case "$2" in
		port|upstream) kernels+=("$2") ;;
		*) echo "bench.sh: --kernel takes port or upstream" >&2; exit 2 ;;
		esac
		shift 2 ;;
	--image)
		[[ "$2" =~ ^[A-Za-z0-9_.-]+=. ]] && [ -f "${2#*=}" ] ||
			{ echo "bench.sh: --image takes LABEL=BZIMAGE, an existing file" >&2; exit 2; }
		extra+=("$2")
		shift 2 ;;
	--baseline) baseline=$(cd "$2" && pwd); shift 2 ;;
	--baseline-for) baseline_for=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	paths|rules|audit|hotplug|start|dispatch|policy) names+=("$1"); shift ;;
	*) echo "bench.sh: unknown argument '$1' (see the head of $0)" >&2; exit 2 ;;
	esac
done
[[ "$rounds" =~ ^[0-9]+$ ]] && [ "$rounds" -ge 1 ] || { echo "bench.sh: --rounds takes a number" >&2; exit 2; }
[ ${#names[@]} -gt 0 ] || names=(paths rules audit start)
[ ${#kernels[@]} -gt 0 ] || kernels=(port upstream)
[ -z "$baseline" ] || [ -x "$baseline/policyd/hid-policyd" ] ||
	{ echo "bench.sh: no hid-policyd in $baseline/policyd" >&2; exit 2; }

scripts/prepare.sh "$build"

vm_names=()
for n in "${names[@]}"; do
	if [ "$n" = policy ]; then
		"$build/bench/bench-policy-compile"
	else
		vm_names+=("$n")
	fi
done
[ ${#vm_names[@]} -gt 0 ] || exit 0

out=${out:-$build/bench/figures-$(date -u +%Y%m%dT%H%M%S).txt}
: > "$out"
declare -A image
for k in "${kernels[@]}"; do
	image[$k]=$(kernel/build --kernel "$k" | sed -n 's/^KERNEL_IMAGE=//p')
	[ -n "${image[$k]}" ] || { echo "bench.sh: no $k kernel" >&2; exit 1; }
done
for e in "${extra[@]}"; do
	image[${e%%=*}]=$(cd "$(dirname "${e#*=}")" && pwd)/$(basename "${e#*=}")
	kernels+=("${e%%=*}")
done

# Without KVM the guest may fail to calibrate its TSC and fall back to
# jiffies, which leaves BPF stats (sched_clock) with a 4 ms resolution:
# give it the host's TSC rate, which QEMU's TCG TSC runs at.
khz=$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
append=${khz:+tsc_early_khz=$khz tsc=reliable}
# Counting instructions, QEMU's TSC ticks once per ns of virtual time.
[ ${#icount[@]} -eq 0 ] || append="tsc_early_khz=1000000 tsc=reliable"

# One boot: every benchmark named, for the baseline's daemon first when
# there is one; figure lines are tagged with the build.
guest_script() {
	local b tag run
	for b in ${baseline:+"$baseline"} "$build"; do
		tag=
		run=("${vm_names[@]}")
		if [ -n "$baseline" ]; then
			[ "$b" = "$baseline" ] && tag=before. || tag=after.
			[ -z "$baseline_for" ] || run=($baseline_for)
		fi
		printf 'HID_POLICY_BUILDDIR=%q %q --seconds %q %s | sed -u "s/^figure /figure %s/" || exit 1\n' \
			"$b" "$build/bench/bench-firewall" "$seconds" "${run[*]}" "$tag"
		# the benchmarks not compared run once, untagged
		if [ -n "$baseline" ] && [ -n "$baseline_for" ] && [ "$b" = "$build" ]; then
			run=()
			for n in "${vm_names[@]}"; do
				[[ " $baseline_for " == *" $n "* ]] || run+=("$n")
			done
			[ ${#run[@]} -eq 0 ] || printf 'HID_POLICY_BUILDDIR=%q %q --seconds %q %s || exit 1\n' \
				"$b" "$build/bench/bench-firewall" "$seconds" "${run[*]}"
		fi
	done
}
script="set -o pipefail"$'\n'
# Counting instructions, the guest's time runs slower than the host's:
# the daemon gets longer to start.
[ ${#icount[@]} -eq 0 ] || script+="export HID_POLICY_SLOW_FACTOR=4"$'\n'
script+="$(guest_script)"

for ((r = 1; r <= rounds; r++)); do
	# Rotate which kernel boots first, so a trend in the host's load
	# does not favour one of them.
	order=()
	for ((i = 0; i < ${#kernels[@]}; i++)); do
		order+=("${kernels[(i + r - 1) % ${#kernels[@]}]}")
	done
	for k in "${order[@]}"; do
		echo "== round $r/$rounds: $k (${image[$k]})"
		scripts/vm.sh --kernel "${image[$k]}" --timeout 1800 --append "$append" \
			${icount[@]+"${icount[@]}"} -- \
			bash -c "$script" | tee -a /dev/stderr | sed -n "s/^figure /$k $r /p" >> "$out"
	done
done
echo "figures of every boot: $out"
python3 bench/bench-summary.py "$out"
