/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's messages for the administrator: to syslog, or to stderr
 * while it runs in the foreground. Control characters are replaced.
 */
#pragma once

#include <stdbool.h>

/* Send messages to stderr (a foreground run) rather than to syslog. */
void say_to_stderr(bool on);

void say(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
