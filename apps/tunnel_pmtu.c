// SPDX-License-Identifier: BSD-2-Clause
/*
 * ICMP "fragmentation needed" / ICMPv6 "packet too big" for frames too large for the tunnel.
 *
 * The rules are the kernel's for a bridged VXLAN port (skb_tunnel_check_pmtu() and its helpers
 * in net/ipv4/ip_tunnel_core.c), with RFC 1812 section 4.3.2.7 and RFC 4443 section 2.4 (e):
 * no error about an error, about a non-first fragment, or to a source that is not one host.
 * The answer is built in place over the frame: the quoted original datagram stays where it is
 * and the new Ethernet, IP and ICMP headers are pushed in front of it (xskf_pkt__push()), so the
 * only bytes written are the 42 (IPv4) or 62 (IPv6) of the new headers.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <xskf_csum.h>

#include "tunnel_pmtu.h"

#define ETH_HLEN  14
#define IP4_HLEN  20
#define IP6_HLEN  40
#define ICMP_HLEN 8
/* An ICMPv4 error carries as much of the datagram as fits in 576 bytes (RFC 1812 4.3.2.3),
 * an ICMPv6 error as much as fits in the IPv6 minimum MTU, 1280 (RFC 4443 2.4 (c)). */
#define IP4_MIN_MTU 576
#define IP6_MIN_MTU 1280

#define ICMP_DEST_UNREACH 3
#define ICMP_FRAG_NEEDED  4
#define ICMPV6_PKT_TOOBIG 2
#define NDISC_REDIRECT    137

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

void tun_pmtu__bucket_init(struct tun_pmtu_bucket *b, uint32_t rate, uint32_t burst)
{
	memset(b, 0, sizeof(*b));
	if (!rate || !burst)
		return;
	b->interval_ns = 1000000000ull / rate;
	b->burst = b->tokens = burst;
}

/* Take a token if there is one: the tokens earned since last_ns first, whole ones only. */
static bool bucket_take(struct tun_pmtu_bucket *b, uint64_t now)
{
	if (!b->interval_ns)
		return false;
	if (b->tokens < b->burst) {
		uint64_t n = (now - b->last_ns) / b->interval_ns;

		if (n >= b->burst - b->tokens) {
			b->tokens = b->burst;
			b->last_ns = now;
		} else if (n) {
			b->tokens += (uint32_t)n;
			/* keep the fraction of a token already earned */
			b->last_ns += n * b->interval_ns;
		}
	} else {
		b->last_ns = now; /* full: time spent full earns nothing */
	}
	if (!b->tokens)
		return false;
	b->tokens--;
	return true;
}

/* ICMP types that are errors (RFC 792, RFC 1812 4.3.2.7): no error is sent about them. */
static bool icmp4_is_err(uint8_t type)
{
	return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
}

/*
 * May an IPv4 datagram of @len bytes at @ip (frame destination MAC @dmac) be answered? Only a
 * whole datagram with DF set (frag_off exactly DF, as the kernel: not a fragment either), from
 * and to one host, and not an ICMP error itself.
 */
static bool icmp4_allowed(const uint8_t *dmac, const uint8_t *ip, uint32_t len)
{
	uint32_t ihl;
	uint8_t src0, dst0;

	if (len < IP4_HLEN)
		return false;
	ihl = (ip[0] & 0xf) * 4u;
	src0 = ip[12];
	dst0 = ip[16];
	if ((ip[0] >> 4) != 4 || ihl < IP4_HLEN || ihl > len)
		return false;
	if (get16(ip + 6) != 0x4000) /* DF, no MF, offset 0 */
		return false;
	/* link-layer broadcast or multicast (RFC 1812 4.3.2.7) */
	if (dmac[0] & 1)
		return false;
	/* to a multicast or limited broadcast address: no unicast source to answer from */
	if (dst0 >= 224)
		return false;
	/* from 0/8, 127/8, multicast, class E and 255.255.255.255: not one host */
	if (src0 == 0 || src0 == 127 || src0 >= 224)
		return false;
	if (ip[9] == IPPROTO_ICMP && (ihl + 1 > len || icmp4_is_err(ip[ihl])))
		return false;
	return true;
}

/*
 * May an IPv6 packet of @len bytes at @ip be answered? Not from ::, ::1 or a multicast address,
 * not to a multicast address (our answer's source would be that address), not a non-first
 * fragment, not an ICMPv6 error or redirect. Extension headers are walked as far as the frame
 * holds them; one that ends outside it leaves the packet unanswered.
 */
static bool icmp6_allowed(const uint8_t *ip, uint32_t len)
{
	static const uint8_t any[16], loop[16] = {[15] = 1};
	uint32_t off = IP6_HLEN, i;
	uint8_t nh;

	if (len < IP6_HLEN || (ip[0] >> 4) != 6)
		return false;
	if (!memcmp(ip + 8, any, 16) || !memcmp(ip + 8, loop, 16) || ip[8] == 0xff)
		return false;
	if (ip[24] == 0xff)
		return false;
	nh = ip[6];
	/* at most 8 extension headers: a bound on the walk (the kernel's ipv6_skip_exthdr() has
	 * none; a frame of 1500 bytes holds at most 187 of them) */
	for (i = 0; i < 8; i++) {
		const uint8_t *h = ip + off;

		if (nh != 0 && nh != 43 && nh != 44 && nh != 60 && nh != 51)
			break;
		if (off + 8 > len)
			return false;
		if (nh == 44) {
			if (get16(h + 2) & 0xfff8) /* fragment offset: not the first fragment */
				return false;
			off += 8;
		} else if (nh == 51) {
			off += (h[1] + 2u) * 4; /* AH counts 4-byte words */
		} else {
			off += (h[1] + 1u) * 8;
		}
		nh = h[0];
	}
	if (nh == IPPROTO_ICMPV6) {
		if (off + 1 > len)
			return false;
		if (ip[off] < 128 || ip[off] == NDISC_REDIRECT)
			return false;
	}
	return true;
}

/*
 * Turn the frame into the ICMP message: the first @q bytes of the original datagram (at
 * data + 14) stay in place; @hl bytes of new IP + ICMP header are pushed in front, with a new
 * Ethernet header before them. Returns the new data pointer (NULL: no headroom, unchanged).
 */
static uint8_t *push_headers(struct xskf_pkt *pkt, uint32_t hl, uint32_t q, uint16_t type)
{
	uint8_t mac[12];
	uint8_t *d;

	memcpy(mac, pkt->data, 12); /* destination, source */
	d = xskf_pkt__push(pkt, hl);
	if (!d)
		return NULL;
	pkt->len = ETH_HLEN + hl + q;
	/* answered as if by the original destination: MACs swapped */
	memcpy(d, mac + 6, 6);
	memcpy(d + 6, mac, 6);
	put16(d + 12, type);
	return d;
}

static enum tun_ctr build_icmp4(struct xskf_pkt *pkt, uint32_t mtu)
{
	const uint8_t *o = pkt->data + ETH_HLEN;
	uint32_t q = get16(o + 2);
	uint8_t src[4], dst[4];
	uint16_t csum;
	uint8_t *d, *ip, *ic;

	/* the datagram as its header says (a frame may carry padding), as much as fits in 576 */
	if (q > pkt->len - ETH_HLEN)
		q = pkt->len - ETH_HLEN;
	if (q > IP4_MIN_MTU - IP4_HLEN - ICMP_HLEN)
		q = IP4_MIN_MTU - IP4_HLEN - ICMP_HLEN;
	memcpy(src, o + 12, 4);
	memcpy(dst, o + 16, 4);
	d = push_headers(pkt, IP4_HLEN + ICMP_HLEN, q, 0x0800);
	if (!d)
		return TUN_PMTU_NO_ICMP;
	ip = d + ETH_HLEN;
	ic = ip + IP4_HLEN;
	ip[0] = 0x45;
	ip[1] = 0;
	put16(ip + 2, (uint16_t)(IP4_HLEN + ICMP_HLEN + q));
	put16(ip + 4, 0);      /* identification: DF is set, never fragmented */
	put16(ip + 6, 0x4000); /* DF */
	ip[8] = 64;
	ip[9] = IPPROTO_ICMP;
	ip[10] = ip[11] = 0;
	memcpy(ip + 12, dst, 4); /* from the original destination */
	memcpy(ip + 16, src, 4);
	csum = (uint16_t)~xskf_csum__fold(xskf_csum__add(0, ip, IP4_HLEN));
	memcpy(ip + 10, &csum, 2);

	ic[0] = ICMP_DEST_UNREACH;
	ic[1] = ICMP_FRAG_NEEDED;
	ic[2] = ic[3] = 0;
	put16(ic + 4, 0);
	put16(ic + 6, (uint16_t)mtu); /* next-hop MTU (RFC 1191) */
	csum = (uint16_t)~xskf_csum__fold(xskf_csum__add(0, ic, ICMP_HLEN + q));
	memcpy(ic + 2, &csum, 2);
	return TUN_PMTU_ICMP4;
}

static enum tun_ctr build_icmp6(struct xskf_pkt *pkt, uint32_t mtu)
{
	const uint8_t *o = pkt->data + ETH_HLEN;
	uint32_t q = IP6_HLEN + get16(o + 4);
	uint8_t addrs[32], tail[8] = { 0 };
	uint64_t sum;
	uint16_t csum;
	uint8_t *d, *ip, *ic;

	if (q > pkt->len - ETH_HLEN)
		q = pkt->len - ETH_HLEN;
	if (q > IP6_MIN_MTU - IP6_HLEN - ICMP_HLEN)
		q = IP6_MIN_MTU - IP6_HLEN - ICMP_HLEN;
	memcpy(addrs, o + 24, 16); /* our source: the original destination */
	memcpy(addrs + 16, o + 8, 16);
	d = push_headers(pkt, IP6_HLEN + ICMP_HLEN, q, 0x86dd);
	if (!d)
		return TUN_PMTU_NO_ICMP;
	ip = d + ETH_HLEN;
	ic = ip + IP6_HLEN;
	put32(ip, 6u << 28); /* version 6, traffic class 0, flow label 0 */
	put16(ip + 4, (uint16_t)(ICMP_HLEN + q));
	ip[6] = IPPROTO_ICMPV6;
	ip[7] = 64;
	memcpy(ip + 8, addrs, 32);

	ic[0] = ICMPV6_PKT_TOOBIG;
	ic[1] = 0;
	ic[2] = ic[3] = 0;
	put32(ic + 4, mtu);
	/* pseudo header (RFC 8200 8.1): addresses, upper-layer length, next header */
	put32(tail, ICMP_HLEN + q);
	tail[7] = IPPROTO_ICMPV6;
	sum = xskf_csum__add(0, addrs, 32);
	sum = xskf_csum__add(sum, tail, sizeof(tail));
	sum = xskf_csum__add(sum, ic, ICMP_HLEN + q);
	csum = (uint16_t)~xskf_csum__fold(sum);
	memcpy(ic + 2, &csum, 2);
	return TUN_PMTU_ICMP6;
}

enum tun_ctr tun_pmtu__answer(struct tun_pmtu_bucket *b, const struct tun_table *t,
			      const struct tun_underlay *u, struct xskf_pkt *pkt, uint64_t *now_ns)
{
	const struct tun_entry *e = tun_table__lookup(t, tun_mac_key(pkt->data));
	const uint8_t *ip = pkt->data + ETH_HLEN;
	uint32_t len = pkt->len - ETH_HLEN, mtu;
	uint16_t type = get16(pkt->data + 12);
	bool v4;

	/* encap found a tunnel and the frame too large, so e is set and len >= 14 */
	if (!e || !b->interval_ns)
		return TUN_PMTU_NO_ICMP;
	mtu = tun_pmtu__mtu(u->mtu, e->remote.family == AF_INET6);
	if (type == 0x0800) {
		/* below 576 an IPv4 host would not believe it (RFC 1191): the kernel sends none */
		if (mtu < IP4_MIN_MTU || !icmp4_allowed(pkt->data, ip, len))
			return TUN_PMTU_NO_ICMP;
		v4 = true;
	} else if (type == 0x86dd) {
		/* below 1280 an IPv6 link is broken (RFC 8200 5): nothing to announce */
		if (mtu < IP6_MIN_MTU || !icmp6_allowed(ip, len))
			return TUN_PMTU_NO_ICMP;
		v4 = false;
	} else {
		return TUN_PMTU_NO_ICMP; /* not IP (or VLAN-tagged): no ICMP to send */
	}
	/* room for the new headers in front (the framework leaves 288 bytes; encap needs 70) */
	if (pkt->headroom < (v4 ? IP4_HLEN : IP6_HLEN) + ICMP_HLEN)
		return TUN_PMTU_NO_ICMP;
	if (!*now_ns) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		*now_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	}
	if (!bucket_take(b, *now_ns))
		return TUN_PMTU_RATELIMITED;
	return v4 ? build_icmp4(pkt, mtu) : build_icmp6(pkt, mtu);
}
