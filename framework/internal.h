/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private types of libxskf. Layering (docs/architecture.md):
 *
 *   engine.c   owns ports, sockets, workers; start/stop order          (control path)
 *   prog.c     loads, probes, attaches and detaches the XDP program     (control path)
 *   xsk.c      opens and binds one socket, reads its kernel statistics  (control path)
 *   umem.c     UMEM memory (hugepages, NUMA) and the per-worker frame cache
 *   hugepages.c page sizes, hugepage pools per node, hugetlbfs mounts   (read only)
 *   worker.c   the poll loop                                            (per-packet path)
 *   stats.c    statistics, census, JSON                                 (control path)
 *   cli.c      the standard command line of apps/                       (control path)
 */
#ifndef XSKF_INTERNAL_H
#define XSKF_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <net/if.h>
#include <xdp/xsk.h>

#include "xskf.h"
#include "log.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET 9 /* SOL_XDP option, Linux 6.17 */
#endif

/* Validate an sz-versioned options struct: unknown trailing bytes must be zero. */
int xskf_opts_valid(const void *opts, size_t user_sz, size_t known_sz, const char *type);

/* ---- hugepage sizes, pools and mounts (hugepages.c) ---- */

struct xskf_huge_pool {
	long nr, free, surplus; /* pages of one size on one node (node -1: all nodes) */
	long resv, overcommit;  /* reserved by mappings, not yet touched; may grow by: all nodes */
};

/* "2M", "1G", "2048kB", ... into bytes (a power of two). 0 or -EINVAL. */
int xskf_huge__parse_size(const char *s, uint64_t *bytes);
/* "2 MiB" / "2M" for @bytes, in @buf. Returns @buf. */
const char *xskf_huge__name(uint64_t bytes, char *buf, size_t len);
const char *xskf_huge__short(uint64_t bytes, char *buf, size_t len);
/* The kernel's default hugepage size (Hugepagesize), 0 when it has none. */
uint64_t xskf_huge__default_size(void);
/* The kernel has a pool of pages of @size bytes. */
bool xskf_huge__supported(uint64_t size);
/* "2M, 1G": the sizes the kernel has, for messages. */
void xskf_huge__sizes(char *buf, size_t len);
/* The pool of @size on @node (-1: all nodes) from sysfs. 0 or -ENOENT. */
int xskf_huge__pool(uint64_t size, int node, struct xskf_huge_pool *p);
/* Pages of @size a new mapping bound to @node (-1: any) can get now. */
long xskf_huge__available(uint64_t size, int node);
/* The nr_hugepages file of that pool, for messages. */
void xskf_huge__pool_path(uint64_t size, int node, char *buf, size_t len);
/* Page size of the hugetlbfs at @dir; -ENOTTY with @fstype set when it is another fs. */
int xskf_huge__mount_size(const char *dir, uint64_t *page_size, char *fstype, size_t len);
/*
 * The page size a UMEM will use, from --huge-dir (@dir, may be NULL) and --huge-size (@want,
 * 0: not given): the mount's, else @want, else the kernel's default (0: none). Checks the
 * two agree and that the kernel has the size. 0, or -EINVAL with one line said.
 */
int xskf_huge__resolve(const char *dir, uint64_t want, uint64_t *page_size);

/* ---- UMEM and frame cache (umem.c) ---- */

/* Where a UMEM's memory should come from. */
struct xskf_umem_place {
	enum xskf_hugepages policy;
	uint64_t page_size;   /* hugepage size (xskf_huge__resolve()); 0: the kernel has none */
	const char *huge_dir; /* a hugetlbfs mount for a file, or NULL: anonymous memory */
	int node;             /* NUMA node to place it on, or -1 */
	const char *who;      /* "worker 0", for messages */
};

struct xskf_umem {
	void *area;
	size_t size;          /* bytes mapped: the frames, rounded up to whole pages */
	uint32_t frame_size;
	uint32_t nr_frames;
	bool hugepages;       /* backed by hugepages */
	bool huge_file;       /* a file on hugetlbfs (unlinked), not anonymous memory */
	uint64_t page_size;   /* bytes of each page backing it */
	int numa_node;        /* node the memory was bound to, or -1 */
	long pages_checked;   /* pages whose node move_pages() reported after the first touch */
	long pages_step;      /* 1 in this many pages was asked about (1: every page) */
	long pages_on_node;   /* of them, on numa_node */
	struct xsk_umem *xu;  /* libxdp's handle, created with the first socket */
	/* frame cache: a LIFO stack of free frame addresses (chunk starts), worker-private */
	uint64_t *cache;
	uint32_t cache_len;
};

/* 0, or -ENOMEM (too few hugepages with require), another -errno; one line said either way. */
int xskf_umem__alloc(struct xskf_umem *um, uint32_t nr_frames, uint32_t frame_size,
		     const struct xskf_umem_place *pl);
void xskf_umem__free(struct xskf_umem *um);
/* "16 MiB: 8 pages of 2 MiB (anonymous) on node 0 (checked: ...); 56 pages of 2 MiB left ..." */
void xskf_umem__describe(const struct xskf_umem *um, char *buf, size_t len);
/* Tests only: called between the pool check and the mmap of a hugepage UMEM. */
extern void (*xskf__huge_checked_hook)(uint64_t page_size, int node);

static inline uint32_t xskf_cache_get(struct xskf_umem *um, uint64_t *addrs, uint32_t n)
{
	uint32_t i;

	if (n > um->cache_len)
		n = um->cache_len;
	for (i = 0; i < n; i++)
		addrs[i] = um->cache[--um->cache_len];
	return n;
}

static inline void xskf_cache_put(struct xskf_umem *um, uint64_t addr)
{
	/* aligned mode: any address inside a chunk maps back to its start */
	um->cache[um->cache_len++] = addr & ~((uint64_t)um->frame_size - 1);
}

/* ---- sockets (xsk.c) ---- */

/*
 * What one worker writes on its path (socket counters, ring positions, its cache's top) must
 * not share a cache line with another worker's: each write would take the line from the
 * other CPU (false sharing), and two workers would run slower than one.
 */
#define XSKF_CACHE_LINE 64

#define XSKF_TXQ_CAP (2 * XSKF_MAX_BATCH)

struct xskf_port;

/* Per-socket counters, written by the owning worker only, read by the control thread. */
struct xskf_qcounters {
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
	uint64_t drop_app, drop_no_port, drop_too_long, drop_tx_full;
	uint64_t tx_ring_full, fill_ring_empty, kicks;
	uint64_t csum_checked, csum_unfinished, csum_repaired; /* csum.c */
};

struct xskf_sock {
	struct xskf_port *port;
	uint32_t queue;
	unsigned int idx;          /* index among all sockets of the engine */
	struct xskf_worker *worker;
	struct xsk_socket *xsk;
	int fd;
	bool zerocopy;
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
	/* memory backend (mem_backend.c): the rings' memory, frames its stand-in received */
	struct xskf_mem_rings *mem;
	uint64_t mem_rx;
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

int xskf_sock__open(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		    bool zerocopy);
void xskf_sock__close(struct xskf_sock *s);
int xskf_sock__kstats(const struct xskf_sock *s, struct xdp_statistics *st);

/* ---- memory backend (mem_backend.c) ---- */

struct xskf_mem_rings;
struct xskf_worker;
struct xskf_engine;
int xskf_mem__open(struct xskf_sock *s, const struct xskf_engine_opts *o);
void xskf_mem__close_rings(struct xskf_mem_rings *m);
int xskf_mem__prime(struct xskf_engine *eng, struct xskf_umem *um);
void xskf_mem__kernel(struct xskf_worker *w, uint32_t batch, bool rx);

/* ---- ports and the XDP program (prog.c) ---- */

enum xskf_redirect_tier {
	XSKF_TIER_REDIRECT_XSK = 0, /* bpf_redirect_xsk(): never merged upstream */
	XSKF_TIER_MAP_FALLBACK = 1, /* bpf_redirect_map(&xsks, q, XDP_PASS) */
	XSKF_TIER_MAP_LOOKUP = 2,   /* lookup, then bpf_redirect_map(&xsks, q, 0) */
};

struct xskf_redirect; /* the skeleton */

struct xskf_port {
	char name[IF_NAMESIZE];
	int ifindex;
	unsigned int idx;
	uint32_t queues[XSKF_MAX_QUEUES];
	unsigned int nr_queues;
	unsigned int nr_hw_queues;  /* RX queues the interface has */
	int numa_node;
	/* XDP program state */
	struct xskf_redirect *skel;
	int prog_fd;               /* the attached program */
	int native_fd, skb_fd;     /* the loaded candidates for native and SKB mode */
	uint32_t attach_flags;     /* XDP_FLAGS_DRV_MODE or XDP_FLAGS_SKB_MODE when attached */
	bool attached;
	/* a foreign program replaced with --force, put back at exit: its fd, mode and name */
	bool foreign_saved;
	int foreign_fd;
	uint32_t foreign_mode;
	char foreign_name[64];
	enum xskf_redirect_tier tier;
	unsigned int hints_hw;     /* XSKF_HINTS_KF_* the attached program reads from the driver */
	uint16_t steer_udp_dport;  /* host order; 0: every frame of a bound queue to its socket */
	struct xskf_rss *rss;      /* the port's RSS key, for software hashes */
	/* what xskf_engine__watch() last saw (watch.c), so that each change is told once */
	struct {
		bool checked, gone, replaced, running, mtu_warned;
		bool prog_missing; /* our program was not there at the last look */
		bool csum_told;    /* unfinished checksums counted and said (csum_watch.c) */
		unsigned int rx_queues;
	} seen;
};

int xskf_prog__preflight(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__setup(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__attach(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__set_xsk(struct xskf_port *port, uint32_t queue, int xsk_fd);
void xskf_prog__detach(struct xskf_port *port);
void xskf_prog__teardown(struct xskf_port *port);
int xskf_prog__counters(struct xskf_port *port, uint32_t queue, uint64_t out[3]);
void xskf_prog__emergency_detach(void);

/*
 * xskf_watch__mtu() - say once, for every port whose MTU allows frames longer than a UMEM
 * frame holds, that the kernel drops them and what helps; one line for ports of the same MTU.
 * Nothing for TX-only apps. @sock: a datagram socket for the ioctls, or -1 (one is opened).
 * Thread: control thread (xskf_engine__start() before set-up, xskf_engine__watch()).
 */
void xskf_watch__mtu(struct xskf_engine *eng, int sock);

/* ---- workers (worker.c) ---- */

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
	uint64_t mem_left;         /* memory backend: frames its stand-in still makes */
	uint64_t mem_busy_ns;      /* and how long the worker took for all of them */
	uint64_t mem_t0;           /* when its stand-in first ran */
	bool mem_finished;         /* all its frames made and back: it waits for the stop */
	atomic_bool draining;      /* set by stop(): XDP is detached, empty the rings then exit */
	atomic_bool done;
} __attribute__((aligned(XSKF_CACHE_LINE))); /* nor do two workers */

void *xskf_worker__run(void *arg);
bool xskf_worker__drained(const struct xskf_worker *w);

/* ---- engine (engine.c) ---- */

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
	uint32_t headroom;         /* UMEM frame headroom we ask for */
	uint32_t rx_data_off;      /* where RX data starts in a chunk: XDP_PACKET_HEADROOM + headroom */
	atomic_bool stop;
	bool mem;                  /* XSKF_BACKEND_MEMORY */
	atomic_uint mem_finished;  /* its workers that received all their frames */
	uint32_t mem_len;          /* its frames' length */
	bool started, stopped;
	int census_err;
	const struct xskf_rss *rss[XSKF_MAX_PORTS]; /* by port index, for worker threads */
	/* the kernel's BTF, read once per run (prog.c) */
	bool kernel_probed;
	int kernel_probe_err;
	unsigned int kernel_kfuncs; /* XSKF_HINTS_KF_* the kernel has */
	bool kernel_redirect_xsk;
};

uint64_t xskf_now_ns(void);

/* ctl.c: remove the control socket's file; async-signal-safe (the fatal-signal handler). */
void xskf_ctl__emergency_unlink(void);

/* ---- other processes (proc.c; any thread) ---- */

/* Start time (field 22 of /proc/PID/stat, clock ticks since boot), 0 when unknown. */
uint64_t xskf_proc__start_time(pid_t pid);
/* @pid exists and is not a zombie (state Z or X): a zombie holds nothing any more. */
bool xskf_proc__alive(pid_t pid);
/* @pid is alive (as above) and is the process that started at @start_time (not a reused pid). */
bool xskf_proc__same(pid_t pid, uint64_t start_time);
/* run.c: called every loop iteration (about 50 ms) while running; set by the runner (plugin.c) */
extern void (*xskf__run_hook)(struct xskf_engine *eng, double elapsed, void *arg);
/* privs.c: keep only the capabilities in the bit mask @keep, for the calling thread. 0/-errno. */
int xskf_privs__keep(uint64_t keep);
/* RX queues of @ifname (sysfs, else ETHTOOL_GCHANNELS), at least 1. */
int xskf_count_rx_queues(const char *ifname);
int xskf_parse_cpus(const char *list, int *cpus, unsigned int max, unsigned int *nr);

#endif /* XSKF_INTERNAL_H */
