// SPDX-License-Identifier: GPL-2.0-or-later
#include "loader.h"

#include <elf.h>
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

#include "hid_firewall.skel.h"
#include "hid_probe.skel.h"
#include "util.h"

/* bpf_struct_ops_state: the value of a registered struct_ops map. */
#define STRUCT_OPS_STATE_INUSE 1

static bool quiet_libbpf;

__attribute__((format(printf, 2, 0)))
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (quiet_libbpf || level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

bool fw_kernel_has_hid_bpf(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool found;

	if (!btf)
		return false;
	found = btf__find_by_name_kind(btf, "hid_bpf_ops", BTF_KIND_STRUCT) > 0;
	btf__free(btf);
	return found;
}

/* Byte offset of member NAME of struct type ID, looking into unnamed and
 * named sub-structs too ("state" sits in "common" on newer kernels). */
static int member_offset(const struct btf *btf, __u32 id, const char *name)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;

	if (!t || !btf_is_struct(t))
		return -ENOENT;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);
		__u32 off = btf_member_bit_offset(t, i) / 8;
		int sub;

		if (mname && !strcmp(mname, name))
			return (int)off;
		sub = member_offset(btf, btf__resolve_type(btf, m->type), name);
		if (sub >= 0)
			return (int)off + sub;
	}
	return -ENOENT;
}

struct ops_layout {
	int value_type_id;	/* bpf_struct_ops_hid_bpf_ops in vmlinux BTF */
	int state_offset;
	int data_offset;
};

static int read_ops_layout(struct ops_layout *lay)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int r = 0;

	if (!btf)
		return -errno;
	lay->value_type_id = btf__find_by_name_kind(btf, "bpf_struct_ops_hid_bpf_ops",
						    BTF_KIND_STRUCT);
	if (lay->value_type_id < 0) {
		r = -ENOENT;
		goto out;
	}
	lay->state_offset = member_offset(btf, lay->value_type_id, "state");
	lay->data_offset = member_offset(btf, lay->value_type_id, "data");
	if (lay->state_offset < 0 || lay->data_offset < 0)
		r = -ENOENT;
out:
	btf__free(btf);
	return r;
}

/*
 * Where the kernel keeps a struct_ops map value's state and data: in
 * struct bpf_struct_ops_hid_bpf_ops, whose layout (the data is cache-line
 * aligned) differs between kernels.
 */
static int find_struct_ops_layout(struct fw_loader *l)
{
	struct ops_layout lay;
	int r = read_ops_layout(&lay);

	if (r < 0)
		return r;
	l->ops_state_offset = lay.state_offset;
	l->ops_data_offset = lay.data_offset;
	return 0;
}

/*
 * Write hid_id into the struct_ops variable `symbol` of a BPF ELF object.
 * libbpf 1.1 cannot change a struct_ops map's data after open, so the value
 * the kernel's init_member reads must already be in the .struct_ops section.
 */
static int patch_struct_ops_hid_id(uint8_t *elf, size_t size, const char *symbol,
				   int32_t hid_id)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf;
	const Elf64_Shdr *sh, *symtab = NULL, *strtab;
	int ops_index = -1;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(Elf64_Shdr) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return -EINVAL;
	sh = (const Elf64_Shdr *)(elf + eh->e_shoff);

	for (int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *names = &sh[eh->e_shstrndx];
		const char *name;

		if (names->sh_offset > size || sh[i].sh_name >= names->sh_size ||
		    names->sh_size > size - names->sh_offset)
			return -EINVAL;
		name = (const char *)elf + names->sh_offset + sh[i].sh_name;
		if (!strncmp(name, ".struct_ops", names->sh_size - sh[i].sh_name) &&
		    sh[i].sh_type == SHT_PROGBITS)
			ops_index = i;
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = &sh[i];
	}
	if (ops_index < 0 || !symtab || symtab->sh_link >= eh->e_shnum)
		return -ENOENT;
	strtab = &sh[symtab->sh_link];
	if (symtab->sh_offset > size || symtab->sh_size > size - symtab->sh_offset ||
	    strtab->sh_offset > size || strtab->sh_size > size - strtab->sh_offset)
		return -EINVAL;

	for (size_t i = 0; i < symtab->sh_size / sizeof(Elf64_Sym); i++) {
		const Elf64_Sym *sym = (const Elf64_Sym *)(elf + symtab->sh_offset) + i;
		const Elf64_Shdr *ops = &sh[ops_index];

		if (sym->st_shndx != ops_index || sym->st_name >= strtab->sh_size)
			continue;
		if (strncmp((const char *)elf + strtab->sh_offset + sym->st_name, symbol,
			    strtab->sh_size - sym->st_name))
			continue;
		/* hid_id is the first member of struct hid_bpf_ops. */
		if (sym->st_value > ops->sh_size || ops->sh_size - sym->st_value < sizeof(hid_id) ||
		    ops->sh_offset > size || ops->sh_size > size - ops->sh_offset)
			return -EINVAL;
		memcpy(elf + ops->sh_offset + sym->st_value, &hid_id, sizeof(hid_id));
		return 0;
	}
	return -ENOENT;
}

struct fw_instance {
	struct hid_firewall_bpf *skel;
	uint8_t *elf;
};

static void fw_instance_free(struct fw_instance *in)
{
	hid_firewall_bpf__destroy(in->skel);
	free(in->elf);
	in->skel = NULL;
	in->elf = NULL;
}

/* Open and load one firewall instance for hid_id (not attached). */
static int fw_instance_load(struct fw_loader *l, struct fw_instance *in,
			    uint32_t hid_id, bool numbered_reports)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = l->pin_root);
	struct bpf_object_skeleton *s;
	int r;

	memset(in, 0, sizeof(*in));
	in->skel = calloc(1, sizeof(*in->skel));
	if (!in->skel)
		return -ENOMEM;
	r = hid_firewall_bpf__create_skeleton(in->skel);
	if (r < 0)
		goto fail;
	s = in->skel->skeleton;
	in->elf = malloc(s->data_sz);
	if (!in->elf) {
		r = -ENOMEM;
		goto fail;
	}
	memcpy(in->elf, s->data, s->data_sz);
	r = patch_struct_ops_hid_id(in->elf, s->data_sz, "hid_firewall", (int32_t)hid_id);
	if (r < 0)
		goto fail;
	s->data = in->elf;

	r = bpf_object__open_skeleton(s, &opts);
	if (r < 0)
		goto fail;
	in->skel->rodata->fw_hid_id = hid_id;
	in->skel->rodata->fw_numbered_reports = numbered_reports;
	in->skel->rodata->have_pid_tgid = l->features.pid_tgid;
	in->skel->rodata->have_uid_gid = l->features.uid_gid;
	in->skel->rodata->have_comm = l->features.comm;
	r = hid_firewall_bpf__load(in->skel);
	if (r < 0)
		goto fail;
	return 0;
fail:
	fw_instance_free(in);
	return r < 0 ? r : -EINVAL;
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

int fw_loader_open(struct fw_loader *l, const char *pin_root)
{
	_cleanup_free_ char *devices = NULL;
	struct fw_instance probe;
	int r;

	memset(l, 0, sizeof(*l));
	l->rules_fd = l->events_fd = l->stats_fd = -1;
	libbpf_set_print(libbpf_print);

	l->features.hid_bpf = fw_kernel_has_hid_bpf();
	if (!l->features.hid_bpf)
		return -EOPNOTSUPP;
	r = find_struct_ops_layout(l);
	if (r < 0)
		return r;
	l->features.pid_tgid = probe_helper(BPF_FUNC_get_current_pid_tgid);
	l->features.uid_gid = probe_helper(BPF_FUNC_get_current_uid_gid);
	l->features.comm = probe_helper(BPF_FUNC_get_current_comm);

	l->pin_root = strdup(pin_root);
	if (!l->pin_root || asprintf(&devices, "%s/devices", pin_root) < 0)
		return -ENOMEM;
	if (mkdir(pin_root, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(devices, 0700) < 0 && errno != EEXIST)
		return -errno;

	/* Loading one instance creates and pins the shared maps (or reuses
	 * the pinned ones), and shows the programs pass this kernel's
	 * verifier before any device depends on them. */
	r = fw_instance_load(l, &probe, 0, false);
	if (r < 0)
		return r;
	fw_instance_free(&probe);

	l->rules_fd = open_pinned(l, "hid_rules");
	l->events_fd = open_pinned(l, "hid_events");
	l->stats_fd = open_pinned(l, "hid_stats");
	if (l->rules_fd < 0)
		return l->rules_fd;
	if (l->events_fd < 0)
		return l->events_fd;
	if (l->stats_fd < 0)
		return l->stats_fd;
	return 0;
}

void fw_loader_close(struct fw_loader *l)
{
	closep(&l->rules_fd);
	closep(&l->events_fd);
	closep(&l->stats_fd);
	l->rules_fd = l->events_fd = l->stats_fd = -1;
	free(l->pin_root);
	l->pin_root = NULL;
}

int fw_set_rules(struct fw_loader *l, uint32_t hid_id, const struct hid_device_rules *rules)
{
	return bpf_map_update_elem(l->rules_fd, &hid_id, rules, BPF_ANY) < 0 ? -errno : 0;
}

int fw_delete_rules(struct fw_loader *l, uint32_t hid_id)
{
	if (bpf_map_delete_elem(l->rules_fd, &hid_id) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

/* Is the struct_ops map behind fd registered, and for hid_id? */
static bool struct_ops_in_use(const struct fw_loader *l, int fd, uint32_t hid_id)
{
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info), key = 0, state;
	int32_t id;
	_cleanup_free_ uint8_t *value = NULL;

	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0 ||
	    info.type != BPF_MAP_TYPE_STRUCT_OPS ||
	    info.value_size < (uint32_t)l->ops_state_offset + sizeof(state) ||
	    info.value_size < (uint32_t)l->ops_data_offset + sizeof(id))
		return false;
	value = calloc(1, info.value_size);
	if (!value || bpf_map_lookup_elem(fd, &key, value) < 0)
		return false;
	memcpy(&state, value + l->ops_state_offset, sizeof(state));
	/* hid_id is the first member of struct hid_bpf_ops */
	memcpy(&id, value + l->ops_data_offset, sizeof(id));
	return state == STRUCT_OPS_STATE_INUSE && (uint32_t)id == hid_id;
}

bool fw_is_attached(struct fw_loader *l, uint32_t hid_id)
{
	_cleanup_free_ char *p = device_pin_path(l, hid_id);
	_cleanup_close_ int fd = -1;

	if (!p)
		return false;
	fd = bpf_obj_get(p);
	if (fd < 0)
		return false;
	if (struct_ops_in_use(l, fd, hid_id))
		return true;
	/* A pin without a registration: left by a crash between pin and
	 * attach. Forget it so the device gets attached again. */
	unlink(p);
	return false;
}

int fw_attach(struct fw_loader *l, uint32_t hid_id, bool numbered_reports)
{
	_cleanup_free_ char *p = device_pin_path(l, hid_id);
	struct fw_instance in;
	struct bpf_link *link;
	int r;

	if (!p)
		return -ENOMEM;
	if (fw_is_attached(l, hid_id))
		return -EEXIST;
	r = fw_instance_load(l, &in, hid_id, numbered_reports);
	if (r < 0)
		return r;

	/* Pin first: a crash after the pin leaves a pin that fw_is_attached
	 * recognizes as stale, a crash after attach leaves a pinned, attached
	 * instance a restarted daemon adopts. Never an unpinned attachment. */
	r = bpf_map__pin(in.skel->maps.hid_firewall, p);
	if (r < 0)
		goto out;
	link = bpf_map__attach_struct_ops(in.skel->maps.hid_firewall);
	if (!link) {
		r = -errno;
		unlink(p);
		goto out;
	}
	/* Keep the registration when the link object goes away: only
	 * fw_detach (a map element delete) ends it. */
	bpf_link__disconnect(link);
	bpf_link__destroy(link);
	r = 0;
out:
	fw_instance_free(&in);
	return r;
}

static int detach_pinned(const char *path)
{
	_cleanup_close_ int fd = bpf_obj_get(path);
	uint32_t key = 0;
	int r = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	/* Deleting the element unregisters; ENOENT: it was not registered. */
	if (bpf_map_delete_elem(fd, &key) < 0 && errno != ENOENT)
		r = -errno;
	if (unlink(path) < 0 && errno != ENOENT && !r)
		r = -errno;
	return r;
}

int fw_detach(struct fw_loader *l, uint32_t hid_id)
{
	_cleanup_free_ char *p = device_pin_path(l, hid_id);
	int r;

	if (!p)
		return -ENOMEM;
	r = detach_pinned(p);
	if (r < 0)
		return r;
	return fw_delete_rules(l, hid_id);
}

static int for_each_pinned_device(const char *pin_root,
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
		if (errno || *end || id > UINT32_MAX)
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

	return for_each_pinned_device(l->pin_root, call_if_attached, &c);
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
	static const char *const maps[] = { "hid_rules", "hid_events", "hid_stats" };
	_cleanup_free_ char *devices = NULL;
	int first_error = 0, r;

	r = for_each_pinned_device(pin_root, cleanup_one, &first_error);
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

int fw_count_device_ops(uint32_t hid_id)
{
	struct ops_layout lay;
	__u32 id = 0, key = 0;
	int count = 0, r;

	r = read_ops_layout(&lay);
	if (r < 0)
		return r;
	while (bpf_map_get_next_id(id, &id) == 0) {
		struct bpf_map_info info = {};
		__u32 len = sizeof(info), state;
		_cleanup_close_ int fd = bpf_map_get_fd_by_id(id);
		_cleanup_free_ uint8_t *value = NULL;
		int32_t ops_hid_id;

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) < 0 ||
		    info.type != BPF_MAP_TYPE_STRUCT_OPS ||
		    info.btf_vmlinux_value_type_id != (__u32)lay.value_type_id ||
		    info.value_size < (__u32)lay.data_offset + sizeof(ops_hid_id))
			continue;
		value = calloc(1, info.value_size);
		if (!value || bpf_map_lookup_elem(fd, &key, value) < 0)
			continue;
		memcpy(&state, value + lay.state_offset, sizeof(state));
		memcpy(&ops_hid_id, value + lay.data_offset, sizeof(ops_hid_id));
		if (state == STRUCT_OPS_STATE_INUSE && (uint32_t)ops_hid_id == hid_id)
			count++;
	}
	return count;
}
