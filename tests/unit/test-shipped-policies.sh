#!/bin/bash
# The shipped rule sets (policies/): hid-policyd --check --strict accepts them with
# no warning at all, the build installs every one of them, and output
# reports sent as SET_REPORT meet the same rules as written ones.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${HID_POLICY_BUILDDIR:-$repo/build}
policyd=$build/policyd/hid-policyd
suite=shipped-policies
failed=0

pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }

if [ ! -x "$policyd" ]; then
	echo "    $policyd is missing: build first"
	fail built
	exit 1
fi

# Every line hid-policyd prints, whatever the stream; the exit status apart.
out=$("$policyd" --check --strict --config-dir "$repo/policies" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	pass check_accepts_the_shipped_policies
else
	sed 's/^/    | /' <<<"$out"
	fail check_accepts_the_shipped_policies
fi

# A warning line ("FILE: PATH: warning: ...") or a summary counting any.
warnings=$(grep -E ': warning: ' <<<"$out")
summary=$(grep -E '^policy (OK|rejected): ' <<<"$out")
if [ -z "$warnings" ] && grep -qE ', 0 warnings$' <<<"$summary"; then
	pass check_reports_no_warning
else
	sed 's/^/    | /' <<<"$out"
	fail check_reports_no_warning
fi

# Every rule file must be read: the summary counts the files it loaded.
shipped=()
for f in "$repo"/policies/*.json; do
	name=${f##*/}
	[ "$name" = schema.json ] && continue
	shipped+=("$name")
done
if grep -qE "^policy OK: ${#shipped[@]} files?," <<<"$summary"; then
	pass check_reads_every_rule_file
else
	echo "    ${#shipped[@]} rule files in policies/; hid-policyd said: $summary"
	fail check_reads_every_rule_file
fi

# The install list is written out by hand in policyd/meson.build: ask meson
# what it installs and look for each file under policies.d.
if ! installed=$(meson introspect --installed "$build" 2>&1); then
	sed 's/^/    | /' <<<"$installed"
	fail build_installs_every_rule_file
else
	missing=()
	for name in "${shipped[@]}"; do
		grep -qE "\"[^\"]*/policies/$name\": \"[^\"]*/hid-policy/policies\.d/$name\"" <<<"$installed" ||
			missing+=("$name")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass build_installs_every_rule_file
	else
		echo "    not installed to hid-policy/policies.d: ${missing[*]} (policyd/meson.build)"
		fail build_installs_every_rule_file
	fi
fi

# Drivers send output reports as SET_REPORT too (hid-logitech-dj does),
# a path uhid replicas cannot take: ask the engine what the shipped rules
# decide for it. explain_case NAME EXPECTED_RESULT_LINE -- ARGS...
explain_case() {
	local name=$1 want=$2 out
	shift 3
	out=$("$policyd" --explain --config-dir "$repo/policies" "$@" 2>&1)
	if grep -qxF -- "$want" <<<"$out"; then
		pass "$name"
	else
		sed 's/^/    | /' <<<"$out"
		echo "    expected the line: $want"
		fail "$name"
	fi
}
refused="result: refused with -EPERM, logged"
explain_case switch_spi_flash_write_refused_as_set_report_output "$refused" -- \
	--device bluetooth:057e:2009 --request set_report --report output --id 0x01 \
	--payload "01 00 00 00 00 00 00 00 00 00 11 00 60"
explain_case switch_firmware_packet_refused_as_set_report_output "$refused" -- \
	--device usb:057e:2006 --request set_report --report output --id 0x03 --payload "03 00"
explain_case unifying_dfu_refused_as_set_report_output "$refused" -- \
	--device usb:046d:c52b --request set_report --report output --id 0x10 \
	--payload "10 ff 80 f0 49 43 50"
explain_case bolt_dfu_refused_as_set_report_output "$refused" -- \
	--device usb:046d:c548 --request set_report --report output --id 0x11 \
	--payload "11 ff 82 f5 01 00 00 00 50 52 45"
# hid-logitech-dj logi_dj_recv_switch_to_dj_mode: the DJ mode switch, then
# a write of HID++ register 0x00 (notifications), both as SET_REPORT.
explain_case unifying_dj_mode_switch_allowed_as_set_report_output "result: allowed" -- \
	--device usb:046d:c52b --request set_report --report output --id 0x20 \
	--payload "20 ff 80 3f 00"
explain_case unifying_notifications_register_allowed_as_set_report_output "result: allowed" -- \
	--device usb:046d:c52b --request set_report --report output --id 0x10 \
	--payload "10 ff 80 00 00 09 00"
explain_case bolt_notifications_register_allowed_as_set_report_output "result: allowed" -- \
	--device usb:046d:c548 --request set_report --report output --id 0x10 \
	--payload "10 ff 80 00 00 09 00"
# nRF Desktop's configuration channel through its output report 0x07.
explain_case nordic_config_set_refused_as_set_report_output "$refused" -- \
	--device bluetooth:1915:52de --request set_report --report output --id 0x07 \
	--payload "07 00 41 06 04"
explain_case nordic_config_fetch_refused_as_set_report_output "$refused" -- \
	--device bluetooth:1915:52de --request set_report --report output --id 0x07 \
	--payload "07 00 53 07"
# PixArt's first update protocol: commands in output report 0x06.
explain_case pixart_output_ota_init_refused_as_set_report_output "$refused" -- \
	--device bluetooth:093a:2800 --request set_report --report output --id 0x06 --payload "06 10"

[ $failed -eq 0 ]
