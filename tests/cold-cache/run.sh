#!/bin/bash
# The build scripts' fallbacks for a machine with nothing cached, run against
# an empty cache directory (HID_POLICY_CACHE pointed at a new folder) for the
# steps that are cheap: unpacking what the selftests need from
# linux-source-6.12, its libbpf, the selftests' BPF object and program. A
# developer's and CI's caches are warm, so without this a fallback that
# only a new machine takes fails for new users alone (it did: libbpf's
# build needs scripts/bpf_doc.py, which the fallback did not unpack).
#
# Usage: tests/cold-cache/run.sh BUILD_DIR
# The kernel the objects are built against is the port (kernel/build, from
# the usual cache: the VM suites need it anyway). Prints PASS:/FAIL: lines.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build=${1:?usage: $0 BUILD_DIR}
failed=0

result() { # name, 0|1, detail file
	if [ "$2" -eq 0 ]; then
		echo "PASS: cold-cache/$1"
	else
		tail -n 20 "$3" | sed 's/^/    /'
		echo "FAIL: cold-cache/$1"
		failed=1
	fi
}

empty=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$empty" "$log"' EXIT

if ! image=$(kernel/build --kernel port 2>"$log" | sed -n 's/^KERNEL_IMAGE=//p') || [ -z "$image" ]; then
	result port_kernel_for_the_cold_builds 1 "$log"
	exit 1
fi

start=$SECONDS
HID_POLICY_CACHE=$empty tests/hid-selftests/build.sh "$build" "$(dirname "$image")" \
	"$empty/build" >"$log" 2>&1
st=$?
[ $st -eq 0 ] && [ -x "$empty/build/tests/hid-selftests/hid_bpf" ] &&
	[ -f "$empty/build/tests/hid-selftests/hid.bpf.o" ]
result hid_selftests_build_from_an_empty_cache $? "$log"
echo "cold-cache: hid-selftests build from an empty cache: exit $st, $((SECONDS - start)) s" >&2
# Nothing but the named folder was written: the cache stays where it was put.
[ -z "$(ls -A "$empty" | grep -vx build)" ] && [ -d "$empty/build/tests/hid-selftests/linux-$(dpkg-query -W -f='${Version}' linux-source-6.12)" ]
result hid_selftests_unpack_their_own_source_when_the_cache_has_none $? "$log"
exit $failed
