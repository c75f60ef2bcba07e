/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The port dimensions of the rule table (steer_ports.c): the port ranges of the rules cut
 * 0..65535 into classes, each with the bitmap of the rules it allows. Pure (fuzzed with
 * hostile rules behind share_check.c's checks: tests/fuzz/fuzz_share.c). Thread: any.
 */
#ifndef XSKF_BACKEND_XDP_STEER_PORTS_H
#define XSKF_BACKEND_XDP_STEER_PORTS_H

#include <stdint.h>

#include "core/steer.h"
#include "xskf_steer.h"

/* Rule @pos in matching order into the set @bm. */
static inline void xskf_steer__bm_set(struct xskf_steer_bm *bm, unsigned int pos)
{
	bm->w[xskf_steer_word_at(1ULL << (pos / 64))] |= 1ULL << (pos % 64);
	bm->sum |= 1ULL << (pos / 64);
}

/*
 * The classes of dimension @dim (XSKF_DIM_SPORT or _DPORT) for the @n rules @r (n at most
 * XSKF_STEER_MAX_RULES, each passed xskf_share_check__rule() or the parser): their bitmaps
 * into @cls (XSKF_STEER_PORT_CLASSES of them), each port's class into generation @g of @pcls
 * (struct xskf_steer_pcls's array). Nothing written when memory runs out.
 */
void xskf_steer_ports__build(const struct xskf_steer_rule **r, unsigned int n, unsigned int dim,
			     uint32_t g, struct xskf_steer_bm *cls, uint32_t *pcls);

#endif /* XSKF_BACKEND_XDP_STEER_PORTS_H */
