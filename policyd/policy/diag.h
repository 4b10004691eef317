/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics: the errors and warnings found while loading a policy, kept in
 * order so that one run reports all of them. Each message is formatted as
 *
 *	FILE:LINE:COLUMN: JSON.PATH: text		(errors)
 *	FILE:LINE:COLUMN: JSON.PATH: warning: text	(warnings)
 *	FILE:LINE:COLUMN: JSON.PATH: note: text		(notes: what a dry run
 *							 assumed; never a fault)
 *	FILE:LINE:COLUMN: text				(JSON syntax errors)
 *
 * FILE is the path the file was read from; LINE and COLUMN (from 1, columns
 * in characters) are where the value at JSON.PATH starts. Parts that are not
 * known are left out with their separator.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum diag_severity {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE,
};

struct diag_entry {
	enum diag_severity severity;
	int line, column;	/* 0 when not known */
	char *text;		/* the whole message, as printed */
};

struct diag {
	struct diag_entry *entries;
	size_t n, cap;
	size_t n_errors, n_warnings, n_notes;
	bool oom; /* a message could not be stored; n_errors still counts it */
};

void diag_done(struct diag *d);

/* Record a message about FILE at JSON PATH (either may be NULL or ""). */
void diag_add(struct diag *d, enum diag_severity sev, const char *file,
	      const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#define diag_error(d, file, path, ...) diag_add(d, DIAG_ERROR, file, path, __VA_ARGS__)
#define diag_warning(d, file, path, ...) diag_add(d, DIAG_WARNING, file, path, __VA_ARGS__)

/* The same, at LINE:COLUMN of FILE (0: not known). */
void diag_add_at(struct diag *d, enum diag_severity sev, const char *file, int line,
		 int column, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void diag_vadd_at(struct diag *d, enum diag_severity sev, const char *file, int line,
		  int column, const char *path, const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));

/* A JSON syntax error at LINE:COLUMN of FILE. */
void diag_syntax(struct diag *d, const char *file, int line, int column,
		 const char *text);

/* Print every message, one per line. */
void diag_print(const struct diag *d, FILE *f);
/* Print the messages of severity SEV only. */
void diag_print_only(const struct diag *d, enum diag_severity sev, FILE *f);

/* Does any message contain NEEDLE? For tests. */
bool diag_contains(const struct diag *d, const char *needle);
