// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Port extension: hid_bpf_get_data() in SEC("syscall") programs (the seed
 * documentation promised it; upstream does not register it for them), so
 * this object loads on the port only.
 */
#include "hid_bpf_test.h"

char _license[] SEC("license") = "GPL";

struct hid_get_data_args {
	unsigned int hid_id;
	int got_data;
};

/* A context from hid_bpf_allocate_context() has no data buffer. */
SEC("syscall")
int get_data_on_allocated_context(struct hid_get_data_args *args)
{
	struct hid_bpf_ctx *ctx = hid_bpf_allocate_context(args->hid_id);

	if (!ctx)
		return -19; /* -ENODEV */
	args->got_data = hid_bpf_get_data(ctx, 0, 1) != NULL;
	hid_bpf_release_context(ctx);
	return 0;
}
