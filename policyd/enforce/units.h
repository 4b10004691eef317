/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The systemd units the policy names as senders: their cgroups watched
 * and looked up, and the rules compiled again when one starts or stops.
 * Temporary allows for a unit follow its cgroup too.
 */
#pragma once

#include "enforce.h"

/* Watch where the cgroups of the policy's units come and go, then look
 * them up (in this order, so that no start between the two is missed).
 * Returns 0 or a negative errno (said). */
int units_watch(struct enforcer *en);

/* A unit's cgroup came or went: look the units up again and, when any has
 * another cgroup than before, compile every device's rules again. */
void units_changed(struct enforcer *en);

/* A new policy P must know the units of the temporary allows too: add
 * them. Returns 0 or a negative errno (said). */
int units_of_allows_into(struct enforcer *en, struct policy *p);
