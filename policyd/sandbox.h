/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's sandbox, entered once start-up is done: every capability but
 * the few the steady state needs is dropped (bounding set included),
 * no_new_privs is set, and a seccomp allow-list kills the process on any
 * other system call (the kill is logged by the kernel's audit/seccomp log).
 */
#pragma once

/* Capabilities kept, and why (see hid-policyd(8)):
 *   CAP_BPF      load the firewall for a hotplugged device, create its
 *                struct_ops map, update the rules map;
 *   CAP_PERFMON  struct_ops programs are "perfmon" program types: loading
 *                one needs it on top of CAP_BPF. */
#define SANDBOX_CAPABILITIES "cap_bpf,cap_perfmon"

/* Drop capabilities and set no_new_privs. Returns 0 or -errno. */
int sandbox_drop_privileges(void);
/* Install the seccomp allow-list. Returns 0 or -errno. */
int sandbox_install_seccomp(void);
/* Both, in that order. */
int sandbox_enter(void);
