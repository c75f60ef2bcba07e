/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A worker: one thread, its UMEM and its sockets, and the poll loop (worker.c).
 */
#ifndef XSKF_WORKER_H
#define XSKF_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "xskf.h"
#include "core/compiler.h"
#include "core/idle.h"
#include "core/sock.h"
#include "core/umem.h"

struct xskf_engine;
struct xskf_cap_ring;

/* buffers after the first in one burst: RX takes batch + XSKF_MAX_SEGS descriptors at most,
 * a TX-only app's frames of up to 8 buffers each fill a burst of XSKF_MAX_BATCH */
#define XSKF_SEGS_CAP (XSKF_MAX_BATCH * 8)

/* What every socket's burst function reads of its worker (burst.c): set before its loop. */
struct xskf_burst_cfg {
	void (*rx_cb)(void *wctx, struct xskf_pkt *pkts, unsigned int n); /* the app's */
	void *wctx;
	uint32_t batch;
	uint32_t csum_whole;     /* bursts shorter than this are looked at whole (csum.h) */
	unsigned int csum_every; /* full bursts left until the next sample */
	bool hints, prefetch, csum_repair;
	uint8_t hints_in;    /* XSKF_RX_* (ring_ops.h): where each frame's meta is */
	uint32_t hints_mask; /* XSKF_HINT_* the apps read: what userspace hints compute */
};

struct xskf_worker {
	struct xskf_engine *eng;
	struct xskf_burst_cfg bc;
	unsigned int id;
	int cpu;
	pthread_t thread;
	bool started;
	struct xskf_umem umem;
	struct xskf_sock *socks[XSKF_MAX_PORTS * 8];
	unsigned int nr_socks;
	/* the socket this worker sends on for each port (first of its sockets on that port) */
	struct xskf_sock *tx_sock[XSKF_MAX_PORTS];
	struct xskf_worker_info info;
	void *wctx;
	int init_err;
	/* its backend's step (core/backend.h), NULL when a kernel serves the rings */
	void (*step)(struct xskf_worker *w, uint32_t batch, bool rx);
	void *be_priv; /* its backend's own state of the worker (backend/, opaque here) */
	/* live capture (capture.h): the published ring, read once a burst; its owner */
	struct xskf_cap_ring *_Atomic cap;
	atomic_int cap_busy;
	struct xskf_cap_ring *cap_ring;
	/*
	 * The buffers after the first of the frames of the burst in hand (frags_ops.h), for
	 * xskf_pkt__seg(): a packet's are segs[frag_idx .. frag_idx + frags - 1]. A burst takes
	 * at most batch + XSKF_MAX_SEGS descriptors.
	 */
	struct xdp_desc segs[XSKF_SEGS_CAP];
	uint32_t tx_nseg;      /* segs used by the frames tx_fill() builds (xskf_pkt__append()) */
	bool tx_building;      /* inside app->tx_fill() */
	struct xskf_idle_state idle;      /* sleeping when no frames come (idle.c) */
	atomic_bool draining;      /* set by stop(): XDP is detached, empty the rings then exit */
	atomic_bool done;
} __attribute__((aligned(XSKF_CACHE_LINE))); /* nor do two workers */

/*
 * Frames of worker @w's UMEM may be walked by the public xskf_pkt__seg() & co. (pkt_frags.c),
 * which find a frame's worker by its UMEM: from xskf_frags__register() until
 * xskf_frags__unregister(). Returns 0 or -ENOSPC. Thread: any (the worker at its start).
 */
int xskf_frags__register(struct xskf_worker *w);
void xskf_frags__unregister(struct xskf_worker *w);
/* Buffer @i of @pkt, a frame of @w's burst (xskf_pkt__seg() with its worker given). */
uint8_t *xskf_frags__buf(const struct xskf_worker *w, const struct xskf_pkt *pkt, unsigned int i,
			 uint32_t *len);

void *xskf_worker__run(void *arg);
bool xskf_worker__drained(const struct xskf_worker *w);

#endif /* XSKF_WORKER_H */
