// SPDX-License-Identifier: GPL-2.0-or-later
/* Units starting and stopping, seen as their cgroups come and go (inotify). */
#include "unit_watch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "common/util.h"
#include "policy/policy.h"

/* systemd makes and removes a unit's cgroup with mkdir and rmdir; a move
 * is watched too, and the directory itself going (IN_DELETE_SELF, and the
 * IN_IGNORED that follows) means a slice went. */
#define UNIT_EVENTS (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
		     IN_DELETE_SELF | IN_ONLYDIR)

int unit_watch_open(struct unit_watch *w)
{
	*w = (struct unit_watch){ .fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC) };
	return w->fd < 0 ? -errno : 0;
}

void unit_watch_close(struct unit_watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	free(w->wds);
	*w = (struct unit_watch){ .fd = -1 };
}

static int add_wd(struct unit_watch *w, int wd)
{
	for (size_t i = 0; i < w->n_wds; i++)
		if (w->wds[i] == wd)
			return 0;
	if (w->n_wds == w->cap_wds) {
		size_t cap = w->cap_wds ? 2 * w->cap_wds : 8;
		int *wds = reallocarray(w->wds, cap, sizeof(*wds));

		if (!wds)
			return -ENOMEM;
		w->wds = wds;
		w->cap_wds = cap;
	}
	w->wds[w->n_wds++] = wd;
	return 0;
}

/* Watch the parent of the cgroup DIR, or the nearest directory above it
 * that exists, but nothing above ROOT. */
static int watch_parent(struct unit_watch *w, const char *root, char *dir)
{
	size_t root_len = strlen(root);
	char *slash;
	int wd;

	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < root_len)
			return -ENOENT;
		*slash = 0;
		wd = inotify_add_watch(w->fd, dir, UNIT_EVENTS);
		if (wd >= 0)
			return add_wd(w, wd);
		if (errno != ENOENT && errno != ENOTDIR)
			return -errno;
	}
}

/* Watch what P's units need, then drop the watches of directories no
 * longer needed. A directory watched before keeps its watch (adding it
 * again returns the same one): removing a watch queues an IN_IGNORED,
 * which must not look like a unit starting. */
int unit_watch_set(struct unit_watch *w, const struct policy *p)
{
	const char *root = policy_cgroup_root();
	_cleanup_free_ int *old = w->wds;
	size_t n_old = w->n_wds;
	int r = 0;

	w->wds = NULL;
	w->n_wds = w->cap_wds = 0;
	if (p->n_units && !root)
		r = -ENOENT;
	for (size_t i = 0; root && i < p->n_units; i++) {
		_cleanup_free_ char *dir = NULL;
		int k;

		if (asprintf(&dir, "%s/%s", root, p->units[i].path) < 0) {
			r = -ENOMEM;
			break;
		}
		k = watch_parent(w, root, dir);
		if (k < 0 && r == 0)
			r = k;
	}
	for (size_t i = 0; i < n_old; i++) {
		bool kept = false;

		for (size_t j = 0; j < w->n_wds && !kept; j++)
			kept = w->wds[j] == old[i];
		if (!kept)
			inotify_rm_watch(w->fd, old[i]);
	}
	return r;
}

bool unit_watch_drain(struct unit_watch *w)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool any = false;
	ssize_t n;

	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *at = buf; at + sizeof(struct inotify_event) <= buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)at;

			/* IN_IGNORED alone: a watch this daemon removed. A
			 * directory that went also sends IN_DELETE_SELF. */
			if (ev->mask & (UNIT_EVENTS | IN_Q_OVERFLOW) & ~IN_ONLYDIR)
				any = true;
			at += sizeof(*ev) + ev->len;
		}
	}
	return any;
}
