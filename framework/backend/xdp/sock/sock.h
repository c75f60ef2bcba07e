/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One AF_XDP socket: opened through libxdp (xsk.c) or, for TX metadata room, with our own
 * UMEM registration (xsk_raw.c); its options, statistics and NAPI id.
 */
#ifndef XSKF_BACKEND_XDP_SOCK_H
#define XSKF_BACKEND_XDP_SOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <linux/if_xdp.h>

#include "core/clock.h"

struct xskf_sock;
struct xskf_umem;
struct xskf_engine_opts;

int xskf_sock__open(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		    bool zerocopy);
void xskf_sock__close(struct xskf_sock *s);
/*
 * xskf_sock__busy_poll() - preferred busy polling on AF_XDP socket @fd: SO_PREFER_BUSY_POLL,
 * SO_BUSY_POLL @usecs, SO_BUSY_POLL_BUDGET @budget (our sockets with -B; a device-plugin
 * client's with /config_busy_poll). 0 or -errno. Any thread.
 */
int xskf_sock__busy_poll(int fd, int usecs, int budget);
/*
 * xskf_sock__busy_again() - after a bind's EBUSY, true (having napped 10 ms) while @since_ns
 * (xskf_now_ns() at the first try) is less than 3 s ago: the caller binds again. A queue whose
 * socket was just closed stays busy until the kernel's deferred work frees its buffer pool
 * (the XSKMAP that held the socket goes first, then the pool, both in the background): ~100 ms
 * on a quiet machine, over a second seen under load. A queue really held by another socket
 * is told 3 s late. Thread: any.
 */
static inline bool xskf_sock__busy_again(uint64_t since_ns)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };

	/* inline: both binds (xsk.c, xsk_raw.c) use it, and xsk.c calls xsk_raw.c */
	if (xskf_now_ns() - since_ns >= 3000ull * 1000 * 1000)
		return false;
	nanosleep(&pause, NULL);
	return true;
}
int xskf_sock__kstats(const struct xskf_sock *s, struct xdp_statistics *st);
/*
 * The NAPI the kernel tied socket @s to (SO_INCOMING_NAPI_ID), or 0: only a zero-copy bind
 * ties one (0 in copy mode, 6.18 included). Thread: any.
 */
uint32_t xskf_sock__napi_id(const struct xskf_sock *s);

/*
 * Open @s with our own UMEM registration (xsk_raw.c): libxdp 1.3.1 cannot register
 * tx_metadata_len. The first socket of @um registers it, the others share it. Returns 0 or a
 * negative errno (as xsk_socket__create_shared()). Thread: control thread.
 */
int xskf_raw__open(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		   uint32_t headroom, bool zerocopy);
void xskf_raw__close(struct xskf_sock *s);

#endif /* XSKF_BACKEND_XDP_SOCK_H */
