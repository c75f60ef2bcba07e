// SPDX-License-Identifier: BSD-2-Clause
/* The JSON writer (json.h): strings escaped, commas and keys placed, the layout the caller's. */
#include <inttypes.h>
#include <stdio.h>

#include "json.h"

void xj_write_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

void xjw__init(struct xjw *w, FILE *f)
{
	*w = (struct xjw){.f = f};
}

void xjw__resume(struct xjw *w, FILE *f, const char *pad)
{
	xjw__init(w, f);
	w->depth = 1;
	w->lv[0].pad = pad;
	w->lv[0].any = true;
	w->lv[0].obj = true;
}

void xjw_key(struct xjw *w, const char *key)
{
	if (w->depth) {
		struct xjw_level *lv = &w->lv[w->depth - 1];

		if (lv->any)
			fputc(',', w->f);
		if (w->brk)
			fputs(w->brk, w->f);
		else if (lv->pad)
			fputs(lv->pad, w->f);
		else if (lv->any)
			fputc(' ', w->f);
		lv->any = true;
	}
	w->brk = NULL;
	if (key) {
		xj_write_str(w->f, key);
		fputs(": ", w->f);
	}
}

static void open_(struct xjw *w, const char *key, const char *pad, bool obj)
{
	xjw_key(w, key);
	fputc(obj ? '{' : '[', w->f);
	/* at most XJ_MAX_DEPTH deep (the stats document is 4): beyond, the deepest level is reused
	 */
	if (w->depth < XJ_MAX_DEPTH)
		w->depth++;
	w->lv[w->depth - 1].pad = pad;
	w->lv[w->depth - 1].any = false;
	w->lv[w->depth - 1].obj = obj;
}

void xjw_obj(struct xjw *w, const char *key, const char *pad)
{
	open_(w, key, pad, true);
}

void xjw_arr(struct xjw *w, const char *key, const char *pad)
{
	open_(w, key, pad, false);
}

void xjw_end(struct xjw *w, const char *pad)
{
	if (!w->depth)
		return;
	if (pad)
		fputs(pad, w->f);
	fputc(w->lv[w->depth - 1].obj ? '}' : ']', w->f);
	w->depth--;
	w->brk = NULL;
}

void xjw_break(struct xjw *w, const char *ws)
{
	w->brk = ws;
}

void xjw_u64(struct xjw *w, const char *key, uint64_t v)
{
	xjw_key(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void xjw_i64(struct xjw *w, const char *key, int64_t v)
{
	xjw_key(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void xjw_bool(struct xjw *w, const char *key, bool v)
{
	xjw_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

void xjw_str(struct xjw *w, const char *key, const char *s)
{
	xjw_key(w, key);
	xj_write_str(w->f, s);
}

void xjw_fixed(struct xjw *w, const char *key, double v, int prec)
{
	xjw_key(w, key);
	fprintf(w->f, "%.*f", prec, v);
}
