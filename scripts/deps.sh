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
	# test kernels: the port (6.1 + kernel/) and upstream 6.12 (backports, below);
	# the latest (7.3) is fetched by kernel/fetch-source, whose private apt
	# configuration checks trixie-backports against the archive keyring
	linux-source-6.1 xz-utils bc bison flex libssl-dev dwarves python3 libelf-dev
	debian-archive-keyring
	# VM and guest tools
	qemu-system-x86 busybox-static
	# systemd-udevd in the guest (tests/e2e/test-race.c, bench/race_bench.sh)
	udev
	# system integration (polkit tests: gdbus waits for polkitd, libcrypt hashes a test
	# password; SELinux module and its test)
	polkitd dbus libglib2.0-bin libcrypt-dev selinux-policy-dev checkpolicy semodule-utils policycoreutils secilc
	# the service suite (tests/service, scripts/vm.sh --systemd): systemd as the
	# guest's PID 1, logind sessions for runuser -l, useradd
	systemd libpam-systemd passwd
	# audit outlets: the journal (sd_journal_send) and Linux audit (libaudit), with a real
	# systemd-journald and auditd in the guest (tests/audit-outlets)
	libsystemd-dev libaudit-dev auditd
	# policy schema test (tests/unit/test-policy-schema.sh)
	python3-jsonschema
	# upstream's HID selftest (tests/hid-selftests/build.sh embeds its object)
	xxd
	# the Bluetooth transport of the VM suites: btvirt's emulated controllers
	# on /dev/vhci (tests/lib/bt_hidp.c)
	bluez-test-tools
	# executables on btrfs subvolumes in the VM (tests/e2e/test-sender-fs.c)
	btrfs-progs
	# the Debian package (debian/, tests/package): dpkg-buildpackage with
	# debhelper's meson sequence, lintian; the trixie root the package is
	# installed into (debootstrap) and its ext4 image (e2fsprogs)
	debhelper dpkg-dev fakeroot lintian debootstrap e2fsprogs
	# the RPM spec (rpm/, tests/package/rpm.sh): built with rpmbuild on this
	# Debian machine and checked with rpmlint; no Fedora system is involved
	rpm rpmlint cpio bzip2 file
)

# From bookworm-backports: the upstream kernel the tests also run on.
backports_packages=(linux-source-6.12)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
for p in "${packages[@]}"; do
	case "$p" in \#*) continue ;; esac
	installed "$p" || missing+=("$p")
done
missing_bpo=()
for p in "${backports_packages[@]}"; do
	installed "$p" || missing_bpo+=("$p")
done

[ ${#missing[@]} -eq 0 ] && [ ${#missing_bpo[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages: ${missing[*]}" >&2
	echo "deps.sh: run as root (or with sudo) to install them" >&2
	exit 1
fi

# Enable bookworm-backports the Debian way: a deb822 source that uses the
# same mirror as the machine's own bookworm entry, so no host is named here.
enable_backports() {
	local list=/etc/apt/sources.list.d/hid-policy-backports.sources uris
	if grep -rqsE '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 0
	fi
	uris=$(awk '
		/^[[:space:]]*$/ { if (suite && uri) { print uri; exit } suite = 0; uri = ""; next }
		/^URIs:/ { uri = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") suite = 1 }
		END { if (suite && uri) print uri }
	' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
	if [ -z "$uris" ] && [ -f /etc/apt/sources.list ]; then
		uris=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list)
	fi
	[ -n "$uris" ] || { echo "deps.sh: no Debian bookworm apt source to derive bookworm-backports from" >&2; return 1; }
	echo "deps.sh: enabling bookworm-backports ($list)" >&2
	cat > "$list" <<-EOT
	Types: deb
	URIs: $uris
	Suites: bookworm-backports
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOT
}

export DEBIAN_FRONTEND=noninteractive
[ ${#missing_bpo[@]} -eq 0 ] || enable_backports
echo "deps.sh: installing ${missing[*]} ${missing_bpo[*]}" >&2
apt-get update -qq
[ ${#missing[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# pkg/bookworm-backports: only the named packages come from backports.
[ ${#missing_bpo[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${missing_bpo[@]/%//bookworm-backports}" >/dev/null
