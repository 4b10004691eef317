/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The service manager's notification socket (sd_notify(3)'s protocol,
 * without libsystemd): readiness, reloads and a one-line status.
 */
#pragma once

/*
 * Send STATE ("READY=1\nSTATUS=...", newline-separated assignments) to
 * $NOTIFY_SOCKET. Nothing happens without one (not started by systemd).
 * Returns 0, or a negative errno when the message could not be sent.
 */
int service_notify(const char *state);

/* The same, formatted. Longer than 512 bytes: -E2BIG, nothing sent. */
int service_notifyf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
