/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf: the engine layer, for a program that embeds xskf (include/xskf.h includes it):
 * messages, the engine's options, its life (new, add_port, start, watch, stop, destroy) and the
 * statistics it keeps. What an app calls from its callbacks is in xskf_ports.h, included here.
 */
#ifndef XSKF_PUB_ENGINE_H
#define XSKF_PUB_ENGINE_H

#include <xskf_app.h>
#include <xskf_cli.h>
#include <xskf_counters.h>
#include <xskf_ports.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Messages                                                                                    */

enum xskf_log_level {
	XSKF_LOG_WARN,
	XSKF_LOG_INFO,
	XSKF_LOG_DEBUG,
};

typedef int (*xskf_print_fn_t)(enum xskf_log_level level, const char *fmt, va_list args);

/*
 * xskf_set_print() - route the library's messages (and libbpf's and libxdp's) through @fn.
 * @fn: the new callback, or NULL to silence everything.
 * Returns the previous callback. The default prints WARN and INFO to stderr.
 * Thread: control thread, before any other xskf call.
 */
XSKF_API xskf_print_fn_t xskf_set_print(xskf_print_fn_t fn);

/* The versions a binary runs with (--version, the stats document's "version" keys). */
struct xskf_version {
	char xskf[32];   /* xskf's own version ("0.1.0") */
	int plugin_abi;  /* XSKF_PLUGIN_ABI of the headers libxskf was built with */
	char libbpf[32]; /* the libbpf file the loader mapped ("libbpf.so.1.1.2") */
	char libxdp[32]; /* the libxdp file mapped ("libxdp.so.1.3.0"), "none" when none is */
};

/*
 * xskf_version__get() - fill @v with the versions found at run time (the libraries' files
 * that the dynamic loader mapped, not the headers built against).
 * Thread: any.
 */
XSKF_API void xskf_version__get(struct xskf_version *v);

/* ------------------------------------------------------------------------------------------ */
/* Engine: ports, queues, sockets, XDP program, workers                                        */

enum xskf_bind_mode {
	XSKF_BIND_AUTO = 0,     /* zero-copy, else copy (printed) */
	XSKF_BIND_COPY = 1,
	XSKF_BIND_ZEROCOPY = 2, /* an error where the driver has no zero-copy */
};

enum xskf_attach_mode {
	XSKF_ATTACH_AUTO = 0,   /* native (driver) XDP, else SKB (generic) mode (printed) */
	XSKF_ATTACH_NATIVE = 1,
	XSKF_ATTACH_SKB = 2,
};

/*
 * Where the RX hints (xskf_hints.h) reach the app: written by the XDP program in the metadata
 * area (bpf_xdp_adjust_meta()), by the XDP program in the headroom (bpf_xdp_adjust_head(),
 * moved past by the framework), or computed in userspace by the framework from each frame
 * with the XDP program's own parser (the program then changes no packet data; no driver
 * values). The app's API is the same for all three (docs/hints.md).
 */
enum xskf_hints_in {
	XSKF_HINTS_IN_AUTO = 0,      /* the kernel's best (docs/hints.md "Where the hints go") */
	XSKF_HINTS_IN_DATA_META = 1, /* refused at start where the kernel refuses adjust_meta */
	XSKF_HINTS_IN_HEADROOM = 2,  /* refused at start where the kernel refuses adjust_head */
	XSKF_HINTS_IN_USERSPACE = 3, /* works on every kernel */
};

enum xskf_backend {
	XSKF_BACKEND_XDP = 0,    /* AF_XDP sockets on real interfaces (the default) */
	/*
	 * Rings in plain memory and a stand-in for the kernel on the worker's own thread: the
	 * same per-packet path, without the kernel, to measure what xskf itself costs per packet
	 * (docs/performance.md). Ports are names only; no socket, no XDP program, no root.
	 */
	XSKF_BACKEND_MEMORY = 1,
};

/*
 * UMEM pages (docs/memory.md). A hugepage UMEM needs whole pages of the chosen size free in
 * the pool of the NUMA node it is placed on (the NIC's; without one, the worker CPU's):
 */
enum xskf_hugepages {
	XSKF_HUGEPAGES_AUTO = 0,    /* hugepages when the pool has them, else 4 KiB pages and one
				     * warning */
	XSKF_HUGEPAGES_REQUIRE = 1, /* fail with -ENOMEM (and one line) when it has too few */
	XSKF_HUGEPAGES_OFF = 2,     /* 4 KiB pages; huge_dir and huge_page_size must be unset */
};

/*
 * xskf_engine_opts.hugepages: XSKF_HUGEPAGES_DEFAULT (0, what a zeroed struct says: the build's
 * default, meson option hugepages), or XSKF_HUGEPAGES_SET(policy) for one of the above.
 */
#define XSKF_HUGEPAGES_DEFAULT    0
#define XSKF_HUGEPAGES_SET(policy) ((int)(policy) + 1)

enum xskf_idle {
	XSKF_IDLE_ADAPTIVE = 0, /* poll under load, sleep in poll() after a spin without frames */
	XSKF_IDLE_BUSY = 1,     /* poll always: a whole CPU per worker, the lowest latency */
	XSKF_IDLE_SLEEP = 2,    /* sleep at the first round without frames */
};


struct xskf_engine_opts {
	size_t sz;
	uint32_t frame_size;    /* 2048 (default) or 4096 */
	uint32_t frames;        /* UMEM frames per worker; default: (fill + tx ring) per socket */
	uint32_t rx_size;       /* ring sizes, powers of two; default 2048 each */
	uint32_t tx_size;
	uint32_t fill_size;
	uint32_t comp_size;
	uint32_t batch;         /* RX burst size, 1..XSKF_MAX_BATCH, default 64 */
	uint32_t tx_drain_us;   /* flush partial TX batches after this long; default 100 */
	enum xskf_bind_mode bind_mode;
	enum xskf_attach_mode attach_mode;
	int hugepages;          /* XSKF_HUGEPAGES_DEFAULT or XSKF_HUGEPAGES_SET(enum xskf_hugepages) */
	bool no_need_wakeup;    /* need_wakeup is on unless this is set */
	bool busy_poll;         /* SO_PREFER_BUSY_POLL + SO_BUSY_POLL + SO_BUSY_POLL_BUDGET */
	uint32_t busy_poll_us;  /* default 20 */
	uint32_t busy_poll_budget; /* default batch */
	bool no_hints;          /* do not write RX hints in front of frames */
	bool force;             /* replace a foreign XDP program on the interface */
	const char *cpus;       /* worker CPU list "0,2-3"; default: no pinning, one worker */
	unsigned int nr_workers; /* default: one per CPU in cpus, else 1 */
	uint32_t tx_skb_budget; /* XDP_MAX_TX_SKB_BUDGET where the kernel has it; default tx_size */
	const struct xskf_app *app;
	void *app_ctx;
	enum xskf_backend backend;
	/*
	 * Reserved, must be zero: the memory backend's benchmark settings were here. They are
	 * the runner's now (--mem-frames, --mem-frame); the space keeps the offsets of the
	 * members below (docs/plugins.md, ABI rules).
	 */
	uint64_t __reserved0[6];
	/*
	 * A hugetlbfs mount (--huge-dir): each UMEM is a file there, unlinked as soon as it is
	 * mapped, so nothing is left behind. NULL (default): anonymous MAP_HUGETLB memory. Copied
	 * by xskf_engine__new(); -EINVAL there if it is no hugetlbfs mount.
	 */
	const char *huge_dir;
	/*
	 * Hugepage size in bytes (--huge-size 2M|1G: 2 MiB, 1 GiB on x86-64), a size the kernel
	 * has; with huge_dir it must be the mount's pagesize=. 0 (default): the mount's with
	 * huge_dir, else the kernel's default (Hugepagesize in /proc/meminfo). A UMEM is rounded
	 * up to whole pages (said at start-up).
	 */
	uint64_t huge_page_size;
	/*
	 * --csum-repair: finish the TCP/UDP checksums (IPv4, IPv6, behind up to two VLAN tags)
	 * that a sender's TX checksum offload left unfinished, on every received frame, before the
	 * app sees it (xskf_pkt__csum_finish()). Off (default): frames are only sampled and
	 * counted (csum_unfinished). Costs instructions per packet: docs/performance.md.
	 */
	bool csum_repair;
	/*
	 * TX metadata (xskf_tx.h), as XSKF_APP_F_TX_META gives it: for an app that asks only
	 * under an option of its own (set it from xskf_app_cli.check()).
	 */
	bool tx_meta;
	/*
	 * --no-tx-offload: no TX metadata room whatever the app asks: its checksums are done by
	 * xskf in software, its timestamps and launch times are counted (txmd_unsupported).
	 */
	bool no_tx_meta;
	/*
	 * --idle: what a worker does when no frames come (docs/idle.md). XSKF_IDLE_ADAPTIVE (0,
	 * the default) polls while frames come and sleeps in poll() on its sockets after
	 * idle_spin_us without any; XSKF_IDLE_BUSY never sleeps; XSKF_IDLE_SLEEP sleeps at the
	 * first empty round. A worker never sleeps while it drains, while frames of its own are
	 * staged, nor for long while frames are in flight or a TX-only app is paced (1 ms).
	 */
	enum xskf_idle idle;
	/* --idle-spin: adaptive mode's time without frames before sleeping; 0: 50 us */
	uint32_t idle_spin_us;
	/*
	 * --napi: "defer=N,gro-flush=NS" (either or both): napi_defer_hard_irqs and
	 * gro_flush_timeout for the NAPIs of the bound queues (netdev netlink, 6.13+) or, where
	 * they name none, the whole device (sysfs). The old values are recorded in the control
	 * folder ($XSKF_CTL_DIR, else /run/xskf) and put back at stop and, after a crash, by the
	 * next start. ",irq-suspend=NS" adds irq-suspend-timeout, per NAPI only: with busy_poll
	 * on zero-copy sockets (the epoll wait), else xskf_engine__start() fails with
	 * -EOPNOTSUPP. NULL (default): no device setting is changed (docs/idle.md).
	 */
	const char *napi;
	/*
	 * --pin-dir: pin each port's XSKMAP (as "xsks_map", the name of DPDK's af_xdp driver and
	 * the AF_XDP device plugin) and its rule maps in bpffs, in PIN_DIR/IFNAME/, for other
	 * AF_XDP apps (libxdp's xsk_socket__update_xskmap(), DPDK's use_pinned_map). The folders
	 * follow the control folder's rules (ours alone, no symlink). Unpinned at stop, also
	 * after a crash; after SIGKILL by the next run with the same folder. NULL (default):
	 * nothing pinned, unless @serve is set (then /sys/fs/bpf/xskf). Copied.
	 */
	const char *pin_dir;
	/*
	 * --pin-group: a group (name or id) that may open the pinned maps (folder 0750, maps
	 * 0660); NULL (default): their owner only (0700, 0600). Copied.
	 */
	const char *pin_group;
	/*
	 * --serve: queues of every port kept for other AF_XDP apps ("1", "2-3"): this run owns
	 * them (other xskf runs are refused them), its rules apply to them, it binds no socket
	 * there; the app that enters its socket in the pinned XSKMAP receives what the rules
	 * send there. Without explicit queues the run binds every other queue. NULL: none.
	 * Copied.
	 */
	const char *serve;
	/*
	 * --serve-uds: a SOCK_SEQPACKET socket at this path that speaks the AF_XDP device
	 * plugin's protocol (0.1: /connect, /xsk_map_fd,IFACE, /config_busy_poll, /fin): a client
	 * (DPDK's af_xdp with use_cni and dp_path, an xskf run with xsk_map_uds) gets the XSKMAP
	 * of a port by SCM_RIGHTS. Its folder follows the control folder's rule; the socket is
	 * 0600, 0660 with @pin_group. Removed at stop. NULL (default): none. Copied.
	 */
	const char *serve_uds;
	/*
	 * --xsk-map: be served: enter this run's sockets in the XSKMAP pinned at this path
	 * (another process's program: an xskf run with --serve, a loader), loading and attaching
	 * nothing. Needs CAP_NET_RAW and locked memory only; rules, --napi, --force and RX hints
	 * are the serving side's (refused or off, said at start). One port. NULL: not served.
	 * Copied.
	 */
	const char *xsk_map;
	/*
	 * --xsk-map-uds: the same, the XSKMAP of each port asked for on the AF_XDP device
	 * plugin's socket at this path (/connect, /xsk_map_fd,IFACE; /fin at stop). Copied.
	 */
	const char *xsk_map_uds;
	/*
	 * --attach alone: attach the XDP program to the interface by itself, as one program that
	 * takes the interface (no other XDP program can join it). false (default): attach it as a
	 * component of libxdp's multi-program dispatcher (priority 50, XDP_PASS goes on to the
	 * next program), beside xdp-filter, xdp-loader's and other libxdp users' programs; where
	 * the dispatcher cannot work (no bpffs, a kernel that refuses freplace programs) libxdp
	 * attaches it alone, said in one line (docs/operations.md).
	 */
	bool xdp_alone;
	/*
	 * --hints-in: where the RX hints reach the app (enum xskf_hints_in). XSKF_HINTS_IN_AUTO
	 * (0, default): the metadata area, else the headroom, else userspace, and userspace too
	 * where libxdp's dispatcher refuses a program that changes packet data (Linux 6.13+ with
	 * libxdp before 1.5.5). A way the kernel refuses fails xskf_engine__start() with
	 * -EOPNOTSUPP, said. Ignored with no_hints.
	 */
	enum xskf_hints_in hints_in;
};
#define xskf_engine_opts__last_field hints_in

/*
 * xskf_engine__new() - validate @opts and create an engine with no ports yet.
 * Returns the engine, or NULL with errno set (EINVAL: bad option, named in a message).
 * Thread: control thread.
 */
XSKF_API struct xskf_engine *xskf_engine__new(const struct xskf_engine_opts *opts);

/*
 * xskf_engine__add_port() - add interface @ifname with @nr_queues queue ids from @queues
 * (nr_queues = 0: every RX queue the interface has). Sockets are opened by xskf_engine__start().
 * Returns the port index (>= 0), or -ENODEV (no such interface), -ERANGE (queue id beyond the
 * interface's queues), -E2BIG (too many ports or queues), -EINVAL.
 * Thread: control thread, before xskf_engine__start().
 */
XSKF_API int xskf_engine__add_port(struct xskf_engine *eng, const char *ifname,
				   const uint32_t *queues, unsigned int nr_queues);

/*
 * xskf_engine__start() - allocate UMEMs, open and bind the sockets, load and attach the XDP
 * program, call app->init() and start the workers. On failure everything done so far is undone
 * (no program left attached). Returns 0, or a negative errno named in a message: -EPERM (not
 * root / missing CAP_NET_ADMIN, CAP_BPF), -EOPNOTSUPP (zero-copy or the attach mode is not
 * supported), -EEXIST (a foreign XDP program is attached; use force), -EBUSY (queue in use),
 * -ENOMEM (too few hugepages on the UMEM's node with XSKF_HUGEPAGES_REQUIRE).
 * Thread: control thread.
 */
XSKF_API int xskf_engine__start(struct xskf_engine *eng);

/*
 * xskf_engine__stop() - detach the XDP program, let workers drain their RX rings and TX
 * batches, join them and call app->fini(). Safe to call more than once.
 * Returns 0, or -EIO if the frame census at exit does not add up (a message says where).
 * Thread: control thread.
 */
XSKF_API int xskf_engine__stop(struct xskf_engine *eng);

/*
 * xskf_engine__destroy() - stop if needed, close sockets, free UMEMs, free @eng. NULL is a
 * no-op. Thread: control thread.
 */
XSKF_API void xskf_engine__destroy(struct xskf_engine *eng);

/*
 * xskf_engine__watch() - compare each port with what the kernel says now, and report every
 * change once: the interface deleted or moved to another network namespace, our XDP program
 * replaced or removed by someone else, the link going down or up, an MTU larger than a UMEM
 * frame holds (such frames are dropped by the kernel and counted in rx_dropped), a change of
 * the RX queue count that leaves a bound queue behind. Returns 0 while the engine can go on;
 * -ENODEV (an interface went away) or -EEXIST (our program is no longer attached): frames no
 * longer reach the sockets, the caller should stop and exit non-zero. The ports are looked at
 * (a few ioctls, one netlink query per port, sysfs: about 0.4 ms of CPU) at most every 250 ms;
 * a call in between returns what the last look found and serves the device plugin's socket
 * (--serve uds): call it every few tens of milliseconds.
 * Thread: control thread, while the engine runs (xskf_app__main() calls it).
 */
XSKF_API int xskf_engine__watch(struct xskf_engine *eng);

/* Steering, as the runner's commands manage it (xskf_ports.h adds rules from an app). */
/*
 * xskf_engine__steer_del() - delete rule @id from every port that has it; *@hits (may be
 * NULL) gets its final hit count, summed over ports. Returns 0, -ENOENT (no such rule), or the
 * errno of a failed map write (the rule is then still there). Thread: control thread.
 */
XSKF_API int xskf_engine__steer_del(struct xskf_engine *eng, unsigned int id, uint64_t *hits);
struct xskf_steer_info {
	size_t sz;          /* set by the caller: sizeof(struct xskf_steer_info) */
	unsigned int id;    /* 0: the port's default */
	unsigned int pos;   /* place in the matching order (the default: after the last) */
	bool keep_host;     /* a --keep-host rule */
	char text[160];     /* canonical text: "udp dport 53 xsk", "default pass" */
	uint64_t hits;      /* frames it took, summed over CPUs and queues */
};
#define xskf_steer_info__last_field hits

/*
 * xskf_engine__steer_rule() - the @idx-th rule of @port in matching order; idx == the rule
 * count gives the default. Returns 0, -ENOENT past the default or for no such port, -EINVAL
 * (bad sz). Thread: control thread.
 */
XSKF_API int xskf_engine__steer_rule(struct xskf_engine *eng, unsigned int port, unsigned int idx,
				     struct xskf_steer_info *info);

/* Every frame the XDP program saw on one queue, by where it went: seen = the four summed. */
struct xskf_steer_stats {
	size_t sz; /* set by the caller */
	uint64_t seen, xsk, pass, cpumap, drop;
};
#define xskf_steer_stats__last_field drop

/*
 * xskf_engine__steer_stats() - the steering counters of @queue of @port. Returns 0, -ENOENT
 * (no such port or no program), -EINVAL (bad sz). Thread: control thread.
 */
XSKF_API int xskf_engine__steer_stats(struct xskf_engine *eng, unsigned int port, uint32_t queue,
				      struct xskf_steer_stats *st);

/* ------------------------------------------------------------------------------------------ */
/* Statistics                                                                                  */

/*
 * A queue's counters: one member per row of XSKF_QUEUE_COUNTERS (xskf_counters.h), in its
 * order, each a uint64_t (hint_hash: uint64_t[3]), named and explained there.
 */
#define XSKF_QUEUE_STATS_MEMBER_(field, obj, key, src, type, help) uint64_t field;
#define XSKF_QUEUE_STATS_ARRAY_(field, n) uint64_t field[n];
struct xskf_queue_stats {
	XSKF_QUEUE_COUNTERS(XSKF_QUEUE_STATS_MEMBER_, XSKF_QUEUE_STATS_ARRAY_)
};
#undef XSKF_QUEUE_STATS_MEMBER_
#undef XSKF_QUEUE_STATS_ARRAY_

/*
 * xskf_engine__queue_stats() - the statistics of the @idx-th socket (0 .. nr_sockets - 1),
 * with its port index and queue id. Counters are read without stopping the workers: each is
 * exact, their sum is a snapshot. Returns 0, -ENOENT past the last socket.
 * Thread: control thread.
 */
XSKF_API int xskf_engine__queue_stats(struct xskf_engine *eng, unsigned int idx,
				      unsigned int *port, uint32_t *queue,
				      struct xskf_queue_stats *st);

/* What a worker did with its time (docs/idle.md), since it started. */
struct xskf_idle_stats {
	size_t sz;               /* set by the caller: sizeof(struct xskf_idle_stats) */
	uint64_t busy_ns;        /* running its loop (polling, spinning, working) */
	uint64_t asleep_ns;      /* asleep in poll(), waiting for frames or a stop */
	uint64_t wakeups;        /* sleeps that ended */
	uint64_t empty_wakeups;  /* of which the next round found nothing (a timeout, a stop) */
	/*
	 * Frames the kernel dropped on the worker's sockets while it slept (XDP_STATISTICS
	 * rx_ring_full + rx_dropped, from falling asleep to waking up): frames a wake-up that
	 * came in time would have saved. 0 for sockets without the statistics (memory backend).
	 */
	uint64_t lost_asleep;
};
#define xskf_idle_stats__last_field lost_asleep

/*
 * xskf_engine__idle_stats() - worker @worker's busy and asleep time and wake-ups, read now
 * (each counter has one writer, the worker; a sleep under way counts up to now).
 * Returns 0, -ENOENT (no such worker, or not started), -EINVAL (bad sz).
 * Thread: any, while the engine exists.
 */
XSKF_API int xskf_engine__idle_stats(const struct xskf_engine *eng, unsigned int worker,
				     struct xskf_idle_stats *st);

/* "busy", "adaptive" or "sleep" for @mode; "?" otherwise. Thread: any. */
XSKF_API const char *xskf_idle__name(enum xskf_idle mode);

/* Frame census: where every UMEM frame of one worker is. */
struct xskf_frame_census {
	uint64_t total;
	uint64_t cache;       /* free, in the worker's cache */
	uint64_t fill_ring;   /* in fill rings */
	uint64_t rx_ring;     /* in RX rings, not yet taken by the worker */
	uint64_t rx_kernel;   /* taken from the fill ring, not yet in the RX ring (driver-held) */
	uint64_t tx_pending;  /* in the worker's TX batches, not yet on a TX ring */
	uint64_t tx_ring;     /* on TX rings */
	uint64_t comp_ring;   /* in completion rings, not yet reaped */
	uint64_t tx_kernel;   /* taken from the TX ring, not yet completed */
};

/*
 * xskf_engine__census() - count where the frames of worker @worker are. With workers running
 * it is a snapshot; after xskf_engine__stop() it is exact and the places add up to total.
 * Returns 0 if they add up, -EIO if not, -ENOENT for no such worker. Thread: control thread.
 */
XSKF_API int xskf_engine__census(struct xskf_engine *eng, unsigned int worker,
				 struct xskf_frame_census *c);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_PUB_ENGINE_H */
