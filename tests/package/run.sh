#!/bin/bash
# The Debian package, built from this tree and handled as dpkg handles it,
# without touching the host's system:
#   - dpkg-buildpackage -b builds hid-policy and hid-policy-selinux from a
#     copy of the tree (its tracked and untracked, not ignored, files);
#   - lintian reports no error (its warnings are printed);
#   - in a chroot on an overlay of the Debian trixie root
#     (tests/package/debian-root.sh; the cached root is never written):
#     install, an upgrade to a newer version, remove and purge, each
#     checked where a Debian administrator would look.
# The .debs are left in BUILD/package/ for the VM suite (tests/package/vm.sh).
# Usage: tests/package/run.sh BUILD_DIR
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
out=$build/package
suite=package
failed=0
pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }
# A check: NAME, then a command whose success is the claim.
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

tmp=$(mktemp -d /tmp/hid-policy-package.XXXXXX)
merged=$tmp/root
cleanup() {
	for m in "$merged/proc" "$merged"; do
		mountpoint -q "$m" && umount "$m"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

# 1. Build, from a copy of the tree without build directories.
mkdir -p "$tmp/src" "$out"
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
if ! (cd "$repo" && git ls-files -co --exclude-standard -z |
	grep -zv '^build' | xargs -0 cp --parents -t "$tmp/src"); then
	fail dpkg_buildpackage_builds_the_packages
	exit 1
fi
if (cd "$tmp/src" && dpkg-buildpackage -b -us -uc) > "$tmp/build.log" 2>&1; then
	pass dpkg_buildpackage_builds_the_packages
else
	tail -n 40 "$tmp/build.log" | sed 's/^/    /'
	fail dpkg_buildpackage_builds_the_packages
	exit 1
fi
mv "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo "$out/"
deb=$(ls "$out"/hid-policy_*_*.deb)
echo "    built: $(cd "$out" && ls ./*.deb | xargs)"

# 2. lintian: no error; warnings and information are shown, not failed.
# lintian exits 1 on an error, 2 when it could not check.
lintian --allow-root -I "$out"/hid-policy_*.changes > "$tmp/lintian.log" 2>&1
st=$?
sed 's/^/    lintian: /' "$tmp/lintian.log"
check lintian_reports_no_error bash -c "[ $st -eq 0 ] && ! grep -q '^E: ' '$tmp/lintian.log'"

# 3. Install, upgrade, remove, purge in a chroot on an overlay of the
# Debian root: its libraries satisfy the package's Depends, as on a user's
# machine; the unit is enabled (no systemd runs there, so none starts).
root_out=$("$repo/tests/package/debian-root.sh") || { fail setup_debian_root; exit 1; }
lower=$(sed -n 's/^ROOT=//p' <<< "$root_out")
mkdir -p "$tmp/upper" "$tmp/work" "$merged"
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$tmp/upper,workdir=$tmp/work" "$merged" ||
	{ fail setup_overlay_on_the_debian_root; exit 1; }
mount -t proc proc "$merged/proc"
in_root() { chroot "$merged" "$@"; }

# The upgrade: the same package with a newer version, as dpkg sees a new
# release (its maintainer scripts run with "upgrade" and the old version).
dpkg-deb -R "$deb" "$tmp/repack"
version=$(dpkg-deb -f "$deb" Version)
sed -i "s/^Version: .*/Version: $version+upgradetest1/" "$tmp/repack/DEBIAN/control"
dpkg-deb -b "$tmp/repack" "$tmp/hid-policy-upgrade.deb" > /dev/null
cp "$deb" "$merged/tmp/hid-policy.deb"
cp "$tmp/hid-policy-upgrade.deb" "$merged/tmp/"

wants=/etc/systemd/system/sysinit.target.wants/hid-policyd.service
path_wants=/etc/systemd/system/paths.target.wants/hid-policy-announce.path
if in_root dpkg -i /tmp/hid-policy.deb > "$tmp/dpkg.log" 2>&1; then
	pass dpkg_installs_the_package_with_its_dependencies_met
else
	sed 's/^/    /' "$tmp/dpkg.log"
	fail dpkg_installs_the_package_with_its_dependencies_met
	exit 1
fi
check install_enables_hid_policyd_and_the_announce_path \
	test -L "$merged$wants" -a -L "$merged$path_wants"
check install_creates_the_admin_rule_directory test -d "$merged/etc/hid-policy.d"
check logrotate_snippet_is_a_conffile \
	grep -qx /etc/logrotate.d/hid-policy "$merged/var/lib/dpkg/info/hid-policy.conffiles"
# The installed daemon finds the vendor rule sets where the package put
# them: as many files as the package has there, all valid.
shipped=$(dpkg-deb -c "$deb" | grep -c '/usr/share/hid-policy/policies.d/..*\.json$')
if in_root hid-policyd --check > "$tmp/check.log" 2>&1 &&
	grep -q "^policy OK: $shipped files" "$tmp/check.log"; then
	pass installed_daemon_checks_the_shipped_policies_under_usr_share
else
	sed 's/^/    /' "$tmp/check.log"
	fail installed_daemon_checks_the_shipped_policies_under_usr_share
fi

# An administrator's own rule set and an edit of a conffile.
cat > "$merged/etc/hid-policy.d/90-local.json" <<'JSON'
{
  "version": 1,
  "devices": [
    {
      "name": "local-dualsense",
      "match": { "bus": ["usb"], "vendor": "0x054c", "product": ["0x0ce6"] },
      "default": "allow",
      "rules": [
        { "name": "local-deny-feature-f5", "request": "set_report",
          "report_type": "feature", "report_id": "0xf5", "action": "deny" }
      ]
    }
  ]
}
JSON
cp "$merged/etc/hid-policy.d/90-local.json" "$tmp/90-local.json"
echo "# local: kept by the admin" >> "$merged/etc/logrotate.d/hid-policy"
mkdir -p "$merged/var/lib/hid-policy" "$merged/var/log/hid-policy"
echo '{}' > "$merged/var/lib/hid-policy/saved-policy"
echo '{}' > "$merged/var/log/hid-policy/audit.jsonl"

if in_root dpkg -i /tmp/hid-policy-upgrade.deb > "$tmp/dpkg.log" 2>&1 &&
	[ "$(in_root dpkg-query -W -f='${Version}' hid-policy)" = "$version+upgradetest1" ]; then
	pass dpkg_upgrades_the_package
else
	sed 's/^/    /' "$tmp/dpkg.log"
	fail dpkg_upgrades_the_package
fi
check upgrade_keeps_the_admins_rule_set cmp -s "$tmp/90-local.json" "$merged/etc/hid-policy.d/90-local.json"
check upgrade_keeps_the_admins_conffile_edit \
	grep -qx '# local: kept by the admin' "$merged/etc/logrotate.d/hid-policy"
check upgrade_keeps_hid_policyd_enabled test -L "$merged$wants"
check upgrade_keeps_the_state_directory test -f "$merged/var/lib/hid-policy/saved-policy"

in_root dpkg -r hid-policy > "$tmp/dpkg.log" 2>&1 || sed 's/^/    /' "$tmp/dpkg.log"
check remove_removes_the_programs test ! -e "$merged/usr/sbin/hid-policyd" -a ! -e "$merged/usr/bin/hid-policyctl"
check remove_keeps_conffiles_and_state \
	test -f "$merged/etc/logrotate.d/hid-policy" -a -f "$merged/var/lib/hid-policy/saved-policy" \
	-a -f "$merged/var/log/hid-policy/audit.jsonl"

in_root dpkg -P hid-policy > "$tmp/dpkg.log" 2>&1 || sed 's/^/    /' "$tmp/dpkg.log"
check purge_removes_the_state_and_the_audit_log \
	test ! -e "$merged/var/lib/hid-policy" -a ! -e "$merged/var/log/hid-policy"
check purge_removes_the_conffiles_and_the_unit_links \
	test ! -e "$merged/etc/logrotate.d/hid-policy" -a ! -L "$merged$wants" -a ! -L "$merged$path_wants"
check purge_leaves_the_admins_rule_set cmp -s "$tmp/90-local.json" "$merged/etc/hid-policy.d/90-local.json"
check purge_leaves_no_trace_in_dpkg bash -c "! chroot '$merged' dpkg-query -W hid-policy >/dev/null 2>&1 ||
	[ -z \"\$(chroot '$merged' dpkg-query -W -f='\${Status}' hid-policy | grep -v 'not-installed')\" ]"

exit $((failed > 0))
