// SPDX-License-Identifier: GPL-2.0-or-later
#include "man_example.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#ifndef HID_POLICY_SOURCE_DIR
#error "meson sets HID_POLICY_SOURCE_DIR"
#endif

char *man_example(const char *name)
{
	char marker[256], *line = NULL, *text = NULL;
	size_t size = 0, text_size = 0;
	FILE *man = fopen(HID_POLICY_SOURCE_DIR "/doc/hid-policy.d.5", "re"), *out;
	enum { SEEKING, AT_MARKER, IN_EXAMPLE, DONE } state = SEEKING;

	CHECK(man, "cannot open the man page hid-policy.d(5): %m");
	snprintf(marker, sizeof(marker), ".\\\" example: %s\n", name);
	out = open_memstream(&text, &text_size);
	CHECK(out, "out of memory");
	while (state != DONE && getline(&line, &size, man) > 0) {
		if (state == SEEKING) {
			if (!strcmp(line, marker))
				state = AT_MARKER;
		} else if (state == AT_MARKER) {
			CHECK(!strcmp(line, ".EX\n"), "example %s: .EX does not follow its marker", name);
			state = IN_EXAMPLE;
		} else if (!strcmp(line, ".EE\n")) {
			state = DONE;
		} else {
			for (const char *c = line; *c; c++) {
				if (c[0] == '\\' && (c[1] == 'e' || c[1] == '-')) {
					fputc(c[1] == 'e' ? '\\' : '-', out);
					c++;
				} else {
					fputc(*c, out);
				}
			}
		}
	}
	free(line);
	fclose(man);
	CHECK(fclose(out) == 0, "out of memory");
	CHECK(state == DONE, "hid-policy.d(5) has no example \"%s\"", name);
	return text;
}
