// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid_firewall.bpf.c - hid-policy's per-device HID-BPF firewall.
 *
 * The programs are loaded (and verified) once; every protected device gets
 * its own struct_ops map naming them, with its hid_id. They learn which
 * device they run for, and whether its reports are numbered, from the
 * context (CO-RE), and share the pinned maps: the compiled rules of all
 * devices (hid_rules, keyed by hid_id), the audit ring buffer and the
 * counters. A reload rewrites map entries; the programs stay attached.
 *
 * Decision: a request from a program to a report the device's descriptor
 * does not declare is refused first (hid_rules.h); then the first rule of
 * the device that matches the request decides; when none does, the
 * device's default does. Only the rules the device's
 * index names for the request's kind and report ID are looked at (in rule
 * order): a request to a report no rule names costs one map lookup. A deny is enforced unless the
 * device or the rule is in audit mode. Every deny, and every allow whose rule
 * asks for it, is logged to the ring buffer; a full ring buffer is counted.
 * Each device has a budget of records: past it, its decisions are counted
 * per device instead of sent (within_budget()).
 */
#include "hid_bpf.h"
#include <bpf/bpf_core_read.h>
#include "hid_rules.h"
#include "hid_firewall.h"

char LICENSE[] SEC("license") = "GPL";

/* errno of a refusal that no rule chose (no libc headers here) */
#define FW_EPERM 1
/* task_struct.flags of io_uring's io workers and SQPOLL threads
 * (include/linux/sched.h; the same value in 6.1 and 6.12). */
#define FW_PF_IO_WORKER 0x00000010

/* What the running kernel lets hid_bpf_ops programs know of their caller
 * (probed by the loader, set before load): the pid helper (upstream's
 * bpf_base_func_proto), and the current task (CAP_PERFMON and
 * CONFIG_BPF_EVENTS), which names its uid, gid and comm, and the calling
 * task's cgroups (CAP_BPF, CONFIG_CGROUPS), which name its systemd unit. */
const volatile bool have_pid_tgid;
const volatile bool have_task;
const volatile bool have_cgroup;

/* Not preallocated: an update links a new element and frees the old one
 * only after an RCU grace period, so a program walking a device's rules
 * never sees them change under it, nor another device's. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HID_FW_MAX_DEVICES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct hid_device_rules);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hid_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, HID_FW_RINGBUF_BYTES);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hid_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hid_fw_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hid_stats SEC(".maps");

struct request {
	struct hid_bpf_ctx *ctx;
	__u32 hid_id;
	__u64 source;
	__u32 kind;		/* HID_RULE_KIND_* bit */
	__u32 len;
	__u32 allocated;	/* bytes of the buffer: no read reaches past them */
	__u8 hook;		/* HID_FW_HOOK_* */
	__u8 reqtype;
	__u8 rtype;
	__u8 report_id;
};

struct decision {
	__u32 rule_index;
	__u16 err;
	__u8 action;
	__u8 flags;
	bool audit;
	bool no_rules;
};

/* The first matching rule of an audit-mode rule set: logged, never
 * deciding (hid_rules.h). */
struct audit_match {
	bool found;
	struct decision d;
};

static __always_inline bool read_byte(struct hid_bpf_ctx *ctx, __u32 offset, __u8 *out)
{
	__u8 *p = hid_bpf_get_data(ctx, offset, 1);

	if (!p)
		return false;
	*out = *p;
	return true;
}

/*
 * Copy the first LEN bytes of the buffer to OUT, LEN at most MAX (a power
 * of two up to 32, OUT aligned to 8), in chunks of MAX, MAX / 2, ... 1
 * bytes: the chunk of S bytes when LEN has bit S, at the offset the larger
 * chunks before it cover. Each chunk is read with its own bounds check
 * (hid_bpf_get_data()), and its offset is derived from LEN, not carried
 * from chunk to chunk: the verifier walks a chunk per bit, not a byte at
 * a time nor every combination of offsets. Returns the bytes copied: LEN,
 * or where the first chunk that could not be read starts.
 */
static __always_inline __u32 copy_chunk(struct hid_bpf_ctx *ctx, __u32 len, __u8 *out,
					const __u32 max, const __u32 size)
{
	__u32 at = len & ((max - 1) & ~(2 * size - 1));
	__u8 *p;

	if (size > max || !(len & size))
		return 0;
	p = hid_bpf_get_data(ctx, at, size);
	if (!p)
		return at + 1;	/* a failure at 0 is not 0, "none" */
	/* An address the compiler knows nothing of: out + at stays an
	 * addition, not an OR it may prove equal, which the verifier
	 * refuses on a pointer. */
	barrier_var(out);
	out += at;
	/* Eight bytes at a time where a chunk has them: AT is then a
	 * multiple of 16, from the aligned OUT and from the buffer's start,
	 * which hid-core allocates. */
	if (size >= 8) {
		for (__u32 k = 0; k < size; k += 8)
			*(__u64 *)(out + k) = *(const __u64 *)(p + k);
		return 0;
	}
	__builtin_memcpy(out, p, size);
	return 0;
}

static __always_inline __u32 copy_bytes(struct hid_bpf_ctx *ctx, __u32 len, __u8 *out,
					const __u32 max)
{
	__u32 failed;

	if ((failed = copy_chunk(ctx, len, out, max, 32)) ||
	    (failed = copy_chunk(ctx, len, out, max, 16)) ||
	    (failed = copy_chunk(ctx, len, out, max, 8)) ||
	    (failed = copy_chunk(ctx, len, out, max, 4)) ||
	    (failed = copy_chunk(ctx, len, out, max, 2)) ||
	    (failed = copy_chunk(ctx, len, out, max, 1)))
		return failed - 1;
	return len;
}

/* Four bytes as a word, the first in its lowest bits, whatever the
 * machine's byte order. */
static __always_inline __u32 le_word(const __u8 *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (__u32)b[3] << 24;
}

/* The LEN bytes (0 to 4) at OFFSET of the buffer into *WORD, the first in
 * its lowest bits, the rest zero; false when they cannot be read. In
 * registers only: a stack slot that one condition leaves written and
 * another not would keep the verifier from seeing two walks of a rule's
 * conditions as one. */
static __always_inline bool read_word(struct hid_bpf_ctx *ctx, __u32 offset, __u32 len,
				      __u32 *word)
{
	__u32 w = 0;
	__u8 *p;

	if (len == 4) {
		p = hid_bpf_get_data(ctx, offset, 4);
		if (!p)
			return false;
		w = le_word(p);
	} else {
		if (len & 2) {
			p = hid_bpf_get_data(ctx, offset, 2);
			if (!p)
				return false;
			w = p[0] | p[1] << 8;
		}
		if (len & 1) {
			p = hid_bpf_get_data(ctx, offset + (len & 2), 1);
			if (!p)
				return false;
			w |= (__u32)p[0] << (8 * (len & 2));
		}
	}
	*word = w;
	return true;
}

/* A condition compares its bytes as one word, in which the bytes past its
 * length count for nothing. A NOT condition holds when the masked bytes
 * are not all equal to the value; one that reaches past the report's end
 * fails, NOT or not. */
static __always_inline bool cond_holds(const struct request *req,
				       const struct hid_rule_cond *c)
{
	__u32 len = c->len < HID_RULES_COND_BYTES ? c->len : HID_RULES_COND_BYTES;
	__u32 offset = c->offset;
	__u32 word, value, mask;
	bool differs;

	_Static_assert(HID_RULES_COND_BYTES == 4, "read_word() reads up to 4 bytes");
	/* Past the report's end lies the buffer's zero padding. */
	if (len && offset + len > req->len)
		return false;
	if (!read_word(req->ctx, offset, len, &word))
		return false;
	value = le_word(c->value);
	mask = le_word(c->mask);
	/* only the condition's own bytes: the lowest */
	if (len < HID_RULES_COND_BYTES) {
		mask &= (1u << (8 * len)) - 1;
		value &= (1u << (8 * len)) - 1;
	}
	differs = (word & mask) != value;
	return c->flags & HID_RULE_COND_F_NOT ? differs : !differs;
}

/* A walk over a rule's conditions, which all must hold. */
struct cond_walk {
	const struct request *req;
	const struct hid_rule *rule;
	bool holds;
};

/* Condition I of the walk (a bpf_loop() callback: the verifier checks a
 * condition once, not once for each of HID_RULES_MAX_CONDS, and not again
 * for each way the conditions before it held). Returns 1 to stop at the
 * first that does not hold or past the last, 0 to go on. */
static long walk_cond(__u32 i, struct cond_walk *cw)
{
	const struct hid_rule *rule = cw->rule;

	if (!rule || i >= rule->n_conds)
		return 1;
	/* Bounded on the register the access uses. */
	barrier_var(i);
	if (i >= HID_RULES_MAX_CONDS)
		return 1;
	if (cond_holds(cw->req, &rule->conds[i]))
		return 0;
	cw->holds = false;
	return 1;
}

static __always_inline bool rule_matches(const struct hid_rule *rule,
					 const struct request *req, __u64 now)
{
	struct cond_walk cw = { .req = req, .rule = rule, .holds = true };

	if (!(rule->kinds & req->kind))
		return false;
	if (!hid_rule_has_report_id(rule, req->report_id))
		return false;
	if (rule->expires_ns && now >= rule->expires_ns)
		return false;
	if (!rule->n_conds)
		return true;
	/* A GET_REPORT buffer holds what the device is to answer (and
	 * upstream does not even zero it): no condition can hold on it. */
	if (req->reqtype == HID_RULES_REQ_GET_REPORT)
		return false;
	bpf_loop(HID_RULES_MAX_CONDS, walk_cond, &cw, 0);
	return cw.holds;
}

static __always_inline void take_rule(struct decision *d, const struct hid_rule *rule)
{
	d->rule_index = rule->index;
	d->action = rule->action;
	d->err = rule->err;
	d->flags = rule->flags;
}

/* Who sent the request, read from the current task the first time a rule
 * with a sender needs it. */
struct caller {
	bool known;		/* uid, gid and groups could be read */
	bool exe_known;
	__u32 uid, gid;
	__s32 n_groups;
	__u64 groups;		/* kernel address of group_info->gid[] */
	__u64 exe_ino;
	__u32 exe_dev;
};

/* What the walk over a device's rules carries from one rule to the next. */
struct rule_walk {
	struct request req;
	const struct hid_device_rules *dev;
	__u64 candidates;	/* rules still to look at: bit i is rules[i] */
	__u64 now;
	struct decision d;
	struct audit_match am;
	struct caller caller;
	bool lent;		/* identity_lent(): no user, group, executable or unit */
};

/* The device an executable is known by: the one stat() gives, which the
 * policy records. That is its super block's, except on btrfs, where it is
 * its subvolume's (inode numbers repeat across subvolumes, so the super
 * block's would let a file in one subvolume pass for a file in another).
 * Returns 0, or nonzero when the device cannot be read: the executable is
 * then unknown. */
static __always_inline int read_exe_dev(struct inode *inode, struct super_block *sb, __u32 *dev)
{
	struct btrfs_inode *bi;
	struct btrfs_root *root = NULL;
	unsigned long magic = 0;

	if (BPF_CORE_READ_INTO(&magic, sb, s_magic))
		return -1;
	if (magic != BTRFS_SUPER_MAGIC)
		return BPF_CORE_READ_INTO(dev, sb, s_dev);
	if (!bpf_core_type_exists(struct btrfs_inode))
		return -1;
	bi = (void *)inode - bpf_core_field_offset(struct btrfs_inode, vfs_inode);
	if (BPF_CORE_READ_INTO(&root, bi, root) || !root)
		return -1;
	return BPF_CORE_READ_INTO(dev, root, anon_dev);
}

/* The identity of the file TASK's memory was loaded from: its inode's
 * number and the device stat() gives it (read_exe_dev()). */
static __always_inline bool read_exe(struct task_struct *task, __u64 *ino, __u32 *dev)
{
	struct mm_struct *mm = NULL;
	struct file *exe = NULL;
	struct inode *inode = NULL;
	struct super_block *sb = NULL;

	return !BPF_CORE_READ_INTO(&mm, task, mm) && mm &&
	       !BPF_CORE_READ_INTO(&exe, mm, exe_file) && exe &&
	       !BPF_CORE_READ_INTO(&inode, exe, f_inode) && inode &&
	       !BPF_CORE_READ_INTO(ino, inode, i_ino) &&
	       !BPF_CORE_READ_INTO(&sb, inode, i_sb) && sb &&
	       !read_exe_dev(inode, sb, dev);
}

/* Who is calling, read once per request before the rules are walked. A
 * global function: the verifier checks it once, not in every program and
 * in every path through the walk. */
__noinline int read_caller(struct caller *c)
{
	struct task_struct *task;
	const struct cred *cred = NULL;
	struct group_info *gi = NULL;
	unsigned int ptrace = 0;
	kuid_t uid;
	kgid_t gid;
	int n = 0;

	if (!c || !have_task)
		return 0;
	task = (struct task_struct *)bpf_get_current_task();
	if (!task || BPF_CORE_READ_INTO(&cred, task, cred) || !cred)
		return 0;
	if (BPF_CORE_READ_INTO(&uid, cred, uid) || BPF_CORE_READ_INTO(&gid, cred, gid))
		return 0;
	c->uid = uid.val;
	c->gid = gid.val;
	if (BPF_CORE_READ_INTO(&gi, cred, group_info) || !gi || BPF_CORE_READ_INTO(&n, gi, ngroups))
		return 0;
	/* More than setgroups(2) allows: not a group_info we understand. */
	if (n < 0 || n > HID_SENDER_GROUPS_MAX)
		return 0;
	c->n_groups = n;
	/* The array's offset is relocated; its kgid_t elements are 4 bytes
	 * on every kernel. They are searched where a rule asks
	 * (group_search()), not copied: a task may have 65536. */
	c->groups = (__u64)gi + bpf_core_field_offset(gi->gid);
	c->known = true;
	c->exe_known = read_exe(task, &c->exe_ino, &c->exe_dev);
	/* A traced task runs what its tracer makes it run: the file it was
	 * loaded from says nothing about what it sends. As an unreadable
	 * executable, it matches the executable's denies and none of its
	 * allows. */
	if (BPF_CORE_READ_INTO(&ptrace, task, ptrace) || ptrace)
		c->exe_known = false;
	return 0;
}

static __always_inline bool id_listed(const __u32 *ids, __u8 n, __u32 id)
{
	for (__u32 i = 0; i < HID_SENDER_MAX_IDS; i++)
		if (i < n && ids[i] == id)
			return true;
	return false;
}

/* A binary search of a task's supplementary groups (group_search()). */
struct group_walk {
	__u64 groups;		/* kernel address of the first kgid_t */
	__u32 lo, hi;		/* still to look at: [lo, hi) */
	__u32 gid;
	int found;		/* 1 found, -1 unreadable */
};

/* One halving (a bpf_loop() callback: the verifier checks one, not
 * HID_SENDER_GROUP_STEPS). Returns 1 when the search is over. */
static long group_step(__u32 step, struct group_walk *g)
{
	__u32 mid, v;

	if (g->lo >= g->hi)
		return 1;
	mid = g->lo + (g->hi - g->lo) / 2;
	if (bpf_probe_read_kernel(&v, sizeof(v), (const void *)(g->groups + (__u64)mid * 4))) {
		g->found = -1;
		return 1;
	}
	if (v == g->gid) {
		g->found = 1;
		return 1;
	}
	if (v < g->gid)
		g->lo = mid + 1;
	else
		g->hi = mid;
	return 0;
}

/*
 * Is GID one of the N supplementary groups at GROUPS (a kernel address)?
 * The kernel keeps them sorted by value (groups_sort(), before any
 * set_groups()), which its own groups_search() relies on too: a binary
 * search of HID_SENDER_GROUP_STEPS halvings answers for any number up to
 * NGROUPS_MAX. A global function: verified once, not in every rule walk.
 * Returns 1 for a member, 0 for none, -1 when the array could not be read.
 */
__noinline int group_search(__u64 groups, __s32 n, __u32 gid)
{
	struct group_walk g = { .groups = groups, .gid = gid };

	if (n <= 0 || n > HID_SENDER_GROUPS_MAX)
		return 0;
	g.hi = (__u32)n;
	bpf_loop(HID_SENDER_GROUP_STEPS, group_step, &g, 0);
	return g.found;
}

/* Is the caller in one of S's groups, by gid or supplementary group?
 * 1 yes, 0 no, -1 its groups could not be read. */
static __always_inline int in_group(const struct hid_rule_sender *s, const struct caller *c)
{
	if (id_listed(s->gids, s->n_gids, c->gid))
		return 1;
	for (__u32 i = 0; i < HID_SENDER_MAX_IDS; i++) {
		int r;

		if (i >= s->n_gids)
			break;
		r = group_search(c->groups, c->n_groups, s->gids[i]);
		if (r)
			return r;
	}
	return 0;
}

static __always_inline bool exe_listed(const struct hid_rule_sender *s, const struct caller *c)
{
	for (__u32 i = 0; i < HID_SENDER_MAX_IDS; i++)
		if (i < s->n_exes && s->exes[i].ino == c->exe_ino && s->exes[i].dev == c->exe_dev)
			return true;
	return false;
}

/* Is the calling task in one of the units listed, or in a cgroup below
 * one (a unit that delegates)? */
static __always_inline bool unit_listed(const struct hid_rule_sender *s)
{
	if (!have_cgroup)
		return false;
	for (__u32 i = 0; i < HID_SENDER_MAX_IDS; i++) {
		const struct hid_rule_unit *u = &s->units[i];

		if (i < s->n_units && u->cgroup_id &&
		    bpf_get_current_ancestor_cgroup_id(u->level) == u->cgroup_id)
			return true;
	}
	return false;
}

/*
 * Does the calling task make the request with an identity it may have been
 * lent? io_uring executes requests in its io workers and its SQPOLL thread
 * (PF_IO_WORKER), with the credentials of whoever submitted them, set the
 * ring up or registered a personality, none of them necessarily the task's
 * own; a request given a personality and issued at once runs in the
 * submitter with those credentials put over its own (override_creds():
 * cred is then not real_cred). Nothing else in a hidraw write or ioctl
 * overrides them. Where the task cannot be read, it may have been.
 */
static __always_inline bool identity_lent(void)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	const struct cred *cred = NULL, *real = NULL;
	unsigned int flags = 0;

	if (!task || BPF_CORE_READ_INTO(&flags, task, flags) ||
	    BPF_CORE_READ_INTO(&cred, task, cred) || BPF_CORE_READ_INTO(&real, task, real_cred))
		return true;
	return (flags & FW_PF_IO_WORKER) || cred != real;
}

/*
 * Does the sender of a request from a program match S, a sender of a rule
 * whose action is ACTION? FROM_KERNEL: a driver made the request; LENT:
 * it came with an identity that may not be its sender's (identity_lent());
 * C: the caller, where read. Where the sender cannot be read, a deny rule
 * matches and an allow rule does not: an unknown sender is never let
 * through on its identity. A global function: the verifier checks it
 * once, not in every path of the rule walk. Returns 1 or 0.
 */
__noinline int sender_matches(const struct hid_rule_sender *s, __u32 action,
			      const struct caller *c, bool from_kernel, bool lent)
{
	__u8 needs_task;

	if (!s || !c)
		return action == HID_RULE_DENY;
	needs_task = s->fields & (HID_SENDER_F_USER | HID_SENDER_F_GROUP | HID_SENDER_F_EXECUTABLE);
	if ((s->fields & HID_SENDER_F_ORIGIN) &&
	    s->origin != (from_kernel ? HID_SENDER_ORIGIN_KERNEL : HID_SENDER_ORIGIN_USER))
		return 0;
	if (!(s->fields & ~HID_SENDER_F_ORIGIN))
		return 1;
	/* A driver's own request has no user, group, executable or unit. */
	if (from_kernel)
		return 0;
	/* Through io_uring: nobody's for sure (identity_lent()). */
	if (lent)
		return action == HID_RULE_DENY;
	/* The cgroup is always known: no unknown-sender case here. */
	if ((s->fields & HID_SENDER_F_UNIT) && !unit_listed(s))
		return 0;
	if (!needs_task)
		return 1;
	if (!c->known || ((s->fields & HID_SENDER_F_EXECUTABLE) && !c->exe_known))
		return action == HID_RULE_DENY;
	if ((s->fields & HID_SENDER_F_USER) && !id_listed(s->uids, s->n_uids, c->uid))
		return 0;
	if (s->fields & HID_SENDER_F_GROUP) {
		int member = in_group(s, c);

		if (member < 0)
			return action == HID_RULE_DENY;
		if (!member)
			return 0;
	}
	if ((s->fields & HID_SENDER_F_EXECUTABLE) && !exe_listed(s, c))
		return 0;
	return 1;
}

/* Does the request's sender match RULE's? Input comes from the device:
 * nobody sent it, and no rule with a sender matches it. */
static __always_inline bool sender_holds(const struct hid_rule *rule, const struct rule_walk *w)
{
	if (!rule->sender.fields)
		return true;
	if (w->req.hook == HID_FW_HOOK_DEVICE_EVENT)
		return false;
	return sender_matches(&rule->sender, rule->action, &w->caller, w->req.source == 0,
			      w->lent);
}

/* A 64-bit de Bruijn sequence, and where each bit lands when the word
 * holding that bit alone is multiplied by it: the index of the lowest set
 * bit is one multiplication and a table away. No branch per bit, so the
 * verifier looks at the walk of a rule once, not once for each index a
 * branchy search could prove. */
#define DEBRUIJN64 0x03f79d71b4cb0a89ull
static const __u8 debruijn64_bit[64] = {
	0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
	62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
	63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
	46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
};

/* The index of the lowest set bit of a non-zero V. */
static __always_inline __u32 lowest_bit(__u64 v)
{
	return debruijn64_bit[((v & -v) * DEBRUIJN64) >> 58];
}

/* The rules of DEV that a request of KIND (one HID_RULE_KIND_* bit, or 0)
 * to REPORT_ID can match, from the device's index. */
static __always_inline __u64 candidate_rules(const struct hid_device_rules *dev,
					     __u32 kind, __u8 report_id)
{
	__u32 slot;

	if (!kind || kind > HID_RULE_KIND_ALL)
		return 0;
	slot = lowest_bit(kind);
	barrier_var(slot);
	if (slot >= HID_RULES_KINDS)
		return 0;
	return dev->report_id_rules[report_id] & dev->kind_rules[slot];
}

/*
 * The next candidate rule of the walk (a bpf_loop() callback: the verifier
 * checks it once, not once per rule, which keeps 64 rules of 8 conditions
 * within its limits). Returns 1 to stop at the deciding rule or when no
 * candidate is left, 0 to go on.
 */
static long walk_rule(__u32 n, struct rule_walk *w)
{
	const struct hid_device_rules *dev = w->dev;
	const struct hid_rule *rule;
	__u32 i;

	if (!dev || !w->candidates)
		return 1;
	i = lowest_bit(w->candidates);
	w->candidates &= w->candidates - 1;
	if (i >= dev->n_rules)
		return 1;
	/* Bounded on the register the access uses: the compiler would
	 * otherwise check a copy of i, or drop a mask it proves redundant. */
	barrier_var(i);
	if (i >= HID_RULES_MAX_RULES)
		return 1;
	rule = &dev->rules[i];
	if (!rule_matches(rule, &w->req, w->now) || !sender_holds(rule, w))
		return 0;
	/* On a device where some rule set enforces, an audit-mode rule
	 * logs and lets the walk go on; where all are in audit mode, the
	 * first match says what would happen. */
	if ((rule->flags & HID_RULE_F_AUDIT) && dev->mode != HID_RULES_MODE_AUDIT) {
		if (!w->am.found) {
			w->am.found = true;
			take_rule(&w->am.d, rule);
			w->am.d.audit = true;
		}
		return 0;
	}
	take_rule(&w->d, rule);
	return 1;
}

static __always_inline void evaluate(struct rule_walk *w, const struct hid_device_rules *dev)
{
	struct decision *d = &w->d;

	if (!dev) {
		/* Attached but no rules: the daemon is between a device's
		 * removal and our detach, or lost its maps. Fail closed for
		 * requests; never drop the device's own input. */
		d->no_rules = true;
		d->rule_index = HID_RULE_INDEX_DEFAULT;
		d->action = w->req.hook == HID_FW_HOOK_DEVICE_EVENT ? HID_RULE_ALLOW : HID_RULE_DENY;
		d->err = FW_EPERM;
		return;
	}
	w->dev = dev;
	d->rule_index = HID_RULE_INDEX_DEFAULT;
	d->action = dev->default_action;
	d->err = dev->default_err;
	d->flags = dev->default_flags;
	w->candidates = candidate_rules(dev, w->req.kind, w->req.report_id);
	if (w->candidates) {
		/* for the temporary allows' expiry */
		w->now = bpf_ktime_get_boot_ns();
		/* A request a program sends: who sent it, should a rule
		 * that may decide it ask. */
		if (have_task && w->req.hook != HID_FW_HOOK_DEVICE_EVENT && w->req.source) {
			w->lent = identity_lent();
			if (w->candidates & dev->task_sender_rules)
				read_caller(&w->caller);
		}
		bpf_loop(HID_RULES_MAX_RULES, walk_rule, w, 0);
	}
	d->audit = dev->mode == HID_RULES_MODE_AUDIT || (d->flags & HID_RULE_F_AUDIT);
}

static __always_inline void count(__u32 field_offset)
{
	__u32 key = 0;
	struct hid_fw_stats *st = bpf_map_lookup_elem(&hid_stats, &key);

	if (st)
		__sync_fetch_and_add((__u64 *)((char *)st + field_offset), 1);
}

/* The caller's uid, gid, euid, egid, comm and executable, from its task;
 * each one only when it could be read. */
static __always_inline void name_caller(struct hid_fw_record *rec)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	const struct cred *cred = NULL;
	kuid_t uid, euid;
	kgid_t gid, egid;

	if (!task || BPF_CORE_READ_INTO(&cred, task, cred) || !cred)
		return;
	if (!BPF_CORE_READ_INTO(&uid, cred, uid) && !BPF_CORE_READ_INTO(&gid, cred, gid)) {
		rec->uid_gid = (__u64)gid.val << 32 | uid.val;
		rec->flags |= HID_FW_REC_HAVE_UID;
	}
	if (!BPF_CORE_READ_INTO(&euid, cred, euid) && !BPF_CORE_READ_INTO(&egid, cred, egid)) {
		rec->euid = euid.val;
		rec->egid = egid.val;
		rec->sender_flags |= HID_FW_SENDER_HAVE_EIDS;
	}
	if (rec->source && read_exe(task, &rec->exe_ino, &rec->exe_dev))
		rec->sender_flags |= HID_FW_SENDER_HAVE_EXE;
	if (BPF_CORE_READ_STR_INTO(&rec->comm, task, comm) > 0)
		rec->flags |= HID_FW_REC_HAVE_COMM;
	if (rec->source && identity_lent())
		rec->flags |= HID_FW_REC_LENT;
}

/*
 * Each device's budget of ring buffer records (hid_firewall.h): a flood of
 * refused requests on one device must not fill the ring buffer that the
 * records of every device share. Set by the loader before load;
 * budget_burst 0 turns the budget off.
 */
const volatile __u64 budget_burst;
const volatile __u64 budget_refill_ns;	/* one record more per this long */

/* Preallocated: the input path takes its entry in interrupt context. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HID_FW_MAX_DEVICES);
	__type(key, __u32);
	__type(value, struct hid_fw_budget);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hid_budget SEC(".maps");

/* hid-policyd's own: what it has told of hid_budget's counts. Declared
 * here so that it is created and pinned with the other maps. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HID_FW_MAX_DEVICES);
	__type(key, __u32);
	__type(value, struct hid_fw_budget_told);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hid_budget_told SEC(".maps");

/* The device's budget, created full on its first record; NULL when the
 * map is full (the device then has no budget of its own). */
static __always_inline struct hid_fw_budget *device_budget(__u32 hid_id, __u64 now)
{
	struct hid_fw_budget *b = bpf_map_lookup_elem(&hid_budget, &hid_id);
	struct hid_fw_budget fresh = { .tokens = budget_burst, .refilled_ns = now };

	if (b)
		return b;
	bpf_map_update_elem(&hid_budget, &hid_id, &fresh, BPF_NOEXIST);
	return bpf_map_lookup_elem(&hid_budget, &hid_id);
}

/* May the device send one more record? If not, the decision (ACTION) is
 * counted in its budget instead. Tokens are taken without a lock: CPUs
 * racing on one device may let a record more or fewer through, but every
 * decision is either sent, counted dropped or counted here, so the counts
 * stay exact. */
static __always_inline bool within_budget(__u32 hid_id, __u8 action)
{
	struct hid_fw_budget *b;
	__u64 now, earned;

	if (!budget_burst)
		return true;
	now = bpf_ktime_get_boot_ns();
	b = device_budget(hid_id, now);
	if (!b)
		return true;
	if (budget_refill_ns && now > b->refilled_ns) {
		earned = (now - b->refilled_ns) / budget_refill_ns;
		if (earned) {
			b->refilled_ns += earned * budget_refill_ns;
			b->tokens = b->tokens + earned < budget_burst ? b->tokens + earned : budget_burst;
		}
	}
	if (b->tokens) {
		b->tokens--;
		return true;
	}
	if (action == HID_RULE_DENY)
		__sync_fetch_and_add(&b->over_denied, 1);
	else
		__sync_fetch_and_add(&b->over_allowed, 1);
	return false;
}

/* What a record says of a decision, gathered where the request is at hand
 * (its payload is read through the context); send_record() adds the rest. */
struct record_args {
	__u64 source;
	/* aligned: copy_bytes() copies eight bytes at a time */
	__u8 payload[HID_FW_PAYLOAD_BYTES];
	__u32 hid_id;
	__u32 rule_index;
	__u32 len;
	__s32 err;
	__u8 hook;
	__u8 reqtype;
	__u8 rtype;
	__u8 report_id;
	__u8 action;
	__u8 flags;		/* HID_FW_REC_* */
	__u8 payload_len;
};

/* Send the record A says, within its device's budget, with the time and
 * what names the caller. A global function: the verifier checks it once,
 * not at every place a record is sent from, in every path that leads
 * there. */
__noinline int send_record(const struct record_args *a)
{
	struct hid_fw_record *rec;

	if (!a || !within_budget(a->hid_id, a->action))
		return 0;
	rec = bpf_ringbuf_reserve(&hid_events, sizeof(*rec), 0);
	if (!rec) {
		count(__builtin_offsetof(struct hid_fw_stats, dropped));
		return 0;
	}
	__builtin_memset(rec, 0, sizeof(*rec));
	rec->time_ns = bpf_ktime_get_boot_ns();
	rec->source = a->source;
	rec->hid_id = a->hid_id;
	rec->rule_index = a->rule_index;
	rec->len = a->len;
	rec->err = a->err;
	rec->hook = a->hook;
	rec->reqtype = a->reqtype;
	rec->rtype = a->rtype;
	rec->report_id = a->report_id;
	rec->action = a->action;
	rec->flags = a->flags;
	rec->payload_len = a->payload_len;
	__builtin_memcpy(rec->payload, a->payload, sizeof(rec->payload));
	if (have_pid_tgid) {
		rec->pid_tgid = bpf_get_current_pid_tgid();
		rec->flags |= HID_FW_REC_HAVE_PID;
	}
	if (have_task)
		name_caller(rec);
	/* A driver's request runs in whatever task the driver was called
	 * from: only a program's is named by its cgroup. */
	if (have_cgroup && rec->source) {
		rec->cgroup_id = bpf_get_current_cgroup_id();
		if (rec->cgroup_id)
			rec->sender_flags |= HID_FW_SENDER_HAVE_CGROUP;
	}
	bpf_ringbuf_submit(rec, 0);
	count(__builtin_offsetof(struct hid_fw_stats, logged));
	return 0;
}

_Static_assert(HID_FW_PAYLOAD_BYTES <= 32 && !(HID_FW_PAYLOAD_BYTES & (HID_FW_PAYLOAD_BYTES - 1)),
	       "copy_bytes() copies a power of two up to 32");

/* Did a HID-BPF program's kfunc make the request (hid_bpf_ctx_kern)?
 * Read where the kernel has the field and the context at its start. */
static __always_inline bool made_by_bpf(struct hid_bpf_ctx *ctx)
{
	bool from_bpf = false;

	if (!have_task || !bpf_core_field_exists(struct hid_bpf_ctx_kern, from_bpf) ||
	    bpf_core_field_offset(struct hid_bpf_ctx_kern, ctx) != 0)
		return false;
	if (bpf_probe_read_kernel(&from_bpf, sizeof(from_bpf),
				  (const void *)ctx + bpf_core_field_offset(struct hid_bpf_ctx_kern,
									    from_bpf)))
		return false;
	return from_bpf;
}

static __always_inline void emit_record(const struct request *req,
					const struct decision *d, int err)
{
	struct record_args a;

	/* every byte written: the verifier checks what a global function
	 * is given is initialized, padding too */
	__builtin_memset(&a, 0, sizeof(a));
	a.source = req->source;
	a.hid_id = req->hid_id;
	a.rule_index = d->rule_index;
	a.len = req->len;
	a.err = err;
	a.hook = req->hook;
	a.reqtype = req->reqtype;
	a.rtype = req->rtype;
	a.report_id = req->report_id;
	a.action = d->action;
	if (err)
		a.flags |= HID_FW_REC_ENFORCED;
	if (d->no_rules)
		a.flags |= HID_FW_REC_NO_RULES;
	if (req->source && made_by_bpf(req->ctx))
		a.flags |= HID_FW_REC_FROM_BPF;
	/* A GET_REPORT buffer is not the caller's: upstream hidraw does not
	 * zero it, and what it holds is kernel memory, not a request. */
	if (req->reqtype != HID_RULES_REQ_GET_REPORT) {
		__u32 n = req->len < req->allocated ? req->len : req->allocated;

		if (n > HID_FW_PAYLOAD_BYTES)
			n = HID_FW_PAYLOAD_BYTES;
		a.payload_len = copy_bytes(req->ctx, n, a.payload, HID_FW_PAYLOAD_BYTES);
	}
	send_record(&a);
}

static __always_inline bool logged(const struct decision *d)
{
	return d->action == HID_RULE_DENY || (d->flags & HID_RULE_F_LOG);
}

/* Does a request from user space name a report DEV's descriptor does not
 * declare (hid_rules.h, HID_RULE_INDEX_UNDECLARED)? The kernel's own
 * drivers know their devices, and input events are not requests. A report
 * type hid-core does not know is never declared. */
static __always_inline bool undeclared(const struct hid_device_rules *dev,
				       const struct request *req)
{
	__u32 rtype = req->rtype;

	if (!req->source || req->hook == HID_FW_HOOK_DEVICE_EVENT)
		return false;
	if (rtype >= HID_RULES_RTYPES)
		return true;
	if (dev->flags & HID_RULES_F_COMMANDS_IN_PAYLOAD)
		return false;
	/* Bounded on the register the access uses. */
	barrier_var(rtype);
	if (rtype >= HID_RULES_RTYPES)
		return true;
	return !hid_rules_declares(dev, rtype, req->report_id);
}

/* Decide on one request or event; returns 0 to let it through or -errno. */
static __always_inline int decide(const struct request *req)
{
	struct rule_walk w = { .req = *req };
	struct decision *d = &w.d;
	__u32 hid_id = req->hid_id;
	const struct hid_device_rules *dev = bpf_map_lookup_elem(&hid_rules, &hid_id);
	int err = 0;

	if (dev && undeclared(dev, req)) {
		/* refused in every mode, before any rule */
		d->rule_index = HID_RULE_INDEX_UNDECLARED;
		d->action = HID_RULE_DENY;
		d->err = FW_EPERM;
	} else {
		evaluate(&w, dev);
		if (w.am.found && logged(&w.am.d))
			emit_record(req, &w.am.d, 0);
	}
	if (d->action == HID_RULE_DENY) {
		count(__builtin_offsetof(struct hid_fw_stats, denied));
		if (!d->audit)
			err = d->err ? d->err : FW_EPERM; /* never deny with 0: that allows */
	} else {
		count(__builtin_offsetof(struct hid_fw_stats, allowed));
	}
	if (logged(d))
		emit_record(req, d, err);
	return -err;
}

/* Does the device number its reports of this type? Constant indexes only:
 * CO-RE relocates an array element's offset with the running kernel's
 * element size only when the index is part of the access. */
static __always_inline bool numbered_reports(struct hid_bpf_ctx *ctx,
					     enum hid_report_type rtype)
{
	struct hid_device *hid = ctx->hid;

	if (rtype == HID_INPUT_REPORT)
		return hid->report_enum[HID_INPUT_REPORT].numbered;
	if (rtype == HID_OUTPUT_REPORT)
		return hid->report_enum[HID_OUTPUT_REPORT].numbered;
	if (rtype == HID_FEATURE_REPORT)
		return hid->report_enum[HID_FEATURE_REPORT].numbered;
	return false;
}

/* Byte 0 when the device numbers its reports of this type, else 0. */
static __always_inline __u8 leading_report_id(struct hid_bpf_ctx *ctx,
					      enum hid_report_type rtype)
{
	__u8 id = 0;

	if (numbered_reports(ctx, rtype))
		read_byte(ctx, 0, &id);
	return id;
}

/* Byte 0 of the buffer, which hidraw gives as the report number. */
static __always_inline __u8 first_byte(struct hid_bpf_ctx *ctx)
{
	__u8 b = 0;

	read_byte(ctx, 0, &b);
	return b;
}

SEC("struct_ops/hid_hw_request")
int BPF_PROG(fw_hw_request, struct hid_bpf_ctx *hctx, unsigned char reportnum,
	     enum hid_report_type rtype, enum hid_class_request reqtype, __u64 source)
{
	struct request req = {
		.ctx = hctx,
		.hid_id = hctx->hid->id,
		.source = source,
		.kind = hid_rules_request_kind(reqtype, rtype),
		.len = hctx->allocated_size,
		.allocated = hctx->allocated_size,
		.hook = HID_FW_HOOK_HW_REQUEST,
		.reqtype = reqtype,
		.rtype = rtype,
		.report_id = reportnum,
	};

	return decide(&req);
}

SEC("struct_ops/hid_hw_output_report")
int BPF_PROG(fw_output_report, struct hid_bpf_ctx *hctx, __u64 source)
{
	struct request req = {
		.ctx = hctx,
		.hid_id = hctx->hid->id,
		.source = source,
		.kind = HID_RULE_KIND_OUTPUT_REPORT,
		.len = hctx->allocated_size,
		.allocated = hctx->allocated_size,
		.hook = HID_FW_HOOK_OUTPUT_REPORT,
		.rtype = HID_OUTPUT_REPORT,
		/* What usbhid and i2c-hid take for the report ID: on a device
		 * that numbers no output report, a declared one has 0 here. */
		.report_id = first_byte(hctx),
	};

	return decide(&req);
}

SEC("struct_ops/hid_device_event")
int BPF_PROG(fw_device_event, struct hid_bpf_ctx *hctx, enum hid_report_type rtype,
	     __u64 source)
{
	struct request req = {
		.ctx = hctx,
		.hid_id = hctx->hid->id,
		.source = source,
		.kind = HID_RULE_KIND_INPUT_EVENT,
		.len = hctx->size,
		.allocated = hctx->allocated_size,
		.hook = HID_FW_HOOK_DEVICE_EVENT,
		.rtype = rtype,
		.report_id = leading_report_id(hctx, rtype),
	};
	int r = decide(&req);

	/* A negative return drops the event; 0 keeps it unchanged. */
	return r < 0 ? r : 0;
}

/* The template libbpf loads the programs with; the loader gives each
 * device a struct_ops map of its own naming the same programs. */
SEC(".struct_ops")
struct hid_bpf_ops hid_firewall = {
	.flags = BPF_F_BEFORE,	/* see requests and events before anyone else */
	.hid_device_event = (void *)fw_device_event,
	.hid_hw_request = (void *)fw_hw_request,
	.hid_hw_output_report = (void *)fw_output_report,
};
