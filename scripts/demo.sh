#!/bin/bash
# hid-policy's main job, in a VM: boots the test kernel, creates a virtual
# game controller and shows what the kernel offers to protect it.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}

scripts/prepare.sh "$build"
exec scripts/vm.sh -- scripts/demo-guest.sh "$build"
