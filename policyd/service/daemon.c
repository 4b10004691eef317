// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hid-policyd's service over its life: start (policy, loader, audit log,
 * uevents, control socket, devices present), the event loop, and stop.
 */
#include "daemon.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <syslog.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "audit/say.h"
#include "common/util.h"
#include "enforce/allows.h"
#include "enforce/decisions.h"
#include "enforce/units.h"
#include "state/views.h"
#include "notify.h"
#include "reload.h"
#include "sandbox.h"
#include "service.h"

/* Instances pinned for devices that no longer exist: detach and forget. */
static int drop_if_gone(uint32_t hid_id, void *userdata)
{
	struct daemon *d = userdata;

	if (state_find_device(&d->state, hid_id))
		return 0;
	fw_detach(&d->enforcer.loader, hid_id);
	return 0;
}

static void handle_uevent(struct daemon *d)
{
	struct uevent ev;
	int r;

	while ((r = uevent_receive(d->uevent_fd, &ev)) >= 0 || r == -EINTR || r == -ENOBUFS) {
		if (r == -ENOBUFS) {
			/* Events were lost: look at sysfs again. */
			say(LOG_WARNING, "uevents lost; rescanning devices");
			enforce_present(&d->enforcer);
			continue;
		}
		if (r < 0 || !ev.sysname[0])
			continue;
		switch (ev.action) {
		case UEVENT_ADD:
		case UEVENT_BIND:
			enforce_added(&d->enforcer, ev.sysname, ev.action == UEVENT_BIND);
			break;
		case UEVENT_UNBIND:
			enforce_unbound(&d->enforcer, ev.sysname);
			break;
		case UEVENT_REMOVE:
			enforce_removed(&d->enforcer, ev.sysname);
			break;
		default:
			break;
		}
	}
}

static void check_dropped(struct daemon *d)
{
	struct hid_fw_stats st;
	json_t *o;

	if (fw_read_stats(&d->enforcer.loader, &st) < 0 || st.dropped <= d->dropped_reported)
		return;
	say(LOG_WARNING, "%llu audit record%s lost: the ring buffer was full",
	    (unsigned long long)(st.dropped - d->dropped_reported),
	    st.dropped - d->dropped_reported == 1 ? "" : "s");
	o = json_pack("{s:s, s:I, s:I}", "event", "records_dropped",
		      "count", (json_int_t)(st.dropped - d->dropped_reported),
		      "total", (json_int_t)st.dropped);
	if (o) {
		audit_write_json(&d->audit, o);
		json_decref(o);
	}
	d->dropped_reported = st.dropped;
}

/* The decisions each device made over its record budget (hid_firewall.h),
 * that the log has not told yet: one record per device, so that what is
 * logged, coalesced and counted adds up to what was decided. */
struct budget_check {
	struct daemon *d;
	uint32_t gone[64];		/* devices to forget, told */
	size_t n_gone;
};

static int tell_budget(const struct fw_budget_counts *c, void *userdata)
{
	struct budget_check *bc = userdata;
	struct daemon *d = bc->d;
	struct managed_device *m = state_find_device(&d->state, c->hid_id);
	uint64_t denied = c->budget.over_denied - c->told.over_denied;
	uint64_t allowed = c->budget.over_allowed - c->told.over_allowed;
	const struct hid_fw_budget_told told = {
		.over_denied = c->budget.over_denied, .over_allowed = c->budget.over_allowed,
	};
	json_t *o, *dev;
	char message[160];

	if (c->budget.over_denied < c->told.over_denied || c->budget.over_allowed < c->told.over_allowed)
		denied = c->budget.over_denied, allowed = c->budget.over_allowed; /* a new entry */
	if (denied || allowed) {
		snprintf(message, sizeof(message),
			 "%llu denial%s and %llu logged allow%s on this device not recorded individually: over its record budget",
			 (unsigned long long)denied, denied == 1 ? "" : "s",
			 (unsigned long long)allowed, allowed == 1 ? "" : "s");
		dev = m ? view_device(&m->info) : json_pack("{s:I}", "hid_id", (json_int_t)c->hid_id);
		o = json_pack("{s:s, s:o*, s:I, s:I, s:s}", "event", "records_suppressed", "device", dev,
			      "denied", (json_int_t)denied, "allowed", (json_int_t)allowed,
			      "message", message);
		if (o) {
			audit_write_json(&d->audit, o);
			json_decref(o);
		}
		say(LOG_WARNING, "%s: %s", m ? m->info.sysname : "a device gone", message);
		if (fw_budget_told(&d->enforcer.loader, c->hid_id, &told) < 0)
			say(LOG_ERR, "cannot keep what the log told of hid_id %u's budget: %m", c->hid_id);
	}
	/* A device gone has nothing more to tell: its entries go (its
	 * hid_id is never used again). */
	if (!m && bc->n_gone < ELEMENTSOF(bc->gone))
		bc->gone[bc->n_gone++] = c->hid_id;
	return 0;
}

static void check_budgets(struct daemon *d)
{
	struct budget_check bc = { .d = d };

	fw_for_each_budget(&d->enforcer.loader, tell_budget, &bc);
	for (size_t i = 0; i < bc.n_gone; i++)
		fw_budget_forget(&d->enforcer.loader, bc.gone[i]);
}

static int watch(struct daemon *d, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epoll_ctl(d->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

static void control_message(void *userdata, int priority, const char *message)
{
	say(priority, "%s", message);
}

static int reload_hook(void *userdata, json_t *messages)
{
	return daemon_reload(userdata, messages);
}

static int start(struct daemon *d)
{
	const struct control_hooks control_hooks = {
		.run = commands_run, .log = control_message, .describe = commands_describe_device,
		.userdata = &d->commands,
	};
	sigset_t mask;
	int r;

	/* First: from here on udev keeps the nodes of the devices the policy
	 * matches closed, whatever fails below (tmpfiles.d made it at boot
	 * already, unless the service is started by hand). */
	r = decisions_init(d->cfg->runtime_dir, d->cfg->config_dirs, d->cfg->n_config_dirs);
	if (r < 0) {
		say(LOG_ERR, "cannot create %s: %s", d->cfg->runtime_dir, strerror(-r));
		return r;
	}
	r = fw_loader_open(&d->enforcer.loader, d->cfg->state_dir,
			   &(struct fw_budget){ .burst = d->cfg->record_burst, .rate = d->cfg->record_rate });
	if (r < 0 && !d->enforcer.loader.features.hid_bpf) {
		say(LOG_ERR, "this kernel has no HID-BPF (struct hid_bpf_ops is not in /sys/kernel/btf/vmlinux): Linux 6.11 or later with CONFIG_HID_BPF=y is needed");
		return r;
	}
	if (r < 0) {
		say(LOG_ERR, "cannot set up the firewall in %s: %s (a verifier log above tells why when the kernel refused the programs)",
		    d->cfg->state_dir, strerror(-r));
		return r;
	}
	if (d->enforcer.loader.previous_root)
		say(LOG_NOTICE, "%s held the state of a hid-policyd with other rules: moved to %s, whose firewalls protect their devices until this version's are attached",
		    d->cfg->state_dir, d->enforcer.loader.previous_root);
	say(LOG_INFO, "names callers: pid %s, uid %s, comm %s; input path safe: %s",
	    d->enforcer.loader.features.pid_tgid ? "yes" : "no",
	    d->enforcer.loader.features.uid_gid ? "yes" : "no",
	    d->enforcer.loader.features.comm ? "yes" : "no",
	    d->enforcer.loader.features.input_safe ? "yes" :
	    "no (input rules need --allow-unsafe-input-rules: hid-policyd(8))");
	r = daemon_start_policy(d);
	if (r < 0)
		return r;

	r = audit_log_open(&d->audit, d->cfg->audit_log, d->cfg->foreground);
	if (r < 0) {
		say(LOG_ERR, "cannot open the audit log %s: %s", d->cfg->audit_log, strerror(-r));
		return r;
	}
	d->audit.bound.max_size = d->cfg->audit_log_max_size;
	r = audit_log_secure(&d->audit);
	if (r < 0)
		return r;
	r = audit_outlets_open(&d->audit.outlets, d->cfg->journal, d->cfg->linux_audit);
	if (r < 0) {
		say(LOG_ERR, "--linux-audit: cannot open the kernel's audit socket: %s%s",
		    strerror(-r), r == -EPROTONOSUPPORT ? " (the kernel has no audit support)" : "");
		return r;
	}
	r = records_open(&d->records, d->enforcer.loader.events_fd, &d->state, &d->audit);
	if (r < 0) {
		say(LOG_ERR, "cannot read the audit ring buffer: %s", strerror(-r));
		return r;
	}

	/* Listen before scanning, so no device added meanwhile is missed. */
	d->uevent_fd = uevent_open();
	if (d->uevent_fd < 0) {
		say(LOG_ERR, "cannot listen for uevents: %s", strerror(-d->uevent_fd));
		return d->uevent_fd;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	d->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	d->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (d->signal_fd < 0 || d->epoll_fd < 0)
		return -errno;
	if ((r = watch(d, d->uevent_fd)) < 0 || (r = watch(d, d->signal_fd)) < 0 ||
	    (r = watch(d, records_fd(&d->records))) < 0)
		return r;
	d->enforcer.timer_fd = timerfd_create(CLOCK_BOOTTIME, TFD_NONBLOCK | TFD_CLOEXEC);
	if (d->enforcer.timer_fd < 0)
		return -errno;
	if ((r = watch(d, d->enforcer.timer_fd)) < 0)
		return r;
	d->enforcer.features.epoll_fd = d->epoll_fd;
	d->enforcer.nrf.epoll_fd = d->epoll_fd;
	/* The one program whose HID++ questions with software ID 0 pass
	 * (policy_compile()): this one, as the firewall sees its file. */
	enforce_know_self(&d->enforcer, "/proc/self/exe");
	r = unit_watch_open(&d->enforcer.units);
	if (r < 0) {
		say(LOG_ERR, "cannot watch units starting and stopping: %s", strerror(-r));
		return r;
	}
	if ((r = watch(d, d->enforcer.units.fd)) < 0)
		return r;
	units_watch(&d->enforcer);

	/* Before the sandbox: polkit's bus connection is made here. */
	r = authorizer_new(&d->authz);
	d->commands.authz = d->authz;
	if (r < 0) {
		say(LOG_ERR, "cannot set up authorization for the control socket: %s", strerror(-r));
		return r;
	}
	r = control_open(&d->control, d->cfg->runtime_dir, d->epoll_fd, d->authz,
			 d->cfg->audit_log, &control_hooks);
	d->commands.control = d->control;
	if (r < 0) {
		say(LOG_ERR, "cannot open the control socket in %s: %s", d->cfg->runtime_dir,
		    strerror(-r));
		return r;
	}

	r = enforce_present(&d->enforcer);
	if (r < 0)
		say(LOG_WARNING, "cannot list %s: %s", d->cfg->sysfs_devices, strerror(-r));
	fw_for_each_attached(&d->enforcer.loader, drop_if_gone, d);
	if (d->enforcer.loader.previous_root) {
		_cleanup_free_ char *previous = strdup(d->enforcer.loader.previous_root);

		r = fw_retire_previous(&d->enforcer.loader);
		if (r < 0)
			say(LOG_ERR, "cannot detach the firewalls of the previous version in %s: %s (hid-policyd --cleanup --state-dir %s does)",
			    previous ?: "", strerror(-r), previous ?: "");
		else
			say(LOG_INFO, "the previous version's firewalls are detached, its state in %s removed",
			    previous ?: "");
	}
	return 0;
}

static void handle_signals(struct daemon *d)
{
	struct signalfd_siginfo si;

	while (read(d->signal_fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP)
			daemon_reload(d, NULL);
		else
			d->quit = true;
	}
}

static void handle_expiry(struct daemon *d)
{
	uint64_t ticks;
	uint64_t now = boottime_ms();
	struct exception *e;

	while (read(d->enforcer.timer_fd, &ticks, sizeof(ticks)) == sizeof(ticks))
		;
	while ((e = allows_due(&d->enforcer, now)))
		enforce_end_allow(&d->enforcer, e, "expired", NULL);	/* removes it */
	allows_arm_expiry(&d->enforcer);
}

static void stop(struct daemon *d)
{
	control_free(d->control);
	d->control = NULL;
	authorizer_free(d->authz);
	if (d->enforcer.timer_fd >= 0)
		close(d->enforcer.timer_fd);
	records_close(&d->records);
	if (d->epoll_fd >= 0)
		close(d->epoll_fd);
	if (d->signal_fd >= 0)
		close(d->signal_fd);
	if (d->uevent_fd >= 0)
		close(d->uevent_fd);
	unit_watch_close(&d->enforcer.units);
	feature_indexes_done(&d->enforcer.features);
	nrf_modules_done(&d->enforcer.nrf);
	audit_log_close(&d->audit);
	fw_loader_close(&d->enforcer.loader);
	state_done(&d->state);
}

/* The parts, wired to one another and to CFG; nothing is opened yet. */
static void init(struct daemon *d, const struct daemon_config *cfg)
{
	*d = (struct daemon){
		.cfg = cfg,
		.epoll_fd = -1,
		.uevent_fd = -1,
		.signal_fd = -1,
		.audit = { .fd = -1, .outlets = { .linux_fd = -1 } },
	};
	d->enforcer = (struct enforcer){
		.state = &d->state,
		.audit = &d->audit,
		.loader = { .rules_fd = -1, .events_fd = -1, .stats_fd = -1, .budget_fd = -1,
			    .budget_told_fd = -1 },
		.units = { .fd = -1 },
		.runtime_dir = cfg->runtime_dir,
		.sysfs_devices = cfg->sysfs_devices,
		.timer_fd = -1,
		.features = { .epoll_fd = -1, .sysfs_devices = cfg->sysfs_devices,
			      .dev_dir = "/dev" },
		.nrf = { .epoll_fd = -1, .sysfs_devices = cfg->sysfs_devices, .dev_dir = "/dev" },
	};
	d->commands = (struct commands){
		.state = &d->state,
		.en = &d->enforcer,
		.audit = &d->audit,
		.version = cfg->version,
		.reload = reload_hook,
		.userdata = d,
	};
}

int daemon_run(const struct daemon_config *cfg)
{
	struct daemon d;
	size_t n_protected;
	uint64_t next_check;
	bool records_waiting = false;	/* the last round ran out of budget */
	int r;

	say_to_stderr(cfg->foreground);
	init(&d, cfg);
	r = start(&d);
	if (r < 0) {
		stop(&d);
		return r;
	}
	n_protected = state_n_protected(&d.state);
	/* The devices present are protected: the input program, which no
	 * rule in force needs, is loaded now where a reload may bring input
	 * rules (this kernel takes them), since the sandbox loads none. */
	if (cfg->sandbox && !d.enforcer.loader.input_programs &&
	    (d.enforcer.loader.features.input_safe || cfg->allow_unsafe_input)) {
		r = fw_load_input(&d.enforcer.loader);
		if (r < 0)
			say(LOG_WARNING, "cannot load the firewall's input program: %s; a reload that brings a rule about input reports will fail",
			    strerror(-r));
	}
	if (cfg->sandbox) {
		r = sandbox_enter(cfg->linux_audit);
		if (r < 0) {
			say(LOG_ERR, "cannot enter the sandbox: %s", strerror(-r));
			stop(&d);
			return r;
		}
	}
	d.commands.sandboxed = cfg->sandbox;
	say(LOG_INFO, "running: %zu device%s protected%s; audit records to %s%s%s", n_protected,
	    n_protected == 1 ? "" : "s", cfg->sandbox ? "" : " (no sandbox)", cfg->audit_log,
	    cfg->journal ? ", the journal" : "", cfg->linux_audit ? ", Linux audit" : "");
	/* Type=notify: "systemctl start" returns now, with every device
	 * present that a rule set matches protected. */
	service_notifyf("READY=1\nSTATUS=running: %zu device%s protected", n_protected,
			n_protected == 1 ? "" : "s");

	next_check = boottime_ms() + CHECK_INTERVAL_MS;
	while (!d.quit) {
		struct epoll_event evs[8];
		uint64_t now = boottime_ms();
		int timeout = records_waiting || now >= next_check ? 0 : (int)(next_check - now);
		int repeats_due = audit_tick(&d.audit);
		bool records_ready = records_waiting;
		int n;

		uint64_t asked_due = feature_indexes_due(&d.enforcer.features);
		uint64_t listed_due = nrf_modules_due(&d.enforcer.nrf);
		uint64_t held_due = enforce_held_decisions_due(&d.enforcer);

		if (listed_due && (!asked_due || listed_due < asked_due))
			asked_due = listed_due;
		if (held_due && (!asked_due || held_due < asked_due))
			asked_due = held_due;

		/* Repeats of a decision are told when due, or sooner. */
		if (repeats_due >= 0 && repeats_due < timeout)
			timeout = repeats_due;
		/* So is a device's late answer to a HID++ question. */
		if (asked_due && (int64_t)(asked_due - now) < timeout)
			timeout = asked_due > now ? (int)(asked_due - now) : 0;
		n = epoll_wait(d.epoll_fd, evs, 8, timeout);

		if (n < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		for (int i = 0; i < n; i++) {
			if (evs[i].data.fd == d.uevent_fd)
				handle_uevent(&d);
			else if (evs[i].data.fd == d.signal_fd)
				handle_signals(&d);
			else if (evs[i].data.fd == d.enforcer.timer_fd)
				handle_expiry(&d);
			else if (evs[i].data.fd == d.enforcer.units.fd)
				units_changed(&d.enforcer);
			else if (control_owns(d.control, evs[i].data.fd))
				control_dispatch(d.control, evs[i].data.fd, evs[i].events);
			else if (enforce_feature_indexes_ready(&d.enforcer, evs[i].data.fd))
				continue;
			else if (enforce_nrf_modules_ready(&d.enforcer, evs[i].data.fd))
				continue;
			else
				records_ready = true;
		}
		/* A round at a time: the other events get their turn between. */
		if (records_ready)
			records_waiting = records_read(&d.records, RECORDS_PER_ROUND) > 0;
		enforce_feature_indexes_tick(&d.enforcer);
		enforce_nrf_modules_tick(&d.enforcer);
		/* After the learners: a round that ended publishes at once. */
		enforce_held_decisions(&d.enforcer);
		audit_flush(&d.audit);
		check_dropped(&d);
		now = boottime_ms();
		if (now >= next_check) {
			enforce_check_firewalls(&d.enforcer);
			check_budgets(&d);
			next_check = now + CHECK_INTERVAL_MS;
		}
		control_tick(d.control);
	}
	service_notify("STOPPING=1\nSTATUS=stopping; the attached firewalls stay in force");
	/* The firewalls stay; temporary allows must not outlive the daemon
	 * that would end them. (After a crash, the next start recompiles
	 * every device's rules without them.) */
	while (d.state.exceptions.n > 0)
		enforce_end_allow(&d.enforcer, &d.state.exceptions.items[0], "daemon stopped", NULL);
	records_read_waiting(&d.records);
	check_dropped(&d);
	check_budgets(&d);
	{
		struct hid_fw_stats st = {};

		fw_read_stats(&d.enforcer.loader, &st);
		say(LOG_INFO, "stopping: allowed %llu, denied %llu, logged %llu, dropped %llu; the attached firewalls stay in force",
		    (unsigned long long)st.allowed, (unsigned long long)st.denied,
		    (unsigned long long)st.logged, (unsigned long long)st.dropped);
	}
	stop(&d);
	return r;
}
