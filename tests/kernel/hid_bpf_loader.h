/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading the kernel tests' BPF objects with Debian 12's libbpf 1.1: hid_id
 * (and flags) are written into the bytes of the object's .struct_ops section
 * before it is opened, as the HID-BPF ABI notes describe.
 */
#pragma once

#include <stddef.h>
#include <bpf/libbpf.h>

/* Open OBJDIR/NAME.bpf.o (OBJDIR: $HID_BPF_TEST_OBJDIR) with every
 * struct_ops map's hid_id set to hid_id, and flags set on the map named
 * flag_map (NULL: none). Programs named sleepable_* are made sleepable.
 * Returns NULL with errno set on failure. */
struct bpf_object *hbt_open(const char *name, int hid_id,
			    const char *flag_map, unsigned int flags);
/* hbt_open() + bpf_object__load(); NULL with errno set on failure. */
struct bpf_object *hbt_load(const char *name, int hid_id,
			    const char *flag_map, unsigned int flags);
/* Register (attach) one struct_ops map. 0 or -errno. */
int hbt_attach(struct bpf_object *obj, const char *map, struct bpf_link **link);
/* Read / write a global variable of the object's .bss. 0 or -errno. */
int hbt_read_global(struct bpf_object *obj, const char *var, void *out,
		    size_t size);
int hbt_write_global(struct bpf_object *obj, const char *var, const void *in,
		     size_t size);
/* Run a SEC("syscall") program with ctx as its (in/out) context. Returns
 * the program's return value, or -errno when it could not be run. */
int hbt_run_syscall(struct bpf_object *obj, const char *prog, void *ctx,
		    size_t ctx_size);
