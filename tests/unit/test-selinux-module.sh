#!/bin/bash
# The SELinux module in selinux/ builds with Debian's refpolicy devel
# Makefile, and the compiled module (turned back into CIL) holds the rules
# the daemon needs and no more capabilities than it documents; its file
# contexts cover the paths the daemon uses; the bpffs genfscon compiles;
# the interfaces compile when another module calls them.
set -uo pipefail

repo=${HID_POLICY_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
suite=selinux
devel_makefile=/usr/share/selinux/devel/Makefile
pp2cil=/usr/libexec/selinux/hll/pp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

pass() { echo "PASS: $suite/$1"; }
fail() { echo "FAIL: $suite/$1"; failed=$((failed + 1)); }
skip() { echo "SKIP: $suite/$1 ($2)"; }
# check NAME: FAIL with the reasons collected in $why, PASS when none.
why=()
check() {
	if [ ${#why[@]} -eq 0 ]; then
		pass "$1"
	else
		printf '    %s\n' "${why[@]}"
		fail "$1"
	fi
	why=()
}

# perms SRC TGT CLASS: every permission of CLASS that allow rules in the
# module's CIL give SRC on TGT, one per line.
perms() {
	awk -v head="(allow $1 $2 ($3 (" '
		{ sub(/^[ \t]+/, "") }
		index($0, head) == 1 {
			rest = substr($0, length(head) + 1)
			sub(/\).*/, "", rest)
			n = split(rest, p, " ")
			for (i = 1; i <= n; i++) print p[i]
		}' "$cil" | sort -u
}
# need SRC TGT CLASS PERM...: record each PERM missing from perms().
need() {
	local src=$1 tgt=$2 class=$3 have p
	shift 3
	have=$(perms "$src" "$tgt" "$class")
	for p in "$@"; do
		grep -qxF "$p" <<<"$have" || why+=("no allow $src $tgt:$class $p")
	done
}
# has LINE: record LINE missing from the module's CIL.
has() {
	grep -qF -- "$1" "$cil" || why+=("missing: $1")
}

if [ ! -f "$devel_makefile" ]; then
	skip module_builds_with_refpolicy_devel_makefile "selinux-policy-dev is not installed"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# --- build, from a copy: the source tree gets no build products --------
cp -r "$repo/selinux" "$tmp/src"
rm -rf "$tmp/src/tmp" "$tmp"/src/*.pp
if make -C "$tmp/src" -f "$devel_makefile" hid_policyd.pp >"$tmp/build.log" 2>&1 &&
   [ -s "$tmp/src/hid_policyd.pp" ]; then
	pass module_builds_with_refpolicy_devel_makefile
else
	sed 's/^/    | /' "$tmp/build.log"
	fail module_builds_with_refpolicy_devel_makefile
	echo "    (nothing more to check without the module)" >&2
	exit 1
fi

# --- rules, read back from the compiled module ---------------------------
cil=$tmp/hid_policyd.cil
if [ ! -x "$pp2cil" ] || ! "$pp2cil" "$tmp/src/hid_policyd.pp" "$cil" 2>"$tmp/pp.log"; then
	[ -s "$tmp/pp.log" ] && sed 's/^/    | /' "$tmp/pp.log"
	for n in daemon_domain_entered_from_init bpf_permissions \
		 capabilities_are_the_documented_ones uevent_netlink_socket \
		 bpffs_state_directory_private_type runtime_log_and_config \
		 polkit_over_the_system_bus proc_exe_without_ptrace name_service_lookups journal_stream_getpeername \
		 sysfs_written_only_where_uevent_needs_it \
		 udev_runs_wait_decided_in_its_own_domain; do
		skip "$n" "no $pp2cil to read the module back"
	done
else
	for t in hid_policyd_t hid_policyd_exec_t hid_policyd_conf_t hid_policyd_log_t \
		 hid_policyd_runtime_t hid_policyd_bpf_t hid_policyd_unit_t; do
		has "(type $t)"
	done
	need hid_policyd_t hid_policyd_exec_t file entrypoint
	has "(typetransition init_t hid_policyd_exec_t process hid_policyd_t)"
	check daemon_domain_entered_from_init

	need hid_policyd_t self bpf map_create map_read map_write prog_load prog_run
	check bpf_permissions

	# Exactly the set hid-policyd.service and sandbox.c keep or use
	# (audit_write: --linux-audit).
	got=$(perms hid_policyd_t self capability | tr '\n' ' ')
	[ "$got" = "audit_write setpcap " ] || why+=("capability: '$got', expected 'audit_write setpcap '")
	need hid_policyd_t self netlink_audit_socket create write nlmsg_relay
	got=$(perms hid_policyd_t self capability2 | tr '\n' ' ')
	[ "$got" = "bpf perfmon " ] || why+=("capability2: '$got', expected 'bpf perfmon '")
	need hid_policyd_t self process setcap
	check capabilities_are_the_documented_ones

	need hid_policyd_t self netlink_kobject_uevent_socket create bind read getattr setopt
	check uevent_netlink_socket

	has '(typetransition hid_policyd_t bpf_t dir "hid-policy" hid_policyd_bpf_t)'
	need hid_policyd_t bpf_t dir search add_name remove_name
	need hid_policyd_t bpf_t filesystem getattr
	need hid_policyd_bpf_t bpf_t filesystem associate
	need hid_policyd_t hid_policyd_bpf_t dir create rmdir add_name remove_name
	need hid_policyd_t hid_policyd_bpf_t file create open read write unlink
	check bpffs_state_directory_private_type

	has '(typetransition hid_policyd_t var_run_t dir "hid-policy" hid_policyd_runtime_t)'
	need hid_policyd_t hid_policyd_runtime_t file create write rename unlink
	# control.c: the runtime directory's mode (fchmod), the control
	# socket replaced (lstat, unlink), bound and chmod'ed to 0666
	need hid_policyd_t hid_policyd_runtime_t dir open read getattr setattr add_name remove_name
	need hid_policyd_t hid_policyd_runtime_t sock_file create getattr setattr unlink
	need hid_policyd_t self unix_stream_socket create bind listen accept getopt
	has '(typetransition hid_policyd_t var_log_t dir "hid-policy" hid_policyd_log_t)'
	need hid_policyd_t hid_policyd_log_t file create append open
	# "hid-policyctl log" reads it; a looser mode is set back to 0600
	need hid_policyd_t hid_policyd_log_t file read getattr setattr
	got=$(perms hid_policyd_t hid_policyd_log_t file)
	grep -qxE 'write|unlink' <<<"$got" && why+=("the audit log may be overwritten or removed, not only appended to")
	need hid_policyd_t hid_policyd_conf_t file read open
	got=$(perms hid_policyd_t hid_policyd_conf_t file)
	grep -qxE 'write|append|create|unlink' <<<"$got" && why+=("rule sets are writable by the daemon")
	need hid_policyd_t sysfs_t file read open
	check runtime_log_and_config

	# The control socket's polkit checks: the system bus's socket, and
	# messages to and from the bus and polkitd.
	need hid_policyd_t system_dbusd_runtime_t sock_file write
	need hid_policyd_t system_dbusd_t unix_stream_socket connectto
	need hid_policyd_t system_dbusd_t dbus send_msg
	need system_dbusd_t hid_policyd_t dbus send_msg
	need hid_policyd_t policykit_t dbus send_msg
	need policykit_t hid_policyd_t dbus send_msg
	check polkit_over_the_system_bus

	need hid_policyd_t domain lnk_file read
	need hid_policyd_t domain file read
	grep -E '^\s*\(allow hid_policyd_t [a-z_]+ \(process \(' "$cil" | grep -qw ptrace &&
		why+=("hid_policyd_t may ptrace")
	[ -n "$(perms hid_policyd_t self cap_userns)" ] && why+=("cap_userns allowed")
	check proc_exe_without_ptrace

	# User and group names (policy senders, control requests) through
	# the name service: the nsswitch_domain attribute, whose base-policy
	# rules read /etc/passwd and /etc/group and reach nscd, sssd and
	# systemd-userdbd. Before, the daemon could only search /etc.
	grep -Eq '^\s*\(typeattributeset nsswitch_domain \((.* )?hid_policyd_t( .*)?\)\)' "$cil" ||
		why+=("hid_policyd_t is not an nsswitch_domain (auth_use_nsswitch)")
	check name_service_lookups

	# GLib's log writer asks whether stderr is the journal's stream
	# (getpeername: getattr on the socket, which PID 1 made and passed).
	need hid_policyd_t init_t unix_stream_socket getattr
	check journal_stream_getpeername

	# sysfs: read, and write alone on files, for the uevent files of
	# hidraw and hiddev nodes (hid-policyd --announce-queued). Nothing
	# more: not dev_rw_sysfs (which adds append and is meant for
	# modifying hardware state), no directory or link writes.
	need hid_policyd_t sysfs_t file read open write
	got=$(perms hid_policyd_t sysfs_t file | tr '\n' ' ')
	[ "$got" = "getattr ioctl lock open read write " ] ||
		why+=("sysfs_t file: '$got', expected 'getattr ioctl lock open read write '")
	got=$(perms hid_policyd_t sysfs_t dir)
	grep -qxE 'write|add_name|remove_name|create|rmdir|setattr|reparent|rename' <<<"$got" &&
		why+=("sysfs_t directories are writable: $(tr '\n' ' ' <<<"$got")")
	got=$(perms hid_policyd_t sysfs_t lnk_file)
	grep -qxE 'write|append|create|unlink|setattr|rename' <<<"$got" &&
		why+=("sysfs_t links are writable: $(tr '\n' ' ' <<<"$got")")
	grep -nE '^[^#]*\<dev_(rw_sysfs|write_sysfs|manage_sysfs_dirs|create_sysfs_files|setattr_all_sysfs|write_sysfs_dirs)\>' \
		"$repo/selinux/hid_policyd.te" >"$tmp/sysfs-if" &&
		why+=("hid_policyd.te uses a broad sysfs interface: $(tr '\n' ' ' <"$tmp/sysfs-if")")
	check sysfs_written_only_where_uevent_needs_it

	need udev_t hid_policyd_exec_t file execute execute_no_trans
	need udev_t hid_policyd_runtime_t dir search getattr
	need udev_t hid_policyd_runtime_t file read open
	grep -q 'typetransition udev_t hid_policyd_exec_t process' "$cil" &&
		why+=("udev_t transitions on hid-policyd: the module says it must not")
	got=$(perms udev_t hid_policyd_runtime_t file)
	grep -qxE 'write|create|unlink' <<<"$got" && why+=("udev_t may change decisions")
	check udev_runs_wait_decided_in_its_own_domain
fi

# --- file contexts cover the paths the daemon uses -----------------------
# fc_type PATH: the type the module's file contexts give PATH (last match
# wins, as with setfiles for equal specificity; the .fc has no overlaps).
fc=$tmp/src/hid_policyd.fc
fc_type() {
	local path=$1 re type=
	while read -r re mid ctx; do
		case "$re" in ''|\#*) continue ;; esac
		[ -z "$ctx" ] && ctx=$mid
		if grep -qxE -- "$re" <<<"$path"; then
			type=$(sed -n 's/.*:object_r:\([a-z_0-9]*\),.*/\1/p' <<<"$ctx")
		fi
	done < <(sed 's/[[:space:]]\+/ /g' "$fc")
	echo "$type"
}
src_define() {
	sed -n "s/^#define[[:space:]]\+$1[[:space:]]\+\"\(.*\)\".*/\1/p" "$repo/$2"
}
admin_dir=$(src_define POLICY_ADMIN_DIR policyd/policy/policy.h)
vendor_dir=$(src_define POLICY_VENDOR_DIR policyd/policy/policy.h)
audit_log=$(src_define AUDIT_LOG_DEFAULT policyd/audit/audit.h)
runtime_dir=$(src_define RUNTIME_DIR_DEFAULT policyd/common/ctl_protocol.h)
saved_dir=$(src_define SAVED_POLICY_DIR_DEFAULT policyd/service/saved_policy.h)
pin_root=$(src_define HID_FW_PIN_ROOT bpf/hid_firewall.h)
for pair in "/usr/sbin/hid-policyd hid_policyd_exec_t" \
	    "/usr/bin/hid-policyd hid_policyd_exec_t" \
	    "/usr/local/sbin/hid-policyd hid_policyd_exec_t" \
	    "/usr/local/bin/hid-policyd hid_policyd_exec_t" \
	    "/usr/lib/systemd/system/hid-policyd.service hid_policyd_unit_t" \
	    "$admin_dir/10-local.json hid_policyd_conf_t" \
	    "$vendor_dir/50-default.json hid_policyd_conf_t" \
	    "$audit_log hid_policyd_log_t" \
	    "$saved_dir hid_policyd_var_lib_t" \
	    "$saved_dir/20-sony-dualsense.json hid_policyd_var_lib_t" \
	    "$(dirname "$audit_log") hid_policyd_log_t" \
	    "$runtime_dir hid_policyd_runtime_t" \
	    "$runtime_dir/devices/0003:054C:0CE6.0001 hid_policyd_runtime_t" \
	    "$runtime_dir/control hid_policyd_runtime_t"; do
	set -- $pair
	[ -n "$1" ] && [ "${1#/}" != "$1" ] || { why+=("a default path was not found in the sources: '$1'"); continue; }
	got=$(fc_type "$1")
	[ "$got" = "$2" ] || why+=("$1 is labelled '${got:-nothing}', expected $2")
done
# The udev rule and the unit name these paths too.
grep -qF "TEST!=\"$runtime_dir/devices\"" "$repo/policyd/data/60-hid-policy.rules" ||
	why+=("60-hid-policy.rules does not test $runtime_dir/devices")
check file_contexts_cover_the_daemon_paths

# --- the bpffs genfscon ---------------------------------------------------
gcil=$repo/selinux/hid_policyd_bpffs.cil
gpath=$(sed -n 's/^(genfscon bpf "\([^"]*\)".*/\1/p' "$gcil")
gtype=$(sed -n 's/^(genfscon bpf "[^"]*" (system_u object_r \([a-z_0-9]*\) .*/\1/p' "$gcil")
[ "/sys/fs/bpf$gpath" = "$pin_root" ] ||
	why+=("genfscon path '$gpath' is not the pin root '$pin_root' on /sys/fs/bpf")
[ -n "$gtype" ] && [ -f "${cil:-}" ] && ! grep -qxF "(type $gtype)" "$cil" &&
	why+=("genfscon names $gtype, which the module does not declare")
if command -v secilc >/dev/null; then
	# A minimal MLS policy declaring the type: enough for secilc to
	# resolve and compile the genfscon statement.
	cat >"$tmp/min.cil" <<-EOF
	(mls true)
	(handleunknown allow)
	(class file (read))
	(classorder (file))
	(sid kernel)
	(sidorder (kernel))
	(sensitivity s0)
	(sensitivityorder (s0))
	(category c0)
	(categoryorder (c0))
	(sensitivitycategory s0 (c0))
	(user system_u)
	(role object_r)
	(userrole system_u object_r)
	(userlevel system_u (s0))
	(userrange system_u ((s0) (s0)))
	(type kernel_t)
	(roletype object_r kernel_t)
	(type ${gtype:-hid_policyd_bpf_t})
	(roletype object_r ${gtype:-hid_policyd_bpf_t})
	(sidcontext kernel (system_u object_r kernel_t ((s0) (s0))))
	(allow kernel_t self (file (read)))
	EOF
	secilc -o "$tmp/min.bin" -f "$tmp/min.fc" "$tmp/min.cil" "$gcil" >"$tmp/secilc.log" 2>&1 ||
		why+=("secilc: $(tr '\n' ' ' <"$tmp/secilc.log")")
	check bpffs_genfscon_compiles
else
	skip bpffs_genfscon_compiles "secilc is not installed"
	why=()
fi

# --- the interfaces compile when another module calls them ---------------
cat >"$tmp/src/hid_policyd_iftest.te" <<'EOF'
policy_module(hid_policyd_iftest, 1.0.0)
gen_require(`
	type sysadm_t;
	role sysadm_r;
')
type hid_policyd_iftest_t;
domain_type(hid_policyd_iftest_t)
hid_policyd_admin(sysadm_t, sysadm_r)
hid_policyd_stream_connect(hid_policyd_iftest_t)
hid_policyd_read_log(hid_policyd_iftest_t)
hid_policyd_read_config(hid_policyd_iftest_t)
hid_policyd_exec_wait_decided(hid_policyd_iftest_t)
EOF
: >"$tmp/src/hid_policyd_iftest.fc"
: >"$tmp/src/hid_policyd_iftest.if"
if make -C "$tmp/src" -f "$devel_makefile" hid_policyd_iftest.pp >"$tmp/iftest.log" 2>&1 &&
   [ -s "$tmp/src/hid_policyd_iftest.pp" ]; then
	if [ -f "${cil:-}" ] && "$pp2cil" "$tmp/src/hid_policyd_iftest.pp" "$tmp/iftest.cil" 2>/dev/null; then
		cil=$tmp/iftest.cil
		has "(typetransition sysadm_t hid_policyd_exec_t process hid_policyd_t)"
		has "(roletype sysadm_r hid_policyd_t)"
		need sysadm_t hid_policyd_unit_t service start stop status reload
		need hid_policyd_iftest_t hid_policyd_t unix_stream_socket connectto
		need hid_policyd_iftest_t hid_policyd_runtime_t sock_file write
		need sysadm_t hid_policyd_t unix_stream_socket connectto
	fi
else
	why+=("build of a module calling the interfaces failed:")
	while read -r l; do why+=("| $l"); done <"$tmp/iftest.log"
fi
check interfaces_compile_for_admin_and_clients

[ "$failed" -eq 0 ]
