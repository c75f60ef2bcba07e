/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Promiscuous mode held while a run needs frames to every MAC (promisc.c).
 */
#ifndef XSKF_BACKEND_XDP_PROMISC_H
#define XSKF_BACKEND_XDP_PROMISC_H

struct xskf_port;

/*
 * A port that takes frames to every MAC (promisc.c): xskf_promisc__take() is the backend's
 * promisc() op (0 or -errno, said in one line), xskf_promisc__release() drops it (fini()).
 * Thread: control thread.
 */
int xskf_promisc__take(struct xskf_port *p);
void xskf_promisc__release(struct xskf_port *p);

#endif /* XSKF_BACKEND_XDP_PROMISC_H */
