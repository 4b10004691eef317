// SPDX-License-Identifier: GPL-2.0-or-later
/* Dotted-path access to JSON in tests; see json_path.h. */
#include <string.h>

#include "harness.h"
#include "json_path.h"

json_t *json_path(json_t *o, const char *path)
{
	const char *cur = path;

	if (!*path)
		return o;
	for (;;) {
		const char *dot = strchr(cur, '.');
		size_t len = dot ? (size_t)(dot - cur) : strlen(cur);

		o = json_object_getn(o, cur, len);	/* NULL for a NULL or non-object O */
		if (!o || !dot)
			return o;
		cur = dot + 1;
	}
}

json_t *json_parse_check(const char *text)
{
	json_error_t err;
	json_t *o = json_loads(text, 0, &err);

	CHECK(o, "not JSON (line %d: %s): %s", err.line, err.text, text);
	return o;
}

const char *json_path_str(json_t *o, const char *path)
{
	json_t *v = json_path(o, path);

	CHECK(json_is_string(v), "%s is not a string", path);
	return json_string_value(v);
}

const char *json_path_str_or_empty(json_t *o, const char *path)
{
	json_t *v = json_path(o, path);

	return json_is_string(v) ? json_string_value(v) : "";
}

long long json_path_int(json_t *o, const char *path)
{
	json_t *v = json_path(o, path);

	CHECK(json_is_integer(v), "%s is not an integer", path);
	return (long long)json_integer_value(v);
}
