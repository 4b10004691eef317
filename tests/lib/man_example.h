/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The examples of hid-policy.d(5) (doc/hid-policy.d.5), for tests to load
 * as they are printed: each follows a line '.\" example: NAME' and sits
 * between .EX and .EE. tests/unit/policy_schema_check.py checks them with
 * hid-policyd --check and the schema; tests that load them check what they
 * do on a device.
 */
#pragma once

/* The text of example NAME (the first one of that name), roff escapes
 * undone (\e is a backslash, \- a minus); malloc'd. Fails the test when
 * the man page has no such example. */
char *man_example(const char *name);
