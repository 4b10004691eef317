/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The process behind a decision record, as /proc shows it when the record
 * is read: its executable (the path, and the file's device and inode to
 * check it against the firewall's), its systemd unit (where the firewall
 * could not record its cgroup) and, where the kernel gave the firewall no
 * helper for them, its uid, gid and comm.
 *
 * The daemon drains the ring buffer in batches; a program that floods
 * the firewall fills a batch with records of one process. What /proc says
 * of a process is read once per batch and kept until the batch is written
 * (audit_processes_forget), so that a flood costs a few reads, not several
 * per record.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup_names.h"
#include "hid_firewall.h"

struct audit_process {
	uint32_t tgid;
	size_t exe_len;			/* 0: unknown (gone, or not ours to read) */
	char exe[PATH_MAX];
	bool exe_stat;			/* exe_dev and exe_ino: the file's, by stat(2) */
	uint64_t exe_ino;
	uint32_t exe_major, exe_minor;
	size_t unit_len;		/* 0: in no service or scope */
	char unit[256];
	bool identity_read;		/* uid, gid and comm were looked up */
	bool have_ids, have_comm;
	uint32_t uid, gid;
	size_t comm_len;
	char comm[HID_FW_COMM_LEN];
};

/* Processes read during the current batch. */
#define AUDIT_PROCESSES_KEPT 8
struct audit_processes {
	struct audit_process kept[AUDIT_PROCESSES_KEPT];
	size_t n;
	size_t next;			/* the one to replace when all are in use */
	/* Cgroup ids the firewall recorded, named (kept across batches:
	 * an id names one cgroup for good). */
	struct cgroup_names cgroups;
};

/* TGID as /proc shows it, read now or earlier in this batch; IDENTITY:
 * uid, gid and comm are wanted too. Never NULL. */
const struct audit_process *audit_process_get(struct audit_processes *p, uint32_t tgid,
					      bool identity);
/* End of a batch: read every process again from now on. */
void audit_processes_forget(struct audit_processes *p);
