/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf: a framework for AF_XDP packet processing.
 *
 * An application ("app") is a set of callbacks (struct xskf_app). The framework opens one AF_XDP
 * socket (XSK) per (interface, queue), loads and attaches the XDP program that steers each queue's
 * frames to its XSK, and runs one pinned worker thread per set of queues. Each worker runs
 *
 *     refill fill rings -> RX burst -> app->rx_burst() -> TX batch -> reap completions
 *
 * with no locks and no per-packet syscalls. The framework owns every frame: apps give each packet
 * a verdict (drop, transmit, forward) and never free or allocate buffers themselves.
 *
 * Conventions (as in libbpf):
 *  - objects are opaque, functions are named xskf_<object>__<verb>();
 *  - functions returning int return 0 (or a count) on success and a negative errno on failure;
 *    functions returning a pointer return NULL and set errno on failure;
 *  - option structs start with `size_t sz` and are declared with XSKF_OPTS(); fields the caller
 *    does not set are zero and mean "default";
 *  - messages go through the print callback (xskf_set_print()), never straight to stderr.
 *
 * Threads: "control thread" below means any one thread that owns the engine (usually main()).
 * "Worker" means a thread created by the framework; app callbacks say which they run on.
 */
#ifndef XSKF_H
#define XSKF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <xskf_counters.h>
#include <xskf_meta.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XSKF_API __attribute__((visibility("default")))

/* Declare and zero an options struct, setting its size: XSKF_OPTS(xskf_engine_opts, o, .batch = 32); */
#define XSKF_OPTS(TYPE, NAME, ...)                                                                 \
	struct TYPE NAME = ({                                                                      \
		memset(&NAME, 0, sizeof(struct TYPE));                                             \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };                           \
	})

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
/* Packets: what an app sees on the per-packet path                                            */

enum xskf_action {
	XSKF_DROP = 0, /* default: the frame goes back to the fill ring */
	XSKF_TX = 1,   /* send back out of the port and queue it came from */
	XSKF_FWD = 2,  /* send out of port pkt->out_port (on the worker's queue of that port) */
	/*
	 * In a chain of plugins (xskf_plugin.h): hand the frame to the next plugin, which gets it
	 * with action XSKF_DROP again. After the last plugin it is dropped (counted as drop_app).
	 */
	XSKF_NEXT = 3,
};

/*
 * One received frame. The framework fills data, len, port, queue and meta; the app sets action
 * (and out_port for XSKF_FWD) and may change the bytes in place, or move data back into the
 * headroom (xskf_pkt__push()) or forward (xskf_pkt__pull()) to add or strip headers.
 */
struct xskf_pkt {
	uint8_t *data;        /* first byte of the frame (the Ethernet header) */
	uint32_t len;         /* bytes from data */
	uint16_t port;        /* index of the port the frame arrived on */
	uint16_t queue;       /* queue id it arrived on */
	uint16_t out_port;    /* for XSKF_FWD: index of the port to send it out of */
	uint16_t headroom;    /* bytes free in front of data, for xskf_pkt__push() */
	uint8_t action;       /* enum xskf_action; XSKF_DROP when the burst is handed over */
	/*
	 * Buffers of the frame after the first (0: the whole frame is data, len). Frames longer
	 * than one UMEM frame come as chains (multi-buffer AF_XDP, docs/jumbo.md) to apps with
	 * XSKF_APP_F_CHAINS only: data and len are then the first buffer (it holds the headers),
	 * xskf_pkt__seg() gives the others and xskf_pkt__read() a range across them. An app
	 * may lower frags to send only the first buffers as a frame of their own (the tunnel's
	 * ICMP answer to a frame too big); the framework takes the others back.
	 */
	uint8_t frags;
	uint16_t frag_idx;    /* framework-private: where the other buffers are */
	uint64_t addr;        /* framework-private: UMEM address of data */
	/* where the XDP program wrote RX hints (just in front of data), or NULL with hints off;
	 * read it through the accessors of xskf_hints.h, which check that it is valid */
	const struct xskf_meta *meta;
};

/*
 * xskf_pkt__push() - grow the frame at its front by @n bytes (into the headroom), e.g. to
 * prepend a tunnel header. Returns the new data pointer, or NULL if the headroom is too small
 * (the frame is unchanged). Thread: worker, inside rx_burst.
 */
static inline uint8_t *xskf_pkt__push(struct xskf_pkt *pkt, uint32_t n)
{
	if (n > pkt->headroom)
		return NULL;
	pkt->headroom -= n;
	pkt->data -= n;
	pkt->addr -= n;
	pkt->len += n;
	return pkt->data;
}

/*
 * xskf_pkt__pull() - strip @n bytes from the front of the frame. Returns the new data pointer,
 * or NULL if the frame is shorter than @n. Thread: worker, inside rx_burst.
 */
static inline uint8_t *xskf_pkt__pull(struct xskf_pkt *pkt, uint32_t n)
{
	if (n > pkt->len)
		return NULL;
	pkt->headroom += n;
	pkt->data += n;
	pkt->addr += n;
	pkt->len -= n;
	return pkt->data;
}

/*
 * Most buffers one received frame may take: longer chains are dropped whole (drop_chain_long).
 * The kernel's own limit is lower (copy mode: max_skb_frags + 1, 18 by default).
 */
#define XSKF_MAX_SEGS 48

/* Buffers of @pkt: 1, or more for a chain (XSKF_APP_F_CHAINS). Thread: worker. */
static inline unsigned int xskf_pkt__nb_segs(const struct xskf_pkt *pkt)
{
	return 1u + pkt->frags;
}

/*
 * xskf_pkt__seg() - buffer @i (0 .. xskf_pkt__nb_segs() - 1) of @pkt: returns its first byte
 * and sets *@len to its length; buffer 0 is pkt->data, pkt->len. Returns NULL past the last
 * buffer. The bytes may be changed in place; the lengths of buffers after the first may not.
 * Thread: worker, inside rx_burst, for a packet of the burst it was handed.
 */
XSKF_API uint8_t *xskf_pkt__seg(const struct xskf_pkt *pkt, unsigned int i, uint32_t *len);

/*
 * xskf_pkt__chain_len() - bytes of a chain, all its buffers. Use xskf_pkt__total_len().
 * Thread: worker, inside rx_burst.
 */
XSKF_API uint32_t xskf_pkt__chain_len(const struct xskf_pkt *pkt);

/* Bytes of the whole frame, all its buffers. Thread: worker, inside rx_burst. */
static inline uint32_t xskf_pkt__total_len(const struct xskf_pkt *pkt)
{
	return pkt->frags ? xskf_pkt__chain_len(pkt) : pkt->len;
}

/*
 * xskf_pkt__read() - bytes @off .. @off + @len - 1 of the frame, wherever they are: a pointer
 * into the frame when they lie in one buffer (no copy), else a copy into @buf (at least @len
 * bytes), for a header that crosses a buffer's edge (as DPDK's rte_pktmbuf_read()). Returns
 * NULL when the frame is shorter than @off + @len. Thread: worker, inside rx_burst.
 */
static inline const void *xskf_pkt__read(const struct xskf_pkt *pkt, uint32_t off, uint32_t len,
					 void *buf);
XSKF_API const void *xskf_pkt__read_chain(const struct xskf_pkt *pkt, uint32_t off,
					  uint32_t len, void *buf);

static inline const void *xskf_pkt__read(const struct xskf_pkt *pkt, uint32_t off, uint32_t len,
					 void *buf)
{
	if ((uint64_t)off + len <= pkt->len)
		return pkt->data + off;
	return pkt->frags ? xskf_pkt__read_chain(pkt, off, len, buf) : NULL;
}

/*
 * xskf_pkt__append() - for a TX-only app in tx_fill(): add a buffer of @len bytes (1 .. the
 * frame room, worker_info.frame_size - headroom) at the end of frame @pkt, to build a frame
 * longer than one buffer holds (a jumbo frame: XSKF_APP_F_CHAINS, and the engine binds for
 * chains: xskf_engine__chains()). Build each frame's buffers before the next frame's. Returns
 * the buffer's first byte, for the app to write @len bytes to, or NULL: the engine takes no
 * chains, @len is out of range, the frame has XSKF_MAX_SEGS buffers, another frame was added
 * to since, or no free UMEM frame is left (send the frame shorter, or not at all).
 * Thread: worker, inside tx_fill.
 */
XSKF_API uint8_t *xskf_pkt__append(struct xskf_pkt *pkt, uint32_t len);

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
	 * The app takes frames that span several buffers (struct xskf_pkt.frags, xskf_pkt__seg(),
	 * docs/jumbo.md): only then, and only when a port's MTU needs it, are the sockets bound
	 * with multi-buffer AF_XDP (XDP_USE_SG). Without it, frames longer than one UMEM frame
	 * are dropped by the kernel (rx_dropped), as the start-up line says. In a chain of
	 * plugins, every plugin must have it.
	 */
	XSKF_APP_F_CHAINS = 1u << 4,
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
	/* Worker, once at its start. *wctx is handed to the worker's other callbacks. Optional. */
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

#define XSKF_MAX_PORTS   16
#define XSKF_MAX_QUEUES  256 /* per port */
#define XSKF_MAX_WORKERS 64
#define XSKF_MAX_BATCH   256

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
};
#define xskf_engine_opts__last_field xdp_alone

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
 * xskf_engine__request_stop() - ask the workers to stop. Async-signal-safe: call it from a
 * SIGINT/SIGTERM handler. Thread: any.
 */
XSKF_API void xskf_engine__request_stop(struct xskf_engine *eng);

/* Returns true once a stop was requested. Thread: any. */
XSKF_API bool xskf_engine__stopping(const struct xskf_engine *eng);

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

/* Number of ports added. Thread: any. */
XSKF_API unsigned int xskf_engine__nr_ports(const struct xskf_engine *eng);
/* Interface name of port @port, or NULL. Thread: any. */
XSKF_API const char *xskf_engine__port_name(const struct xskf_engine *eng, unsigned int port);
/* Number of workers. Thread: any. */
XSKF_API unsigned int xskf_engine__nr_workers(const struct xskf_engine *eng);
/*
 * xskf_engine__csum_repair() - true when the engine finishes unfinished TCP/UDP checksums of
 * received frames (xskf_engine_opts.csum_repair, --csum-repair): an app that builds or
 * decapsulates frames then does the same to them (xskf_pkt__csum_finish()). Thread: any.
 */
XSKF_API bool xskf_engine__csum_repair(const struct xskf_engine *eng);
/*
 * xskf_engine__chains() - true when the sockets were bound for frames of several buffers
 * (multi-buffer AF_XDP, XDP_USE_SG: a port's MTU needs it, the kernel has it and the app takes
 * chains, docs/jumbo.md), so that frames longer than one UMEM frame are received and can be
 * sent (xskf_pkt__append()). Thread: any, after xskf_engine__start() (e.g. from app->init()).
 */
XSKF_API bool xskf_engine__chains(const struct xskf_engine *eng);

/*
 * Steering (docs/steering.md): each port's XDP program holds a table of rules, matched in
 * order, the first match deciding a frame's fate: its queue's socket (xsk), the kernel's stack
 * on this CPU (pass) or on a CPU of a set (cpumap), or dropped (drop). Rules are text, e.g.
 * "udp dport 53 xsk", "src 198.51.100.0/24 drop", "default pass". A frame no rule matches
 * takes the default: set by "default ACTION"; otherwise xsk, or pass once a rule given before
 * start sends frames to the sockets (the app then takes what it asked for, the host the rest).
 * Before xskf_engine__start() rules are kept; after, each change is written to the program's
 * maps at once (no reload; a frame sees the old table or the new one, whole).
 */

/*
 * xskf_engine__steer_add() - add @rule at the end of the rule list of @port (-1: every port;
 * a plugin declares the rules it needs so, from its configure() callback). Returns the rule's
 * id (> 0, the same on every port; xskf_engine__steer_del() takes it), 0 for a "default"
 * rule, or -EINVAL (malformed: @err says why), -EEXIST (the same match is there: @err names
 * the rule), -ENOSPC (the table is full), -ENODEV (a cpumap CPU does not exist or is offline),
 * -ENOENT (no such port), or the errno of a failed map write. On an error nothing changed.
 * @err (may be NULL) receives one line. Thread: control thread.
 */
XSKF_API int xskf_engine__steer_add(struct xskf_engine *eng, int port, const char *rule,
				    char *err, size_t err_len);
/*
 * xskf_engine__steer_del() - delete rule @id from every port that has it; *@hits (may be
 * NULL) gets its final hit count, summed over ports. Returns 0, -ENOENT (no such rule), or the
 * errno of a failed map write (the rule is then still there). Thread: control thread.
 */
XSKF_API int xskf_engine__steer_del(struct xskf_engine *eng, unsigned int id, uint64_t *hits);
/*
 * xskf_engine__steer_keep_host() - give @port (-1: every port) the --keep-host rules at start:
 * the host's ARP, ICMPv6 (neighbour discovery) and frames to the interface's own addresses go
 * to the stack, after every other rule. Returns 0, -ENOENT, -EBUSY (started).
 * Thread: control thread, before xskf_engine__start().
 */
XSKF_API int xskf_engine__steer_keep_host(struct xskf_engine *eng, int port);
/*
 * xskf_engine__promisc() - @port (-1: every port) receives frames to every MAC until the
 * engine is destroyed or the process ends: a NIC drops unicast frames to other MACs before XDP
 * sees them (veth does not). For ports whose frames are not addressed to them, such as a
 * tunnel's access side. Held as an AF_PACKET PACKET_MR_PROMISC membership, which the kernel
 * drops when the process ends, crash included. Returns 0, -ENOENT (no such port), or the errno
 * of the socket or setsockopt (one line says so). Thread: control thread.
 */
XSKF_API int xskf_engine__promisc(struct xskf_engine *eng, int port);

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

/*
 * xskf_engine__steer_udp() - send only UDP datagrams to port @dport (over IPv4 or IPv6, one
 * optional VLAN tag, first fragments) of @port's queues to the sockets; every other frame goes
 * on to the kernel's stack (ARP, ICMP, management traffic keep working). The rule
 * "udp dport DPORT xsk" (the default then becomes pass). @dport 0: nothing. Returns 0, -ENOENT
 * (no such port), -EBUSY (already started), or what xskf_engine__steer_add() returns.
 * Thread: control thread, before xskf_engine__start() (e.g. from app->configure()).
 */
XSKF_API int xskf_engine__steer_udp(struct xskf_engine *eng, unsigned int port, uint16_t dport);

/*
 * xskf_engine__watch() - compare each port with what the kernel says now, and report every
 * change once: the interface deleted or moved to another network namespace, our XDP program
 * replaced or removed by someone else, the link going down or up, an MTU larger than a UMEM
 * frame holds (such frames are dropped by the kernel and counted in rx_dropped), a change of
 * the RX queue count that leaves a bound queue behind. Returns 0 while the engine can go on;
 * -ENODEV (an interface went away) or -EEXIST (our program is no longer attached): frames no
 * longer reach the sockets, the caller should stop and exit non-zero. Cheap (a few ioctls and
 * one netlink query per port): call it every few tens of milliseconds.
 * Thread: control thread, while the engine runs (xskf_app__main() calls it).
 */
XSKF_API int xskf_engine__watch(struct xskf_engine *eng);

/* What the kernel says of a port's interface, read when asked. */
struct xskf_port_info {
	size_t sz;            /* set by the caller: sizeof(struct xskf_port_info) */
	int ifindex;
	uint8_t mac[6];
	bool up;              /* administratively up (IFF_UP) */
	bool running;         /* has carrier (IFF_RUNNING) */
	uint32_t mtu;
	unsigned int rx_queues;
};
#define xskf_port_info__last_field rx_queues

/*
 * xskf_engine__port_info() - MAC address, MTU, link state and RX queue count of port @port,
 * read from the kernel now. Returns 0, -ENOENT (no such port), -EINVAL (bad sz), or the
 * negative errno of the failed ioctl. Thread: control thread (e.g. from app->init()).
 */
XSKF_API int xskf_engine__port_info(const struct xskf_engine *eng, unsigned int port,
				    struct xskf_port_info *info);

/*
 * xskf_mac__parse() - "02:00:00:00:00:01" (six two-digit hex groups) into 6 bytes.
 * Returns 0 or -EINVAL. Thread: any.
 */
XSKF_API int xskf_mac__parse(const char *s, uint8_t mac[6]);

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

/* Frame census: where every UMEM frame of one worker is. */
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
#define xskf_idle_stats__last_field empty_wakeups

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

/* ------------------------------------------------------------------------------------------ */
/* Standard command line: every binary in apps/ is a thin main() around xskf_app__main().      */

struct xskf_cli_opt {
	const char *name;    /* long option name */
	int has_arg;         /* as in getopt_long: 0 no, 1 required */
	const char *arg;     /* argument name shown in --help, or NULL */
	const char *help;
};

struct xskf_app_cli {
	size_t sz;
	const char *summary;              /* one line under the usage line */
	const struct xskf_cli_opt *opts;  /* the app's own long options, ended by { NULL } */
	/* called for each of the app's options, with its index in opts; 0 or -EINVAL */
	int (*parse)(void *app_ctx, int idx, const char *arg);
	/* called after parsing, before the engine starts: check the app's options; 0 or -EINVAL */
	int (*check)(void *app_ctx, struct xskf_engine_opts *eo);
	unsigned int min_ifaces;          /* -i needed at least this many times (default 1) */
	unsigned int max_ifaces;          /* and at most (default XSKF_MAX_PORTS) */
	/*
	 * Called after check(): the rx_burst callback the app runs with, chosen from its options
	 * once (xsk-l2fwd has one per mode), or NULL for app->rx_burst. Optional; an app with
	 * one burst function leaves it NULL. Thread: control thread.
	 */
	void (*(*rx_burst_for)(void *app_ctx))(void *wctx, struct xskf_pkt *pkts, unsigned int n);
};
#define xskf_app_cli__last_field rx_burst_for

/*
 * xskf_app__main() - parse the standard options (-i, -q, -z, -c, -N, -S, -B, -b, --cpus,
 * --duration, --json, --hugepages, ...) and the app's, build the engine, run until SIGINT,
 * SIGTERM or --duration, print stats each second and JSON at exit with --json, and tear down.
 * Returns the process exit status (0 success, 1 runtime error, 2 usage error).
 * Thread: main thread; installs handlers for SIGINT, SIGTERM and SIGHUP (see xskf_app__sighup()).
 */
XSKF_API int xskf_app__main(const struct xskf_app *app, void *app_ctx,
			    const struct xskf_app_cli *cli, int argc, char **argv);

/*
 * xskf_app__sighup() - returns true once per SIGHUP received since the last call.
 * Thread: control thread (e.g. from app->tick()).
 */
XSKF_API bool xskf_app__sighup(void);

/* Verbosity given with -v (0, 1, 2). Thread: any. */
XSKF_API int xskf_app__verbose(void);

/*
 * xskf_app__quiet() - true when --quiet was given: the app prints no live lines from tick()
 * either (it still does its work there). Thread: any.
 */
XSKF_API bool xskf_app__quiet(void);

/*
 * xskf_app__out() - the stream (a FILE *) for the app's own live lines from tick(): stdout,
 * or stderr with --json so that stdout carries only the JSON document. Thread: control thread.
 */
XSKF_API void *xskf_app__out(void);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_H */
