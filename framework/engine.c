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
#include <unistd.h>
#include <sys/resource.h>
#include <linux/capability.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <numa.h>

#include "hints.h"
#include "csum.h"
#include "internal.h"

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

struct xskf_engine *xskf_engine__new(const struct xskf_engine_opts *opts)
{
	struct xskf_engine *eng;
	struct xskf_engine_opts o = {};
	int err;

	xskf_log_hook_libs();
	if (!opts || xskf_opts_valid(opts, opts->sz, sizeof(o), "xskf_engine_opts")) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	o.sz = sizeof(o);
	if (!o.app || (!o.app->rx_burst && !(o.app->flags & XSKF_APP_F_TX_ONLY))) {
		pr_warn("no app given, or the app has no rx_burst callback\n");
		errno = EINVAL;
		return NULL;
	}
	if ((o.app->flags & XSKF_APP_F_NEEDS_HINTS) && o.no_hints) {
		pr_warn("app '%s' reads the RX hints (XSKF_APP_F_NEEDS_HINTS): it cannot run with "
			"no_hints (--no-hints)\n",
			o.app->name ? o.app->name : "?");
		errno = EINVAL;
		return NULL;
	}
	if (!o.frame_size)
		o.frame_size = 2048;
	if (o.frame_size != 2048 && o.frame_size != 4096) {
		pr_warn("frame size %u is invalid: use 2048 or 4096\n", o.frame_size);
		errno = EINVAL;
		return NULL;
	}
	if ((err = check_ring("RX", &o.rx_size)) || (err = check_ring("TX", &o.tx_size)) ||
	    (err = check_ring("fill", &o.fill_size)) || (err = check_ring("completion", &o.comp_size))) {
		errno = -err;
		return NULL;
	}
	if (!o.batch)
		o.batch = 64;
	if (o.batch > XSKF_MAX_BATCH || o.batch > o.rx_size) {
		pr_warn("batch size %u is invalid: use 1 to %u (and at most the RX ring size)\n", o.batch,
			XSKF_MAX_BATCH);
		errno = EINVAL;
		return NULL;
	}
	if (!o.tx_drain_us)
		o.tx_drain_us = 100;
	if (!o.busy_poll_us)
		o.busy_poll_us = 20;
	if (!o.busy_poll_budget)
		o.busy_poll_budget = o.batch;
	if (!o.tx_skb_budget)
		o.tx_skb_budget = o.tx_size;
	if (o.hugepages < 0 || o.hugepages > 3) {
		errno = EINVAL;
		return NULL;
	}
	if (o.hugepages == XSKF_HUGEPAGES_OFF + 1 && (o.huge_dir || o.huge_page_size)) {
		pr_warn("--huge-dir and --huge-size need hugepages: drop --hugepages=off\n");
		errno = EINVAL;
		return NULL;
	}
	if (o.backend != XSKF_BACKEND_XDP && o.backend != XSKF_BACKEND_MEMORY) {
		pr_warn("unknown backend %d: use XSKF_BACKEND_XDP or XSKF_BACKEND_MEMORY\n",
			(int)o.backend);
		errno = EINVAL;
		return NULL;
	}
	if (o.nr_mem_port_frames > XSKF_MAX_PORTS ||
	    (o.nr_mem_port_frames && (!o.mem_port_frames || !o.mem_port_frame_lens))) {
		pr_warn("memory backend: %u per-port frames without their array (at most %u)\n",
			o.nr_mem_port_frames, XSKF_MAX_PORTS);
		errno = EINVAL;
		return NULL;
	}
	if (o.backend == XSKF_BACKEND_MEMORY && o.busy_poll) {
		pr_warn("busy polling needs a NIC: the memory backend has none (drop -B)\n");
		errno = EINVAL;
		return NULL;
	}

	eng = calloc(1, sizeof(*eng));
	if (!eng)
		return NULL;
	eng->o = o;
	eng->app = *o.app;
	eng->app_ctx = o.app_ctx;
	eng->mem = o.backend == XSKF_BACKEND_MEMORY;
	eng->hugepages = o.hugepages ? (enum xskf_hugepages)(o.hugepages - 1) : XSKF_DEFAULT_HUGEPAGES;
	/* asking where hugepages come from asks for hugepages, whatever the build's default */
	if (!o.hugepages && (o.huge_dir || o.huge_page_size) &&
	    eng->hugepages == XSKF_HUGEPAGES_OFF)
		eng->hugepages = XSKF_HUGEPAGES_AUTO;
	if (eng->hugepages != XSKF_HUGEPAGES_OFF) {
		err = xskf_huge__resolve(o.huge_dir, o.huge_page_size, &eng->huge_page_size);
		if (!err && o.huge_dir && !(eng->huge_dir = strdup(o.huge_dir)))
			err = -ENOMEM;
		if (err) {
			free(eng);
			errno = -err;
			return NULL;
		}
	}
	eng->o.huge_dir = eng->huge_dir;
	/*
	 * Copy and zero-copy RX put data at chunk + XDP_PACKET_HEADROOM (256) + our headroom. With
	 * hints on, 32 bytes of headroom put data at 288 = 32 mod 64: the 32-byte meta in front
	 * of it and the first 32 bytes of the frame share one cache line.
	 */
	eng->headroom = o.no_hints ? 0 : sizeof(struct xskf_meta);
	eng->rx_data_off = 256 + eng->headroom;
	if (o.cpus) {
		err = xskf_parse_cpus(o.cpus, eng->cpus, XSKF_MAX_WORKERS, &eng->nr_cpus);
		if (err) {
			free(eng->huge_dir);
			free(eng);
			errno = -err;
			return NULL;
		}
	}
	return eng;
}

int xskf_count_rx_queues(const char *ifname)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	char path[128];
	struct ifreq ifr = {};
	struct dirent *de;
	int n = 0, fd;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d)))
			n += !strncmp(de->d_name, "rx-", 3);
		closedir(d);
		if (n)
			return n;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return 1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ch;
	if (!ioctl(fd, SIOCETHTOOL, &ifr))
		n = (int)(ch.rx_count + ch.combined_count);
	close(fd);
	return n > 0 ? n : 1;
}

static int read_numa_node(const char *ifname)
{
	char path[128];
	int node = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device/numa_node", ifname);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &node) != 1)
		node = -1;
	fclose(f);
	return node;
}

/*
 * A port of the memory backend is a name and queue ids (default: queue 0); any queue id is
 * valid, as on an interface with XSKF_MAX_QUEUES queues.
 */
static int add_mem_port(struct xskf_engine *eng, const char *name, const uint32_t *queues,
			unsigned int nr_queues)
{
	struct xskf_port *p = &eng->ports[eng->nr_ports];
	unsigned int i, j;

	if (strlen(name) >= IF_NAMESIZE || nr_queues > XSKF_MAX_QUEUES)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->idx = eng->nr_ports;
	p->prog_fd = -1;
	p->numa_node = -1;
	p->nr_hw_queues = XSKF_MAX_QUEUES;
	p->nr_queues = nr_queues ? nr_queues : 1;
	for (i = 0; i < p->nr_queues; i++) {
		p->queues[i] = nr_queues ? queues[i] : 0;
		for (j = 0; j < i; j++)
			if (p->queues[j] == p->queues[i] || p->queues[i] >= XSKF_MAX_QUEUES)
				return -EINVAL;
	}
	for (i = 0; i < eng->nr_ports; i++)
		if (!strcmp(eng->ports[i].name, p->name))
			return -EINVAL;
	return (int)eng->nr_ports++;
}

int xskf_engine__add_port(struct xskf_engine *eng, const char *ifname, const uint32_t *queues,
			  unsigned int nr_queues)
{
	struct xskf_port *p;
	unsigned int i, j;

	if (!eng || !ifname || eng->started)
		return -EINVAL;
	if (eng->nr_ports == XSKF_MAX_PORTS) {
		pr_warn("too many interfaces: at most %d\n", XSKF_MAX_PORTS);
		return -E2BIG;
	}
	if (eng->mem)
		return add_mem_port(eng, ifname, queues, nr_queues);
	if (strlen(ifname) >= IF_NAMESIZE || !if_nametoindex(ifname)) {
		pr_warn("interface '%s' not found: check 'ip link' (in a network namespace, run under "
			"'ip netns exec NS')\n",
			ifname);
		return -ENODEV;
	}
	p = &eng->ports[eng->nr_ports];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", ifname);
	p->ifindex = (int)if_nametoindex(ifname);
	p->idx = eng->nr_ports;
	p->prog_fd = -1;
	p->nr_hw_queues = (unsigned int)xskf_count_rx_queues(ifname);
	p->numa_node = read_numa_node(ifname);
	if (!nr_queues) {
		nr_queues = p->nr_hw_queues < XSKF_MAX_QUEUES ? p->nr_hw_queues : XSKF_MAX_QUEUES;
		for (i = 0; i < nr_queues; i++)
			p->queues[i] = i;
	} else {
		if (nr_queues > XSKF_MAX_QUEUES)
			return -E2BIG;
		for (i = 0; i < nr_queues; i++) {
			if (queues[i] >= p->nr_hw_queues) {
				pr_warn("queue %u out of range: %s has %u RX queue%s (0..%u); see "
					"'ethtool -l %s'\n",
					queues[i], ifname, p->nr_hw_queues,
					p->nr_hw_queues == 1 ? "" : "s", p->nr_hw_queues - 1, ifname);
				return -ERANGE;
			}
			for (j = 0; j < i; j++)
				if (queues[j] == queues[i]) {
					pr_warn("queue %u of %s given twice\n", queues[i], ifname);
					return -EINVAL;
				}
			p->queues[i] = queues[i];
		}
	}
	for (i = 0; i < eng->nr_ports; i++)
		if (eng->ports[i].ifindex == p->ifindex) {
			pr_warn("interface %s given twice: list its queues with -q instead\n", ifname);
			return -EINVAL;
		}
	p->nr_queues = nr_queues;
	return (int)eng->nr_ports++;
}

int xskf_engine__steer_udp(struct xskf_engine *eng, unsigned int port, uint16_t dport)
{
	if (!eng || port >= eng->nr_ports)
		return -ENOENT;
	if (eng->started)
		return -EBUSY;
	eng->ports[port].steer_udp_dport = dport;
	return 0;
}

/* Without root we need CAP_NET_ADMIN (attach), CAP_NET_RAW (AF_XDP) and CAP_BPF or SYS_ADMIN. */
static int check_caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};
	uint64_t eff;

	if (syscall(SYS_capget, &h, d))
		return 0;
	eff = d[0].effective | ((uint64_t)d[1].effective << 32);
#define HAS(c) (eff & (1ull << (c)))
	if (HAS(CAP_NET_ADMIN) && HAS(CAP_NET_RAW) && (HAS(39 /* CAP_BPF */) || HAS(CAP_SYS_ADMIN)))
		return 0;
#undef HAS
	pr_warn("permission denied: AF_XDP and XDP need root (or CAP_NET_ADMIN, CAP_NET_RAW and "
		"CAP_BPF): run with sudo\n");
	return -EPERM;
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
 * XDP_UMEM_REG says ENOBUFS when the UMEM's pages would pass the locked-memory limit: without
 * CAP_IPC_LOCK the kernel charges them to the user's RLIMIT_MEMLOCK (all its UMEMs together).
 */
static void memlock_advice(const struct xskf_worker *w)
{
	uint64_t need = w->umem.size, kib = (need + 1023) >> 10;
	struct rlimit rl;
	char lim[48] = "unknown", sz[32];

	if (!getrlimit(RLIMIT_MEMLOCK, &rl)) {
		if (rl.rlim_cur == RLIM_INFINITY)
			snprintf(lim, sizeof(lim), "unlimited");
		else
			snprintf(lim, sizeof(lim), "%llu KiB", (unsigned long long)rl.rlim_cur >> 10);
	}
	pr_warn("worker %u: cannot register its %s UMEM: it is locked memory, and without "
		"CAP_IPC_LOCK it must fit in the locked-memory limit (RLIMIT_MEMLOCK, now %s, "
		"shared by all of the user's UMEMs): raise it to at least %llu KiB ('ulimit -l "
		"%llu', or unlimited) or run as root with CAP_IPC_LOCK\n",
		w->id, xskf_huge__name(need, sz, sizeof(sz)), lim, (unsigned long long)kib,
		(unsigned long long)kib);
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
	for (i = 0; i < w->nr_socks; i++) {
		struct xskf_sock *s = w->socks[i];
		bool zc = o->bind_mode == XSKF_BIND_ZEROCOPY ||
			  (o->bind_mode == XSKF_BIND_AUTO && o->attach_mode != XSKF_ATTACH_SKB);

		if (i > 0)
			zc = w->socks[0]->zerocopy; /* shared UMEM: the kernel reuses the first mode */
		if (eng->mem) {
			err = xskf_mem__open(s, o);
			goto opened;
		}
		err = xskf_sock__open(s, &w->umem, o, zc);
		if (err == -ENOBUFS && i == 0) {
			memlock_advice(w);
			return err;
		}
		if (err && err != -EBUSY && zc && i == 0 && o->bind_mode == XSKF_BIND_AUTO) {
			pr_info("%s queue %u: zero-copy not available (%s): using copy mode\n",
				s->port->name, s->queue, strerror(-err));
			err = xskf_sock__open(s, &w->umem, o, false);
		}
		if (err) {
			if (err == -EOPNOTSUPP && zc)
				pr_warn("%s queue %u: zero-copy is not supported by this driver: use -c "
					"(copy mode) or leave the mode on auto\n",
					s->port->name, s->queue);
			else if (err == -EBUSY)
				pr_warn("%s queue %u: busy, another AF_XDP socket is bound to it\n",
					s->port->name, s->queue);
			else if (err == -EPERM)
				pr_warn("%s queue %u: permission denied: run as root\n", s->port->name,
					s->queue);
			else
				pr_warn("%s queue %u: cannot open the AF_XDP socket: %s\n",
					s->port->name, s->queue, strerror(-err));
			return err;
		}
opened:
		if (err)
			return err;
		s->txq_mask = txq_slots(o) - 1;
		s->txq = calloc(s->txq_mask + 1, sizeof(*s->txq));
		if (!s->txq)
			return -ENOMEM;
		if (!tx_only)
			prime_fill(s, &w->umem);
	}
	if (eng->mem) {
		err = xskf_mem__prime(eng, &w->umem);
		if (err)
			return err;
		w->mem_left = o->mem_frames ? o->mem_frames : UINT64_MAX;
	}
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
		eng->mem ? "memory backend" : w->socks[0]->zerocopy ? "zero-copy" : "copy mode");
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
	/* the per-packet path needs none; CAP_NET_ADMIN stays for a crash's detach (privs.c) */
	err = w->eng->mem ? 0 : xskf_privs__keep(1ull << CAP_NET_ADMIN);
	if (err)
		pr_warn("warning: worker %u: cannot drop its capabilities: %s\n", w->id,
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

		p->rss = xskf_rss__for_ifname(p->name, &key_err);
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

static void fatal_signal(int sig)
{
	xskf_prog__emergency_detach();
	xskf_ctl__emergency_unlink();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_fatal_handlers(void)
{
	/* synchronous faults: returning would run the faulting instruction again (run.c says more) */
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGSYS, SIGTRAP };
	struct sigaction sa = { .sa_handler = fatal_signal, .sa_flags = SA_RESETHAND };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static void teardown(struct xskf_engine *eng)
{
	unsigned int i;

	for (i = 0; i < eng->nr_ports; i++)
		xskf_prog__teardown(&eng->ports[i]);
	for (i = 0; i < eng->nr_socks; i++) {
		xskf_sock__close(&eng->socks[i]);
		xskf_mem__close_rings(eng->socks[i].mem);
		eng->socks[i].mem = NULL;
		free(eng->socks[i].txq);
		eng->socks[i].txq = NULL;
	}
	for (i = 0; i < eng->nr_workers; i++)
		xskf_umem__free(&eng->workers[i].umem);
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

	install_fatal_handlers();
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

/* The memory backend: UMEMs and rings in plain memory, no program, no privileges. */
static int start_mem(struct xskf_engine *eng)
{
	unsigned int i;
	int err;

	/* before set-up, so that it comes with the refusals above rather than after the attach */
	xskf_watch__mtu(eng, -1);
	err = assign_workers(eng);
	if (err)
		return err;
	eng->started = true;
	err = load_rss_keys(eng);
	for (i = 0; i < eng->nr_workers && !err; i++)
		err = open_worker(eng, &eng->workers[i]);
	if (!err)
		err = app_init(eng);
	if (err) {
		teardown(eng);
		eng->stopped = true;
		return err;
	}
	return start_workers(eng);
}

int xskf_engine__start(struct xskf_engine *eng)
{
	unsigned int i;
	int err;

	if (!eng || eng->started)
		return -EINVAL;
	if (eng->o.bind_mode == XSKF_BIND_ZEROCOPY && eng->o.attach_mode == XSKF_ATTACH_SKB) {
		pr_warn("zero-copy needs native XDP: drop -S or use -c (copy mode)\n");
		return -EOPNOTSUPP;
	}
	if (eng->mem)
		return start_mem(eng);
	err = check_caps();
	if (err)
		return err;
	/* refuse early (program of a live xskf, foreign program) before touching anything */
	for (i = 0; i < eng->nr_ports; i++) {
		err = xskf_prog__preflight(eng, &eng->ports[i]);
		if (err)
			return err;
	}
	/* before set-up, so that it comes with the refusals above rather than after the attach */
	xskf_watch__mtu(eng, -1);
	err = assign_workers(eng);
	if (err)
		return err;
	eng->started = true;
	err = load_rss_keys(eng);
	for (i = 0; i < eng->nr_workers && !err; i++)
		err = open_worker(eng, &eng->workers[i]);
	for (i = 0; i < eng->nr_ports && !err; i++)
		err = xskf_prog__setup(eng, &eng->ports[i]);
	/*
	 * A TX-only app receives nothing: its sockets stay out of the XSKMAP, so the program
	 * passes every frame to the stack and the interface keeps working for the host. The
	 * program is still attached: zero-copy drivers set up their XDP TX rings only with one.
	 */
	if (eng->app.flags & XSKF_APP_F_TX_ONLY)
		pr_info("TX-only app: its sockets receive nothing, the XDP program passes every "
			"frame to the stack\n");
	for (i = 0; i < eng->nr_socks && !err && !(eng->app.flags & XSKF_APP_F_TX_ONLY); i++) {
		struct xskf_sock *s = &eng->socks[i];

		err = xskf_prog__set_xsk(s->port, s->queue, s->fd);
		if (err)
			pr_warn("%s queue %u: cannot enter the socket in the XSKMAP: %s\n", s->port->name,
				s->queue, strerror(-err));
	}
	for (i = 0; i < eng->nr_ports && !err; i++)
		err = xskf_prog__attach(eng, &eng->ports[i]);
	if (!err)
		xskf_csum__probe(eng);
	if (!err)
		err = app_init(eng);
	if (err)
		goto fail;
	err = start_workers(eng);
	if (err)
		return err;
	/* set-up is done: the control thread keeps only what tear-down needs (privs.c) */
	err = xskf_privs__keep(1ull << CAP_NET_ADMIN);
	if (err)
		pr_warn("warning: cannot drop capabilities after set-up: %s\n", strerror(-err));
	else
		pr_debug("capabilities after set-up: CAP_NET_ADMIN only, in every thread\n");
	return 0;
fail:
	teardown(eng);
	eng->stopped = true;
	return err;
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
	for (i = 0; i < eng->nr_ports; i++)
		xskf_prog__detach(&eng->ports[i]);
	for (i = 0; i < eng->nr_workers; i++)
		atomic_store(&eng->workers[i].draining, true);
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
	free(eng->socks);
	free(eng->workers);
	free(eng->huge_dir);
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

bool xskf_engine__csum_repair(const struct xskf_engine *eng)
{
	return eng && eng->o.csum_repair;
}
