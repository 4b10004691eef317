#!/bin/bash
# The root hidraw race, one command: in the VM, a root racer opens a new
# DualSense's hidraw node as soon as it appears and starts a firmware update,
# 100 times, with hid-policyd running the shipped policy and no udev. Prints
# how many requests reached the device and the window from the node's
# appearance to the firewall's decision (bench/bench-race.c), first as the
# kernel and daemon are, then with probing held until the decision
# (--hold-probe).
# Usage: bench/race_bench.sh [--rounds N]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}

scripts/deps.sh
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
ninja -C "$build" >/dev/null
img=$(kernel/build | sed -n 's/^KERNEL_IMAGE=//p')

# Without KVM the guest may fall back to a jiffies clock (4 ms steps): give
# it the host's TSC rate, as bench/run.sh does.
khz=$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
append=${khz:+tsc_early_khz=$khz tsc=reliable}

scripts/vm.sh --kernel "$img" --timeout 1200 --append "$append" -- \
	env HID_POLICY_SRCDIR="$repo" HID_POLICY_BUILDDIR="$build" \
	bash -c '"$0" "$@" && echo && "$0" --hold-probe "$@"' "$build/bench/bench-race" "$@"
