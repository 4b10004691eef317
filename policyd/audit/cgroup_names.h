/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cgroup2 id, as the firewall records it, named: the cgroup's path and
 * the systemd unit that path names.
 *
 * A cgroup's id is the inode number of its directory in the cgroup2 file
 * system, and ids only grow (the kernel never gives one out twice), so an
 * id is named by walking /sys/fs/cgroup for the directory with that inode
 * number, never entering one whose number is already larger: its
 * descendants came later, and have larger ones still. Opening the cgroup
 * by its file handle would take CAP_DAC_READ_SEARCH, which the daemon does
 * not keep. Names found are kept (an id names one cgroup for good); a
 * cgroup already removed has no name.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CGROUP_NAMES_KEPT 64
#define CGROUP_PATH_MAX 512

struct cgroup_names {
	const char *root;		/* NULL: /sys/fs/cgroup */
	struct {
		uint64_t id;
		char path[CGROUP_PATH_MAX];	/* "/system.slice/fwupd.service" */
	} kept[CGROUP_NAMES_KEPT];
	size_t n, next;
};

/* The path of cgroup ID below the cgroup2 root ("/" for the root), into
 * PATH. Returns 0, -ENOENT when no cgroup has that id now, -ENAMETOOLONG,
 * or another negative errno of the walk. */
int cgroup_names_path(struct cgroup_names *c, uint64_t id, char *path, size_t size);

/*
 * The systemd unit the cgroup PATH is in, as systemd alone could have
 * made it: the first component of the path that is not a slice, when every
 * one before it is a slice ("/system.slice/fwupd.service/x" is in
 * fwupd.service; "/user.slice/user-1000.slice/user@1000.service/app.slice/
 * fwupd.service" is in user@1000.service, the user's own manager, who may
 * name a cgroup below it anything). Only a service or a scope is a unit
 * here. Returns its length, 0 when the path names none (or UNIT is too
 * small).
 */
size_t cgroup_unit_of_path(const char *path, char *unit, size_t size);
