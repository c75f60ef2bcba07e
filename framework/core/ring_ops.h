/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ring operations of the per-packet path, without syscalls: what a worker does with its fill,
 * RX, TX and completion rings and its frame cache. Kept apart from worker.c (the loop, the
 * wakeups, the threads) so that the unit tests can drive them against rings in plain memory.
 * Thread: the worker that owns the socket(s) and the UMEM.
 *
 * What each packet costs here is measured by bench/engine.sh (instructions per packet,
 * docs/performance.md). Two rules keep it small:
 *  - whatever moves between rings and arrays moves in bulk (ring_copy(): at most three
 *    memcpy()s a burst), never one slot at a time with an index mask per slot;
 *  - the per-packet loops keep what they use in locals: a store into a packet or a cache slot
 *    could alias a field of the socket, and the compiler would reload it for every packet.
 *
 * TX frames live in one ring per socket, the TX shadow (s->txq, s->txq_mask + 1 slots):
 *
 *     txq_head ........ txq_sub ........ txq_tail
 *     | in flight:       | staged:        |
 *     | on the TX ring,  | not yet on the |
 *     | in the kernel or | TX ring        |
 *     | completed        |                |
 *
 * dispatch() stages at the tail, flush_tx() copies from txq_sub onto the TX ring, and
 * reap_completions() counts the bytes of completed frames from txq_head. The kernel never has
 * more than tx_size + comp_size of our frames (it reserves a completion slot before it takes a
 * descriptor), and staging stops at XSKF_TXQ_CAP, so a shadow of that many slots keeps every
 * length until its completion is counted.
 */
#ifndef XSKF_RING_OPS_H
#define XSKF_RING_OPS_H

#include <stddef.h>
#include <string.h>

#include "core/engine.h"
#include "core/hints_in.h"
#include "core/pkt_priv.h"
#include "core/tx_meta.h"

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

/*
 * Copy @n entries of @esz bytes from slot @si of ring @src (mask @smask) to slot @di of ring
 * @dst (mask @dmask). Either ring may wrap once within @n, so this is at most three memcpy()s.
 */
static inline void ring_copy(void *dst, uint32_t dmask, uint32_t di, const void *src,
			     uint32_t smask, uint32_t si, uint32_t n, size_t esz)
{
	while (n) {
		uint32_t d = di & dmask, s = si & smask, k = n;

		if (k > dmask + 1 - d)
			k = dmask + 1 - d;
		if (k > smask + 1 - s)
			k = smask + 1 - s;
		memcpy((uint8_t *)dst + (size_t)d * esz, (const uint8_t *)src + (size_t)s * esz,
		       (size_t)k * esz);
		di += k;
		si += k;
		n -= k;
	}
}

/* Copy @n entries of @esz bytes from a plain array into ring @dst from slot @di: one or two
 * memcpy()s (the ring wraps once at most). */
static inline void ring_put(void *dst, uint32_t dmask, uint32_t di, const void *src, uint32_t n,
			    size_t esz)
{
	uint32_t d = di & dmask, k = dmask + 1 - d;

	if (k >= n) {
		memcpy((uint8_t *)dst + (size_t)d * esz, src, (size_t)n * esz);
		return;
	}
	memcpy((uint8_t *)dst + (size_t)d * esz, src, (size_t)k * esz);
	memcpy(dst, (const uint8_t *)src + (size_t)k * esz, (size_t)(n - k) * esz);
}

/* Keep the fill ring topped up from the cache, a batch at a time. */
static inline void refill(struct xskf_sock *s, struct xskf_umem *um, uint32_t batch)
{
	uint32_t n = xsk_prod_nb_free(&s->fill, batch), idx = 0;

	if (n < batch)
		return;
	if (n > um->cache_len) {
		n = um->cache_len;
		s->c.fill_ring_empty++;
		if (!n)
			return;
	}
	n = xsk_ring_prod__reserve(&s->fill, n, &idx);
	/* the top of the cache (a LIFO stack: the frames freed last, warm in the cache) */
	um->cache_len -= n;
	ring_put(s->fill.ring, s->fill.mask, idx, um->cache + um->cache_len, n, sizeof(uint64_t));
	xsk_ring_prod__submit(&s->fill, n);
	s->fill_out += n;
}

/* Move staged frames onto the TX ring; what does not fit stays staged (back-pressure). */
static inline void flush_tx(struct xskf_sock *s)
{
	uint32_t n = xskf_sock__staged(s), idx = 0, room;

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
		/*
		 * Only whole multi-buffer frames (frags_ops.h): the kernel holds a multi-buffer
		 * frame whose last descriptor says XDP_PKT_CONTD and merges the next frame into it.
		 * Staging always ends with a whole frame, so only a partial flush can cut one.
		 */
		while (n && (s->txq[(s->txq_sub + n - 1) & s->txq_mask].options & XDP_PKT_CONTD))
			n--;
		if (!n)
			return;
	}
	n = xsk_ring_prod__reserve(&s->tx, n, &idx);
	ring_copy(s->tx.ring, s->tx.mask, idx, s->txq, s->txq_mask, s->txq_sub, n,
		  sizeof(struct xdp_desc));
	xsk_ring_prod__submit(&s->tx, n);
	s->txq_sub += n;
	/* what is left waits from the worker's next look at it (worker.c) */
	s->txq_since_ns = 0;
}

/* Give @n completed addresses from slot @idx of the completion ring back to the cache. */
static inline void cache_put_comp(struct xskf_umem *um, const struct xsk_ring_cons *comp,
				  uint32_t idx, uint32_t n)
{
	const uint64_t *slots = comp->ring;
	uint64_t fmask = ~((uint64_t)um->frame_size - 1);
	uint64_t *cache = um->cache + um->cache_len;

	um->cache_len += n;
	while (n) {
		uint32_t i = idx & comp->mask, k = comp->size - i, j;
		const uint64_t *src = slots + i;

		if (k > n)
			k = n;
		/* aligned mode: any address inside a chunk maps back to its start; unrolled, so
		 * that the loop's own compare and branch are paid once per four */
#pragma GCC unroll 4
		for (j = 0; j < k; j++)
			cache[j] = src[j] & fmask;
		cache += k;
		idx += k;
		n -= k;
	}
}

/*
 * Bytes of the @n frames put on the TX ring first of those in flight. Completions come back
 * in the order frames were sent on every driver we know; if one reordered them, the byte count
 * would be off by a difference of lengths until the frames in flight are completed too.
 */
static inline uint64_t txq_bytes(const struct xskf_sock *s, uint32_t from, uint32_t n)
{
	uint64_t bytes = 0;

	while (n) {
		uint32_t i = from & s->txq_mask, k = s->txq_mask + 1 - i, j;
		const struct xdp_desc *d = s->txq + i;

		if (k > n)
			k = n;
#pragma GCC unroll 4
		for (j = 0; j < k; j++)
			bytes += d[j].len;
		from += k;
		n -= k;
	}
	return bytes;
}

/*
 * What a socket's burst functions handle besides frames of one buffer, chosen once per socket
 * at start (burst.c): multi-buffer frames (frags_ops.h), TX metadata (tx_meta.c), a live
 * capture (capture.c). Constants at every inlined use, so each combination is its own code
 * without a test.
 */
enum { XSKF_BURST_SG = 1u << 0, XSKF_BURST_TXMD = 1u << 1, XSKF_BURST_CAP = 1u << 2 };

/*
 * Take completed frames back from @s's completion ring into the cache, counting them from the
 * TX shadow. @kind (a constant): XSKF_BURST_SG counts a frame per descriptor that ends one (no
 * XDP_PKT_CONTD: a multi-buffer frame is one frame, every buffer goes back); XSKF_BURST_TXMD hands
 * back the timestamps of frames that asked one (tx_meta.c) before their chunks are reused.
 */
static inline __attribute__((always_inline)) void reap_completions(struct xskf_sock *s,
								   struct xskf_umem *um,
								   unsigned int kind)
{
	uint32_t idx, n, j;

	n = xsk_ring_cons__peek(&s->comp, s->comp.size, &idx);
	if (!n)
		return;
	if ((kind & XSKF_BURST_TXMD) && unlikely(s->txmd_ts_out))
		xskf_txmd__reap(s, um, s->txq_head, n);
	cache_put_comp(um, &s->comp, idx, n);
	xsk_ring_cons__release(&s->comp, n);
	if (kind & XSKF_BURST_SG) {
		uint64_t bytes = 0, pkts = 0;

		for (j = 0; j < n; j++) {
			const struct xdp_desc *d = &s->txq[(s->txq_head + j) & s->txq_mask];

			bytes += d->len;
			pkts += !(d->options & XDP_PKT_CONTD);
		}
		s->c.tx_bytes += bytes;
		s->c.tx_packets += pkts;
	} else {
		s->c.tx_bytes += txq_bytes(s, s->txq_head, n);
		s->c.tx_packets += n;
	}
	s->txq_head += n;
}

/* A TX descriptor: the address, and len with options (0) in one 64-bit store. */
static inline void desc_put(struct xdp_desc *d, uint64_t addr, uint32_t len)
{
	uint64_t len_opts = len;

	d->addr = addr;
	memcpy(&d->len, &len_opts, sizeof(len_opts));
}

/*
 * Stage a frame for TX on @s. Returns false (the frame is not taken: the caller gives it back)
 * when XSKF_TXQ_CAP frames are already staged.
 */
static inline bool stage(struct xskf_sock *s, uint64_t addr, uint32_t len)
{
	if (unlikely(xskf_sock__staged(s) == XSKF_TXQ_CAP)) {
		s->c.drop_tx_full++;
		return false;
	}
	desc_put(&s->txq[s->txq_tail++ & s->txq_mask], addr, len);
	return true;
}

/*
 * The staging tail of one socket in locals, for dispatch(): a pointer into the TX shadow that
 * runs up to @stop (the shadow's end, or the last slot XSKF_TXQ_CAP allows), so that staging a
 * frame is two stores and one compare.
 */
struct stage_view {
	struct xdp_desc *q, *q0, *stop;
	uint32_t tail; /* s->txq_tail at q0 */
};

static inline void stage_view__load(struct stage_view *v, const struct xskf_sock *s)
{
	uint32_t i = s->txq_tail & s->txq_mask, room = s->txq_sub + XSKF_TXQ_CAP - s->txq_tail;

	v->tail = s->txq_tail;
	v->q = v->q0 = s->txq + i;
	v->stop = v->q + (room < s->txq_mask + 1 - i ? room : s->txq_mask + 1 - i);
}

static inline void stage_view__store(const struct stage_view *v, struct xskf_sock *s)
{
	s->txq_tail = v->tail + (uint32_t)(v->q - v->q0);
}

/*
 * Carry out the verdicts of one burst received on @s. Drops and TX back out of @s are the
 * common verdicts and stay in locals (the cache top, the staging pointer); the drop counter is
 * derived once per burst from how many frames went back to the cache. Anything else (XSKF_FWD,
 * a frame out of its chunk, full staging) stores the locals, takes the slow path and reloads.
 * @kind (a constant) with XSKF_BURST_TXMD: the sockets of an app that asks for TX metadata,
 * where the frames from the first that asked (XSKF_PKT_TX_REQ) on are carried out with their
 * requests (tx_meta.c: a request is taken back even from a drop).
 */
static inline __attribute__((always_inline)) void dispatch(struct xskf_worker *w,
							   struct xskf_sock *s,
							   struct xskf_pkt *pkts, unsigned int n,
							   unsigned int kind)
{
	struct xskf_umem *um = &w->umem;
	uint64_t fmask = ~((uint64_t)um->frame_size - 1);
	uint64_t *c = um->cache + um->cache_len, *c0 = c; /* the cache top */
	const struct xskf_pkt *p, *end = pkts + n;
	/* loaded at the first frame staged: a burst of drops never touches the TX side */
	struct stage_view v = { NULL, NULL, NULL, 0 };
	uint32_t not_app = 0;

	for (p = pkts; p < end; p++) {
		uint64_t addr = pkt_priv(p)->addr;
		uint8_t action = p->action;
		uint32_t len;
		struct xskf_sock *out;

		/* a frame that asked, whatever its verdict: it and the rest go the slow way */
		if ((kind & XSKF_BURST_TXMD) && unlikely(pkt_priv(p)->frag_idx & XSKF_PKT_TX_REQ))
			break;
		if (likely(action == XSKF_DROP)) {
			*c++ = addr & fmask;
			continue;
		}
		if (likely(action == XSKF_TX)) {
			out = s;
		} else if (action == XSKF_FWD) {
			out = p->out_port < XSKF_MAX_PORTS ? w->tx_sock[p->out_port] : NULL;
			if (unlikely(!out)) {
				s->c.drop_no_port++;
				goto back_not_app;
			}
		} else {
			/* a verdict the framework does not know: a drop, as documented */
			*c++ = addr & fmask;
			continue;
		}
		/*
		 * The app may have moved data: the frame must stay inside its chunk, and be at
		 * least a byte long. len - 1 as u32 makes len 0 cross the chunk too.
		 */
		len = p->len;
		if (unlikely(((addr + (uint32_t)(len - 1)) ^ addr) & fmask)) {
			s->c.drop_too_long++;
			goto back_not_app;
		}
		if (unlikely(out != s)) {
			/* another socket's staging: its own fields, not our locals */
			if (stage(out, addr, len))
				continue;
			goto back_not_app;
		}
		if (unlikely(v.q == v.stop)) {
			/* the first frame staged, the shadow's end, or XSKF_TXQ_CAP staged */
			if (v.q0)
				stage_view__store(&v, s);
			stage_view__load(&v, s);
			if (v.q == v.stop) {
				s->c.drop_tx_full++;
				goto back_not_app;
			}
		}
		desc_put(v.q++, addr, len);
		continue;
back_not_app:
		*c++ = addr & fmask;
		not_app++;
	}
	if (v.q0)
		stage_view__store(&v, s);
	um->cache_len += (uint32_t)(c - c0);
	s->c.drop_app += (uint32_t)(c - c0) - not_app;
	/* every verdict from the first frame that asked on, each with its request (tx_meta.c) */
	if ((kind & XSKF_BURST_TXMD) && unlikely(p < end))
		xskf_txmd__burst(w, s, p, (unsigned int)(end - p));
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "rx_pkts() packs fields");
_Static_assert(offsetof(struct xskf_pkt, len) == 8 && offsetof(struct xskf_pkt, port) == 12 &&
		       offsetof(struct xskf_pkt, queue) == 14 &&
		       offsetof(struct xskf_pkt, out_port) == 16 &&
		       offsetof(struct xskf_pkt, headroom) == 18 &&
		       offsetof(struct xskf_pkt, action) == 20 &&
		       offsetof(struct xskf_pkt, frags) == 21 &&
		       offsetof(struct xskf_pkt, xskf_private) == 22 &&
		       offsetof(struct xskf_pkt_priv, frag_idx) == 0,
	       "rx_pkts() writes len, port, queue as one word and out_port, headroom, action, "
	       "frags = 0 (one buffer), frag_idx as another");

/*
 * Prefetch (the one place that decides it, docs/performance.md "Touching packets"): each frame's
 * first cache line, where the meta and the first 32 bytes of the frame are (data at 32 mod 64
 * with hints on, at 0 mod 64 without), is prefetched when its view is built, so the whole
 * burst's lines are on their way before the app reads frame 0: the distance is the burst (64 by
 * default). The kernel wrote each frame on another CPU (veth, copy mode) or the NIC did
 * (zero-copy), so each first read is a miss; an app whose reads depend on each other (a parse)
 * would take them one after the other. Measured (bench-prefetch, a burst written on one CPU
 * and read on the other, 2.1 GHz EPYC VM): 8.8 ns per frame read without prefetch, 8.0-8.3
 * with a distance of 4 to 64 frames, none better than the whole burst; so the whole burst, with
 * no counter per frame (XSKF_RX_PREFETCH lowers it, to measure). Apps that read no byte of a
 * frame and no hint (XSKF_APP_F_NO_TOUCH) get no prefetch instruction at all.
 */
#ifndef XSKF_RX_PREFETCH
/* frames of a burst prefetched (from its first): all of them. Lower only to measure (-D). */
#define XSKF_RX_PREFETCH XSKF_MAX_BATCH
#endif

static inline __attribute__((always_inline)) void rx_prefetch(const void *line)
{
	__builtin_prefetch(line, 0, 3);
}

/*
 * Fill @k packet views from @k contiguous RX descriptors. Two 64-bit stores carry the six small
 * fields: {len, port, queue} and {out_port = port, headroom, action = XSKF_DROP, frags = 0, frag_idx}.
 * Returns their bytes. @hints, @head and @prefetch are constants at each call: the meta
 * pointer, the move past a meta carried in the headroom (@head) and the prefetch
 * (rx_prefetch()) cost nothing without them.
 */
static inline __attribute__((always_inline)) uint64_t
rx_pkts(struct xskf_pkt *restrict p, const struct xdp_desc *restrict d, uint32_t k,
	uint8_t *area, uint64_t fmask, uint64_t w_lpq, uint64_t w_oha, bool hints, bool head,
	bool prefetch)
{
	const struct xdp_desc *end = d + k;
	uint64_t bytes = 0;

	/* two packets per turn of the loop: its compare and branch are paid once per two */
#pragma GCC unroll 2
	for (; d < end; d++, p++) {
		uint64_t addr = d->addr, w;
		uint32_t len = d->len;

		if (head) {
			/* the XDP program carried the meta in the headroom, as the frame's first
			 * bytes (bpf/xskf_hints.bpf.h): past it, it lies where data_meta puts it */
			addr += sizeof(struct xskf_meta);
			len -= (uint32_t)sizeof(struct xskf_meta);
		}

		p->data = area + addr;
		w = w_lpq | len;
		memcpy(&p->len, &w, sizeof(w));
		/* the word without the headroom, then the headroom over it: one instruction less
		 * than shifting it into the word (callgrind) */
		memcpy(&p->out_port, &w_oha, sizeof(w_oha));
		p->headroom = (uint16_t)(addr & fmask);
		pkt_priv(p)->addr = addr;
		/* the XDP program wrote the meta right in front of the frame */
		p->meta = hints ? (const void *)(area + addr - sizeof(struct xskf_meta)) : NULL;
		if (prefetch)
			rx_prefetch(hints ? (const void *)p->meta : p->data);
		bytes += len;
	}
	return bytes;
}

/*
 * Where the meta of each frame is, with hints on (core/hints_in.h): written by the XDP program
 * in front of the frame (data_meta), carried by it as the frame's first bytes (the headroom),
 * or nowhere yet: the RX path computes it (userspace). 0 and 1 are what a bool said before.
 */
enum { XSKF_RX_META = 0, XSKF_RX_HEAD = 1, XSKF_RX_USER = 2 };

/*
 * Take up to @batch frames off @s's RX ring into @pkts, for the app's rx_burst() callback
 * (named apart from it: this is the ring's side). @in: XSKF_RX_* (with @hints). Returns how
 * many.
 */
static inline __attribute__((always_inline)) unsigned int
rx_take(struct xskf_worker *w, struct xskf_sock *s, struct xskf_pkt *pkts, uint32_t batch,
	bool hints, unsigned int in, bool prefetch)
{
	struct xskf_umem *um = &w->umem;
	uint8_t *area = um->area;
	uint32_t idx, n, first, i;
	const struct xdp_desc *descs = s->rx.ring;
	uint64_t port = (uint16_t)s->port->idx, queue = (uint16_t)s->queue;
	uint64_t w_lpq = port << 32 | queue << 48, w_oha = port; /* action XSKF_DROP is 0 */
	uint64_t fmask = um->frame_size - 1, bytes;

	n = xsk_ring_cons__peek(&s->rx, batch, &idx);
	if (!n)
		return 0;
	i = idx & s->rx.mask;
	first = s->rx.size - i < n ? s->rx.size - i : n;
	/* one copy of the loop for each of the three cases, each without a test per frame */
#define RX_PKTS(h, hd, pf)                                                                 \
	(rx_pkts(pkts, descs + i, first, area, fmask, w_lpq, w_oha, h, hd, pf) +           \
	 rx_pkts(pkts + first, descs, n - first, area, fmask, w_lpq, w_oha, h, hd, pf))
	if (XSKF_RX_PREFETCH < XSKF_MAX_BATCH) {
		/* a shorter distance, to measure it: the first XSKF_RX_PREFETCH frames only */
		bytes = !hints		 ? RX_PKTS(false, false, false)
			: in == XSKF_RX_HEAD ? RX_PKTS(true, true, false)
					     : RX_PKTS(true, false, false);
		const uint32_t ahead = XSKF_RX_PREFETCH; /* a variable: 0 is a valid value */

		for (i = 0; (hints || prefetch) && i < n && i < ahead; i++)
			rx_prefetch(hints ? (const void *)pkts[i].meta : pkts[i].data);
		if (hints && in == XSKF_RX_USER)
			xskf_hints_user__burst(pkts, n, w->bc.hints_mask);
	} else if (hints && in) {
		/* the two ways the data_meta loop does not take: one test for both */
		if (in == XSKF_RX_HEAD) {
			bytes = RX_PKTS(true, true, true);
		} else {
			/* the views first, every frame's line prefetched, then the parse */
			bytes = RX_PKTS(true, false, true);
			xskf_hints_user__burst(pkts, n, w->bc.hints_mask);
		}
	} else if (hints) {
		bytes = RX_PKTS(true, false, true);
	} else if (prefetch) {
		bytes = RX_PKTS(false, false, true);
	} else {
		bytes = RX_PKTS(false, false, false);
	}
#undef RX_PKTS
	xsk_ring_cons__release(&s->rx, n);
	s->fill_out -= n;
	s->c.rx_packets += n;
	s->c.rx_bytes += bytes;
	return n;
}

#endif /* XSKF_RING_OPS_H */
