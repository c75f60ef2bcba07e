// SPDX-License-Identifier: BSD-2-Clause
/* Statistics of sockets and the frame census. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/backend.h"

int xskf_engine__queue_stats(struct xskf_engine *eng, unsigned int idx, unsigned int *port,
			     uint32_t *queue, struct xskf_queue_stats *st)
{
	struct xskf_sock *s;

	if (!eng || idx >= eng->nr_socks)
		return -ENOENT;
	s = &eng->socks[idx];
	memset(st, 0, sizeof(*st));
	if (port)
		*port = s->port->idx;
	if (queue)
		*queue = s->queue;
	/* Each counter has one writer (the worker); aligned 64-bit loads are not torn on our targets. */
#define COPY_WORKER(field) st->field = s->c.field;
#define COPY_KERNEL(field)
#define COPY_PROG(field)
#define COPY(field, obj, key, src, type, help) COPY_##src(field)
	XSKF_QUEUE_COUNTERS(COPY, XSKF_COUNTER_SKIP)
#undef COPY
	/* the kernel's and the program's rows */
	if (s->open && eng->be->kstats)
		eng->be->kstats(s, st);
	return 0;
}

int xskf_engine__census(struct xskf_engine *eng, unsigned int worker, struct xskf_frame_census *c)
{
	struct xskf_worker *w;
	uint64_t ours;
	unsigned int i;
	bool ok = true;

	if (!eng || worker >= eng->nr_workers)
		return -ENOENT;
	w = &eng->workers[worker];
	memset(c, 0, sizeof(*c));
	c->total = w->umem.nr_frames;
	c->cache = w->umem.cache_len;
	ours = c->cache;
	for (i = 0; i < w->nr_socks; i++) {
		struct xskf_sock *s = w->socks[i];
		uint64_t fill, rx, tx, comp;

		if (!s->open)
			continue;
		fill = (uint32_t)(s->fill.cached_prod - *s->fill.consumer);
		rx = (uint32_t)(*s->rx.producer - s->rx.cached_cons);
		tx = (uint32_t)(s->tx.cached_prod - *s->tx.consumer);
		comp = (uint32_t)(*s->comp.producer - s->comp.cached_cons);
		c->fill_ring += fill;
		c->rx_ring += rx;
		c->tx_pending += xskf_sock__staged(s);
		c->tx_ring += tx;
		c->comp_ring += comp;
		if (s->fill_out < fill + rx || xskf_sock__tx_out(s) < tx + comp) {
			ok = false; /* the kernel shows more than we gave it */
		} else {
			c->rx_kernel += s->fill_out - fill - rx;
			c->tx_kernel += xskf_sock__tx_out(s) - tx - comp;
		}
		ours += s->fill_out + xskf_sock__tx_out(s) + xskf_sock__staged(s);
	}
	if (ours != c->total)
		ok = false;
	/*
	 * rx_kernel is not required to be 0, even in copy mode once stopped: when the RX ring is
	 * full the kernel frees the frame it took from the fill ring into the pool's own free list
	 * and reuses it for the next frame, so it stays "taken, not yet on the RX ring" (zero-copy
	 * drivers hold many more in their hardware rings). What must hold is that our bookkeeping
	 * adds up and the kernel never shows more frames than we gave it.
	 */
	if (!ok && eng->stopped)
		pr_warn("frame census of worker %u does not add up: total %llu, cache %llu, fill %llu, "
			"rx %llu, rx-kernel %llu, tx-staged %llu, tx %llu, comp %llu, tx-kernel %llu\n",
			worker, (unsigned long long)c->total, (unsigned long long)c->cache,
			(unsigned long long)c->fill_ring, (unsigned long long)c->rx_ring,
			(unsigned long long)c->rx_kernel, (unsigned long long)c->tx_pending,
			(unsigned long long)c->tx_ring, (unsigned long long)c->comp_ring,
			(unsigned long long)c->tx_kernel);
	return ok ? 0 : -EIO;
}
