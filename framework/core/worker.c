// SPDX-License-Identifier: BSD-2-Clause
/*
 * The per-packet path: one worker thread, pinned, polling its sockets in turn:
 *
 *     refill fill ring -> RX burst -> app->rx_burst() -> stage TX -> flush TX -> reap completions
 *
 * No locks (every ring and the frame cache belong to this thread alone), no allocation, and no
 * syscalls except the wakeups the kernel asks for (need_wakeup) or copy-mode TX needs.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>
#include <urcu-qsbr.h>

#include "core/app_cb.h"
#include "core/backend.h"
#include "core/frags_ops.h"
#include "core/clock.h"
#include "core/csum.h"
#include "core/ring_ops.h"

__thread unsigned char xskf__app_cb __attribute__((tls_model("initial-exec")));

static inline void kick_tx(struct xskf_sock *s)
{
	s->c.kicks++;
	/* EAGAIN/EBUSY/ENOBUFS: the kernel is busy, frames stay on the ring for the next kick. */
	sendto(s->fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
}

/*
 * Frames the kernel has not yet taken from our TX ring need a kick. In zero-copy mode only
 * when the driver sets need_wakeup. In copy mode the kernel sends only inside sendto(), so
 * kick whenever frames wait rather than trust the flag. Without need_wakeup the flag is
 * never set at all: kick every time too, or nothing would be sent.
 */
static inline void maybe_kick(struct xskf_sock *s, bool always)
{
	if (s->tx.cached_prod != *s->tx.consumer &&
	    (always || !s->zerocopy || xsk_ring_prod__needs_wakeup(&s->tx)))
		kick_tx(s);
}

/*
 * Room left in the fullest TX staging area of the worker's output sockets. A generator must
 * not build more frames than can be staged: they would be dropped (drop_tx_full) instead of
 * waiting, and a --count would no longer be exact. So a full TX ring throttles tx_fill().
 */
static inline uint32_t tx_room(const struct xskf_worker *w)
{
	uint32_t room = XSKF_TXQ_CAP, i;

	for (i = 0; i < w->info.nr_ports; i++) {
		const struct xskf_sock *s = w->tx_sock[i];

		if (s && XSKF_TXQ_CAP - xskf_sock__staged(s) < room)
			room = XSKF_TXQ_CAP - xskf_sock__staged(s);
	}
	return room;
}

/*
 * TX-only apps build frames in empty chunks handed out from the cache. A round that built none
 * counts towards a sleep (idle.c; @rcu: the thread is a QSBR reader).
 */
static inline void tx_fill(struct xskf_worker *w, struct xskf_pkt *pkts, uint32_t batch, bool rcu)
{
	const struct xskf_app *app = &w->eng->app;
	struct xskf_umem *um = &w->umem;
	uint32_t off = w->eng->rx_data_off, n, m, i, room = tx_room(w);

	n = um->cache_len < batch ? um->cache_len : batch;
	/* room is in descriptors: frames of several buffers take several (frags_ops.h) */
	if (unlikely(w->eng->sg))
		room /= w->eng->sg_segs;
	if (n > room)
		n = room;
	for (i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];

		pkt_priv(p)->addr = um->cache[--um->cache_len] + off;
		p->data = (uint8_t *)um->area + pkt_priv(p)->addr;
		p->len = 0;
		p->port = p->out_port = 0;
		p->queue = 0;
		p->headroom = (uint16_t)off;
		p->action = XSKF_FWD;
		p->frags = 0;
		pkt_priv(p)->frag_idx = XSKF_NO_FRAGS;
		p->meta = NULL;
	}
	w->tx_nseg = 0;
	w->tx_building = true;
	xskf__app_cb = XSKF_CB_TX_FILL;
	m = n ? app->tx_fill(w->wctx, pkts, n) : 0;
	xskf__app_cb = XSKF_CB_NONE;
	w->tx_building = false;
	if (m > n)
		m = n;
	if (unlikely(m < n)) {
		/* frames built but not handed over take their requests back (tx_meta.c) */
		if (w->socks[0] && (w->socks[0]->burst_kind & XSKF_BURST_TXMD))
			xskf_txmd__forget(w, w->socks[0], pkts + m, n - m);
		for (i = m; i < n; i++) {
			xskf_cache_put(um, pkt_priv(&pkts[i])->addr);
			if (unlikely(pkt_priv(&pkts[i])->frag_idx < XSKF_NO_FRAGS))
				frags_put_rest(w, &pkts[i], 0, frags_of(w, &pkts[i]));
		}
	}
	/* the socket's verdicts (burst.c); frames of several buffers (xskf_pkt__append()) the
	 * multi-buffer frame way */
	if (m && w->socks[0])
		w->socks[0]->verdicts(w, w->socks[0], pkts, m, w->tx_nseg != 0);
	if (!m)
		xskf_idle__empty(w, false, rcu, true);
}

/*
 * Socket @s received nothing: drive NAPI (busy poll) or wake the driver for the fill ring;
 * @round_empty: nor did any socket of this round, which counts towards a sleep (idle.c). Out of
 * line: the loop's registers stay the loaded path's.
 */
static __attribute__((noinline)) void rx_nothing(struct xskf_worker *w, struct xskf_sock *s,
							bool busy_poll, bool round_empty)
{
	if (busy_poll || xsk_ring_prod__needs_wakeup(&s->fill)) {
		s->c.kicks++;
		recvfrom(s->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
	}
	if (round_empty)
		xskf_idle__empty(w, atomic_load_explicit(&w->draining, memory_order_relaxed),
				 w->eng->app.flags & XSKF_APP_F_RCU_QSBR, false);
}

static void pin(struct xskf_worker *w)
{
	cpu_set_t set;
	int err;

	if (w->cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		pr_warn("warning: worker %u: cannot pin to CPU %d: %s\n", w->id, w->cpu,
			strerror(err));
}

/* True when nothing of ours is left in flight on the TX side and nothing waits in RX. */
bool xskf_worker__drained(const struct xskf_worker *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_socks; i++) {
		struct xskf_sock *s = w->socks[i];

		if (xskf_sock__staged(s) || xskf_sock__tx_out(s) ||
		    xsk_cons_nb_avail(&s->rx, 1))
			return false;
	}
	return true;
}

/*
 * The drain's half second is over with frames still in RX rings (an app slower than that for
 * what the rings held): count them, so that the run's reconciliation holds and says so.
 */
static void rx_left(struct xskf_worker *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_socks; i++) {
		struct xskf_sock *s = w->socks[i];

		if (s->rx.size)
			s->c.rx_left += xsk_cons_nb_avail(&s->rx, s->rx.size);
	}
}

/*
 * Is the drain over? The engine's stop asked the worker to drain: it ends once nothing of
 * ours is left in flight (xskf_worker__drained()), or after half a second from the first
 * look (@deadline, 0 until then) with the frames still in RX rings counted (rx_left()).
 */
static bool drain_over(struct xskf_worker *w, uint64_t *deadline)
{
	uint64_t now = xskf_now_ns();

	if (!*deadline)
		*deadline = now + 500ull * 1000 * 1000;
	if (xskf_worker__drained(w))
		return true;
	if (now > *deadline) {
		rx_left(w);
		return true;
	}
	return false;
}

/* What the sockets' burst functions read (burst.c), fixed for the run but the sample count. */
static void burst_cfg(struct xskf_worker *w)
{
	const struct xskf_engine *eng = w->eng;
	struct xskf_burst_cfg *c = &w->bc;

	c->rx_cb = eng->app.rx_burst;
	c->wctx = w->wctx;
	c->batch = eng->o.batch;
	c->hints = !eng->o.no_hints;
	c->hints_in = !c->hints ? XSKF_RX_META
		      : eng->hints_user ? XSKF_RX_USER
		      : eng->hints_head ? XSKF_RX_HEAD
					: XSKF_RX_META;
	c->hints_mask = eng->hints;
	/* hints read imply frames read: rx_take() prefetches then (ring_ops.h, rx_prefetch()) */
	c->prefetch = eng->prefetch;
	/*
	 * Checksums (csum.h): bursts shorter than csum_whole are looked at whole, the first
	 * frame of every XSKF_CSUM_SAMPLE-th other one; --csum-repair makes every burst shorter.
	 */
	c->csum_repair = eng->o.csum_repair;
	c->csum_whole = c->csum_repair ? c->batch + 1 : c->batch;
	c->csum_every = XSKF_CSUM_SAMPLE;
}

/*
 * The loop: each socket's RX burst (its burst function, burst.c: take, the app, the verdicts),
 * then each socket's TX side (flush, kick, completions). Everything a feature changes is in
 * the functions chosen per socket at start; what stays here is the same for every socket.
 */
void *xskf_worker__run(void *arg)
{
	struct xskf_worker *w = arg;
	struct xskf_engine *eng = w->eng;
	const struct xskf_app *app = &eng->app;
	struct xskf_pkt pkts[XSKF_MAX_BATCH];
	const uint32_t batch = eng->o.batch;
	uint64_t drain_ns = (uint64_t)eng->o.tx_drain_us * 1000, now, drain_deadline = 0;
	const bool rcu = app->flags & XSKF_APP_F_RCU_QSBR, tx_only = app->flags & XSKF_APP_F_TX_ONLY;
	const bool busy_poll = eng->busy_poll, step = w->step;
	const bool kick_always = eng->o.no_need_wakeup && eng->be->wakeups;
	/* fixed once the worker runs: in locals, so that no store of the loop makes them reload */
	struct xskf_sock *const *socks = w->socks;
	const unsigned int nr_socks = w->nr_socks;
	unsigned int i, got;

	pin(w);
	if (xskf_frags__register(w)) /* for xskf_pkt__seg() */
		pr_warn(
		    "warning: worker %u: multi-buffer frames cannot be walked (too many workers)\n",
		    w->id);
	if (rcu)
		rcu_register_thread();
	if (app->worker_init) {
		w->init_err = app->worker_init(eng->app_ctx, &w->info, &w->wctx);
		if (w->init_err) {
			if (w->init_err != -ECANCELED) /* the app said why itself */
				pr_warn("worker %u: %s: worker_init failed: %s\n", w->id,
					app->name, strerror(-w->init_err));
			atomic_store(&eng->stop, true);
			goto out;
		}
	}
	burst_cfg(w);
	__atomic_store_n(&w->idle.t0, xskf_now_ns(), __ATOMIC_RELEASE);
	for (;;) {
		bool draining = atomic_load_explicit(&w->draining, memory_order_relaxed);

		if (unlikely(draining) && drain_over(w, &drain_deadline))
			break;
		/* the kernel's side, when the backend plays it (the memory backend) */
		if (unlikely(step))
			w->step(w, batch, !draining);
		/* the idle decision (idle.c): only where nothing came, in tx_fill(), rx_nothing() */
		if (tx_only && !draining && app->tx_fill)
			tx_fill(w, pkts, batch, rcu);
		now = 0;
		got = 0;
		/* TX-only apps never prime their fill rings: no RX, no wakeup syscalls */
		for (i = 0; i < nr_socks && !tx_only; i++) {
			struct xskf_sock *s = socks[i];
			unsigned int n;

			refill(s, &w->umem, batch);
			n = atomic_load_explicit(&s->burst, memory_order_relaxed)(w, s, pkts, draining);
			got += n;
			if (!n && (busy_poll || xsk_ring_prod__needs_wakeup(&s->fill) ||
				   (!got && i + 1 == nr_socks)))
				rx_nothing(w, s, busy_poll, !got && i + 1 == nr_socks);
		}
		for (i = 0; i < nr_socks; i++) {
			struct xskf_sock *s = socks[i];
			uint32_t staged = xskf_sock__staged(s);

			/*
			 * Full batches go out at once; a partial one waits up to tx_drain_us for
			 * more, unless this round received nothing: then no more is coming soon
			 * and waiting would only add latency (TX-only apps: every round).
			 */
			if (staged) {
				if (staged >= batch || draining || !got) {
					flush_tx(s);
				} else {
					if (!now)
						now = xskf_now_ns();
					/* the clock starts at the first look: one read a round */
					if (!s->txq_since_ns)
						s->txq_since_ns = now;
					else if (now - s->txq_since_ns >= drain_ns)
						flush_tx(s);
				}
			}
			if (xskf_sock__tx_out(s)) {
				maybe_kick(s, kick_always);
				s->reap(s, &w->umem);
			}
		}
		if (rcu)
			rcu_quiescent_state();
	}
	__atomic_store_n(&w->idle.t_end, xskf_now_ns(), __ATOMIC_RELEASE);
	if (app->worker_fini)
		app->worker_fini(eng->app_ctx, w->wctx);
out:
	if (rcu)
		rcu_unregister_thread();
	xskf_frags__unregister(w);
	atomic_store(&w->done, true);
	return NULL;
}
