# shellcheck shell=bash
# Sourced by the unit tests that read what `meson install` puts in place
# (tests/unit/test-install.sh, tests/unit/test-rpm-spec-files.sh).

# meson_install_dirs BUILD OUT: write to OUT, as shell assignments, the
# build's install directories (prefix=/usr/local, sbindir=/usr/local/sbin,
# ...: meson's directory options, relative ones made absolute under
# prefix), and this project's unitdir and udevrulesdir (its options
# systemdsystemunitdir and udevrulesdir, empty meaning prefix/lib/...).
# Prints meson's complaint and fails when the build cannot be read.
meson_install_dirs() {
	local build=$1 out=$2 json
	json=$(mktemp) || return 1
	if ! meson introspect --buildoptions "$build" > "$json" 2> "$out"; then
		sed 's/^/    /' "$out"
		rm -f "$json"
		return 1
	fi
	python3 - "$json" > "$out" <<'PY'
import json, os, shlex, sys
opts = json.load(open(sys.argv[1]))
dirs = {o["name"]: o["value"] for o in opts if o["section"] == "directory"}
mine = {o["name"]: o["value"] for o in opts if o["section"] == "user"}
prefix = dirs["prefix"]
def absolute(value):
    return value if os.path.isabs(value) else os.path.join(prefix, value)
for name, value in sorted(dirs.items()):
    print(f"{name}={shlex.quote(absolute(value))}")
unitdir = mine.get("systemdsystemunitdir") or "lib/systemd/system"
udevrulesdir = mine.get("udevrulesdir") or "lib/udev/rules.d"
print(f"unitdir={shlex.quote(absolute(unitdir))}")
print(f"udevrulesdir={shlex.quote(absolute(udevrulesdir))}")
PY
	local r=$?
	rm -f "$json"
	return $r
}

# meson_install_files BUILD ROOT OUT: `meson install --destdir ROOT` of
# BUILD (no rebuild), and every file it put there, one absolute path per
# line, sorted, in OUT. Prints meson's log and fails when the install does.
meson_install_files() {
	local build=$1 root=$2 out=$3
	if ! meson install -C "$build" --destdir "$root" --no-rebuild --quiet > "$out" 2>&1; then
		sed 's/^/    /' "$out"
		return 1
	fi
	(cd "$root" && find . ! -type d | sed 's|^\.||' | sort) > "$out"
}
