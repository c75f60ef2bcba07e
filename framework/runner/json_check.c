// SPDX-License-Identifier: BSD-2-Clause
/*
 * A small recursive-descent checker for RFC 8259 JSON. It builds nothing: it only says whether
 * a text is one value, and where it first goes wrong. Recursion is bounded by
 * XSKF_JSON_MAX_DEPTH, so a hostile plugin's "[[[[..." cannot exhaust the stack.
 */
#include <errno.h>
#include <string.h>

#include "runner/json_check.h"

struct jc {
	const char *s;
	size_t len, pos;
	const char *why;
};

static int fail(struct jc *j, const char *why)
{
	if (!j->why)
		j->why = why;
	return -EINVAL;
}

static int peek(const struct jc *j)
{
	return j->pos < j->len ? (unsigned char)j->s[j->pos] : -1;
}

static void ws(struct jc *j)
{
	while (j->pos < j->len && strchr(" \t\r\n", j->s[j->pos]) && j->s[j->pos])
		j->pos++;
}

static int literal(struct jc *j, const char *word)
{
	size_t n = strlen(word);

	if (j->len - j->pos < n || memcmp(j->s + j->pos, word, n))
		return fail(j, "a value");
	j->pos += n;
	return 0;
}

static int digits(struct jc *j)
{
	size_t start = j->pos;

	while (peek(j) >= '0' && peek(j) <= '9')
		j->pos++;
	return j->pos > start ? 0 : fail(j, "a digit");
}

static int number(struct jc *j)
{
	if (peek(j) == '-')
		j->pos++;
	if (peek(j) == '0')
		j->pos++; /* no leading zeros: "01" is two values */
	else if (digits(j))
		return -EINVAL;
	if (peek(j) == '.') {
		j->pos++;
		if (digits(j))
			return -EINVAL;
	}
	if (peek(j) == 'e' || peek(j) == 'E') {
		j->pos++;
		if (peek(j) == '+' || peek(j) == '-')
			j->pos++;
		if (digits(j))
			return -EINVAL;
	}
	return 0;
}

static int string(struct jc *j)
{
	j->pos++; /* the opening quote */
	for (;;) {
		int c = peek(j);

		if (c < 0)
			return fail(j, "the end of a string");
		if (c < 0x20)
			return fail(j, "a printable byte in a string (control bytes must be escaped)");
		j->pos++;
		if (c == '"')
			return 0;
		if (c != '\\')
			continue; /* UTF-8 is passed as it is: the checker is about structure */
		c = peek(j);
		if (c >= 0 && strchr("\"\\/bfnrt", c) && c) {
			j->pos++;
		} else if (c == 'u') {
			int k;

			j->pos++;
			for (k = 0; k < 4; k++, j->pos++)
				if (peek(j) < 0 || !strchr("0123456789abcdefABCDEF", peek(j)) || !peek(j))
					return fail(j, "four hex digits after \\u");
		} else {
			return fail(j, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
		}
	}
}

static int value(struct jc *j, unsigned int depth);

/* An array or an object: @close is ']' or '}'; members of an object are "name": value. */
static int container(struct jc *j, unsigned int depth, int close)
{
	if (depth >= XSKF_JSON_MAX_DEPTH)
		return fail(j, "less nesting");
	j->pos++;
	ws(j);
	if (peek(j) == close) {
		j->pos++;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			if (peek(j) != '"')
				return fail(j, "a member name in quotes");
			if (string(j))
				return -EINVAL;
			ws(j);
			if (peek(j) != ':')
				return fail(j, "':' after a member name");
			j->pos++;
		}
		if (value(j, depth + 1))
			return -EINVAL;
		ws(j);
		if (peek(j) == close) {
			j->pos++;
			return 0;
		}
		if (peek(j) != ',')
			return fail(j, close == '}' ? "',' or '}'" : "',' or ']'");
		j->pos++;
		ws(j);
	}
}

static int value(struct jc *j, unsigned int depth)
{
	int c;

	ws(j);
	c = peek(j);
	switch (c) {
	case '{':
	case '[':
		return container(j, depth, c == '{' ? '}' : ']');
	case '"':
		return string(j);
	case 't':
		return literal(j, "true");
	case 'f':
		return literal(j, "false");
	case 'n':
		return literal(j, "null");
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return number(j);
		return fail(j, "a value");
	}
}

int xskf_json__check(const char *s, size_t len, size_t *err_off, const char **why)
{
	struct jc j = { .s = s, .len = s ? len : 0 };
	int err = value(&j, 0);

	if (!err) {
		ws(&j);
		if (j.pos < j.len)
			err = fail(&j, "nothing after the value");
	}
	if (err_off)
		*err_off = err ? j.pos : 0;
	if (why)
		*why = err ? j.why : NULL;
	return err;
}
