// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What both sources of verdicts (authorize.c and the polkit backend,
 * authorize_polkit.c) say the same way: what each action lets a client do,
 * and the root-only rule that decides while polkit cannot.
 */
#include <stdio.h>
#include <string.h>

#include "authorize_internal.h"
#include "common/util.h"

const char *authz_action_purpose(const char *action_id)
{
	static const struct {
		const char *id, *purpose;
	} purposes[] = {
		{ HID_POLICY_ACTION_STATUS, "see the firewall's status, devices and rules" },
		{ HID_POLICY_ACTION_LOG, "read the audit log" },
		{ HID_POLICY_ACTION_RELOAD, "reload the rule sets" },
		{ HID_POLICY_ACTION_ALLOW, "grant or revoke temporary exceptions" },
	};

	for (size_t i = 0; i < ELEMENTSOF(purposes); i++)
		if (strcmp(purposes[i].id, action_id) == 0)
			return purposes[i].purpose;
	return "use this request";
}

void authz_root_only(const struct peer_cred *peer, const char *action_id, const char *why,
		     enum authz_verdict *ret_verdict, char *msg, size_t msg_size)
{
	if (peer->uid == 0) {
		*ret_verdict = AUTHZ_ALLOWED;
		snprintf(msg, msg_size, "root");
		return;
	}
	*ret_verdict = AUTHZ_DENIED;
	snprintf(msg, msg_size, "only root may %s (%s): polkit is not available to authorize "
		 "uid %u (%s)", authz_action_purpose(action_id), action_id,
		 (unsigned int)peer->uid, why);
}
