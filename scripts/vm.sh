#!/bin/bash
# Run a command as root inside the hid-policy test kernel, under QEMU.
#
# Usage: scripts/vm.sh [options] -- CMD [ARGS...]
#   --timeout SEC    kill a guest that runs longer (default 300); a timeout
#                    is a failure (exit 124)
#   --kernel FILE    boot this bzImage instead of the one kernel/build gives
#   --mem MB         guest memory (default 1024)
#   --smp N          guest CPUs (default 2)
#   --results DIR    host directory shared writable with the guest (default:
#                    a new temporary directory, removed unless --keep)
#   --keep           keep the results directory and print its path
#   --append ARGS    extra kernel command line arguments
#   --vendor-drivers let the vendor HID drivers (hid-playstation, ...) bind
#                    the devices they know; by default the guest sets
#                    hid.ignore_special_drivers=1, since test devices are
#                    replicas meant for the generic driver
#   --icount SHIFT   TCG only: the guest's clock counts instructions, 2^SHIFT
#                    ns each (QEMU -icount, one host thread for all vCPUs),
#                    so that times measured in the guest do not depend on
#                    the host's load (bench.sh --icount)
#   --systemd        boot the host's systemd as PID 1 (journald, udevd, D-Bus,
#                    logind; /etc a writable copy without the host's enabled
#                    units) and run CMD as a service once basic.target is up;
#                    the journal is saved as results/journal.log
#   --root DIR       boot another system's root (a Debian root made by
#                    tests/package/debian-root.sh): DIR, shared read-only,
#                    under a writable tmpfs overlay (DIR is never written),
#                    with its own systemd as PID 1 and the command run as in
#                    --systemd; the repository and results shares are
#                    mounted at the same paths in it
#
# The guest sees the host's root file system read-only (virtio-9p), has
# writable tmpfs /tmp, /run and /var, proc, sysfs, devtmpfs, bpffs at
# /sys/fs/bpf and tracefs; CMD runs in the repository directory with
# $VM_RESULTS pointing at the writable results share. CMD's output is
# streamed to this script's stdout and its exit status becomes this script's.
# The guest kernel log is saved (results/console.log) and scanned: a BUG,
# WARNING, Oops, KASAN report or panic fails the run even if CMD succeeded.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
timeout=300
kernel=${HID_POLICY_KERNEL:-}
mem=1024
smp=2
results=
keep=0
append=
icount=
root_dir=

die() { echo "vm.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) timeout=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--results) results=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--append) append=$2; shift 2 ;;
	--vendor-drivers) append+=" HID_POLICY_VM_IGNORE_SPECIAL_DRIVERS=0"; shift ;;
	--systemd) append+=" HID_POLICY_VM_SYSTEMD=1"; shift ;;
	--root) root_dir=$2; append+=" HID_POLICY_VM_SYSTEMD=1 HID_POLICY_VM_ROOT=1"; shift 2 ;;
	--icount)
		[[ "$2" =~ ^[0-9]+$ ]] || { echo "vm.sh: --icount takes a shift, a number" >&2; exit 2; }
		icount=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//;/^set -e/d'; exit 0 ;;
	*) die "unknown option '$1' (CMD goes after --; see --help)" ;;
	esac
done
[ $# -gt 0 ] || die "no command given (usage: scripts/vm.sh [options] -- CMD [ARGS...])"
[[ "$timeout" =~ ^[0-9]+$ ]] || die "--timeout needs a number of seconds"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing: run scripts/deps.sh"

if [ -z "$kernel" ]; then
	kernel=$("$repo/kernel/build" | sed -n 's/^KERNEL_IMAGE=//p')
	[ -n "$kernel" ] || die "kernel/build did not produce a kernel"
fi
[ -f "$kernel" ] || die "kernel image $kernel does not exist"
root_args=()
if [ -n "$root_dir" ]; then
	[ -x "$root_dir/lib/systemd/systemd" ] || die "--root $root_dir has no lib/systemd/systemd"
	root_args=(-fsdev "local,id=guestroot,path=$root_dir,security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=guestroot,mount_tag=guestroot)
fi

if [ -z "$results" ]; then
	results=$(mktemp -d /tmp/hid-policy-vm.XXXXXX)
	[ $keep -eq 1 ] || trap 'rm -rf "$results"' EXIT
else
	mkdir -p "$results"
fi
rm -f "$results/status" "$results/console.log" "$results/output.log" "$results/dmesg" \
	"$results/journal.log"

# The repository is shared on its own too, and mounted at the same path
# after the guest's tmpfs mounts, so a checkout under /tmp works.
echo "$repo" > "$results/repo"

# The guest runs this script with bash; quote every argument for it.
{
	echo "cd $(printf '%q' "$repo") || exit 125"
	printf 'export HID_POLICY_IN_VM=1\n'
	printf '%q ' "$@"
	echo
} > "$results/cmd"

# KVM only if it really works here: the probe boots the kernel once with it
# and remembers the answer for this host boot.
accel=tcg,thread=multi
cache=${HID_POLICY_CACHE:-$HOME/.cache/hid-policy}
probe=$cache/kvm-probe
boot_id=$(cat /proc/sys/kernel/random/boot_id)
if [ -z "${HID_POLICY_VM_PROBING:-}" ] && [ -w /dev/kvm ]; then
	if ! grep -qx "$boot_id .*" "$probe" 2>/dev/null; then
		verdict=no
		if HID_POLICY_VM_PROBING=1 HID_POLICY_VM_ACCEL=kvm timeout 60 \
			"$0" --kernel "$kernel" --timeout 30 -- true >/dev/null 2>&1; then
			verdict=yes
		fi
		mkdir -p "$cache" && echo "$boot_id $verdict" > "$probe"
	fi
	grep -qx "$boot_id yes" "$probe" && accel=kvm
fi
accel=${HID_POLICY_VM_ACCEL:-$accel}
cpu=max
[ "$accel" = kvm ] && cpu=host
icount_args=()
if [ -n "$icount" ]; then
	# -icount needs TCG with one thread; KVM has no instruction counter
	accel=tcg,thread=single cpu=max
	icount_args=(-icount "shift=$icount,sleep=off")
fi

cmdline="console=ttyS0 root=hostroot rootfstype=9p ro"
cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose"
# Two dummy_hcd UDCs: the USB test devices (tests/lib/usb_gadget.c) can
# be two at a time, a replica and a control device.
cmdline+=" dummy_hcd.num=2"
cmdline+=" init=$repo/scripts/vm-init panic=-1 loglevel=7 $append"

: > "$results/output.log"
tail -n +1 -f "$results/output.log" &
tail_pid=$!

set +e
timeout --kill-after=5 "$timeout" qemu-system-x86_64 \
	-accel "$accel" -cpu "$cpu" -m "$mem" -smp "$smp" ${icount_args[@]+"${icount_args[@]}"} \
	-nodefaults -no-reboot -display none -monitor none \
	-kernel "$kernel" -append "$cmdline" \
	-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
	-fsdev local,id=repo,path="$repo",security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=repo,mount_tag=repo \
	-fsdev local,id=results,path="$results",security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=results,mount_tag=results \
	${root_args[@]+"${root_args[@]}"} \
	-serial file:"$results/console.log" -serial file:"$results/output.log" \
	< /dev/null > "$results/qemu.log" 2>&1
qemu_status=$?
set -e
sleep 0.2
kill "$tail_pid" 2>/dev/null
wait "$tail_pid" 2>/dev/null || true

status=
[ -f "$results/status" ] && status=$(cat "$results/status")

fail=0
if [ $qemu_status -eq 124 ] || [ $qemu_status -eq 137 ]; then
	echo "vm.sh: the guest did not finish within $timeout s and was killed" >&2
	fail=124
elif [ -z "$status" ]; then
	echo "vm.sh: the guest stopped without reporting an exit status (crash or panic; QEMU exit $qemu_status)" >&2
	tail -n 30 "$results/console.log" >&2
	[ -s "$results/qemu.log" ] && cat "$results/qemu.log" >&2
	fail=125
fi
if ! "$repo/scripts/scan-kernel-log" "$results/console.log" "$results/dmesg"; then
	echo "vm.sh: the guest kernel log shows a kernel problem (full log: $results/console.log)" >&2
	[ $keep -eq 1 ] || { trap - EXIT; echo "vm.sh: results kept in $results" >&2; }
	[ $fail -ne 0 ] || fail=126
fi
[ $keep -eq 1 ] && echo "vm.sh: results in $results" >&2
[ $fail -ne 0 ] && exit $fail
exit "$status"
