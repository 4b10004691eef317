#!/bin/bash
# hid-policyctl --pid refuses a process that is being traced: the firewall
# does not take a traced task's executable as its identity (bpf/
# hid_firewall.bpf.c read_caller()), so an answer of explain, or an allow,
# built on that executable would not be what the firewall does. The same
# command for an untraced process gets past reading the process (it then
# fails only for want of a daemon).
set -uo pipefail

build=${HID_POLICY_BUILDDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build}
ctl=$build/policyd/hid-policyctl
suite=ctl-traced-pid
failed=0
dev=0003:1234:5678.0001

# A sleeping process that asked to be traced by this shell
# (PTRACE_TRACEME): it stops at its exec, traced, until killed.
python3 -c 'import ctypes, os
ctypes.CDLL(None, use_errno=True).ptrace(0, 0, None, None)
os.execvp("sleep", ["sleep", "60"])' &
traced=$!
sleep 30 &
untraced=$!
trap 'kill -9 $traced $untraced 2>/dev/null' EXIT
for _ in $(seq 100); do
	t=$(awk '/^TracerPid:/ { print $2 }' /proc/$traced/status 2>/dev/null)
	[ "${t:-0}" != 0 ] && grep -q sleep /proc/$traced/comm 2>/dev/null && break
	sleep 0.05
done

# check NAME WANT_STATUS WANT_TEXT CMD...
check() {
	local name=$1 want_status=$2 want=$3 out status
	shift 3
	out=$("$@" 2>&1)
	status=$?
	if { [ "$want_status" = nonzero ] && [ $status -ne 0 ] || [ "$want_status" = "$status" ]; } &&
		grep -qF -- "$want" <<<"$out"; then
		echo "PASS: $suite/$name"
	else
		echo "    status $status: $out"
		echo "FAIL: $suite/$name"
		failed=$((failed + 1))
	fi
}

check explain-refuses-a-traced-pid nonzero "--pid $traced is being traced (by pid $$)" \
	"$ctl" explain "$dev" set_report --report feature --id 3 --pid "$traced"
check allow-refuses-a-traced-pid nonzero "--pid $traced is being traced (by pid $$)" \
	"$ctl" allow "$dev" --pid "$traced" --for 1m
# Control: an untraced process is read, and only the daemon is missing.
check explain-reads-an-untraced-pid nonzero "cannot reach hid-policyd" \
	"$ctl" --socket /nonexistent/control explain "$dev" set_report --report feature \
	--id 3 --pid "$untraced"
exit $((failed > 0))
