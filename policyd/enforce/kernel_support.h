/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Can the firewall on this kernel tell the senders a policy names? A rule
 * with a user, group or executable needs the calling task (CAP_PERFMON,
 * CONFIG_BPF_EVENTS), one with a unit the task's cgroups (CONFIG_CGROUPS):
 * where the kernel cannot tell, the rule would never be what it says, so
 * it is an error, never a silent allow.
 */
#pragma once

#include "loader.h"
#include "policy/diag.h"
#include "policy/policy.h"

/* One error in DIAG for each rule of P whose sender the firewall cannot
 * tell with features F. Returns 0 or -EOPNOTSUPP. */
int fw_check_senders(const struct fw_features *f, const struct policy *p, struct diag *diag);
