// SPDX-License-Identifier: BSD-2-Clause
/*
 * One AF_XDP socket: create, bind (zero-copy or copy), socket options, kernel statistics.
 *
 * All sockets of a worker share that worker's UMEM (XDP_SHARED_UMEM), each with its own fill and
 * completion ring, so a frame received on one port can be sent on another without a copy and
 * the worker's frame cache needs no lock. The first socket of a UMEM registers it; the others
 * inherit its mode (zero-copy or copy) and its need_wakeup setting from the kernel.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "backend/xdp/xdp_state.h"
#include "core/clock.h"
#include "backend/xdp/prog/features.h"
#include "core/engine.h"
#include "backend/xdp/watch/jumbo.h"
#include "core/tx_meta.h"
#include "backend/xdp/sock/sock.h"

#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif

static int umem_create(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		       uint32_t headroom)
{
	struct xsk_umem_config cfg = {
		.fill_size = o->fill_size,
		.comp_size = o->comp_size,
		.frame_size = um->frame_size,
		.frame_headroom = headroom,
		.flags = 0,
	};

	return xsk_umem__create(&um->xu, um->area, (uint64_t)um->nr_frames * um->frame_size,
				&s->fill, &s->comp, &cfg);
}

static int try_create(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		      uint32_t headroom, bool zerocopy)
{
	struct xsk_socket_config cfg = {
	    .rx_size = o->rx_size,
	    .tx_size = o->tx_size,
	    .libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
	    .xdp_flags = xskf_xdp_port(s->port)->attach_flags,
	    .bind_flags = (uint16_t)((zerocopy ? XDP_ZEROCOPY : XDP_COPY) |
				     (o->no_need_wakeup ? 0 : XDP_USE_NEED_WAKEUP) |
				     (s->worker->eng->sg ? XDP_USE_SG : 0)),
	};
	uint64_t since = xskf_now_ns();
	bool first = !um->xu;
	int err;

	for (;;) {
		if (!um->xu) {
			err = umem_create(s, um, o, headroom);
			if (err)
				return err;
		}
		err = xsk_socket__create_shared(&s->xsk, s->port->name, s->queue, um->xu, &s->rx,
						&s->tx, &s->fill, &s->comp, &cfg);
		if (!err)
			return 0;
		/* A failed first bind leaves the UMEM half set up in libxdp: start it afresh. */
		if (first && um->xu) {
			xsk_umem__delete(um->xu);
			um->xu = NULL;
		}
		if (err != -EBUSY || !xskf_sock__busy_again(since))
			return err;
	}
}

int xskf_sock__busy_poll(int fd, int usecs, int budget)
{
	int one = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &usecs, sizeof(usecs)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &budget, sizeof(budget)))
		return -errno;
	return 0;
}

static void set_sockopts(struct xskf_sock *s, const struct xskf_engine_opts *o)
{
	int txb = (int)o->tx_skb_budget;
	int err;

	/* a kernel without preferred busy polling: said once at attach (xdp.c), not per socket */
	if (o->busy_poll && !xskf_features__probe(XSKF_FEAT_BUSY_POLL)) {
		err = xskf_sock__busy_poll(s->fd, (int)o->busy_poll_us, (int)o->busy_poll_budget);
		if (err)
			pr_warn("warning: %s queue %u: busy polling not accepted (%s); polling without it\n",
				s->port->name, s->queue, strerror(-err));
	}
	/*
	 * Copy-mode TX sends at most 32 frames per sendto() unless raised (Linux >= 6.17); the
	 * kernel accepts values up to the TX ring size. Older kernels say ENOPROTOOPT: fine.
	 */
	if (o->tx_size && txb &&
	    setsockopt(s->fd, SOL_XDP, XDP_MAX_TX_SKB_BUDGET, &txb, sizeof(txb)) == 0)
		pr_debug("%s queue %u: TX skb budget %d\n", s->port->name, s->queue, txb);
}

int xskf_sock__open(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		    bool zerocopy)
{
	uint32_t headroom = s->worker->eng->headroom;
	int err;

	/* TX metadata room: our own registration (xsk_raw.c), libxdp 1.3.1 has none */
	if (um->tx_meta_want)
		err = xskf_raw__open(s, um, o, headroom, zerocopy);
	else
		err = try_create(s, um, o, headroom, zerocopy);
	if (err == -EINVAL && s->worker->eng->sg && !um->xu && !um->raw_reg) {
		/* the BTF said multi-buffer, the bind did not take it: frames of one buffer */
		pr_warn("%s queue %u: the kernel refused multi-buffer AF_XDP (XDP_USE_SG): frames "
			"longer than one UMEM frame are dropped (rx_dropped)\n",
			s->port->name, s->queue);
		s->worker->eng->sg = false;
		err = um->tx_meta_want ? xskf_raw__open(s, um, o, headroom, zerocopy) :
					 try_create(s, um, o, headroom, zerocopy);
	}
	if (err)
		return err;
	if (s->xsk)
		s->fd = xsk_socket__fd(s->xsk);
	s->zerocopy = zerocopy;
	set_sockopts(s, o);
	xskf_jumbo__sock(s, s->worker->eng);
	return 0;
}

void xskf_sock__close(struct xskf_sock *s)
{
	xskf_raw__close(s);
	if (s->xsk)
		xsk_socket__delete(s->xsk);
	s->xsk = NULL;
	s->fd = -1;
}

uint32_t xskf_sock__napi_id(const struct xskf_sock *s)
{
	uint32_t id = 0;
	socklen_t len = sizeof(id);

	return getsockopt(s->fd, SOL_SOCKET, SO_INCOMING_NAPI_ID, &id, &len) ? 0 : id;
}

int xskf_sock__kstats(const struct xskf_sock *s, struct xdp_statistics *st)
{
	socklen_t len = sizeof(*st);

	memset(st, 0, sizeof(*st));
	if (!s->xsk && !s->raw)
		return -ENOTCONN;
	if (getsockopt(s->fd, SOL_XDP, XDP_STATISTICS, st, &len))
		return -errno;
	return 0;
}
