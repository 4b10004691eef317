/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF loader: puts compiled rules into the firewall's maps and attaches
 * one firewall instance per device. Knows nothing of JSON or of policies;
 * its input is struct hid_device_rules (bpf/hid_rules.h).
 *
 * State lives in bpffs under the pin root (HID_FW_PIN_ROOT by default):
 *   hid_rules, hid_events, hid_stats   the maps every instance shares
 *   hid_budget, hid_budget_told        each device's budget of records,
 *                                      and what the daemon told of it
 *   devices/<hid_id>                   the registered struct_ops map of
 *                                      the instance attached to that device
 * A registered hid_bpf_ops stays attached when every file descriptor is
 * closed, so protection outlives the daemon (fail closed), and a restarted
 * daemon finds its instances under devices/ instead of attaching twice.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hid_bpf_ops.h"
#include "hid_firewall.h"
#include "hid_rules.h"

struct fw_features {
	bool hid_bpf;		/* vmlinux BTF has struct hid_bpf_ops */
	bool pid_tgid;		/* bpf_get_current_pid_tgid() */
	/* The caller's uid and gid, and comm: read from the current task
	 * (CAP_PERFMON at load, CONFIG_BPF_EVENTS), on every kernel alike. */
	bool uid_gid;
	bool comm;
	/* The caller's cgroups: bpf_get_current_ancestor_cgroup_id()
	 * (CAP_BPF, CONFIG_CGROUPS), which names its systemd unit. */
	bool cgroup;
	/* A hid_device_event program cannot make the kernel write past its
	 * event buffer: its buffer carries its size, which dispatch checks,
	 * and is sized under the device lock (this project's port: vmlinux
	 * BTF has struct hid_bpf_event_buf). Upstream, up to at least 7.3.4,
	 * has neither (kernel_support.h). */
	bool input_safe;
};

struct hid_firewall_bpf;

/* Each device's budget of audit records (hid_firewall.h): BURST records
 * at once, then RATE per second. BURST 0: no budget. */
struct fw_budget {
	uint32_t burst;
	uint32_t rate;
};

/* An instance this loader attached or adopted: a descriptor of its
 * struct_ops map, kept so that fw_check_attached() costs one lookup and
 * needs neither the pin nor more than CAP_BPF. */
struct fw_watch {
	uint32_t hid_id;
	int fd;
	bool input;		/* its hid_device_event member names a program */
};

struct fw_loader {
	char *pin_root;
	struct fw_features features;
	/* Loaded once, shared by all devices: the request programs at open,
	 * the hid_device_event program only once a rule needs it
	 * (fw_load_input; NULL until then). */
	struct hid_firewall_bpf *programs;
	struct hid_firewall_bpf *input_programs;
	struct fw_budget budget;	/* the programs are loaded with */
	struct ops_layout *layout;	/* of a hid_bpf_ops struct_ops map value */
	int rules_fd;		/* pinned maps, opened once */
	int events_fd;
	int stats_fd;
	int budget_fd, budget_told_fd;
	struct fw_watch *watches;
	size_t n_watches, cap_watches;
	/* State of a hid-policyd with another rules layout (an older
	 * version), moved aside: PIN_ROOT-previous, or NULL. */
	char *previous_root;
};

/* Check kernel support, probe helpers, create (or reuse) the shared maps
 * under pin_root, load the request programs (not the input program:
 * fw_load_input) with BUDGET (NULL: the default,
 * HID_FW_BUDGET_BURST and HID_FW_BUDGET_RATE). State pinned there by a hid-policyd whose rules have
 * another layout cannot be shared: it is moved to PIN_ROOT-previous, where
 * its firewalls keep protecting their devices until fw_retire_previous().
 * Returns 0, -EOPNOTSUPP without HID-BPF, or -errno. */
int fw_loader_open(struct fw_loader *l, const char *pin_root, const struct fw_budget *budget);
/* Detach the firewalls of the state moved aside, once this daemon has
 * attached its own, and remove their pins. Returns 0 or -errno. */
int fw_retire_previous(struct fw_loader *l);
void fw_loader_close(struct fw_loader *l);

/* Does the kernel have HID-BPF? (vmlinux BTF has struct hid_bpf_ops) */
bool fw_kernel_has_hid_bpf(void);

/* Load the hid_device_event program, which only a rule that concerns
 * input needs (fw_rules_need_input), unless it is loaded already. Its
 * verification costs as much as a request program's, and loading needs
 * CAP_PERFMON, which the daemon gives up in its sandbox: the service loads
 * it before where a reload may need it. Returns 0 or -errno. */
int fw_load_input(struct fw_loader *l);

/* Does vmlinux BTF have struct NAME? */
bool fw_kernel_has_struct(const char *name);

/* What the firewall can do on this kernel, found by loading a probe
 * program per helper (which needs CAP_BPF and CAP_PERFMON: without them,
 * every helper but hid_bpf looks missing). */
void fw_probe_features(struct fw_features *f);

/* Set a device's rules (atomic per device: a request sees the old rules or
 * the new ones, never a mix), with their index (rule_index.h) built from
 * them; RULES's own index is ignored. -E2BIG past HID_RULES_MAX_RULES. */
int fw_set_rules(struct fw_loader *l, uint32_t hid_id,
		 const struct hid_device_rules *rules);
int fw_delete_rules(struct fw_loader *l, uint32_t hid_id);

/* Does a device with these rules need the firewall on its input path
 * (hid_device_event)? Only when a rule names input events or the default
 * can deny or log them: every other device's reports pass no program. */
bool fw_rules_need_input(const struct hid_device_rules *rules);

/* Attach the firewall to a device whose rules are set: a struct_ops map of
 * its own naming the shared request programs and, when INPUT, the
 * hid_device_event program, pinned, then registered. No program is loaded
 * or verified here, so this is quick, but for the input program the first
 * time one is INPUT when it is not loaded yet (fw_load_input). When an instance is attached already
 * with the other INPUT, the new one is registered first and the old one
 * unregistered after, so no request or event passes unfiltered in
 * between. -EEXIST if one with the same INPUT is attached (see
 * fw_is_attached). */
int fw_attach(struct fw_loader *l, uint32_t hid_id, bool input);
/* Does the device's attached instance have the hid_device_event program?
 * 1 yes, 0 no, -ENOENT when none is attached, or -errno. */
int fw_attached_input(struct fw_loader *l, uint32_t hid_id);
/* Is an instance of ours pinned for this device? A pin whose instance is
 * not registered is removed. */
bool fw_is_attached(struct fw_loader *l, uint32_t hid_id);
/* Is the instance attached or adopted for this device still registered?
 * Anyone who can open its pin can unregister it (delete the map's element)
 * without us. Returns 1 when it is, 0 when it is not (its pin is removed,
 * so fw_attach() attaches the device again: a struct_ops map registers
 * only once), or -errno. Without a watched instance, the pin is looked at
 * instead (fw_is_attached). */
int fw_check_attached(struct fw_loader *l, uint32_t hid_id);
/* Detach the device's instance and forget its pin (harmless when the
 * device is gone: the kernel made the instance inert, and when someone else
 * unregistered it already). */
int fw_detach(struct fw_loader *l, uint32_t hid_id);

/* Call fn for every hid_id with a pinned instance. */
int fw_for_each_attached(struct fw_loader *l,
			 int (*fn)(uint32_t hid_id, void *userdata), void *userdata);

/* Sum of the per-CPU counters. */
int fw_read_stats(struct fw_loader *l, struct hid_fw_stats *out);

/* A device's budget counts (hid_fw_budget) and what the daemon has told of
 * them so far (zero when nothing). */
struct fw_budget_counts {
	uint32_t hid_id;
	struct hid_fw_budget budget;
	struct hid_fw_budget_told told;
};

/* Call FN for every device with a budget entry. FN returns 0 to go on, or
 * a negative errno to stop (returned). */
int fw_for_each_budget(struct fw_loader *l,
		       int (*fn)(const struct fw_budget_counts *c, void *userdata), void *userdata);
/* Remember that the counts TOLD of hid_id are in the audit log. */
int fw_budget_told(struct fw_loader *l, uint32_t hid_id, const struct hid_fw_budget_told *told);
/* Forget a device's budget (it is gone and its counts are told). */
int fw_budget_forget(struct fw_loader *l, uint32_t hid_id);


/* Remove every pin under pin_root, detaching every instance (an instance
 * someone else unregistered already only loses its pin). */
int fw_cleanup(const char *pin_root);
