// SPDX-License-Identifier: GPL-2.0-or-later
/* The last policy that loaded, kept on disk: see saved_policy.h. */
#include "saved_policy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"

/*
 * No symbolic link is followed here, below the parent directory of the
 * copy (/var/lib/hid-policy, itself opened O_NOFOLLOW): every name is
 * opened, made, renamed and removed relative to a directory descriptor,
 * with O_NOFOLLOW. A link planted where a copy lives is removed as a link
 * and never leads the daemon, which runs as root, to remove, write or read
 * the files it points at.
 */

/* Open directory NAME (relative to AT) unless it is a link: -ELOOP then
 * (O_DIRECTORY makes the kernel say ENOTDIR), -ENOTDIR for another file. */
static int open_dir_nofollow(int at, const char *name)
{
	struct stat st;
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	if (errno == ENOTDIR && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return -ELOOP;
	return -errno;
}

/* DIR without the slashes that may end it ("/var/lib/x/"), malloc'd. */
static char *trim_slashes(const char *dir)
{
	char *copy = strdup(dir);
	size_t n = copy ? strlen(copy) : 0;

	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	return copy;
}

/* Open DIR's parent, made when missing with MAKE (one level), and point
 * *BASE at DIR's last component. */
static int open_parent(const char *dir, bool make, const char **base)
{
	_cleanup_free_ char *parent = strdup(dir);
	char *slash;

	if (!parent)
		return -ENOMEM;
	slash = strrchr(parent, '/');
	*base = slash ? dir + (slash - parent) + 1 : dir;
	if (!**base || !strcmp(*base, ".") || !strcmp(*base, ".."))
		return -EINVAL;
	if (!slash)
		strcpy(parent, ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	if (make && mkdir(parent, 0755) < 0 && errno != EEXIST)
		return -errno;
	return open_dir_nofollow(AT_FDCWD, parent);
}

/* Remove NAME (in directory PARENT) and the files in it (no subdirectories
 * are made here). A link or a file at NAME is removed itself. */
static int remove_entry(int parent, const char *name)
{
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno != ELOOP && errno != ENOTDIR)
			return -errno;
		return unlinkat(parent, name, 0) < 0 && errno != ENOENT ? -errno : 0;
	}
	d = fdopendir(fd);
	if (!d) {
		int r = -errno;

		close(fd);
		return r;
	}
	/* Unlinked relative to the directory opened: should NAME be swapped
	 * for a link meanwhile, the link's target is not what is emptied. */
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	return unlinkat(parent, name, AT_REMOVEDIR) < 0 ? -errno : 0;
}

static int write_file(int dirfd, const char *name, const char *text, size_t len)
{
	_cleanup_close_ int fd = -1;
	size_t done = 0;

	/* A policy file's name is its base name, *.json: never a path. */
	if (!name[0] || strchr(name, '/') || name[0] == '.')
		return -EINVAL;
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	return fsync(fd) < 0 ? -errno : 0;
}

int saved_policy_store(const char *dir_given, const struct policy *p)
{
	_cleanup_free_ char *dir = trim_slashes(dir_given), *next = NULL;
	_cleanup_close_ int parent = -1, fd = -1;
	const char *base;
	int r;

	if (!dir)
		return -ENOMEM;
	parent = open_parent(dir, true, &base);
	if (parent < 0)
		return parent;
	if (asprintf(&next, "%s.new", base) < 0)
		return -ENOMEM;
	r = remove_entry(parent, next);	/* left by a crash */
	if (r < 0)
		return r;
	if (mkdirat(parent, next, 0755) < 0)
		return -errno;
	fd = openat(parent, next, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < p->n_files; i++) {
		r = write_file(fd, p->files[i].name, p->files[i].text, p->files[i].len);
		if (r < 0) {
			remove_entry(parent, next);
			return r;
		}
	}
	if (fsync(fd) < 0)
		return -errno;
	/* Swap the new copy in; the old one, now at NEXT, goes. */
	if (renameat2(parent, next, parent, base, RENAME_EXCHANGE) == 0)
		r = remove_entry(parent, next);
	else if (errno != ENOENT)
		return -errno;
	else if (renameat(parent, next, parent, base) < 0)
		return -errno;
	if (r < 0)
		return r;
	return fsync(parent) < 0 ? -errno : 0;
}

/* Every entry of the copy is a file the daemon wrote: a link (or anything
 * else) is refused before the policy loader opens the files by name. */
static int check_entries(int fd, const char *dir, struct diag *diag)
{
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	struct stat st;
	int dup_fd = dup(fd);

	if (dup_fd < 0)
		return -errno;
	d = fdopendir(dup_fd);
	if (!d) {
		int r = -errno;

		close(dup_fd);
		return r;
	}
	while ((errno = 0, de = readdir(d))) {
		_cleanup_free_ char *path = NULL;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		if (S_ISREG(st.st_mode))
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
			return -ENOMEM;
		diag_error(diag, path, NULL,
			   "refused: not a regular file; the daemon keeps only the files it read here");
		return S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL;
	}
	return errno ? -errno : 0;
}

int saved_policy_load(const char *dir_given, struct diag *diag, struct policy **ret)
{
	_cleanup_free_ char *dir = trim_slashes(dir_given);
	_cleanup_close_ int parent = -1, fd = -1;
	const char *base;
	int r;

	*ret = NULL;
	if (!dir)
		return -ENOMEM;
	parent = open_parent(dir, false, &base);
	if (parent < 0)
		return parent;
	fd = open_dir_nofollow(parent, base);
	if (fd < 0)
		return fd;
	r = check_entries(fd, dir, diag);
	if (r < 0)
		return r;
	/* The loader opens DIR by name again: only who can write DIR's
	 * parent could swap it meanwhile, and the loader refuses a copy
	 * whose directories anyone but root can write. */
	return policy_load_dirs((const char *const *)&dir, 1, true, diag, ret);
}
