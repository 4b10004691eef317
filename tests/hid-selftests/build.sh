#!/bin/bash
# Host-side build of upstream's own HID-BPF selftest (tools/testing/
# selftests/hid: hid_bpf.c, progs/hid.c) against one test kernel;
# tests/hid-selftests/run.sh runs it in the VM.
#
# Usage: tests/hid-selftests/build.sh BUILD_DIR KERNEL_IMAGE_DIR [KERNEL_BUILD_DIR]
# Output goes to KERNEL_BUILD_DIR/tests/hid-selftests/ (default BUILD_DIR).
#
# Which selftests: a 7.x kernel (latest, latest-fixed) gets those of its own
# source, linux-source-7.3 as kernel/build fetches it into the cache, with
# kernel/upstream's selftest patch (the tests of the series' fixes, which
# run.sh runs only on a kernel with the series); every other kernel gets
# linux-source-6.12's, as they are.
#
# The tests are upstream's; only the build is adapted:
#   - vmlinux.h comes from the test kernel's BTF, the BPF object is
#     compiled with Debian's clang and the skeleton made by Debian's bpftool.
#   - The test program needs libbpf >= 1.2 (struct_ops map data before
#     load, bpf_map__set_autoattach(), SEC(".struct_ops.link") and
#     SEC("struct_ops.s/")): as upstream's Makefile does, it is linked with
#     the libbpf of the same source tree, built here as a static library.
#     Nothing else uses that library.
#   - bpftool 7.1 (libbpf 1.1) cannot open an object with struct_ops.s or
#     .struct_ops.link sections, so the skeleton is generated from a copy
#     with plain struct_ops sections and then made to carry the real object.
#   - On a kernel without struct_ops links (the port: Linux 6.1) the object
#     uses SEC(".struct_ops") instead of SEC(".struct_ops.link"); on a
#     kernel without bpf_wq, what needs it (one program, its map and its
#     test) is left out, and run.sh reports that test as skipped.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -eq 2 ] || [ $# -eq 3 ]; then
	build=$1
	kdir=$2
else
	echo "usage: $0 BUILD_DIR KERNEL_IMAGE_DIR [KERNEL_BUILD_DIR]" >&2
	exit 2
fi
[ -f "$kdir/vmlinux" ] || { echo "build.sh: no vmlinux in $kdir" >&2; exit 1; }
out=${3:-$build}/tests/hid-selftests
mkdir -p "$out"

repo=$(cd "$src/../.." && pwd)
cache=${HID_POLICY_CACHE:-$HOME/.cache/hid-policy}

# The kernel's version, from the version string its bzImage carries
# uncompressed.
kver=$(grep -a -o -m1 '[0-9]\+\.[0-9]\+\.[0-9]\+[^ ]* ([^)]*) #' "$kdir/bzImage" |
	head -n1 | cut -d. -f1)
[ -n "$kver" ] || { echo "build.sh: no version in $kdir/bzImage" >&2; exit 1; }

series_patch=
if [ "$kver" -ge 7 ]; then
	version=$(sed -n 's/^latest_version=//p' "$repo/kernel/build")
	linux=$cache/kernel/src/$version
	[ -f "$linux/.unpacked" ] ||
		{ echo "build.sh: $linux is missing: run kernel/build --kernel latest" >&2; exit 1; }
	series_patch=$(ls "$repo"/kernel/upstream/0*-selftests-hid-*.patch)
else
	# The 6.12 source: kernel/build's pristine unpacked copy when it exists,
	# otherwise what this build reads of it unpacked here once: tools/, and
	# scripts/bpf_doc.py, with which libbpf's Makefile writes
	# bpf_helper_defs.h (without it: "bpf_doc.py: not found", exit 127, on a
	# machine that has not built the upstream kernel yet).
	package=linux-source-6.12
	version=$(dpkg-query -W -f='${Version}' "$package")
	linux=${HID_POLICY_CACHE:-$HOME/.cache/hid-policy}/kernel/src/$version
	if [ ! -d "$linux/tools/testing/selftests/hid" ]; then
		linux=$out/linux-$version
		# .unpacked names what was unpacked: a copy of fewer parts (an
		# earlier version of this script) is unpacked again.
		parts="$package/tools $package/scripts/bpf_doc.py"
		if [ "$(cat "$linux/.unpacked" 2>/dev/null)" != "$parts" ]; then
			rm -rf "$linux"
			mkdir -p "$linux"
			# shellcheck disable=SC2086
			tar -xJf "/usr/src/$package.tar.xz" -C "$linux" \
				--strip-components=1 $parts
			echo "$parts" > "$linux/.unpacked"
		fi
	fi
fi
selftests=$linux/tools/testing/selftests

# The selftests' sources, with the series' tests where they apply; the
# names of those tests for run.sh.
hid_src=$selftests/hid
: > "$out/series-tests"
if [ -n "$series_patch" ]; then
	hid_src=$out/src/hid
	rm -rf "$out/src"
	mkdir -p "$hid_src"
	cp -r "$selftests/hid/." "$hid_src/"
	patch -s -d "$hid_src" -p5 --no-backup-if-mismatch < "$series_patch"
	sed -n 's/^+TEST_F(hid_bpf, \([A-Za-z0-9_]*\))$/\1/p' "$series_patch" > "$out/series-tests"
fi

# libbpf of the same tree, static; rebuilt only when the tree changes.
libbpf=$out/libbpf
if [ "$(cat "$libbpf/.version" 2>/dev/null)" != "$version" ]; then
	rm -rf "$libbpf"
	mkdir -p "$libbpf"
	make -s -C "$linux/tools/lib/bpf" OUTPUT="$libbpf/" \
		DESTDIR="$libbpf/root" prefix= -j"$(nproc)" \
		"$libbpf/libbpf.a" install_headers
	echo "$version" > "$libbpf/.version"
fi

bpftool btf dump file "$kdir/vmlinux" format c > "$out/vmlinux.h.tmp"
mv "$out/vmlinux.h.tmp" "$out/vmlinux.h"

# What the kernel has, from its BTF.
has_type() { grep -q "^struct $1 {" "$out/vmlinux.h"; }
: > "$out/excluded"
cp "$hid_src/progs/hid.c" "$out/hid.bpf.c"
if ! has_type bpf_struct_ops_link; then
	sed -i 's/SEC("\.struct_ops\.link")/SEC(".struct_ops")/' "$out/hid.bpf.c"
fi
if ! has_type bpf_wq; then
	# from "struct elem {" to the end of the test_multiply_events_wq ops
	awk '/^struct elem \{/ { skip = 1 }
	     !skip { print }
	     skip && /^struct hid_bpf_ops test_multiply_events_wq/ { ops = 1 }
	     skip && ops && /^};/ { skip = 0; ops = 0 }' \
		"$out/hid.bpf.c" > "$out/hid.bpf.c.tmp"
	mv "$out/hid.bpf.c.tmp" "$out/hid.bpf.c"
	printf 'test_multiply_events_wq\tneeds bpf_wq, which this kernel does not have\n' \
		>> "$out/excluded"
fi
# For bpftool 7.1 only: the same object with plain struct_ops sections.
sed -e 's/SEC("\.struct_ops\.link")/SEC(".struct_ops")/' \
    -e 's/SEC("?struct_ops\.s\//SEC("?struct_ops\//' \
	"$out/hid.bpf.c" > "$out/hid-bpftool.bpf.c"

cp "$hid_src/progs/hid_bpf_helpers.h" "$out/"
# bpftool 7.1 dumps some members of 7.x's BTF (struct ns_tree and a dozen
# more) as "struct NAME;" inside a structure, which declares nothing:
# clang's -Wmissing-declarations, not an error in the tests' code.
for f in hid hid-bpftool; do
	clang -g -O2 --target=bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Werror \
		-Wno-missing-declarations \
		-I"$out" -I"$libbpf/root/include" \
		-c "$out/$f.bpf.c" -o "$out/$f.bpf.o"
done

# The skeleton of the copy, carrying the real object's bytes instead.
bpftool gen skeleton "$out/hid-bpftool.bpf.o" name hid > "$out/hid.skel.h.tmp"
xxd -i -n hid_bpf_object "$out/hid.bpf.o" > "$out/hid_object.h"
awk -v obj="$out/hid_object.h" '
	/^static inline const void \*hid__elf_bytes\(size_t \*sz\)$/ {
		while ((getline line < obj) > 0)
			print line
		print
		print "{"
		print "\t*sz = hid_bpf_object_len;"
		print "\treturn hid_bpf_object;"
		print "}"
		replacing = 1
		next
	}
	replacing { if ($0 == "}") replacing = 0; next }
	{ print }' "$out/hid.skel.h.tmp" > "$out/hid.skel.h"
rm -f "$out/hid.skel.h.tmp"
grep -q 'return hid_bpf_object;' "$out/hid.skel.h" ||
	{ echo "build.sh: hid.skel.h: object bytes not replaced" >&2; exit 1; }

cc -g -O0 -rdynamic -Wall -Werror -D_GNU_SOURCE \
	-I"$out" -I"$libbpf/root/include" -I"$selftests" \
	-o "$out/hid_bpf" "$hid_src/hid_bpf.c" "$libbpf/libbpf.a" \
	-lelf -lz -lrt -lpthread
