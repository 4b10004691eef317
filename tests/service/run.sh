#!/bin/bash
# The service suite, in a guest whose PID 1 is systemd (scripts/vm.sh
# --systemd; scripts/test.sh boots it so, see tests/service/vm-options).
#
# Installs what tests/service/build.sh installed into a DESTDIR on the
# host, where the build's directories say, as a package would: the
# binaries, vendor policies and man pages under the prefix (which must be
# /usr/local, meson's default: the guest lays tmpfs over /usr/local/bin,
# /usr/local/sbin and /usr/local/share to write them), the unit in the
# runtime unit directory /run/systemd/system, the udev rule in
# /run/udev/rules.d, and the polkit actions and rule in /usr/share/polkit-1
# (a tmpfs copy: polkit reads actions from there only). Adds the test
# users, then runs build/tests/service/test-service.
# Usage (in the guest): tests/service/run.sh BUILD_DIR [TEST...]
set -uo pipefail

build=$1
kbuild=${HID_POLICY_KERNEL_BUILDDIR:-$build}
root=$kbuild/service-root
suite=service

setup_failed() {
	echo "    $*"
	echo "FAIL: $suite/setup"
	exit 1
}

[ "$(cat /proc/1/comm)" = systemd ] ||
	setup_failed "PID 1 is $(cat /proc/1/comm), not systemd: boot with scripts/vm.sh --systemd"
[ -d "$root" ] && [ -f "$root.dirs" ] ||
	setup_failed "$root is missing: run tests/service/build.sh on the host first"
# shellcheck disable=SC1090
. "$root.dirs"
[ "$prefix" = /usr/local ] ||
	setup_failed "the build's prefix is $prefix; this suite installs under /usr/local only (meson setup --prefix=/usr/local)"

# A tmpfs on DIR with a copy of what was there.
writable_copy() {
	local dir=$1 tmp
	tmp=$(mktemp -d) || return 1
	cp -a "$dir/." "$tmp/" 2>/dev/null
	mount -t tmpfs -o mode=0755 tmpfs "$dir" || return 1
	cp -a "$tmp/." "$dir/" && rm -rf "$tmp"
}

# The programs' directories get an empty tmpfs (the host's programs in
# /usr/local/bin are out of sight in this guest: that directory can be
# large), the data directory a copy.
for d in "$bindir" "$sbindir" "$datadir"; do
	case "$d" in /usr/local/*) ;; *) setup_failed "$d is not under /usr/local" ;; esac
	[ -d "$d" ] || setup_failed "$d does not exist on the host's root file system"
	if [ "$d" = "$datadir" ]; then
		writable_copy "$d" || setup_failed "cannot make $d writable"
	else
		mount -t tmpfs -o mode=0755 tmpfs "$d" || setup_failed "cannot make $d writable"
	fi
	cp -a "$root$d/." "$d/" || setup_failed "cannot install $d"
done
for u in hid-policyd.service hid-policy-announce.service hid-policy-announce.path; do
	cp "$root$prefix/lib/systemd/system/$u" /run/systemd/system/ ||
		setup_failed "cannot install the unit $u"
done
mkdir -p /run/udev/rules.d
cp "$root$prefix/lib/udev/rules.d/60-hid-policy.rules" /run/udev/rules.d/ ||
	setup_failed "cannot install the udev rule"
for d in actions rules.d; do
	writable_copy "/usr/share/polkit-1/$d" || setup_failed "cannot make /usr/share/polkit-1/$d writable"
	cp "$root$datadir/polkit-1/$d/"* "/usr/share/polkit-1/$d/" ||
		setup_failed "cannot install the polkit $d"
done
mkdir -p /etc/hid-policy.d

# Test users: a plain one, and an auditor in group adm. Their homes are on
# the guest's /run (/home is the host's, read-only).
for u in hp-svc-user hp-svc-auditor; do
	id "$u" >/dev/null 2>&1 || useradd --no-create-home --home-dir "/run/hp-svc-home/$u" \
		--shell /bin/bash "$u" || setup_failed "cannot add user $u"
	mkdir -p "/run/hp-svc-home/$u" && chown "$u:" "/run/hp-svc-home/$u" ||
		setup_failed "cannot make the home of $u"
done
usermod -a -G adm hp-svc-auditor || setup_failed "cannot add hp-svc-auditor to adm"

systemctl daemon-reload || setup_failed "systemctl daemon-reload failed"
# systemd-udevd runs in a mount namespace of its own (PrivateMounts=yes),
# made at boot: the tmpfs laid over $sbindir above does not reach it, and
# the rule's helper would not be found there (exit 1, which the rule
# takes for "closed"). Restarted, it sees the installed hid-policyd.
systemctl restart systemd-udevd.service || setup_failed "systemd-udevd does not restart"
udevadm control --reload || setup_failed "udevadm control --reload failed"
# polkitd reads actions at start: (re)start it with ours in place.
systemctl restart polkit.service || setup_failed "polkit.service does not start"
echo "PASS: $suite/setup"

export HID_POLICY_SBINDIR=$sbindir HID_POLICY_BINDIR=$bindir HID_POLICY_BUILDDIR=$build
"$build/tests/service/test-service" "${@:2}"
