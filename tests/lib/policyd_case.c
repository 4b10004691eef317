// SPDX-License-Identifier: GPL-2.0-or-later
/* An end-to-end case's frame; see policyd_case.h. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "json_path.h"
#include "policyd_case.h"

static void start(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
		  const char *policy, bool shared)
{
	CHECK_OK(uhid_dev_create(&c->dev, dev_cfg));
	CHECK_OK(policyd_prepare(&c->run));
	if (shared)
		CHECK_OK(chmod(c->run.dir, 0755));
	CHECK_OK(policyd_write_policy(&c->run, "50-test.json", policy));
	CHECK_OK(policyd_start(&c->run, NULL));
	c->fd = uhid_dev_open_hidraw(&c->dev, 0);
	CHECK_OK(c->fd);
}

void policyd_case_start(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			const char *policy)
{
	start(c, dev_cfg, policy, false);
}

void policyd_case_start_shared(struct policyd_case *c, const struct uhid_dev_config *dev_cfg,
			       const char *policy)
{
	start(c, dev_cfg, policy, true);
}

void policyd_case_end(struct policyd_case *c)
{
	close(c->fd);
	policyd_stop(&c->run, false);
	CHECK_OK(policyd_cleanup(&c->run));
	uhid_dev_destroy(&c->dev);
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
