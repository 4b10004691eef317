// SPDX-License-Identifier: GPL-2.0-or-later
/* hid-policyctl report; see ctl_report.h. */
#include "ctl_report.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ctl_output.h"

static void table_done(struct report_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->rows[i].key);
		free(t->rows[i].label);
	}
	free(t->rows);
	*t = (struct report_table){};
}

void ctl_report_done(struct ctl_report *r)
{
	table_done(&r->devices);
	table_done(&r->rules);
	table_done(&r->programs);
	table_done(&r->users);
	*r = (struct ctl_report){};
}

static void stamp(char first[32], char last[32], const char *when)
{
	/* Audit-log times are fixed-width UTC: they sort as strings. */
	if (!first[0] || strcmp(when, first) < 0)
		snprintf(first, 32, "%s", when);
	if (!last[0] || strcmp(when, last) > 0)
		snprintf(last, 32, "%s", when);
}

/* What a record stands for: one denial at WHEN, or the repeats of one
 * (audit_repeat.h), N of them from SINCE to WHEN. */
struct denials {
	long long n;
	bool enforced;
	const char *since, *when;
};

/* Count D in T's row KEY (made when new, with LABEL and UID). */
static void count(struct ctl_report *r, struct report_table *t, const char *key,
		  const char *label, long long uid, const struct denials *d)
{
	struct report_row *row = NULL;

	for (size_t i = 0; i < t->n && !row; i++)
		if (!strcmp(t->rows[i].key, key))
			row = &t->rows[i];
	if (!row) {
		if (GROW(t->rows, t->n, t->cap) < 0) {
			r->error = -ENOMEM;
			return;
		}
		row = &t->rows[t->n];
		*row = (struct report_row){ .key = strdup(key), .label = label ? strdup(label) : NULL,
					    .uid = uid };
		if (!row->key || (label && !row->label)) {
			free(row->key);
			free(row->label);
			r->error = -ENOMEM;
			return;
		}
		t->n++;
	} else if (label && (!row->label || strcmp(row->label, label))) {
		/* the latest name a device had */
		char *copy = strdup(label);

		if (copy) {
			free(row->label);
			row->label = copy;
		}
	}
	row->denials += d->n;
	row->enforced += d->enforced ? d->n : 0;
	stamp(row->first, row->last, d->since);
	stamp(row->first, row->last, d->when);
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

void ctl_report_add(struct ctl_report *r, json_t *rec)
{
	json_t *dev = json_object_get(rec, "device"), *rule = json_object_get(rec, "rule");
	json_t *proc = json_object_get(rec, "process"), *uid = json_object_get(proc, "uid");
	json_t *repeats = json_object_get(rec, "count");
	const char *when = str(rec, "time"), *set = str(rule, "rule_set");
	struct denials d = { .n = 1, .enforced = json_is_true(json_object_get(rec, "enforced")),
			     .since = when, .when = when };
	char key[512];

	if (!str(rec, "event") || strcmp(str(rec, "event"), "decision") || !str(rec, "action") ||
	    strcmp(str(rec, "action"), "deny") || !when || strlen(when) >= 32)
		return;
	if (json_is_integer(repeats) && json_integer_value(repeats) > 0)
		d.n = json_integer_value(repeats);
	if (str(rec, "first") && strlen(str(rec, "first")) < 32)
		d.since = str(rec, "first");
	r->denials += d.n;
	r->enforced += d.enforced ? d.n : 0;
	stamp(r->first, r->last, d.since);
	stamp(r->first, r->last, d.when);

	/* a device model, whichever of its units and plugs */
	if (str(dev, "vendor") && str(dev, "product"))
		snprintf(key, sizeof(key), "%s:%s:%s", str(dev, "bus") ?: "?", str(dev, "vendor"),
			 str(dev, "product"));
	else
		snprintf(key, sizeof(key), "hid_id %lld",
			 (long long)json_integer_value(json_object_get(dev, "hid_id")));
	count(r, &r->devices, key, str(dev, "name"), -1, &d);

	if (str(rule, "name"))
		snprintf(key, sizeof(key), "%s", str(rule, "name"));
	else
		snprintf(key, sizeof(key), "#%lld", (long long)json_integer_value(json_object_get(rule, "index")));
	if (set) {
		/* the same rule name in two rule sets is two rules */
		char both[600];

		snprintf(both, sizeof(both), "%s\n%s", set, key);
		count(r, &r->rules, both, NULL, -1, &d);
	} else {
		count(r, &r->rules, key, NULL, -1, &d);
	}

	if (str(proc, "exe"))
		snprintf(key, sizeof(key), "%s", str(proc, "exe"));
	else if (str(proc, "comm"))
		snprintf(key, sizeof(key), "[%s]", str(proc, "comm"));
	else if (str(proc, "source") && !strcmp(str(proc, "source"), "kernel"))
		snprintf(key, sizeof(key), "(a kernel driver)");
	else
		snprintf(key, sizeof(key), "(unknown)");
	count(r, &r->programs, key, NULL, -1, &d);

	if (json_is_integer(uid))
		snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(uid));
	else
		snprintf(key, sizeof(key), "(unknown)");
	count(r, &r->users, key, NULL, json_is_integer(uid) ? (long long)json_integer_value(uid) : -1,
	      &d);
}

static int by_denials(const void *a, const void *b)
{
	const struct report_row *x = a, *y = b;

	if (x->denials != y->denials)
		return x->denials < y->denials ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* T's rows, busiest first (a sorted copy of the pointers' targets). */
static struct report_row *sorted(const struct report_table *t)
{
	struct report_row *rows = malloc((t->n ? t->n : 1) * sizeof(*rows));

	if (!rows)
		return NULL;
	memcpy(rows, t->rows, t->n * sizeof(*rows));
	qsort(rows, t->n, sizeof(*rows), by_denials);
	return rows;
}

static const char *user_name(long long uid)
{
	struct passwd *pw = uid >= 0 ? getpwuid((uid_t)uid) : NULL;

	return pw ? pw->pw_name : NULL;
}

/* A rule's key is "SET\nNAME" or "NAME". */
static void split_rule(const char *key, char *set, size_t set_size, const char **name)
{
	const char *nl = strchr(key, '\n');

	set[0] = '\0';
	*name = key;
	if (nl) {
		snprintf(set, set_size, "%.*s", (int)(nl - key), key);
		*name = nl + 1;
	}
}

static json_t *table_json(const struct report_table *t, const char *what)
{
	_cleanup_free_ struct report_row *rows = sorted(t);
	json_t *a = json_array();

	if (!rows || !a) {
		json_decref(a);
		return NULL;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct report_row *row = &rows[i];
		json_t *o = json_pack("{s:I, s:I, s:s, s:s}", "denials", (json_int_t)row->denials,
				      "enforced", (json_int_t)row->enforced, "first", row->first,
				      "last", row->last);

		if (!o)
			continue;
		if (!strcmp(what, "device")) {
			json_object_set_new(o, "device", json_string(row->key));
			if (row->label)
				json_object_set_new(o, "name", json_string(row->label));
		} else if (!strcmp(what, "rule")) {
			char set[256];
			const char *name;

			split_rule(row->key, set, sizeof(set), &name);
			json_object_set_new(o, "rule", json_string(name));
			if (set[0])
				json_object_set_new(o, "rule_set", json_string(set));
		} else if (!strcmp(what, "program")) {
			json_object_set_new(o, "program", json_string(row->key));
		} else {
			json_object_set_new(o, "uid", row->uid >= 0 ? json_integer(row->uid) : json_null());
			if (user_name(row->uid))
				json_object_set_new(o, "user", json_string(user_name(row->uid)));
		}
		json_array_append_new(a, o);
	}
	return a;
}

json_t *ctl_report_json(const struct ctl_report *r, const char *since)
{
	return json_pack("{s:s?, s:I, s:I, s:s?, s:s?, s:o, s:o, s:o, s:o}",
			 "since", since && since[0] ? since : NULL,
			 "denials", (json_int_t)r->denials, "enforced", (json_int_t)r->enforced,
			 "first", r->first[0] ? r->first : NULL, "last", r->last[0] ? r->last : NULL,
			 "by_device", table_json(&r->devices, "device"),
			 "by_rule", table_json(&r->rules, "rule"),
			 "by_program", table_json(&r->programs, "program"),
			 "by_user", table_json(&r->users, "user"));
}

/* The same text rules as ctl_output_text(): names that programs and
 * devices chose reach the terminal without control characters. */
static const char *safe(const char *s, json_t **hold)
{
	json_decref(*hold);
	*hold = json_string(s);
	return ctl_output_text(*hold, false);
}

static void print_table(FILE *f, const struct report_table *t, const char *title, bool utc)
{
	_cleanup_free_ struct report_row *rows = sorted(t);
	json_t *hold = NULL, *hold2 = NULL;
	char first[40], last[40];

	fprintf(f, "\n%-44s %8s %8s  %-23s  %-23s\n", title, "DENIALS", "ENFORCED", "FIRST SEEN",
		"LAST SEEN");
	if (!rows)
		return;
	for (size_t i = 0; i < t->n; i++) {
		const struct report_row *row = &rows[i];
		char name[300];

		if (!strcmp(title, "RULE")) {
			char set[256];
			const char *rule;

			split_rule(row->key, set, sizeof(set), &rule);
			snprintf(name, sizeof(name), "%s%s%s", safe(rule, &hold), set[0] ? " in " : "",
				 set[0] ? safe(set, &hold2) : "");
		} else if (!strcmp(title, "USER") && user_name(row->uid)) {
			snprintf(name, sizeof(name), "%s (%lld)", safe(user_name(row->uid), &hold), row->uid);
		} else if (!strcmp(title, "DEVICE") && row->label) {
			snprintf(name, sizeof(name), "%s \"%s\"", row->key, safe(row->label, &hold2));
		} else {
			snprintf(name, sizeof(name), "%s", safe(row->key, &hold));
		}
		fprintf(f, "%-44s %8llu %8llu  %-23s  %-23s\n", name, (unsigned long long)row->denials,
			(unsigned long long)row->enforced,
			ctl_output_time(row->first, utc, first, sizeof(first)),
			ctl_output_time(row->last, utc, last, sizeof(last)));
	}
	json_decref(hold);
	json_decref(hold2);
}

void ctl_report_print(FILE *f, const struct ctl_report *r, const char *since, bool utc)
{
	char a[40], b[40], zone[16];

	fprintf(f, "denials since %s: %llu (%llu enforced)",
		since && since[0] ? ctl_output_time(since, utc, a, sizeof(a)) : "the log's start",
		(unsigned long long)r->denials, (unsigned long long)r->enforced);
	if (r->denials)
		fprintf(f, ", first %s, last %s", ctl_output_time(r->first, utc, a, sizeof(a)),
			ctl_output_time(r->last, utc, b, sizeof(b)));
	fprintf(f, "; times in %s\n", ctl_output_zone(utc, zone, sizeof(zone)));
	print_table(f, &r->devices, "DEVICE", utc);
	print_table(f, &r->rules, "RULE", utc);
	print_table(f, &r->programs, "PROGRAM", utc);
	print_table(f, &r->users, "USER", utc);
}
