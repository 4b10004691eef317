// SPDX-License-Identifier: GPL-2.0-or-later
#include "diag.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void diag_done(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->entries[i].text);
	free(d->entries);
	*d = (struct diag){};
}

static void diag_store(struct diag *d, enum diag_severity sev, int line, int column,
		       char *text)
{
	if (sev == DIAG_ERROR)
		d->n_errors++;
	else if (sev == DIAG_WARNING)
		d->n_warnings++;
	else
		d->n_notes++;
	if (!text || GROW(d->entries, d->n, d->cap) < 0) {
		free(text);
		d->oom = true;
		return;
	}
	d->entries[d->n++] = (struct diag_entry){
		.severity = sev, .line = line, .column = column, .text = text,
	};
}

void diag_vadd_at(struct diag *d, enum diag_severity sev, const char *file, int line,
		  int column, const char *path, const char *fmt, va_list ap)
{
	_cleanup_free_ char *msg = NULL;
	char where[32] = "";
	char *text = NULL;
	int r;

	if (vasprintf(&msg, fmt, ap) < 0) {
		diag_store(d, sev, line, column, NULL);
		return;
	}
	if (file && *file && line > 0)
		snprintf(where, sizeof(where), ":%d:%d", line, column);
	r = asprintf(&text, "%s%s%s%s%s%s%s", file ?: "", where, file && *file ? ": " : "",
		     path ?: "", path && *path ? ": " : "",
		     sev == DIAG_WARNING ? "warning: " : sev == DIAG_NOTE ? "note: " : "", msg);
	diag_store(d, sev, line, column, r < 0 ? NULL : text);
}

void diag_add_at(struct diag *d, enum diag_severity sev, const char *file, int line,
		 int column, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd_at(d, sev, file, line, column, path, fmt, ap);
	va_end(ap);
}

void diag_add(struct diag *d, enum diag_severity sev, const char *file,
	      const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd_at(d, sev, file, 0, 0, path, fmt, ap);
	va_end(ap);
}

void diag_syntax(struct diag *d, const char *file, int line, int column,
		 const char *text)
{
	char *s;

	if (asprintf(&s, "%s:%d:%d: %s", file, line, column, text) < 0)
		s = NULL;
	diag_store(d, DIAG_ERROR, line, column, s);
}

void diag_print(const struct diag *d, FILE *f)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(f, "%s\n", d->entries[i].text);
	if (d->oom)
		fprintf(f, "(some messages were lost: out of memory)\n");
}

void diag_print_only(const struct diag *d, enum diag_severity sev, FILE *f)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->entries[i].severity == sev)
			fprintf(f, "%s\n", d->entries[i].text);
}

bool diag_contains(const struct diag *d, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->entries[i].text, needle))
			return true;
	return false;
}
