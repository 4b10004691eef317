#!/bin/bash
# hid-policyctl's exit status and the shape of its command lines, as an
# administrator meets them before any daemon answers (hid-policyctl(1),
# EXIT STATUS): a device or process that is not there is a failure (1), not
# a usage error (2); explain takes the device as hid-policyd --explain does
# (--device) or after the command; a user or group name goes to the daemon,
# so a name this machine has not reaches it (then the socket is what is
# missing here, 4) rather than stopping as a usage error.
set -uo pipefail

build=${HID_POLICY_BUILDDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build}
ctl=$build/policyd/hid-policyctl
suite=ctl-cli
failed=0
nosocket=(--socket /nonexistent/hid-policy/control)

# check NAME WANT_STATUS WANT_TEXT CMD...: the exit status, and a line of
# the output holding WANT_TEXT.
check() {
	local name=$1 want_status=$2 want=$3 out status
	shift 3
	out=$("$@" 2>&1)
	status=$?
	if [ "$status" = "$want_status" ] && grep -qF -- "$want" <<<"$out"; then
		echo "PASS: $suite/$name"
	else
		echo "    status $status (expected $want_status): $out"
		echo "FAIL: $suite/$name"
		failed=$((failed + 1))
	fi
}

# a hidraw node that is not there: no such device, exit 1
nohidraw=hidraw$((900 + RANDOM % 99))
[ -e "/dev/$nohidraw" ] && nohidraw=hidraw999
check a_missing_hidraw_device_is_a_failure 1 "hid-policyctl: $nohidraw: no such hidraw device" \
	"$ctl" "${nosocket[@]}" rules "$nohidraw"
check a_missing_hidraw_device_in_the_log_is_a_failure 1 "no such hidraw device" \
	"$ctl" "${nosocket[@]}" log --device "/dev/$nohidraw"
# a process that is not there (pid_max is at most 2^22)
check a_missing_process_is_a_failure 1 "hid-policyctl: --pid 4194399: cannot read its executable" \
	"$ctl" "${nosocket[@]}" explain 0003:1234:5678.0001 set_report --report feature --id 3 \
	--pid 4194399
check a_usage_error_is_still_2 2 "hid-policyctl: explain needs --id, the report ID of the request" \
	"$ctl" "${nosocket[@]}" explain 0003:1234:5678.0001 set_report --report feature
# the request as hid-policyd --explain writes it reaches the socket
check explain_takes_the_device_as_hid_policyd_does 4 "cannot reach hid-policyd" \
	"$ctl" "${nosocket[@]}" explain --device 0003:1234:5678.0001 --request set_report \
	--report feature --id 3
check explain_sends_a_name_this_machine_has_not_to_the_daemon 4 "cannot reach hid-policyd" \
	"$ctl" "${nosocket[@]}" explain 0003:1234:5678.0001 --request set_report --report feature \
	--id 3 --user hp-no-such-user --group hp-no-such-group
check allow_sends_a_name_this_machine_has_not_to_the_daemon 4 "cannot reach hid-policyd" \
	"$ctl" "${nosocket[@]}" allow 0003:1234:5678.0001 --for 1m --user hp-no-such-user
exit $((failed > 0))
