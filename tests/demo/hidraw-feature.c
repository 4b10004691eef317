// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hidraw-feature: one feature report request through a hidraw node, as a
 * program would send it (the demo runs copies of it under the names of the
 * programs it stands for).
 *
 * Usage: hidraw-feature NODE get ID SIZE
 *        hidraw-feature NODE set BYTE...
 * get: HIDIOCGFEATURE with a SIZE-byte buffer whose first byte is ID; set:
 * HIDIOCSFEATURE with the bytes given in hex (the first is the report ID),
 * padded with zeros to 64 bytes. Prints one line saying what it sent and
 * what came of it ("... : 41 bytes back", "... : sent", "... : refused:
 * Operation not permitted (EPERM)"); exits 0, the errno the kernel
 * refused it with, or 100 for a usage error or a node that cannot be opened.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/hidraw.h>

#define SET_SIZE 64
#define MAX_SIZE 256
#define USAGE_ERROR 100

static int byte_arg(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 16);
	if (errno || end == s || *end || *v > max) {
		fprintf(stderr, "hidraw-feature: \"%s\" is not a number of at most 0x%lx\n", s, max);
		return -EINVAL;
	}
	return 0;
}

static int refused(const char *what, int e)
{
	printf("%s: refused: %s (%s)\n", what, strerror(e),
	       e == EPERM ? "EPERM" : e == EACCES ? "EACCES" : e == EIO ? "EIO" : "errno");
	return e > 0 && e < USAGE_ERROR ? e : USAGE_ERROR - 1;
}

int main(int argc, char **argv)
{
	unsigned char buf[MAX_SIZE] = { 0 };
	char what[128];
	unsigned long id, size = SET_SIZE, v;
	bool get;
	int fd, r, e;

	if (argc < 4 || (strcmp(argv[2], "get") && strcmp(argv[2], "set")) ||
	    (!strcmp(argv[2], "get") && argc != 5) || argc - 3 > SET_SIZE) {
		fprintf(stderr, "usage: hidraw-feature NODE get ID SIZE\n"
				"       hidraw-feature NODE set BYTE...\n");
		return USAGE_ERROR;
	}
	get = !strcmp(argv[2], "get");
	if (byte_arg(argv[3], 0xff, &id) < 0)
		return USAGE_ERROR;
	if (get) {
		errno = 0;
		size = strtoul(argv[4], NULL, 10);
		if (errno || size < 2 || size > MAX_SIZE) {
			fprintf(stderr, "hidraw-feature: a size of 2 to %d bytes\n", MAX_SIZE);
			return USAGE_ERROR;
		}
	}
	for (int i = 3; !get && i < argc; i++) {
		if (byte_arg(argv[i], 0xff, &v) < 0)
			return USAGE_ERROR;
		buf[i - 3] = (unsigned char)v;
	}
	buf[0] = (unsigned char)id;
	snprintf(what, sizeof(what), "uid %u %s %s_REPORT feature 0x%02lx", getuid(), argv[0],
		 get ? "GET" : "SET", id);

	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "hidraw-feature: %s: %s\n", argv[1], strerror(errno));
		return USAGE_ERROR;
	}
	r = ioctl(fd, get ? HIDIOCGFEATURE(size) : HIDIOCSFEATURE(size), buf);
	e = errno;
	close(fd);
	if (r < 0)
		return refused(what, e);
	if (get)
		printf("%s: %d bytes back\n", what, r);
	else
		printf("%s: sent\n", what);
	return 0;
}
