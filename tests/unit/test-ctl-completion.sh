#!/bin/bash
# hid-policyctl's bash completion: every option --help names is completed,
# each command completes the options it takes, and option values complete
# to what the command line accepts. bash-completion's helpers are stood in
# for (the host may not have the package): only what the script asks of them.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${HID_POLICY_BUILDDIR:-$repo/build}
ctl=$build/policyd/hid-policyctl
suite=ctl-completion
failed=0

report() {
	if [ "$1" = 0 ]; then
		echo "PASS: $suite/$2"
	else
		echo "FAIL: $suite/$2"
		failed=$((failed + 1))
	fi
}

# bash-completion's _init_completion sets these from COMP_WORDS.
_init_completion() {
	words=("${COMP_WORDS[@]}")
	cword=$COMP_CWORD
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
}
_filedir() { COMPREPLY=(FILES); }
_pids() { COMPREPLY=(PIDS); }
complete() { :; }
# shellcheck source=/dev/null
. "$repo/policyd/data/hid-policyctl.bash-completion"

# complete WORD... : the words of COMPREPLY for a command line ending in
# the last WORD (the one being completed).
complete_line() {
	COMP_WORDS=(hid-policyctl "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_hid_policyctl
	printf '%s\n' "${COMPREPLY[@]}"
}

# Every option --help names is known to the script.
missing=
for o in $("$ctl" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
	grep -q -- "$o\\b" "$repo/policyd/data/hid-policyctl.bash-completion" || missing+=" $o"
done
[ -z "$missing" ] || echo "    not in the completion:$missing"
report "$([ -z "$missing" ]; echo $?)" every_option_of_help_is_completed

# explain completes its device, request and sender options.
got=$(complete_line explain dev set_report --)
bad=
for o in --report --id --payload --usage --uniq --phys --user --group --executable --pid --origin; do
	grep -qx -- "$o" <<<"$got" || bad+=" $o"
done
grep -qx -- --for <<<"$got" && bad+=" --for(allow's)"
[ -z "$bad" ] || echo "    explain: wrong:$bad"
report "$([ -z "$bad" ]; echo $?)" explain_completes_its_sender_options

# explain names its request and device as allow and hid-policyd --explain
# do; allow names a group as a rule does.
bad=
got=$(complete_line explain dev --)
for o in --request --interface --descriptor-sha256; do
	grep -qx -- "$o" <<<"$got" || bad+=" explain:$o"
done
got=$(complete_line allow dev --)
grep -qx -- --group <<<"$got" || bad+=" allow:--group"
grep -qx -- --interface <<<"$got" && bad+=" allow:--interface(explain's)"
got=$(complete_line explain dev --request s)
grep -qx set_report <<<"$got" || bad+=" --request-value"
# the request given by --request (before the device or after), no operand follows
[ -z "$(complete_line explain --request set_report dev '')" ] || bad+=" no-second-operand"
[ -z "$(complete_line explain dev --request set_report '')" ] || bad+=" no-second-operand-after"
got=$(complete_line explain --unit fwupd.service dev '')
grep -qx set_report <<<"$got" || bad+=" unit-value-is-no-operand"
[ -z "$bad" ] || echo "    wrong:$bad"
report "$([ -z "$bad" ]; echo $?)" explain_and_allow_complete_the_one_syntax

# Values: the origins the command line accepts, users, groups, files, pids.
bad=
[ "$(complete_line explain dev set_report --origin '' | sort | tr '\n' ' ')" = "kernel user " ] || bad+=" origin"
# (captured first: grep -q may stop reading early, and pipefail would
# take the writer's SIGPIPE for a failure)
got=$(complete_line explain dev set_report --user r)
grep -qx root <<<"$got" || bad+=" user"
got=$(complete_line explain dev set_report --group r)
grep -qx root <<<"$got" || bad+=" group"
[ "$(complete_line explain dev set_report --executable /)" = FILES ] || bad+=" executable"
[ "$(complete_line explain dev set_report --pid '')" = PIDS ] || bad+=" pid"
# an option's value is not an operand: the request kind still follows the device
got=$(complete_line explain --user root dev '')
grep -qx set_report <<<"$got" || bad+=" operands"
[ -z "$bad" ] || echo "    wrong values:$bad"
report "$([ -z "$bad" ]; echo $?)" option_values_complete_to_what_the_command_line_takes

exit $((failed > 0))
