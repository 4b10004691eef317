// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The control socket. A client's life:
 *
 *	READING      its request line arrives (bounded, timed)
 *	AUTHORIZING  the authorizer decides (never blocks the loop)
 *	STREAMING    "log": records are read from the audit log as the
 *	             client takes them, the rotated files first (log_files.h);
 *	             "follow": until it closes, from the end of the current
 *	             file unless a history was asked for ("since", "lines")
 *	WRITING      the final reply drains, then the connection is closed
 *
 * Limits: CONTROL_MAX_CLIENTS at once, CONTROL_MAX_PER_UID of them for one
 * user other than root (one more is told "busy") and all but
 * CONTROL_ROOT_RESERVED for users other than root together, a request
 * of at most CTL_REQUEST_MAX bytes within REQUEST_TIMEOUT_MS, output
 * buffered up to CTL_REPLY_LINE_MAX, and a client that takes none of its
 * output for STALL_TIMEOUT_MS is dropped.
 */
#include "control.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit/log_files.h"
#include "common/ctl_protocol.h"
#include "common/log_filter.h"
#include "common/util.h"
#include "name_lookup.h"

#define CONTROL_MAX_CLIENTS	32
#define CONTROL_MAX_PER_UID	8	/* per user other than root: no one user fills the table */
#define CONTROL_ROOT_RESERVED	4	/* slots users other than root never take: a few users
					 * together cannot lock root out */
#define REQUEST_TIMEOUT_MS	10000
#define AUTHORIZE_TIMEOUT_MS	(5 * 60 * 1000)	/* someone may be typing a password */
#define NAME_LOOKUP_TIMEOUT_MS	30000	/* a name service that does not answer */
#define STALL_TIMEOUT_MS	30000
#define LOG_OUTPUT_LOW		(256 * 1024)	/* read more log while less is pending */
#define LOG_READ_BUDGET		(256 * 1024)	/* log bytes read per turn */
#define LOG_LINE_MAX		(64 * 1024)	/* longer lines are skipped */

enum client_state {
	CLIENT_READING,
	CLIENT_LOOKING_UP,	/* its user and group names (name_lookup.h) */
	CLIENT_AUTHORIZING,
	CLIENT_STREAMING,
	CLIENT_WRITING,
};

struct log_stream {
	char **rotated;		/* the rotated files still to read, oldest first */
	size_t n_rotated, next_rotated;
	struct log_reader reader;	/* the one being read (reader.gz != NULL) */
	int fd;			/* the audit log, -1 until it exists */
	bool from_end;		/* follow without a history: skip what is there */
	bool tell_caught_up;	/* "lines" with "follow": say when the history ends */
	bool at_end;		/* the last turn read all there was */
	unsigned int generation; /* control.log_generation when opened */
	struct log_filter filter;
	bool follow;
	bool skipping;		/* inside an over-long line */
	char *line;		/* a partial line */
	size_t line_len;
	uint64_t sent;
	int read_error;		/* errno of a failed read: the stream ends with it */
};

struct client {
	int fd;
	uint64_t cookie;
	enum client_state state;
	struct peer_cred peer;
	char comm[CONTROL_COMM_SIZE];
	char *in;
	size_t in_len;
	char *out;
	size_t out_len, out_off, out_cap;
	uint32_t events;	/* epoll interest now */
	long deadline_ms;	/* READING, LOOKING_UP, AUTHORIZING */
	long progress_ms;	/* last time output drained */
	json_t *request;
	const struct ctl_command *cmd;
	bool interactive;
	struct log_stream log;
};

struct control {
	int listen_fd, epoll_fd;
	char *path;
	struct authorizer *authz;
	struct name_lookup *names;
	char *audit_log;
	unsigned int log_generation;
	struct control_hooks hooks;
	struct client *clients[CONTROL_MAX_CLIENTS];
	uint64_t last_cookie;
};


static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void note(struct control *c, int priority, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(struct control *c, int priority, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->hooks.log)
		c->hooks.log(c->hooks.userdata, priority, msg);
}

/* The runtime directory must be ours and writable by nobody else, or
 * anyone could put their own socket in place of ours. */
static int check_runtime_dir(struct control *c, const char *dir)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0) {
		int r = -errno;

		note(c, LOG_ERR, "%s: %s", dir, strerror(-r));
		return r;
	}
	if (st.st_uid != geteuid()) {
		note(c, LOG_ERR, "%s belongs to uid %u, not to the daemon (uid %u): refusing to put the control socket there",
		     dir, (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if ((st.st_mode & 07777) != 0755) {
		if (fchmod(fd, 0755) < 0) {
			int r = -errno;

			note(c, LOG_ERR, "%s has mode %04o and cannot be changed to 0755: %s",
			     dir, (unsigned int)(st.st_mode & 07777), strerror(-r));
			return r;
		}
		/* Tighter (a umask at creation) is only corrected; looser
		 * was a hole, and is told. */
		if (st.st_mode & 07022)
			note(c, LOG_WARNING, "%s had mode %04o; changed to 0755", dir,
			     (unsigned int)(st.st_mode & 07777));
	}
	return 0;
}

static int make_socket(struct control *c)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(c->path) >= sizeof(addr.sun_path)) {
		note(c, LOG_ERR, "%s: path too long for a unix socket", c->path);
		return -ENAMETOOLONG;
	}
	strcpy(addr.sun_path, c->path);
	/* A previous run's socket: replace it. Anything else: leave it be. */
	if (lstat(c->path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			note(c, LOG_ERR, "%s exists and is not a socket: refusing to replace it", c->path);
			return -EEXIST;
		}
		unlink(c->path);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    chmod(c->path, 0666) < 0 || listen(fd, 16) < 0) {
		int r = -errno;

		note(c, LOG_ERR, "cannot listen on %s: %s", c->path, strerror(-r));
		close(fd);
		return r;
	}
	return fd;
}

static int watch_fd(struct control *c, int fd, uint32_t events, int op)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };

	return epoll_ctl(c->epoll_fd, op, fd, &ev) < 0 ? -errno : 0;
}

int control_open(struct control **ret, const char *runtime_dir, int epoll_fd,
		 struct authorizer *authz, const char *audit_log,
		 const struct control_hooks *hooks)
{
	struct control *c = calloc(1, sizeof(*c));
	int r;

	if (!c)
		return -ENOMEM;
	c->listen_fd = -1;
	c->epoll_fd = epoll_fd;
	c->authz = authz;
	c->hooks = *hooks;
	if (asprintf(&c->path, "%s/%s", runtime_dir, CTL_SOCKET_NAME) < 0) {
		c->path = NULL;
		control_free(c);
		return -ENOMEM;
	}
	c->audit_log = strdup(audit_log);
	if (!c->audit_log) {
		control_free(c);
		return -ENOMEM;
	}
	r = name_lookup_new(&c->names, NULL);
	if (r < 0) {
		note(c, LOG_ERR, "cannot start the control socket's name lookups: %s", strerror(-r));
		control_free(c);
		return r;
	}
	r = check_runtime_dir(c, runtime_dir);
	if (r >= 0)
		r = c->listen_fd = make_socket(c);
	if (r >= 0)
		r = watch_fd(c, c->listen_fd, EPOLLIN, EPOLL_CTL_ADD);
	if (r >= 0)
		r = watch_fd(c, authorizer_fd(authz), EPOLLIN, EPOLL_CTL_ADD);
	if (r >= 0)
		r = watch_fd(c, name_lookup_fd(c->names), EPOLLIN, EPOLL_CTL_ADD);
	if (r < 0) {
		control_free(c);
		return r;
	}
	*ret = c;
	return 0;
}

static void log_stream_done(struct log_stream *ls)
{
	log_reader_close(&ls->reader);
	log_files_free(ls->rotated, ls->n_rotated);
	ls->rotated = NULL;
	ls->n_rotated = ls->next_rotated = 0;
	if (ls->fd >= 0)
		close(ls->fd);
	ls->fd = -1;
}

static void client_free(struct control *c, struct client *cl)
{
	if (cl->state == CLIENT_AUTHORIZING)
		authorizer_cancel(c->authz, cl->cookie);
	if (cl->state == CLIENT_LOOKING_UP)
		name_lookup_cancel(c->names, cl->cookie);
	epoll_ctl(c->epoll_fd, EPOLL_CTL_DEL, cl->fd, NULL);
	close(cl->fd);
	log_stream_done(&cl->log);
	free(cl->log.line);
	json_decref(cl->request);
	free(cl->in);
	free(cl->out);
	free(cl);
}

static void drop_client(struct control *c, struct client *cl)
{
	for (size_t i = 0; i < CONTROL_MAX_CLIENTS; i++)
		if (c->clients[i] == cl)
			c->clients[i] = NULL;
	client_free(c, cl);
}

void control_free(struct control *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < CONTROL_MAX_CLIENTS; i++)
		if (c->clients[i])
			client_free(c, c->clients[i]);
	if (c->listen_fd >= 0) {
		close(c->listen_fd);
		unlink(c->path);
	}
	if (c->names)
		epoll_ctl(c->epoll_fd, EPOLL_CTL_DEL, name_lookup_fd(c->names), NULL);
	name_lookup_free(c->names);
	free(c->path);
	free(c->audit_log);
	free(c);
}

bool control_owns(const struct control *c, int fd)
{
	if (fd == c->listen_fd || fd == authorizer_fd(c->authz) ||
	    fd == name_lookup_fd(c->names))
		return true;
	for (size_t i = 0; i < CONTROL_MAX_CLIENTS; i++)
		if (c->clients[i] && c->clients[i]->fd == fd)
			return true;
	return false;
}

unsigned int control_n_clients(const struct control *c)
{
	unsigned int n = 0;

	for (size_t i = 0; i < CONTROL_MAX_CLIENTS; i++)
		n += c->clients[i] != NULL;
	return n;
}

static void set_interest(struct control *c, struct client *cl)
{
	/* Past its request, a client is only watched for output room;
	 * EPOLLHUP (it closed) is reported regardless. */
	uint32_t events = cl->state == CLIENT_READING ? EPOLLIN : 0;

	if (cl->out_off < cl->out_len)
		events |= EPOLLOUT;
	/* A log stream with more to read: come back as soon as possible. */
	if (cl->state == CLIENT_STREAMING && !cl->log.at_end)
		events |= EPOLLOUT;
	if (events != cl->events && watch_fd(c, cl->fd, events, EPOLL_CTL_MOD) == 0)
		cl->events = events;
}

/* Queue one line. Returns 0, or -E2BIG when the buffer would exceed
 * CTL_REPLY_LINE_MAX (nothing queued). */
static int queue_json(struct client *cl, json_t *obj)
{
	_cleanup_free_ char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
	size_t len, need;

	if (!text)
		return -ENOMEM;
	len = strlen(text);
	/* Move what waits to the front: a stream that never quite drains
	 * must not creep towards the limit. */
	if (cl->out_off > 0) {
		memmove(cl->out, cl->out + cl->out_off, cl->out_len - cl->out_off);
		cl->out_len -= cl->out_off;
		cl->out_off = 0;
	}
	need = cl->out_len + len + 1;
	if (need > CTL_REPLY_LINE_MAX)
		return -E2BIG;
	if (need > cl->out_cap) {
		size_t cap = cl->out_cap ? cl->out_cap : 4096;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(cl->out, cap);
		if (!p)
			return -ENOMEM;
		cl->out = p;
		cl->out_cap = cap;
	}
	memcpy(cl->out + cl->out_len, text, len);
	cl->out[cl->out_len + len] = '\n';
	cl->out_len += len + 1;
	return 0;
}

/* Send what the socket takes now. Returns 0, or -errno when the client is gone. */
static int flush_client(struct client *cl)
{
	while (cl->out_off < cl->out_len) {
		ssize_t n = send(cl->fd, cl->out + cl->out_off, cl->out_len - cl->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		cl->out_off += (size_t)n;
		cl->progress_ms = now_ms();
	}
	return 0;
}

/* The final reply: queue it and drain; the connection closes once sent. */
static void finish(struct control *c, struct client *cl, json_t *reply)
{
	if (reply && queue_json(cl, reply) == -E2BIG) {
		json_t *err = ctl_reply_error(CTL_ERR_FAILED,
					      "the reply is larger than the protocol allows", NULL);

		/* Whatever was queued before stays; the error follows it. */
		cl->out_len = cl->out_off;
		queue_json(cl, err);
		json_decref(err);
	}
	json_decref(reply);
	cl->state = CLIENT_WRITING;
	cl->progress_ms = now_ms();
	if (flush_client(cl) < 0 || cl->out_off == cl->out_len) {
		drop_client(c, cl);
		return;
	}
	set_interest(c, cl);
}

static void fail(struct control *c, struct client *cl, const char *code, const char *action,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void fail(struct control *c, struct client *cl, const char *code, const char *action,
		 const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	finish(c, cl, ctl_reply_error(code, msg, action));
}

/*
 * The peer's command name, which it chose itself (prctl(PR_SET_NAME)): any
 * bytes but NUL, newlines, escape sequences and invalid UTF-8 included. It
 * goes into audit records (JSON, which must be UTF-8) and the daemon's log,
 * so everything but printable ASCII is written as \xNN, and so is '\'.
 */
static void read_comm(pid_t pid, char buf[static CONTROL_COMM_SIZE])
{
	unsigned char raw[CONTROL_COMM_RAW + 1];	/* and the kernel's newline */
	char path[64];
	size_t len = 0;
	ssize_t n;
	_cleanup_close_ int fd = -1;

	snprintf(buf, CONTROL_COMM_SIZE, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, raw, sizeof(raw));
	if (n <= 0)
		return;
	if (raw[n - 1] == '\n')
		n--;
	for (ssize_t i = 0; i < n && i < CONTROL_COMM_RAW; i++) {
		if (raw[i] >= 0x20 && raw[i] < 0x7f && raw[i] != '\\')
			buf[len++] = (char)raw[i];
		else
			len += (size_t)snprintf(buf + len, CONTROL_COMM_SIZE - len, "\\x%02x", raw[i]);
	}
	buf[len] = '\0';
}

static unsigned int clients_of(const struct control *c, uid_t uid)
{
	unsigned int n = 0;

	for (size_t i = 0; i < CONTROL_MAX_CLIENTS; i++)
		n += c->clients[i] && c->clients[i]->peer.uid == uid;
	return n;
}

/* May one more client of UID come in? Root may take every slot. */
static bool room_for(const struct control *c, uid_t uid)
{
	unsigned int others = 0;

	if (uid == 0)
		return true;
	for (size_t i = 0; i < CONTROL_MAX_CLIENTS; i++)
		others += c->clients[i] && c->clients[i]->peer.uid != 0;
	return others < CONTROL_MAX_CLIENTS - CONTROL_ROOT_RESERVED &&
	       clients_of(c, uid) < CONTROL_MAX_PER_UID;
}

/* Answer a connection with one error and close it (best effort: a full
 * socket buffer just loses the reply). */
static void refuse(int fd, const char *code, const char *message)
{
	json_t *reply = ctl_reply_error(code, message, NULL);
	_cleanup_free_ char *text = reply ? json_dumps(reply, JSON_COMPACT) : NULL;

	json_decref(reply);
	if (text) {
		size_t len = strlen(text);

		text[len] = '\n';	/* replaces the terminator: sent by length */
		send(fd, text, len + 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	}
	close(fd);
}

static void accept_client(struct control *c)
{
	for (;;) {
		struct ucred cred;
		socklen_t len = sizeof(cred);
		struct client *cl;
		uint64_t start_time;
		size_t slot;
		char msg[160];
		int fd = accept4(c->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)
			return;
		for (slot = 0; slot < CONTROL_MAX_CLIENTS && c->clients[slot]; slot++)
			;
		if (slot == CONTROL_MAX_CLIENTS ||
		    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
		    !room_for(c, cred.uid)) {
			refuse(fd, CTL_ERR_BUSY, "too many clients of the control socket; try again");
			continue;
		}
		/* polkit knows the subject by pid and start time. A peer that
		 * exited may have handed its pid on already, and a start time of
		 * 0 would have polkit look up whoever holds the pid now. */
		if (peer_cred_start_time(cred.pid, &start_time) < 0) {
			snprintf(msg, sizeof(msg),
				 "the connecting process (pid %d) exited before its request was read: it cannot be authorized",
				 (int)cred.pid);
			refuse(fd, CTL_ERR_FAILED, msg);
			continue;
		}
		cl = calloc(1, sizeof(*cl));
		if (!cl) {
			refuse(fd, CTL_ERR_BUSY, "out of memory; try again");
			continue;
		}
		cl->fd = fd;
		cl->log.fd = -1;
		cl->cookie = ++c->last_cookie;
		cl->peer = (struct peer_cred){
			.pid = cred.pid, .uid = cred.uid, .gid = cred.gid, .start_time = start_time,
		};
		read_comm(cred.pid, cl->comm);
		cl->deadline_ms = now_ms() + REQUEST_TIMEOUT_MS;
		cl->events = EPOLLIN;
		if (watch_fd(c, fd, EPOLLIN, EPOLL_CTL_ADD) < 0) {
			client_free(c, cl);
			continue;
		}
		c->clients[slot] = cl;
	}
}

/*
 * What CL's request asks to have approved (authorize.h): its device as the
 * daemon names it, and what the args say. The device is then named in the
 * args by its sysfs name, so that the command acts on the one the prompt
 * showed, not on another of the same IDs plugged in meanwhile. Args that
 * cannot be told fail the request before anyone is asked for a password.
 * Returns 0 or -EINVAL.
 */
static int request_details(struct control *c, struct client *cl, json_t *args,
			   struct authz_details *d)
{
	char device[256], sysname[64], err[256];
	bool named = false;
	int r;

	if (c->hooks.describe && !strcmp(cl->cmd->action, HID_POLICY_ACTION_ALLOW) &&
	    json_is_string(json_object_get(args, "device")))
		named = c->hooks.describe(c->hooks.userdata, args, device, sizeof(device), sysname,
					  sizeof(sysname)) == 0;
	if (named && json_object_set_new(args, "device", json_string(sysname)) < 0)
		named = false;
	r = authz_details_for(cl->cmd->name, args, named ? device : NULL, d, err, sizeof(err));
	if (r < 0)
		fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "%s", err);
	return r;
}

static void authorize_request(struct control *c, struct client *cl);

/* The "group" names CMD reads at most, or -1: it reads no "user" or
 * "group" (command_args.c, commands.c), so no name of it is looked up.
 * Any local user may send any of them: a name service's time is spent
 * only on names a command will read. */
static int command_group_names(const struct ctl_command *cmd)
{
	if (!strcmp(cmd->name, "explain"))
		return CTL_SUBJECT_GROUPS_MAX;
	if (!strcmp(cmd->name, "allow"))
		return CTL_ALLOW_GROUPS_MAX;
	return -1;
}

static void handle_request(struct control *c, struct client *cl, const char *line, size_t len)
{
	char err[256];
	json_error_t jerr;
	json_t *version, *command, *args, *interactive;
	const char *name;
	int r, groups_max;

	cl->request = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!cl->request || !json_is_object(cl->request)) {
		if (cl->request)
			fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "the request must be a JSON object");
		else
			fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "the request is not JSON: column %d: %s",
			     jerr.column, jerr.text);
		return;
	}
	version = json_object_get(cl->request, "version");
	if (!json_is_integer(version)) {
		fail(c, cl, CTL_ERR_BAD_REQUEST, NULL,
		     "the request has no \"version\" (an integer; this daemon speaks version %d)",
		     CTL_PROTOCOL_VERSION);
		return;
	}
	if (json_integer_value(version) != CTL_PROTOCOL_VERSION) {
		fail(c, cl, CTL_ERR_VERSION, NULL,
		     "protocol version %lld is not supported: this daemon speaks version %d",
		     (long long)json_integer_value(version), CTL_PROTOCOL_VERSION);
		return;
	}
	command = json_object_get(cl->request, "command");
	if (!json_is_string(command)) {
		fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "the request has no \"command\" string");
		return;
	}
	name = json_string_value(command);
	cl->cmd = ctl_command_find(name);
	if (!cl->cmd) {
		fail(c, cl, CTL_ERR_UNKNOWN, NULL, "unknown command \"%.64s\" (known: %s)", name,
		     ctl_command_list());
		return;
	}
	args = json_object_get(cl->request, "args");
	if (args && !json_is_object(args)) {
		fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "\"args\" must be an object");
		return;
	}
	interactive = json_object_get(cl->request, "interactive");
	if (interactive && !json_is_boolean(interactive)) {
		fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "\"interactive\" must be true or false");
		return;
	}
	cl->interactive = json_is_true(interactive);

	/* Names are looked up first, off the event loop: the details polkit
	 * shows and the command read ids. */
	groups_max = command_group_names(cl->cmd);
	r = groups_max < 0 ? 0 :
		name_lookup_submit(c->names, cl->cookie, cl->peer.uid, args, (size_t)groups_max, err,
				   sizeof(err));
	if (r < 0) {
		fail(c, cl, r == -EINVAL ? CTL_ERR_BAD_REQUEST : CTL_ERR_FAILED, NULL, "%s",
		     r == -EINVAL ? err : strerror(-r));
		return;
	}
	if (r > 0) {
		cl->state = CLIENT_LOOKING_UP;
		cl->deadline_ms = now_ms() + NAME_LOOKUP_TIMEOUT_MS;
		set_interest(c, cl);
		return;
	}
	authorize_request(c, cl);
}

/* CL's request, its names looked up: ask whether its peer may. */
static void authorize_request(struct control *c, struct client *cl)
{
	json_t *args = json_object_get(cl->request, "args");
	struct authz_details details;
	int r;

	if (request_details(c, cl, args, &details) < 0)
		return;

	cl->state = CLIENT_AUTHORIZING;
	cl->deadline_ms = now_ms() + AUTHORIZE_TIMEOUT_MS;
	set_interest(c, cl);
	r = authorizer_submit(c->authz, cl->cookie, &cl->peer, cl->cmd->action, &details,
			      cl->interactive);
	if (r < 0) {
		cl->state = CLIENT_READING;	/* nothing to cancel */
		fail(c, cl, CTL_ERR_FAILED, NULL, "cannot check authorization for %s: %s",
		     cl->cmd->action, strerror(-r));
	}
}

static void read_request(struct control *c, struct client *cl)
{
	char *nl;

	if (!cl->in) {
		cl->in = malloc(CTL_REQUEST_MAX);
		if (!cl->in) {
			drop_client(c, cl);
			return;
		}
	}
	for (;;) {
		ssize_t n = recv(cl->fd, cl->in + cl->in_len, CTL_REQUEST_MAX - cl->in_len,
				 MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			/* Gone before sending a whole request. */
			drop_client(c, cl);
			return;
		}
		nl = memchr(cl->in + cl->in_len, '\n', (size_t)n);
		cl->in_len += (size_t)n;
		if (nl) {
			handle_request(c, cl, cl->in, (size_t)(nl - cl->in));
			return;
		}
		if (cl->in_len == CTL_REQUEST_MAX) {
			fail(c, cl, CTL_ERR_TOO_LARGE, NULL,
			     "the request is longer than %d bytes (or lacks its newline)",
			     CTL_REQUEST_MAX);
			return;
		}
	}
}

/* Open the audit log for a stream; missing is fine (no records yet). */
static void log_open(struct control *c, struct log_stream *ls)
{
	if (ls->fd >= 0)
		close(ls->fd);
	ls->fd = open(c->audit_log, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ls->generation = c->log_generation;
	ls->line_len = 0;
	ls->skipping = false;
	if (ls->fd >= 0 && ls->from_end)
		lseek(ls->fd, 0, SEEK_END);
	ls->from_end = false;	/* a file that replaces it is read whole */
}

static void log_line(struct client *cl, const char *line, size_t len)
{
	json_t *rec = json_loadb(line, len, 0, NULL);
	json_t *msg;

	if (rec && json_is_object(rec) && log_filter_match(&cl->log.filter, rec)) {
		msg = json_pack("{s:i, s:O}", "version", CTL_PROTOCOL_VERSION, "record", rec);
		if (msg && queue_json(cl, msg) == 0)
			cl->log.sent++;
		json_decref(msg);
	}
	json_decref(rec);
}

/* Split CHUNK into lines, completing the partial one kept from before. */
static void log_feed(struct client *cl, const char *chunk, size_t n)
{
	struct log_stream *ls = &cl->log;

	while (n > 0) {
		const char *nl = memchr(chunk, '\n', n);
		size_t part = nl ? (size_t)(nl - chunk) : n;

		if (!ls->skipping && ls->line_len + part > LOG_LINE_MAX)
			ls->skipping = true;
		if (!ls->skipping) {
			memcpy(ls->line + ls->line_len, chunk, part);
			ls->line_len += part;
		}
		if (nl) {
			if (!ls->skipping)
				log_line(cl, ls->line, ls->line_len);
			ls->line_len = 0;
			ls->skipping = false;
			part++;
		}
		chunk += part;
		n -= part;
	}
}

/* Read more of the rotated files, oldest first, within *BUDGET. Returns
 * true while some are left (the client must take its output first). A
 * file that cannot be read ends the stream with its error. */
static bool log_pump_rotated(struct client *cl, size_t *budget)
{
	struct log_stream *ls = &cl->log;
	char chunk[16384];

	while (ls->next_rotated < ls->n_rotated) {
		ssize_t n;

		if (!ls->reader.gz) {
			int r = log_reader_open(&ls->reader, ls->rotated[ls->next_rotated]);

			if (r == -ENOENT) {	/* rotated away meanwhile */
				ls->next_rotated++;
				continue;
			}
			if (r < 0) {
				ls->read_error = -r;
				return false;
			}
			ls->line_len = 0;
			ls->skipping = false;
		}
		if (*budget == 0 || cl->out_len - cl->out_off >= LOG_OUTPUT_LOW)
			return true;
		n = log_reader_read(&ls->reader, chunk, sizeof(chunk));
		if (n < 0) {
			ls->read_error = (int)-n;
			return false;
		}
		if (n == 0) {
			/* a last line without its newline is still a line */
			if (ls->line_len && !ls->skipping)
				log_line(cl, ls->line, ls->line_len);
			log_reader_close(&ls->reader);
			ls->next_rotated++;
			continue;
		}
		log_feed(cl, chunk, (size_t)n);
		*budget -= (size_t)n < *budget ? (size_t)n : *budget;
	}
	return false;
}

/* "lines" with "follow": the history is sent; the client shows its last
 * records now and every later one as it comes. */
static void log_caught_up(struct client *cl)
{
	json_t *msg;

	if (!cl->log.tell_caught_up)
		return;
	cl->log.tell_caught_up = false;
	msg = json_pack("{s:i, s:b}", "version", CTL_PROTOCOL_VERSION, "caught_up", 1);
	if (msg)
		queue_json(cl, msg);
	json_decref(msg);
}

/* Read more of the log while the client keeps up. Returns true when the
 * stream is done (not following and at the end). */
static bool log_pump(struct control *c, struct client *cl)
{
	struct log_stream *ls = &cl->log;
	size_t budget = LOG_READ_BUDGET;
	char chunk[16384];

	ls->at_end = false;
	if (log_pump_rotated(cl, &budget))
		return false;
	if (ls->read_error)
		return true;
	if (ls->fd < 0) {
		log_open(c, ls);
		if (ls->fd < 0) {
			log_caught_up(cl);
			ls->at_end = true;
			return !ls->follow;
		}
	}
	while (budget > 0 && cl->out_len - cl->out_off < LOG_OUTPUT_LOW) {
		ssize_t n = read(ls->fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ls->read_error = errno;
			return true;
		}
		if (n == 0) {
			if (ls->generation != c->log_generation) {
				/* Rotated: the old file is read; go on with the new one. */
				log_open(c, ls);
				if (ls->fd < 0)
					return !ls->follow;
				continue;
			}
			log_caught_up(cl);
			ls->at_end = true;
			return !ls->follow;
		}
		log_feed(cl, chunk, (size_t)n);
		budget -= (size_t)n < budget ? (size_t)n : budget;
	}
	return false;
}

static void stream_turn(struct control *c, struct client *cl)
{
	bool done = log_pump(c, cl);

	if (flush_client(cl) < 0) {
		drop_client(c, cl);
		return;
	}
	if (done) {
		log_stream_done(&cl->log);
		if (cl->log.read_error) {
			fail(c, cl, CTL_ERR_FAILED, NULL, "reading the audit log failed after %llu records: %s",
			     (unsigned long long)cl->log.sent, strerror(cl->log.read_error));
			return;
		}
		finish(c, cl, ctl_reply_ok(json_pack("{s:I}", "records", (json_int_t)cl->log.sent)));
		return;
	}
	set_interest(c, cl);
}

static void start_log(struct control *c, struct client *cl, json_t *args)
{
	char err[256];
	json_t *follow = json_object_get(args, "follow"), *lines = json_object_get(args, "lines");
	int r;

	if (log_filter_from_args(args, &cl->log.filter, err, sizeof(err)) < 0) {
		fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "log: %s", err);
		return;
	}
	if (follow && !json_is_boolean(follow)) {
		fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "log: \"follow\" must be true or false");
		return;
	}
	if (lines && (!json_is_integer(lines) || json_integer_value(lines) < 0 ||
		      json_integer_value(lines) > CTL_LOG_LINES_MAX)) {
		fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "log: \"lines\" must be a number, 0..%d",
		     CTL_LOG_LINES_MAX);
		return;
	}
	cl->log.follow = json_is_true(follow);
	/* Following with no history asked for starts at the end; otherwise
	 * the history is read from the oldest rotated file on (the client
	 * keeps the last "lines" of it). */
	if (cl->log.follow && !cl->log.filter.since[0] && (!lines || json_integer_value(lines) == 0)) {
		cl->log.from_end = true;
	} else {
		r = log_files_rotated(c->audit_log, cl->log.filter.since, &cl->log.rotated,
				      &cl->log.n_rotated);
		if (r < 0) {
			fail(c, cl, CTL_ERR_FAILED, NULL, "log: cannot list the rotated audit logs: %s",
			     strerror(-r));
			return;
		}
		cl->log.tell_caught_up = cl->log.follow && lines;
	}
	cl->log.line = malloc(LOG_LINE_MAX);
	if (!cl->log.line) {
		fail(c, cl, CTL_ERR_FAILED, NULL, "log: out of memory");
		return;
	}
	cl->state = CLIENT_STREAMING;
	cl->progress_ms = now_ms();
	stream_turn(c, cl);
}

static void run_command(struct control *c, struct client *cl)
{
	json_t *args = json_object_get(cl->request, "args");
	_cleanup_(json_decrefp) json_t *empty = NULL;
	struct control_request req;
	json_t *result = NULL;
	char err[512] = "";
	int r;

	if (!args)
		args = empty = json_object();
	if (cl->cmd->streams) {
		start_log(c, cl, args);
		return;
	}
	req = (struct control_request){
		.command = cl->cmd->name, .args = args, .peer = &cl->peer, .comm = cl->comm,
	};
	r = c->hooks.run(c->hooks.userdata, &req, &result, err, sizeof(err));
	if (r < 0) {
		fail(c, cl, r == -EINVAL ? CTL_ERR_BAD_REQUEST :
			     r == -ENOENT ? CTL_ERR_NOT_FOUND : CTL_ERR_FAILED, NULL,
		     "%s: %s", cl->cmd->name, err[0] ? err : strerror(-r));
		return;
	}
	finish(c, cl, ctl_reply_ok(result));
}

static struct client *find_cookie(struct control *c, uint64_t cookie)
{
	for (size_t i = 0; i < CONTROL_MAX_CLIENTS; i++)
		if (c->clients[i] && c->clients[i]->cookie == cookie)
			return c->clients[i];
	return NULL;
}

static void take_verdicts(struct control *c)
{
	struct authz_result res;

	while (authorizer_take(c->authz, &res) == 0) {
		struct client *cl = find_cookie(c, res.cookie);

		if (!cl || cl->state != CLIENT_AUTHORIZING)
			continue;
		cl->state = CLIENT_READING;	/* decided: nothing left to cancel */
		switch (res.verdict) {
		case AUTHZ_ALLOWED:
			run_command(c, cl);
			break;
		case AUTHZ_DENIED:
			fail(c, cl, CTL_ERR_DENIED, cl->cmd->action,
			     "not authorized: %s needs the polkit action %s (%s); ask an administrator for it, or run it as root",
			     cl->cmd->name, cl->cmd->action, res.message);
			break;
		case AUTHZ_CHALLENGE:
			fail(c, cl, CTL_ERR_DENIED, cl->cmd->action,
			     "not authorized: %s needs authentication for the polkit action %s, and no authentication agent could ask (run hid-policyctl on a terminal, or start one)",
			     cl->cmd->name, cl->cmd->action);
			break;
		case AUTHZ_ERROR:
			fail(c, cl, CTL_ERR_FAILED, cl->cmd->action,
			     "the authorization check for %s failed: %s", cl->cmd->action, res.message);
			break;
		}
	}
}

static void take_names(struct control *c)
{
	struct name_job *job;
	char err[256];

	while (name_lookup_take(c->names, &job) == 0) {
		struct client *cl = find_cookie(c, name_job_cookie(job));
		int r;

		if (!cl || cl->state != CLIENT_LOOKING_UP) {
			name_job_free(job);
			continue;
		}
		cl->state = CLIENT_READING;
		r = name_job_apply(job, json_object_get(cl->request, "args"), err, sizeof(err));
		name_job_free(job);
		if (r < 0)
			fail(c, cl, CTL_ERR_BAD_REQUEST, NULL, "%s", err);
		else
			authorize_request(c, cl);
	}
}

void control_dispatch(struct control *c, int fd, uint32_t events)
{
	struct client *cl = NULL;

	if (fd == c->listen_fd) {
		accept_client(c);
		return;
	}
	if (fd == authorizer_fd(c->authz)) {
		take_verdicts(c);
		return;
	}
	if (fd == name_lookup_fd(c->names)) {
		take_names(c);
		return;
	}
	for (size_t i = 0; i < CONTROL_MAX_CLIENTS && !cl; i++)
		if (c->clients[i] && c->clients[i]->fd == fd)
			cl = c->clients[i];
	if (!cl)
		return;
	if (cl->state == CLIENT_READING && (events & EPOLLIN)) {
		read_request(c, cl);
		return;
	}
	if (events & (EPOLLHUP | EPOLLERR)) {
		/* The client closed: nothing it asked for matters any more. */
		drop_client(c, cl);
		return;
	}
	if (cl->state == CLIENT_STREAMING) {
		stream_turn(c, cl);
		return;
	}
	if (flush_client(cl) < 0 ||
	    (cl->state == CLIENT_WRITING && cl->out_off == cl->out_len)) {
		drop_client(c, cl);
		return;
	}
	set_interest(c, cl);
}

void control_tick(struct control *c)
{
	long now = now_ms();

	for (size_t i = 0; i < CONTROL_MAX_CLIENTS; i++) {
		struct client *cl = c->clients[i];

		if (!cl)
			continue;
		switch (cl->state) {
		case CLIENT_READING:
			if (now > cl->deadline_ms)
				fail(c, cl, CTL_ERR_TIMEOUT, NULL,
				     "no complete request within %d seconds", REQUEST_TIMEOUT_MS / 1000);
			break;
		case CLIENT_LOOKING_UP:
			if (now > cl->deadline_ms) {
				/* its lookup stops, its answer is dropped: not
				 * put into the next request */
				name_lookup_cancel(c->names, cl->cookie);
				cl->state = CLIENT_READING;
				fail(c, cl, CTL_ERR_TIMEOUT, NULL,
				     "the request's user and group names were not looked up within %d seconds: the system's name service does not answer",
				     NAME_LOOKUP_TIMEOUT_MS / 1000);
			}
			break;
		case CLIENT_AUTHORIZING:
			if (now > cl->deadline_ms) {
				authorizer_cancel(c->authz, cl->cookie);
				cl->state = CLIENT_READING;
				fail(c, cl, CTL_ERR_TIMEOUT, cl->cmd->action,
				     "no authorization decision for %s within %d seconds",
				     cl->cmd->action, AUTHORIZE_TIMEOUT_MS / 1000);
			}
			break;
		case CLIENT_STREAMING:
		case CLIENT_WRITING:
			if (cl->out_off < cl->out_len && now - cl->progress_ms > STALL_TIMEOUT_MS)
				drop_client(c, cl);
			else if (cl->state == CLIENT_STREAMING)
				stream_turn(c, cl);
			break;
		}
	}
}

void control_log_reopened(struct control *c)
{
	c->log_generation++;
}
