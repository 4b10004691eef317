// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which policy files are trusted: a file, or a directory on the real path
 * to it, that someone other than root (or the user running the check) can
 * change, by its mode or its POSIX ACL, is refused, with the path at fault,
 * and the whole set with it.
 */
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "policy-helpers.h"

#define SET(name)                                                              \
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': [" \
	"{'name': '" name "', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf4', 'action': 'deny'}]}]}"

#define OTHER_UID 4242
#define OTHER_GID 4242

static struct policy *load_dir(const char *dir, struct diag *d)
{
	const char *dirs[] = { dir };
	struct policy *p = NULL;

	policy_load_dirs(dirs, 1, true, d, &p);
	return p;
}

/* The only message in D contains every one of WANTED (NULL-ended). */
static void check_refusal(const struct diag *d, const char *const *wanted)
{
	CHECK_EQ(d->n_errors, 1);
	for (size_t i = 0; wanted[i]; i++)
		CHECK(strstr(d->entries[0].text, wanted[i]), "\"%s\" lacks \"%s\"",
		      d->entries[0].text, wanted[i]);
}
#define CHECK_REFUSAL(d, ...) check_refusal(d, (const char *const[]){ __VA_ARGS__, NULL })

static char *path_in(const char *dir, const char *name)
{
	char *p;

	CHECK(asprintf(&p, "%s/%s", dir, name) > 0, "out of memory");
	return p;
}

static void need_root(void)
{
	if (geteuid() != 0)
		SKIP("giving files to another user needs root");
}

static void root_owned_files_load(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};
	struct policy *p;

	write_policy(dir, "10-a.json", SET("a"));
	p = load_dir(dir, &d);
	CHECK(p, "a file only its owner can write was refused");
	CHECK_EQ(d.n, 0);
	policy_free(p);
	diag_done(&d);
	rm_tree(dir);
}

static void a_file_every_user_can_write_is_refused(void)
{
	char *dir = make_temp_dir(), *file = path_in(dir, "10-a.json");
	struct diag d = {};

	write_policy(dir, "10-a.json", SET("a"));
	CHECK_OK(chmod(file, 0666));
	CHECK(!load_dir(dir, &d), "a world-writable file was accepted");
	CHECK_REFUSAL(&d, "10-a.json: refused: ", file, "writable by every user (mode 0666)");
	diag_done(&d);
	free(file);
	rm_tree(dir);
}

static void a_file_a_group_can_write_is_refused_unless_the_group_is_root(void)
{
	char *dir = make_temp_dir(), *file = path_in(dir, "10-a.json");
	struct diag d = {};
	struct policy *p;

	need_root();
	write_policy(dir, "10-a.json", SET("a"));
	CHECK_OK(chown(file, 0, 0));
	CHECK_OK(chmod(file, 0664));
	p = load_dir(dir, &d);
	CHECK(p, "a file writable by group root was refused");
	policy_free(p);
	diag_done(&d);

	CHECK_OK(chown(file, 0, OTHER_GID));
	CHECK(!load_dir(dir, &d), "a file writable by group %d was accepted", OTHER_GID);
	CHECK_REFUSAL(&d, file, "writable by group 4242 (mode 0664)");
	diag_done(&d);
	free(file);
	rm_tree(dir);
}

static void a_file_owned_by_another_user_is_refused(void)
{
	char *dir = make_temp_dir(), *file = path_in(dir, "10-a.json");
	struct diag d = {};

	need_root();
	write_policy(dir, "10-a.json", SET("a"));
	CHECK_OK(chown(file, OTHER_UID, 0));
	CHECK_OK(chmod(file, 0644));
	CHECK(!load_dir(dir, &d), "a file owned by uid %d was accepted", OTHER_UID);
	CHECK_REFUSAL(&d, file, "is owned by uid 4242");
	diag_done(&d);
	free(file);
	rm_tree(dir);
}

/* The directory itself: anyone could add a file to it. The refusal names
 * the directory and loses every file of it, good ones too. */
static void a_directory_every_user_can_write_is_refused(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};

	write_policy(dir, "10-a.json", SET("a"));
	CHECK_OK(chmod(dir, 0777));
	CHECK(!load_dir(dir, &d), "a world-writable directory was accepted");
	CHECK_REFUSAL(&d, dir, "writable by every user (mode 0777)");
	diag_done(&d);
	rm_tree(dir);
}

/* A sticky directory (/tmp) may be writable by all: nobody can replace the
 * names it holds. make_temp_dir() works under one. */
static void a_sticky_directory_above_is_accepted(void)
{
	char *dir = make_temp_dir(), *sticky = path_in(dir, "shared");
	char *inner;
	struct diag d = {};
	struct policy *p;

	CHECK_OK(mkdir(sticky, 01777));
	CHECK_OK(chmod(sticky, 01777));
	inner = path_in(sticky, "policy.d");
	CHECK_OK(mkdir(inner, 0755));
	write_policy(inner, "10-a.json", SET("a"));
	p = load_dir(inner, &d);
	CHECK(p, "a directory below a sticky one was refused");
	policy_free(p);
	diag_done(&d);
	free(inner);
	free(sticky);
	rm_tree(dir);
}

/* /etc/hid-policy.d/20-x.json -> /home/alice/x.json: the link lives in a
 * trusted directory, the file it leads to does not. */
static void a_link_to_a_file_in_another_users_directory_is_refused(void)
{
	char *dir = make_temp_dir(), *home = make_temp_dir();
	char *target = path_in(home, "x.json"), *link = path_in(dir, "20-x.json");
	struct diag d = {};

	need_root();
	write_policy(home, "x.json", SET("x"));
	CHECK_OK(chmod(home, 0755));
	CHECK_OK(chown(home, OTHER_UID, OTHER_GID));
	CHECK_OK(symlink(target, link));
	CHECK(!load_dir(dir, &d), "a link into another user's directory was accepted");
	CHECK_REFUSAL(&d, "20-x.json: refused: ", home, "is owned by uid 4242");
	diag_done(&d);

	/* The same file, once root owns its directory again, is fine. */
	CHECK_OK(chown(home, 0, 0));
	{
		struct policy *p = load_dir(dir, &d);

		CHECK(p, "a link to a trusted file was refused");
		policy_free(p);
	}
	diag_done(&d);
	free(target);
	free(link);
	rm_tree(dir);
	rm_tree(home);
}

/* A policy directory reached through a link is checked where it really is. */
static void a_directory_reached_through_a_link_is_checked_where_it_is(void)
{
	char *top = make_temp_dir(), *real = path_in(top, "real"), *link = path_in(top, "link");
	struct diag d = {};

	CHECK_OK(mkdir(real, 0755));
	write_policy(real, "10-a.json", SET("a"));
	CHECK_OK(symlink(real, link));
	CHECK_OK(chmod(real, 0757));
	CHECK(!load_dir(link, &d), "a world-writable directory behind a link was accepted");
	CHECK_REFUSAL(&d, real, "writable by every user (mode 0757)");
	diag_done(&d);
	free(real);
	free(link);
	rm_tree(top);
}

/* One entry of an access ACL, as getfacl(1) shows it: "user:4242:rw-" is
 * { ACL_USER, ACL_READ | ACL_WRITE, 4242 }. */
struct acl_item {
	uint16_t tag, perm;
	uint32_t id;
};

/*
 * Give PATH the access ACL ITEMS (N of them, in the kernel's order: owner,
 * users, group, groups, mask, other), as setfacl --set would; setfacl may
 * not be installed, so the attribute is written whole, in its binary form.
 */
static void set_acl(const char *path, const struct acl_item *items, size_t n)
{
	uint8_t buf[sizeof(struct posix_acl_xattr_header) + 16 * sizeof(struct posix_acl_xattr_entry)];
	struct posix_acl_xattr_header h = { .a_version = htole32(POSIX_ACL_XATTR_VERSION) };

	CHECK(n <= 16, "too many entries");
	memcpy(buf, &h, sizeof(h));
	for (size_t i = 0; i < n; i++) {
		struct posix_acl_xattr_entry e = {
			.e_tag = htole16(items[i].tag), .e_perm = htole16(items[i].perm),
			.e_id = htole32(items[i].id),
		};

		memcpy(buf + sizeof(h) + i * sizeof(e), &e, sizeof(e));
	}
	if (setxattr(path, "system.posix_acl_access", buf, sizeof(h) + n * sizeof(struct posix_acl_xattr_entry), 0) < 0 &&
	    errno == EOPNOTSUPP)
		SKIP("the file system of %s has no POSIX ACLs", path);
	CHECK_OK(getxattr(path, "system.posix_acl_access", NULL, 0));
}
#define SET_ACL(path, ...) \
	set_acl(path, (const struct acl_item[]){ __VA_ARGS__ }, \
		sizeof((const struct acl_item[]){ __VA_ARGS__ }) / sizeof(struct acl_item))

#define RW (ACL_READ | ACL_WRITE)
#define RWX (ACL_READ | ACL_WRITE | ACL_EXECUTE)
#define RX (ACL_READ | ACL_EXECUTE)
#define ANYONE ((uint32_t)ACL_UNDEFINED_ID)

/* setfacl -m user:4242:rw on a root:root 0644 file: its mode turns 0664,
 * group root's, which the mode test lets pass; the ACL says who writes. */
static void a_file_an_acl_lets_another_user_or_group_write_is_refused(void)
{
	char *dir = make_temp_dir(), *file = path_in(dir, "10-a.json");
	struct stat st;
	struct diag d = {};

	need_root();
	write_policy(dir, "10-a.json", SET("a"));
	CHECK_OK(chown(file, 0, 0));
	CHECK_OK(chmod(file, 0644));
	SET_ACL(file, { ACL_USER_OBJ, RW, ANYONE }, { ACL_USER, RW, OTHER_UID },
		{ ACL_GROUP_OBJ, ACL_READ, ANYONE }, { ACL_MASK, RW, ANYONE },
		{ ACL_OTHER, ACL_READ, ANYONE });
	CHECK_OK(stat(file, &st));
	CHECK_EQ(st.st_mode & 07777, 0664);
	CHECK(!load_dir(dir, &d), "a file uid %d can write through its ACL was accepted", OTHER_UID);
	CHECK_REFUSAL(&d, "10-a.json: refused: ", file, " is writable by uid 4242 (ACL entry user:4242:rw-)");
	diag_done(&d);

	SET_ACL(file, { ACL_USER_OBJ, RW, ANYONE }, { ACL_GROUP_OBJ, ACL_READ, ANYONE },
		{ ACL_GROUP, RW, OTHER_GID }, { ACL_MASK, RW, ANYONE },
		{ ACL_OTHER, ACL_READ, ANYONE });
	CHECK(!load_dir(dir, &d), "a file group %d can write through its ACL was accepted", OTHER_GID);
	CHECK_REFUSAL(&d, file, " is writable by group 4242 (ACL entry group:4242:rw-)");
	diag_done(&d);
	free(file);
	rm_tree(dir);
}

/* Entries that let only root write, or whose write the mask takes away,
 * leave the file trusted. */
static void an_acl_that_lets_no_one_else_write_is_accepted(void)
{
	char *dir = make_temp_dir(), *file = path_in(dir, "10-a.json");
	struct diag d = {};
	struct policy *p;

	need_root();
	write_policy(dir, "10-a.json", SET("a"));
	CHECK_OK(chown(file, 0, 0));
	SET_ACL(file, { ACL_USER_OBJ, RW, ANYONE }, { ACL_USER, RW, 0 },
		{ ACL_USER, ACL_READ, OTHER_UID }, { ACL_GROUP_OBJ, RW, ANYONE },
		{ ACL_GROUP, RW, 0 }, { ACL_MASK, RW, ANYONE }, { ACL_OTHER, ACL_READ, ANYONE });
	p = load_dir(dir, &d);
	CHECK(p, "a file only root can write through its ACL was refused");
	CHECK_EQ(d.n, 0);
	policy_free(p);
	diag_done(&d);

	SET_ACL(file, { ACL_USER_OBJ, RW, ANYONE }, { ACL_USER, RW, OTHER_UID },
		{ ACL_GROUP_OBJ, ACL_READ, ANYONE }, { ACL_MASK, ACL_READ, ANYONE },
		{ ACL_OTHER, ACL_READ, ANYONE });
	p = load_dir(dir, &d);
	CHECK(p, "a file whose ACL mask takes write from uid %d was refused", OTHER_UID);
	policy_free(p);
	diag_done(&d);
	free(file);
	rm_tree(dir);
}

/* The directory: a user its ACL lets write could add or replace files. */
static void a_directory_an_acl_lets_another_user_write_is_refused(void)
{
	char *dir = make_temp_dir();
	struct diag d = {};

	need_root();
	write_policy(dir, "10-a.json", SET("a"));
	CHECK_OK(chmod(dir, 0755));
	SET_ACL(dir, { ACL_USER_OBJ, RWX, ANYONE }, { ACL_USER, RWX, OTHER_UID },
		{ ACL_GROUP_OBJ, RX, ANYONE }, { ACL_MASK, RWX, ANYONE }, { ACL_OTHER, RX, ANYONE });
	CHECK(!load_dir(dir, &d), "a directory uid %d can write through its ACL was accepted", OTHER_UID);
	CHECK_REFUSAL(&d, dir, " is writable by uid 4242 (ACL entry user:4242:rwx)");
	diag_done(&d);
	rm_tree(dir);
}

static const struct test_case tests[] = {
	{ "root_owned_files_load", root_owned_files_load },
	{ "a_file_every_user_can_write_is_refused", a_file_every_user_can_write_is_refused },
	{ "a_file_a_group_can_write_is_refused_unless_the_group_is_root",
	  a_file_a_group_can_write_is_refused_unless_the_group_is_root },
	{ "a_file_owned_by_another_user_is_refused", a_file_owned_by_another_user_is_refused },
	{ "a_directory_every_user_can_write_is_refused", a_directory_every_user_can_write_is_refused },
	{ "a_sticky_directory_above_is_accepted", a_sticky_directory_above_is_accepted },
	{ "a_link_to_a_file_in_another_users_directory_is_refused",
	  a_link_to_a_file_in_another_users_directory_is_refused },
	{ "a_directory_reached_through_a_link_is_checked_where_it_is",
	  a_directory_reached_through_a_link_is_checked_where_it_is },
	{ "a_file_an_acl_lets_another_user_or_group_write_is_refused",
	  a_file_an_acl_lets_another_user_or_group_write_is_refused },
	{ "an_acl_that_lets_no_one_else_write_is_accepted", an_acl_that_lets_no_one_else_write_is_accepted },
	{ "a_directory_an_acl_lets_another_user_write_is_refused",
	  a_directory_an_acl_lets_another_user_write_is_refused },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-files", tests, ARRAY_SIZE(tests));
}
