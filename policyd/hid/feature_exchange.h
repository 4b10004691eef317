/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A device's feature-report questions asked from a thread of their own:
 * HIDIOCSFEATURE writes the question, HIDIOCGFEATURE reads the answer.
 * Both ioctls wait for the transport (usbhid's control transfers, up to 5
 * s each; a Bluetooth device's round trip), and the device may answer
 * "pending" for a while first. The event loop hands a question over and
 * goes on; the answer comes back through a pipe it watches. One question at
 * a time: another, while one is being asked, is refused. (The HID++
 * learner's questions are output reports, a write(): hid/hidpp_writer.h.)
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define FEATURE_EXCHANGE_LEN	64
/* GET_REPORTs of an answer the device says is not ready, 1 ms apart
 * (fwupd's fu_nordic_hid_cfg_channel_receive() reads up to 100). */
#define FEATURE_EXCHANGE_POLLS	100

struct feature_exchange;

/* Is ANSWER (LEN bytes) one the device says is not ready yet? */
typedef int (*feature_exchange_pending_fn)(const uint8_t *answer, size_t len);

/* Start asking node FD (duplicated: the caller keeps FD); PENDING tells an
 * answer that is not ready (NULL: the first answer is taken). */
int feature_exchange_start(int fd, feature_exchange_pending_fn pending,
			   struct feature_exchange **ex);

/* The pipe that is readable when an answer, or an error, is ready. */
int feature_exchange_fd(const struct feature_exchange *ex);

/* Hand over question Q (LEN bytes, the report ID first); its answer is
 * read with the same report ID and length. Returns 0 and the question's
 * number in *SEQ, or -EBUSY while the last question is being asked. */
int feature_exchange_send(struct feature_exchange *ex, const uint8_t *q, size_t len,
			  uint32_t *seq);

/* Take one answer: 0 with ANSWER filled, or the question's -errno
 * (-ENODEV: the node is gone; -ETIMEDOUT: every GET_REPORT was
 * pending), with *SEQ the question's number; -EAGAIN: nothing ready. */
int feature_exchange_receive(struct feature_exchange *ex, uint8_t *answer, size_t len,
			     uint32_t *seq);

/* Stop without waiting: a question being asked ends on its own, and the
 * thread with it. */
void feature_exchange_stop(struct feature_exchange *ex);
