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

# scripts/vm-boots spreads a kernel's suites over boots: every e2e program
# runs in exactly one of them, one no line of tests/e2e/vm-boots names (a
# program added later) included, and every other suite in exactly one boot,
# each boot with a label of its own; the races run on two virtual CPUs.
check_every_program_runs_in_exactly_one_boot() {
	local build ran=() plan line label options suites p want=() detail='' st=0
	build=$(mktemp -d)
	mkdir -p "$build/tests/e2e"
	for p in tests/e2e/test-*.c test-added-later.c; do
		p=${p##*/}
		p=${p%.c}
		want+=("$p")
		printf '#!/bin/sh\necho "PASS: e2e/%s"\n' "$p" > "$build/tests/e2e/$p"
		chmod +x "$build/tests/e2e/$p"
	done
	mapfile -t plan < <(scripts/vm-boots e2e)
	for line in "${plan[@]}"; do
		IFS='|' read -r label options suites <<< "$line"
		# shellcheck disable=SC2086
		mapfile -t -O ${#ran[@]} ran < <(tests/run-in-vm.sh "$build" $suites | sed -n 's/^PASS: e2e\///p')
	done
	rm -rf "$build"
	for p in "${want[@]}"; do
		[ "$(printf '%s\n' "${ran[@]}" | grep -cx -- "$p")" -eq 1 ] || detail+="$p ran $(printf '%s\n' "${ran[@]}" | grep -cx -- "$p") times; "
	done
	[ ${#plan[@]} -ge 2 ] && [ ${#ran[@]} -eq ${#want[@]} ] && [ -z "$detail" ] || st=1
	result every_e2e_program_runs_in_exactly_one_boot_one_added_later_too $st \
		"${#plan[@]} boots, ${#ran[@]} runs of ${#want[@]} programs: $detail"
}

check_every_suite_is_in_one_boot_of_its_own_label() {
	local all=(smoke kernel hid-selftests e2e policies vendor service audit-trail demo)
	local plan line label options suites s n labels=() detail='' st=0
	mapfile -t plan < <(scripts/vm-boots "${all[@]}")
	for line in "${plan[@]}"; do
		IFS='|' read -r label options suites <<< "$line"
		labels+=("$label")
	done
	for s in "${all[@]}"; do
		# e2e's parts name it with a colon
		n=$(printf '%s\n' "${plan[@]}" | cut -d'|' -f3 | tr ' ' '\n' | grep -cE "^$s(:|$)")
		[ "$s" = e2e ] && [ "$n" -ge 2 ] && continue
		[ "$n" -eq 1 ] || detail+="$s in $n boots; "
	done
	[ "$(printf '%s\n' "${labels[@]}" | sort -u | wc -l)" -eq ${#plan[@]} ] || detail+="labels repeat: ${labels[*]}; "
	grep -q '^vm/service|--systemd|service$' <<< "$(printf '%s\n' "${plan[@]}")" || detail+="no boot of service's own with --systemd; "
	# scripts/test.sh gives a boot one virtual CPU unless it asks for more
	grep -qE '^vm/e2e-[0-9]+\|--smp 2\|e2e:([^|]*,)?test-race(,|$)' <<< "$(printf '%s\n' "${plan[@]}")" ||
		detail+="the boot of test-race does not ask for two virtual CPUs; "
	[ -z "$detail" ] || st=1
	result every_vm_suite_runs_in_one_boot_and_boots_are_named_apart $st "$detail"
}

check_a_program_named_but_gone_fails() {
	local build out st
	build=$(mktemp -d)
	mkdir -p "$build/tests/e2e"
	printf '#!/bin/sh\necho "PASS: e2e/test-a"\n' > "$build/tests/e2e/test-a"
	chmod +x "$build/tests/e2e/test-a"
	out=$(tests/run-in-vm.sh "$build" e2e:test-a,test-gone 2>&1); st=$?
	rm -rf "$build"
	[ $st -ne 0 ] && grep -q '^FAIL: e2e/test-gone ' <<< "$out" && grep -q '^PASS: e2e/test-a$' <<< "$out"
	result a_program_a_boot_names_but_the_build_lacks_fails $? \
		"exit $st, output: $(sed 's/^/      /' <<< "$out")"
}

# A boot that does not finish fails under its own name: each of e2e's
# boots on the port, cut short by a 3 s limit.
check_a_failing_boot_is_named() {
	local out st
	out=$(HID_POLICY_VM_TIMEOUT=3 HID_POLICY_VM_LANES=1 scripts/test.sh --kernel port e2e 2>&1); st=$?
	[ $st -ne 0 ] &&
		grep -q '^FAIL: port/vm/e2e-1/guest_finished_with_a_clean_kernel_log (vm.sh exit 124)$' <<< "$out" &&
		grep -q '^FAIL: port/vm/e2e-2/guest_finished_with_a_clean_kernel_log (vm.sh exit 124)$' <<< "$out" &&
		grep -qx '0 passed, 2 failed, 0 skipped' <<< "$out"
	result a_boot_cut_short_fails_under_its_own_name $? \
		"exit $st, output: $(grep -E '^(FAIL|PASS):|passed' <<< "$out" | sed 's/^/      /')"
}

check_every_program_runs_in_exactly_one_boot
check_every_suite_is_in_one_boot_of_its_own_label
check_a_program_named_but_gone_fails
check_a_failing_boot_is_named
check_warning_in_log_is_flagged
check_guest_exit_status_is_returned
check_systemd_boot_runs_cmd_as_a_service
check_kernel_is_6_1
check_panic_fails_the_run
check_hanging_guest_is_killed
exit $failed
