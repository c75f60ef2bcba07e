// SPDX-License-Identifier: BSD-2-Clause
/*
 * The software RSS hash, no root: the Toeplitz tables against every vector of the Microsoft RSS
 * verification suite (IPv4 and IPv6, addresses only and with ports), against the bit-serial
 * reference for other keys and lengths, and xskf_pkt__rx_hash() on frames with and without a
 * meta (hardware hash kept, software hash of the right fields and type, nothing to hash), and
 * the ethtool key read's refusals and fallback.
 * TAP output.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xskf_hints.h>

#include "backend/xdp/watch/rss_key.h"
#include "core/hints.h"
#include "core/toeplitz.h"
#include "../../bpf/xskf_hints_parse.h"
#include "hints_vectors.h"

#include "tap.h"

/* The suite's table: source, source port, destination, destination port, hashes. */
struct ms_vector {
	int family;
	const char *src, *dst;
	uint16_t sport, dport;
	uint32_t l3, l4;
};

static const struct ms_vector ms_vectors[] = {
	{ AF_INET, "66.9.149.187", "161.142.100.80", 2794, 1766, 0x323e8fc2, 0x51ccc178 },
	{ AF_INET, "199.92.111.2", "65.69.140.83", 14230, 4739, 0xd718262a, 0xc626b0ea },
	{ AF_INET, "24.19.198.95", "12.22.207.184", 12898, 38024, 0xd2d0a5de, 0x5c2b394a },
	{ AF_INET, "38.27.205.30", "209.142.163.6", 48228, 2217, 0x82989176, 0xafc7327f },
	{ AF_INET, "153.39.163.191", "202.188.127.2", 44251, 1303, 0x5d1809c5, 0x10e828a2 },
	{ AF_INET6, "3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", 2794, 1766, 0x2cc18cd5,
	  0x40207d3d },
	{ AF_INET6, "3ffe:501:8::260:97ff:fe40:efab", "ff02::1", 14230, 4739, 0x0f0c461c,
	  0xdde51bbf },
	{ AF_INET6, "3ffe:1900:4545:3:200:f8ff:fe21:67cf", "fe80::200:f8ff:fe21:67cf", 44251, 38024,
	  0x4b61e985, 0x02d1feef },
};

#define NR_MS (sizeof(ms_vectors) / sizeof(ms_vectors[0]))

/* The spec's input: source address, destination address, source port, destination port. */
static size_t ms_input(const struct ms_vector *v, uint8_t *in, int ports)
{
	size_t alen = v->family == AF_INET ? 4 : 16;

	inet_pton(v->family, v->src, in);
	inet_pton(v->family, v->dst, in + alen);
	in[2 * alen] = (uint8_t)(v->sport >> 8);
	in[2 * alen + 1] = (uint8_t)v->sport;
	in[2 * alen + 2] = (uint8_t)(v->dport >> 8);
	in[2 * alen + 3] = (uint8_t)v->dport;
	return 2 * alen + (ports ? 4 : 0);
}

static void test_ms_vectors(void)
{
	static struct xskf_toeplitz t;
	const struct xskf_rss *rss = xskf_rss__default();
	uint8_t in[XSKF_TOEPLITZ_MAX_INPUT];
	unsigned int i;
	size_t n;

	xskf_toeplitz__init(&t, xskf_toeplitz_ms_key, sizeof(xskf_toeplitz_ms_key));
	for (i = 0; i < NR_MS; i++) {
		const struct ms_vector *v = &ms_vectors[i];
		const char *fam = v->family == AF_INET ? "IPv4" : "IPv6";

		n = ms_input(v, in, 0);
		CHECK(xskf_toeplitz__hash(&t, in, n) == v->l3 &&
			      xskf_toeplitz__hash_bits(xskf_toeplitz_ms_key, 40, in, n) == v->l3 &&
			      xskf_rss__hash(rss, in, n) == v->l3,
		      "%s %s -> %s: %#010x (table, bits, xskf_rss__hash)", fam, v->src, v->dst, v->l3);
		n = ms_input(v, in, 1);
		CHECK(xskf_toeplitz__hash(&t, in, n) == v->l4 &&
			      xskf_toeplitz__hash_bits(xskf_toeplitz_ms_key, 40, in, n) == v->l4 &&
			      xskf_rss__hash(rss, in, n) == v->l4,
		      "%s %s:%u -> %s:%u: %#010x", fam, v->src, v->sport, v->dst, v->dport, v->l4);
	}
}

/* Tables against the bit-serial form: random keys (40, 52 and short), inputs and positions. */
static void test_tables_vs_bits(void)
{
	static struct xskf_toeplitz t;
	static const size_t key_lens[] = { 40, 52, 16, 4 };
	uint8_t key[XSKF_TOEPLITZ_MAX_KEY], in[XSKF_TOEPLITZ_MAX_INPUT];
	unsigned int k, r, bad;
	size_t i, len;

	srand(7);
	for (k = 0; k < sizeof(key_lens) / sizeof(key_lens[0]); k++) {
		bad = 0;
		for (i = 0; i < sizeof(key); i++)
			key[i] = (uint8_t)rand();
		xskf_toeplitz__init(&t, key, key_lens[k]);
		for (r = 0; r < 2000; r++) {
			len = (size_t)rand() % (XSKF_TOEPLITZ_MAX_INPUT + 1);
			for (i = 0; i < len; i++)
				in[i] = (uint8_t)rand();
			if (xskf_toeplitz__hash(&t, in, len) !=
			    xskf_toeplitz__hash_bits(key, key_lens[k], in, len))
				bad++;
		}
		CHECK(!bad, "%zu-byte key: tables equal the bit-serial hash on 2000 inputs",
		      key_lens[k]);
	}
	/* a split input hashes as the whole: what hashing addresses and ports apart relies on */
	xskf_toeplitz__init(&t, xskf_toeplitz_ms_key, 40);
	len = ms_input(&ms_vectors[5], in, 1);
	CHECK((xskf_toeplitz__hash_at(&t, 0, in, 32) ^ xskf_toeplitz__hash_at(&t, 32, in + 32, 4)) ==
		      ms_vectors[5].l4 && len == 36,
	      "pieces at their positions XOR to the whole");
}

/* A frame of the MS vector @v, with ports, L4 @proto (6 or 17), IPv4 fragment field @frag. */
static void ms_frame(struct hv_frame *f, const struct ms_vector *v, uint8_t proto, uint16_t frag)
{
	uint8_t a[36]; /* ms_input() writes the ports after the two addresses */

	ms_input(v, a, 0);
	f->len = 0;
	if (v->family == AF_INET) {
		hv_eth(f, 0x0800);
		hv_ipv4(f, proto, 5, frag, a, a + 4);
	} else {
		hv_eth(f, 0x86dd);
		hv_ipv6(f, proto, a, a + 16);
	}
	if (proto == 6)
		hv_tcp(f, v->sport, v->dport, 5);
	else
		hv_udp(f, v->sport, v->dport);
}

struct rx_buf {
	struct xskf_meta meta;
	uint8_t frame[640];
} __attribute__((packed, aligned(64)));

/*
 * Lay @f out after a meta filled as the XDP program would (hw = false); @meta: 1 keep it, 2 a
 * meta without the parse (xskf_hints_mask without XSKF_HINT_PARSE: zeros and NOPARSE), 0 none.
 */
static void rx_prepare(struct rx_buf *b, struct xskf_pkt *pkt, const struct hv_frame *f, int meta)
{
	struct xskf_parse p;

	memcpy(b->frame, f->b, f->len);
	memset(&b->meta, 0, sizeof(b->meta));
	xskf_parse_frame(b->frame, b->frame + f->len, &p);
	b->meta.ptype = p.ptype;
	b->meta.l3_off = (uint8_t)p.l3_off;
	b->meta.l4_off = p.l4_off;
	b->meta.magic = XSKF_META_MAGIC;
	if (meta == 2) {
		memset(&b->meta, 0, sizeof(b->meta));
		b->meta.src = XSKF_META_NOPARSE;
		b->meta.magic = XSKF_META_MAGIC;
	}
	memset(pkt, 0, sizeof(*pkt));
	pkt->data = b->frame;
	pkt->len = f->len;
	pkt->meta = meta ? &b->meta : NULL;
}

static void test_pkt_hash(void)
{
	struct rx_buf b;
	struct hv_frame f;
	struct xskf_pkt pkt;
	uint32_t hash;
	uint16_t type;
	unsigned int i;
	int meta;

	for (i = 0; i < NR_MS; i++) {
		const struct ms_vector *v = &ms_vectors[i];
		int v6 = v->family == AF_INET6;

		for (meta = 2; meta >= 0; meta--) {
			const char *how = meta == 2 ? "meta without the parse, own parse"
					  : meta ? "meta" : "no meta, own parse";

			ms_frame(&f, v, 6, 0);
			rx_prepare(&b, &pkt, &f, meta);
			hash = 0;
			CHECK(xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_SW && hash == v->l4 &&
				      type == (v6 ? XDP_RSS_TYPE_L4_IPV6_TCP : XDP_RSS_TYPE_L4_IPV4_TCP),
			      "vector %u TCP (%s): SW hash %#010x type %u", i, how, hash, type);
			ms_frame(&f, v, 17, 0);
			rx_prepare(&b, &pkt, &f, meta);
			CHECK(xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_SW && hash == v->l4 &&
				      type == (v6 ? XDP_RSS_TYPE_L4_IPV6_UDP : XDP_RSS_TYPE_L4_IPV4_UDP),
			      "vector %u UDP (%s): SW hash %#010x type %u", i, how, hash, type);
		}
		/* SCTP and fragments: addresses only, as the NICs hash them */
		ms_frame(&f, v, 132, 0);
		rx_prepare(&b, &pkt, &f, 1);
		CHECK(xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_SW && hash == v->l3 &&
			      type == (v6 ? XDP_RSS_TYPE_L3_IPV6 : XDP_RSS_TYPE_L3_IPV4),
		      "vector %u SCTP: L3 hash %#010x", i, hash);
		if (!v6) {
			ms_frame(&f, v, 6, 0x2000);
			rx_prepare(&b, &pkt, &f, 1);
			CHECK(xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_SW && hash == v->l3 &&
				      type == XDP_RSS_TYPE_L3_IPV4,
			      "vector %u first fragment: L3 hash %#010x", i, hash);
		}
	}

	/* a hardware hash is returned as is, with its type */
	ms_frame(&f, &ms_vectors[0], 6, 0);
	rx_prepare(&b, &pkt, &f, 1);
	b.meta.rx_hash = 0x12345678;
	b.meta.hash_type = XDP_RSS_TYPE_L4_ANY;
	b.meta.src = XSKF_SRC_HW << (2 * XSKF_F_HASH);
	CHECK(xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_HW && hash == 0x12345678 &&
		      type == XDP_RSS_TYPE_L4_ANY,
	      "hardware hash kept");

	/* a chunk going back to the fill ring forgets its hints */
	xskf_hints__forget(b.frame);
	CHECK(!xskf_pkt__meta_valid(&pkt) && xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_SW &&
		      hash == ms_vectors[0].l4,
	      "xskf_hints__forget(): meta invalid, software hash from the frame");

	/* nothing to hash: ARP, a truncated IPv4 header */
	f.len = 0;
	c_arp(&f);
	rx_prepare(&b, &pkt, &f, 1);
	hash = 7;
	CHECK(xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_NONE && hash == 7,
	      "ARP: no hash, *hash untouched");
	f.len = 0;
	c_trunc_ipv4(&f);
	rx_prepare(&b, &pkt, &f, 0);
	CHECK(xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_NONE, "truncated IPv4: no hash");
	/* a truncated TCP header: addresses only */
	ms_frame(&f, &ms_vectors[1], 6, 0);
	f.len = 34 + 10;
	rx_prepare(&b, &pkt, &f, 1);
	CHECK(xskf_pkt__rx_hash(&pkt, &hash, &type) == XSKF_SRC_SW && hash == ms_vectors[1].l3 &&
		      type == XDP_RSS_TYPE_L3_IPV4,
	      "truncated TCP: L3 hash");
}

static void test_rss_objects(void)
{
	static const uint8_t zero_key[40];
	const struct xskf_rss *ports[2];
	struct xskf_rss *zero, *ms;
	struct rx_buf b;
	struct hv_frame f;
	struct xskf_pkt pkt;
	uint32_t hash = 1;
	uint16_t type;

	errno = 0;
	CHECK(!xskf_rss__new(zero_key, 3) && errno == EINVAL, "3-byte key: EINVAL");
	CHECK(!xskf_rss__new(zero_key, 65) && errno == EINVAL, "65-byte key: EINVAL");
	zero = xskf_rss__new(zero_key, sizeof(zero_key));
	ms = xskf_rss__new(NULL, 0);
	CHECK(zero && ms, "objects for an all-zero key and the default key");
	if (!zero || !ms)
		return;

	/* xskf_hash__sw(): the key of the frame's port on this thread, default elsewhere */
	ms_frame(&f, &ms_vectors[2], 17, 0);
	rx_prepare(&b, &pkt, &f, 1);
	pkt.port = 1;
	CHECK(!xskf_hash__sw(&pkt, &hash, &type) && hash == ms_vectors[2].l4,
	      "no thread keys: default key");
	ports[0] = ms;
	ports[1] = zero;
	xskf_hints__set_thread_rss(ports, 2);
	CHECK(!xskf_hash__sw(&pkt, &hash, &type) && hash == 0, "port 1: its (zero) key");
	pkt.port = 0;
	CHECK(!xskf_hash__sw(&pkt, &hash, &type) && hash == ms_vectors[2].l4, "port 0: its key");
	pkt.port = 5;
	CHECK(!xskf_hash__sw(&pkt, &hash, &type) && hash == ms_vectors[2].l4,
	      "port beyond the table: default key");
	xskf_hints__set_thread_rss(NULL, 0);
	CHECK(!xskf_rss__hash_pkt(zero, &pkt, &hash, &type) && hash == 0, "explicit key");
	xskf_rss__free(zero);
	xskf_rss__free(ms);
	xskf_rss__free(NULL);
}

/* The ethtool read: no device here has an RSS key, so only its refusals and the fallback. */
static void test_read_key(void)
{
	uint8_t key[XSKF_TOEPLITZ_MAX_KEY];
	size_t len = sizeof(key);
	struct xskf_rss *rss;
	uint8_t in[12];
	int err = 1;

	CHECK(xskf_rss__read_key(NULL, key, &len) == -EINVAL, "no name: EINVAL");
	CHECK(xskf_rss__read_key("an-interface-name-too-long", key, &len) == -EINVAL,
	      "name too long: EINVAL");
	CHECK(xskf_rss__read_key("xskf-nodev0", key, &len) == -ENODEV, "no such device: ENODEV");
	CHECK(xskf_rss__read_key("lo", key, &len) == -EOPNOTSUPP, "lo has no RSS key: EOPNOTSUPP");
	rss = xskf_rss__for_ifname("lo", &err);
	ms_input(&ms_vectors[3], in, 1);
	CHECK(rss && err == -EOPNOTSUPP && xskf_rss__hash(rss, in, 12) == ms_vectors[3].l4,
	      "for_ifname(lo): the default key, and why (err %d)", err);
	xskf_rss__free(rss);
}

int main(void)
{
	test_ms_vectors();
	test_tables_vs_bits();
	test_pkt_hash();
	test_rss_objects();
	test_read_key();
	return tap_done();
}
