#!/bin/bash
# Host-side build of the kernel test suite (tests/kernel/run.sh runs it in
# the VM): vmlinux.h from the test kernel's BTF, the BPF test programs and
# the test program.
#
# Usage: tests/kernel/build.sh BUILD_DIR KERNEL_IMAGE_DIR [KERNEL_BUILD_DIR]
#        tests/kernel/build.sh KERNEL_IMAGE_DIR      (BUILD_DIR: build/)
# KERNEL_IMAGE_DIR is the directory of kernel/build's bzImage (it holds
# vmlinux). Output goes to KERNEL_BUILD_DIR/tests/kernel/ (default
# BUILD_DIR), so that each test kernel has its own.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$src/../.." && pwd)
if [ $# -eq 1 ]; then
	build=$repo/build
	kdir=$1
elif [ $# -eq 2 ] || [ $# -eq 3 ]; then
	build=$1
	kdir=$2
else
	echo "usage: $0 [BUILD_DIR] KERNEL_IMAGE_DIR [KERNEL_BUILD_DIR]" >&2
	exit 2
fi
[ -f "$kdir/vmlinux" ] || { echo "build.sh: no vmlinux in $kdir" >&2; exit 1; }

out=${3:-$build}/tests/kernel
mkdir -p "$out/bpf"

bpftool btf dump file "$kdir/vmlinux" format c > "$out/vmlinux.h.tmp"
mv "$out/vmlinux.h.tmp" "$out/vmlinux.h"

# 7.x builds with -fms-extensions and embeds tagged structs anonymously
# ("struct ns_tree;" as a member), which vmlinux.h keeps: the BPF programs
# are compiled the same way, so those members are there (as upstream's
# selftests do).
for f in "$src"/bpf/*.bpf.c; do
	clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
		-fms-extensions -Wno-microsoft-anon-tag \
		-I"$out" -I"$src/bpf" -c "$f" -o "$out/bpf/$(basename "${f%.c}").o"
done

for t in test_hid_bpf test_hid_bpf_requests; do
	cc -O2 -g -Wall -Wextra -Wno-missing-field-initializers -Wno-unused-parameter -Werror -std=gnu11 \
		-D_GNU_SOURCE -I"$repo/tests/lib" -I"$src" \
		-o "$out/${t//_/-}" "$src/$t.c" "$src/hid_bpf_loader.c" "$src/kernel_fixture.c" \
		"$repo/tests/lib/harness.c" "$repo/tests/lib/uhid_dev.c" "$repo/tests/lib/usb_gadget.c" "$repo/tests/lib/bt_hidp.c" \
		-lbpf -lpthread
done
