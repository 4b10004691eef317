// SPDX-License-Identifier: GPL-2.0-or-later
#include "ctl_output.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How many bytes of S, at most 2, make one character to escape (0: none). */
static size_t to_escape(const unsigned char *s, bool multiline)
{
	if ((s[0] < 0x20 && !(multiline && s[0] == '\n')) || s[0] == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)	/* U+0080..U+009F */
		return 2;
	return 0;
}

const char *ctl_output_text(json_t *v, bool multiline)
{
	const unsigned char *s;
	char *out, *o;
	size_t n = 0;

	if (!json_is_string(v))
		return "?";
	s = (const unsigned char *)json_string_value(v);
	for (size_t i = 0; s[i]; i++)
		n += to_escape(s + i, multiline) != 0;
	if (n == 0)
		return json_string_value(v);
	/* Each escaped byte grows from 1 to 4: at most 3 bytes more each. */
	out = malloc(strlen((const char *)s) + 6 * n + 1);
	if (!out)
		return "?";
	for (o = out; *s;) {
		size_t k = to_escape(s, multiline);

		if (k == 0)
			*o++ = (char)*s++;
		for (; k > 0; k--)
			o += sprintf(o, "\\x%02x", *s++);
	}
	*o = '\0';
	json_string_set(v, out);
	free(out);
	return json_string_value(v);
}

/* Shorthands for reading replies: missing values print as "?" or 0. */
static const char *str(json_t *o, const char *key)
{
	return ctl_output_text(json_object_get(o, key), false);
}

static long long num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : 0;
}

static const char *yes(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key)) ? "yes" : "no";
}

static const char *plural(long long n)
{
	return n == 1 ? "" : "s";
}

/* "set_report feature, output_report" */
static void print_list(FILE *f, json_t *a)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v)
		fprintf(f, "%s%s", i ? ", " : "", ctl_output_text(v, false));
	if (json_array_size(a) == 0)
		fputs("-", f);
}

/* " 27", " 27 or 100": an allow's groups, a member of any of them. */
static void print_gids(FILE *f, json_t *gids)
{
	size_t i;
	json_t *g;

	json_array_foreach(gids, i, g)
		fprintf(f, "%s %lld", i ? " or" : "", (long long)json_integer_value(g));
}

/* Whose requests a temporary allow lets through, when not anyone's. */
static void print_allow_sender(FILE *f, json_t *e)
{
	json_t *sender = json_object_get(e, "for");

	if (!json_is_object(sender))
		return;
	fputs(", only from", f);
	if (json_object_get(sender, "pid"))
		fprintf(f, " process %lld:", num(sender, "pid"));
	if (json_object_get(sender, "uid"))
		fprintf(f, " uid %lld", num(sender, "uid"));
	if (json_object_get(sender, "gids")) {
		fputs(" in group", f);
		print_gids(f, json_object_get(sender, "gids"));
	}
	if (json_object_get(sender, "executable"))
		fprintf(f, " %s", str(sender, "executable"));
	if (json_object_get(sender, "unit"))
		fprintf(f, " unit %s", str(sender, "unit"));
}

static void print_exception(FILE *f, json_t *e)
{
	json_t *by = json_object_get(e, "granted_by");

	fprintf(f, "  #%lld on %s: ", num(e, "id"), str(e, "sysfs"));
	print_list(f, json_object_get(e, "requests"));
	fprintf(f, ", report IDs %s", str(e, "report_ids"));
	print_allow_sender(f, e);
	fprintf(f, "; %lld s left (until %s); granted by uid %lld (%s, pid %lld)\n",
		num(e, "remaining_s"), str(e, "expires"), num(by, "uid"),
		str(by, "comm"), num(by, "pid"));
}

/* An outlet of the audit log: off, or what it sent. */
static void print_outlet(FILE *f, const char *label, json_t *o)
{
	fprintf(f, "%-13s", label);
	if (!json_is_object(o)) {
		fputs("off\n", f);
		return;
	}
	fprintf(f, "%lld sent, %lld failed, %lld held back (rate limit)", num(o, "sent"),
		num(o, "failed"), num(o, "held"));
	if (json_is_string(json_object_get(o, "last_error")))
		fprintf(f, "; last error: %s", str(o, "last_error"));
	fputc('\n', f);
}

static void print_status(FILE *f, json_t *r)
{
	json_t *daemon = json_object_get(r, "daemon"), *kernel = json_object_get(r, "kernel");
	json_t *devices = json_object_get(r, "devices"), *c = json_object_get(r, "counters");
	json_t *audit = json_object_get(r, "audit_log"), *policy = json_object_get(r, "policy");
	json_t *exc = json_object_get(r, "exceptions"), *e;
	size_t i;

	fprintf(f, "daemon:      running, pid %lld, version %s, %s, authorization: %s\n",
		num(daemon, "pid"), str(daemon, "version"),
		json_is_true(json_object_get(daemon, "sandbox")) ? "sandboxed" : "not sandboxed",
		str(daemon, "authorization"));
	fprintf(f, "kernel:      HID-BPF %s; the firewall names callers by pid %s, uid %s, comm %s\n",
		yes(kernel, "hid_bpf"), yes(kernel, "pid_tgid"), yes(kernel, "uid_gid"), yes(kernel, "comm"));
	fprintf(f, "mode:        %s (%lld of %lld device%s protected)\n", str(r, "mode"),
		num(devices, "protected"), num(devices, "present"), plural(num(devices, "present")));
	fprintf(f, "policy:      %lld rule set%s, %lld rule%s%s\n", num(policy, "rule_sets"),
		plural(num(policy, "rule_sets")), num(policy, "rules"), plural(num(policy, "rules")),
		json_is_true(json_object_get(policy, "kept_copy")) ?
		" (the last policy that loaded: the configured one is rejected, see the journal)" : "");
	fprintf(f, "counters:    allowed %lld, denied %lld, logged %lld, dropped %lld\n",
		num(c, "allowed"), num(c, "denied"), num(c, "logged"), num(c, "dropped"));
	fprintf(f, "audit log:   %s (%lld record%s written, %lld failed)\n", str(audit, "path"),
		num(audit, "written"), plural(num(audit, "written")), num(audit, "failed"));
	print_outlet(f, "journal:", json_object_get(json_object_get(audit, "outlets"), "journal"));
	print_outlet(f, "linux audit:", json_object_get(json_object_get(audit, "outlets"), "linux_audit"));
	fprintf(f, "temporary allows:%s\n", json_array_size(exc) ? "" : " none");
	json_array_foreach(exc, i, e)
		print_exception(f, e);
}

/* What the device is, on a line of its own: its application collections
 * (once a driver parsed its descriptor), serial and USB interface. */
static void print_device_class(FILE *f, json_t *d)
{
	json_t *usages = json_object_get(d, "usages"), *u;
	size_t k;

	fprintf(f, "%-22s usages: ", "");
	if (!json_is_array(usages))
		fprintf(f, "(descriptor not parsed yet)");
	else if (!json_array_size(usages))
		fprintf(f, "none");
	json_array_foreach(usages, k, u)
		fprintf(f, "%s%s", k ? ", " : "", ctl_output_text(u, false));
	if (json_is_string(json_object_get(d, "uniq")))
		fprintf(f, "; serial \"%s\"", str(d, "uniq"));
	if (json_is_integer(json_object_get(d, "interface")))
		fprintf(f, "; USB interface %lld", num(d, "interface"));
	fputc('\n', f);
}

static void print_devices(FILE *f, json_t *r)
{
	json_t *list = json_object_get(r, "devices"), *d;
	size_t i;

	fprintf(f, "%-22s %-9s %-9s %-10s %-8s %-8s %s\n", "DEVICE", "BUS", "ID", "PROTECTED",
		"ATTACHED", "PROGRAMS", "RULE SETS / NAME");
	json_array_foreach(list, i, d) {
		json_t *sets = json_object_get(d, "rule_sets"), *s, *programs = json_object_get(d, "programs");
		char id[16], prog[16], prot[16];
		size_t k;

		snprintf(id, sizeof(id), "%s:%s", str(d, "vendor"), str(d, "product"));
		if (json_is_integer(programs))
			snprintf(prog, sizeof(prog), "%lld", (long long)json_integer_value(programs));
		else
			snprintf(prog, sizeof(prog), "?");
		snprintf(prot, sizeof(prot), "%s", !json_is_true(json_object_get(d, "protected")) ?
			 "no" : json_is_true(json_object_get(d, "fail_closed")) ? "closed" :
			 str(d, "mode"));
		fprintf(f, "%-22s %-9s %-9s %-10s %-8s %-8s ", str(d, "sysfs"), str(d, "bus"), id, prot,
			yes(d, "attached"), prog);
		json_array_foreach(sets, k, s)
			fprintf(f, "%s%s", k ? ", " : "", json_is_string(json_object_get(s, "name")) ?
				str(s, "name") : str(s, "file"));
		fprintf(f, "%s\"%s\"", json_array_size(sets) ? " / " : "- / ", str(d, "name"));
		if (num(d, "exceptions"))
			fprintf(f, " (%lld temporary allow%s)", num(d, "exceptions"), plural(num(d, "exceptions")));
		fputc('\n', f);
		print_device_class(f, d);
	}
}

static void print_rules(FILE *f, json_t *r)
{
	json_t *dev = json_object_get(r, "device"), *list = json_object_get(r, "rules"), *rule;
	json_t *def = json_object_get(r, "default");
	size_t i;

	if (!json_is_true(json_object_get(r, "protected"))) {
		fprintf(f, "%s: no rule set matches it; every request is allowed\n", str(dev, "sysfs"));
		return;
	}
	fprintf(f, "%s (\"%s\"), %s mode, first match decides:\n", str(dev, "sysfs"), str(dev, "name"),
		str(r, "mode"));
	json_array_foreach(list, i, rule) {
		json_t *payload = json_object_get(rule, "payload"), *c;
		size_t k;

		fprintf(f, "%3lld. %-5s ", num(rule, "position") + 1, str(rule, "action"));
		print_list(f, json_object_get(rule, "requests"));
		fprintf(f, "; report IDs %s", str(rule, "report_ids"));
		json_array_foreach(payload, k, c)
			fprintf(f, "; byte %lld & %s %s %s", num(c, "offset"), str(c, "mask"),
				json_is_true(json_object_get(c, "not")) ? "!=" : "==", str(c, "value"));
		if (json_is_string(json_object_get(rule, "errno")))
			fprintf(f, "; %s", str(rule, "errno"));
		if (json_object_get(rule, "exception"))
			fprintf(f, "\n     %s (hid-policyctl allow, %lld s left)\n", str(rule, "name"),
				num(json_object_get(rule, "exception"), "remaining_s"));
		else
			fprintf(f, "\n     %s (%s: %s)\n", str(rule, "name"), str(rule, "file"), str(rule, "path"));
	}
	fprintf(f, "  default: %s", str(def, "action"));
	if (json_is_string(json_object_get(def, "errno")))
		fprintf(f, " (%s)", str(def, "errno"));
	fputc('\n', f);
}

const char *ctl_output_time(const char *logged, bool utc, char *buf, size_t size)
{
	struct tm tm = {};
	const char *rest;
	char base[32];
	time_t t;

	rest = logged ? strptime(logged, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (utc || !rest || rest[0] != '.' || strlen(rest) != 5 || rest[4] != 'Z' ||
	    (t = timegm(&tm)) == (time_t)-1 || !localtime_r(&t, &tm)) {
		snprintf(buf, size, "%s", logged ? logged : "?");
		return buf;
	}
	strftime(base, sizeof(base), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, size, "%s.%.3s", base, rest + 1);
	return buf;
}

const char *ctl_output_zone(bool utc, char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	if (utc || !localtime_r(&now, &tm) || !strftime(buf, size, "%Z", &tm))
		snprintf(buf, size, "UTC");
	return buf;
}

void ctl_output_request(json_t *rec, char *buf, size_t size)
{
	const char *request = str(rec, "request");

	if (!strcmp(request, "output") || !strcmp(request, "output_report"))
		snprintf(buf, size, "output_report 0x%02llx", num(rec, "report_id"));
	else if (!strcmp(request, "input") || !strcmp(request, "input_event"))
		snprintf(buf, size, "input_event 0x%02llx", num(rec, "report_id"));
	else
		snprintf(buf, size, "%s %s 0x%02llx", request, str(rec, "report_type"),
			 num(rec, "report_id"));
}

void ctl_print_log_header(FILE *f, bool utc)
{
	char zone[16], title[32];

	snprintf(title, sizeof(title), "TIME (%s)", ctl_output_zone(utc, zone, sizeof(zone)));
	fprintf(f, "%-24s %-8s %-22s %-28s %s\n", title, "ACTION", "DEVICE", "REQUEST", "BY / RULE");
}

void ctl_print_log_record(FILE *f, json_t *rec, bool utc)
{
	const char *event = str(rec, "event");
	json_t *dev = json_object_get(rec, "device"), *proc = json_object_get(rec, "process");
	json_t *e = json_object_get(rec, "exception");
	char what[64], when[40];
	const char *time_shown = ctl_output_time(json_string_value(json_object_get(rec, "time")), utc,
						 when, sizeof(when));

	if (!strcmp(event, "decision")) {
		const char *action = str(rec, "action");

		ctl_output_request(rec, what, sizeof(what));
		fprintf(f, "%-24s %-8s %-22s %-28s pid %lld (%s) uid %lld; rule %s", time_shown,
			!strcmp(action, "deny") && !json_is_true(json_object_get(rec, "enforced")) ?
			"deny*" : action,
			json_is_string(json_object_get(dev, "sysfs")) ? str(dev, "sysfs") : "?",
			what, num(proc, "pid"), str(proc, "comm"), num(proc, "uid"),
			str(json_object_get(rec, "rule"), "name"));
		/* a record of repeats (audit_repeat.h) */
		if (json_is_integer(json_object_get(rec, "count")) && str(rec, "first"))
			fprintf(f, "; %lld times more since %s", num(rec, "count"),
				ctl_output_time(str(rec, "first"), utc, when, sizeof(when)));
		fputc('\n', f);
	} else if (!strcmp(event, "exception_granted") || !strcmp(event, "exception_ended")) {
		json_t *by = json_object_get(rec, "granted_by");
		bool granted = !strcmp(event, "exception_granted");

		snprintf(what, sizeof(what), "temporary allow #%lld", num(e, "id"));
		fprintf(f, "%-24s %-8s %-22s %-28s ", time_shown, granted ? "granted" : "ended",
			str(dev, "sysfs"), what);
		if (granted)
			fprintf(f, "for %lld s by uid %lld (%s, pid %lld)\n", num(e, "duration_s"),
				num(by, "uid"), str(by, "comm"), num(by, "pid"));
		else
			fprintf(f, "%s; granted by uid %lld (%s)\n", str(rec, "reason"), num(by, "uid"),
				str(by, "comm"));
	} else {
		char *text = json_dumps(rec, JSON_COMPACT | JSON_ENSURE_ASCII);

		fprintf(f, "%-24s %-8s %s\n", time_shown, event, text ? text : "");
		free(text);
	}
}

static void print_result_text(FILE *f, json_t *r)
{
	fputs(ctl_output_text(json_object_get(r, "text"), true), f);
}

void ctl_print_result(FILE *f, const char *command, json_t *r)
{
	json_t *v;
	size_t i;

	if (!strcmp(command, "status")) {
		print_status(f, r);
	} else if (!strcmp(command, "devices")) {
		print_devices(f, r);
	} else if (!strcmp(command, "rules")) {
		print_rules(f, r);
	} else if (!strcmp(command, "explain")) {
		print_result_text(f, r);
	} else if (!strcmp(command, "reload")) {
		fprintf(f, "policy reloaded: %lld rule set%s, %lld rule%s\n", num(r, "rule_sets"),
			plural(num(r, "rule_sets")), num(r, "rules"), plural(num(r, "rules")));
		json_array_foreach(json_object_get(r, "warnings"), i, v)
			fprintf(f, "  %s\n", ctl_output_text(v, false));
	} else if (!strcmp(command, "allow")) {
		json_t *e = json_object_get(r, "exception");

		fprintf(f, "temporary allow #%lld on %s for %lld s (until %s): ", num(e, "id"),
			str(e, "sysfs"), num(e, "duration_s"), str(e, "expires"));
		print_list(f, json_object_get(e, "requests"));
		fprintf(f, ", report IDs %s", str(e, "report_ids"));
		print_allow_sender(f, e);
		fputc('\n', f);
	} else if (!strcmp(command, "revoke")) {
		json_array_foreach(json_object_get(r, "revoked"), i, v)
			fprintf(f, "revoked temporary allow #%lld\n", (long long)json_integer_value(v));
	}
}
