// SPDX-License-Identifier: GPL-2.0-or-later
#include "policy-helpers.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *policy_text(const char *squoted)
{
	char *s = strdup(squoted);

	CHECK(s, "out of memory");
	for (char *c = s; *c; c++)
		if (*c == '\'')
			*c = '"';
	return s;
}

struct policy *load_text(const char *name, const char *squoted, struct diag *diag)
{
	char *text = policy_text(squoted);
	struct policy *p = NULL;

	policy_load_buffer(name, text, strlen(text), diag, &p);
	free(text);
	return p;
}

char *make_temp_dir(void)
{
	char *dir = strdup("/tmp/hid-policy-test.XXXXXX");

	CHECK(dir && mkdtemp(dir), "mkdtemp: %m");
	return dir;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

void write_policy(const char *dir, const char *name, const char *squoted)
{
	char path[512];
	char *text = policy_text(squoted);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f, "cannot create %s: %m", path);
	fputs(text, f);
	fclose(f);
	free(text);
}

void check_messages(const struct diag *diag, const char *const *expected)
{
	size_t n = 0;

	for (; expected[n]; n++) {
		bool found = false;

		for (size_t i = 0; i < diag->n && !found; i++)
			found = !strcmp(diag->entries[i].text, expected[n]);
		if (!found) {
			for (size_t i = 0; i < diag->n; i++)
				test_log("got: %s", diag->entries[i].text);
			CHECK(found, "expected message not reported: %s", expected[n]);
		}
	}
	if (diag->n != n) {
		for (size_t i = 0; i < diag->n; i++)
			test_log("got: %s", diag->entries[i].text);
		CHECK_EQ(diag->n, n);
	}
}

struct policy_verdict eval(const struct hid_device_rules *rules, uint8_t kind,
			   uint8_t report_id, const uint8_t *data, size_t len)
{
	struct policy_request req = { .kind = kind, .report_id = report_id, .data = data, .len = len };
	struct policy_verdict v;

	policy_evaluate(rules, &req, &v);
	return v;
}

char *in_dir(const char *dir, const char *text)
{
	size_t n = strlen(dir) + 1, len = n + strlen(text) + 1;
	char *out, *o;

	for (const char *t = strstr(text, "DIR/"); t; t = strstr(t + 4, "DIR/"))
		len += n;
	out = malloc(len);
	CHECK(out, "out of memory");
	o = out + sprintf(out, "%s/", dir);
	while (*text) {
		if (!strncmp(text, "DIR/", 4)) {
			o += sprintf(o, "%s/", dir);
			text += 4;
		} else {
			*o++ = *text++;
		}
	}
	*o = 0;
	return out;
}
