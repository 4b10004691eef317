// SPDX-License-Identifier: GPL-2.0-or-later
/* hid-policyctl: see and steer hid-policyd through its control socket. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/ctl_protocol.h"
#include "common/hid_bpf_ops.h"
#include "common/util.h"
#include "ctl_args.h"
#include "ctl_client.h"
#include "ctl_output.h"
#include "ctl_report.h"

/* The daemon counts a device's programs only with CAP_SYS_ADMIN, which its
 * sandbox dropped; root's hid-policyctl can count them itself. */
static void fill_program_counts(json_t *result)
{
	json_t *d;
	size_t i;

	if (geteuid() != 0)
		return;
	json_array_foreach(json_object_get(result, "devices"), i, d) {
		json_t *hid_id = json_object_get(d, "hid_id");
		int n;

		if (!json_is_null(json_object_get(d, "programs")) || !json_is_integer(hid_id))
			continue;
		n = fw_count_device_ops((uint32_t)json_integer_value(hid_id), NULL);
		if (n >= 0) {
			json_object_set_new(d, "programs", json_integer(n));
			json_object_del(d, "programs_error");
		}
	}
}

/* JSON output is ASCII: names that programs and devices chose may hold C1
 * controls (U+0080..U+009F), which some terminals take for escape
 * sequences; jansson escapes only those below U+0020 by itself. */
static int print_json(json_t *o)
{
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_ENSURE_ASCII);

	if (!text)
		return -ENOMEM;
	puts(text);
	free(text);
	return 0;
}

/* The final reply: print it, and what the exit status is. */
static int finish(const struct ctl_args *a, json_t *reply)
{
	json_t *ok = json_object_get(reply, "ok"), *result = json_object_get(reply, "result");
	const char *error = json_string_value(json_object_get(reply, "error"));
	json_t *message_json = json_object_get(reply, "message");

	if (!json_is_boolean(ok) || (json_is_true(ok) && !json_is_object(result)) ||
	    (!json_is_true(ok) && (!error || !json_is_string(message_json)))) {
		fprintf(stderr, "hid-policyctl: the daemon's reply makes no sense\n");
		return CTL_EXIT_PROTOCOL;
	}
	if (!json_is_true(ok)) {
		if (a->json)
			print_json(reply);
		/* Error messages quote what the client sent, and polkit. */
		fprintf(stderr, "hid-policyctl: %s\n", ctl_output_text(message_json, true));
		return !strcmp(error, CTL_ERR_DENIED) ? CTL_EXIT_DENIED : CTL_EXIT_FAILED;
	}
	if (!strcmp(a->command, "devices"))
		fill_program_counts(result);
	if (!strcmp(a->command, "report"))
		return CTL_EXIT_OK;	/* printed once counted (print_report) */
	if (a->json) {
		if (strcmp(a->command, "log"))	/* log --json: the records alone */
			print_json(result);
	} else if (!strcmp(a->command, "generate")) {
		json_t *v;
		size_t i;

		print_json(json_object_get(result, "policy"));
		json_array_foreach(json_object_get(result, "unknown_devices"), i, v)
			fprintf(stderr, "hid-policyctl: %s: no rule set knows its endpoints; not in the policy\n",
				ctl_output_text(v, false));
	} else if (strcmp(a->command, "log")) {
		ctl_print_result(stdout, a->command, result);
	}
	return CTL_EXIT_OK;
}

/* report: the denials the log stream brought, counted and shown. */
static int print_report(const struct ctl_args *a, const struct ctl_report *report)
{
	json_t *o;

	if (report->error) {
		fprintf(stderr, "hid-policyctl: report: %s\n", strerror(-report->error));
		return CTL_EXIT_FAILED;
	}
	if (!a->json) {
		ctl_report_print(stdout, report, a->since, a->utc);
		return CTL_EXIT_OK;
	}
	o = ctl_report_json(report, a->since);
	if (!o || print_json(o) < 0) {
		json_decref(o);
		fprintf(stderr, "hid-policyctl: report: out of memory\n");
		return CTL_EXIT_FAILED;
	}
	json_decref(o);
	return CTL_EXIT_OK;
}

/* log --lines N: the last N records of the history, held until it ends. */
struct tail {
	json_t **records;
	size_t cap, n, head;	/* a ring of cap; head: the oldest */
	bool holding;
};

static void tail_done(struct tail *t)
{
	for (size_t i = 0; i < t->n; i++)
		json_decref(t->records[(t->head + i) % t->cap]);
	free(t->records);
	*t = (struct tail){};
}

static void print_record(const struct ctl_args *a, json_t *record, bool *header)
{
	if (a->json) {
		char *text = json_dumps(record, JSON_COMPACT | JSON_ENSURE_ASCII);

		if (text)
			puts(text);
		free(text);
	} else {
		if (!*header)
			ctl_print_log_header(stdout, a->utc);
		*header = true;
		ctl_print_log_record(stdout, record, a->utc);
	}
	/* --follow: show records as they come */
	fflush(stdout);
}

/* Keep RECORD as one of the last; the oldest kept goes when full. */
static void tail_keep(struct tail *t, json_t *record)
{
	if (t->cap == 0)
		return;
	if (t->n == t->cap) {
		json_decref(t->records[t->head]);
		t->records[t->head] = json_incref(record);
		t->head = (t->head + 1) % t->cap;
		return;
	}
	t->records[(t->head + t->n++) % t->cap] = json_incref(record);
}

/* The history is over: show what was kept, and every record from now on. */
static void tail_release(const struct ctl_args *a, struct tail *t, bool *header)
{
	for (size_t i = 0; i < t->n; i++)
		print_record(a, t->records[(t->head + i) % t->cap], header);
	tail_done(t);
}

static int run(const struct ctl_args *a, const char *socket_path, bool interactive)
{
	_cleanup_(ctl_report_done) struct ctl_report report = {};
	_cleanup_(tail_done) struct tail tail = {};
	bool reporting = !strcmp(a->command, "report");
	struct ctl_conn conn;
	json_t *request = ctl_args_request(a, interactive), *reply = NULL;
	bool header = false;
	int r;

	if (a->lines >= 0 && !reporting) {
		tail.cap = (size_t)a->lines;
		tail.holding = true;
		tail.records = calloc(tail.cap ? tail.cap : 1, sizeof(*tail.records));
		if (!tail.records) {
			json_decref(request);
			return CTL_EXIT_FAILED;
		}
	}

	if (!request)
		return CTL_EXIT_FAILED;
	r = ctl_connect(&conn, socket_path);
	if (r < 0) {
		fprintf(stderr, "hid-policyctl: cannot reach hid-policyd at %s: %s%s\n", socket_path,
			strerror(-r), r == -ENOENT || r == -ECONNREFUSED ? " (is it running?)" : "");
		json_decref(request);
		return CTL_EXIT_UNREACHABLE;
	}
	r = ctl_send(&conn, request);
	json_decref(request);
	if (r < 0) {
		fprintf(stderr, "hid-policyctl: cannot send to %s: %s\n", socket_path, strerror(-r));
		ctl_close(&conn);
		return CTL_EXIT_UNREACHABLE;
	}
	for (;;) {
		json_t *record;

		r = ctl_receive(&conn, &reply);
		if (r < 0) {
			fprintf(stderr, "hid-policyctl: %s\n",
				r == -EPIPE ? "the daemon closed the connection without a reply" :
				r == -E2BIG ? "the daemon's reply is too long" :
				r == -EBADMSG ? "the daemon's reply is not JSON" : strerror(-r));
			ctl_close(&conn);
			return r == -EPIPE ? CTL_EXIT_FAILED : CTL_EXIT_PROTOCOL;
		}
		if (!json_is_integer(json_object_get(reply, "version")) ||
		    json_integer_value(json_object_get(reply, "version")) != CTL_PROTOCOL_VERSION) {
			fprintf(stderr, "hid-policyctl: the daemon speaks another protocol version\n");
			json_decref(reply);
			ctl_close(&conn);
			return CTL_EXIT_PROTOCOL;
		}
		record = json_object_get(reply, "record");
		if (json_is_true(json_object_get(reply, "caught_up")) && !record) {
			/* --follow --lines: the history ends here */
			tail_release(a, &tail, &header);
			json_decref(reply);
			continue;
		}
		if (!record)
			break;
		if (reporting)
			ctl_report_add(&report, record);
		else if (tail.holding)
			tail_keep(&tail, record);
		else
			print_record(a, record, &header);
		json_decref(reply);
	}
	if (tail.holding && json_is_true(json_object_get(reply, "ok")))
		tail_release(a, &tail, &header);
	r = finish(a, reply);
	json_decref(reply);
	ctl_close(&conn);
	if (r == CTL_EXIT_OK && reporting)
		r = print_report(a, &report);
	return r;
}

int main(int argc, char **argv)
{
	struct ctl_args a;
	char device[256];
	pid_t agent = 0;
	int r;

	if (ctl_args_parse(argc, argv, time(NULL), &a) < 0)
		return CTL_EXIT_USAGE;
	/* a process or device that is not there: a failure, not a usage
	 * error (hid-policyctl(1), EXIT STATUS) */
	if (ctl_args_resolve_pid(&a) < 0)
		return CTL_EXIT_FAILED;
	if (a.help) {
		ctl_usage(stdout);
		return CTL_EXIT_OK;
	}
	if (a.version) {
		printf("hid-policyctl %s\n", HID_POLICY_VERSION);
		return CTL_EXIT_OK;
	}
	if (a.device) {
		const char *given = a.device;

		a.device = ctl_resolve_device(a.device, device, sizeof(device));
		if (!a.device) {
			fprintf(stderr, "hid-policyctl: %s: no such hidraw device\n", given);
			return CTL_EXIT_FAILED;
		}
	}
	if (a.ask_password && geteuid() != 0)
		agent = ctl_agent_start();
	r = run(&a, a.socket_path ?: RUNTIME_DIR_DEFAULT "/" CTL_SOCKET_NAME, agent > 0);
	ctl_agent_stop(agent);
	return r;
}
