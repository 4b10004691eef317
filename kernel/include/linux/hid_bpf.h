/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * HID-BPF: eBPF programs attached to HID devices through struct_ops.
 *
 * This header is what BPF programs (through vmlinux BTF) and hid-core see:
 * the program context, the struct_ops type, the per-device state embedded in
 * struct hid_device and the calls hid-core makes into the BPF core. The ABI is
 * the one of Linux 6.11 and later.
 */

#ifndef __HID_BPF_H
#define __HID_BPF_H

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <uapi/linux/hid.h>

struct hid_device;
struct task_struct;

/*
 * Flag for struct hid_bpf_ops.flags: insert the ops at the head of the
 * device's list instead of its tail. Same value as the uapi flag of later
 * kernels; 6.1's uapi does not have it.
 */
#ifndef BPF_F_BEFORE
#define BPF_F_BEFORE	(1U << 3)
#endif

/**
 * struct hid_bpf_ctx - context handed to every HID-BPF program and kfunc
 * @hid: the device. Read-only, except for the strings @hid->name,
 *	@hid->uniq and @hid->phys, which programs may rewrite (not their last
 *	byte, which stays the terminating NUL).
 * @allocated_size: number of bytes of data reachable through
 *	hid_bpf_get_data(). Read-only.
 * @retval: shares its storage with @size: in hid_device_event, a positive
 *	return of the previous program of the chain is what the next one
 *	reads here. Writable.
 * @size: the number of valid bytes in the data; a program can shrink or grow
 *	it (up to @allocated_size) by writing it or by returning a positive
 *	value. Writable.
 *
 * The data itself is not part of the context: programs reach it through
 * hid_bpf_get_data(), which checks the requested range against
 * @allocated_size.
 */
struct hid_bpf_ctx {
	struct hid_device *hid;
	__u32 allocated_size;
	union {
		__s32 retval;
		__s32 size;
	};
};

/**
 * struct hid_bpf_ops - a set of HID-BPF programs attached to one device
 * @hid_id: the device, by the last field of its sysfs name
 *	(BBBB:VVVV:PPPP.NNNN -> 0xNNNN). Must stay the first member: loaders
 *	write it into the object before loading it.
 * @flags: 0 or %BPF_F_BEFORE. Any other bit makes the map update fail with
 *	-EINVAL.
 * @list: private, the link in the device's list of ops.
 * @hid_device_event: called for every report the device sends, before
 *	hid-core parses it (see the hooks below).
 * @hid_rdesc_fixup: called when the report descriptor is parsed.
 * @hid_hw_request: called before a request reaches the transport driver.
 * @hid_hw_output_report: called before an output report reaches the
 *	transport driver.
 * @hdev: private, the device the ops is attached to.
 *
 * The hooks:
 *
 * int hid_device_event(ctx, report_type, source) filters or rewrites a
 * report the device sent, before hid-core parses it. hid_bpf_get_data() on
 * ctx reaches a copy of the report, shared by all the programs of the
 * device in list order; report_type is the report type (%HID_INPUT_REPORT
 * for what a device sends); source is 0 for a report from the device,
 * otherwise a non-zero value identifying the BPF context that injected it.
 * It runs in interrupt context (whatever context the transport delivers
 * reports in) and may not sleep. It returns 0 to keep the report as it is,
 * a positive value to set its new size (at most ctx->allocated_size,
 * checked once all programs ran), or a negative errno to drop the report:
 * no hidraw, input or driver client sees it. A report it injects with
 * hid_bpf_try_input_report() is processed in the same buffer before the
 * kfunc returns, so the data then holds the injected report.
 *
 * int hid_rdesc_fixup(ctx) rewrites the report descriptor.
 * hid_bpf_get_data() on ctx reaches a 4096-byte copy of the descriptor the
 * device reported, and ctx->size is its length. Only one ops per device may
 * have it; attaching or detaching that ops reprobes the device so that it
 * comes back with the new descriptor. It runs in process context and may
 * be sleepable. It returns 0 to keep the descriptor's length, with the
 * changes made in place, or a positive value (at most 4096) to use the
 * first that many bytes of the buffer as the new descriptor; a negative
 * value or one above 4096 leaves the descriptor as the device reported it.
 *
 * int hid_hw_request(ctx, reportnum, rtype, reqtype, source) filters or
 * answers a request to the device. hid_bpf_get_data() on ctx reaches the
 * caller's request buffer, and ctx->allocated_size is the request length;
 * reportnum is the report ID, rtype the report type, reqtype the class
 * request (%HID_REQ_GET_REPORT, %HID_REQ_SET_REPORT, ...); source says who
 * asks: the hidraw &struct file of the opener (a different value per open
 * file), a non-zero value identifying the HID-BPF context for requests a
 * kfunc makes, 0 for requests from the kernel itself. It runs in
 * hid_hw_raw_request(), before the transport driver, in list order; the
 * first program returning non-zero ends the chain. It runs in process
 * context and may be sleepable (SEC("struct_ops.s/...")). It returns 0 to
 * let the request go on; anything else is returned to the caller and the
 * transport never sees the request: a negative errno refuses it, a positive
 * value is the number of bytes the program handled itself (clamped to
 * ctx->allocated_size). Once the device is being removed, requests fail
 * with -ENODEV and no program runs.
 *
 * int hid_hw_output_report(ctx, source) filters or answers an output
 * report, with ctx and source as for hid_hw_request() (the buffer is the
 * output report). It runs in hid_hw_output_report() (hidraw write()),
 * before the transport driver. When the transport has no output reports,
 * hidraw falls back to a SET_REPORT, which hid_hw_request() programs see: a
 * filter implements both hooks. It runs in process context, may be
 * sleepable, and returns as hid_hw_request() does.
 *
 * A request made by a kfunc (hid_bpf_hw_request(),
 * hid_bpf_hw_output_report()) goes through these hooks too, marked as
 * coming from BPF: request kfuncs called on such a context return
 * -EDEADLOCK instead of recursing.
 */
struct hid_bpf_ops {
	int hid_id;
	u32 flags;
	struct list_head list;
	int (*hid_device_event)(struct hid_bpf_ctx *ctx,
				enum hid_report_type report_type, u64 source);
	int (*hid_rdesc_fixup)(struct hid_bpf_ctx *ctx);
	int (*hid_hw_request)(struct hid_bpf_ctx *ctx, unsigned char reportnum,
			      enum hid_report_type rtype,
			      enum hid_class_request reqtype, u64 source);
	int (*hid_hw_output_report)(struct hid_bpf_ctx *ctx, u64 source);
	struct hid_device *hdev;
};

#ifdef CONFIG_HID_BPF

/* Limit of ops attached to one device (more is -E2BIG). */
#define HID_BPF_MAX_OPS_PER_DEVICE	64

/**
 * struct hid_bpf_event_buf - the buffer device events are rewritten in
 * @rcu: frees a replaced buffer once no RCU reader uses it (kfree_rcu())
 * @size: bytes available to a program (the ctx's allocated_size): the
 *	longest report of the device rounded up to 64 bytes.
 * @data: @size bytes. A report a hid_device_event program injects is
 *	processed in it too, replacing the report that program handles.
 */
struct hid_bpf_event_buf {
	struct rcu_head rcu;
	u32 size;
	u8 data[];
};

/**
 * struct hid_bpf - HID-BPF state of one device, embedded in struct hid_device
 * @event_buf: the event buffer; NULL while no attached ops has
 *	hid_device_event, which is what makes the path without programs a
 *	single pointer test.
 * @ops_list: attached ops, in the order they run.
 * @rdesc_ops: the ops that has hid_rdesc_fixup, if any.
 * @nr_ops: number of entries of @ops_list.
 * @nr_event_ops: number of entries of @ops_list with hid_device_event.
 * @destroyed: set as the device is removed, before its driver goes: nothing
 *	attaches afterwards, and requests fail with -ENODEV.
 * @lock: serialises the writers of every field above.
 * @input_lock_owner: the task that holds the device's driver_input_lock
 *	through a driver's probe or remove, else NULL; written by that task
 *	alone (hid_set_input_lock_owner()), so a task that reads itself here
 *	does hold the lock.
 * @srcu: readers of @ops_list and @rdesc_ops that may sleep hold it: the
 *	request hooks, the descriptor fixup and the request kfuncs.
 *
 * Device events hold the RCU read lock instead, as upstream does:
 * hid_device_event programs never sleep, and an SRCU read section costs
 * two full memory barriers on every report. They read @event_buf and walk
 * @ops_list under it, and hid-core keeps it until it is done with the
 * buffer. Writers publish with RCU list/pointer primitives under @lock and,
 * before anything is freed or reused, wait for both kinds of readers, never
 * while holding @lock or the device lock (a sleepable reader may be waiting
 * for either): a replaced @event_buf is freed by kfree_rcu().
 *
 * Device events of one device never run concurrently: hid-core delivers
 * them under the device's driver_input_lock, which is what allows a single
 * shared @event_buf.
 */
struct hid_bpf {
	struct hid_bpf_event_buf __rcu *event_buf;
	struct list_head ops_list;
	struct hid_bpf_ops __rcu *rdesc_ops;
	unsigned int nr_ops;
	unsigned int nr_event_ops;
	bool destroyed;
	struct mutex lock;	/* see above: writers of this struct */
	struct srcu_struct srcu;
	struct task_struct *input_lock_owner;
};

int hid_bpf_device_init(struct hid_device *hdev);
void hid_bpf_destroy_device(struct hid_device *hdev);
void hid_bpf_device_release(struct hid_device *hdev);
int hid_bpf_connect_device(struct hid_device *hdev);
u8 *call_hid_bpf_rdesc_fixup(struct hid_device *hdev, const u8 *rdesc,
			     unsigned int *size);
u8 *__dispatch_hid_bpf_device_event(struct hid_device *hdev,
				    enum hid_report_type type, u8 *data,
				    size_t *bufsize, u32 *size, u64 source,
				    bool *rcu_held);
int __dispatch_hid_bpf_raw_requests(struct hid_device *hdev,
				    unsigned char reportnum, u8 *buf, u32 size,
				    enum hid_report_type rtype,
				    enum hid_class_request reqtype,
				    u64 source, bool from_bpf);
int __dispatch_hid_bpf_output_report(struct hid_device *hdev, u8 *buf,
				     u32 size, u64 source, bool from_bpf);

/**
 * dispatch_hid_bpf_raw_requests - run the device's hid_hw_request programs
 * @hdev: the device
 * @reportnum: report ID
 * @buf: the request buffer, which programs may read and change
 * @size: its length
 * @rtype: report type
 * @reqtype: class request
 * @source: hidraw file, HID-BPF context or 0 (see &struct hid_bpf_ops)
 * @from_bpf: the request comes from a kfunc
 *
 * With no program attached to @hdev this is a list test and a flag test.
 *
 * Context: process. Return: 0 to go on to the transport, or the first
 * non-zero program return for the caller (a positive one clamped to
 * @size), or -ENODEV once the device is being removed.
 */
#define dispatch_hid_bpf_raw_requests(hdev, reportnum, buf, size, rtype, \
				      reqtype, source, from_bpf)	\
	(likely(list_empty(&(hdev)->bpf.ops_list) &&			\
		!READ_ONCE((hdev)->bpf.destroyed)) ? 0 :		\
	 __dispatch_hid_bpf_raw_requests(hdev, reportnum, buf, size,	\
					 rtype, reqtype, source, from_bpf))

/**
 * dispatch_hid_bpf_output_report - run the hid_hw_output_report programs
 * @hdev: the device
 * @buf: the output report, which programs may read and change
 * @size: its length
 * @source: hidraw file, HID-BPF context or 0 (see &struct hid_bpf_ops)
 * @from_bpf: the report comes from a kfunc
 *
 * Context: process. Return: as dispatch_hid_bpf_raw_requests().
 */
#define dispatch_hid_bpf_output_report(hdev, buf, size, source, from_bpf) \
	(likely(list_empty(&(hdev)->bpf.ops_list) &&			\
		!READ_ONCE((hdev)->bpf.destroyed)) ? 0 :		\
	 __dispatch_hid_bpf_output_report(hdev, buf, size, source, from_bpf))

/**
 * dispatch_hid_bpf_device_event - run the device's hid_device_event programs
 * @hdev: the device
 * @type: report type
 * @data: the report as delivered
 * @bufsize: in: the size of @data's buffer; out: the size of the returned one
 * @size: in: the report length; out: its length after the programs ran
 * @source: 0 for the device, else the injecting BPF context
 * @rcu_held: bool, false on entry; set when this took the RCU read lock,
 *	which the caller releases with hid_bpf_device_event_done() once it is
 *	done with the returned buffer
 *
 * With no hid_device_event program attached this is a pointer test and a
 * flag test. It is a macro because struct hid_device is only complete after
 * this header.
 *
 * Context: any; called by hid-core with @hdev's driver_input_lock held.
 * Return: @data when no program is attached, the event buffer holding the
 * rewritten report otherwise, or an ERR_PTR() when a program dropped the
 * report (its negative return) or left an invalid size (-EINVAL), the
 * report does not fit the buffer (-E2BIG) or the device is being removed
 * (-ENODEV).
 */
#define dispatch_hid_bpf_device_event(hdev, type, data, bufsize, size,	\
				      source, rcu_held)			\
	(likely(!rcu_access_pointer((hdev)->bpf.event_buf) &&		\
		!READ_ONCE((hdev)->bpf.destroyed)) ? (data) :		\
	 __dispatch_hid_bpf_device_event(hdev, type, data, bufsize, size, \
					 source, rcu_held))

/**
 * hid_bpf_device_event_done - release the buffer of a dispatched event
 * @rcu_held: what dispatch_hid_bpf_device_event() left there
 *
 * The event buffer stays valid (a detach or a resize waits for RCU
 * readers) until this.
 *
 * Context: any; the same as the dispatch.
 */
static inline void hid_bpf_device_event_done(bool rcu_held)
{
	if (unlikely(rcu_held))
		rcu_read_unlock();
}

#else /* CONFIG_HID_BPF */

static inline int hid_bpf_device_init(struct hid_device *hdev) { return 0; }
static inline void hid_bpf_destroy_device(struct hid_device *hdev) {}
static inline void hid_bpf_device_release(struct hid_device *hdev) {}
static inline int hid_bpf_connect_device(struct hid_device *hdev) { return 0; }
static inline u8 *call_hid_bpf_rdesc_fixup(struct hid_device *hdev,
					   const u8 *rdesc, unsigned int *size)
{
	return kmemdup(rdesc, *size, GFP_KERNEL);
}

#define dispatch_hid_bpf_device_event(hdev, type, data, bufsize, size,	\
				      source, rcu_held)		(data)
static inline void hid_bpf_device_event_done(bool rcu_held) {}
#define dispatch_hid_bpf_raw_requests(hdev, reportnum, buf, size, rtype, \
				      reqtype, source, from_bpf)	0
#define dispatch_hid_bpf_output_report(hdev, buf, size, source, from_bpf) 0

#endif /* CONFIG_HID_BPF */

/*
 * hid-core entries for requests on behalf of a source (hidraw files pass
 * theirs, kfuncs pass their context and from_bpf), see hid-core.c.
 */
int __hid_hw_raw_request(struct hid_device *hdev, unsigned char reportnum,
			 __u8 *buf, size_t len, enum hid_report_type rtype,
			 enum hid_class_request reqtype, u64 source,
			 bool from_bpf);
int __hid_hw_output_report(struct hid_device *hdev, __u8 *buf, size_t len,
			   u64 source, bool from_bpf);

/* hid-core entry for reports injected by kfuncs; driver_input_lock held. */
int hid_bpf_inject_input_report(struct hid_device *hid,
				enum hid_report_type type, u8 *data, u32 size,
				u64 source);

#endif /* __HID_BPF_H */
