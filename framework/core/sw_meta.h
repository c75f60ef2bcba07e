/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The meta the XDP program's software variant writes in front of a frame (xskf_hints_write()
 * with hw = false, bpf/xskf_hints.bpf.h), computed in user space from the same parser: the RX
 * path's when the hints are computed in userspace (core/hints_in.h, ring_ops.h rx_take()), the
 * memory backend's stand-in for the XDP program (backend/mem_backend.c), and the tests that
 * check the accessors against it (tests/unit/test_hints.c).
 */
#ifndef XSKF_SW_META_H
#define XSKF_SW_META_H

#include <stdint.h>
#include <string.h>

#include "xskf_hints_parse.h"
#include "xskf_meta.h"

/* Fill @m for the @len bytes of @frame: parsed type and offsets, no driver hash. Thread: any. */
static inline void xskf_sw_meta(const uint8_t *frame, uint32_t len, struct xskf_meta *m)
{
	struct xskf_parse p;

	xskf_parse_frame(frame, frame + len, &p);
	memset(m, 0, sizeof(*m));
	m->ptype = p.ptype;
	m->vlan_tci = p.vlan_tci;
	m->l3_off = (uint8_t)p.l3_off;
	m->l4_off = p.l4_off;
	m->inner_off = p.inner_off;
	m->inner_l3_off = p.inner_l3_off;
	m->inner_l4_off = p.inner_l4_off;
	if (p.vlan)
		m->src = XSKF_SRC_SW << (2 * XSKF_F_VLAN) | (p.vlan == 2 ? XSKF_META_VLAN_STAG : 0);
	m->magic = XSKF_META_MAGIC;
}

/*
 * Fill @m as the XDP program does for an app that reads @hints (XSKF_HINT_*, xskf_meta.h):
 * without a hint of XSKF_HINT_PARSE no parse (zeros and XSKF_META_NOPARSE), without
 * XSKF_HINT_TUNNEL the outer frame only. Never a driver value. Thread: any.
 */
static inline void xskf_sw_meta_hints(const uint8_t *frame, uint32_t len, struct xskf_meta *m,
				      uint32_t hints)
{
	struct xskf_parse p;

	if (hints & XSKF_HINT_TUNNEL) {
		xskf_sw_meta(frame, len, m);
		return;
	}
	memset(m, 0, sizeof(*m));
	if (!(hints & XSKF_HINT_PARSE)) {
		m->src = XSKF_META_NOPARSE;
		m->magic = XSKF_META_MAGIC;
		return;
	}
	xskf_parse_outer(frame, frame + len, &p);
	m->ptype = p.ptype;
	m->vlan_tci = p.vlan_tci;
	m->l3_off = (uint8_t)p.l3_off;
	m->l4_off = p.l4_off;
	if (p.vlan)
		m->src = XSKF_SRC_SW << (2 * XSKF_F_VLAN) | (p.vlan == 2 ? XSKF_META_VLAN_STAG : 0);
	m->magic = XSKF_META_MAGIC;
}

#endif /* XSKF_SW_META_H */
