#!/bin/bash
# hid-policy's main job, in a VM: boots the test kernel and tells, checking
# every step, how hid-policyd protects a DualSense controller from a user's
# firmware updater and lets fwupd.service update it (scripts/demo-guest.sh;
# it exits 1 naming the step that does not hold).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}

scripts/prepare.sh "$build"
exec scripts/vm.sh -- scripts/demo-guest.sh "$build"
