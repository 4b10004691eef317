#!/bin/bash
# The demo's guest side (see scripts/demo.sh).
set -euo pipefail
build=$1

echo "kernel: $(uname -r)"
[ -c /dev/uhid ] && echo "uhid: /dev/uhid present" || { echo "uhid: missing"; exit 1; }
if bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null | grep -q "STRUCT 'hid_bpf_ops'"; then
	echo "HID-BPF: struct hid_bpf_ops is in the kernel's BTF"
else
	echo "HID-BPF: not in this kernel yet (struct hid_bpf_ops missing from BTF)"
fi

coproc dev { exec "$build/tests/hid-virtual-device" --vid 0x054c --pid 0x0ce6 --name "Virtual DualSense"; }
dev_pid=$dev_PID
read -r sysname hidraw <&"${dev[0]}"
echo "virtual controller: $sysname ($(cat /sys/bus/hid/devices/$sysname/uevent | sed -n 's/^HID_NAME=//p')) at $hidraw"
echo "a process sends a feature report 0xf4 (not protected yet):"
python3 - "$hidraw" <<'PY'
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
buf = bytearray(64); buf[0] = 0xf4
HIDIOCSFEATURE = lambda n: (3 << 30) | (n << 16) | (ord('H') << 8) | 0x06
try:
    r = fcntl.ioctl(fd, HIDIOCSFEATURE(len(buf)), bytes(buf))
    print("  HIDIOCSFEATURE(0xf4) accepted")
except OSError as e:
    print("  HIDIOCSFEATURE(0xf4) refused:", e.strerror)
PY
read -r -t 5 line <&"${dev[0]}" && echo "  $line"
kill "$dev_pid"
wait "$dev_pid" 2>/dev/null || true
