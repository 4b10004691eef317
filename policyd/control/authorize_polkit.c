// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The polkit backend: one worker thread owns a GMainContext, the system bus
 * connection and the PolkitAuthority. The daemon's thread hands it checks
 * with g_main_context_invoke(); the worker asks polkit asynchronously, one
 * GCancellable per check, and hands each verdict back through the hooks
 * the authorizer gave it (into its queue). The worker holds no
 * capabilities: it drops them all before it touches D-Bus, so GLib's
 * threads, which it creates, have none either.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <polkit/polkit.h>

#include "authorize_internal.h"
#include "common/util.h"
#include "worker_privileges.h"

#define POLKIT_BUS_NAME "org.freedesktop.PolicyKit1"
#define POLKIT_OBJECT_PATH "/org/freedesktop/PolicyKit1/Authority"
/* How long reaching polkit may take (it may have to be D-Bus activated). */
#define POLKIT_PING_TIMEOUT_MS 5000

struct check {
	struct polkit_backend *backend;
	uint64_t cookie;
	struct peer_cred peer;
	char action_id[128];
	struct authz_details details;
	bool interactive;
	bool asked_again;	/* see caller_misread() */
	GCancellable *cancellable;
};

struct polkit_backend {
	struct polkit_backend_hooks hooks;	/* how verdicts go back */
	GMainContext *context;
	GMainLoop *loop;
	pthread_t thread;

	/* Start-up handshake: the worker's first attempt to reach polkit. */
	pthread_mutex_t start_lock;
	pthread_cond_t start_cond;
	bool started;
	int start_result;
	char start_why[192];

	/* Checks submitted and not finished. `pending` holds those whose
	 * verdict is still wanted; a cancelled check leaves it at once and
	 * is freed by the worker when polkit's reply (or the cancellation)
	 * comes back. */
	pthread_mutex_t lock;
	struct check **pending;
	size_t n_pending, cap_pending;
	size_t outstanding;
	bool stopping;

	/* The worker's own; no lock. */
	GDBusConnection *bus;
	PolkitAuthority *authority;
};

static void check_free(struct check *c)
{
	g_clear_object(&c->cancellable);
	free(c);
}

/* Caller holds b->lock. Returns whether C was pending. */
static bool pending_remove(struct polkit_backend *b, struct check *c)
{
	for (size_t i = 0; i < b->n_pending; i++) {
		if (b->pending[i] != c)
			continue;
		b->pending[i] = b->pending[--b->n_pending];
		return true;
	}
	return false;
}

/* Worker: the check is over. Push its verdict unless it was cancelled,
 * free it, and end the loop if it was the last one at shutdown. */
static void check_finish(struct check *c, enum authz_verdict verdict, const char *message)
{
	struct polkit_backend *b = c->backend;

	pthread_mutex_lock(&b->lock);
	if (pending_remove(b, c) &&
	    b->hooks.verdict(b->hooks.userdata, c->cookie, verdict, message) < 0)
		fprintf(stderr, "hid-policyd: out of memory: the verdict for request %llu is lost\n",
			(unsigned long long)c->cookie);
	b->outstanding--;
	if (b->stopping && b->outstanding == 0)
		g_main_loop_quit(b->loop);
	pthread_mutex_unlock(&b->lock);
	check_free(c);
}

static void backend_disconnect(struct polkit_backend *b)
{
	g_clear_object(&b->authority);
	g_clear_object(&b->bus);
}

/*
 * Worker: make sure polkit answers on the system bus, connecting (again)
 * when there is no connection or the bus closed it. Returns 0, or
 * -EHOSTUNREACH with WHY saying what did not answer.
 */
static int backend_connect(struct polkit_backend *b, char *why, size_t why_size)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *owner = NULL;

	if (b->bus && g_dbus_connection_is_closed(b->bus))
		backend_disconnect(b);
	if (!b->bus) {
		b->bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
		if (!b->bus) {
			snprintf(why, why_size, "cannot connect to the system bus: %s", error->message);
			return -EHOSTUNREACH;
		}
		/* GLib would raise SIGTERM when the bus goes away: the
		 * firewall must outlive a D-Bus restart. */
		g_dbus_connection_set_exit_on_close(b->bus, false);
	}
	if (!b->authority) {
		b->authority = polkit_authority_get_sync(NULL, &error);
		if (!b->authority) {
			snprintf(why, why_size, "cannot set up polkit's client: %s", error->message);
			return -EHOSTUNREACH;
		}
	}
	owner = polkit_authority_get_owner(b->authority);
	if (owner)
		return 0;

	/* Nobody owns polkit's name: a ping starts it when the bus can
	 * activate it, and fails otherwise. */
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
		b->bus, POLKIT_BUS_NAME, POLKIT_OBJECT_PATH, "org.freedesktop.DBus.Peer", "Ping",
		NULL, NULL, G_DBUS_CALL_FLAGS_NONE, POLKIT_PING_TIMEOUT_MS, NULL, &error);
	if (!reply) {
		g_dbus_error_strip_remote_error(error);
		snprintf(why, why_size, "%s does not answer on the system bus: %s", POLKIT_BUS_NAME,
			 error->message);
		return -EHOSTUNREACH;
	}
	return 0;
}

static void verdict_from_result(const struct check *c, PolkitAuthorizationResult *result,
				enum authz_verdict *verdict, char *msg, size_t msg_size)
{
	const char *purpose = authz_action_purpose(c->action_id);

	if (polkit_authorization_result_get_is_authorized(result)) {
		*verdict = AUTHZ_ALLOWED;
		snprintf(msg, msg_size, "authorized by polkit");
	} else if (polkit_authorization_result_get_dismissed(result)) {
		*verdict = AUTHZ_DENIED;
		snprintf(msg, msg_size, "authentication to %s (%s) was dismissed", purpose,
			 c->action_id);
	} else if (polkit_authorization_result_get_is_challenge(result)) {
		*verdict = AUTHZ_CHALLENGE;
		if (c->interactive)
			snprintf(msg, msg_size, "authentication is required to %s (%s) and no "
				 "authentication agent answered: start one (e.g. pkttyagent) or run "
				 "as root", purpose, c->action_id);
		else
			snprintf(msg, msg_size, "authentication is required to %s (%s): ask again "
				 "interactively to authenticate, or run as root", purpose,
				 c->action_id);
	} else {
		*verdict = AUTHZ_DENIED;
		snprintf(msg, msg_size, "uid %u is not authorized to %s (polkit action %s)",
			 (unsigned int)c->peer.uid, purpose, c->action_id);
	}
}

/*
 * Whether ERROR says polkit, or the bus, went away while the check was on
 * its way: polkitd left before it answered (NoReply), the unique name the
 * call was sent to had already gone (ServiceUnknown, NameHasNoOwner: the
 * name's owner the client had was older than the bus's news of its
 * leaving), or the bus closed our connection. Errors polkit itself
 * answers with are its own names, not these.
 */
static bool polkit_left(const GError *error)
{
	return g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
	       g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	       g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
	       g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CLOSED);
}

/*
 * Whether ERROR is polkitd 122 (Debian 12's) refusing us as an untrusted
 * caller though we are uid 0, having taken our pid for our uid. Its
 * polkit_system_bus_name_get_creds_sync() (src/polkit/polkitsystembusname.c)
 * sends GetConnectionUnixUser and GetConnectionUnixProcessID together with
 * one callback, on_retrieved_unix_uid_pid(), which keeps whichever answer
 * comes first as the uid. GLib 2.74's g_task_return() (gio/gtask.c) runs a
 * callback at once, or from a new idle source when its context's time has
 * not passed the task's creation time; on a coarse clock (refined-jiffies,
 * 4 ms, in our TCG guests) the first answer's callback can be deferred to
 * an idle source queued after the second's. check_authorization() (polkitbackendinteractiveauthority.c) then
 * finds the caller is not root and answers NOT_AUTHORIZED: "Only trusted
 * callers (e.g. uid 0 or an action owner) can use CheckAuthorization() and
 * pass details" (or "... for subjects belonging to other identities"),
 * the only NOT_AUTHORIZED errors CheckAuthorization gives in 122. Our
 * guests saw it 15 times in 27,000 root checks on refined-jiffies, its
 * debug output naming our pid as the caller's uid, and 0 in 15,000 on the
 * TSC. polkit 124 asks GetConnectionCredentials instead (commit 8cabb11).
 *
 * Such a check is asked once more and the second answer is the verdict,
 * whatever it is: nothing here allows, and a second refusal stays an
 * error. Not when we are not uid 0: then the refusal is polkit's own.
 */
static bool caller_misread(const struct check *c, const GError *error)
{
	return !c->asked_again && geteuid() == 0 && c->backend->authority &&
	       g_error_matches(error, POLKIT_ERROR, POLKIT_ERROR_NOT_AUTHORIZED);
}

static void check_ask(struct check *c);

static void check_done(GObject *source, GAsyncResult *res, gpointer userdata)
{
	struct check *c = userdata;
	g_autoptr(GError) error = NULL;
	g_autoptr(PolkitAuthorizationResult) result = NULL;
	char msg[sizeof(((struct authz_result *)NULL)->message)];
	enum authz_verdict verdict;

	result = polkit_authority_check_authorization_finish(POLKIT_AUTHORITY(source), res, &error);
	if (result) {
		verdict_from_result(c, result, &verdict, msg, sizeof(msg));
	} else if (caller_misread(c, error)) {
		g_dbus_error_strip_remote_error(error);
		fprintf(stderr, "hid-policyd: polkit refused request %llu as from an untrusted "
			"caller though hid-policyd is uid 0 (\"%s\"): asking once more\n",
			(unsigned long long)c->cookie, error->message);
		c->asked_again = true;
		check_ask(c);
		return;
	} else if (polkit_left(error)) {
		char why[192];

		/* As if polkit had been gone when the check started: the
		 * root-only rule decides, and the next check looks for
		 * polkit again (backend_connect()). */
		g_dbus_error_strip_remote_error(error);
		snprintf(why, sizeof(why), "it left the system bus during the check: %s",
			 error->message);
		c->backend->hooks.reachable(c->backend->hooks.userdata, why);
		authz_root_only(&c->peer, c->action_id, why, &verdict, msg, sizeof(msg));
	} else {
		g_dbus_error_strip_remote_error(error);
		verdict = AUTHZ_ERROR;
		snprintf(msg, sizeof(msg), "polkit could not check %s: %s", c->action_id,
			 error->message);
	}
	check_finish(c, verdict, msg);
}

/* Worker: send C's CheckAuthorization; check_done() takes the answer. */
static void check_ask(struct check *c)
{
	g_autoptr(PolkitSubject) subject =
		polkit_unix_process_new_for_owner(c->peer.pid, c->peer.start_time, c->peer.uid);
	g_autoptr(PolkitDetails) details = polkit_details_new();
	PolkitCheckAuthorizationFlags flags = c->interactive
		? POLKIT_CHECK_AUTHORIZATION_FLAGS_ALLOW_USER_INTERACTION
		: POLKIT_CHECK_AUTHORIZATION_FLAGS_NONE;

	/* What the prompt shows and polkit rules read; polkit takes details
	 * from uid 0 alone, which the daemon is. */
	for (size_t i = 0; i < c->details.n && i < AUTHZ_DETAILS_MAX; i++)
		polkit_details_insert(details, c->details.items[i].key, c->details.items[i].value);
	polkit_authority_check_authorization(c->backend->authority, subject, c->action_id, details,
					     flags, c->cancellable, check_done, c);
}

/* Worker: a check handed over by polkit_backend_submit(). */
static gboolean check_start(gpointer userdata)
{
	struct check *c = userdata;
	struct polkit_backend *b = c->backend;
	char why[192];

	if (g_cancellable_is_cancelled(c->cancellable)) {
		check_finish(c, AUTHZ_ERROR, "cancelled");
		return G_SOURCE_REMOVE;
	}
	if (backend_connect(b, why, sizeof(why)) < 0) {
		char msg[sizeof(((struct authz_result *)NULL)->message)];
		enum authz_verdict verdict;

		b->hooks.reachable(b->hooks.userdata, why);
		authz_root_only(&c->peer, c->action_id, why, &verdict, msg, sizeof(msg));
		check_finish(c, verdict, msg);
		return G_SOURCE_REMOVE;
	}
	b->hooks.reachable(b->hooks.userdata, NULL);
	check_ask(c);
	return G_SOURCE_REMOVE;
}

static void *worker_main(void *userdata)
{
	struct polkit_backend *b = userdata;
	int r;

	g_main_context_push_thread_default(b->context);
	r = worker_drop_privileges();
	if (r < 0)
		snprintf(b->start_why, sizeof(b->start_why),
			 "the worker thread cannot drop its capabilities: %s", strerror(-r));
	else
		r = backend_connect(b, b->start_why, sizeof(b->start_why));

	pthread_mutex_lock(&b->start_lock);
	b->start_result = r;
	b->started = true;
	pthread_cond_signal(&b->start_cond);
	pthread_mutex_unlock(&b->start_lock);

	/* Runs until polkit_backend_free(), which is also how a worker that
	 * could not drop its capabilities is stopped. */
	g_main_loop_run(b->loop);

	backend_disconnect(b);
	g_main_context_pop_thread_default(b->context);
	return NULL;
}

int polkit_backend_start(const struct polkit_backend_hooks *hooks, struct polkit_backend **ret,
			 char *why, size_t why_size)
{
	struct polkit_backend *b = calloc(1, sizeof(*b));
	int r;

	*ret = NULL;
	if (!b)
		return -ENOMEM;
	b->hooks = *hooks;
	pthread_mutex_init(&b->lock, NULL);
	pthread_mutex_init(&b->start_lock, NULL);
	pthread_cond_init(&b->start_cond, NULL);
	b->context = g_main_context_new();
	b->loop = g_main_loop_new(b->context, false);

	r = -pthread_create(&b->thread, NULL, worker_main, b);
	if (r < 0) {
		g_main_loop_unref(b->loop);
		g_main_context_unref(b->context);
		free(b);
		return r;
	}
	pthread_mutex_lock(&b->start_lock);
	while (!b->started)
		pthread_cond_wait(&b->start_cond, &b->start_lock);
	r = b->start_result;
	pthread_mutex_unlock(&b->start_lock);

	snprintf(why, why_size, "%s", b->start_why);
	if (r < 0 && r != -EHOSTUNREACH) {
		polkit_backend_free(b);
		return r;
	}
	*ret = b;
	return r;
}

int polkit_backend_submit(struct polkit_backend *b, uint64_t cookie, const struct peer_cred *peer,
			  const char *action_id, const struct authz_details *details,
			  bool interactive)
{
	struct check *c;

	if (strlen(action_id) >= sizeof(c->action_id))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->backend = b;
	c->cookie = cookie;
	c->peer = *peer;
	c->interactive = interactive;
	snprintf(c->action_id, sizeof(c->action_id), "%s", action_id);
	if (details)
		c->details = *details;
	c->cancellable = g_cancellable_new();

	pthread_mutex_lock(&b->lock);
	if (b->stopping || GROW(b->pending, b->n_pending, b->cap_pending) < 0) {
		pthread_mutex_unlock(&b->lock);
		check_free(c);
		return -ENOMEM;
	}
	b->pending[b->n_pending++] = c;
	b->outstanding++;
	pthread_mutex_unlock(&b->lock);

	g_main_context_invoke(b->context, check_start, c);
	return 0;
}

/* Worker: cancellation runs polkit's and GDBus's handlers, which belong
 * in the worker's context like everything else of theirs. */
static gboolean cancel_in_worker(gpointer cancellable)
{
	g_cancellable_cancel(cancellable);
	return G_SOURCE_REMOVE;
}

/* Caller holds b->lock, which keeps C alive until it is released. */
static void cancel_check(struct polkit_backend *b, struct check *c)
{
	g_main_context_invoke_full(b->context, G_PRIORITY_DEFAULT, cancel_in_worker,
				   g_object_ref(c->cancellable), g_object_unref);
}

void polkit_backend_cancel(struct polkit_backend *b, uint64_t cookie)
{
	pthread_mutex_lock(&b->lock);
	for (size_t i = 0; i < b->n_pending;) {
		struct check *c = b->pending[i];

		if (c->cookie != cookie) {
			i++;
			continue;
		}
		b->pending[i] = b->pending[--b->n_pending];
		cancel_check(b, c);
	}
	pthread_mutex_unlock(&b->lock);
}

static gboolean worker_stop(gpointer userdata)
{
	struct polkit_backend *b = userdata;

	pthread_mutex_lock(&b->lock);
	b->stopping = true;
	if (b->outstanding == 0)
		g_main_loop_quit(b->loop);
	pthread_mutex_unlock(&b->lock);
	return G_SOURCE_REMOVE;
}

void polkit_backend_free(struct polkit_backend *b)
{
	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	for (size_t i = 0; i < b->n_pending; i++)
		cancel_check(b, b->pending[i]);
	b->n_pending = 0;
	pthread_mutex_unlock(&b->lock);

	g_main_context_invoke(b->context, worker_stop, b);
	pthread_join(b->thread, NULL);

	g_main_loop_unref(b->loop);
	g_main_context_unref(b->context);
	pthread_cond_destroy(&b->start_cond);
	pthread_mutex_destroy(&b->start_lock);
	pthread_mutex_destroy(&b->lock);
	free(b->pending);
	free(b);
}
