// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compile 10,000 rules over 1,000 devices: 10 policy files of 100 rule sets,
 * one rule set of 10 rules per device, loaded from a directory, validated,
 * then compiled for each device. Prints wall time (ms) per phase and the
 * process's maximum resident set (MB). Targets: < 200 ms, < 50 MB.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "policy/policy.h"

#define N_FILES		10
#define SETS_PER_FILE	100
#define RULES_PER_SET	10
#define N_DEVICES	(N_FILES * SETS_PER_FILE)

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint16_t device_vendor(int d) { return (uint16_t)(0x1000 + d / 100); }
static uint16_t device_product(int d) { return (uint16_t)(0x2000 + d); }

/* One rule of a realistic mix: IDs, ranges, payload bytes, allow and deny. */
static void write_rule(FILE *f, int d, int r)
{
	fprintf(f, "%s{\"name\": \"dev%d-rule%d\", \"description\": \"benchmark rule\", ", r ? ",\n" : "", d, r);
	switch (r % 5) {
	case 0:
		fprintf(f, "\"request\": \"set_report\", \"report_type\": \"feature\", \"report_id\": \"0x%02x\", "
			"\"payload\": [{\"offset\": 1, \"value\": \"0x%02x\"}], \"action\": \"deny\"}", 0xf0 + r, 0x90 + r);
		break;
	case 1:
		fprintf(f, "\"request\": \"output_report\", \"report_id\": %d, "
			"\"payload\": [{\"offset\": 1, \"value\": \"ff 80 f0 49 43 50\"}], \"action\": \"deny\", \"errno\": \"EACCES\"}", r);
		break;
	case 2:
		fprintf(f, "\"request\": [\"get_report\", \"set_report\"], \"report_type\": [\"feature\", \"output\"], "
			"\"report_id\": [\"0x%02x-0x%02x\", 200], \"action\": \"allow\", \"log\": true}", 0x20 + r, 0x2f + r);
		break;
	case 3:
		fprintf(f, "\"request\": \"set_report\", \"report_type\": \"feature\", \"report_id\": 0, "
			"\"payload\": [{\"offset\": 1, \"value\": \"%02x\", \"mask\": \"f0\"}, {\"offset\": 8, \"value\": \"50 52 45\"}], "
			"\"action\": \"deny\"}", (0x10 * r) & 0xf0);
		break;
	default:
		fprintf(f, "\"request\": \"input_event\", \"report_id\": %d, \"action\": \"deny\"}", 100 + r);
		break;
	}
}

static int write_policies(const char *dir)
{
	for (int file = 0; file < N_FILES; file++) {
		char path[512];
		_cleanup_fclose_ FILE *f = NULL;

		snprintf(path, sizeof(path), "%s/%02d-bench.json", dir, file);
		f = fopen(path, "w");
		if (!f)
			return -errno;
		fprintf(f, "{\"version\": 1, \"devices\": [\n");
		for (int s = 0; s < SETS_PER_FILE; s++) {
			int d = file * SETS_PER_FILE + s;

			fprintf(f, "%s{\"name\": \"dev%d\", \"match\": {\"bus\": [\"usb\", \"bluetooth\"], "
				"\"vendor\": \"0x%04x\", \"product\": \"0x%04x\"}, \"default\": \"allow\", \"rules\": [\n",
				s ? ",\n" : "", d, device_vendor(d), device_product(d));
			for (int r = 0; r < RULES_PER_SET; r++)
				write_rule(f, d, r);
			fprintf(f, "]}");
		}
		fprintf(f, "]}\n");
	}
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/hid-policy-bench.XXXXXX";
	const char *dirs[] = { dir };
	_cleanup_free_ struct hid_device_rules *table = malloc(sizeof(*table));
	struct diag diag = {};
	struct policy *p = NULL;
	size_t compiled_rules = 0;
	double t0, t1, t2;
	struct rusage ru;
	int r;

	if (!table || !mkdtemp(dir))
		return 1;
	r = write_policies(dir);
	if (r < 0) {
		fprintf(stderr, "bench: cannot write policies: %s\n", strerror(-r));
		return 1;
	}

	t0 = now_ms();
	r = policy_load_dirs(dirs, 1, true, &diag, &p);
	t1 = now_ms();
	if (r < 0 || diag.n) {
		diag_print(&diag, stderr);
		fprintf(stderr, "bench: the generated policy is not clean\n");
		return 1;
	}
	for (int d = 0; d < N_DEVICES; d++) {
		struct policy_device dev = {
			.bus = 0x03, .vendor = device_vendor(d), .product = device_product(d),
			.name = "Bench Device",
		};

		r = policy_compile(p, &dev, table, &diag);
		if (r < 0 || table->n_rules != RULES_PER_SET) {
			fprintf(stderr, "bench: device %d compiled to %u rules (%d)\n", d, table->n_rules, r);
			return 1;
		}
		compiled_rules += table->n_rules;
	}
	t2 = now_ms();
	getrusage(RUSAGE_SELF, &ru);

	printf("policy files:      %d\n", N_FILES);
	printf("rules:             %zu\n", p->n_rules);
	printf("devices compiled:  %d (%zu compiled rules)\n", N_DEVICES, compiled_rules);
	printf("load + validate:   %.1f ms\n", t1 - t0);
	printf("compile:           %.1f ms\n", t2 - t1);
	printf("total:             %.1f ms (target < 200 ms)\n", t2 - t0);
	printf("max RSS:           %.1f MB (target < 50 MB)\n", ru.ru_maxrss / 1024.0);

	policy_free(p);
	diag_done(&diag);
	for (int file = 0; file < N_FILES; file++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%02d-bench.json", dir, file);
		unlink(path);
	}
	rmdir(dir);
	return (t2 - t0 < 200 && ru.ru_maxrss < 50 * 1024) ? 0 : 2;
}
