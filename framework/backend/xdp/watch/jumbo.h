/* SPDX-License-Identifier: BSD-2-Clause */
/* Multi-buffer AF_XDP at start-up (jumbo.c, docs/jumbo.md). Thread: control thread. */
#ifndef XSKF_JUMBO_H
#define XSKF_JUMBO_H

#include <stdint.h>

struct xskf_engine;
struct xskf_sock;

/*
 * xskf_jumbo__decide() - set eng->sg (bind with XDP_USE_SG) when a port's MTU allows frames
 * longer than one UMEM frame holds, the kernel has multi-buffer AF_XDP and the app takes
 * multi-buffer frames; read the kernel's limits; say the choice in one line. Before the sockets
 * open. Returns 0 (a kernel it cannot ask binds as before).
 */
int xskf_jumbo__decide(struct xskf_engine *eng);

/* Bytes of the longest frame the sockets take: one buffer, or a frame of the most buffers. */
uint32_t xskf_jumbo__room(const struct xskf_engine *eng);

/* Why longer frames are not taken as multi-buffer frames ("; ..." for a message), or "". */
const char *xskf_jumbo__why_not(const struct xskf_engine *eng);

/* Once @s is bound: its s->sg and s->tx_max_segs (zero-copy: the driver's limit). */
void xskf_jumbo__sock(struct xskf_sock *s, const struct xskf_engine *eng);

#endif /* XSKF_JUMBO_H */
