/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers for the policy tests: policies written inline with single quotes
 * (turned into double quotes), loaded from a buffer or from directories made
 * on the spot.
 */
#pragma once

#include "harness.h"
#include "policy/policy.h"

/* JSON text with ' for " (no test value needs a literal single quote). */
char *policy_text(const char *squoted);

/* Load SQUOTED as file NAME; returns the policy or NULL, messages in DIAG. */
struct policy *load_text(const char *name, const char *squoted, struct diag *diag);

/* A fresh temporary directory; removed with its files by rm_tree(). */
char *make_temp_dir(void);
void rm_tree(const char *dir);
/* Write SQUOTED (quotes converted) to DIR/NAME. */
void write_policy(const char *dir, const char *name, const char *squoted);

/* "DIR/" and TEXT, every "DIR/" in TEXT replaced by DIR too (malloc'd). */
char *in_dir(const char *dir, const char *text);

/* Fail the test unless DIAG holds exactly the messages EXPECTED (NULL-ended). */
void check_messages(const struct diag *diag, const char *const *expected);
#define CHECK_MESSAGES(diag, ...) check_messages(diag, (const char *const[]){ __VA_ARGS__, NULL })

/* A device for the tests. */
#define USB_DEVICE(v, p, n) ((struct policy_device){ .bus = 0x03, .vendor = (v), .product = (p), .name = (n) })

/* Evaluate on compiled RULES: kind, report ID, payload bytes. */
struct policy_verdict eval(const struct hid_device_rules *rules, uint8_t kind,
			   uint8_t report_id, const uint8_t *data, size_t len);
