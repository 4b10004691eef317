// SPDX-License-Identifier: GPL-2.0-or-later
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "hid_bpf_loader.h"

static void *read_whole(const char *path, size_t *size)
{
	struct stat st;
	void *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !(buf = malloc(st.st_size)) ||
	    read(fd, buf, st.st_size) != st.st_size) {
		close(fd);
		errno = EIO;
		return NULL;
	}
	close(fd);
	*size = st.st_size;
	return buf;
}

/* Write hid_id/flags into every object of .struct_ops. 0 or -errno. */
static int patch_struct_ops(char *elf, size_t size, int hid_id,
			    const char *flag_map, unsigned int flags)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
	Elf64_Shdr *sh, *symtab = NULL, *st_ops = NULL;
	const char *shstr, *strtab;
	unsigned int i, st_idx = 0, n = 0;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > size)
		return -EINVAL;
	sh = (Elf64_Shdr *)(elf + eh->e_shoff);
	shstr = elf + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = &sh[i];
		if (!strcmp(shstr + sh[i].sh_name, ".struct_ops")) {
			st_ops = &sh[i];
			st_idx = i;
		}
	}
	if (!st_ops)
		return 0;
	if (!symtab)
		return -EINVAL;
	strtab = elf + sh[symtab->sh_link].sh_offset;
	for (i = 0; i < symtab->sh_size / sizeof(Elf64_Sym); i++) {
		Elf64_Sym *sym = (Elf64_Sym *)(elf + symtab->sh_offset) + i;
		char *ops;

		if (sym->st_shndx != st_idx ||
		    ELF64_ST_TYPE(sym->st_info) != STT_OBJECT)
			continue;
		if (sym->st_value + 8 > st_ops->sh_size)
			return -EINVAL;
		ops = elf + st_ops->sh_offset + sym->st_value;
		memcpy(ops, &hid_id, sizeof(int));		/* hid_id */
		if (flag_map && !strcmp(strtab + sym->st_name, flag_map))
			memcpy(ops + 4, &flags, sizeof(flags));	/* flags */
		n++;
	}
	return n ? 0 : -ENOENT;
}

struct bpf_object *hbt_open(const char *name, int hid_id,
			    const char *flag_map, unsigned int flags)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = name);
	const char *dir = getenv("HID_BPF_TEST_OBJDIR");
	struct bpf_program *prog;
	struct bpf_object *obj;
	char path[512];
	size_t size;
	char *elf;
	int err;

	snprintf(path, sizeof(path), "%s/%s.bpf.o", dir ? dir : ".", name);
	elf = read_whole(path, &size);
	if (!elf)
		return NULL;
	err = patch_struct_ops(elf, size, hid_id, flag_map, flags);
	if (err) {
		free(elf);
		errno = -err;
		return NULL;
	}
	/* libbpf reads the buffer until load: it lives as long as the test */
	obj = bpf_object__open_mem(elf, size, &opts);
	if (!obj) {
		free(elf);
		return NULL;
	}
	/* libbpf 1.1 has no SEC("struct_ops.s/...") */
	bpf_object__for_each_program(prog, obj) {
		if (strncmp(bpf_program__name(prog), "sleepable_", 10))
			continue;
		err = bpf_program__set_flags(prog, BPF_F_SLEEPABLE);
		if (err) {
			bpf_object__close(obj);
			errno = -err;
			return NULL;
		}
	}
	return obj;
}

struct bpf_object *hbt_load(const char *name, int hid_id,
			    const char *flag_map, unsigned int flags)
{
	struct bpf_object *obj = hbt_open(name, hid_id, flag_map, flags);
	int err;

	if (!obj)
		return NULL;
	err = bpf_object__load(obj);
	if (err) {
		bpf_object__close(obj);
		errno = -err;
		return NULL;
	}
	return obj;
}

int hbt_attach(struct bpf_object *obj, const char *map, struct bpf_link **link)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, map);

	if (!m)
		return -ENOENT;
	*link = bpf_map__attach_struct_ops(m);
	return *link ? 0 : -errno;
}

static struct bpf_map *find_bss(struct bpf_object *obj, size_t *off,
				const char *var, size_t size)
{
	const struct btf_var_secinfo *vsi;
	const struct btf_type *sec;
	struct bpf_map *map;
	struct btf *btf = bpf_object__btf(obj);
	int id, i;

	bpf_object__for_each_map(map, obj) {
		const char *n = bpf_map__name(map);
		size_t l = strlen(n);

		if (l >= 4 && !strcmp(n + l - 4, ".bss"))
			break;
	}
	if (!map || !btf)
		return NULL;
	id = btf__find_by_name_kind(btf, ".bss", BTF_KIND_DATASEC);
	if (id < 0)
		return NULL;
	sec = btf__type_by_id(btf, id);
	vsi = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vsi++) {
		const struct btf_type *v = btf__type_by_id(btf, vsi->type);

		if (!strcmp(btf__name_by_offset(btf, v->name_off), var) &&
		    vsi->size == size) {
			*off = vsi->offset;
			return map;
		}
	}
	return NULL;
}

int hbt_read_global(struct bpf_object *obj, const char *var, void *out,
		    size_t size)
{
	struct bpf_map *map;
	size_t off;
	char *val;
	int zero = 0, err;

	map = find_bss(obj, &off, var, size);
	if (!map)
		return -ENOENT;
	val = calloc(1, bpf_map__value_size(map));
	if (!val)
		return -ENOMEM;
	err = bpf_map_lookup_elem(bpf_map__fd(map), &zero, val);
	if (!err)
		memcpy(out, val + off, size);
	free(val);
	return err ? -errno : 0;
}

int hbt_write_global(struct bpf_object *obj, const char *var, const void *in,
		     size_t size)
{
	struct bpf_map *map;
	size_t off;
	char *val;
	int zero = 0, err;

	map = find_bss(obj, &off, var, size);
	if (!map)
		return -ENOENT;
	val = calloc(1, bpf_map__value_size(map));
	if (!val)
		return -ENOMEM;
	err = bpf_map_lookup_elem(bpf_map__fd(map), &zero, val);
	if (!err) {
		memcpy(val + off, in, size);
		err = bpf_map_update_elem(bpf_map__fd(map), &zero, val, 0);
	}
	free(val);
	return err ? -errno : 0;
}

int hbt_run_syscall(struct bpf_object *obj, const char *prog, void *ctx,
		    size_t ctx_size)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = ctx,
		    .ctx_size_in = ctx_size);
	struct bpf_program *p = bpf_object__find_program_by_name(obj, prog);
	int err;

	if (!p)
		return -ENOENT;
	err = bpf_prog_test_run_opts(bpf_program__fd(p), &opts);
	if (err)
		return -errno;
	return opts.retval;
}
