// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a policy file can be trusted: only root (or the user running a
 * check, for drafts of their own) may be able to change it, or any
 * directory on the way to it, as sshd's StrictModes and sudo ask of their
 * files. A user who could write one of them could lift the firewall.
 *
 * The check follows where the file really is: a symbolic link in
 * /etc/hid-policy.d to a file in someone's home directory is refused for
 * that home directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util.h"
#include "trusted_file.h"

/* WHY says what failed on PATH, with errno's text; returns -errno. */
static int say_errno(char *why, size_t size, const char *what, const char *path)
{
	int e = errno;

	snprintf(why, size, "%s %s: %s", what, path, strerror(e));
	return -e;
}

static bool trusted_owner(uid_t uid, uid_t self)
{
	return uid == 0 || uid == self;
}

/*
 * Who other than a trusted owner can change the object ST describes, said in
 * WHY; or NULL. A directory with the sticky bit (/tmp) may be writable by
 * all: they can add names to it, but not replace the ones it already has,
 * and the path below it is checked on its own.
 */
static bool untrusted(const struct stat *st, const char *path, uid_t self,
		      char *why, size_t size)
{
	bool shared_dir = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);

	if (!trusted_owner(st->st_uid, self)) {
		snprintf(why, size, "%s is owned by uid %u", path, (unsigned)st->st_uid);
		return true;
	}
	if ((st->st_mode & S_IWOTH) && !shared_dir) {
		snprintf(why, size, "%s is writable by every user (mode %04o)", path,
			 (unsigned)(st->st_mode & 07777));
		return true;
	}
	if ((st->st_mode & S_IWGRP) && st->st_gid != 0 && !shared_dir) {
		snprintf(why, size, "%s is writable by group %u (mode %04o)", path,
			 (unsigned)st->st_gid, (unsigned)(st->st_mode & 07777));
		return true;
	}
	return false;
}

/* Check every directory from / down to REAL, REAL included. REAL is an
 * absolute path without symbolic links, "." or ".."; it is cut in place
 * and restored. */
static int check_directories(char *real, uid_t self, char *why, size_t size)
{
	size_t len = strlen(real);
	struct stat st;

	if (stat("/", &st) < 0)
		return say_errno(why, size, "cannot check", "/");
	if (untrusted(&st, "/", self, why, size))
		return -EPERM;
	for (size_t i = 1; i <= len; i++) {
		char saved = real[i];
		int r = 0;

		if (saved != '/' && saved != '\0')
			continue;
		real[i] = '\0';
		if (stat(real, &st) < 0)
			r = say_errno(why, size, "cannot check", real);
		else if (untrusted(&st, real, self, why, size)) {
			r = -EPERM;
		}
		real[i] = saved;
		if (r < 0)
			return r;
	}
	return 0;
}

int trusted_dir_check(const char *dir, uid_t self, char *why, size_t size)
{
	_cleanup_free_ char *real = realpath(dir, NULL);

	if (!real)
		return say_errno(why, size, "cannot resolve", dir);
	return check_directories(real, self, why, size);
}

int trusted_file_check(int fd, const char *path, uid_t self, char *why, size_t size)
{
	_cleanup_free_ char *real = NULL;
	struct stat st, again;
	char *slash;

	if (fstat(fd, &st) < 0)
		return say_errno(why, size, "cannot check", path);
	real = realpath(path, NULL);
	if (!real)
		return say_errno(why, size, "cannot resolve", path);
	/* The name checked must lead to the file read. */
	if (stat(real, &again) < 0 || again.st_dev != st.st_dev || again.st_ino != st.st_ino) {
		snprintf(why, size, "%s changed while it was read", path);
		return -ESTALE;
	}
	if (untrusted(&st, real, self, why, size))
		return -EPERM;
	/* Its directory and those above it; a file right under / has only /. */
	slash = strrchr(real, '/');
	if (slash == real)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	return check_directories(real, self, why, size);
}
