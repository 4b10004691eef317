#!/bin/bash
# The shipped rule sets (policies/): hid-policyd --check accepts them with
# no warning at all, and the build installs every one of them.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${HID_POLICY_BUILDDIR:-$repo/build}
policyd=$build/policyd/hid-policyd
suite=shipped-policies
failed=0

pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }

if [ ! -x "$policyd" ]; then
	echo "    $policyd is missing: build first"
	fail built
	exit 1
fi

# Every line hid-policyd prints, whatever the stream; the exit status apart.
out=$("$policyd" --check --config-dir "$repo/policies" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	pass check_accepts_the_shipped_policies
else
	sed 's/^/    | /' <<<"$out"
	fail check_accepts_the_shipped_policies
fi

# A warning line ("FILE: PATH: warning: ...") or a summary counting any.
warnings=$(grep -E ': warning: ' <<<"$out")
summary=$(grep -E '^policy (OK|rejected): ' <<<"$out")
if [ -z "$warnings" ] && grep -qE ', 0 warnings$' <<<"$summary"; then
	pass check_reports_no_warning
else
	sed 's/^/    | /' <<<"$out"
	fail check_reports_no_warning
fi

# Every rule file must be read: the summary counts the files it loaded.
shipped=()
for f in "$repo"/policies/*.json; do
	name=${f##*/}
	[ "$name" = schema.json ] && continue
	shipped+=("$name")
done
if grep -qE "^policy OK: ${#shipped[@]} files?," <<<"$summary"; then
	pass check_reads_every_rule_file
else
	echo "    ${#shipped[@]} rule files in policies/; hid-policyd said: $summary"
	fail check_reads_every_rule_file
fi

# The install list is written out by hand in policyd/meson.build: ask meson
# what it installs and look for each file under policies.d.
if ! installed=$(meson introspect --installed "$build" 2>&1); then
	sed 's/^/    | /' <<<"$installed"
	fail build_installs_every_rule_file
else
	missing=()
	for name in "${shipped[@]}"; do
		grep -qE "\"[^\"]*/policies/$name\": \"[^\"]*/hid-policy/policies\.d/$name\"" <<<"$installed" ||
			missing+=("$name")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass build_installs_every_rule_file
	else
		echo "    not installed to hid-policy/policies.d: ${missing[*]} (policyd/meson.build)"
		fail build_installs_every_rule_file
	fi
fi

[ $failed -eq 0 ]
