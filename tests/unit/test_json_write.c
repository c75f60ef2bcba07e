// SPDX-License-Identifier: BSD-2-Clause
/*
 * util/json.h's writer and util/counters.c's rows: what they write, byte for byte, is what
 * the documents always had (pads, breaks, a member written by its caller, a writer resumed in
 * an object already open), strings and keys are escaped, and the result is one value the
 * parser takes with the values written. Each family's rows write every member, in order.
 */
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "json.h"
#include "tap.h"

/* What @fn writes, as a NUL-terminated string the caller frees. */
static char *written(void (*fn)(struct xjw *w))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct xjw w;

	if (!f)
		return NULL;
	xjw__init(&w, f);
	fn(&w);
	fclose(f);
	return buf;
}

/* The stats document's shape, in little: a top object, a block array, an inline object. */
static void doc(struct xjw *w)
{
	xjw_obj(w, NULL, "\n  ");
	xjw_str(w, "app", "a\"b\\c\n");
	xjw_fixed(w, "duration_s", 1.5, 3);
	xjw_arr(w, "queues", "\n    ");
	xjw_obj(w, NULL, NULL);
	xjw_str(w, "port", NULL);
	xjw_i64(w, "node", -1);
	xjw_break(w, "\n     ");
	xjw_u64(w, "rx", UINT64_MAX);
	xjw_arr(w, "served", NULL);
	xjw_u64(w, NULL, 1);
	xjw_u64(w, NULL, 2);
	xjw_end(w, NULL);
	xjw_end(w, NULL);
	xjw_end(w, "\n  ");
	xjw_arr(w, "empty", "\n    ");
	xjw_end(w, "\n  ");
	xjw_key(w, "k\"ey");
	fputs("{\"raw\": true}", w->f);
	xjw_end(w, "\n");
}

static const char doc_text[] = "{\n"
			       "  \"app\": \"a\\\"b\\\\c\\u000a\",\n"
			       "  \"duration_s\": 1.500,\n"
			       "  \"queues\": [\n"
			       "    {\"port\": null, \"node\": -1,\n"
			       "     \"rx\": 18446744073709551615, \"served\": [1, 2]}\n"
			       "  ],\n"
			       "  \"empty\": [\n"
			       "  ],\n"
			       "  \"k\\\"ey\": {\"raw\": true}\n"
			       "}";

/* The chain's way: members added to an object someone else opened and wrote into. */
static void resumed(struct xjw *w)
{
	FILE *f = w->f;

	fputs("{\n  \"a\": 1", f);
	xjw__resume(w, f, "\n  ");
	xjw_arr(w, "plugins", "\n    ");
	xjw_obj(w, NULL, NULL);
	xjw_bool(w, "x", true);
	xjw_bool(w, "y", false);
	xjw_end(w, NULL);
	xjw_end(w, "\n  ");
	fputs("\n}", f);
}

/* One object of family @fam from @s: {"worker": 0, ROWS...}, checked against the rows. */
static void family(const struct xc_family *fam, const void *s)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	struct xj_node n[256];
	struct xjw w;
	int nr, c;
	bool ok = true;

	if (!f)
		return;
	xjw__init(&w, f);
	xjw_obj(&w, NULL, NULL);
	xjw_u64(&w, "worker", 0);
	xc_json(&w, fam, s);
	xjw_end(&w, NULL);
	fclose(f);
	nr = xj_parse(buf, len, n, 256, NULL, NULL);
	ok = nr > 0 && n[0].count == fam->nr + 1;
	/* every row, in its order, after the object's name, with its value */
	for (c = xj_next(n, 0, xj_first(n, 0)), i = 0; ok && c >= 0; c = xj_next(n, 0, c), i++) {
		const struct xc_row *r = &fam->rows[i];

		ok = !strcmp(n[c].key, r->key);
		if (r->kind == XC_STR)
			ok = ok && n[c].type == XJ_STRING &&
			     !strcmp(n[c].str, (const char *)s + r->off);
		else if (r->kind == XC_BOOL)
			ok = ok && n[c].type == (xc_value(r, s) ? XJ_TRUE : XJ_FALSE);
		else if (r->kind == XC_I64)
			ok = ok && n[c].type == XJ_NUMBER &&
			     (int64_t)n[c].d == (int64_t)xc_value(r, s);
		else
			ok = ok && n[c].is_u64 && n[c].u == xc_value(r, s);
	}
	CHECK(ok && i == fam->nr, "family %s: %u rows written in order with their values",
	      fam->name, fam->nr);
	free(buf);
}

int main(void)
{
	struct xskf_idle_stats idle = {sizeof(idle), 1, 2, 3, 4, 5};
	struct xc_census cen = {.hugepages = true,
				.page_size = 4096,
				.umem_bytes = 1 << 20,
				.umem_node = -1,
				.umem_pages_on_node = 7,
				.c = {10, 1, 2, 3, 4, 0, 0, 0, 0},
				.ok = true};
	struct xskf_steer_stats st = {sizeof(st), 15, 1, 2, 3, 9};
	struct xskf_steer_info in = {.sz = sizeof(in),
				     .id = 3,
				     .pos = 1,
				     .keep_host = true,
				     .text = "udp dport 9 xsk",
				     .hits = 77};
	struct xc_mem mem = {100, 123456789};
	struct xj_node n[64];
	char *s = written(doc);
	unsigned int k;

	CHECK(s && !strcmp(s, doc_text), "the writer's bytes: pads, breaks, escapes, a raw value");
	CHECK(s && xj_parse(s, strlen(s), n, 64, NULL, NULL) > 0 &&
		  !strcmp(xj_str(n, 0, "app", ""), "a\"b\\c\n") &&
		  xj_u64(n, xj_first(n, xj_get(n, 0, "queues")), "rx", NULL) == UINT64_MAX,
	      "what it wrote parses back to the values written");
	free(s);
	s = written(resumed);
	CHECK(s && !strcmp(
		       s,
		       "{\n  \"a\": 1,\n  \"plugins\": [\n    {\"x\": true, \"y\": false}\n  ]\n}"),
	      "a writer resumed in an open object: a comma, then its members");
	free(s);
	family(&xc_idle, &idle);
	family(&xc_census, &cen);
	family(&xc_steer, &st);
	family(&xc_steer_queue, &st);
	family(&xc_steer_rule, &in);
	family(&xc_mem, &mem);
	for (k = 0; xc_families[k]; k++)
		;
	CHECK(k == 6, "xc_families lists the six families");
	return tap_done();
}
