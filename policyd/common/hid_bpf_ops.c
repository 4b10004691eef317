// SPDX-License-Identifier: GPL-2.0-or-later
/* Registered hid_bpf_ops struct_ops maps, as the kernel shows them: see
 * hid_bpf_ops.h. */
#include "hid_bpf_ops.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "util.h"

/* bpf_struct_ops_state: the value of a registered struct_ops map. */
#define STRUCT_OPS_STATE_INUSE 1

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

static const char *const hook_members[3] = {
	"hid_device_event", "hid_hw_request", "hid_hw_output_report",
};

int ops_layout_read(struct ops_layout *lay)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	int ops_id, r = -ENOENT;

	if (!btf)
		return -errno;
	lay->value_type_id = btf__find_by_name_kind(btf, "bpf_struct_ops_hid_bpf_ops",
						    BTF_KIND_STRUCT);
	ops_id = btf__find_by_name_kind(btf, "hid_bpf_ops", BTF_KIND_STRUCT);
	if (lay->value_type_id < 0 || ops_id < 0)
		goto out;
	t = btf__type_by_id(btf, lay->value_type_id);
	lay->value_size = t->size;
	lay->state = member_offset(btf, lay->value_type_id, "state");
	lay->data = member_offset(btf, lay->value_type_id, "data");
	lay->hid_id = member_offset(btf, ops_id, "hid_id");
	lay->flags = member_offset(btf, ops_id, "flags");
	if (lay->state < 0 || lay->data < 0 || lay->hid_id < 0 || lay->flags < 0)
		goto out;
	/* The fields read from a map value must lie inside it. */
	if ((size_t)lay->state + sizeof(__u32) > lay->value_size ||
	    (size_t)lay->data + (size_t)lay->hid_id + sizeof(__s32) > lay->value_size)
		goto out;
	for (int i = 0; i < 3; i++) {
		lay->hooks[i] = member_offset(btf, ops_id, hook_members[i]);
		if (lay->hooks[i] < 0)
			goto out;
	}
	r = 0;
out:
	btf__free(btf);
	return r;
}

int ops_map_is_hid(const struct ops_layout *lay, int fd)
{
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
		return -errno;
	return info.type == BPF_MAP_TYPE_STRUCT_OPS &&
	       info.btf_vmlinux_value_type_id == (uint32_t)lay->value_type_id &&
	       info.value_size == lay->value_size;
}

/* Is the hid_bpf_ops map behind FD (ops_map_is_hid) registered, naming
 * hid_id? One lookup of its only element. 1 yes, 0 no, or -errno. When
 * INPUT is given, it tells whether the hid_device_event member names a
 * program. */
int ops_map_registered(const struct ops_layout *lay, int fd, uint32_t hid_id, bool *input)
{
	_cleanup_free_ uint8_t *value = calloc(1, lay->value_size);
	uint32_t key = 0, state;
	uint64_t event_prog;
	int32_t id;

	if (!value)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, &key, value) < 0)
		return -errno;
	memcpy(&state, value + lay->state, sizeof(state));
	memcpy(&id, value + lay->data + lay->hid_id, sizeof(id));
	memcpy(&event_prog, value + lay->data + lay->hooks[0], sizeof(event_prog));
	if (input)
		*input = event_prog != 0;
	return state == STRUCT_OPS_STATE_INUSE && (uint32_t)id == hid_id;
}

int fw_count_device_ops(uint32_t hid_id, int *with_input)
{
	struct ops_layout lay;
	__u32 id = 0;
	int count = 0, inputs = 0, r;

	/* Listing map IDs needs CAP_SYS_ADMIN: ask before reading the
	 * kernel's BTF, and tell the caller when the kernel refuses
	 * rather than count nothing. */
	if (bpf_map_get_next_id(0, &id) < 0)
		return errno == ENOENT ? 0 : -errno;
	r = ops_layout_read(&lay);
	if (r < 0)
		return r;
	do {
		_cleanup_close_ int fd = bpf_map_get_fd_by_id(id);
		bool input = false;

		if (fd < 0) {
			if (errno == ENOENT)	/* freed since it was listed */
				continue;
			return -errno;
		}
		r = ops_map_is_hid(&lay, fd);
		if (r == 1)
			r = ops_map_registered(&lay, fd, hid_id, &input);
		if (r < 0)
			return r;
		count += r;
		inputs += r && input;
	} while (bpf_map_get_next_id(id, &id) == 0);
	if (errno != ENOENT)
		return -errno;
	if (with_input)
		*with_input = inputs;
	return count;
}
