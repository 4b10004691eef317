#!/bin/bash
# The main job's guest side (see scripts/demo.sh): a virtual game
# controller, hid-policyd protecting it with the shipped policies, and an
# unprivileged program that tries to start a firmware update.
set -euo pipefail
build=$1
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf '\n== %s\n' "$*"; }

say "kernel $(uname -r)"
# grep -c reads everything: with pipefail, grep -q would SIGPIPE bpftool.
n=$(bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null | grep -c "STRUCT 'hid_bpf_ops'" || true)
if [ "$n" = 0 ]; then
	echo "this kernel has no HID-BPF: nothing to demonstrate"
	exit 1
fi
echo "HID-BPF: struct hid_bpf_ops is in the kernel's BTF"

say "a virtual DualSense controller appears"
coproc dev { exec stdbuf -oL "$build/tests/hid-virtual-device" --vid 0x054c --pid 0x0ce6 --name "Sony Interactive Entertainment DualSense Wireless Controller"; }
dev_pid=$dev_PID
read -r sysname hidraw <&"${dev[0]}"
echo "$sysname at $hidraw"

say "hid-policyd starts with the shipped policies (policies/)"
mkdir -p /var/log/hid-policy
"$build/policyd/hid-policyd" --foreground --config-dir policies \
	--audit-log /var/log/hid-policy/audit.jsonl 2> /tmp/hid-policyd.log &
daemon_pid=$!
for _ in $(seq 100); do
	grep -q "running:" /tmp/hid-policyd.log 2>/dev/null && break
	sleep 0.1
done
cat /tmp/hid-policyd.log

say "the controller's hidraw node is opened to users, as Steam's udev rules do"
chmod 0666 "$hidraw"
ls -l "$hidraw"

attempt() { # description, uid, python expression run with the hidraw fd
	setpriv --reuid=1000 --regid=1000 --clear-groups python3 - "$hidraw" "$1" <<'PY'
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
def ioc(n, nr): return (3 << 30) | (n << 16) | (ord('H') << 8) | nr
buf = bytearray(64)
what = sys.argv[2]
if what == "update":
    buf[0] = 0xf4
    label = "SET_REPORT feature 0xF4 (DualSense firmware update)"
    req = ioc(64, 0x06)
else:
    buf[0] = 0x05
    label = "GET_REPORT feature 0x05 (calibration, as SDL reads it)"
    req = ioc(64, 0x07)
try:
    fcntl.ioctl(fd, req, buf)
    print(f"uid {os.getuid()} {label}: accepted")
except OSError as e:
    print(f"uid {os.getuid()} {label}: refused: {e.strerror}")
PY
}

say "an unprivileged program reads calibration data (allowed)"
attempt calibration
read -r -t 5 line <&"${dev[0]}" && echo "  device: $line"

say "the same program tries to start a firmware update"
attempt update
if read -r -t 1 line <&"${dev[0]}"; then
	echo "  device: $line   <-- IT GOT THROUGH"
	exit 1
fi
echo "  device: received nothing"

say "the audit log"
sleep 0.5
python3 -m json.tool < <(tail -n 1 /var/log/hid-policy/audit.jsonl)

kill "$daemon_pid" "$dev_pid"
wait 2>/dev/null || true
"$build/policyd/hid-policyd" --cleanup
