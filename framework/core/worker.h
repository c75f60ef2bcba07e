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

/* ---- the memory backend's state of a worker (backend/mem_backend.c) ---- */


/* A worker's */
struct xskf_mem_worker {
	uint64_t left;    /* frames its stand-in still makes */
	uint64_t busy_ns; /* and how long the worker took for all of them */
	uint64_t t0;      /* when its stand-in first ran */
	bool finished;    /* all its frames made and back: it waits for the stop */
};


struct xskf_worker {
	struct xskf_engine *eng;
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
	/* its backend's step (backend/backend.h), NULL when a kernel serves the rings */
	void (*step)(struct xskf_worker *w, uint32_t batch, bool rx);
	struct xskf_mem_worker mem; /* the memory backend's */
	/* live capture (capture.h): the published ring, read once a burst; its owner */
	struct xskf_cap_ring *_Atomic cap;
	atomic_int cap_busy;
	struct xskf_cap_ring *cap_ring;
	/*
	 * The buffers after the first of the chains of the burst in hand (chain_ops.h), for
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

/* The worker of this thread, for xskf_pkt__seg() (pkt_chain.c); NULL off the workers. */
extern __thread struct xskf_worker *xskf__worker_self
	__attribute__((tls_model("initial-exec"))); /* no __tls_get_addr() in the shared libxskf */

void *xskf_worker__run(void *arg);
bool xskf_worker__drained(const struct xskf_worker *w);

#endif /* XSKF_WORKER_H */
