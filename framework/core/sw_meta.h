/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The meta the XDP program's software variant writes in front of a frame (xskf_hints_write()
 * with hw = false, bpf/xskf_hints.bpf.h), computed in user space from the same parser: for the
 * memory backend's stand-in (backend/mem_backend.c) and the tests that check the accessors
 * against it (tests/unit/test_hints.c).
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

#endif /* XSKF_SW_META_H */
