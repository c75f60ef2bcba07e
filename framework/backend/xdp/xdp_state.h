/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The xdp backend's own state (private to backend/xdp/): of an engine (eng->be_priv) and of a
 * port (port->be_priv), and their accessors. Types only: each concern's calls are in a header
 * of its own (prog.h, share.h, dispatch.h, serve_maps.h, sock.h, txmd.h, watch.h, promisc.h).
 * The core sees none of it: it reaches the backend through core/backend.h's table,
 * xskf_backend_xdp (xdp.c).
 */
#ifndef XSKF_BACKEND_XDP_STATE_H
#define XSKF_BACKEND_XDP_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/if_xdp.h>

#include "core/engine.h"
#include "backend/xdp/sock/napi.h"
#include "backend/xdp/steer/steer.h"

enum xskf_redirect_tier {
	XSKF_TIER_REDIRECT_XSK = 0, /* bpf_redirect_xsk(): never merged upstream */
	XSKF_TIER_MAP_FALLBACK = 1, /* bpf_redirect_map(&xsks, q, XDP_PASS) */
	XSKF_TIER_MAP_LOOKUP = 2,   /* lookup, then bpf_redirect_map(&xsks, q, 0) */
};

struct xskf_redirect; /* the skeleton */
struct xdp_program;   /* libxdp's */

/* A port's (port->be_priv, allocated by add_port(), freed by fini()) */
struct xskf_xdp_port {
	struct xskf_redirect *skel;
	int prog_fd;	       /* the attached program */
	int native_fd, skb_fd; /* the loaded candidates for native and SKB mode */
	uint32_t attach_flags; /* XDP_FLAGS_DRV_MODE or XDP_FLAGS_SKB_MODE when attached */
	bool attached;
	/* a foreign program replaced with --force, put back at exit: its fd, mode and name */
	bool foreign_saved;
	int foreign_fd;
	uint32_t foreign_mode;
	char foreign_name[64];
	enum xskf_redirect_tier tier;
	unsigned int hints_hw; /* XSKF_HINTS_KF_* the attached program reads from the driver */
	const char *hints_why; /* why none, where the kernel has the kfuncs (a static text) */
	int promisc_fd; /* xskf_engine__promisc()'s AF_PACKET socket (promisc.c); below 3: none */
	/* --serve (pin.c): queues kept for other AF_XDP apps' sockets, no socket of ours;
	 * owned in xskf_queues (marked served), our rules apply there */
	uint32_t served[XSKF_MAX_QUEUES];
	unsigned int nr_served;
	/* each served queue's own XSKMAP, at the index of served[] (serve_maps.c) */
	int served_map[XSKF_MAX_QUEUES];
	unsigned int nr_served_maps;
	/* --pin-dir: the folder where this run pinned the port's maps ("": none of ours) */
	char pin_path[256];
	/* the program shared with other runs on this interface (prog_share.c) */
	struct {
		int lock_fd;		 /* the interface's lock file; below 3: not open yet */
		unsigned int lock_depth; /* nested takes by this run */
		uint32_t join_id;	 /* a live run's program found attached: join it */
		uint32_t join_mode;	 /* its mode (XDP_FLAGS_DRV_MODE, XDP_FLAGS_SKB_MODE) */
		bool joined;		 /* we use that program: attached nothing */
		bool claimed;		 /* our queues are in xskf_queues */
		bool leaving;		 /* rebuild the table without our rules and queues */
		uint32_t queues_id;	 /* the id of the program's xskf_queues map (0: not read yet) */
	} share;
	/* libxdp's dispatcher (prog_dispatch.c): our program as one of its components */
	struct {
		struct xdp_program *prog; /* ours as libxdp loaded it (holds its fd), or NULL */
		struct xskf_redirect *skel; /* its object: the chosen program over our maps */
		uint32_t id;		  /* our component's program id */
		uint32_t main_id;	  /* the dispatcher it was last seen in (changes as others
					   * join and leave) */
		uint32_t main_mode;	  /* the mode of a dispatcher found there (XDP_FLAGS_*) */
		bool on;		  /* attached through the dispatcher (else alone) */
		bool hw_lost;		  /* driver hints the dispatcher cannot give (not bound) */
		unsigned int told;	  /* the fallback was said */
	} disp;
	/* what xskf_engine__watch() last saw (watch.c), so that each change is told once */
	struct {
		bool checked, gone, replaced, running, mtu_warned;
		bool prog_missing; /* our program was not there at the last look */
		bool csum_told;	   /* unfinished checksums counted and said (csum_watch.c) */
		unsigned int rx_queues;
	} seen;
};

static inline struct xskf_xdp_port *xskf_xdp_port(const struct xskf_port *port)
{
	return (struct xskf_xdp_port *)port->be_priv;
}

/* An engine's (eng->be_priv, allocated by init(), freed by fini()) */
struct xskf_xdp_engine {
	struct xskf_napi_req napi_req; /* --napi, parsed (napi.h) */
	struct xskf_napi_run *napi;    /* what was changed, between attach and detach */
	/* the kernel's BTF, read once per run (prog.c) */
	bool kernel_probed;
	int kernel_probe_err;
	unsigned int kernel_kfuncs; /* XSKF_HINTS_KF_* the kernel has */
	bool kernel_redirect_xsk;
	bool kernel_sg;	      /* multi-buffer AF_XDP (XDP_USE_SG) is there */
	bool kernel_no_frags; /* no frags-aware XDP programs (BPF_F_XDP_HAS_FRAGS, 5.18) */
	int frags_said;	      /* kernel_no_frags said once */
	int skb_cpumap_said;  /* steering's CPUMAP without program slots: said once */
	uint64_t watch_ns;    /* the last look at the ports (watch.c, XSKF_WATCH_PERIOD_NS) */
	int watch_err;	      /* and what it found */
};

static inline struct xskf_xdp_engine *xskf_xdp_eng(const struct xskf_engine *eng)
{
	return (struct xskf_xdp_engine *)eng->be_priv;
}

#endif /* XSKF_BACKEND_XDP_STATE_H */
