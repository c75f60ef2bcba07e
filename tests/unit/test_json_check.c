// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskf_json__check(): what the runner lets into the JSON document from a plugin's json().
 * Valid values pass; each kind of breakage is refused at the right byte.
 */
#include <string.h>

#include "json.h"
#include "runner/json_check.h"
#include "tap.h"

static int check(const char *s, size_t *off)
{
	const char *why;

	return xskf_json__check(s, strlen(s), off, &why);
}

int main(void)
{
	static const char *const good[] = {
		"{}", "[]", "null", "true", "false", "0", "-0", "1.5e+10", "-12.25E-3", "\"\"",
		"{\"a\": 1, \"b\": [1, 2, {\"c\": null}], \"d\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"}",
		" \t\r\n{\"a\": 1}\n ", "\"caf\xc3\xa9\"",
	};
	static const struct {
		const char *s;
		size_t off;
	} bad[] = {
		{ "", 0 },                      /* nothing */
		{ "\"seen\": 1, \"other\": 2", 6 }, /* members, not a value: the old comment's way */
		{ "{\"a\": 1} {\"b\": 2}", 9 },   /* two values */
		{ "{\"a\": 1,}", 8 },            /* trailing comma */
		{ "{a: 1}", 1 },                 /* unquoted name */
		{ "[1 2]", 3 },
		{ "01", 1 },                     /* leading zero */
		{ "1.", 2 },
		{ "-", 1 },
		{ "nul", 0 },
		{ "\"a\tb\"", 2 },               /* raw control byte in a string */
		{ "\"\\x\"", 2 },                /* bad escape */
		{ "\"\\u12g4\"", 5 },
		{ "{\"a\": 1", 7 },              /* cut short */
		{ "nan", 0 },
	};
	char deep[2 * XSKF_JSON_MAX_DEPTH + 3];
	size_t off, i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(check(good[i], &off) == 0, "valid: %s", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = check(bad[i].s, &off);

		CHECK(err < 0 && off == bad[i].off, "refused at byte %zu (got %zu): %s", bad[i].off, off,
		   bad[i].s);
	}
	/* a NUL inside the text: refused, whatever follows */
	CHECK(xskf_json__check("{}\0{}", 5, &off, NULL) < 0 && off == 2, "a NUL byte is refused");
	/* nesting: the deepest allowed passes, one more is refused without recursing further */
	memset(deep, '[', XSKF_JSON_MAX_DEPTH);
	memset(deep + XSKF_JSON_MAX_DEPTH, ']', XSKF_JSON_MAX_DEPTH);
	deep[2 * XSKF_JSON_MAX_DEPTH] = 0;
	CHECK(check(deep, &off) == 0, "%d levels of nesting pass", XSKF_JSON_MAX_DEPTH);
	memset(deep, '[', XSKF_JSON_MAX_DEPTH + 1);
	memset(deep + XSKF_JSON_MAX_DEPTH + 1, ']', XSKF_JSON_MAX_DEPTH + 1);
	deep[2 * XSKF_JSON_MAX_DEPTH + 2] = 0;
	CHECK(check(deep, &off) < 0 && off == XSKF_JSON_MAX_DEPTH, "%d levels are refused",
	   XSKF_JSON_MAX_DEPTH + 1);
	CHECK(xskf_json__check(NULL, 0, &off, NULL) < 0, "NULL is refused");
	/*
	 * What xskfctl cannot read is refused too (one parser, util/json.c): the checker once let
	 * these in, and `xskfctl stats` then refused the whole document, every plugin's.
	 */
	CHECK(check("\"\xc0\xaf\"", &off) < 0 && off == 1, "invalid UTF-8 is refused");
	CHECK(check("[\"\\u0000\"]", &off) < 0, "\\u0000 is refused");
	CHECK(check("\"\\udc00\"", &off) < 0, "a lone low surrogate is refused");
	CHECK(XSKF_JSON_MAX_DEPTH + 2 <= XJ_MAX_DEPTH,
	      "a value %d deep is still read 2 levels down in the document (%d)",
	      XSKF_JSON_MAX_DEPTH, XJ_MAX_DEPTH);
	return tap_done();
}
