// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which files make the policy: every *.json of the configuration directories,
 * a later directory's file replacing an earlier one of the same name, read in
 * lexical order of names. One broken file rejects the whole set.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "policy_internal.h"
#include "trusted_file.h"

#define POLICY_FILE_MAX (4u << 20)

/* What a refused file or directory is told with. */
#define UNTRUSTED_HINT "only root may be able to change policy files and the directories above them"

struct source {
	char *name;
	char *path;
};

struct sources {
	struct source *v;
	size_t n, cap;
};

static void sources_done(struct sources *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].path);
	}
	free(s->v);
}

/*
 * Rule files end in ".json" and do not start with a dot. schema.json, the
 * JSON Schema kept next to the vendor files in the source tree, is no rule
 * file.
 */
static bool is_policy_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && !strcmp(name + len - 5, ".json");
}

/* Not read, and said so: "10-local.json~", "10-local.json.dpkg-old" or a
 * "README" is no rule file, and whoever left it there may think it is. */
static bool is_ignored_quietly(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "schema.json");
}

/* Add or replace NAME with DIR/NAME. */
static int sources_put(struct sources *s, const char *dir, const char *name)
{
	char *path;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name)) {
			free(s->v[i].path);
			s->v[i].path = path;
			return 0;
		}
	if (GROW(s->v, s->n, s->cap) < 0) {
		free(path);
		return -ENOMEM;
	}
	s->v[s->n] = (struct source){ .name = strdup(name), .path = path };
	if (!s->v[s->n].name) {
		free(path);
		return -ENOMEM;
	}
	s->n++;
	return 0;
}

static int scan_dir(struct sources *s, const char *dir, bool required, struct diag *diag)
{
	_cleanup_closedir_ DIR *d = opendir(dir);
	struct dirent *de;
	int r;

	char why[PATH_MAX + 64];

	if (!d) {
		if (errno == ENOENT && !required)
			return 0;
		diag_error(diag, dir, NULL, "cannot open directory: %s", strerror(errno));
		return -errno;
	}
	r = trusted_dir_check(dir, geteuid(), why, sizeof(why));
	if (r < 0) {
		diag_error(diag, dir, NULL, "refused: %s; %s", why, UNTRUSTED_HINT);
		return r;
	}
	while ((errno = 0, de = readdir(d))) {
		if (is_ignored_quietly(de->d_name))
			continue;
		if (!is_policy_name(de->d_name)) {
			_cleanup_free_ char *path = NULL;

			if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
				return -ENOMEM;
			diag_warning(diag, path, NULL,
				     "not read: rule files are named *.json (and do not start with a dot)");
			continue;
		}
		r = sources_put(s, dir, de->d_name);
		if (r < 0)
			return r;
	}
	if (errno) {
		diag_error(diag, dir, NULL, "cannot read directory: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

static int cmp_sources(const void *a, const void *b)
{
	return strcmp(((const struct source *)a)->name, ((const struct source *)b)->name);
}

/* Read PATH whole into *ret (NUL-terminated) and its length into *len. */
static int read_file(const char *path, char **ret, size_t *len, struct diag *diag)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	char why[PATH_MAX + 64];
	struct stat st;
	size_t n = 0;
	ssize_t k;
	int r;

	if (fd < 0 || fstat(fd, &st) < 0) {
		diag_error(diag, path, NULL, "cannot read: %s", strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_error(diag, path, NULL, "not a regular file");
		return -EINVAL;
	}
	r = trusted_file_check(fd, path, geteuid(), why, sizeof(why));
	if (r < 0) {
		diag_error(diag, path, NULL, "refused: %s; %s", why, UNTRUSTED_HINT);
		return r;
	}
	if ((size_t)st.st_size > POLICY_FILE_MAX) {
		diag_error(diag, path, NULL, "larger than %u bytes", POLICY_FILE_MAX);
		return -EFBIG;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	while (n < (size_t)st.st_size) {
		k = read(fd, buf + n, (size_t)st.st_size - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			diag_error(diag, path, NULL, "cannot read: %s", strerror(errno));
			return -errno;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	buf[n] = 0;
	*len = n;
	*ret = TAKE_PTR(buf);
	return 0;
}

/* Validate what was parsed; hand the policy over only when no message
 * since ERRORS is an error. */
static int policy_load_finish(struct policy **p, size_t errors, struct diag *diag,
			      struct policy **ret)
{
	int r = policy_validate(*p, diag);

	if (r == -ENOMEM)
		return r;
	r = policy_resolve_units(*p, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		diag_error(diag, NULL, NULL, "cannot look up the cgroups of the units the senders name in %s: %s",
			   policy_cgroup_root() ?: "/sys/fs/cgroup", strerror(-r));
	if ((*p)->dry_run)
		policy_assume_units(*p);
	if (diag->n_errors > errors)
		return -EINVAL;
	*ret = TAKE_PTR(*p);
	return 0;
}

static int load_dirs(const char *const *dirs, size_t n_dirs, bool require_dirs, bool dry_run,
		     struct diag *diag, struct policy **ret)
{
	_cleanup_(sources_done) struct sources s = {};
	_cleanup_policy_ struct policy *p = policy_new();
	size_t errors = diag->n_errors;
	int r;

	*ret = NULL;
	if (!p)
		return -ENOMEM;
	p->dry_run = dry_run;
	for (size_t i = 0; i < n_dirs; i++) {
		r = scan_dir(&s, dirs[i], require_dirs, diag);
		if (r == -ENOMEM)
			return r;
	}
	if (s.n > 1)	/* s.v is NULL when no file was found */
		policy_sort(s.v, s.n, sizeof(*s.v), cmp_sources);

	for (size_t i = 0; i < s.n; i++) {
		_cleanup_free_ char *buf = NULL;
		size_t len = 0;

		r = read_file(s.v[i].path, &buf, &len, diag);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			continue;
		r = policy_parse_buffer(p, s.v[i].name, s.v[i].path, buf, len, diag);
		if (r == -ENOMEM)
			return r;
	}
	return policy_load_finish(&p, errors, diag, ret);
}

int policy_load_dirs(const char *const *dirs, size_t n_dirs, bool require_dirs,
		     struct diag *diag, struct policy **ret)
{
	return load_dirs(dirs, n_dirs, require_dirs, false, diag, ret);
}

int policy_load_dirs_dry_run(const char *const *dirs, size_t n_dirs, bool require_dirs,
			     struct diag *diag, struct policy **ret)
{
	return load_dirs(dirs, n_dirs, require_dirs, true, diag, ret);
}

int policy_load_buffer(const char *name, const char *buf, size_t len,
		       struct diag *diag, struct policy **ret)
{
	_cleanup_policy_ struct policy *p = policy_new();
	size_t errors = diag->n_errors;
	int r;

	*ret = NULL;
	if (!p)
		return -ENOMEM;
	r = policy_parse_buffer(p, name, name, buf, len, diag);
	if (r == -ENOMEM)
		return r;
	return policy_load_finish(&p, errors, diag, ret);
}
