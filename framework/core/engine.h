/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine (engine.c): ports, sockets, workers and the order they are set up and torn down
 * in, for every backend (backend/backend.h).
 */
#ifndef XSKF_ENGINE_H
#define XSKF_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "xskf.h"
#include "core/compiler.h"
#include "core/log.h"
#include "core/napi.h"
#include "core/port.h"
#include "core/sock.h"
#include "core/worker.h"

struct xskf_backend_ops;

/* ---- the memory backend's state of an engine (backend/mem_backend.c) ---- */


/*
 * The memory backend's benchmark settings (--mem-frames, --mem-frame): the runner's, not the
 * public engine options'.
 */
struct xskf_mem_opts {
	/* frames each worker receives before the engine stops by itself (0: until stopped) */
	uint64_t frames;
	/* the frame they carry (NULL: a 60-byte IPv4/UDP frame) */
	const void *frame;
	uint32_t frame_len;
	/*
	 * When ports must receive different frames (a tunnel: inner frames on its access port,
	 * VXLAN on its underlay): port k (in the order the ports were given) receives
	 * port_frames[k], port_frame_lens[k] bytes, copied in at each receive (apps such as the
	 * tunnel rewrite frames in place); NULL: port k receives nothing. Ports from
	 * nr_port_frames on receive frame.
	 */
	const void *const *port_frames;
	const uint32_t *port_frame_lens;
	uint32_t nr_port_frames;
	/*
	 * --mem-segs: each frame comes as a chain of this many buffers (multi-buffer AF_XDP,
	 * chain_ops.h), the frame's bytes in each; 0 or 1: one buffer. Needs an app with
	 * XSKF_APP_F_CHAINS. The stand-in's TX takes 18 buffers per frame, as copy mode.
	 */
	uint32_t segs;
};

/* An engine's */
struct xskf_mem_engine {
	struct xskf_mem_opts o;
	atomic_uint finished; /* its workers that received all their frames */
	uint32_t len;         /* the frames' length */
};


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
	atomic_bool stop;
	bool busy_poll;  /* -B, and the sockets can busy poll (the backend's idle_help()) */
	struct xskf_napi_req napi_req;  /* --napi, parsed (napi.h) */
	struct xskf_napi_run *napi;     /* what was changed, between attach and detach */
	const struct xskf_backend_ops *be; /* backend/backend.h */
	struct xskf_mem_engine mem;        /* the memory backend's */
	bool started, stopped;
	int census_err;
	const struct xskf_rss *rss[XSKF_MAX_PORTS]; /* by port index, for worker threads */
	/* the kernel's BTF, read once per run (prog.c) */
	bool kernel_probed;
	int kernel_probe_err;
	unsigned int kernel_kfuncs; /* XSKF_HINTS_KF_* the kernel has */
	bool kernel_redirect_xsk;
	bool kernel_sg;          /* multi-buffer AF_XDP (XDP_USE_SG) is there */
	bool kernel_no_frags;    /* no frags-aware XDP programs (BPF_F_XDP_HAS_FRAGS, 5.18) */
	int frags_said;          /* kernel_no_frags said once */
	/*
	 * Multi-buffer frames (jumbo.c, docs/jumbo.md): sockets bound with XDP_USE_SG, because
	 * a port's MTU needs it and the app takes chains; the most buffers the kernel sends as
	 * one frame in copy mode (max_skb_frags + 1) and in zero-copy (the driver's
	 * xdp-zc-max-segs, 0 if it says none).
	 */
	bool sg;
	uint32_t sg_segs;        /* buffers the longest frame the MTU allows takes */
	uint32_t tx_segs_copy, tx_segs_zc;
	unsigned int steer_next_id; /* the last steering rule id given (steer.c) */
};

/*
 * xskf_engine__on_fatal() - @fn(sig) runs in the fatal-signal handler (SIGSEGV, SIGABRT, ...),
 * after the emergency detach, in the order given: the runner's line that names the plugin that
 * crashed (chain.c), its control socket file (ctl.c). It must be async-signal-safe. Up to 4; a
 * hook given again is kept once. Returns 0, or -ENOSPC. Thread: control thread, before
 * xskf_engine__start().
 */
int xskf_engine__on_fatal(void (*fn)(int sig));

/* True when a worker's app->worker_init() failed (the run then exits non-zero). */
bool xskf_engine__worker_failed(const struct xskf_engine *eng);

#endif /* XSKF_ENGINE_H */
