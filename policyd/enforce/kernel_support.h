/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the firewall on this kernel can enforce of a policy.
 *
 * Senders: a rule with a user, group or executable needs the calling task
 * (CAP_PERFMON, CONFIG_BPF_EVENTS), one with a unit the task's cgroups
 * (CONFIG_CGROUPS): where the kernel cannot tell, the rule would never be
 * what it says, so it is an error, never a silent allow.
 *
 * Input: a rule that concerns input reports puts a hid_device_event
 * program on the device, and upstream HID-BPF (Linux 6.3 and later, up to
 * at least 7.3.4) has two bugs there that user space cannot close
 * (doc/security.md, section 4): the event buffer is sized without the
 * device lock, so a driver binding or unbinding at the moment the program
 * is registered leaves it with no buffer or a short one, and a report
 * longer than the buffer is copied into it all the same. Either lets a
 * device (or the race) write past the buffer. On such a kernel input rules
 * are an error unless the administrator accepts that risk
 * (--allow-unsafe-input-rules); this project's port fixes both.
 */
#pragma once

#include <stdbool.h>

#include "loader.h"
#include "policy/diag.h"
#include "policy/policy.h"

/* One error in DIAG for each rule of P whose sender the firewall cannot
 * tell with features F. Returns 0 or -EOPNOTSUPP. */
int fw_check_senders(const struct fw_features *f, const struct policy *p, struct diag *diag);

#define FW_INPUT_UNSAFE                                                        \
	"this rule concerns input reports, which needs a HID-BPF hid_device_event program on the device; on this kernel that program can let a device write past the kernel's event buffer (upstream HID-BPF, Linux 6.3 and later: reports longer than the buffer are copied into it, and a driver (re)binding while the program is registered leaves the buffer unsized; doc/security.md, section 4; fixed by kernel/upstream's series), so input rules are refused here; hid-policyd --allow-unsafe-input-rules accepts them at that risk"
#define FW_INPUT_UNSAFE_ALLOWED                                                \
	"this rule concerns input reports, and on this kernel a HID-BPF hid_device_event program can let a device write past the kernel's event buffer (doc/security.md, section 4): accepted because of --allow-unsafe-input-rules"

/* Does a rule set of P need the firewall on its devices' input path? */
bool fw_policy_needs_input(const struct policy *p);

/* On a kernel whose input path is not safe (!F->input_safe), one error in
 * DIAG for each rule set of P that needs the input path (at the rule that
 * does, or its default), or a warning when ALLOW_UNSAFE. Returns 0 or
 * -EOPNOTSUPP. */
int fw_check_input(const struct fw_features *f, bool allow_unsafe, const struct policy *p,
		   struct diag *diag);

#define FW_INPUT_UNCHECKED                                                     \
	"this rule concerns input reports, and this kernel has no HID-BPF, so whether the kernel the policy is for takes input rules safely is not checked: a daemon on upstream Linux 6.3 or later refuses them unless --allow-unsafe-input-rules (hid-policyd(8), Input rules); run hid-policyd --check on that kernel to know"

/* Without HID-BPF here: one note in DIAG, at P's first rule (or default)
 * that concerns input reports, that FW_INPUT_UNSAFE was not checked. */
void fw_note_input_unchecked(const struct policy *p, struct diag *diag);
