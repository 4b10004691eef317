#!/bin/bash
# The RPM spec (rpm/hid-policy.spec), built on this Debian machine by
# rpm/build.sh (Fedora's macros stood in for: rpm/debian-test.macros) and
# compared with the Debian packages tests/package/run.sh built:
#   - the spec's version is the project's (meson.build);
#   - rpmbuild builds hid-policy and hid-policy-selinux: it fails on a file
#     the meson install puts in the buildroot that %files does not list,
#     and on a %files line that matches nothing;
#   - rpmlint reports no error (its warnings are printed);
#   - the RPMs hold the files of the Debian packages, paths mapped to
#     Fedora's, less each format's own, and the administrator's directory
#     and conffile are kept the rpm way.
# No Fedora system installs the RPMs: their scriptlets are not run.
# Usage: tests/package/rpm.sh BUILD_DIR (after tests/package/run.sh, whose
# .debs in BUILD_DIR/package/ the payload is compared with).
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
out=$build/package/rpm
suite=package/rpm
failed=0
pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }
skip() { echo "SKIP: $suite/$1 ($2)"; }
tmp=$(mktemp -d /tmp/hid-policy-rpm-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

spec_version=$(sed -n 's/^Version:[[:space:]]*//p' "$repo/rpm/hid-policy.spec")
meson_version=$(sed -n "s/^  version: '\(.*\)',$/\1/p" "$repo/meson.build")
if [ -n "$spec_version" ] && [ "$spec_version" = "$meson_version" ]; then
	pass spec_version_is_the_projects
else
	echo "    spec: '$spec_version', meson.build: '$meson_version'"
	fail spec_version_is_the_projects
fi

# 1. Build and rpmlint (rpm/build.sh: 1 the build failed, 2 rpmlint).
nice -n 10 "$repo/rpm/build.sh" "$out" 2> "$tmp/build.err"
st=$?
if [ "$st" -eq 1 ]; then
	sed 's/^/    /' "$tmp/build.err"
	fail rpmbuild_builds_the_packages_with_every_installed_file_listed
	exit 1
fi
pass rpmbuild_builds_the_packages_with_every_installed_file_listed
grep -E '^    rpmlint: .*(: [EW]: | checked; )|^build.sh: built' "$tmp/build.err" | sed 's/^ *//; s/^/    /'
if [ "$st" -eq 0 ]; then pass rpmlint_reports_no_error; else fail rpmlint_reports_no_error; fi

# hid-policy-VERSION-* is the main package only: the subpackage's name
# has -selinux before the version.
main_rpm=$(compgen -G "$out/hid-policy-$spec_version-*.rpm")
selinux_rpm=$(compgen -G "$out/hid-policy-selinux-$spec_version-*.noarch.rpm")

# 2. The payload against the Debian packages': the same files, Debian's
# paths mapped to Fedora's (/lib is /usr/lib there; the SELinux modules
# go under packages/targeted, the compiled one compressed). Each format's
# own files are left out: Debian's documentation and lintian override,
# RPM's preset (Fedora enables a unit on install through a preset) and
# build-id links (rpmbuild adds one for each ELF file).
debs=$(ls "$build"/package/hid-policy_*.deb "$build"/package/hid-policy-selinux_*.deb 2>/dev/null)
if [ -z "$debs" ]; then
	skip rpm_payload_is_the_debian_packages_files "no .deb in $build/package: run tests/package/run.sh first"
else
	for d in $debs; do dpkg-deb -c "$d"; done |
		awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' |
		sed -E 's#^/lib/#/usr/lib/#
			s#^/usr/share/selinux/packages/hid-policy/hid_policyd\.pp$#/usr/share/selinux/packages/targeted/hid_policyd.pp.bz2#
			s#^/usr/share/selinux/packages/hid-policy/#/usr/share/selinux/packages/targeted/#' |
		grep -Ev '^/usr/share/(doc|lintian)/' | sort > "$tmp/deb.list"
	rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$main_rpm" "$selinux_rpm" |
		awk '$1 !~ /^d/ { print $2 }' |
		grep -Ev '^/usr/lib/systemd/system-preset/80-hid-policy\.preset$|^/usr/lib/\.build-id/|^/usr/share/(doc|licenses)/' |
		sort > "$tmp/rpm.list"
	if [ -s "$tmp/rpm.list" ] && diff -u "$tmp/deb.list" "$tmp/rpm.list" > "$tmp/payload.diff"; then
		pass rpm_payload_is_the_debian_packages_files
	else
		echo "    --- the .debs' files (mapped), +++ the RPMs':"
		sed 's/^/    /' "$tmp/payload.diff"
		fail rpm_payload_is_the_debian_packages_files
	fi
fi

# 3. What an administrator keeps: rpm owns /etc/hid-policy.d as a
# directory and no file in it (so it leaves the admin's rule sets, and the
# directory with them, on upgrade and removal), and the logrotate snippet
# is %config(noreplace), so an edit survives an upgrade.
rpm -qp --qf '[%{FILEMODES:perms} %{FILEFLAGS:fflags} %{FILENAMES}\n]' "$main_rpm" > "$tmp/flags" 2>&1
if grep -Eq '^d[^ ]* [^ ]* /etc/hid-policy\.d$' "$tmp/flags" &&
	! grep -q ' /etc/hid-policy\.d/' "$tmp/flags"; then
	pass rpm_owns_the_admin_rule_directory_and_none_of_its_files
else
	grep /etc "$tmp/flags" | sed 's/^/    /'
	fail rpm_owns_the_admin_rule_directory_and_none_of_its_files
fi
if grep -Eq '^-[^ ]* [^ ]*c[^ ]*n[^ ]* /etc/logrotate\.d/hid-policy$' "$tmp/flags"; then
	pass logrotate_snippet_is_config_noreplace
else
	grep /etc "$tmp/flags" | sed 's/^/    /'
	fail logrotate_snippet_is_config_noreplace
fi
# The preset enables what the Debian package enables on install.
if [ -n "$main_rpm" ] && rpm2cpio "$main_rpm" |
	(cd "$tmp" && cpio -id --quiet ./usr/lib/systemd/system-preset/80-hid-policy.preset) &&
	[ "$(grep -v '^#' "$tmp/usr/lib/systemd/system-preset/80-hid-policy.preset" | sort | xargs)" = \
		"enable hid-policy-announce.path enable hid-policyd.service" ]; then
	pass preset_enables_hid_policyd_and_the_announce_path
else
	fail preset_enables_hid_policyd_and_the_announce_path
fi

exit $((failed > 0))
