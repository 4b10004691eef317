// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A rule's "sender": who sends the request. Users and groups are named or
 * numbered and resolved when the policy is read; an executable is a path,
 * matched by the file's identity (device and inode), so that a copy or a
 * link elsewhere does not match and a rename does. A systemd unit is matched
 * by its cgroup: a process is in the unit when the unit's cgroup is its own
 * or an ancestor of it, as the kernel numbers cgroups.
 *
 *	"sender": { "origin": "user", "group": ["gamepad-tools"],
 *		    "executable": "/usr/libexec/fwupd/fwupd" }
 *	"sender": { "unit": "fwupd.service" }
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdlib.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <linux/magic.h>

#include "common/util.h"
#include "policy_internal.h"

#define NAME_BUF 16384
#define UNIT_NAME_MAX 255	/* systemd's, without the NUL */

static const char *const origin_names[] = { "kernel", "user", NULL };

/* Each value of V (one, or a non-empty list of at most HID_SENDER_MAX_IDS),
 * given to FN with its own path. */
static int each_value(struct parse_ctx *c, const char *path, json_t *v, void *out,
		      int (*fn)(struct parse_ctx *c, const char *path, json_t *v, void *out))
{
	char sub[POLICY_PATH_MAX];
	size_t i;
	json_t *e;
	int r = 0;

	if (!json_is_array(v))
		return fn(c, path, v, out);
	if (json_array_size(v) == 0 || json_array_size(v) > HID_SENDER_MAX_IDS) {
		perr(c, path, "expected 1 to %d values, got %zu", HID_SENDER_MAX_IDS,
		     json_array_size(v));
		return -EINVAL;
	}
	json_array_foreach(v, i, e)
		if (fn(c, path_index(sub, sizeof(sub), path, i), e, out) < 0)
			r = -EINVAL;
	return r;
}

/* A uid or gid: a JSON integer, or a name looked up now. */
static int resolve_id(struct parse_ctx *c, const char *path, json_t *v, bool group,
		      uint32_t *ret)
{
	char d[64], buf[NAME_BUF];
	const char *name;
	bool known;
	int r;

	if (json_is_integer(v)) {
		json_int_t n = json_integer_value(v);

		if (n < 0 || n >= UINT32_MAX) {
			perr(c, path, "%lld is not a %s id", (long long)n, group ? "group" : "user");
			return -EINVAL;
		}
		*ret = (uint32_t)n;
		return 0;
	}
	if (!json_is_string(v) || !*(name = json_string_value(v))) {
		perr(c, path, "expected a %s name or id, got %s", group ? "group" : "user",
		     json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	if (group) {
		struct group gr, *found = NULL;

		r = getgrnam_r(name, &gr, buf, sizeof(buf), &found);
		if (found)
			*ret = (uint32_t)gr.gr_gid;
		known = found != NULL;
	} else {
		struct passwd pw, *found = NULL;

		r = getpwnam_r(name, &pw, buf, sizeof(buf), &found);
		if (found)
			*ret = (uint32_t)pw.pw_uid;
		known = found != NULL;
	}
	if (r) {
		perr(c, path, "cannot look up %s \"%s\": %s", group ? "group" : "user", name,
		     strerror(r));
		return -EINVAL;
	}
	if (!known && c->p->dry_run) {
		/* A dry run may be about another machine. */
		r = policy_assume_id(c->p, name, group, ret);
		if (r < 0) {
			perr(c, path, "cannot assume %s \"%s\": %s", group ? "group" : "user", name,
			     strerror(-r));
			return -EINVAL;
		}
		pnote(c, path, "assuming %s \"%s\" exists where the policy is used (there is none on this system); a daemon where it does not refuses the policy",
		      group ? "group" : "user", name);
		return 0;
	}
	if (!known) {
		perr(c, path, "no %s \"%s\" on this system", group ? "group" : "user", name);
		return -EINVAL;
	}
	return 0;
}

int policy_assume_id(struct policy *p, const char *name, bool group, uint32_t *ret)
{
	struct policy_assumed_name *a;
	uint32_t n = 0;

	for (size_t i = 0; i < p->n_assumed; i++) {
		if (p->assumed[i].group != group)
			continue;
		if (!strcmp(p->assumed[i].name, name)) {
			*ret = p->assumed[i].id;
			return 0;
		}
		n++;
	}
	if (n >= POLICY_ASSUMED_IDS_MAX)
		return -E2BIG;
	if (GROW(p->assumed, p->n_assumed, p->cap_assumed) < 0)
		return -ENOMEM;
	a = &p->assumed[p->n_assumed];
	*a = (struct policy_assumed_name){ .name = strdup(name), .id = POLICY_ASSUMED_ID_BASE + n,
					   .group = group };
	if (!a->name)
		return -ENOMEM;
	p->n_assumed++;
	*ret = a->id;
	return 0;
}

const char *policy_assumed_name(const struct policy *p, uint32_t id, bool group)
{
	for (size_t i = 0; p && i < p->n_assumed; i++)
		if (p->assumed[i].group == group && p->assumed[i].id == id)
			return p->assumed[i].name;
	return NULL;
}

static int add_uid(struct parse_ctx *c, const char *path, json_t *v, void *out)
{
	struct hid_rule_sender *s = out;
	uint32_t id = 0;

	if (resolve_id(c, path, v, false, &id) < 0)
		return -EINVAL;
	s->uids[s->n_uids++] = id;
	return 0;
}

static int add_gid(struct parse_ctx *c, const char *path, json_t *v, void *out)
{
	struct hid_rule_sender *s = out;
	uint32_t id = 0;

	if (resolve_id(c, path, v, true, &id) < 0)
		return -EINVAL;
	s->gids[s->n_gids++] = id;
	return 0;
}

/* FNV-1a: a path's stand-in for an identity it has nowhere here. */
static uint64_t path_hash(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		h = (h ^ *c) * 0x100000001b3ull;
	return h;
}

void policy_assumed_exe(const char *path, struct hid_rule_exe *ret)
{
	*ret = (struct hid_rule_exe){ .ino = path_hash(path), .dev = 0 };
}

bool policy_exe_is_assumed(const struct hid_rule_exe *e)
{
	return e->dev == 0;
}

uint64_t policy_assumed_cgroup(const char *path)
{
	return 1ull << 63 | (path_hash(path) >> 1);
}

/* The mount FD's file is on and the number of its VFS inode, as the
 * kernel shows them for an open file. *INO is left as it is on a kernel
 * that does not show the inode (older than any hid-policy supports). */
static int fd_mount_and_inode(int fd, int *mnt_id, uint64_t *ino)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	char path[64];
	size_t size = 0;
	unsigned long long n;
	bool have_mnt = false;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		if (sscanf(line, "mnt_id: %d", mnt_id) == 1)
			have_mnt = true;
		else if (sscanf(line, "ino: %llu", &n) == 1)
			*ino = n;
	}
	return have_mnt ? 0 : -EIO;
}

/* The device of the super block mounted as MNT_ID: mountinfo's
 * major:minor, in the kernel's encoding. */
static int mount_dev(int mnt_id, uint32_t *dev)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	size_t size = 0;
	unsigned int maj, min;
	int id;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0)
		if (sscanf(line, "%d %*d %u:%u", &id, &maj, &min) == 3 && id == mnt_id) {
			*dev = (maj & 0xfff) << 20 | (min & 0xfffff);
			return 0;
		}
	return -ENOENT;
}

int policy_exe_identity(const char *path, struct hid_rule_exe *ret)
{
	_cleanup_close_ int fd = -1;
	struct statfs fs;
	struct stat st;
	uint32_t dev;
	uint64_t ino;
	int mnt_id = -1, r;

	/* One open file answers every question below about one file. */
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	if (fstatfs(fd, &fs) < 0)
		return -errno;
	/* The firewall reads the device of the inode's super block (of its
	 * subvolume on btrfs, which stat() gives too) and the inode's number,
	 * in the kernel's dev_t encoding: 12 bits of major, 20 of minor. */
	dev = (uint32_t)((major(st.st_dev) & 0xfff) << 20 | (minor(st.st_dev) & 0xfffff));
	ino = (uint64_t)st.st_ino;
	if (fs.f_type == OVERLAYFS_SUPER_MAGIC) {
		/* A process runs the overlay's file, whose inode is the
		 * overlay's. stat() gives the overlay's device only when all
		 * layers are on one file system, or xino numbers them apart;
		 * otherwise it gives the layer's, while the inode number stays
		 * the layer's own and the firewall sees the overlay's device. */
		uint32_t layer_dev = dev;

		r = fd_mount_and_inode(fd, &mnt_id, &ino);
		if (r < 0)
			return r;
		r = mount_dev(mnt_id, &dev);
		if (r < 0)
			return r == -ENOENT ? -EIO : r;
		*ret = (struct hid_rule_exe){ .ino = ino, .dev = dev };
		return layer_dev != dev ? POLICY_EXE_LAYERS_SHARE : 0;
	}
	*ret = (struct hid_rule_exe){ .ino = ino, .dev = dev };
	return 0;
}

/* An absolute path to a regular file, by its identity. A file that is not
 * there (a program not installed) is a warning: the value matches nothing
 * until a reload after it is installed. A dry run, which may be about
 * another machine, assumes the file is there and says so. */
static int add_exe(struct parse_ctx *c, const char *path, json_t *v, void *out)
{
	struct hid_rule_sender *s = out;
	const char *file;
	char d[64];
	int r;

	if (!json_is_string(v) || (file = json_string_value(v))[0] != '/') {
		perr(c, path, "expected an absolute path, got %s", json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	r = policy_exe_identity(file, &s->exes[s->n_exes]);
	if ((r == -ENOENT || r == -ENOTDIR) && c->p->dry_run) {
		policy_assumed_exe(file, &s->exes[s->n_exes++]);
		pnote(c, path, "assuming %s is installed where the policy is used (not installed here); where it is not, the rule matches no process",
		      file);
		return 0;
	}
	if (r == -ENOENT || r == -ENOTDIR) {
		diag_warning(c->diag, c->file, path,
			     "%s: %s; it matches no process until the policy is reloaded with it installed",
			     file, strerror(-r));
		return 0;
	}
	if (r == -ENOEXEC) {
		perr(c, path, "%s is not a regular file", file);
		return -EINVAL;
	}
	if (r < 0) {
		perr(c, path, "%s: %s", file, strerror(-r));
		return -EINVAL;
	}
	if (r == POLICY_EXE_LAYERS_SHARE)
		diag_warning(c->diag, c->file, path,
			     "%s is on an overlay whose layers are on different file systems, without xino: a file of another layer with the same inode number is taken for it; name a unit as the sender",
			     file);
	s->n_exes++;
	return 0;
}

const char *policy_cgroup_root(void)
{
	static const char *const roots[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	struct statfs fs;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (statfs(roots[i], &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC)
			return roots[i];
	return NULL;
}

/* The characters systemd allows in a unit name. */
static bool unit_name_valid(const char *name, size_t len)
{
	if (len == 0 || len > UNIT_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_.\\@",
			    name[i]))
			return false;
	return true;
}

static bool has_suffix(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && !memcmp(s + len - n, suffix, n);
}

/*
 * Append the cgroup path of slice NAME (LEN bytes) to BUF, as systemd lays
 * slices out: "a-b.slice" is "a.slice/a-b.slice". The root slice "-.slice"
 * is refused: every process is in it.
 */
static int slice_path(const char *name, size_t len, char *buf, size_t size)
{
	size_t stem = len - strlen(".slice"), used = strlen(buf);

	if (name[0] == '-' || name[stem - 1] == '-' || memmem(name, stem, "--", 2))
		return -EINVAL;
	for (size_t i = 0; i <= stem; i++) {
		if (i < stem && name[i] != '-')
			continue;
		/* the prefix up to this dash (or the whole stem) is a slice */
		if (used + i + strlen(".slice") + 2 > size)
			return -ENAMETOOLONG;
		used += (size_t)snprintf(buf + used, size - used, "%s%.*s.slice",
					 used ? "/" : "", (int)i, name);
	}
	return 0;
}

/*
 * The cgroup below the root of a unit as a rule names it: "NAME.service" or
 * "NAME.scope" is in system.slice, "SLICE/NAME.service" in SLICE, and
 * "NAME.slice" is the slice itself. Returns 0 or -EINVAL with WHY set.
 */
static int unit_cgroup_path(const char *value, char *buf, size_t size, const char **why)
{
	const char *slash = strchr(value, '/');
	const char *unit = slash ? slash + 1 : value;
	size_t unit_len = strlen(unit);

	buf[0] = 0;
	*why = "expected a unit name such as \"fwupd.service\", or \"SLICE.slice/NAME.service\"";
	if (!unit_name_valid(unit, unit_len) ||
	    (slash && (!unit_name_valid(value, (size_t)(slash - value)) ||
		       !has_suffix(value, (size_t)(slash - value), ".slice"))))
		return -EINVAL;
	if (has_suffix(unit, unit_len, ".slice")) {
		if (slash) {
			*why = "a slice is named alone: its place follows from its name";
			return -EINVAL;
		}
		*why = "not a slice name systemd allows (\"-.slice\" would be every process)";
		return slice_path(unit, unit_len, buf, size) < 0 ? -EINVAL : 0;
	}
	if (!has_suffix(unit, unit_len, ".service") && !has_suffix(unit, unit_len, ".scope")) {
		*why = "only service, scope and slice units have processes of their own";
		return -EINVAL;
	}
	if (slash) {
		*why = "not a slice name systemd allows";
		if (slice_path(value, (size_t)(slash - value), buf, size) < 0)
			return -EINVAL;
	} else {
		snprintf(buf, size, "system.slice");
	}
	if (strlen(buf) + 1 + unit_len + 1 > size)
		return -EINVAL;
	strcat(buf, "/");
	strcat(buf, unit);
	return 0;
}

/* Is PATH[0..LEN) the chain of slices systemd lays its innermost slice in
 * ("user.slice/user-1000.slice", as "user-1000.slice" says)? */
static bool slices_as_named(const char *path, size_t len)
{
	const char *inner = memrchr(path, '/', len), *name = inner ? inner + 1 : path;
	size_t name_len = len - (size_t)(name - path);
	char laid[POLICY_PATH_MAX] = "";

	return unit_name_valid(name, name_len) && has_suffix(name, name_len, ".slice") &&
	       slice_path(name, name_len, laid, sizeof(laid)) == 0 && strlen(laid) == len &&
	       !memcmp(laid, path, len);
}

/*
 * The cgroup of a unit a command line names: as a rule names it, or by the
 * cgroup path /proc/PID/cgroup gives ("/user.slice/user-1000.slice/
 * session-3.scope", the leading slash optional), a service or scope in the
 * slices its innermost slice's name says, as systemd lays them out.
 */
static int cli_unit_cgroup_path(const char *value, char *buf, size_t size, const char **why)
{
	const char *path = value[0] == '/' ? value + 1 : value;
	const char *last = strrchr(path, '/');
	size_t unit_len;

	if (value[0] != '/' && (!last || strchr(path, '/') == last))
		return unit_cgroup_path(value, buf, size, why);	/* a rule's form */
	*why = "expected a unit name (fwupd.service, SLICE.slice/NAME.scope) or the cgroup path /proc/PID/cgroup gives (/user.slice/user-1000.slice/session-3.scope), each slice in the one its name says";
	if (!last)
		return -EINVAL;
	unit_len = strlen(last + 1);
	if (!slices_as_named(path, (size_t)(last - path)) || !unit_name_valid(last + 1, unit_len) ||
	    !(has_suffix(last + 1, unit_len, ".service") || has_suffix(last + 1, unit_len, ".scope")) ||
	    strlen(path) + 1 > size)
		return -EINVAL;
	memcpy(buf, path, strlen(path) + 1);
	return 0;
}

/* The index of the unit at cgroup PATH in the policy's table, added once. */
static int intern_unit(struct policy *p, const char *name, const char *path)
{
	struct policy_unit *u;
	uint32_t level = 1;

	for (size_t i = 0; i < p->n_units; i++)
		if (!strcmp(p->units[i].path, path))
			return (int)i;
	if (p->n_units >= UINT8_MAX)
		return -E2BIG;
	if (p->n_units == p->cap_units) {
		size_t cap = p->cap_units ? 2 * p->cap_units : 8;

		u = reallocarray(p->units, cap, sizeof(*u));
		if (!u)
			return -ENOMEM;
		p->units = u;
		p->cap_units = cap;
	}
	for (const char *s = path; *s; s++)
		level += *s == '/';
	u = &p->units[p->n_units];
	*u = (struct policy_unit){ .name = strdup(name), .path = strdup(path), .level = level };
	if (!u->name || !u->path) {
		free(u->name);
		free(u->path);
		return -ENOMEM;
	}
	return (int)p->n_units++;
}

int policy_unit_add(struct policy *p, const char *name, const char **why)
{
	char cgroup[POLICY_PATH_MAX];
	int i;

	if (unit_cgroup_path(name, cgroup, sizeof(cgroup), why) < 0)
		return -EINVAL;
	/* A dry run may be about another machine: policy_assume_units(). */
	if (!policy_cgroup_root() && !p->dry_run) {
		*why = "this system has no unified cgroup hierarchy (cgroup2 at /sys/fs/cgroup): the firewall cannot tell which unit a process is in";
		return -EINVAL;
	}
	i = intern_unit(p, name, cgroup);
	if (i == -E2BIG)
		*why = "too many units in one policy (at most 255)";
	else if (i < 0)
		*why = strerror(-i);
	return i;
}

const struct policy_unit *policy_unit_find(const struct policy *p, const char *name)
{
	for (size_t i = 0; i < p->n_units; i++)
		if (!strcmp(p->units[i].name, name))
			return &p->units[i];
	return NULL;
}

/* A cgroup path as /proc/PID/cgroup gives it, without its leading '/':
 * names separated by single slashes, none of them "." or "..". */
static bool cgroup_path_valid(const char *path)
{
	for (const char *c = path; *c;) {
		size_t len = strcspn(c, "/");

		if (!len || (len == 1 && c[0] == '.') || (len == 2 && !strncmp(c, "..", 2)))
			return false;
		c += len;
		if (*c == '/' && !*++c)
			return false;
	}
	return true;
}

/* The length of CGROUP's prefix down to LEVEL (0: the root, ""). */
static size_t cgroup_prefix(const char *cgroup, size_t level)
{
	size_t len = 0, seen = 0;

	if (level)
		while (cgroup[len] && (cgroup[len] != '/' || ++seen < level))
			len++;
	return len;
}

/*
 * The ids of the cgroups from the root down to CGROUP (relative to the
 * root, "" being the root), as far as they exist now; *WHOLE whether all
 * do. ASSUME (a dry run): the levels that do not exist here, or all of
 * them on a system without cgroup2, get their assumed ids, as the units
 * a dry run's policy names do.
 */
static int cgroup_ancestry(const char *cgroup, bool assume, uint64_t *ids, size_t max,
			   size_t *n, bool *whole, const char **why)
{
	const char *root = policy_cgroup_root();
	char dir[PATH_MAX], prefix[PATH_MAX];
	struct stat st;
	size_t levels = 0, k = 0;

	*n = 0;
	*whole = false;
	if (!root && !assume) {
		*why = "this system has no unified cgroup hierarchy (cgroup2 at /sys/fs/cgroup): the firewall cannot tell which unit a process is in";
		return -EINVAL;
	}
	if (*cgroup)
		levels = 1;
	for (const char *c = cgroup; *c; c++)
		levels += *c == '/';
	/* The root, then each prefix of the path that ends at a '/' or at its end. */
	for (size_t level = 0; root && level <= levels && k < max; level++) {
		size_t len = cgroup_prefix(cgroup, level);

		snprintf(dir, sizeof(dir), "%s%s%.*s", root, level ? "/" : "", (int)len, cgroup);
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			break;
		ids[k++] = (uint64_t)st.st_ino;
	}
	*whole = k == levels + 1;
	for (; assume && k <= levels && k < max; k++) {
		snprintf(prefix, sizeof(prefix), "%.*s", (int)cgroup_prefix(cgroup, k), cgroup);
		ids[k] = policy_assumed_cgroup(prefix);
	}
	*n = k;
	return 0;
}

int policy_unit_cgroups(const char *name, uint64_t *ids, size_t max, size_t *n, bool *running,
			const char **why)
{
	char cgroup[POLICY_PATH_MAX];

	*n = 0;
	*running = false;
	if (cli_unit_cgroup_path(name, cgroup, sizeof(cgroup), why) < 0)
		return -EINVAL;
	return cgroup_ancestry(cgroup, false, ids, max, n, running, why);
}

int policy_unit_cgroups_assumed(const char *name, uint64_t *ids, size_t max, size_t *n,
				bool *running, const char **why)
{
	char cgroup[POLICY_PATH_MAX];

	*n = 0;
	*running = false;
	if (cli_unit_cgroup_path(name, cgroup, sizeof(cgroup), why) < 0)
		return -EINVAL;
	return cgroup_ancestry(cgroup, true, ids, max, n, running, why);
}

int policy_cgroup_ancestry(const char *path, uint64_t *ids, size_t max, size_t *n, bool *exists,
			   const char **why)
{
	*n = 0;
	*exists = false;
	if (path[0] != '/' || !cgroup_path_valid(path + 1)) {
		*why = "expected a cgroup path as /proc/PID/cgroup gives it, such as /system.slice/fwupd.service";
		return -EINVAL;
	}
	return cgroup_ancestry(path + 1, false, ids, max, n, exists, why);
}

/* A systemd unit, kept by name in the policy; its cgroup is looked up when
 * the policy is loaded, and again whenever the unit starts or stops. */
static int add_unit(struct parse_ctx *c, const char *path, json_t *v, void *out)
{
	struct policy_rule *rule = out;
	const char *why, *name;
	char d[64];
	int i;

	if (!json_is_string(v)) {
		perr(c, path, "expected a unit name such as \"fwupd.service\", got %s",
		     json_describe(v, d, sizeof(d)));
		return -EINVAL;
	}
	name = json_string_value(v);
	i = policy_unit_add(c->p, name, &why);
	if (i < 0) {
		perr(c, path, "\"%s\": %s", name, why);
		return -EINVAL;
	}
	if (c->p->dry_run && !policy_cgroup_root())
		pnote(c, path, "assuming the machine where the policy is used has the unified cgroup hierarchy (cgroup2), which this one has not (a daemon here would refuse the policy: it could not tell which unit a process is in)");
	rule->units[rule->sender.n_units++] = (uint8_t)i;
	return 0;
}

int policy_resolve_units(struct policy *p, bool *changed)
{
	const char *root = policy_cgroup_root();
	bool any = false;
	int r = 0;

	if (p->n_units && !root)
		return p->dry_run ? 0 : -ENOENT;	/* policy_assume_units() */
	for (size_t i = 0; i < p->n_units; i++) {
		struct policy_unit *u = &p->units[i];
		_cleanup_free_ char *dir = NULL;
		struct stat st;
		uint64_t id = 0;

		if (asprintf(&dir, "%s/%s", root, u->path) < 0)
			return -ENOMEM;
		/* A kernfs inode number is the node's 64-bit id, which is
		 * the cgroup id the kernel gives BPF programs. */
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			id = (uint64_t)st.st_ino;
		else if (errno != ENOENT && errno != ENOTDIR) {
			r = -errno;
			continue;
		}
		any |= id != u->cgroup_id;
		u->cgroup_id = id;
	}
	if (changed)
		*changed = any;
	return r;
}

void policy_assume_units(struct policy *p)
{
	for (size_t i = 0; i < p->n_units; i++) {
		struct policy_unit *u = &p->units[i];

		if (u->cgroup_id)
			continue;
		u->cgroup_id = policy_assumed_cgroup(u->path);
		u->assumed = true;
	}
}

int pv_sender(struct parse_ctx *c, const char *path, json_t *v, struct policy_rule *rule)
{
	static const char *const keys[] = { "origin", "user", "group", "executable", "unit", NULL };
	struct hid_rule_sender *out = &rule->sender;
	char sub[POLICY_PATH_MAX];
	int origin = -1, r = 0;
	json_t *e;

	memset(out, 0, sizeof(*out));
	if (pv_expect_object(c, path, v) < 0)
		return -EINVAL;
	if (pv_check_keys(c, path, v, keys) < 0)
		r = -EINVAL;
	if (json_object_size(v) == 0) {
		perr(c, path, "empty: name an origin, user, group, executable or unit (or leave \"sender\" out)");
		return -EINVAL;
	}
	if ((e = json_object_get(v, "origin"))) {
		if (pv_enum(c, path_key(sub, sizeof(sub), path, "origin"), e, origin_names, &origin) < 0)
			r = -EINVAL;
		else {
			out->fields |= HID_SENDER_F_ORIGIN;
			out->origin = origin == 0 ? HID_SENDER_ORIGIN_KERNEL : HID_SENDER_ORIGIN_USER;
		}
	}
	if ((e = json_object_get(v, "user"))) {
		out->fields |= HID_SENDER_F_USER;
		if (each_value(c, path_key(sub, sizeof(sub), path, "user"), e, out, add_uid) < 0)
			r = -EINVAL;
	}
	if ((e = json_object_get(v, "group"))) {
		out->fields |= HID_SENDER_F_GROUP;
		if (each_value(c, path_key(sub, sizeof(sub), path, "group"), e, out, add_gid) < 0)
			r = -EINVAL;
	}
	if ((e = json_object_get(v, "executable"))) {
		out->fields |= HID_SENDER_F_EXECUTABLE;
		if (each_value(c, path_key(sub, sizeof(sub), path, "executable"), e, out, add_exe) < 0)
			r = -EINVAL;
	}
	if ((e = json_object_get(v, "unit"))) {
		out->fields |= HID_SENDER_F_UNIT;
		if (each_value(c, path_key(sub, sizeof(sub), path, "unit"), e, rule, add_unit) < 0)
			r = -EINVAL;
	}
	if (origin == 0 && (out->fields & (HID_SENDER_F_USER | HID_SENDER_F_GROUP |
					   HID_SENDER_F_EXECUTABLE | HID_SENDER_F_UNIT))) {
		perr(c, path, "a driver's own request (origin \"kernel\") has no user, group, executable or unit");
		r = -EINVAL;
	}
	return r;
}
