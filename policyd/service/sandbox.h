/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's sandbox, entered once start-up is done: every capability but
 * the few the steady state needs is dropped (bounding set included),
 * no_new_privs is set, and a seccomp allow-list kills the process on any
 * other system call (the kill is logged by the kernel's audit/seccomp log).
 */
#pragma once

#include <stdbool.h>

/* The one capability kept, and why (see hid-policyd(8)): CAP_BPF, to
 * create the struct_ops map that attaches the firewall to a hotplugged
 * device and to update the rules map. Programs are loaded only at start-up
 * (CAP_BPF + CAP_PERFMON, struct_ops being a "perfmon" program type), so the
 * steady state needs no CAP_PERFMON; found by running the end-to-end suite
 * (hotplug, reload, adoption, audit) with only CAP_BPF. */
#define SANDBOX_CAPABILITIES "cap_bpf"
/* With --linux-audit, also CAP_AUDIT_WRITE: sending a record to the
 * kernel's audit subsystem needs it at each send. */
#define SANDBOX_CAPABILITIES_AUDIT "cap_audit_write,cap_bpf"

/* Drop capabilities (keeping CAP_AUDIT_WRITE too when AUDIT_WRITE) and set
 * no_new_privs. Returns 0 or -errno. */
int sandbox_drop_privileges(bool audit_write);
/* Install the seccomp allow-list. Returns 0 or -errno. */
int sandbox_install_seccomp(void);
/* Both, in that order. */
int sandbox_enter(bool audit_write);
