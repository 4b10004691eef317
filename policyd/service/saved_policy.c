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

/* Remove DIR and the files in it (no subdirectories are made here). */
static int remove_dir(const char *dir)
{
	_cleanup_closedir_ DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' || (de->d_name[1] && strcmp(de->d_name, "..")))
			unlinkat(dirfd(d), de->d_name, 0);
	return rmdir(dir) < 0 ? -errno : 0;
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

/* Create DIR's parent (one level: /var/lib/hid-policy) when missing. */
static int make_parent(const char *dir)
{
	_cleanup_free_ char *parent = strdup(dir);
	char *slash;

	if (!parent)
		return -ENOMEM;
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return 0;
	*slash = '\0';
	return mkdir(parent, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

int saved_policy_store(const char *dir, const struct policy *p)
{
	_cleanup_free_ char *next = NULL;
	_cleanup_close_ int fd = -1;
	int r;

	if (asprintf(&next, "%s.new", dir) < 0)
		return -ENOMEM;
	r = make_parent(dir);
	if (r < 0)
		return r;
	r = remove_dir(next);	/* left by a crash */
	if (r < 0)
		return r;
	if (mkdir(next, 0755) < 0)
		return -errno;
	fd = open(next, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < p->n_files; i++) {
		r = write_file(fd, p->files[i].name, p->files[i].text, p->files[i].len);
		if (r < 0) {
			remove_dir(next);
			return r;
		}
	}
	if (fsync(fd) < 0)
		return -errno;
	/* Swap the new copy in; the old one, now at NEXT, goes. */
	if (renameat2(AT_FDCWD, next, AT_FDCWD, dir, RENAME_EXCHANGE) == 0)
		return remove_dir(next);
	if (errno != ENOENT)
		return -errno;
	return rename(next, dir) < 0 ? -errno : 0;
}

int saved_policy_load(const char *dir, struct diag *diag, struct policy **ret)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return -errno;
	return policy_load_dirs(&dir, 1, true, diag, ret);
}
