// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hidraw-write: write one output report to a hidraw node, as a program
 * that talks HID++ to a Logitech receiver does (Solaar, fwupd: write(2) on
 * the node, the report ID in the first byte).
 *
 * Usage: hidraw-write /dev/hidrawN HEX...
 * The bytes are given in hex, one or more per argument ("10 ff 80 f0",
 * "10ff80f0"). Exits 0 when the kernel took them all, or with the errno
 * it refused them with (100 for a usage error or a node that cannot be
 * opened, 99 for a short write or an errno past 98). The tests run it as
 * a user's own program.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define REPORT_MAX 64

static int hex_value(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* The hex bytes of ARGS (N of them) into BUF; their count, or -1. */
static int parse(char **args, int n, unsigned char *buf, size_t size)
{
	size_t len = 0;

	for (int i = 0; i < n; i++)
		for (const char *p = args[i]; *p;) {
			if (isspace((unsigned char)*p)) {
				p++;
				continue;
			}
			if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) ||
			    len == size)
				return -1;
			buf[len++] = (unsigned char)(hex_value(p[0]) << 4 | hex_value(p[1]));
			p += 2;
		}
	return (int)len;
}

int main(int argc, char **argv)
{
	unsigned char buf[REPORT_MAX];
	ssize_t w;
	int fd, n;

	if (argc < 3 || (n = parse(argv + 2, argc - 2, buf, sizeof(buf))) < 1) {
		fprintf(stderr, "usage: hidraw-write /dev/hidrawN HEX...\n");
		return 100;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "hidraw-write: %s: %s\n", argv[1], strerror(errno));
		return 100;
	}
	w = write(fd, buf, (size_t)n);
	if (w < 0) {
		int e = errno;

		close(fd);
		return e > 0 && e < 99 ? e : 99;
	}
	close(fd);
	return w == n ? 0 : 99;
}
