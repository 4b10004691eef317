/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy engine: rule sets read from JSON files, validated, and compiled
 * per device into the fixed-size form of bpf/hid_rules.h.
 *
 *	policy_load.c		directories and files: order, /etc over /usr/share
 *	policy_parse.c		one JSON document into rule sets and rules
 *	policy_value.c		scalars: numbers, IDs, enums, payload bytes
 *	policy_sender.c		a rule's sender: origin, users, groups, executables
 *	policy_subject.c	which rules match a sender a question names in part
 *	policy_validate.c	checks across rules: names, limits, shadowing
 *	policy_capacity.c	whether every device's rules fit, all files together
 *	policy_compile.c	one device's effective rules, compiled
 *	policy_match.c		device matching and the evaluation of a request
 *	policy_explain.c	a decision told in words (hid-policyd --explain)
 *
 * The engine knows nothing of BPF: its output is plain data.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bpf/hid_rules.h"
#include "common/hid_report.h"
#include "common/hidpp.h"
#include "common/nrf_config.h"
#include "diag.h"

#define POLICY_FORMAT_VERSION	1
#define POLICY_NAME_MAX		64	/* rule and rule-set names */
#define POLICY_TEXT_MAX		1024	/* descriptions and globs */
#define POLICY_ID_LIST_MAX	256	/* vendor or product IDs in one match */
#define POLICY_PAYLOAD_BYTES_MAX 32	/* bytes in one payload condition */
/* Payload conditions of a rule naming a HID++ feature: its compiled copies
 * add two, the device index (byte 1) and the feature index (byte 2). */
#define POLICY_HIDPP_RULE_CONDS	(HID_RULES_MAX_CONDS - 2)
/* The compiled rules one "hidpp_feature" rule can take on a device, at
 * most: one per feature on each device index of common/hidpp.h's slots,
 * three for the device indexes that are none, and two that keep IRoot
 * questions with software ID 0 to root (policy_compile.c). */
#define POLICY_HIDPP_RULE_COPIES(n_features) (HIDPP_DEVICE_SLOTS * (size_t)(n_features) + 5)
/* Payload conditions of a rule naming an nRF Desktop configuration option:
 * its compiled copies add two, the recipient (byte 1) and the event ID
 * (byte 2). */
#define POLICY_NRF_RULE_CONDS	(HID_RULES_MAX_CONDS - 2)
/* The compiled rules one "nrf_config_option" rule can take on a device,
 * at most: until the device has told, two that let the daemon's own
 * questions through, one that keeps every other frame from programs, and
 * the rule whole (policy_compile.c). */
#define POLICY_NRF_RULE_COPIES	4

/* Vendor defaults, then the administrator's files (meson sets the first from datadir). */
#ifndef POLICY_VENDOR_DIR
#define POLICY_VENDOR_DIR	"/usr/share/hid-policy/policies.d"
#endif
#define POLICY_ADMIN_DIR	"/etc/hid-policy.d"

/* Where a key or value starts in its file: line and column from 1 (0: not known). */
struct json_pos {
	int line, column;
};

#define POLICY_USAGE_LIST_MAX	32	/* usages in one match */
#define POLICY_HASH_LIST_MAX	64	/* descriptor hashes in one match */
#define POLICY_SHA256_BYTES	32

/* Identity of a HID device, as sysfs and uevents tell it. */
struct policy_device {
	uint16_t bus;		/* BUS_USB, BUS_BLUETOOTH, ... (linux/input.h) */
	uint16_t vendor;
	uint16_t product;
	const char *name;	/* HID_NAME; NULL or "" when unknown */
	const char *uniq;	/* HID_UNIQ */
	const char *phys;	/* HID_PHYS */
	/* What its report descriptor says; known once a driver parsed it
	 * (sysfs shows the descriptor from the driver's probe on). */
	bool descriptor_known;
	const uint32_t *usages;	/* top-level application collections, page << 16 | usage */
	size_t n_usages;
	const uint8_t *descriptor_sha256;	/* POLICY_SHA256_BYTES; NULL: not known */
	/* The reports it declares and the usages they carry, which a rule's
	 * "report_usage_page" names (hid_descriptor_reports()); incomplete:
	 * the descriptor declares more than these (or is malformed). */
	const struct hid_report_usage *reports;
	size_t n_reports;
	bool reports_incomplete;
	bool has_interface;	/* USB: the interface's bInterfaceNumber */
	uint8_t interface;
	/* The reports its descriptor declares, as hid_device_rules.declared
	 * holds them; NULL: not known, a dry run's device, and then the
	 * compiled rules leave the check out (HID_RULES_F_DECLARED). */
	const uint32_t (*declared)[HID_RULES_REPORT_ID_WORDS];
	/* The HID++ 2.0 feature indexes the device told the daemon, which a
	 * rule's "hidpp_feature" is compiled with; NULL: nothing learned,
	 * every device index unknown (common/hidpp.h). */
	const struct hidpp_features *hidpp;
	/* The program that asks the device for those indexes (the daemon's
	 * own executable): the one whose HID++ 2.0 questions with software
	 * ID 0 pass a rule naming features; NULL: nobody's. */
	const struct hid_rule_exe *learner_exe;
	/* The configuration-channel modules an nRF Desktop device listed to
	 * the daemon, which a rule's "nrf_config_option" is compiled with;
	 * NULL or not told: unknown (common/nrf_config.h). */
	const struct nrf_config_table *nrf;
};

/* A usage to match: (page << 16 | usage) & mask == value. */
struct policy_usage {
	uint32_t value;
	uint32_t mask;
};

/* A set of 16-bit IDs; any == true matches every ID. */
struct policy_id_set {
	bool any;
	uint16_t *ids;
	size_t n;
};

struct policy_match {
	char *path;		/* JSON path, e.g. "devices[0].match[1]" */
	uint32_t buses;		/* bit n: bus number n matches */
	struct policy_id_set vendors;
	struct policy_id_set products;
	char *name;		/* fnmatch(3) globs; NULL: not checked */
	char *uniq;
	char *phys;
	/* What the report descriptor says; n == 0: not checked */
	struct policy_usage *usages;	/* any application collection matching any of them */
	size_t n_usages;
	uint8_t (*hashes)[POLICY_SHA256_BYTES];	/* the descriptor's SHA-256, one of them */
	size_t n_hashes;
	bool has_interfaces;	/* USB interface numbers, bit n: interface n */
	uint32_t interfaces[8];
	struct json_pos at;
};

struct policy_rule {
	char *name;
	char *description;
	char *path;		/* JSON path, e.g. "devices[0].rules[3]" */
	size_t set;		/* index in policy.sets */
	uint8_t kinds;		/* HID_RULE_KIND_* */
	uint32_t report_ids[HID_RULES_REPORT_ID_WORDS];	/* "report_id"; zero when not given */
	/* "report_usage_page" (and "report_usage"): also the reports of its
	 * type that a device's descriptor declares on that page, resolved per
	 * device by policy_rule_report_ids() */
	bool by_usage;
	uint16_t usage_page;
	bool has_usage;
	uint16_t usage;
	struct hid_rule_cond conds[HID_RULES_MAX_CONDS];
	uint8_t n_conds;	/* with hidpp_feature, at most POLICY_HIDPP_RULE_CONDS */
	/* "hidpp_feature": the HID++ 2.0 features whose requests it matches,
	 * compiled per device with the feature indexes the device told
	 * (policy_compile()); 0: not such a rule */
	uint16_t hidpp_features[HIDPP_RULE_FEATURES_MAX];
	uint8_t n_hidpp_features;
	/* "nrf_config_option": the configuration-channel option (module and
	 * option name) of an nRF Desktop device whose frames it matches,
	 * compiled per device with the event ID the device listed
	 * (policy_compile.c); nrf_module[0] == 0: not such a rule */
	char nrf_module[NRF_CONFIG_NAME_MAX + 1];
	char nrf_option[NRF_CONFIG_NAME_MAX + 1];
	uint8_t action;		/* HID_RULE_ALLOW or HID_RULE_DENY */
	uint16_t err;		/* errno of a deny */
	bool log;		/* log allows too */
	struct hid_rule_sender sender; /* who sends the request; fields 0: anyone */
	/* The units the sender names: indices in policy.units, as many as
	 * sender.n_units; policy_compile() fills sender.units from them. */
	uint8_t units[HID_SENDER_MAX_IDS];
	bool impossible;	/* its payload conditions contradict each other */
	bool invalid;		/* had errors: left out of cross-rule checks */
	bool names_input_event;	/* "input_event" is in its request list by name */
	struct json_pos at;
};

struct policy_ruleset {
	size_t file;		/* index in policy.files */
	char *path;		/* "devices[0]" */
	char *name;		/* optional */
	char *description;
	struct policy_match *matches;
	size_t n_matches;
	uint8_t mode;		/* HID_RULES_MODE_* */
	/* "commands_in_payload": the devices' firmware reads a command from
	 * the payload whatever the report type and ID */
	bool commands_in_payload;
	bool has_default;
	uint8_t default_action;
	uint16_t default_err;
	size_t first_rule;	/* this set's rules: policy.rules[first_rule ...] */
	size_t n_rules;
	struct json_pos at, default_at;
};

struct policy_file {
	char *name;		/* base name: what messages and overrides use */
	char *path;		/* where it was read from */
	char *description;
	/* The file as it was read, so that the daemon can keep the policy
	 * in force on disk without reading the file a second time. */
	char *text;
	size_t len;
};

/* A systemd unit a rule's sender names, and its cgroup. */
struct policy_unit {
	char *name;		/* as the policy writes it: "fwupd.service" */
	char *path;		/* its cgroup below the root: "system.slice/fwupd.service" */
	uint32_t level;		/* components of path: the cgroup's depth */
	uint64_t cgroup_id;	/* 0: not running (its cgroup does not exist) */
	bool assumed;		/* a dry run's: not running here, taken to be */
};

/* A user or group name a dry run assumed, not being on this machine. */
struct policy_assumed_name {
	char *name;
	uint32_t id;		/* POLICY_ASSUMED_ID_BASE and up */
	bool group;
};

struct policy {
	struct policy_file *files;
	size_t n_files, cap_files;
	struct policy_ruleset *sets;
	size_t n_sets, cap_sets;
	struct policy_rule *rules;
	size_t n_rules, cap_rules;
	struct policy_unit *units;	/* each named once */
	size_t n_units, cap_units;
	/* Read for a dry run (policy_load_dirs_dry_run()), never to be
	 * enforced: what is not here was assumed to be. */
	bool dry_run;
	struct policy_assumed_name *assumed;	/* users and groups, each once */
	size_t n_assumed, cap_assumed;
};

struct policy *policy_new(void);
void policy_free(struct policy *p);
static inline void policy_freep(struct policy **p)
{
	policy_free(*p);
}
#define _cleanup_policy_ __attribute__((cleanup(policy_freep)))

/*
 * Load every *.json file of DIRS (in order; a later directory's file replaces
 * an earlier one of the same name), in lexical order of file names. Missing
 * directories are skipped unless REQUIRE_DIRS. All problems go to DIAG; on
 * any error the whole set is rejected: returns -EINVAL and *ret stays NULL.
 */
int policy_load_dirs(const char *const *dirs, size_t n_dirs, bool require_dirs,
		     struct diag *diag, struct policy **ret);

/*
 * As policy_load_dirs(), for a dry run (hid-policyd --check and --explain),
 * which may be about another machine than this one: an executable a sender
 * names that is not installed here is assumed to be installed, and a unit
 * that is not running here (or every unit, on a system without cgroup2) to
 * be running, each with an identity no real file or cgroup has
 * (policy_assumed_exe(), policy_assumed_cgroup()), and a user or group
 * that this machine has not to be there (policy_assume_id()), so that the
 * policy decides as it would where they are. A note in DIAG says what was
 * assumed of an executable (the daemon would warn), a user or a group (the
 * daemon would refuse the policy), policy_explain() what was of a unit. Such a policy is never to be put into the firewall.
 */
int policy_load_dirs_dry_run(const char *const *dirs, size_t n_dirs, bool require_dirs,
			     struct diag *diag, struct policy **ret);

/*
 * Parse one document named NAME into P (appending a file, its rule sets and
 * rules). Cross-rule checks are not done here: call policy_validate() once all
 * files are in. Returns 0, or -EINVAL after recording errors in DIAG.
 */
int policy_parse_buffer(struct policy *p, const char *name, const char *path,
			const char *buf, size_t len, struct diag *diag);

/*
 * Checks across rules and files: duplicate rule names, limits, shadowed and
 * impossible rules (warnings). Returns 0 or -EINVAL when an error was found.
 */
int policy_validate(struct policy *p, struct diag *diag);

/* Parse + validate one document: the loader for a single buffer. */
int policy_load_buffer(const char *name, const char *buf, size_t len,
		       struct diag *diag, struct policy **ret);

/*
 * The report IDs rule R names on DEV, into IDS: its "report_id", and with
 * "report_usage_page" the IDs of the reports of its type whose items or
 * enclosing collections carry that page (and usage, where the rule names
 * one) in DEV's descriptor. Where that list is incomplete, a deny rule
 * takes every report ID (it fails closed) and an allow rule only those
 * found. Returns false when it names none: DEV gets no rule from it.
 */
bool policy_rule_report_ids(const struct policy_rule *r, const struct policy_device *dev,
			    uint32_t ids[HID_RULES_REPORT_ID_WORDS]);

/* The report types (HID_REPORT_* bits) rule kinds KINDS touch. */
uint8_t policy_kinds_report_types(uint8_t kinds);

/* Does rule set S apply to DEV? */
bool policy_ruleset_matches(const struct policy_ruleset *s,
			    const struct policy_device *dev);

/*
 * DEV's report descriptor is not known yet (no driver parsed it): could a
 * rule set apply to it once it is? True when a match that tests the
 * descriptor (usage, descriptor_sha256) holds in everything else. Until
 * then the device's rules are not final.
 */
bool policy_waits_for_descriptor(const struct policy *p, const struct policy_device *dev);

/*
 * Could a rule set apply to a HID device of a USB device VENDOR:PRODUCT,
 * whatever its interface, name, serial, path and descriptor turn out to
 * be? What a device's usbfs node is decided by before its HID devices
 * exist (hid-policyd --wait-decided on a USB device).
 */
bool policy_may_match_usb(const struct policy *p, uint16_t vendor, uint16_t product);

/*
 * The HID++ 2.0 feature IDs that rules of the rule sets matching DEV name
 * ("hidpp_feature"), each once, into FEATURES (room for MAX): what the
 * daemon asks the device's getFeature before it compiles DEV's rules.
 * Returns how many there are (more than MAX: only MAX were stored). A
 * policy that loaded names at most 8 on one device (a rule of N features
 * counts as 7 N + 5 of a device's 64 rules): HIDPP_FEATURES_MAX answers
 * hold them on all HIDPP_DEVICE_SLOTS device indexes.
 */
size_t policy_hidpp_features(const struct policy *p, const struct policy_device *dev,
			     uint16_t *features, size_t max);

/*
 * Do rules of the rule sets matching DEV name an nRF Desktop configuration
 * option ("nrf_config_option")? Then the daemon asks the device for its
 * modules before it compiles DEV's rules with them.
 */
bool policy_names_nrf_options(const struct policy *p, const struct policy_device *dev);

/*
 * Compile the effective rules of DEV: rules of every matching rule set, in
 * file and document order. The default decision comes from the first
 * matching enforcing rule set that states a default, else from the first
 * audit-mode one (which only logs), else allow; the device's mode is audit
 * only when every matching rule set is. Returns 0, -ENOENT when no rule
 * set matches (OUT is then an allow-all table), or -E2BIG (with a message in
 * DIAG, if given) when the rules exceed HID_RULES_MAX_RULES; OUT is then
 * zeroed and must not be loaded: the caller keeps the device's previous
 * rules or refuses the policy.
 */
int policy_compile(const struct policy *p, const struct policy_device *dev,
		   struct hid_device_rules *out, struct diag *diag);

/*
 * The unified cgroup hierarchy's root ("/sys/fs/cgroup", or under systemd's
 * hybrid layout "/sys/fs/cgroup/unified"); NULL when there is none, and
 * then no unit can be told.
 */
const char *policy_cgroup_root(void);

/*
 * Add unit NAME, as a rule's sender writes it, to P's units (once): its
 * index, or -EINVAL with WHY set when the name is not a unit the firewall
 * can tell (or the system has no cgroup2), or -ENOMEM. Its cgroup is looked
 * up by policy_resolve_units().
 */
int policy_unit_add(struct policy *p, const char *name, const char **why);
const struct policy_unit *policy_unit_find(const struct policy *p, const char *name);

/*
 * The ids of the cgroups from the root down to unit NAME's as they are now,
 * into IDS ([0] the root's, at most MAX): *N of them, and *RUNNING whether
 * the unit's own cgroup is one (else only its slices that exist are).
 * Returns 0, or -EINVAL with WHY set when NAME is no unit the firewall can
 * tell. NAME is a unit as a rule names it, or (a command line's) the cgroup
 * path /proc/PID/cgroup gives, "/user.slice/user-1000.slice/session-3.scope"
 * with or without its leading slash, each slice in the one its name says.
 */
int policy_unit_cgroups(const char *name, uint64_t *ids, size_t max, size_t *n, bool *running,
			const char **why);

/*
 * As policy_unit_cgroups(), for a dry run: the levels that do not exist
 * here (all of them, on a system without cgroup2) get the ids
 * policy_assumed_cgroup() gives their paths, as the units of a policy
 * read for a dry run do; *RUNNING still tells whether the unit runs here.
 */
int policy_unit_cgroups_assumed(const char *name, uint64_t *ids, size_t max, size_t *n,
				bool *running, const char **why);

/*
 * As policy_unit_cgroups(), for the cgroup at PATH ("/system.slice/x.service",
 * as the "0::" line of /proc/PID/cgroup gives it): *EXISTS whether PATH's own
 * cgroup is among them. Returns 0, or -EINVAL with WHY set when PATH is no
 * such path.
 */
int policy_cgroup_ancestry(const char *path, uint64_t *ids, size_t max, size_t *n, bool *exists,
			   const char **why);

/*
 * Look up the cgroup of each unit P names now: a unit started since has
 * a new cgroup, a unit stopped none. *CHANGED (if given) tells whether any
 * unit's cgroup is not the one looked up before; the rules of every device
 * must then be compiled again. Returns 0, or a negative errno when the
 * cgroup hierarchy cannot be read (the units keep their cgroups).
 */
int policy_resolve_units(struct policy *p, bool *changed);

/* Who sends a request, as the firewall reads it from the calling task. */
struct policy_sender_id {
	bool from_kernel;	/* a driver's own request */
	bool known;		/* uid, gid and groups are valid */
	uint32_t uid, gid;
	const uint32_t *groups;	/* supplementary groups */
	size_t n_groups;
	bool exe_known;
	uint64_t exe_ino;
	uint32_t exe_dev;	/* major << 20 | minor */
	/* The ids of its cgroup's ancestors by level, [0] the root's, and
	 * last its own: the units it is in. n_cgroups 0: in none. */
	const uint64_t *cgroups;
	size_t n_cgroups;
};

/* One request, as a hook sees it. */
struct policy_request {
	uint8_t kind;		/* one HID_RULE_KIND_* bit */
	uint8_t report_id;
	const uint8_t *data;	/* the buffer from byte 0; may be NULL if len 0 */
	size_t len;
	/* NULL: a user's request whose sender is not known; then, as in the
	 * firewall, a deny rule with a sender matches and an allow rule with
	 * one does not. */
	const struct policy_sender_id *sender;
};

struct policy_verdict {
	uint32_t index;		/* rule index in policy.rules, or HID_RULE_INDEX_DEFAULT */
	int rule;		/* position in the compiled table, -1 for the default */
	uint8_t action;		/* what the rule or default says */
	uint16_t err;
	bool enforced;		/* the request is refused with -err */
	bool logged;
	/* On a device where some rule set enforces, the first matching rule
	 * of an audit-mode rule set: logged, but evaluation went on past it
	 * (-1: none). */
	int audit_rule;
	uint32_t audit_index;
	uint8_t audit_action;
};

/* Evaluate REQ against compiled rules, exactly as the BPF programs do:
 * a request to a report the descriptor does not declare is refused first
 * (index HID_RULE_INDEX_UNDECLARED), where the rules know the descriptor
 * (HID_RULES_F_DECLARED: the firewall checks declared[] even without it,
 * but hid-policyd never loads rules without it). */
void policy_evaluate(const struct hid_device_rules *rules,
		     const struct policy_request *req, struct policy_verdict *v);

/* Is REQ from user space to a report RULES's descriptor does not declare,
 * and refused for it before any rule? False where the rules do not know
 * the descriptor. */
bool policy_request_undeclared(const struct hid_device_rules *rules,
			       const struct policy_request *req);

/* The report type (HID_RULES_RTYPE_*) a request of KIND names; -1 for an
 * input event or no single kind. */
int policy_kind_report_type(uint8_t kind);

/* Does compiled rule R match REQ? */
bool policy_rule_matches(const struct hid_rule *r, const struct policy_request *req);

/* The identity the firewall matches an executable by (device, inode): the
 * device of its subvolume on btrfs, the overlay's on overlayfs, and the
 * inode number the kernel gives the file. Returns 0,
 * POLICY_EXE_LAYERS_SHARE, -ENOEXEC when PATH is not a regular file, or
 * -errno. */
int policy_exe_identity(const char *path, struct hid_rule_exe *ret);

/* policy_exe_identity() for a file on an overlay whose layers are on
 * different file systems and that does not number them apart (xino): its
 * inode numbers are the layers' own, so a file in another layer may have
 * the same identity. */
#define POLICY_EXE_LAYERS_SHARE 1

/*
 * The identity a dry run gives an executable PATH that is not installed
 * here: device 0, which no file system has (the kernel numbers anonymous
 * devices from 1), and an inode number made of the path, so that one
 * path is one file, on the rule's side and the question's alike.
 */
void policy_assumed_exe(const char *path, struct hid_rule_exe *ret);
bool policy_exe_is_assumed(const struct hid_rule_exe *e);
/* The id a dry run gives the cgroup at PATH (below the root, "" the root)
 * that does not exist here: made of the path, with the top bit set, which
 * no kernfs node id has (the kernel counts them up from 1). */
uint64_t policy_assumed_cgroup(const char *path);

/*
 * The id a dry run gives a user (or, GROUP, a group) NAME that this machine
 * has not: one of the top ids below -1, which no account has in practice
 * (POLICY_ASSUMED_ID_BASE up, in the order names are first assumed), the
 * same for the same name, kept in P so that explanations say its name.
 * Returns 0, -E2BIG past POLICY_ASSUMED_IDS_MAX names, or -ENOMEM.
 */
#define POLICY_ASSUMED_ID_BASE 0xffff0000u
#define POLICY_ASSUMED_IDS_MAX 4096
int policy_assume_id(struct policy *p, const char *name, bool group, uint32_t *ret);
/* The name P assumed for ID, or NULL. */
const char *policy_assumed_name(const struct policy *p, uint32_t id, bool group);

/* Names and parsers shared by the loader and the command line. */
const char *policy_bus_name(uint16_t bus);
int policy_bus_from_name(const char *s, uint16_t *ret);
const char *policy_errno_name(int err);
int policy_errno_from_name(const char *s);
int policy_kind_from_names(const char *request, const char *report_type, uint8_t *ret);
const char *policy_kind_name(uint8_t kind);

/*
 * "DEVICE_INDEX:FEATURE=INDEX", hex with or without "0x" (e.g. "2:0x00d0=0x0e",
 * "ff:d1=0"): what a device index answered getFeature for a feature, as a
 * dry run is told (hid-policyd --explain --hidpp-feature), added to T. The
 * device index (0xFF or 1-6) counts as answered from then on. Returns 0,
 * -EINVAL, or -E2BIG when T is full.
 */
int policy_hidpp_feature_parse(const char *s, struct hidpp_features *t);

/* "BUS:VID:PID[:NAME]", e.g. "usb:054c:0ce6:Sony DualSense" or "0003:054C:0CE6". */
int policy_device_parse(const char *s, struct policy_device *dev, char **name_storage);

/* Device classes (policy_class.c). */
/* "game_pad", "keyboard", ... or "0xPPPP:0xUUUU" for PAGE << 16 | USAGE. */
const char *policy_usage_name(uint32_t usage, char *buf, size_t size);
/* A usage as a match or the command line names it: a class name, "0xPPPP:0xUUUU"
 * or "0xPPPP" (a whole page). Fills up to MAX entries; returns the count or -EINVAL. */
int policy_usage_parse(const char *s, struct policy_usage *out, size_t max);
/* 64 hex digits into POLICY_SHA256_BYTES bytes. */
int policy_sha256_parse(const char *s, uint8_t out[POLICY_SHA256_BYTES]);
void policy_sha256_format(const uint8_t h[POLICY_SHA256_BYTES], char out[2 * POLICY_SHA256_BYTES + 1]);

/* Hex bytes ("01 ff", "01ff" or "0x01 0xff") into BUF (at most SIZE); returns the count or -EINVAL. */
int policy_hex_bytes(const char *s, uint8_t *buf, size_t size);

/*
 * Who sends a request, as far as a question about it says (hid-policyctl
 * explain --user ...). A field not given can be anything: where a rule's
 * sender tests it, the rule matches for some senders and not for others.
 * A user, groups or an executable make the origin "user".
 */
#define POLICY_SUBJECT_ORIGIN		(1u << 0)
#define POLICY_SUBJECT_USER		(1u << 1)
#define POLICY_SUBJECT_GROUPS		(1u << 2)
#define POLICY_SUBJECT_EXECUTABLE	(1u << 3)
#define POLICY_SUBJECT_UNIT		(1u << 4)

struct policy_subject {
	unsigned int given;		/* POLICY_SUBJECT_* */
	bool from_kernel;		/* ORIGIN: a driver's own request */
	uint32_t uid;			/* USER: the real uid */
	uint32_t gid;			/* GROUPS: the real gid */
	const uint32_t *groups;		/* ... and the supplementary groups */
	size_t n_groups;
	struct hid_rule_exe exe;	/* EXECUTABLE: the file's identity */
	const char *executable;		/* ... and its path, for the text (NULL: none) */
	long pid;			/* > 0: all of it was read from this process */
	const char *unit;		/* UNIT: the systemd unit it runs in, */
	const char *cgroup;		/* ... or the process's cgroup path (unit NULL) */
	const uint64_t *cgroups;	/* ... its cgroup's ancestors' ids as they are now
					 * ([0] the root's); fewer than its depth + 1 when
					 * the unit is not running or the process gone */
	size_t n_cgroups;
	bool unit_running;
	/* A dry run's question (hid-policyd --explain): an executable not
	 * installed here has its assumed identity, and a unit not running
	 * here the assumed ids of its missing levels. */
	bool dry_run;
	/* Ids are told bare, the name service never asked: the daemon's
	 * explanation, on its event loop, for any local user's ids. */
	bool no_names;
};

/* Does rule R match REQ for every sender WHO stands for (POLICY_MATCH_ALWAYS),
 * for none (NEVER), or for some (DEPENDS)? Decided by policy_rule_matches()
 * for each kind of sender WHO leaves open. WHO NULL: nothing is known of the
 * sender. REQ's own sender is not looked at. */
enum policy_match_result { POLICY_MATCH_NEVER, POLICY_MATCH_ALWAYS, POLICY_MATCH_DEPENDS };
enum policy_match_result policy_rule_matches_subject(const struct hid_rule *r,
						     const struct policy_request *req,
						     const struct policy_subject *who);

/*
 * Write to F which rule decides REQ on DEV and why, for the sender WHO
 * (NULL: not known; REQ's own sender is not looked at). Returns the verdict
 * in V and the number of rules before it whose match depends on what WHO
 * leaves open (0: the verdict holds for every sender WHO stands for; else V
 * is what happens when none of them matches), or a negative errno.
 */
int policy_explain(const struct policy *p, const struct policy_device *dev,
		   const struct policy_request *req, const struct policy_subject *who,
		   FILE *f, struct policy_verdict *v);
