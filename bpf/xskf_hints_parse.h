/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The packet-type parse behind RX hints: Ethernet, up to two VLAN tags, IPv4 (options), IPv6
 * (a bounded chain of extension headers), ARP, TCP/UDP/SCTP/ICMP/ICMPv6, fragments, and one
 * level of tunnel (VXLAN, Geneve, GRE) with its inner frame.
 *
 * Plain C over (data, data_end) with a bounds check before every read, so that the same code is
 * verified in the XDP program (xskf_hints.bpf.h) and runs in userspace (framework/hints.c, when
 * a frame has no meta, and the unit tests). No helpers, no maps, no globals.
 *
 * Verifier notes: every header is reached as data + off with off a scalar clamped to
 * [0, XSKF_PARSE_OFF_MAX], then checked against data_end for the bytes about to be read, with a
 * constant length. The clamp is an asm statement in BPF so that clang cannot drop it; offsets
 * carried from one header to the next are "forgotten" (XSKF_PARSE_FORGET) so that all paths
 * reach the next header in one verifier state. Both keep the verifier's work small (see
 * docs/hints.md); neither changes a value.
 */
#ifndef XSKF_HINTS_PARSE_H
#define XSKF_HINTS_PARSE_H

#include <linux/types.h>
#include <stdbool.h>

#include "xskf_meta.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/* Headers must start within the first 4 KiB of the frame (frames are at most 4 KiB). */
#define XSKF_PARSE_OFF_MAX 0xfff
/* IPv6 extension headers followed before giving up (STOP_L3, not truncated). */
#ifndef XSKF_PARSE_MAX_EXTHDR
#define XSKF_PARSE_MAX_EXTHDR 8
#endif

#define XSKF_ETH_P_IP	  0x0800
#define XSKF_ETH_P_ARP	  0x0806
#define XSKF_ETH_P_8021Q  0x8100
#define XSKF_ETH_P_8021AD 0x88a8
#define XSKF_ETH_P_IPV6	  0x86dd
#define XSKF_ETH_P_TEB	  0x6558 /* transparent Ethernet bridging: GRE/Geneve carry Ethernet */

#define XSKF_PORT_VXLAN	 4789
#define XSKF_PORT_GENEVE 6081

/* Result of a parse, in host order. Offsets are from the frame start; 0 = absent. */
struct xskf_parse {
	__u32 ptype;	 /* XSKF_PTYPE_* */
	__u16 l3_off;
	__u16 l4_off;
	__u16 inner_off;
	__u16 inner_l3_off;
	__u16 inner_l4_off;
	__u16 vlan_tci;	 /* first tag of the frame, if any */
	__u8 vlan;	 /* 0: no tag, 1: 802.1Q first, 2: 802.1ad first */
	__u8 pad[3];
};

/* One frame level (outer, or the frame inside a tunnel), before shifting into ptype. */
struct xskf_parse_level {
	__u32 ptype; /* L2/L3/L4/FRAG bits */
	__u32 stop;  /* 0, or 1 (L2), 2 (L3), 3 (L4), ORed with XSKF_LV_TRUNC */
	__u32 l3_off;
	__u32 l4_off;
	__u16 vlan_tci;
	__u8 vlan;
	__u8 pad;
};

/* in xskf_parse_level.stop: becomes XSKF_PTYPE_TRUNC once shifted into ptype */
#define XSKF_LV_TRUNC (XSKF_PTYPE_TRUNC >> 24)

#ifdef __bpf__
#define XSKF_UNROLL _Pragma("unroll")
/* an AND that clang cannot drop as redundant: the verifier must see the bound */
#define XSKF_PARSE_CLAMP(v) asm volatile("%0 &= 0xfff" : "+r"(v))
#else
#define XSKF_UNROLL
#endif

/*
 * Make the verifier forget what it knows of offset @v (already checked <= XSKF_PARSE_OFF_MAX),
 * using any value @x it does not know (read from the packet): v ^ x ^ x is v, but the verifier
 * only keeps "somewhere in [0, 0xfff]". Without it every path through VLAN tags, IPv4 options
 * and each extension header count carries its own exact offset into all later headers, and the
 * verifier walks the later headers once per path (52,000 instead of 11,000 instructions for
 * the outer parse alone). A no-op in userspace.
 */
#ifdef __bpf__
#define XSKF_PARSE_FORGET(v, x)                                                                    \
	asm volatile("%0 ^= %1; %0 ^= %1; %0 &= 0xfff" : "+r"(v) : "r"((__u32)(x)))
#else
#define XSKF_PARSE_FORGET(v, x) ((void)(x))
#endif

/* Big-endian 16 bits, byte by byte: no alignment assumption, same code in BPF and userspace. */
static __always_inline __u16 xskf_rd16(const __u8 *p)
{
	return (__u16)(p[0] << 8 | p[1]);
}

/* Pointer to @len bytes at @off, or NULL when the frame is shorter (or off is out of reach). */
static __always_inline const __u8 *xskf_hdr(const __u8 *data, const __u8 *end, __u32 off,
					    const __u32 len)
{
#ifdef __bpf__
	const __u8 *h;

	if (off > XSKF_PARSE_OFF_MAX)
		return 0;
	XSKF_PARSE_CLAMP(off);
	h = data + off;
	/* pointer compare with a constant length: the form the verifier turns into a range */
	if (h + len > end)
		return 0;
	return h;
#else
	if (off > XSKF_PARSE_OFF_MAX || off + len > (__u32)(end - data))
		return 0;
	return data + off;
#endif
}

/*
 * The L4 header at @off, of IP protocol @proto. In the outer frame (@outer, a constant), also
 * tell a tunnel by its UDP port or protocol: only the header after it is read later, by
 * xskf_parse_inner().
 */
static __always_inline void xskf_parse_l4(const __u8 *data, const __u8 *end, __u32 off,
					  __u8 proto, struct xskf_parse_level *lv, const bool outer)
{
	const __u8 *h;
	__u16 port;

	/* each case checks its own constant length: what the verifier tracks best */
	switch (proto) {
	case 6: /* TCP */
		lv->ptype |= XSKF_PTYPE_L4_TCP;
		h = xskf_hdr(data, end, off, 20);
		if (h && (h[12] >> 4) < 5) {
			lv->stop = 3; /* data offset below the minimum header */
			return;
		}
		break;
	case 17: /* UDP */
		lv->ptype |= XSKF_PTYPE_L4_UDP;
		h = xskf_hdr(data, end, off, 8);
		if (outer && h && !(lv->ptype & XSKF_PTYPE_FRAG)) {
			port = xskf_rd16(h + 2);
			if (port == XSKF_PORT_VXLAN)
				lv->ptype |= XSKF_PTYPE_TUNNEL_VXLAN;
			else if (port == XSKF_PORT_GENEVE)
				lv->ptype |= XSKF_PTYPE_TUNNEL_GENEVE;
		}
		break;
	case 132: /* SCTP common header */
		lv->ptype |= XSKF_PTYPE_L4_SCTP;
		h = xskf_hdr(data, end, off, 12);
		break;
	case 1: /* ICMP */
		lv->ptype |= XSKF_PTYPE_L4_ICMP;
		h = xskf_hdr(data, end, off, 8);
		break;
	case 58: /* ICMPv6 */
		lv->ptype |= XSKF_PTYPE_L4_ICMPV6;
		h = xskf_hdr(data, end, off, 8);
		break;
	case 59: /* IPv6 "no next header" */
		return;
	default: /* GRE, ESP, ...: unknown layout, but say where it starts if it does */
		lv->ptype |= XSKF_PTYPE_L4_OTHER;
		if (xskf_hdr(data, end, off, 1)) {
			lv->l4_off = off;
			if (outer && proto == 47 && !(lv->ptype & XSKF_PTYPE_FRAG))
				lv->ptype |= XSKF_PTYPE_TUNNEL_GRE;
		}
		return;
	}
	if (!h) {
		lv->stop = 3 | XSKF_LV_TRUNC;
		return;
	}
	lv->l4_off = off;
}

static __always_inline void xskf_parse_ipv4(const __u8 *data, const __u8 *end, __u32 off,
					    struct xskf_parse_level *lv, const bool outer)
{
	const __u8 *h = xskf_hdr(data, end, off, 20);
	__u32 ihl;
	__u16 frag;

	lv->ptype |= XSKF_PTYPE_L3_IPV4;
	if (!h) {
		lv->stop = 2 | XSKF_LV_TRUNC;
		return;
	}
	ihl = (h[0] & 0xf) * 4;
	if ((h[0] >> 4) != 4 || ihl < 20) {
		lv->stop = 2;
		return;
	}
	if (ihl > 20) {
		lv->ptype ^= XSKF_PTYPE_L3_IPV4 ^ XSKF_PTYPE_L3_IPV4_OPT;
		if (!xskf_hdr(data, end, off + ihl, 0)) {
			lv->stop = 2 | XSKF_LV_TRUNC;
			return;
		}
	}
	lv->l3_off = off;
	frag = xskf_rd16(h + 6);
	if (frag & 0x3fff) { /* MF set or a fragment offset: a fragment */
		lv->ptype |= XSKF_PTYPE_FRAG;
		if (frag & 0x1fff) { /* not the first: no L4 header here */
			lv->ptype |= XSKF_PTYPE_L4_FRAG;
			return;
		}
	}
	xskf_parse_l4(data, end, off + ihl, h[9], lv, outer);
}

static __always_inline bool xskf_ipv6_is_ext(__u8 nh)
{
	/* hop-by-hop, routing, fragment, destination options, authentication */
	return nh == 0 || nh == 43 || nh == 44 || nh == 60 || nh == 51;
}

static __always_inline void xskf_parse_ipv6(const __u8 *data, const __u8 *end, __u32 off,
					    struct xskf_parse_level *lv, const bool outer)
{
	const __u8 *h = xskf_hdr(data, end, off, 40);
	__u32 i, len, l3 = off;
	__u8 nh;

	lv->ptype |= XSKF_PTYPE_L3_IPV6;
	if (!h) {
		lv->stop = 2 | XSKF_LV_TRUNC;
		return;
	}
	if ((h[0] >> 4) != 6) {
		lv->stop = 2;
		return;
	}
	nh = h[6];
	off += 40;
	if (xskf_ipv6_is_ext(nh))
		lv->ptype ^= XSKF_PTYPE_L3_IPV6 ^ XSKF_PTYPE_L3_IPV6_EXT;
	XSKF_UNROLL
	for (i = 0; i < XSKF_PARSE_MAX_EXTHDR; i++) {
		if (!xskf_ipv6_is_ext(nh))
			break;
		/* every extension header we follow is at least 8 bytes */
		h = xskf_hdr(data, end, off, 8);
		if (!h) {
			lv->stop = 2 | XSKF_LV_TRUNC;
			return;
		}
		if (nh == 44) { /* fragment header: fixed 8 bytes */
			lv->ptype |= XSKF_PTYPE_FRAG;
			if (xskf_rd16(h + 2) & 0xfff8) { /* not the first: no L4 header here */
				lv->ptype |= XSKF_PTYPE_L4_FRAG;
				lv->l3_off = l3;
				return;
			}
			len = 8;
		} else if (nh == 51) { /* AH: length in 4-byte units, minus 2 */
			len = ((__u32)h[1] + 2) * 4;
		} else { /* hop-by-hop, routing, destination options: 8-byte units, minus 1 */
			len = ((__u32)h[1] + 1) * 8;
		}
		nh = h[0];
		off += len;
		if (off > XSKF_PARSE_OFF_MAX) {
			lv->stop = 2 | XSKF_LV_TRUNC;
			return;
		}
		XSKF_PARSE_FORGET(off, xskf_rd16(h));
	}
	if (xskf_ipv6_is_ext(nh)) { /* a chain longer than we follow */
		lv->stop = 2;
		return;
	}
	lv->l3_off = l3;
	xskf_parse_l4(data, end, off, nh, lv, outer);
}

/*
 * Parse one frame level starting at @off: an Ethernet header when @proto is 0, else an L3
 * header of EtherType @proto (GRE and Geneve can carry IP directly).
 */
static __always_inline void xskf_parse_level(const __u8 *data, const __u8 *end, __u32 off,
					     __u16 proto, struct xskf_parse_level *lv,
					     const bool outer)
{
	const __u8 *h;
	__u32 i;

	if (!proto) {
		h = xskf_hdr(data, end, off, 14);
		if (!h) {
			lv->stop = 1 | XSKF_LV_TRUNC;
			return;
		}
		lv->ptype = XSKF_PTYPE_L2_ETHER;
		proto = xskf_rd16(h + 12);
		off += 14;
		XSKF_UNROLL
		for (i = 0; i < 2; i++) {
			if (proto != XSKF_ETH_P_8021Q && proto != XSKF_ETH_P_8021AD)
				break;
			lv->ptype++; /* ETHER -> ETHER_VLAN -> ETHER_QINQ */
			h = xskf_hdr(data, end, off, 4);
			if (!h) {
				lv->stop = 1 | XSKF_LV_TRUNC;
				return;
			}
			if (i == 0) {
				lv->vlan = proto == XSKF_ETH_P_8021AD ? 2 : 1;
				lv->vlan_tci = xskf_rd16(h);
			}
			proto = xskf_rd16(h + 2);
			off += 4;
		}
	}
	if (off <= XSKF_PARSE_OFF_MAX) /* beyond, xskf_hdr() fails below */
		XSKF_PARSE_FORGET(off, proto);
	switch (proto) {
	case XSKF_ETH_P_IP:
		xskf_parse_ipv4(data, end, off, lv, outer);
		break;
	case XSKF_ETH_P_IPV6:
		xskf_parse_ipv6(data, end, off, lv, outer);
		break;
	case XSKF_ETH_P_ARP:
		lv->ptype |= XSKF_PTYPE_L3_ARP;
		if (!xskf_hdr(data, end, off, 8)) { /* fixed part of the ARP header */
			lv->stop = 2 | XSKF_LV_TRUNC;
			return;
		}
		lv->l3_off = off;
		break;
	default: /* a third VLAN tag, MPLS, LLDP, ...: say where it starts */
		lv->ptype |= XSKF_PTYPE_L3_OTHER;
		if (xskf_hdr(data, end, off, 1))
			lv->l3_off = off;
		break;
	}
}

/*
 * xskf_parse_outer() - parse the outer frame [data, data_end) into @p, which it fills: L2 (and
 * the first VLAN tag), L3, L4, and the tunnel type if the L4 header announces one.
 */
static __always_inline void xskf_parse_outer(const void *data, const void *data_end,
					     struct xskf_parse *p)
{
	struct xskf_parse_level lv = {};

	xskf_parse_level((const __u8 *)data, (const __u8 *)data_end, 0, 0, &lv, true);
	p->ptype = lv.ptype | lv.stop << 24;
	p->l3_off = (__u16)lv.l3_off;
	p->l4_off = (__u16)lv.l4_off;
	p->inner_off = p->inner_l3_off = p->inner_l4_off = 0;
	p->vlan = lv.vlan;
	p->vlan_tci = lv.vlan_tci;
}

/*
 * Find where the frame inside the tunnel starts. Returns its offset and sets *proto (0:
 * Ethernet, else its EtherType), or returns 0 and sets *stop (XSKF_PTYPE_STOP_TUNNEL, with
 * XSKF_PTYPE_TRUNC when the tunnel header is cut short).
 */
static __always_inline __u32 xskf_parse_tunnel(const __u8 *data, const __u8 *end, __u32 tun,
					       __u32 off, __u16 *proto, __u32 *stop)
{
	const __u8 *h;
	__u32 inner;
	__u16 flags;

	*stop = XSKF_PTYPE_STOP_TUNNEL | XSKF_PTYPE_TRUNC;
	/* each branch reads its header through its own checked pointer (no shared tail) */
	if (tun == XSKF_PTYPE_TUNNEL_GRE) {
		h = xskf_hdr(data, end, off, 4);
		if (!h)
			return 0;
		flags = xskf_rd16(h);
		if (flags & 0x4007) { /* routing present (RFC 1701) or version != 0 (PPTP) */
			*stop = XSKF_PTYPE_STOP_TUNNEL;
			return 0;
		}
		*proto = xskf_rd16(h + 2);
		/* optional checksum+reserved, key, sequence number: 4 bytes each */
		inner = off + 4 + ((flags >> 15) & 1) * 4 + ((flags >> 13) & 1) * 4 +
			((flags >> 12) & 1) * 4;
	} else if (tun == XSKF_PTYPE_TUNNEL_VXLAN) {
		h = xskf_hdr(data, end, off + 8, 8); /* after the UDP header */
		if (!h)
			return 0;
		if (!(h[0] & 0x08)) { /* the I flag: a valid VNI */
			*stop = XSKF_PTYPE_STOP_TUNNEL;
			return 0;
		}
		*proto = 0;
		inner = off + 16;
	} else {
		h = xskf_hdr(data, end, off + 8, 8);
		if (!h)
			return 0;
		if (h[0] >> 6) { /* Geneve version 0 only */
			*stop = XSKF_PTYPE_STOP_TUNNEL;
			return 0;
		}
		*proto = xskf_rd16(h + 2);
		inner = off + 16 + (h[0] & 0x3f) * 4; /* options, in 4-byte units */
	}
	if (*proto == XSKF_ETH_P_TEB)
		*proto = 0;
	if (!xskf_hdr(data, end, inner, 0)) /* options or fields past the end */
		return 0;
	*stop = 0;
	return inner;
}

/*
 * xskf_parse_inner() - after xskf_parse_outer(): when @p says tunnel, parse the tunnel header
 * and the frame inside it, adding to @p the inner offsets, inner ptype bits and stop layer.
 * Reads only ptype and l4_off from @p, so that the XDP program can hand it values read back
 * from the meta (see xskf_hints_write()).
 */
static __always_inline void xskf_parse_inner(const void *data, const void *data_end,
					     struct xskf_parse *p)
{
	const __u8 *d = (const __u8 *)data, *end = (const __u8 *)data_end;
	struct xskf_parse_level in = {};
	__u32 tun = p->ptype & XSKF_PTYPE_TUNNEL_MASK, inner, stop;
	__u16 proto = 0;

	if (!tun)
		return;
	inner = xskf_parse_tunnel(d, end, tun, p->l4_off, &proto, &stop);
	if (!inner) {
		p->ptype |= stop;
		return;
	}
	p->inner_off = (__u16)inner;
	xskf_parse_level(d, end, inner, proto, &in, false);
	p->ptype |= XSKF_PTYPE_INNER(in.ptype);
	if (in.stop) /* inner L2/L3/L4 are stop layers 5/6/7 */
		p->ptype |= (((in.stop & 3) + 4) | (in.stop & XSKF_LV_TRUNC)) << 24;
	p->inner_l3_off = (__u16)in.l3_off;
	p->inner_l4_off = (__u16)in.l4_off;
}

/* xskf_parse_frame() - the whole parse of [data, data_end) into @p (all of it written). */
static __always_inline void xskf_parse_frame(const void *data, const void *data_end,
					     struct xskf_parse *p)
{
	xskf_parse_outer(data, data_end, p);
	xskf_parse_inner(data, data_end, p);
}

#endif /* XSKF_HINTS_PARSE_H */
