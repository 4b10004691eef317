/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket's worker threads (polkit's, name lookups') run code
 * that is not the daemon's own (GLib, D-Bus, NSS modules): they give up
 * every capability before they run it.
 */
#pragma once

/* The calling thread: no capabilities and no way to gain any (threads it
 * creates inherit both). Returns 0 or a negative errno. */
int worker_drop_privileges(void);
