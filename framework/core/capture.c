// SPDX-License-Identifier: BSD-2-Clause
/*
 * Live capture, the core's half (capture.h): the workers' copies and the control thread's reads
 * (switched on and off by capture_ctl.c). Publication: the control thread fills a ring's
 * filter and generation while no worker can see it, then stores the ring's pointer in
 * w->cap, then the capture twin of each socket's burst function (burst.c) in s->burst.
 * Retirement: it stores the chosen burst functions back and NULL in w->cap, then waits until
 * the worker is out of
 * xskf_capture__burst() (its busy flag: the worker sets it, then reads w->cap again, both
 * sequentially consistent, so either the worker sees NULL or the control thread sees busy).
 * A worker is inside for one burst at most: the wait is microseconds and never the worker's.
 * Records carry their generation: one of a previous capture still in a ring is skipped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xskf_hints.h"
#include "core/capture.h"
#include "core/clock.h"
#include "core/engine.h"
#include "core/sock.h"
#include "core/worker.h"

static inline bool wanted(const struct xskf_cap_filter *f, const struct xskf_sock *s)
{
	return (f->port < 0 || (unsigned int)f->port == s->port->idx) &&
	       (f->queue < 0 || (uint32_t)f->queue == s->queue);
}

/* A copy of @p, going through socket @s in direction @dir, or a drop when the ring is full. */
static void put(struct xskf_cap_ring *r, const struct xskf_sock *s, const struct xskf_pkt *p,
		uint8_t dir, uint64_t now)
{
	unsigned int tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	struct xskf_cap_rec *rec;

	if (tail - atomic_load_explicit(&r->head, memory_order_acquire) >= XSKF_CAP_SLOTS) {
		atomic_store_explicit(&r->drops,
				      atomic_load_explicit(&r->drops, memory_order_relaxed) + 1,
				      memory_order_relaxed);
		return;
	}
	rec = &r->rec[tail & (XSKF_CAP_SLOTS - 1)];
	rec->ts_ns = now;
	rec->gen = r->gen;
	/* a multi-buffer frame: its whole length, the kept bytes read across buffers */
	rec->orig_len = p->frags ? xskf_pkt__total_len(p) : p->len;
	rec->cap_len = rec->orig_len < r->f.snaplen ? rec->orig_len : r->f.snaplen;
	rec->sock = (uint16_t)s->idx;
	rec->dir = dir;
	rec->hints = false;
	if (dir == XSKF_CAP_RX && xskf_pkt__meta_valid(p)) {
		const struct xskf_meta *m = xskf_pkt__meta(p);

		rec->hints = true;
		rec->hint_src = (uint8_t)XSKF_META_SRC(m->src, XSKF_F_HASH);
		rec->rx_hash = m->rx_hash;
		rec->hash_type = m->hash_type;
		rec->ptype = m->ptype;
	}
	if (likely(!p->frags)) {
		memcpy(rec->data, p->data, rec->cap_len);
	} else {
		const void *d = xskf_pkt__read(p, 0, rec->cap_len, rec->data);

		if (!d)
			rec->cap_len = 0; /* shorter than it said: nothing kept, its length is */
		else if (d != rec->data)
			memcpy(rec->data, d, rec->cap_len);
	}
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
}

void xskf_capture__burst(struct xskf_worker *w, struct xskf_sock *s, struct xskf_pkt *pkts,
			 unsigned int n, void (*rx_cb)(void *, struct xskf_pkt *, unsigned int),
			 void *wctx)
{
	struct xskf_cap_ring *r;
	uint64_t now;
	unsigned int i;

	atomic_store(&w->cap_busy, 1);
	r = atomic_load(&w->cap);
	if (!r) {
		atomic_store(&w->cap_busy, 0);
		rx_cb(wctx, pkts, n);
		return;
	}
	now = xskf_now_ns();
	if ((r->f.dirs & XSKF_CAP_RX) && wanted(&r->f, s))
		for (i = 0; i < n; i++)
			put(r, s, &pkts[i], XSKF_CAP_RX, now);
	rx_cb(wctx, pkts, n);
	if (r->f.dirs & XSKF_CAP_TX) {
		for (i = 0; i < n; i++) {
			const struct xskf_sock *o;

			if (pkts[i].action == XSKF_TX)
				o = s;
			else if (pkts[i].action == XSKF_FWD && pkts[i].out_port < XSKF_MAX_PORTS)
				o = w->tx_sock[pkts[i].out_port];
			else
				continue;
			if (o && wanted(&r->f, o))
				put(r, o, &pkts[i], XSKF_CAP_TX, now);
		}
	}
	atomic_store(&w->cap_busy, 0);
}

const struct xskf_cap_rec *xskf_capture__peek(struct xskf_engine *eng, unsigned int w)
{
	struct xskf_cap_ring *r = w < eng->nr_workers ? eng->workers[w].cap_ring : NULL;

	while (r) {
		unsigned int head = atomic_load_explicit(&r->head, memory_order_relaxed);
		const struct xskf_cap_rec *rec;

		if (head == atomic_load_explicit(&r->tail, memory_order_acquire))
			return NULL;
		rec = &r->rec[head & (XSKF_CAP_SLOTS - 1)];
		if (rec->gen == r->gen)
			return rec;
		atomic_store_explicit(&r->head, head + 1, memory_order_release); /* an old one */
	}
	return NULL;
}

void xskf_capture__next(struct xskf_engine *eng, unsigned int w)
{
	struct xskf_cap_ring *r = eng->workers[w].cap_ring;

	atomic_store_explicit(&r->head, atomic_load_explicit(&r->head, memory_order_relaxed) + 1,
			      memory_order_release);
}

uint64_t xskf_capture__drops(const struct xskf_engine *eng)
{
	uint64_t d = 0;
	unsigned int i;

	for (i = 0; i < eng->nr_workers; i++)
		if (eng->workers[i].cap_ring)
			d += atomic_load(&eng->workers[i].cap_ring->drops);
	return d;
}

void xskf_capture__free(struct xskf_engine *eng)
{
	unsigned int i;

	for (i = 0; eng->workers && i < eng->nr_workers; i++) {
		free(eng->workers[i].cap_ring);
		eng->workers[i].cap_ring = NULL;
	}
}
