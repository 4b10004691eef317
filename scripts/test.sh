#!/bin/bash
# hid-policy's test command: installs what is missing, builds everything,
# builds (or reuses) the test kernel, runs the host suites and the VM suites,
# and ends with one line "N passed, N failed, N skipped".
#
# Usage: scripts/test.sh [--kernel port|upstream|latest|upstream-fixed|latest-fixed|NAME-debug]...
#                       [SUITE...]
#   unit      host unit tests (build/tests/unit/test-*, tests/unit/*.sh)
#   harness   tests of the VM harness (boot the VM several times)
#   cold-cache the build scripts' fallbacks against an empty cache
#             (tests/cold-cache/run.sh: the steps that are cheap)
#   package   the Debian package (tests/package): built from the tree,
#             lintian, install/upgrade/purge in a chroot, then installed
#             with apt into a Debian trixie root booted with its own
#             systemd on each test kernel (on a -debug one only when
#             --kernel names it: 19 min alone on port-debug); then
#             the RPM spec (tests/package/rpm.sh): built with rpmbuild on
#             this machine, rpmlint, its files against the .debs'. The
#             first run needs the network, for debootstrap (the root is
#             cached)
#   vm        every VM suite below
#   smoke kernel e2e policies vendor audit-trail demo ...   one VM suite (tests/S/run.sh or build/tests/S/test-*)
# Without arguments: unit, harness, cold-cache, package and vm.
#
# VM suites run on each test kernel, each kernel's in several boots
# (scripts/vm-boots), the boots of all kernels side by side (see "lanes"
# below): "port" (Linux 6.1
# with kernel/'s HID-BPF core), "upstream" (Debian's unmodified 6.12, the
# LTS kernel) and "latest" (the newest kernel Debian ships, unmodified:
# 7.3 from trixie-backports); --kernel picks one (repeat it for several). Their result lines name the
# kernel: "PASS: upstream/e2e/...". A suite with a file tests/S/vm-options
# (scripts/vm.sh options, such as --systemd) gets a boot of its own; one
# with tests/S/vm-boots has its programs spread over several; the others
# share one. Each boot's guest_finished_with_a_clean_kernel_log names the
# boot: "port/vm/e2e-1/...", "port/vm/...", "port/vm/service/...".
# "port-debug", "upstream-debug" and "latest-debug" (and "upstream-fixed-debug",
# "latest-fixed-debug") are those kernels with
# kernel/debug.fragment's checkers (KASAN, lockdep, PROVE_RCU,
# DEBUG_ATOMIC_SLEEP, DEBUG_LIST), whose reports fail the boot's
# guest_finished_with_a_clean_kernel_log. "upstream-fixed" and
# "latest-fixed" are 6.12 and 7.3 with kernel/upstream/series, the fixes
# written for upstream (on request only). Without --kernel, the suites run
# on port, upstream and latest, and those of debug_suites below also on
# port-debug.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build=${HID_POLICY_BUILDDIR:-$repo/build}
vm_suites_all=(smoke)
for s in kernel hid-selftests e2e policies vendor service audit-trail demo; do
	[ -x "tests/$s/run.sh" ] || [ -f "tests/$s/meson.build" ] && vm_suites_all+=("$s")
done

# The VM suites that also run on port-debug when no --kernel is given: the
# ones whose kernel paths differ from the plain kernels' runs, where KASAN
# and lockdep find what a plain kernel does not show. kernel and
# hid-selftests drive every HID-BPF path of kernel/ (the only kernel code
# this project changes) directly, the event path included; vendor binds
# the vendor drivers (hid-playstation, hid-sony, hid-nintendo, hid-steam,
# hid-logitech-*) to firewalled devices: their probes' own requests through
# the firewall's request hook, and drivers no other suite binds (42 s on
# port-debug). The other suites drive the same hooks from the daemon: their
# memory errors are the daemon's (user space, not KASAN's) and e2e alone
# took 41 min on port-debug: run them with --kernel port-debug e2e. Debian's
# unmodified kernels (upstream, latest) have no -debug run by default.
debug_suites=(kernel hid-selftests vendor)

host_suites=()
vm_suites=()
kernels=()
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel)
		case "${2:-}" in
		port|upstream|latest|upstream-fixed|latest-fixed) kernels+=("$2") ;;
		port-debug|upstream-debug|latest-debug|upstream-fixed-debug|latest-fixed-debug) kernels+=("$2") ;;
		*) echo "test.sh: --kernel takes port, upstream, latest, upstream-fixed or latest-fixed, each with or without -debug" >&2; exit 2 ;;
		esac
		shift 2 ;;
	*) args+=("$1"); shift ;;
	esac
done
default_kernels=0
if [ ${#kernels[@]} -eq 0 ]; then
	kernels=(port upstream latest port-debug)
	default_kernels=1
fi
cores=$(nproc)
lanes=${HID_POLICY_VM_LANES:-$((2 * cores))}
if ! [[ "$lanes" =~ ^[1-9][0-9]*$ ]]; then
	echo "test.sh: HID_POLICY_VM_LANES must be a whole number of boots at a time, at least 1 (got '$lanes')" >&2
	exit 2
fi
# With more guests than cores, a guest may wait for a core: the tests'
# waits for what must happen (HID_POLICY_SLOW_FACTOR) grow by as many
# guests as share a core.
slow_lanes=$(((lanes + cores - 1) / cores))
declare -A boot_count=()
[ ${#args[@]} -gt 0 ] || args=(unit harness cold-cache package vm)
for s in "${args[@]}"; do
	case "$s" in
	unit|harness|cold-cache|package) host_suites+=("$s") ;;
	vm) vm_suites+=("${vm_suites_all[@]}") ;;
	*)
		if [ -d "tests/$s" ]; then
			vm_suites+=("$s")
		else
			echo "test.sh: unknown suite '$s' (unit, harness, cold-cache, package, vm, ${vm_suites_all[*]})" >&2
			exit 2
		fi ;;
	esac
done

log=$(mktemp)
# The run's own log: subshells write to logs of their own ($log.host,
# $log.boot-K-N) but find the kernels' preparation at $run_log.prep-K.
run_log=$log
trap 'rm -f "$log" "$log".boot-* "$log".prep-* "$log".host' EXIT
# Every output line is shown and kept; results are counted from the copy.
run() { "$@" 2>&1 | tee -a "$log"; return "${PIPESTATUS[0]}"; }
fail_line() { echo "FAIL: $1" | tee -a "$log"; }

step() { echo "== $*" >&2; }
# The CPU seconds (user + system) this shell's ended children took, into
# $cpu_now: /proc's cutime and cstime, in USER_HZ (100) ticks, read
# without a fork (a $(...) would count its own subshell's children).
children_cpu() {
	local st
	read -ra st < "/proc/$BASHPID/stat"
	cpu_now=$(((st[15] + st[16]) / 100))
}

step "dependencies"
if ! "$repo/scripts/deps.sh"; then
	fail_line "setup/dependencies"
	echo "0 passed, 1 failed"
	exit 1
fi

step "build ($build)"
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" >/dev/null || { fail_line "setup/meson"; echo "0 passed, 1 failed"; exit 1; }
fi
if ! ninja -C "$build" > "$log.build" 2>&1; then
	cat "$log.build"
	rm -f "$log.build"
	fail_line "setup/build"
	echo "0 passed, 1 failed"
	exit 1
fi
rm -f "$log.build"

# The host suites, into their own log ($log.host). Started once the
# first kernel is ready (harness and cold-cache boot the port), beside the
# next kernels' builds and the VM lanes; without VM suites, right away.
run_host_suites() {
	local s t k image
	for s in "${host_suites[@]+"${host_suites[@]}"}"; do
		step "suite $s (host)"
		case "$s" in
		unit)
			export HID_POLICY_SRCDIR=$repo HID_POLICY_BUILDDIR=$build
			for t in "$build"/tests/unit/test-* tests/unit/*.sh; do
				[ -x "$t" ] && [ -f "$t" ] || continue
				run "$t" || true
			done ;;
		harness)
			run tests/harness/run.sh || true ;;
		cold-cache)
			# builds only: under nice, as the kernels' builds
			run nice -n 10 tests/cold-cache/run.sh "$build" || true ;;
		package)
			if run tests/package/run.sh "$build"; then
				for k in "${kernels[@]}"; do
					# port-debug's guest alone takes 19 min
					# (KASAN under TCG): on request only
					[[ "$k" != *-debug || $default_kernels = 0 ]] || continue
					image=$(package_kernel "$k")
					[ -n "$image" ] || { fail_line "$k/debian/setup/kernel-build"; continue; }
					step "Debian root on $k"
					run tests/package/vm.sh "$build" "$k" "$image" || true
				done
			fi
			# The RPM spec, built here and compared with the .debs above.
			run tests/package/rpm.sh "$build" || true ;;
		esac
	done
}
# The image of kernel K for the package suite's guests: the one the VM
# suites' preparation built (waited for, so that it is built once and
# under nice), or kernel/build's own when no VM suite runs.
package_kernel() {
	local k=$1
	if [ ${#vm_suites[@]} -gt 0 ]; then
		while [ ! -f "$run_log.prep-$k" ] && prep_running; do
			sleep 2
		done
		[ -f "$run_log.prep-$k" ] && head -n1 "$run_log.prep-$k"
		return 0
	fi
	nice -n 10 kernel/build --kernel "$k" | sed -n 's/^KERNEL_IMAGE=//p'
}

# Whether the kernels' preparation (below) still runs. Its pid alone
# cannot tell: pid_max is 32768 and kernel builds fork tens of thousands
# of processes, so by the time it is asked a finished preparation's pid
# may be another process's, and a wait for its file would never end. The
# pid with the start time it had (clock ticks after boot, field 22 of
# /proc/PID/stat) is that process only; a zombie has ended.
prep_pid= prep_start=
prep_start_time() {
	local stat
	stat=$(cat "/proc/$prep_pid/stat" 2>/dev/null) || return 0
	read -ra stat <<< "${stat##*) }"	# from field 3, after the name
	[ "${stat[0]}" = Z ] || echo "${stat[19]}"
}
prep_running() {
	[ -n "$prep_pid" ] && [ -n "$prep_start" ] && [ "$(prep_start_time)" = "$prep_start" ]
}

host_pid=
start_host_suites() {
	[ ${#host_suites[@]} -gt 0 ] && [ -z "$host_pid" ] || return 0
	: > "$log.host"
	( log=$log.host; run_host_suites ) &
	host_pid=$!
}

# One kernel: build it (or take it from the cache) and the suites' host
# parts against it. Run one kernel at a time: kernel/build and the suites'
# build.sh write to the cache. What it made goes to $log.prep-K, written
# whole when it is done: the image, the build directory of the suites'
# host parts, the suites that built (all three empty: nothing to run).
prepare_vm_suites() {
	local k=$1
	local -A vm_image=() vm_kbuild=() vm_suites_ok=()
	prepare_kernel "$k"
	printf '%s\n' "${vm_image[$k]:-}" "${vm_kbuild[$k]:-}" "${vm_suites_ok[$k]:-}" > "$log.prep-$k.tmp"
	mv "$log.prep-$k.tmp" "$log.prep-$k"
}

prepare_kernel() {
	local k=$1 kernel_out image kbuild s cpu_now cpu_start build_start
	local suites=() suites_ok=()

	# port-debug by default: only debug_suites
	for s in "${vm_suites[@]}"; do
		if [ $default_kernels -eq 1 ] && [[ "$k" == *-debug ]] &&
		   [[ " ${debug_suites[*]} " != *" $s "* ]]; then
			continue
		fi
		suites+=("$s")
	done
	[ ${#suites[@]} -gt 0 ] || return

	step "test kernel $k"
	kernel_out=$(kernel/build --kernel "$k") || { fail_line "$k/setup/kernel-build"; return; }
	echo "$kernel_out" >&2
	image=$(sed -n 's/^KERNEL_IMAGE=//p' <<< "$kernel_out")
	# What a suite builds against a kernel (vmlinux.h, BPF objects) lives
	# in a build directory of that kernel's own.
	kbuild=$build/kernel-$k
	for s in "${suites[@]}"; do
		if [ -x "tests/$s/build.sh" ]; then
			step "host build for suite $s ($k)"
			children_cpu
			cpu_start=$cpu_now
			build_start=$SECONDS
			if ! run "tests/$s/build.sh" "$build" "$(dirname "$image")" "$kbuild"; then
				fail_line "$k/$s/build"
				continue
			fi
			children_cpu
			step "host build for suite $s ($k) took $((SECONDS - build_start)) s, $((cpu_now - cpu_start)) CPU-s"
		fi
		suites_ok+=("$s")
	done
	[ ${#suites_ok[@]} -gt 0 ] || return
	vm_image[$k]=$image
	vm_kbuild[$k]=$kbuild
	vm_suites_ok[$k]=${suites_ok[*]}
}

# One boot of kernel K running SUITES (tests/run-in-vm.sh's arguments); the
# boot's own results are named K/LABEL/...; OPTIONS: more scripts/vm.sh
# options (split on blanks).
boot_suites() {
	local k=$1 image=$2 kbuild=$3 label=$4 options=$5 st failed_before
	local timeout=${HID_POLICY_VM_TIMEOUT:-3600} slow=1 start=$SECONDS
	local cpu_now cpu_start
	children_cpu
	cpu_start=$cpu_now
	shift 5
	# the debug kernels run several times slower: so may the VM, and the
	# tests wait that much longer for what must happen (a daemon's start)
	[[ "$k" != *-debug ]] || { timeout=$((timeout * 3)); slow=3; }
	# more guests than cores: each may wait for a core as long again
	slow=$((slow * slow_lanes))
	# ...and a second virtual CPU mostly waits for the one the host has
	# descheduled (4 guests on 2 cores, e2e's test-firewall on the port:
	# 101.5 CPU-s a guest with two, 79.4 with one). So each boot gets one,
	# except the boots whose tests race (their vm-boots line asks for
	# two) and the -debug kernels, whose lockdep wants locks taken on two
	# CPUs at once.
	if [ "$lanes" -gt "$cores" ] && [[ "$k" != *-debug ]] && [[ " $options " != *" --smp "* ]]; then
		options="--smp 1${options:+ $options}"
	fi
	step "VM suites on $k ($label): $* ${options:+(vm.sh $options)}"
	failed_before=$(grep -c '^FAIL: ' "$log")
	# The tests know a kernel by its base name (port_extension_* tests).
	# shellcheck disable=SC2086
	scripts/vm.sh --kernel "$image" --timeout "$timeout" $options \
		-- env HID_POLICY_KERNEL_NAME="${k%-debug}" HID_POLICY_KERNEL_BUILDDIR="$kbuild" \
		HID_POLICY_SLOW_FACTOR="$slow" \
		tests/run-in-vm.sh "$build" "$@" 2>&1 |
		sed -u -E "s#^(PASS|FAIL|SKIP): #\1: $k/#" | tee -a "$log"
	st=${PIPESTATUS[0]}
	# 124..126: the VM itself failed (timeout, crash, kernel warning).
	if [ $st -ge 124 ] && [ $st -le 126 ]; then
		fail_line "$k/$label/guest_finished_with_a_clean_kernel_log (vm.sh exit $st)"
	else
		echo "PASS: $k/$label/guest_finished_with_a_clean_kernel_log" | tee -a "$log"
		if [ $st -ne 0 ] && [ "$(grep -c '^FAIL: ' "$log")" -eq "$failed_before" ]; then
			fail_line "$k/$label/suites_exited_with_status_${st}_without_naming_a_failure"
		fi
	fi
	children_cpu
	step "boot $k/$label took $((SECONDS - start)) s, $((cpu_now - cpu_start)) CPU-s"
}

# The boots run side by side, HID_POLICY_VM_LANES at a time (default: twice
# the cores): a guest mostly waits (TCG, the verifier, udev, timers) and
# keeps well under one host core busy (with one lane per core the host was
# 71 to 93% idle), and the tests' waits grow with the guests per core
# (slow_lanes above). Each kernel's suites are spread over several
# boots (scripts/vm-boots: e2e in two, the other plain suites in one, each
# suite with vm-options in its own), so that no kernel's work is one long
# chain and the last kernel built leaves a short tail. A kernel's boots
# are queued as soon as it is built, while the next kernel builds (one at
# a time, in the order of kernels, under nice so that the guests keep the
# cores); a free lane takes the longest boot queued (the first of each
# kernel's list, then the second...), the kernels in their order. The
# host suites start with the first kernel's boots. Each boot keeps its own
# log; they are counted in the kernels' order, then the boots'.
if [ ${#vm_suites[@]} -gt 0 ]; then
	(
		renice -n 10 -p "$BASHPID" >/dev/null
		for k in "${kernels[@]}"; do
			prepare_vm_suites "$k"
		done
	) &
	prep_pid=$!
	prep_start=$(prep_start_time)
	pending=("${kernels[@]}")
	declare -A boot_line=() boot_pid=() kernel_index=()
	for i in "${!kernels[@]}"; do
		kernel_index[${kernels[$i]}]=$i
	done
	queued=()	# "K N": boot N of kernel K, waiting for a lane
	while [ ${#pending[@]} -gt 0 ] || [ ${#queued[@]} -gt 0 ]; do
		# Whether the kernels are still being prepared, asked before
		# their files are looked at: once that has ended, a kernel
		# without its file gets none.
		prep_alive=0
		prep_running && prep_alive=1
		left=()
		for k in ${pending[@]+"${pending[@]}"}; do
			if [ ! -f "$log.prep-$k" ]; then
				if [ $prep_alive -eq 1 ]; then
					left+=("$k")
				else
					fail_line "$k/setup/prepared"
				fi
				continue
			fi
			start_host_suites
			mapfile -t prep < "$log.prep-$k"
			[ -n "${prep[0]:-}" ] || continue
			read -ra suites_ok <<< "${prep[2]:-}"
			mapfile -t plan < <(scripts/vm-boots "${suites_ok[@]}")
			boot_count[$k]=${#plan[@]}
			for n in "${!plan[@]}"; do
				boot_line[$k $n]="${prep[0]}|${prep[1]}|${plan[$n]}"
				queued+=("$k $n")
			done
		done
		pending=(${left[@]+"${left[@]}"})
		running=0
		for b in "${!boot_pid[@]}"; do
			kill -0 "${boot_pid[$b]}" 2>/dev/null && running=$((running + 1))
		done
		while [ "$running" -lt "$lanes" ] && [ ${#queued[@]} -gt 0 ]; do
			best=0
			for i in "${!queued[@]}"; do
				read -r k n <<< "${queued[$i]}"
				read -r bk bn <<< "${queued[$best]}"
				if [ "$n" -lt "$bn" ] || { [ "$n" -eq "$bn" ] &&
				   [ "${kernel_index[$k]}" -lt "${kernel_index[$bk]}" ]; }; then
					best=$i
				fi
			done
			b=${queued[$best]}
			unset "queued[$best]"
			queued=(${queued[@]+"${queued[@]}"})
			IFS='|' read -r image kbuild label options suites <<< "${boot_line[$b]}"
			read -ra suites <<< "$suites"
			: > "$log.boot-${b/ /-}"
			( log=$log.boot-${b/ /-}
			  boot_suites "${b% *}" "$image" "$kbuild" "$label" "$options" "${suites[@]}" ) &
			boot_pid[$b]=$!
			running=$((running + 1))
		done
		[ ${#pending[@]} -eq 0 ] && [ ${#queued[@]} -eq 0 ] || sleep 2
	done
fi
start_host_suites
# The preparation, every boot and the host suites, with one wait: bash
# forgets the status of a background child that ended once a new process
# reuses its pid (pid_max 32768, and a kernel build forks tens of
# thousands: "wait: pid N is not a child of this shell" for a port boot
# at the end of a run). The results are counted from the logs.
wait
boot_logs=()
for k in "${kernels[@]}"; do
	for ((n = 0; n < ${boot_count[$k]:-0}; n++)); do
		boot_logs+=("boot-$k-$n")
	done
done
for f in host ${boot_logs[@]+"${boot_logs[@]}"}; do
	[ -f "$log.$f" ] || continue
	cat "$log.$f" >> "$log"
	rm -f "$log.$f"
done

passed=$(grep -c '^PASS: ' "$log")
failed=$(grep -c '^FAIL: ' "$log")
skipped=$(grep -c '^SKIP: ' "$log")
if [ "$failed" -gt 0 ]; then
	echo
	echo "Failed:"
	grep '^FAIL: ' "$log" | sed 's/^FAIL: /  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
