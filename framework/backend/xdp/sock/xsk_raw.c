// SPDX-License-Identifier: BSD-2-Clause
/*
 * An AF_XDP socket opened without libxdp, for a UMEM with TX metadata room: libxdp 1.3.1's
 * struct xsk_umem_config has no tx_metadata_len, and its registration passes 6.1's struct
 * xdp_umem_reg, whose last four bytes are padding (always 0). So xskf registers the UMEM itself
 * (setsockopt(XDP_UMEM_REG) with 6.8's struct and XDP_UMEM_TX_METADATA_LEN), maps the four
 * rings and binds, filling libxdp's public ring structs so that its inline ring accessors and
 * the rest of xskf work unchanged. As in libxdp, the first socket of a worker's UMEM registers
 * it; the others bind with XDP_SHARED_UMEM and their own fill and completion rings.
 *
 * A kernel before 6.8 refuses the flag (EINVAL): the UMEM is then registered without room and
 * the requests are done in software or counted (tx_meta.c says which).
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "backend/xdp/xdp_state.h"
#include "core/clock.h"
#include "backend/xdp/prog/features.h"
#include "core/engine.h"
#include "backend/xdp/watch/jumbo.h"
#include "core/ring_ops.h"
#include "core/tx_meta.h"
#include "backend/xdp/sock/sock.h"

#ifndef SOL_XDP
#define SOL_XDP 283
#endif
#ifndef AF_XDP
#define AF_XDP 44
#endif

/* One mapped ring. */
struct raw_map {
	void *p;
	size_t len;
};

struct xskf_raw {
	struct raw_map map[4]; /* fill, completion, rx, tx */
};

static void raw_unmap(struct xskf_raw *r)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (r->map[i].p)
			munmap(r->map[i].p, r->map[i].len);
	memset(r, 0, sizeof(*r));
}

/* Map one ring at @pgoff and point libxdp's struct @ring at it. */
static int map_ring(int fd, struct raw_map *m, void *ring, const struct xdp_ring_offset *off,
		    uint32_t size, size_t esz, uint64_t pgoff, bool producer)
{
	struct xsk_ring_prod *r = ring;
	uint8_t *p;

	m->len = off->desc + (size_t)size * esz;
	p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, (off_t)pgoff);
	if (p == MAP_FAILED) {
		m->p = NULL;
		return -errno;
	}
	m->p = p;
	xskf_ring__init(ring, (uint32_t *)(p + off->producer), (uint32_t *)(p + off->consumer),
			(uint32_t *)(p + off->flags), p + off->desc, size, producer);
	/* a ring may not be fresh (a shared UMEM's): start from where the kernel is */
	r->cached_prod = *r->producer;
	r->cached_cons = *r->consumer + (producer ? size : 0);
	return 0;
}

static int setopt(int fd, int name, uint32_t v)
{
	return setsockopt(fd, SOL_XDP, name, &v, sizeof(v)) ? -errno : 0;
}

/* Register @um on @fd; with room when asked and the kernel has it (6.8+). */
static int umem_reg(int fd, struct xskf_umem *um, uint32_t headroom, bool zerocopy)
{
	struct xskf_umem_reg mr = {
		.addr = (uint64_t)(uintptr_t)um->area,
		.len = (uint64_t)um->nr_frames * um->frame_size,
		.chunk_size = um->frame_size,
		.headroom = headroom,
		.flags = XDP_UMEM_TX_METADATA_LEN,
		.tx_metadata_len = um->tx_meta_want,
	};

	/*
	 * Copy mode: the kernel finishes the checksum itself (skb_checksum_help()). Without the
	 * flag it hands the device a CHECKSUM_PARTIAL skb, and veth passes that on unfinished:
	 * a capture at the peer shows it bad and anything it is forwarded to drops it.
	 * Not where the kernel refused it at the bind (tx_no_sw_csum: xskf_raw__open()).
	 */
	if (!zerocopy && !um->tx_no_sw_csum)
		mr.flags |= XDP_UMEM_TX_SW_CSUM;
	/* the table's row (features.c): forced off, or refused to its probe, the same call */
	if (xskf_features__probe(XSKF_FEAT_TX_METADATA))
		goto no_room;
	if (!setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &mr, sizeof(mr))) {
		um->tx_meta_len = um->tx_meta_want;
		return 0;
	}
	if (errno != EINVAL)
		return -errno;
no_room:
	/* before 6.8: no such flags; the requests are done in software or counted */
	mr.flags = 0;
	mr.tx_metadata_len = 0;
	um->tx_meta_len = 0;
	return setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &mr, sizeof(mr)) ? -errno : 0;
}

static int try_open(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		    uint32_t headroom, bool zerocopy, struct xskf_raw *r, int *fdp)
{
	struct xdp_mmap_offsets off;
	socklen_t olen = sizeof(off);
	struct sockaddr_xdp sxdp = { .sxdp_family = AF_XDP };
	bool first = !um->raw_reg;
	int fd, err;

	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	*fdp = fd;
	if (first && (err = umem_reg(fd, um, headroom, zerocopy)))
		return err;
	if ((err = setopt(fd, XDP_UMEM_FILL_RING, o->fill_size)) ||
	    (err = setopt(fd, XDP_UMEM_COMPLETION_RING, o->comp_size)) ||
	    (err = setopt(fd, XDP_RX_RING, o->rx_size)) ||
	    (err = setopt(fd, XDP_TX_RING, o->tx_size)))
		return err;
	if (getsockopt(fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &olen))
		return -errno;
	if ((err = map_ring(fd, &r->map[0], &s->fill, &off.fr, o->fill_size, sizeof(uint64_t),
			    XDP_UMEM_PGOFF_FILL_RING, true)) ||
	    (err = map_ring(fd, &r->map[1], &s->comp, &off.cr, o->comp_size, sizeof(uint64_t),
			    XDP_UMEM_PGOFF_COMPLETION_RING, false)) ||
	    (err = map_ring(fd, &r->map[2], &s->rx, &off.rx, o->rx_size, sizeof(struct xdp_desc),
			    XDP_PGOFF_RX_RING, false)) ||
	    (err = map_ring(fd, &r->map[3], &s->tx, &off.tx, o->tx_size, sizeof(struct xdp_desc),
			    XDP_PGOFF_TX_RING, true)))
		return err;
	sxdp.sxdp_ifindex = (uint32_t)s->port->ifindex;
	sxdp.sxdp_queue_id = s->queue;
	if (first) {
		sxdp.sxdp_flags = (uint16_t)((zerocopy ? XDP_ZEROCOPY : XDP_COPY) |
					     (o->no_need_wakeup ? 0 : XDP_USE_NEED_WAKEUP) |
					     (s->worker->eng->sg ? XDP_USE_SG : 0));
	} else {
		/* the kernel takes the mode and need_wakeup of the UMEM's first socket */
		sxdp.sxdp_flags = XDP_SHARED_UMEM;
		sxdp.sxdp_shared_umem_fd = (uint32_t)um->raw_fd;
	}
	if (bind(fd, (struct sockaddr *)&sxdp, sizeof(sxdp)))
		return -errno;
	if (first) {
		um->raw_reg = true;
		um->raw_fd = fd;
	}
	return 0;
}

int xskf_raw__open(struct xskf_sock *s, struct xskf_umem *um, const struct xskf_engine_opts *o,
		   uint32_t headroom, bool zerocopy)
{
	uint64_t since = xskf_now_ns();
	struct xskf_raw *r = calloc(1, sizeof(*r));
	int err, fd;

	if (!r)
		return -ENOMEM;
	for (;;) {
		fd = -1;
		err = try_open(s, um, o, headroom, zerocopy, r, &fd);
		if (!err)
			break;
		raw_unmap(r);
		if (fd >= 0)
			close(fd);
		/*
		 * A copy-mode bind says EOPNOTSUPP for one reason only: the UMEM asks for the
		 * kernel's software checksum (XDP_UMEM_TX_SW_CSUM) and the device's copy-mode TX
		 * builds its frames on the UMEM's pages without a linear part
		 * (IFF_TX_SKB_NO_LINEAR: virtio-net), where skb_checksum_help() cannot write
		 * (xp_assign_dev(), seen on 7.3). Register the room without the flag: xskf does the
		 * checksums itself (txmd_setup.c says so), the rest of the metadata goes on.
		 */
		if (err == -EOPNOTSUPP && !zerocopy && !um->raw_reg && !um->tx_no_sw_csum) {
			um->tx_no_sw_csum = true;
			continue;
		}
		if (err != -EBUSY || !xskf_sock__busy_again(since)) {
			free(r);
			return err;
		}
	}
	s->raw = r;
	s->fd = fd;
	return 0;
}

void xskf_raw__close(struct xskf_sock *s)
{
	if (!s->raw)
		return;
	raw_unmap(s->raw);
	free(s->raw);
	s->raw = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
