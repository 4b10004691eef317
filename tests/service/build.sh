#!/bin/bash
# Host part of the service suite: install the build as `meson install`
# does, into a DESTDIR the guest copies into place (tests/service/run.sh),
# and record the build's install directories next to it.
#
# Usage: tests/service/build.sh BUILD_DIR KERNEL_IMAGE_DIR KERNEL_BUILD_DIR
# Output: KERNEL_BUILD_DIR/service-root (the DESTDIR) and
# KERNEL_BUILD_DIR/service-root.dirs (prefix=..., sbindir=..., as shell
# assignments).
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR KERNEL_IMAGE_DIR KERNEL_BUILD_DIR" >&2; exit 2; }
build=$1
out=$3
mkdir -p "$out"
# Absolute: meson install runs in the build directory.
out=$(cd "$out" && pwd)
root=$out/service-root

rm -rf "$root"
meson install -C "$build" --destdir "$root" --no-rebuild --quiet
meson introspect --buildoptions "$build" | python3 -c '
import json, os, shlex, sys
opts = {o["name"]: o["value"] for o in json.load(sys.stdin) if o["section"] == "directory"}
prefix = opts["prefix"]
for name, value in sorted(opts.items()):
    path = value if os.path.isabs(value) else os.path.join(prefix, value)
    print(f"{name}={shlex.quote(path)}")
' > "$root.dirs"
