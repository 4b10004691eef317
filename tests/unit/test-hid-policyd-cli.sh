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
# a line of the output (stdout and stderr together); a text after "!" must
# be in no line of it.
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
		if [ "${w:0:1}" = "!" ]; then
			if grep -qF -- "${w:1}" <<<"$out"; then
				echo "    unexpected text: ${w:1}"
				ok=0
			fi
		elif ! grep -qxF -- "$w" <<<"$out"; then
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
{"version": 1, "devices": [{"name": "deck", "match": {"bus": "usb", "vendor": "0x28de", "product": "0x1205"},
 "rules": [{"name": "deck-deny-isp", "description": "reboot into ISP",
  "request": "set_report", "report_type": "feature", "report_id": 0,
  "payload": [{"offset": 1, "value": "0x90"}], "action": "deny", "errno": "EACCES"}]}]}
JSON
cat >"$tmp/vendor/20-pad.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x057e", "product": "0x2009"}, "mode": "audit",
 "rules": [{"name": "pro-deny-fw", "request": "output_report", "report_id": 3, "action": "deny"},
           {"name": "pro-deny-fw-again", "request": "output_report", "report_id": 3, "action": "deny"}]}]}
JSON
# the admin's file of the same name replaces the vendor's: no warning left
cat >"$tmp/etc/20-pad.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x057e", "product": "0x2009"}, "mode": "audit",
 "rules": [{"name": "pro-deny-fw", "request": "output_report", "report_id": 3, "action": "deny"}]}]}
JSON
cat >"$tmp/broken/10-a.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": 1, "product": 1},
 "rules": [{"name": "a", "request": "set_report", "report_id": "0x1ff", "action": "deny"}]}]}
JSON
printf '{"version": 1,\n "devices": [}\n' >"$tmp/broken/20-b.json"
# device classes: every game controller of any vendor; one device by serial
# and by physical path
mkdir -p "$tmp/classes"
cat >"$tmp/classes/10-pads.json" <<'JSON'
{"version": 1, "devices": [{"match": {"usage": "game_controller"},
 "rules": [{"name": "pads-deny-fw", "request": "set_report", "report_type": "feature",
  "report_id": "0xf0-0xf4", "action": "deny"}]}]}
JSON
cat >"$tmp/classes/20-serial.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "uniq": "SN-0042"}, "default": "deny",
 "rules": [{"name": "sn-input", "request": "input_event", "report_id": "any", "action": "allow"},
           {"name": "sn-get", "request": "get_report", "report_type": "feature", "report_id": "any", "action": "allow"}]},
 {"match": {"phys": "usb-0000:00:14.0-3/input0"}, "rules": [
  {"name": "port3-deny-out", "request": "output_report", "report_id": "any", "action": "deny"}]}]}
JSON

run_case check_shipped_policies_are_clean 0 \
	"policy OK: 10 files, 19 rule sets, 85 rules, 0 warnings" -- --check --config-dir "$repo/policies"
run_case check_reports_warnings_but_passes 0 \
	"$tmp/vendor/20-pad.json:3:12: devices[0].rules[1]: warning: rule \"pro-deny-fw-again\" can never match: rule \"pro-deny-fw\" (line 2: devices[0].rules[0]) comes first and matches every request it does" \
	"policy OK: 2 files, 2 rule sets, 3 rules, 1 warning" -- --check --config-dir "$tmp/vendor"
run_case check_strict_fails_on_a_warning 1 \
	"$tmp/vendor/20-pad.json:3:12: devices[0].rules[1]: warning: rule \"pro-deny-fw-again\" can never match: rule \"pro-deny-fw\" (line 2: devices[0].rules[0]) comes first and matches every request it does" \
	"policy rejected (--strict): 0 errors, 1 warning" -- --check --strict --config-dir "$tmp/vendor"
run_case check_strict_passes_without_warnings 0 \
	"policy OK: 2 files, 2 rule sets, 2 rules, 0 warnings" \
	-- --check --strict --config-dir "$tmp/vendor" --config-dir "$tmp/etc"
run_case strict_goes_with_check_only 2 \
	"hid-policyd: --strict goes with --check" -- --strict --explain --config-dir "$tmp/vendor"
run_case check_later_config_dir_replaces_file_of_same_name 0 \
	"policy OK: 2 files, 2 rule sets, 2 rules, 0 warnings" \
	-- --check --config-dir "$tmp/vendor" --config-dir "$tmp/etc"
run_case check_broken_directory_fails_with_every_error 1 \
	"$tmp/broken/10-a.json:2:64: devices[0].rules[0].report_id: 0x1ff is out of range 0..255" \
	"$tmp/broken/20-b.json:2:14: unexpected token near '}'; nothing after a syntax error is read: the file's other mistakes show once it is fixed" \
	"policy rejected: 2 errors, 0 warnings" -- --check --config-dir "$tmp/broken"
run_case check_missing_config_dir_fails 1 \
	"$tmp/none: cannot open directory: No such file or directory" \
	"policy rejected: 1 error, 0 warnings" -- --check --config-dir "$tmp/none"

# an audit-mode rule set's default deny first never weakens the enforcing one's
mkdir -p "$tmp/defaults"
cat >"$tmp/defaults/10-trial.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x046d", "product": "0xc52b"}, "mode": "audit",
 "default": "deny", "rules": [{"name": "trial-input", "request": "input_event", "report_id": "any", "action": "allow"}]}]}
JSON
cat >"$tmp/defaults/20-enforced.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x046d", "product": "0xc52b"},
 "default": "deny", "default_errno": "EIO",
 "rules": [{"name": "input", "request": "input_event", "report_id": "any", "action": "allow"}]}]}
JSON
run_case explain_an_enforcing_default_decides_over_an_audit_one 0 \
	"decision: deny (EIO) by the default of 20-enforced.json: devices[0]: no rule matches" \
	"result: refused with -EIO, logged" \
	-- --explain --config-dir "$tmp/defaults" --device usb:046d:c52b --request output_report --id 1

# denying the input of every device, on purpose or not, is a lockout
mkdir -p "$tmp/lock"
cat >"$tmp/lock/90-lock.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "any"},
 "rules": [{"name": "no-input", "request": ["any", "input_event"], "report_id": "any", "action": "deny"}]}]}
JSON
run_case check_strict_refuses_a_rule_denying_every_devices_input 1 \
	"$tmp/lock/90-lock.json:2:12: devices[0].rules[0]: rule \"no-input\" denies input events of every keyboard and mouse devices[0].match takes in (it names no vendor and product, serial or descriptor that leaves them out), which would lock them out: match only the devices whose input it refuses (by vendor and product, uniq or descriptor_sha256)" \
	"policy rejected: 1 error, 0 warnings" -- --check --strict --config-dir "$tmp/lock"

# who may send: root's programs, and the members of group 0 running /bin/sh
mkdir -p "$tmp/senders"
cat >"$tmp/senders/30-senders.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x046d", "product": "0xc52b"},
 "rules": [{"name": "root-may", "request": "set_report", "report_type": "feature", "report_id": 3,
            "sender": {"user": "root"}, "action": "allow"},
           {"name": "group-0-shell-may", "request": "set_report", "report_type": "feature", "report_id": 3,
            "sender": {"group": 0, "executable": "/bin/sh"}, "action": "allow"},
           {"name": "nobody-else", "request": "set_report", "report_type": "feature", "report_id": 3,
            "sender": {"origin": "user"}, "action": "deny"}]}]}
JSON
explain_senders=(--explain --config-dir "$tmp/senders" --device usb:046d:c52b
	--request set_report --report feature --id 3)
run_case explain_without_a_sender_says_the_decision_depends_on_it 0 \
	"  depends on the sender: rule \"root-may\" (30-senders.json: devices[0].rules[0]): if a process sends it whose user is 0 (root), it matches and decides: allow; otherwise evaluation goes on" \
	"  depends on the sender: rule \"group-0-shell-may\" (30-senders.json: devices[0].rules[1]): if a process sends it in group 0 (root), running the executable the rule names, it matches and decides: allow; otherwise evaluation goes on" \
	"  depends on the sender: rule \"nobody-else\" (30-senders.json: devices[0].rules[2]): if a process sends it (origin user), it matches and decides: deny (EPERM); otherwise evaluation goes on" \
	"decision for any other sender: allow by the built-in default: no rule matches and no rule set states a default" \
	"the decision depends on who sends the request: 3 rules above decide for some senders; name its user, its groups, its executable or its origin to know which rule decides" \
	-- "${explain_senders[@]}"
run_case explain_for_a_user_by_name 0 \
	"decision: allow by rule \"root-may\" (30-senders.json: devices[0].rules[0])" \
	"  it applies to this request kind and report ID 0x03, and its sender (user) matches this one" \
	-- "${explain_senders[@]}" --user root
run_case explain_for_a_group_and_executable 0 \
	"  no match: rule \"root-may\" (30-senders.json: devices[0].rules[0]): the sender's user 61234 is not its user 0 (root)" \
	"decision: allow by rule \"group-0-shell-may\" (30-senders.json: devices[0].rules[1])" \
	-- "${explain_senders[@]}" --user 61234 --group 61234 --group 0 --executable /bin/sh
run_case explain_for_another_program_of_that_group 0 \
	"  no match: rule \"group-0-shell-may\" (30-senders.json: devices[0].rules[1]): the sender's executable $policyd is not the executable the rule names (by device and inode)" \
	"decision: deny (EPERM) by rule \"nobody-else\" (30-senders.json: devices[0].rules[2])" \
	-- "${explain_senders[@]}" --user 61234 --group 0 --executable "$policyd"
run_case explain_for_a_driver 0 \
	"sender: a driver's own request (origin kernel): no user, group or executable" \
	"  no match: rule \"nobody-else\" (30-senders.json: devices[0].rules[2]): it is for requests processes send (origin user), and this one is a driver's own" \
	"decision: allow by the built-in default: no rule matches and no rule set states a default" \
	-- "${explain_senders[@]}" --origin kernel
run_case explain_refuses_a_driver_with_a_user 1 \
	"hid-policyd: --origin kernel is a driver's own request, which has no user, group, executable or unit" \
	-- "${explain_senders[@]}" --origin kernel --user root
run_case explain_assumes_a_group_not_on_this_system 0 \
	"note: assuming group \"no-such-group-here\" exists where the policy is used (there is none on this system)" \
	"sender: a process, group \"no-such-group-here\" (not on this system: assumed); not given: its user, its executable, its unit" \
	"  no match: rule \"group-0-shell-may\" (30-senders.json: devices[0].rules[1]): the sender is not in its group 0 (root) (its gid and its 0 supplementary groups)" \
	-- "${explain_senders[@]}" --group no-such-group-here
# a group the rules name and this machine has not ("wheel" written on a
# Debian machine, which has none): assumed on both sides, and the same
mkdir -p "$tmp/wheel"
cat >"$tmp/wheel/30-wheel.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x054c", "product": "0x0ce6"},
 "rules": [{"name": "wheel-may", "request": "set_report", "report_type": "feature", "report_id": "0xf4",
            "sender": {"group": "hp-no-such-wheel"}, "action": "allow"},
           {"name": "nobody-else", "request": "set_report", "report_type": "feature", "report_id": "0xf4",
            "action": "deny"}]}]}
JSON
wheel_note="$tmp/wheel/30-wheel.json:3:33: devices[0].rules[0].sender.group: note: assuming group \"hp-no-such-wheel\" exists where the policy is used (there is none on this system); a daemon where it does not refuses the policy"
run_case check_strict_assumes_a_group_not_on_this_system 0 \
	"$wheel_note" \
	"policy OK: 1 file, 1 rule set, 2 rules, 0 warnings" \
	-- --check --strict --config-dir "$tmp/wheel"
run_case explain_a_member_of_a_group_not_on_this_system 0 \
	"$wheel_note" \
	"decision: allow by rule \"wheel-may\" (30-wheel.json: devices[0].rules[0])" \
	-- --explain --config-dir "$tmp/wheel" --device usb:054c:0ce6 --request set_report --report feature \
	--id 0xf4 --user hp-no-such-admin --group hp-no-such-admin --group hp-no-such-wheel
run_case explain_a_user_not_on_this_system_outside_the_group 0 \
	"sender: a process, user \"hp-no-such-admin\" (not on this system: assumed), group 0 (root); not given: its executable, its unit" \
	"  no match: rule \"wheel-may\" (30-wheel.json: devices[0].rules[0]): the sender is not in its group \"hp-no-such-wheel\" (not on this system: assumed) (its gid and its 0 supplementary groups)" \
	"decision: deny (EPERM) by rule \"nobody-else\" (30-wheel.json: devices[0].rules[1])" \
	-- --explain --config-dir "$tmp/wheel" --device usb:054c:0ce6 --request set_report --report feature \
	--id 0xf4 --user hp-no-such-admin --group 0
run_case explain_refuses_a_relative_executable 1 \
	"hid-policyd: --executable \"sh\": expected an absolute path" \
	-- "${explain_senders[@]}" --executable sh
run_case sender_options_go_with_explain 2 \
	"hid-policyd: --device, --usage, --uniq, --phys, --interface, --descriptor-sha256, --descriptor, --hidpp-feature, --request, --report, --id, --payload, --user, --group, --executable, --origin and --unit go with --explain" \
	-- --check --config-dir "$tmp/senders" --user root

# the shipped Logitech rules name HID++ features: a dry run is told what
# the device answered, and without it the device index is unknown
run_case explain_hidpp_request_names_the_index_the_device_told 0 \
	"HID++ request: device index 0x02, feature index 0x0d: the device told feature 0x00D1 is at 0x0d" \
	-- --explain --config-dir "$repo/policies" --device usb:046d:c548 --request output_report \
	--id 0x11 --payload "11 02 0d 47 00 01" --origin user --unit session-2.scope \
	--hidpp-feature 2:00d1=0d --hidpp-feature 2:00d0=0 --hidpp-feature 2:c1=0c \
	--hidpp-feature 2:c2=0 --hidpp-feature 2:c3=0
run_case explain_hidpp_request_of_an_unknown_device_index 0 \
	"HID++ request: device index 0x02, feature index 0x0d: device index 0x02 has not told its features: a rule naming a feature takes every feature index but IRoot's (0) there" \
	-- --explain --config-dir "$repo/policies" --device usb:046d:c548 --request output_report \
	--id 0x11 --payload "11 02 0d 47 00 01" --origin user --unit session-2.scope
run_case explain_refuses_a_hidpp_feature_of_no_device_index 1 \
	"hid-policyd: --hidpp-feature \"7:00d1=0d\": expected DEVICE_INDEX:FEATURE=INDEX in hex, the device index ff or 1-6, e.g. 2:00d0=0e" \
	-- --explain --config-dir "$repo/policies" --device usb:046d:c548 --request output_report \
	--id 0x11 --hidpp-feature 7:00d1=0d

# only fwupd may update, written on a machine without fwupd: a dry run
# assumes what the rules name is there and says so, and decides as the
# machine where it is would
mkdir -p "$tmp/offline"
cat >"$tmp/offline/40-fwupd.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x054c", "product": "0x0ce6"},
 "rules": [{"name": "fwupd-may", "request": "set_report", "report_type": "feature", "report_id": "0xf4",
            "sender": {"executable": "/nonexistent/libexec/fwupd/fwupd"}, "action": "allow"},
           {"name": "fwupd-unit-may", "request": "set_report", "report_type": "feature", "report_id": "0xf5",
            "sender": {"unit": "hp-not-here-fwupd.service"}, "action": "allow"},
           {"name": "nobody-else", "request": "set_report", "report_type": "feature",
            "report_id": ["0xf4", "0xf5"], "action": "deny"}]}]}
JSON
offline_assumed_exe="$tmp/offline/40-fwupd.json:3:38: devices[0].rules[0].sender.executable: note: assuming /nonexistent/libexec/fwupd/fwupd is installed where the policy is used (not installed here); where it is not, the rule matches no process"
offline_assumed_unit="note: assuming unit hp-not-here-fwupd.service is running (it is not here)"
offline_assumed_unit_nocg="note: assuming unit hp-not-here-fwupd.service is running (it is not here, where there is no cgroup2 hierarchy)"
# as policy_cgroup_root() looks for the unified hierarchy
cgroup2=no
for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	[ "$(stat -f -c %T "$d" 2>/dev/null)" = cgroup2fs ] && cgroup2=yes
done
[ $cgroup2 = yes ] || offline_assumed_unit=$offline_assumed_unit_nocg
explain_offline=(--explain --config-dir "$tmp/offline" --device usb:054c:0ce6
	--request set_report --report feature)
run_case check_strict_assumes_an_executable_not_installed_here 0 \
	"$offline_assumed_exe" \
	"policy OK: 1 file, 1 rule set, 3 rules, 0 warnings" \
	-- --check --strict --config-dir "$tmp/offline"
run_case explain_for_an_executable_not_installed_here_assumes_it_is_the_rules 0 \
	"$offline_assumed_exe" \
	"sender: a process, executable /nonexistent/libexec/fwupd/fwupd (not installed here: assuming it is the executable the rules name by that path); not given: its user, its groups, its unit" \
	"decision: allow by rule \"fwupd-may\" (40-fwupd.json: devices[0].rules[0])" \
	-- "${explain_offline[@]}" --id 0xf4 --executable /nonexistent/libexec/fwupd/fwupd
run_case explain_for_another_program_not_installed_here_is_not_the_rules 0 \
	"sender: a process, executable /nonexistent/bin/fwupdtool (not installed here: assuming it is the program of that path, which no rule names); not given: its user, its groups, its unit" \
	"  no match: rule \"fwupd-may\" (40-fwupd.json: devices[0].rules[0]): the sender's executable /nonexistent/bin/fwupdtool is not the executable the rule names (by device and inode)" \
	"decision: deny (EPERM) by rule \"nobody-else\" (40-fwupd.json: devices[0].rules[2])" \
	-- "${explain_offline[@]}" --id 0xf4 --executable /nonexistent/bin/fwupdtool
run_case explain_for_a_unit_not_running_here_assumes_it_runs 0 \
	"$offline_assumed_unit" \
	"sender: a process, in unit hp-not-here-fwupd.service (not running here: assuming it is running); not given: its user, its groups, its executable" \
	"decision: allow by rule \"fwupd-unit-may\" (40-fwupd.json: devices[0].rules[1])" \
	-- "${explain_offline[@]}" --id 0xf5 --unit hp-not-here-fwupd.service
run_case explain_for_another_unit_not_running_here_is_not_the_rules 0 \
	"  no match: rule \"fwupd-unit-may\" (40-fwupd.json: devices[0].rules[1]): the sender's unit hp-not-here-other.service is not the unit the rule names, nor in it" \
	"decision: deny (EPERM) by rule \"nobody-else\" (40-fwupd.json: devices[0].rules[2])" \
	-- "${explain_offline[@]}" --id 0xf5 --unit hp-not-here-other.service

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

run_case explain_usage_matches_any_vendor 0 \
	"  application collections: game_pad" \
	"decision: deny (EPERM) by rule \"pads-deny-fw\" (10-pads.json: devices[0].rules[0])" \
	-- --explain --config-dir "$tmp/classes" --device usb:1234:5678 --usage game_pad \
	--request set_report --report feature --id 0xf1
run_case explain_joystick_is_a_game_controller_too 0 \
	"result: refused with -EPERM, logged" \
	-- --explain --config-dir "$tmp/classes" --device bluetooth:abcd:0001 --usage 0x0001:0x0004 \
	--request set_report --report feature --id 0xf0
run_case explain_keyboard_is_no_game_controller 0 \
	"no rule set matches this device: it is not protected, every request is allowed" \
	-- --explain --config-dir "$tmp/classes" --device usb:1234:5678 --usage keyboard \
	--request set_report --report feature --id 0xf1
run_case explain_uniq_selects_the_device_with_default_deny 0 \
	"  uniq: \"SN-0042\"" \
	"decision: deny (EPERM) by the default of 20-serial.json: devices[0]: no rule matches" \
	-- --explain --config-dir "$tmp/classes" --device usb:1234:5678 --uniq SN-0042 \
	--request set_report --report output --id 1
run_case explain_uniq_allow_list_lets_input_through 0 \
	"decision: allow by rule \"sn-input\" (20-serial.json: devices[0].rules[0])" \
	-- --explain --config-dir "$tmp/classes" --device usb:1234:5678 --uniq SN-0042 \
	--request input_event --id 1
run_case explain_other_serial_is_not_matched 0 \
	"no rule set matches this device: it is not protected, every request is allowed" \
	-- --explain --config-dir "$tmp/classes" --device usb:1234:5678 --uniq SN-0043 \
	--request set_report --report output --id 1
run_case explain_phys_matches_the_port 0 \
	"decision: deny (EPERM) by rule \"port3-deny-out\" (20-serial.json: devices[1].rules[0])" \
	-- --explain --config-dir "$tmp/classes" --device usb:1234:5678 --phys usb-0000:00:14.0-3/input0 \
	--request output_report --id 2
run_case explain_id_is_decimal_or_hex_never_octal 1 \
	"hid-policyd: --id \"010\": expected a report ID 0..255 (decimal or 0x..)" \
	-- --explain --config-dir "$tmp/vendor" --device usb:28de:1205 --request output_report --id 010
run_case explain_rejects_an_unknown_usage 1 \
	"hid-policyd: --usage \"gamepad\": expected one usage: pointer, mouse, joystick, game_pad, keyboard, keypad, multi_axis_controller, system_control, consumer_control, or 0xPPPP:0xUUUU" \
	-- --explain --config-dir "$tmp/classes" --device usb:1234:5678 --usage gamepad \
	--request output_report --id 2

# --descriptor: PixArt's OTA report as feature report 0x0B of vendor page
# 0xFF02 (a mouse's input report 1 before it), read as the daemon reads a
# device's descriptor; the shipped rules name that report by usage page.
printf '\x05\x01\x09\x02\xa1\x01\x85\x01\x05\x09\x19\x01\x29\x03\x15\x00\x25\x01\x75\x01\x95\x03\x81\x02\x95\x05\x81\x01\xc0\x06\x02\xff\x09\x01\xa1\x01\x85\x0b\x09\x01\x15\x00\x26\xff\x00\x75\x08\x95\x20\xb1\x02\xc0' \
	>"$tmp/pixart-0b.desc"
run_case explain_descriptor_names_the_report_a_usage_page_rule_takes 0 \
	"  application collections: mouse, vendor_defined (0xff02:0x0001)" \
	"  rule \"pixart-deny-ota-init\" (70-pixart-primax.json: devices[0].rules[2]): report IDs 0x07, 0x0b (its report_id, and each feature report of usage page 0xff02 the device's descriptor declares)" \
	"decision for any other sender: deny (EPERM) by rule \"pixart-deny-ota-init\" (70-pixart-primax.json: devices[0].rules[2])" \
	-- --explain --config-dir "$repo/policies" --device bluetooth:093a:2801 --descriptor "$tmp/pixart-0b.desc" \
	--request set_report --report feature --id 0x0b --payload "0b 10" --origin user --user 0
# The same walk gives the reports it declares: report 0x07, which the
# rule names by ID, is not one of them, and is refused before any rule.
run_case explain_descriptor_refuses_a_report_it_does_not_declare 0 \
	"decision: deny (EPERM) before any rule: the device's report descriptor declares no feature report with ID 0x07; a program's request to a report the device does not declare is refused in every mode, temporary allows included (the report the device would receive is not the one judged, or one no program written for it sends)" \
	-- --explain --config-dir "$repo/policies" --device bluetooth:093a:2801 --descriptor "$tmp/pixart-0b.desc" \
	--request set_report --report feature --id 0x07 --payload "07 10" --origin user --user 0
run_case explain_descriptor_is_not_with_usage 1 \
	"hid-policyd: --descriptor gives the device's usages and hash: not with --usage or --descriptor-sha256" \
	-- --explain --config-dir "$repo/policies" --device bluetooth:093a:2801 --descriptor "$tmp/pixart-0b.desc" \
	--usage mouse --request set_report --report feature --id 0x0b

# What an admin reads of --explain (issue 41): the sender's parts left
# open, the unit among them; the check of declared reports a dry run
# without the descriptor skips; the record an audit-mode match writes.
mkdir -p "$tmp/deck-unit" "$tmp/deck-audit"
cat >"$tmp/deck-unit/40-deck.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x28de", "product": "0x1205"},
 "rules": [{"name": "deck-updater-may", "request": "set_report", "report_type": "feature", "report_id": 0,
            "payload": [{"offset": 1, "value": "0x90"}],
            "sender": {"unit": "jupiter-controller-update.service"}, "action": "allow"},
           {"name": "deck-deny-isp", "request": "set_report", "report_type": "feature", "report_id": 0,
            "payload": [{"offset": 1, "value": "0x90"}], "action": "deny"}]}]}
JSON
cat >"$tmp/deck-audit/10-watch.json" <<'JSON'
{"version": 1, "devices": [{"match": {"bus": "usb", "vendor": "0x28de", "product": "0x1205"}, "mode": "audit",
 "rules": [{"name": "watch-writes", "request": "set_report", "report_type": "feature", "report_id": 0,
            "action": "deny"}]}]}
JSON
cp "$tmp/deck-unit/40-deck.json" "$tmp/deck-audit/"
deck_isp=(--device usb:28de:1205 --request set_report --report feature --id 0 --payload "00 90 04")
run_case explain_with_a_user_names_the_unit_it_leaves_open 0 \
	"sender: a process, user 0 (root); not given: its groups, its executable, its unit" \
	"the decision depends on who sends the request: 1 rule above decides for some senders; name its unit to know which rule decides" \
	-- --explain --config-dir "$tmp/deck-unit" "${deck_isp[@]}" --user 0
run_case explain_with_a_session_scope_by_its_cgroup_path 0 \
	"sender: a process, user 0 (root), in unit user.slice/user-1000.slice/session-3.scope (not running here: assuming it is running); not given: its groups, its executable" \
	"  no match: rule \"deck-updater-may\" (40-deck.json: devices[0].rules[0]): the sender's unit user.slice/user-1000.slice/session-3.scope is not the unit the rule names, nor in it" \
	"decision: deny (EPERM) by rule \"deck-deny-isp\" (40-deck.json: devices[0].rules[1])" \
	"!the decision depends" \
	-- --explain --config-dir "$tmp/deck-unit" "${deck_isp[@]}" --user 0 \
	--unit user.slice/user-1000.slice/session-3.scope
run_case explain_a_cgroup_path_that_is_no_units_is_refused 1 \
	"hid-policyd: --unit \"user.slice/user-1000.slice/user-1001.slice/session-3.scope\": expected a unit name (fwupd.service, SLICE.slice/NAME.scope) or the cgroup path /proc/PID/cgroup gives (/user.slice/user-1000.slice/session-3.scope), each slice in the one its name says" \
	-- --explain --config-dir "$tmp/deck-unit" "${deck_isp[@]}" \
	--unit user.slice/user-1000.slice/user-1001.slice/session-3.scope
run_case explain_without_a_descriptor_says_the_declared_report_check_was_skipped 0 \
	"result: allowed" \
	"note: the device's report descriptor is not known here (hid-policyd --explain takes it with --descriptor FILE), so whether it declares feature report 0x0b is not checked; on the device, a program's request to a report the descriptor does not declare is refused with -EPERM before any rule" \
	-- --explain --config-dir "$tmp/deck-unit" --device usb:28de:1205 --request set_report \
	--report feature --id 0x0b --user 0
run_case explain_with_a_descriptor_checks_the_declared_reports 0 \
	"result: allowed" \
	"!is not checked" \
	-- --explain --config-dir "$repo/policies" --device bluetooth:093a:2801 --descriptor "$tmp/pixart-0b.desc" \
	--request set_report --report feature --id 0x0b --payload "0b 01" --origin user --user 0
run_case explain_an_audit_mode_match_says_its_record_is_written 0 \
	"  audit: rule \"watch-writes\" (10-watch.json: devices[0].rules[0]): matches and would deny; an audit-mode rule set only logs, so evaluation goes on" \
	"result: refused with -EPERM, logged; the audit-mode match of rule \"watch-writes\" (10-watch.json: devices[0].rules[0]) is logged too, as a would-be denial" \
	-- --explain --config-dir "$tmp/deck-audit" "${deck_isp[@]}" --user 0 --unit session-3.scope

# --check on a build host whose kernel has no HID-BPF cannot tell whether
# the target's takes input rules safely: it says so at the first one (a
# note, so --strict passes); with HID-BPF it checks, and says nothing of it.
input_unchecked="$tmp/classes/20-serial.json:2:12: devices[0].rules[0]: note: this rule concerns input reports, and this kernel has no HID-BPF, so whether the kernel the policy is for takes input rules safely is not checked: a daemon on upstream Linux 6.3 or later refuses them unless --allow-unsafe-input-rules (hid-policyd(8), Input rules); run hid-policyd --check on that kernel to know"
if grep -q hid_bpf_ops /sys/kernel/btf/vmlinux 2>/dev/null; then
	run_case check_strict_on_a_kernel_with_hid_bpf_checks_input_rules 0 \
		"!this kernel has no HID-BPF" \
		-- --check --strict --allow-unsafe-input-rules --config-dir "$tmp/classes"
else
	run_case check_strict_without_hid_bpf_says_input_safety_was_not_checked 0 \
		"$input_unchecked" \
		"policy OK: 2 files, 3 rule sets, 4 rules, 0 warnings" \
		-- --check --strict --config-dir "$tmp/classes"
fi

# Order across files (hid-policy.d(5), Order): the local allow of
# InputPlumber's writes to the Steam Deck, saved as 10-..., sorts before
# the shipped 40-valve-steam.json and takes its reboot-to-bootloader deny
# away from InputPlumber; a warning names both rules. Saved as 45-..., the
# deny decides first.
mkdir -p "$tmp/deck-10" "$tmp/deck-45"
cat >"$tmp/deck-10/10-deck-inputplumber.json" <<'JSON'
{"version": 1, "devices": [{"name": "deck-inputplumber",
 "match": {"bus": "usb", "vendor": "0x28de", "product": "0x1205"},
 "rules": [{"name": "deck-inputplumber-writes", "request": ["set_report", "output_report"], "report_id": "any",
            "sender": {"unit": "inputplumber.service"}, "action": "allow"}]}]}
JSON
cp "$tmp/deck-10/10-deck-inputplumber.json" "$tmp/deck-45/45-deck-inputplumber.json"
isp_line=$(grep -n '"name": "valve-deck-deny-reboot-to-isp"' "$repo/policies/40-valve-steam.json" | cut -d: -f1)
run_case check_warns_of_a_local_allow_read_before_the_vendor_deny 0 \
	"$tmp/deck-10/10-deck-inputplumber.json:3:12: devices[0].rules[0]: warning: rule \"deck-inputplumber-writes\" (allow, for its senders) takes requests from the deny of rule \"valve-deck-deny-reboot-to-isp\" ($repo/policies/40-valve-steam.json:$((isp_line - 1)):9: devices[0].rules[1]), in a file read after this one: the first rule that matches decides, and files are read in the order of their names across the directories; to keep the deny, name this file to sort after 40-valve-steam.json" \
	"!policy rejected" \
	-- --check --config-dir "$repo/policies" --config-dir "$tmp/deck-10"
run_case check_strict_fails_on_a_local_allow_read_before_the_vendor_deny 1 \
	"policy rejected (--strict): 0 errors, 1 warning" \
	-- --check --strict --config-dir "$repo/policies" --config-dir "$tmp/deck-10"
run_case check_a_local_allow_read_after_the_vendor_file_is_clean 0 \
	"!warning:" \
	-- --check --strict --config-dir "$repo/policies" --config-dir "$tmp/deck-45"
run_case explain_a_local_allow_read_after_the_vendor_file_keeps_the_deny 0 \
	"decision: deny (EPERM) by rule \"valve-deck-deny-reboot-to-isp\" (40-valve-steam.json: devices[0].rules[1])" \
	"result: refused with -EPERM, logged" \
	"!the descriptor declares no such report" \
	-- --explain --config-dir "$repo/policies" --config-dir "$tmp/deck-45" "${deck_isp[@]}" \
	--unit inputplumber.service

# hid-policy.d(5)'s own examples prove out offline as the page says: its
# InputPlumber file after the vendor's, and its audit set before them.
mkdir -p "$tmp/man-deck"
for f in 90-deck-inputplumber.json 00-watch-deck-writes.json; do
	# the block after the page's marker line '.\" example: FILE'
	awk -v f="$f" '/^\.\\" example: / && $3 == f { on = 1; next }
		on && /^\.EX$/ { next } on && /^\.EE$/ { exit } on { print }' \
		"$repo/doc/hid-policy.d.5" >"$tmp/man-deck/$f"
done
man_deck=(--config-dir "$repo/policies" --config-dir "$tmp/man-deck" usb:28de:1205 set_report
	--report feature --id 0)
run_case man_example_deck_files_check_clean 0 \
	"!warning:" "!rejected" \
	-- --check --strict --config-dir "$repo/policies" --config-dir "$tmp/man-deck"
run_case man_example_deck_reboot_is_refused_to_inputplumber 0 \
	"decision: deny (EPERM) by rule \"valve-deck-deny-reboot-to-isp\" (40-valve-steam.json: devices[0].rules[1])" \
	"result: refused with -EPERM, logged; the audit-mode match of rule \"watch-deck-writes\" (00-watch-deck-writes.json: devices[0].rules[0]) is logged too, as a would-be denial" \
	-- --explain "${man_deck[@]}" --payload "00 90 04" --unit inputplumber.service
run_case man_example_deck_other_writes_pass_for_inputplumber 0 \
	"decision: allow by rule \"deck-inputplumber-writes\" (90-deck-inputplumber.json: devices[0].rules[0])" \
	-- --explain "${man_deck[@]}" --payload "00 87 03" --unit inputplumber.service
run_case man_example_deck_a_session_program_is_named_by_its_scope 0 \
	"  no match: rule \"deck-inputplumber-writes\" (90-deck-inputplumber.json: devices[0].rules[0]): the sender's unit user.slice/user-1000.slice/session-3.scope is not the unit the rule names, nor in it" \
	-- --explain "${man_deck[@]}" --payload "00 87 03" --user 1000 \
	--unit user.slice/user-1000.slice/session-3.scope

# One request, one shape: hid-policyd --explain takes the device and the
# request after it, as hid-policyctl explain does, besides --device and
# --request; each given twice is refused.
run_case explain_takes_the_device_and_request_after_it 0 \
	"decision: deny (EACCES) by rule \"deck-deny-isp\" (10-deck.json: devices[0].rules[0])" \
	-- --explain usb:28de:1205 set_report --config-dir "$tmp/vendor" --report feature --id 0 \
	--payload "00 90 04"
run_case explain_takes_the_device_after_it_and_the_request_as_an_option 0 \
	"decision: deny (EACCES) by rule \"deck-deny-isp\" (10-deck.json: devices[0].rules[0])" \
	-- --explain usb:28de:1205 --config-dir "$tmp/vendor" --request set_report --report feature \
	--id 0 --payload "00 90 04"
run_case explain_refuses_the_device_twice 2 \
	"hid-policyd: the device is given twice: usb:28de:1205 and --device usb:28de:1205 (give one)" \
	-- --explain usb:28de:1205 set_report --device usb:28de:1205 --report feature --id 0
run_case explain_refuses_the_request_twice 2 \
	"hid-policyd: the request is given twice: set_report and --request output_report (give one)" \
	-- --explain usb:28de:1205 set_report --request output_report --id 0

# --help names the vendor directory this build reads (its prefix's), and
# that the man pages write /usr/share, a --prefix=/usr build's
vendor_dir=$(meson introspect "$build" --buildoptions 2>/dev/null | python3 -c '
import json, os, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(os.path.join(o["prefix"], o["datadir"], "hid-policy", "policies.d"))')
run_case help_names_this_builds_vendor_directory 0 \
	"                      $vendor_dir and /etc/hid-policy.d," \
	"                      this build's: the man pages write /usr/share, --prefix=/usr)" \
	-- --help

# The flood bounds (hid-policyd(8), Floods): sizes and budgets are checked
# before anything starts.
run_case audit_log_max_size_below_64k_is_refused 2 \
	"hid-policyd: --audit-log-max-size \"1K\": expected bytes, at least 64K (K, M and G: KiB, MiB, GiB)" \
	-- --foreground --audit-log-max-size 1K
run_case audit_log_max_size_with_a_bad_unit_is_refused 2 \
	"hid-policyd: --audit-log-max-size \"64KB\": expected bytes, at least 64K (K, M and G: KiB, MiB, GiB)" \
	-- --foreground --audit-log-max-size 64KB
run_case record_budget_needs_a_rate 2 \
	"hid-policyd: --record-budget \"1000\": expected BURST/RATE (1..1000000 each), or 0 for none" \
	-- --foreground --record-budget 1000
run_case record_budget_goes_with_the_daemon 2 \
	"hid-policyd: --foreground, --audit-log, --audit-log-max-size, --record-budget, --[no-]journal, --[no-]linux-audit, --no-sandbox and --saved-policy-dir go with running the daemon" \
	-- --check --record-budget 10/1

[ $failed = 0 ]
