/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hid-policyctl's side of the control socket, and its polkit agent. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>

struct ctl_conn {
	int fd;
	char *buf;		/* received, not yet returned */
	size_t len, cap;
};

/* Connect to the daemon's socket. Returns 0 or -errno. */
int ctl_connect(struct ctl_conn *c, const char *path);
void ctl_close(struct ctl_conn *c);

/* Send one request line. Returns 0 or -errno. */
int ctl_send(struct ctl_conn *c, json_t *request);

/*
 * Receive one reply line as JSON. Returns 0 with *ret set, -EPIPE when the
 * daemon closed the connection, -E2BIG for a line longer than
 * CTL_REPLY_LINE_MAX, -EBADMSG for a line that is not a JSON object.
 */
int ctl_receive(struct ctl_conn *c, json_t **ret);

/*
 * On a terminal, start pkttyagent for this process so polkit can ask for a
 * password, as systemctl does. Returns the agent's pid, or 0 when none was
 * started (no terminal, no pkttyagent).
 */
pid_t ctl_agent_start(void);
void ctl_agent_stop(pid_t pid);

/* "hidraw3" or "/dev/hidraw3" as the HID device's sysfs name (in BUF);
 * anything else is returned as it is; NULL for a hidraw node that does not
 * exist. */
const char *ctl_resolve_device(const char *arg, char *buf, size_t size);
