// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON paths ("devices[0].rules[3]"), and where each value of a document
 * starts. jansson tells the line and
 * column of a syntax error only; messages about a value need its place
 * too. The document is read once more, after jansson accepted it, and the
 * start of every key and value (down to POS_DEPTH_MAX) is recorded under
 * its JSON path, spelt as the parser spells it (path_key, path_index).
 *
 * The scanner trusts nothing: it checks every bound itself and stops at
 * anything it does not expect, keeping what it found until then.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "policy_internal.h"

/* Deeper values are skipped, not recorded: a policy's paths are shorter. */
#define POS_DEPTH_MAX 10
/* jansson refuses deeper documents (JSON_PARSER_MAX_DEPTH); so do we. */
#define POS_NESTING_MAX 2048
/* Past this many values, a message about a later one is placed at its
 * nearest recorded ancestor: a huge list costs no more than this. */
#define POS_ENTRIES_MAX (1u << 18)

const char *path_key(char *buf, size_t size, const char *parent, const char *key)
{
	if (parent && *parent)
		snprintf(buf, size, "%s.%s", parent, key);
	else
		snprintf(buf, size, "%s", key);
	return buf;
}

const char *path_index(char *buf, size_t size, const char *parent, size_t i)
{
	snprintf(buf, size, "%s[%zu]", parent ?: "", i);
	return buf;
}

struct pos_entry {
	char *path;
	struct json_pos value, key;	/* key: {0, 0} for array elements */
};

struct pos_map {
	struct pos_entry *v;
	size_t n, cap;
};

struct scanner {
	const char *buf;
	size_t len, i;
	int line, column;
	struct pos_map *map;
	char path[POLICY_PATH_MAX];
	int err;
};

void pos_map_free(struct pos_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	free(m);
}

static int peek(const struct scanner *s)
{
	return s->i < s->len ? (unsigned char)s->buf[s->i] : -1;
}

/* Step over one byte, counting lines and (UTF-8) characters. */
static void advance(struct scanner *s)
{
	unsigned char c = (unsigned char)s->buf[s->i++];

	if (c == '\n') {
		s->line++;
		s->column = 0;
	} else if ((c & 0xc0) != 0x80) {
		s->column++;
	}
}

static void skip_space(struct scanner *s)
{
	while (s->i < s->len && strchr(" \t\r\n", s->buf[s->i]) && s->buf[s->i])
		advance(s);
}

/* The position of the next byte: the character advance() would count. */
static struct json_pos here(const struct scanner *s)
{
	return (struct json_pos){ .line = s->line, .column = s->column + 1 };
}

static int record(struct scanner *s, struct json_pos value, struct json_pos key)
{
	char *p;

	if (s->map->n >= POS_ENTRIES_MAX)
		return 0;
	p = strdup(s->path);
	if (!p || GROW(s->map->v, s->map->n, s->map->cap) < 0) {
		free(p);
		return -ENOMEM;
	}
	s->map->v[s->map->n++] = (struct pos_entry){ .path = p, .value = value, .key = key };
	return 0;
}

static int hex4(const char *p)
{
	int v = 0;

	for (int k = 0; k < 4; k++) {
		char c = p[k];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t put_utf8(char *out, size_t size, size_t n, unsigned cp)
{
	char b[4];
	size_t k;

	if (cp < 0x80) {
		b[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		k = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		k = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		k = 4;
	}
	for (size_t j = 0; j < k && n + 1 < size; j++)
		out[n++] = b[j];
	return n;
}

/*
 * A string, starting at its opening quote; its decoded text (cut to SIZE-1
 * bytes) goes to OUT when OUT is not NULL.
 */
static int scan_string(struct scanner *s, char *out, size_t size)
{
	size_t n = 0;

	advance(s);	/* " */
	for (;;) {
		int c = peek(s);

		if (c < 0)
			return -EINVAL;
		if (c == '"') {
			advance(s);
			break;
		}
		if (c != '\\') {
			if (out && n + 1 < size)
				out[n++] = (char)c;
			advance(s);
			continue;
		}
		advance(s);
		c = peek(s);
		if (c < 0)
			return -EINVAL;
		if (c == 'u') {
			int cp, lo;

			if (s->len - s->i < 5 || (cp = hex4(s->buf + s->i + 1)) < 0)
				return -EINVAL;
			for (int k = 0; k < 5; k++)
				advance(s);
			/* a surrogate pair is one character */
			if (cp >= 0xd800 && cp < 0xdc00 && s->len - s->i >= 6 &&
			    s->buf[s->i] == '\\' && s->buf[s->i + 1] == 'u' &&
			    (lo = hex4(s->buf + s->i + 2)) >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				for (int k = 0; k < 6; k++)
					advance(s);
			}
			if (out)
				n = put_utf8(out, size, n, (unsigned)cp);
			continue;
		}
		if (out && n + 1 < size) {
			const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
			const char *k = strchr(from, c);

			out[n++] = k && c ? to[k - from] : (char)c;
		}
		advance(s);
	}
	if (out && size)
		out[n] = 0;
	return 0;
}

static int scan_value(struct scanner *s, int depth, struct json_pos key);

/* After a member of an object or array: 1 when a ',' says another comes,
 * 0 when CLOSE ends it, -EINVAL otherwise. */
static int after_member(struct scanner *s, char close)
{
	skip_space(s);
	if (peek(s) == ',') {
		advance(s);
		return 1;
	}
	if (peek(s) != close)
		return -EINVAL;
	advance(s);
	return 0;
}

static int scan_object(struct scanner *s, int depth)
{
	size_t saved = strlen(s->path);
	char key[POLICY_PATH_MAX];

	advance(s);	/* { */
	skip_space(s);
	if (peek(s) == '}') {
		advance(s);
		return 0;
	}
	for (;;) {
		struct json_pos at;
		char parent[POLICY_PATH_MAX];
		int r;

		skip_space(s);
		if (peek(s) != '"')
			return -EINVAL;
		at = here(s);
		r = scan_string(s, key, sizeof(key));
		if (r < 0)
			return r;
		skip_space(s);
		if (peek(s) != ':')
			return -EINVAL;
		advance(s);
		memcpy(parent, s->path, saved + 1);
		path_key(s->path, sizeof(s->path), parent, key);
		r = scan_value(s, depth + 1, at);
		s->path[saved] = 0;
		if (r < 0)
			return r;
		r = after_member(s, '}');
		if (r <= 0)
			return r;
	}
}

static int scan_array(struct scanner *s, int depth)
{
	size_t saved = strlen(s->path);

	advance(s);	/* [ */
	skip_space(s);
	if (peek(s) == ']') {
		advance(s);
		return 0;
	}
	for (size_t i = 0;; i++) {
		char parent[POLICY_PATH_MAX];
		int r;

		memcpy(parent, s->path, saved + 1);
		path_index(s->path, sizeof(s->path), parent, i);
		r = scan_value(s, depth + 1, (struct json_pos){});
		s->path[saved] = 0;
		if (r < 0)
			return r;
		r = after_member(s, ']');
		if (r <= 0)
			return r;
	}
}

/* One value, with s->path naming it and KEY where its key starts. */
static int scan_value(struct scanner *s, int depth, struct json_pos key)
{
	int c, r;

	if (depth > POS_NESTING_MAX)
		return -EINVAL;
	skip_space(s);
	if (depth <= POS_DEPTH_MAX) {
		r = record(s, here(s), key);
		if (r < 0)
			return r;
	}
	c = peek(s);
	if (c == '{')
		return scan_object(s, depth);
	if (c == '[')
		return scan_array(s, depth);
	if (c == '"')
		return scan_string(s, NULL, 0);
	if (c < 0)
		return -EINVAL;
	/* numbers, true, false, null */
	while ((c = peek(s)) >= 0 && !strchr(",]} \t\r\n", c))
		advance(s);
	return 0;
}

static int cmp_entries(const void *a, const void *b)
{
	return strcmp(((const struct pos_entry *)a)->path, ((const struct pos_entry *)b)->path);
}

int pos_map_build(const char *buf, size_t len, struct pos_map **ret)
{
	struct scanner s = { .buf = buf, .len = len, .line = 1 };
	int r;

	*ret = NULL;
	s.map = calloc(1, sizeof(*s.map));
	if (!s.map)
		return -ENOMEM;
	r = scan_value(&s, 0, (struct json_pos){});
	if (r == -ENOMEM) {
		pos_map_free(s.map);
		return r;
	}
	/* A document jansson accepted scans whole; if not, keep what was found. */
	if (s.map->n > 1)
		policy_sort(s.map->v, s.map->n, sizeof(*s.map->v), cmp_entries);
	*ret = s.map;
	return 0;
}

static const struct pos_entry *find(const struct pos_map *m, const char *path)
{
	struct pos_entry want = { .path = (char *)path };

	if (!m || !m->n)
		return NULL;
	return bsearch(&want, m->v, m->n, sizeof(*m->v), cmp_entries);
}

struct json_pos pos_map_find(const struct pos_map *m, const char *path, bool key)
{
	char buf[POLICY_PATH_MAX];
	const struct pos_entry *e;

	snprintf(buf, sizeof(buf), "%s", path ?: "");
	for (;;) {
		e = find(m, buf);
		if (e)
			return key && e->key.line ? e->key : e->value;
		if (!buf[0])
			return (struct json_pos){};
		/* the nearest ancestor: drop ".key" or "[i]" */
		char *dot = strrchr(buf, '.'), *bracket = strrchr(buf, '[');
		char *cut = !dot ? bracket : !bracket ? dot : dot > bracket ? dot : bracket;

		*(cut ?: buf) = 0;
		key = false;
	}
}
