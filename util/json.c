// SPDX-License-Identifier: BSD-2-Clause
/*
 * The JSON parser (json.h) of xskfctl and the runner: recursive descent, at most max_depth
 * deep, into the caller's node array (or none: xj_check()); strings decoded in place.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define XJ_MAX_NUMBER 127 /* characters of one number: beyond, refused */

struct xj {
	char *s;
	size_t len, pos;
	struct xj_node *n;
	size_t cap, used;
	unsigned int max_depth;
	const char *why;
	int err;
	struct xj_node scratch; /* where values beyond cap go: they are still checked */
};

/*
 * Node @i, or the scratch node when the caller's are all used: the parse goes on to find the
 * text's own error (so that a broken text is "not JSON" however many nodes it opened), and
 * gives -ENOSPC only for a text that is JSON.
 */
static struct xj_node *node(struct xj *p, size_t i)
{
	return i < p->cap ? &p->n[i] : &p->scratch;
}

static int fail(struct xj *p, const char *why)
{
	if (!p->err) {
		p->why = why;
		p->err = -EINVAL;
	}
	return p->err;
}

static void skip_ws(struct xj *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static bool lit(struct xj *p, const char *w)
{
	size_t l = strlen(w);

	if (p->len - p->pos < l || memcmp(p->s + p->pos, w, l))
		return false;
	p->pos += l;
	return true;
}

static int hex4(struct xj *p, unsigned int *v)
{
	unsigned int i, c;

	*v = 0;
	if (p->len - p->pos < 4)
		return fail(p, "four hex digits after \\u");
	for (i = 0; i < 4; i++) {
		c = (unsigned char)p->s[p->pos + i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else {
			p->pos += i;
			return fail(p, "four hex digits after \\u");
		}
		*v = *v << 4 | c;
	}
	p->pos += 4;
	return 0;
}

/* The length of the valid UTF-8 sequence at @s (@left bytes there), or 0. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	unsigned int c = s[0], need, cp, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3, cp = c & 0x07;
	else
		return 0;
	if (left < need + 1)
		return 0;
	for (i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogates, beyond U+10FFFF */
	if ((need == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (need == 3 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return need + 1;
}

static size_t put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The string at p->pos (its opening quote), decoded in place: the output never overtakes
 * the input (an escape of 2, 6 or 12 bytes gives 1 to 4), so the NUL fits where the closing
 * quote was at the latest.
 */
static int string(struct xj *p, const char **out, uint32_t *olen)
{
	char *o = p->s + p->pos + 1, *start = o;
	unsigned int cp, lo;
	size_t l;

	p->pos++;
	for (;;) {
		unsigned char c;

		if (p->pos >= p->len)
			return fail(p, "the end of a string");
		c = (unsigned char)p->s[p->pos];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(p, "a printable byte in a string (control bytes must be escaped)");
		if (c == '\\') {
			if (++p->pos >= p->len)
				return fail(p, "the end of a string");
			c = (unsigned char)p->s[p->pos++];
			switch (c) {
			case '"':
			case '\\':
			case '/':
				*o++ = (char)c;
				break;
			case 'b':
				*o++ = '\b';
				break;
			case 'f':
				*o++ = '\f';
				break;
			case 'n':
				*o++ = '\n';
				break;
			case 'r':
				*o++ = '\r';
				break;
			case 't':
				*o++ = '\t';
				break;
			case 'u':
				if (hex4(p, &cp))
					return p->err;
				if (cp >= 0xdc00 && cp <= 0xdfff)
					return fail(p, XJ_WHY_LONE_LOW);
				if (cp >= 0xd800 && cp <= 0xdbff) {
					if (!lit(p, "\\u"))
						return fail(p, XJ_WHY_NO_LOW);
					if (hex4(p, &lo))
						return p->err;
					if (lo < 0xdc00 || lo > 0xdfff)
						return fail(p, XJ_WHY_NO_LOW);
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				}
				if (!cp)
					return fail(p, XJ_WHY_NUL);
				o += put_utf8(o, cp);
				break;
			default:
				p->pos--;
				return fail(p, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
			}
			continue;
		}
		l = utf8_len((const unsigned char *)p->s + p->pos, p->len - p->pos);
		if (!l)
			return fail(p, XJ_WHY_UTF8);
		memmove(o, p->s + p->pos, l);
		o += l;
		p->pos += l;
	}
	p->pos++;
	*o = 0;
	*out = start;
	*olen = (uint32_t)(o - start);
	return 0;
}

static bool digit(struct xj *p)
{
	return p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9';
}

static int number(struct xj *p, struct xj_node *nd)
{
	size_t start = p->pos, l;
	bool whole = true;
	char buf[XJ_MAX_NUMBER + 1];

	if (p->pos < p->len && p->s[p->pos] == '-')
		p->pos++, whole = false;
	if (!digit(p))
		return fail(p, "a digit");
	if (p->s[p->pos] == '0') {
		p->pos++;
		if (digit(p))
			return fail(p, XJ_WHY_LEADING_ZERO);
	} else {
		while (digit(p))
			p->pos++;
	}
	if (p->pos < p->len && p->s[p->pos] == '.') {
		p->pos++, whole = false;
		if (!digit(p))
			return fail(p, "a digit");
		while (digit(p))
			p->pos++;
	}
	if (p->pos < p->len && (p->s[p->pos] | 0x20) == 'e') {
		p->pos++, whole = false;
		if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			p->pos++;
		if (!digit(p))
			return fail(p, "a digit");
		while (digit(p))
			p->pos++;
	}
	l = p->pos - start;
	if (l > XJ_MAX_NUMBER) {
		p->pos = start;
		return fail(p, XJ_WHY_LONG_NUMBER);
	}
	memcpy(buf, p->s + start, l);
	buf[l] = 0;
	nd->type = XJ_NUMBER;
	nd->str = p->s + start;
	nd->len = (uint32_t)l;
	nd->d = strtod(buf, NULL);
	nd->is_u64 = whole;
	nd->u = 0;
	for (size_t i = 0; whole && i < l; i++) {
		unsigned int dg = (unsigned int)(buf[i] - '0');

		if (nd->u > (UINT64_MAX - dg) / 10)
			nd->is_u64 = whole = false;
		else
			nd->u = nd->u * 10 + dg;
	}
	if (!nd->is_u64)
		nd->u = 0;
	return 0;
}

static int value(struct xj *p, unsigned int depth, const char *key)
{
	size_t me = p->used;
	struct xj_node *nd;
	char open;

	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, "a value");
	nd = node(p, p->used++);
	memset(nd, 0, sizeof(*nd));
	nd->key = key;
	open = p->s[p->pos];
	switch (open) {
	case '{':
	case '[':
		if (depth >= p->max_depth)
			return fail(p, XJ_WHY_DEEP);
		nd->type = open == '{' ? XJ_OBJECT : XJ_ARRAY;
		p->pos++;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == open + 2) { /* '}' and ']' */
			p->pos++;
			break;
		}
		for (;;) {
			const char *k = NULL;
			uint32_t kl;

			skip_ws(p);
			if (open == '{') {
				if (p->pos >= p->len || p->s[p->pos] != '"')
					return fail(p, "a member name in quotes");
				if (string(p, &k, &kl))
					return p->err;
				skip_ws(p);
				if (p->pos >= p->len || p->s[p->pos] != ':')
					return fail(p, "':' after a member name");
				p->pos++;
			}
			if (value(p, depth + 1, k))
				return p->err;
			node(p, me)->count++;
			skip_ws(p);
			if (p->pos < p->len && p->s[p->pos] == ',') {
				p->pos++;
				continue;
			}
			if (p->pos < p->len && p->s[p->pos] == open + 2) {
				p->pos++;
				break;
			}
			return fail(p, open == '{' ? "',' or '}'" : "',' or ']'");
		}
		break;
	case '"':
		nd->type = XJ_STRING;
		if (string(p, &nd->str, &nd->len))
			return p->err;
		break;
	case 't':
	case 'f':
	case 'n':
		if (lit(p, "true"))
			nd->type = XJ_TRUE;
		else if (lit(p, "false"))
			nd->type = XJ_FALSE;
		else if (lit(p, "null"))
			nd->type = XJ_NULL;
		else
			return fail(p, "a value");
		break;
	default:
		if (open != '-' && (open < '0' || open > '9'))
			return fail(p, "a value");
		if (number(p, nd))
			return p->err;
	}
	node(p, me)->end = (uint32_t)p->used;
	return 0;
}

/* The text @p holds, parsed: the node count, or the error (p->pos where it was found). */
static int parse(struct xj *p)
{
	if (p->len > XJ_MAX_TEXT) {
		p->err = -E2BIG;
		p->why = "a document of at most 64 MiB";
	} else if (!value(p, 0, NULL)) {
		skip_ws(p);
		if (p->pos < p->len)
			fail(p, "nothing after the value");
	}
	if (!p->err && p->used > p->cap && p->n) {
		p->err = -ENOSPC;
		p->why = "fewer values (too many for the nodes given)";
	}
	return p->err ? p->err : (int)p->used;
}

int xj_parse(char *text, size_t len, struct xj_node *nodes, size_t cap, size_t *err_off,
	     const char **why)
{
	struct xj p = {.s = text, .len = len, .n = nodes, .cap = cap, .max_depth = XJ_MAX_DEPTH};
	int r = parse(&p);

	if (r < 0) {
		if (err_off)
			*err_off = p.pos;
		if (why)
			*why = p.why;
	}
	return r;
}

int xj_check(const char *text, size_t len, unsigned int max_depth, size_t *err_off,
	     const char **why)
{
	/* a copy: the strings are decoded in place; every node goes to the scratch one */
	char *copy = text && len <= XJ_MAX_TEXT ? malloc(len ? len : 1) : NULL;
	struct xj p = {.s = copy, .len = len, .max_depth = max_depth};
	int r;

	if (copy) {
		memcpy(copy, text, len);
		r = parse(&p);
	} else {
		r = p.err = text ? (len > XJ_MAX_TEXT ? -E2BIG : -ENOMEM) : -EINVAL;
		p.why = text ? (len > XJ_MAX_TEXT ? "a document of at most 64 MiB" : "memory")
			     : "a value";
	}
	free(copy);
	if (err_off)
		*err_off = r < 0 ? p.pos : 0;
	if (why)
		*why = r < 0 ? p.why : NULL;
	return r < 0 ? r : 0;
}

int xj_doc__new(struct xj_doc *doc, const char *text, size_t len, size_t *err_off, const char **why)
{
	/* every value but the first follows a '[', ',' or ':': len / 2 + 1 nodes at most */
	size_t cap = len / 2 + 1;
	int r;

	memset(doc, 0, sizeof(*doc));
	if (len > XJ_MAX_TEXT) {
		if (why)
			*why = "a document of at most 64 MiB";
		return -E2BIG;
	}
	doc->text = malloc(len + 1);
	doc->n = calloc(cap, sizeof(*doc->n));
	if (!doc->text || !doc->n) {
		if (why)
			*why = "memory";
		return -ENOMEM;
	}
	memcpy(doc->text, text, len);
	doc->text[len] = 0;
	r = xj_parse(doc->text, len, doc->n, cap, err_off, why);
	if (r < 0)
		return r;
	doc->count = r;
	return 0;
}

void xj_doc__free(struct xj_doc *doc)
{
	free(doc->text);
	free(doc->n);
	memset(doc, 0, sizeof(*doc));
}

int xj_first(const struct xj_node *n, int i)
{
	if (i < 0 || (n[i].type != XJ_OBJECT && n[i].type != XJ_ARRAY) || !n[i].count)
		return -1;
	return i + 1;
}

int xj_next(const struct xj_node *n, int parent, int c)
{
	if (c < 0 || n[c].end >= n[parent].end)
		return -1;
	return (int)n[c].end;
}

int xj_get(const struct xj_node *n, int obj, const char *key)
{
	int c;

	if (obj < 0 || n[obj].type != XJ_OBJECT)
		return -1;
	for (c = xj_first(n, obj); c >= 0; c = xj_next(n, obj, c))
		if (!strcmp(n[c].key, key))
			return c;
	return -1;
}

uint64_t xj_u64(const struct xj_node *n, int obj, const char *key, bool *ok)
{
	int c = xj_get(n, obj, key);
	bool good = c >= 0 && n[c].type == XJ_NUMBER && n[c].is_u64;

	if (ok)
		*ok = good;
	return good ? n[c].u : 0;
}

double xj_num(const struct xj_node *n, int obj, const char *key)
{
	int c = xj_get(n, obj, key);

	return c >= 0 && n[c].type == XJ_NUMBER ? n[c].d : 0.0;
}

const char *xj_str(const struct xj_node *n, int obj, const char *key, const char *dflt)
{
	int c = xj_get(n, obj, key);

	return c >= 0 && n[c].type == XJ_STRING ? n[c].str : dflt;
}
