/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hid-policyctl's human-readable output of the daemon's replies. */
#pragma once

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

/* The final result of COMMAND (log prints its records as they come). */
void ctl_print_result(FILE *f, const char *command, json_t *result);

/* The header of the log table, and one audit record as a row. */
void ctl_print_log_header(FILE *f);
void ctl_print_log_record(FILE *f, json_t *rec);

/*
 * The string V as it may go to a terminal: control characters (C0, DEL and
 * C1, which start escape sequences) and, unless MULTILINE, newlines are
 * written as \xNN. Records carry text that unprivileged users and
 * devices chose (command and device names). V is rewritten in place; the
 * result lives as long as V. Not a string: "?".
 */
const char *ctl_output_text(json_t *v, bool multiline);
