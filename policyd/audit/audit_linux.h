/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Linux audit outlet: each enforced denial, and each grant and end of a
 * temporary allow, also becomes a record of the kernel's audit subsystem
 * (type USER_DEVICE, as USBGuard's LinuxAudit backend writes), in the
 * key=value form ausearch and aureport read:
 *
 *	ausearch -m USER_DEVICE -i
 *
 * finds them. Sending needs CAP_AUDIT_WRITE, which the sandbox then keeps.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "audit_format.h"
#include "hid_firewall.h"

#define AUDIT_LINUX_TYPE	1137	/* AUDIT_USER_DEVICE */
#define AUDIT_LINUX_MESSAGE_MAX	2048

/* The same limit as the journal's (audit_journal.h): while the daemon
 * waits for the kernel's answer, the firewall's ring buffer fills. */
#define AUDIT_LINUX_BURST	1000
#define AUDIT_LINUX_INTERVAL_MS	10000

struct audit_context;

/* The audit netlink socket, or -errno (the kernel has no audit support:
 * -EPROTONOSUPPORT). */
int audit_linux_open(void);
void audit_linux_close(int fd);

/*
 * The message of a decision (op=hid-request-denied ...), into BUF. Strings
 * from the outside (device and program names, rule names) are quoted, or
 * hex-encoded when they hold a space, a quote or a control character, as
 * the audit tools expect (ausearch -i decodes them). With SPAN, the record
 * of that many repeats: count=N first=... last=... at the end. Returns 0, or -ENOENT
 * when the record is not one the audit trail carries (allows, and denials
 * in audit mode), or -E2BIG.
 */
int audit_linux_decision(char *buf, size_t size, const struct hid_fw_record *rec,
			 const struct audit_context *ctx, const struct audit_subject *proc,
			 const struct audit_span *span);
/* The message of a grant or end of a temporary allow, or of denials on a
 * device over its record budget (op=hid-requests-denied-unrecorded
 * count=N); -ENOENT for other records. *SUCCESS is the record's res= (a
 * grant succeeded). */
int audit_linux_event(char *buf, size_t size, json_t *record, bool *success);

/* Send MESSAGE with res=success or res=failed. Returns 0 or -errno. */
int audit_linux_send(int fd, const char *message, bool success);
