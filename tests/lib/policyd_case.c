// SPDX-License-Identifier: GPL-2.0-or-later
/* An end-to-end case's frame; see policyd_case.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "json_path.h"
#include "policyd_case.h"

static void start(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
		  const char *policy, bool shared, const char *const *extra_args)
{
	c->shared = false;
	CHECK_OK(uhid_dev_create(&c->dev, dev_cfg));
	CHECK_OK(policyd_prepare(&c->run));
	if (shared)
		CHECK_OK(chmod(c->run.dir, 0755));
	CHECK_OK(policyd_write_policy(&c->run, "50-test.json", policy));
	CHECK_OK(policyd_start(&c->run, extra_args));
	c->fd = uhid_dev_open_hidraw(&c->dev, 0);
	CHECK_OK(c->fd);
}

void policyd_case_start(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			const char *policy)
{
	start(c, dev_cfg, policy, false, NULL);
}

void policyd_case_start_args(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			     const char *policy, const char *const *extra_args)
{
	start(c, dev_cfg, policy, false, extra_args);
}

void policyd_case_start_shared(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			       const char *policy)
{
	start(c, dev_cfg, policy, true, NULL);
}

/* Is PID alive, not a zombie? A shared daemon is the harness's child, not
 * the case's: the case cannot wait for it, only look. */
static bool running(pid_t pid)
{
	char path[64], line[256], *close_paren;
	FILE *f;
	bool alive = false;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f)) {
		close_paren = strrchr(line, ')');
		alive = close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z' &&
			close_paren[2] != 'X';
	}
	fclose(f);
	return alive;
}

void policyd_case_end(struct policyd_case *c)
{
	close(c->fd);
	if (c->shared) {
		uhid_dev_destroy(&c->dev);
		CHECK(running(c->run.pid), "the shared daemon (pid %d) is no longer running",
		      (int)c->run.pid);
		return;
	}
	policyd_stop(&c->run, false);
	CHECK_OK(policyd_cleanup(&c->run));
	uhid_dev_destroy(&c->dev);
}

int policyd_shared_start(struct policyd_run *run, const char *policy)
{
	int r;

	if (!policy)
		return -EINVAL;
	r = policyd_prepare(run);
	if (r >= 0)
		r = policyd_write_policy(run, "50-test.json", policy);
	if (r >= 0)
		r = policyd_start(run, NULL);
	return r < 0 ? r : 0;
}

void policyd_shared_stop(struct policyd_run *run)
{
	policyd_stop(run, false);
	policyd_cleanup(run);
}

/* Did the daemon log "SYSNAME (...): protected"? */
static bool said_protected(const struct policyd_run *run, const char *sysname)
{
	char *line = NULL, *p;
	size_t cap = 0, len = strlen(sysname);
	bool found = false;
	FILE *f = fopen(run->stderr_log, "r");

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		p = strstr(line, sysname);
		found = p && p[len] == ' ' && p[len + 1] == '(' && strstr(p, "): protected");
	}
	free(line);
	fclose(f);
	return found;
}

void policyd_case_start_on(struct policyd_case *c, const struct policyd_run *shared,
			   const struct uhid_dev_config *dev_cfg)
{
	const struct timespec pause = { .tv_nsec = 5 * 1000 * 1000 };
	int limit_s = 30 * test_slow_factor();
	struct timespec now;
	time_t deadline;

	c->run = *shared;
	c->shared = true;
	CHECK(running(c->run.pid), "the shared daemon (pid %d) is not running", (int)c->run.pid);
	CHECK_OK(uhid_dev_create(&c->dev, dev_cfg));
	clock_gettime(CLOCK_MONOTONIC, &now);
	deadline = now.tv_sec + limit_s;
	while (!said_protected(&c->run, c->dev.sysname)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		CHECK(now.tv_sec < deadline, "the shared daemon did not protect %s within %d s",
		      c->dev.sysname, limit_s);
		nanosleep(&pause, NULL);
	}
	c->fd = uhid_dev_open_hidraw(&c->dev, 0);
	CHECK_OK(c->fd);
}

json_t *policyd_case_ctl_json(struct policyd_run *run, uid_t uid, const char *const *args)
{
	struct policyctl_output o;
	json_t *j;

	CHECK_OK(policyctl_run(run, uid, args, &o));
	CHECK(o.status == 0, "uid %d: exit %d: %s", (int)uid, o.status, o.err);
	j = json_parse_check(o.out);
	CHECK(json_is_object(j), "not an object: %s", o.out);
	policyctl_output_done(&o);
	return j;
}

void policyd_case_ctl_shows(struct policyd_run *run, uid_t uid, const char *const *args)
{
	struct policyctl_output o;

	CHECK_OK(policyctl_run(run, uid, args, &o));
	CHECK(o.status == 0 && o.out[0], "%s: exit %d, out \"%s\", err \"%s\"", args[0], o.status,
	      o.out, o.err);
	policyctl_output_done(&o);
}

json_t *policyd_case_device_view(struct policyd_case *c)
{
	json_t *j = POLICYCTL_JSON(&c->run, (uid_t)-1, "devices"), *d, *found = NULL;
	size_t i;

	json_array_foreach(json_object_get(j, "devices"), i, d)
		if (!strcmp(json_path_str_or_empty(d, "sysfs"), c->dev.sysname))
			found = json_incref(d);
	json_decref(j);
	CHECK(found, "%s is not in the device list", c->dev.sysname);
	return found;
}
