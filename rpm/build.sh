#!/bin/bash
# Build rpm/hid-policy.spec on this project's Debian machine and run
# rpmlint on the result: a test of the spec, not a Fedora build.
#
# The source tarball holds the work tree as `git ls-files` sees it (tracked
# and untracked, not ignored, files; no build directories), so an edit is
# tested before it is committed. rpmbuild runs with a private %_topdir,
# --nodeps (the BuildRequires are Fedora's package names, which Debian's
# rpm database does not know) and rpm/debian-test.macros, the stand-ins
# for the Fedora macros Debian's rpm lacks (that file says what they do and
# do not do); the RPMs' release ends in ".debiantest".
#
# Usage: rpm/build.sh [OUTDIR]   (default: build/rpm)
# Leaves OUTDIR/*.rpm, OUTDIR/rpmbuild.log and OUTDIR/rpmlint.log.
# Exit status: 0 built, rpmlint reports no error; 1 the build failed;
# 2 built, but rpmlint reports an error (or could not check).
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$repo/build/rpm}
spec=$repo/rpm/hid-policy.spec
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/*.rpm "$out"/rpmbuild.log "$out"/rpmlint.log

version=$(sed -n 's/^Version:[[:space:]]*//p' "$spec")
[ -n "$version" ] || { echo "build.sh: no Version in $spec" >&2; exit 1; }

top=$(mktemp -d /tmp/hid-policy-rpm.XXXXXX)
trap 'rm -rf "$top"' EXIT
mkdir -p "$top/SOURCES"

# The tarball %autosetup unpacks: hid-policy-VERSION/ and the tree in it.
(
	cd "$repo" &&
	git ls-files -z -co --exclude-standard | grep -zv '^build' |
	while IFS= read -r -d '' f; do
		[ -e "$f" ] && printf '%s\0' "$f"
	done |
	tar --null -T - --transform "s,^,hid-policy-$version/," \
		-czf "$top/SOURCES/hid-policy-$version.tar.gz"
) || { echo "build.sh: could not make the source tarball" >&2; exit 1; }

echo "build.sh: rpmbuild -bb (log: $out/rpmbuild.log)" >&2
if ! rpmbuild -bb --nodeps \
	--load "$repo/rpm/debian-test.macros" \
	--define "_topdir $top" \
	"$spec" > "$out/rpmbuild.log" 2>&1; then
	tail -n 40 "$out/rpmbuild.log" | sed 's/^/    /' >&2
	echo "build.sh: rpmbuild failed" >&2
	exit 1
fi
find "$top/RPMS" -name '*.rpm' -exec cp -t "$out" {} +
echo "build.sh: built $(cd "$out" && echo ./*.rpm)" >&2

# rpmlint, with the settings of Fedora's that decide on these packages
# (rpm/rpmlint.toml): errors fail, warnings are shown. It exits non-zero on
# an error (64) or when it could not check; its summary counts the errors.
rpmlint -c "$repo/rpm/rpmlint.toml" "$out"/*.rpm "$spec" > "$out/rpmlint.log" 2>&1
st=$?
sed 's/^/    rpmlint: /' "$out/rpmlint.log" >&2
if [ "$st" -ne 0 ] || ! grep -qE ' 0 errors, [0-9]+ warnings' "$out/rpmlint.log"; then
	echo "build.sh: rpmlint reports an error (status $st)" >&2
	exit 2
fi
exit 0
