// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unfinished TCP/UDP checksums (framework/csum.c): frames as a Linux sender with TX checksum
 * offload leaves them (the field holds the folded pseudo-header sum, not complemented:
 * tcp_v4_send_check(), udp4_hwcsum(), ... with CHECKSUM_PARTIAL) are finished to the bytes a
 * complete sender writes; complete ones, UDP without checksum, fragments and other protocols
 * are left alone; lengths that do not fit the frame are refused. The reference sum here is the
 * textbook one, byte by byte in network order, so that it shares nothing with csum.c.
 * Multi-buffer frames (multi-buffer frames, docs/jumbo.md): a frame cut into buffers anywhere after
 * its headers, at odd offsets too, is finished to the same bytes as in one buffer, up to 9014-byte
 * frames cut as the kernel cuts them; through the packet view and the burst (the worker's
 * table of buffers) too; a frame whose headers are cut is left alone.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "core/csum.h"
#include "core/internal.h"
#include "core/worker.h"
#include "xskf_hints.h"
#include "xskf_hints_parse.h"

#include "../csum_ref.h"

struct frame {
	uint8_t b[9100]; /* up to a 9000-MTU frame */
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
		i = csum_ref_fold((uint32_t)csum_ref_sum(h, 20, 0)) ^ 0xffff;
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

	return f->v6 ? (uint32_t)csum_ref_sum(h + 8, 32, f->seg + f->proto) : (uint32_t)csum_ref_sum(h + 12, 8, f->seg + f->proto);
}

/* The checksum a complete sender writes. */
static void complete(struct frame *f)
{
	uint16_t c;

	f->b[f->check] = f->b[f->check + 1] = 0;
	c = (uint16_t)~csum_ref_fold((uint32_t)csum_ref_sum(f->b + f->l4, f->seg, pseudo(f)));
	if (!c && f->proto == 17)
		c = 0xffff;
	f->b[f->check] = (uint8_t)(c >> 8);
	f->b[f->check + 1] = (uint8_t)c;
}

/* What a sender with TX checksum offload leaves: the folded pseudo-header sum. */
static void unfinished(struct frame *f)
{
	uint16_t c = csum_ref_fold(pseudo(f));

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

static int finish_cut(const uint8_t *frame, uint32_t len, const uint32_t *cuts, unsigned int ncut,
		      uint8_t *out);

/*
 * Mutated frames, each in a heap buffer of exactly its length (ASan sees a read past it): the
 * result is always -EBADMSG, 0 or 1, and a frame just finished is complete the next time. Cut
 * into 2 to 5 buffers at random: the same result and bytes as in one buffer when the headers
 * (as the frame parses) lie in the first, else 0 and unchanged.
 */
static void random_case(void)
{
	unsigned int seed = 17, i, bad = 0, fin = 0, badc = 0, cutfin = 0;
	static uint8_t orig[sizeof(((struct frame *)0)->b)], out[sizeof(orig)];

	for (i = 0; i < 200000; i++) {
		static struct frame f;
		struct xskf_parse p;
		uint32_t len, k, cuts[4], nc, l4t, hend = UINT32_MAX;
		uint8_t *b;
		int r, r2, rc;

		build(&f, (int)(rand_r(&seed) % 3), rand_r(&seed) & 1, !(rand_r(&seed) % 4),
		      rand_r(&seed) & 1 ? 6 : 17, rand_r(&seed) % 300, rand_r(&seed) % 3);
		unfinished(&f);
		for (k = rand_r(&seed) % 4; k; k--) /* a few random bytes anywhere */
			f.b[rand_r(&seed) % f.len] = (uint8_t)rand_r(&seed);
		len = rand_r(&seed) % 4 ? f.len : rand_r(&seed) % (f.len + 1);
		b = malloc(len ? len : 1);
		memcpy(b, f.b, len);
		memcpy(orig, f.b, len);
		r = xskf_csum__finish(b, len);
		/* the same bytes in buffers, cut at random (ascending, maybe empty ones) */
		nc = 1 + rand_r(&seed) % 4;
		for (k = 0; k < nc; k++)
			cuts[k] = len ? rand_r(&seed) % (len + 1) : 0;
		for (k = 1; k < nc; k++) /* sorted: a few swaps do for 4 */
			for (uint32_t j = k; j > 0 && cuts[j - 1] > cuts[j]; j--) {
				uint32_t t = cuts[j];

				cuts[j] = cuts[j - 1];
				cuts[j - 1] = t;
			}
		if (rand_r(&seed) % 2 && len > 80) /* often: after the headers, as the kernel cuts */
			for (k = 0; k < nc; k++)
				cuts[k] = cuts[k] < 80 ? 80 : cuts[k];
		rc = finish_cut(orig, len, cuts, nc, out);
		xskf_parse_outer(orig, orig + len, &p);
		l4t = p.ptype & XSKF_PTYPE_L4_MASK;
		if ((l4t == XSKF_PTYPE_L4_TCP || l4t == XSKF_PTYPE_L4_UDP) && p.l4_off)
			hend = p.l4_off + (l4t == XSKF_PTYPE_L4_TCP ? 20u : 8u);
		if (cuts[0] >= hend)
			badc += rc != r || memcmp(out, b, len);
		else
			badc += rc != 0 || memcmp(out, orig, len);
		cutfin += rc == 1;
		r2 = xskf_csum__finish(b, len);
		if (r < -EBADMSG || (r < 0 && r != -EBADMSG) || r > 1 || (r == 1 && r2 != 0))
			bad++;
		fin += r == 1;
		free(b);
	}
	CHECK(!bad, "200000 mutated frames: results in {-EBADMSG, 0, 1}, finished ones complete "
		    "after (%u finished, %u wrong)", fin, bad);
	CHECK(!badc, "the same frames cut into 2 to 5 buffers: as in one buffer when the headers "
		     "are in the first, else 0 (%u finished, %u wrong)", cutfin, badc);
}

/*
 * xskf_csum__finish_bufs() on @len bytes of @frame cut at @cuts (@ncut ascending offsets),
 * each buffer in a heap block of its own length (ASan sees a read past one); the buffers are
 * copied back to @out. Returns its result.
 */
static int finish_cut(const uint8_t *frame, uint32_t len, const uint32_t *cuts, unsigned int ncut,
		      uint8_t *out)
{
	struct xskf_csum_buf b[64] = {};
	uint32_t from = 0, to;
	unsigned int i, nb = ncut + 1;
	int r;

	for (i = 0; i < nb; i++) {
		to = i < ncut ? cuts[i] : len;
		b[i].len = to - from;
		b[i].p = malloc(b[i].len ? b[i].len : 1);
		memcpy(b[i].p, frame + from, b[i].len);
		from = to;
	}
	r = xskf_csum__finish_bufs(b, nb);
	for (from = 0, i = 0; i < nb; i++) {
		memcpy(out + from, b[i].p, b[i].len);
		from += b[i].len;
		free(b[i].p);
	}
	return r;
}

/* Where a frame's headers end: the TCP/UDP header's end, as the flat frame parses. */
static uint32_t hdr_end(const struct frame *f)
{
	return f->l4 + (f->proto == 6 ? 20 : 8);
}

/*
 * A frame cut into 2, 3 and many buffers at every offset after its headers: finished as in one
 * buffer; a complete one left alone; cut inside its headers: 0, unchanged.
 */
static void frags_case(const char *what, int tags, bool v6, bool ext, uint8_t proto, uint32_t pay)
{
	static struct frame good, f;
	static uint8_t out[sizeof(f.b)];
	uint32_t c, cuts[63], k, wrong2 = 0, wrong3 = 0, wrongc = 0, n = 0;
	int r;

	build(&good, tags, v6, ext, proto, pay, 0);
	complete(&good);
	f = good;
	unfinished(&f);
	for (c = hdr_end(&f); c <= f.len; c++, n++) {
		cuts[0] = c;
		r = finish_cut(f.b, f.len, cuts, 1, out);
		wrong2 += r != 1 || memcmp(out, good.b, f.len);
		/* three buffers, the second 1 to 7 bytes long: odd and even edges */
		cuts[1] = c + 1 + c % 7 < f.len ? c + 1 + c % 7 : f.len;
		r = finish_cut(f.b, f.len, cuts, 2, out);
		wrong3 += r != 1 || memcmp(out, good.b, f.len);
		r = finish_cut(good.b, good.len, cuts, 2, out);
		wrongc += r != 0 || memcmp(out, good.b, f.len);
	}
	CHECK(!wrong2 && !wrong3, "%s: cut into 2 and 3 buffers at %u offsets: finished as in one "
				  "(%u, %u wrong)", what, n, wrong2, wrong3);
	CHECK(!wrongc, "%s: complete, cut: left alone (%u wrong)", what, wrongc);
	/* a buffer per byte after the headers, then the rest */
	for (k = 0; k < 63 && hdr_end(&f) + k < f.len; k++)
		cuts[k] = hdr_end(&f) + k;
	r = finish_cut(f.b, f.len, cuts, k, out);
	CHECK(r == 1 && !memcmp(out, good.b, f.len), "%s: %u buffers of one byte: finished", what,
	      k);
	/* the headers cut: nothing read past the first buffer, nothing done */
	for (c = 1, n = 0; c < hdr_end(&f); c++) {
		cuts[0] = c;
		r = finish_cut(f.b, f.len, cuts, 1, out);
		n += r != 0 || memcmp(out, f.b, f.len);
	}
	CHECK(!n, "%s: headers cut between buffers: 0, unchanged (%u wrong)", what, n);
	/* the IP length past the frame's end: refused, unchanged */
	cuts[0] = hdr_end(&f);
	r = finish_cut(f.b, f.len - 1, cuts, 1, out);
	CHECK(r == -EBADMSG && !memcmp(out, f.b, f.len - 1),
	      "%s: a multi-buffer frame one byte short: -EBADMSG", what);
}

/* A 9000-MTU frame cut as the kernel cuts it into UMEM buffers, and at odd offsets. */
static void jumbo_case(void)
{
	static const struct {
		const char *what;
		bool v6;
		uint8_t proto;
		uint32_t pay, cuts[6], ncut;
	} c[] = {
		{ "IPv4 TCP, 9014 bytes in 5 x 1792 + 54", false, 6, 8960,
		  { 1792, 3584, 5376, 7168, 8960 }, 5 },
		{ "IPv4 TCP, 9014 bytes in 3840 + 3840 + 1334", false, 6, 8960, { 3840, 7680 }, 2 },
		{ "IPv6 UDP, 9013 bytes at odd edges", true, 17, 8951, { 1761, 3520, 5281, 7043 }, 4 },
		{ "IPv6 TCP, 8999 bytes in 1760-byte buffers", true, 6, 8925,
		  { 1760, 3520, 5280, 7040, 8800 }, 5 },
	};
	static struct frame good, f;
	static uint8_t out[sizeof(f.b)];
	unsigned int i;
	int r;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		build(&good, 0, c[i].v6, false, c[i].proto, c[i].pay, 0);
		complete(&good);
		f = good;
		unfinished(&f);
		r = finish_cut(f.b, f.len, c[i].cuts, c[i].ncut, out);
		CHECK(r == 1 && !memcmp(out, good.b, f.len), "%s: finished to a complete sender's bytes",
		      c[i].what);
	}
}

/*
 * Multi-buffer frames as the worker has them: the first buffer is the packet, the others in the
 * worker's table of the burst (xskf_pkt__seg()). xskf_pkt__csum_finish() finishes a multi-buffer
 * frame, and the burst counts and repairs multi-buffer frames beside frames of one buffer.
 */
static void pkt_frags_case(void)
{
	static struct xskf_worker w;
	static uint8_t area[4 * 4096];
	static struct xskf_sock s;
	static struct frame good, f, one;
	struct xskf_pkt pkts[2] = {};
	const uint32_t cut[3] = { 1501, 3000, 4431 }; /* odd, even, odd edges */
	uint32_t i, from = 0;

	build(&good, 1, false, false, 6, 5000, 0);
	complete(&good);
	f = good;
	unfinished(&f);
	w.umem.area = area;
	xskf_frags__register(&w);
	/* buffer i at area + 4096 * i, as the first buffer's frame and three more */
	for (i = 0; i < 4; i++) {
		uint32_t to = i < 3 ? cut[i] : f.len;

		memcpy(area + 4096 * i, f.b + from, to - from);
		if (i) {
			w.segs[10 + i - 1].addr = 4096 * i;
			w.segs[10 + i - 1].len = to - from;
			w.segs[10 + i - 1].options = i < 3 ? XDP_PKT_CONTD : 0;
		}
		from = to;
	}
	pkts[0] = (struct xskf_pkt){ .data = area, .len = cut[0], .frags = 3 };
	pkt_priv(&pkts[0])->frag_idx = 10;
	CHECK(xskf_pkt__total_len(&pkts[0]) == f.len,
	      "its buffers hold the frame (%u bytes)", xskf_pkt__total_len(&pkts[0]));
	build(&one, 0, true, false, 17, 100, 0);
	unfinished(&one);
	pkts[1] = (struct xskf_pkt){ .data = one.b, .len = one.len };
	xskf_csum__burst(&s, pkts, 2, false, true);
	CHECK(
	    s.c.csum_checked == 2 && s.c.csum_unfinished == 2 && s.c.csum_repaired == 0,
	    "a burst with a multi-buffer frame, counting only: checked 2, unfinished 2 (%llu %llu)",
	    (unsigned long long)s.c.csum_checked, (unsigned long long)s.c.csum_unfinished);
	xskf_csum__burst(&s, pkts, 2, true, true);
	CHECK(s.c.csum_repaired == 2,
	      "a burst with a multi-buffer frame, repairing: repaired 2 (%llu)",
	      (unsigned long long)s.c.csum_repaired);
	for (from = 0, i = 0; i < 4; i++) {
		uint32_t to = i < 3 ? cut[i] : f.len;

		CHECK(!memcmp(area + 4096 * i, good.b + from, to - from),
		      "buffer %u of the repaired multi-buffer frame: a complete sender's bytes", i);
		from = to;
	}
	CHECK(xskf_csum__test(&pkts[1], false) == XSKF_CSUM_COMPLETE, "its frame of one buffer too");
	/* the public call, on the multi-buffer frame made unfinished again */
	memcpy(area, f.b, cut[0]);
	CHECK(xskf_pkt__csum_finish(&pkts[0]) == 1 && !memcmp(area, good.b, cut[0]),
	      "xskf_pkt__csum_finish() finishes a multi-buffer frame");
	CHECK(xskf_pkt__csum_finish(&pkts[0]) == 0, "and leaves it alone the second time");
	xskf_frags__unregister(&w);
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
	for (pay = 0; pay < 3; pay++) { /* odd and even lengths */
		frags_case("multi-buffer frame: IPv4 TCP", 0, false, false, 6, 300 + pay);
		frags_case("multi-buffer frame: IPv6 UDP + hop-by-hop", 0, true, true, 17,
			   301 + pay);
		frags_case("multi-buffer frame: QinQ IPv4 UDP", 2, false, false, 17, 1 + pay);
	}
	jumbo_case();
	pkt_frags_case();
	return tap_done();
}
