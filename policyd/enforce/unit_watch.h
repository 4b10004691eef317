/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Units starting and stopping. A rule's sender names a systemd unit by its
 * cgroup, and a unit gets a new cgroup each time it starts: the watch sees
 * the cgroups of the policy's units made and removed, so that the daemon
 * looks them up again and compiles the rules with the new ones.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct policy;

struct unit_watch {
	int fd;		/* inotify; -1: not open */
	int *wds;	/* one watch per directory a unit's cgroup would appear in */
	size_t n_wds, cap_wds;
};

int unit_watch_open(struct unit_watch *w);
void unit_watch_close(struct unit_watch *w);

/*
 * Watch the directories where P's units' cgroups are made and removed
 * (their slices; where a slice does not exist yet, the nearest directory
 * above it that does). Replaces the watches of the previous policy.
 * Returns 0 or a negative errno.
 */
int unit_watch_set(struct unit_watch *w, const struct policy *p);

/* Read the events that are waiting: true when any came (the caller looks
 * the units up again and sets the watch again, as a slice may have come). */
bool unit_watch_drain(struct unit_watch *w);
