/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ports watched while a run lives (watch.c): interfaces, programs, MTU, queue counts.
 */
#ifndef XSKF_BACKEND_XDP_WATCH_H
#define XSKF_BACKEND_XDP_WATCH_H

struct xskf_engine;

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

#endif /* XSKF_BACKEND_XDP_WATCH_H */
