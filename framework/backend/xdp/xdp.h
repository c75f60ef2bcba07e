/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The xdp backend's own state (private to backend/xdp/): of an engine (eng->be_priv) and of a
 * port (port->be_priv), and the calls its files make of each other. The core sees none of it:
 * it reaches the backend through core/backend.h's table, xskf_backend_xdp (xdp.c).
 */
#ifndef XSKF_XDP_H
#define XSKF_XDP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/if_xdp.h>

#include "core/engine.h"
#include "backend/xdp/napi.h"
#include "backend/xdp/steer.h"

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
	uint64_t watch_ns;    /* the last look at the ports (watch.c, XSKF_WATCH_PERIOD_NS) */
	int watch_err;	      /* and what it found */
};

static inline struct xskf_xdp_engine *xskf_xdp_eng(const struct xskf_engine *eng)
{
	return (struct xskf_xdp_engine *)eng->be_priv;
}

/* ---- the program (prog.c, prog_share.c, share_lock.c, watch.c) ---- */

int xskf_prog__preflight(struct xskf_engine *eng, struct xskf_port *port);
/*
 * xskf_prog__probe_kernel() - read the kernel's BTF once per run: the hint kfuncs, the
 * redirect tier, multi-buffer AF_XDP (eng->kernel_sg). 0 or -errno (said in one line).
 */
int xskf_prog__probe_kernel(struct xskf_engine *eng);
int xskf_prog__setup(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__attach(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__set_xsk(struct xskf_port *port, uint32_t queue, int xsk_fd);
void xskf_prog__detach(struct xskf_port *port);
void xskf_prog__teardown(struct xskf_port *port);
int xskf_prog__counters(struct xskf_port *port, uint32_t queue, uint64_t out[3]);
/*
 * xskf_prog__owner() - whose XDP program @id is: 0 another's, 1 xskf's left by a run that is
 * gone, 2 xskf's of a live run (*@pid). Its name ("'name' (id N)") into @name. Thread: any.
 */
int xskf_prog__owner(uint32_t id, char *name, size_t name_len, int *pid);
/* The backend's part of the control socket's "doctor" answer (doctor_live.c). */
void xskf_xdp__doctor(struct xskf_engine *eng, FILE *f);
void xskf_prog__emergency_detach(void);

/*
 * Several runs on one interface (prog_share.c, docs/steering.md). Thread: the control thread
 * (set-up, xskf_engine__watch(), the steering commands), unless said otherwise.
 *
 * xskf_share__lock()/unlock() - the interface's file lock in the control folder, around every
 * change of what the runs share (owners, rules, the table's write and flip). Nested takes by
 * one run count. lock: 0, or -errno said in one line (no lock file: the run goes on
 * unlocked; -ETIMEDOUT: another run held it for 10 s). Unlock after either.
 */
int xskf_share__lock(struct xskf_port *port);
void xskf_share__unlock(struct xskf_port *port);
/* The last run out, lock held: remove the lock file (a run waiting on it opens a new one). */
void xskf_share__forget(struct xskf_port *port);
struct bpf_map_info;
/* The fd of the map named @name of program @prog_id (its info in @mi), or -ENOENT. Any thread. */
int xskf_share__prog_map(uint32_t prog_id, const char *name, struct bpf_map_info *mi);
/* Does program @prog_id have live queue owners? 1 (one's pid in @pid), 0, or -ENOENT when the
 * program has no owner map (not a sharing xskf program). */
int xskf_share__live(uint32_t prog_id, pid_t *pid);
/* Check (@claim false) or take (@claim true) the port's queues: 0, or -EBUSY with one line
 * naming the owner of a queue a live run holds. Taking over a dead run's queue says so. */
int xskf_share__queues(struct xskf_engine *eng, struct xskf_port *port, bool claim);
/* Load the skeleton over the maps of the live program share.join_id, attach nothing: 0, or
 * -errno with one line naming what differs from what this run would load. */
int xskf_share__join(struct xskf_engine *eng, struct xskf_port *port);
/* Leave: our XSKMAP entries, queues and rules out of the shared maps. Returns true when no
 * other live run owns a queue (the caller detaches the program), false when others stay (said
 * in one line, with a --force'd foreign program that cannot be put back). */
bool xskf_share__leave(struct xskf_port *port);
/* The watch: a dead run's queues and rules out of the table (one line). Returns 0. */
int xskf_share__reap(struct xskf_port *port);
/* Async-signal-safe: does a process other than us own a queue in owner map @fd? */
bool xskf_share__others_sigsafe(int fd);

/*
 * Served queues' XSKMAPs (serve_maps.c). make: one per served queue, entered in the program's
 * xskf_served (after load, by the run that loaded it): 0, or -errno said, none left. drop:
 * out of xskf_served and closed (any time, again). fd: served queue @q's map, or -1. in_use:
 * is map @map_id the XSKMAP of a queue the program serves now?
 */
int xskf_serve_maps__make(struct xskf_port *p);
void xskf_serve_maps__drop(struct xskf_port *p);
int xskf_serve_maps__fd(const struct xskf_port *p, uint32_t q);
bool xskf_serve_maps__in_use(const struct xskf_port *p, uint32_t map_id);
/*
 * What the shared maps say, checked (share_owner.c, share_check.c). owner_live: is (@pid,
 * @start) a live process that holds an fd of map @map_id (the program's xskf_queues: every
 * xskf run on it does, nothing else)? Cached per process. map_holder: a process other than
 * this one holding map @map_id, or 0 (a scan of /proc: at start only). owner_ok, rule_ok: does
 * the record of queue @q / slot @slot pass the checks? A record that does not is named in
 * one line (once until it changes) and is to be ignored.
 */
struct xskf_prog_qowner;
struct xskf_prog_srule;
bool xskf_share__owner_live(uint32_t map_id, uint32_t pid, uint64_t start);
pid_t xskf_share__map_holder(uint32_t map_id);
uint32_t xskf_share__map_id(int fd);
bool xskf_share__owner_ok(const struct xskf_port *port, uint32_t q,
			  const struct xskf_prog_qowner *o);
bool xskf_share__rule_ok(const struct xskf_port *port, uint32_t slot,
			 const struct xskf_prog_srule *r);

/*
 * libxdp's dispatcher (prog_dispatch.c). Thread: the control thread.
 *
 * xskf_disp__is_dispatcher() - is program @id libxdp's dispatcher (xdp_dispatcher)?
 * xskf_disp__components() - the ids of the programs in the dispatcher on @port (at most @max,
 * in run order): their number, or -errno (-ENOENT: no dispatcher there, or its bpffs state is
 * not in this mount namespace's bpffs).
 * xskf_disp__attach() - attach our loaded program as a component, mode @mode (XDP_FLAGS_*):
 * 0 (disp.on false when libxdp could only attach it alone: said in one line), or -errno.
 * xskf_disp__detach_id() - take component @id out of the dispatcher on @port: 0 or -errno.
 * xskf_disp__watch() - is our component still in the dispatcher @attached (id) on @port?
 * xskf_disp__close() - libxdp's handle of our program, at teardown.
 * xskf_disp__bpffs() - is there a bpffs where libxdp looks ($LIBXDP_BPFFS, else /sys/fs/bpf),
 * or will it mount one (LIBXDP_BPFFS_AUTOMOUNT=1)? Without, it attaches alone.
 */
bool xskf_disp__bpffs(const struct xskf_port *port);
/*
 * xskf_disp__cpus_fd() - the CPUMAP of our component in libxdp's dispatcher (its own: see
 * prog_dispatch.c, holds_progs()), or -1 without one. Steering writes its entries there too.
 */
int xskf_disp__cpus_fd(const struct xskf_port *port);
bool xskf_disp__is_dispatcher(uint32_t id);
int xskf_disp__components(struct xskf_port *port, uint32_t *ids, int max);
int xskf_disp__attach(struct xskf_engine *eng, struct xskf_port *port, uint32_t mode);
int xskf_disp__detach_id(struct xskf_port *port, uint32_t id);
bool xskf_disp__watch(struct xskf_port *port, uint32_t attached);
void xskf_disp__close(struct xskf_port *port);

/*
 * A port that takes frames to every MAC (promisc.c): xskf_promisc__take() is the backend's
 * promisc() op (0 or -errno, said in one line), xskf_promisc__release() drops it (fini()).
 * Thread: control thread.
 */
int xskf_promisc__take(struct xskf_port *p);
void xskf_promisc__release(struct xskf_port *p);

/*
 * xskf_watch__mtu() - say once, for every port whose MTU allows frames longer than a UMEM
 * frame holds, that the kernel drops them and what helps; one line for ports of the same MTU.
 * Nothing for TX-only apps. @sock: a datagram socket for the ioctls, or -1 (one is opened).
 * Thread: control thread (xskf_engine__start() before set-up, xskf_engine__watch()).
 */
void xskf_watch__mtu(struct xskf_engine *eng, int sock);

/* xskf_engine__watch() of the xdp backend (watch.c): every port's interface and program. */
int xskf_watch__ports(struct xskf_engine *eng);
/* RX queues of @ifname (sysfs, else ETHTOOL_GCHANNELS), at least 1 (watch.c). */
int xskf_count_rx_queues(const char *ifname);

/* ---- one AF_XDP socket (xsk.c, xsk_raw.c) ---- */

int xskf_sock__open(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		    bool zerocopy);
void xskf_sock__close(struct xskf_sock *s);
/*
 * xskf_sock__busy_poll() - preferred busy polling on AF_XDP socket @fd: SO_PREFER_BUSY_POLL,
 * SO_BUSY_POLL @usecs, SO_BUSY_POLL_BUDGET @budget (our sockets with -B; a device-plugin
 * client's with /config_busy_poll). 0 or -errno. Any thread.
 */
int xskf_sock__busy_poll(int fd, int usecs, int budget);
int xskf_sock__kstats(const struct xskf_sock *s, struct xdp_statistics *st);
/*
 * The NAPI the kernel tied socket @s to (SO_INCOMING_NAPI_ID), or 0: only a zero-copy bind
 * ties one (0 in copy mode, 6.18 included). Thread: any.
 */
uint32_t xskf_sock__napi_id(const struct xskf_sock *s);

/* ---- TX metadata (txmd_setup.c) ---- */

/*
 * After @s is open: decide who carries out each request, from its mode, the
 * UMEM's room and the driver's xsk-features; say it once per port. Thread: control thread.
 */
void xskf_txmd__setup_sock(struct xskf_engine *eng, struct xskf_sock *s, bool say);

#endif /* XSKF_XDP_H */
