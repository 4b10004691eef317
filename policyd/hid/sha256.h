/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SHA-256 (FIPS 180-4), for hashes of report descriptors. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32

void sha256(const void *data, size_t len, uint8_t out[SHA256_BYTES]);
