/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hid-policyd's parts, as the service holds them: what it knows (state),
 * what puts it into the kernel (enforcer), the audit log and the records
 * read into it, the control socket and its commands, and the event loop's
 * descriptors. daemon.c starts, runs and stops them; reload.c reads the
 * policy again.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "audit/audit.h"
#include "audit/records.h"
#include "control/authorize.h"
#include "control/commands.h"
#include "control/control.h"
#include "daemon.h"
#include "enforce/enforce.h"
#include "state/state.h"

struct daemon {
	const struct daemon_config *cfg;
	struct state state;
	struct enforcer enforcer;
	struct audit_log audit;
	struct records records;
	struct commands commands;
	struct authorizer *authz;
	struct control *control;
	int epoll_fd, uevent_fd, signal_fd;
	uint64_t dropped_reported;
	bool quit;
};
