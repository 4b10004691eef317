#!/bin/bash
# What a sender cannot stop is said where an admin writes one: hid-policy.d(5)
# and hid-policyctl(1) say that an executable is no boundary against its own
# user (LD_PRELOAD, the exe link in a user namespace), that a traced process
# is not its executable, that allow
# --pid grants the user and executable, that an updater is named by its
# unit, and that a deny keyed on a user or group is escaped with subordinate
# ids or by dropping groups while an open descriptor keeps working. Each
# claim is checked in the page as groff renders it, on one line.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
suite=sender-limits-documented
failed=0

# PAGE as plain text on one line: no hyphenation, no fonts, no breaks.
render() {
	groff -man -Tutf8 -rLL=2000n -rHY=0 -P-cbou "$1" 2>/dev/null | tr '\n' ' ' | tr -s ' '
}

# check NAME PAGE TEXT...: every TEXT is in PAGE.
check() {
	local name=$1 page=$2 text missing=
	shift 2
	text=$(render "$repo/doc/$page")
	for want in "$@"; do
		grep -qF -- "$want" <<<"$text" || missing+=$'\n'"    missing: $want"
	done
	if [ -z "$missing" ]; then
		echo "PASS: $suite/$name"
	else
		echo "$missing"
		echo "FAIL: $suite/$name"
		failed=$((failed + 1))
	fi
}

if ! command -v groff >/dev/null; then
	echo "SKIP: $suite/pages (no groff to render them)"
	exit 0
fi

check policy_format_says_an_executable_is_no_boundary_against_its_user hid-policy.d.5 \
	"An executable alone is no boundary against its own user." \
	"LD_PRELOAD" "/proc/self/exe" "PR_SET_MM_MAP" \
	"hid-policyctl allow --pid is such a rule: it lets through that process's user running that executable, every such process, not that process alone."
check policy_format_says_a_traced_process_is_not_its_executable hid-policy.d.5 \
	"A traced process is not its executable." \
	"an executable allow does not let it through and an executable deny refuses it."
check policy_format_names_the_unit_for_an_updater hid-policy.d.5 \
	"For an updater, name its unit:" '"sender": { "unit": "fwupd.service" }'
check policy_format_says_user_and_group_denies_can_be_escaped hid-policy.d.5 \
	"A deny keyed on a user or a group can be escaped by that user." \
	"newuidmap(1)" "newgidmap(1)" "setgroups(2)" \
	"A descriptor of the device opened before keeps working"
check policyctl_says_what_allow_pid_and_executable_grant hid-policyctl.1 \
	"for every process of that user running that executable, not for that process alone" \
	"An executable alone is no boundary against its own user" \
	"For an updater, name its unit: --unit fwupd.service"

[ $failed = 0 ]
