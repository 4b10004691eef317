/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON as tests read it: hid-policyctl's output, control replies and
 * audit records, looked at by dotted paths ("device.sysfs",
 * "result.exception.granted_by.uid").
 *
 * json_path() only looks; the other functions CHECK (harness.h), so a test
 * that gets something else fails there, naming the path or the text.
 */
#pragma once

#include <jansson.h>

/* The value at PATH below O (borrowed), or NULL when a step is missing or
 * O is NULL. An empty PATH is O itself. */
json_t *json_path(json_t *o, const char *path);

/* TEXT parsed (new reference); fails the test when it is not JSON. */
json_t *json_parse_check(const char *text);

/* The string at PATH; fails the test when there is none. */
const char *json_path_str(json_t *o, const char *path);
/* The string at PATH, or "" when there is none: for filters and for
 * messages of failed checks, where a missing field is an answer too. */
const char *json_path_str_or_empty(json_t *o, const char *path);
/* The integer at PATH; fails the test when there is none. */
long long json_path_int(json_t *o, const char *path);
