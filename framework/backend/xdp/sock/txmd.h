/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who carries out each TX metadata request of a socket (txmd_setup.c).
 */
#ifndef XSKF_BACKEND_XDP_TXMD_H
#define XSKF_BACKEND_XDP_TXMD_H

#include <stdbool.h>

struct xskf_engine;
struct xskf_sock;

/*
 * After @s is open: decide who carries out each request, from its mode, the
 * UMEM's room and the driver's xsk-features; say it once per port. Thread: control thread.
 */
void xskf_txmd__setup_sock(struct xskf_engine *eng, struct xskf_sock *s, bool say);

#endif /* XSKF_BACKEND_XDP_TXMD_H */
