// SPDX-License-Identifier: BSD-2-Clause
/*
 * RX hints computed in userspace (core/hints_in.h): the meta of each frame of a burst, by the
 * XDP program's own parser (core/sw_meta.h), into the UMEM headroom in front of the frame,
 * where the XDP program would have written it. Out of line, called once per burst: the loops
 * of the other ways (ring_ops.h, rx_pkts()) stay as they were, and a profile shows this
 * work apart.
 */
#include "core/hints_in.h"
#include "core/sw_meta.h"

void xskf_hints_user__burst(struct xskf_pkt *pkts, unsigned int n, uint32_t hints)
{
	unsigned int i;

	/*
	 * After rx_pkts() has prefetched every frame's first line: the parse of frame 0 starts
	 * while the lines of the others are on their way. pkt->meta points at the UMEM's headroom
	 * in front of the frame (eng->headroom, 32 bytes with hints on): the framework's own.
	 */
	for (i = 0; i < n; i++)
		xskf_sw_meta_hints(pkts[i].data, pkts[i].len,
				   (struct xskf_meta *)(pkts[i].data - sizeof(struct xskf_meta)),
				   hints);
}
