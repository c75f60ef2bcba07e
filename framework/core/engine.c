// SPDX-License-Identifier: BSD-2-Clause
/*
 * The engine: ports, sockets, workers, and the order in which they are set up and torn down.
 *
 * start: UMEM per worker -> sockets (bind, fill rings primed) -> XDP program loaded ->
 *        sockets entered in the XSKMAP -> program attached -> app->init() -> workers.
 * stop:  XDP program detached (no new frames) -> workers drain RX and TX -> join ->
 *        frame census -> app->fini(). Sockets close in destroy, so statistics stay readable.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <numa.h>

#include "core/backend.h"
#include "core/burst.h"
#include "core/capture.h"
#include "core/cpus.h"
#include "core/csum.h"
#include "core/hints.h"
#include "core/hugepages.h"
#include "core/privs.h"
#include "core/toeplitz.h"
#include "core/tx_meta.h"

#define DEF_RING 2048

static bool pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static int check_ring(const char *what, uint32_t *v)
{
	if (!*v)
		*v = DEF_RING;
	if (!pow2(*v) || *v < 64 || *v > 65536) {
		pr_warn("%s ring size %u is invalid: use a power of two from 64 to 65536\n", what, *v);
		return -EINVAL;
	}
	return 0;
}

/*
 * The hints the app reads (all of them unless it says: XSKF_APP_F_HINTS), and whether the worker
 * prefetches frames for it. An app that reads no hint runs as with --no-hints: the XDP program
 * writes no meta, the frame starts at the chunk's cache line, pkts[i].meta is NULL.
 */
static void xskf_engine_hints(struct xskf_engine *eng)
{
	const struct xskf_app *app = &eng->app;

	eng->hints = app->flags & XSKF_APP_F_HINTS ? app->hints & XSKF_HINT_ALL : XSKF_HINT_ALL;
	/* a TX-only app's sockets receive nothing: its program carries no hints' code at all */
	if (app->flags & XSKF_APP_F_TX_ONLY)
		eng->hints = 0;
	if (eng->o.no_hints)
		eng->hints = 0;
	if (!eng->hints && !eng->o.no_hints) {
		eng->hints_unread = true;
		eng->o.no_hints = true;
	}
	eng->prefetch = !(app->flags & XSKF_APP_F_NO_TOUCH) || eng->hints;
}

/* xskf_engine__new() failed after the backend's init(): its state goes with the engine */
static void fail_new(struct xskf_engine *eng)
{
	if (eng->be->fini)
		eng->be->fini(eng);
	free(eng);
}

/* the engine names the two backends here, and nowhere else (core/backend.h) */
const struct xskf_backend_ops *xskf_backend__of(enum xskf_backend kind)
{
	return kind == XSKF_BACKEND_MEMORY ? &xskf_backend_mem : &xskf_backend_xdp;
}

int xskf_backend__check(const struct xskf_engine_opts *o)
{
	const struct xskf_backend_ops *be = xskf_backend__of(o->backend);

	return be->check ? be->check(o) : 0;
}

static const struct xskf_backend_ops *const backends[] = { &xskf_backend_xdp, &xskf_backend_mem };

const struct xskf_backend_cmd *xskf_backend__cmd(const char *name)
{
	const struct xskf_backend_cmd *c;
	size_t i;

	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		for (c = backends[i]->cmds; c && c->name; c++)
			if (!strcmp(c->name, name))
				return c;
	return NULL;
}

void xskf_backend__usage(FILE *f)
{
	const struct xskf_backend_cmd *c;
	size_t i;

	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		for (c = backends[i]->cmds; c && c->name; c++)
			fputs(c->usage, f);
}

int xskf_engine__backend_opts(struct xskf_engine *eng, const void *opts, size_t sz)
{
	if (!eng || !opts || eng->started || !eng->be->set_opts)
		return -EINVAL;
	return eng->be->set_opts(eng, opts, sz);
}

/* The app given can run as asked: it has a way to receive (or sends only), and its hints. */
static int check_app(const struct xskf_engine_opts *o)
{
	if (!o->app || (!o->app->rx_burst && !(o->app->flags & XSKF_APP_F_TX_ONLY))) {
		pr_warn("no app given, or the app has no rx_burst callback\n");
		return -EINVAL;
	}
	if ((o->app->flags & XSKF_APP_F_NEEDS_HINTS) && o->no_hints) {
		pr_warn("app '%s' reads the RX hints (XSKF_APP_F_NEEDS_HINTS): it cannot run with "
			"no_hints (--no-hints)\n",
			o->app->name ? o->app->name : "?");
		return -EINVAL;
	}
	return 0;
}

/* Frame, ring and batch sizes and the timers: 0 takes the default, the rest is checked. */
static int check_sizes(struct xskf_engine_opts *o)
{
	int err;

	if (!o->frame_size)
		o->frame_size = 2048;
	if (o->frame_size != 2048 && o->frame_size != 4096) {
		pr_warn("frame size %u is invalid: use 2048 or 4096\n", o->frame_size);
		return -EINVAL;
	}
	if ((err = check_ring("RX", &o->rx_size)) || (err = check_ring("TX", &o->tx_size)) ||
	    (err = check_ring("fill", &o->fill_size)) ||
	    (err = check_ring("completion", &o->comp_size)))
		return err;
	if (!o->batch)
		o->batch = 64;
	if (o->batch > XSKF_MAX_BATCH || o->batch > o->rx_size) {
		pr_warn("batch size %u is invalid: use 1 to %u (and at most the RX ring size)\n",
			o->batch, XSKF_MAX_BATCH);
		return -EINVAL;
	}
	if (!o->tx_drain_us)
		o->tx_drain_us = 100;
	if (!o->busy_poll_us)
		o->busy_poll_us = 20;
	if (!o->busy_poll_budget)
		o->busy_poll_budget = o->batch;
	if (!o->tx_skb_budget)
		o->tx_skb_budget = o->tx_size;
	return 0;
}

/* The enumerated choices (hugepages, backend, idle mode) are known and do not contradict. */
static int check_modes(struct xskf_engine_opts *o)
{
	unsigned int i;

	if (o->hugepages < XSKF_HUGEPAGES_DEFAULT ||
	    o->hugepages > XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_OFF))
		return -EINVAL;
	if (o->hugepages == XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_OFF) &&
	    (o->huge_dir || o->huge_page_size)) {
		pr_warn("--huge-dir and --huge-size need hugepages: drop --hugepages=off\n");
		return -EINVAL;
	}
	if (o->backend != XSKF_BACKEND_XDP && o->backend != XSKF_BACKEND_MEMORY) {
		pr_warn("unknown backend %d: use XSKF_BACKEND_XDP or XSKF_BACKEND_MEMORY\n",
			(int)o->backend);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(o->__reserved0) / sizeof(o->__reserved0[0]); i++)
		if (o->__reserved0[i]) {
			pr_warn("xskf_engine_opts: reserved field set (the memory backend's frames "
				"are the runner's --mem-frames and --mem-frame now)\n");
			return -EINVAL;
		}
	if (o->idle != XSKF_IDLE_ADAPTIVE && o->idle != XSKF_IDLE_BUSY &&
	    o->idle != XSKF_IDLE_SLEEP) {
		pr_warn("unknown idle mode %d: use XSKF_IDLE_ADAPTIVE, _BUSY or _SLEEP\n",
			(int)o->idle);
		return -EINVAL;
	}
	if ((unsigned int)o->hints_in > XSKF_HINTS_IN_USERSPACE) {
		pr_warn("unknown hints_in %d: use XSKF_HINTS_IN_AUTO, _DATA_META, _HEADROOM or "
			"_USERSPACE\n",
			(int)o->hints_in);
		return -EINVAL;
	}
	if (!o->idle_spin_us)
		o->idle_spin_us = 50;
	if (o->busy_poll && o->idle == XSKF_IDLE_SLEEP) {
		pr_warn("--busy-poll polls where --idle sleep sleeps at once: drop one of them\n");
		return -EINVAL;
	}
	return 0;
}

/*
 * Where the UMEM's hugepages come from (read once, before any worker maps its UMEM):
 * the options' choice, else the build's default; --huge-dir is kept, the caller's string is not.
 */
static int resolve_hugepages(struct xskf_engine *eng)
{
	const struct xskf_engine_opts *o = &eng->o;
	int err;

	eng->hugepages = o->hugepages != XSKF_HUGEPAGES_DEFAULT ?
				 (enum xskf_hugepages)(o->hugepages - 1) :
				 XSKF_DEFAULT_HUGEPAGES;
	/* asking where hugepages come from asks for hugepages, whatever the build's default */
	if (o->hugepages == XSKF_HUGEPAGES_DEFAULT && (o->huge_dir || o->huge_page_size) &&
	    eng->hugepages == XSKF_HUGEPAGES_OFF)
		eng->hugepages = XSKF_HUGEPAGES_AUTO;
	if (eng->hugepages == XSKF_HUGEPAGES_OFF)
		return 0;
	err = xskf_huge__resolve(o->huge_dir, o->huge_page_size, &eng->huge_page_size);
	if (!err && o->huge_dir && !(eng->huge_dir = strdup(o->huge_dir)))
		err = -ENOMEM;
	return err;
}

/*
 * --pin-dir, --pin-group, --serve and the XSKMAP paths: copies of the caller's strings, kept
 * (read at start by the xdp backend's pin.c, after the caller may have freed its own).
 */
static int keep_pin_strings(struct xskf_engine *eng)
{
	const char **src[6] = { &eng->o.pin_dir, &eng->o.pin_group, &eng->o.serve,
				&eng->o.serve_uds, &eng->o.xsk_map, &eng->o.xsk_map_uds };
	unsigned int i;

	for (i = 0; i < 6; i++)
		if (*src[i] && !(*src[i] = eng->pin_strs[i] = strdup(*src[i]))) {
			while (i--)
				free(eng->pin_strs[i]);
			return -ENOMEM;
		}
	return 0;
}

/* The engine's own copies of the caller's strings (xskf_engine__new() failing late, destroy). */
static void free_strings(struct xskf_engine *eng)
{
	unsigned int i;

	for (i = 0; i < 6; i++)
		free(eng->pin_strs[i]);
	free(eng->huge_dir);
}

/*
 * The engine of @o's options, not yet started: the options are checked and their defaults set
 * before anything is allocated, then the backend's init() and what is kept from the caller.
 */
struct xskf_engine *xskf_engine__new(const struct xskf_engine_opts *opts)
{
	struct xskf_engine *eng;
	struct xskf_engine_opts o = {};
	const struct xskf_backend_ops *be;
	int err;

	xskf_log_hook_libs();
	if (!opts ||
	    xskf_opts_valid(opts, opts->sz, XSKF_OPTS_KNOWN(xskf_engine_opts), "xskf_engine_opts")) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	o.sz = sizeof(o);
	if ((err = check_app(&o)) || (err = check_sizes(&o)) || (err = check_modes(&o))) {
		errno = -err;
		return NULL;
	}
	be = xskf_backend__of(o.backend);
	if (be->check && (err = be->check(&o))) {
		errno = -err;
		return NULL;
	}

	eng = calloc(1, sizeof(*eng));
	if (!eng)
		return NULL;
	eng->o = o;
	eng->app = *o.app;
	eng->app_ctx = o.app_ctx;
	eng->be = be;
	eng->busy_poll = o.busy_poll;
	if (be->init && (err = be->init(eng))) {
		free(eng);
		errno = -err;
		return NULL;
	}
	eng->o.napi = NULL; /* parsed by the backend: the caller's string is not kept */
	err = resolve_hugepages(eng);
	if (err) {
		fail_new(eng);
		errno = -err;
		return NULL;
	}
	eng->o.huge_dir = eng->huge_dir;
	err = keep_pin_strings(eng);
	if (err) {
		free(eng->huge_dir);
		fail_new(eng);
		errno = -err;
		return NULL;
	}
	/*
	 * Copy and zero-copy RX put data at chunk + XDP_PACKET_HEADROOM (256) + our headroom. With
	 * hints on, 32 bytes of headroom put data at 288 = 32 mod 64: the 32-byte meta in front
	 * of it and the first 32 bytes of the frame share one cache line.
	 */
	xskf_engine_hints(eng);
	eng->headroom = eng->o.no_hints ? 0 : sizeof(struct xskf_meta);
	eng->rx_data_off = 256 + eng->headroom;
	if (o.cpus) {
		err = xskf_parse_cpus(o.cpus, eng->cpus, XSKF_MAX_WORKERS, &eng->nr_cpus);
		if (err) {
			free_strings(eng);
			fail_new(eng);
			errno = -err;
			return NULL;
		}
	}
	return eng;
}

int xskf_engine__add_port(struct xskf_engine *eng, const char *ifname, const uint32_t *queues,
			  unsigned int nr_queues)
{
	struct xskf_port *p;
	int err;

	if (!eng || !ifname || eng->started)
		return -EINVAL;
	if (eng->nr_ports == XSKF_MAX_PORTS) {
		pr_warn("too many interfaces: at most %d\n", XSKF_MAX_PORTS);
		return -E2BIG;
	}
	p = &eng->ports[eng->nr_ports];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", ifname);
	p->idx = eng->nr_ports;
	err = eng->be->add_port(eng, p, ifname, queues, nr_queues);
	if (err)
		return err;
	return (int)eng->nr_ports++;
}

static int assign_workers(struct xskf_engine *eng)
{
	unsigned int i, j, n = 0, maxq = 0, nw;

	for (i = 0; i < eng->nr_ports; i++) {
		n += eng->ports[i].nr_queues;
		if (eng->ports[i].nr_queues > maxq)
			maxq = eng->ports[i].nr_queues;
	}
	if (!n) {
		pr_warn("no interface given: use -i IFACE\n");
		return -EINVAL;
	}
	nw = eng->o.nr_workers ? eng->o.nr_workers : (eng->nr_cpus ? eng->nr_cpus : 1);
	if (nw > maxq)
		nw = maxq; /* a worker with no queue would only spin */
	if (nw > XSKF_MAX_WORKERS)
		nw = XSKF_MAX_WORKERS;
	/* one cache line or more each (internal.h): aligned, as the types say */
	if (posix_memalign((void **)&eng->socks, XSKF_CACHE_LINE, n * sizeof(*eng->socks)))
		eng->socks = NULL;
	if (posix_memalign((void **)&eng->workers, XSKF_CACHE_LINE, nw * sizeof(*eng->workers)))
		eng->workers = NULL;
	if (!eng->socks || !eng->workers)
		return -ENOMEM;
	memset(eng->socks, 0, n * sizeof(*eng->socks));
	memset(eng->workers, 0, nw * sizeof(*eng->workers));
	eng->nr_workers = nw;
	for (i = 0; i < nw; i++) {
		struct xskf_worker *w = &eng->workers[i];

		w->eng = eng;
		w->step = eng->be->step;
		w->id = i;
		w->cpu = eng->nr_cpus ? eng->cpus[i % eng->nr_cpus] : -1;
	}
	/* The j-th queue of every port goes to worker j % nw: it can forward between ports. */
	for (j = 0; j < maxq; j++) {
		for (i = 0; i < eng->nr_ports; i++) {
			struct xskf_port *p = &eng->ports[i];
			struct xskf_worker *w = &eng->workers[j % nw];
			struct xskf_sock *s;

			if (j >= p->nr_queues)
				continue;
			if (w->nr_socks == sizeof(w->socks) / sizeof(w->socks[0]))
				return -E2BIG;
			s = &eng->socks[eng->nr_socks];
			s->idx = eng->nr_socks++;
			s->port = p;
			s->queue = p->queues[j];
			s->worker = w;
			s->fd = -1;
			w->socks[w->nr_socks++] = s;
			if (!w->tx_sock[p->idx])
				w->tx_sock[p->idx] = s;
		}
	}
	return 0;
}

/*
 * Slots of a socket's TX shadow (ring_ops.h): the kernel holds at most tx_size + comp_size of
 * its frames, and at most XSKF_TXQ_CAP more wait staged; rounded up to a power of two.
 */
static uint32_t txq_slots(const struct xskf_engine_opts *o)
{
	uint32_t need = o->tx_size + o->comp_size + XSKF_TXQ_CAP, n = 1;

	while (n < need)
		n <<= 1;
	return n;
}

static void prime_fill(struct xskf_sock *s, struct xskf_umem *um)
{
	uint32_t n = s->fill.size, idx, i;

	if (n > um->cache_len)
		n = um->cache_len;
	n = xsk_ring_prod__reserve(&s->fill, n, &idx);
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&s->fill, idx + i) = um->cache[--um->cache_len];
	xsk_ring_prod__submit(&s->fill, n);
	s->fill_out += n;
}

/*
 * The node a worker's UMEM goes on: its first port's NIC's; for an interface without one (veth,
 * the memory backend) the node of the CPU the worker is pinned to, else the only node, else none.
 */
static int umem_node(const struct xskf_worker *w)
{
	int node = w->socks[0]->port->numa_node;

	if (node >= 0 || numa_available() < 0)
		return node;
	if (w->cpu >= 0 && (node = numa_node_of_cpu(w->cpu)) >= 0)
		return node;
	return numa_max_node() == 0 ? 0 : -1;
}

/*
 * An app that asks for TX metadata (xskf_tx.h): room for it in front of TX frames (the
 * backend registers the UMEM) and the worker's array for the timestamps that come back.
 */
static int txmd_worker(struct xskf_engine *eng, struct xskf_worker *w)
{
	if (!(eng->app.flags & XSKF_APP_F_TX_META) && !eng->o.tx_meta)
		return 0;
	if (eng->o.no_tx_meta) {
		if (w->id == 0)
			pr_info("TX metadata: off (--no-tx-offload): checksums by xskf in software, "
				"no timestamps, no launch times\n");
		return 0;
	}
	w->umem.tx_meta_want = XSKF_TXMD_LEN;
	w->info.tx_stamps = calloc(1, sizeof(*w->info.tx_stamps));
	if (!w->info.tx_stamps) {
		pr_warn("worker %u: no memory for its TX timestamps\n", w->id);
		return -ENOMEM;
	}
	return 0;
}

static int open_worker(struct xskf_engine *eng, struct xskf_worker *w)
{
	const struct xskf_engine_opts *o = &eng->o;
	bool tx_only = eng->app.flags & XSKF_APP_F_TX_ONLY;
	uint32_t frames = o->frames;
	char who[24], mem[320], psz[32];
	struct xskf_umem_place place = {
		.policy = eng->hugepages,
		.page_size = eng->huge_page_size,
		.huge_dir = eng->huge_dir,
		.who = who,
	};
	unsigned int i;
	int err;

	if (!frames)
		frames = w->nr_socks * ((tx_only ? 0 : o->fill_size) + o->tx_size);
	snprintf(who, sizeof(who), "worker %u", w->id);
	place.node = umem_node(w);
	err = xskf_umem__alloc(&w->umem, frames, o->frame_size, &place);
	if (err)
		return err; /* said by umem.c */
	err = txmd_worker(eng, w);
	if (err)
		return err;
	for (i = 0; i < w->nr_socks; i++) {
		struct xskf_sock *s = w->socks[i];

		/* TX metadata: xskf's checksums and nothing else, unless the backend says more */
		s->txmd_how[0] = XSKF_TXH_XSKF;
		s->txmd_how[1] = s->txmd_how[2] = XSKF_TXH_NONE;
		s->tx_stamps = w->info.tx_stamps;
		err = eng->be->open_sock(w, s, i);
		if (err)
			return err; /* said by the backend */
		s->open = true;
		s->txq_mask = txq_slots(o) - 1;
		s->txq = calloc(s->txq_mask + 1, sizeof(*s->txq));
		if (!s->txq)
			return -ENOMEM;
		if (!tx_only)
			prime_fill(s, &w->umem);
	}
	if (eng->be->prime) {
		err = eng->be->prime(w);
		if (err)
			return err;
	}
	err = xskf_idle__open(w);
	if (err)
		return err;
	w->info.id = w->id;
	w->info.cpu = w->cpu;
	w->info.headroom = eng->rx_data_off;
	w->info.frame_size = o->frame_size;
	w->info.nr_ports = eng->nr_ports;
	char cpu[24] = "";

	if (w->cpu >= 0)
		snprintf(cpu, sizeof(cpu), " on CPU %d", w->cpu);
	pr_info("worker %u%s: %u socket%s, UMEM %u frames of %u bytes on %s %s, %s\n", w->id, cpu,
		w->nr_socks, w->nr_socks == 1 ? "" : "s", frames, o->frame_size,
		xskf_huge__name(w->umem.page_size, psz, sizeof(psz)),
		w->umem.hugepages ? "hugepages" : "pages",
		eng->be->sock_mode(w->socks[0]));
	xskf_umem__describe(&w->umem, mem, sizeof(mem));
	pr_info("worker %u: UMEM %s\n", w->id, mem);
	return 0;
}

/* The worker thread: per-thread state of the layers above the poll loop, then the loop. */
static void *worker_main(void *arg)
{
	struct xskf_worker *w = arg;
	char name[16];
	int err;

	/* a name the tests (and top -H) can find the workers by */
	snprintf(name, sizeof(name), "xskf-w%u", w->id);
	pthread_setname_np(pthread_self(), name);
	/*
	 * the per-packet path needs no capability and no uid; a crash's detach is asked of the
	 * control thread. An app's worker_init() runs after this, as nobody (xskf_app.h).
	 */
	err = w->eng->be->caps ? xskf_privs__worker() : 0;
	if (err)
		pr_warn("warning: worker %u: cannot drop its capabilities and uid 0: %s\n", w->id,
			strerror(-err));

	xskf_hints__set_thread_rss(w->eng->rss, w->eng->nr_ports);
	return xskf_worker__run(w);
}

/* The RSS key of each port, so that software hashes equal what its NIC would compute. */
static int load_rss_keys(struct xskf_engine *eng)
{
	unsigned int i;
	int key_err;

	if (eng->o.no_hints)
		return 0;
	for (i = 0; i < eng->nr_ports; i++) {
		struct xskf_port *p = &eng->ports[i];

		uint8_t key[XSKF_TOEPLITZ_MAX_KEY];
		size_t len = sizeof(key);

		key_err = eng->be->rss_key ? eng->be->rss_key(p, key, &len) : -EOPNOTSUPP;
		p->rss = key_err ? xskf_rss__new(NULL, 0) : xskf_rss__new(key, len);
		if (!p->rss)
			return -ENOMEM;
		eng->rss[i] = p->rss;
		if (key_err)
			pr_debug("%s: RSS key not readable (%s): software hashes use the default "
				 "Microsoft key\n",
				 p->name, strerror(-key_err));
	}
	return 0;
}

/* the runner's: its crash line (chain.c), in the crashing thread; its control socket's file
 * (ctl.c), a clean-up, where the emergency detach runs */
#define FATAL_HOOKS 4
static void (*fatal_hooks[FATAL_HOOKS])(int sig);
static void (*fatal_cleanups[FATAL_HOOKS])(int sig);

static int add_hook(void (**hooks)(int sig), void (*fn)(int sig))
{
	size_t i;

	for (i = 0; i < FATAL_HOOKS; i++)
		if (!hooks[i] || hooks[i] == fn) {
			hooks[i] = fn;
			return 0;
		}
	return -ENOSPC;
}

int xskf_engine__on_fatal(void (*fn)(int sig))
{
	return add_hook(fatal_hooks, fn);
}

int xskf_engine__on_fatal_cleanup(void (*fn)(int sig))
{
	return add_hook(fatal_cleanups, fn);
}

static void run_hooks(void (*const *hooks)(int sig), int sig)
{
	size_t i;

	for (i = 0; i < FATAL_HOOKS && hooks[i]; i++)
		hooks[i](sig);
}

/* the backend's emergency(), for the handler, which has no engine at hand */
static void (*fatal_emergency)(void);

/*
 * Workers hold no capability and none of root's files (privs.c), so a worker that crashes
 * can neither detach the program nor remove root's socket files itself: its handler asks the
 * control thread, which keeps CAP_NET_ADMIN and uid 0, with fwd_sig (a real-time signal of our
 * own, set at install: SIGRTMIN is a libc call), and waits for it (1 s at most: a control
 * thread that is stuck does not hold the crash forever; the clean-ups are then tried here).
 */
static pid_t ctrl_tid;
static int fwd_sig;
static volatile sig_atomic_t fwd_asked, fwd_done, fwd_sig_no;
static struct sigaction fwd_old; /* the runner's stop handler of that signal, for others' */

static void fwd_signal(int sig, siginfo_t *si, void *uc)
{
	/* only a worker's crash asks; the signal from anyone else means what it meant before */
	if (!fwd_asked || si->si_pid != getpid()) {
		if (fwd_old.sa_flags & SA_SIGINFO) {
			fwd_old.sa_sigaction(sig, si, uc);
		} else if (fwd_old.sa_handler == SIG_DFL) {
			/* its default, as before us: the end of the process */
			sigaction(sig, &fwd_old, NULL);
			raise(sig);
		} else if (fwd_old.sa_handler != SIG_IGN) {
			fwd_old.sa_handler(sig);
		}
		return;
	}
	if (fatal_emergency)
		fatal_emergency();
	run_hooks(fatal_cleanups, fwd_sig_no);
	fwd_done = 1;
}

static void emergency_here_or_forward(int sig)
{
	struct timespec ms10 = { .tv_nsec = 10000000 };
	int i;

	if (!fatal_emergency && !fatal_cleanups[0])
		return;
	fwd_sig_no = sig;
	fwd_asked = 1;
	if ((pid_t)syscall(SYS_gettid) == ctrl_tid || !fwd_sig ||
	    syscall(SYS_tgkill, getpid(), ctrl_tid, fwd_sig)) {
		/* the control thread, or no way to ask it: here */
		if (fatal_emergency)
			fatal_emergency();
		run_hooks(fatal_cleanups, sig);
		return;
	}
	for (i = 0; i < 100 && !fwd_done; i++)
		nanosleep(&ms10, NULL);
	if (!fwd_done)
		run_hooks(fatal_cleanups, sig); /* what it can without root's files */
}

static void fatal_signal(int sig)
{
	emergency_here_or_forward(sig);
	run_hooks(fatal_hooks, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_fatal_handlers(void)
{
	/* synchronous faults: returning would run the faulting instruction again (run.c says more) */
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGSYS, SIGTRAP };
	struct sigaction sa = { .sa_handler = fatal_signal, .sa_flags = SA_RESETHAND };
	struct sigaction fwd = { .sa_sigaction = fwd_signal, .sa_flags = SA_SIGINFO };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* called on the control thread, before the workers start: the one that detaches */
	ctrl_tid = (pid_t)syscall(SYS_gettid);
	if (!fwd_sig) { /* once: a second install would save our own handler as the old one */
		fwd_sig = SIGRTMIN;
		if (sigaction(fwd_sig, &fwd, &fwd_old))
			fwd_sig = 0;
	}
}

static void teardown(struct xskf_engine *eng)
{
	unsigned int i;

	if (eng->be->teardown)
		eng->be->teardown(eng);
	for (i = 0; i < eng->nr_socks; i++) {
		if (eng->socks[i].open)
			eng->be->close_sock(&eng->socks[i]);
		eng->socks[i].open = false;
		free(eng->socks[i].txq);
		eng->socks[i].txq = NULL;
	}
	for (i = 0; i < eng->nr_workers; i++) {
		xskf_idle__close(&eng->workers[i]);
		xskf_umem__free(&eng->workers[i].umem);
		free(eng->workers[i].info.tx_stamps);
		eng->workers[i].info.tx_stamps = NULL;
	}
	for (i = 0; i < eng->nr_ports; i++) {
		xskf_rss__free(eng->ports[i].rss);
		eng->ports[i].rss = NULL;
		eng->rss[i] = NULL;
	}
}

/* app->init(), once everything is set up. */
static int app_init(struct xskf_engine *eng)
{
	int err;

	if (!eng->app.init)
		return 0;
	err = eng->app.init(eng->app_ctx, eng);
	/* -ECANCELED: the app said why already (the plugin runner does) */
	if (err && err != -ECANCELED)
		pr_warn("%s: init failed: %s\n", eng->app.name, strerror(-err));
	return err;
}

static int start_workers(struct xskf_engine *eng)
{
	unsigned int i;
	int err;

	fatal_emergency = eng->be->emergency;
	install_fatal_handlers();
	/* each socket's burst functions, from its bind and what the app asks (burst.c) */
	for (i = 0; i < eng->nr_socks; i++)
		xskf_burst__choose(eng, &eng->socks[i]);
	for (i = 0; i < eng->nr_workers; i++) {
		struct xskf_worker *w = &eng->workers[i];

		err = -pthread_create(&w->thread, NULL, worker_main, w);
		if (err) {
			pr_warn("cannot start worker %u: %s\n", i, strerror(-err));
			xskf_engine__request_stop(eng);
			xskf_engine__stop(eng);
			return err;
		}
		w->started = true;
	}
	return 0;
}

/*
 * One sequence for every backend; the backend table (core/backend.h) says what its kernel
 * needs at each step (the memory backend: no preflight, no program, no capabilities).
 */
int xskf_engine__start(struct xskf_engine *eng)
{
	const struct xskf_backend_ops *be;
	unsigned int i;
	uint64_t keep;
	int err;

	if (!eng || eng->started)
		return -EINVAL;
	be = eng->be;
	if (eng->o.bind_mode == XSKF_BIND_ZEROCOPY && eng->o.attach_mode == XSKF_ATTACH_SKB) {
		pr_warn("zero-copy needs native XDP: drop -S or use -c (copy mode)\n");
		return -EOPNOTSUPP;
	}
	if (be->preflight) {
		err = be->preflight(eng);
		if (err)
			return err;
	}
	err = assign_workers(eng);
	if (err)
		return err;
	eng->started = true;
	err = load_rss_keys(eng);
	for (i = 0; i < eng->nr_workers && !err; i++)
		err = open_worker(eng, &eng->workers[i]);
	if (!err && be->attach)
		err = be->attach(eng);
	if (!err) {
		xskf_idle__say(eng);
		err = app_init(eng);
	}
	if (err) {
		teardown(eng);
		eng->stopped = true;
		return err;
	}
	err = start_workers(eng);
	if (err || !be->caps)
		return err;
	/* set-up is done: the control thread keeps only what tear-down needs (privs.c) */
	keep = be->keep_caps ? be->keep_caps(eng) : 1ull << CAP_NET_ADMIN;
	err = xskf_privs__keep(keep);
	if (err)
		pr_warn("warning: cannot drop capabilities after set-up: %s\n", strerror(-err));
	else
		pr_debug("capabilities after set-up: %#llx in the control thread (its backend's "
			 "watch and tear-down), none in the workers\n",
			 (unsigned long long)keep);
	return 0;
}

void xskf_engine__request_stop(struct xskf_engine *eng)
{
	if (eng)
		atomic_store(&eng->stop, true);
}

bool xskf_engine__stopping(const struct xskf_engine *eng)
{
	return eng && atomic_load(&((struct xskf_engine *)eng)->stop);
}

int xskf_engine__stop(struct xskf_engine *eng)
{
	struct xskf_frame_census c;
	unsigned int i;
	int err = 0;

	if (!eng || !eng->started || eng->stopped)
		return eng && eng->census_err ? eng->census_err : 0;
	atomic_store(&eng->stop, true);
	/* No new frames: then whatever is in the rings can be accounted for. */
	if (eng->be->detach)
		eng->be->detach(eng);
	for (i = 0; i < eng->nr_workers; i++) {
		atomic_store(&eng->workers[i].draining, true);
		/* after the flag: a worker that sleeps, or is about to, sees it when it wakes */
		xskf_idle__wake(&eng->workers[i]);
	}
	for (i = 0; i < eng->nr_workers; i++)
		if (eng->workers[i].started)
			pthread_join(eng->workers[i].thread, NULL);
	eng->stopped = true;
	for (i = 0; i < eng->nr_workers; i++)
		if (xskf_engine__census(eng, i, &c))
			err = -EIO;
	if (eng->app.fini)
		eng->app.fini(eng->app_ctx, eng);
	eng->census_err = err;
	return err;
}

void xskf_engine__destroy(struct xskf_engine *eng)
{
	if (!eng)
		return;
	if (eng->started) {
		xskf_engine__stop(eng);
		teardown(eng);
	}
	if (eng->be->fini)
		eng->be->fini(eng);
	for (unsigned int i = 0; i < eng->nr_ports; i++)
		free(
		    eng->ports[i].steer.e); /* the rules (a backend without a program keeps them) */
	free(eng->socks);
	xskf_capture__free(eng); /* the workers are joined */
	free(eng->workers);
	free_strings(eng);
	free(eng);
}

unsigned int xskf_engine__nr_ports(const struct xskf_engine *eng)
{
	return eng ? eng->nr_ports : 0;
}

const char *xskf_engine__port_name(const struct xskf_engine *eng, unsigned int port)
{
	return eng && port < eng->nr_ports ? eng->ports[port].name : NULL;
}

unsigned int xskf_engine__nr_workers(const struct xskf_engine *eng)
{
	return eng ? eng->nr_workers : 0;
}

bool xskf_engine__worker_failed(const struct xskf_engine *eng)
{
	unsigned int i;

	for (i = 0; eng && i < eng->nr_workers; i++)
		if (eng->workers[i].init_err)
			return true;
	return false;
}

int xskf_engine__watch(struct xskf_engine *eng)
{
	if (!eng || !eng->started || eng->stopped || !eng->be->watch)
		return 0;
	return eng->be->watch(eng);
}

bool xskf_engine__csum_repair(const struct xskf_engine *eng)
{
	return eng && eng->o.csum_repair;
}
