#!/bin/bash
# hid-policyd --check and --explain from the command line: exit codes,
# summaries and the decisive rule, on policies written here.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${HID_POLICY_BUILDDIR:-$repo/build}
policyd=$build/policyd/hid-policyd
suite=hid-policyd-cli
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# run_case NAME EXPECTED_RC EXPECTED_TEXT... -- ARGS...: every text must be
# a line of the output (stdout and stderr together).
run_case() {
	local name=$1 want_rc=$2 out rc
	shift 2
	local -a want=()
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	out=$("$policyd" "$@" 2>&1)
	rc=$?
	local ok=1
	if [ "$rc" != "$want_rc" ]; then
		echo "    exit status $rc, expected $want_rc"
		ok=0
	fi
	for w in "${want[@]}"; do
		if ! grep -qxF -- "$w" <<<"$out"; then
			echo "    missing line: $w"
			ok=0
		fi
	done
	if [ $ok = 1 ]; then
		echo "PASS: $suite/$name"
	else
		sed 's/^/    | /' <<<"$out"
		echo "FAIL: $suite/$name"
		failed=$((failed + 1))
	fi
}

if [ ! -x "$policyd" ]; then
	echo "    $policyd is missing: build first"
	echo "FAIL: $suite/built"
	exit 1
fi

mkdir -p "$tmp/vendor" "$tmp/etc" "$tmp/broken"
cat >"$tmp/vendor/10-deck.json" <<'JSON'
{"version": 1, "devices": [{"name": "deck", "match": {"bus": "usb", "vendor": "28de", "product": "1205"},
 "rules": [{"name": "deck-deny-isp", "description": "reboot into ISP",
  "request": "set_report", "report_type": "feature", "report_id": 0,
  "payload": [{"offset": 1, "value": "0x90"}], "action": "deny", "errno": "EACCES"}]}]}
JSON
cat >"$tmp/vendor/20-pad.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "057e", "product": "2009"}, "mode": "audit",
 "rules": [{"name": "pro-deny-fw", "request": "output_report", "report_id": 3, "action": "deny"},
           {"name": "pro-deny-fw-again", "request": "output_report", "report_id": 3, "action": "deny"}]}]}
JSON
# the admin's file of the same name replaces the vendor's: no warning left
cat >"$tmp/etc/20-pad.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "057e", "product": "2009"}, "mode": "audit",
 "rules": [{"name": "pro-deny-fw", "request": "output_report", "report_id": 3, "action": "deny"}]}]}
JSON
cat >"$tmp/broken/10-a.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": 1, "product": 1},
 "rules": [{"name": "a", "request": "set_report", "report_id": "0x1ff", "action": "deny"}]}]}
JSON
printf '{"version": 1,\n "devices": [}\n' >"$tmp/broken/20-b.json"

run_case check_shipped_policies_are_clean 0 \
	"policy OK: 7 files, 10 rule sets, 42 rules, 0 warnings" -- --check --config-dir "$repo/policies"
run_case check_reports_warnings_but_passes 0 \
	"20-pad.json: devices[0].rules[1]: warning: rule \"pro-deny-fw-again\" can never match: rule \"pro-deny-fw\" (devices[0].rules[0]) comes first and matches every request it does" \
	"policy OK: 2 files, 2 rule sets, 3 rules, 1 warning" -- --check --config-dir "$tmp/vendor"
run_case check_later_config_dir_replaces_file_of_same_name 0 \
	"policy OK: 2 files, 2 rule sets, 2 rules, 0 warnings" \
	-- --check --config-dir "$tmp/vendor" --config-dir "$tmp/etc"
run_case check_broken_directory_fails_with_every_error 1 \
	"10-a.json: devices[0].rules[0].report_id: 0x1ff is out of range 0..255" \
	"20-b.json:2:14: unexpected token near '}'" \
	"policy rejected: 2 errors, 0 warnings" -- --check --config-dir "$tmp/broken"
run_case check_missing_config_dir_fails 1 \
	"$tmp/none: cannot open directory: No such file or directory" \
	"policy rejected: 1 error, 0 warnings" -- --check --config-dir "$tmp/none"

run_case explain_names_the_denying_rule_and_errno 0 \
	"decision: deny (EACCES) by rule \"deck-deny-isp\" (10-deck.json: devices[0].rules[0])" \
	"  description: reboot into ISP" \
	"result: refused with -EACCES, logged" \
	-- --explain --config-dir "$tmp/vendor" --device usb:28de:1205 \
	--request set_report --report feature --id 0 --payload "00 90 04"
run_case explain_says_why_a_rule_does_not_match 0 \
	"  no match: rule \"deck-deny-isp\" (10-deck.json: devices[0].rules[0]): payload byte 1 is 0x83, the rule wants 0x90 under mask 0xff" \
	"decision: allow by the built-in default: no rule matches and no rule set states a default" \
	"result: allowed" \
	-- --explain --config-dir "$tmp/vendor" --device usb:28de:1205 \
	--request set_report --report feature --id 0 --payload "00 83"
run_case explain_notes_a_payload_not_starting_with_the_report_id 0 \
	"note: payload byte 0 is 0x90, not the report ID; offsets count from byte 0, which is the report ID on devices with numbered reports" \
	"decision: allow by the built-in default: no rule matches and no rule set states a default" \
	-- --explain --config-dir "$tmp/vendor" --device usb:28de:1205 \
	--request set_report --report feature --id 0 --payload "90 04"
run_case explain_audit_mode_allows_and_logs 0 \
	"result: allowed because of audit mode; logged as a would-be denial" \
	-- --explain --config-dir "$tmp/vendor" --device 0003:057E:2009:Pro --request output_report --id 3
run_case explain_unprotected_device 0 \
	"no rule set matches this device: it is not protected, every request is allowed" \
	-- --explain --config-dir "$tmp/vendor" --device bluetooth:054c:0ce6 --request output_report --id 2
run_case explain_rejects_a_malformed_device 1 \
	"hid-policyd: --device \"usb:28de:\": expected BUS:VID:PID[:NAME], e.g. usb:054c:0ce6" \
	-- --explain --config-dir "$tmp/vendor" --device usb:28de: --request output_report --id 1
run_case explain_needs_report_type_for_set_report 1 \
	"hid-policyd: --request set_report: expected get_report or set_report with --report feature|input|output, or output_report or input_event alone" \
	-- --explain --config-dir "$tmp/vendor" --device usb:28de:1205 --request set_report --id 1
run_case explain_refuses_a_broken_policy 1 \
	"hid-policyd: the policy is rejected: nothing to explain" \
	-- --explain --config-dir "$tmp/broken" --device usb:1:1 --request output_report --id 1

[ $failed = 0 ]
