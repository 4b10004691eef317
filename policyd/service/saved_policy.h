/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The last policy that loaded, kept on disk, so that a daemon whose policy
 * is broken when it starts (an administrator's mistake, an upgrade, in
 * this boot or after a reboot) runs with the rules that were in force
 * rather than with none. A copy of every file as it was read, in one
 * directory: loaded back, the files come in the same order.
 */
#pragma once

#include "policy/diag.h"
#include "policy/policy.h"

#define SAVED_POLICY_DIR_DEFAULT "/var/lib/hid-policy/policy-in-force"

/* Keep P's files in DIR, replacing what was there: they are written to
 * DIR.new, which then takes DIR's place in one rename, so that a crash
 * leaves the old copy or the new one, never part of either. No link is
 * followed: -ELOOP when DIR's parent is one; a link at DIR or DIR.new is
 * removed, not its target. Returns 0 or a negative errno. */
int saved_policy_store(const char *dir, const struct policy *p);

/* Load the policy kept in DIR into *RET (problems into DIAG). Returns 0,
 * -ENOENT when none was kept, -ELOOP when DIR, its parent or a file in it
 * is a symbolic link, or a negative errno. */
int saved_policy_load(const char *dir, struct diag *diag, struct policy **ret);
