/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hid-policyctl's human-readable output of the daemon's replies. */
#pragma once

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

/* The final result of COMMAND (log prints its records as they come). */
void ctl_print_result(FILE *f, const char *command, json_t *result);

/* The header of the log table, and one audit record as a row; times in
 * local time, or in UTC when UTC. */
void ctl_print_log_header(FILE *f, bool utc);
void ctl_print_log_record(FILE *f, json_t *rec, bool utc);

/*
 * An audit-log time ("2026-12-03T06:29:40.123Z") as shown: in local time
 * ("2026-12-03 07:29:40.123"), or as it is when UTC. A time that does not
 * parse is shown as it is. Returns BUF.
 */
const char *ctl_output_time(const char *logged, bool utc, char *buf, size_t size);
/* "UTC" or the local time zone's abbreviation, for headers. */
const char *ctl_output_zone(bool utc, char *buf, size_t size);

/* What a decision asked for, as a rule says it: "set_report feature 0xf4",
 * "output_report 0x10" (older records' "output" and "input" too). */
void ctl_output_request(json_t *rec, char *buf, size_t size);

/*
 * The string V as it may go to a terminal: control characters (C0, DEL and
 * C1, which start escape sequences) and, unless MULTILINE, newlines are
 * written as \xNN. Records carry text that unprivileged users and
 * devices chose (command and device names). V is rewritten in place; the
 * result lives as long as V. Not a string: "?".
 */
const char *ctl_output_text(json_t *v, bool multiline);
