// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel tests' shared pieces; see kernel_fixture.h. */
#include <sys/utsname.h>

#include "kernel_fixture.h"
#include "harness.h"
#include "hid_bpf_loader.h"

void kt_make_device(struct uhid_dev *dev, const char *name, const uint8_t *rdesc, size_t size)
{
	const struct uhid_dev_config cfg = {
		.name = name,
		.vendor = KT_VENDOR,
		.product = KT_PRODUCT,
		.rdesc = rdesc,
		.rdesc_size = size,
	};

	CHECK_OK(uhid_dev_create(dev, &cfg));
}

struct bpf_link *kt_attach(struct bpf_object *obj, const char *map)
{
	struct bpf_link *link = NULL;

	CHECK_OK(hbt_attach(obj, map, &link));
	return link;
}

int kt_open_hidraw(struct uhid_dev *dev, int flags)
{
	int fd = uhid_dev_open_hidraw(dev, flags);

	CHECK_OK(fd);
	return fd;
}

/*
 * "port", "upstream", "latest", "upstream-fixed", "latest-fixed", or what
 * the release suggests.
 */
static const char *kernel_name(void)
{
	const char *name = getenv("HID_POLICY_KERNEL_NAME");
	static struct utsname u;

	if (name && *name)
		return name;
	CHECK_OK(uname(&u));
	return !strncmp(u.release, "6.1.", 4) ? "port" : "upstream";
}

void kt_port_extension(const char *what)
{
	if (strcmp(kernel_name(), "port"))
		SKIP("port extension, not in upstream HID-BPF: %s", what);
}

bool kt_is_upstream(void)
{
	return !strcmp(kernel_name(), "upstream") || !strcmp(kernel_name(), "latest");
}


bool kt_is_7x(void)
{
	return !strncmp(kernel_name(), "latest", 6);
}

uint32_t kt_global_u32(struct bpf_object *obj, const char *var)
{
	uint32_t v = 0;

	CHECK_OK(hbt_read_global(obj, var, &v, sizeof(v)));
	return v;
}

uint64_t kt_global_u64(struct bpf_object *obj, const char *var)
{
	uint64_t v = 0;

	CHECK_OK(hbt_read_global(obj, var, &v, sizeof(v)));
	return v;
}

int32_t kt_global_s32(struct bpf_object *obj, const char *var)
{
	return (int32_t)kt_global_u32(obj, var);
}
