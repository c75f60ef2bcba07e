// SPDX-License-Identifier: BSD-2-Clause
/*
 * A received frame that spans several buffers (multi-buffer AF_XDP, docs/jumbo.md), as an app
 * walks it: xskf_pkt__buf(), xskf_pkt__frags_len(), xskf_pkt__read_frags(). Out of line and
 * apart from the per-packet path: only apps with XSKF_APP_F_FRAGS call them, for such frames. The
 * buffers after the first are in the worker's table of the burst (worker.h: segs), found
 * through the worker whose UMEM holds the frame (pkt->data less its private addr, core/pkt_priv.h,
 * is the UMEM's start), so struct xskf_pkt keeps its size and no thread carries hidden state.
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "core/frags_ops.h"
#include "core/engine.h"

/*
 * The running workers, by their UMEM: written by the workers as they start and end (a slot
 * each), read by the public calls below to find a frame's worker. A few slots are read per
 * call; a frame of one buffer never needs it.
 */
#define OWNERS (4 * XSKF_MAX_WORKERS)
static struct xskf_worker *_Atomic owners[OWNERS];

int xskf_frags__register(struct xskf_worker *w)
{
	unsigned int i;

	for (i = 0; i < OWNERS; i++)
		if (atomic_load(&owners[i]) == w)
			return 0;
	for (i = 0; i < OWNERS; i++) {
		struct xskf_worker *none = NULL;

		if (atomic_compare_exchange_strong(&owners[i], &none, w))
			return 0;
	}
	return -ENOSPC;
}

void xskf_frags__unregister(struct xskf_worker *w)
{
	unsigned int i;

	for (i = 0; i < OWNERS; i++) {
		struct xskf_worker *me = w;

		if (atomic_compare_exchange_strong(&owners[i], &me, NULL))
			return;
	}
}

/* The worker whose UMEM holds @pkt's frame, or NULL. */
static struct xskf_worker *owner(const struct xskf_pkt *pkt)
{
	const uint8_t *area = pkt->data - pkt_priv(pkt)->addr;
	unsigned int i;

	for (i = 0; i < OWNERS; i++) {
		struct xskf_worker *w = atomic_load_explicit(&owners[i], memory_order_acquire);

		if (w && (const uint8_t *)w->umem.area == area)
			return w;
	}
	return NULL;
}

uint8_t *xskf_frags__buf(const struct xskf_worker *w, const struct xskf_pkt *pkt, unsigned int i,
			 uint32_t *len)
{
	const struct xdp_desc *d;

	if (i == 0) {
		*len = pkt->len;
		return pkt->data;
	}
	if (i > pkt->frags || !w || pkt_priv(pkt)->frag_idx + i - 1 >= XSKF_SEGS_CAP)
		return NULL;
	d = &w->segs[pkt_priv(pkt)->frag_idx + i - 1];
	*len = d->len;
	return (uint8_t *)w->umem.area + d->addr;
}

uint8_t *xskf_pkt__buf(const struct xskf_pkt *pkt, unsigned int i, uint32_t *len)
{
	return xskf_frags__buf(i ? owner(pkt) : NULL, pkt, i, len);
}

uint32_t xskf_pkt__frags_len(const struct xskf_pkt *pkt)
{
	const struct xskf_worker *w = pkt->frags ? owner(pkt) : NULL;
	uint32_t total = 0, len;
	unsigned int i;

	for (i = 0; i <= pkt->frags; i++)
		if (xskf_frags__buf(w, pkt, i, &len))
			total += len;
	return total;
}

const void *xskf_pkt__read_frags(const struct xskf_pkt *pkt, uint32_t off, uint32_t len,
				 void *buf)
{
	const struct xskf_worker *w = pkt->frags ? owner(pkt) : NULL;
	uint8_t *out = buf, *p;
	uint32_t seg_len, k;
	unsigned int i;

	for (i = 0; i <= pkt->frags && len; i++) {
		p = xskf_frags__buf(w, pkt, i, &seg_len);
		if (!p)
			return NULL;
		if (off >= seg_len) {
			off -= seg_len;
			continue;
		}
		/* wholly in this buffer and nothing copied yet: no copy */
		if (out == buf && off + len <= seg_len)
			return p + off;
		k = seg_len - off < len ? seg_len - off : len;
		memcpy(out, p + off, k);
		out += k;
		len -= k;
		off = 0;
	}
	return len ? NULL : buf;
}

uint8_t *xskf_pkt__append(struct xskf_pkt *pkt, uint32_t len)
{
	struct xskf_worker *w = owner(pkt);
	struct xskf_umem *um;
	struct xdp_desc *d;
	uint32_t off;

	if (!w || !w->tx_building || !w->eng->sg)
		return NULL;
	um = &w->umem;
	off = w->eng->rx_data_off;
	if (!len || len > um->frame_size - off || pkt->frags + 1u >= XSKF_MAX_SEGS ||
	    w->tx_nseg == XSKF_SEGS_CAP || !um->cache_len)
		return NULL;
	/* a frame's buffers are one run of the table: only the frame added to last grows */
	if (pkt->frags && pkt_priv(pkt)->frag_idx + pkt->frags != w->tx_nseg)
		return NULL;
	if (pkt->frags)
		w->segs[w->tx_nseg - 1].options = XDP_PKT_CONTD;
	else /* frags now: a request asked before is found by its magic (tx_meta.c) */
		pkt_priv(pkt)->frag_idx = (uint16_t)w->tx_nseg;
	d = &w->segs[w->tx_nseg++];
	d->addr = um->cache[--um->cache_len] + off;
	d->len = len;
	d->options = 0;
	pkt->frags++;
	return (uint8_t *)um->area + d->addr;
}

bool xskf_engine__frags(const struct xskf_engine *eng)
{
	return eng && eng->sg;
}

/*
 * The API's earlier names (deprecated, include/xskf_pkt.h, xskf_engine.h): the same functions,
 * one symbol each more, still exported for plugins built before.
 */
XSKF_API uint8_t *xskf_pkt__seg(const struct xskf_pkt *pkt, unsigned int i, uint32_t *len)
	__attribute__((alias("xskf_pkt__buf")));
XSKF_API uint32_t xskf_pkt__chain_len(const struct xskf_pkt *pkt)
	__attribute__((alias("xskf_pkt__frags_len")));
XSKF_API const void *xskf_pkt__read_chain(const struct xskf_pkt *pkt, uint32_t off, uint32_t len,
					  void *buf) __attribute__((alias("xskf_pkt__read_frags")));
XSKF_API bool xskf_engine__chains(const struct xskf_engine *eng)
	__attribute__((alias("xskf_engine__frags")));
