// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: VXLAN decapsulation and encapsulation (apps/tunnel_vxlan.c) with tables built
 * by the config parser. Input: one flags byte (the underlay MTU, a headroom too small), then
 * the frame, in a buffer that ends where the frame does (ASan sees every read past it).
 *  - decap: a frame it takes out is inside the input, right after the outer UDP + VXLAN
 *    headers, with the UDP length (that the IP length covers, that fits in the frame), a VNI
 *    of the table and bytes unchanged; a frame it drops is left exactly as it was.
 *  - encap: drops exactly the runts, what would exceed the MTU and what has no headroom, and
 *    leaves those frames as they were; otherwise the outer headers are right in front of the
 *    unchanged inner frame, lengths add up, the IPv4 header checksum or the UDP checksum over
 *    IPv6 is valid, the source port is the flow's; and the peer's decap gives back the inner
 *    frame, byte for byte.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "core/pkt_priv.h"
#include "tunnel_config.h"
#include "tunnel_vxlan.h"

#include "fuzz.h"

static const char conf_a[] = "local 198.51.100.1\n"
			     "local 2001:db8::1\n"
			     "nexthop-mac 02:00:00:00:00:02\n"
			     "vni 100 remote 198.51.100.2 mac 02:00:00:00:01:01\n"
			     "vni 200 remote 2001:db8::2 mac 02:00:00:00:01:02\n"
			     "vni 16777215 remote 198.51.100.2 mac ff:ff:ff:ff:ff:ff\n"
			     "default vni 300 remote 2001:db8::2\n";
/* the other end: our remotes are its locals, it accepts all our VNIs */
static const char conf_b[] = "local 198.51.100.2\n"
			     "local 2001:db8::2\n"
			     "nexthop-mac 02:00:00:00:00:01\n"
			     "vni 100 remote 198.51.100.1 mac 02:00:00:00:02:01\n"
			     "vni 200 remote 2001:db8::1 mac 02:00:00:00:02:02\n"
			     "vni 300 remote 2001:db8::1 mac 02:00:00:00:02:03\n"
			     "vni 16777215 remote 198.51.100.1 mac 02:00:00:00:02:04\n";

static struct tun_table *ta, *tb;

static struct tun_table *table(const char *conf)
{
	FILE *f = fmemopen((void *)conf, strlen(conf), "r");
	struct tun_table *t;
	char err[256];

	if (!f)
		return NULL;
	t = tun_config__parse(f, "fuzz", err, sizeof(err));
	fclose(f);
	if (!t)
		fprintf(stderr, "fuzz_vxlan: %s\n", err);
	return t;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ta = table(conf_a);
	tb = table(conf_b);
	return ta && tb ? 0 : -1;
}

struct frame {
	uint8_t *buf;
	struct xskf_pkt pkt;
};

static int frame_new(struct frame *f, const uint8_t *data, uint32_t len, uint32_t headroom)
{
	f->buf = malloc(headroom + len + 1); /* + 1: malloc(0) */
	if (!f->buf)
		return -1;
	memcpy(f->buf + headroom, data, len);
	memset(&f->pkt, 0, sizeof(f->pkt));
	f->pkt.data = f->buf + headroom;
	f->pkt.len = len;
	f->pkt.headroom = (uint16_t)headroom;
	pkt_priv(&f->pkt)->addr = 4096 + headroom;
	return 0;
}

static bool same_pkt(const struct xskf_pkt *a, const struct xskf_pkt *b)
{
	return a->data == b->data && a->len == b->len && a->headroom == b->headroom &&
	       pkt_priv(a)->addr == pkt_priv(b)->addr;
}

static void check_decap(const uint8_t *data, uint32_t len)
{
	struct frame f;
	struct xskf_pkt before;
	enum tun_ctr r;
	uint32_t off, l4, end, udp_len, vni;
	const uint8_t *d;

	if (frame_new(&f, data, len, 0))
		return;
	before = f.pkt;
	d = f.pkt.data;
	r = tun_vxlan__decap(ta, &f.pkt);
	FUZZ_ASSERT(r == TUN_DECAP || (r >= TUN_DEC_NOT_IP && r < TUN_CTR_MAX), "decap gave %d", r);
	FUZZ_ASSERT(!memcmp(d, data, len), "decap changed the frame's bytes");
	if (r != TUN_DECAP) {
		FUZZ_ASSERT(same_pkt(&f.pkt, &before), "a dropped frame was changed (%s)",
			    tun_ctr_names[r]);
		free(f.buf);
		return;
	}
	off = (uint32_t)(f.pkt.data - d);
	FUZZ_ASSERT(f.pkt.data > d && f.pkt.data + f.pkt.len <= d + len && f.pkt.len >= 14,
		    "inner frame at %u + %u outside the %u-byte frame", off, f.pkt.len, len);
	FUZZ_ASSERT(f.pkt.headroom == off &&
			    pkt_priv(&f.pkt)->addr == pkt_priv(&before)->addr + off,
		    "headroom/addr not moved with data");
	if (fuzz_get16(d + 12) == 0x0800) {
		l4 = 14 + (d[14] & 0xfu) * 4;
		end = 14 + fuzz_get16(d + 16);
		FUZZ_ASSERT(d[14] >> 4 == 4 && !memcmp(d + 30, ta->local4.a, 4) && d[23] == 17 &&
				!(fuzz_get16(d + 20) & 0x3fff),
			    "decap of an IPv4 packet not UDP to us, or a fragment");
	} else {
		FUZZ_ASSERT(fuzz_get16(d + 12) == 0x86dd, "decap of EtherType %#x", fuzz_get16(d + 12));
		l4 = 54;
		end = 54 + fuzz_get16(d + 18);
		FUZZ_ASSERT(!memcmp(d + 38, ta->local6.a, 16) && d[20] == 17,
			    "decap of an IPv6 packet not UDP to us");
	}
	udp_len = fuzz_get16(d + l4 + 4);
	vni = (uint32_t)d[l4 + 12] << 16 | (uint32_t)d[l4 + 13] << 8 | d[l4 + 14];
	FUZZ_ASSERT(off == l4 + 16 && f.pkt.len == udp_len - 16 && l4 + udp_len <= end &&
			end <= len,
		    "inner at %u len %u: l4 %u udp_len %u ip end %u frame %u", off, f.pkt.len, l4,
		    udp_len, end, len);
	FUZZ_ASSERT(fuzz_get16(d + l4 + 2) == TUN_VXLAN_PORT && (d[l4 + 8] & 0x08) &&
			tun_table__has_vni(ta, vni),
		    "decap: port %u flags %#x VNI %u", fuzz_get16(d + l4 + 2), d[l4 + 8], vni);
	free(f.buf);
}

static void check_encap(const uint8_t *data, uint32_t len, uint8_t flags)
{
	static const uint32_t mtus[4] = {1500, 9000, 1280, 65535};
	struct tun_underlay u = {.mac = {0x02, 0, 0, 0, 0, 0x10}, .mtu = mtus[flags & 3]};
	const struct tun_entry *e = len >= 14 ? tun_table__lookup(ta, tun_mac_key(data)) : NULL;
	bool v6 = e && e->remote.family == AF_INET6;
	uint32_t hlen = v6 ? TUN_VXLAN_HLEN6 : TUN_VXLAN_HLEN4, headroom = 256, l4;
	uint16_t ip_id = 0x1234, sport = 0;
	struct xskf_pkt before;
	enum tun_ctr r, want;
	struct frame f;
	uint8_t *p;

	if (flags & 4)
		headroom = hlen - 1;
	if (frame_new(&f, data, len, headroom))
		return;
	before = f.pkt;
	if (len >= 14)
		sport = tun_vxlan__sport(&f.pkt);
	FUZZ_ASSERT(len < 14 || sport >= 49152, "source port %u", sport);
	r = tun_vxlan__encap(ta, &u, &f.pkt, &ip_id);
	if (len < 14)
		want = TUN_ENC_RUNT;
	else if (!e)
		want = TUN_ENC_NO_ROUTE;
	else if (len + hlen - 14 > u.mtu)
		want = TUN_ENC_MTU;
	else if (headroom < hlen)
		want = TUN_ENC_NO_HEADROOM;
	else
		want = TUN_ENCAP;
	FUZZ_ASSERT(r == want, "encap of %u bytes (MTU %u, headroom %u) gave %s, want %s", len,
		    u.mtu, headroom, tun_ctr_names[r], tun_ctr_names[want]);
	FUZZ_ASSERT(!memcmp(f.buf + headroom, data, len), "encap changed the inner frame");
	if (r != TUN_ENCAP) {
		FUZZ_ASSERT(same_pkt(&f.pkt, &before) && ip_id == 0x1234,
			    "a dropped frame was changed (%s)", tun_ctr_names[r]);
		free(f.buf);
		return;
	}
	p = f.pkt.data;
	FUZZ_ASSERT(p == before.data - hlen && f.pkt.len == len + hlen &&
			f.pkt.headroom == headroom - hlen &&
			pkt_priv(&f.pkt)->addr == pkt_priv(&before)->addr - hlen,
		    "outer headers not right in front of the frame");
	FUZZ_ASSERT(!memcmp(p, ta->nexthop_mac, 6) && !memcmp(p + 6, u.mac, 6), "outer MACs");
	if (v6) {
		uint8_t ph[8] = {0, 0, p[18], p[19], 0, 0, 0, 17};
		uint32_t sum = fuzz_csum(fuzz_csum(0, p + 22, 32), ph, 8);

		l4 = 54;
		FUZZ_ASSERT(fuzz_get16(p + 12) == 0x86dd && p[14] >> 4 == 6 &&
				fuzz_get16(p + 18) == len + hlen - 54 && p[20] == 17 &&
				!memcmp(p + 22, ta->local6.a, 16) &&
				!memcmp(p + 38, e->remote.a, 16) && ip_id == 0x1234,
			    "outer IPv6 header");
		FUZZ_ASSERT(fuzz_get16(p + l4 + 6) && fuzz_csum(sum, p + l4, len + 16) == 0xffff,
			    "UDP checksum %#x over IPv6 does not verify", fuzz_get16(p + l4 + 6));
	} else {
		l4 = 34;
		FUZZ_ASSERT(fuzz_get16(p + 12) == 0x0800 && p[14] == 0x45 &&
				fuzz_get16(p + 16) == len + hlen - 14 && fuzz_get16(p + 18) == 0x1234 &&
				p[23] == 17 && !memcmp(p + 26, ta->local4.a, 4) &&
				!memcmp(p + 30, e->remote.a, 4) && ip_id == 0x1235,
			    "outer IPv4 header");
		FUZZ_ASSERT(fuzz_csum(0, p + 14, 20) == 0xffff, "IPv4 header checksum does not verify");
	}
	FUZZ_ASSERT(fuzz_get16(p + l4) == sport && fuzz_get16(p + l4 + 2) == TUN_VXLAN_PORT &&
			fuzz_get16(p + l4 + 4) == len + 16,
		    "UDP header: sport %u (want %u) dport %u len %u", fuzz_get16(p + l4), sport,
		    fuzz_get16(p + l4 + 2), fuzz_get16(p + l4 + 4));
	FUZZ_ASSERT(p[l4 + 8] == 0x08 && ((uint32_t)p[l4 + 12] << 16 | (uint32_t)p[l4 + 13] << 8 |
					  p[l4 + 14]) == e->vni,
		    "VXLAN header");
	/* the peer takes it out again: the inner frame, byte for byte */
	r = tun_vxlan__decap(tb, &f.pkt);
	FUZZ_ASSERT(r == TUN_DECAP && f.pkt.data == before.data && f.pkt.len == len &&
			f.pkt.headroom == headroom && !memcmp(f.pkt.data, data, len),
		    "the peer's decap of our encap gave %s", tun_ctr_names[r]);
	free(f.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 65536)
		return 0;
	check_decap(data + 1, (uint32_t)size - 1);
	check_encap(data + 1, (uint32_t)size - 1, data[0]);
	return 0;
}
