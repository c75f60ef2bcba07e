/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A socket's burst functions (burst.c), chosen once per socket at start, the way a DPDK driver
 * chooses its rx_pkt_burst: the worker's loop (worker.c) calls one pointer per socket and
 * burst, and tests no feature itself.
 *
 *     s->burst     take the RX burst, the app's rx_burst(), its verdicts carried out
 *     s->verdicts  the verdicts of a burst the app built (tx_fill())
 *     s->reap      completions back to the cache
 *
 * Each is one instantiation of one inline body per kind (ring_ops.h: XSKF_BURST_*): frames
 * of one buffer, multi-buffer frames (XSKF_BURST_SG), TX metadata (XSKF_BURST_TXMD), and for
 * s->burst a twin with a live capture around the app (XSKF_BURST_CAP), which the control
 * thread publishes in s->burst while a capture runs (capture.c), as DPDK's
 * rte_eth_add_rx_callback() serves pdump.
 */
#ifndef XSKF_BURST_H
#define XSKF_BURST_H

#include <stdbool.h>

struct xskf_engine;
struct xskf_sock;

/*
 * Choose @s's burst functions from its bind (s->sg) and what the app asks (TX metadata).
 * Thread: control thread, once @s is open and before its worker runs.
 */
void xskf_burst__choose(const struct xskf_engine *eng, struct xskf_sock *s);

/*
 * Publish the capture twin of every socket's burst function (@on), or the chosen one again.
 * The published ring (w->cap) decides what is copied (capture.c). Thread: control thread.
 */
void xskf_burst__capture(struct xskf_engine *eng, bool on);

#endif /* XSKF_BURST_H */
