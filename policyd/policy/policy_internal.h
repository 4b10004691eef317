/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the files of the policy engine only. */
#pragma once

#include <jansson.h>

#include "policy.h"

#define POLICY_PATH_MAX 256

/* Where each key and value of a document starts (policy_positions.c). */
struct pos_map;
int pos_map_build(const char *buf, size_t len, struct pos_map **ret);
void pos_map_free(struct pos_map *m);
/* The start of the value at PATH (KEY: of its key, when it has one), or of
 * its nearest ancestor that was recorded; {0, 0} when none was. */
struct json_pos pos_map_find(const struct pos_map *m, const char *path, bool key);

/* Where the parser is: the policy being filled and the file being read. */
struct parse_ctx {
	struct policy *p;
	struct diag *diag;
	const char *file;	/* the file's path, as messages name it */
	size_t file_idx;
	const struct pos_map *pos;
	int version;		/* the document's format version, once read (else 0) */
};

/* An error about the value at PATH, or (perr_key) about its key. */
void perr(struct parse_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void perr_key(struct parse_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A warning about the value at PATH. */
void pwarn(struct parse_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A note about the value at PATH: what a dry run assumed of it. */
void pnote(struct parse_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Where the value at PATH starts. */
struct json_pos parse_pos(const struct parse_ctx *c, const char *path);

/* The name of NAMES (NULL-terminated) nearest to S by edit distance, when
 * near enough to be a likely misspelling; NULL otherwise. */
const char *nearest_name(const char *s, const char *const *names);

/* Can the rule sets of all files together give one device more rules than
 * it holds? An error naming them when they can (policy_capacity.c).
 * Returns 0, -EINVAL or -ENOMEM. */
int policy_check_capacity(const struct policy *p, struct diag *diag);

/* "parent.key" and "parent[i]" (or "key" at the top). */
const char *path_key(char *buf, size_t size, const char *parent, const char *key);
const char *path_index(char *buf, size_t size, const char *parent, size_t i);

/* A short human description of a JSON value for messages. */
const char *json_describe(const json_t *v, char *buf, size_t size);

/* Report keys of OBJ not in ALLOWED (NULL-terminated). Returns 0 or -EINVAL. */
int pv_check_keys(struct parse_ctx *c, const char *path, json_t *obj,
		  const char *const *allowed);
int pv_expect_object(struct parse_ctx *c, const char *path, json_t *v);

/* A non-negative integer, written as a JSON integer or a hex string "0x1f". */
int pv_uint(struct parse_ctx *c, const char *path, json_t *v, unsigned long max,
	    unsigned long *ret);
/* The same where version 1 files had it from the start (a payload offset):
 * a decimal string ("31") is read too, as before, with a warning. */
int pv_uint_v1(struct parse_ctx *c, const char *path, json_t *v, unsigned long max,
	       unsigned long *ret);
/* A vendor or product ID: a JSON integer or a hex string ("0x054c"; in
 * version 1 also "054c", as before, with a warning). */
int pv_id16(struct parse_ctx *c, const char *path, json_t *v, uint16_t *ret);
/* "any", one ID or a non-empty list of IDs. */
int pv_id_set(struct parse_ctx *c, const char *path, json_t *v,
	      struct policy_id_set *ret);
/* A string of at most MAX bytes, copied. */
int pv_string(struct parse_ctx *c, const char *path, json_t *v, size_t max, char **ret);
/* A name: 1..POLICY_NAME_MAX of [A-Za-z0-9._-]. */
int pv_name(struct parse_ctx *c, const char *path, json_t *v, char **ret);
/* One of NAMES (NULL-terminated); *ret is its index. */
int pv_enum(struct parse_ctx *c, const char *path, json_t *v,
	    const char *const *names, int *ret);
/* One name or a non-empty list of names from NAMES: bit i set for names[i]. */
int pv_enum_set(struct parse_ctx *c, const char *path, json_t *v,
		const char *const *names, uint32_t *ret);
/* An errno, by name ("EPERM") or number (1..4095). */
int pv_errno(struct parse_ctx *c, const char *path, json_t *v, uint16_t *ret);
/* Report IDs: "any", an ID, a range "0xlo-0xhi", or a non-empty list of IDs and
 * ranges (in version 1 also decimal strings "16" and "16-31", with a warning). */
int pv_report_ids(struct parse_ctx *c, const char *path, json_t *v,
		  uint32_t ids[HID_RULES_REPORT_ID_WORDS]);
/* A rule's "hidpp_feature": one HID++ 2.0 feature ID (a JSON integer or
 * "0x00D0") or a list of 1..HIDPP_RULE_FEATURES_MAX different ones, IRoot
 * (0) not among them. */
int pv_hidpp_features(struct parse_ctx *c, const char *path, json_t *v,
		      uint16_t features[HIDPP_RULE_FEATURES_MAX], uint8_t *n);
/* Does every frame B's "nrf_config_option" matches match A's
 * (policy_compile.c)? */
bool nrf_options_cover(const struct policy_rule *a, const struct policy_rule *b);
/* A rule's "sender" object (policy_sender.c). */
int pv_sender(struct parse_ctx *c, const char *path, json_t *v, struct policy_rule *rule);
/* Payload bytes: an integer 0..255 or a string of hex byte pairs ("ff 80 f0"). */
int pv_bytes(struct parse_ctx *c, const char *path, json_t *v, uint8_t *buf,
	     size_t size, size_t *n);

/* The match keys of device classes (policy_class.c), filling M. */
int pv_usages(struct parse_ctx *c, const char *path, json_t *v, struct policy_match *m);
int pv_interfaces(struct parse_ctx *c, const char *path, json_t *v, struct policy_match *m);
int pv_hashes(struct parse_ctx *c, const char *path, json_t *v, struct policy_match *m);

/* The rule set whose default decides for DEV (policy_compile.c): the
 * first matching enforcing one that states a default, else the first
 * audit-mode one; NULL when none states one (the built-in allow). */
const struct policy_ruleset *policy_default_set(const struct policy *p,
						const struct policy_device *dev);

/* The compiled rules rule R can take on one device, at most: 1, or for a
 * rule naming HID++ features POLICY_HIDPP_RULE_COPIES() (policy_compile.c).
 * What the limits of a rule set and of a device count. */
size_t policy_rule_copies(const struct policy_rule *r);
/* The sum of it over the rules of rule set S (policy_capacity.c). */
size_t policy_set_copies(const struct policy *p, const struct policy_ruleset *s);

/* Sort like qsort(3), which the daemon's seccomp filter does not let run
 * on more than 1 KiB (policy_sort.c). Not stable. */
void policy_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* A dry run's units that are not running here (or all of them, on a
 * system without cgroup2): each is given its assumed cgroup id
 * (policy_sender.c). Whether a unit runs is no fault of the policy, so
 * no message: the explanations that depend on it say what they assumed. */
void policy_assume_units(struct policy *p);

/* Is a sender listed in a compiled rule (policy_match.c): for the
 * evaluator and for explain alike. */
bool sender_lists_id(const uint32_t *ids, uint8_t n, uint32_t id);
/* Is GID, or one of GROUPS (a task's supplementary groups, all of which
 * the firewall searches), in S's groups? */
bool sender_lists_group(const struct hid_rule_sender *s, uint32_t gid, const uint32_t *groups,
			size_t n_groups);
bool sender_lists_exe(const struct hid_rule_sender *s, const struct hid_rule_exe *e);
unsigned int policy_subject_given(const struct policy_subject *who);	/* 0 for NULL */
/* Does WHO say the request comes from a process, or from a driver? */
bool policy_subject_is_process(const struct policy_subject *who);
bool policy_subject_is_driver(const struct policy_subject *who);
/* What WHO gives, as the firewall would read it; fields WHO leaves open are 0. */
void policy_subject_sender(const struct policy_subject *who, struct policy_sender_id *id);
