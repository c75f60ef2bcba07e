/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Crafted frames of every packet type the hints parser knows, with the parse each must give.
 * Shared by tests/unit/test_hints.c (the parser in userspace) and tests/bpf/test_hints_parse.c
 * (the same parser verified and run in the kernel), so both are held to one table.
 */
#ifndef XSKF_TEST_HINTS_VECTORS_H
#define XSKF_TEST_HINTS_VECTORS_H

#include <stdint.h>
#include <string.h>

#include <xskf_meta.h>

struct hv_frame {
	uint8_t b[640];
	uint32_t len;
	uint32_t proto_at; /* where the last header's "next protocol" field is, for chaining */
};

static void hv_put(struct hv_frame *f, const void *p, uint32_t n)
{
	memcpy(f->b + f->len, p, n);
	f->len += n;
}

static void hv_put16(struct hv_frame *f, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	hv_put(f, b, 2);
}

static void hv_zero(struct hv_frame *f, uint32_t n)
{
	memset(f->b + f->len, 0, n);
	f->len += n;
}

static void hv_eth(struct hv_frame *f, uint16_t type)
{
	static const uint8_t macs[12] = { 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1 };

	hv_put(f, macs, 12);
	hv_put16(f, type);
}

static void hv_vlan(struct hv_frame *f, uint16_t tci, uint16_t next)
{
	hv_put16(f, tci);
	hv_put16(f, next);
}

/* IPv4 with @ihl 32-bit words (options are NOPs), fragment field @frag (flags + offset) */
static void hv_ipv4(struct hv_frame *f, uint8_t proto, uint8_t ihl, uint16_t frag,
		    const uint8_t src[4], const uint8_t dst[4])
{
	uint8_t h[20] = { (uint8_t)(0x40 | ihl), 0, 0, 0, 0, 1, (uint8_t)(frag >> 8), (uint8_t)frag,
			  64, proto };
	static const uint8_t s0[4] = { 192, 0, 2, 1 }, d0[4] = { 198, 51, 100, 1 };

	memcpy(h + 12, src ? src : s0, 4);
	memcpy(h + 16, dst ? dst : d0, 4);
	hv_put(f, h, 20);
	if (ihl > 5) {
		memset(f->b + f->len, 1, (ihl - 5) * 4u);
		f->len += (ihl - 5) * 4u;
	}
}

static void hv_ipv6(struct hv_frame *f, uint8_t nh, const uint8_t src[16], const uint8_t dst[16])
{
	uint8_t h[40] = { 0x60, 0, 0, 0, 0, 0, nh, 64 };
	static const uint8_t s0[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t d0[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

	memcpy(h + 8, src ? src : s0, 16);
	memcpy(h + 24, dst ? dst : d0, 16);
	hv_put(f, h, 40);
}

/* an IPv6 extension header of @bytes bytes (its length field set as its type wants) */
static void hv_ext(struct hv_frame *f, uint8_t type, uint8_t nh, uint32_t bytes)
{
	uint8_t len = type == 51 ? (uint8_t)(bytes / 4 - 2) : (uint8_t)(bytes / 8 - 1);

	f->b[f->len] = nh;
	f->b[f->len + 1] = len;
	memset(f->b + f->len + 2, 0, bytes - 2);
	f->len += bytes;
}

static void hv_frag6(struct hv_frame *f, uint8_t nh, uint16_t offset8, int more)
{
	uint8_t h[8] = { nh, 0, (uint8_t)((offset8 << 3) >> 8),
			 (uint8_t)((offset8 << 3) | (more ? 1 : 0)), 0, 0, 0, 7 };

	hv_put(f, h, 8);
}

static void hv_tcp(struct hv_frame *f, uint16_t sport, uint16_t dport, uint8_t doff)
{
	uint8_t h[20] = { 0 };

	h[0] = (uint8_t)(sport >> 8);
	h[1] = (uint8_t)sport;
	h[2] = (uint8_t)(dport >> 8);
	h[3] = (uint8_t)dport;
	h[12] = (uint8_t)(doff << 4);
	h[13] = 0x02; /* SYN */
	hv_put(f, h, 20);
}

static void hv_udp(struct hv_frame *f, uint16_t sport, uint16_t dport)
{
	hv_put16(f, sport);
	hv_put16(f, dport);
	hv_put16(f, 8);
	hv_put16(f, 0);
}

/* Expected parse. Offsets 0 = absent; vlan: 0 none, 1 C-tag, 2 S-tag first. */
struct hv_expect {
	uint32_t ptype;
	uint16_t l3, l4, inner, inner_l3, inner_l4;
	uint8_t vlan;
	uint16_t tci;
};

struct hv_case {
	const char *name;
	void (*build)(struct hv_frame *f);
	struct hv_expect want;
	int user_only; /* shorter than an Ethernet header: BPF_PROG_TEST_RUN refuses it */
};

#define P_ETH  XSKF_PTYPE_L2_ETHER
#define P_VLAN XSKF_PTYPE_L2_ETHER_VLAN
#define P_QINQ XSKF_PTYPE_L2_ETHER_QINQ
#define P_V4   XSKF_PTYPE_L3_IPV4
#define P_V4O  XSKF_PTYPE_L3_IPV4_OPT
#define P_V6   XSKF_PTYPE_L3_IPV6
#define P_V6X  XSKF_PTYPE_L3_IPV6_EXT
#define P_TCP  XSKF_PTYPE_L4_TCP
#define P_UDP  XSKF_PTYPE_L4_UDP
#define P_TR   XSKF_PTYPE_TRUNC
#define IN(x)  XSKF_PTYPE_INNER(x)

static const uint8_t hv_v4a[4] = { 192, 0, 2, 10 }, hv_v4b[4] = { 198, 51, 100, 20 };

static void c_ipv4_udp(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 5, 0, hv_v4a, hv_v4b);
	hv_udp(f, 1234, 5678);
	hv_zero(f, 18);
}

static void c_ipv4_tcp(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 6, 5, 0, NULL, NULL);
	hv_tcp(f, 1000, 80, 5);
}

static void c_vlan_ipv4_udp(struct hv_frame *f)
{
	hv_eth(f, 0x8100);
	hv_vlan(f, 100, 0x0800);
	hv_ipv4(f, 17, 5, 0, NULL, NULL);
	hv_udp(f, 1, 2);
}

static void c_qinq_ipv6_tcp(struct hv_frame *f)
{
	hv_eth(f, 0x88a8);
	hv_vlan(f, 0x20c8, 0x8100);
	hv_vlan(f, 300, 0x86dd);
	hv_ipv6(f, 6, NULL, NULL);
	hv_tcp(f, 1, 2, 5);
}

static void c_three_tags(struct hv_frame *f)
{
	hv_eth(f, 0x8100);
	hv_vlan(f, 1, 0x8100);
	hv_vlan(f, 2, 0x8100);
	hv_vlan(f, 3, 0x0800);
	hv_ipv4(f, 17, 5, 0, NULL, NULL);
}

static void c_ipv4_opts_udp(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 7, 0, NULL, NULL);
	hv_udp(f, 1, 2);
}

static void c_ipv6_udp(struct hv_frame *f)
{
	hv_eth(f, 0x86dd);
	hv_ipv6(f, 17, NULL, NULL);
	hv_udp(f, 1, 2);
}

static void c_ipv6_ext_tcp(struct hv_frame *f)
{
	hv_eth(f, 0x86dd);
	hv_ipv6(f, 0, NULL, NULL);
	hv_ext(f, 0, 60, 8);   /* hop-by-hop */
	hv_ext(f, 60, 43, 16); /* destination options */
	hv_ext(f, 43, 51, 24); /* routing */
	hv_ext(f, 51, 6, 16);  /* AH */
	hv_tcp(f, 1, 2, 5);
}

static void c_ipv6_ext8_udp(struct hv_frame *f)
{
	int i;

	hv_eth(f, 0x86dd);
	hv_ipv6(f, 60, NULL, NULL);
	for (i = 0; i < 8; i++)
		hv_ext(f, 60, i < 7 ? 60 : 17, 8);
	hv_udp(f, 1, 2);
}

static void c_ipv6_ext9(struct hv_frame *f)
{
	int i;

	hv_eth(f, 0x86dd);
	hv_ipv6(f, 60, NULL, NULL);
	for (i = 0; i < 9; i++)
		hv_ext(f, 60, i < 8 ? 60 : 6, 8);
	hv_tcp(f, 1, 2, 5);
}

static void c_ipv6_frag_first(struct hv_frame *f)
{
	hv_eth(f, 0x86dd);
	hv_ipv6(f, 44, NULL, NULL);
	hv_frag6(f, 17, 0, 1);
	hv_udp(f, 1, 2);
}

static void c_ipv6_frag_next(struct hv_frame *f)
{
	hv_eth(f, 0x86dd);
	hv_ipv6(f, 44, NULL, NULL);
	hv_frag6(f, 17, 185, 0);
	hv_zero(f, 40);
}

static void c_ipv4_frag_first(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 6, 5, 0x2000, NULL, NULL);
	hv_tcp(f, 1, 2, 5);
}

static void c_ipv4_frag_next(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 5, 100, NULL, NULL);
	hv_zero(f, 30);
}

static void c_arp(struct hv_frame *f)
{
	static const uint8_t arp[8] = { 0, 1, 8, 0, 6, 4, 0, 1 };

	hv_eth(f, 0x0806);
	hv_put(f, arp, 8);
	hv_zero(f, 20);
}

static void c_ipv4_sctp(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 132, 5, 0, NULL, NULL);
	hv_zero(f, 16);
}

static void c_ipv4_icmp(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 1, 5, 0, NULL, NULL);
	hv_zero(f, 8);
}

static void c_ipv6_icmpv6(struct hv_frame *f)
{
	hv_eth(f, 0x86dd);
	hv_ipv6(f, 58, NULL, NULL);
	hv_zero(f, 8);
}

static void c_ipv6_nonext(struct hv_frame *f)
{
	hv_eth(f, 0x86dd);
	hv_ipv6(f, 59, NULL, NULL);
}

static void c_ipv4_esp(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 50, 5, 0, NULL, NULL);
	hv_zero(f, 16);
}

static void c_lldp(struct hv_frame *f)
{
	hv_eth(f, 0x88cc);
	hv_zero(f, 30);
}

static void c_vxlan_ipv4(struct hv_frame *f)
{
	static const uint8_t vx[8] = { 0x08, 0, 0, 0, 0, 0, 42, 0 };

	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 5, 0, NULL, NULL);
	hv_udp(f, 49152, 4789);
	hv_put(f, vx, 8);
	hv_eth(f, 0x0800);
	hv_ipv4(f, 6, 5, 0, NULL, NULL);
	hv_tcp(f, 1, 2, 5);
}

static void c_vxlan_ipv6(struct hv_frame *f)
{
	static const uint8_t vx[8] = { 0x08, 0, 0, 0, 0, 0, 42, 0 };

	hv_eth(f, 0x86dd);
	hv_ipv6(f, 17, NULL, NULL);
	hv_udp(f, 49152, 4789);
	hv_put(f, vx, 8);
	hv_eth(f, 0x86dd);
	hv_ipv6(f, 17, NULL, NULL);
	hv_udp(f, 3, 4);
}

static void c_vxlan_inner_vlan(struct hv_frame *f)
{
	static const uint8_t vx[8] = { 0x08, 0, 0, 0, 0, 0, 42, 0 };

	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 5, 0, NULL, NULL);
	hv_udp(f, 49152, 4789);
	hv_put(f, vx, 8);
	hv_eth(f, 0x8100);
	hv_vlan(f, 7, 0x0800);
	hv_ipv4(f, 17, 5, 0, NULL, NULL);
	hv_udp(f, 3, 4);
}

static void c_geneve(struct hv_frame *f)
{
	static const uint8_t gn[8] = { 0x02, 0, 0x65, 0x58, 0, 0, 42, 0 }; /* 2 words of options */

	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 5, 0, NULL, NULL);
	hv_udp(f, 49152, 6081);
	hv_put(f, gn, 8);
	hv_zero(f, 8);
	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 5, 0, NULL, NULL);
	hv_udp(f, 3, 4);
}

static void c_gre_ip(struct hv_frame *f)
{
	static const uint8_t gre[8] = { 0x20, 0, 0x08, 0x00, 0, 0, 0, 9 }; /* key present */

	hv_eth(f, 0x0800);
	hv_ipv4(f, 47, 5, 0, NULL, NULL);
	hv_put(f, gre, 8);
	hv_ipv4(f, 17, 5, 0, NULL, NULL);
	hv_udp(f, 3, 4);
}

static void c_gre_teb(struct hv_frame *f)
{
	static const uint8_t gre[4] = { 0, 0, 0x65, 0x58 };

	hv_eth(f, 0x0800);
	hv_ipv4(f, 47, 5, 0, NULL, NULL);
	hv_put(f, gre, 4);
	hv_eth(f, 0x86dd);
	hv_ipv6(f, 6, NULL, NULL);
	hv_tcp(f, 1, 2, 5);
}

static void c_gre_pptp(struct hv_frame *f)
{
	static const uint8_t gre[8] = { 0x20, 0x01, 0x88, 0x0b, 0, 0, 0, 0 };

	hv_eth(f, 0x0800);
	hv_ipv4(f, 47, 5, 0, NULL, NULL);
	hv_put(f, gre, 8);
}

static void c_vxlan_in_fragment(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 5, 0x2000, NULL, NULL);
	hv_udp(f, 49152, 4789);
	hv_zero(f, 30);
}

/* truncated and malformed: built whole, then cut */
static void c_runt10(struct hv_frame *f)
{
	c_ipv4_udp(f);
	f->len = 10;
}

static void c_eth_only(struct hv_frame *f)
{
	c_ipv4_udp(f);
	f->len = 14;
}

static void c_trunc_vlan(struct hv_frame *f)
{
	c_vlan_ipv4_udp(f);
	f->len = 16;
}

static void c_trunc_ipv4(struct hv_frame *f)
{
	c_ipv4_udp(f);
	f->len = 24;
}

static void c_trunc_ipv4_opts(struct hv_frame *f)
{
	hv_eth(f, 0x0800);
	hv_ipv4(f, 17, 15, 0, NULL, NULL);
	f->len = 14 + 30;
}

static void c_bad_ihl(struct hv_frame *f)
{
	c_ipv4_udp(f);
	f->b[14] = 0x44;
}

static void c_bad_version(struct hv_frame *f)
{
	c_ipv4_udp(f);
	f->b[14] = 0x65;
}

static void c_trunc_ipv6(struct hv_frame *f)
{
	c_ipv6_udp(f);
	f->len = 14 + 30;
}

static void c_trunc_ipv6_ext(struct hv_frame *f)
{
	c_ipv6_ext_tcp(f);
	f->len = 14 + 40 + 4;
}

static void c_trunc_tcp(struct hv_frame *f)
{
	c_ipv4_tcp(f);
	f->len = 34 + 10;
}

static void c_bad_tcp_doff(struct hv_frame *f)
{
	c_ipv4_tcp(f);
	f->b[34 + 12] = 0x40;
}

static void c_trunc_udp(struct hv_frame *f)
{
	c_ipv6_udp(f);
	f->len = 54 + 4;
}

static void c_trunc_vxlan(struct hv_frame *f)
{
	c_vxlan_ipv4(f);
	f->len = 42 + 4;
}

static void c_vxlan_bad_flags(struct hv_frame *f)
{
	c_vxlan_ipv4(f);
	f->b[42] = 0;
}

static void c_trunc_inner_eth(struct hv_frame *f)
{
	c_vxlan_ipv4(f);
	f->len = 50 + 6;
}

static void c_trunc_inner_ipv4(struct hv_frame *f)
{
	c_vxlan_ipv4(f);
	f->len = 64 + 10;
}

static void c_trunc_inner_tcp(struct hv_frame *f)
{
	c_vxlan_ipv4(f);
	f->len = 84 + 10;
}

static void c_geneve_opts_past_end(struct hv_frame *f)
{
	c_geneve(f);
	f->b[42] = 0x3f; /* 252 bytes of options */
	f->len = 42 + 8 + 20;
}

#define V4U (P_ETH | P_V4 | P_UDP)
#define VX  XSKF_PTYPE_TUNNEL_VXLAN
#define GRE XSKF_PTYPE_TUNNEL_GRE

/* expected: ptype, l3, l4 [, inner, inner_l3, inner_l4]; with a VLAN: its kind and TCI */
#define W(pt, a, b, c, d, e)                                                                       \
	{ .ptype = (pt), .l3 = (a), .l4 = (b), .inner = (c), .inner_l3 = (d), .inner_l4 = (e) }
#define WV(pt, a, b, v, t) { .ptype = (pt), .l3 = (a), .l4 = (b), .vlan = (v), .tci = (t) }
#define CASE(n, f, w)	   { .name = (n), .build = (f), .want = w }

static const struct hv_case hv_cases[] = {
	CASE("ipv4-udp", c_ipv4_udp, W(V4U, 14, 34, 0, 0, 0)),
	CASE("ipv4-tcp", c_ipv4_tcp, W(P_ETH | P_V4 | P_TCP, 14, 34, 0, 0, 0)),
	CASE("vlan-ipv4-udp", c_vlan_ipv4_udp, WV(P_VLAN | P_V4 | P_UDP, 18, 38, 1, 100)),
	CASE("qinq-ipv6-tcp", c_qinq_ipv6_tcp, WV(P_QINQ | P_V6 | P_TCP, 22, 62, 2, 0x20c8)),
	CASE("three-tags", c_three_tags, WV(P_QINQ | XSKF_PTYPE_L3_OTHER, 22, 0, 1, 1)),
	CASE("ipv4-options-udp", c_ipv4_opts_udp, W(P_ETH | P_V4O | P_UDP, 14, 42, 0, 0, 0)),
	CASE("ipv6-udp", c_ipv6_udp, W(P_ETH | P_V6 | P_UDP, 14, 54, 0, 0, 0)),
	CASE("ipv6-ext-chain-tcp", c_ipv6_ext_tcp, W(P_ETH | P_V6X | P_TCP, 14, 118, 0, 0, 0)),
	CASE("ipv6-8-ext-udp", c_ipv6_ext8_udp, W(P_ETH | P_V6X | P_UDP, 14, 118, 0, 0, 0)),
	CASE("ipv6-9-ext", c_ipv6_ext9, W(P_ETH | P_V6X | XSKF_PTYPE_STOP_L3, 0, 0, 0, 0, 0)),
	CASE("ipv6-frag-first-udp", c_ipv6_frag_first,
	     W(P_ETH | P_V6X | P_UDP | XSKF_PTYPE_FRAG, 14, 62, 0, 0, 0)),
	CASE("ipv6-frag-next", c_ipv6_frag_next,
	     W(P_ETH | P_V6X | XSKF_PTYPE_L4_FRAG | XSKF_PTYPE_FRAG, 14, 0, 0, 0, 0)),
	CASE("ipv4-frag-first-tcp", c_ipv4_frag_first,
	     W(P_ETH | P_V4 | P_TCP | XSKF_PTYPE_FRAG, 14, 34, 0, 0, 0)),
	CASE("ipv4-frag-next", c_ipv4_frag_next,
	     W(P_ETH | P_V4 | XSKF_PTYPE_L4_FRAG | XSKF_PTYPE_FRAG, 14, 0, 0, 0, 0)),
	CASE("arp", c_arp, W(P_ETH | XSKF_PTYPE_L3_ARP, 14, 0, 0, 0, 0)),
	CASE("ipv4-sctp", c_ipv4_sctp, W(P_ETH | P_V4 | XSKF_PTYPE_L4_SCTP, 14, 34, 0, 0, 0)),
	CASE("ipv4-icmp", c_ipv4_icmp, W(P_ETH | P_V4 | XSKF_PTYPE_L4_ICMP, 14, 34, 0, 0, 0)),
	CASE("ipv6-icmpv6", c_ipv6_icmpv6, W(P_ETH | P_V6 | XSKF_PTYPE_L4_ICMPV6, 14, 54, 0, 0, 0)),
	CASE("ipv6-no-next-header", c_ipv6_nonext, W(P_ETH | P_V6, 14, 0, 0, 0, 0)),
	CASE("ipv4-esp", c_ipv4_esp, W(P_ETH | P_V4 | XSKF_PTYPE_L4_OTHER, 14, 34, 0, 0, 0)),
	CASE("lldp", c_lldp, W(P_ETH | XSKF_PTYPE_L3_OTHER, 14, 0, 0, 0, 0)),
	CASE("vxlan-inner-ipv4-tcp", c_vxlan_ipv4,
	     W(V4U | VX | IN(P_ETH | P_V4 | P_TCP), 14, 34, 50, 64, 84)),
	CASE("vxlan6-inner-ipv6-udp", c_vxlan_ipv6,
	     W(P_ETH | P_V6 | P_UDP | VX | IN(P_ETH | P_V6 | P_UDP), 14, 54, 70, 84, 124)),
	CASE("vxlan-inner-vlan", c_vxlan_inner_vlan,
	     W(V4U | VX | IN(P_VLAN | P_V4 | P_UDP), 14, 34, 50, 68, 88)),
	CASE("geneve-inner-ipv4-udp", c_geneve,
	     W(V4U | XSKF_PTYPE_TUNNEL_GENEVE | IN(V4U), 14, 34, 58, 72, 92)),
	CASE("gre-key-ipv4", c_gre_ip,
	     W(P_ETH | P_V4 | XSKF_PTYPE_L4_OTHER | GRE | IN(P_V4 | P_UDP), 14, 34, 42, 42, 62)),
	CASE("gre-teb-ipv6-tcp", c_gre_teb,
	     W(P_ETH | P_V4 | XSKF_PTYPE_L4_OTHER | GRE | IN(P_ETH | P_V6 | P_TCP), 14, 34, 38, 52,
	       92)),
	CASE("gre-pptp", c_gre_pptp,
	     W(P_ETH | P_V4 | XSKF_PTYPE_L4_OTHER | GRE | XSKF_PTYPE_STOP_TUNNEL, 14, 34, 0, 0, 0)),
	CASE("vxlan-port-in-fragment", c_vxlan_in_fragment,
	     W(V4U | XSKF_PTYPE_FRAG, 14, 34, 0, 0, 0)),
	{ .name = "runt-10", .build = c_runt10, .want = W(XSKF_PTYPE_STOP_L2 | P_TR, 0, 0, 0, 0, 0),
	  .user_only = 1 },
	CASE("eth-only", c_eth_only, W(P_ETH | P_V4 | XSKF_PTYPE_STOP_L3 | P_TR, 0, 0, 0, 0, 0)),
	CASE("trunc-vlan", c_trunc_vlan, W(P_VLAN | XSKF_PTYPE_STOP_L2 | P_TR, 0, 0, 0, 0, 0)),
	CASE("trunc-ipv4", c_trunc_ipv4, W(P_ETH | P_V4 | XSKF_PTYPE_STOP_L3 | P_TR, 0, 0, 0, 0, 0)),
	CASE("trunc-ipv4-options", c_trunc_ipv4_opts,
	     W(P_ETH | P_V4O | XSKF_PTYPE_STOP_L3 | P_TR, 0, 0, 0, 0, 0)),
	CASE("bad-ipv4-ihl", c_bad_ihl, W(P_ETH | P_V4 | XSKF_PTYPE_STOP_L3, 0, 0, 0, 0, 0)),
	CASE("bad-ipv4-version", c_bad_version, W(P_ETH | P_V4 | XSKF_PTYPE_STOP_L3, 0, 0, 0, 0, 0)),
	CASE("trunc-ipv6", c_trunc_ipv6, W(P_ETH | P_V6 | XSKF_PTYPE_STOP_L3 | P_TR, 0, 0, 0, 0, 0)),
	CASE("trunc-ipv6-ext", c_trunc_ipv6_ext,
	     W(P_ETH | P_V6X | XSKF_PTYPE_STOP_L3 | P_TR, 0, 0, 0, 0, 0)),
	CASE("trunc-tcp", c_trunc_tcp,
	     W(P_ETH | P_V4 | P_TCP | XSKF_PTYPE_STOP_L4 | P_TR, 14, 0, 0, 0, 0)),
	CASE("bad-tcp-doff", c_bad_tcp_doff,
	     W(P_ETH | P_V4 | P_TCP | XSKF_PTYPE_STOP_L4, 14, 0, 0, 0, 0)),
	CASE("trunc-udp", c_trunc_udp,
	     W(P_ETH | P_V6 | P_UDP | XSKF_PTYPE_STOP_L4 | P_TR, 14, 0, 0, 0, 0)),
	CASE("trunc-vxlan", c_trunc_vxlan,
	     W(V4U | VX | XSKF_PTYPE_STOP_TUNNEL | P_TR, 14, 34, 0, 0, 0)),
	CASE("vxlan-no-vni-flag", c_vxlan_bad_flags,
	     W(V4U | VX | XSKF_PTYPE_STOP_TUNNEL, 14, 34, 0, 0, 0)),
	CASE("trunc-inner-eth", c_trunc_inner_eth,
	     W(V4U | VX | XSKF_PTYPE_STOP_INNER_L2 | P_TR, 14, 34, 50, 0, 0)),
	CASE("trunc-inner-ipv4", c_trunc_inner_ipv4,
	     W(V4U | VX | IN(P_ETH | P_V4) | XSKF_PTYPE_STOP_INNER_L3 | P_TR, 14, 34, 50, 0, 0)),
	CASE("trunc-inner-tcp", c_trunc_inner_tcp,
	     W(V4U | VX | IN(P_ETH | P_V4 | P_TCP) | XSKF_PTYPE_STOP_INNER_L4 | P_TR, 14, 34, 50, 64,
	       0)),
	CASE("geneve-options-past-end", c_geneve_opts_past_end,
	     W(V4U | XSKF_PTYPE_TUNNEL_GENEVE | XSKF_PTYPE_STOP_TUNNEL | P_TR, 14, 34, 0, 0, 0)),
};

#define HV_NR_CASES (sizeof(hv_cases) / sizeof(hv_cases[0]))

#endif /* XSKF_TEST_HINTS_VECTORS_H */
