/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit log's files as logrotate leaves them, for reading the whole
 * history in order: the rotated ones, oldest first (audit.jsonl.12.gz ...
 * audit.jsonl.2.gz, audit.jsonl.1; with dateext, audit.jsonl-20261203[.gz]
 * by date), then the current file. Compressed files are read through zlib.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>
#include <zlib.h>

/*
 * The rotated files of the log at PATH, oldest first (new strings in
 * *RET, *N of them; free with log_files_free). SINCE, an audit-log time
 * ("2026-12-03T06:29:40.000Z") or "" for none: files last written before
 * it hold no record at or after it and are left out. Returns 0 (a missing
 * directory lists nothing) or -errno.
 */
int log_files_rotated(const char *path, const char *since, char ***ret, size_t *n);
void log_files_free(char **files, size_t n);

/* One rotated file, compressed or not. */
struct log_reader {
	gzFile gz;
};

/* Open PATH (O_NOFOLLOW). Returns 0 or -errno. */
int log_reader_open(struct log_reader *r, const char *path);
/* Up to SIZE bytes, 0 at the end, or -errno (-EBADMSG: corrupt or cut
 * short compressed data). */
ssize_t log_reader_read(struct log_reader *r, void *buf, size_t size);
void log_reader_close(struct log_reader *r);
