/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A device's HID++ questions written from a thread of their own. A write
 * to a hidraw node waits for the transport: usbhid waits up to 5 s for a
 * device that does not take an output report, and a device can make every
 * write wait so. The daemon's event loop hands the question over and goes
 * on; the learner's answer deadline covers the write too. One question
 * waits while one is written (the device may answer before write()
 * returns, and the next question follows at once); a third is refused.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct hidpp_writer;

/* Start a writer for node FD (duplicated: the caller keeps FD). */
int hidpp_writer_start(int fd, struct hidpp_writer **writer);

/* Hand over question Q (LEN bytes, at most HIDPP_LONG_LEN). Returns 0;
 * -EBUSY while a question waits for one being written; or the error of a
 * write (-ENODEV: the node is gone), once. */
int hidpp_writer_send(struct hidpp_writer *w, const uint8_t *q, size_t len);

/* Stop the writer without waiting: a write in progress ends on its own,
 * and the thread with it. */
void hidpp_writer_stop(struct hidpp_writer *w);
