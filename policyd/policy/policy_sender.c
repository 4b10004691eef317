// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A rule's "sender": who sends the request. Users and groups are named or
 * numbered and resolved when the policy is read; an executable is a path,
 * matched by the file's identity (device and inode), so that a copy or a
 * link elsewhere does not match and a rename does.
 *
 *	"sender": { "origin": "user", "group": ["gamepad-tools"],
 *		    "executable": "/usr/libexec/fwupd/fwupd" }
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "policy_internal.h"

#define NAME_BUF 16384

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
	if (!known) {
		perr(c, path, "no %s \"%s\" on this system", group ? "group" : "user", name);
		return -EINVAL;
	}
	return 0;
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

int policy_exe_identity(const char *path, struct hid_rule_exe *ret)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	/* The kernel's dev_t, as the firewall reads it from the inode's
	 * super block: 12 bits of major, 20 of minor. */
	*ret = (struct hid_rule_exe){
		.ino = (uint64_t)st.st_ino,
		.dev = (uint32_t)(major(st.st_dev) << 20 | (minor(st.st_dev) & 0xfffff)),
	};
	return 0;
}

/* An absolute path to a regular file, by its identity. A file that is not
 * there (a program not installed) is a warning: the value matches nothing
 * until a reload after it is installed. */
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
	s->n_exes++;
	return 0;
}

int pv_sender(struct parse_ctx *c, const char *path, json_t *v, struct hid_rule_sender *out)
{
	static const char *const keys[] = { "origin", "user", "group", "executable", NULL };
	char sub[POLICY_PATH_MAX];
	int origin = -1, r = 0;
	json_t *e;

	memset(out, 0, sizeof(*out));
	if (pv_expect_object(c, path, v) < 0)
		return -EINVAL;
	if (json_object_get(v, "unit")) {
		perr(c, path_key(sub, sizeof(sub), path, "unit"),
		     "senders by systemd unit are not supported yet; name the unit's executable");
		r = -EINVAL;
	} else if (pv_check_keys(c, path, v, keys) < 0) {
		r = -EINVAL;
	}
	if (json_object_size(v) == 0) {
		perr(c, path, "empty: name an origin, user, group or executable (or leave \"sender\" out)");
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
	if (origin == 0 && (out->fields & (HID_SENDER_F_USER | HID_SENDER_F_GROUP |
					   HID_SENDER_F_EXECUTABLE))) {
		perr(c, path, "a driver's own request (origin \"kernel\") has no user, group or executable");
		r = -EINVAL;
	}
	return r;
}
