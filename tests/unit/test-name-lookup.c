// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host tests of the control socket's name lookups (name_lookup.h): the
 * names a request carries are looked up by a worker, not by the caller,
 * answered in order, and put back as ids; a lookup that never ends holds
 * up neither the caller nor the daemon's shutdown.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ctl_protocol.h"
#include "control/command_args.h"
#include "control/name_lookup.h"
#include "harness.h"

/* A name service the test answers: each lookup waits for one byte on
 * gate[0]; "alice" is 1000, group "games" 60, anything else unknown. */
static int gate[2] = { -1, -1 };
static int lookups;

static int gated_lookup(const char *name, bool group, uint32_t *ret_id, char *err, size_t errsize)
{
	char byte;

	__atomic_add_fetch(&lookups, 1, __ATOMIC_SEQ_CST);
	if (read(gate[0], &byte, 1) != 1)
		return snprintf(err, errsize, "gate closed"), -EINVAL;
	if (!group && !strcmp(name, "alice"))
		return *ret_id = 1000, 0;
	if (group && !strcmp(name, "games"))
		return *ret_id = 60, 0;
	snprintf(err, errsize, "no %s \"%s\" here", group ? "group" : "user", name);
	return -EINVAL;
}

static void open_gate(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		CHECK_EQ(write(gate[1], "x", 1), 1);
}

static bool readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, timeout_ms) == 1;
}

static struct name_job *next_job(struct name_lookup *nl)
{
	struct name_job *job = NULL;
	int r;

	/* As the daemon does: take until there is none, then wait. */
	while ((r = name_lookup_take(nl, &job)) == -EAGAIN)
		CHECK(readable(name_lookup_fd(nl), 5000), "no answer within 5 s");
	CHECK_OK(r);
	return job;
}

static struct name_lookup *gated_start(void)
{
	struct name_lookup *nl;

	CHECK_OK(pipe(gate));
	CHECK_OK(name_lookup_new(&nl, gated_lookup));
	return nl;
}

static void gated_end(struct name_lookup *nl)
{
	name_lookup_free(nl);
	close(gate[0]);
	close(gate[1]);
}

static void test_names_are_looked_up_by_the_worker_and_put_back_as_ids(void)
{
	struct name_lookup *nl = gated_start();
	json_t *args = json_pack("{s:s, s:[i, s, i]}", "user", "alice", "group", 5, "games", 7);
	struct name_job *job = NULL;
	char err[256] = "";

	/* Submitting does not wait for the name service. */
	CHECK_EQ(name_lookup_submit(nl, 41, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	CHECK(!readable(name_lookup_fd(nl), 200), "answered before the name service did");
	CHECK_EQ(name_lookup_take(nl, &job), -EAGAIN);

	open_gate(2);
	job = next_job(nl);
	CHECK_EQ(name_job_cookie(job), 41);
	CHECK_OK(name_job_apply(job, args, err, sizeof(err)));
	name_job_free(job);
	CHECK_EQ(json_integer_value(json_object_get(args, "user")), 1000);
	CHECK_EQ(json_integer_value(json_array_get(json_object_get(args, "group"), 0)), 5);
	CHECK_EQ(json_integer_value(json_array_get(json_object_get(args, "group"), 1)), 60);
	CHECK_EQ(json_integer_value(json_array_get(json_object_get(args, "group"), 2)), 7);
	CHECK_EQ(lookups, 2);
	/* Drained: nothing more to wake for. */
	CHECK_EQ(name_lookup_take(nl, &job), -EAGAIN);
	CHECK(!readable(name_lookup_fd(nl), 0), "still readable with nothing to take");
	json_decref(args);
	gated_end(nl);
}

static void test_requests_are_answered_in_order_and_an_unknown_name_is_the_error(void)
{
	struct name_lookup *nl = gated_start();
	json_t *a = json_pack("{s:s}", "user", "alice");
	json_t *b = json_pack("{s:[s]}", "group", "nobody-here");
	struct name_job *job;
	char err[256] = "";

	CHECK_EQ(name_lookup_submit(nl, 1, 1000, a, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	CHECK_EQ(name_lookup_submit(nl, 2, 1000, b, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	open_gate(2);
	job = next_job(nl);
	CHECK_EQ(name_job_cookie(job), 1);
	CHECK_OK(name_job_apply(job, a, err, sizeof(err)));
	name_job_free(job);
	job = next_job(nl);
	CHECK_EQ(name_job_cookie(job), 2);
	CHECK_EQ(name_job_apply(job, b, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "no group \"nobody-here\" here"), "%s", err);
	CHECK(json_is_string(json_array_get(json_object_get(b, "group"), 0)),
	      "a failed lookup changed the request");
	name_job_free(job);
	json_decref(a);
	json_decref(b);
	gated_end(nl);
}

static void test_requests_without_names_do_not_wait_and_bad_names_are_refused(void)
{
	struct name_lookup *nl = gated_start();
	char long_name[NAME_LOOKUP_NAME_MAX + 2];
	json_t *args;
	char err[256] = "";

	args = json_pack("{s:i, s:[i, i], s:s}", "user", 0, "group", 1, 2, "executable", "/x");
	CHECK_EQ(name_lookup_submit(nl, 1, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 0);
	json_decref(args);
	CHECK_EQ(name_lookup_submit(nl, 2, 1000, NULL, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 0);

	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	args = json_pack("{s:s}", "user", long_name);
	CHECK_EQ(name_lookup_submit(nl, 3, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "\"user\" must be user ids or names (at most 256 bytes"), "%s", err);
	json_decref(args);
	args = json_pack("{s:[s]}", "group", "");
	CHECK_EQ(name_lookup_submit(nl, 4, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), -EINVAL);
	json_decref(args);
	args = json_pack("{s:s#}", "user", "ali\0ce", (size_t)6);
	CHECK_EQ(name_lookup_submit(nl, 5, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), -EINVAL);
	json_decref(args);
	CHECK_EQ(lookups, 0);
	gated_end(nl);
}

/* The daemon stops while the name service hangs: it does not wait. */
static void test_stopping_does_not_wait_for_a_hung_lookup(void)
{
	struct name_lookup *nl = gated_start();
	json_t *args = json_pack("{s:s}", "user", "alice");
	char err[256] = "";

	CHECK_EQ(name_lookup_submit(nl, 1, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	for (int i = 0; i < 500 && !__atomic_load_n(&lookups, __ATOMIC_SEQ_CST); i++)
		usleep(10 * 1000);
	CHECK_EQ(lookups, 1);
	name_lookup_free(nl);	/* returns: the test would hang here before */
	/* The worker ends once its lookup does, freeing what it holds. */
	open_gate(1);
	usleep(100 * 1000);
	close(gate[0]);
	close(gate[1]);
	json_decref(args);
}

/* The system's own name service, as the daemon uses it by default. */
static void test_the_system_name_service_answers_and_names_what_it_lacks(void)
{
	struct name_lookup *nl;
	json_t *args = json_pack("{s:s, s:[s, i]}", "user", "root", "group", "root", 100);
	struct name_job *job;
	char err[256] = "";
	uint32_t id = 7;

	CHECK_OK(name_lookup_new(&nl, NULL));
	CHECK_EQ(name_lookup_submit(nl, 9, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	job = next_job(nl);
	CHECK_OK(name_job_apply(job, args, err, sizeof(err)));
	name_job_free(job);
	CHECK_EQ(json_integer_value(json_object_get(args, "user")), 0);
	CHECK_EQ(json_integer_value(json_array_get(json_object_get(args, "group"), 0)), 0);
	CHECK_EQ(json_integer_value(json_array_get(json_object_get(args, "group"), 1)), 100);
	json_decref(args);
	name_lookup_free(nl);

	CHECK_EQ(name_lookup_nss("hp-no-such-user", false, &id, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "no user \"hp-no-such-user\" on this system"), "%s", err);
	CHECK_EQ(name_lookup_nss("hp-no-such-user", true, &id, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "no group \"hp-no-such-user\" on this system"), "%s", err);
	CHECK_EQ(id, 7);
}

/* CapEff of thread TID of this process (hex), or UINT64_MAX. */
static uint64_t thread_cap_eff(const char *tid)
{
	char path[64], line[256];
	uint64_t caps = UINT64_MAX;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	f = fopen(path, "re");
	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %" SCNx64, &caps) == 1)
			break;
	fclose(f);
	return caps;
}

/*
 * The daemon installs its seccomp filter (every thread, TSYNC) soon after
 * control_open(); the filter kills on capget, capset and
 * prctl(PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS). So by the time
 * name_lookup_new() returns, its worker must have dropped its capabilities
 * already, not merely be about to.
 */
static void test_the_worker_has_no_capabilities_once_started(void)
{
	char self[32];

	snprintf(self, sizeof(self), "%d", gettid());
	if (thread_cap_eff(self) == 0)
		SKIP("this test has no capabilities to see dropped");
	for (int i = 0; i < 50; i++) {
		struct name_lookup *nl;
		struct dirent *de;
		DIR *tasks;
		int others = 0;

		CHECK_OK(name_lookup_new(&nl, NULL));
		tasks = opendir("/proc/self/task");
		CHECK(tasks, "cannot list this process's threads");
		while ((de = readdir(tasks))) {
			if (de->d_name[0] == '.' || !strcmp(de->d_name, self))
				continue;
			others++;
			CHECK_EQ(thread_cap_eff(de->d_name), 0);
		}
		closedir(tasks);
		CHECK_EQ(others, 1);
		name_lookup_free(nl);
	}
}

/*
 * A request dropped or timed out while its names wait or are being looked
 * up: its job leaves the queue, the running one stops at its next name,
 * and neither is answered. Otherwise a client whose lookup timed out sends
 * another request under the same cookie, gets the first one's ids put into
 * it, and queues jobs without bound while the name service hangs.
 */
static void test_a_cancelled_request_is_not_answered_and_leaves_the_queue(void)
{
	struct name_lookup *nl = gated_start();
	json_t *a = json_pack("{s:s, s:[s, s]}", "user", "alice", "group", "games", "games");
	json_t *b = json_pack("{s:s}", "user", "alice");
	struct name_job *job = NULL;
	char err[256] = "";

	CHECK_EQ(name_lookup_submit(nl, 1, 1000, a, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	CHECK_EQ(name_lookup_submit(nl, 2, 1000, b, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	for (int i = 0; i < 500 && !__atomic_load_n(&lookups, __ATOMIC_SEQ_CST); i++)
		usleep(10 * 1000);
	CHECK_EQ(lookups, 1);	/* cookie 1's "alice", waiting at the gate */
	name_lookup_cancel(nl, 2);	/* queued */
	name_lookup_cancel(nl, 1);	/* running */
	open_gate(4);
	CHECK(!readable(name_lookup_fd(nl), 300), "a cancelled request was answered");
	CHECK_EQ(name_lookup_take(nl, &job), -EAGAIN);
	/* cookie 1's groups and all of cookie 2 were never looked up */
	CHECK_EQ(lookups, 1);

	/* The same cookie again, a new request: its own answer. */
	CHECK_EQ(name_lookup_submit(nl, 1, 1000, b, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	job = next_job(nl);
	CHECK_EQ(name_job_cookie(job), 1);
	CHECK_OK(name_job_apply(job, b, err, sizeof(err)));
	name_job_free(job);
	CHECK_EQ(json_integer_value(json_object_get(b, "user")), 1000);
	CHECK_EQ(lookups, 2);

	/* Answered but not taken yet: cancelling drops the answer too. */
	json_object_set_new(b, "user", json_string("alice"));
	CHECK_EQ(name_lookup_submit(nl, 3, 1000, b, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	CHECK(readable(name_lookup_fd(nl), 5000), "no answer within 5 s");
	name_lookup_cancel(nl, 3);
	CHECK_EQ(name_lookup_take(nl, &job), -EAGAIN);
	json_decref(a);
	json_decref(b);
	gated_end(nl);
}

/* Wait until the worker has made N lookups (it is then at the gate). */
static void wait_lookups(int n)
{
	for (int i = 0; i < 500 && __atomic_load_n(&lookups, __ATOMIC_SEQ_CST) < n; i++)
		usleep(10 * 1000);
	CHECK_EQ(__atomic_load_n(&lookups, __ATOMIC_SEQ_CST), n);
}

/* The cookies of the next N answers, in the order they come. */
static void expect_answers(struct name_lookup *nl, const uint64_t *cookies, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct name_job *job = next_job(nl);

		CHECK(name_job_cookie(job) == cookies[i], "answer %zu is cookie %" PRIu64 ", not %" PRIu64,
		      i + 1, name_job_cookie(job), cookies[i]);
		name_job_free(job);
	}
}

/*
 * Users take turns: any local user may send names, and a slow name
 * service holds the worker for each. Answered in the order sent, one
 * user's eight queued requests (as many clients as the socket lets one
 * user have) held root's allow behind all of them, past its timeout.
 * Each user's own requests stay in order.
 */
static void test_one_user_s_queued_requests_do_not_hold_another_user_s(void)
{
	struct name_lookup *nl = gated_start();
	json_t *args = json_pack("{s:s}", "user", "alice");
	const uint64_t root_first[] = { 1, 5, 2, 3, 4 };
	const uint64_t alternating[] = { 6, 9, 7, 10, 8 };
	char err[256] = "";

	/* uid 1000's first request holds the worker at the gate; three
	 * more of its own wait, then root's. */
	CHECK_EQ(name_lookup_submit(nl, 1, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	wait_lookups(1);
	for (uint64_t cookie = 2; cookie <= 4; cookie++)
		CHECK_EQ(name_lookup_submit(nl, cookie, 1000, args, CTL_SUBJECT_GROUPS_MAX, err,
					    sizeof(err)), 1);
	CHECK_EQ(name_lookup_submit(nl, 5, 0, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	open_gate(5);
	expect_answers(nl, root_first, ARRAY_SIZE(root_first));

	/* Two users with requests waiting: one of each in turn, the one
	 * served longest ago first (1001 has not been, 1000 just was). */
	CHECK_EQ(name_lookup_submit(nl, 6, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	wait_lookups(6);
	CHECK_EQ(name_lookup_submit(nl, 7, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	CHECK_EQ(name_lookup_submit(nl, 8, 1000, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	CHECK_EQ(name_lookup_submit(nl, 9, 1001, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	CHECK_EQ(name_lookup_submit(nl, 10, 1001, args, CTL_SUBJECT_GROUPS_MAX, err, sizeof(err)), 1);
	open_gate(5);
	expect_answers(nl, alternating, ARRAY_SIZE(alternating));
	json_decref(args);
	gated_end(nl);
}

/*
 * Only the names a command reads are looked up: allow reads at most
 * CTL_ALLOW_GROUPS_MAX groups and refuses a longer list unread, so any
 * local user sending an allow with 1024 names costs the name service
 * nothing, not 1024 lookups.
 */
static void test_a_list_longer_than_the_command_reads_is_not_looked_up(void)
{
	struct name_lookup *nl = gated_start();
	json_t *args = json_pack("{s:i, s:[]}", "user", 5, "group");
	struct name_job *job;
	char err[256] = "";

	for (int i = 0; i <= CTL_ALLOW_GROUPS_MAX; i++)
		json_array_append_new(json_object_get(args, "group"), json_string("games"));
	CHECK_EQ(name_lookup_submit(nl, 1, 1000, args, CTL_ALLOW_GROUPS_MAX, err, sizeof(err)), 0);
	json_array_remove(json_object_get(args, "group"), 0);
	CHECK_EQ(name_lookup_submit(nl, 2, 1000, args, CTL_ALLOW_GROUPS_MAX, err, sizeof(err)), 1);
	open_gate(CTL_ALLOW_GROUPS_MAX);
	job = next_job(nl);
	CHECK_EQ(name_job_cookie(job), 2);
	CHECK_OK(name_job_apply(job, args, err, sizeof(err)));
	name_job_free(job);
	CHECK_EQ(lookups, CTL_ALLOW_GROUPS_MAX);
	CHECK_EQ(json_integer_value(json_array_get(json_object_get(args, "group"), 3)), 60);
	json_decref(args);
	gated_end(nl);
}

/* An entry of "group" that is neither a name nor an id (an object, true,
 * 1.5) is not looked up, stays as sent, and the command refuses it
 * plainly once the names beside it became ids. */
static void test_a_group_entry_neither_name_nor_id_is_refused_by_the_command(void)
{
	struct name_lookup *nl = gated_start();
	json_t *args = json_pack("{s:s, s:[s, {s:i}, b, f]}", "user", "alice", "group", "games",
				 "x", 1, true, 1.5);
	struct hid_rule_sender snd = {};
	struct name_job *job;
	pid_t pid = 0;
	char err[256] = "";

	CHECK_EQ(name_lookup_submit(nl, 1, 1000, args, CTL_ALLOW_GROUPS_MAX, err, sizeof(err)), 1);
	open_gate(2);
	job = next_job(nl);
	CHECK_OK(name_job_apply(job, args, err, sizeof(err)));
	name_job_free(job);
	CHECK_EQ(lookups, 2);
	CHECK(json_is_object(json_array_get(json_object_get(args, "group"), 1)), "entry 1 changed");
	CHECK(json_is_true(json_array_get(json_object_get(args, "group"), 2)), "entry 2 changed");
	CHECK_EQ(command_args_allow_ids(args, &snd, &pid, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "\"group\" must be group ids or names"), "%s", err);
	json_decref(args);
	gated_end(nl);
}

static const struct test_case tests[] = {
	{ "a_group_entry_neither_name_nor_id_is_refused_by_the_command",
	  test_a_group_entry_neither_name_nor_id_is_refused_by_the_command },
	{ "a_list_longer_than_the_command_reads_is_not_looked_up",
	  test_a_list_longer_than_the_command_reads_is_not_looked_up },
	{ "names_are_looked_up_by_the_worker_and_put_back_as_ids",
	  test_names_are_looked_up_by_the_worker_and_put_back_as_ids },
	{ "requests_are_answered_in_order_and_an_unknown_name_is_the_error",
	  test_requests_are_answered_in_order_and_an_unknown_name_is_the_error },
	{ "requests_without_names_do_not_wait_and_bad_names_are_refused",
	  test_requests_without_names_do_not_wait_and_bad_names_are_refused },
	{ "stopping_does_not_wait_for_a_hung_lookup", test_stopping_does_not_wait_for_a_hung_lookup },
	{ "the_system_name_service_answers_and_names_what_it_lacks",
	  test_the_system_name_service_answers_and_names_what_it_lacks },
	{ "the_worker_has_no_capabilities_once_started",
	  test_the_worker_has_no_capabilities_once_started },
	{ "a_cancelled_request_is_not_answered_and_leaves_the_queue",
	  test_a_cancelled_request_is_not_answered_and_leaves_the_queue },
	{ "one_user_s_queued_requests_do_not_hold_another_user_s",
	  test_one_user_s_queued_requests_do_not_hold_another_user_s },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, "unit-name-lookup", tests, ARRAY_SIZE(tests));
}
