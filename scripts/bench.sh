#!/bin/bash
# Run benchmarks in the test VM and print their figures.
# Usage: scripts/bench.sh [NAME [ARGS...]]
#   firewall [hotplug|audit|request]   hid-policyd (bench/bench-firewall.c)
#   policy                             policy compiler, on the host
# Without a name: all of them.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}

scripts/prepare.sh "$build"

name=${1:-all}
[ $# -gt 0 ] && shift
case "$name" in
policy|all)
	"$build/bench/bench-policy-compile" "$@" ;;&
firewall|all)
	scripts/vm.sh --timeout 1800 -- env HID_POLICY_BUILDDIR="$build" \
		"$build/bench/bench-firewall" "$@" ;;
policy) ;;
*)
	echo "bench.sh: unknown benchmark '$name' (firewall, policy)" >&2
	exit 2 ;;
esac
