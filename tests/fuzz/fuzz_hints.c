// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: the hints parser (bpf/xskf_hints_parse.h, the XDP program's parse compiled as
 * plain C, as framework/hints.c uses it for frames without a meta), the accessors of
 * xskf_hints.h and the software RSS hash (framework/hints.c, linked from libxskf).
 *
 * Input: one flags byte, then (flag RAW_META) the 32 bytes of a meta, then the frame.
 *  - the parse: written whole, the same twice; every offset it gives has its whole fixed
 *    header inside the frame, offsets are in header order, the stop layer and everything after
 *    it have none, the tunnel and inner bits only with what announces them, the VLAN tag is the
 *    frame's first; parse_outer() agrees with parse_frame() on the outer frame.
 *  - the accessors, on the meta the XDP program would write: they give the parse back, and
 *    xskf_pkt__hdr() points at the header in the frame, also after a pull (NULL once pulled).
 *  - the hash: the same with the meta as without (the software parse), with the default key
 *    and another; equal to the Toeplitz hash of the addresses (and ports) laid out as the
 *    specification does, with the matching type; -ENOENT exactly when there is no complete
 *    IPv4/IPv6 header.
 *  - with an arbitrary meta (RAW_META; magic forced valid): the accessors return its fields and
 *    xskf_pkt__hdr() NULL or a pointer inside the frame; the hash reads only the frame.
 */
#include <errno.h>
#include <string.h>

#include <xskf_hints.h>

#include "xskf_hints_parse.h"

#include "fuzz.h"

#define RAW_META 0x01 /* flags: a meta from the input, not from the parse */
/* flags >> 4: pull 4 * that many bytes (at most the frame) before the accessors */

static struct xskf_rss *rss52;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const uint8_t key[52] = {
	    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43,
	    0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb,
	    0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01,
	    0xfa, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc};

	(void)argc;
	(void)argv;
	rss52 = xskf_rss__new(key, sizeof(key));
	return rss52 ? 0 : -1;
}

/* Bytes of the fixed header of an L3 type (0: no header of its own to check). */
static uint32_t l3_hlen(uint32_t l3)
{
	switch (l3) {
	case XSKF_PTYPE_L3_IPV4:
	case XSKF_PTYPE_L3_IPV4_OPT:
		return 20;
	case XSKF_PTYPE_L3_IPV6:
	case XSKF_PTYPE_L3_IPV6_EXT:
		return 40;
	case XSKF_PTYPE_L3_ARP:
		return 8;
	case XSKF_PTYPE_L3_OTHER:
		return 1;
	}
	return 0;
}

static uint32_t l4_hlen(uint32_t l4)
{
	switch (l4) {
	case XSKF_PTYPE_L4_TCP:
		return 20;
	case XSKF_PTYPE_L4_UDP:
	case XSKF_PTYPE_L4_ICMP:
	case XSKF_PTYPE_L4_ICMPV6:
		return 8;
	case XSKF_PTYPE_L4_SCTP:
		return 12;
	case XSKF_PTYPE_L4_OTHER:
		return 1;
	}
	return 0;
}

/*
 * One frame level (outer or inner): @pt its L2/L3/L4/FRAG bits (unshifted), @at where it
 * starts, @l3 and @l4 its offsets, @stop how far the parse of this level got (0: to the end,
 * 1: stopped at L2, 2: at L3, 3: at L4).
 */
static void check_level(const uint8_t *f, uint32_t len, uint32_t pt, uint32_t at, uint32_t l3,
			uint32_t l4, uint32_t stop, const char *lv)
{
	uint32_t l2t = pt & XSKF_PTYPE_L2_MASK, l3t = pt & XSKF_PTYPE_L3_MASK;
	uint32_t l4t = pt & XSKF_PTYPE_L4_MASK;

	FUZZ_ASSERT(!(pt & ~0x1ffu), "%s ptype %#x: bits beyond a level", lv, pt);
	if (stop == 1)
		FUZZ_ASSERT(!l3 && !l4, "%s stopped at L2 with l3 %u l4 %u", lv, l3, l4);
	if (stop == 2)
		FUZZ_ASSERT(!l3 && !l4, "%s stopped at L3 with l3 %u l4 %u", lv, l3, l4);
	if (stop == 3)
		FUZZ_ASSERT(!l4, "%s stopped at L4 with l4 %u", lv, l4);
	if (l3) {
		FUZZ_ASSERT(l3t != XSKF_PTYPE_L3_NONE, "%s l3 %u without an L3 type", lv, l3);
		FUZZ_ASSERT(l3 <= XSKF_PARSE_OFF_MAX && l3 + l3_hlen(l3t) <= len,
			    "%s l3 %u type %#x past the frame (%u)", lv, l3, l3t, len);
		/* an Ethernet header and its tags, or (GRE, Geneve) the L3 header right away */
		if (l2t != XSKF_PTYPE_L2_NONE)
			FUZZ_ASSERT(l3 == at + 14 + 4 * (l2t - 1), "%s l3 %u, L2 %u at %u", lv, l3,
				    l2t, at);
		else
			FUZZ_ASSERT(l3 == at, "%s l3 %u, no L2, level at %u", lv, l3, at);
	}
	if (l3 && (l3t == XSKF_PTYPE_L3_IPV4 || l3t == XSKF_PTYPE_L3_IPV4_OPT)) {
		uint32_t ihl = (f[l3] & 0xfu) * 4;

		FUZZ_ASSERT(f[l3] >> 4 == 4 && ihl >= 20 && l3 + ihl <= len,
			    "%s IPv4 at %u: version/IHL %#x, frame %u", lv, l3, f[l3], len);
		FUZZ_ASSERT((ihl > 20) == (l3t == XSKF_PTYPE_L3_IPV4_OPT),
			    "%s IPv4 IHL %u but type %#x", lv, ihl, l3t);
		if (l4)
			FUZZ_ASSERT(l4 == l3 + ihl, "%s l4 %u, IPv4 at %u IHL %u", lv, l4, l3, ihl);
		FUZZ_ASSERT(!!(pt & XSKF_PTYPE_FRAG) == !!((f[l3 + 6] << 8 | f[l3 + 7]) & 0x3fff),
			    "%s FRAG bit and the IPv4 fragment field disagree", lv);
	}
	if (l3 && (l3t == XSKF_PTYPE_L3_IPV6 || l3t == XSKF_PTYPE_L3_IPV6_EXT)) {
		FUZZ_ASSERT(f[l3] >> 4 == 6, "%s IPv6 at %u: version %u", lv, l3, f[l3] >> 4);
		if (l4)
			FUZZ_ASSERT(l4 >= l3 + 40, "%s l4 %u inside the IPv6 header at %u", lv, l4,
				    l3);
		if (l4 && l3t == XSKF_PTYPE_L3_IPV6)
			FUZZ_ASSERT(l4 == l3 + 40, "%s l4 %u, IPv6 without extensions at %u", lv,
				    l4, l3);
	}
	if (l4) {
		FUZZ_ASSERT(l3, "%s l4 %u without l3", lv, l4);
		FUZZ_ASSERT(l4t != XSKF_PTYPE_L4_NONE && l4t != XSKF_PTYPE_L4_FRAG,
			    "%s l4 %u with L4 type %#x", lv, l4, l4t);
		FUZZ_ASSERT(l4 <= XSKF_PARSE_OFF_MAX && l4 + l4_hlen(l4t) <= len,
			    "%s l4 %u type %#x past the frame (%u)", lv, l4, l4t, len);
		if (l4t == XSKF_PTYPE_L4_TCP)
			FUZZ_ASSERT(f[l4 + 12] >> 4 >= 5, "%s TCP data offset %u", lv,
				    f[l4 + 12] >> 4);
	}
	if (l4t == XSKF_PTYPE_L4_FRAG)
		FUZZ_ASSERT(pt & XSKF_PTYPE_FRAG, "%s L4_FRAG without FRAG", lv);
	if (l4t != XSKF_PTYPE_L4_NONE)
		FUZZ_ASSERT(l3t >= XSKF_PTYPE_L3_IPV4 && l3t <= XSKF_PTYPE_L3_IPV6_EXT,
			    "%s L4 type %#x over L3 %#x", lv, l4t, l3t);
	if (!stop) {
		/* parsed to the end: each layer it names is there (OTHER: where it starts, if it
		 * does) */
		if (l3t != XSKF_PTYPE_L3_NONE && l3t != XSKF_PTYPE_L3_OTHER)
			FUZZ_ASSERT(l3, "%s L3 type %#x complete but l3 0", lv, l3t);
		if (l4t != XSKF_PTYPE_L4_NONE && l4t != XSKF_PTYPE_L4_FRAG &&
		    l4t != XSKF_PTYPE_L4_OTHER)
			FUZZ_ASSERT(l4, "%s L4 type %#x complete but l4 0", lv, l4t);
	}
}

static void check_parse(const uint8_t *f, uint32_t len, const struct xskf_parse *p)
{
	uint32_t pt = p->ptype, stop = (pt & XSKF_PTYPE_STOP_MASK) >> 24;
	uint32_t tun = pt & XSKF_PTYPE_TUNNEL_MASK, in = xskf_ptype__inner(pt);
	uint32_t l2t = pt & XSKF_PTYPE_L2_MASK;

	FUZZ_ASSERT(
	    !(pt & ~(0x7ffu | XSKF_PTYPE_INNER_MASK | XSKF_PTYPE_STOP_MASK | XSKF_PTYPE_TRUNC)),
	    "ptype %#x: undefined bits", pt);
	FUZZ_ASSERT(stop || !(pt & XSKF_PTYPE_TRUNC), "TRUNC without a stop layer: %#x", pt);
	FUZZ_ASSERT(p->l3_off <= 22, "l3 %u does not fit the meta's l3_off", p->l3_off);
	check_level(f, len, pt & 0x1ffu, 0, p->l3_off, p->l4_off, stop <= 3 ? stop : 0, "outer");

	/* L2 */
	FUZZ_ASSERT((len < 14) == (stop == 1 && l2t == XSKF_PTYPE_L2_NONE),
		    "frame of %u: L2 %u stop %u", len, l2t, stop);
	if (p->vlan) {
		uint16_t tpid = (uint16_t)(f[12] << 8 | f[13]);

		FUZZ_ASSERT(l2t >= XSKF_PTYPE_L2_ETHER_VLAN && len >= 18 &&
				tpid == (p->vlan == 2 ? 0x88a8 : 0x8100) &&
				p->vlan_tci == (f[14] << 8 | f[15]),
			    "VLAN %u tci %#x: L2 %u, tpid %#x", p->vlan, p->vlan_tci, l2t, tpid);
	} else {
		FUZZ_ASSERT(l2t <= XSKF_PTYPE_L2_ETHER || stop == 1, "L2 %u but no tag", l2t);
	}

	/* tunnel: announced by the outer L4 header, read after it */
	if (tun) {
		FUZZ_ASSERT(p->l4_off && !(pt & XSKF_PTYPE_FRAG),
			    "tunnel %#x without L4 / fragment", tun);
		FUZZ_ASSERT((tun == XSKF_PTYPE_TUNNEL_GRE) ==
				((pt & XSKF_PTYPE_L4_MASK) == XSKF_PTYPE_L4_OTHER),
			    "tunnel %#x over L4 %#x", tun, pt & XSKF_PTYPE_L4_MASK);
		if (tun != XSKF_PTYPE_TUNNEL_GRE) {
			uint32_t port = (uint32_t)(f[p->l4_off + 2] << 8 | f[p->l4_off + 3]);

			FUZZ_ASSERT(port == (tun == XSKF_PTYPE_TUNNEL_VXLAN ? XSKF_PORT_VXLAN
									    : XSKF_PORT_GENEVE),
				    "tunnel %#x on UDP port %u", tun, port);
		}
	}
	if (stop && stop <= 3)
		FUZZ_ASSERT(!tun, "outer frame stopped (%u) with tunnel %#x", stop, tun);
	if (!p->inner_off) {
		FUZZ_ASSERT(!in && !p->inner_l3_off && !p->inner_l4_off,
			    "inner %#x l3 %u l4 %u without inner_off", in, p->inner_l3_off,
			    p->inner_l4_off);
		FUZZ_ASSERT(!tun || stop == 4, "tunnel %#x, no inner frame, stop %u", tun, stop);
		return;
	}
	FUZZ_ASSERT(tun && (stop == 0 || stop >= 5), "inner_off %u: tunnel %#x stop %u",
		    p->inner_off, tun, stop);
	FUZZ_ASSERT(p->inner_off >= p->l4_off + 4 && p->inner_off <= len &&
			p->inner_off <= XSKF_PARSE_OFF_MAX,
		    "inner_off %u: l4 %u frame %u", p->inner_off, p->l4_off, len);
	/* VXLAN carries Ethernet: no inner L2 only when the frame ends inside it */
	if (tun == XSKF_PTYPE_TUNNEL_VXLAN)
		FUZZ_ASSERT(p->inner_off == p->l4_off + 16 &&
				((in & XSKF_PTYPE_L2_MASK) != XSKF_PTYPE_L2_NONE ||
				 (stop == 5 && (pt & XSKF_PTYPE_TRUNC))),
			    "VXLAN: inner_off %u l4 %u inner %#x stop %u", p->inner_off, p->l4_off,
			    in, stop);
	check_level(f, len, in, p->inner_off, p->inner_l3_off, p->inner_l4_off,
		    stop >= 5 ? stop - 4 : 0, "inner");
	FUZZ_ASSERT(!in || (in & XSKF_PTYPE_L2_MASK) || (in & XSKF_PTYPE_L3_MASK) || stop == 5,
		    "inner %#x", in);
}

/* The software hash as the specification lays its input out, from the parse. */
static int ref_hash(const struct xskf_rss *rss, const uint8_t *f, const struct xskf_parse *p,
		    uint32_t *hash, uint16_t *type)
{
	uint32_t l3t = p->ptype & XSKF_PTYPE_L3_MASK, l4t = p->ptype & XSKF_PTYPE_L4_MASK;
	bool v4 = l3t == XSKF_PTYPE_L3_IPV4 || l3t == XSKF_PTYPE_L3_IPV4_OPT;
	bool v6 = l3t == XSKF_PTYPE_L3_IPV6 || l3t == XSKF_PTYPE_L3_IPV6_EXT;
	bool ports = (l4t == XSKF_PTYPE_L4_TCP || l4t == XSKF_PTYPE_L4_UDP) && p->l4_off &&
		     !(p->ptype & XSKF_PTYPE_FRAG);
	uint8_t in[36];
	size_t n;

	if (!p->l3_off || (!v4 && !v6))
		return -ENOENT;
	n = v4 ? 8 : 32;
	memcpy(in, f + p->l3_off + (v4 ? 12 : 8), n);
	if (ports) {
		memcpy(in + n, f + p->l4_off, 4);
		n += 4;
	}
	*hash = xskf_rss__hash(rss, in, n);
	if (!ports)
		*type = v4 ? XDP_RSS_TYPE_L3_IPV4 : XDP_RSS_TYPE_L3_IPV6;
	else if (l4t == XSKF_PTYPE_L4_TCP)
		*type = v4 ? XDP_RSS_TYPE_L4_IPV4_TCP : XDP_RSS_TYPE_L4_IPV6_TCP;
	else
		*type = v4 ? XDP_RSS_TYPE_L4_IPV4_UDP : XDP_RSS_TYPE_L4_IPV6_UDP;
	return 0;
}

static void check_hash(const struct xskf_rss *rss, const struct xskf_pkt *pkt, int want_rc,
		       uint32_t want_hash, uint16_t want_type, const char *how)
{
	uint32_t hash = 0x5a5a5a5a;
	uint16_t type = 0x5a5a;
	int rc = xskf_rss__hash_pkt(rss, pkt, &hash, &type);

	FUZZ_ASSERT(rc == want_rc, "%s: rc %d, want %d", how, rc, want_rc);
	if (!rc)
		FUZZ_ASSERT(hash == want_hash && type == want_type,
			    "%s: hash %#x type %#x, want %#x %#x", how, hash, type, want_hash,
			    want_type);
}

/* What xskf_hints_write() writes without kfuncs (bpf/xskf_hints.bpf.h), from the parse. */
static void meta_from_parse(struct xskf_meta *m, const struct xskf_parse *p)
{
	memset(m, 0, sizeof(*m));
	m->ptype = p->ptype;
	m->vlan_tci = p->vlan_tci;
	m->l3_off = (uint8_t)p->l3_off;
	m->l4_off = p->l4_off;
	m->inner_off = p->inner_off;
	m->inner_l3_off = p->inner_l3_off;
	m->inner_l4_off = p->inner_l4_off;
	if (p->vlan)
		m->src =
		    XSKF_SRC_SW << (2 * XSKF_F_VLAN) | (p->vlan == 2 ? XSKF_META_VLAN_STAG : 0);
	m->magic = XSKF_META_MAGIC;
}

static void check_hdr(const struct xskf_pkt *pkt, const uint8_t *frame, uint16_t off)
{
	const uint8_t *h = xskf_pkt__hdr(pkt, off);
	bool in = off && frame + off >= pkt->data && frame + off < pkt->data + pkt->len;

	FUZZ_ASSERT(h == (in ? frame + off : NULL), "hdr(%u) = %p, frame %p data %p len %u", off,
		    (const void *)h, (const void *)frame, (const void *)pkt->data, pkt->len);
}

static void check_accessors(struct xskf_pkt *pkt, const struct xskf_meta *m, const uint8_t *frame)
{
	uint16_t tci = 0, tpid = 0;
	uint64_t ts = 0;
	enum xskf_src src;

	FUZZ_ASSERT(xskf_pkt__meta(pkt) == m && xskf_pkt__meta_valid(pkt), "meta not found");
	FUZZ_ASSERT(xskf_pkt__ptype(pkt) == m->ptype && xskf_pkt__l3_off(pkt) == m->l3_off &&
			xskf_pkt__l4_off(pkt) == m->l4_off &&
			xskf_pkt__inner_off(pkt) == m->inner_off &&
			xskf_pkt__inner_l3_off(pkt) == m->inner_l3_off &&
			xskf_pkt__inner_l4_off(pkt) == m->inner_l4_off,
		    "accessors do not give the meta back");
	check_hdr(pkt, frame, m->l3_off);
	check_hdr(pkt, frame, m->l4_off);
	check_hdr(pkt, frame, m->inner_off);
	check_hdr(pkt, frame, m->inner_l3_off);
	check_hdr(pkt, frame, m->inner_l4_off);
	check_hdr(pkt, frame, (uint16_t)m->rx_hash); /* any offset */
	src = xskf_pkt__vlan(pkt, &tci, &tpid);
	FUZZ_ASSERT(src == XSKF_META_SRC(m->src, XSKF_F_VLAN), "vlan source %d", src);
	if (src)
		FUZZ_ASSERT(tci == m->vlan_tci &&
				tpid == (m->src & XSKF_META_VLAN_STAG ? 0x88a8 : 0x8100),
			    "vlan tci %#x tpid %#x", tci, tpid);
	src = xskf_pkt__rx_timestamp(pkt, &ts);
	FUZZ_ASSERT(src == (XSKF_META_SRC(m->src, XSKF_F_TIMESTAMP) == XSKF_SRC_HW
				? XSKF_SRC_HW
				: XSKF_SRC_NONE) &&
			(!src || ts == m->rx_timestamp),
		    "timestamp source %d", src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xskf_parse p, p2, outer;
	struct xskf_pkt pkt;
	struct xskf_meta *m;
	uint32_t len, hash = 0, hash52 = 0, pull, h;
	uint16_t type = 0, type52 = 0, t;
	uint8_t flags, *buf, *frame;
	size_t raw;
	int rc, rc52;

	if (size < 1)
		return 0;
	flags = data[0];
	raw = flags & RAW_META ? sizeof(*m) : 0;
	if (size - 1 < raw || size - 1 - raw > 0xffff)
		return 0;
	len = (uint32_t)(size - 1 - raw);
	/* the meta right in front of the frame, and nothing after it: ASan sees every overrun */
	buf = malloc(sizeof(*m) + len);
	if (!buf)
		return 0;
	m = (struct xskf_meta *)buf;
	frame = buf + sizeof(*m);
	memcpy(m, data + 1, raw);
	memcpy(frame, data + 1 + raw, len);

	/* the parse: all of it written, the same each time */
	memset(&p, 0xa5, sizeof(p));
	memset(&p2, 0x5a, sizeof(p2));
	xskf_parse_frame(frame, frame + len, &p);
	xskf_parse_frame(frame, frame + len, &p2);
	FUZZ_ASSERT(p.ptype == p2.ptype && p.l3_off == p2.l3_off && p.l4_off == p2.l4_off &&
			p.inner_off == p2.inner_off && p.inner_l3_off == p2.inner_l3_off &&
			p.inner_l4_off == p2.inner_l4_off && p.vlan == p2.vlan &&
			(!p.vlan || p.vlan_tci == p2.vlan_tci),
		    "two parses of the same frame differ (a field not written?)");
	check_parse(frame, len, &p);
	xskf_parse_outer(frame, frame + len, &outer);
	FUZZ_ASSERT((outer.ptype & 0x7ffu) == (p.ptype & 0x7ffu) && outer.l3_off == p.l3_off &&
			outer.l4_off == p.l4_off && outer.vlan == p.vlan && !outer.inner_off &&
			!outer.inner_l3_off && !outer.inner_l4_off,
		    "outer parse %#x differs from the whole parse %#x", outer.ptype, p.ptype);
	FUZZ_ASSERT(!(outer.ptype & XSKF_PTYPE_STOP_MASK) || outer.ptype == p.ptype,
		    "outer parse stopped (%#x) but the whole parse went on (%#x)", outer.ptype,
		    p.ptype);

	/* the hash, without a meta: the software parse */
	memset(&pkt, 0, sizeof(pkt));
	pkt.data = frame;
	pkt.len = len;
	rc = ref_hash(xskf_rss__default(), frame, &p, &hash, &type);
	rc52 = ref_hash(rss52, frame, &p, &hash52, &type52);
	check_hash(NULL, &pkt, rc, hash, type, "no meta, default key");
	check_hash(rss52, &pkt, rc52, hash52, type52, "no meta, 52-byte key");
	FUZZ_ASSERT(xskf_pkt__rx_hash(&pkt, &h, &t) == (rc ? XSKF_SRC_NONE : XSKF_SRC_SW) &&
			(rc || (h == hash && t == type)),
		    "rx_hash without a meta");

	if (!(flags & RAW_META)) {
		/* the meta the XDP program writes: the accessors give the parse back */
		meta_from_parse(m, &p);
		pkt.meta = m;
		check_accessors(&pkt, m, frame);
		check_hash(NULL, &pkt, rc, hash, type, "meta, default key");
		check_hash(rss52, &pkt, rc52, hash52, type52, "meta, 52-byte key");
		/* after a pull: offsets still from the frame as received, the hash unchanged */
		pull = 4u * (flags >> 4);
		if (pull > len)
			pull = len;
		xskf_pkt__pull(&pkt, pull);
		check_accessors(&pkt, m, frame);
		check_hash(NULL, &pkt, rc, hash, type, "meta, after a pull");
		/* an invalid magic: the accessors see nothing, the hash parses the frame itself */
		m->magic = (uint16_t)~XSKF_META_MAGIC;
		FUZZ_ASSERT(!xskf_pkt__meta(&pkt) && !xskf_pkt__ptype(&pkt) &&
				!xskf_pkt__l3_off(&pkt) && !xskf_pkt__hdr(&pkt, p.l4_off),
			    "invalid magic taken as a meta");
	} else {
		/* any meta at all: no read outside the frame, fields given back as they are */
		m->magic = XSKF_META_MAGIC;
		pkt.meta = m;
		check_accessors(&pkt, m, frame);
		rc = xskf_rss__hash_pkt(rss52, &pkt, &h, &t);
		FUZZ_ASSERT(rc == 0 || rc == -ENOENT, "hash rc %d", rc);
		if (!rc)
			FUZZ_ASSERT(
			    t == XDP_RSS_TYPE_L3_IPV4 || t == XDP_RSS_TYPE_L3_IPV6 ||
				t == XDP_RSS_TYPE_L4_IPV4_TCP || t == XDP_RSS_TYPE_L4_IPV4_UDP ||
				t == XDP_RSS_TYPE_L4_IPV6_TCP || t == XDP_RSS_TYPE_L4_IPV6_UDP,
			    "hash type %#x", t);
		if (XSKF_META_SRC(m->src, XSKF_F_HASH) == XSKF_SRC_HW)
			FUZZ_ASSERT(xskf_pkt__rx_hash(&pkt, &h, &t) == XSKF_SRC_HW &&
					h == m->rx_hash && t == m->hash_type,
				    "hardware hash not given back");
	}
	free(buf);
	return 0;
}
