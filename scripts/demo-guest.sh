#!/bin/bash
# The main job's guest side (see scripts/demo.sh), a story whose every step
# is checked: a virtual DualSense with the controller's own report
# descriptor, hid-policyd protecting it with the shipped policies
# (policies/), a game that reads calibration data as SDL does, a firmware
# updater run by a user that is refused, and the same updater run by
# fwupd.service, which an administrator let through for a while.
#
# Each step ends with "holds: NAME" once both ends were checked (what the
# caller saw and what the device received) and the audit record's fields
# where the step writes one; when a step does not hold, the demo says
# "DOES NOT HOLD: NAME: why" and exits 1. tests/demo/run.sh runs it as a
# test on every test kernel.
# Usage (in the guest, as root): scripts/demo-guest.sh BUILD_DIR
set -uo pipefail
build=$1
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

# The demo's own user, in a mount namespace of its own so that nothing
# outside sees it: the story names the user who ran each program.
if [ -z "${HID_POLICY_DEMO_NS:-}" ]; then
	HID_POLICY_DEMO_NS=1 exec unshare --mount --propagation private -- "$0" "$@"
fi

work=/run/hid-policy-demo
log=/var/log/hid-policy-demo/audit.jsonl
fwupd_cgroup=/sys/fs/cgroup/system.slice/fwupd.service
user_uid=2000
user=player
made_cgroups=()	# the cgroup directories the demo made, deepest first
# Waits are this many times longer on a slow kernel (scripts/test.sh sets
# it for the -debug kernels).
slow=${HID_POLICY_SLOW_FACTOR:-1}
[[ "$slow" =~ ^[1-9][0-9]*$ ]] || slow=1
daemon_pid=
dev_pid=

say() { printf '\n== %s\n' "$*"; }
holds() { echo "   holds: $1"; }
# The step NAME does not hold, for the reason given: say so and stop.
broken() {
	echo "   DOES NOT HOLD: $1: $2"
	echo "demo: the story broke at step \"$1\": $2" >&2
	exit 1
}

cleanup() {
	[ -z "$daemon_pid" ] || { kill "$daemon_pid"; wait "$daemon_pid"; } 2>/dev/null
	[ -z "$dev_pid" ] || { kill "$dev_pid"; wait "$dev_pid"; } 2>/dev/null
	[ ${#made_cgroups[@]} -eq 0 ] || rmdir "${made_cgroups[@]}" 2>/dev/null
	"$build/policyd/hid-policyd" --cleanup >/dev/null 2>&1
	rm -rf "$work" "$(dirname "$log")"
}
trap cleanup EXIT

mkdir -p "$work/bin" "$(dirname "$log")"
rm -f "$log"
if ! getent passwd "$user_uid" >/dev/null; then
	{ cat /etc/passwd; echo "$user:x:$user_uid:$user_uid:a player:/nonexistent:/usr/sbin/nologin"; } > "$work/passwd"
	{ cat /etc/group; echo "$user:x:$user_uid:"; } > "$work/group"
	if ! mount --bind "$work/passwd" /etc/passwd || ! mount --bind "$work/group" /etc/group; then
		broken setup "cannot add the demo's user"
	fi
fi
user=$(getent passwd "$user_uid" | cut -d: -f1)
# The programs of the story: one sender, under the names of the programs
# it stands for.
for p in game dualsense-updater; do
	install -m 0755 "$build/tests/demo/hidraw-feature" "$work/bin/$p" || broken setup "cannot install $p"
done
# A record names the program by what the kernel saw: its name (comm, 15
# characters) and its file's inode (the path too when the process is
# still there when the daemon reads the record; these exit at once).
updater_ino=$(stat -c %i "$work/bin/dualsense-updater")

# The lines the device prints, one per request that reached it; NEXT_LINE
# waits up to $1 seconds for the next one into $line.
next_line() { line=; read -r -t "$1" line <&"${dev[0]}"; }
# Lines the audit log has now.
log_lines() { [ -f "$log" ] && wc -l < "$log" || echo 0; }

# The audit log has, past its first $1 lines, a record with every
# DOTTED.PATH=VALUE given (within 5 s, times the slow factor); prints what a decision's record
# says (the whole record: the audit log, or hid-policyctl log --json), or
# why none matches.
audit_record() {
	HID_POLICY_SLOW_FACTOR=$slow python3 - "$log" "$work/bin" "$@" <<'PY'
import json, os, pwd, sys, time
path, bindir, skip = sys.argv[1], sys.argv[2], int(sys.argv[3])
want = dict(a.split("=", 1) for a in sys.argv[4:])
def user(uid):
    try:
        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except (KeyError, TypeError):
        return f"uid {uid}"
def program(p):
    """the record's executable by its device and inode, among the demo's programs"""
    for name in sorted(os.listdir(bindir)):
        st = os.stat(os.path.join(bindir, name))
        if (f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}", st.st_ino) == (p.get("exe_dev"), p.get("exe_ino")):
            return os.path.join(bindir, name)
    return p.get("exe", "an executable the demo did not install")
def field(rec, dotted):
    for key in dotted.split("."):
        rec = rec.get(key) if isinstance(rec, dict) else None
    return "true" if rec is True else "false" if rec is False else None if rec is None else str(rec)
records = []
for _ in range(50 * int(os.environ.get("HID_POLICY_SLOW_FACTOR", "1"))):
    try:
        with open(path) as f:
            records = [json.loads(l) for l in f.read().splitlines()[skip:]]
    except FileNotFoundError:
        records = []
    for rec in records:
        if all(field(rec, k) == v for k, v in want.items()):
            if rec.get("event") == "decision":
                p, d, r = rec["process"], rec["device"], rec["rule"]
                print(f"{rec['action']} {rec['request']} {rec.get('report_type', '')} "
                      f"0x{rec['report_id']:02x}" + (f" ({rec['errno']})" if "errno" in rec else ""))
                print(f"  by:     {program(p)} (comm {p.get('comm')}, pid {p.get('pid')}, "
                      f"executable {p.get('exe_dev')}/{p.get('exe_ino')}), {user(p.get('uid'))}, "
                      f"cgroup {p.get('cgroup')}" + (f", unit {p['unit']}" if "unit" in p else ""))
                print(f"  rule:   {r.get('name')} (rule set {r.get('rule_set')})")
                print(f"  device: {d.get('sysfs')} {d.get('vendor')}:{d.get('product')} \"{d.get('name')}\"")
            sys.exit(0)
    time.sleep(0.1)
if not records:
    print("no new audit record")
else:
    print("the last new record:", json.dumps(records[-1]))
for rec in records:
    print("a record differs:", ", ".join(f"{k} is {field(rec, k)}, not {v}"
                                         for k, v in want.items() if field(rec, k) != v))
sys.exit(1)
PY
}

# Run "$@" (a sender); its output line is shown and kept in $out, its
# exit status in $status.
send() {
	out=$("$@" 2>&1)
	status=$?
	echo "   $out"
}

say "kernel $(uname -r)"
# grep -c reads everything: with pipefail, grep -q would SIGPIPE bpftool.
n=$(bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null | grep -c "STRUCT 'hid_bpf_ops'")
[ "${n:-0}" != 0 ] || broken kernel-has-hid-bpf "no struct hid_bpf_ops in the kernel's BTF: this kernel has no HID-BPF"
echo "   HID-BPF: struct hid_bpf_ops is in the kernel's BTF"
holds kernel-has-hid-bpf

say "a DualSense controller appears (a replica: the controller's USB IDs and report descriptor)"
coproc dev { exec stdbuf -oL "$build/tests/hid-virtual-device" --replica dualsense; }
# shellcheck disable=SC2154 # coproc sets dev_PID
dev_pid=$dev_PID
read -r -t $((30 * slow)) sysname hidraw _ <&"${dev[0]}" || broken controller-appears "the replica never got a hidraw node"
rdesc_size=$(wc -c < "/sys/bus/hid/devices/$sysname/report_descriptor")
echo "   $sysname at $hidraw: $(sed -n 's/^HID_NAME=//p' "/sys/bus/hid/devices/$sysname/uevent"), a $rdesc_size-byte report descriptor"
# The descriptor declares the reports the story's programs send: feature
# 0x05 (calibration) and 0xf4 (firmware update), "85 05" and "85 f4".
rdesc=$(od -An -tx1 -v "/sys/bus/hid/devices/$sysname/report_descriptor" | tr -s ' \n' ' ')
[ "$rdesc_size" = 273 ] || broken controller-appears "its report descriptor has $rdesc_size bytes, not a DualSense's 273"
for id in 05 f4; do
	[[ "$rdesc" == *" 85 $id 09 "* ]] || broken controller-appears "its descriptor declares no report 0x$id"
done
holds controller-appears

say "hid-policyd starts with the shipped policies (policies/)"
"$build/policyd/hid-policyd" --foreground --config-dir policies --audit-log "$log" \
	2> "$work/hid-policyd.log" &
daemon_pid=$!
for _ in $(seq $((300 * slow))); do
	grep -q "running:" "$work/hid-policyd.log" && break
	kill -0 "$daemon_pid" 2>/dev/null || break
	sleep 0.1
done
sed 's/^/   /' "$work/hid-policyd.log"
grep -q "^.*$sysname .*: protected, [0-9]* rules, enforce mode" "$work/hid-policyd.log" ||
	broken daemon-protects-the-controller "hid-policyd did not say that $sysname is protected in enforce mode"
"$build/policyd/hid-policyctl" rules "$hidraw" | sed 's/^/   /'
[ "${PIPESTATUS[0]}" = 0 ] || broken daemon-protects-the-controller "hid-policyctl rules $hidraw failed"
holds daemon-protects-the-controller

say "the controller's hidraw node is opened to users, as Steam's udev rules do"
chmod 0666 "$hidraw"
echo "   $(ls -l "$hidraw")"

as_user() { setpriv --reuid="$user_uid" --regid="$user_uid" --clear-groups "$@"; }
update=(f4 00 39)	# firmware update: start (byte 1), length (byte 2)

say "$user's game reads the controller's calibration (feature 0x05), as SDL does: allowed"
send as_user "$work/bin/game" "$hidraw" get 05 64
[ "$status" = 0 ] || broken game-reads-calibration "the read failed: $out"
[[ "$out" == *": 41 bytes back" ]] || broken game-reads-calibration "the answer is not the controller's 41 bytes"
next_line $((5 * slow))
echo "   device: ${line:-received nothing}"
[ "$line" = "device received GET_REPORT feature report 0x05" ] ||
	broken game-reads-calibration "the controller did not receive GET_REPORT feature 0x05"
holds game-reads-calibration

say "$user runs a firmware updater: it sends the DualSense's update start (SET_REPORT feature 0xf4)"
before=$(log_lines)
send as_user "$work/bin/dualsense-updater" "$hidraw" set "${update[@]}"
[ "$status" = 1 ] || broken user-update-refused "not refused with EPERM: $out"
next_line "$slow"
echo "   device: ${line:-received nothing}"
[ -z "$line" ] || broken user-update-refused "the controller received it: $line"
echo "   the audit record:"
audit_record "$before" event=decision action=deny enforced=true errno=EPERM \
	request=set_report report_type=feature report_id=244 \
	rule.name=dualsense-deny-firmware-update rule.rule_set=sony-dualsense \
	device.sysfs="$sysname" process.uid="$user_uid" process.comm=dualsense-updat \
	process.exe_ino="$updater_ino" |
	sed 's/^/   /'
[ "${PIPESTATUS[0]}" = 0 ] || broken user-update-refused "no audit record names the rule, the user and the program"
holds user-update-refused

say "fwupd.service starts (its cgroup, as systemd makes it), and the administrator lets it update this controller for 15 minutes"
for d in "$(dirname "$fwupd_cgroup")" "$fwupd_cgroup"; do
	[ -d "$d" ] && continue
	mkdir "$d" || broken fwupd-allowed "cannot make $d"
	made_cgroups=("$d" ${made_cgroups[@]+"${made_cgroups[@]}"})
done
before=$(log_lines)
echo "   # hid-policyctl allow $hidraw --for 15m --unit fwupd.service --request set_report --report feature --id 0xf4"
"$build/policyd/hid-policyctl" allow "$hidraw" --for 15m --unit fwupd.service \
	--request set_report --report feature --id 0xf4 2>&1 | sed 's/^/   /'
[ "${PIPESTATUS[0]}" = 0 ] || broken fwupd-allowed "hid-policyctl allow failed"
audit_record "$before" event=exception_granted device.sysfs="$sysname" granted_by.uid=0 >/dev/null ||
	broken fwupd-allowed "no exception_granted record for $sysname"
holds fwupd-allowed

say "fwupd.service runs the same updater with the same request: it reaches the controller"
before=$(log_lines)
# shellcheck disable=SC2016 # the child's own $$ and "$@"
send sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$fwupd_cgroup" \
	"$work/bin/dualsense-updater" "$hidraw" set "${update[@]}"
[ "$status" = 0 ] || broken fwupd-update-passes "the request from fwupd.service failed: $out"
next_line $((5 * slow))
echo "   device: ${line:-received nothing}"
[[ "$line" == "device received SET_REPORT feature report 0xf4, 64 bytes: f4 00 39 00"* ]] ||
	broken fwupd-update-passes "the controller did not receive the update start as sent"
echo "   the audit record (a temporary allow logs what it lets through):"
audit_record "$before" event=decision action=allow request=set_report report_id=244 \
	rule.rule_set="hid-policyctl allow" device.sysfs="$sysname" process.uid=0 \
	process.unit=fwupd.service process.comm=dualsense-updat process.exe_ino="$updater_ino" |
	sed 's/^/   /'
[ "${PIPESTATUS[0]}" = 0 ] || broken fwupd-update-passes "no audit record of the allow naming fwupd.service"
holds fwupd-update-passes

say "$user's updater sends it again while fwupd.service may: still refused"
before=$(log_lines)
send as_user "$work/bin/dualsense-updater" "$hidraw" set "${update[@]}"
[ "$status" = 1 ] || broken user-update-still-refused "not refused with EPERM: $out"
next_line "$slow"
echo "   device: ${line:-received nothing}"
[ -z "$line" ] || broken user-update-still-refused "the controller received it: $line"
audit_record "$before" event=decision action=deny rule.name=dualsense-deny-firmware-update \
	process.uid="$user_uid" >/dev/null ||
	broken user-update-still-refused "no audit record of the refusal"
holds user-update-still-refused

say "what the administrator sees: hid-policyctl log"
"$build/policyd/hid-policyctl" log --lines 4 | sed 's/^/   /'
[ "${PIPESTATUS[0]}" = 0 ] || broken administrator-reads-the-log "hid-policyctl log failed"
holds administrator-reads-the-log

say "the story holds: every step was checked"
