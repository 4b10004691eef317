/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One firewall decision as one line of JSON, formatted directly (no
 * intermediate JSON tree): under a flood of denials the daemon formats
 * every record the ring buffer hands over, and a tree per record cost more
 * than the rest of the path together.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup_names.h"
#include "hid_firewall.h"

struct audit_context;
struct audit_processes;

/* The rule name of a refusal of a report whose type and ID the device's
 * descriptor does not declare (HID_RULE_INDEX_UNDECLARED), in records and
 * messages; the record's request names the type and ID. */
#define AUDIT_RULE_UNDECLARED "(report type and ID the descriptor does not declare)"

/* Who made the request of REC, as records name it: "hidraw" (a program
 * through a hidraw node), "bpf" (a HID-BPF program through a kfunc) or
 * "kernel" (a driver). */
const char *audit_source_name(const struct hid_fw_record *rec);

/* Who made a request, as far as the record and /proc tell: what the
 * record's "process" object holds, for the outlets (journal, Linux audit)
 * to give the same facts. Strings are NUL-terminated. */
struct audit_subject {
	bool have_pid, have_ids, have_comm;
	const char *source;		/* audit_source_name(): who made it */
	uint32_t pid, tid, uid, gid;
	size_t comm_len;
	size_t exe_len;			/* 0: gone or unreadable */
	size_t unit_len;		/* 0: in no systemd service or scope */
	const char *identity_from;	/* "kernel", "proc", NULL: unknown */
	bool lent;			/* through io_uring, or on lent credentials
					 * (HID_FW_REC_LENT) */
	/* What the firewall recorded besides (struct hid_fw_record's
	 * sender fields) */
	bool have_eids;
	uint32_t euid, egid;
	bool have_exe_file;		/* the executable's device and inode */
	uint32_t exe_major, exe_minor;
	uint64_t exe_ino;
	uint64_t cgroup_id;		/* 0: not recorded */
	size_t cgroup_len;		/* 0: its path is unknown (gone) */
	/* AUDIT_READ_LATER_*: what was read from /proc when the record was
	 * read, with nothing the kernel recorded to check it against: the
	 * process may have changed since (an exec), or be another (its pid
	 * reused). */
	unsigned int read_later;
	/* The texts, last: a record clears the fields above and only the
	 * first byte of each of these, not 8 KB a record. Each is
	 * NUL-terminated at its length. */
	char comm[HID_FW_COMM_LEN + 1];
	char exe[PATH_MAX];
	char unit[256];			/* systemd service or scope */
	char cgroup[CGROUP_PATH_MAX];	/* the cgroup's path now */
};

#define AUDIT_READ_LATER_IDS	(1u << 0)	/* uid and gid */
#define AUDIT_READ_LATER_COMM	(1u << 1)
#define AUDIT_READ_LATER_EXE	(1u << 2)
#define AUDIT_READ_LATER_UNIT	(1u << 3)

/* Fill S for REC: what the kernel recorded (pid, ids, comm, the
 * executable's identity, the cgroup, named through CACHE), and from /proc
 * through CACHE (the current batch's; NULL: read now) the executable's
 * path where it is the file the kernel recorded, and what the kernel did
 * not record, marked in read_later. */
void audit_subject_read(const struct hid_fw_record *rec, struct audit_processes *cache,
			struct audit_subject *s);

/* A growable output buffer; kept between records so formatting allocates
 * only while it grows. */
struct audit_line {
	char *buf;
	size_t len, cap;
	int error;		/* -ENOMEM once growing failed */
	uint64_t time_secs;	/* the second time[] holds */
	char time[32];		/* "\"2026-12-03T06:29:40" */
	size_t time_len;	/* 0: none yet */
	/* Where the record's time ends in buf: what follows is every other
	 * field, the same for repeats of one decision (audit_repeat.h). */
	size_t time_end;
	/* The processes of the current batch, read from /proc once each
	 * (audit_process.h); allocated with the first record that names
	 * one. */
	struct audit_processes *processes;
	struct audit_subject subject;	/* of the record last formatted */
};

void audit_line_free(struct audit_line *l);

/*
 * Replace L's contents with the record as a JSON object, without a
 * newline. REALTIME_NS is the record's wall-clock time. Strings from the
 * outside (comm, device name, executable) are escaped; bytes that are not
 * UTF-8 become U+FFFD, so the line always parses. Returns 0 or -ENOMEM.
 */
int audit_format_record(struct audit_line *l, const struct hid_fw_record *rec,
			const struct audit_context *ctx, uint64_t realtime_ns);

/* Repeats of one decision told in one record: how many, and the
 * CLOCK_REALTIME times of the first and the last, in nanoseconds. */
struct audit_span {
	uint64_t count;
	uint64_t first_ns, last_ns;
};

/*
 * Replace L's contents with the record of SPAN's repeats of a decision
 * whose line, from after its time, is KEY (KEY_LEN bytes, ending in '}'):
 * the same fields with "time" the last repeat's, and "count", "first" and
 * "last" added. Returns 0, -EINVAL for a KEY that is no such line, or
 * -ENOMEM.
 */
int audit_format_repeat(struct audit_line *l, const char *key, size_t key_len,
			const struct audit_span *span);

/* Names of a record's request and report type, as the log writes them. */
const char *audit_request_name(const struct hid_fw_record *rec);
const char *audit_report_type_name(uint8_t rtype);

/* "2026-12-03T06:29:40.123Z" for a CLOCK_REALTIME time in nanoseconds. */
void audit_format_time(char *buf, size_t size, uint64_t realtime_ns);

/* STR with control characters replaced by '?', for a one-line summary. */
void audit_plain_text(char *out, size_t size, const char *str, size_t len);
