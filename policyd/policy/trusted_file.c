// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a policy file can be trusted: only root (or the user running a
 * check, for drafts of their own) may be able to change it, or any
 * directory on the way to it, as sshd's StrictModes and sudo ask of their
 * files. A user who could write one of them could lift the firewall.
 *
 * The check follows where the file really is: a symbolic link in
 * /etc/hid-policy.d to a file in someone's home directory is refused for
 * that home directory. It reads POSIX ACLs too: with one, the mode's group
 * bits are the ACL's mask, and a user named in it can write a file whose
 * mode looks safe (root:root, 0664).
 */
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

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

/*
 * An access ACL as the kernel keeps it in this extended attribute (acl(5)):
 * a 4-byte version, then entries of a 2-byte tag, a 2-byte permission set
 * and a 4-byte user or group ID, all little-endian.
 */
#define ACL_XATTR		"system.posix_acl_access"
#define ACL_ENTRIES_MAX		256	/* more is refused: no policy file needs them */

struct acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

/* The number of entries of the ACL in BUF (LEN bytes), or -EBADMSG when it
 * is not one this code can read. */
static ssize_t acl_entries(const uint8_t *buf, size_t len)
{
	struct posix_acl_xattr_header h;

	if (len < sizeof(h) || (len - sizeof(h)) % sizeof(struct posix_acl_xattr_entry))
		return -EBADMSG;
	memcpy(&h, buf, sizeof(h));
	if (le32toh(h.a_version) != POSIX_ACL_XATTR_VERSION)
		return -EBADMSG;
	return (ssize_t)((len - sizeof(h)) / sizeof(struct posix_acl_xattr_entry));
}

/* Entry I, below the count acl_entries() gave, of the ACL in BUF. */
static struct acl_entry acl_entry_at(const uint8_t *buf, size_t i)
{
	struct posix_acl_xattr_entry e;

	memcpy(&e, buf + sizeof(struct posix_acl_xattr_header) + i * sizeof(e), sizeof(e));
	return (struct acl_entry){
		.tag = le16toh(e.e_tag), .perm = le16toh(e.e_perm), .id = le32toh(e.e_id),
	};
}

static bool acl_tag_known(uint16_t tag)
{
	return tag == ACL_USER_OBJ || tag == ACL_USER || tag == ACL_GROUP_OBJ || tag == ACL_GROUP ||
	       tag == ACL_MASK || tag == ACL_OTHER;
}

/*
 * Does E let someone other than a trusted owner write? A named user's or
 * group's entry, and the owning group's, write only as far as the mask
 * lets them (MASK_WRITE: it does, or there is no mask).
 */
static bool acl_lets_write(const struct acl_entry *e, bool mask_write, gid_t owning_gid,
			   uid_t self)
{
	if (!(e->perm & ACL_WRITE))
		return false;
	switch (e->tag) {
	case ACL_USER:
		return mask_write && !trusted_owner(e->id, self);
	case ACL_GROUP:
		return mask_write && e->id != 0;
	case ACL_GROUP_OBJ:
		return mask_write && owning_gid != 0;
	case ACL_OTHER:
		return true;
	}
	return false;	/* the owner (checked already), the mask (no one by itself) */
}

static void describe_acl_entry(const struct acl_entry *e, gid_t owning_gid, const char *path,
			       char *why, size_t size)
{
	char perm[4] = {
		e->perm & ACL_READ ? 'r' : '-', e->perm & ACL_WRITE ? 'w' : '-',
		e->perm & ACL_EXECUTE ? 'x' : '-', 0,
	};

	if (e->tag == ACL_USER)
		snprintf(why, size, "%s is writable by uid %u (ACL entry user:%u:%s)", path,
			 (unsigned)e->id, (unsigned)e->id, perm);
	else if (e->tag == ACL_GROUP)
		snprintf(why, size, "%s is writable by group %u (ACL entry group:%u:%s)", path,
			 (unsigned)e->id, (unsigned)e->id, perm);
	else if (e->tag == ACL_GROUP_OBJ)
		snprintf(why, size, "%s is writable by group %u (ACL entry group::%s)", path,
			 (unsigned)owning_gid, perm);
	else
		snprintf(why, size, "%s is writable by every user (ACL entry other::%s)", path, perm);
}

/* Who other than a trusted owner can write through the ACL in BUF, said in
 * WHY: -EPERM, or 0 when nobody can; -EBADMSG when it cannot be read. */
static int acl_untrusted(const uint8_t *buf, size_t len, const struct stat *st,
			 const char *path, uid_t self, char *why, size_t size)
{
	ssize_t n = acl_entries(buf, len);
	bool mask_write = true;

	if (n < 0) {
		snprintf(why, size, "%s has a POSIX ACL this program cannot read", path);
		return (int)n;
	}
	for (ssize_t i = 0; i < n; i++) {
		struct acl_entry e = acl_entry_at(buf, (size_t)i);

		/* a kind of entry unknown here might let anyone write */
		if (!acl_tag_known(e.tag)) {
			snprintf(why, size, "%s has a POSIX ACL entry of a kind this program does not know (tag 0x%x)",
				 path, e.tag);
			return -EBADMSG;
		}
		if (e.tag == ACL_MASK)
			mask_write = e.perm & ACL_WRITE;
	}
	for (ssize_t i = 0; i < n; i++) {
		struct acl_entry e = acl_entry_at(buf, (size_t)i);

		if (acl_lets_write(&e, mask_write, st->st_gid, self)) {
			describe_acl_entry(&e, st->st_gid, path, why, size);
			return -EPERM;
		}
	}
	return 0;
}

/*
 * The same test as untrusted(), on the access ACL of the object ST
 * describes: opened as FD, or at PATH when FD is negative. A file system
 * without ACLs, or an object without one, passes. A shared directory is
 * exempt here as there. Returns 0, -EPERM (WHY says who can write), or a
 * negative errno.
 */
static int acl_check(int fd, const char *path, const struct stat *st, uid_t self,
		     char *why, size_t size)
{
	uint8_t buf[sizeof(struct posix_acl_xattr_header) +
		    ACL_ENTRIES_MAX * sizeof(struct posix_acl_xattr_entry)];
	ssize_t len;

	if (S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX))
		return 0;
	len = fd >= 0 ? fgetxattr(fd, ACL_XATTR, buf, sizeof(buf)) :
			getxattr(path, ACL_XATTR, buf, sizeof(buf));
	if (len < 0 && (errno == ENODATA || errno == EOPNOTSUPP))
		return 0;
	if (len < 0 && errno == ERANGE) {
		snprintf(why, size, "%s has a POSIX ACL of more than %d entries", path, ACL_ENTRIES_MAX);
		return -EPERM;
	}
	if (len < 0)
		return say_errno(why, size, "cannot read the POSIX ACL of", path);
	return acl_untrusted(buf, (size_t)len, st, path, self, why, size);
}

/* Can someone other than a trusted owner change the object ST describes,
 * by its mode or by its ACL (FD and PATH as for acl_check())? */
static int check_object(int fd, const char *path, const struct stat *st, uid_t self,
			char *why, size_t size)
{
	if (untrusted(st, path, self, why, size))
		return -EPERM;
	return acl_check(fd, path, st, self, why, size);
}

/* Check every directory from / down to REAL, REAL included. REAL is an
 * absolute path without symbolic links, "." or ".."; it is cut in place
 * and restored. */
static int check_directories(char *real, uid_t self, char *why, size_t size)
{
	size_t len = strlen(real);
	struct stat st;
	int r;

	if (stat("/", &st) < 0)
		return say_errno(why, size, "cannot check", "/");
	r = check_object(-1, "/", &st, self, why, size);
	if (r < 0)
		return r;
	for (size_t i = 1; i <= len; i++) {
		char saved = real[i];

		if (saved != '/' && saved != '\0')
			continue;
		real[i] = '\0';
		if (stat(real, &st) < 0)
			r = say_errno(why, size, "cannot check", real);
		else
			r = check_object(-1, real, &st, self, why, size);
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
	int r;

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
	r = check_object(fd, real, &st, self, why, size);
	if (r < 0)
		return r;
	/* Its directory and those above it; a file right under / has only /. */
	slash = strrchr(real, '/');
	if (slash == real)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	return check_directories(real, self, why, size);
}
