// SPDX-License-Identifier: GPL-2.0-or-later
#include "user_db.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

void user_db_add_group(const char *name, gid_t gid)
{
	char copy[] = "/tmp/hid-policy-group.XXXXXX", buf[4096];
	FILE *in, *out;
	size_t n;
	int fd;

	CHECK(unshare(CLONE_NEWNS) == 0, "cannot enter a mount namespace of its own: %m");
	CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0,
	      "cannot make the mounts private: %m");
	fd = mkstemp(copy);
	CHECK(fd >= 0, "mkstemp: %m");
	out = fdopen(fd, "w");
	in = fopen("/etc/group", "re");
	CHECK(out && in, "cannot copy /etc/group: %m");
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		CHECK(fwrite(buf, 1, n, out) == n, "write %s: %m", copy);
	fclose(in);
	fprintf(out, "%s:x:%u:\n", name, (unsigned int)gid);
	CHECK(fchmod(fd, 0644) == 0, "chmod %s: %m", copy);
	CHECK(fclose(out) == 0, "write %s: %m", copy);
	CHECK(mount(copy, "/etc/group", NULL, MS_BIND, NULL) == 0,
	      "cannot bind %s over /etc/group: %m", copy);
	/* The mount holds the file; its name is not needed any more. */
	unlink(copy);
}
