#!/bin/bash
# The hidraw race, one command: in the VM, a racer opens a new DualSense's
# hidraw node as soon as it can and starts a firmware update, 100 times per
# scenario, with hid-policyd running the shipped policy (bench/bench-race.c):
#   root             root racer, no udev, the kernel and daemon as they are
#   root-hold-probe  root racer, devices probed only once decided
#   user-no-rule     uid-1000 racer, udevd opens the node, no 60-hid-policy.rules
#   user-rule        uid-1000 racer, udevd with 60-hid-policy.rules
# Each prints how many requests reached the device and the window from the
# node's appearance to the firewall's decision.
# Usage: bench/race_bench.sh [--rounds N] [SCENARIO...]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}

rounds=()
if [ "${1:-}" = --rounds ]; then
	rounds=(--rounds "$2")
	shift 2
fi
[ $# -gt 0 ] || set -- root root-hold-probe user-no-rule user-rule

scripts/prepare.sh "$build"
img=$(kernel/build | sed -n 's/^KERNEL_IMAGE=//p')

# Without KVM the guest may fall back to a jiffies clock (4 ms steps): give
# it the host's TSC rate, as bench/run.sh does.
khz=$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
append=${khz:+tsc_early_khz=$khz tsc=reliable}

# One boot; each scenario in its own process (the udev ones move to a
# private mount namespace).
guest='bench=$1; shift; n=$1; shift
for s in "$@"; do "$bench" ${n:+--rounds "$n"} "$s" || exit; echo; done'
scripts/vm.sh --kernel "$img" --timeout 1800 --append "$append" -- \
	env HID_POLICY_SRCDIR="$repo" HID_POLICY_BUILDDIR="$build" \
	bash -c "$guest" race-bench "$build/bench/bench-race" "${rounds[1]:-}" "$@"
