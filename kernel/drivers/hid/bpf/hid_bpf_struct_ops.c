// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HID-BPF struct_ops glue: how hid_bpf_ops programs are checked, and how a
 * registered hid_bpf_ops attaches to its device and detaches from it.
 */

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/device.h>
#include <linux/hid.h>
#include <linux/hid_bpf.h>
#include <linux/init.h>
#include <linux/stddef.h>
#include "hid_bpf_dispatch.h"

/* BTF types programs may write into; set by hid_bpf_ops_init() */
static const struct btf_type *hid_bpf_ctx_type;
static const struct btf_type *hid_device_type;

/*
 * The only bytes a program may write through its context: [start, end) of
 * a struct. The strings of hid_device keep their last byte, the NUL.
 */
static const struct {
	const struct btf_type **type;
	size_t start;
	size_t end;
} hid_bpf_writable[] = {
	{ &hid_bpf_ctx_type, offsetof(struct hid_bpf_ctx, retval),
	  offsetofend(struct hid_bpf_ctx, retval) },
	{ &hid_device_type, offsetof(struct hid_device, name),
	  offsetofend(struct hid_device, name) - 1 },
	{ &hid_device_type, offsetof(struct hid_device, uniq),
	  offsetofend(struct hid_device, uniq) - 1 },
	{ &hid_device_type, offsetof(struct hid_device, phys),
	  offsetofend(struct hid_device, phys) - 1 },
};

static int hid_bpf_ops_init(struct btf *btf)
{
	s32 id;

	id = btf_find_by_name_kind(btf, "hid_bpf_ctx", BTF_KIND_STRUCT);
	if (id < 0)
		return id;
	hid_bpf_ctx_type = btf_type_by_id(btf, id);

	id = btf_find_by_name_kind(btf, "hid_device", BTF_KIND_STRUCT);
	if (id < 0)
		return id;
	hid_device_type = btf_type_by_id(btf, id);
	return 0;
}

static bool hid_bpf_ops_is_valid_access(int off, int size,
					enum bpf_access_type type,
					const struct bpf_prog *prog,
					struct bpf_insn_access_aux *info)
{
	/* the hook's arguments: read-only */
	return bpf_tracing_btf_ctx_access(off, size, type, prog, info);
}

static int hid_bpf_ops_btf_struct_access(struct bpf_verifier_log *log,
					 const struct btf *btf,
					 const struct btf_type *t, int off,
					 int size, enum bpf_access_type atype,
					 u32 *next_btf_id,
					 enum bpf_type_flag *flag)
{
	size_t i;

	if (atype == BPF_READ)
		return btf_struct_access(log, btf, t, off, size, atype,
					 next_btf_id, flag);

	for (i = 0; i < ARRAY_SIZE(hid_bpf_writable); i++) {
		if (t != *hid_bpf_writable[i].type)
			continue;
		if (off >= 0 && size > 0 &&
		    off >= hid_bpf_writable[i].start &&
		    off + size <= hid_bpf_writable[i].end)
			return NOT_INIT;
	}

	bpf_log(log, "write to %s at offset %d, size %d, is not allowed\n",
		btf_name_by_offset(btf, t->name_off), off, size);
	return -EACCES;
}

static const struct bpf_func_proto *
hid_bpf_ops_get_func_proto(enum bpf_func_id func_id,
			   const struct bpf_prog *prog)
{
	/*
	 * Upstream's bpf_base_func_proto() has these and 6.1's does not. The
	 * uid and comm helpers stay out, as upstream keeps them out: a program
	 * that names its caller reads the current task (CAP_PERFMON).
	 */
	switch (func_id) {
	case BPF_FUNC_get_current_pid_tgid:
		return &bpf_get_current_pid_tgid_proto;
	case BPF_FUNC_get_ns_current_pid_tgid:
		return &bpf_get_ns_current_pid_tgid_proto;
#ifdef CONFIG_CGROUPS
	case BPF_FUNC_get_current_cgroup_id:
		return bpf_capable() ? &bpf_get_current_cgroup_id_proto : NULL;
	case BPF_FUNC_get_current_ancestor_cgroup_id:
		return bpf_capable() ? &bpf_get_current_ancestor_cgroup_id_proto : NULL;
#endif
	default:
		return bpf_base_func_proto(func_id);
	}
}

static const struct bpf_verifier_ops hid_bpf_verifier_ops = {
	.get_func_proto = hid_bpf_ops_get_func_proto,
	.is_valid_access = hid_bpf_ops_is_valid_access,
	.btf_struct_access = hid_bpf_ops_btf_struct_access,
};

static int hid_bpf_ops_check_member(const struct btf_type *t,
				    const struct btf_member *member)
{
	switch (__btf_member_bit_offset(t, member) / 8) {
	case offsetof(struct hid_bpf_ops, hid_device_event):
	case offsetof(struct hid_bpf_ops, hid_rdesc_fixup):
	case offsetof(struct hid_bpf_ops, hid_hw_request):
	case offsetof(struct hid_bpf_ops, hid_hw_output_report):
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/*
 * Hooks called in process context may be sleepable (and so call the
 * sleepable kfuncs); hid_device_event runs in interrupt context and never is.
 */
static bool hid_bpf_ops_sleepable_member(const struct btf_type *t,
					 const struct btf_member *member)
{
	switch (__btf_member_bit_offset(t, member) / 8) {
	case offsetof(struct hid_bpf_ops, hid_rdesc_fixup):
	case offsetof(struct hid_bpf_ops, hid_hw_request):
	case offsetof(struct hid_bpf_ops, hid_hw_output_report):
		return true;
	default:
		return false;
	}
}

static int hid_bpf_ops_init_member(const struct btf_type *t,
				   const struct btf_member *member,
				   void *kdata, const void *udata)
{
	const struct hid_bpf_ops *uops = udata;
	struct hid_bpf_ops *kops = kdata;

	switch (__btf_member_bit_offset(t, member) / 8) {
	case offsetof(struct hid_bpf_ops, hid_id):
		kops->hid_id = uops->hid_id;
		return 1;
	case offsetof(struct hid_bpf_ops, flags):
		if (uops->flags & ~BPF_F_BEFORE)
			return -EINVAL;
		kops->flags = uops->flags;
		return 1;
	default:
		return 0;
	}
}

/* Called with the device lock and hdev->bpf.lock held. */
static int hid_bpf_attach(struct hid_device *hdev, struct hid_bpf_ops *ops)
{
	int err;

	if (hdev->bpf.destroyed)
		return -ENODEV;
	if (hdev->bpf.nr_ops >= HID_BPF_MAX_OPS_PER_DEVICE)
		return -E2BIG;
	if (ops->hid_rdesc_fixup && hdev->bpf.rdesc_ops)
		return -EINVAL;

	if (ops->hid_device_event) {
		hdev->bpf.nr_event_ops++;
		err = hid_bpf_event_buf_update(hdev);
		if (err) {
			hdev->bpf.nr_event_ops--;
			return err;
		}
	}

	ops->hdev = hdev;
	if (ops->flags & BPF_F_BEFORE)
		list_add_rcu(&ops->list, &hdev->bpf.ops_list);
	else
		list_add_tail_rcu(&ops->list, &hdev->bpf.ops_list);
	if (ops->hid_rdesc_fixup)
		rcu_assign_pointer(hdev->bpf.rdesc_ops, ops);
	hdev->bpf.nr_ops++;
	return 0;
}

/*
 * reg: the struct_ops map element was updated. The ops attaches to its
 * device and keeps a reference on it until unreg.
 */
static int hid_bpf_reg(void *kdata)
{
	struct hid_bpf_ops *ops = kdata;
	struct hid_device *hdev;
	int err;

	if (ops->hdev)
		return -EBUSY;

	hdev = hid_bpf_get_device(ops->hid_id);
	if (!hdev)
		return -ENODEV;

	/* the device lock keeps the reports stable while sizing the buffer */
	device_lock(&hdev->dev);
	mutex_lock(&hdev->bpf.lock);
	err = hid_bpf_attach(hdev, ops);
	mutex_unlock(&hdev->bpf.lock);
	device_unlock(&hdev->dev);

	if (err) {
		put_device(&hdev->dev);
		return err;
	}
	if (ops->hid_rdesc_fixup)
		hid_bpf_reprobe(hdev);
	return 0;
}

/*
 * unreg: the map element was deleted. Detach, unless the device went away
 * first (hid_bpf_destroy_device() already took the ops off its list). The
 * programs may be freed once this returns, so it waits for SRCU readers
 * and for RCU readers (device events), holding no lock: a sleepable reader
 * may wait for hdev->bpf.lock (behind a probe that holds the device lock)
 * or for the device lock itself.
 */
static void hid_bpf_unreg(void *kdata)
{
	struct hid_bpf_ops *ops = kdata;
	struct hid_device *hdev = ops->hdev;
	bool reprobe = false;

	if (WARN_ON_ONCE(!hdev))
		return;

	mutex_lock(&hdev->bpf.lock);
	if (!hdev->bpf.destroyed) {
		list_del_rcu(&ops->list);
		hdev->bpf.nr_ops--;
		if (rcu_access_pointer(hdev->bpf.rdesc_ops) == ops) {
			RCU_INIT_POINTER(hdev->bpf.rdesc_ops, NULL);
			reprobe = true;
		}
		/* the last event program gone: only frees, cannot fail */
		if (ops->hid_device_event && !--hdev->bpf.nr_event_ops)
			hid_bpf_event_buf_update(hdev);
	}
	ops->hdev = NULL;
	mutex_unlock(&hdev->bpf.lock);

	synchronize_srcu(&hdev->bpf.srcu);
	synchronize_rcu();
	if (reprobe)
		hid_bpf_reprobe(hdev);
	put_device(&hdev->dev);
}

struct bpf_struct_ops bpf_hid_bpf_ops = {
	.verifier_ops = &hid_bpf_verifier_ops,
	.init = hid_bpf_ops_init,
	.check_member = hid_bpf_ops_check_member,
	.sleepable_member = hid_bpf_ops_sleepable_member,
	.init_member = hid_bpf_ops_init_member,
	.reg = hid_bpf_reg,
	.unreg = hid_bpf_unreg,
	.name = "hid_bpf_ops",
};

static int __init hid_bpf_init(void)
{
	int err;

	err = hid_bpf_register_kfuncs();
	if (err)
		pr_warn("HID-BPF: cannot register the kfuncs: %d\n", err);
	return 0;
}
late_initcall(hid_bpf_init);
