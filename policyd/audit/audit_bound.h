/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit log's size bound. A program that floods a device with refused
 * requests must not fill the disk, nor push other devices' records out:
 * the daemon never rotates the log away itself (logrotate does, with its
 * maxsize); past the bound it writes less, and counts what it does not
 * write.
 *
 *   below 15/16 of the maximum   every record is written
 *   up to the maximum            the reserve: each user's first decision
 *                                record on each device since the log
 *                                filled up, and the daemon's other records
 *                                (grants, detached firewalls, counts), are
 *                                written; a user's further decisions on
 *                                that device are counted (per device)
 *   at the maximum               nothing more is written; all is counted
 *
 * When the log is reopened (rotated), the counts are written as one
 * "records_not_written" record, per device. Data only, no I/O.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define AUDIT_LOG_MAX_SIZE_DEFAULT	(256ULL << 20)
/* The smallest maximum accepted: room for a few records in the reserve. */
#define AUDIT_LOG_MAX_SIZE_MIN		(64ULL << 10)

/* Devices counted one by one; past that, their decisions are counted
 * together (decisions_unattributed): hotplugs must not grow the table
 * without end. The users whose first decision on a device went into the
 * reserve are kept to the same number of pairs; past it, counted. */
#define AUDIT_BOUND_DEVICES_MAX		4096
#define AUDIT_BOUND_RESERVED_MAX	4096
/* The user of a decision whose record has no uid (the kernel's own). */
#define AUDIT_BOUND_NO_UID		UINT32_MAX

struct audit_unwritten {
	uint32_t hid_id;
	char sysname[32];		/* "" when unknown */
	uint64_t denied, allowed;	/* decisions not written */
};

/* A user whose decision on a device went into the reserve. */
struct audit_reserved {
	uint32_t hid_id;
	uint32_t uid;
};

struct audit_bound {
	uint64_t max_size;		/* 0: no bound */
	uint64_t size;			/* the file's, with what is buffered */
	bool full_told;			/* the "audit_log_full" record is out */
	struct audit_unwritten *devices;
	size_t n_devices, cap_devices;
	struct audit_reserved *reserved;
	size_t n_reserved, cap_reserved;
	uint64_t events;		/* other records not written */
	uint64_t decisions_unattributed; /* no room or memory to say whose */
};

enum audit_room {
	AUDIT_ROOM_WRITE,		/* write it */
	AUDIT_ROOM_WRITE_FULL,		/* write it; the log just reached the reserve */
	AUDIT_ROOM_COUNTED,		/* do not write it: counted */
};

/* May a decision of LEN bytes on HID_ID (SYSNAME may be NULL) by user UID
 * (AUDIT_BOUND_NO_UID: none), standing for COUNT decisions, be written?
 * When not, its COUNT is counted. DENY: the decision is a denial, else a
 * logged allow. */
enum audit_room audit_bound_decision(struct audit_bound *b, size_t len, uint32_t hid_id,
				     uint32_t uid, const char *sysname, bool deny,
				     uint64_t count);
/* May another record of LEN bytes be written? When not, it is counted. */
enum audit_room audit_bound_event(struct audit_bound *b, size_t len);
/* LEN bytes were appended. */
void audit_bound_wrote(struct audit_bound *b, size_t len);

/* Anything counted? */
bool audit_bound_has_counts(const struct audit_bound *b);
/* The "records_not_written" record of the counts (new reference, NULL
 * without memory), and how many records it stands for in *TOTAL. */
json_t *audit_bound_counts_json(const struct audit_bound *b, uint64_t *total);
/* The log was reopened with SIZE bytes: counts and reserve start anew. */
void audit_bound_reset(struct audit_bound *b, uint64_t size);
void audit_bound_free(struct audit_bound *b);
