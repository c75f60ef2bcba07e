/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Being served the XSKMAP of another process's XDP program (served.c): --xsk-map PATH (a
 * bpffs pin), --xsk-map-uds PATH (the AF_XDP device plugin's socket). Thread: control thread.
 */
#ifndef XSKF_BACKEND_XDP_SERVED_H
#define XSKF_BACKEND_XDP_SERVED_H

#include <stdbool.h>

struct xskf_engine;

/* Is this run served (--xsk-map or --xsk-map-uds)? */
bool xskf_served__on(const struct xskf_engine *eng);
/*
 * Instead of the program's preflight: what a served run cannot do, refused in one line
 * (rules, --napi, --force, an app that needs hints, no CAP_NET_RAW); RX hints turned off.
 * 0 or -errno.
 */
int xskf_served__preflight(struct xskf_engine *eng);
/* Instead of load and attach: take each port's XSKMAP, say so, enter our sockets. 0/-errno. */
int xskf_served__attach(struct xskf_engine *eng);
/* Our sockets out of the maps, the maps' fds closed, /fin on the socket. Any time after. */
void xskf_served__detach(struct xskf_engine *eng);

#endif /* XSKF_BACKEND_XDP_SERVED_H */
