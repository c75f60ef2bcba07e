// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: xsk-tunnel's answers to frames too large for the tunnel (apps/tunnel_pmtu.c).
 * Input: one flags byte (bits 0-1: the underlay MTU, bit 2: the tunnel's underlay is IPv6,
 * bit 3: a headroom too small for the new headers), then the frame, in a buffer that ends where
 * the frame does (ASan sees every read past it). Properties:
 *  - a fresh bucket never rate-limits; a frame not answered is left exactly as it was;
 *  - an answer is an ICMP fragmentation needed (IPv4 with DF alone) or ICMPv6 packet too big
 *    (IPv6) from the original destination to its source, MACs swapped, the announced MTU the
 *    underlay's less 50 / 70, no longer than 576 / 1280 bytes of IP, quoting the original
 *    packet's first bytes unchanged, with IPv4 header and ICMP / ICMPv6 checksums that verify;
 *  - an ICMP or ICMPv6 error, a multicast or unspecified source is never answered.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "core/pkt_priv.h"
#include "tunnel_pmtu.h"

#include "fuzz.h"

static void check_icmp4(const uint8_t *in, uint32_t len, const uint8_t *d, uint32_t plen,
			uint32_t mtu)
{
	const uint8_t *ip = d + 14, *ic = ip + 20, *o = in + 14;
	uint32_t q = plen - 42;

	FUZZ_ASSERT(len >= 34 && fuzz_get16(in + 12) == 0x0800 && o[0] >> 4 == 4 &&
			fuzz_get16(o + 6) == 0x4000 && !(in[0] & 1),
		    "answered an IPv4 frame that is not DF alone, or to a group MAC");
	FUZZ_ASSERT(o[12] != 0 && o[12] != 127 && o[12] < 224 && o[16] < 224,
		    "answered a source that is not one host, or a group destination");
	if (o[9] == 1) {
		uint8_t type = o[(o[0] & 0xf) * 4];

		FUZZ_ASSERT(type != 3 && type != 4 && type != 5 && type != 11 && type != 12,
			    "answered an ICMP error (type %u)", type);
	}
	FUZZ_ASSERT(plen >= 42 && q <= 548 && q <= len - 14 && q <= fuzz_get16(o + 2),
		    "answer of %u bytes for a %u-byte frame", plen, len);
	FUZZ_ASSERT(!memcmp(d, in + 6, 6) && !memcmp(d + 6, in, 6) && fuzz_get16(d + 12) == 0x0800,
		    "Ethernet header of the answer");
	FUZZ_ASSERT(ip[0] == 0x45 && fuzz_get16(ip + 2) == 28 + q && ip[9] == 1 &&
			!memcmp(ip + 12, o + 16, 4) && !memcmp(ip + 16, o + 12, 4),
		    "IPv4 header of the answer");
	FUZZ_ASSERT(fuzz_csum(0, ip, 20) == 0xffff, "IPv4 header checksum");
	FUZZ_ASSERT(ic[0] == 3 && ic[1] == 4 && fuzz_get16(ic + 6) == mtu, "ICMP type/code/MTU");
	FUZZ_ASSERT(fuzz_csum(0, ic, 8 + q) == 0xffff, "ICMP checksum");
	FUZZ_ASSERT(!memcmp(ic + 8, o, q), "the quoted packet changed");
}

static void check_icmp6(const uint8_t *in, uint32_t len, const uint8_t *d, uint32_t plen,
			uint32_t mtu)
{
	const uint8_t *ip = d + 14, *ic = ip + 40, *o = in + 14;
	uint32_t q = plen - 62;

	FUZZ_ASSERT(len >= 54 && fuzz_get16(in + 12) == 0x86dd && o[0] >> 4 == 6,
		    "answered a frame that is not IPv6");
	FUZZ_ASSERT(o[8] != 0xff && o[24] != 0xff, "answered a multicast source or destination");
	FUZZ_ASSERT(!(o[6] == 58 && o[40] < 128), "answered an ICMPv6 error");
	FUZZ_ASSERT(plen >= 62 && q <= 1232 && q <= len - 14 && q <= 40u + fuzz_get16(o + 4),
		    "answer of %u bytes for a %u-byte frame", plen, len);
	FUZZ_ASSERT(!memcmp(d, in + 6, 6) && !memcmp(d + 6, in, 6) && fuzz_get16(d + 12) == 0x86dd,
		    "Ethernet header of the answer");
	FUZZ_ASSERT(ip[0] >> 4 == 6 && fuzz_get16(ip + 4) == 8 + q && ip[6] == 58 &&
			!memcmp(ip + 8, o + 24, 16) && !memcmp(ip + 24, o + 8, 16),
		    "IPv6 header of the answer");
	FUZZ_ASSERT(ic[0] == 2 && ic[1] == 0 && fuzz_get16(ic + 4) == mtu >> 16 &&
			fuzz_get16(ic + 6) == (mtu & 0xffff),
		    "ICMPv6 type/code/MTU");
	FUZZ_ASSERT(fuzz_csum(fuzz_csum(8 + q + 58, ip + 8, 32), ic, 8 + q) == 0xffff, "ICMPv6 checksum");
	FUZZ_ASSERT(!memcmp(ic + 8, o, q), "the quoted packet changed");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t mtus[4] = { 1500, 9000, 1280, 626 };
	struct tun_table t = { .has_default = true };
	struct tun_underlay u;
	struct tun_pmtu_bucket b;
	struct xskf_pkt pkt, before;
	uint32_t len, headroom, mtu;
	uint64_t now = 0;
	enum tun_ctr r;
	uint8_t *buf;
	bool v6;

	if (size < 1 + 14 || size > 1 + 9014)
		return 0;
	len = (uint32_t)size - 1;
	v6 = data[0] & 4;
	u.mtu = mtus[data[0] & 3];
	t.dflt.remote.family = v6 ? AF_INET6 : AF_INET;
	headroom = data[0] & 8 ? 27 : 256;
	buf = malloc(headroom + len);
	if (!buf)
		return 0;
	memcpy(buf + headroom, data + 1, len);
	pkt = (struct xskf_pkt){ .data = buf + headroom, .len = len,
				 .headroom = (uint16_t)headroom };
	pkt_priv(&pkt)->addr = 4096 + headroom;
	before = pkt;
	tun_pmtu__bucket_init(&b, TUN_PMTU_RATE_DEFAULT, TUN_PMTU_BURST_DEFAULT);
	r = tun_pmtu__answer(&b, &t, &u, &pkt, &now);
	mtu = tun_pmtu__mtu(u.mtu, v6);
	FUZZ_ASSERT(r == TUN_PMTU_ICMP4 || r == TUN_PMTU_ICMP6 || r == TUN_PMTU_NO_ICMP,
		    "a fresh bucket gave %s", tun_ctr_names[r]);
	if (r == TUN_PMTU_NO_ICMP) {
		FUZZ_ASSERT(pkt.data == before.data && pkt.len == len &&
				pkt_priv(&pkt)->addr == pkt_priv(&before)->addr &&
				pkt.headroom == headroom && !memcmp(pkt.data, data + 1, len),
			    "a frame not answered was changed");
	} else {
		uint32_t hl = r == TUN_PMTU_ICMP4 ? 28 : 48;

		FUZZ_ASSERT(pkt.data == before.data - hl &&
				pkt_priv(&pkt)->addr == pkt_priv(&before)->addr - hl &&
				pkt.headroom == headroom - hl,
			    "headroom/addr not moved with data");
		FUZZ_ASSERT(r == TUN_PMTU_ICMP4 ? mtu >= 576 : mtu >= 1280, "MTU %u announced", mtu);
		if (r == TUN_PMTU_ICMP4)
			check_icmp4(data + 1, len, pkt.data, pkt.len, mtu);
		else
			check_icmp6(data + 1, len, pkt.data, pkt.len, mtu);
	}
	free(buf);
	return 0;
}
