/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ring operations of the per-packet path, without syscalls: what a worker does with its fill,
 * RX, TX and completion rings and its frame cache. Kept apart from worker.c (the loop, the
 * wakeups, the threads) so that the unit tests can drive them against rings in plain memory.
 * Thread: the worker that owns the socket(s) and the UMEM.
 */
#ifndef XSKF_RING_OPS_H
#define XSKF_RING_OPS_H

#include <stddef.h>
#include <string.h>

#include "internal.h"

/*
 * Point libxdp's ring struct at a ring in plain memory (the memory backend, the unit tests).
 * struct xsk_ring_prod and xsk_ring_cons have the same layout (DEFINE_XSK_RING); a producer
 * keeps consumer + size in cached_cons.
 */
static inline void xskf_ring__init(void *ring, uint32_t *producer, uint32_t *consumer,
				   uint32_t *flags, void *slots, uint32_t size, bool is_producer)
{
	struct xsk_ring_prod *r = ring;

	memset(r, 0, sizeof(*r));
	r->mask = size - 1;
	r->size = size;
	r->producer = producer;
	r->consumer = consumer;
	r->flags = flags;
	r->ring = slots;
	r->cached_cons = is_producer ? size : 0;
}

/* Keep the fill ring topped up from the cache, a batch at a time. */
static inline void refill(struct xskf_sock *s, struct xskf_umem *um, uint32_t batch)
{
	uint32_t n = xsk_prod_nb_free(&s->fill, batch), idx, i;

	if (n < batch)
		return;
	if (n > um->cache_len) {
		n = um->cache_len;
		s->c.fill_ring_empty++;
		if (!n)
			return;
	}
	n = xsk_ring_prod__reserve(&s->fill, n, &idx);
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&s->fill, idx + i) = um->cache[--um->cache_len];
	xsk_ring_prod__submit(&s->fill, n);
	s->fill_out += n;
}

/* Move staged frames onto the TX ring; what does not fit stays staged (back-pressure). */
static inline void flush_tx(struct xskf_sock *s)
{
	uint32_t n = s->txq_len, idx, i, mask = s->tx.mask, room;

	if (!n)
		return;
	/*
	 * libxdp's reserve is all or nothing: asking for more than the free slots gets none, and
	 * with more staged frames than the ring holds (TX ring < XSKF_TXQ_CAP) TX would stall
	 * for good. Take what fits now.
	 */
	room = xsk_prod_nb_free(&s->tx, n);
	if (room < n) {
		s->c.tx_ring_full++;
		n = room;
		if (!n)
			return;
	}
	n = xsk_ring_prod__reserve(&s->tx, n, &idx);
	for (i = 0; i < n; i++) {
		*xsk_ring_prod__tx_desc(&s->tx, idx + i) = s->txq[i];
		s->tx_len_ring[(idx + i) & mask] = s->txq[i].len;
	}
	if (n) {
		xsk_ring_prod__submit(&s->tx, n);
		s->tx_out += n;
		s->txq_len -= n;
		memmove(s->txq, s->txq + n, s->txq_len * sizeof(*s->txq));
	}
	s->txq_since_ns = s->txq_len ? xskf_now_ns() : 0;
}

static inline void reap_completions(struct xskf_sock *s, struct xskf_umem *um)
{
	uint32_t idx, n, i, mask = s->tx.mask;
	uint64_t bytes = 0;

	if (!s->tx_out)
		return;
	n = xsk_ring_cons__peek(&s->comp, s->comp.size, &idx);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		xskf_cache_put(um, *xsk_ring_cons__comp_addr(&s->comp, idx + i));
		bytes += s->tx_len_ring[(s->tx_comp_idx + i) & mask];
	}
	xsk_ring_cons__release(&s->comp, n);
	s->tx_comp_idx += n;
	s->tx_out -= n;
	s->c.tx_packets += n;
	s->c.tx_bytes += bytes;
}

/* Stage @p for TX on @s. Returns false (the frame is not taken) when the staging area is full. */
static inline bool stage(struct xskf_sock *s, const struct xskf_pkt *p)
{
	/* one load of txq_len: the descriptor's u32 len could alias it, and would force reloads */
	uint32_t n = s->txq_len;

	if (unlikely(n == XSKF_TXQ_CAP)) {
		s->c.drop_tx_full++;
		return false;
	}
	if (!n)
		s->txq_since_ns = xskf_now_ns();
	s->txq[n] = (struct xdp_desc){ .addr = p->addr, .len = p->len };
	s->txq_len = n + 1;
	return true;
}

/*
 * Carry out the verdicts of one burst received on @s. The drop path is the common one (rxdrop,
 * filters): its frames go back to the cache through locals, and the drop counter is added once
 * per burst, because a store into the cache (uint64_t) could alias a uint64_t counter and
 * would make the compiler reload and store it for every frame.
 */
static inline void dispatch(struct xskf_worker *w, struct xskf_sock *s, struct xskf_pkt *pkts,
			    unsigned int n)
{
	struct xskf_umem *um = &w->umem;
	uint64_t fmask = ~((uint64_t)um->frame_size - 1), *cache = um->cache;
	uint32_t clen = um->cache_len, drops = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];
		struct xskf_sock *out;

		/* XSKF_DROP, or no verdict the framework knows: one compare for both */
		if (likely((uint8_t)(p->action - XSKF_TX) > XSKF_FWD - XSKF_TX)) {
			drops++;
			cache[clen++] = p->addr & fmask;
			continue;
		}
		if (p->action == XSKF_TX) {
			out = s;
		} else {
			out = p->out_port < XSKF_MAX_PORTS ? w->tx_sock[p->out_port] : NULL;
			if (unlikely(!out)) {
				s->c.drop_no_port++;
				cache[clen++] = p->addr & fmask;
				continue;
			}
		}
		/* The app may have moved data: the frame must stay inside its chunk. */
		if (unlikely(p->len == 0 ||
			     ((p->addr + p->len - 1) & fmask) != (p->addr & fmask))) {
			s->c.drop_too_long++;
			cache[clen++] = p->addr & fmask;
		} else if (unlikely(!stage(out, p))) {
			cache[clen++] = p->addr & fmask;
		}
	}
	um->cache_len = clen;
	s->c.drop_app += drops;
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "rx_burst() packs u16 fields");
_Static_assert(offsetof(struct xskf_pkt, queue) == offsetof(struct xskf_pkt, port) + 2 &&
		       offsetof(struct xskf_pkt, out_port) == offsetof(struct xskf_pkt, port) + 4 &&
		       offsetof(struct xskf_pkt, headroom) == offsetof(struct xskf_pkt, port) + 6,
	       "rx_burst() writes port, queue, out_port and headroom with one store");

static inline unsigned int rx_burst(struct xskf_worker *w, struct xskf_sock *s,
				    struct xskf_pkt *pkts, uint32_t batch, bool hints)
{
	struct xskf_umem *um = &w->umem;
	uint8_t *area = um->area;
	uint32_t idx, n, i, fmask = um->frame_size - 1, mask = s->rx.mask;
	/* loop invariants in locals: the stores into pkts[] could alias them otherwise */
	const struct xdp_desc *descs = s->rx.ring;
	uint16_t port = (uint16_t)s->port->idx, queue = (uint16_t)s->queue;
	/*
	 * port, queue, out_port and headroom are four adjacent u16: gcc merges their stores into
	 * one but rebuilds the constant part for every packet; build it once (little endian).
	 */
	uint64_t pq = port | (uint64_t)queue << 16 | (uint64_t)port << 32;
	/* meta = data - sizeof(meta) with hints on, NULL without: a mask instead of a branch */
	uintptr_t meta_mask = hints ? ~(uintptr_t)0 : 0;
	uint64_t bytes = 0;

	n = xsk_ring_cons__peek(&s->rx, batch, &idx);
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = &descs[(idx + i) & mask];
		struct xskf_pkt *p = &pkts[i];
		uint64_t addr = d->addr;
		uint32_t len = d->len;

		p->addr = addr;
		p->len = len;
		p->data = area + addr;
		pq = (pq & 0xffffffffffffull) | (addr & fmask) << 48;
		memcpy(&p->port, &pq, sizeof(pq)); /* port, queue, out_port, headroom */
		p->action = XSKF_DROP;
		p->meta = (const struct xskf_meta *)((uintptr_t)(area + addr -
								  sizeof(struct xskf_meta)) &
						     meta_mask);
		bytes += len;
	}
	xsk_ring_cons__release(&s->rx, n);
	s->fill_out -= n;
	s->c.rx_packets += n;
	s->c.rx_bytes += bytes;
	return n;
}

#endif /* XSKF_RING_OPS_H */
