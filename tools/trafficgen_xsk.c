// SPDX-License-Identifier: BSD-2-Clause
/*
 * The second sending method of xskf-trafficgen, for kernels that refuse live-frame test runs:
 * an AF_XDP socket in copy mode, TX only, on the generator's own interface. No XDP program is
 * loaded there (XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD, no RX ring): a TX-only socket needs none.
 *
 * Copy mode hands each descriptor to the driver as an skb (__dev_direct_xmit() on the socket's
 * queue). veth's ndo_start_xmit puts it into the peer's RX queue of the same index
 * (skb->queue_mapping = the socket's queue id), so binding to queue cpu % queues keeps the
 * live-frames rule "peer RX queue = sending CPU % queues".
 *
 * What sendto() tells, per kick (net/xdp/xsk.c, xsk_generic_xmit()):
 *  - -EAGAIN: the device said NETDEV_TX_BUSY (veth since 6.16 stops its queue when the peer's
 *    ring is full: backpressure), or the socket ran out of skb memory or completion slots. The
 *    descriptor stays in the TX ring: kick again.
 *  - -EBUSY: the device dropped the frame (NET_XMIT_DROP: veth before 6.16, or with no qdisc,
 *    when the peer's ring is full). The kernel stops at that frame, so one -EBUSY is one drop;
 *    the frame is consumed and its completion posted like a sent one.
 * Hence sent = completions - drops, exactly, without the device's counters.
 */
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <net/if.h>
#include <linux/if_xdp.h>
#include <xdp/libxdp.h>
#include <xdp/xsk.h>

#include "trafficgen.h"

#ifndef SOL_XDP
#define SOL_XDP 283
#endif
/* since 6.17: how many descriptors one sendto() turns into skbs (default 32) */
#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET 9
#endif

#define TG_XSK_RING	  2048		    /* TX and completion ring entries */
#define TG_XSK_FRAMES	  (2 * TG_XSK_RING) /* a full TX ring plus a full completion ring */
#define TG_XSK_FRAME_SIZE 2048		    /* the smallest UMEM chunk; > TG_MAX_SIZE */

struct tg_xsk {
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct xsk_ring_prod fill, tx;
	struct xsk_ring_cons comp;
	uint8_t *area;
	uint64_t free[TG_XSK_FRAMES]; /* UMEM addresses not in the kernel's hands */
	uint32_t nfree;
	uint32_t size;
	const struct tg_layout *lay;
	uint16_t sport;
	uint32_t flows;
	uint32_t batch;
	struct tg_xsk_stats st;
};

int tg_if_tx_queues(const char *ifname)
{
	char path[64 + IFNAMSIZ];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "tx-", 3);
	closedir(d);
	return n ? n : 1;
}

static int quiet_print(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* Ask for one kick to turn the whole TX ring into skbs; 6.17+, else the kernel's 32 stay. */
static void raise_budget(struct tg_xsk *x)
{
	int budget = TG_XSK_RING;

	if (!setsockopt(xsk_socket__fd(x->xsk), SOL_XDP, XDP_MAX_TX_SKB_BUDGET, &budget,
			sizeof(budget)))
		x->st.budget = budget;
}

/*
 * The UMEM and the socket. -EBUSY from bind() may be the previous generator's socket on this
 * queue: the kernel releases its buffer pool, and with it the queue, from a workqueue after
 * close(), so a run right after another can find the queue still taken for a moment.
 */
static int create_socket(struct tg_xsk *x, const struct tg_xsk_cfg *cfg, size_t len)
{
	struct xsk_umem_config ucfg = { .fill_size = 64, .comp_size = TG_XSK_RING,
					.frame_size = TG_XSK_FRAME_SIZE };
	struct xsk_socket_config scfg = { .tx_size = TG_XSK_RING,
					  .libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
					  .bind_flags = XDP_COPY };
	int err, tries;

	for (tries = 0;; tries++) {
		x->umem = NULL;
		err = xsk_umem__create(&x->umem, x->area, len, &x->fill, &x->comp, &ucfg);
		if (err)
			return err < 0 ? err : -err;
		err = xsk_socket__create(&x->xsk, cfg->ifname, cfg->queue, x->umem, NULL, &x->tx,
					 &scfg);
		if (!err)
			return 0;
		xsk_umem__delete(x->umem);
		x->umem = NULL;
		err = err < 0 ? err : -err;
		if (err != -EBUSY || tries >= 200)
			return err;
		usleep(10000); /* up to 2 s: the release is a work item, it runs soon */
	}
}

int tg_xsk__open(struct tg_xsk **out, const struct tg_xsk_cfg *cfg)
{
	size_t len = (size_t)TG_XSK_FRAMES * TG_XSK_FRAME_SIZE;
	struct tg_xsk *x;
	uint32_t i;
	int err;

	if (!cfg->verbose)
		libxdp_set_print(quiet_print);
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (x->area == MAP_FAILED) {
		err = -errno;
		free(x);
		return err;
	}
	err = create_socket(x, cfg, len);
	if (err) {
		munmap(x->area, len);
		free(x);
		return err;
	}
	/* every frame starts as the template; tg_pkt_stamp() then changes its own fields only */
	for (i = 0; i < TG_XSK_FRAMES; i++) {
		memcpy(x->area + (uint64_t)i * TG_XSK_FRAME_SIZE, cfg->frame, cfg->size);
		x->free[i] = (uint64_t)i * TG_XSK_FRAME_SIZE;
	}
	x->nfree = TG_XSK_FRAMES;
	x->size = cfg->size;
	x->lay = cfg->lay;
	x->sport = cfg->sport;
	x->flows = cfg->flows;
	x->batch = cfg->batch ? cfg->batch : TG_XSK_RING;
	x->st.budget = 32;
	raise_budget(x);
	*out = x;
	return 0;
}

/* Take back the frames the kernel is done with (sent or dropped). */
static void reclaim(struct tg_xsk *x)
{
	uint32_t idx, n, i;

	n = xsk_ring_cons__peek(&x->comp, TG_XSK_RING, &idx);
	for (i = 0; i < n; i++)
		x->free[x->nfree++] = *xsk_ring_cons__comp_addr(&x->comp, idx + i);
	xsk_ring_cons__release(&x->comp, n);
	x->st.completed += n;
}

/* Have the kernel turn the TX ring into skbs; see the header for what the errors mean. */
static int kick(struct tg_xsk *x)
{
	x->st.kicks++;
	if (sendto(xsk_socket__fd(x->xsk), NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
		return 0;
	switch (errno) {
	case EAGAIN:
		x->st.busy++;
		return 0;
	case EBUSY:
		x->st.dropped++;
		return 0;
	case EINTR:
		return 0;
	default:
		return -errno;
	}
}

int tg_xsk__send(struct tg_xsk *x, uint64_t n, volatile sig_atomic_t *stop)
{
	uint32_t idx, want, got, i;
	int err;

	while (n && !*stop) {
		reclaim(x);
		want = n < x->nfree ? (uint32_t)n : x->nfree;
		if (want > x->batch)
			want = x->batch;
		got = want ? xsk_ring_prod__reserve(&x->tx, want, &idx) : 0;
		for (i = 0; i < got; i++) {
			struct xdp_desc *d = xsk_ring_prod__tx_desc(&x->tx, idx + i);

			d->addr = x->free[--x->nfree];
			d->len = x->size;
			d->options = 0;
			tg_pkt_stamp(x->area + d->addr, x->lay, x->sport, x->flows,
				     x->st.made + i);
		}
		if (got) {
			xsk_ring_prod__submit(&x->tx, got);
			x->st.made += got;
			n -= got;
		}
		err = kick(x);
		if (err)
			return err;
	}
	return *stop ? -EINTR : 0;
}

/* The socket's own counters: descriptors it refused, and kicks that found the ring empty. */
static void read_stats(struct tg_xsk *x)
{
	struct xdp_statistics s = {};
	socklen_t len = sizeof(s);

	if (getsockopt(xsk_socket__fd(x->xsk), SOL_XDP, XDP_STATISTICS, &s, &len))
		return;
	x->st.invalid = s.tx_invalid_descs;
	x->st.ring_empty = s.tx_ring_empty_descs;
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int tg_xsk__drain(struct tg_xsk *x, double timeout)
{
	uint64_t last = x->st.completed;
	double t_last = mono();
	unsigned int idle = 0;
	int err;

	read_stats(x);
	/* an invalid descriptor is consumed without a completion: it is done too */
	while (x->st.completed + x->st.invalid < x->st.made) {
		err = kick(x);
		if (err)
			return err;
		reclaim(x);
		if (x->st.completed != last) {
			last = x->st.completed;
			t_last = mono();
			idle = 0;
			continue;
		}
		if (++idle % 1024 == 0) {
			read_stats(x);
			if (mono() - t_last > timeout)
				return -ETIMEDOUT;
			usleep(50);
		}
	}
	read_stats(x);
	return 0;
}

const struct tg_xsk_stats *tg_xsk__stats(const struct tg_xsk *x)
{
	return &x->st;
}

void tg_xsk__close(struct tg_xsk *x)
{
	if (!x)
		return;
	xsk_socket__delete(x->xsk);
	xsk_umem__delete(x->umem);
	munmap(x->area, (size_t)TG_XSK_FRAMES * TG_XSK_FRAME_SIZE);
	free(x);
}
