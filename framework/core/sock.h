/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One AF_XDP socket as the worker sees it: its four rings, its TX shadow, its counters; opened
 * by its backend (the xdp backend: xsk.c).
 */
#ifndef XSKF_SOCK_H
#define XSKF_SOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/if_xdp.h>
#include <xdp/xsk.h>

#include "xskf.h"
#include "core/compiler.h"

#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET 9 /* SOL_XDP option, Linux 6.17 */
#endif
/* multi-buffer AF_XDP (Linux 6.6), missing from Debian 12's 6.1 UAPI headers (docs/jumbo.md) */
#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4) /* bind flag */
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0) /* xdp_desc.options: the packet goes on in the next descriptor */
#endif

/*
 * What one worker writes on its path (socket counters, ring positions, its cache's top) must
 * not share a cache line with another worker's: each write would take the line from the
 * other CPU (false sharing), and two workers would run slower than one.
 */
#define XSKF_CACHE_LINE 64

#define XSKF_TXQ_CAP (2 * XSKF_MAX_BATCH)

struct xskf_port;
struct xskf_worker;
struct xskf_umem;

/*
 * Per-socket counters, written by the owning worker only, read by the control thread: the
 * rows of XSKF_QUEUE_COUNTERS (xskf_counters.h) the worker counts (src WORKER), named as in
 * struct xskf_queue_stats. A row there is the whole declaration of a counter.
 */
#define XSKF_QC_WORKER(field) uint64_t field;
#define XSKF_QC_KERNEL(field)
#define XSKF_QC_PROG(field)
#define XSKF_QC_MEMBER(field, obj, key, src, type, help) XSKF_QC_##src(field)
struct xskf_qcounters {
	XSKF_QUEUE_COUNTERS(XSKF_QC_MEMBER, XSKF_COUNTER_SKIP)
};

struct xskf_raw;
struct xskf_sock;

/* A socket's burst functions (burst.h), chosen at start. */
typedef unsigned int xskf_burst_fn(struct xskf_worker *w, struct xskf_sock *s,
				   struct xskf_pkt *pkts, bool draining);
typedef void xskf_verdicts_fn(struct xskf_worker *w, struct xskf_sock *s, struct xskf_pkt *pkts,
			      unsigned int n, bool has_frags);
typedef void xskf_reap_fn(struct xskf_sock *s, struct xskf_umem *um);

struct xskf_sock {
	struct xskf_port *port;
	uint32_t queue;
	unsigned int idx;          /* index among all sockets of the engine */
	struct xskf_worker *worker;
	struct xsk_socket *xsk;
	int fd;
	bool zerocopy;
	bool open;                 /* its backend opened it: its rings are set up */
	/*
	 * Bound with XDP_USE_SG: RX descriptors may form multi-buffer frames (XDP_PKT_CONTD), taken
	 * by rx_take_sg() (frags_ops.h); its completions are counted by packet ends.
	 */
	bool sg;
	/* an over-long RX multi-buffer frame is being dropped: its descriptors up to its end go
	 * back */
	bool rx_skip;
	/*
	 * The last burst rx_take_sg() took found a batch of descriptors or more on the RX ring:
	 * a load, though a burst of multi-buffer frames holds fewer frames than the batch (the
	 * checksum sample counts it as a full burst, worker.c).
	 */
	bool rx_full;
	uint8_t tx_max_segs;       /* descriptors per packet the kernel takes on TX */
	uint8_t burst_kind;        /* XSKF_BURST_* (ring_ops.h) of its burst functions */
	/*
	 * Its burst functions (burst.c): the RX burst the worker calls (the chosen one, or its
	 * capture twin while the control thread publishes it), the verdicts of the frames
	 * tx_fill() built, the completions.
	 */
	xskf_burst_fn *_Atomic burst;
	xskf_verdicts_fn *verdicts;
	xskf_reap_fn *reap;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod tx;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	/* frame accounting: frames we gave the kernel that have not come back yet */
	uint64_t fill_out;         /* put on the fill ring, not yet taken from the RX ring */
	struct xskf_qcounters c;
	/*
	 * TX shadow (ring_ops.h): every frame from staging to completion, txq_mask + 1 slots.
	 * [txq_head, txq_sub) is in flight (xskf_sock__tx_out()), [txq_sub, txq_tail) is staged,
	 * waiting for room on the TX ring (xskf_sock__staged(), at most XSKF_TXQ_CAP).
	 */
	struct xdp_desc *txq;
	uint32_t txq_mask;
	uint32_t txq_head, txq_sub, txq_tail;
	uint64_t txq_since_ns;     /* when the worker first saw a partial batch staged, or 0 */
	/* its backend's own state of the socket (backend/, opaque here) */
	void *be_priv;
	/*
	 * TX metadata (tx_meta.c): who carries out each request (enum xskf_tx_how: checksum,
	 * timestamp, launch time), frames in flight that asked a timestamp (the only thing
	 * reap_completions() looks at), the worker's timestamp array, our own rings (xsk_raw.c)
	 */
	uint8_t txmd_how[3];
	uint32_t txmd_ts_out;
	struct xskf_tx_stamps *tx_stamps;
	struct xskf_raw *raw;
} __attribute__((aligned(XSKF_CACHE_LINE))); /* sockets of two workers share no line */

/* Frames put on the TX ring and not yet taken back from the completion ring. */
static inline uint32_t xskf_sock__tx_out(const struct xskf_sock *s)
{
	return s->txq_sub - s->txq_head;
}

/* Frames staged, waiting for room on the TX ring (at most XSKF_TXQ_CAP). */
static inline uint32_t xskf_sock__staged(const struct xskf_sock *s)
{
	return s->txq_tail - s->txq_sub;
}

#endif /* XSKF_SOCK_H */
