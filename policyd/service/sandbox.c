// SPDX-License-Identifier: GPL-2.0-or-later
#include "sandbox.h"

#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <linux/hidraw.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <cap-ng.h>
#include <seccomp.h>

#include "common/nrf_config.h"
#include "common/util.h"

/*
 * Everything the service does after start-up: the event loop (epoll,
 * signalfd, uevent netlink), hotplug attach and reload (bpf, reading sysfs,
 * bpffs and policy files, libbpf's mmap of maps), the audit log (write,
 * reopen, /proc/PID/exe), syslog and sd_notify sockets, the audit log's
 * outlets (journald's socket, the kernel's audit netlink socket), and
 * glibc's memory management.
 */
static const int allowed_syscalls[] = {
	/* files and directories */
	SCMP_SYS(read), SCMP_SYS(pread64), SCMP_SYS(readv), SCMP_SYS(write),
	SCMP_SYS(writev), SCMP_SYS(openat), SCMP_SYS(open), SCMP_SYS(close),
	SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(statx), SCMP_SYS(stat),
	SCMP_SYS(lstat), SCMP_SYS(statfs), SCMP_SYS(fstatfs), SCMP_SYS(lseek),
	SCMP_SYS(getdents64), SCMP_SYS(readlink), SCMP_SYS(readlinkat),
	SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(mkdir), SCMP_SYS(mkdirat),
	SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2),
	SCMP_SYS(rmdir), SCMP_SYS(access), SCMP_SYS(faccessat), SCMP_SYS(faccessat2),
	SCMP_SYS(fcntl), SCMP_SYS(dup), SCMP_SYS(dup3),
	/* the policy in force, kept at every reload (saved_policy.c) */
	SCMP_SYS(fsync),
	/* a policy file's POSIX ACL, at every reload (policy/trusted_file.c) */
	SCMP_SYS(getxattr), SCMP_SYS(fgetxattr),
	/* the journal outlet: an entry the socket refuses as too large, or
	 * for want of buffers, goes as a sealed memfd (sd_journal_sendv) */
	SCMP_SYS(memfd_create),
	/* memory */
	SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap),
	SCMP_SYS(mprotect), SCMP_SYS(madvise),
	/* event loop, signals, time */
	SCMP_SYS(epoll_wait), SCMP_SYS(epoll_pwait), SCMP_SYS(epoll_ctl),
	SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(rt_sigprocmask),
	SCMP_SYS(rt_sigreturn), SCMP_SYS(clock_gettime), SCMP_SYS(gettimeofday),
	SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep), SCMP_SYS(futex),
	SCMP_SYS(restart_syscall),
	/* sockets: uevents, syslog, sd_notify, control */
	SCMP_SYS(recvmsg), SCMP_SYS(recvfrom), SCMP_SYS(sendmsg), SCMP_SYS(sendto),
	SCMP_SYS(socket), SCMP_SYS(connect), SCMP_SYS(getsockopt),
	SCMP_SYS(setsockopt), SCMP_SYS(accept4), SCMP_SYS(shutdown),
	/* BPF */
	SCMP_SYS(bpf),
	/* control-socket authorization (authorize_polkit.c): the polkit
	 * worker's GLib main loop and D-Bus connection, which the worker
	 * (re)opens when polkit answers only after start-up, as at boot, where
	 * the daemon starts before D-Bus; GDBus then starts its I/O thread
	 * (clone: threads only, see below). Found with the authorization
	 * tests (tests/e2e/test-authorize.c) and the kernel's seccomp log. */
	SCMP_SYS(eventfd2), SCMP_SYS(rseq), SCMP_SYS(set_robust_list),
	/* libpolkit-gobject 124 and later (Debian 13) pins the control
	 * client it asks about with a pidfd (PolkitUnixProcess); a pidfd only
	 * names the process: pidfd_send_signal and pidfd_getfd stay off the
	 * list. Found by the package suite (tests/package/guest.sh) in
	 * Debian trixie, the daemon killed on its first reload. */
	SCMP_SYS(pidfd_open),
	/* GLib's default log writer asks whether stderr is the journal's
	 * socket (g_log_writer_is_journald: getpeername) before the first
	 * message it writes, as when the polkit worker is told that a control
	 * client went away while polkitd decided; libsystemd does the same
	 * for its own checks. It names only the peer of a socket the daemon
	 * holds. Found by the package suite in Debian trixie (GLib 2.84): the
	 * daemon was killed by its own filter. */
	SCMP_SYS(getpeername),
	/* The name service (control/name_lookup.c): for a name /etc has
	 * not, glibc asks nss-systemd (nsswitch.conf "files systemd", as
	 * Debian ships it), which seeds its hash tables from getrandom (and
	 * reads the bounding set, below). It only reads random bytes. Found
	 * by test-control in the VM and test-sandbox: any user naming an
	 * unknown user or group killed the daemon. */
	SCMP_SYS(getrandom),
	/* control socket: peers (SO_PEERCRED is getsockopt), expiry of
	 * temporary allows, the audit log's mode after a rotation */
	SCMP_SYS(timerfd_settime), SCMP_SYS(timerfd_gettime), SCMP_SYS(fchmod),
	/* the cgroups of the policy's units, watched again on reload */
	SCMP_SYS(inotify_add_watch), SCMP_SYS(inotify_rm_watch),
	/* process */
	SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getuid), SCMP_SYS(geteuid),
	SCMP_SYS(getgid), SCMP_SYS(getegid), SCMP_SYS(uname),
	SCMP_SYS(exit), SCMP_SYS(exit_group),
#ifdef __SANITIZE_ADDRESS__
	/* ASan builds only (-Db_sanitize=address): its runtime sets up and
	 * takes down a thread's alternate signal stack, and reads a new
	 * thread's attributes (pthread_getattr_np: sched_getaffinity). */
	SCMP_SYS(sigaltstack), SCMP_SYS(sched_getaffinity),
#endif
};

static void seccomp_releasep(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
}

int sandbox_install_seccomp(void)
{
	_cleanup_(seccomp_releasep) scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	int r;

	if (!ctx)
		return -ENOMEM;
	/* Every thread, not only the caller: the authorizer's polkit worker
	 * and GLib's D-Bus thread run from before the sandbox. No
	 * SCMP_FLTATR_CTL_LOG: the kernel logs every kill (audit record 1326)
	 * without it, and with it would also log the refused clone3 below,
	 * expected on every new thread. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ELEMENTSOF(allowed_syscalls); i++) {
		/* A syscall this architecture lacks resolves to a negative
		 * pseudo number: nothing to allow. */
		if (allowed_syscalls[i] < 0)
			continue;
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, allowed_syscalls[i], 0);
		if (r < 0)
			return r;
	}
	/* New threads, never new processes: clone only with CLONE_THREAD.
	 * clone3 passes its flags in memory, out of the filter's reach: it
	 * fails with ENOSYS, on which glibc falls back to clone. */
	r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
			     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
	if (r < 0)
		return r;
	r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (r < 0)
		return r;
	/* The nRF Desktop module learner's questions (hid/feature_exchange.c):
	 * a configuration-channel frame's SET_REPORT and GET_REPORT of
	 * feature 0x06, and no other ioctl; its answers come back through a
	 * socket pair made at each open of a node. */
	r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
			     SCMP_A1(SCMP_CMP_EQ, HIDIOCSFEATURE(NRF_CONFIG_REPORT_LEN)));
	if (r < 0)
		return r;
	r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
			     SCMP_A1(SCMP_CMP_EQ, HIDIOCGFEATURE(NRF_CONFIG_REPORT_LEN)));
	if (r < 0)
		return r;
	r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socketpair), 0);
	if (r < 0)
		return r;
	/* GLib names its threads; nss-systemd, loaded by the first lookup
	 * of a name /etc has not (control/name_lookup.c), reads the
	 * bounding set to learn the last capability (cap_last_cap()); no
	 * other prctl. */
	r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
			     SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME));
	if (r < 0)
		return r;
	r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
			     SCMP_A0(SCMP_CMP_EQ, PR_CAPBSET_READ));
	if (r < 0)
		return r;
	return seccomp_load(ctx);
}

int sandbox_drop_privileges(bool audit_write)
{
	capng_clear(CAPNG_SELECT_BOTH);
	if (capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED, CAP_BPF) < 0)
		return -EINVAL;
	if (audit_write &&
	    capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED,
			 CAP_AUDIT_WRITE) < 0)
		return -EINVAL;
	/* Bounding set first: dropping it needs CAP_SETPCAP, which the
	 * second call gives up. */
	if (capng_apply(CAPNG_SELECT_BOUNDS) < 0 || capng_apply(CAPNG_SELECT_CAPS) < 0)
		return -EPERM;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	return 0;
}

int sandbox_enter(bool audit_write)
{
	int r = sandbox_drop_privileges(audit_write);

	if (r < 0)
		return r;
	return sandbox_install_seccomp();
}
