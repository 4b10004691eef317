// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy in force, kept on disk (service/saved_policy.c): stored and
 * loaded back, and never through a symbolic link. Whoever plants a link
 * where the copy, its ".new" twin or their directory lives must not make
 * the daemon remove, write or read the files the link leads to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy-helpers.h"
#include "service/saved_policy.h"

#define SET(name)                                                              \
	"{'version': 1, 'devices': [{'match': {'bus': 'usb', 'vendor': '0x054c', 'product': '0x0ce6'}, 'rules': [" \
	"{'name': '" name "', 'request': 'set_report', 'report_type': 'feature', 'report_id': '0xf4', 'action': 'deny'}]}]}"

static char *path_in(const char *dir, const char *name)
{
	char *p;

	CHECK(asprintf(&p, "%s/%s", dir, name) > 0, "out of memory");
	return p;
}

static bool exists(const char *dir, const char *name)
{
	char *p = path_in(dir, name);
	struct stat st;
	bool there = lstat(p, &st) == 0;

	free(p);
	return there;
}

static bool is_symlink(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* A directory with two files that are not the daemon's to remove. */
static char *victim_dir(const char *top)
{
	char *victim = path_in(top, "victim");

	CHECK_OK(mkdir(victim, 0755));
	write_policy(victim, "10-other.json", SET("other"));
	write_policy(victim, "precious.txt", "not a policy");
	return victim;
}

static void check_victim_untouched(const char *victim)
{
	struct stat st;

	CHECK(lstat(victim, &st) == 0 && S_ISDIR(st.st_mode), "%s is gone", victim);
	CHECK(exists(victim, "10-other.json"), "%s/10-other.json was removed", victim);
	CHECK(exists(victim, "precious.txt"), "%s/precious.txt was removed", victim);
	CHECK(!exists(victim, "10-kept.json"), "the policy was written into %s", victim);
}

static struct policy *one_file_policy(void)
{
	struct diag d = {};
	struct policy *p = load_text("10-kept.json", SET("kept"), &d);

	CHECK(p, "the test's policy does not load");
	diag_done(&d);
	return p;
}

static void store_then_load_gives_the_same_files(void)
{
	char *top = make_temp_dir(), *saved = path_in(top, "state/policy-in-force");
	struct policy *p = one_file_policy(), *back = NULL;
	struct diag d = {};

	CHECK_OK(saved_policy_store(saved, p));
	/* again: the first copy is swapped out and removed */
	CHECK_OK(saved_policy_store(saved, p));
	CHECK(!exists(top, "state/policy-in-force.new"), "the old copy was left");
	CHECK_OK(saved_policy_load(saved, &d, &back));
	CHECK_EQ(back->n_files, 1);
	CHECK(!strcmp(back->files[0].name, "10-kept.json"), "loaded %s", back->files[0].name);
	CHECK_EQ(back->files[0].len, p->files[0].len);
	policy_free(back);
	policy_free(p);
	diag_done(&d);
	rm_tree(top);
}

/* The old copy's place holds a link to a directory with files: the swap
 * moves the link to ".new", and removing ".new" used to follow it. */
static void a_symlink_where_the_old_copy_lives_leaves_its_target_alone(void)
{
	char *top = make_temp_dir(), *state = path_in(top, "state"),
	     *saved = path_in(state, "policy-in-force");
	char *victim = victim_dir(top);
	struct policy *p = one_file_policy();
	int r;

	CHECK_OK(mkdir(state, 0755));
	CHECK_OK(symlink(victim, saved));
	r = saved_policy_store(saved, p);
	check_victim_untouched(victim);
	CHECK_OK(r);
	/* the copy is a directory of its own now, the link is gone */
	CHECK(!is_symlink(saved), "%s is still a link", saved);
	CHECK(exists(state, "policy-in-force/10-kept.json"), "the policy was not kept");
	CHECK(!exists(state, "policy-in-force.new"), "the link was left at .new");
	policy_free(p);
	rm_tree(top);
}

/* A link at ".new" (where a crash leaves a half-written copy) is removed
 * as a link, not followed. */
static void a_symlink_where_the_new_copy_goes_leaves_its_target_alone(void)
{
	char *top = make_temp_dir(), *state = path_in(top, "state"),
	     *saved = path_in(state, "policy-in-force"), *next = path_in(state, "policy-in-force.new");
	char *victim = victim_dir(top);
	struct policy *p = one_file_policy();
	int r;

	CHECK_OK(mkdir(state, 0755));
	CHECK_OK(symlink(victim, next));
	r = saved_policy_store(saved, p);
	check_victim_untouched(victim);
	CHECK_OK(r);
	CHECK(exists(state, "policy-in-force/10-kept.json"), "the policy was not kept");
	policy_free(p);
	rm_tree(top);
}

/* The copy's own directory (/var/lib/hid-policy) a link: refused, and
 * nothing is written or removed where it leads. */
static void a_symlinked_state_directory_is_refused(void)
{
	char *top = make_temp_dir(), *state = path_in(top, "state"),
	     *saved = path_in(state, "policy-in-force");
	char *victim = victim_dir(top);
	struct policy *p = one_file_policy(), *back = NULL;
	struct diag d = {};
	int r;

	CHECK_OK(symlink(victim, state));
	r = saved_policy_store(saved, p);
	check_victim_untouched(victim);
	CHECK_EQ(r, -ELOOP);
	CHECK(!exists(victim, "policy-in-force"), "the copy was made in %s", victim);
	CHECK(!exists(victim, "policy-in-force.new"), "the copy was begun in %s", victim);
	CHECK_EQ(saved_policy_load(saved, &d, &back), -ELOOP);
	CHECK(!back, "a policy was loaded through the link");
	policy_free(p);
	diag_done(&d);
	rm_tree(top);
}

/* The copy itself a link, or a file in it: not loaded. The daemon writes
 * only directories and regular files there. */
static void a_symlinked_copy_or_file_in_it_is_not_loaded(void)
{
	char *top = make_temp_dir(), *state = path_in(top, "state"),
	     *saved = path_in(state, "policy-in-force"),
	     *link = path_in(saved, "20-linked.json");
	char *victim = victim_dir(top), *victim_file = path_in(victim, "10-other.json");
	struct policy *p = one_file_policy(), *back = NULL;
	struct diag d = {};

	CHECK_OK(mkdir(state, 0755));
	CHECK_OK(symlink(victim, saved));
	CHECK_EQ(saved_policy_load(saved, &d, &back), -ELOOP);
	CHECK(!back, "a policy was loaded through the link");

	CHECK_OK(unlink(saved));
	CHECK_OK(saved_policy_store(saved, p));
	CHECK_OK(symlink(victim_file, link));
	CHECK_EQ(saved_policy_load(saved, &d, &back), -ELOOP);
	CHECK(!back, "a policy was loaded through a linked file");
	policy_free(p);
	diag_done(&d);
	rm_tree(top);
}

/* "--saved-policy-dir /var/lib/x/": the same directory. */
static void a_directory_named_with_a_trailing_slash_is_kept(void)
{
	char *top = make_temp_dir(), *saved = path_in(top, "state/policy-in-force/");
	struct policy *p = one_file_policy(), *back = NULL;
	struct diag d = {};

	CHECK_OK(saved_policy_store(saved, p));
	CHECK(exists(top, "state/policy-in-force/10-kept.json"), "the policy was not kept");
	CHECK_OK(saved_policy_load(saved, &d, &back));
	CHECK_EQ(back->n_files, 1);
	policy_free(back);
	policy_free(p);
	diag_done(&d);
	rm_tree(top);
}

static const struct test_case tests[] = {
	{ "store_then_load_gives_the_same_files", store_then_load_gives_the_same_files },
	{ "a_symlink_where_the_old_copy_lives_leaves_its_target_alone",
	  a_symlink_where_the_old_copy_lives_leaves_its_target_alone },
	{ "a_symlink_where_the_new_copy_goes_leaves_its_target_alone",
	  a_symlink_where_the_new_copy_goes_leaves_its_target_alone },
	{ "a_symlinked_state_directory_is_refused", a_symlinked_state_directory_is_refused },
	{ "a_symlinked_copy_or_file_in_it_is_not_loaded", a_symlinked_copy_or_file_in_it_is_not_loaded },
	{ "a_directory_named_with_a_trailing_slash_is_kept",
	  a_directory_named_with_a_trailing_slash_is_kept },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "saved-policy", tests, ARRAY_SIZE(tests));
}
