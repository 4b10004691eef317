/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hid_bpf.h - the HID-BPF types and kfuncs hid-policy's BPF programs use.
 *
 * A small, committed subset of the kernel's HID-BPF ABI (Linux >= 6.11, and
 * hid-policy's core for 6.1), so the programs build without a vmlinux.h from
 * any particular kernel. Types are declared with preserve_access_index and
 * resolved against the running kernel's BTF at load time (CO-RE); libbpf
 * matches struct_ops members by name, so only the members used are listed.
 */
#ifndef HID_POLICY_HID_BPF_H
#define HID_POLICY_HID_BPF_H

#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#ifndef BPF_F_BEFORE
#define BPF_F_BEFORE (1U << 3)	/* insert at the head of the device's list */
#endif

enum hid_report_type {
	HID_INPUT_REPORT = 0,
	HID_OUTPUT_REPORT = 1,
	HID_FEATURE_REPORT = 2,
	HID_REPORT_TYPES,
};

enum hid_class_request {
	HID_REQ_GET_REPORT = 0x01,
	HID_REQ_GET_IDLE = 0x02,
	HID_REQ_GET_PROTOCOL = 0x03,
	HID_REQ_SET_REPORT = 0x09,
	HID_REQ_SET_IDLE = 0x0A,
	HID_REQ_SET_PROTOCOL = 0x0B,
};

struct hid_report_enum {
	unsigned int numbered;	/* the reports of this type start with their ID */
} __attribute__((preserve_access_index));

struct hid_device {
	unsigned int id;	/* the hid_id: last field of the sysfs name */
	struct hid_report_enum report_enum[HID_REPORT_TYPES];
} __attribute__((preserve_access_index));

struct hid_bpf_ctx {
	struct hid_device *hid;
	__u32 allocated_size;
	union {
		__s32 retval;
		__s32 size;
	};
} __attribute__((preserve_access_index));

/* The kernel's wrapper of the context (drivers/hid/bpf, private; the same
 * on 6.1's port, 6.12 and 7.x): from_bpf is set when a HID-BPF program's
 * kfunc (hid_bpf_hw_request(), hid_bpf_hw_output_report()) made the
 * request, whose source is then that program's context, not a file. */
struct hid_bpf_ctx_kern {
	struct hid_bpf_ctx ctx;
	__u8 *data;
	bool from_bpf;
} __attribute__((preserve_access_index));

struct hid_bpf_ops {
	int hid_id;
	__u32 flags;
	int (*hid_device_event)(struct hid_bpf_ctx *ctx,
				enum hid_report_type report_type, __u64 source);
	int (*hid_rdesc_fixup)(struct hid_bpf_ctx *ctx);
	int (*hid_hw_request)(struct hid_bpf_ctx *ctx, unsigned char reportnum,
			      enum hid_report_type rtype,
			      enum hid_class_request reqtype, __u64 source);
	int (*hid_hw_output_report)(struct hid_bpf_ctx *ctx, __u64 source);
} __attribute__((preserve_access_index));

/*
 * The calling task, for programs loaded with CAP_PERFMON on a kernel with
 * CONFIG_BPF_EVENTS: hid_bpf_ops programs get no uid or comm helper
 * (upstream, and the port alike), but may read the task that
 * bpf_get_current_task() returns with bpf_probe_read_kernel().
 */
/* kuid_t and kgid_t wrap a number in a struct; they are read whole. */
typedef struct {
	__u32 val;
} kuid_t;

typedef struct {
	__u32 val;
} kgid_t;

struct group_info {
	int ngroups;
	kgid_t gid[];
} __attribute__((preserve_access_index));

struct cred {
	kuid_t uid;
	kgid_t gid;
	kuid_t euid;
	kgid_t egid;
	struct group_info *group_info;
} __attribute__((preserve_access_index));

struct super_block {
	__u32 s_dev;		/* dev_t: major << 20 | minor */
	unsigned long s_magic;	/* the file system type's magic, as statfs() gives it */
} __attribute__((preserve_access_index));

struct inode {
	unsigned long i_ino;
	struct super_block *i_sb;
} __attribute__((preserve_access_index));

/*
 * btrfs gives stat() the anonymous device of a file's subvolume, not its
 * super block's, and numbers inodes per subvolume; the firewall reads that
 * device as stat() gives it. A kernel without btrfs (or whose btrfs module
 * was not loaded with the programs) lacks these types: the code that reads
 * them is then dropped at load (bpf_core_type_exists()).
 */
#define BTRFS_SUPER_MAGIC 0x9123683e

struct btrfs_root {
	__u32 anon_dev;		/* dev_t */
} __attribute__((preserve_access_index));

struct btrfs_inode {
	struct btrfs_root *root;	/* the subvolume the inode is in */
	struct inode vfs_inode;		/* BTRFS_I(): the VFS inode is embedded */
} __attribute__((preserve_access_index));

struct file {
	struct inode *f_inode;
} __attribute__((preserve_access_index));

struct mm_struct {
	struct file *exe_file;
} __attribute__((preserve_access_index));

struct task_struct {
	unsigned int ptrace;		/* PT_PTRACED while traced */
	unsigned int flags;		/* PF_* */
	const struct cred *real_cred;	/* its own, as others see it */
	const struct cred *cred;	/* what it acts with (may be overridden) */
	struct mm_struct *mm;
	char comm[16];
} __attribute__((preserve_access_index));

extern __u8 *hid_bpf_get_data(struct hid_bpf_ctx *ctx, unsigned int offset,
			      const unsigned long rdwr_buf_size) __ksym;

#endif /* HID_POLICY_HID_BPF_H */
