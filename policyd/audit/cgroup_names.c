// SPDX-License-Identifier: GPL-2.0-or-later
/* Cgroup ids named by their path and unit; see cgroup_names.h. */
#include "cgroup_names.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "common/util.h"

/* statfs(2)'s f_type of cgroup2 (linux/magic.h) */
#define CGROUP2_MAGIC 0x63677270

/* Deeper than any unit's cgroup, with the cgroups it delegates. */
#define WALK_DEPTH_MAX 32

struct walk {
	uint64_t id;
	char *path;		/* built as the walk descends */
	size_t size;
};

static int path_append(struct walk *w, size_t len, const char *name, size_t *out)
{
	size_t n = strlen(name);

	if (len + 1 + n >= w->size)
		return -ENAMETOOLONG;
	w->path[len] = '/';
	memcpy(w->path + len + 1, name, n + 1);
	*out = len + 1 + n;
	return 0;
}

/* Look below DIR (whose path is w->path[0..len)) for w->id. Returns 1
 * when found (w->path names it), 0 when not, or a negative errno. */
static int walk_below(struct walk *w, int dir, size_t len, unsigned int depth)
{
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	int fd = dup(dir);

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return -e;
	}
	while ((de = readdir(d))) {
		_cleanup_close_ int sub = -EBADF;
		struct stat st;
		size_t sublen;
		int r;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || fstat(sub, &st) < 0)
			continue;	/* removed meanwhile */
		/* Made after the cgroup looked for, as all below it were. */
		if ((uint64_t)st.st_ino > w->id)
			continue;
		r = path_append(w, len, de->d_name, &sublen);
		if (r < 0)
			return r;
		if ((uint64_t)st.st_ino == w->id)
			return 1;
		if (depth + 1 < WALK_DEPTH_MAX) {
			r = walk_below(w, sub, sublen, depth + 1);
			if (r)
				return r;
		}
		w->path[len] = '\0';
	}
	return 0;
}

/* The cgroup2 hierarchy: at ROOT, or (systemd's hybrid layout) in
 * ROOT/unified. Another file system's inode numbers are no cgroup ids. */
static int open_cgroup2(const char *root)
{
	char unified[PATH_MAX];
	struct statfs sf;
	int fd;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &sf) == 0 && sf.f_type == CGROUP2_MAGIC)
		return fd;
	close(fd);
	snprintf(unified, sizeof(unified), "%s/unified", root);
	fd = open(unified, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstatfs(fd, &sf) == 0 && sf.f_type == CGROUP2_MAGIC)
		return fd;
	close(fd);
	return -ENOENT;
}

static int find(const char *root, uint64_t id, char *path, size_t size)
{
	_cleanup_close_ int fd = open_cgroup2(root);
	struct walk w = { .id = id, .path = path, .size = size };
	struct stat st;
	int r;

	if (size < 2)
		return -ENAMETOOLONG;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	path[0] = '\0';
	if ((uint64_t)st.st_ino == id) {
		strcpy(path, "/");
		return 0;
	}
	r = walk_below(&w, fd, 0, 0);
	return r == 1 ? 0 : r ? r : -ENOENT;
}

int cgroup_names_path(struct cgroup_names *c, uint64_t id, char *path, size_t size)
{
	char found[CGROUP_PATH_MAX];
	size_t slot;
	int r;

	for (size_t i = 0; i < c->n; i++)
		if (c->kept[i].id == id) {
			if (!c->kept[i].path[0])
				return -ENOENT;
			if (strlen(c->kept[i].path) >= size)
				return -ENAMETOOLONG;
			strcpy(path, c->kept[i].path);
			return 0;
		}
	/* A cgroup not found is gone for good (its id is never given out
	 * again): kept too, so that a flood of its records walks once. */
	r = find(c->root ?: "/sys/fs/cgroup", id, found, sizeof(found));
	if (r == -ENOENT)
		found[0] = '\0';
	else if (r < 0)
		return r;
	else if (strlen(found) >= size)
		return -ENAMETOOLONG;
	else
		strcpy(path, found);
	if (c->n < CGROUP_NAMES_KEPT) {
		slot = c->n++;
	} else {
		slot = c->next;
		c->next = (c->next + 1) % CGROUP_NAMES_KEPT;
	}
	c->kept[slot].id = id;
	strcpy(c->kept[slot].path, found);
	return found[0] ? 0 : -ENOENT;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n > k && !memcmp(s + n - k, suffix, k);
}

size_t cgroup_unit_of_path(const char *path, char *unit, size_t size)
{
	const char *p = path;

	while (*p) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (!n)
			break;
		if (ends_with(p, n, ".slice")) {
			p += n;
			continue;
		}
		if (!ends_with(p, n, ".service") && !ends_with(p, n, ".scope"))
			return 0;
		if (n >= size)
			return 0;
		memcpy(unit, p, n);
		unit[n] = '\0';
		return n;
	}
	return 0;
}
