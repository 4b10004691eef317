#!/bin/bash
# Install every Debian 12 package hid-policy needs to build, test and run.
# Idempotent: quiet when everything is already present, one apt-get update
# otherwise.
set -euo pipefail

packages=(
	# userspace build
	build-essential pkg-config meson ninja-build
	clang llvm libclang-rt-14-dev
	libbpf-dev bpftool libelf-dev zlib1g-dev
	libjansson-dev libseccomp-dev libcap-ng-dev libpolkit-gobject-1-dev
	# test kernel build
	linux-source-6.1 xz-utils bc bison flex libssl-dev dwarves python3
	# VM and guest tools
	qemu-system-x86 busybox-static
	# systemd-udevd in the guest (tests/e2e/test-race.c, bench/race_bench.sh)
	udev
	# system integration (polkit tests: gdbus waits for polkitd, libcrypt hashes a test
	# password; SELinux module and its test)
	polkitd dbus libglib2.0-bin libcrypt-dev selinux-policy-dev checkpolicy semodule-utils policycoreutils secilc
	# policy schema test (tests/unit/test-policy-schema.sh)
	python3-jsonschema
)

missing=()
for p in "${packages[@]}"; do
	case "$p" in \#*) continue ;; esac
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages: ${missing[*]}" >&2
	echo "deps.sh: run as root (or with sudo) to install them" >&2
	exit 1
fi

echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
