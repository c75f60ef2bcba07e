/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine (engine.c): ports, sockets, workers and the order they are set up and torn down
 * in, for every backend (core/backend.h).
 */
#ifndef XSKF_ENGINE_H
#define XSKF_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "xskf.h"
#include "core/compiler.h"
#include "core/log.h"
#include "core/port.h"
#include "core/sock.h"
#include "core/worker.h"

struct xskf_backend_ops;

struct xskf_engine {
	struct xskf_engine_opts o;
	struct xskf_app app;
	void *app_ctx;
	struct xskf_port ports[XSKF_MAX_PORTS];
	unsigned int nr_ports;
	struct xskf_sock *socks;
	unsigned int nr_socks;
	struct xskf_worker *workers;
	unsigned int nr_workers;
	int cpus[XSKF_MAX_WORKERS];
	unsigned int nr_cpus;
	enum xskf_hugepages hugepages;
	uint64_t huge_page_size;   /* resolved (xskf_huge__resolve()); 0: the kernel has none */
	char *huge_dir;            /* our copy of o.huge_dir, or NULL */
	char *pin_strs[6]; /* our copies of o.pin_dir, .pin_group, .serve, .serve_uds, .xsk_map,
			    * .xsk_map_uds */
	uint32_t headroom;         /* UMEM frame headroom we ask for */
	uint32_t rx_data_off;      /* where RX data starts in a chunk: XDP_PACKET_HEADROOM + headroom */
	uint32_t hints;            /* XSKF_HINT_* the app reads; 0 (and o.no_hints): no meta */
	bool prefetch;             /* the worker prefetches each frame's first line (worker.c) */
	bool hints_unread;         /* hints off because the app reads none (not --no-hints) */
	bool hints_head;           /* the XDP program carries the hints in the headroom, in front
				    * of the frame's data: RX moves each descriptor past them
				    * (backend/xdp/prog/features.c, adjust_meta refused) */
	bool hints_user;           /* the framework computes the hints itself from each frame
				    * into the headroom in front of it (core/hints_in.h); the XDP
				    * program changes no packet data */
	atomic_bool stop;
	bool busy_poll;  /* -B, and the sockets can busy poll (the backend's idle_help()) */
	/*
	 * The backend (core/backend.h) and its own state of this engine, which only it reads
	 * (backend/xdp/xdp_state.h: the program, NAPI and kernel probes; backend/mem_backend.c: the
	 * benchmark's frames), as CNDP's pktdev and DPDK's rte_eth_dev keep dev_private.
	 */
	const struct xskf_backend_ops *be;
	void *be_priv;
	bool started, stopped;
	int census_err;
	const struct xskf_rss *rss[XSKF_MAX_PORTS]; /* by port index, for worker threads */
	/*
	 * Multi-buffer frames (jumbo.c, docs/jumbo.md): sockets bound with XDP_USE_SG, because
	 * a port's MTU needs it and the app takes multi-buffer frames; the most buffers the kernel
	 * sends as one frame in copy mode (max_skb_frags + 1) and in zero-copy (the driver's
	 * xdp-zc-max-segs, 0 if it says none).
	 */
	bool sg;
	uint32_t sg_segs;        /* buffers the longest frame the MTU allows takes */
	uint32_t tx_segs_copy, tx_segs_zc;
	unsigned int steer_next_id; /* the last steering rule id given (steer_engine.c) */
};

/*
 * xskf_engine__on_fatal() - @fn(sig) runs in the fatal-signal handler (SIGSEGV, SIGABRT, ...)
 * of the thread that crashed, after the emergency detach, in the order given: the runner's
 * line that names the plugin that crashed (chain.c, which reads that thread's state).
 * xskf_engine__on_fatal_cleanup() - @fn(sig) runs where the emergency detach runs: on the
 * control thread, asked by a worker that crashed (a worker owns none of root's files): the
 * runner's control socket file (ctl.c).
 * Both must be async-signal-safe. Up to 4 of each; a hook given again is kept once. Return 0,
 * or -ENOSPC. Thread: control thread, before xskf_engine__start().
 */
int xskf_engine__on_fatal(void (*fn)(int sig));
int xskf_engine__on_fatal_cleanup(void (*fn)(int sig));

/* True when a worker's app->worker_init() failed (the run then exits non-zero). */
bool xskf_engine__worker_failed(const struct xskf_engine *eng);

#endif /* XSKF_ENGINE_H */
