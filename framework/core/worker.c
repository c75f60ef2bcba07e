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

#include "core/backend.h"
#include "core/capture.h"
#include "core/clock.h"
#include "core/csum.h"
#include "core/app_cb.h"
#include "core/chain_ops.h"
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
 * A burst in which the app asked for TX metadata (xskf_tx.h): carried out with every frame's
 * verdict (tx_meta.c); chains take their requests back, counted, and go as ever.
 */
static __attribute__((noinline, cold)) void txmd_dispatch(struct xskf_worker *w, struct xskf_sock *s,
							 struct xskf_pkt *pkts, unsigned int n,
							 bool chained)
{
	xskf_tx_asked = 0;
	if (unlikely(chained)) {
		xskf_txmd__forget(w, s, pkts, n);
		dispatch_sg(w, s, pkts, n);
		return;
	}
	xskf_txmd__burst(w, s, pkts, n);
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
	/* room is in descriptors: frames of several buffers take several (chain_ops.h) */
	if (unlikely(w->eng->sg))
		room /= w->eng->sg_segs;
	if (n > room)
		n = room;
	for (i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];

		p->addr = um->cache[--um->cache_len] + off;
		p->data = (uint8_t *)um->area + p->addr;
		p->len = 0;
		p->port = p->out_port = 0;
		p->queue = 0;
		p->headroom = (uint16_t)off;
		p->action = XSKF_FWD;
		p->frags = 0;
		p->frag_idx = XSKF_NO_FRAGS;
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
	/* frames built but not handed over take their requests back with them (tx_meta.c) */
	if (unlikely(xskf_tx_asked) && m < n && w->socks[0])
		xskf_txmd__forget(w, w->socks[0], pkts + m, n - m);
	for (i = m; i < n; i++) {
		xskf_cache_put(um, pkts[i].addr);
		if (unlikely(pkts[i].frag_idx != XSKF_NO_FRAGS))
			chain_put_rest(w, &pkts[i], 0, chain_frags(w, &pkts[i]));
	}
	/* frames of several buffers (xskf_pkt__append()) go the chain way */
	if (m && w->socks[0]) {
		if (unlikely(xskf_tx_asked))
			txmd_dispatch(w, w->socks[0], pkts, m, w->tx_nseg != 0);
		else if (unlikely(w->tx_nseg))
			dispatch_sg(w, w->socks[0], pkts, m);
		else
			dispatch(w, w->socks[0], pkts, m);
	}
	xskf_tx_asked = 0;
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

void *xskf_worker__run(void *arg)
{
	struct xskf_worker *w = arg;
	struct xskf_engine *eng = w->eng;
	const struct xskf_app *app = &eng->app;
	struct xskf_pkt pkts[XSKF_MAX_BATCH];
	uint32_t batch = eng->o.batch;
	uint64_t drain_ns = (uint64_t)eng->o.tx_drain_us * 1000, now, drain_deadline = 0;
	bool hints = !eng->o.no_hints, rcu = app->flags & XSKF_APP_F_RCU_QSBR;
	/* hints read imply frames read: rx_take() prefetches then (ring_ops.h, rx_prefetch()) */
	bool prefetch = eng->prefetch;
	bool tx_only = app->flags & XSKF_APP_F_TX_ONLY;
	bool busy_poll = eng->busy_poll, kick_always = eng->o.no_need_wakeup && eng->be->wakeups;
	bool csum_repair = eng->o.csum_repair, step = w->step;
	/*
	 * Checksums (csum.h): bursts shorter than csum_whole are looked at whole, the first frame
	 * of every XSKF_CSUM_SAMPLE-th other one; --csum-repair makes every burst shorter.
	 */
	const uint32_t csum_whole = csum_repair ? batch + 1 : batch;
	unsigned int csum_every = XSKF_CSUM_SAMPLE;
	/* fixed once the worker runs: in locals, so that no store of the loop makes them reload */
	struct xskf_sock *const *socks = w->socks;
	const unsigned int nr_socks = w->nr_socks;
	void (*rx_cb)(void *, struct xskf_pkt *, unsigned int) = app->rx_burst;
	void *wctx;
	unsigned int i, got;

	pin(w);
	xskf__worker_self = w; /* for xskf_pkt__seg() */
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

	wctx = w->wctx;
	__atomic_store_n(&w->idle.t0, xskf_now_ns(), __ATOMIC_RELEASE);
	for (;;) {
		bool draining = atomic_load_explicit(&w->draining, memory_order_relaxed);

		if (unlikely(draining)) {
			now = xskf_now_ns();
			if (!drain_deadline)
				drain_deadline = now + 500ull * 1000 * 1000;
			if (xskf_worker__drained(w) || now > drain_deadline)
				break;
		}
		/*
		 * The kernel's side, when the backend plays it (the memory backend): a flag in
		 * a local for the test, the pointer read only when it is taken. Testing the
		 * pointer itself (w->step) cost one more instruction per iteration, keeping it
		 * in a local another (callgrind).
		 */
		if (unlikely(step))
			w->step(w, batch, !draining);
		/*
		 * The idle decision (idle.c) is taken only on paths where nothing came: in
		 * tx_fill() when a TX-only app built nothing, in rx_nothing() when the last
		 * socket of a round that received nothing is empty too. A round with frames pays
		 * nothing for it: a test of got after the loop cost 0.1-0.3 instructions per
		 * packet (locals spilled), a call per empty socket 0.4 in the tunnel's silent
		 * port; this way rxdrop and l2fwd stay at 32.3 and 72.5 (bench-engine.sh).
		 */
		if (tx_only && !draining && app->tx_fill)
			tx_fill(w, pkts, batch, rcu);
		now = 0;
		got = 0;
		/*
		 * TX-only apps never prime their fill rings, so their sockets receive nothing:
		 * skip RX altogether (no rx_burst callback to call, no wakeup syscalls).
		 */
		for (i = 0; i < nr_socks && !tx_only; i++) {
			struct xskf_sock *s = socks[i];
			bool chained = false;
			unsigned int n;

			refill(s, &w->umem, batch);
			/* multi-buffer sockets apart (chain_ops.h): one test per burst */
			if (unlikely(s->sg))
				n = rx_take_sg(w, s, pkts, batch, hints, draining, &chained);
			else
				n = rx_take(w, s, pkts, batch, hints, prefetch);
			got += n;
			if (n) {
				/*
				 * Unfinished TCP/UDP checksums (csum.c): every frame is finished
				 * with --csum-repair; else a few are looked at, so that the
				 * control thread can say why forwarded TCP fails. Bursts shorter
				 * than the batch are whole (a slow flow, the handshake of a TCP
				 * connection), of full ones only the first frame of every 64th.
				 */
				if (unlikely(n < csum_whole) || unlikely(!--csum_every)) {
					unsigned int look = n < csum_whole ? n : 1;

					/*
					 * A burst of chains holds fewer frames than the batch
					 * even under load (a peek takes batch + XSKF_MAX_SEGS
					 * buffers): one that found a batch of buffers on the ring
					 * is sampled as a full one (--csum-repair: every frame).
					 */
					if (unlikely(chained) && s->rx_full && n < csum_whole &&
					    !csum_repair)
						look = !--csum_every;
					if (look) {
						xskf_csum__burst(s, pkts, look, csum_repair,
								 chained);
						csum_every = XSKF_CSUM_SAMPLE;
					}
				}
				/* a live capture (capture.h): one load and branch a burst when off */
				xskf__app_cb = XSKF_CB_RX_BURST; /* for a crash's line */
				if (unlikely(atomic_load_explicit(&w->cap, memory_order_relaxed)))
					xskf_capture__burst(w, s, pkts, n, rx_cb, wctx);
				else
					rx_cb(wctx, pkts, n);
				xskf__app_cb = XSKF_CB_NONE;
				if (unlikely(xskf_tx_asked))
					txmd_dispatch(w, s, pkts, n, chained);
				else if (unlikely(chained))
					dispatch_sg(w, s, pkts, n);
				else
					dispatch(w, s, pkts, n);
			} else if (busy_poll || xsk_ring_prod__needs_wakeup(&s->fill) ||
				   (!got && i + 1 == nr_socks)) {
				rx_nothing(w, s, busy_poll, !got && i + 1 == nr_socks);
			}
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
					/* the clock starts at the first look, not at each
					 * stage(): one read per round, none per burst */
					if (!s->txq_since_ns)
						s->txq_since_ns = now;
					else if (now - s->txq_since_ns >= drain_ns)
						flush_tx(s);
				}
			}
			if (xskf_sock__tx_out(s)) {
				maybe_kick(s, kick_always);
				if (unlikely(s->tx_chains))
					reap_completions_sg(s, &w->umem);
				else
					reap_completions(s, &w->umem);
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
	atomic_store(&w->done, true);
	return NULL;
}
