#!/bin/bash
# Make a build ready to run: the Debian packages (scripts/deps.sh), the
# meson build directory, and an up-to-date build of everything in it.
# Usage: scripts/prepare.sh BUILD_DIR
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: scripts/prepare.sh BUILD_DIR}

"$repo/scripts/deps.sh"
[ -f "$build/build.ninja" ] || meson setup "$build" "$repo" >/dev/null
ninja -C "$build" >/dev/null
