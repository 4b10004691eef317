#!/bin/bash
# rpm/hid-policy.spec's %files lists every file the meson install puts in
# place, and names nothing that neither the install nor the spec's own
# %install makes: rpmbuild fails on either, but the RPM is built only by
# the package suite (tests/package/rpm.sh); this test reads the spec with
# rpmspec, without building it, against a `meson install --destdir` of
# this build, the spec's directory macros set to the build's own.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${HID_POLICY_BUILDDIR:-$repo/build}
suite=rpm-spec
spec=$repo/rpm/hid-policy.spec
failed=0
pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v rpmspec > /dev/null; then
	echo "SKIP: $suite/spec_lists_every_installed_file (no rpmspec: scripts/deps.sh installs rpm)"
	exit 0
fi

# The build's directories: prefix=/usr/local, sbindir=/usr/local/sbin, ...
# shellcheck source=tests/lib/meson-install.sh
. "$repo/tests/lib/meson-install.sh"
meson_install_dirs "$build" "$tmp/dirs" || { fail spec_lists_every_installed_file; exit 1; }
# shellcheck source=/dev/null # the directories, written just above
. "$tmp/dirs"

root=$tmp/root
meson_install_files "$build" "$root" "$tmp/installed" || { fail spec_lists_every_installed_file; exit 1; }

# The spec with this build's directories; the files its own %install makes
# are the paths after %{buildroot} there.
# shellcheck disable=SC2154 # set by the directories sourced above
if ! rpmspec -P --load "$repo/rpm/debian-test.macros" \
	--define "buildroot /BUILDROOT" \
	--define "_prefix $prefix" --define "_bindir $bindir" \
	--define "_sbindir $sbindir" --define "_datadir $datadir" \
	--define "_mandir $mandir" --define "_sysconfdir $sysconfdir" \
	--define "_localstatedir $localstatedir" \
	--define "_unitdir $unitdir" --define "_udevrulesdir $udevrulesdir" \
	--define "_tmpfilesdir $prefix/lib/tmpfiles.d" \
	--define "_journalcatalogdir $prefix/lib/systemd/catalog" \
	--define "_presetdir $prefix/lib/systemd/system-preset" \
	"$spec" > "$tmp/spec" 2> "$tmp/err"; then
	sed 's/^/    /' "$tmp/err"
	fail spec_lists_every_installed_file
	exit 1
fi

python3 - "$tmp/spec" "$tmp/installed" > "$tmp/report" <<'EOF'
import fnmatch, re, sys
spec = open(sys.argv[1]).read().splitlines()
installed = open(sys.argv[2]).read().split()

section, made, entries = None, set(), []   # entries: (path, is_dir)
for line in spec:
    word = line.split()[0] if line.split() else ""
    if re.fullmatch(r"%(prep|build|install|check|clean|pre|post|preun|postun|"
                    r"pretrans|posttrans|files|changelog|package|description)", word):
        section = word
        continue
    if section == "%install":
        made.update(re.findall(r"/BUILDROOT(/\S+)", line))
    elif section == "%files" and line.strip() and not line.startswith("#"):
        is_dir = "%dir" in line.split()
        rest = re.sub(r"%(config|attr|verify|defattr)\([^)]*\)", "", line)
        words = [w for w in rest.split() if not w.startswith("%")]
        entries += [(w, is_dir) for w in words]

def covers(entry, path):
    e, is_dir = entry
    return fnmatch.fnmatchcase(path, e) or (not is_dir and path.startswith(e.rstrip("/") + "/"))

for path in installed:
    if not any(covers(e, path) for e in entries):
        print(f"unlisted {path}")
for e in entries:
    if e[1]:
        continue
    if not any(covers(e, p) for p in installed) and not any(covers(e, p) for p in made):
        print(f"unmade {e[0]}")
print(f"entries {len(entries)}")
EOF

if ! grep -q '^unlisted ' "$tmp/report" && grep -q '^entries [1-9]' "$tmp/report"; then
	pass spec_lists_every_installed_file
else
	echo "    installed, not in %files:"
	sed -n 's/^unlisted /      /p' "$tmp/report"
	fail spec_lists_every_installed_file
fi
if ! grep -q '^unmade ' "$tmp/report"; then
	pass spec_lists_no_file_that_is_not_made
else
	echo "    in %files, made by neither meson nor %install:"
	sed -n 's/^unmade /      /p' "$tmp/report"
	fail spec_lists_no_file_that_is_not_made
fi
[ $failed -eq 0 ]
