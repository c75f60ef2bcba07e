// SPDX-License-Identifier: BSD-2-Clause
/*
 * RX hints in userspace, no root: the XDP program's parser (compiled here as plain C) on every
 * crafted frame of hints_vectors.h, and the accessors of xskf_hints.h on a frame with a meta in
 * front of it, as the XDP program leaves it in the UMEM. TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xskf_hints.h>

#include "../../bpf/xskf_hints_parse.h"
#include "core/sw_meta.h"
#include "hints_vectors.h"

#include "tap.h"

static void test_parse_vectors(void)
{
	unsigned int i;

	for (i = 0; i < HV_NR_CASES; i++) {
		const struct hv_case *c = &hv_cases[i];
		const struct hv_expect *w = &c->want;
		struct hv_frame f = { .len = 0 };
		struct xskf_parse p;

		c->build(&f);
		memset(&p, 0xa5, sizeof(p)); /* all of it must be written */
		xskf_parse_frame(f.b, f.b + f.len, &p);
		CHECK(p.ptype == w->ptype && p.l3_off == w->l3 && p.l4_off == w->l4 &&
			      p.inner_off == w->inner && p.inner_l3_off == w->inner_l3 &&
			      p.inner_l4_off == w->inner_l4 && p.vlan == w->vlan &&
			      (!w->vlan || p.vlan_tci == w->tci),
		      "parse %-24s ptype %#010x l3 %u l4 %u inner %u/%u/%u vlan %u/%u (want %#010x "
		      "%u %u %u/%u/%u %u/%u)",
		      c->name, p.ptype, p.l3_off, p.l4_off, p.inner_off, p.inner_l3_off,
		      p.inner_l4_off, p.vlan, p.vlan_tci, w->ptype, w->l3, w->l4, w->inner,
		      w->inner_l3, w->inner_l4, w->vlan, w->tci);
	}
}

/* A UMEM-like buffer: headroom, the meta, then the frame, as the XDP program leaves it. */
struct rx_buf {
	uint8_t head[64];
	struct xskf_meta meta;
	uint8_t frame[640];
} __attribute__((packed, aligned(64)));

static void rx_prepare(struct rx_buf *b, struct xskf_pkt *pkt, void (*build)(struct hv_frame *))
{
	struct hv_frame f = { .len = 0 };

	build(&f);
	memcpy(b->frame, f.b, f.len);
	/* what xskf_hints_write() with hw = false writes, from the same parse */
	xskf_sw_meta(b->frame, f.len, &b->meta);
	memset(pkt, 0, sizeof(*pkt));
	pkt->data = b->frame;
	pkt->len = f.len;
	pkt->meta = (const struct xskf_meta *)(pkt->data - sizeof(struct xskf_meta));
}

static void test_layout(void)
{
	CHECK(sizeof(struct xskf_meta) == 32, "meta is 32 bytes");
	CHECK(sizeof(struct xskf_meta) % 4 == 0, "meta is a multiple of 4 (bpf_xdp_adjust_meta)");
	CHECK(offsetof(struct xskf_meta, magic) == sizeof(struct xskf_meta) - 2,
	      "magic is last, next to the frame");
	CHECK(offsetof(struct xskf_meta, rx_timestamp) % 8 == 0, "timestamp 8-byte aligned");
	/* a UMEM headroom of 32 puts the frame at 256 + 32 = 32 mod 64: meta + 32 frame bytes */
	CHECK((256 + 32 - sizeof(struct xskf_meta)) % 64 == 0 && (256 + 32) % 64 == 32,
	      "meta and the first 32 frame bytes share a cache line with headroom 32");
}

static void test_accessors(void)
{
	struct rx_buf b __attribute__((aligned(64)));
	struct xskf_pkt pkt;
	uint16_t tci = 0, tpid = 0;
	uint64_t ts = 1;
	const uint8_t *h;

	rx_prepare(&b, &pkt, c_vxlan_ipv4);
	CHECK(xskf_pkt__meta_valid(&pkt), "valid meta");
	CHECK(xskf_pkt__ptype(&pkt) == (V4U | VX | IN(P_ETH | P_V4 | P_TCP)), "ptype");
	CHECK(xskf_ptype__inner(xskf_pkt__ptype(&pkt)) == (P_ETH | P_V4 | P_TCP), "inner ptype");
	CHECK(xskf_pkt__l3_off(&pkt) == 14 && xskf_pkt__l4_off(&pkt) == 34, "outer offsets");
	CHECK(xskf_pkt__inner_off(&pkt) == 50 && xskf_pkt__inner_l3_off(&pkt) == 64 &&
		      xskf_pkt__inner_l4_off(&pkt) == 84,
	      "inner offsets");
	h = xskf_pkt__hdr(&pkt, xskf_pkt__inner_l3_off(&pkt));
	CHECK(h == b.frame + 64 && (h[0] >> 4) == 4, "inner L3 pointer is the inner IPv4 header");
	CHECK(xskf_pkt__vlan(&pkt, &tci, &tpid) == XSKF_SRC_NONE, "no VLAN");
	CHECK(xskf_pkt__rx_timestamp(&pkt, &ts) == XSKF_SRC_NONE && ts == 1,
	      "no timestamp, *ts untouched");

	/* after a pull, offsets still count from the frame as received */
	xskf_pkt__pull(&pkt, 50);
	h = xskf_pkt__hdr(&pkt, xskf_pkt__inner_l3_off(&pkt));
	CHECK(pkt.data == b.frame + 50 && h == b.frame + 64, "pull: header pointers unchanged");
	CHECK(xskf_pkt__hdr(&pkt, xskf_pkt__l3_off(&pkt)) == NULL, "pull: pulled header is NULL");

	rx_prepare(&b, &pkt, c_qinq_ipv6_tcp);
	CHECK(xskf_pkt__vlan(&pkt, &tci, &tpid) == XSKF_SRC_SW && tci == 0x20c8 && tpid == 0x88a8,
	      "VLAN from the frame: first tag, S-tag");

	/* what the kfuncs add: a stripped tag and a timestamp */
	b.meta.src = XSKF_SRC_HW << (2 * XSKF_F_VLAN) | XSKF_SRC_HW << (2 * XSKF_F_TIMESTAMP);
	b.meta.vlan_tci = 42;
	b.meta.rx_timestamp = 123456789ull;
	CHECK(xskf_pkt__vlan(&pkt, &tci, NULL) == XSKF_SRC_HW && tci == 42, "VLAN from the NIC");
	CHECK(xskf_pkt__rx_timestamp(&pkt, &ts) == XSKF_SRC_HW && ts == 123456789ull,
	      "timestamp from the NIC");

	/* not valid: hints off, stale or overwritten magic, another layout version */
	pkt.meta = NULL;
	CHECK(!xskf_pkt__meta_valid(&pkt) && xskf_pkt__ptype(&pkt) == 0 &&
		      xskf_pkt__l3_off(&pkt) == 0 && xskf_pkt__vlan(&pkt, &tci, &tpid) == 0,
	      "hints off: everything absent");
	rx_prepare(&b, &pkt, c_ipv4_udp);
	b.meta.magic = 0;
	CHECK(!xskf_pkt__meta_valid(&pkt) && xskf_pkt__l4_off(&pkt) == 0, "zero magic: absent");
	b.meta.magic = XSKF_META_MAGIC + 1;
	CHECK(!xskf_pkt__meta_valid(&pkt), "other layout version: absent");
	b.meta.magic = XSKF_META_MAGIC;
	xskf_pkt__push(&pkt, 0); /* pushing nothing leaves the meta alone */
	CHECK(xskf_pkt__meta_valid(&pkt), "valid again");
}

int main(void)
{
	test_layout();
	test_parse_vectors();
	test_accessors();
	return tap_done();
}
