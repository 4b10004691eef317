// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyd benchmarks, run in the test VM by scripts/bench.sh, which
 * boots both kernels in turn and gathers the figures of every boot:
 *
 *   paths     input reports and allowed SET_REPORT requests with no
 *             program, a pass-through program, the shipped policies
 *             attached (no rule names input) and a firewall with an input
 *             rule, each on a device measured beside a bare one: rates,
 *             the kernel's function profile of the event and request paths
 *             (and what the programs add to hid-core's entry points), and
 *             the programs' own run time (BPF stats);
 *   rules     the firewall's hid_hw_request run time for 1, 16 and 64
 *             rules, the request matching none, the first and the last,
 *             with rules on distinct report IDs and all on one;
 *   audit     distinct records per second from the ring buffer to the file
 *             (requests that differ in their payload, so that none is a
 *             repeat the daemon coalesces; no record budget), beside what
 *             the same number of identical requests gives (coalesced: one
 *             record with a count), and the counters after a flood of
 *             distinct records larger than the ring buffer;
 *   hotplug   time from creating a device to its first refused request;
 *   start     the daemon's start with a device present (issue 39): the
 *             kernel's verifier's work on each firewall program (the
 *             instructions it processed, deterministic, and its own
 *             verification time), the firewall object's load time, and
 *             the time from the daemon's start to the device's first
 *             refused request and to its READY=1, with the programs it
 *             loaded for a policy without input rules;
 *   dispatch  (only when named) the event path function by function, with
 *             a pass-through program against none;
 *   flood     (only when named) a million refused requests (--flood N) on
 *             one device from one process, one refused on a second device
 *             amid them: the time they take, the audit log's size, whether
 *             the second device's refusal has a record of its own, and
 *             whether every refusal is logged or counted.
 *
 * Every figure is one line "figure NAME VALUE" on stdout; remarks start
 * with "#". Only ratios mean anything in an emulated VM.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/hidraw.h>

#include "bpf_stats.h"
#include "enforce/loader.h"
#include "ftrace_profile.h"
#include "hid_bpf_loader.h"
#include "hid_firewall.h"
#include "policyd_run.h"
#include "uhid_dev.h"

#define HOTPLUG_DEVICES 50
#define REPORT_LEN 64
/* The feature report no rule names; rules name FIRST_RULE_ID on. */
#define FREE_FEATURE_ID 0x0f
#define FIRST_RULE_ID 0x10
#define MAX_BENCH_RULES 64
/* A timed figure is the median over BATCHES batches of BATCH_CALLS
 * calls: a batch during which the host took the CPU from the guest
 * counts once, not in the average of all. */
#define BATCHES 15
#define BATCH_CALLS 30
/* The function profiles of the paths: more batches, since a figure is
 * also the difference between two devices' batches. */
#define PROFILE_BATCHES 31
/* A rate figure: slices alternating between the two devices. */
#define RATE_SLICES 16
/* Audit: records drained in one go (fewer than the ring buffer holds), and
 * a flood that overfills it; both fewer than 65536, the distinct payloads
 * of distinct_requests(). */
#define DRAIN_RECORDS 10000
#define FLOOD_RECORDS 30000

static double rate_seconds = 1.0;
static unsigned long flood_requests = 1000000;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, int r)
{
	fprintf(stderr, "bench-firewall: %s: %s\n", what, strerror(r < 0 ? -r : r));
	exit(1);
}

static void figure(const char *name, double value)
{
	if (value >= 0)
		printf("figure %s %.6g\n", name, value);
}

/* A figure that may be negative (a difference); NAN: none. */
static void figure_signed(const char *name, double value)
{
	if (!isnan(value))
		printf("figure %s %.6g\n", name, value);
}

/*
 * A vendor collection with input report 1, output report 2 and feature
 * reports FREE_FEATURE_ID to FIRST_RULE_ID + MAX_BENCH_RULES - 1, all 64
 * bytes with their ID, so that every request the benchmarks make is to a
 * report the device declares.
 */
static size_t bench_rdesc(uint8_t *out)
{
	static const uint8_t head[] = {
		0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x15, 0x00, 0x26, 0xff, 0x00,
		0x75, 0x08, 0x95, REPORT_LEN - 1,
		0x85, 0x01, 0x09, 0x02, 0x81, 0x02,
		0x85, 0x02, 0x09, 0x03, 0x91, 0x02,
	};
	size_t n = sizeof(head);

	memcpy(out, head, n);
	for (int id = FREE_FEATURE_ID; id < FIRST_RULE_ID + MAX_BENCH_RULES; id++) {
		const uint8_t item[] = { 0x85, (uint8_t)id, 0x09, 0x04, 0xb1, 0x02 };

		memcpy(out + n, item, sizeof(item));
		n += sizeof(item);
	}
	out[n++] = 0xc0;
	return n;
}

static void create(struct uhid_dev *dev, uint16_t vendor, uint16_t product)
{
	static uint8_t rdesc[512];
	const struct uhid_dev_config cfg = {
		.name = "bench device",
		.vendor = vendor,
		.product = product,
		.rdesc = rdesc,
		.rdesc_size = bench_rdesc(rdesc),
	};
	int r = uhid_dev_create(dev, &cfg);

	if (r < 0)
		die("creating a uhid device", r);
}

static int set_feature(int fd, uint8_t id, uint8_t byte1)
{
	uint8_t buf[REPORT_LEN] = { id, byte1 };

	return ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0 ? errno : 0;
}

static void requests(int fd, uint8_t id, uint8_t byte1, int n, int want)
{
	for (int i = 0; i < n; i++) {
		int r = set_feature(fd, id, byte1);

		if (r != want)
			die(want ? "request not refused" : "allowed request refused", r ? r : EIO);
	}
}

/* N requests to feature report ID, each with its own number in bytes 1-2:
 * every record differs from the one before in its payload, so the daemon
 * writes each one (identical ones are coalesced, doc/security.md 5). */
static void distinct_requests(int fd, uint8_t id, int n, int want)
{
	for (int i = 0; i < n; i++) {
		uint8_t buf[REPORT_LEN] = { id, (uint8_t)(i & 0xff), (uint8_t)(i >> 8) };
		int r = ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0 ? errno : 0;

		if (r != want)
			die(want ? "request not refused" : "allowed request refused", r ? r : EIO);
	}
}

/* One input report from the device, read back from hidraw. */
static void input_report(struct uhid_dev *dev, int fd, uint8_t seq)
{
	uint8_t report[REPORT_LEN] = { 1, seq }, buf[256];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (uhid_dev_send_input(dev, report, sizeof(report)) ||
	    poll(&p, 1, 1000) != 1 || read(fd, buf, sizeof(buf)) != REPORT_LEN)
		die("input report lost", EIO);
}

static double input_rate(struct uhid_dev *dev, int fd, double seconds)
{
	double t0 = now_s(), t;
	unsigned long n = 0;

	do {
		for (int i = 0; i < 64; i++, n++)
			input_report(dev, fd, (uint8_t)n);
		t = now_s() - t0;
	} while (t < seconds);
	return n / t;
}

static double request_rate(int fd, double seconds)
{
	double t0 = now_s(), t;
	unsigned long n = 0;

	do {
		requests(fd, FREE_FEATURE_ID, 0, 16, 0);
		n += 16;
		t = now_s() - t0;
	} while (t < seconds);
	return n / t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the N values of V that are not NAN (NAN: none). */
static double median_signed(double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	if (!k)
		return NAN;
	qsort(v, k, sizeof(*v), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* The median of the N values of V that are not negative (-1: none). */
static double median(double *v, size_t n)
{
	double m;

	for (size_t i = 0; i < n; i++)
		if (v[i] < 0)
			v[i] = NAN;
	m = median_signed(v, n);
	return isnan(m) ? -1 : m;
}

/* What a timed batch does: input reports from DEV read back through FD,
 * or allowed SET_REPORT requests of report ID with BYTE1 through FD. */
struct workload {
	struct uhid_dev *dev;
	int fd;
	bool input;
	uint8_t id, byte1;
};

static void run_batch(const struct workload *w)
{
	if (w->input) {
		for (int i = 0; i < BATCH_CALLS; i++)
			input_report(w->dev, w->fd, (uint8_t)i);
	} else {
		requests(w->fd, w->id, w->byte1, BATCH_CALLS, 0);
	}
}

/* Run time of the programs named PROG per call of W, from BPF stats
 * (enabled by the caller): the median of the batches' averages. */
static double bpf_ns(const char *prog, const struct workload *w)
{
	double avg[BATCHES];

	for (int b = 0; b < BATCHES; b++) {
		struct prog_stats s0 = bpf_stats_of(prog);

		run_batch(w);
		avg[b] = bpf_stats_avg_ns(s0, bpf_stats_of(prog));
	}
	return median(avg, BATCHES);
}

static void start_daemon_with(struct policyd_run *run, const char *const *names,
			      const char *const *texts, const char *const *args)
{
	int r = policyd_prepare(run);

	for (size_t i = 0; r >= 0 && names[i]; i++)
		r = policyd_write_policy(run, names[i], texts[i]);
	if (r >= 0)
		r = policyd_start(run, args);
	if (r < 0)
		die("starting hid-policyd", r);
}

static void start_daemon(struct policyd_run *run, const char *const *names,
			 const char *const *texts)
{
	start_daemon_with(run, names, texts, NULL);
}

static void stop_daemon(struct policyd_run *run)
{
	policyd_stop(run, false);
	policyd_cleanup(run);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t size = 0;

	if (!f)
		die(path, errno);
	if (getdelim(&text, &size, '\0', f) < 0)
		die(path, EIO);
	fclose(f);
	return text;
}

/* hid-policyd with every shipped rule set (policies/, the working
 * directory being the repository). */
static void start_shipped(struct policyd_run *run)
{
	const char *names[16] = { 0 }, *texts[16] = { 0 };
	glob_t g;

	if (glob("policies/[0-9]*.json", 0, NULL, &g) || g.gl_pathc >= 16)
		die("policies/*.json", ENOENT);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		names[i] = strrchr(g.gl_pathv[i], '/') + 1;
		texts[i] = read_text(g.gl_pathv[i]);
	}
	start_daemon(run, names, texts);
	for (size_t i = 0; i < g.gl_pathc; i++)
		free((char *)texts[i]);
	globfree(&g);
}

/* The firewall on the input path: a rule that names input events (of a
 * report the device never sends), so every report runs the program. */
static void start_input_rule(struct policyd_run *run)
{
	static const char *const names[] = { "50-bench-input.json", NULL };
	static const char *const texts[] = {
		"{ \"version\": 1, \"devices\": [ { \"name\": \"bench-input\",\n"
		"  \"match\": { \"bus\": \"usb\", \"vendor\": \"0x054c\", \"product\": \"0x0ce6\" },\n"
		"  \"default\": \"allow\", \"rules\": [\n"
		"    { \"name\": \"deny-input-7f\", \"request\": \"input_event\",\n"
		"      \"report_id\": \"0x7f\", \"action\": \"deny\" } ] } ] }\n",
		NULL,
	};

	start_daemon(run, names, texts);
}

enum path_case { CASE_NONE, CASE_PASS, CASE_SHIPPED, CASE_INPUT_RULE, N_CASES };
static const char *const case_names[N_CASES] = { "none", "pass", "shipped", "firewall" };

/*
 * The event and request paths' functions on both kernels: uhid enters
 * hid-core through hid_safe_input_report() where the kernel has it and
 * calls it (Debian's 6.1), else hid_input_report(); the port dispatches
 * through __dispatch_*, upstream through dispatch_*. A figure takes the
 * first of its names that ran.
 *
 * The profiler's own cost of a traced function (a few hundred ns in an
 * emulated guest) lands in the time of a traced caller, and upstream calls
 * its dispatch for every report while the port calls it only when a program
 * is attached: functions that nest are profiled in separate sessions, so
 * that hid-core's entries ("input", "request") carry no such cost and their
 * difference between the two devices is what the dispatch adds.
 */
#define PROFILE_SESSIONS 2
static const struct {
	const char *what, *names[3];
	int session;
} path_functions[] = {
	{ "input", { "hid_safe_input_report", "hid_input_report" }, 0 },
	{ "request", { "__hid_hw_raw_request" }, 0 },
	{ "input_dispatch", { "__dispatch_hid_bpf_device_event", "dispatch_hid_bpf_device_event" }, 1 },
	{ "request_dispatch", { "__dispatch_hid_bpf_raw_requests", "dispatch_hid_bpf_raw_requests" }, 1 },
	/* The profiler's own cost on this kernel: a function that does next
	 * to nothing (no fasync reader), called once per report by hidraw on
	 * both; a dispatch's own time is its figure minus this one. */
	{ "floor", { "kill_fasync" }, 1 },
};
#define N_PATH_FUNCTIONS (sizeof(path_functions) / sizeof(path_functions[0]))

/* Start the function profiler on the functions of SESSION. 0 or -errno. */
static int profile_start(int session)
{
	const char *names[N_PATH_FUNCTIONS * 3 + 1] = { 0 };
	size_t n = 0;
	int r;

	for (size_t f = 0; f < N_PATH_FUNCTIONS; f++)
		for (size_t k = 0; k < 3 && path_functions[f].names[k]; k++)
			if (path_functions[f].session == session)
				names[n++] = path_functions[f].names[k];
	r = fprof_start(names);
	return r < 0 ? r : 0;
}

/* One batch of W_INPUT and W_REQUEST under the running profiler: the
 * average ns per call of each of path_functions, -1 where none ran. */
static void profile_batch(const struct workload *w_input, const struct workload *w_request,
			  double avg[N_PATH_FUNCTIONS])
{
	struct fprof_result before, after;

	fprof_read(&before);
	run_batch(w_input);
	run_batch(w_request);
	fprof_read(&after);
	for (size_t f = 0; f < N_PATH_FUNCTIONS; f++) {
		avg[f] = -1;
		for (size_t k = 0; k < 3 && path_functions[f].names[k] && avg[f] < 0; k++)
			avg[f] = fprof_delta_avg_ns(&before, &after, path_functions[f].names[k]);
	}
}

/* A side (the device the case sets up) or the bare device beside it. */
struct side {
	struct uhid_dev *dev;
	int fd;
	const char *prefix;	/* "" or "bare_" */
};

/*
 * Rates of both sides, side by side: RATE_SLICES slices, each measuring
 * both sides in turn (which one first alternates). The rate of a side is
 * the median of its slices, and VS the median of the slices' ratios of A
 * to B, so that a slice during which the host took the CPU from the guest
 * counts once.
 */
static void measure_rates(struct side *sides[2], double in[2], double rq[2], double *in_vs,
			  double *rq_vs)
{
	double ins[2][RATE_SLICES], rqs[2][RATE_SLICES], in_r[RATE_SLICES], rq_r[RATE_SLICES];
	const double t = rate_seconds / RATE_SLICES;

	for (int slice = 0; slice < RATE_SLICES; slice++) {
		for (int i = 0; i < 2; i++) {
			int s = (slice + i) % 2;

			ins[s][slice] = input_rate(sides[s]->dev, sides[s]->fd, t);
			rqs[s][slice] = request_rate(sides[s]->fd, t);
		}
		in_r[slice] = ins[0][slice] / ins[1][slice];
		rq_r[slice] = rqs[0][slice] / rqs[1][slice];
	}
	for (int s = 0; s < 2; s++) {
		in[s] = median(ins[s], RATE_SLICES);
		rq[s] = median(rqs[s], RATE_SLICES);
	}
	*in_vs = median(in_r, RATE_SLICES);
	*rq_vs = median(rq_r, RATE_SLICES);
}

/*
 * The function profiles of both sides, batches alternating between them,
 * into PROF (-1 where a function did not run or could not be profiled).
 */
static void measure_profiles(struct side *sides[2],
			     double prof[2][N_PATH_FUNCTIONS][PROFILE_BATCHES])
{
	for (int s = 0; s < 2; s++)
		for (size_t f = 0; f < N_PATH_FUNCTIONS; f++)
			for (int bt = 0; bt < PROFILE_BATCHES; bt++)
				prof[s][f][bt] = -1;
	for (int sess = 0; sess < PROFILE_SESSIONS; sess++) {
		int r = profile_start(sess);

		if (r < 0) {
			printf("# function profile, session %d: %s\n", sess, strerror(-r));
			fprof_stop();
			continue;
		}
		for (int bt = 0; bt < PROFILE_BATCHES; bt++)
			for (int i = 0; i < 2; i++) {
				int s = (bt + i) % 2;
				const struct workload w_input = {
					.dev = sides[s]->dev, .fd = sides[s]->fd, .input = true,
				};
				const struct workload w_request = {
					.fd = sides[s]->fd, .id = FREE_FEATURE_ID,
				};
				double avg[N_PATH_FUNCTIONS];

				profile_batch(&w_input, &w_request, avg);
				for (size_t f = 0; f < N_PATH_FUNCTIONS; f++)
					if (path_functions[f].session == sess)
						prof[s][f][bt] = avg[f];
			}
		fprof_stop();
	}
}

/*
 * The figures of case C: its device A against the bare device B (no
 * program, no daemon's rules), measured side by side: rate slices and
 * profiled batches alternate between them, so that the host's load hits
 * both alike; then the programs' own run time on A.
 *
 *   rate.C.[bare_]input, .request      reports, requests per second
 *   rate.C.input_vs_bare, .request_vs_bare   A against B, slice by slice
 *   ftrace.C.[bare_]FUNCTION_ns        ns per call of path_functions
 *   ftrace.C.input_added_ns, .request_added_ns   hid-core's entry on A
 *                                      minus on B, batch by batch: what
 *                                      A's programs and their dispatch add
 *   bpf.C.input_ns, .request_ns        the programs' run time (BPF stats)
 */
static void measure_case(enum path_case c, struct side *a, struct side *b)
{
	struct side *sides[2] = { a, b };
	double in[2], rq[2], in_vs, rq_vs, prof[2][N_PATH_FUNCTIONS][PROFILE_BATCHES];
	const char *cn = case_names[c];
	char name[96];

	measure_rates(sides, in, rq, &in_vs, &rq_vs);
	measure_profiles(sides, prof);
	for (int s = 0; s < 2; s++) {
		snprintf(name, sizeof(name), "rate.%s.%sinput", cn, sides[s]->prefix);
		figure(name, in[s]);
		snprintf(name, sizeof(name), "rate.%s.%srequest", cn, sides[s]->prefix);
		figure(name, rq[s]);
		for (size_t f = 0; f < N_PATH_FUNCTIONS; f++) {
			snprintf(name, sizeof(name), "ftrace.%s.%s%s_ns", cn, sides[s]->prefix,
				 path_functions[f].what);
			figure(name, median(prof[s][f], PROFILE_BATCHES));
		}
	}
	snprintf(name, sizeof(name), "rate.%s.input_vs_bare", cn);
	figure(name, in_vs);
	snprintf(name, sizeof(name), "rate.%s.request_vs_bare", cn);
	figure(name, rq_vs);
	for (size_t f = 0; f < N_PATH_FUNCTIONS; f++) {
		double added[PROFILE_BATCHES];

		if (path_functions[f].session != 0)
			continue;
		for (int bt = 0; bt < PROFILE_BATCHES; bt++)
			added[bt] = prof[0][f][bt] >= 0 && prof[1][f][bt] >= 0 ?
				    prof[0][f][bt] - prof[1][f][bt] : NAN;
		snprintf(name, sizeof(name), "ftrace.%s.%s_added_ns", cn, path_functions[f].what);
		figure_signed(name, median_signed(added, PROFILE_BATCHES));
	}
	if (c == CASE_NONE)
		return;
	if (bpf_stats_enable(true) < 0)
		die("kernel.bpf_stats_enabled", errno);
	{
		const struct workload w_input = { .dev = a->dev, .fd = a->fd, .input = true };
		const struct workload w_request = { .fd = a->fd, .id = FREE_FEATURE_ID };

		snprintf(name, sizeof(name), "bpf.%s.input_ns", cn);
		figure(name, bpf_ns(c == CASE_PASS ? "pass_event" : "fw_device_event", &w_input));
		snprintf(name, sizeof(name), "bpf.%s.request_ns", cn);
		figure(name, bpf_ns(c == CASE_PASS ? "pass_request" : "fw_hw_request", &w_request));
	}
	bpf_stats_enable(false);
}

/* The pass-through program attached to HID_ID: a fresh object each time
 * (a struct_ops map registers once), from bench_passthrough.bpf.o beside
 * this program. */
static struct bpf_object *attach_passthrough(int hid_id, struct bpf_link **link)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct bpf_object *obj;

	if (n <= 0)
		die("/proc/self/exe", errno);
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	setenv("HID_BPF_TEST_OBJDIR", self, 1);
	obj = hbt_load("bench_passthrough", hid_id, NULL, 0);
	if (!obj)
		die("loading the pass-through program", errno);
	if (hbt_attach(obj, "passthrough", link) < 0)
		die("attaching the pass-through program", errno);
	return obj;
}

/*
 * Device A is created afresh for each case: upstream keeps a device's event
 * buffer, and copies every report into it, from the first hid_device_event
 * program attached until the device goes, so a case after the pass-through
 * one would measure that copy on a device that never had a program on a
 * user's machine.
 */
static void bench_paths(void)
{
	struct uhid_dev dev_a, dev_b;
	struct side a = { .dev = &dev_a, .prefix = "" }, b = { .dev = &dev_b, .prefix = "bare_" };

	create(&dev_b, 0x1234, 0x7005);
	/* O_NONBLOCK is for reads; requests block in the kernel regardless. */
	b.fd = uhid_dev_open_hidraw(&dev_b, O_NONBLOCK);
	if (b.fd < 0)
		die("opening hidraw", b.fd);
	input_rate(&dev_b, b.fd, 0.2);	/* warm up */
	for (int c = 0; c < N_CASES; c++) {
		struct bpf_object *pass = NULL;
		struct bpf_link *link = NULL;
		struct policyd_run run;

		/* A DualSense's IDs, so that the shipped rule set applies; no
		 * rule set names B's. */
		create(&dev_a, 0x054c, 0x0ce6);
		a.fd = uhid_dev_open_hidraw(&dev_a, O_NONBLOCK);
		if (a.fd < 0)
			die("opening hidraw", a.fd);
		input_rate(&dev_a, a.fd, 0.2);
		switch (c) {
		case CASE_PASS:
			pass = attach_passthrough(dev_a.hid_id, &link);
			break;
		case CASE_SHIPPED:
			start_shipped(&run);
			break;
		case CASE_INPUT_RULE:
			start_input_rule(&run);
			break;
		}
		measure_case(c, &a, &b);
		if (c == CASE_PASS) {
			bpf_link__destroy(link);
			bpf_object__close(pass);
		} else if (c != CASE_NONE) {
			stop_daemon(&run);
		}
		close(a.fd);
		uhid_dev_destroy(&dev_a);
	}
	close(b.fd);
	uhid_dev_destroy(&dev_b);
}

/*
 * The event path function by function, with one pass-through program:
 * every function below is profiled alone in its own session, so that no
 * other traced function's profiler cost lands in its time, on device A
 * (the program) and the bare device B, batches alternating between them.
 * Only input reports; the names of either kernel, the first that ran.
 *
 *   dispatch.FUNCTION.pass_ns, .bare_ns   ns per call on A, on B
 *   dispatch.FUNCTION.added_ns            A minus B, batch by batch
 *   dispatch.bpf_ns                       the program's run time (BPF stats)
 *
 * "floor" (kill_fasync, which does next to nothing) is the profiler's own
 * cost of one traced function on this kernel.
 */
#define DISPATCH_BATCHES 61
static const struct {
	const char *what, *names[3];
} event_functions[] = {
	{ "entry", { "hid_safe_input_report", "hid_input_report" } },
	{ "core", { "__hid_input_report" } },
	{ "dispatch", { "__dispatch_hid_bpf_device_event", "dispatch_hid_bpf_device_event" } },
	{ "get_report", { "hid_get_report" } },
	{ "raw_event", { "hid_report_raw_event" } },
	{ "hidraw", { "hidraw_report_event" } },
	{ "kmemdup", { "kmemdup", "kmemdup_noprof" } },
	{ "migrate_disable", { "migrate_disable" } },
	{ "migrate_enable", { "migrate_enable" } },
	{ "floor", { "kill_fasync" } },
};
#define N_EVENT_FUNCTIONS (sizeof(event_functions) / sizeof(event_functions[0]))

static void bench_dispatch(void)
{
	struct uhid_dev dev_a, dev_b;
	struct side a = { .dev = &dev_a, .prefix = "pass_" }, b = { .dev = &dev_b, .prefix = "bare_" };
	struct side *sides[2] = { &a, &b };
	struct bpf_object *pass;
	struct bpf_link *link;
	char name[96];

	create(&dev_b, 0x1234, 0x7005);
	create(&dev_a, 0x1234, 0x7006);
	a.fd = uhid_dev_open_hidraw(&dev_a, O_NONBLOCK);
	b.fd = uhid_dev_open_hidraw(&dev_b, O_NONBLOCK);
	if (a.fd < 0 || b.fd < 0)
		die("opening hidraw", a.fd < 0 ? a.fd : b.fd);
	pass = attach_passthrough(dev_a.hid_id, &link);
	input_rate(&dev_a, a.fd, 0.2);	/* warm up */
	input_rate(&dev_b, b.fd, 0.2);
	for (size_t f = 0; f < N_EVENT_FUNCTIONS; f++) {
		double t[2][DISPATCH_BATCHES], added[DISPATCH_BATCHES];
		const char *names[4] = { 0 };
		int r;

		for (size_t k = 0; k < 3 && event_functions[f].names[k]; k++)
			names[k] = event_functions[f].names[k];
		r = fprof_start(names);
		if (r < 0) {
			printf("# function profile of %s: %s\n", event_functions[f].what, strerror(-r));
			fprof_stop();
			continue;
		}
		for (int bt = 0; bt < DISPATCH_BATCHES; bt++) {
			for (int i = 0; i < 2; i++) {
				int s = (bt + i) % 2;
				const struct workload w = {
					.dev = sides[s]->dev, .fd = sides[s]->fd, .input = true,
				};
				struct fprof_result before, after;

				fprof_read(&before);
				run_batch(&w);
				fprof_read(&after);
				t[s][bt] = -1;
				for (size_t k = 0; names[k] && t[s][bt] < 0; k++)
					t[s][bt] = fprof_delta_avg_ns(&before, &after, names[k]);
			}
			added[bt] = t[0][bt] >= 0 && t[1][bt] >= 0 ? t[0][bt] - t[1][bt] : NAN;
		}
		fprof_stop();
		for (int s = 0; s < 2; s++) {
			snprintf(name, sizeof(name), "dispatch.%s.%sns", event_functions[f].what,
				 sides[s]->prefix);
			figure(name, median(t[s], DISPATCH_BATCHES));
		}
		snprintf(name, sizeof(name), "dispatch.%s.added_ns", event_functions[f].what);
		figure_signed(name, median_signed(added, DISPATCH_BATCHES));
	}
	if (bpf_stats_enable(true) < 0)
		die("kernel.bpf_stats_enabled", errno);
	{
		const struct workload w = { .dev = a.dev, .fd = a.fd, .input = true };

		figure("dispatch.bpf_ns", bpf_ns("pass_event", &w));
	}
	bpf_stats_enable(false);
	bpf_link__destroy(link);
	bpf_object__close(pass);
	close(a.fd);
	close(b.fd);
	uhid_dev_destroy(&dev_a);
	uhid_dev_destroy(&dev_b);
}

/*
 * N allow rules for set_report feature on PRODUCT; rule i holds when byte 1
 * is i. DISTINCT: rule i names report FIRST_RULE_ID + i; else all name
 * FIRST_RULE_ID. Allow rules log nothing, so the run time is the decision.
 */
static char *rules_policy(uint16_t product, int n, bool distinct)
{
	size_t cap = 1024 + n * 256, len;
	char *s = malloc(cap);

	if (!s)
		die("policy", ENOMEM);
	len = snprintf(s, cap,
		       "{ \"version\": 1, \"devices\": [ { \"name\": \"bench-%04x\",\n"
		       "  \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x%04x\" },\n"
		       "  \"default\": \"allow\", \"rules\": [", product, product);
	for (int i = 0; i < n; i++)
		len += snprintf(s + len, cap - len,
				"%s\n    { \"name\": \"allow-%04x-%d\", \"request\": \"set_report\", \"report_type\": \"feature\",\n"
				"      \"report_id\": %d, \"payload\": [ { \"offset\": 1, \"value\": \"0x%02x\" } ],\n"
				"      \"action\": \"allow\" }", i ? "," : "", product, i,
				distinct ? FIRST_RULE_ID + i : FIRST_RULE_ID, i);
	snprintf(s + len, cap - len, "\n  ] } ] }\n");
	return s;
}

static void bench_rules(void)
{
	static const int counts[] = { 1, 16, 64 };
	static const char *const variants[] = {
		"none", "first", "last", "same_none", "same_first", "same_last",
	};
	enum { N_VARIANTS = sizeof(variants) / sizeof(variants[0]) };
	struct uhid_dev distinct, same;
	int fd_d, fd_s;

	create(&distinct, 0x1234, 0x7003);
	create(&same, 0x1234, 0x7004);
	fd_d = uhid_dev_open_hidraw(&distinct, 0);
	fd_s = uhid_dev_open_hidraw(&same, 0);
	if (fd_d < 0 || fd_s < 0)
		die("opening hidraw", fd_d < 0 ? fd_d : fd_s);
	if (bpf_stats_enable(true) < 0)
		die("kernel.bpf_stats_enabled", errno);
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		int n = counts[k];
		char *t_d = rules_policy(0x7003, n, true), *t_s = rules_policy(0x7004, n, false);
		const char *names[] = { "50-distinct.json", "51-same.json", NULL };
		const char *texts[] = { t_d, t_s, NULL };
		/* distinct: rule i names report FIRST_RULE_ID + i; same: all
		 * name FIRST_RULE_ID, and byte 1 picks the rule (0xff: none) */
		const struct workload w[N_VARIANTS] = {
			{ .fd = fd_d, .id = FREE_FEATURE_ID },
			{ .fd = fd_d, .id = FIRST_RULE_ID, .byte1 = 0 },
			{ .fd = fd_d, .id = FIRST_RULE_ID + n - 1, .byte1 = n - 1 },
			{ .fd = fd_s, .id = FIRST_RULE_ID, .byte1 = 0xff },
			{ .fd = fd_s, .id = FIRST_RULE_ID, .byte1 = 0 },
			{ .fd = fd_s, .id = FIRST_RULE_ID, .byte1 = n - 1 },
		};
		double avg[N_VARIANTS][BATCHES];
		struct policyd_run run;
		char name[64];

		start_daemon(&run, names, texts);
		requests(fd_d, FREE_FEATURE_ID, 0, 50, 0);	/* warm up */
		/* variants interleaved batch by batch: drift hits all alike */
		for (int b = 0; b < BATCHES; b++)
			for (int v = 0; v < N_VARIANTS; v++) {
				struct prog_stats s0 = bpf_stats_of("fw_hw_request");

				run_batch(&w[v]);
				avg[v][b] = bpf_stats_avg_ns(s0, bpf_stats_of("fw_hw_request"));
			}
		for (int v = 0; v < N_VARIANTS; v++) {
			snprintf(name, sizeof(name), "rules.%d.%s_ns", n, variants[v]);
			figure(name, median(avg[v], BATCHES));
		}
		stop_daemon(&run);
		free(t_d);
		free(t_s);
	}
	bpf_stats_enable(false);
	close(fd_d);
	close(fd_s);
	uhid_dev_destroy(&distinct);
	uhid_dev_destroy(&same);
}

/* The firewall's counters, summed over the CPUs, from its pinned map. */
static struct hid_fw_stats read_counters(struct policyd_run *run)
{
	struct hid_fw_stats sum = { 0 }, *per_cpu;
	int ncpus = libbpf_num_possible_cpus(), fd;
	char path[160];
	__u32 key = 0;

	snprintf(path, sizeof(path), "%s/hid_stats", run->state_dir);
	fd = bpf_obj_get(path);
	per_cpu = calloc(ncpus > 0 ? ncpus : 1, sizeof(*per_cpu));
	if (fd < 0 || !per_cpu || bpf_map_lookup_elem(fd, &key, per_cpu) < 0)
		die("the firewall's counters", errno);
	for (int i = 0; i < ncpus; i++) {
		sum.allowed += per_cpu[i].allowed;
		sum.denied += per_cpu[i].denied;
		sum.logged += per_cpu[i].logged;
		sum.dropped += per_cpu[i].dropped;
	}
	free(per_cpu);
	close(fd);
	return sum;
}

/* Seconds from now until the log stops growing (no growth for half a
 * second), measured to its last growth. */
static double wait_log_quiet(const char *path)
{
	double t0 = now_s(), last = t0;
	off_t prev = -1;

	for (int quiet = 0; quiet < 50;) {
		struct stat st;

		usleep(10000);
		if (stat(path, &st) < 0)
			die(path, errno);
		if (st.st_size == prev) {
			quiet++;
			continue;
		}
		prev = st.st_size;
		last = now_s();
		quiet = 0;
	}
	return last - t0;
}

/* N denied requests while the daemon is stopped (SIGSTOP), so that they
 * all wait in the ring buffer (or are dropped when it is full); then the
 * daemon goes on. DISTINCT: each with its own payload, else all alike.
 * Returns the seconds it took to write them all. */
static double drain_burst(struct policyd_run *run, int fd, int n, bool distinct)
{
	kill(run->pid, SIGSTOP);
	if (distinct)
		distinct_requests(fd, FIRST_RULE_ID, n, EPERM);
	else
		requests(fd, FIRST_RULE_ID, 0, n, EPERM);
	kill(run->pid, SIGCONT);
	return wait_log_quiet(run->audit_log);
}

static off_t size_of(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		die(path, errno);
	return st.st_size;
}

static size_t lines_of(const char *path)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;
	int c;

	if (!f)
		die(path, errno);
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void bench_audit(void)
{
	static const char *const names[] = { "50-bench-audit.json", NULL };
	static const char *const texts[] = {
		"{ \"version\": 1, \"devices\": [ { \"name\": \"bench-audit\",\n"
		"  \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x7002\" },\n"
		"  \"default\": \"allow\", \"rules\": [\n"
		"    { \"name\": \"deny-10\", \"request\": \"set_report\", \"report_type\": \"feature\",\n"
		"      \"report_id\": \"0x10\", \"action\": \"deny\" } ] } ] }\n",
		NULL,
	};
	/* decisions, a record of repeats counting as many as it stands for;
	 * records that stand for one decision alone */
	const char *decisions[] = { "action=deny", NULL };
	const char *alone[] = { "action=deny", "count=", NULL };
	/* the drain itself: no device's record budget in the way (the
	 * daemon's documented option; 0: none) */
	const char *no_budget[] = { "--record-budget", "0", NULL };
	struct hid_fw_stats c0, c1, c2, c3;
	struct policyd_run run;
	struct uhid_dev dev;
	size_t alone0, alone1, lines1, lines2, dec1, dec2, dec2_later, dec3;
	double secs;
	int fd;

	create(&dev, 0x1234, 0x7002);
	start_daemon_with(&run, names, texts, no_budget);
	fd = uhid_dev_open_hidraw(&dev, 0);
	if (fd < 0)
		die("opening hidraw", fd);
	c0 = read_counters(&run);
	alone0 = policyd_audit_count(&run, alone, 0, 0);

	/* distinct records: each one written, none lost */
	secs = drain_burst(&run, fd, DRAIN_RECORDS, true);
	c1 = read_counters(&run);
	alone1 = policyd_audit_count(&run, alone, 0, 0);
	printf("# drain: %d distinct records queued, %zu written one by one in %.3f s, %llu dropped\n",
	       DRAIN_RECORDS, alone1 - alone0, secs, (unsigned long long)(c1.dropped - c0.dropped));
	figure("audit.drain_records_per_s", (alone1 - alone0) / secs);
	figure_signed("audit.drain_lost", (double)DRAIN_RECORDS - (double)(alone1 - alone0));
	figure("audit.drain_dropped", c1.dropped - c0.dropped);

	/* the same number of identical requests, as this benchmark sent them
	 * until the daemon coalesced repeats: what "records per second" said
	 * then, measured the same way (decisions accounted for when the log
	 * goes quiet), and how many records that was */
	lines1 = lines_of(run.audit_log);
	dec1 = policyd_audit_count(&run, decisions, 0, 0);
	secs = drain_burst(&run, fd, DRAIN_RECORDS, false);
	lines2 = lines_of(run.audit_log);
	dec2 = policyd_audit_count(&run, decisions, 0, 0);
	/* the record of the repeats comes a second after the first repeat */
	dec2_later = policyd_audit_count(&run, decisions, dec1 + DRAIN_RECORDS, 5000);
	printf("# identical: %d requests queued, %zu decisions accounted for in %.3f s by %zu record(s) (%zu once the record of repeats came)\n",
	       DRAIN_RECORDS, dec2 - dec1, secs, lines2 - lines1, dec2_later - dec1);
	figure("audit.identical_drain_records_per_s", (dec2 - dec1) / secs);
	figure("audit.identical_records_written", (double)(lines_of(run.audit_log) - lines1));
	figure_signed("audit.identical_unaccounted", (double)DRAIN_RECORDS - (double)(dec2_later - dec1));

	/* a flood of distinct records: what does not fit is counted */
	c2 = read_counters(&run);
	dec2 = policyd_audit_count(&run, decisions, 0, 0);
	drain_burst(&run, fd, FLOOD_RECORDS, true);
	c3 = read_counters(&run);
	dec3 = policyd_audit_count(&run, decisions, 0, 0);
	printf("# flood: %d distinct denied, %llu logged, %llu dropped, %zu written\n", FLOOD_RECORDS,
	       (unsigned long long)(c3.logged - c2.logged),
	       (unsigned long long)(c3.dropped - c2.dropped), dec3 - dec2);
	figure("audit.flood_dropped", c3.dropped - c2.dropped);
	figure_signed("audit.flood_unaccounted",
		      (double)FLOOD_RECORDS - (double)(dec3 - dec2) - (double)(c3.dropped - c2.dropped));
	close(fd);
	stop_daemon(&run);
	uhid_dev_destroy(&dev);
}

static void bench_hotplug(void)
{
	static const char *const names[] = { "50-bench-hotplug.json", NULL };
	static const char *const texts[] = {
		"{ \"version\": 1, \"devices\": [ { \"name\": \"bench-hotplug\",\n"
		"  \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x7001\" },\n"
		"  \"default\": \"allow\", \"rules\": [\n"
		"    { \"name\": \"deny-10\", \"request\": \"set_report\", \"report_type\": \"feature\",\n"
		"      \"report_id\": \"0x10\", \"action\": \"deny\" } ] } ] }\n",
		NULL,
	};
	double lat[HOTPLUG_DEVICES];
	struct policyd_run run;

	start_daemon(&run, names, texts);
	for (int i = 0; i < HOTPLUG_DEVICES; i++) {
		struct uhid_dev dev;
		double t0 = now_s();
		int fd;

		create(&dev, 0x1234, 0x7001);
		fd = uhid_dev_open_hidraw(&dev, 0);
		if (fd < 0)
			die("opening hidraw", fd);
		while (set_feature(fd, FIRST_RULE_ID, 0) != EPERM) {
			if (now_s() - t0 > 10)
				die("device never protected", ETIMEDOUT);
			usleep(200);
		}
		lat[i] = now_s() - t0;
		close(fd);
		uhid_dev_destroy(&dev);
	}
	stop_daemon(&run);
	qsort(lat, HOTPLUG_DEVICES, sizeof(lat[0]), cmp_double);
	figure("hotplug.median_ms", lat[HOTPLUG_DEVICES / 2] * 1e3);
	figure("hotplug.p99_ms", lat[(HOTPLUG_DEVICES * 99 + 99) / 100 - 1] * 1e3);
}

/* Daemon starts, and loads of the firewall object, of the start bench:
 * each figure is the median. */
#define START_RUNS 3
#define LOAD_RUNS 3
#define START_PROGS 3

/* Polls a device with a request its rules refuse, from before the daemon
 * starts, until one is refused: the time the device was first protected. */
struct protect_poll {
	int fd;
	double t0, protected_s;
};

static void *poll_protected(void *arg)
{
	struct protect_poll *p = arg;

	while (set_feature(p->fd, FIRST_RULE_ID, 0) != EPERM) {
		if (now_s() - p->t0 > 600) {
			p->protected_s = -1;
			return NULL;
		}
		usleep(1000);
	}
	p->protected_s = now_s() - p->t0;
	return NULL;
}

/* The largest BPF program ID now: programs loaded later have larger ones. */
static __u32 last_prog_id(void)
{
	__u32 id = 0, next;

	while (!bpf_prog_get_next_id(id, &next))
		id = next;
	return id;
}

/* The instructions the verifier processed for the firewall programs (named
 * fw_*) loaded after program AFTER, summed, and how many there are. */
static void firewall_progs_since(__u32 after, double *insns, double *n)
{
	__u32 id = after, next;

	*insns = *n = 0;
	while (!bpf_prog_get_next_id(id, &next)) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(next);

		id = next;
		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strncmp(info.name, "fw_", 3)) {
			*insns += info.verified_insns;
			*n += 1;
		}
		close(fd);
	}
}

/* The firewall object of the build under test ($HID_POLICY_BUILDDIR, the
 * daemon's) as the daemon loads it: the read-only globals set as on this
 * kernel, no map pinned. NULL when it cannot be opened. */
static struct bpf_object *open_firewall_object(const struct fw_features *f)
{
	const char *build = getenv("HID_POLICY_BUILDDIR") ?: "build";
	const struct { const char *name; __u64 value; } globals[] = {
		{ "have_pid_tgid", f->pid_tgid },
		{ "have_task", f->uid_gid && f->comm },
		{ "have_cgroup", f->cgroup },
		{ "budget_burst", HID_FW_BUDGET_BURST },
		{ "budget_refill_ns", 1000000000ULL / HID_FW_BUDGET_RATE },
	};
	char path[PATH_MAX];
	struct bpf_object *obj;
	struct bpf_map *map, *rodata;
	const struct btf_var_secinfo *v;
	const struct btf_type *sec;
	struct btf *btf;
	size_t size;
	char *data;
	int id;

	snprintf(path, sizeof(path), "%s/bpf/hid_firewall.bpf.o", build);
	obj = bpf_object__open_file(path, NULL);
	if (!obj)
		return NULL;
	bpf_object__for_each_map(map, obj)
		bpf_map__set_pin_path(map, NULL);
	rodata = bpf_object__find_map_by_name(obj, ".rodata");
	btf = bpf_object__btf(obj);
	id = btf ? btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) : -1;
	data = rodata ? (char *)bpf_map__initial_value(rodata, &size) : NULL;
	if (!data || id <= 0) {
		bpf_object__close(obj);
		return NULL;
	}
	sec = btf__type_by_id(btf, id);
	v = btf_var_secinfos(sec);
	for (int i = 0; i < btf_vlen(sec); i++, v++) {
		const char *name = btf__name_by_offset(btf, btf__type_by_id(btf, v->type)->name_off);

		for (size_t g = 0; g < sizeof(globals) / sizeof(globals[0]); g++)
			if (!strcmp(name, globals[g].name) && v->offset + v->size <= size)
				/* bool or __u64, little endian */
				memcpy(data + v->offset, &globals[g].value, v->size);
	}
	return obj;
}

/* The number after KEY in the verifier's log LOG, or -1. */
static double log_number(const char *log, const char *key)
{
	const char *p = strstr(log, key);

	return p ? atof(p + strlen(key)) : -1;
}

/*
 * The firewall object loaded LOAD_RUNS times, each program with the
 * verifier's statistics (BPF_LOG_STATS):
 *
 *   start.verified_insns.PROG   instructions the verifier processed
 *   start.verify_ms.PROG        its own verification time
 *   start.load_ms               the object's load, maps and all
 */
static void bench_object_load(void)
{
	static char logs[START_PROGS][4096];
	const char *names[START_PROGS] = { 0 };
	double insns[START_PROGS][LOAD_RUNS], ms[START_PROGS][LOAD_RUNS], load[LOAD_RUNS];
	struct fw_features f = { 0 };
	char name[96];
	int n = 0;

	fw_probe_features(&f);
	for (int run = 0; run < LOAD_RUNS; run++) {
		struct bpf_object *obj = open_firewall_object(&f);
		struct bpf_program *prog;
		double t0;
		int k = 0, r;

		if (!obj)
			die("opening the firewall object", errno ? errno : ENOENT);
		bpf_object__for_each_program(prog, obj) {
			if (k == START_PROGS)
				die("the firewall object has more programs than START_PROGS", E2BIG);
			logs[k][0] = '\0';
			bpf_program__set_log_level(prog, 4);	/* BPF_LOG_STATS */
			bpf_program__set_log_buf(prog, logs[k], sizeof(logs[k]));
			k++;
		}
		t0 = now_s();
		r = bpf_object__load(obj);
		load[run] = (now_s() - t0) * 1e3;
		if (r < 0)
			die("loading the firewall object", r);
		k = 0;
		bpf_object__for_each_program(prog, obj) {
			struct bpf_prog_info info = { 0 };
			__u32 len = sizeof(info);

			names[k] = names[k] ?: strdup(bpf_program__name(prog));
			insns[k][run] = bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) ?
					-1.0 : (double)info.verified_insns;
			ms[k][run] = log_number(logs[k], "verification time ") / 1e3;
			k++;
		}
		n = k;
		bpf_object__close(obj);
	}
	for (int k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "start.verified_insns.%s", names[k]);
		figure(name, median(insns[k], LOAD_RUNS));
		snprintf(name, sizeof(name), "start.verify_ms.%s", names[k]);
		figure(name, median(ms[k], LOAD_RUNS));
		free((char *)names[k]);
	}
	figure("start.load_ms", median(load, LOAD_RUNS));
}

/*
 * The daemon started START_RUNS times with a device present that its
 * policy (no input rule, as the shipped ones) protects, run as on a
 * user's machine (no --allow-unsafe-input-rules):
 *
 *   start.protected_ms          from the daemon's start to the device's
 *                               first refused request
 *   start.ready_ms              to its READY=1 (every device protected,
 *                               the programs a reload may need loaded,
 *                               the sandbox entered)
 *   start.daemon_programs       firewall programs it loaded
 *   start.daemon_verified_insns instructions the verifier processed for
 *                               them, all together
 */
static void bench_daemon_start(void)
{
	static const char *const names[] = { "50-bench-start.json", NULL };
	static const char *const texts[] = {
		"{ \"version\": 1, \"devices\": [ { \"name\": \"bench-start\",\n"
		"  \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x7008\" },\n"
		"  \"default\": \"allow\", \"rules\": [\n"
		"    { \"name\": \"deny-10\", \"request\": \"set_report\", \"report_type\": \"feature\",\n"
		"      \"report_id\": \"0x10\", \"action\": \"deny\" } ] } ] }\n",
		NULL,
	};
	double protected_ms[START_RUNS], ready_ms[START_RUNS], insns = -1, progs = -1;
	struct uhid_dev dev;
	int fd;

	create(&dev, 0x1234, 0x7008);
	fd = uhid_dev_open_hidraw(&dev, 0);
	if (fd < 0)
		die("opening hidraw", fd);
	for (int run = 0; run < START_RUNS; run++) {
		struct protect_poll poll = { .fd = fd };
		struct policyd_run daemon;
		__u32 before = last_prog_id();
		pthread_t poller;
		int r = policyd_prepare(&daemon);

		for (size_t i = 0; r >= 0 && names[i]; i++)
			r = policyd_write_policy(&daemon, names[i], texts[i]);
		if (r < 0)
			die("preparing hid-policyd", r);
		daemon.refuse_unsafe_input = true;
		poll.t0 = now_s();
		if (pthread_create(&poller, NULL, poll_protected, &poll))
			die("starting the poller", EAGAIN);
		r = policyd_start(&daemon, NULL);
		ready_ms[run] = (now_s() - poll.t0) * 1e3;
		if (r < 0)
			die("starting hid-policyd", r);
		pthread_join(poller, NULL);
		protected_ms[run] = poll.protected_s < 0 ? -1 : poll.protected_s * 1e3;
		if (run == 0)
			firewall_progs_since(before, &insns, &progs);
		stop_daemon(&daemon);
	}
	close(fd);
	uhid_dev_destroy(&dev);
	figure("start.protected_ms", median(protected_ms, START_RUNS));
	figure("start.ready_ms", median(ready_ms, START_RUNS));
	figure("start.daemon_programs", progs);
	figure("start.daemon_verified_insns", insns);
}

static void bench_start(void)
{
	bench_daemon_start();
	bench_object_load();
}

/* Issue 27's measure: FLOOD_REQUESTS refused requests, one process, one
 * device, as fast as it goes, with the daemon's defaults (record budget,
 * coalescing); a refusal on another device amid them. */
static void bench_flood(void)
{
	static const char *const names[] = { "50-bench-flood.json", NULL };
	static const char *const texts[] = {
		"{ \"version\": 1, \"devices\": [ { \"name\": \"bench-flood\",\n"
		"  \"match\": { \"bus\": \"usb\", \"vendor\": \"0x1234\", \"product\": \"0x7003\" },\n"
		"  \"default\": \"allow\", \"rules\": [\n"
		"    { \"name\": \"deny-10\", \"request\": \"set_report\", \"report_type\": \"feature\",\n"
		"      \"report_id\": \"0x10\", \"action\": \"deny\" } ] } ] }\n",
		NULL,
	};
	char id_a[32], id_b[32];
	const char *on_a[] = { "event=decision", id_a, NULL };
	const char *b_alone[] = { "event=decision", id_b, "count=", NULL };
	const char *over_a[] = { "event=records_suppressed", id_a, NULL };
	struct policyd_run run;
	struct uhid_dev a, b;
	unsigned long refused = 0;
	unsigned long long over;
	struct hid_fw_stats c;
	size_t logged_a, b_records, lines;
	int fd_a, fd_b, b_err = 0;
	double t0, secs;
	off_t size;

	create(&a, 0x1234, 0x7003);
	create(&b, 0x1234, 0x7003);
	start_daemon(&run, names, texts);
	fd_a = uhid_dev_open_hidraw(&a, 0);
	fd_b = uhid_dev_open_hidraw(&b, 0);
	if (fd_a < 0 || fd_b < 0)
		die("opening hidraw", fd_a < 0 ? fd_a : fd_b);
	snprintf(id_a, sizeof(id_a), "device.hid_id=%d", a.hid_id);
	snprintf(id_b, sizeof(id_b), "device.hid_id=%d", b.hid_id);

	t0 = now_s();
	for (unsigned long i = 0; i < flood_requests; i++) {
		if (i == flood_requests / 2)
			b_err = set_feature(fd_b, FIRST_RULE_ID, 0x0b);
		refused += set_feature(fd_a, FIRST_RULE_ID, 0x0a) == EPERM;
	}
	secs = now_s() - t0;
	/* stopping drains the ring buffer and tells every count */
	policyd_stop(&run, false);
	c = read_counters(&run);
	size = size_of(run.audit_log);
	lines = lines_of(run.audit_log);
	b_records = policyd_audit_count(&run, b_alone, 0, 0);
	logged_a = policyd_audit_count(&run, on_a, 0, 0);
	over = policyd_audit_sum(&run, over_a, "denied");
	printf("# flood: %lu requests on A refused of %lu in %.1f s; B's refusal: %s, %zu record(s) of its own\n",
	       refused, flood_requests, secs, b_err == EPERM ? "refused" : "NOT refused", b_records);
	printf("# flood: the log %lld bytes, %zu lines; A: %zu logged, %llu over its budget, %llu dropped\n",
	       (long long)size, lines, logged_a, over, (unsigned long long)c.dropped);
	figure("flood.requests", (double)flood_requests);
	figure("flood.seconds", secs);
	figure("flood.log_bytes", (double)size);
	figure("flood.log_lines", (double)lines);
	figure("flood.b_recorded_alone", (double)b_records);
	figure_signed("flood.unaccounted",
		      (double)refused - (double)logged_a - (double)over - (double)c.dropped);
	close(fd_a);
	close(fd_b);
	policyd_cleanup(&run);
	uhid_dev_destroy(&a);
	uhid_dev_destroy(&b);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} benches[] = {
		{ "paths", bench_paths },
		{ "rules", bench_rules },
		{ "audit", bench_audit },
		{ "hotplug", bench_hotplug },
		{ "start", bench_start },
		{ "dispatch", bench_dispatch },
		{ "flood", bench_flood },
	};
	const size_t n_benches = sizeof(benches) / sizeof(benches[0]);
	bool want[sizeof(benches) / sizeof(benches[0])] = { false }, any = false;

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(NULL);
	for (int i = 1; i < argc; i++) {
		size_t b;

		if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			rate_seconds = atof(argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "--flood") && i + 1 < argc) {
			flood_requests = strtoul(argv[++i], NULL, 10);
			continue;
		}
		for (b = 0; b < n_benches && strcmp(argv[i], benches[b].name); b++)
			;
		if (b == n_benches) {
			fprintf(stderr, "usage: bench-firewall [--seconds S] [--flood N] [paths|rules|audit|hotplug|start|dispatch|flood]...\n");
			return 2;
		}
		want[b] = any = true;
	}
	/* without a name: all but dispatch and flood, which run when named */
	for (size_t b = 0; b < n_benches; b++)
		if (want[b] || (!any && benches[b].run != bench_dispatch && benches[b].run != bench_flood))
			benches[b].run();
	return 0;
}
