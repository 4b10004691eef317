// SPDX-License-Identifier: GPL-2.0-or-later
/* The audit log's rotated files; see log_files.h. */
#include "log_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"

struct rotated {
	char *path;
	unsigned long number;	/* audit.jsonl.N: higher is older */
	char date[16];		/* audit.jsonl-DATE: "" for numbered ones */
};

/* Oldest first: dated files by date, then numbered ones from the highest. */
static int oldest_first(const void *a, const void *b)
{
	const struct rotated *x = a, *y = b;

	if (x->date[0] && y->date[0])
		return strcmp(x->date, y->date);
	if (x->date[0] != y->date[0])
		return x->date[0] ? -1 : 1;
	return x->number < y->number ? 1 : x->number > y->number ? -1 : 0;
}

/* Is NAME BASE.N[.gz] or BASE-DATE[.gz] (DATE: digits)? */
static bool rotated_name(const char *name, const char *base, struct rotated *out)
{
	size_t blen = strlen(base), len = strlen(name), digits;
	const char *rest;

	if (strncmp(name, base, blen) || (name[blen] != '.' && name[blen] != '-'))
		return false;
	rest = name + blen + 1;
	if (len > 3 && !strcmp(name + len - 3, ".gz"))
		len -= 3;
	digits = (size_t)(name + len - rest);
	if (digits == 0 || digits >= sizeof(out->date) || strspn(rest, "0123456789") != digits)
		return false;
	if (name[blen] == '-') {
		memcpy(out->date, rest, digits);
		out->date[digits] = '\0';
		out->number = 0;
	} else {
		out->date[0] = '\0';
		out->number = strtoul(rest, NULL, 10);
	}
	return true;
}

/* An audit-log time as seconds since the epoch, or -1. */
static time_t logged_time(const char *since)
{
	struct tm tm = {};
	const char *end;

	if (!since || !since[0])
		return -1;
	end = strptime(since, "%Y-%m-%dT%H:%M:%S", &tm);
	return end ? timegm(&tm) : -1;
}

void log_files_free(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

int log_files_rotated(const char *path, const char *since, char ***ret, size_t *n)
{
	_cleanup_free_ char *dir = strdup(path);
	_cleanup_closedir_ DIR *d = NULL;
	struct rotated *list = NULL;
	size_t count = 0, cap = 0;
	time_t from = logged_time(since);
	const char *base;
	char **files;
	struct dirent *de;
	char *slash;
	int r = 0;

	*ret = NULL;
	*n = 0;
	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash == dir) {
		base = path + 1;
		dir[1] = '\0';
	} else if (slash) {
		*slash = '\0';
		base = slash + 1;
	} else {
		free(dir);
		dir = strdup(".");
		base = path;
		if (!dir)
			return -ENOMEM;
	}
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		struct rotated rot;
		struct stat st;

		if (!rotated_name(de->d_name, base, &rot))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		/* written last before SINCE: nothing in it is as recent */
		if (from >= 0 && st.st_mtime < from)
			continue;
		if (GROW(list, count, cap) < 0 ||
		    asprintf(&rot.path, "%s/%s", strcmp(dir, "/") ? dir : "", de->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		list[count++] = rot;
	}
	if (r == 0 && count) {
		qsort(list, count, sizeof(*list), oldest_first);
		files = calloc(count, sizeof(*files));
		if (!files) {
			r = -ENOMEM;
		} else {
			for (size_t i = 0; i < count; i++)
				files[i] = TAKE_PTR(list[i].path);
			*ret = files;
			*n = count;
		}
	}
	for (size_t i = 0; i < count; i++)
		free(list[i].path);
	free(list);
	return r;
}

int log_reader_open(struct log_reader *r, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	r->gz = NULL;
	if (fd < 0)
		return -errno;
	/* zlib reads a file that is not compressed as it is */
	r->gz = gzdopen(fd, "rb");
	if (!r->gz) {
		close(fd);
		return -ENOMEM;
	}
	return 0;
}

ssize_t log_reader_read(struct log_reader *r, void *buf, size_t size)
{
	int n, err;

	if (size > INT_MAX)
		size = INT_MAX;
	n = gzread(r->gz, buf, (unsigned int)size);
	if (n > 0)
		return n;
	/* the end, or an error (a compressed file cut short ends with
	 * Z_BUF_ERROR and no data) */
	gzerror(r->gz, &err);
	if (n == 0 && err == Z_OK)
		return 0;
	return err == Z_ERRNO ? -errno : -EBADMSG;
}

void log_reader_close(struct log_reader *r)
{
	if (r->gz)
		gzclose_r(r->gz);
	r->gz = NULL;
}
