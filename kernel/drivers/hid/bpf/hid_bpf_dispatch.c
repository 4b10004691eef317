// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HID-BPF dispatch: what runs when a device sends a report, is asked for or
 * sent one, or has its report descriptor parsed, the per-device state behind
 * it, and the kfuncs programs call.
 */

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/device.h>
#include <linux/hid.h>
#include <linux/hid_bpf.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include "hid_bpf_dispatch.h"

/* The event buffer is sized in steps of this many bytes. */
#define HID_BPF_EVENT_BUF_ALIGN	64

/*
 * Per-device state
 */

/**
 * hid_bpf_device_init - set up the HID-BPF state of a new device
 * @hdev: the device, not yet visible to anyone
 *
 * Context: process.
 *
 * Return: 0 or -ENOMEM.
 */
int hid_bpf_device_init(struct hid_device *hdev)
{
	INIT_LIST_HEAD(&hdev->bpf.ops_list);
	mutex_init(&hdev->bpf.lock);
	return init_srcu_struct(&hdev->bpf.srcu);
}

/**
 * hid_bpf_destroy_device - make the attached ops inert as the device goes
 * @hdev: the device, about to be removed (its driver is still bound)
 *
 * Runs first in hid_destroy_device(), as upstream: from here on reports
 * and requests of @hdev fail with -ENODEV before any program, including
 * those its driver makes while it is removed. Empties the ops list and
 * frees the event buffer. The ops keep their
 * reference on @hdev, so their later unregistration finds it, sees it
 * destroyed and only drops that reference. Once this returns no program and
 * no kfunc request runs for @hdev any more: it waits for the SRCU readers
 * and, when a hid_device_event program was attached, for the RCU readers
 * (an unregistration that detached the last one waits for them itself).
 *
 * Context: process.
 */
void hid_bpf_destroy_device(struct hid_device *hdev)
{
	struct hid_bpf_event_buf *buf;
	struct hid_bpf_ops *ops, *tmp;

	mutex_lock(&hdev->bpf.lock);
	WRITE_ONCE(hdev->bpf.destroyed, true);
	list_for_each_entry_safe(ops, tmp, &hdev->bpf.ops_list, list)
		list_del_rcu(&ops->list);
	RCU_INIT_POINTER(hdev->bpf.rdesc_ops, NULL);
	buf = rcu_replace_pointer(hdev->bpf.event_buf, NULL,
				  lockdep_is_held(&hdev->bpf.lock));
	hdev->bpf.nr_ops = 0;
	hdev->bpf.nr_event_ops = 0;
	mutex_unlock(&hdev->bpf.lock);

	synchronize_srcu(&hdev->bpf.srcu);
	/* device events run programs only while there is a buffer */
	if (buf) {
		synchronize_rcu();
		kfree(buf);
	}
}

/**
 * hid_bpf_device_release - free the HID-BPF state with the device
 * @hdev: the device; its last reference is gone, so no ops is attached
 *
 * Context: process.
 */
void hid_bpf_device_release(struct hid_device *hdev)
{
	WARN_ON_ONCE(!list_empty(&hdev->bpf.ops_list));
	/* buffers replaced earlier are kfree_rcu()'d: nothing refers to @hdev */
	kfree(rcu_access_pointer(hdev->bpf.event_buf));
	cleanup_srcu_struct(&hdev->bpf.srcu);
	mutex_destroy(&hdev->bpf.lock);
}

static int hid_bpf_match_id(struct device *dev, const void *data)
{
	return to_hid_device(dev)->id == *(const unsigned int *)data;
}

/**
 * hid_bpf_get_device - find a device by its hid_id
 * @hid_id: the last field of the device's sysfs name
 *
 * Context: process.
 *
 * Return: the device with a reference the caller drops
 * with put_device(), or NULL.
 */
struct hid_device *hid_bpf_get_device(unsigned int hid_id)
{
	struct device *dev;

	dev = bus_find_device(&hid_bus_type, NULL, &hid_id, hid_bpf_match_id);
	return dev ? to_hid_device(dev) : NULL;
}

/* Longest report of any type, rounded up; caller holds the device lock. */
static u32 hid_bpf_event_buf_size(struct hid_device *hdev)
{
	struct hid_report *report;
	u32 len = 1;
	int type;

	for (type = HID_INPUT_REPORT; type < HID_REPORT_TYPES; type++) {
		list_for_each_entry(report, &hdev->report_enum[type].report_list,
				    list)
			len = max(len, hid_report_len(report));
	}
	return round_up(len, HID_BPF_EVENT_BUF_ALIGN);
}

/**
 * hid_bpf_event_buf_update - give the event buffer the size it needs now
 * @hdev: the device
 *
 * Allocates the buffer when the first ops with hid_device_event attached,
 * resizes it when the reports changed, frees it when the last such ops
 * left. A buffer being replaced is freed by kfree_rcu() once no event
 * uses it: this never waits for readers, so it may run under the device
 * lock, which a sleepable program holding the SRCU read lock may be
 * waiting for.
 *
 * Context: process, with hdev->bpf.lock held and, unless the buffer is only
 * freed, the device lock (so that the reports do not change under us).
 * Return: 0 or -ENOMEM, in which case the previous buffer stays.
 */
int hid_bpf_event_buf_update(struct hid_device *hdev)
{
	struct hid_bpf_event_buf *old, *new = NULL;
	u32 size;

	lockdep_assert_held(&hdev->bpf.lock);
	old = rcu_dereference_protected(hdev->bpf.event_buf,
					lockdep_is_held(&hdev->bpf.lock));

	if (hdev->bpf.nr_event_ops) {
		size = hid_bpf_event_buf_size(hdev);
		if (old && old->size == size)
			return 0;
		new = kzalloc(struct_size(new, data, size), GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		new->size = size;
	}
	if (!old && !new)
		return 0;

	rcu_assign_pointer(hdev->bpf.event_buf, new);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/**
 * hid_bpf_connect_device - resize the event buffer for the parsed reports
 * @hdev: the device being connected (hid_connect(), under the device lock)
 *
 * Context: process.
 *
 * Return: 0 or -ENOMEM.
 */
int hid_bpf_connect_device(struct hid_device *hdev)
{
	int err;

	mutex_lock(&hdev->bpf.lock);
	err = hid_bpf_event_buf_update(hdev);
	mutex_unlock(&hdev->bpf.lock);
	return err;
}

/**
 * hid_bpf_reprobe - make the device re-read its report descriptor
 * @hdev: the device; the caller holds a reference and no lock
 *
 * Context: process.
 */
void hid_bpf_reprobe(struct hid_device *hdev)
{
	int err;

	if (READ_ONCE(hdev->bpf.destroyed))
		return;
	err = device_reprobe(&hdev->dev);
	if (err)
		hid_warn(hdev, "HID-BPF: reprobe failed: %d\n", err);
}

/*
 * Hooks called by hid-core
 */

/*
 * The device's hid_device_event programs in list order on the report in
 * @buf, @size bytes long. Returns its final length or a negative error.
 * The context is declared with every member set: a context assigned after
 * its declaration is first zeroed as a whole (CONFIG_INIT_STACK_ALL_ZERO)
 * on every report.
 */
static int hid_bpf_run_device_event(struct hid_device *hdev,
				    struct hid_bpf_event_buf *buf,
				    enum hid_report_type type, u32 size,
				    u64 source)
{
	struct hid_bpf_ctx_kern ctx_kern = {
		.ctx.hid = hdev,
		.ctx.allocated_size = buf->size,
		.ctx.size = size,
		.data = buf->data,
		.from_bpf = source != 0,
		.in_event_hook = true,
	};
	struct hid_bpf_ops *e;
	int ret;

	list_for_each_entry_rcu(e, &hdev->bpf.ops_list, list) {
		if (!e->hid_device_event)
			continue;
		ret = e->hid_device_event(&ctx_kern.ctx, type, source);
		if (ret < 0)
			return ret;
		if (ret)
			ctx_kern.ctx.size = ret;
	}

	if (ctx_kern.ctx.size < 0 || ctx_kern.ctx.size > buf->size)
		return -EINVAL;
	return ctx_kern.ctx.size;
}

/*
 * Under the RCU read lock, not the device's SRCU: hid_device_event
 * programs never sleep, and this runs for every report. The lock is held
 * on return, unless the device is gone or @type is invalid, and hid-core
 * releases it (hid_bpf_device_event_done()) once done with the buffer.
 */
u8 *__dispatch_hid_bpf_device_event(struct hid_device *hdev,
				    enum hid_report_type type, u8 *data,
				    size_t *bufsize, u32 *size, u64 source,
				    bool *rcu_held)
{
	struct hid_bpf_event_buf *buf;
	int ret;

	if (READ_ONCE(hdev->bpf.destroyed))
		return ERR_PTR(-ENODEV);
	if (type >= HID_REPORT_TYPES)
		return ERR_PTR(-EINVAL);

	rcu_read_lock();
	*rcu_held = true;
	buf = rcu_dereference(hdev->bpf.event_buf);
	if (!buf)
		return data;
	/* dropping beats letting a report through unseen by the programs */
	if (*size > buf->size)
		return ERR_PTR(-E2BIG);

	/*
	 * A report a hid_device_event program injects lands here too, over
	 * the report that program is handling: as upstream, the program finds
	 * the injected report, as the programs left it, once the kfunc returns.
	 * It may inject from the buffer itself, hence the memmove() for any
	 * overlap; a report from the device takes the plain copy, which the
	 * compiler inlines.
	 */
	if (unlikely(data < buf->data + buf->size && data + *size > buf->data))
		memmove(buf->data, data, *size);
	else
		memcpy(buf->data, data, *size);
	if (*size < buf->size)
		memset(buf->data + *size, 0, buf->size - *size);

	ret = hid_bpf_run_device_event(hdev, buf, type, *size, source);
	if (ret < 0)
		return ERR_PTR(ret);

	*size = ret;
	*bufsize = buf->size;
	return buf->data;
}

/*
 * The request hooks run in list order under SRCU, which also lets sleepable
 * programs wait; the first non-zero return ends the chain. A positive one
 * counts bytes of buf, so it is clamped to size. A removed device takes no
 * more requests.
 */
int __dispatch_hid_bpf_raw_requests(struct hid_device *hdev,
				    unsigned char reportnum, u8 *buf, u32 size,
				    enum hid_report_type rtype,
				    enum hid_class_request reqtype,
				    u64 source, bool from_bpf)
{
	struct hid_bpf_ctx_kern ctx_kern = {
		.ctx.hid = hdev,
		.ctx.allocated_size = size,
		.ctx.size = size,
		.data = buf,
		.from_bpf = from_bpf,
	};
	struct hid_bpf_ops *e;
	int ret = 0, idx;

	if (READ_ONCE(hdev->bpf.destroyed))
		return -ENODEV;

	idx = srcu_read_lock(&hdev->bpf.srcu);
	list_for_each_entry_srcu(e, &hdev->bpf.ops_list, list,
				 srcu_read_lock_held(&hdev->bpf.srcu)) {
		if (!e->hid_hw_request)
			continue;
		ret = e->hid_hw_request(&ctx_kern.ctx, reportnum, rtype,
					reqtype, source);
		if (ret)
			break;
	}
	srcu_read_unlock(&hdev->bpf.srcu, idx);
	/* callers such as __hid_request() use it as a length in buf */
	return min_t(int, ret, size);
}

int __dispatch_hid_bpf_output_report(struct hid_device *hdev, u8 *buf,
				     u32 size, u64 source, bool from_bpf)
{
	struct hid_bpf_ctx_kern ctx_kern = {
		.ctx.hid = hdev,
		.ctx.allocated_size = size,
		.ctx.size = size,
		.data = buf,
		.from_bpf = from_bpf,
	};
	struct hid_bpf_ops *e;
	int ret = 0, idx;

	if (READ_ONCE(hdev->bpf.destroyed))
		return -ENODEV;

	idx = srcu_read_lock(&hdev->bpf.srcu);
	list_for_each_entry_srcu(e, &hdev->bpf.ops_list, list,
				 srcu_read_lock_held(&hdev->bpf.srcu)) {
		if (!e->hid_hw_output_report)
			continue;
		ret = e->hid_hw_output_report(&ctx_kern.ctx, source);
		if (ret)
			break;
	}
	srcu_read_unlock(&hdev->bpf.srcu, idx);
	return min_t(int, ret, size);
}

/**
 * call_hid_bpf_rdesc_fixup - run the device's hid_rdesc_fixup program
 * @hdev: the device being probed
 * @rdesc: the descriptor as the device reported it
 * @size: in: its length; out: the length of the returned descriptor
 *
 * Context: process (probe).
 *
 * The program returns 0 to keep the size of the descriptor (with the
 * changes it made in place), a new size, or a negative errno to have its
 * changes ignored; a size above HID_MAX_DESCRIPTOR_SIZE is ignored too.
 *
 * Return: a kmalloc'ed descriptor the caller owns:
 * the program's result, or a copy of @rdesc when there is no program or its
 * changes are ignored; NULL when out of memory.
 */
u8 *call_hid_bpf_rdesc_fixup(struct hid_device *hdev, const u8 *rdesc,
			     unsigned int *size)
{
	struct hid_bpf_ctx_kern ctx_kern = {
		.ctx.hid = hdev,
		.ctx.allocated_size = HID_MAX_DESCRIPTOR_SIZE,
		.ctx.size = *size,
	};
	struct hid_bpf_ops *ops;
	unsigned int new_size;
	u8 *fixed = NULL;
	int ret, idx;

	if (*size > HID_MAX_DESCRIPTOR_SIZE)
		return kmemdup(rdesc, *size, GFP_KERNEL);

	idx = srcu_read_lock(&hdev->bpf.srcu);
	ops = srcu_dereference(hdev->bpf.rdesc_ops, &hdev->bpf.srcu);
	if (!ops)
		goto out;

	ctx_kern.data = kzalloc(HID_MAX_DESCRIPTOR_SIZE, GFP_KERNEL);
	if (!ctx_kern.data)
		goto out;
	memcpy(ctx_kern.data, rdesc, *size);

	ret = ops->hid_rdesc_fixup(&ctx_kern.ctx);
	if (ret < 0 || ret > HID_MAX_DESCRIPTOR_SIZE) {
		hid_warn(hdev, "HID-BPF: descriptor fixup ignored (%d)\n", ret);
		kfree(ctx_kern.data);
		goto out;
	}
	/* 0 keeps the size, and whatever the program changed in place */
	new_size = ret ? ret : *size;
	fixed = krealloc(ctx_kern.data, new_size, GFP_KERNEL);
	if (fixed)
		*size = new_size;
	else
		kfree(ctx_kern.data);
out:
	srcu_read_unlock(&hdev->bpf.srcu, idx);
	return fixed ? fixed : kmemdup(rdesc, *size, GFP_KERNEL);
}

/*
 * Kfuncs
 */

static struct hid_bpf_ctx_kern *to_ctx_kern(struct hid_bpf_ctx *ctx)
{
	return container_of(ctx, struct hid_bpf_ctx_kern, ctx);
}

/*
 * Checks shared by the kfuncs that send a report: a known report type, at
 * least the report ID byte, a report of that ID; clamps *size to its length.
 *
 * No lock is taken, as upstream does: the kfuncs run in contexts that may
 * hold the device lock already (a sleepable descriptor fixup during probe,
 * a hook for a driver's request during probe or remove), and a program
 * holding the SRCU read lock must not wait for a lock under which the
 * device's SRCU is waited for.
 */
static int hid_bpf_check_report(struct hid_bpf_ctx *ctx, const u8 *buf,
				size_t *size, u32 rtype)
{
	struct hid_report_enum *report_enum;
	struct hid_report *report;
	u32 report_len;

	if (rtype >= HID_REPORT_TYPES || *size < 1)
		return -EINVAL;

	report_enum = ctx->hid->report_enum + rtype;
	report = report_enum->report_id_hash[report_enum->numbered ? buf[0] : 0];
	if (!report)
		return -EINVAL;

	report_len = hid_report_len(report);
	if (*size > report_len)
		*size = report_len;
	return 0;
}

__diag_push();
__diag_ignore_all("-Wmissing-prototypes",
		  "kfuncs are global functions only BPF programs call");

/**
 * hid_bpf_get_data - the data buffer of a context
 * @ctx: the context
 * @offset: first byte wanted
 * @rdwr_buf_size: number of bytes wanted, a constant known to the verifier
 *
 * In hid_device_event the buffer holds the report, in hid_rdesc_fixup the
 * report descriptor; a context from hid_bpf_allocate_context() has none.
 * The returned memory is readable and writable.
 *
 * Context: any; not sleepable.
 *
 * Return: a pointer to @rdwr_buf_size bytes
 * at @offset, or NULL when they do not all lie within ctx->allocated_size
 * or the context has no buffer.
 */
__u8 *hid_bpf_get_data(struct hid_bpf_ctx *ctx, unsigned int offset,
		       const size_t rdwr_buf_size)
{
	struct hid_bpf_ctx_kern *ctx_kern = to_ctx_kern(ctx);

	if (!ctx_kern->data)
		return NULL;
	/* both are below 2^32: the sum cannot wrap in a size_t */
	if ((size_t)offset + rdwr_buf_size > ctx->allocated_size)
		return NULL;
	return ctx_kern->data + offset;
}

/**
 * hid_bpf_allocate_context - a context for talking to a device
 * @hid_id: the device, as in struct hid_bpf_ops.hid_id
 *
 * The context holds a reference on the device until it is released.
 *
 * Context: process, sleepable.
 *
 * Return: the context (acquired: the program
 * must pass it to hid_bpf_release_context()), or NULL when there is no such
 * device or no memory.
 */
struct hid_bpf_ctx *hid_bpf_allocate_context(unsigned int hid_id)
{
	struct hid_bpf_ctx_kern *ctx_kern;
	struct hid_device *hdev;

	hdev = hid_bpf_get_device(hid_id);
	if (!hdev)
		return NULL;

	ctx_kern = kzalloc(sizeof(*ctx_kern), GFP_KERNEL);
	if (!ctx_kern) {
		put_device(&hdev->dev);
		return NULL;
	}
	ctx_kern->ctx.hid = hdev;
	return &ctx_kern->ctx;
}

/**
 * hid_bpf_release_context - release a context from hid_bpf_allocate_context()
 * @ctx: the context
 *
 * Context: process, sleepable.
 */
void hid_bpf_release_context(struct hid_bpf_ctx *ctx)
{
	struct hid_bpf_ctx_kern *ctx_kern = to_ctx_kern(ctx);
	struct hid_device *hdev = ctx->hid;

	kfree(ctx_kern);
	put_device(&hdev->dev);
}

/*
 * Runs @req on a kmalloc'ed copy of @buf (transport drivers may DMA from
 * it) while the device is known not to be destroyed, and copies back what
 * the device answered, never more than @size bytes, which is also the most
 * it returns.
 */
static int hid_bpf_send(struct hid_bpf_ctx *ctx, u8 *buf, size_t size,
			enum hid_report_type rtype,
			enum hid_class_request reqtype, bool output_report)
{
	struct hid_device *hdev = ctx->hid;
	u8 *dma_data;
	int ret, idx;

	dma_data = kmemdup(buf, size, GFP_KERNEL);
	if (!dma_data)
		return -ENOMEM;

	/* the device's request programs see it, marked as coming from BPF */
	idx = srcu_read_lock(&hdev->bpf.srcu);
	if (READ_ONCE(hdev->bpf.destroyed))
		ret = -ENODEV;
	else if (output_report)
		ret = __hid_hw_output_report(hdev, dma_data, size,
					     (u64)(unsigned long)ctx, true);
	else
		ret = __hid_hw_raw_request(hdev, dma_data[0], dma_data, size,
					   rtype, reqtype,
					   (u64)(unsigned long)ctx, true);
	srcu_read_unlock(&hdev->bpf.srcu, idx);

	if (ret > (int)size)
		ret = size;
	if (ret > 0)
		memcpy(buf, dma_data, ret);
	kfree(dma_data);
	return ret;
}

/**
 * hid_bpf_hw_request - send a HID request to the device
 * @ctx: the context
 * @buf: the report, starting with its report ID (0 for unnumbered reports);
 *	an answer is copied back into it
 * @buf__sz: size of @buf; clamped to the length of the report
 * @rtype: %HID_INPUT_REPORT, %HID_OUTPUT_REPORT or %HID_FEATURE_REPORT
 * @reqtype: one of the HID_REQ_* class requests
 *
 * Context: process, sleepable.
 *
 * Return: the number of bytes transferred
 * (at most the clamped @buf__sz, which is all that is copied back), -EINVAL for a bad @rtype or
 * @reqtype, an empty @buf or no report with @buf[0]'s ID, -EDEADLOCK on a
 * context that a kfunc created, -ENODEV once the device is gone, or the
 * transport's negative errno.
 */
int hid_bpf_hw_request(struct hid_bpf_ctx *ctx, __u8 *buf, size_t buf__sz,
		       enum hid_report_type rtype,
		       enum hid_class_request reqtype)
{
	size_t size = buf__sz;
	int ret;

	if (to_ctx_kern(ctx)->from_bpf)
		return -EDEADLOCK;

	switch (reqtype) {
	case HID_REQ_GET_REPORT:
	case HID_REQ_GET_IDLE:
	case HID_REQ_GET_PROTOCOL:
	case HID_REQ_SET_REPORT:
	case HID_REQ_SET_IDLE:
	case HID_REQ_SET_PROTOCOL:
		break;
	default:
		return -EINVAL;
	}

	ret = hid_bpf_check_report(ctx, buf, &size, rtype);
	if (ret)
		return ret;
	return hid_bpf_send(ctx, buf, size, rtype, reqtype, false);
}

/**
 * hid_bpf_hw_output_report - send an output report to the device
 * @ctx: the context
 * @buf: the report, starting with its report ID (0 for unnumbered reports)
 * @buf__sz: size of @buf; clamped to the length of the output report
 *
 * Context: process, sleepable.
 *
 * Return: the number of bytes sent, -EINVAL
 * for an empty @buf or no output report with @buf[0]'s ID, -EDEADLOCK on a
 * context that a kfunc created, -ENODEV once the device is gone, or the
 * transport's negative errno (-ENOSYS when it has no output_report).
 */
int hid_bpf_hw_output_report(struct hid_bpf_ctx *ctx, __u8 *buf,
			     size_t buf__sz)
{
	size_t size = buf__sz;
	int ret;

	if (to_ctx_kern(ctx)->from_bpf)
		return -EDEADLOCK;

	ret = hid_bpf_check_report(ctx, buf, &size, HID_OUTPUT_REPORT);
	if (ret)
		return ret;
	return hid_bpf_send(ctx, buf, size, HID_OUTPUT_REPORT, 0, true);
}

static int hid_bpf_inject(struct hid_bpf_ctx *ctx, enum hid_report_type type,
			  u8 *buf, size_t size)
{
	return hid_bpf_inject_input_report(ctx->hid, type, buf, size,
					   (u64)(unsigned long)ctx);
}

/**
 * hid_bpf_input_report - inject a report as if the device had sent it
 * @ctx: the context
 * @type: the report type
 * @buf: the report, starting with its report ID (0 for unnumbered reports)
 * @buf__sz: size of @buf; clamped to the length of the report
 *
 * The report goes through the device's hid_device_event programs (with a
 * non-zero source, and they cannot inject in turn) and then to hid-core.
 * Waits for the device's input lock.
 *
 * Context: process, sleepable.
 *
 * Return: 0 when hid-core took the report,
 * -EINVAL for a bad @type, an empty @buf or no report with @buf[0]'s ID,
 * -EDEADLOCK on a context that a kfunc created, and also when the calling
 * task holds the input lock itself (a request the driver makes while it is
 * probed or removed, before it starts input), -EINTR when interrupted,
 * or hid-core's negative errno (a program dropped the report, or no driver
 * is bound: -ENODEV).
 */
int hid_bpf_input_report(struct hid_bpf_ctx *ctx, enum hid_report_type type,
			 u8 *buf, const size_t buf__sz)
{
	struct hid_device *hdev = ctx->hid;
	size_t size = buf__sz;
	int ret;

	if (to_ctx_kern(ctx)->from_bpf)
		return -EDEADLOCK;

	/* a probe or remove keeps the lock while its driver asks the device */
	if (READ_ONCE(hdev->bpf.input_lock_owner) == current)
		return -EDEADLOCK;
	/* the input lock also keeps the reports from changing under us */
	if (down_interruptible(&hdev->driver_input_lock))
		return -EINTR;
	ret = hid_bpf_check_report(ctx, buf, &size, type);
	if (!ret)
		ret = hid_bpf_inject(ctx, type, buf, size);
	up(&hdev->driver_input_lock);
	return ret;
}

/**
 * hid_bpf_try_input_report - inject a report, without waiting
 * @ctx: the context
 * @type: the report type
 * @buf: the report, starting with its report ID (0 for unnumbered reports)
 * @buf__sz: size of @buf; clamped to the length of the report
 *
 * As hid_bpf_input_report(), but never sleeps. From hid_device_event the
 * report is processed right away, before this returns, in the device's
 * event buffer: the calling program's data then holds the injected report
 * as the programs left it, not the report it was handling. Elsewhere the
 * device's input lock is only tried.
 *
 * Context: any, including interrupt; not sleepable.
 *
 * Return: as
 * hid_bpf_input_report(), with -EBUSY instead of waiting for the lock.
 */
int hid_bpf_try_input_report(struct hid_bpf_ctx *ctx,
			     enum hid_report_type type, u8 *buf,
			     const size_t buf__sz)
{
	struct hid_bpf_ctx_kern *ctx_kern = to_ctx_kern(ctx);
	struct hid_device *hdev = ctx->hid;
	size_t size = buf__sz;
	int ret;

	if (ctx_kern->from_bpf)
		return -EDEADLOCK;

	/* hid-core runs hid_device_event with the input lock held */
	if (ctx_kern->in_event_hook) {
		ret = hid_bpf_check_report(ctx, buf, &size, type);
		return ret ? ret : hid_bpf_inject(ctx, type, buf, size);
	}

	if (down_trylock(&hdev->driver_input_lock))
		return -EBUSY;
	ret = hid_bpf_check_report(ctx, buf, &size, type);
	if (!ret)
		ret = hid_bpf_inject(ctx, type, buf, size);
	up(&hdev->driver_input_lock);
	return ret;
}

__diag_pop();

/* struct_ops programs; the sleepable kfuncs need a sleepable program */
BTF_SET8_START(hid_bpf_struct_ops_kfunc_ids)
BTF_ID_FLAGS(func, hid_bpf_get_data, KF_RET_NULL)
BTF_ID_FLAGS(func, hid_bpf_allocate_context,
	     KF_ACQUIRE | KF_RET_NULL | KF_SLEEPABLE)
BTF_ID_FLAGS(func, hid_bpf_release_context, KF_RELEASE | KF_SLEEPABLE)
BTF_ID_FLAGS(func, hid_bpf_hw_request, KF_SLEEPABLE)
BTF_ID_FLAGS(func, hid_bpf_hw_output_report, KF_SLEEPABLE)
BTF_ID_FLAGS(func, hid_bpf_input_report, KF_SLEEPABLE)
BTF_ID_FLAGS(func, hid_bpf_try_input_report)
BTF_SET8_END(hid_bpf_struct_ops_kfunc_ids)

static const struct btf_kfunc_id_set hid_bpf_struct_ops_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &hid_bpf_struct_ops_kfunc_ids,
};

/* syscall programs, always sleepable */
BTF_SET8_START(hid_bpf_syscall_kfunc_ids)
BTF_ID_FLAGS(func, hid_bpf_get_data, KF_RET_NULL)
BTF_ID_FLAGS(func, hid_bpf_allocate_context, KF_ACQUIRE | KF_RET_NULL)
BTF_ID_FLAGS(func, hid_bpf_release_context, KF_RELEASE)
BTF_ID_FLAGS(func, hid_bpf_hw_request)
BTF_ID_FLAGS(func, hid_bpf_hw_output_report)
BTF_ID_FLAGS(func, hid_bpf_input_report)
BTF_SET8_END(hid_bpf_syscall_kfunc_ids)

static const struct btf_kfunc_id_set hid_bpf_syscall_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &hid_bpf_syscall_kfunc_ids,
};

/**
 * hid_bpf_register_kfuncs - make the kfuncs available to programs
 *
 * Context: process (init).
 *
 * Return: 0 or a negative errno.
 */
int hid_bpf_register_kfuncs(void)
{
	int err;

	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_STRUCT_OPS,
					&hid_bpf_struct_ops_kfunc_set);
	if (err)
		return err;
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_SYSCALL,
					 &hid_bpf_syscall_kfunc_set);
}
