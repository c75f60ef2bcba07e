// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-tunnel's path-MTU answers (apps/tunnel_pmtu.c) on frames in plain memory, no root:
 *  - the token bucket: a full burst, then one token per interval, never above the burst;
 *  - ICMPv4 fragmentation needed and ICMPv6 packet too big: lengths, MTU (underlay less 50 /
 *    70), addresses and MACs swapped, the quoted datagram unchanged, every checksum verifying;
 *  - what must not be answered, each case on its own.
 * The integration test (test_tunnel_pmtu.sh) sends the same through the kernel and tshark.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../csum_ref.h"
#include "../tap.h"
#include "tunnel_pmtu.h"

#define HEADROOM 256
#define NS       1000000000ull

static uint8_t chunk[HEADROOM + 2048];
static uint8_t orig[2048];
static const uint8_t mac_h[6] = { 2, 0x54, 0, 0, 0, 1 }, mac_far[6] = { 2, 0x54, 0, 0, 0, 0x30 };

/* A frame of @ip_len bytes of IP (@v6 or IPv4 with @frag_off), proto @proto, in chunk. */
static struct xskf_pkt frame(bool v6, uint32_t ip_len, uint16_t frag_off, uint8_t proto)
{
	struct xskf_pkt p = { .data = chunk + HEADROOM, .len = 14 + ip_len, .headroom = HEADROOM };
	uint8_t *d = p.data, *ip = d + 14;
	uint32_t i;

	memset(chunk, 0, sizeof(chunk));
	memcpy(d, mac_far, 6);
	memcpy(d + 6, mac_h, 6);
	for (i = 14; i < p.len; i++)
		d[i] = (uint8_t)(i * 7);
	if (v6) {
		d[12] = 0x86, d[13] = 0xdd;
		memset(ip, 0, 40);
		ip[0] = 0x60;
		ip[4] = (uint8_t)((ip_len - 40) >> 8), ip[5] = (uint8_t)(ip_len - 40);
		ip[6] = proto;
		ip[7] = 64;
		inet_pton(AF_INET6, "2001:db8:100::1", ip + 8);
		inet_pton(AF_INET6, "2001:db8:100::2", ip + 24);
	} else {
		d[12] = 0x08, d[13] = 0;
		memset(ip, 0, 20);
		ip[0] = 0x45;
		ip[2] = (uint8_t)(ip_len >> 8), ip[3] = (uint8_t)ip_len;
		ip[6] = (uint8_t)(frag_off >> 8), ip[7] = (uint8_t)frag_off;
		ip[8] = 64;
		ip[9] = proto;
		inet_pton(AF_INET, "192.0.2.1", ip + 12);
		inet_pton(AF_INET, "192.0.2.2", ip + 16);
	}
	memcpy(orig, d, p.len);
	return p;
}

/* The one's-complement sum of @len bytes plus @sum, folded: 0xffff when a checksum verifies. */
static uint16_t fold(uint64_t sum, const uint8_t *b, size_t len)
{
	return csum_ref_fold(csum_ref_sum(b, len, sum));
}

static void test_bucket(void)
{
	struct tun_pmtu_bucket b;
	struct tun_table t = { .has_default = true, .dflt = { .remote = { .family = AF_INET } } };
	struct tun_underlay u = { .mtu = 1500 };
	uint64_t now = 5 * NS;
	int sent = 0, i;

	tun_pmtu__bucket_init(&b, 10, 3); /* 3 at once, then one per 100 ms */
	for (i = 0; i < 5; i++) {
		struct xskf_pkt p = frame(false, 1500, 0x4000, IPPROTO_UDP);

		sent += tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_ICMP4;
	}
	CHECK(sent == 3, "a full bucket of 3: 3 of 5 answered at once (%d)", sent);
	now += NS / 10 - 1;
	{
		struct xskf_pkt p = frame(false, 1500, 0x4000, IPPROTO_UDP);

		CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_RATELIMITED,
		      "1 ns before the interval: still rate limited");
	}
	now += 1;
	for (sent = 0, i = 0; i < 3; i++) {
		struct xskf_pkt p = frame(false, 1500, 0x4000, IPPROTO_UDP);

		sent += tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_ICMP4;
	}
	CHECK(sent == 1, "after one interval: one more (%d)", sent);
	now += 3600 * NS;
	for (sent = 0, i = 0; i < 10; i++) {
		struct xskf_pkt p = frame(false, 1500, 0x4000, IPPROTO_UDP);

		sent += tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_ICMP4;
	}
	CHECK(sent == 3, "after an hour: the burst again, not more (%d)", sent);

	tun_pmtu__bucket_init(&b, 0, 50);
	{
		struct xskf_pkt p = frame(false, 1500, 0x4000, IPPROTO_UDP);

		CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_NO_ICMP &&
			      !memcmp(p.data, orig, p.len),
		      "rate 0: no ICMP, frame unchanged");
	}
}

static void test_icmp4(void)
{
	struct tun_pmtu_bucket b;
	struct tun_table t = { .has_default = true, .dflt = { .remote = { .family = AF_INET } } };
	struct tun_underlay u = { .mtu = 1500 };
	uint64_t now = 1;
	struct xskf_pkt p = frame(false, 1500, 0x4000, IPPROTO_UDP);
	const uint8_t *d, *ip, *ic;

	tun_pmtu__bucket_init(&b, 1000, 50);
	CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_ICMP4, "IPv4 DF: answered");
	d = p.data, ip = d + 14, ic = ip + 20;
	CHECK(p.len == 14 + 20 + 8 + 548 && p.data == chunk + HEADROOM - 28,
	      "576 bytes of IP (the quote cut to 548), pushed 28 bytes: len %u", p.len);
	CHECK(!memcmp(d, mac_h, 6) && !memcmp(d + 6, mac_far, 6) && d[12] == 8 && d[13] == 0,
	      "Ethernet: back to the sender, from the destination's MAC");
	CHECK(ip[0] == 0x45 && (ip[2] << 8 | ip[3]) == 576 && ip[6] == 0x40 && ip[9] == 1 &&
		      !memcmp(ip + 12, orig + 14 + 16, 4) && !memcmp(ip + 16, orig + 14 + 12, 4),
	      "IPv4: length 576, DF, ICMP, from the original destination to its source");
	CHECK(fold(0, ip, 20) == 0xffff, "IPv4 header checksum verifies");
	CHECK(ic[0] == 3 && ic[1] == 4 && (ic[6] << 8 | ic[7]) == 1450 && !ic[4] && !ic[5],
	      "ICMP type 3 code 4, next-hop MTU 1450 (1500 - 50)");
	CHECK(fold(0, ic, 8 + 548) == 0xffff, "ICMP checksum verifies");
	CHECK(!memcmp(ic + 8, orig + 14, 548), "the quote is the original datagram's first bytes");

	t.dflt.remote.family = AF_INET6;
	p = frame(false, 1500, 0x4000, IPPROTO_UDP);
	tun_pmtu__answer(&b, &t, &u, &p, &now);
	CHECK((p.data[40] << 8 | p.data[41]) == 1430, "over an IPv6 underlay: MTU 1430 (1500 - 70)");
	p = frame(false, 1500, 0x4000, IPPROTO_UDP);
	p.data[16] = 301 >> 8, p.data[17] = 301 & 0xff; /* the header says 301: the rest padding */
	CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_ICMP4 &&
		      p.len == 14 + 28 + 301 && fold(0, p.data + 34, 8 + 301) == 0xffff,
	      "a datagram of 301 bytes in a longer frame: quoted as 301, odd checksum verifies");
	p = frame(false, 1500, 0x4000, IPPROTO_UDP);
	p.headroom = 27;
	CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_NO_ICMP &&
		      !memcmp(p.data, orig, p.len) && b.tokens == 50 - 3,
	      "no headroom for the headers: none, frame unchanged, no token taken");
}

static void test_icmp6(void)
{
	struct tun_pmtu_bucket b;
	struct tun_table t = { .has_default = true, .dflt = { .remote = { .family = AF_INET } } };
	struct tun_underlay u = { .mtu = 1500 };
	uint64_t now = 1, sum = 0;
	struct xskf_pkt p = frame(true, 1500, 0, IPPROTO_UDP);
	const uint8_t *d, *ip, *ic;

	tun_pmtu__bucket_init(&b, 1000, 50);
	CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_ICMP6, "IPv6: answered");
	d = p.data, ip = d + 14, ic = ip + 40;
	CHECK(p.len == 14 + 1280 && p.data == chunk + HEADROOM - 48,
	      "1280 bytes of IPv6 (the quote cut to 1232), pushed 48: len %u", p.len);
	CHECK(!memcmp(d, mac_h, 6) && !memcmp(d + 6, mac_far, 6) && d[12] == 0x86 &&
		      d[13] == 0xdd,
	      "Ethernet: back to the sender, from the destination's MAC");
	CHECK(ip[0] >> 4 == 6 && (ip[4] << 8 | ip[5]) == 1240 && ip[6] == 58 &&
		      !memcmp(ip + 8, orig + 14 + 24, 16) && !memcmp(ip + 24, orig + 14 + 8, 16),
	      "IPv6: payload 1240, ICMPv6, from the original destination to its source");
	CHECK(ic[0] == 2 && ic[1] == 0 && (ic[4] << 24 | ic[5] << 16 | ic[6] << 8 | ic[7]) == 1450,
	      "ICMPv6 type 2, MTU 1450");
	sum = 1240 + 58; /* pseudo header: upper-layer length and next header */
	CHECK(fold(sum, ip + 8, 32 + 8 + 1232) == 0xffff, "ICMPv6 checksum verifies");
	CHECK(!memcmp(ic + 8, orig + 14, 1232), "the quote is the original packet's first bytes");
}

/* A case that must get nothing: @what, a fresh frame changed by @edit. */
static void none(const char *what, bool v6, uint16_t frag_off, uint8_t proto,
		 void (*edit)(uint8_t *d))
{
	struct tun_pmtu_bucket b;
	struct tun_table t = { .has_default = true, .dflt = { .remote = { .family = AF_INET } } };
	struct tun_underlay u = { .mtu = 1500 };
	uint64_t now = 1;
	struct xskf_pkt p = frame(v6, 1500, frag_off, proto);

	tun_pmtu__bucket_init(&b, 1000, 50);
	if (edit) {
		edit(p.data);
		memcpy(orig, p.data, p.len);
	}
	CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_NO_ICMP &&
		      !memcmp(p.data, orig, p.len) && b.tokens == 50,
	      "no ICMP for %s (frame unchanged, no token taken)", what);
}

static void icmp_err(uint8_t *d) { d[34] = 11; }                 /* time exceeded */
static void icmp6_err(uint8_t *d) { d[54] = 1; }                 /* destination unreachable */
static void icmp6_redirect(uint8_t *d) { d[54] = 137; }
static void src_zero(uint8_t *d) { d[26] = 0; }
static void src_loop(uint8_t *d) { d[26] = 127; }
static void src_mcast(uint8_t *d) { d[26] = 224; }
static void src_bcast(uint8_t *d) { memset(d + 26, 255, 4); }
static void dst_mcast(uint8_t *d) { d[30] = 239; }
static void mac_bcast(uint8_t *d) { memset(d, 0xff, 6); }
static void src6_mcast(uint8_t *d) { d[22] = 0xff; }
static void src6_any(uint8_t *d) { memset(d + 22, 0, 16); }
static void dst6_mcast(uint8_t *d) { d[38] = 0xff; }
static void vlan(uint8_t *d) { d[12] = 0x81, d[13] = 0; }
static void frag6_later(uint8_t *d) { d[54] = 17, d[56] = 0, d[57] = 0x81; } /* offset 16 */
static void frag6_first(uint8_t *d) { d[54] = 58, d[56] = 0, d[57] = 1, d[62] = 3; }
static void ext6_icmp_err(uint8_t *d) { d[54] = 58, d[55] = 0, d[62] = 4; } /* hop-by-hop */

int main(void)
{
	test_bucket();
	test_icmp4();
	test_icmp6();
	none("IPv4 without DF", false, 0, IPPROTO_UDP, NULL);
	none("an IPv4 non-first fragment", false, 0x4000 | 185, IPPROTO_UDP, NULL);
	none("an IPv4 first fragment (MF)", false, 0x6000, IPPROTO_UDP, NULL);
	none("an ICMP error", false, 0x4000, IPPROTO_ICMP, icmp_err);
	none("source 0.0.0.0", false, 0x4000, IPPROTO_UDP, src_zero);
	none("source 127/8", false, 0x4000, IPPROTO_UDP, src_loop);
	none("a multicast source", false, 0x4000, IPPROTO_UDP, src_mcast);
	none("source 255.255.255.255", false, 0x4000, IPPROTO_UDP, src_bcast);
	none("a multicast destination", false, 0x4000, IPPROTO_UDP, dst_mcast);
	none("a broadcast MAC", false, 0x4000, IPPROTO_UDP, mac_bcast);
	none("an ICMPv6 error", true, 0, IPPROTO_ICMPV6, icmp6_err);
	none("an ICMPv6 redirect", true, 0, IPPROTO_ICMPV6, icmp6_redirect);
	none("an IPv6 multicast source", true, 0, IPPROTO_UDP, src6_mcast);
	none("IPv6 source ::", true, 0, IPPROTO_UDP, src6_any);
	none("an IPv6 multicast destination", true, 0, IPPROTO_UDP, dst6_mcast);
	none("an IPv6 non-first fragment", true, 0, 44, frag6_later);
	none("an ICMPv6 error behind a first fragment header", true, 0, 44, frag6_first);
	none("an ICMPv6 error behind hop-by-hop options", true, 0, 0, ext6_icmp_err);
	none("a VLAN-tagged frame", false, 0x4000, IPPROTO_UDP, vlan);
	{
		struct tun_pmtu_bucket b;
		struct tun_table t = { .has_default = true };
		struct tun_underlay u = { .mtu = 575 + 50 };
		uint64_t now = 1;
		struct xskf_pkt p = frame(false, 1500, 0x4000, IPPROTO_UDP);

		tun_pmtu__bucket_init(&b, 1000, 50);
		CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_NO_ICMP,
		      "IPv4 MTU 575 (below 576): none, as the kernel");
		p = frame(true, 1500, 0, IPPROTO_UDP);
		u.mtu = 1279 + 50;
		CHECK(tun_pmtu__answer(&b, &t, &u, &p, &now) == TUN_PMTU_NO_ICMP,
		      "IPv6 MTU 1279 (below 1280): none");
	}
	return tap_done();
}
