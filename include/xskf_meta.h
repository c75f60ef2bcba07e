/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RX hints layout, shared by the XDP program (bpf/xskf_hints.bpf.h) and userspace.
 *
 * For every frame it redirects to an AF_XDP socket, the XDP program grows data_meta by
 * sizeof(struct xskf_meta) and writes one struct there, so that it ends exactly where the frame
 * begins: userspace finds it at (frame start - sizeof(struct xskf_meta)). Its last field is a
 * magic + version word, right next to the frame, so a reader can tell hints written for this
 * frame from stale headroom bytes (see xskf_hints.h for the accessors, which check it).
 *
 * The struct is 32 bytes, a multiple of 4 as bpf_xdp_adjust_meta() requires. With the UMEM
 * headroom at 32 the frame starts at 32 mod 64, so the meta and the first 32 bytes of the frame
 * (Ethernet + most of an IPv4 header) share one 64-byte cache line.
 *
 * This header is included by BPF C (clang -target bpf) and by C/C++ userspace: plain fixed-width
 * types and macros only.
 */
#ifndef XSKF_META_H
#define XSKF_META_H

#include <linux/types.h>

/* "X" and the layout version: a reader rejects a layout it does not know. */
#define XSKF_META_VERSION 1
#define XSKF_META_MAGIC   (0x5800 | XSKF_META_VERSION)

/* Where a value came from: two bits per field in xskf_meta.src. */
enum xskf_src {
	XSKF_SRC_NONE = 0, /* absent */
	XSKF_SRC_HW = 1,   /* the driver gave it (XDP metadata kfunc) */
	XSKF_SRC_SW = 2,   /* computed in software, with the same meaning */
};

/* Field positions in xskf_meta.src (shift = 2 * field). */
enum xskf_meta_field {
	XSKF_F_HASH = 0,
	XSKF_F_TIMESTAMP = 1,
	XSKF_F_VLAN = 2,
};

/*
 * The XDP metadata kfuncs, as bits in the order of the kernel's NETDEV_XDP_RX_METADATA_*
 * (netdev netlink family): which ones the kernel has, a driver implements, and the XDP
 * program calls (xskf_hints_kfuncs in bpf/xskf_hints.bpf.h).
 */
#define XSKF_HINTS_KF_TIMESTAMP 0x1u
#define XSKF_HINTS_KF_HASH	0x2u
#define XSKF_HINTS_KF_VLAN_TAG	0x4u
#define XSKF_HINTS_KF_ALL	0x7u

#define XSKF_META_SRC(src, field) (((src) >> (2 * (field))) & 3)
/* xskf_meta.src: the VLAN tag in vlan_tci is an 802.1ad S-tag (else an 802.1Q C-tag) */
#define XSKF_META_VLAN_STAG 0x40
/*
 * xskf_meta.src: the XDP program did not parse this frame (no app asked for the packet type):
 * ptype and every offset are 0, and a reader that needs them parses the frame itself.
 */
#define XSKF_META_NOPARSE 0x80

/*
 * The hints an app reads (xskf_app.hints, docs/hints.md "Hints an app pays for"). The XDP
 * program is loaded with only these on (rodata xskf_hints_mask in bpf/xskf_hints.bpf.h; the
 * verifier removes the rest), and writes no meta at all when no app reads any.
 */
#define XSKF_HINT_PTYPE	    0x01u /* ptype, l3_off, l4_off: the parse of the outer frame */
#define XSKF_HINT_TUNNEL    0x02u /* inner_off, inner_l3_off, inner_l4_off (parses the outer too) */
#define XSKF_HINT_HASH	    0x04u /* rx_hash, hash_type: the driver's (rx_hash kfunc) */
#define XSKF_HINT_TIMESTAMP 0x08u /* rx_timestamp: the driver's (rx_timestamp kfunc) */
#define XSKF_HINT_VLAN	    0x10u /* vlan_tci: the driver's stripped tag, else the frame's (parse) */
#define XSKF_HINT_ALL	    0x1fu
/* the hints that need the program's parse of the frame */
#define XSKF_HINT_PARSE (XSKF_HINT_PTYPE | XSKF_HINT_TUNNEL | XSKF_HINT_VLAN)

/*
 * Packet type (xskf_meta.ptype), from the XDP program's parse of the frame. One group of bits
 * describes a frame (L2, L3, L4, fragment); the outer frame uses bits 0-8, the frame inside a
 * tunnel the same bits shifted by XSKF_PTYPE_INNER_SHIFT.
 */
#define XSKF_PTYPE_L2_MASK	 0x00000003u
#define XSKF_PTYPE_L2_NONE	 0x00000000u /* no Ethernet header: GRE carrying IP, or runt */
#define XSKF_PTYPE_L2_ETHER	 0x00000001u
#define XSKF_PTYPE_L2_ETHER_VLAN 0x00000002u /* one 802.1Q or 802.1ad tag */
#define XSKF_PTYPE_L2_ETHER_QINQ 0x00000003u /* two tags */

#define XSKF_PTYPE_L3_MASK	 0x0000001cu
#define XSKF_PTYPE_L3_NONE	 0x00000000u
#define XSKF_PTYPE_L3_IPV4	 0x00000004u
#define XSKF_PTYPE_L3_IPV4_OPT	 0x00000008u /* IPv4 with options (IHL > 5) */
#define XSKF_PTYPE_L3_IPV6	 0x0000000cu
#define XSKF_PTYPE_L3_IPV6_EXT	 0x00000010u /* IPv6 with at least one extension header */
#define XSKF_PTYPE_L3_ARP	 0x00000014u
#define XSKF_PTYPE_L3_OTHER	 0x00000018u /* any other EtherType (l3_off: where it starts) */

#define XSKF_PTYPE_L4_MASK	 0x000000e0u
#define XSKF_PTYPE_L4_NONE	 0x00000000u /* no L3, ARP, or IPv6 "no next header" */
#define XSKF_PTYPE_L4_TCP	 0x00000020u
#define XSKF_PTYPE_L4_UDP	 0x00000040u
#define XSKF_PTYPE_L4_SCTP	 0x00000060u
#define XSKF_PTYPE_L4_ICMP	 0x00000080u
#define XSKF_PTYPE_L4_ICMPV6	 0x000000a0u
#define XSKF_PTYPE_L4_FRAG	 0x000000c0u /* non-first IP fragment: no L4 header here */
#define XSKF_PTYPE_L4_OTHER	 0x000000e0u /* other protocol (GRE, ESP, ...): l4_off set */

#define XSKF_PTYPE_FRAG		 0x00000100u /* an IP fragment, first or not */

#define XSKF_PTYPE_TUNNEL_MASK	 0x00000600u
#define XSKF_PTYPE_TUNNEL_NONE	 0x00000000u
#define XSKF_PTYPE_TUNNEL_VXLAN	 0x00000200u /* UDP port 4789 */
#define XSKF_PTYPE_TUNNEL_GRE	 0x00000400u /* IP protocol 47, version 0 */
#define XSKF_PTYPE_TUNNEL_GENEVE 0x00000600u /* UDP port 6081 */

/* The inner frame of a tunnel: the same L2/L3/L4/FRAG values, shifted. */
#define XSKF_PTYPE_INNER_SHIFT	 12
#define XSKF_PTYPE_INNER(x)	 ((__u32)(x) << XSKF_PTYPE_INNER_SHIFT)
#define XSKF_PTYPE_INNER_MASK	 XSKF_PTYPE_INNER(0x1ffu)

/*
 * Where the parse stopped, when it could not complete: the header of that layer is cut short
 * (XSKF_PTYPE_TRUNC set) or malformed / deeper than the parser follows (TRUNC clear). The
 * layer's type may still be known (from the layer below) but its offset is 0, as are all later
 * layers.
 */
#define XSKF_PTYPE_STOP_MASK	 0x07000000u
#define XSKF_PTYPE_STOP_NONE	 0x00000000u /* parsed to the end of what it knows */
#define XSKF_PTYPE_STOP_L2	 0x01000000u
#define XSKF_PTYPE_STOP_L3	 0x02000000u
#define XSKF_PTYPE_STOP_L4	 0x03000000u
#define XSKF_PTYPE_STOP_TUNNEL	 0x04000000u
#define XSKF_PTYPE_STOP_INNER_L2 0x05000000u
#define XSKF_PTYPE_STOP_INNER_L3 0x06000000u
#define XSKF_PTYPE_STOP_INNER_L4 0x07000000u
#define XSKF_PTYPE_TRUNC	 0x08000000u /* the frame ends inside the stop layer's header */

#ifndef __VMLINUX_H__
/*
 * What the RSS hash covered (xskf_meta.hash_type): the kernel's enum xdp_rss_hash_type
 * (include/net/xdp.h, Linux 6.3+), which is not in the UAPI headers. Bits: L3 IPv4/IPv6, L3
 * with options/extension headers (DYNHDR), L4 with its protocol.
 */
enum xdp_rss_hash_type {
	XDP_RSS_L3_IPV4 = 1U << 0,
	XDP_RSS_L3_IPV6 = 1U << 1,
	XDP_RSS_L3_DYNHDR = 1U << 2,
	XDP_RSS_L4 = 1U << 3,
	XDP_RSS_L4_TCP = 1U << 4,
	XDP_RSS_L4_UDP = 1U << 5,
	XDP_RSS_L4_SCTP = 1U << 6,
	XDP_RSS_L4_IPSEC = 1U << 7,
	XDP_RSS_L4_ICMP = 1U << 8,

	XDP_RSS_TYPE_NONE = 0,
	XDP_RSS_TYPE_L2 = XDP_RSS_TYPE_NONE,
	XDP_RSS_TYPE_L3_IPV4 = XDP_RSS_L3_IPV4,
	XDP_RSS_TYPE_L3_IPV6 = XDP_RSS_L3_IPV6,
	XDP_RSS_TYPE_L3_IPV4_OPT = XDP_RSS_L3_IPV4 | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L3_IPV6_EX = XDP_RSS_L3_IPV6 | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L4_ANY = XDP_RSS_L4,
	XDP_RSS_TYPE_L4_IPV4_TCP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_TCP,
	XDP_RSS_TYPE_L4_IPV4_UDP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_UDP,
	XDP_RSS_TYPE_L4_IPV4_SCTP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_SCTP,
	XDP_RSS_TYPE_L4_IPV4_IPSEC = XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_IPSEC,
	XDP_RSS_TYPE_L4_IPV4_ICMP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_ICMP,
	XDP_RSS_TYPE_L4_IPV6_TCP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_TCP,
	XDP_RSS_TYPE_L4_IPV6_UDP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_UDP,
	XDP_RSS_TYPE_L4_IPV6_SCTP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_SCTP,
	XDP_RSS_TYPE_L4_IPV6_IPSEC = XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_IPSEC,
	XDP_RSS_TYPE_L4_IPV6_ICMP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_ICMP,
	XDP_RSS_TYPE_L4_IPV6_TCP_EX = XDP_RSS_TYPE_L4_IPV6_TCP | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L4_IPV6_UDP_EX = XDP_RSS_TYPE_L4_IPV6_UDP | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L4_IPV6_SCTP_EX = XDP_RSS_TYPE_L4_IPV6_SCTP | XDP_RSS_L3_DYNHDR,
};
#endif

/*
 * Offsets are in bytes from the first byte of the frame as received (the Ethernet header),
 * and are 0 when that header is absent or incomplete. All multi-byte fields are host order.
 */
struct xskf_meta {
	__u64 rx_timestamp; /* ns, driver clock (XSKF_F_TIMESTAMP): only from hardware */
	__u32 rx_hash;      /* RSS hash (XSKF_F_HASH); 0 unless the source is HW */
	__u32 ptype;        /* XSKF_PTYPE_* */
	__u16 hash_type;    /* enum xdp_rss_hash_type of rx_hash */
	__u16 vlan_tci;     /* outer VLAN TCI (XSKF_F_VLAN): stripped by HW, else the frame's */
	__u16 l4_off;       /* (outer) L4 header: TCP, UDP, SCTP, ICMP, GRE, other */
	__u16 inner_off;    /* tunnels: the encapsulated frame (inner Ethernet, or inner L3 for GRE
			     * carrying IP), i.e. where to cut to decapsulate */
	__u16 inner_l3_off; /* tunnels: inner L3 header */
	__u16 inner_l4_off; /* tunnels: inner L4 header */
	__u8 l3_off;        /* (outer) L3 header: at most 14 + 2 * 4 */
	__u8 src;           /* enum xskf_src per enum xskf_meta_field, XSKF_META_VLAN_STAG */
	__u16 magic;        /* XSKF_META_MAGIC: last, next to the frame */
};

#endif /* XSKF_META_H */
