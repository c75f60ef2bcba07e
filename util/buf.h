/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A growable byte buffer (util/: linked into the runner and xskfctl, exported by neither):
 * xskfctl metrics' sample lines of a family, the pcapng stream a live capture keeps for its
 * client (runner/capture.c). Appends never fail in the caller's face: the first allocation
 * that fails sets `oom`, and every later append does nothing, so a writer of many small pieces
 * checks once, at the end. The bytes are not NUL-terminated unless xbuf_printf() wrote last.
 * Control path only. Single-threaded: a buffer belongs to its caller.
 */
#ifndef XSKF_UTIL_BUF_H
#define XSKF_UTIL_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct xbuf {
	char *p;
	size_t len, cap;
	size_t first; /* the capacity of the first allocation (0: 4096); then it doubles */
	bool oom;     /* an allocation failed: the contents are incomplete */
};

/* Room for @n more bytes after len: 0, or -ENOMEM (oom set, or set before). */
int xbuf_reserve(struct xbuf *b, size_t n);
/* Append @n bytes of @p. */
void xbuf_put(struct xbuf *b, const void *p, size_t n);
/* Append printf(@fmt, ...), NUL-terminated (the NUL not counted in len). */
void xbuf_printf(struct xbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drop the first @n bytes (already sent), keeping the rest at the start. */
void xbuf_consume(struct xbuf *b, size_t n);
/* Free the bytes; the buffer is empty again (first kept, oom cleared). */
void xbuf_free(struct xbuf *b);

#endif /* XSKF_UTIL_BUF_H */
