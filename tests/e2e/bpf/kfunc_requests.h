/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by kfunc_requests.bpf.c and tests/e2e/test-kfunc-requests.c. */
#pragma once

/* The report number byte and the 8 bytes of the test device's unnumbered
 * feature and output reports. */
#define KFUNC_REQ_LEN 9

/* The ctx of each program (BPF_PROG_TEST_RUN's ctx_in, copied back). */
struct kfunc_request_args {
	unsigned int hid_id;
	int retval;		/* what the kfunc returned */
	unsigned char data[KFUNC_REQ_LEN];
};
