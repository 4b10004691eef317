/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The control socket's commands, run for control.c (control_run_fn). */
#pragma once

#include <stddef.h>
#include <jansson.h>

#include "control.h"

/* USERDATA is the struct daemon. */
int daemon_ctl_run(void *userdata, const struct control_request *req, json_t **result,
		   char *err, size_t errsize);
