/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ring operations for frames that span several buffers (multi-buffer AF_XDP, XDP_USE_SG,
 * docs/jumbo.md): the worker's RX and TX of multi-buffer frames, apart from ring_ops.h's path of
 * single buffers, which stays as it was. Only sockets bound with XDP_USE_SG (s->sg) come here
 * (their burst functions, burst.c), and only for bursts that hold a multi-buffer frame does
 * dispatch_sg() replace dispatch(). Thread: the worker that owns the socket(s) and the UMEM.
 *
 * What the kernel does (net/xdp/xsk.c, seen on 6.18): a frame of N buffers is N descriptors,
 * each but the last with XDP_PKT_CONTD in its options, published together; but a peek of n
 * descriptors may end inside one. So:
 *  - RX takes whole multi-buffer frames only; one cut at the end of what was peeked stays on the
 * ring for the next burst (it is counted there by the census, rx_ring), and is dropped only when
 *    the worker drains (a buffer marked to go on that nothing follows: drop_chain_open);
 *  - a multi-buffer frame longer than XSKF_MAX_SEGS is dropped whole, up to its end
 * (drop_chain_long);
 *  - TX stages a multi-buffer frame whole or not at all, never more buffers than the kernel takes
 * for one frame (s->tx_max_segs, else drop_chain_tx), and flush_tx() puts only whole multi-buffer
 * frames on the TX ring: the kernel holds an unterminated one and merges the next frame into it.
 * The frame census counts buffers (descriptors) everywhere, so it stays exact with multi-buffer
 * frames; the packet counters count frames.
 */
#ifndef XSKF_FRAGS_OPS_H
#define XSKF_FRAGS_OPS_H

#include "core/ring_ops.h"

/*
 * frag_idx of a frame of one buffer taken by rx_take_sg(): it has no buffers in segs. With
 * XSKF_PKT_TX_REQ (xskf_tx.h: a TX-metadata request, which only frames of one buffer mark)
 * it is above: frag_idx >= XSKF_NO_FRAGS says "no buffers in segs" in one compare.
 */
#define XSKF_NO_FRAGS 0x7fff
_Static_assert((XSKF_NO_FRAGS | XSKF_PKT_TX_REQ) == 0xffff && XSKF_SEGS_CAP < XSKF_NO_FRAGS,
	       "frag_idx: an index into segs, XSKF_NO_FRAGS, or either with the request's bit");

/*
 * Buffers after the first that @p came with: the segs table's own marks, not p->frags, which
 * an app may lower to send fewer (xskf.h).
 */
static inline uint32_t frags_of(const struct xskf_worker *w, const struct xskf_pkt *p)
{
	uint32_t k = 0;

	if (pkt_priv(p)->frag_idx >= XSKF_NO_FRAGS)
		return 0;
	while (w->segs[pkt_priv(p)->frag_idx + k++].options & XDP_PKT_CONTD)
		;
	return k;
}

/* Give buffers @from.. of a frame of @frags after the first (the burst's segs) to the cache. */
static inline void frags_put_rest(struct xskf_worker *w, const struct xskf_pkt *p, uint32_t from,
				  uint32_t frags)
{
	uint32_t i;

	for (i = from; i < frags; i++)
		xskf_cache_put(&w->umem, w->segs[pkt_priv(p)->frag_idx + i].addr);
}

/*
 * Take up to @batch frames, whole multi-buffer frames, off @s's RX ring into @pkts; the buffers
 * after the first of each multi-buffer frame go to w->segs. Sets *@has_frags when one of them is a
 * multi-buffer frame. @draining: the program is detached, nothing more comes, so a multi-buffer
 * frame cut at the end is dropped rather than held. Returns how many frames.
 */
static inline __attribute__((always_inline)) unsigned int
rx_take_sg(struct xskf_worker *w, struct xskf_sock *s, struct xskf_pkt *pkts, uint32_t batch,
	   bool hints, unsigned int in, bool draining, bool *has_frags)
{
	struct xskf_umem *um = &w->umem;
	uint8_t *area = um->area;
	const struct xdp_desc *ring = s->rx.ring;
	uint32_t mask = s->rx.mask, idx, n, i = 0, np = 0, nseg = 0, multi = 0;
	uint64_t fmask = um->frame_size - 1, bytes = 0;
	uint16_t port = (uint16_t)s->port->idx, queue = (uint16_t)s->queue;

	/* at most batch + XSKF_MAX_SEGS: their buffers after the first fit in w->segs */
	n = xsk_ring_cons__peek(&s->rx, batch + XSKF_MAX_SEGS, &idx);
	s->rx_full = n >= batch;
	if (!n)
		return 0;
	while (i < n && np < batch) {
		const struct xdp_desc *d = &ring[(idx + i) & mask];
		struct xskf_pkt *p;
		uint32_t k, end;

		if (unlikely(s->rx_skip)) {
			/* the rest of a multi-buffer frame too long to take */
			xskf_cache_put(um, d->addr);
			s->rx_skip = d->options & XDP_PKT_CONTD;
			i++;
			continue;
		}
		/* the end of this frame: the first descriptor without XDP_PKT_CONTD */
		for (k = 0; i + k < n && k < XSKF_MAX_SEGS; k++)
			if (!(ring[(idx + i + k) & mask].options & XDP_PKT_CONTD))
				break;
		if (unlikely(k == XSKF_MAX_SEGS)) {
			/* too long: drop what we have, and the rest as it comes */
			for (k = 0; k < XSKF_MAX_SEGS; k++)
				xskf_cache_put(um, ring[(idx + i + k) & mask].addr);
			i += XSKF_MAX_SEGS;
			s->rx_skip = true;
			s->c.drop_chain_long++;
			continue;
		}
		if (i + k == n) {
			/*
			 * Cut at the end of what was peeked: the rest comes with the next burst.
			 * Only a short peek (the ring held no more) while draining leaves a
			 * multi-buffer frame open for good; a full one that ends inside a
			 * multi-buffer frame is held like any (dropping it then handed its tail to
			 * the next burst as a frame of its own: counted twice, and sent on by a
			 * forwarder).
			 */
			if (!draining || n == batch + XSKF_MAX_SEGS)
				break;
			for (; i < n; i++)
				xskf_cache_put(um, ring[(idx + i) & mask].addr);
			s->c.drop_chain_open++;
			break;
		}
		end = i + k;
		p = &pkts[np++];
		pkt_priv(p)->addr = d->addr;
		p->len = d->len;
		/* hints in the headroom: the first buffer starts with them (ring_ops.h, rx_pkts()) */
		if (unlikely(in == XSKF_RX_HEAD)) {
			pkt_priv(p)->addr += sizeof(struct xskf_meta);
			p->len -= (uint32_t)sizeof(struct xskf_meta);
		}
		p->data = area + pkt_priv(p)->addr;
		p->port = p->out_port = port;
		p->queue = queue;
		p->headroom = (uint16_t)(pkt_priv(p)->addr & fmask);
		p->action = XSKF_DROP;
		p->frags = (uint8_t)k;
		pkt_priv(p)->frag_idx = k ? (uint16_t)nseg : XSKF_NO_FRAGS;
		p->meta = hints ? (const void *)(p->data - sizeof(struct xskf_meta)) : NULL;
		bytes += p->len;
		for (i++; i <= end; i++) {
			d = &ring[(idx + i) & mask];
			w->segs[nseg++] = *d;
			bytes += d->len;
		}
		multi += k != 0;
	}
	/* what was peeked and not taken (a cut multi-buffer frame, a full burst) is peeked again
	 * next time */
	if (i < n)
		xsk_ring_cons__cancel(&s->rx, n - i);
	if (i) {
		xsk_ring_cons__release(&s->rx, i);
		s->fill_out -= i;
	}
	/* hints computed in userspace: from each frame's first buffer, as the XDP program's */
	if (unlikely(in == XSKF_RX_USER) && hints)
		xskf_hints_user__burst(pkts, np, w->bc.hints_mask);
	s->c.rx_packets += np;
	s->c.rx_bytes += bytes;
	s->c.rx_chains += multi;
	*has_frags = multi != 0;
	return np;
}

/*
 * Stage frame @p (a multi-buffer frame, or one buffer) on @out: all its buffers or none. Returns
 * false (counted) when it cannot go: more buffers than @out takes per frame, or no room.
 */
static inline bool stage_frags(struct xskf_worker *w, struct xskf_sock *out,
			       const struct xskf_pkt *p, uint32_t frags)
{
	uint32_t nsegs = 1u + frags, i;
	struct xdp_desc *d;

	if (unlikely(nsegs > out->tx_max_segs)) {
		out->c.drop_chain_tx++;
		return false;
	}
	if (unlikely(xskf_sock__staged(out) + nsegs > XSKF_TXQ_CAP)) {
		out->c.drop_tx_full++;
		return false;
	}
	d = &out->txq[out->txq_tail++ & out->txq_mask];
	d->addr = pkt_priv(p)->addr;
	d->len = p->len;
	d->options = frags ? XDP_PKT_CONTD : 0;
	for (i = 0; i < frags; i++) {
		d = &out->txq[out->txq_tail++ & out->txq_mask];
		*d = w->segs[pkt_priv(p)->frag_idx + i];
		d->options = i + 1 < frags ? XDP_PKT_CONTD : 0;
	}
	return true;
}

/*
 * dispatch() for a burst that holds multi-buffer frames: the same verdicts, the same counters (by
 * frame), every buffer of a multi-buffer frame going the same way.
 */
static inline void dispatch_sg(struct xskf_worker *w, struct xskf_sock *s, struct xskf_pkt *pkts,
			       unsigned int n)
{
	struct xskf_umem *um = &w->umem;
	uint64_t fmask = ~((uint64_t)um->frame_size - 1);
	unsigned int j;

	for (j = 0; j < n; j++) {
		const struct xskf_pkt *p = &pkts[j];
		struct xskf_sock *out = NULL;
		uint64_t addr = pkt_priv(p)->addr;
		uint32_t frags = frags_of(w, p), send = p->frags < frags ? p->frags : frags;

		if (p->action == XSKF_TX) {
			out = s;
		} else if (p->action == XSKF_FWD) {
			out = p->out_port < XSKF_MAX_PORTS ? w->tx_sock[p->out_port] : NULL;
			if (unlikely(!out)) {
				s->c.drop_no_port++;
				goto back;
			}
		} else {
			s->c.drop_app++;
			goto back;
		}
		/* the first buffer as dispatch() checks a frame: in its chunk, not empty */
		if (unlikely(((addr + (uint32_t)(p->len - 1)) ^ addr) & fmask)) {
			s->c.drop_too_long++;
			goto back;
		}
		if (stage_frags(w, out, p, send)) {
			/* an app that sends fewer buffers than came (xskf.h): the rest go back */
			frags_put_rest(w, p, send, frags);
			continue;
		}
back:
		xskf_cache_put(um, addr);
		frags_put_rest(w, p, 0, frags);
	}
}

#endif /* XSKF_FRAGS_OPS_H */
