#!/bin/bash
# Can hid-policyd run as a dedicated user with its bpffs pins? The experiment
# behind doc/security.md, run in the test VM as root:
#
#   scripts/vm.sh -- doc/experiments/dedicated-user.sh [BUILD_DIR]
#
# It runs the daemon as uid 990 with ambient CAP_BPF, CAP_PERFMON and
# CAP_SETPCAP (what systemd's User= plus AmbientCapabilities= would give),
# the state, runtime and log directories owned by that user, against a
# virtual DualSense, and prints what works and what fails. It changes the
# mode of /sys/fs/bpf: run it only in the throw-away VM.
set -u
build=$(realpath "${1:-build}")
daemon=$build/policyd/hid-policyd
user=990
caps=+bpf,+perfmon,+setpcap
[ "${HID_POLICY_IN_VM:-}" = 1 ] || { echo "run this in the VM (scripts/vm.sh)" >&2; exit 2; }

say() { printf '\n== %s\n' "$*"; }
indent() { sed 's/^/    /'; }

# The firmware-update request of a uid-1000 program: accepted or refused.
firmware_update() {
	setpriv --reuid=1000 --regid=1000 --clear-groups python3 - "$1" <<'PY' | indent
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
buf = bytearray(64); buf[0] = 0xf4
HIDIOCSFEATURE_64 = (3 << 30) | (64 << 16) | (ord('H') << 8) | 0x06
try:
    fcntl.ioctl(fd, HIDIOCSFEATURE_64, buf)
    print("uid 1000 SET_REPORT feature 0xf4: accepted")
except OSError as e:
    print("uid 1000 SET_REPORT feature 0xf4: refused:", e.strerror)
PY
}

# Start the daemon as UID with CAPS; wait until it runs or gives up.
start() {
	local uid=$1 caps=$2
	: > /tmp/daemon.log
	if [ "$uid" = 0 ]; then
		"$daemon" --foreground --config-dir policies > /tmp/daemon.log 2>&1 &
	else
		setpriv --reuid="$uid" --regid="$uid" --clear-groups \
			--inh-caps="$caps" --ambient-caps="$caps" \
			"$daemon" --foreground --config-dir policies > /tmp/daemon.log 2>&1 &
	fi
	pid=$!
	for _ in $(seq 300); do
		grep -q "running:\|cannot" /tmp/daemon.log && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	grep -v "^libbpf: *$" /tmp/daemon.log | indent
}
stop() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
own_dirs() {
	mkdir -p /sys/fs/bpf/hid-policy /run/hid-policy /var/log/hid-policy
	chown -R "$1:$1" /sys/fs/bpf/hid-policy /run/hid-policy /var/log/hid-policy
}

echo "kernel $(uname -r), kernel.unprivileged_bpf_disabled=$(cat /proc/sys/kernel/unprivileged_bpf_disabled)"
coproc dev1 { exec stdbuf -oL "$build/tests/hid-virtual-device" --vid 0x054c --pid 0x0ce6; }
read -r _ hidraw1 _ <&"${dev1[0]}"
chmod 0666 "$hidraw1"

say "1. /sys/fs/bpf mode 0700, as systemd mounts it; /sys/fs/bpf/hid-policy owned by uid $user"
chmod 0700 /sys/fs/bpf
own_dirs $user
start $user $caps
stop

say "2. /sys/fs/bpf mode 0711 (everybody may traverse it)"
chmod 0711 /sys/fs/bpf
start $user $caps
grep -E '^(Uid|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/$pid/status | indent
ls -ln /sys/fs/bpf/hid-policy /sys/fs/bpf/hid-policy/devices | indent
echo "    uid 1000 opening a pin: $(setpriv --reuid=1000 --regid=1000 --clear-groups bpftool map show pinned /sys/fs/bpf/hid-policy/hid_rules 2>&1 | head -1)"
firmware_update "$hidraw1"
sleep 0.5
echo "    audit record's process: $(tail -n 1 /var/log/hid-policy/audit.jsonl | python3 -c 'import json,sys; print(json.load(sys.stdin)["process"])')"

say "3. a device hotplugged after the sandbox (CAP_BPF alone)"
coproc dev2 { exec stdbuf -oL "$build/tests/hid-virtual-device" --vid 0x054c --pid 0x0ce6; }
read -r sys2 hidraw2 _ <&"${dev2[0]}"
chmod 0666 "$hidraw2"
sleep 2
grep "$sys2" /tmp/daemon.log | indent
firmware_update "$hidraw2"

say "4. kill -9, then restart as uid $user"
kill -9 "$pid"; wait "$pid" 2>/dev/null
firmware_update "$hidraw1"
start $user $caps
stop

say "5. uid $user without CAP_PERFMON"
"$daemon" --cleanup; own_dirs $user
start $user +bpf,+setpcap
stop

say "6. pins left by a root daemon, then uid $user"
"$daemon" --cleanup
start 0 ""
stop
ls -ln /sys/fs/bpf/hid-policy | indent
chown -R $user:$user /run/hid-policy /var/log/hid-policy
start $user $caps
stop

for owner in $user 0; do
	say "7. pins owned by uid $owner; a process of uid $owner with no capabilities deletes a device's struct_ops element"
	"$daemon" --cleanup; own_dirs $owner
	start $owner $caps
	firmware_update "$hidraw1"
	before=$(wc -l < /tmp/daemon.log)
	setpriv --reuid=$owner --regid=$owner --clear-groups --inh-caps=-all --bounding-set=-all \
		sh -c 'grep CapEff /proc/self/status; bpftool map delete pinned /sys/fs/bpf/hid-policy/devices/1 key 0 0 0 0 && echo deleted' 2>&1 | indent
	firmware_update "$hidraw1"
	sleep 2
	echo "    the daemon's messages since: $(tail -n +$((before + 1)) /tmp/daemon.log | grep -c .) lines"
	tail -n +$((before + 1)) /tmp/daemon.log | indent
	stop
done
"$daemon" --cleanup 2>&1 | indent
kill "${dev1_PID:-}" "${dev2_PID:-}" 2>/dev/null
exit 0
