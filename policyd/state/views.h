/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON views of devices and temporary allows, as the control socket's
 * replies and the audit log's records show them (new references; NULL
 * when out of memory).
 */
#pragma once

#include <stdint.h>
#include <jansson.h>

#include "bpf/hid_rules.h"
#include "exceptions.h"
#include "hid/devices.h"

/* {hid_id, sysfs, bus, vendor, product, name} */
json_t *view_device(const struct hid_dev_info *info);
/* Add to O what a device is: uniq, phys, interface (null when not USB),
 * usages and descriptor_sha256 (null until a driver parsed its
 * descriptor). Returns 0 or -ENOMEM. */
int view_device_class(json_t *o, const struct hid_dev_info *info);
/* A temporary allow: what it lets through, when it ends, who granted it. */
json_t *view_exception(const struct exception *e);
/* {uid, pid, comm} */
json_t *view_grantor(const struct exception_grantor *g);

/* Request kinds (HID_RULE_KIND_*) by name. */
json_t *view_kinds(uint8_t kinds);
/* "any", or report IDs as "0x03, 0xf0-0xf4". */
json_t *view_report_ids(const uint32_t ids[HID_RULES_REPORT_ID_WORDS]);

/* Make TEXT (a device's name, or text naming one) fit in a JSON string:
 * when it is not UTF-8, every byte beyond ASCII is replaced by '?', in
 * place. */
void view_utf8_or_ascii(char *text);
