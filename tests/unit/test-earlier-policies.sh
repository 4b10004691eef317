#!/bin/bash
# Files an earlier release accepted keep loading, unchanged and with the
# meaning they had: the shipped rule sets of the first commit that had any
# (0302222) and of the last before numbers in strings had to start with
# "0x" (a167e9b), and the test policies of that commit, copied as they were
# to tests/policies/earlier/. Their old spellings ("vendor": "054c") each
# get a warning that says how to write them now, and nothing else changes.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${HID_POLICY_BUILDDIR:-$repo/build}
policyd=$build/policyd/hid-policyd
earlier=$repo/tests/policies/earlier
suite=earlier-policies
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }

if [ ! -x "$policyd" ]; then
	echo "    $policyd is missing: build first"
	fail built
	exit 1
fi

# Every warning of OUT is an old spelling's, naming what to write instead.
only_old_spelling_warnings() {
	grep -E ': warning: ' <<<"$1" |
		grep -vE ': warning: "[^"]*" is (an ID|a number|a range) in the old spelling, .* as before; write '
}

# check_dir NAME DIR SUMMARY: hid-policyd --check reads DIR as the earlier
# release did (SUMMARY: its count of files, rule sets and rules).
check_dir() {
	local name=$1 dir=$2 want=$3 out rc
	out=$("$policyd" --check --config-dir "$dir" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && grep -qxE "policy OK: $want, [0-9]+ warnings?" <<<"$out" &&
	   [ -z "$(only_old_spelling_warnings "$out")" ]; then
		pass "$name"
	else
		echo "    exit status $rc; expected \"policy OK: $want\" and only old-spelling warnings"
		sed 's/^/    | /' <<<"$out"
		fail "$name"
	fi
}

# The counts are those the earlier release's hid-policyd --check printed.
check_dir shipped_policies_of_0302222_load "$earlier/0302222/policies" "7 files, 10 rule sets, 32 rules"
check_dir shipped_policies_of_a167e9b_load "$earlier/a167e9b/policies" "7 files, 10 rule sets, 42 rules"

# The old IDs mean what they meant: the hex IDs of the devices the rules
# protect (1205 is the Steam Deck's 0x1205, not decimal 1205).
explain_case() {
	local name=$1 dir=$2 device=$3 want=$4 out
	shift 4
	out=$("$policyd" --explain --config-dir "$dir" --device "$device" "$@" 2>&1)
	if grep -qxF -- "$want" <<<"$out"; then
		pass "$name"
	else
		echo "    missing line: $want"
		sed 's/^/    | /' <<<"$out"
		fail "$name"
	fi
}
for rel in 0302222 a167e9b; do
	explain_case "${rel}_dualsense_firmware_update_is_refused" "$earlier/$rel/policies" usb:054c:0ce6 \
		'result: refused with -EPERM, logged' \
		--request set_report --report feature --id 0xf4 --payload "f4 00"
	explain_case "${rel}_steam_deck_reboot_to_isp_is_refused" "$earlier/$rel/policies" usb:28de:1205 \
		'result: refused with -EPERM, logged' \
		--request set_report --report feature --id 0 --payload "00 90 04"
done

# The test policies, each on its own (several name the same rules).
for f in "$earlier"/a167e9b/tests/*.json; do
	name=${f##*/}
	name=${name%.json}
	rm -rf "$tmp/one"
	mkdir "$tmp/one"
	cp "$f" "$tmp/one/"
	out=$("$policyd" --check --config-dir "$tmp/one" 2>&1)
	rc=$?
	case $name in
	fuzz-logitech-multibyte)
		# The one exception: "default": "deny" on Logitech receivers
		# (keyboards and mice) with no rule for input events. The
		# earlier release dropped their input too; now it is an error
		# that says what to add.
		if [ $rc -ne 0 ] && [ "$(grep -c ': devices\[0\]\.default: .*would lock out keyboards and mice' <<<"$out")" = 1 ] &&
		   grep -qE '^policy rejected: 1 error, ' <<<"$out"; then
			pass "test_policy_${name}_is_refused_only_as_a_lockout"
		else
			sed 's/^/    | /' <<<"$out"
			fail "test_policy_${name}_is_refused_only_as_a_lockout"
		fi
		continue
		;;
	esac
	if [ $rc -eq 0 ] && grep -qE '^policy OK: ' <<<"$out"; then
		pass "test_policy_${name}_loads"
	else
		sed 's/^/    | /' <<<"$out"
		fail "test_policy_${name}_loads"
	fi
done

[ $failed = 0 ]
