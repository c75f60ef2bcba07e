// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-refloop - the smallest AF_XDP loop we know how to write with libxdp, as a reference for
 * the benchmarks (bench/rxdrop.sh, bench/l2fwd.sh): one socket, one UMEM, libxdp's own
 * XDP program, no framework. It is what xskf's per-packet path is measured against on the same
 * bed, so it does the same work and nothing more:
 *
 *   rxdrop   peek up to BATCH RX descriptors, give their frames straight back to the fill ring
 *   macswap  swap the Ethernet addresses and put the frames on the TX ring; completed frames
 *            go back to the fill ring; sendto() kicks when the kernel asks (always in copy mode)
 *
 * Not an app of the framework and not for production: no statistics, no hugepages, no
 * accounting, no clean-up beyond libxdp's.
 *
 *   xsk-refloop -i IFACE [-q Q] [-b BATCH] [-d SECONDS] [--cpus N] [-m rxdrop|macswap] [-c|-z]
 * Prints one JSON line at the end: {"rx": N, "tx": N, "seconds": S, "kernel": {...}}, the last
 * the socket's XDP_STATISTICS (what the kernel dropped, and why), as xsk-rxdrop --json has them.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <xdp/xsk.h>

#define NUM_FRAMES 8192
#define FRAME_SIZE XSK_UMEM__DEFAULT_FRAME_SIZE
#define RING_SIZE  2048

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void __attribute__((noreturn)) die(const char *what, int err)
{
	fprintf(stderr, "xsk-refloop: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

struct ref {
	struct xsk_ring_prod fill, tx;
	struct xsk_ring_cons comp, rx;
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	void *area;
	uint64_t rx_n, tx_n;
	uint32_t outstanding; /* frames on the TX ring, not yet completed */
};

/* Frames back to the fill ring; blocks only until the ring has room, which it always has. */
static void to_fill(struct ref *r, const uint64_t *addrs, uint32_t n)
{
	uint32_t idx, i;

	while (xsk_ring_prod__reserve(&r->fill, n, &idx) != n)
		if (stop)
			return;
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&r->fill, idx + i) = addrs[i];
	xsk_ring_prod__submit(&r->fill, n);
}

static void reap(struct ref *r)
{
	uint64_t addrs[RING_SIZE];
	uint32_t idx, n, i;

	n = xsk_ring_cons__peek(&r->comp, RING_SIZE, &idx);
	if (!n)
		return;
	for (i = 0; i < n; i++)
		addrs[i] = *xsk_ring_cons__comp_addr(&r->comp, idx + i);
	xsk_ring_cons__release(&r->comp, n);
	r->outstanding -= n;
	r->tx_n += n;
	to_fill(r, addrs, n);
}

static void loop(struct ref *r, uint32_t batch, bool macswap, double end)
{
	uint64_t addrs[256];
	uint32_t idx, n, i, tidx;
	unsigned int spins = 0;

	while (!stop) {
		if (!(++spins & 0xffff) && now_s() >= end)
			break;
		if (macswap && r->outstanding) {
			/* copy mode sends only inside sendto(): kick whenever frames wait */
			sendto(xsk_socket__fd(r->xsk), NULL, 0, MSG_DONTWAIT, NULL, 0);
			reap(r);
		}
		n = xsk_ring_cons__peek(&r->rx, batch, &idx);
		if (!n) {
			if (xsk_ring_prod__needs_wakeup(&r->fill))
				recvfrom(xsk_socket__fd(r->xsk), NULL, 0, MSG_DONTWAIT, NULL, NULL);
			continue;
		}
		r->rx_n += n;
		if (!macswap) {
			for (i = 0; i < n; i++)
				addrs[i] = xsk_umem__extract_addr(
				    xsk_ring_cons__rx_desc(&r->rx, idx + i)->addr);
			xsk_ring_cons__release(&r->rx, n);
			to_fill(r, addrs, n);
			continue;
		}
		while (xsk_ring_prod__reserve(&r->tx, n, &tidx) != n) {
			sendto(xsk_socket__fd(r->xsk), NULL, 0, MSG_DONTWAIT, NULL, 0);
			reap(r);
			if (stop)
				return;
		}
		for (i = 0; i < n; i++) {
			const struct xdp_desc *d = xsk_ring_cons__rx_desc(&r->rx, idx + i);
			struct xdp_desc *t = xsk_ring_prod__tx_desc(&r->tx, tidx + i);
			uint8_t *p = xsk_umem__get_data(r->area, d->addr), tmp[6];

			memcpy(tmp, p, 6);
			memcpy(p, p + 6, 6);
			memcpy(p + 6, tmp, 6);
			t->addr = d->addr;
			t->len = d->len;
		}
		xsk_ring_prod__submit(&r->tx, n);
		xsk_ring_cons__release(&r->rx, n);
		r->outstanding += n;
	}
}

int main(int argc, char **argv)
{
	static const struct option lo[] = { { "cpus", required_argument, NULL, 'C' }, {} };
	const char *ifname = NULL;
	uint32_t queue = 0, batch = 64, idx, i;
	double secs = 0, t0, took;
	bool macswap = false;
	uint16_t bind = XDP_COPY;
	int cpu = -1, c, err;
	struct ref r = {};
	struct xdp_statistics st = {};

	while ((c = getopt_long(argc, argv, "i:q:b:d:m:cz", lo, NULL)) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'q': queue = (uint32_t)atoi(optarg); break;
		case 'b': batch = (uint32_t)atoi(optarg); break;
		case 'd': secs = atof(optarg); break;
		case 'm': macswap = !strcmp(optarg, "macswap"); break;
		case 'c': bind = XDP_COPY; break;
		case 'z': bind = XDP_ZEROCOPY; break;
		case 'C': cpu = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: xsk-refloop -i IFACE [-q Q] [-b BATCH] [-d SECONDS] "
					"[--cpus N] [-m rxdrop|macswap] [-c|-z]\n");
			return 2;
		}
	}
	if (!ifname || !batch || batch > 256) {
		fprintf(stderr, "xsk-refloop: needs -i IFACE and a batch of 1..256\n");
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	r.area = mmap(NULL, (size_t)NUM_FRAMES * FRAME_SIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (r.area == MAP_FAILED)
		die("mmap", errno);
	err = xsk_umem__create(&r.umem, r.area, (uint64_t)NUM_FRAMES * FRAME_SIZE, &r.fill, &r.comp,
			       &(struct xsk_umem_config){ .fill_size = RING_SIZE,
							  .comp_size = RING_SIZE,
							  .frame_size = FRAME_SIZE });
	if (err)
		die("xsk_umem__create", err);
	err = xsk_socket__create(&r.xsk, ifname, queue, r.umem, &r.rx, &r.tx,
				 &(struct xsk_socket_config){
				     .rx_size = RING_SIZE,
				     .tx_size = RING_SIZE,
				     .xdp_flags = XDP_FLAGS_DRV_MODE,
				     .bind_flags = (uint16_t)(bind | XDP_USE_NEED_WAKEUP) });
	if (err)
		die("xsk_socket__create", err);
	/* the first RING_SIZE frames to the fill ring; the rest wait for TX */
	if (xsk_ring_prod__reserve(&r.fill, RING_SIZE, &idx) != RING_SIZE)
		die("fill ring", ENOSPC);
	for (i = 0; i < RING_SIZE; i++)
		*xsk_ring_prod__fill_addr(&r.fill, idx + i) = (uint64_t)i * FRAME_SIZE;
	xsk_ring_prod__submit(&r.fill, RING_SIZE);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	fprintf(stderr, "xsk-refloop: %s queue %u ready (%s, batch %u)\n", ifname, queue,
		macswap ? "macswap" : "rxdrop", batch);
	t0 = now_s();
	loop(&r, batch, macswap, secs > 0 ? t0 + secs : 1e300);
	took = now_s() - t0;
	if (getsockopt(xsk_socket__fd(r.xsk), SOL_XDP, XDP_STATISTICS, &st,
		       &(socklen_t){ sizeof(st) }))
		die("getsockopt(XDP_STATISTICS)", errno);
	printf("{\"rx\": %llu, \"tx\": %llu, \"seconds\": %.6f, \"kernel\": {\"rx_dropped\": %llu, "
	       "\"rx_ring_full\": %llu, \"rx_fill_ring_empty_descs\": %llu}}\n",
	       (unsigned long long)r.rx_n, (unsigned long long)r.tx_n, took,
	       (unsigned long long)st.rx_dropped, (unsigned long long)st.rx_ring_full,
	       (unsigned long long)st.rx_fill_ring_empty_descs);
	xsk_socket__delete(r.xsk);
	xsk_umem__delete(r.umem);
	return 0;
}
