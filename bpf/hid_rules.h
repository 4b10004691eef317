/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hid_rules.h - the compiled form of a hid-policy rule set for one device.
 *
 * Shared by the policy compiler (userspace, policyd/) and the firewall BPF
 * programs (the .bpf.c files in bpf/). Plain C on <linux/types.h>: no BPF or libc
 * headers, so it builds with "clang -target bpf" and with the host compiler.
 *
 * One struct hid_device_rules per protected device. Every size is fixed, so a
 * BPF program walks it with bounded loops:
 *
 *	kind = hid_rules_request_kind(reqtype, rtype)   (or OUTPUT_REPORT, INPUT_EVENT)
 *	for (i = 0; i < HID_RULES_MAX_RULES && i < dev->n_rules; i++)
 *		if (rule_matches(&dev->rules[i], kind, report_id, buf, len))
 *			return the rule's decision;
 *	return the device's default decision;
 *
 * The same walk, with the index (kind_rules, report_id_rules), looks only at
 * the rules that name the request's kind and report ID, in the same order:
 *
 *	candidates = kind_rules[kind slot] & report_id_rules[report_id];
 *	for each bit i of candidates, lowest first: as above
 *
 * so a request to a report no rule names costs one map lookup, whatever the
 * number of rules, and the calling task is read only when one of the
 * candidates is in task_sender_rules. The index is derived from rules[]
 * (rule_index_build()
 * in hid-policyd's loader, whenever it stores a device's rules); a rule
 * left out of it is never evaluated.
 *
 * A rule matches when all of these hold:
 *   - (rule->kinds & kind) != 0;
 *   - hid_rule_has_report_id(rule, report_id);
 *   - it has not expired: expires_ns is 0 or later than CLOCK_BOOTTIME now
 *     (temporary allows end in the kernel even when the daemon is gone);
 *   - every condition c < n_conds holds: for i < c->len,
 *     offset + i < len and (buf[c->offset + i] & c->mask[i]) == c->value[i].
 *     A condition with HID_RULE_COND_F_NOT in its flags holds when
 *     offset + i < len for every i < c->len and at least one of those
 *     bytes, masked, differs from its value (the bytes are not all equal).
 *     A request or report shorter than a condition's bytes does not match
 *     it, whether or not it is a NOT condition (len is the report's own
 *     length, not its buffer's). Conditions never apply to GET_REPORT: its
 *     buffer holds what the device will answer, not what the caller sent.
 *
 * On a device in HID_RULES_MODE_ENFORCE, a matching rule with
 * HID_RULE_F_AUDIT (from an audit-mode rule set) does not decide: its
 * decision is logged, and evaluation goes on to the rules after it, so an
 * audit rule set never shadows an enforcing one.
 *
 * The report ID is the one the hook is called for: "reportnum" in
 * hid_hw_request, byte 0 of the buffer in hid_hw_output_report (hidraw's
 * report number: 0 for a declared report of a device that does not number
 * its output reports), byte 0 in hid_device_event on devices with numbered
 * input reports, 0 otherwise. Payload offsets count from byte 0 of the same
 * buffer (the report ID byte when the device numbers its reports), as
 * hidraw does.
 *
 * Before any rule, a request from user space (a hook's source non-zero)
 * must name a report its device's descriptor declares: bit id of
 * declared[rtype] set. Another is refused with EPERM in every mode and
 * logged with index HID_RULE_INDEX_UNDECLARED, unless the device's flags
 * have HID_RULES_F_COMMANDS_IN_PAYLOAD: its firmware reads a command from
 * the payload whatever the report type and ID, and the rules match the
 * command where the device sees it. Input events are not requests: they
 * are not checked.
 *
 * A decision is enforced when action is HID_RULE_DENY, dev->mode is
 * HID_RULES_MODE_ENFORCE and the rule's flags lack HID_RULE_F_AUDIT; an
 * unenforced deny still logs. Every deny is logged; an allow is logged when
 * HID_RULE_F_LOG is set. The default decision uses default_action,
 * default_err and default_flags the same way, with index
 * HID_RULE_INDEX_DEFAULT.
 *
 * The limits are part of the policy language: a rule set that would exceed
 * them is rejected by the validator (or, when several rule sets add up on one
 * device, by the compiler), never truncated.
 */
#ifndef HID_POLICY_HID_RULES_H
#define HID_POLICY_HID_RULES_H

#include <linux/types.h>

/* Rules evaluated per device, all matching rule sets together. */
#define HID_RULES_MAX_RULES		64
/* Payload conditions per compiled rule. */
#define HID_RULES_MAX_CONDS		8
/* Bytes compared by one condition (value[] and mask[] length). */
#define HID_RULES_COND_BYTES		4
/* No condition looks past this many bytes from the start of the buffer. */
#define HID_RULES_MAX_PAYLOAD		256
/* Report IDs are 0..255: a 256-bit bitmap of 32-bit words. */
#define HID_RULES_REPORT_IDS		256
#define HID_RULES_REPORT_ID_WORDS	(HID_RULES_REPORT_IDS / 32)
/* Request kinds (HID_RULE_KIND_* bits below); the kind in bit k has slot k
 * in struct hid_device_rules.kind_rules. */
#define HID_RULES_KINDS			8

/* Request kinds, one bit each (struct hid_rule.kinds). */
#define HID_RULE_KIND_GET_FEATURE	(1u << 0) /* hid_hw_request GET_REPORT, feature */
#define HID_RULE_KIND_GET_INPUT		(1u << 1) /* hid_hw_request GET_REPORT, input */
#define HID_RULE_KIND_GET_OUTPUT	(1u << 2) /* hid_hw_request GET_REPORT, output */
#define HID_RULE_KIND_SET_FEATURE	(1u << 3) /* hid_hw_request SET_REPORT, feature */
#define HID_RULE_KIND_SET_INPUT		(1u << 4) /* hid_hw_request SET_REPORT, input */
#define HID_RULE_KIND_SET_OUTPUT	(1u << 5) /* hid_hw_request SET_REPORT, output */
#define HID_RULE_KIND_OUTPUT_REPORT	(1u << 6) /* hid_hw_output_report (hidraw write) */
#define HID_RULE_KIND_INPUT_EVENT	(1u << 7) /* hid_device_event (from the device) */
#define HID_RULE_KIND_ALL		0xffu
#define HID_RULE_KIND_GET_ANY		(HID_RULE_KIND_GET_FEATURE | HID_RULE_KIND_GET_INPUT | \
					 HID_RULE_KIND_GET_OUTPUT)

/* The kernel's enum hid_class_request and enum hid_report_type values. */
#define HID_RULES_REQ_GET_REPORT	0x01
#define HID_RULES_REQ_SET_REPORT	0x09
#define HID_RULES_RTYPE_INPUT		0
#define HID_RULES_RTYPE_OUTPUT		1
#define HID_RULES_RTYPE_FEATURE		2

/* struct hid_rule.action and hid_device_rules.default_action */
#define HID_RULE_ALLOW			0
#define HID_RULE_DENY			1

/* struct hid_rule.flags and hid_device_rules.default_flags */
#define HID_RULE_F_LOG			(1u << 0) /* log this decision even when it allows */
#define HID_RULE_F_AUDIT		(1u << 1) /* from an audit-mode rule set: never enforce a deny */

/* struct hid_device_rules.mode */
#define HID_RULES_MODE_ENFORCE		0
#define HID_RULES_MODE_AUDIT		1 /* log what would be denied, deny nothing */

/* Rule index reported when no rule matched and the default decided. */
#define HID_RULE_INDEX_DEFAULT		0xffffffffu
/* Rule index reported for a request from user space whose report type
 * and ID the device's descriptor does not declare. usbhid sends report 0
 * of a numbered type with its bytes shifted and a non-zero report number
 * of an unnumbered type as a data byte, so the report the device receives
 * is not the one judged; a report it never declared is one no program
 * written for it sends. The firewall refuses such a request before any
 * rule, in every mode (see HID_RULES_F_COMMANDS_IN_PAYLOAD). */
#define HID_RULE_INDEX_UNDECLARED	0xfffffffeu

/* Report types a descriptor declares reports of (input, output,
 * feature: HID_RULES_RTYPE_*), for struct hid_device_rules.declared. */
#define HID_RULES_RTYPES		3

/* struct hid_device_rules.flags */
/* declared[] was filled from the device's descriptor. hid-policyd always
 * sets it (an empty table when the descriptor is not known: every request
 * from user space is refused); the firewall checks declared[] whether it
 * is set or not. Only the policy engine's dry runs, for a device that is
 * not present, leave it out and skip the check. */
#define HID_RULES_F_DECLARED		(1u << 0)
/* The device's firmware reads its command from the payload whatever the
 * report type and ID (a rule set's "commands_in_payload"): a request to a
 * report the descriptor does not declare goes to the rules, which match
 * the command where the device sees it. */
#define HID_RULES_F_COMMANDS_IN_PAYLOAD	(1u << 1)

/* struct hid_rule_cond.flags */
/* The condition holds when the masked bytes are not all equal to value:
 * what the policy compiler writes for "a HID++ feature index other than
 * IRoot's" (bytes 2 != 0), which one byte-mask comparison cannot say. */
#define HID_RULE_COND_F_NOT		(1u << 0)

struct hid_rule_cond {
	__u16 offset;	/* first byte compared, from byte 0 of the buffer */
	__u8 len;	/* bytes compared, 1..HID_RULES_COND_BYTES */
	__u8 flags;	/* HID_RULE_COND_F_*; other bits 0 */
	__u8 value[HID_RULES_COND_BYTES]; /* 0 past len; value[i] & ~mask[i] == 0 */
	__u8 mask[HID_RULES_COND_BYTES];  /* 0 past len */
};

/*
 * Who sends a request (a rule's "sender"): each field given must hold, and
 * within a field one of its values. A request a driver makes on its own
 * (source 0) has origin kernel and no user, group or executable.
 */
#define HID_SENDER_MAX_IDS		4	/* users, groups, executables, units per rule */
/* Supplementary groups a task may have (the kernel's NGROUPS_MAX): all are
 * looked at, by a binary search of so many steps (log2 of it, plus one). */
#define HID_SENDER_GROUPS_MAX		65536
#define HID_SENDER_GROUP_STEPS		17

#define HID_SENDER_F_ORIGIN		(1u << 0)
#define HID_SENDER_F_USER		(1u << 1) /* real uid */
#define HID_SENDER_F_GROUP		(1u << 2) /* real gid or a supplementary group */
#define HID_SENDER_F_EXECUTABLE		(1u << 3) /* the file the process runs */
#define HID_SENDER_F_UNIT		(1u << 4) /* a systemd unit: its cgroup or one below */

#define HID_SENDER_ORIGIN_KERNEL	1
#define HID_SENDER_ORIGIN_USER		2

struct hid_rule_exe {
	__u64 ino;
	__u32 dev;	/* the kernel's encoding: major << 20 | minor */
	__u32 reserved;	/* 0 */
};

/*
 * A unit's cgroup as the kernel numbers it: the calling task is in the unit
 * when its cgroup's ancestor at LEVEL (the root is level 0) has this id.
 * Ids are not reused, so the id of a unit that was stopped matches nobody;
 * 0 (the unit is not running) matches nobody either.
 */
struct hid_rule_unit {
	__u64 cgroup_id;
	__u32 level;
	__u32 reserved;	/* 0 */
};

struct hid_rule_sender {
	__u8 fields;	/* HID_SENDER_F_* given; 0: any sender */
	__u8 origin;	/* HID_SENDER_ORIGIN_* */
	__u8 n_uids;	/* 0..HID_SENDER_MAX_IDS each */
	__u8 n_gids;
	__u8 n_exes;
	__u8 n_units;
	__u8 reserved[2];
	__u32 uids[HID_SENDER_MAX_IDS];
	__u32 gids[HID_SENDER_MAX_IDS];
	struct hid_rule_exe exes[HID_SENDER_MAX_IDS];
	struct hid_rule_unit units[HID_SENDER_MAX_IDS];
};

struct hid_rule {
	__u32 report_ids[HID_RULES_REPORT_ID_WORDS]; /* bit n: report ID n matches */
	struct hid_rule_cond conds[HID_RULES_MAX_CONDS];
	__u32 index;	/* userspace rule index: names the rule in the audit log */
	__u16 err;	/* positive errno returned when a deny is enforced */
	__u8 kinds;	/* HID_RULE_KIND_* bits this rule applies to */
	__u8 action;	/* HID_RULE_ALLOW or HID_RULE_DENY */
	__u8 flags;	/* HID_RULE_F_* */
	__u8 n_conds;	/* 0..HID_RULES_MAX_CONDS, all ANDed */
	__u8 reserved[6];
	__u64 expires_ns; /* CLOCK_BOOTTIME after which it no longer matches; 0: never */
	struct hid_rule_sender sender;
};

struct hid_device_rules {
	__u32 n_rules;		/* 0..HID_RULES_MAX_RULES */
	__u16 default_err;	/* errno when the default denies */
	__u8 default_action;	/* HID_RULE_ALLOW or HID_RULE_DENY */
	__u8 default_flags;	/* HID_RULE_F_* for the default decision */
	__u8 mode;		/* HID_RULES_MODE_* */
	__u8 flags;		/* HID_RULES_F_* */
	__u8 reserved[6];
	struct hid_rule rules[HID_RULES_MAX_RULES]; /* in evaluation order; zeroed past n_rules */
	/* The index of rules[] (see the top of this file): bit i of
	 * kind_rules[k] is set when rules[i].kinds has kind bit k, bit i of
	 * report_id_rules[r] when rules[i] names report ID r; no bit at or
	 * past n_rules. */
	__u64 kind_rules[HID_RULES_KINDS];
	__u64 report_id_rules[HID_RULES_REPORT_IDS];
	/* bit i: rules[i] names a user, group or executable, for which the
	 * firewall reads the calling task; only then is it read */
	__u64 task_sender_rules;
	/* The reports the device's descriptor declares: bit n of
	 * declared[t] is report ID n of type t (HID_RULES_RTYPE_*); a
	 * descriptor that numbers no report of a type declares its ID 0. */
	__u32 declared[HID_RULES_RTYPES][HID_RULES_REPORT_ID_WORDS];
};

_Static_assert(sizeof(struct hid_rule_cond) == 12, "hid_rule_cond layout");
_Static_assert(sizeof(struct hid_rule_sender) == 168, "hid_rule_sender layout");
_Static_assert(sizeof(struct hid_rule) == 320, "hid_rule layout");
_Static_assert(HID_RULES_MAX_RULES <= 64, "a rule index word has a bit per rule");
_Static_assert(sizeof(struct hid_device_rules) ==
	       16 + 320 * HID_RULES_MAX_RULES + 8 * (HID_RULES_KINDS + HID_RULES_REPORT_IDS + 1) +
	       HID_RULES_RTYPES * HID_RULES_REPORT_IDS / 8,
	       "hid_device_rules layout");

/* The kind bit of a hid_hw_request; 0 for requests no rule can name. */
static inline __attribute__((always_inline)) __u32
hid_rules_request_kind(__u32 reqtype, __u32 rtype)
{
	__u32 shift;

	if (rtype > HID_RULES_RTYPE_FEATURE)
		return 0;
	/* feature, input, output take bits 0, 1, 2 */
	shift = rtype == HID_RULES_RTYPE_FEATURE ? 0 : rtype + 1;
	if (reqtype == HID_RULES_REQ_GET_REPORT)
		return HID_RULE_KIND_GET_FEATURE << shift;
	if (reqtype == HID_RULES_REQ_SET_REPORT)
		return HID_RULE_KIND_SET_FEATURE << shift;
	return 0;
}

static inline __attribute__((always_inline)) int
hid_rule_has_report_id(const struct hid_rule *rule, __u8 report_id)
{
	return (rule->report_ids[report_id >> 5] >> (report_id & 31)) & 1;
}

/* Does DEV's descriptor declare report REPORT_ID of type RTYPE? */
static inline __attribute__((always_inline)) int
hid_rules_declares(const struct hid_device_rules *dev, __u32 rtype, __u8 report_id)
{
	if (rtype >= HID_RULES_RTYPES)
		return 0;
	return (dev->declared[rtype][report_id >> 5] >> (report_id & 31)) & 1;
}

#endif /* HID_POLICY_HID_RULES_H */
