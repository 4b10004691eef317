/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket's commands, run for control.c (control_run_fn): what
 * they read and change, and the one thing they ask of the service above,
 * a reload, through a hook it passes in.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "audit/audit.h"
#include "authorize.h"
#include "control.h"
#include "enforce/enforce.h"
#include "state/state.h"

struct commands {
	struct state *state;
	struct enforcer *en;
	struct audit_log *audit;
	struct authorizer *authz;
	struct control *control;
	const char *version;		/* told by "status" */
	bool sandboxed;
	/* Read the policy again and put it in force; problems are appended
	 * to MESSAGES (strings). Returns 0 or a negative errno (the rules in
	 * force stay). */
	int (*reload)(void *userdata, json_t *messages);
	void *userdata;
};

/* control_describe_fn: "\"NAME\" (SYSFS NAME)" of the device ARGS name,
 * and its sysfs name. USERDATA is a struct commands. */
int commands_describe_device(void *userdata, json_t *args, char *text, size_t text_size,
			     char *sysname, size_t sysname_size);

/* USERDATA is a struct commands. */
int commands_run(void *userdata, const struct control_request *req, json_t **result,
		 char *err, size_t errsize);
