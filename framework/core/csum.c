// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unfinished TCP/UDP checksums (CHECKSUM_PARTIAL): find them, count them, finish them.
 *
 * A Linux sender with TX checksum offload writes into the TCP or UDP checksum field only the
 * folded sum of the pseudo-header, not complemented (tcp_v4_send_check(), udp4_hwcsum(),
 * __tcp_v6_send_check(), udp6_hwcsum_outgoing(): check = ~csum_*_magic(..., 0)), and leaves the
 * rest to the NIC: the sum over the L4 segment from the checksum's start. veth has no NIC to
 * finish it; XDP and AF_XDP see the frame as it is. So:
 *  - the cheap test: the field equals the folded pseudo-header sum (a few adds);
 *  - the full one, only then: does the checksum verify as it is (1 in 65536 complete
 *    checksums happens to equal the pseudo-header sum: leave those alone);
 *  - finishing: the field already holds the pseudo-header sum, so the checksum is the
 *    complement of the sum over the segment as it is, the field included (UDP: 0 -> 0xffff).
 * Sums are taken over native 16-bit loads: the ones' complement sum commutes with a byte swap,
 * so native loads and native stores give the bytes network order wants.
 *
 * A frame in several buffers (a multi-buffer frame, docs/jumbo.md: every frame longer than a UMEM
 * frame) has its headers in the first buffer and its checksum over all of them: each buffer's sum
 * is taken apart and byte-swapped into place when it starts at an odd offset of the segment.
 * Multi-buffer frames take their own path (the burst says it holds some), so that frames of one
 * buffer are tested as before, at the same cost.
 *
 * The headers come from the XDP program's parse (the meta), or from the same parser here
 * (bpf/xskf_hints_parse.h) for frames without one: no second parser.
 */
#include <errno.h>
#include <string.h>

#include "core/csum.h"
#include "core/engine.h"
#include "xskf_csum.h"
#include "xskf_hints.h"
#include "xskf_hints_parse.h"

/* Where the checksum of one TCP/UDP segment is, and what its pseudo-header sums to. */
struct l4seg {
	uint8_t *l4;     /* the TCP/UDP header */
	uint32_t len;    /* bytes of the segment, from the IP header */
	uint32_t check;  /* offset of the checksum field in the segment */
	uint64_t pseudo; /* the pseudo-header's sum, native 16-bit words, not folded */
	bool udp, udp4;  /* UDP; over IPv4, where a 0 checksum means "none" */
};

static inline uint16_t ld16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/*
 * The sum of @len bytes of a frame in @nb buffers @b from offset @off of the first, across
 * buffer edges (the frame holds them: the caller checked). A buffer that starts at an odd
 * offset of the bytes summed pairs its bytes the other way: its folded sum is byte-swapped.
 */
static uint64_t sum_bufs(const struct xskf_csum_buf *b, unsigned int nb, uint32_t off, uint32_t len)
{
	uint64_t s = 0;
	bool odd = false;
	unsigned int i;

	for (i = 0; i < nb && len; i++, off = 0) {
		uint32_t k;
		uint16_t x;

		if (off >= b[i].len) {
			off -= b[i].len;
			continue;
		}
		k = b[i].len - off < len ? b[i].len - off : len;
		x = xskf_csum__fold(xskf_csum__add(0, b[i].p + off, k));
		if (odd)
			x = (uint16_t)(x << 8 | x >> 8);
		s += x;
		odd ^= k & 1;
		len -= k;
	}
	return s;
}

/*
 * Find the TCP/UDP segment of a frame of @flen bytes whose parse gave @ptype, @l3 and @l4.
 * Returns 1 (found), 0 (not TCP/UDP over IP, a fragment, UDP/IPv4 without checksum) or
 * -EBADMSG (the IP length does not fit the frame or the L4 header). It reads the IP header at
 * @l3 and the L4 header at @l4 only: for a multi-buffer frame, @flen is all its bytes and @f its
 * first buffer, which test_bufs() has checked holds both.
 */
static int locate(uint8_t *f, uint32_t flen, uint32_t ptype, uint32_t l3, uint32_t l4,
		  struct l4seg *g)
{
	uint32_t l4t = ptype & XSKF_PTYPE_L4_MASK, l3t = ptype & XSKF_PTYPE_L3_MASK, end, hdr;
	uint16_t len_be;

	if ((l4t != XSKF_PTYPE_L4_TCP && l4t != XSKF_PTYPE_L4_UDP) || (ptype & XSKF_PTYPE_FRAG) ||
	    !l3 || l4 <= l3)
		return 0;
	if (l3t == XSKF_PTYPE_L3_IPV4 || l3t == XSKF_PTYPE_L3_IPV4_OPT) {
		if (l3 + 20 > flen)
			return -EBADMSG;
		end = l3 + ((uint32_t)f[l3 + 2] << 8 | f[l3 + 3]); /* total length */
		/* addresses: 8 bytes at offset 12 */
		g->pseudo = (uint64_t)ld16(f + l3 + 12) + ld16(f + l3 + 14) + ld16(f + l3 + 16) +
			    ld16(f + l3 + 18);
	} else if (l3t == XSKF_PTYPE_L3_IPV6 || l3t == XSKF_PTYPE_L3_IPV6_EXT) {
		/*
		 * addresses: 32 bytes at offset 8. With a routing header the pseudo-header
		 * carries the final destination, not this one: such frames do not match the
		 * cheap test and are left alone.
		 */
		if (l3 + 40 > flen)
			return -EBADMSG;
		end = l3 + 40 + ((uint32_t)f[l3 + 4] << 8 | f[l3 + 5]); /* payload length */
		g->pseudo = xskf_csum__add(0, f + l3 + 8, 32);
	} else {
		return 0;
	}
	hdr = l4t == XSKF_PTYPE_L4_TCP ? 20 : 8;
	if (end > flen || end < l4 + hdr)
		return -EBADMSG;
	g->l4 = f + l4;
	g->len = end - l4;
	g->check = l4t == XSKF_PTYPE_L4_TCP ? 16 : 6;
	g->udp = l4t == XSKF_PTYPE_L4_UDP;
	g->udp4 = g->udp && l3t != XSKF_PTYPE_L3_IPV6 && l3t != XSKF_PTYPE_L3_IPV6_EXT;
	if (g->udp4 && !ld16(g->l4 + 6))
		return 0;
	len_be = (uint16_t)(g->len >> 8 | g->len << 8);
	/* the protocol number, as the high byte's zero and the low byte of a network word */
	g->pseudo += len_be + (l4t == XSKF_PTYPE_L4_TCP ? (6 << 8) : (17 << 8));
	return 1;
}

/* The cheap test: does the field of @g hold the pseudo-header sum (then maybe unfinished)? */
static inline __attribute__((always_inline)) bool maybe_unfinished(const struct l4seg *g)
{
	return ld16(g->l4 + g->check) == xskf_csum__fold(g->pseudo);
}

/*
 * The full test, for a field that holds the pseudo-header sum, the segment summing to @s:
 * XSKF_CSUM_COMPLETE, or XSKF_CSUM_UNFINISHED (finished in place when @finish).
 */
static inline __attribute__((always_inline)) int verdict(const struct l4seg *g, uint64_t s,
							 bool finish)
{
	uint16_t c;

	if (xskf_csum__fold(s + g->pseudo) == 0xffff)
		return XSKF_CSUM_COMPLETE; /* a complete checksum equal to the pseudo sum */
	if (finish) {
		c = (uint16_t)~xskf_csum__fold(s);
		/* UDP: 0 says "no checksum" (IPv4) or is not allowed (IPv6): send -0 */
		if (!c && g->udp)
			c = 0xffff;
		memcpy(g->l4 + g->check, &c, 2);
	}
	return XSKF_CSUM_UNFINISHED;
}

/*
 * What the checksum of @g is: XSKF_CSUM_COMPLETE, or XSKF_CSUM_UNFINISHED (finished in place
 * when @finish). Out of line whole, as before multi-buffer frames had a path of their own: left to
 * itself the compiler splits it and inlines the cheap test, 6 instructions more per repaired
 * 60-byte frame (callgrind).
 */
static __attribute__((noinline)) int test_seg(const struct l4seg *g, bool finish)
{
	if (likely(!maybe_unfinished(g)))
		return XSKF_CSUM_COMPLETE;
	return verdict(g, xskf_csum__add(0, g->l4, g->len), finish);
}

/*
 * test_seg() for a frame in @nb buffers @b whose first buffer's parse is @p: -EBADMSG,
 * XSKF_CSUM_NONE (nothing to test, or headers that do not lie in the first buffer),
 * XSKF_CSUM_COMPLETE or XSKF_CSUM_UNFINISHED.
 */
static int test_bufs(const struct xskf_csum_buf *b, unsigned int nb, const struct xskf_parse *p,
		     bool finish)
{
	uint32_t l4t = p->ptype & XSKF_PTYPE_L4_MASK, l3t = p->ptype & XSKF_PTYPE_L3_MASK;
	uint32_t hdr = l4t == XSKF_PTYPE_L4_TCP ? 20 : 8;
	uint32_t l3len = l3t == XSKF_PTYPE_L3_IPV6 || l3t == XSKF_PTYPE_L3_IPV6_EXT ? 40 : 20;
	uint64_t total = 0;
	struct l4seg g;
	unsigned int i;
	int err;

	/*
	 * The headers are read where they are, in the first buffer: the IP header's fixed part
	 * before the L4 header (as every parse gives them), the L4 header inside the buffer.
	 */
	if (!nb || !p->l3_off || p->l4_off < p->l3_off + l3len || p->l4_off + hdr > b[0].len)
		return XSKF_CSUM_NONE;
	for (i = 0; i < nb; i++)
		total += b[i].len;
	err = locate(b[0].p, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total, p->ptype,
		     p->l3_off, p->l4_off, &g);
	if (err <= 0)
		return err ? err : XSKF_CSUM_NONE;
	if (likely(!maybe_unfinished(&g)))
		return XSKF_CSUM_COMPLETE;
	return verdict(&g, sum_bufs(b, nb, p->l4_off, g.len), finish);
}

/* The parse of @pkt's frame: the meta's when it describes the frame as it is now. */
static void pkt_parse(const struct xskf_pkt *pkt, struct xskf_parse *p)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	if (m && !(m->src & XSKF_META_NOPARSE) && (const uint8_t *)(m + 1) == pkt->data) {
		p->ptype = m->ptype;
		p->l3_off = m->l3_off;
		p->l4_off = m->l4_off;
		return;
	}
	xskf_parse_outer(pkt->data, pkt->data + pkt->len, p);
}

int xskf_csum__test(struct xskf_pkt *pkt, bool finish)
{
	struct xskf_parse p;
	struct l4seg g;
	int err;

	pkt_parse(pkt, &p);
	err = locate(pkt->data, pkt->len, p.ptype, p.l3_off, p.l4_off, &g);
	if (err <= 0)
		return XSKF_CSUM_NONE;
	return test_seg(&g, finish);
}

/*
 * The buffers of @pkt's frame, a multi-buffer frame (xskf_pkt__seg(): the worker's table of the
 * burst), into @b. Returns how many, or 0 when one is missing.
 */
static unsigned int pkt_bufs(const struct xskf_pkt *pkt, struct xskf_csum_buf *b)
{
	unsigned int i, nb = 1u + pkt->frags;

	if (nb > XSKF_MAX_SEGS)
		return 0;
	for (i = 0; i < nb; i++) {
		b[i].p = xskf_pkt__seg(pkt, i, &b[i].len);
		if (!b[i].p)
			return 0;
	}
	return nb;
}

/* xskf_csum__test() for a multi-buffer frame. */
static __attribute__((noinline)) int test_frags(const struct xskf_pkt *pkt, bool finish)
{
	struct xskf_csum_buf b[XSKF_MAX_SEGS];
	struct xskf_parse p;
	unsigned int nb = pkt_bufs(pkt, b);
	int r;

	if (!nb)
		return XSKF_CSUM_NONE;
	pkt_parse(pkt, &p);
	r = test_bufs(b, nb, &p, finish);
	return r < 0 ? XSKF_CSUM_NONE : r;
}

/* The burst's loop, made twice: for frames of one buffer, and for bursts that hold multi-buffer
 * frames. */
static inline __attribute__((always_inline)) void burst(struct xskf_sock *s,
							  struct xskf_pkt *pkts, unsigned int n,
							  bool finish, bool has_frags)
{
	uint64_t checked = 0, unfinished = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		int r = has_frags && pkts[i].frags ? test_frags(&pkts[i], finish)
						 : xskf_csum__test(&pkts[i], finish);

		checked += r != XSKF_CSUM_NONE;
		unfinished += r == XSKF_CSUM_UNFINISHED;
	}
	s->c.csum_checked += checked;
	s->c.csum_unfinished += unfinished;
	if (finish)
		s->c.csum_repaired += unfinished;
}

void xskf_csum__burst(struct xskf_sock *s, struct xskf_pkt *pkts, unsigned int n, bool finish,
		      bool has_frags)
{
	if (unlikely(has_frags))
		burst(s, pkts, n, finish, true);
	else
		burst(s, pkts, n, finish, false);
}

static int finish_parsed(uint8_t *f, uint32_t len, const struct xskf_parse *p)
{
	struct l4seg g;
	int err = locate(f, len, p->ptype, p->l3_off, p->l4_off, &g);

	if (err <= 0)
		return err;
	return test_seg(&g, true) == XSKF_CSUM_UNFINISHED;
}

/* A result of test_bufs() as xskf_csum__finish() gives it: 1, 0 or -EBADMSG. */
static int finish_result(int r)
{
	return r < 0 ? r : r == XSKF_CSUM_UNFINISHED;
}

int xskf_csum__finish_bufs(const struct xskf_csum_buf *b, unsigned int nb)
{
	struct xskf_parse p;

	if (!nb)
		return 0;
	xskf_parse_outer(b[0].p, b[0].p + b[0].len, &p);
	return finish_result(test_bufs(b, nb, &p, true));
}

int xskf_csum__finish(void *frame, uint32_t len)
{
	struct xskf_parse p;

	xskf_parse_outer(frame, (uint8_t *)frame + len, &p);
	return finish_parsed(frame, len, &p);
}

/* xskf_pkt__csum_finish() for a multi-buffer frame: its checksum covers every buffer. */
static __attribute__((noinline)) int pkt_finish_frags(const struct xskf_pkt *pkt)
{
	struct xskf_csum_buf b[XSKF_MAX_SEGS];
	struct xskf_parse p;
	unsigned int nb = pkt_bufs(pkt, b);

	if (!nb)
		return 0;
	pkt_parse(pkt, &p);
	return finish_result(test_bufs(b, nb, &p, true));
}

int xskf_pkt__csum_finish(struct xskf_pkt *pkt)
{
	struct xskf_parse p;

	/* apart: its buffers' table would cost frames of one buffer a stack canary */
	if (unlikely(pkt->frags))
		return pkt_finish_frags(pkt);
	pkt_parse(pkt, &p);
	return finish_parsed(pkt->data, pkt->len, &p);
}
