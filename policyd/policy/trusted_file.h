/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * May a policy file be trusted? Only when nobody but root (or SELF, the
 * user running a check) can change it or any directory on the real path to
 * it, by their modes or their POSIX ACLs. WHY (SIZE bytes) says what is
 * wrong otherwise.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

/* FD is the file opened by PATH. Returns 0, -EPERM when someone else could
 * change it, -ESTALE when PATH no longer leads to FD's file, or -errno. */
int trusted_file_check(int fd, const char *path, uid_t self, char *why, size_t size);

/* The same for a directory of policy files and the directories above it. */
int trusted_dir_check(const char *dir, uid_t self, char *why, size_t size);
