/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel tests' device: input reports 1 (64 bytes) and 2 (8 bytes),
 * output report 3 and feature report 4 (8 bytes each). 47 bytes;
 * bpf/rdesc.bpf.c knows this layout.
 */
#pragma once

#include <stdint.h>

static const uint8_t test_rdesc[] = {
	0x06, 0x00, 0xff,	/* Usage Page (Vendor 0xff00) */
	0x09, 0x01,		/* Usage (1) */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, 0x01,		/*   Report ID (1) */
	0x09, 0x02,		/*   Usage (2) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x40,		/*   Report Count (64) */
	0x81, 0x02,		/*   Input (Data,Var,Abs) */
	0x85, 0x02,		/*   Report ID (2) */
	0x09, 0x03,		/*   Usage (3) */
	0x95, 0x08,		/*   Report Count (8) */
	0x81, 0x02,		/*   Input (Data,Var,Abs) */
	0x85, 0x03,		/*   Report ID (3) */
	0x09, 0x04,		/*   Usage (4) */
	0x95, 0x08,		/*   Report Count (8) */
	0x91, 0x02,		/*   Output (Data,Var,Abs) */
	0x85, 0x04,		/*   Report ID (4) */
	0x09, 0x05,		/*   Usage (5) */
	0x95, 0x08,		/*   Report Count (8) */
	0xb1, 0x02,		/*   Feature (Data,Var,Abs) */
	0xc0,			/* End Collection */
};

#define TEST_INPUT_LEN	65	/* report 1 with its ID */
#define TEST_SHORT_LEN	9	/* reports 2, 3 and 4 with their ID */
#define TEST_EVENT_BUF	128	/* 65 rounded up to 64 */
