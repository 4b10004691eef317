// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which policy files are trusted: a file, or a directory on the real path
 * to it, that someone other than root (or the user running the check) can
 * change is refused, with the path at fault, and the whole set with it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy-helpers.h"

#define SET(name)                                                              \
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '054c', 'product': '0ce6'}, 'rules': [" \
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
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "policy-files", tests, ARRAY_SIZE(tests));
}
