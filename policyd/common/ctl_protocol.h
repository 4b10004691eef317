/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control protocol, shared by hid-policyd's control socket and
 * hid-policyctl (doc/control-protocol.md tells it in full).
 *
 * One request per connection on a SOCK_STREAM unix socket: the client sends
 * one JSON object on one line,
 *
 *	{"version":1,"command":"allow","args":{...},"interactive":true}
 *
 * and the daemon answers with JSON objects, one per line: any number of
 * {"version":1,"record":{...}} (log only), then exactly one final reply,
 *
 *	{"version":1,"ok":true,"result":{...}}
 *	{"version":1,"ok":false,"error":"denied","message":"...","action":"..."}
 *
 * and closes the connection. "log" with "follow" streams records until the
 * client closes.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

/* The daemon's runtime directory: its control socket, and the decisions
 * it publishes for udev. */
#define RUNTIME_DIR_DEFAULT	"/run/hid-policy"

#define CTL_PROTOCOL_VERSION	1
#define CTL_SOCKET_NAME		"control"	/* in the daemon's runtime directory */
#define CTL_REQUEST_MAX		(64 * 1024)	/* a request line, newline included */
#define CTL_REPLY_LINE_MAX	(4 * 1024 * 1024) /* a reply line, newline included */

/* log --lines: at most this many records are kept back to show last. */
#define CTL_LOG_LINES_MAX	100000

/* Temporary allows: how long one lasts unless --for says otherwise, and at most. */
#define CTL_ALLOW_DEFAULT_S	600
#define CTL_ALLOW_MAX_S		(24 * 3600)

/* explain's "group": a process's gid and supplementary groups, at most this many. */
#define CTL_SUBJECT_GROUPS_MAX	1024
/* allow's "group": groups whose members it lets through, at most this many
 * (a rule's sender lists as many: HID_SENDER_MAX_IDS). */
#define CTL_ALLOW_GROUPS_MAX	4

/* Error codes of a failed reply ("error"). */
#define CTL_ERR_BAD_REQUEST	"bad-request"		/* not JSON, wrong types, bad arguments */
#define CTL_ERR_VERSION		"unsupported-version"
#define CTL_ERR_UNKNOWN		"unknown-command"
#define CTL_ERR_TOO_LARGE	"too-large"		/* request longer than CTL_REQUEST_MAX */
#define CTL_ERR_DENIED		"denied"		/* not authorized: "action" names what is needed */
#define CTL_ERR_BUSY		"busy"			/* too many clients */
#define CTL_ERR_TIMEOUT		"timeout"		/* the request did not arrive in time */
#define CTL_ERR_NOT_FOUND	"not-found"		/* no such device or exception */
#define CTL_ERR_FAILED		"failed"		/* the command itself failed */

/* hid-policyctl's exit codes (hid-policyctl(1), EXIT STATUS). */
enum ctl_exit {
	CTL_EXIT_OK = 0,
	CTL_EXIT_FAILED = 1,		/* the daemon could not do it (message says why) */
	CTL_EXIT_USAGE = 2,		/* bad command line */
	CTL_EXIT_DENIED = 3,		/* not authorized */
	CTL_EXIT_UNREACHABLE = 4,	/* no daemon at the socket */
	CTL_EXIT_PROTOCOL = 5,		/* the daemon's reply made no sense */
};

/* The polkit actions a command needs (shipped in org.hid-policy.policy);
 * the daemon authorizes each request with one (authorize.h). */
#define HID_POLICY_ACTION_STATUS "org.hid-policy.status"	/* status, devices, rules, explain, generate */
#define HID_POLICY_ACTION_LOG "org.hid-policy.log"		/* log */
#define HID_POLICY_ACTION_RELOAD "org.hid-policy.reload"	/* reload */
#define HID_POLICY_ACTION_ALLOW "org.hid-policy.allow"		/* allow, revoke */

struct ctl_command {
	const char *name;
	const char *action;	/* the polkit action it needs (HID_POLICY_ACTION_*) */
	bool streams;		/* answers with records before the final reply */
};

/* The command called NAME, or NULL. */
const struct ctl_command *ctl_command_find(const char *name);
/* "status, devices, ..." for messages. */
const char *ctl_command_list(void);

/*
 * A duration: a positive number with a unit (s, m, h; several may follow
 * each other, "1h30m"), or plain seconds. Returns 0 with *ret_s in
 * 1..CTL_ALLOW_MAX_S, -EINVAL when malformed, -ERANGE when out of range.
 */
int ctl_parse_duration(const char *s, uint64_t *ret_s);

/* "2026-12-03T06:29:40.123Z", as the audit log writes times. */
void ctl_format_time(char *buf, size_t size, uint64_t realtime_ns);

/*
 * A --since argument as an audit-log time (UTC, ctl_format_time's form) to
 * compare records with: "-10m" or "10m" (a duration ago, where d and w
 * count days and weeks too: "7d"), "@SECONDS" (Unix time),
 * "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS]" or with a space for the T (local
 * time unless it ends in Z). NOW is the current time. Returns 0 or -EINVAL.
 */
int ctl_parse_since(const char *s, time_t now, char *buf, size_t size);

/* Replies, as the daemon sends them (new references). */
json_t *ctl_reply_ok(json_t *result);	/* steals result */
json_t *ctl_reply_error(const char *code, const char *message, const char *action);
