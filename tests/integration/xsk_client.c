// SPDX-License-Identifier: BSD-2-Clause
/*
 * A foreign AF_XDP app for the tests of --serve and --pin-dir (test_serve.sh): written as any
 * libxdp user would, with nothing of xskf. It binds one socket (copy mode) on IFACE's QUEUE,
 * loads no XDP program (XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD), and enters its socket in an
 * XSKMAP that another process holds:
 *
 *   xskf-xsk-client IFACE QUEUE --pinned PATH   the map pinned in bpffs (bpf_obj_get())
 *   xskf-xsk-client IFACE QUEUE --uds PATH      from the AF_XDP device plugin's socket
 *                                              (/connect, /xsk_map_fd: dp_client.c)
 *
 * With --key K (test_hostile.sh) the socket goes in at key K instead of its queue: what a
 * hostile app given one queue's map would try, to reach the frames of queue K.
 *
 * It prints "ready" once its socket is in the map, then "rx N" each time its count changes
 * (checked every 20 ms), and "final N" at SIGINT/SIGTERM. Exit 0, or 1 with one line.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <xdp/xsk.h>

#include "dp_client.h"

#define NFRAMES 2048 /* 8 MiB: within the default memlock limit, for a client run as nobody */
#define FSIZE XSK_UMEM__DEFAULT_FRAME_SIZE

static volatile sig_atomic_t stop;

static void on_sig(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	/* zeroed, and fill's cached indexes set from the ring after the socket is made: libxdp
	 * (1.3 to 1.6) sets fill's cached_cons but never its cached_prod, which the inline
	 * reserve subtracts; left to the stack, it held what the C library left there before
	 * main, and the lab's guests (another libc) saw "no room for 2048 frames" */
	struct xsk_ring_prod fq = { 0 };
	struct xsk_ring_cons cq = { 0 }, rx = { 0 };
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct xsk_socket_config cfg = {
		.rx_size = 2048,
		.tx_size = 0,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.bind_flags = XDP_COPY,
	};
	unsigned long long total = 0, said = 0;
	struct dp_client dc = { .fd = -1 };
	uint32_t idx, i, q;
	void *buf;
	int map_fd, err;

	if ((argc != 5 && (argc != 7 || strcmp(argv[5], "--key"))) ||
	    (strcmp(argv[3], "--pinned") && strcmp(argv[3], "--uds"))) {
		fprintf(stderr, "usage: %s IFACE QUEUE --pinned PATH | --uds PATH [--key K]\n",
			argv[0]);
		return 2;
	}
	q = (uint32_t)atoi(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	if (!strcmp(argv[3], "--pinned")) {
		map_fd = bpf_obj_get(argv[4]);
		if (map_fd < 0) {
			fprintf(stderr, "xsk-client: cannot open the pinned map %s: %s\n", argv[4],
				strerror(errno));
			return 1;
		}
	} else {
		map_fd = dp_client__map(&dc, argv[4], argv[1]);
		if (map_fd < 0)
			return 1; /* said */
	}
	buf = mmap(NULL, (size_t)NFRAMES * FSIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		fprintf(stderr, "xsk-client: mmap of the UMEM: %s\n", strerror(errno));
		return 1;
	}
	err = xsk_umem__create(&umem, buf, (uint64_t)NFRAMES * FSIZE, &fq, &cq, NULL);
	if (err) {
		fprintf(stderr, "xsk-client: umem: %s\n", strerror(-err));
		return 1;
	}
	err = xsk_socket__create(&xsk, argv[1], q, umem, &rx, NULL, &cfg);
	if (err) {
		fprintf(stderr, "xsk-client: socket on %s queue %u: %s\n", argv[1], q,
			strerror(-err));
		return 1;
	}
	/* the cached indexes from the ring itself, whatever the library version set: the
	 * producer where the kernel sees it, the consumer one ring ahead (free = cons - prod) */
	fq.cached_prod = __atomic_load_n(fq.producer, __ATOMIC_ACQUIRE);
	fq.cached_cons = __atomic_load_n(fq.consumer, __ATOMIC_ACQUIRE) + fq.size;
	if (fq.size < NFRAMES || xsk_ring_prod__reserve(&fq, NFRAMES, &idx) != NFRAMES) {
		fprintf(stderr,
			"xsk-client: the fill ring has no room for %u frames (size %u, "
			"producer %u, consumer %u)\n",
			NFRAMES, fq.size, *fq.producer, *fq.consumer);
		return 1;
	}
	for (i = 0; i < NFRAMES; i++)
		*xsk_ring_prod__fill_addr(&fq, idx + i) = (uint64_t)i * FSIZE;
	xsk_ring_prod__submit(&fq, NFRAMES);
	if (argc == 7) {
		uint32_t key = (uint32_t)atoi(argv[6]);
		int fd = xsk_socket__fd(xsk);

		err = bpf_map_update_elem(map_fd, &key, &fd, 0) ? -errno : 0;
	} else {
		err = xsk_socket__update_xskmap(xsk, map_fd);
	}
	if (err) {
		fprintf(stderr, "xsk-client: cannot enter the socket in the XSKMAP: %s\n",
			strerror(-err));
		return 1;
	}
	printf("ready\n");
	while (!stop) {
		struct pollfd p = { .fd = xsk_socket__fd(xsk), .events = POLLIN };
		uint32_t n, fidx;

		poll(&p, 1, 20);
		n = xsk_ring_cons__peek(&rx, 64, &idx);
		if (n) {
			/* the frames go back to the fill ring at once: the count is all we keep */
			while (xsk_ring_prod__reserve(&fq, n, &fidx) != n)
				;
			for (i = 0; i < n; i++)
				*xsk_ring_prod__fill_addr(&fq, fidx + i) =
				    xsk_umem__extract_addr(xsk_ring_cons__rx_desc(&rx, idx + i)->addr);
			xsk_ring_prod__submit(&fq, n);
			xsk_ring_cons__release(&rx, n);
			total += n;
		}
		if (total != said && !n) {
			printf("rx %llu\n", total);
			said = total;
		}
		if (dc.fd >= 0 && dp_client__gone(&dc)) {
			fprintf(stderr, "xsk-client: the device plugin's socket closed\n");
			break;
		}
	}
	printf("final %llu\n", total);
	xsk_socket__delete(xsk);
	xsk_umem__delete(umem);
	dp_client__fin(&dc);
	close(map_fd);
	return 0;
}
