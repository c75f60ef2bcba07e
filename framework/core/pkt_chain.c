// SPDX-License-Identifier: BSD-2-Clause
/*
 * A received frame that spans several buffers (multi-buffer AF_XDP, docs/jumbo.md), as an app
 * walks it: xskf_pkt__seg(), xskf_pkt__chain_len(), xskf_pkt__read_chain(). Out of line and
 * apart from the per-packet path: only apps with XSKF_APP_F_CHAINS call them, for chains. The
 * buffers after the first are in the worker's table of the burst (worker.h: segs), found
 * through the thread's own worker, so struct xskf_pkt keeps its size.
 */
#include <errno.h>
#include <string.h>

#include "core/engine.h"

__thread struct xskf_worker *xskf__worker_self;

uint8_t *xskf_pkt__seg(const struct xskf_pkt *pkt, unsigned int i, uint32_t *len)
{
	const struct xskf_worker *w = xskf__worker_self;
	const struct xdp_desc *d;

	if (i == 0) {
		*len = pkt->len;
		return pkt->data;
	}
	if (i > pkt->frags || !w || pkt->frag_idx + i - 1 >= XSKF_MAX_BATCH + XSKF_MAX_SEGS)
		return NULL;
	d = &w->segs[pkt->frag_idx + i - 1];
	*len = d->len;
	return (uint8_t *)w->umem.area + d->addr;
}

uint32_t xskf_pkt__chain_len(const struct xskf_pkt *pkt)
{
	uint32_t total = 0, len;
	unsigned int i;

	for (i = 0; i <= pkt->frags; i++)
		if (xskf_pkt__seg(pkt, i, &len))
			total += len;
	return total;
}

const void *xskf_pkt__read_chain(const struct xskf_pkt *pkt, uint32_t off, uint32_t len,
				 void *buf)
{
	uint8_t *out = buf, *p;
	uint32_t seg_len, k;
	unsigned int i;

	for (i = 0; i <= pkt->frags && len; i++) {
		p = xskf_pkt__seg(pkt, i, &seg_len);
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
