// SPDX-License-Identifier: BSD-2-Clause
/* A growable byte buffer (buf.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

int xbuf_reserve(struct xbuf *b, size_t n)
{
	size_t cap;
	char *np;

	if (b->oom)
		return -ENOMEM;
	if (b->cap - b->len >= n)
		return 0;
	cap = b->cap ? b->cap : b->first ? b->first : 4096;
	while (cap - b->len < n) {
		if (cap > ((size_t)-1) / 2) {
			b->oom = true;
			return -ENOMEM;
		}
		cap *= 2;
	}
	np = realloc(b->p, cap);
	if (!np) {
		b->oom = true;
		return -ENOMEM;
	}
	b->p = np;
	b->cap = cap;
	return 0;
}

void xbuf_put(struct xbuf *b, const void *p, size_t n)
{
	if (!n || xbuf_reserve(b, n))
		return;
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void xbuf_printf(struct xbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	/* the NUL needs its byte too */
	if (n < 0 || xbuf_reserve(b, (size_t)n + 1))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void xbuf_consume(struct xbuf *b, size_t n)
{
	if (n >= b->len) {
		b->len = 0;
		return;
	}
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
}

void xbuf_free(struct xbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->oom = false;
}
