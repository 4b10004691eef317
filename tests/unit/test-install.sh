#!/bin/bash
# `meson install --destdir` of the build puts exactly the files listed below
# in their places (nothing missing, nothing extra), and the installed unit
# and udev rule call the installed hid-policyd.
#
# The list is written with the build's install directories, read from
# `meson introspect`, so it holds for any --prefix. One path per line: add a
# line when the build installs a new file.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${HID_POLICY_BUILDDIR:-$repo/build}
suite=install

expected_files='
${sbindir}/hid-policyd
${bindir}/hid-policyctl
${datadir}/bash-completion/completions/hid-policyctl
${datadir}/polkit-1/actions/org.hid-policy.policy
${datadir}/polkit-1/rules.d/50-hid-policy.rules
${prefix}/lib/systemd/system/hid-policyd.service
${prefix}/lib/systemd/system/hid-policy-announce.service
${prefix}/lib/systemd/system/hid-policy-announce.path
${prefix}/lib/udev/rules.d/60-hid-policy.rules
${prefix}/lib/udev/rules.d/99-hid-policy-closed.rules
${prefix}/lib/tmpfiles.d/hid-policy.conf
${sysconfdir}/logrotate.d/hid-policy
${prefix}/lib/systemd/catalog/hid-policy.catalog
${datadir}/hid-policy/policies.d/20-sony-dualsense.json
${datadir}/hid-policy/policies.d/21-sony-dualshock4.json
${datadir}/hid-policy/policies.d/30-nintendo-switch.json
${datadir}/hid-policy/policies.d/40-valve-steam.json
${datadir}/hid-policy/policies.d/50-logitech-receivers.json
${datadir}/hid-policy/policies.d/60-nordic-nrf-desktop.json
${datadir}/hid-policy/policies.d/70-pixart-primax.json
${datadir}/hid-policy/policies.d/71-pixart-touchpad.json
${datadir}/hid-policy/policies.d/80-lenovo-legion-go.json
${datadir}/hid-policy/policies.d/81-asus-rog-ally.json
${datadir}/hid-policy/schema.json
${mandir}/man1/hid-policyctl.1
${mandir}/man5/hid-policy.d.5
${mandir}/man8/hid-policyd.8
'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }

# The build's directories as shell assignments: prefix=/usr/local,
# sbindir=/usr/local/sbin, ...
# shellcheck source=tests/lib/meson-install.sh
. "$repo/tests/lib/meson-install.sh"
meson_install_dirs "$build" "$tmp/dirs" ||
	{ fail destdir_install_holds_exactly_the_expected_files; exit 1; }
# shellcheck source=/dev/null # the directories, written just above
. "$tmp/dirs"

# Each expected line with the directories filled in.
while IFS= read -r line; do
	[ -n "$line" ] || continue
	eval "printf '%s\n' \"$line\""
done <<< "$expected_files" | sort > "$tmp/expected"

root=$tmp/root
meson_install_files "$build" "$root" "$tmp/installed" ||
	{ fail destdir_install_holds_exactly_the_expected_files; exit 1; }

if diff -u "$tmp/expected" "$tmp/installed" > "$tmp/diff"; then
	pass destdir_install_holds_exactly_the_expected_files
else
	echo "    expected (-) against installed (+):"
	sed -n '3,$p' "$tmp/diff" | sed 's/^/    /'
	fail destdir_install_holds_exactly_the_expected_files
fi

# The binary is executable; configured files name it at its installed path
# and carry no unreplaced @VARIABLE@.
why=()
# shellcheck disable=SC2154 # sbindir and prefix: from the directories sourced above
[ -x "$root$sbindir/hid-policyd" ] || why+=("$sbindir/hid-policyd is not executable")
for f in "$prefix/lib/systemd/system/hid-policyd.service" \
	 "$prefix/lib/systemd/system/hid-policy-announce.service" \
	 "$prefix/lib/udev/rules.d/60-hid-policy.rules"; do
	[ -f "$root$f" ] || continue
	grep -Eq "$sbindir/hid-policyd([[:space:]\"]|\$)" "$root$f" || why+=("$f does not run $sbindir/hid-policyd")
	! grep -n '@[A-Z_]*@' "$root$f" > "$tmp/left" ||
		why+=("$f keeps unreplaced variables: $(tr '\n' ' ' < "$tmp/left")")
done
if [ ${#why[@]} -eq 0 ]; then
	pass installed_unit_and_udev_rule_run_the_installed_daemon
else
	printf '    %s\n' "${why[@]}"
	fail installed_unit_and_udev_rule_run_the_installed_daemon
fi
[ $failed -eq 0 ]
