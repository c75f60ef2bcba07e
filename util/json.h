/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON parser and writer of xskfctl and the runner (util/: linked into both, exported by
 * neither; the writer at the end of this file):
 * xskfctl reads the control socket's `stats` document into a tree of nodes (xj_parse(),
 * xj_doc__new()); the runner checks that what a plugin's json() printed is one value xskfctl
 * will read (xj_check(), runner/json_check.c), so both hold every text to the same rules.
 *
 * Strict RFC 8259 (one value, no trailing commas, no leading zeros, valid UTF-8, surrogate
 * pairs only paired), nesting at most XJ_MAX_DEPTH, and no NUL anywhere (a string with
 * \u0000 is refused: every string of the tree is a C string). The text is decoded in place
 * (a string's decoded bytes are never longer than its escaped ones) and the nodes go into an
 * array the caller gives: xj_parse() allocates nothing. xj_doc__new() makes the two
 * allocations whose sizes it knows from the text's length before it starts, and no others.
 *
 * The nodes are in document order: a container's first child, if any, is the next node, and
 * each node's `end` is the index just after its subtree, so the next sibling of n is n->end.
 * Single-threaded: a tree belongs to the thread that parsed it.
 */
#ifndef XSKF_UTIL_JSON_H
#define XSKF_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define XJ_MAX_DEPTH 32
#define XJ_MAX_TEXT  (64u << 20) /* 64 MiB: far beyond any run's document */

/*
 * What an error's *why says: the words after "expected" (a message reads "byte N: expected
 * WHY"). These are the rules beyond the grammar's, named so that a caller can tell them apart.
 */
#define XJ_WHY_UTF8	     "valid UTF-8"
#define XJ_WHY_NUL	     "no \\u0000 (a NUL) in a string"
#define XJ_WHY_LONE_LOW	     "a high surrogate before a low one"
#define XJ_WHY_NO_LOW	     "a low surrogate after a high one"
#define XJ_WHY_DEEP	     "less nesting"
#define XJ_WHY_LONG_NUMBER   "a number of at most 127 characters"
#define XJ_WHY_LEADING_ZERO  "no digit after a leading 0"

enum xj_type { XJ_NULL, XJ_FALSE, XJ_TRUE, XJ_NUMBER, XJ_STRING, XJ_ARRAY, XJ_OBJECT };

struct xj_node {
	enum xj_type type;
	uint32_t end;	 /* index after this node's subtree */
	uint32_t count;	 /* members or elements of a container */
	const char *key; /* the member's name when the parent is an object, else NULL */
	const char *str; /* a string's decoded bytes (NUL-terminated), a number's text (not) */
	uint32_t len;	 /* their length */
	bool is_u64;	 /* a number that is a whole number in 0..UINT64_MAX */
	uint64_t u;	 /* its value then */
	double d;	 /* any number's value */
};

/*
 * Parse @text (@len bytes, modified in place: strings decoded, NULs written) into @nodes
 * (@cap of them), nested at most XJ_MAX_DEPTH deep. Returns the number of nodes (>= 1), or
 * -EINVAL for text that is not one JSON value (*@err_off the byte, *@why what was expected
 * there; found whatever @cap is), -ENOSPC when the text is JSON but @cap nodes are too few
 * (len / 2 + 1 are always enough), -E2BIG for text longer than XJ_MAX_TEXT. @err_off and
 * @why may be NULL. Thread: any; the tree belongs to the caller.
 */
int xj_parse(char *text, size_t len, struct xj_node *nodes, size_t cap, size_t *err_off,
	     const char **why);

/*
 * xj_check() - is @text[0 .. @len) one JSON value xj_parse() takes, nested at most
 * @max_depth deep (white space around it allowed)? @text is not modified and nothing is kept.
 * Returns 0 when it is; else -EINVAL (NULL @text too), -E2BIG or -ENOMEM, with *@err_off and
 * *@why as xj_parse() gives them. Thread: any.
 */
int xj_check(const char *text, size_t len, unsigned int max_depth, size_t *err_off,
	     const char **why);

/* A parsed copy of a text: the tree and the bytes it points into. */
struct xj_doc {
	struct xj_node *n; /* n[0] is the root */
	int count;
	char *text;
};

/*
 * A tree of a copy of @text: 0, or -EINVAL (not JSON: *@err_off, *@why), -E2BIG, -ENOMEM.
 * Free with xj_doc__free() (also after an error).
 */
int xj_doc__new(struct xj_doc *doc, const char *text, size_t len, size_t *err_off,
		const char **why);
void xj_doc__free(struct xj_doc *doc);

/* The member @key of object node @obj, or -1 (not an object, or no such member). */
int xj_get(const struct xj_node *n, int obj, const char *key);
/* The first child of @i, or -1; the next sibling of child @c of @parent, or -1. */
int xj_first(const struct xj_node *n, int i);
int xj_next(const struct xj_node *n, int parent, int c);
/* The member @key of @obj as a whole number (0 when it is missing or not one: @ok false). */
uint64_t xj_u64(const struct xj_node *n, int obj, const char *key, bool *ok);
/* The member @key of @obj as a number (0.0 when missing), as a string (@dflt when missing). */
double xj_num(const struct xj_node *n, int obj, const char *key);
const char *xj_str(const struct xj_node *n, int obj, const char *key, const char *dflt);

/*
 * xj_write_str() - @s as a JSON string to @f: '"' and '\\' escaped, control characters as
 * \u00XX; NULL as null. The one writer of strings for every JSON document xskf prints (the
 * run's report, doctor's, xskfctl's). Thread: the caller's (@f's).
 */
void xj_write_str(FILE *f, const char *s);

/*
 * The writer (json_write.c): the one way the runner writes JSON (the stats document:
 * report.c, chain.c, steer_cmd.c, the memory backend; the control socket's doctor answer:
 * ctl_doctor.c), so that commas, keys and strings are right by construction. The layout is
 * the caller's, kept as the documents always had it: a container says what goes before each
 * of its members (its pad: "\n    " puts each on a line of its own; NULL: inline, ", "
 * between them) and xjw_end() what goes before its closing bracket; xjw_break() puts a line
 * break before the next member of an inline container. Values nobody but the caller can
 * write (a plugin's json()) follow xjw_key(), written straight to w->f.
 * Control path only. Single-threaded: a writer belongs to its caller (and @f's).
 */
struct xjw {
	FILE *f;
	unsigned int depth;  /* containers open */
	const char *brk;     /* before the next member instead of its pad (xjw_break()) */
	struct xjw_level {
		const char *pad; /* before each member; NULL: inline */
		bool any;        /* a member is out: the next one needs a comma */
		bool obj;        /* an object (members have keys), else an array */
	} lv[XJ_MAX_DEPTH];
};

/* A writer of one value to @f. */
void xjw__init(struct xjw *w, FILE *f);
/*
 * A writer of more members of an object already open on @f with members in it (the chain's
 * "plugins" beside the "app_stats" its json() callback was asked for), each after @pad.
 */
void xjw__resume(struct xjw *w, FILE *f, const char *pad);
/*
 * Open an object or an array: a member @key of the current object (NULL: an element of an
 * array, or the value itself), whose members each follow @pad (NULL: inline).
 */
void xjw_obj(struct xjw *w, const char *key, const char *pad);
void xjw_arr(struct xjw *w, const char *key, const char *pad);
/* Close the innermost container, @pad (NULL: nothing) before its bracket. */
void xjw_end(struct xjw *w, const char *pad);
/* @ws (white space) before the next member instead of its pad or a blank. */
void xjw_break(struct xjw *w, const char *ws);
/* The comma, white space and key of a member whose value the caller writes to w->f. */
void xjw_key(struct xjw *w, const char *key);
/* Members (@key NULL: elements) of each kind; xjw_str() writes NULL @s as null. */
void xjw_u64(struct xjw *w, const char *key, uint64_t v);
void xjw_i64(struct xjw *w, const char *key, int64_t v);
void xjw_bool(struct xjw *w, const char *key, bool v);
void xjw_str(struct xjw *w, const char *key, const char *s);
/* @v with @prec digits after the point ("%.3f"). */
void xjw_fixed(struct xjw *w, const char *key, double v, int prec);

#endif /* XSKF_UTIL_JSON_H */
