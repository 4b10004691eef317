#!/bin/bash
# Build kernel/upstream/repro/test-series.c for one test kernel and run it
# in the VM (one boot). On a kernel without the fixes a test may crash the
# guest: give one test per run there.
# Usage: kernel/upstream/repro/run.sh KERNEL [TEST...]
# KERNEL: a kernel/build name (port, upstream, upstream-fixed, latest,
# latest-fixed, any of them with -debug).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
k=${1:?usage: $0 KERNEL [TEST...]}
shift
cd "$repo"
image=$(kernel/build --kernel "$k" | sed -n 's/^KERNEL_IMAGE=//p')
out=$repo/build/upstream-repro-$k
tests/kernel/build.sh "$out" "$(dirname "$image")" "$out" >/dev/null
cc -O2 -g -Wall -Wextra -Wno-missing-field-initializers -Wno-unused-parameter -Werror -std=gnu11 \
	-D_GNU_SOURCE -I tests/lib -I tests/kernel -o "$out/test-series" \
	kernel/upstream/repro/test-series.c tests/kernel/hid_bpf_loader.c tests/kernel/kernel_fixture.c \
	tests/lib/harness.c tests/lib/uhid_dev.c tests/lib/usb_gadget.c tests/lib/bt_hidp.c -lbpf -lpthread
exec scripts/vm.sh --kernel "$image" -- env HID_BPF_TEST_OBJDIR="$out/tests/kernel/bpf" \
	HID_POLICY_KERNEL_NAME="$k" "$out/test-series" "$@"
