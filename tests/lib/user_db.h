/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Groups that a test needs by name, on a machine that does not have them:
 * the calling process moves into a mount namespace of its own and a copy of
 * /etc/group with the group added is bind-mounted over the original. Its
 * children (hid-policyd among them) see the group; nothing outside the
 * namespace changes. Each test runs in its own process (harness.h), so the
 * group lasts as long as the test.
 */
#pragma once

#include <sys/types.h>

/* Add group NAME with GID (no members: give it to processes with
 * setgroups). Fails the test when it cannot. */
void user_db_add_group(const char *name, gid_t gid);
