/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf: the app layer (include/xskf.h includes it): struct xskf_app, the callbacks an app gives
 * the engine and what they may call back.
 */
#ifndef XSKF_PUB_APP_H
#define XSKF_PUB_APP_H

#include <xskf_pkt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Apps                                                                                        */

struct xskf_engine;
struct xskf_worker;
struct xskf_tx_stamps;

/* Worker-side view handed to every callback that runs on a worker. */
struct xskf_worker_info {
	unsigned int id;   /* 0 .. nr_workers - 1 */
	int cpu;           /* CPU the worker is pinned to, or -1 */
	uint32_t headroom; /* bytes available in front of each received frame for xskf_pkt__push() */
	uint32_t frame_size;
	unsigned int nr_ports;
	/* a plugin's counters on this worker (xskf_plugin.h), written by it alone; else NULL */
	uint64_t *counters;
	/*
	 * With XSKF_APP_F_TX_META: the TX timestamps that came back on this worker's
	 * completions, to be read (and emptied) from the app's next callback (xskf_tx.h); else
	 * NULL.
	 */
	struct xskf_tx_stamps *tx_stamps;
};

enum xskf_app_flags {
	/* Workers register with liburcu-qsbr; each loop iteration is a quiescent state. */
	XSKF_APP_F_RCU_QSBR = 1u << 0,
	/* The app sends frames it builds itself, in the empty chunks tx_fill() is handed; see
	 * xsk-txgen. */
	XSKF_APP_F_TX_ONLY = 1u << 1,
	/*
	 * The app sends received frames on (XSKF_TX, XSKF_FWD): a forwarder, a tunnel. The
	 * framework then warns, at start-up and at the first such frame, when a sender leaves TCP
	 * and UDP checksums unfinished (its TX checksum offload: veth's default), since frames
	 * sent on as they are get dropped by their receivers (docs/forwarding.md).
	 */
	XSKF_APP_F_FORWARDS = 1u << 2,
	/*
	 * The app reads RX hints (xskf_hints.h) and gives wrong answers without them: a run with
	 * --no-hints (xskf_engine_opts.no_hints) is refused at start-up, in one line, instead of
	 * handing it frames whose pkts[i].meta is NULL.
	 */
	XSKF_APP_F_NEEDS_HINTS = 1u << 3,
	/*
	 * The app takes frames that span several buffers (struct xskf_pkt.frags, xskf_pkt__buf(),
	 * docs/jumbo.md): only then, and only when a port's MTU needs it, are the sockets bound
	 * with multi-buffer AF_XDP (XDP_USE_SG). Without it, frames longer than one UMEM frame
	 * are dropped by the kernel (rx_dropped), as the start-up line says. In a chain of
	 * plugins, every plugin must have it.
	 */
	XSKF_APP_F_FRAGS = 1u << 4,
	XSKF_APP_F_CHAINS = XSKF_APP_F_FRAGS, /* its deprecated name */
	/*
	 * The app says in xskf_app.hints which RX hints it reads (XSKF_HINT_*, xskf_meta.h; 0:
	 * none). Without this flag (apps built before it) it is taken to read them all. The XDP
	 * program computes only the hints some app reads, and writes no meta when none does
	 * (docs/hints.md).
	 */
	XSKF_APP_F_HINTS = 1u << 5,
	/*
	 * The app never reads a frame's bytes (nor its hints): the worker then does not prefetch
	 * each frame's first cache line for it (docs/performance.md, "Touching packets").
	 */
	XSKF_APP_F_NO_TOUCH = 1u << 6,
	/*
	 * The app asks for TX metadata (xskf_tx.h: a checksum, a TX timestamp, a launch time per
	 * frame): the UMEM is registered with room for it in front of every TX frame and each
	 * port's offloads are probed and printed at start-up. Without the flag an app's requests
	 * still get their checksums (in software) but no timestamps (counted).
	 */
	XSKF_APP_F_TX_META = 1u << 7,
};

struct xskf_app {
	const char *name;
	uint32_t flags; /* enum xskf_app_flags */

	/*
	 * Control thread, once, after xskf_app__main() added the ports and before it starts the
	 * engine: the place for per-port settings such as xskf_engine__steer_udp(). Optional.
	 */
	int (*configure)(void *app_ctx, struct xskf_engine *eng);
	/* Control thread, once, after sockets are open and before workers start. Optional. */
	int (*init)(void *app_ctx, struct xskf_engine *eng);
	/*
	 * Worker, once at its start. *wctx is handed to the worker's other callbacks. Optional.
	 * A root run's worker holds no capability and opens files as uid and gid 65534 (nobody)
	 * from its start: open files in init() (control thread) and hand them over.
	 */
	int (*worker_init)(void *app_ctx, const struct xskf_worker_info *wi, void **wctx);
	/*
	 * Worker, for each burst of 1..batch frames received on one queue. Set pkts[i].action
	 * (and out_port). Must not block. Required unless XSKF_APP_F_TX_ONLY.
	 */
	void (*rx_burst)(void *wctx, struct xskf_pkt *pkts, unsigned int n);
	/*
	 * Worker, each loop iteration when XSKF_APP_F_TX_ONLY is set: build up to @max frames
	 * in @pkts (data points at an empty frame of frame_size - headroom bytes; set len and
	 * out_port) and return how many to send. Optional.
	 */
	unsigned int (*tx_fill)(void *wctx, struct xskf_pkt *pkts, unsigned int max);
	/* Control thread, once per stats interval (1 s) while running. Optional. */
	void (*tick)(void *app_ctx, struct xskf_engine *eng);
	/* Worker, once at its end. Optional. */
	void (*worker_fini)(void *app_ctx, void *wctx);
	/* Control thread, once after workers stopped. Optional. */
	void (*fini)(void *app_ctx, struct xskf_engine *eng);
	/*
	 * Control thread, at exit with --json and for each `xskfctl stats`: print ONE JSON value
	 * (usually an object: {"name": 1, ...}) to @out, the value of the document's
	 * "app_stats" member (a chain's by plugin name). Output that is not one value is
	 * replaced by null and the plugin named in a warning. Optional.
	 */
	void (*json)(void *app_ctx, struct xskf_engine *eng, void *out /* FILE * */);
	/*
	 * The RX hints the app reads, XSKF_HINT_* (xskf_meta.h), read only with
	 * XSKF_APP_F_HINTS. A plugin whose options decide it may change it (and the flags
	 * XSKF_APP_F_HINTS, XSKF_APP_F_NO_TOUCH) from its option parser: the runner reads them
	 * after the options.
	 */
	uint32_t hints;
};

#ifdef __cplusplus
}
#endif
#endif /* XSKF_PUB_APP_H */
