#!/bin/bash
# Tests of the VM harness itself (run on the host; they boot the VM).
# Each prints PASS:/FAIL: like every other suite.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
vm=scripts/vm.sh
failed=0

result() { # name, 0|1, detail
	if [ "$2" -eq 0 ]; then
		echo "PASS: harness/$1"
	else
		echo "    $3"
		echo "FAIL: harness/$1"
		failed=1
	fi
}

check_guest_exit_status_is_returned() {
	local out st
	out=$($vm -- sh -c 'echo hello-from-guest; exit 3' 2>&1); st=$?
	[ $st -eq 3 ] && grep -q hello-from-guest <<< "$out"
	result guest_exit_status_and_output_come_back $? "exit $st, output: $(tail -n 3 <<< "$out")"
}

check_kernel_is_6_1() {
	local out st
	out=$($vm -- uname -r 2>&1); st=$?
	[ $st -eq 0 ] && grep -qE '^6\.1\.[0-9]+' <<< "$out"
	result guest_runs_linux_6_1 $? "exit $st, output: $out"
}

check_panic_fails_the_run() {
	local out st
	out=$($vm --timeout 120 -- sh -c 'echo c > /proc/sysrq-trigger; sleep 5; exit 0' 2>&1); st=$?
	[ $st -ne 0 ] && grep -q 'Kernel panic' <<< "$out"
	result guest_kernel_panic_fails_the_run $? "exit $st, output: $(tail -n 5 <<< "$out")"
}

check_warning_in_log_is_flagged() {
	local dir st1 st2
	dir=$(mktemp -d)
	printf '[    1.0] hid-generic 0003:1234:5678.0001: hidraw0\n' > "$dir/clean.log"
	cp "$dir/clean.log" "$dir/bad.log"
	printf '[    2.0] WARNING: CPU: 0 PID: 1 at drivers/hid/hid-core.c:42 hid_foo+0x1/0x2\n' >> "$dir/bad.log"
	scripts/scan-kernel-log "$dir/clean.log" 2>/dev/null; st1=$?
	scripts/scan-kernel-log "$dir/bad.log" 2>/dev/null; st2=$?
	rm -rf "$dir"
	[ $st1 -eq 0 ] && [ $st2 -eq 1 ]
	result log_scanner_flags_a_warning_and_passes_a_clean_log $? "clean: $st1, with WARNING: $st2"
}

check_hanging_guest_is_killed() {
	local out st start
	start=$(date +%s)
	out=$($vm --timeout 20 -- sleep 1000 2>&1); st=$?
	[ $st -eq 124 ] && grep -q 'did not finish within 20 s' <<< "$out" &&
		[ $(( $(date +%s) - start )) -lt 120 ]
	result hanging_guest_is_killed_by_the_timeout $? "exit $st, output: $(tail -n 3 <<< "$out")"
}

# vm.sh --systemd: PID 1 is systemd, the services the service suite needs
# run before CMD, and CMD's output and status come back as without it.
check_systemd_boot_runs_cmd_as_a_service() {
	local out st
	out=$($vm --systemd --timeout 600 -- sh -c 'echo "pid1=$(cat /proc/1/comm)"
		systemctl is-active systemd-journald.service systemd-udevd.service dbus.service systemd-logind.service | tr "\n" " "; echo
		grep -o "hid-policy-vm-command.service" /proc/self/cgroup; exit 7' 2>&1); st=$?
	out=${out//$'\r'/}	# the serial line ends lines with \r\n
	[ $st -eq 7 ] && grep -qx 'pid1=systemd' <<< "$out" &&
		grep -qx 'active active active active ' <<< "$out" &&
		grep -qx 'hid-policy-vm-command.service' <<< "$out"
	result systemd_boot_runs_cmd_as_a_service_after_journald_udevd_dbus_logind $? \
		"exit $st, output: $(tail -n 5 <<< "$out")"
}

check_warning_in_log_is_flagged
check_guest_exit_status_is_returned
check_systemd_boot_runs_cmd_as_a_service
check_kernel_is_6_1
check_panic_fails_the_run
check_hanging_guest_is_killed
exit $failed
