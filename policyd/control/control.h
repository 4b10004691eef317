/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket (RUNTIME_DIR/control): clients, framing, bounds and
 * authorization. Every request is authorized per request (authorize.h)
 * before anything runs; the commands themselves are the daemon's (a
 * callback), except "log", which this file streams from the audit log.
 *
 * Nothing here blocks: sockets are non-blocking, output is buffered with a
 * bound, and clients that stall are dropped (see control.c for the limits).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "authorize.h"

struct control;

/* The peer's command name as the kernel keeps it (TASK_COMM_LEN - 1 bytes
 * at most), and as control.c hands it on: printable ASCII, every other
 * byte written as \xNN (a NUL-terminated string of at most 4 * 15 bytes). */
#define CONTROL_COMM_RAW	15
#define CONTROL_COMM_SIZE	(4 * CONTROL_COMM_RAW + 1)

struct control_request {
	const char *command;
	json_t *args;			/* an object, maybe empty */
	const struct peer_cred *peer;
	const char *comm;		/* the peer's command name, escaped (CONTROL_COMM_SIZE) */
};

/*
 * Run an authorized command. Returns 0 with *result set (a new reference),
 * or a negative errno with a message for the client in ERR; -EINVAL is
 * reported as a bad request, -ENOENT as not found, others as failures.
 */
typedef int (*control_run_fn)(void *userdata, const struct control_request *req,
			      json_t **result, char *err, size_t errsize);

/* A message for the daemon's log (syslog priority). */
typedef void (*control_log_fn)(void *userdata, int priority, const char *message);

/*
 * The device a request's ARGS name ("device"), for the polkit prompt, which
 * must say what is approved: 0 with TEXT set to the daemon's words for it
 * and SYSNAME to its sysfs name, or a negative errno (no such device: the
 * arg is shown as given, and the command will say so once authorized).
 */
typedef int (*control_describe_fn)(void *userdata, json_t *args, char *text, size_t text_size,
				   char *sysname, size_t sysname_size);

struct control_hooks {
	control_run_fn run;
	control_log_fn log;
	control_describe_fn describe;	/* may be NULL */
	void *userdata;
};

/*
 * Create RUNTIME_DIR/control (mode 0666: requests are authorized one by
 * one) after checking RUNTIME_DIR is a root-owned directory no one else may
 * write (0755; a looser mode is repaired, with a message). Watch its file
 * descriptors in EPOLL_FD. AUDIT_LOG is what "log" reads.
 * Returns 0 or a negative errno (the reason went to hooks->log).
 */
int control_open(struct control **ret, const char *runtime_dir, int epoll_fd,
		 struct authorizer *authz, const char *audit_log,
		 const struct control_hooks *hooks);
void control_free(struct control *c);

/* Is FD one of the control socket's (listener, clients, authorizer)? */
bool control_owns(const struct control *c, int fd);
/* Handle readiness of one of its file descriptors. */
void control_dispatch(struct control *c, int fd, uint32_t events);
/* Once per event-loop iteration: time-outs, and new audit records for
 * "log --follow" clients (call it after the audit log was flushed). */
void control_tick(struct control *c);
/* The audit log was reopened: followers move to the new file once they
 * read the old one to its end. */
void control_log_reopened(struct control *c);

/* Clients connected now (for status). */
unsigned int control_n_clients(const struct control *c);
