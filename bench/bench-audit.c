// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cost of turning firewall decisions into audit lines (host): the
 * daemon's direct formatter (audit_write_record into /dev/null) against
 * building the same record as a jansson tree and dumping it, the way the
 * daemon did before. Rounds alternate between the two so that a noisy
 * machine slows both alike; the ratio is the figure that means something.
 *
 * Then the daemon's drain path as it runs for every batch the ring buffer
 * hands over (records of a live process, this one, whose executable, unit
 * and, for records without the kernel's uid and comm, identity are read
 * from /proc; one audit_flush per batch) into a file, in records per second,
 * for records as the port's firewall sends them (uid, gid and comm from the
 * kernel) and as upstream's does (pid only).
 *
 * Usage: bench-audit [RECORDS_PER_ROUND [ROUNDS [BATCH]]]
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/audit_format.h"
#include "hid_rules.h"
#include "policy/policy.h"

static const struct hid_dev_info device = {
	.sysname = "0003:054C:0CE6.0007", .hid_id = 7, .bus = 3,
	.vendor = 0x054c, .product = 0x0ce6,
	.name = "Sony Interactive Entertainment DualSense Wireless Controller",
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Records per second through audit_write_record() into PATH, with an
 * audit_flush() every BATCH records, median of ROUNDS. */
static double drain_rate(const char *path, struct hid_fw_record rec,
			 const struct audit_context *ctx, long n, int rounds, long batch)
{
	double rates[64];
	struct audit_log a;

	if (rounds > 64)
		rounds = 64;
	for (int r = 0; r < rounds; r++) {
		double t0;

		unlink(path);
		if (audit_log_open(&a, path, true) < 0) {
			perror(path);
			exit(1);
		}
		a.summary_burst = 0;
		t0 = now_s();
		for (long i = 0; i < n; i++) {
			rec.report_id = (uint8_t)i;
			audit_write_record(&a, &rec, ctx);
			if ((i + 1) % batch == 0)
				audit_flush(&a);
		}
		audit_flush(&a);
		rates[r] = n / (now_s() - t0);
		audit_log_close(&a);
	}
	unlink(path);
	for (int i = 1; i < rounds; i++)
		for (int j = i; j > 0 && rates[j - 1] > rates[j]; j--) {
			double t = rates[j];

			rates[j] = rates[j - 1];
			rates[j - 1] = t;
		}
	return rates[rounds / 2];
}

/* The same fields as a tree, dumped compactly: the replaced approach. */
static size_t tree_line(const struct hid_fw_record *rec, const struct audit_context *ctx,
			const char *when)
{
	char payload[2 * HID_FW_PAYLOAD_BYTES + 1], comm[HID_FW_COMM_LEN + 1];
	char vendor[8], product[8], source[24];
	size_t len;
	char *line;
	json_t *o;

	for (unsigned int i = 0; i < rec->payload_len; i++)
		snprintf(payload + 2 * i, 3, "%02x", rec->payload[i]);
	payload[2 * rec->payload_len] = '\0';
	memcpy(comm, rec->comm, HID_FW_COMM_LEN);
	comm[HID_FW_COMM_LEN] = '\0';
	snprintf(vendor, sizeof(vendor), "%04x", ctx->device->vendor);
	snprintf(product, sizeof(product), "%04x", ctx->device->product);
	snprintf(source, sizeof(source), "%#llx", (unsigned long long)rec->source);
	o = json_pack("{s:s, s:s, s:s, s:b, s:s, s:s, s:s, s:s, s:i, s:i, s:s,"
		      " s:{s:i, s:s, s:s, s:s, s:s, s:s}, s:{s:i, s:s, s:s},"
		      " s:{s:i, s:i, s:i, s:i, s:s, s:s}}",
		      "time", when, "event", "decision", "action", "deny", "enforced", 1,
		      "errno", "EPERM", "hook", "hid_hw_request", "request", "set_report",
		      "report_type", "feature", "report_id", rec->report_id, "length", rec->len,
		      "payload", payload,
		      "device", "hid_id", rec->hid_id, "sysfs", ctx->device->sysname, "bus", "usb",
		      "vendor", vendor, "product", product, "name", ctx->device->name,
		      "rule", "index", rec->rule_index, "name", ctx->rule_name,
		      "rule_set", ctx->ruleset_name,
		      "process", "pid", (int)(rec->pid_tgid >> 32), "tid", (int)(uint32_t)rec->pid_tgid,
		      "uid", (int)(uint32_t)rec->uid_gid, "gid", (int)(rec->uid_gid >> 32),
		      "comm", comm, "source", source);
	line = json_dumps(o, JSON_COMPACT);
	len = line ? strlen(line) : 0;
	free(line);
	json_decref(o);
	return len;
}

int main(int argc, char **argv)
{
	long per_round = argc > 1 ? atol(argv[1]) : 200000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	long batch = argc > 3 ? atol(argv[3]) : 256;
	char path[64];
	const struct audit_context ctx = {
		.device = &device, .rule_name = "dualsense-deny-firmware-update",
		.ruleset_name = "sony-dualsense",
	};
	struct hid_fw_record rec = {
		.source = 0xffff888004a1b000ULL, .pid_tgid = (uint64_t)4242 << 32 | 4242,
		.uid_gid = (uint64_t)1000 << 32 | 1000, .hid_id = 7, .rule_index = 3,
		.len = 64, .err = EPERM, .hook = HID_FW_HOOK_HW_REQUEST,
		.reqtype = HID_RULES_REQ_SET_REPORT, .rtype = HID_RULES_RTYPE_FEATURE,
		.report_id = 0xf4, .action = HID_RULE_DENY, .payload_len = 8,
		/* no HAVE_PID: /proc lookups would measure the kernel, not us */
		.flags = HID_FW_REC_ENFORCED | HID_FW_REC_HAVE_UID | HID_FW_REC_HAVE_COMM,
		.comm = "fw-attacker",
		.payload = { 0xf4, 1, 2, 3, 4, 5, 6, 7 },
	};
	double direct_best = 1e9, tree_best = 1e9;
	struct audit_log a;
	size_t sink = 0;

	if (per_round <= 0 || rounds <= 0 || batch <= 0) {
		fprintf(stderr, "usage: %s [RECORDS_PER_ROUND [ROUNDS [BATCH]]]\n", argv[0]);
		return 2;
	}
	if (audit_log_open(&a, "/dev/null", true) < 0) {
		perror("bench-audit: /dev/null");
		return 1;
	}
	a.summary_burst = 0;	/* no summaries: only the log line is measured */
	rec.time_ns = 0;
	for (int r = 0; r < rounds; r++) {
		double t0 = now_s(), t1, t2;

		for (long i = 0; i < per_round; i++) {
			rec.report_id = (uint8_t)i;
			audit_write_record(&a, &rec, &ctx);
		}
		audit_flush(&a);
		t1 = now_s();
		for (long i = 0; i < per_round; i++) {
			char when[40];

			rec.report_id = (uint8_t)i;
			audit_format_time(when, sizeof(when), 1796279380123000000ULL + i);
			sink += tree_line(&rec, &ctx, when);
		}
		t2 = now_s();
		if (t1 - t0 < direct_best)
			direct_best = t1 - t0;
		if (t2 - t1 < tree_best)
			tree_best = t2 - t1;
	}
	printf("audit line formatting, %ld records per round, best of %d rounds (sink %zu):\n",
	       per_round, rounds, sink % 10);
	printf("  direct formatter (audit_write_record): %.3f us/record\n", direct_best / per_round * 1e6);
	printf("  jansson tree + json_dumps:             %.3f us/record\n", tree_best / per_round * 1e6);
	printf("  ratio tree/direct: %.2f\n", tree_best / direct_best);
	audit_log_close(&a);

	snprintf(path, sizeof(path), "/tmp/bench-audit.%d.jsonl", (int)getpid());
	rec.pid_tgid = (uint64_t)getpid() << 32 | (uint32_t)getpid();
	rec.flags = HID_FW_REC_ENFORCED | HID_FW_REC_HAVE_PID | HID_FW_REC_HAVE_UID |
		    HID_FW_REC_HAVE_COMM;
	printf("drain path into a file, batches of %ld, median of %d rounds of %ld records:\n",
	       batch, rounds, per_round);
	printf("  records with the kernel's uid and comm (port):  %.0f records/s\n",
	       drain_rate(path, rec, &ctx, per_round, rounds, batch));
	rec.flags = HID_FW_REC_ENFORCED | HID_FW_REC_HAVE_PID;
	printf("  records with the pid only (upstream):           %.0f records/s\n",
	       drain_rate(path, rec, &ctx, per_round, rounds, batch));
	return 0;
}
