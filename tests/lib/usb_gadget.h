/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between uhid_dev.c and its USB backend (usb_gadget.c); tests use
 * uhid_dev.h only.
 */
#pragma once

#include <pthread.h>

#include "dev_backend.h"

/* Serve CFG as a USB device on the first free dummy_hcd UDC, its serial
 * number SERIAL, recording into DEV. Returns once the device is connected
 * (enumeration goes on in the background): 0 with *OUT set, or -errno. */
int usb_gadget_dev_start(struct uhid_dev *dev, const struct uhid_dev_config *cfg,
			 const char *serial, struct usb_gadget_dev **out);
/* The UDC G is bound to ("dummy_udc.N"), whose device the host finds on
 * the root port of dummy_hcd.N. */
const char *usb_gadget_dev_udc(const struct usb_gadget_dev *g);
/* Disconnect and free. */
void usb_gadget_dev_stop(struct usb_gadget_dev *g);
/* One input report on the interrupt IN endpoint; waits for the host. */
int usb_gadget_dev_send_input(struct usb_gadget_dev *g, const void *data, size_t size);
/* Join THREAD, which may be waiting in usb_gadget_dev_send_input() for a
 * host that no longer reads (usbhid polls the interrupt IN endpoint only
 * while the device is open): signalled until it has returned, its send
 * ending with -EINTR. */
void usb_gadget_join_sender(pthread_t thread);
