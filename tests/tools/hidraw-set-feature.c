// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hidraw-set-feature: send one feature report, as a program would.
 *
 * Usage: hidraw-set-feature /dev/hidrawN REPORT_ID
 * Sends HIDIOCSFEATURE with a 64-byte buffer whose first byte is REPORT_ID.
 * Exits 0 when the kernel took it, or with the errno it refused it with
 * (100 for a usage error or a node that cannot be opened). The tests run it
 * as a sender of their choosing: another user, group or executable.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/hidraw.h>

int main(int argc, char **argv)
{
	unsigned char buf[64] = { 0 };
	unsigned long id;
	char *end;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: hidraw-set-feature /dev/hidrawN REPORT_ID\n");
		return 100;
	}
	errno = 0;
	id = strtoul(argv[2], &end, 0);
	if (errno || *end || id > 255) {
		fprintf(stderr, "hidraw-set-feature: bad report ID \"%s\"\n", argv[2]);
		return 100;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "hidraw-set-feature: %s: %s\n", argv[1], strerror(errno));
		return 100;
	}
	buf[0] = (unsigned char)id;
	if (ioctl(fd, HIDIOCSFEATURE(sizeof(buf)), buf) < 0) {
		int e = errno;

		close(fd);
		return e > 0 && e < 100 ? e : 99;
	}
	close(fd);
	return 0;
}
