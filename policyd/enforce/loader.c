// SPDX-License-Identifier: GPL-2.0-or-later
#include "loader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "common/util.h"
#include "hid_firewall.skel.h"
#include "hid_probe.skel.h"
#include "rule_index.h"

/* devices/<hid_id>-next: the pin of an instance being swapped in. */
#define SWAP_SUFFIX "-next"

/* hid_bpf_ops.flags: insert at the head (uapi of Linux >= 6.11). */
#ifndef BPF_F_BEFORE
#define BPF_F_BEFORE (1U << 3)
#endif

static bool quiet_libbpf;

__attribute__((format(printf, 2, 0)))
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (quiet_libbpf || level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

bool fw_kernel_has_struct(const char *name)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool found;

	if (!btf)
		return false;
	found = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT) > 0;
	btf__free(btf);
	return found;
}

bool fw_kernel_has_hid_bpf(void)
{
	return fw_kernel_has_struct("hid_bpf_ops");
}

/* Load the firewall's programs once: they serve every device. INPUT picks
 * the hid_device_event program alone, else the request programs alone;
 * each load is an object of its own, which shares the maps pinned under
 * the pin root (the first load creates them). */
static int load_programs(struct fw_loader *l, bool input, struct hid_firewall_bpf **ret)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = l->pin_root);
	struct hid_firewall_bpf *skel;
	int r;

	skel = hid_firewall_bpf__open_opts(&opts);
	if (!skel)
		return -errno;
	skel->rodata->have_pid_tgid = l->features.pid_tgid;
	skel->rodata->have_task = l->features.uid_gid && l->features.comm;
	skel->rodata->have_cgroup = l->features.cgroup;
	skel->rodata->budget_burst = l->budget.burst;
	skel->rodata->budget_refill_ns = l->budget.rate ? 1000000000ULL / l->budget.rate : 0;
	bpf_program__set_autoload(skel->progs.fw_device_event, input);
	bpf_program__set_autoload(skel->progs.fw_hw_request, !input);
	bpf_program__set_autoload(skel->progs.fw_output_report, !input);
	/* Loading creates and pins the shared maps (or reuses the pinned
	 * ones) and has the kernel's verifier check the programs before any
	 * device depends on them. */
	r = hid_firewall_bpf__load(skel);
	if (r < 0) {
		hid_firewall_bpf__destroy(skel);
		return r;
	}
	*ret = skel;
	return 0;
}

int fw_load_input(struct fw_loader *l)
{
	if (l->input_programs)
		return 0;
	return load_programs(l, true, &l->input_programs);
}

static bool probe_helper(enum bpf_func_id helper)
{
	struct hid_probe_bpf *skel = hid_probe_bpf__open();
	bool ok;

	if (!skel)
		return false;
	skel->rodata->probe_helper = helper;
	quiet_libbpf = true;
	ok = hid_probe_bpf__load(skel) == 0;
	quiet_libbpf = false;
	hid_probe_bpf__destroy(skel);
	return ok;
}

void fw_probe_features(struct fw_features *f)
{
	f->hid_bpf = fw_kernel_has_hid_bpf();
	if (!f->hid_bpf)
		return;
	f->pid_tgid = probe_helper(BPF_FUNC_get_current_pid_tgid);
	/* No kernel gives hid_bpf_ops programs the uid and comm helpers;
	 * with CAP_PERFMON they read both from the current task. */
	f->uid_gid = probe_helper(BPF_FUNC_get_current_task);
	f->comm = f->uid_gid;
	f->cgroup = probe_helper(BPF_FUNC_get_current_ancestor_cgroup_id);
	f->input_safe = fw_kernel_has_struct("hid_bpf_event_buf");
}

static char *pin_path(const struct fw_loader *l, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", l->pin_root, name) < 0)
		return NULL;
	return p;
}

static char *device_pin_path(const struct fw_loader *l, uint32_t hid_id)
{
	char *p;

	if (asprintf(&p, "%s/devices/%u", l->pin_root, hid_id) < 0)
		return NULL;
	return p;
}

static int open_pinned(const struct fw_loader *l, const char *name)
{
	_cleanup_free_ char *p = pin_path(l, name);
	int fd;

	if (!p)
		return -ENOMEM;
	fd = bpf_obj_get(p);
	return fd < 0 ? -errno : fd;
}

/* Move the state under PIN_ROOT aside when its rules map is not of this
 * version's layout. bpffs refuses names with a dot: PIN_ROOT-previous. */
static int move_aside_other_layout(struct fw_loader *l)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	_cleanup_free_ char *rules = NULL, *previous = NULL;
	_cleanup_close_ int fd = -1;
	int r;

	if (asprintf(&rules, "%s/hid_rules", l->pin_root) < 0 ||
	    asprintf(&previous, "%s-previous", l->pin_root) < 0)
		return -ENOMEM;
	fd = bpf_obj_get(rules);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
		return -errno;
	if (info.value_size == sizeof(struct hid_device_rules))
		return 0;
	/* Left by an upgrade that did not finish: its firewalls go first. */
	r = fw_cleanup(previous);
	if (r < 0 && r != -ENOENT)
		return r;
	if (rename(l->pin_root, previous) < 0)
		return -errno;
	l->previous_root = TAKE_PTR(previous);
	return 0;
}

int fw_retire_previous(struct fw_loader *l)
{
	int r;

	if (!l->previous_root)
		return 0;
	r = fw_cleanup(l->previous_root);
	free(l->previous_root);
	l->previous_root = NULL;
	return r;
}

int fw_loader_open(struct fw_loader *l, const char *pin_root, const struct fw_budget *budget)
{
	static const struct fw_budget default_budget = {
		.burst = HID_FW_BUDGET_BURST, .rate = HID_FW_BUDGET_RATE,
	};
	_cleanup_free_ char *devices = NULL;
	int r;

	memset(l, 0, sizeof(*l));
	l->rules_fd = l->events_fd = l->stats_fd = l->budget_fd = l->budget_told_fd = -1;
	libbpf_set_print(libbpf_print);

	l->features.hid_bpf = fw_kernel_has_hid_bpf();
	if (!l->features.hid_bpf)
		return -EOPNOTSUPP;
	l->layout = calloc(1, sizeof(*l->layout));
	if (!l->layout)
		return -ENOMEM;
	r = ops_layout_read(l->layout);
	if (r < 0)
		return r;
	fw_probe_features(&l->features);

	l->pin_root = strdup(pin_root);
	if (!l->pin_root || asprintf(&devices, "%s/devices", pin_root) < 0)
		return -ENOMEM;
	r = move_aside_other_layout(l);
	if (r < 0)
		return r;
	if (mkdir(pin_root, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(devices, 0700) < 0 && errno != EEXIST)
		return -errno;

	l->budget = budget ? *budget : default_budget;
	r = load_programs(l, false, &l->programs);
	if (r < 0)
		return r;
	l->rules_fd = open_pinned(l, "hid_rules");
	l->events_fd = open_pinned(l, "hid_events");
	l->stats_fd = open_pinned(l, "hid_stats");
	l->budget_fd = open_pinned(l, "hid_budget");
	l->budget_told_fd = open_pinned(l, "hid_budget_told");
	if (l->rules_fd < 0)
		return l->rules_fd;
	if (l->events_fd < 0)
		return l->events_fd;
	if (l->stats_fd < 0)
		return l->stats_fd;
	if (l->budget_fd < 0)
		return l->budget_fd;
	if (l->budget_told_fd < 0)
		return l->budget_told_fd;
	return 0;
}

void fw_loader_close(struct fw_loader *l)
{
	closep(&l->rules_fd);
	closep(&l->events_fd);
	closep(&l->stats_fd);
	closep(&l->budget_fd);
	closep(&l->budget_told_fd);
	l->rules_fd = l->events_fd = l->stats_fd = l->budget_fd = l->budget_told_fd = -1;
	hid_firewall_bpf__destroy(l->programs);
	hid_firewall_bpf__destroy(l->input_programs);
	l->programs = l->input_programs = NULL;
	for (size_t i = 0; i < l->n_watches; i++)
		close(l->watches[i].fd);
	free(l->watches);
	l->watches = NULL;
	free(l->previous_root);
	l->previous_root = NULL;
	l->n_watches = l->cap_watches = 0;
	free(l->layout);
	l->layout = NULL;
	free(l->pin_root);
	l->pin_root = NULL;
}

int fw_set_rules(struct fw_loader *l, uint32_t hid_id, const struct hid_device_rules *rules)
{
	_cleanup_free_ struct hid_device_rules *indexed = malloc(sizeof(*indexed));
	int r;

	if (!indexed)
		return -ENOMEM;
	/* The firewall evaluates only the rules the index names: it is
	 * derived here, from the very rules stored with it. */
	*indexed = *rules;
	r = rule_index_build(indexed);
	if (r < 0)
		return r;
	return bpf_map_update_elem(l->rules_fd, &hid_id, indexed, BPF_ANY) < 0 ? -errno : 0;
}

int fw_delete_rules(struct fw_loader *l, uint32_t hid_id)
{
	if (bpf_map_delete_elem(l->rules_fd, &hid_id) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

static bool struct_ops_in_use(const struct ops_layout *lay, int fd, uint32_t hid_id,
			      bool *input)
{
	return ops_map_is_hid(lay, fd) == 1 && ops_map_registered(lay, fd, hid_id, input) == 1;
}

static struct fw_watch *watch_find(struct fw_loader *l, uint32_t hid_id)
{
	for (size_t i = 0; i < l->n_watches; i++)
		if (l->watches[i].hid_id == hid_id)
			return &l->watches[i];
	return NULL;
}

static void watch_drop(struct fw_loader *l, uint32_t hid_id)
{
	struct fw_watch *w = watch_find(l, hid_id);

	if (!w)
		return;
	close(w->fd);
	*w = l->watches[--l->n_watches];
}

/* Keep FD (taken over: closed on failure) as hid_id's instance, unless one
 * is kept already. Without memory the instance goes unwatched, and
 * fw_check_attached() looks at its pin instead. */
static void watch_add(struct fw_loader *l, uint32_t hid_id, int fd, bool input)
{
	if (watch_find(l, hid_id)) {
		close(fd);
		return;
	}
	if (l->n_watches == l->cap_watches) {
		size_t cap = l->cap_watches ? l->cap_watches * 2 : 8;
		struct fw_watch *w = reallocarray(l->watches, cap, sizeof(*w));

		if (!w) {
			close(fd);
			return;
		}
		l->watches = w;
		l->cap_watches = cap;
	}
	l->watches[l->n_watches++] = (struct fw_watch){ .hid_id = hid_id, .fd = fd, .input = input };
}

bool fw_is_attached(struct fw_loader *l, uint32_t hid_id)
{
	_cleanup_free_ char *p = device_pin_path(l, hid_id);
	_cleanup_close_ int fd = -1;
	bool input;

	if (!p)
		return false;
	fd = bpf_obj_get(p);
	if (fd < 0)
		return false;
	if (struct_ops_in_use(l->layout, fd, hid_id, &input)) {
		watch_add(l, hid_id, fd, input);
		fd = -1;
		return true;
	}
	/* A pin without a registration: left by a crash between pin and
	 * attach, or unregistered by someone else. Forget it so the device
	 * gets attached again. */
	watch_drop(l, hid_id);
	unlink(p);
	return false;
}

int fw_check_attached(struct fw_loader *l, uint32_t hid_id)
{
	struct fw_watch *w = watch_find(l, hid_id);
	int r;

	if (!w)
		return fw_is_attached(l, hid_id);
	r = ops_map_registered(l->layout, w->fd, hid_id, NULL);
	if (r != 0)
		return r;
	/* Unregistered behind our back. The map cannot register again:
	 * drop it and its pin. */
	watch_drop(l, hid_id);
	return fw_is_attached(l, hid_id);
}

bool fw_rules_need_input(const struct hid_device_rules *rules)
{
	uint32_t n = rules->n_rules < HID_RULES_MAX_RULES ? rules->n_rules : HID_RULES_MAX_RULES;

	/* The default decides every report no rule matches: a deny drops
	 * input, a logged allow logs it. */
	if (rules->default_action == HID_RULE_DENY || (rules->default_flags & HID_RULE_F_LOG))
		return true;
	for (uint32_t i = 0; i < n; i++)
		if (rules->rules[i].kinds & HID_RULE_KIND_INPUT_EVENT)
			return true;
	return false;
}

/* The map value registering the shared programs for hid_id; the
 * hid_device_event member stays empty without INPUT, so that the device's
 * reports run no program at all. INPUT needs the input program loaded
 * (fw_load_input). */
static uint8_t *device_ops_value(struct fw_loader *l, uint32_t hid_id, bool input)
{
	const struct ops_layout *lay = l->layout;
	const struct bpf_program *progs[3] = {
		input ? l->input_programs->progs.fw_device_event : NULL,
		l->programs->progs.fw_hw_request,
		l->programs->progs.fw_output_report,
	};
	uint8_t *value = calloc(1, lay->value_size);
	uint8_t *ops = value + lay->data;
	int32_t id = (int32_t)hid_id;
	uint32_t flags = BPF_F_BEFORE;

	if (!value)
		return NULL;
	memcpy(ops + lay->hid_id, &id, sizeof(id));
	/* BPF_F_BEFORE: the firewall sees requests and events before any
	 * other HID-BPF program of the device. */
	memcpy(ops + lay->flags, &flags, sizeof(flags));
	/* Function pointer members take program file descriptors. */
	for (int i = input ? 0 : 1; i < 3; i++) {
		uint64_t fd = (uint64_t)bpf_program__fd(progs[i]);

		memcpy(ops + lay->hooks[i], &fd, sizeof(fd));
	}
	return value;
}

/* Create and register a new instance for hid_id, pinned at PATH (a pin
 * that must not exist yet). Returns its map descriptor or -errno. */
static int register_instance(struct fw_loader *l, uint32_t hid_id, bool input, const char *path)
{
	/* 6.1 wants a BTF object with any vmlinux value type: the programs'. */
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		    .btf_fd = bpf_object__btf_fd(l->programs->obj),
		    .btf_vmlinux_value_type_id = l->layout->value_type_id);
	_cleanup_free_ uint8_t *value = device_ops_value(l, hid_id, input);
	_cleanup_close_ int fd = -1;
	uint32_t key = 0;
	int r;

	if (!value)
		return -ENOMEM;
	fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "hid_firewall", sizeof(key),
			    l->layout->value_size, 1, &opts);
	if (fd < 0)
		return -errno;

	/* Pin first: a crash after the pin leaves a pin that fw_is_attached
	 * recognizes as stale, a crash after the update leaves a pinned,
	 * attached instance a restarted daemon adopts. Never an unpinned
	 * attachment. */
	if (bpf_obj_pin(fd, path) < 0)
		return -errno;
	/* Updating the element registers the ops: the kernel attaches it to
	 * the device, until the element is deleted (fw_detach). */
	if (bpf_map_update_elem(fd, &key, value, 0) < 0) {
		r = -errno;
		unlink(path);
		return r;
	}
	r = fd;
	fd = -1;
	return r;
}

static int unregister_ops(int fd);

/* Replace the watched instance W by one with the other INPUT: the new one
 * is registered (at the head of the device's list) before the old one
 * leaves, and its pin takes the old pin's name in one rename. */
static int swap_instance(struct fw_loader *l, struct fw_watch *w, bool input, const char *path)
{
	_cleanup_free_ char *next = NULL;
	int fd, r;

	/* bpffs refuses names with dots. */
	if (asprintf(&next, "%s" SWAP_SUFFIX, path) < 0)
		return -ENOMEM;
	unlink(next);	/* left by a crash in the middle of a swap */
	fd = register_instance(l, w->hid_id, input, next);
	if (fd < 0)
		return fd;
	if (rename(next, path) < 0) {
		r = -errno;
		unregister_ops(fd);
		unlink(next);
		close(fd);
		return r;
	}
	r = unregister_ops(w->fd);
	close(w->fd);
	w->fd = fd;
	w->input = input;
	return r;
}

int fw_attach(struct fw_loader *l, uint32_t hid_id, bool input)
{
	_cleanup_free_ char *p = device_pin_path(l, hid_id);
	struct fw_watch *w;
	int fd;

	if (!p)
		return -ENOMEM;
	/* Where the daemon may still load programs (CAP_PERFMON, before its
	 * sandbox), the input program is loaded when a device first needs
	 * it; the service loads it before, where it cannot. */
	if (input) {
		int r = fw_load_input(l);

		if (r < 0)
			return r;
	}
	if (fw_is_attached(l, hid_id)) {
		w = watch_find(l, hid_id);
		if (!w || w->input == input)
			return -EEXIST;
		return swap_instance(l, w, input, p);
	}
	fd = register_instance(l, hid_id, input, p);
	if (fd < 0)
		return fd;
	watch_add(l, hid_id, fd, input);
	return 0;
}

int fw_attached_input(struct fw_loader *l, uint32_t hid_id)
{
	struct fw_watch *w;

	if (!fw_is_attached(l, hid_id))
		return -ENOENT;
	w = watch_find(l, hid_id);
	return w ? w->input : -ENOMEM;
}

/* Unregister a struct_ops map: delete its element. ENOENT: it was never
 * registered; EINPROGRESS: it was unregistered already (by someone else,
 * through its pin) and waits to be freed. Both leave nothing to do. */
static int unregister_ops(int fd)
{
	uint32_t key = 0;

	if (bpf_map_delete_elem(fd, &key) < 0 && errno != ENOENT && errno != EINPROGRESS)
		return -errno;
	return 0;
}

static int detach_pinned(const char *path)
{
	_cleanup_close_ int fd = bpf_obj_get(path);
	int r;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	r = unregister_ops(fd);
	if (unlink(path) < 0 && errno != ENOENT && !r)
		r = -errno;
	return r;
}

int fw_detach(struct fw_loader *l, uint32_t hid_id)
{
	_cleanup_free_ char *p = device_pin_path(l, hid_id);
	struct fw_watch *w = watch_find(l, hid_id);
	int r;

	if (!p)
		return -ENOMEM;
	/* The watched map first: it is ours even when its pin was removed
	 * or replaced. */
	if (w) {
		r = unregister_ops(w->fd);
		watch_drop(l, hid_id);
		if (r < 0)
			return r;
	}
	r = detach_pinned(p);
	if (r < 0)
		return r;
	return fw_delete_rules(l, hid_id);
}

/* Call FN for every devices/<hid_id> pin, and with LEFTOVERS also for the
 * devices/<hid_id>-next pins a crash in the middle of a swap left. */
static int for_each_pinned_device(const char *pin_root, bool leftovers,
				  int (*fn)(const char *path, uint32_t hid_id, void *userdata),
				  void *userdata)
{
	_cleanup_free_ char *dir_path = NULL;
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *de;
	int r = 0;

	if (asprintf(&dir_path, "%s/devices", pin_root) < 0)
		return -ENOMEM;
	dir = opendir(dir_path);
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		_cleanup_free_ char *path = NULL;
		char *end;
		unsigned long id;

		if (de->d_name[0] == '.')
			continue;
		errno = 0;
		id = strtoul(de->d_name, &end, 10);
		if (errno || end == de->d_name || id > UINT32_MAX)
			continue;
		if (*end && !(leftovers && !strcmp(end, SWAP_SUFFIX)))
			continue;
		if (asprintf(&path, "%s/%s", dir_path, de->d_name) < 0)
			return -ENOMEM;
		r = fn(path, (uint32_t)id, userdata);
		if (r < 0)
			break;
	}
	return r;
}

struct for_each_ctx {
	struct fw_loader *l;
	int (*fn)(uint32_t hid_id, void *userdata);
	void *userdata;
};

static int call_if_attached(const char *path, uint32_t hid_id, void *userdata)
{
	struct for_each_ctx *c = userdata;

	if (!fw_is_attached(c->l, hid_id))
		return 0;
	return c->fn(hid_id, c->userdata);
}

int fw_for_each_attached(struct fw_loader *l,
			 int (*fn)(uint32_t hid_id, void *userdata), void *userdata)
{
	struct for_each_ctx c = { .l = l, .fn = fn, .userdata = userdata };

	return for_each_pinned_device(l->pin_root, false, call_if_attached, &c);
}

int fw_read_stats(struct fw_loader *l, struct hid_fw_stats *out)
{
	int n_cpus = libbpf_num_possible_cpus();
	_cleanup_free_ struct hid_fw_stats *per_cpu = NULL;
	uint32_t key = 0;

	_Static_assert(sizeof(struct hid_fw_stats) % 8 == 0, "per-CPU value alignment");
	if (n_cpus <= 0)
		return n_cpus < 0 ? n_cpus : -EINVAL;
	per_cpu = calloc(n_cpus, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(l->stats_fd, &key, per_cpu) < 0)
		return -errno;
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < n_cpus; i++) {
		out->allowed += per_cpu[i].allowed;
		out->denied += per_cpu[i].denied;
		out->logged += per_cpu[i].logged;
		out->dropped += per_cpu[i].dropped;
	}
	return 0;
}

int fw_for_each_budget(struct fw_loader *l,
		       int (*fn)(const struct fw_budget_counts *c, void *userdata), void *userdata)
{
	uint32_t key, next;
	uint32_t *prev = NULL;
	int r;

	while (bpf_map_get_next_key(l->budget_fd, prev, &next) == 0) {
		struct fw_budget_counts c = { .hid_id = next };

		key = next;
		prev = &key;
		/* Deleted meanwhile: nothing left to tell. */
		if (bpf_map_lookup_elem(l->budget_fd, &key, &c.budget) < 0)
			continue;
		if (bpf_map_lookup_elem(l->budget_told_fd, &key, &c.told) < 0 && errno != ENOENT)
			return -errno;
		r = fn(&c, userdata);
		if (r < 0)
			return r;
	}
	return errno == ENOENT ? 0 : -errno;
}

int fw_budget_told(struct fw_loader *l, uint32_t hid_id, const struct hid_fw_budget_told *told)
{
	return bpf_map_update_elem(l->budget_told_fd, &hid_id, told, BPF_ANY) < 0 ? -errno : 0;
}

int fw_budget_forget(struct fw_loader *l, uint32_t hid_id)
{
	if (bpf_map_delete_elem(l->budget_fd, &hid_id) < 0 && errno != ENOENT)
		return -errno;
	if (bpf_map_delete_elem(l->budget_told_fd, &hid_id) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

static int cleanup_one(const char *path, uint32_t hid_id, void *userdata)
{
	int *first_error = userdata;
	int r = detach_pinned(path);

	if (r < 0 && !*first_error)
		*first_error = r;
	return 0;
}

int fw_cleanup(const char *pin_root)
{
	static const char *const maps[] = {
		"hid_rules", "hid_events", "hid_stats", "hid_budget", "hid_budget_told",
	};
	_cleanup_free_ char *devices = NULL;
	int first_error = 0, r;

	r = for_each_pinned_device(pin_root, true, cleanup_one, &first_error);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ELEMENTSOF(maps); i++) {
		_cleanup_free_ char *p = NULL;

		if (asprintf(&p, "%s/%s", pin_root, maps[i]) < 0)
			return -ENOMEM;
		if (unlink(p) < 0 && errno != ENOENT && !first_error)
			first_error = -errno;
	}
	if (asprintf(&devices, "%s/devices", pin_root) < 0)
		return -ENOMEM;
	if (rmdir(devices) < 0 && errno != ENOENT && !first_error)
		first_error = -errno;
	if (rmdir(pin_root) < 0 && errno != ENOENT && !first_error)
		first_error = -errno;
	return first_error;
}

