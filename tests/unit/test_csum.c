// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unfinished TCP/UDP checksums (framework/csum.c): frames as a Linux sender with TX checksum
 * offload leaves them (the field holds the folded pseudo-header sum, not complemented:
 * tcp_v4_send_check(), udp4_hwcsum(), ... with CHECKSUM_PARTIAL) are finished to the bytes a
 * complete sender writes; complete ones, UDP without checksum, fragments and other protocols
 * are left alone; lengths that do not fit the frame are refused. The reference sum here is the
 * textbook one, byte by byte in network order, so that it shares nothing with csum.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "core/csum.h"
#include "core/internal.h"
#include "xskf_hints.h"

static uint32_t ref_sum(const uint8_t *p, uint32_t n, uint32_t s)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static uint16_t ref_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

struct frame {
	uint8_t b[600];
	uint32_t len;        /* with padding */
	uint32_t l3, l4, seg; /* offsets; L4 segment length */
	uint32_t check;      /* offset of the checksum field */
	bool v6;
	uint8_t proto;
};

/* Ethernet (+ @tags VLAN tags) + IPv4/IPv6 (+ hop-by-hop) + TCP/UDP with @pay payload bytes. */
static void build(struct frame *f, int tags, bool v6, bool ext, uint8_t proto, uint32_t pay,
		  uint32_t pad)
{
	static const uint16_t tpid[2] = { 0x88a8, 0x8100 };
	uint32_t off = 12, i, hdr = proto == 6 ? 20 : 8, l3len;
	uint8_t *b = f->b;

	memset(f, 0, sizeof(*f));
	memcpy(b, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01", 12);
	for (i = 0; i < (uint32_t)tags; i++, off += 4) {
		uint16_t t = tags == 2 ? tpid[i] : 0x8100;

		b[off] = t >> 8;
		b[off + 1] = t & 0xff;
		b[off + 3] = (uint8_t)(10 + i);
	}
	b[off] = v6 ? 0x86 : 0x08;
	b[off + 1] = v6 ? 0xdd : 0x00;
	f->l3 = off + 2;
	f->v6 = v6;
	f->proto = proto;
	f->seg = hdr + pay;
	if (v6) {
		uint8_t *h = b + f->l3;

		h[0] = 0x60;
		l3len = 40 + (ext ? 8 : 0);
		h[4] = (uint8_t)((l3len - 40 + f->seg) >> 8);
		h[5] = (uint8_t)(l3len - 40 + f->seg);
		h[6] = ext ? 0 : proto;
		h[7] = 64;
		memcpy(h + 8, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		memcpy(h + 24, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
		if (ext) {
			h[40] = proto; /* hop-by-hop, 8 bytes: next header, length 0, PadN */
			h[42] = 1;
			h[43] = 4;
		}
	} else {
		uint8_t *h = b + f->l3;

		l3len = 20;
		h[0] = 0x45;
		h[2] = (uint8_t)((20 + f->seg) >> 8);
		h[3] = (uint8_t)(20 + f->seg);
		h[8] = 64;
		h[9] = proto;
		memcpy(h + 12, "\xc0\x00\x02\x01\xc0\x00\x02\x02", 8);
		i = ref_fold(ref_sum(h, 20, 0)) ^ 0xffff;
		h[10] = (uint8_t)(i >> 8);
		h[11] = (uint8_t)i;
	}
	f->l4 = f->l3 + l3len;
	b[f->l4] = 0x30;
	b[f->l4 + 1] = 0x39;
	b[f->l4 + 3] = 80;
	if (proto == 6) {
		b[f->l4 + 12] = 0x50;
		b[f->l4 + 13] = 0x18;
		f->check = f->l4 + 16;
	} else {
		b[f->l4 + 4] = (uint8_t)(f->seg >> 8);
		b[f->l4 + 5] = (uint8_t)f->seg;
		f->check = f->l4 + 6;
	}
	for (i = 0; i < pay; i++)
		b[f->l4 + hdr + i] = (uint8_t)(i * 7 + 3);
	f->len = f->l4 + f->seg + pad;
	for (i = 0; i < pad; i++)
		b[f->l4 + f->seg + i] = 0xee; /* Ethernet padding: not part of the segment */
}

static uint32_t pseudo(const struct frame *f)
{
	const uint8_t *h = f->b + f->l3;

	return f->v6 ? ref_sum(h + 8, 32, f->seg + f->proto) : ref_sum(h + 12, 8, f->seg + f->proto);
}

/* The checksum a complete sender writes. */
static void complete(struct frame *f)
{
	uint16_t c;

	f->b[f->check] = f->b[f->check + 1] = 0;
	c = (uint16_t)~ref_fold(ref_sum(f->b + f->l4, f->seg, pseudo(f)));
	if (!c && f->proto == 17)
		c = 0xffff;
	f->b[f->check] = (uint8_t)(c >> 8);
	f->b[f->check + 1] = (uint8_t)c;
}

/* What a sender with TX checksum offload leaves: the folded pseudo-header sum. */
static void unfinished(struct frame *f)
{
	uint16_t c = ref_fold(pseudo(f));

	f->b[f->check] = (uint8_t)(c >> 8);
	f->b[f->check + 1] = (uint8_t)c;
}

static void one_case(const char *what, int tags, bool v6, bool ext, uint8_t proto, uint32_t pay,
		     uint32_t pad)
{
	struct frame good, f;
	struct xskf_pkt pkt = {};

	build(&good, tags, v6, ext, proto, pay, pad);
	complete(&good);
	f = good;
	unfinished(&f);
	CHECK(memcmp(f.b, good.b, f.len), "%s: the unfinished frame differs from the complete one",
	      what);
	CHECK(xskf_csum__finish(f.b, f.len) == 1, "%s: finished", what);
	CHECK(!memcmp(f.b, good.b, f.len), "%s: to the bytes of a complete sender", what);
	CHECK(xskf_csum__finish(f.b, f.len) == 0, "%s: a complete checksum is left alone", what);
	CHECK(!memcmp(f.b, good.b, f.len), "%s: unchanged the second time", what);
	/* through the packet view: no meta, the frame is parsed */
	f = good;
	unfinished(&f);
	pkt.data = f.b;
	pkt.len = f.len;
	CHECK(xskf_pkt__csum_finish(&pkt) == 1 && !memcmp(f.b, good.b, f.len),
	      "%s: xskf_pkt__csum_finish() without hints", what);
	/* the IP length runs past the frame: refused, unchanged */
	f = good;
	unfinished(&f);
	good = f;
	CHECK(xskf_csum__finish(f.b, f.l4 + f.seg - 1) == -EBADMSG && !memcmp(f.b, good.b, f.len),
	      "%s: one byte short: -EBADMSG, unchanged", what);
}

/* The meta path: offsets from the XDP program's parse, in front of the frame. */
static void meta_case(void)
{
	uint8_t buf[sizeof(struct xskf_meta) + 620] __attribute__((aligned(8)));
	struct xskf_meta *m = (struct xskf_meta *)buf;
	struct frame good, f;
	struct xskf_pkt pkt = {};

	build(&good, 1, false, false, 6, 101, 0);
	complete(&good);
	f = good;
	unfinished(&f);
	memset(m, 0, sizeof(*m));
	m->magic = XSKF_META_MAGIC;
	m->ptype = XSKF_PTYPE_L2_ETHER_VLAN | XSKF_PTYPE_L3_IPV4 | XSKF_PTYPE_L4_TCP;
	m->l3_off = (uint8_t)f.l3;
	m->l4_off = (uint16_t)f.l4;
	memcpy(buf + sizeof(*m), f.b, f.len);
	pkt.data = buf + sizeof(*m);
	pkt.len = f.len;
	pkt.meta = m;
	CHECK(xskf_pkt__csum_finish(&pkt) == 1 && !memcmp(pkt.data, good.b, f.len),
	      "VLAN IPv4 TCP with hints: finished from the meta's offsets");
	/* a meta that says ICMP: the meta is what is used while the frame is as received */
	memcpy(buf + sizeof(*m), f.b, f.len);
	m->ptype = XSKF_PTYPE_L2_ETHER_VLAN | XSKF_PTYPE_L3_IPV4 | XSKF_PTYPE_L4_ICMP;
	CHECK(xskf_pkt__csum_finish(&pkt) == 0, "the meta's packet type is used");
	/* a frame that no longer starts where it was received: parsed, not read with the meta's
	 * offsets (they would point 8 bytes off) */
	m->ptype = XSKF_PTYPE_L2_ETHER_VLAN | XSKF_PTYPE_L3_IPV4 | XSKF_PTYPE_L4_TCP;
	memcpy(buf + sizeof(*m) + 8, f.b, f.len);
	pkt.data = buf + sizeof(*m) + 8;
	CHECK(xskf_pkt__csum_finish(&pkt) == 1 && !memcmp(pkt.data, good.b, f.len),
	      "a moved frame is parsed, not read with the meta's offsets");
}

static void burst_case(void)
{
	static struct xskf_sock s;
	struct frame a, b, c;
	struct xskf_pkt pkts[3] = {};

	build(&a, 0, false, false, 6, 40, 0);
	complete(&a);
	build(&b, 0, true, false, 17, 33, 0);
	unfinished(&b);
	build(&c, 0, false, false, 1, 20, 0); /* ICMP: nothing to look at */
	pkts[0] = (struct xskf_pkt){ .data = a.b, .len = a.len };
	pkts[1] = (struct xskf_pkt){ .data = b.b, .len = b.len };
	pkts[2] = (struct xskf_pkt){ .data = c.b, .len = c.len };
	xskf_csum__burst(&s, pkts, 3, false, false);
	CHECK(s.c.csum_checked == 2 && s.c.csum_unfinished == 1 && s.c.csum_repaired == 0,
	      "burst, counting only: checked 2, unfinished 1, repaired 0 (%llu %llu %llu)",
	      (unsigned long long)s.c.csum_checked, (unsigned long long)s.c.csum_unfinished,
	      (unsigned long long)s.c.csum_repaired);
	xskf_csum__burst(&s, pkts, 3, true, false);
	CHECK(s.c.csum_unfinished == 2 && s.c.csum_repaired == 1, "burst, repairing: repaired 1");
	xskf_csum__burst(&s, pkts, 3, true, false);
	CHECK(s.c.csum_unfinished == 2 && s.c.csum_repaired == 1 && s.c.csum_checked == 6,
	      "a repaired frame is complete the next time");
}

/*
 * Mutated frames, each in a heap buffer of exactly its length (ASan sees a read past it): the
 * result is always -EBADMSG, 0 or 1, and a frame just finished is complete the next time.
 */
static void random_case(void)
{
	unsigned int seed = 17, i, bad = 0, fin = 0;

	for (i = 0; i < 200000; i++) {
		struct frame f;
		uint32_t len, k;
		uint8_t *b;
		int r, r2;

		build(&f, (int)(rand_r(&seed) % 3), rand_r(&seed) & 1, !(rand_r(&seed) % 4),
		      rand_r(&seed) & 1 ? 6 : 17, rand_r(&seed) % 300, rand_r(&seed) % 3);
		unfinished(&f);
		for (k = rand_r(&seed) % 4; k; k--) /* a few random bytes anywhere */
			f.b[rand_r(&seed) % f.len] = (uint8_t)rand_r(&seed);
		len = rand_r(&seed) % 4 ? f.len : rand_r(&seed) % (f.len + 1);
		b = malloc(len ? len : 1);
		memcpy(b, f.b, len);
		r = xskf_csum__finish(b, len);
		r2 = xskf_csum__finish(b, len);
		if (r < -EBADMSG || (r < 0 && r != -EBADMSG) || r > 1 || (r == 1 && r2 != 0))
			bad++;
		fin += r == 1;
		free(b);
	}
	CHECK(!bad, "200000 mutated frames: results in {-EBADMSG, 0, 1}, finished ones complete "
		    "after (%u finished, %u wrong)", fin, bad);
}

int main(void)
{
	struct frame f;
	uint32_t pay;

	for (pay = 0; pay < 5; pay++) { /* odd and even lengths */
		one_case("IPv4 TCP", 0, false, false, 6, 100 + pay, 0);
		one_case("IPv4 UDP, padded", 0, false, false, 17, 1 + pay, 20);
		one_case("IPv6 TCP", 0, true, false, 6, 200 + pay, 0);
		one_case("IPv6 UDP + hop-by-hop", 0, true, true, 17, 31 + pay, 0);
		one_case("VLAN IPv4 UDP", 1, false, false, 17, 64 + pay, 0);
		one_case("QinQ IPv6 TCP", 2, true, false, 6, 500 + pay, 0);
	}
	/* UDP over IPv4 without a checksum: nothing to finish */
	build(&f, 0, false, false, 17, 10, 0);
	CHECK(xskf_csum__finish(f.b, f.len) == 0 && !f.b[f.check] && !f.b[f.check + 1],
	      "IPv4 UDP with checksum 0 (none): left alone");
	/* a fragment (MF set): its checksum covers the whole datagram, not this frame */
	build(&f, 0, false, false, 17, 10, 0);
	unfinished(&f);
	f.b[f.l3 + 6] = 0x20;
	CHECK(xskf_csum__finish(f.b, f.len) == 0, "IPv4 first fragment: left alone");
	/* not IP at all */
	memset(&f, 0, sizeof(f));
	f.b[12] = 0x08;
	f.b[13] = 0x06;
	CHECK(xskf_csum__finish(f.b, 60) == 0, "ARP: nothing to do");
	CHECK(xskf_csum__finish(f.b, 10) == 0, "a runt: nothing to do");
	meta_case();
	burst_case();
	random_case();
	return tap_done();
}
