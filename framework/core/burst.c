// SPDX-License-Identifier: BSD-2-Clause
/*
 * A socket's burst functions (burst.h): one body for the RX burst, one for the verdicts, one
 * for completions, each instantiated for every kind (ring_ops.h: XSKF_BURST_*) with the kind a
 * constant, so that a socket of frames of one buffer runs the code it ran before there were
 * multi-buffer frames, TX metadata or captures, without a test for any of them.
 */
#include <stdatomic.h>

#include "core/app_cb.h"
#include "core/burst.h"
#include "core/capture.h"
#include "core/frags_ops.h"
#include "core/csum.h"
#include "core/engine.h"

/*
 * Unfinished TCP/UDP checksums (csum.c): every frame is finished with --csum-repair; else a
 * few are looked at, so that the control thread can say why forwarded TCP fails. Bursts
 * shorter than the batch are whole (a slow flow, the handshake of a TCP connection), of full
 * ones only the first frame of every XSKF_CSUM_SAMPLE-th: a compare and a decrement a burst.
 */
static inline __attribute__((always_inline)) void csum_look(struct xskf_burst_cfg *c,
							    struct xskf_sock *s,
							    struct xskf_pkt *pkts, unsigned int n,
							    bool has_frags)
{
	unsigned int look;

	if (likely(n >= c->csum_whole) && likely(--c->csum_every))
		return;
	look = n < c->csum_whole ? n : 1;
	/*
	 * A burst of multi-buffer frames holds fewer frames than the batch even under load (a peek
	 * takes batch + XSKF_MAX_SEGS buffers): one that found a batch of buffers on the ring is
	 * sampled as a full one (--csum-repair: every frame).
	 */
	if (unlikely(has_frags) && s->rx_full && n < c->csum_whole && !c->csum_repair)
		look = !--c->csum_every;
	if (look) {
		xskf_csum__burst(s, pkts, look, c->csum_repair, has_frags);
		c->csum_every = XSKF_CSUM_SAMPLE;
	}
}

/*
 * Carry out the verdicts of @n frames on @s: dispatch() (ring_ops.h; with TX metadata, frames
 * that asked take its slow path), or for a burst that holds multi-buffer frames dispatch_sg()
 * (frags_ops.h; with TX metadata their requests are taken back, counted, and they go as ever).
 */
static inline __attribute__((always_inline)) void verdicts(struct xskf_worker *w,
							   struct xskf_sock *s,
							   struct xskf_pkt *pkts, unsigned int n,
							   bool has_frags, unsigned int kind)
{
	if ((kind & XSKF_BURST_SG) && unlikely(has_frags)) {
		if (kind & XSKF_BURST_TXMD)
			xskf_txmd__forget(w, s, pkts, n);
		dispatch_sg(w, s, pkts, n);
	} else {
		dispatch(w, s, pkts, n, kind);
	}
}

/*
 * One RX burst of @s: take up to a batch, look at checksums, the app's rx_burst() (marked for
 * a crash's line, runner/crash.c; with a capture around it), its verdicts. @draining: nothing
 * more comes, a multi-buffer frame cut at the end of the ring is dropped. Returns the frames taken.
 */
static inline __attribute__((always_inline)) unsigned int burst(struct xskf_worker *w,
								struct xskf_sock *s,
								struct xskf_pkt *pkts,
								bool draining, unsigned int kind)
{
	struct xskf_burst_cfg *c = &w->bc;
	bool has_frags = false;
	unsigned int n;

	if (kind & XSKF_BURST_SG)
		n = rx_take_sg(w, s, pkts, c->batch, c->hints, c->hints_in, draining, &has_frags);
	else
		n = rx_take(w, s, pkts, c->batch, c->hints, c->hints_in, c->prefetch);
	if (!n)
		return 0;
	csum_look(c, s, pkts, n, has_frags);
	xskf__app_cb = XSKF_CB_RX_BURST;
	if (kind & XSKF_BURST_CAP)
		xskf_capture__burst(w, s, pkts, n, c->rx_cb, c->wctx);
	else
		c->rx_cb(c->wctx, pkts, n);
	xskf__app_cb = XSKF_CB_NONE;
	verdicts(w, s, pkts, n, has_frags, kind);
	return n;
}

#define BURST_FNS(name, kind)                                                                      \
	static unsigned int name##_burst(struct xskf_worker *w, struct xskf_sock *s,               \
					 struct xskf_pkt *pkts, bool draining)                     \
	{                                                                                          \
		return burst(w, s, pkts, draining, kind);                                          \
	}                                                                                          \
	static unsigned int name##_burst_cap(struct xskf_worker *w, struct xskf_sock *s,           \
					     struct xskf_pkt *pkts, bool draining)                 \
	{                                                                                          \
		return burst(w, s, pkts, draining, (kind) | XSKF_BURST_CAP);                       \
	}                                                                                          \
	static void name##_verdicts(struct xskf_worker *w, struct xskf_sock *s,                    \
				    struct xskf_pkt *pkts, unsigned int n, bool has_frags)         \
	{                                                                                          \
		verdicts(w, s, pkts, n, has_frags, kind);                                          \
	}                                                                                          \
	static void name##_reap(struct xskf_sock *s, struct xskf_umem *um)                         \
	{                                                                                          \
		reap_completions(s, um, kind);                                                     \
	}

BURST_FNS(plain, 0)
BURST_FNS(sg, XSKF_BURST_SG)
BURST_FNS(txmd, XSKF_BURST_TXMD)
BURST_FNS(sg_txmd, XSKF_BURST_SG | XSKF_BURST_TXMD)

static const struct {
	xskf_burst_fn *burst, *burst_cap;
	xskf_verdicts_fn *verdicts;
	xskf_reap_fn *reap;
} kinds[] = {
    [0] = {plain_burst, plain_burst_cap, plain_verdicts, plain_reap},
    [XSKF_BURST_SG] = {sg_burst, sg_burst_cap, sg_verdicts, sg_reap},
    [XSKF_BURST_TXMD] = {txmd_burst, txmd_burst_cap, txmd_verdicts, txmd_reap},
    [XSKF_BURST_SG |
	XSKF_BURST_TXMD] = {sg_txmd_burst, sg_txmd_burst_cap, sg_txmd_verdicts, sg_txmd_reap},
};

void xskf_burst__choose(const struct xskf_engine *eng, struct xskf_sock *s)
{
	/* requests are looked for only where the app said it makes them (xskf_tx.h) */
	bool txmd = (eng->app.flags & XSKF_APP_F_TX_META) || eng->o.tx_meta;
	unsigned int kind = (s->sg ? XSKF_BURST_SG : 0) | (txmd ? XSKF_BURST_TXMD : 0);

	s->burst_kind = (uint8_t)kind;
	atomic_store(&s->burst, kinds[kind].burst);
	s->verdicts = kinds[kind].verdicts;
	s->reap = kinds[kind].reap;
}

void xskf_burst__capture(struct xskf_engine *eng, bool on)
{
	unsigned int i;

	for (i = 0; i < eng->nr_socks; i++) {
		struct xskf_sock *s = &eng->socks[i];

		if (s->reap) /* chosen: open */
			atomic_store(&s->burst, on ? kinds[s->burst_kind].burst_cap
						   : kinds[s->burst_kind].burst);
	}
}
