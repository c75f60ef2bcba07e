/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The framework's view of struct xskf_pkt's private bytes (xskf_private, include/xskf_pkt.h):
 * what the worker keeps of each frame there, by name. A plugin's headers show only an opaque
 * area, so no app takes these fields for API; the layout stays what plugins built before
 * compiled in (their inline push, pull and TX requests write it), which the asserts below hold.
 * Thread: the worker that owns the frame, and its app's callbacks.
 */
#ifndef XSKF_PKT_PRIV_H
#define XSKF_PKT_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "xskf_pkt.h"

struct xskf_pkt_priv {
	/*
	 * Where the frame's other buffers are: an index into the worker's segs, or XSKF_NO_FRAGS
	 * (core/frags_ops.h); either with XSKF_PKT_TX_REQ when the app asked for TX metadata
	 * (xskf_tx.h, through xskf__pkt_mark()).
	 */
	uint16_t frag_idx;
	/* UMEM address of data: push and pull move it with data (xskf__pkt_moved()) */
	uint64_t addr;
	/*
	 * packed: addr at byte 2, where the public struct has it. Each field is read and written
	 * through this view alone, or through memcpy() (the public inline functions): one type
	 * each, as when they were the struct's own fields, so the compiler keeps a frame's
	 * frag_idx in a register across stores to the cache and the rings (may_alias would not:
	 * +6 instructions a frame of 5 buffers, callgrind).
	 */
} __attribute__((packed));

_Static_assert(sizeof(struct xskf_pkt_priv) == sizeof(((struct xskf_pkt *)0)->xskf_private) &&
		       offsetof(struct xskf_pkt_priv, addr) == XSKF__PKT_PRIV_AT,
	       "the view covers the private bytes, addr where xskf__pkt_moved() moves it");
_Static_assert(offsetof(struct xskf_pkt, frags) == 21 &&
		       offsetof(struct xskf_pkt, xskf_private) == 22 &&
		       offsetof(struct xskf_pkt, meta) == 32 && sizeof(struct xskf_pkt) == 40,
	       "struct xskf_pkt's layout is the plugins' ABI: frag_idx at 22, addr at 24");

/* The private fields of @p (a struct xskf_pkt pointer, const or not), by name. */
#define pkt_priv(p)                                                                                \
	_Generic((p),                                                                              \
		const struct xskf_pkt *: (const struct xskf_pkt_priv *)(const void *)(p)           \
						 ->xskf_private,                                   \
		struct xskf_pkt *: (struct xskf_pkt_priv *)(void *)(p)->xskf_private)

#endif /* XSKF_PKT_PRIV_H */
