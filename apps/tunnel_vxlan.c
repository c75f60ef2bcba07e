// SPDX-License-Identifier: BSD-2-Clause
/*
 * VXLAN encap/decap on frames in place. Headers are written and read byte by byte or through
 * memcpy: frames start at any 2-byte offset in the chunk, so no header is assumed aligned.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#if __has_include(<xskf_hints.h>)
#include <xskf_csum.h>
#include <xskf_hints.h>
#define TUN_HAVE_HINTS 1
#endif

#include <xskf_tx.h>
#include "tunnel_vxlan.h"

const char *const tun_ctr_names[TUN_CTR_MAX + 1] = {
	[TUN_ENCAP] = "encap",
	[TUN_DECAP] = "decap",
	[TUN_ENC_RUNT] = "encap_drop_runt",
	[TUN_ENC_NO_ROUTE] = "encap_drop_no_route",
	[TUN_ENC_MTU] = "encap_drop_mtu",
	[TUN_ENC_NO_HEADROOM] = "encap_drop_no_headroom",
	[TUN_DEC_NOT_IP] = "decap_drop_not_ip",
	[TUN_DEC_NOT_LOCAL] = "decap_drop_not_local",
	[TUN_DEC_NOT_UDP] = "decap_drop_not_udp",
	[TUN_DEC_WRONG_PORT] = "decap_drop_wrong_port",
	[TUN_DEC_SHORT] = "decap_drop_short",
	[TUN_DEC_BAD_FLAGS] = "decap_drop_bad_flags",
	[TUN_DEC_UNKNOWN_VNI] = "decap_drop_unknown_vni",
	[TUN_PMTU_ICMP4] = "pmtu_icmp4_sent",
	[TUN_PMTU_ICMP6] = "pmtu_icmp6_sent",
	[TUN_PMTU_RATELIMITED] = "pmtu_icmp_ratelimited",
	[TUN_PMTU_NO_ICMP] = "pmtu_no_icmp",
};

#define VXLAN_FLAG_I 0x08 /* the VNI is valid (RFC 7348 section 5) */

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Mix one 32-bit word into a running hash (multiply-rotate; order-dependent on purpose). */
static inline uint32_t mix(uint32_t h, uint32_t w)
{
	h ^= w * 0x85ebca77u;
	h = (h << 15) | (h >> 17);
	return h * 0x27d4eb2fu + 0x165667b1u;
}

static inline uint32_t word(const uint8_t *p)
{
	uint32_t w;

	memcpy(&w, p, 4);
	return w;
}

/*
 * A hash of the inner flow: addresses, protocol and ports when the frame is IPv4/IPv6 with TCP,
 * UDP or SCTP, else the MACs and EtherType. Only needs to be stable per flow and spread flows
 * over the underlay's ECMP/RSS, so it is not a standard (Toeplitz) hash.
 */
static uint32_t sw_flow_hash(const uint8_t *d, uint32_t len)
{
	uint32_t h = 0x9747b28cu, l4 = 0, i;
	uint16_t type;
	uint8_t proto = 0;

	if (len < 14)
		return h;
	type = get16(d + 12);
	if (type == 0x0800 && len >= 34 && (d[14] >> 4) == 4) {
		uint32_t ihl = (d[14] & 0xf) * 4u;

		h = mix(mix(h, word(d + 26)), word(d + 30));
		proto = d[23];
		/* non-first fragments have no ports: hash them (and first ones) by addresses */
		if (!(get16(d + 20) & 0x3fff) && ihl >= 20)
			l4 = 14 + ihl;
	} else if (type == 0x86dd && len >= 54) {
		for (i = 22; i < 54; i += 4)
			h = mix(h, word(d + i));
		proto = d[20];
		l4 = 54;
	} else {
		for (i = 0; i < 12; i += 4)
			h = mix(h, word(d + i));
		return mix(h, type);
	}
	h = mix(h, proto);
	if (l4 && (proto == 6 || proto == 17 || proto == 132) && len >= l4 + 4)
		h = mix(h, word(d + l4));
	h ^= h >> 16;
	h *= 0x7feb352du;
	return h ^ (h >> 15);
}

static uint32_t flow_hash(const struct xskf_pkt *pkt)
{
#ifdef TUN_HAVE_HINTS
	/*
	 * The point of RX hints: the driver already hashed the flow, for free. Only its hash is
	 * taken: where it gave none, xskf_pkt__rx_hash() would compute a software Toeplitz hash
	 * (10-30 ns), which buys nothing here over the cheaper hash below, since the outer port
	 * only has to be stable per flow, not equal to what a NIC would compute.
	 */
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	if (m && XSKF_META_SRC(m->src, XSKF_F_HASH) == XSKF_SRC_HW && m->rx_hash)
		return m->rx_hash;
#endif
	return sw_flow_hash(pkt->data, pkt->len);
}

uint16_t tun_vxlan__sport(const struct xskf_pkt *pkt)
{
	/* RFC 7348: a hash of the inner headers, in the dynamic range 49152..65535 */
	return (uint16_t)(0xc000 | (flow_hash(pkt) & 0x3fff));
}

/*
 * The one's-complement sum of a multi-buffer frame's buffers after the first (a jumbo frame in
 * several buffers, docs/jumbo.md), as if they followed it in memory: @odd when the bytes summed
 * before them are an odd count, so that each buffer's sum is byte-swapped into place.
 */
static uint64_t frags_sum(const struct xskf_pkt *pkt, uint64_t sum, bool odd)
{
	uint32_t len;
	unsigned int i;

	for (i = 1; i <= pkt->frags; i++) {
		const uint8_t *b = xskf_pkt__buf(pkt, i, &len);
		uint64_t s;

		if (!b)
			break;
		s = xskf_csum__add(0, b, len);
		if (odd) {
			s = xskf_csum__fold(s);
			s = (s & 0xff) << 8 | s >> 8;
		}
		sum += s;
		odd ^= len & 1;
	}
	return sum;
}

enum tun_ctr tun_vxlan__encap(const struct tun_table *t, const struct tun_underlay *u,
			      struct xskf_pkt *pkt, uint16_t *ip_id)
{
	const struct tun_entry *e;
	/* a multi-buffer frame's inner frame is all its buffers; its headers are in the first */
	uint32_t inner = xskf_pkt__total_len(pkt), hash, hlen, ip_len, l4;
	bool v6;
	uint8_t *p;

	if (inner < 14)
		return TUN_ENC_RUNT;
	e = tun_table__lookup(t, tun_mac_key(pkt->data));
	if (!e)
		return TUN_ENC_NO_ROUTE;
	v6 = e->remote.family == AF_INET6;
	hlen = v6 ? TUN_VXLAN_HLEN6 : TUN_VXLAN_HLEN4;
	ip_len = inner + hlen - 14;
	/* no fragmentation of our own: a packet the underlay cannot carry is dropped, counted */
	if (ip_len > u->mtu)
		return TUN_ENC_MTU;
	hash = flow_hash(pkt); /* before push: it reads the inner frame */
	p = xskf_pkt__push(pkt, hlen);
	if (!p)
		return TUN_ENC_NO_HEADROOM;

	memcpy(p, t->nexthop_mac, 6);
	memcpy(p + 6, u->mac, 6);
	if (v6) {
		uint32_t vtc_flow = htonl(6u << 28 | ((hash >> 12) & 0xfffff));

		put16(p + 12, 0x86dd);
		memcpy(p + 14, &vtc_flow, 4);
		put16(p + 18, (uint16_t)(ip_len - 40)); /* payload length */
		p[20] = IPPROTO_UDP;
		p[21] = 64; /* hop limit */
		memcpy(p + 22, t->local6.a, 16);
		memcpy(p + 38, e->remote.a, 16);
		l4 = 54;
	} else {
		uint16_t csum;

		put16(p + 12, 0x0800);
		p[14] = 0x45;
		p[15] = 0;
		put16(p + 16, (uint16_t)ip_len);
		put16(p + 18, (*ip_id)++);
		/* DF clear, as the Linux vxlan device by default: the underlay may fragment */
		put16(p + 20, 0);
		p[22] = 64; /* TTL */
		p[23] = IPPROTO_UDP;
		p[24] = p[25] = 0;
		memcpy(p + 26, t->local4.a, 4);
		memcpy(p + 30, e->remote.a, 4);
		csum = (uint16_t)~xskf_csum__fold(xskf_csum__add(0, p + 14, 20));
		memcpy(p + 24, &csum, 2);
		l4 = 34;
	}
	put16(p + l4, (uint16_t)(0xc000 | (hash & 0x3fff)));
	put16(p + l4 + 2, TUN_VXLAN_PORT);
	put16(p + l4 + 4, (uint16_t)(inner + 16));
	p[l4 + 6] = p[l4 + 7] = 0; /* over IPv4: no checksum (RFC 7348 allows 0) */
	p[l4 + 8] = VXLAN_FLAG_I;
	p[l4 + 9] = p[l4 + 10] = p[l4 + 11] = 0;
	p[l4 + 12] = (uint8_t)(e->vni >> 16);
	p[l4 + 13] = (uint8_t)(e->vni >> 8);
	p[l4 + 14] = (uint8_t)e->vni;
	p[l4 + 15] = 0;
	if (v6) {
		uint8_t tail[8] = { 0, 0, p[18], p[19], 0, 0, 0, IPPROTO_UDP };
		uint64_t sum;
		uint16_t csum;

		/* IPv6 has no header checksum, so UDP must carry one (RFC 8200 section 8.1): by the
		 * underlay's TX offload where it has one (the field seeded by xskf), else here;
		 * multi-buffer frames here always (xskf carries out no TX metadata for them) */
		if (__builtin_expect(u->tx_csum, 0) && !pkt->frags &&
		    !xskf_pkt__tx_l4_csum(pkt, 14, (uint16_t)l4))
			return TUN_ENCAP;
		sum = xskf_csum__add(0, p + 22, 32); /* source and destination */
		sum = xskf_csum__add(sum, tail, sizeof(tail));
		sum = xskf_csum__add(sum, p + l4, pkt->len - l4);
		if (pkt->frags)
			sum = frags_sum(pkt, sum, (pkt->len - l4) & 1);
		csum = (uint16_t)~xskf_csum__fold(sum);
		if (!csum)
			csum = 0xffff; /* 0 means "no checksum" */
		memcpy(p + l4 + 6, &csum, 2);
	}
	return TUN_ENCAP;
}

enum tun_ctr tun_vxlan__decap(const struct tun_table *t, struct xskf_pkt *pkt)
{
	const uint8_t *d = pkt->data;
	/* the headers are in the first buffer (len) */
	uint32_t len = pkt->len, l4, end, udp_len, vni;
	uint16_t type;

	if (len < 14)
		return TUN_DEC_SHORT;
	type = get16(d + 12);
	if (type == 0x0800) {
		uint32_t ihl;

		if (len < 34)
			return TUN_DEC_SHORT;
		ihl = (d[14] & 0xf) * 4u;
		if ((d[14] >> 4) != 4 || ihl < 20)
			return TUN_DEC_NOT_IP;
		if (!t->has_local4 || memcmp(d + 30, t->local4.a, 4))
			return TUN_DEC_NOT_LOCAL;
		/* fragments would need reassembly: not UDP as far as we can parse */
		if (d[23] != IPPROTO_UDP || (get16(d + 20) & 0x3fff))
			return TUN_DEC_NOT_UDP;
		end = 14 + get16(d + 16);
		l4 = 14 + ihl;
	} else if (type == 0x86dd) {
		if (len < 54)
			return TUN_DEC_SHORT;
		if (!t->has_local6 || memcmp(d + 38, t->local6.a, 16))
			return TUN_DEC_NOT_LOCAL;
		if (d[20] != IPPROTO_UDP)
			return TUN_DEC_NOT_UDP;
		end = 54 + get16(d + 18);
		l4 = 54;
	} else {
		return TUN_DEC_NOT_IP;
	}
	/*
	 * The IP length may be shorter than the frame (Ethernet padding), never longer. A
	 * multi-buffer frame (a jumbo frame, docs/jumbo.md) has no padding (it is long) and its
	 * last buffer's length is not the app's to change: its IP length must be all of it, and the
	 * headers up to the inner Ethernet header must be in its first buffer. Apart, so that
	 * frames of one buffer pay one test for multi-buffer frames (the decap row of
	 * bench/engine.sh: 219 -> 200 instructions).
	 */
	if (__builtin_expect(pkt->frags != 0, 0)) {
		if (end != xskf_pkt__frags_len(pkt) || l4 + 16 + 14 > len)
			return TUN_DEC_SHORT;
	} else if (end > len) {
		return TUN_DEC_SHORT;
	}
	if (end < l4 + 8)
		return TUN_DEC_SHORT;
	if (get16(d + l4 + 2) != TUN_VXLAN_PORT)
		return TUN_DEC_WRONG_PORT;
	udp_len = get16(d + l4 + 4);
	if (udp_len < 8 + 8 + 14 || l4 + udp_len > end)
		return TUN_DEC_SHORT;
	if (!(d[l4 + 8] & VXLAN_FLAG_I))
		return TUN_DEC_BAD_FLAGS;
	vni = (uint32_t)d[l4 + 12] << 16 | (uint32_t)d[l4 + 13] << 8 | d[l4 + 14];
	if (!tun_table__has_vni(t, vni))
		return TUN_DEC_UNKNOWN_VNI;
	/* the UDP checksum is not verified: VXLAN receivers may ignore it (RFC 7348 sec. 5) */
	xskf_pkt__pull(pkt, l4 + 16);
	if (!pkt->frags)
		pkt->len = udp_len - 16;
	return TUN_DECAP;
}
