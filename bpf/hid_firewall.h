/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hid_firewall.h - layouts shared by bpf/hid_firewall.bpf.c and hid-policyd:
 * the audit record sent through the ring buffer, the counters, the maps'
 * sizes and the names they are pinned under.
 *
 * Plain C on <linux/types.h>, like hid_rules.h.
 */
#ifndef HID_POLICY_HID_FIREWALL_H
#define HID_POLICY_HID_FIREWALL_H

#include <linux/types.h>

/* Devices with rules at once (entries of the rules map). */
#define HID_FW_MAX_DEVICES		1024
/* Ring buffer of audit records, in bytes (a power of two). */
#define HID_FW_RINGBUF_BYTES		(1u << 21)
/* Payload bytes copied into a record. */
#define HID_FW_PAYLOAD_BYTES		32
#define HID_FW_COMM_LEN			16

/* Where hid-policyd keeps its state in bpffs. */
#define HID_FW_PIN_ROOT			"/sys/fs/bpf/hid-policy"

/* struct hid_fw_record.hook */
#define HID_FW_HOOK_HW_REQUEST		1
#define HID_FW_HOOK_OUTPUT_REPORT	2
#define HID_FW_HOOK_DEVICE_EVENT	3

/* struct hid_fw_record.flags */
#define HID_FW_REC_ENFORCED		(1u << 0) /* the request was refused */
#define HID_FW_REC_HAVE_PID		(1u << 1) /* pid_tgid is valid */
#define HID_FW_REC_HAVE_UID		(1u << 2) /* uid_gid is valid */
#define HID_FW_REC_HAVE_COMM		(1u << 3) /* comm is valid */
#define HID_FW_REC_NO_RULES		(1u << 4) /* device had no rules in the map */
/* An io_uring worker or SQPOLL thread made the request, or it ran with
 * credentials lent to the task (a personality): its uid, gid and comm are
 * not necessarily its sender's, and no sender's allow applied. */
#define HID_FW_REC_LENT			(1u << 5)
/* A HID-BPF program made the request through a kfunc: the hook's source
 * is the program's context, not a hidraw file, and the task is whichever
 * ran the program. */
#define HID_FW_REC_FROM_BPF		(1u << 6)

/* struct hid_fw_record.sender_flags */
#define HID_FW_SENDER_HAVE_EIDS		(1u << 0) /* euid and egid are valid */
#define HID_FW_SENDER_HAVE_EXE		(1u << 1) /* exe_ino and exe_dev are valid */
#define HID_FW_SENDER_HAVE_CGROUP	(1u << 2) /* cgroup_id is valid */

struct hid_fw_record {
	__u64 time_ns;		/* CLOCK_BOOTTIME */
	__u64 source;		/* the hook's source (hidraw file, 0: kernel) */
	__u64 pid_tgid;		/* tgid << 32 | pid */
	__u64 uid_gid;		/* gid << 32 | uid */
	__u32 hid_id;
	__u32 rule_index;	/* HID_RULE_INDEX_DEFAULT: the default decided */
	__u32 len;		/* request or report length */
	__s32 err;		/* errno returned to the caller, 0 when allowed */
	__u8 hook;		/* HID_FW_HOOK_* */
	__u8 reqtype;		/* HID_REQ_* for hid_hw_request */
	__u8 rtype;		/* HID_*_REPORT */
	__u8 report_id;
	__u8 action;		/* HID_RULE_ALLOW or HID_RULE_DENY (the rule's) */
	__u8 flags;		/* HID_FW_REC_* */
	__u8 payload_len;	/* valid bytes of payload */
	__u8 reserved;
	char comm[HID_FW_COMM_LEN];
	__u8 payload[HID_FW_PAYLOAD_BYTES];
	/* What the kernel held for the sender at the request, for the log
	 * to name it by, whatever the process has become when the record
	 * is read (sender_flags says which are valid). */
	__u32 euid;
	__u32 egid;
	__u64 exe_ino;		/* the file its memory was loaded from */
	__u32 exe_dev;		/* its i_sb->s_dev: major << 20 | minor */
	__u8 sender_flags;	/* HID_FW_SENDER_* */
	__u8 reserved2[3];
	__u64 cgroup_id;	/* its cgroup2 cgroup (the directory's inode) */
};

/* Per-CPU counters (one entry, summed by the daemon). */
struct hid_fw_stats {
	__u64 allowed;		/* requests and events allowed */
	__u64 denied;		/* decisions to deny (enforced or audit) */
	__u64 logged;		/* records written to the ring buffer */
	__u64 dropped;		/* records lost: ring buffer full */
};

/*
 * Each device's budget of ring buffer records (the hid_budget map, keyed by
 * hid_id): a token bucket of HID_FW_BUDGET_BURST records by default,
 * refilled by HID_FW_BUDGET_RATE per second (the loader may set others).
 * A record over the budget is not sent but counted here, so that a flood
 * on one device cannot fill the ring buffer that every device's records
 * share; hid-policyd writes the counts to the audit log. Written by the
 * firewall only.
 */
#define HID_FW_BUDGET_BURST		1000
#define HID_FW_BUDGET_RATE		100

struct hid_fw_budget {
	__u64 tokens;		/* records the device may send now */
	__u64 refilled_ns;	/* CLOCK_BOOTTIME the tokens were counted to */
	__u64 over_denied;	/* denials not sent: over the budget */
	__u64 over_allowed;	/* logged allows not sent: over the budget */
};

/* What hid-policyd has written to the audit log of a device's budget
 * counts (the hid_budget_told map, keyed by hid_id): pinned, so that a
 * restarted daemon writes only what is new. Written by hid-policyd only. */
struct hid_fw_budget_told {
	__u64 over_denied;
	__u64 over_allowed;
};

#endif /* HID_POLICY_HID_FIREWALL_H */
