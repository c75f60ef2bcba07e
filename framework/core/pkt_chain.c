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

#include "core/chain_ops.h"
#include "core/engine.h"

__thread struct xskf_worker *xskf__worker_self __attribute__((tls_model("initial-exec")));

uint8_t *xskf_pkt__seg(const struct xskf_pkt *pkt, unsigned int i, uint32_t *len)
{
	const struct xskf_worker *w = xskf__worker_self;
	const struct xdp_desc *d;

	if (i == 0) {
		*len = pkt->len;
		return pkt->data;
	}
	if (i > pkt->frags || !w || pkt->frag_idx + i - 1 >= XSKF_SEGS_CAP)
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

uint8_t *xskf_pkt__append(struct xskf_pkt *pkt, uint32_t len)
{
	struct xskf_worker *w = xskf__worker_self;
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
	if (pkt->frags && pkt->frag_idx + pkt->frags != w->tx_nseg)
		return NULL;
	if (pkt->frags)
		w->segs[w->tx_nseg - 1].options = XDP_PKT_CONTD;
	else
		pkt->frag_idx = (uint16_t)w->tx_nseg;
	d = &w->segs[w->tx_nseg++];
	d->addr = um->cache[--um->cache_len] + off;
	d->len = len;
	d->options = 0;
	pkt->frags++;
	return (uint8_t *)um->area + d->addr;
}

bool xskf_engine__chains(const struct xskf_engine *eng)
{
	return eng && eng->sg;
}

/*
 * The API's names in the kernel's words (a frame's buffers, its frags: include/xskf_pkt.h):
 * the same functions, one symbol each more; the names above stay exported for plugins built
 * before (deprecated).
 */
XSKF_API uint8_t *xskf_pkt__buf(const struct xskf_pkt *pkt, unsigned int i, uint32_t *len)
	__attribute__((alias("xskf_pkt__seg")));
XSKF_API uint32_t xskf_pkt__frags_len(const struct xskf_pkt *pkt)
	__attribute__((alias("xskf_pkt__chain_len")));
XSKF_API const void *xskf_pkt__read_frags(const struct xskf_pkt *pkt, uint32_t off, uint32_t len,
					  void *buf) __attribute__((alias("xskf_pkt__read_chain")));
XSKF_API bool xskf_engine__frags(const struct xskf_engine *eng)
	__attribute__((alias("xskf_engine__chains")));
