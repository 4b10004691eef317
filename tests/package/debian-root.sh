#!/bin/bash
# Make (or find in the cache) a Debian trixie root for the package suite:
# debootstrap from the machine's own Debian source, with systemd, udev,
# D-Bus, polkit, sudo and the programs hid-policy is tried against (fwupd,
# Solaar, SDL, Valve's steam-devices udev rules), and the libraries the
# hid-policy package depends on, so that "apt-get install ./hid-policy.deb"
# in the guest needs no network. Prints ROOT=DIR.
#
# Cached in $HID_POLICY_CACHE/debian-root/KEY, KEY a hash of the suite, the
# package lists and this script; a root that did not finish is never used.
# Usage: tests/package/debian-root.sh
set -euo pipefail

suite=trixie
cache=${HID_POLICY_CACHE:-$HOME/.cache/hid-policy}/debian-root
# Installed by debootstrap (main): the base system and its init.
base_packages=(systemd systemd-sysv udev dbus)
# Installed with apt in the root (debootstrap's resolver does not follow
# alternatives and virtual packages, which Solaar's GTK stack needs).
packages=(
	libpam-systemd polkitd sudo passwd python3
	logrotate auditd
	# what hid-policy's package depends on (debian/control, shlibs)
	libjansson4 libbpf1 libseccomp2 libcap-ng0 libpolkit-gobject-1-0
	libglib2.0-0t64 libsystemd0 libaudit1 libelf1t64 zlib1g
	# the real programs of the suite
	fwupd solaar libsdl2-2.0-0
)
# From contrib, installed with apt after debootstrap: Valve's udev rules.
contrib_packages=(steam-devices)

die() { echo "debian-root.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, chroot)"
command -v debootstrap >/dev/null || die "debootstrap is missing: run scripts/deps.sh"

# The machine's own Debian mirror: the URI of its deb822 entry for the
# Debian release it runs (never a host name written here).
mirror=$(awk '
	/^[[:space:]]*$/ { if (deb && uri) { print uri; exit } deb = 0; uri = ""; next }
	/^URIs:/ { uri = $2 }
	/^Suites:/ { for (i = 2; i <= NF; i++) if ($i ~ /^(bookworm|trixie|stable)$/) deb = 1 }
	END { if (deb && uri) print uri }
' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
	mirror=$(awk '$1 == "deb" && $3 ~ /^(bookworm|trixie|stable)$/ { print $2; exit }' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || die "no Debian apt source on this machine to take the mirror from"

key=$( { echo "$suite"; printf '%s\n' "${base_packages[@]}" "${packages[@]}" "${contrib_packages[@]}"; cat "$0"; } |
	sha256sum | cut -c1-16)
root=$cache/$key/root
if [ -f "$cache/$key/done" ]; then
	echo "ROOT=$root"
	exit 0
fi

mkdir -p "$cache"
exec 9> "$cache/lock"
flock 9
if [ ! -f "$cache/$key/done" ]; then
	rm -rf "$cache/$key"
	mkdir -p "$cache/$key"
	list=$(printf '%s\n' "${base_packages[@]}" | paste -sd,)
	echo "debian-root.sh: debootstrap $suite into $root" >&2
	debootstrap --variant=minbase --components=main,contrib --include="$list" \
		"$suite" "$root" "$mirror" > "$cache/$key/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/$key/debootstrap.log" >&2; die "debootstrap failed (log: $cache/$key/debootstrap.log)"; }
	cat > "$root/etc/apt/sources.list" <<-EOT
	deb $mirror $suite main contrib
	EOT
	# Mounts for apt in the chroot, taken down whatever happens.
	cleanup() { umount "$root/proc" "$root/dev/pts" "$root/dev" 2>/dev/null || true; }
	trap cleanup EXIT
	mount -t proc proc "$root/proc"
	mount --bind /dev "$root/dev"
	mount --bind /dev/pts "$root/dev/pts"
	chroot "$root" apt-get update -qq > "$cache/$key/apt.log" 2>&1 ||
		{ cat "$cache/$key/apt.log" >&2; die "apt-get update in the root failed"; }
	mapfile -t wanted < <(printf '%s\n' "${packages[@]}" | grep -v '^#')
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends \
		"${wanted[@]}" >> "$cache/$key/apt.log" 2>&1 ||
		{ tail -n 30 "$cache/$key/apt.log" >&2; die "apt-get install in the root failed (log: $cache/$key/apt.log)"; }
	# A package the mirror does not have is said, not hidden: the suite
	# reports its checks as skipped with this file's reason.
	for p in "${contrib_packages[@]}"; do
		if ! DEBIAN_FRONTEND=noninteractive chroot "$root" \
			apt-get install -y -qq --no-install-recommends "$p" >> "$cache/$key/apt.log" 2>&1; then
			echo "$p: not installable from $suite main contrib at this machine's Debian source" >> "$cache/$key/missing"
		fi
	done
	chroot "$root" apt-get clean
	cleanup
	trap - EXIT
	echo "hid-policy-debian" > "$root/etc/hostname"
	touch "$cache/$key/done"
fi
echo "ROOT=$root"
