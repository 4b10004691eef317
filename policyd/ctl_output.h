/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hid-policyctl's human-readable output of the daemon's replies. */
#pragma once

#include <stdio.h>
#include <jansson.h>

/* The final result of COMMAND (log prints its records as they come). */
void ctl_print_result(FILE *f, const char *command, json_t *result);

/* The header of the log table, and one audit record as a row. */
void ctl_print_log_header(FILE *f);
void ctl_print_log_record(FILE *f, json_t *rec);
