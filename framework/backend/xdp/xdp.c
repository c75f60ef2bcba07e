// SPDX-License-Identifier: BSD-2-Clause
/*
 * The xdp backend (the default): AF_XDP sockets (backend/xdp/sock/xsk.c) on real interfaces, fed by our XDP
 * program (backend/xdp/prog/prog.c), watched by the control thread (backend/xdp/watch/watch.c). This file is its entry
 * in the backend table: what the engine's one start and stop sequence asks of a kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/serve/dp_uds.h"
#include "backend/xdp/serve/pin.h"
#include "backend/xdp/watch/rss_key.h"
#include "backend/xdp/serve/served.h"
#include "backend/xdp/xdp_state.h"
#include "json.h"
#include "core/backend.h"
#include "core/idle.h"
#include "core/csum.h"
#include "core/hugepages.h"
#include "backend/xdp/watch/jumbo.h"
#include "backend/xdp/sock/napi.h"
#include "core/sysfs.h"
#include "core/tx_meta.h"
#include "backend/xdp/watch/link.h"
#include "backend/xdp/prog/hints_probe.h"
#include "backend/xdp/prog/features.h"
#include "backend/xdp/prog/prog.h"
#include "backend/xdp/serve/serve_maps.h"
#include "backend/xdp/watch/promisc.h"
#include "backend/xdp/watch/watch.h"
#include "backend/xdp/sock/sock.h"
#include "backend/xdp/sock/txmd.h"
#include "backend/xdp/doctor/doctor_cmd.h"

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

/* Refuse early (program of a live xskf, foreign program) before touching anything. */
static int xdp_preflight(struct xskf_engine *eng)
{
	unsigned int i;
	int err;

	if (xskf_served__on(eng)) { /* another's program: its XSKMAP is all we use */
		err = xskf_served__preflight(eng);
	} else {
		err = check_caps();
		for (i = 0; i < eng->nr_ports && !err; i++)
			err = xskf_prog__preflight(eng, &eng->ports[i]);
	}
	/* before set-up, so that it comes with the refusals above rather than after the attach;
	 * multi-buffer first: it decides which frames are too long */
	if (!err)
		err = xskf_jumbo__decide(eng);
	if (!err)
		xskf_watch__mtu(eng, -1);
	return err;
}

static int add_port(struct xskf_engine *eng, struct xskf_port *p, const char *ifname,
		    const uint32_t *queues, unsigned int nr_queues)
{
	bool given = nr_queues != 0; /* -q: a queue also served is an error, not left out */
	unsigned int i, j;

	if (strlen(ifname) >= IF_NAMESIZE || !if_nametoindex(ifname)) {
		pr_warn("interface '%s' not found: check 'ip link' (in a network namespace, run under "
			"'ip netns exec NS')\n",
			ifname);
		return -ENODEV;
	}
	p->ifindex = (int)if_nametoindex(ifname);
	xskf_xdp_port(p)->share.lock_fd = -1;
	p->nr_hw_queues = (unsigned int)xskf_count_rx_queues(ifname);
	p->numa_node = (int)xskf_sysfs__long("/sys/class/net/%s/device/numa_node", ifname);
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
	return xskf_pin__serve_queues(eng, p, given);
}

/* A port's own state (struct xskf_xdp_port) first: fini() frees it with the engine. */
static int xdp_add_port(struct xskf_engine *eng, struct xskf_port *p, const char *ifname,
			const uint32_t *queues, unsigned int nr_queues)
{
	struct xskf_xdp_port *xp = calloc(1, sizeof(*xp));
	int err;

	if (!xp)
		return -ENOMEM;
	xp->prog_fd = -1;
	p->be_priv = xp;
	err = add_port(eng, p, ifname, queues, nr_queues);
	if (err) {
		free(xp);
		p->be_priv = NULL;
	}
	return err;
}

/* What an interface's kernel cannot do with these options: said in one line. */
static int xdp_check(const struct xskf_engine_opts *o)
{
	struct xskf_napi_req req;

	/*
	 * -B with -c is no refusal: a socket has a NAPI ID wherever its driver names a NAPI for
	 * the queue, copy mode included (NIC drivers; veth names none). Which sockets have one is
	 * known once they are bound: xdp_idle_prepare() falls back, in one line, for the rest.
	 */
	return o->napi ? xskf_napi__parse(o->napi, &req) : 0;
}

static int xdp_init(struct xskf_engine *eng)
{
	struct xskf_xdp_engine *x = calloc(1, sizeof(*x));

	if (!x)
		return -ENOMEM;
	if (eng->o.napi)
		xskf_napi__parse(eng->o.napi, &x->napi_req); /* checked by xdp_check() */
	eng->be_priv = x;
	return 0;
}

static void xdp_fini(struct xskf_engine *eng)
{
	unsigned int i;

	for (i = 0; i < eng->nr_ports; i++) {
		xskf_steer__free(&eng->ports[i]);
		if (eng->ports[i].be_priv)
			xskf_promisc__release(&eng->ports[i]);
		free(eng->ports[i].be_priv);
		eng->ports[i].be_priv = NULL;
	}
	free(eng->be_priv);
	eng->be_priv = NULL;
}

static int xdp_drops(const struct xskf_sock *s, uint64_t *ring_full, uint64_t *dropped)
{
	struct xdp_statistics k;
	int err = xskf_sock__kstats(s, &k);

	if (err)
		return err;
	*ring_full = k.rx_ring_full;
	*dropped = k.rx_dropped;
	return 0;
}

static int xdp_rss_key(const struct xskf_port *p, uint8_t *key, size_t *len)
{
	return xskf_rss__read_key(p->name, key, len);
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

/* Open @s in one mode; then its TX metadata offloads, said once per port (tx_meta.c). */
static int xdp_open_sock_mode(struct xskf_worker *w, struct xskf_sock *s, unsigned int i,
			      bool zc)
{
	unsigned int j;
	bool say = w->id == 0;
	int err = xskf_sock__open(s, &w->umem, &w->eng->o, zc);

	if (err)
		return err;
	for (j = 0; j < i; j++)
		say = say && w->socks[j]->port != s->port;
	xskf_txmd__setup_sock(w->eng, s, say);
	return 0;
}

/* The driver of @ifindex says it takes one buffer per zero-copy frame (netdev netlink). */
static bool zc_one_seg(int ifindex)
{
	uint32_t segs = 0;

	return !xskf_netdev__zc_max_segs(ifindex, &segs) && segs == 1;
}

static int xdp_open_sock(struct xskf_worker *w, struct xskf_sock *s, unsigned int i)
{
	const struct xskf_engine_opts *o = &w->eng->o;
	bool zc = o->bind_mode == XSKF_BIND_ZEROCOPY ||
		  (o->bind_mode == XSKF_BIND_AUTO && o->attach_mode != XSKF_ATTACH_SKB);
	int err;

	if (i > 0)
		zc = w->socks[0]->zerocopy; /* shared UMEM: the kernel reuses the first mode */
	err = xdp_open_sock_mode(w, s, i, zc);
	if (err == -ENOBUFS && i == 0) {
		memlock_advice(w);
		return err;
	}
	if (err && err != -EBUSY && zc && i == 0 && o->bind_mode == XSKF_BIND_AUTO) {
		pr_info("%s queue %u: zero-copy not available (%s): using copy mode\n", s->port->name,
			s->queue, strerror(-err));
		err = xdp_open_sock_mode(w, s, i, false);
	}
	if (!err)
		return 0;
	if (err == -EOPNOTSUPP && zc && w->eng->sg && zc_one_seg(s->port->ifindex))
		/* the kernel refuses XDP_USE_SG when the driver's xdp-zc-max-segs is 1 */
		pr_warn("%s queue %u: the driver takes no multi-buffer zero-copy (xdp-zc-max-segs 1), "
			"and the MTU needs %u buffers per frame: use -c (copy mode) or an MTU whose "
			"frames fit one buffer\n",
			s->port->name, s->queue, w->eng->sg_segs);
	else if (err == -EOPNOTSUPP && zc)
		pr_warn("%s queue %u: zero-copy is not supported by this driver: use -c (copy mode) or "
			"leave the mode on auto\n",
			s->port->name, s->queue);
	else if (err == -EBUSY)
		pr_warn("%s queue %u: busy, another AF_XDP socket is bound to it (still after 3 s)\n",
			s->port->name, s->queue);
	else if (err == -EPERM)
		pr_warn("%s queue %u: permission denied: run as root\n", s->port->name, s->queue);
	else
		pr_warn("%s queue %u: cannot open the AF_XDP socket: %s\n", s->port->name, s->queue,
			strerror(-err));
	return err;
}

static const char *xdp_sock_mode(const struct xskf_sock *s);
static void xdp_idle_prepare(struct xskf_engine *eng);

/*
 * Program loaded, sockets entered in the XSKMAP, then attached: once the program is visible on
 * the interface, every queue already has its socket.
 */
static int xdp_attach(struct xskf_engine *eng)
{
	bool tx_only = eng->app.flags & XSKF_APP_F_TX_ONLY;
	struct xskf_link_seen link[XSKF_MAX_PORTS];
	unsigned int i;
	int err = 0;

	if (xskf_served__on(eng)) {
		err = xskf_served__attach(eng);
		goto attached;
	}
	/* what xskf doctor would say first: the queue outside RSS, the worker on the IRQ's CPU */
	xskf_dr__startup(eng);
	for (i = 0; i < eng->nr_ports && !err; i++)
		err = xskf_prog__setup(eng, &eng->ports[i]);
	/*
	 * A TX-only app receives nothing: its sockets stay out of the XSKMAP, so the program
	 * passes every frame to the stack and the interface keeps working for the host. The
	 * program is still attached: zero-copy drivers set up their XDP TX rings only with one.
	 */
	if (tx_only)
		pr_info("TX-only app: its sockets receive nothing, the XDP program passes every "
			"frame to the stack\n");
	for (i = 0; i < eng->nr_socks && !err && !tx_only; i++) {
		struct xskf_sock *s = &eng->socks[i];

		err = xskf_prog__set_xsk(s->port, s->queue, s->fd);
		if (err)
			pr_warn("%s queue %u: cannot enter the socket in the XSKMAP: %s\n", s->port->name,
				s->queue, strerror(-err));
	}
	xskf_link__before_attach(eng, link);
	for (i = 0; i < eng->nr_ports && !err; i++)
		err = xskf_prog__attach(eng, &eng->ports[i]);
	/* igb resets its link at the attach: the run is up once frames can arrive */
	if (!err)
		xskf_link__after_attach(eng, link);
	/* the maps for other AF_XDP apps, once the program runs (--pin-dir, --serve: pin.c) */
	for (i = 0; i < eng->nr_ports && !err; i++) {
		err = xskf_serve_maps__make(&eng->ports[i]);
		if (!err)
			err = xskf_pin__port(eng, &eng->ports[i]);
		if (!err)
			xskf_pin__served_line(eng, &eng->ports[i]);
	}
	if (!err)
		err = xskf_dp_uds__open(eng);
attached:
	/* unfinished checksums the interfaces will hand us (csum_watch.c) */
	if (!err)
		xskf_csum__probe(eng);
	/* the idle wait: epoll where it busy polls (--napi irq-suspend= needs it, so first) */
	if (!err)
		xdp_idle_prepare(eng);
	/* NAPI settings: a dead run's put back, --napi's made (veth has NAPIs once attached) */
	if (!err)
		err = xskf_napi__start(eng);
	return err;
}

static void xdp_detach(struct xskf_engine *eng)
{
	unsigned int i;

	/* while the NAPIs are there: veth deletes its NAPIs with the program */
	xskf_napi__restore(eng);
	xskf_dp_uds__close(); /* no new app finds maps that are going */
	xskf_served__detach(eng);
	for (i = 0; i < eng->nr_ports; i++) {
		xskf_pin__unpin(&eng->ports[i]);
		xskf_prog__detach(&eng->ports[i]);
	}
}

static void xdp_teardown(struct xskf_engine *eng)
{
	unsigned int i;

	xskf_napi__restore(eng); /* a failed start: nothing of ours stays changed */
	xskf_dp_uds__close();
	xskf_served__detach(eng);
	for (i = 0; i < eng->nr_ports; i++) {
		xskf_pin__unpin(&eng->ports[i]);
		xskf_prog__teardown(&eng->ports[i]);
	}
}

static void xdp_kstats(const struct xskf_sock *s, struct xskf_queue_stats *st)
{
	struct xdp_statistics k;
	uint64_t prog[3];

	if (!xskf_sock__kstats(s, &k)) {
		st->k_rx_dropped = k.rx_dropped;
		st->k_rx_invalid_descs = k.rx_invalid_descs;
		st->k_tx_invalid_descs = k.tx_invalid_descs;
		st->k_rx_ring_full = k.rx_ring_full;
		st->k_rx_fill_ring_empty_descs = k.rx_fill_ring_empty_descs;
		st->k_tx_ring_empty_descs = k.tx_ring_empty_descs;
	}
	if (!xskf_prog__counters(s->port, s->queue, prog)) {
		st->prog_redirected = prog[0];
		st->prog_passed = prog[1];
		st->prog_errors = prog[2];
	}
}

static int xdp_port_info(const struct xskf_engine *eng, const struct xskf_port *p,
			 struct xskf_port_info *pi)
{
	struct ifreq ifr = {};
	int fd, err = 0;

	(void)eng;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->name);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		err = -errno;
		goto out;
	}
	memcpy(pi->mac, ifr.ifr_hwaddr.sa_data, sizeof(pi->mac));
	if (ioctl(fd, SIOCGIFMTU, &ifr)) {
		err = -errno;
		goto out;
	}
	pi->mtu = (uint32_t)ifr.ifr_mtu;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		err = -errno;
		goto out;
	}
	pi->up = ifr.ifr_flags & IFF_UP;
	pi->running = ifr.ifr_flags & IFF_RUNNING;
out:
	close(fd);
	return err;
}

/*
 * The wait: poll() on the worker's XSK fds (POLLIN: a frame on an RX ring) and its eventfd, or
 * epoll_wait() on the same fds where epoll busy polls (xdp_idle_prepare()). Either way the
 * revents are left in w->idle.pfd, so idle.c sees the eventfd's as before.
 */
static int xdp_wait(struct xskf_worker *w, int timeout_ms)
{
	struct xskf_idle_state *id = &w->idle;
	struct epoll_event ev[XSKF_MAX_PORTS * 8 + 1];
	int n, i, max;

	if (id->epfd < 0)
		return poll(id->pfd, id->nr_pfd, timeout_ms);
	for (i = 0; i < (int)id->nr_pfd; i++)
		id->pfd[i].revents = 0;
	/* a worker may have more fds than ev holds: the others stay ready for the next wait */
	max = id->nr_pfd < sizeof(ev) / sizeof(ev[0]) ? (int)id->nr_pfd
						      : (int)(sizeof(ev) / sizeof(ev[0]));
	n = epoll_wait(id->epfd, ev, max, timeout_ms);
	for (i = 0; i < n; i++)
		if (ev[i].data.u32 < id->nr_pfd)
			id->pfd[ev[i].data.u32].revents = (short)ev[i].events;
	return n;
}

/* EPIOCSPARAMS (6.9+, fs/eventpoll.c): not in Debian 12's headers */
struct xdp_epoll_params {
	uint32_t busy_poll_usecs;
	uint16_t busy_poll_budget;
	uint8_t prefer_busy_poll;
	uint8_t pad;
};
#define XDP_EPIOCSPARAMS _IOW(0x8A, 0x01, struct xdp_epoll_params)

/*
 * An epoll instance for worker @w on its eventfd and XSK fds, busy polling: the kernel polls
 * the sockets' NAPI for up to the spin bound in epoll_wait() before it sleeps, with preferred
 * busy polling (the condition of IRQ suspension, napi.rst). Returns the fd or -errno; *@step
 * says which call failed.
 */
static int epoll_open(struct xskf_worker *w, const char **step)
{
	const struct xskf_engine_opts *o = &w->eng->o;
	struct xskf_idle_state *id = &w->idle;
	struct xdp_epoll_params ep = {
		.busy_poll_usecs = o->idle == XSKF_IDLE_SLEEP ? 0 : o->idle_spin_us,
		.busy_poll_budget = (uint16_t)(o->busy_poll_budget ? o->busy_poll_budget : o->batch),
		.prefer_busy_poll = 1,
	};
	int fd, err;
	unsigned int i;

	*step = "epoll_create1";
	fd = epoll_create1(EPOLL_CLOEXEC);
	if (fd < 0)
		return -errno;
	*step = "epoll_ctl";
	for (i = 0; i < id->nr_pfd; i++) {
		struct epoll_event e = {.events = EPOLLIN, .data.u32 = i};

		if (epoll_ctl(fd, EPOLL_CTL_ADD, id->pfd[i].fd, &e))
			goto fail;
	}
	*step = "EPIOCSPARAMS";
	if (ioctl(fd, XDP_EPIOCSPARAMS, &ep))
		goto fail;
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

/*
 * How many of the run's sockets the kernel tied to a NAPI (SO_INCOMING_NAPI_ID: zero-copy
 * binds only); *@nonapi: the first that it did not, or NULL. Thread: control thread.
 */
static unsigned int napi_census(const struct xskf_engine *eng, const struct xskf_sock **nonapi)
{
	unsigned int i, n = 0;

	*nonapi = NULL;
	for (i = 0; i < eng->nr_socks; i++) {
		if (xskf_sock__napi_id(&eng->socks[i]))
			n++;
		else if (!*nonapi)
			*nonapi = &eng->socks[i];
	}
	return n;
}

/*
 * Why a socket has no NAPI ID: the kernel gives a socket, at its bind and in either mode, the
 * NAPI its driver names for the queue (netif_queue_set_napi(): NIC drivers such as virtio-net
 * and igb, seen in the lab on 7.3); veth names none.
 */
#define NO_NAPI_WHY                                                                                \
	(xskf_features__probe(XSKF_FEAT_BUSY_POLL) == -ECANCELED                                    \
	     ? "busy_poll forced off by XSKF_FEATURES_OFF"                                          \
	 : xskf_features__probe(XSKF_FEAT_BUSY_POLL)                                                \
	     ? "this kernel gives AF_XDP sockets none: no SO_PREFER_BUSY_POLL, Linux 5.11+"        \
	     : "its driver names no NAPI for the queue, as veth; NIC drivers do, copy mode included")

/*
 * At attach, before --napi: which sockets can busy poll (-B falls back in one line where one
 * cannot: no NAPI ID), and the workers' epoll waits where they can. The epoll wait
 * is used with -B on sockets that all have a NAPI ID; XSKF_IDLE_EPOLL=1 forces it (tests: on
 * veth the kernel takes EPIOCSPARAMS and sleeps as poll() would, without a NAPI to poll).
 */
static void xdp_idle_prepare(struct xskf_engine *eng)
{
	const struct xskf_sock *nonapi;
	const char *env = getenv("XSKF_IDLE_EPOLL"), *step = "";
	bool force = env && !strcmp(env, "1");
	unsigned int i;
	int fd = 0;

	napi_census(eng, &nonapi);
	/* a kernel without SO_PREFER_BUSY_POLL (5.10): the sockets were not asked (xsk.c) */
	if (eng->busy_poll && xskf_features__probe(XSKF_FEAT_BUSY_POLL)) {
		pr_warn("--busy-poll: this kernel has no preferred busy polling (SO_PREFER_BUSY_POLL, "
			"Linux 5.11+: %s): polling the rings without it\n",
			xskf_features__probe(XSKF_FEAT_BUSY_POLL) == -ECANCELED
			    ? "forced off by XSKF_FEATURES_OFF"
			    : strerror(-xskf_features__probe(XSKF_FEAT_BUSY_POLL)));
		eng->busy_poll = false;
	} else if (nonapi && eng->busy_poll) {
		pr_warn("--busy-poll: %s queue %u (%s) is without a NAPI ID (%s): it cannot busy "
			"poll; polling its rings without it\n",
			nonapi->port->name, nonapi->queue, xdp_sock_mode(nonapi), NO_NAPI_WHY);
		eng->busy_poll = false;
	}
	if (eng->o.idle == XSKF_IDLE_BUSY || !(eng->busy_poll || force))
		return;
	for (i = 0; i < eng->nr_workers && fd >= 0; i++) {
		fd = epoll_open(&eng->workers[i], &step);
		if (fd >= 0)
			eng->workers[i].idle.epfd = fd;
	}
	if (fd >= 0)
		return;
	for (i = 0; i < eng->nr_workers; i++)
		if (eng->workers[i].idle.epfd >= 0) {
			close(eng->workers[i].idle.epfd);
			eng->workers[i].idle.epfd = -1;
		}
	if (fd == -ENOTTY || (fd == -EINVAL && !strcmp(step, "EPIOCSPARAMS")))
		pr_info("epoll busy polling: the kernel has no EPIOCSPARAMS (6.9+): workers sleep "
			"in poll(), without IRQ suspension\n");
	else
		pr_info("epoll busy polling: %s: %s: workers sleep in poll(), without IRQ "
			"suspension\n",
			step, strerror(-fd));
}

/*
 * What the kernel can add to sleeping and polling (docs/idle.md): socket and epoll busy
 * polling, IRQ suspension and the NAPI's deferral settings all act on the NAPI a socket is
 * tied to, and the kernel ties an XSK to the one its driver names for the queue (NO_NAPI_WHY:
 * none on veth, in either mode). Sockets without one get none of them, and -B falls back.
 */
static void xdp_idle_help(struct xskf_engine *eng, char *buf, size_t len)
{
	const struct xskf_sock *nonapi;
	unsigned int napi = napi_census(eng, &nonapi);
	char nh[400];

	xskf_napi__help(eng, nh, sizeof(nh));
	if (!napi)
		snprintf(buf, len,
			 "kernel help: %s: busy polling and epoll busy polling act on a socket's "
			 "NAPI, and these sockets have no NAPI ID (%s)%s; %s",
			 xskf_napi__used(eng) ? "busy polling not used" : "none", NO_NAPI_WHY,
			 xskf_idle__epoll(eng) ? " (the idle wait is epoll_wait(), forced by "
						"XSKF_IDLE_EPOLL=1)"
					      : "",
			 nh);
	else
		snprintf(buf, len, "kernel help: %s (%u of %u sockets have a NAPI ID)%s; %s",
			 eng->busy_poll ? "preferred busy polling, budget one batch" :
					  "busy polling off (-B turns it on)",
			 napi, eng->nr_socks,
			 xskf_idle__epoll(eng) ? ", epoll busy polling in the idle wait "
						"(EPIOCSPARAMS, preferred, spin bound)"
					      : "",
			 nh);
}

static const char *xdp_sock_mode(const struct xskf_sock *s)
{
	return s->zerocopy ? "zero-copy" : "copy mode";
}

static void xdp_port_mode(const struct xskf_port *p, const char **attach, const char **redirect)
{
	static const char *const tiers[] = { "redirect_xsk", "xskmap", "xskmap_lookup" };

	*attach = !xskf_xdp_port(p)->attached && !xskf_xdp_port(p)->skel
		      ? "served" /* another's program (served.c) */
		  : xskf_xdp_port(p)->attach_flags == XDP_FLAGS_SKB_MODE ? "skb"
									 : "native";
	*redirect = tiers[xskf_xdp_port(p)->tier];
}

/* The stats document's port members: --serve's queues (other apps' sockets) and the folder
 * their maps are pinned in (pin.c), null when none */
static void xdp_port_json(const struct xskf_port *p, struct xjw *w)
{
	const struct xskf_xdp_port *xp = xskf_xdp_port(p);
	unsigned int k;

	xjw_arr(w, "served", NULL);
	for (k = 0; k < xp->nr_served; k++)
		xjw_u64(w, NULL, xp->served[k]);
	xjw_end(w, NULL);
	xjw_str(w, "pinned", xp->pin_path[0] ? xp->pin_path : NULL);
}

/* Port settings the engine's API asks for: promiscuous mode (promisc.c). */
static int xdp_port_ctl(struct xskf_port *p, enum xskf_port_ctl what)
{
	return what == XSKF_PORT_CTL_PROMISC ? xskf_promisc__take(p) : -EOPNOTSUPP;
}

/*
 * The fatal-signal handler's (async-signal-safe): our program off the interfaces, then the maps
 * we pinned and the device-plugin socket's file, which must not outlive a crashed run.
 */
static void xdp_emergency(void)
{
	xskf_prog__emergency_detach();
	xskf_pin__emergency();
	xskf_dp_uds__emergency();
}

/* The watch: the device-plugin socket's clients (--serve-uds), then ports and programs. */
static int xdp_watch(struct xskf_engine *eng)
{
	xskf_dp_uds__serve(eng);
	return xskf_watch__ports(eng);
}

/*
 * What the control thread keeps after set-up: CAP_NET_ADMIN to detach at exit; with a
 * component in libxdp's dispatcher also CAP_SYS_ADMIN and CAP_BPF, which libxdp needs to take
 * it out (it opens the dispatcher by id, BPF_PROG_GET_FD_BY_ID, and loads a new dispatcher for
 * the programs that stay) and the watch to find it in a new dispatcher when another program
 * joins or leaves. Without them the exit left our component in the dispatcher (ENOENT).
 */
static uint64_t xdp_keep_caps(struct xskf_engine *eng)
{
	uint64_t keep = 1ull << CAP_NET_ADMIN;
	unsigned int i;
	int err;

	for (i = 0; i < eng->nr_ports; i++)
		if (xskf_xdp_port(&eng->ports[i])->disp.on)
			keep |= 1ull << CAP_SYS_ADMIN | 1ull << 39 /* CAP_BPF */;
	/* a kernel that refuses bpf() on held fds to a thread without them (before 6.5) */
	err = xskf_features__probe(XSKF_FEAT_BPF_NOCAP);
	if (err) {
		pr_info("the control thread keeps CAP_BPF and CAP_SYS_ADMIN after set-up: this kernel "
			"refuses bpf() on the fds it holds to a thread without them (%s; "
			"kernel.unprivileged_bpf_disabled before Linux 6.5), and it reads the "
			"program's counters with them\n",
			err == -ECANCELED ? "forced off by XSKF_FEATURES_OFF" : strerror(-err));
		keep |= 1ull << CAP_SYS_ADMIN | 1ull << 39 /* CAP_BPF */;
	}
	return keep;
}

/* No step: the kernel serves the rings by itself. */
/* The commands this backend adds to xskf (core/backend.h): the runner finds them by name. */
static const struct xskf_backend_cmd xdp_cmds[] = {
	{ "features",
	  "       xskf features [-i IFACE] [--json]   the kernel features xskf probes, and\n"
	  "                             what it does without each\n",
	  xskf_features__cmd },
	{ "doctor",
	  "       xskf doctor -i IFACE [-q Q]... [--json]   why frames would not reach\n"
	  "                             a run's sockets, with the fix (xskf-doctor(1))\n",
	  xskf_doctor__cmd },
	{ NULL, NULL, NULL },
};

const struct xskf_backend_ops xskf_backend_xdp = {
	.name = "xdp",
	.cmds = xdp_cmds,
	.wakeups = true, .caps = true,
	.check = xdp_check, .init = xdp_init, .fini = xdp_fini,
	.emergency = xdp_emergency, .keep_caps = xdp_keep_caps,
	/* start and stop */
	.preflight = xdp_preflight, .add_port = xdp_add_port, .open_sock = xdp_open_sock,
	.attach = xdp_attach, .detach = xdp_detach, .teardown = xdp_teardown,
	.close_sock = xskf_sock__close,
	/* what the control thread asks */
	.drops = xdp_drops, .rss_key = xdp_rss_key,
	.kstats = xdp_kstats, .port_info = xdp_port_info, .watch = xdp_watch,
	.sock_mode = xdp_sock_mode, .port_mode = xdp_port_mode, .port_json = xdp_port_json,
	.port_ctl = xdp_port_ctl,
	/* idle workers: their sleep, and what the kernel adds */
	.wait = xdp_wait, .idle_help = xdp_idle_help,
	/* xskfctl doctor: the program's counters of every queue, NAPI IDs, interrupts */
	.doctor = xskf_xdp__doctor,
};
