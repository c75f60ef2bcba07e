// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: finishing unfinished TCP/UDP checksums (framework/core/csum.c), on a frame in
 * one buffer and on the same bytes cut into buffers, as a multi-buffer frame (a multi-buffer frame,
 * docs/jumbo.md) comes.
 *
 * Input: a flags byte (low 3 bits: cuts, 0..7; UNFIN: the TCP/UDP checksum field is first set
 * to the folded pseudo-header sum, as a sender with TX checksum offload leaves it, so that the
 * repair runs on most inputs; AFTER: the cuts are moved past the headers, as the kernel cuts),
 * then two bytes per cut (an offset, taken modulo the frame's length + 1), then the frame.
 *  - one buffer: the result is -EBADMSG, 0 or 1; after 1 the checksum verifies (the
 *    target's own sum over the pseudo-header and the segment the IP length gives), and a
 *    second call gives 0 and changes nothing;
 *  - the same bytes cut at the offsets (ascending, empty buffers allowed, any parity), each
 *    buffer in a heap block of its own length: when the headers (up to the TCP/UDP header's
 *    end, as the frame parses) lie in the first buffer, the same result and the same bytes as
 *    in one buffer; else 0 and nothing changed.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "core/csum.h"
#include "xskf_hints.h"
#include "xskf_hints_parse.h"

#include "fuzz.h"

#define NCUTS 0x07 /* flags: how many cuts */
#define UNFIN 0x08 /* flags: the field set to the pseudo-header sum first */
#define AFTER 0x10 /* flags: no cut inside the headers */

/* Where the parse of the frame puts its TCP/UDP segment, as the reference sees it. */
struct seg {
	bool ok;
	uint32_t l4, len, check, pseudo; /* pseudo: the pseudo-header sum, folded, big-endian */
	uint32_t hend;                   /* end of the TCP/UDP header (UINT32_MAX: none) */
};

static void find_seg(const uint8_t *f, uint32_t len, struct seg *g)
{
	struct xskf_parse p;
	uint32_t l4t, l3t, l3, l4, end;

	memset(g, 0, sizeof(*g));
	g->hend = UINT32_MAX;
	xskf_parse_outer(f, f + len, &p);
	l4t = p.ptype & XSKF_PTYPE_L4_MASK;
	l3t = p.ptype & XSKF_PTYPE_L3_MASK;
	l3 = p.l3_off;
	l4 = p.l4_off;
	if ((l4t != XSKF_PTYPE_L4_TCP && l4t != XSKF_PTYPE_L4_UDP) || !l4)
		return;
	g->hend = l4 + (l4t == XSKF_PTYPE_L4_TCP ? 20 : 8);
	if (p.ptype & XSKF_PTYPE_FRAG)
		return;
	if (l3t == XSKF_PTYPE_L3_IPV4 || l3t == XSKF_PTYPE_L3_IPV4_OPT) {
		end = l3 + fuzz_get16(f + l3 + 2);
		g->pseudo = fuzz_csum(0, f + l3 + 12, 8);
	} else if (l3t == XSKF_PTYPE_L3_IPV6 || l3t == XSKF_PTYPE_L3_IPV6_EXT) {
		end = l3 + 40 + fuzz_get16(f + l3 + 4);
		g->pseudo = fuzz_csum(0, f + l3 + 8, 32);
	} else {
		return;
	}
	if (end > len || end < g->hend)
		return;
	g->l4 = l4;
	g->len = end - l4;
	g->check = l4 + (l4t == XSKF_PTYPE_L4_TCP ? 16 : 6);
	g->pseudo = fuzz_csum(g->pseudo + g->len + (l4t == XSKF_PTYPE_L4_TCP ? 6 : 17), NULL, 0);
	g->ok = true;
}

/* The bytes cut at @cuts (@nc ascending offsets), finished as buffers, copied back to @out. */
static int finish_cut(const uint8_t *f, uint32_t len, const uint32_t *cuts, unsigned int nc,
		      uint8_t *out)
{
	struct xskf_csum_buf b[8] = {};
	uint32_t from = 0, to;
	unsigned int i;
	int r;

	for (i = 0; i <= nc; i++) {
		to = i < nc ? cuts[i] : len;
		b[i].len = to - from;
		b[i].p = malloc(b[i].len ? b[i].len : 1);
		FUZZ_ASSERT(b[i].p, "out of memory");
		memcpy(b[i].p, f + from, b[i].len);
		from = to;
	}
	r = xskf_csum__finish_bufs(b, nc + 1);
	for (from = 0, i = 0; i <= nc; i++) {
		memcpy(out + from, b[i].p, b[i].len);
		from += b[i].len;
		free(b[i].p);
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t cuts[NCUTS], nc, len, i, j, t;
	uint8_t *orig, *flat, *out;
	struct seg g;
	int r, r2, rc;

	if (size < 1)
		return 0;
	nc = data[0] & NCUTS;
	if (size < 1 + 2 * nc || size - 1 - 2 * nc > 65535)
		return 0;
	len = (uint32_t)(size - 1 - 2 * nc);
	orig = malloc(len ? len : 1);
	flat = malloc(len ? len : 1);
	out = malloc(len ? len : 1);
	FUZZ_ASSERT(orig && flat && out, "out of memory");
	memcpy(orig, data + 1 + 2 * nc, len);
	find_seg(orig, len, &g);
	if ((data[0] & UNFIN) && g.ok) {
		orig[g.check] = (uint8_t)(g.pseudo >> 8);
		orig[g.check + 1] = (uint8_t)g.pseudo;
	}
	for (i = 0; i < nc; i++) {
		cuts[i] = fuzz_get16(data + 1 + 2 * i) % (len + 1);
		if ((data[0] & AFTER) && g.hend <= len && cuts[i] < g.hend)
			cuts[i] = g.hend;
	}
	for (i = 1; i < nc; i++) /* ascending */
		for (j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
			t = cuts[j];
			cuts[j] = cuts[j - 1];
			cuts[j - 1] = t;
		}

	/* one buffer */
	memcpy(flat, orig, len);
	r = xskf_csum__finish(flat, len);
	FUZZ_ASSERT(r == -EBADMSG || r == 0 || r == 1, "result %d", r);
	if (r == 1) {
		FUZZ_ASSERT(g.ok, "finished a frame without a TCP/UDP segment");
		FUZZ_ASSERT(fuzz_csum(g.pseudo, flat + g.l4, g.len) == 0xffff,
			    "the finished checksum does not verify");
		memcpy(out, flat, len);
		FUZZ_ASSERT(xskf_csum__finish(out, len) == 0 && !memcmp(out, flat, len),
			    "a finished frame is finished again");
	} else {
		FUZZ_ASSERT(!memcmp(flat, orig, len), "result %d, but the frame changed", r);
	}

	/* the same bytes in buffers */
	rc = finish_cut(orig, len, cuts, nc, out);
	if (!nc || cuts[0] >= g.hend) {
		FUZZ_ASSERT(rc == r, "%u cuts from %u: result %d, in one buffer %d", nc,
			    nc ? cuts[0] : len, rc, r);
		FUZZ_ASSERT(!memcmp(out, flat, len), "%u cuts from %u: other bytes than in one buffer",
			    nc, nc ? cuts[0] : len);
	} else {
		FUZZ_ASSERT(rc == 0 && !memcmp(out, orig, len),
			    "headers cut at %u (they end at %u): result %d, or bytes changed",
			    cuts[0], g.hend, rc);
	}
	r2 = rc == 1 ? finish_cut(out, len, cuts, nc, out) : 0;
	FUZZ_ASSERT(r2 == 0, "a multi-buffer frame finished is finished again (%d)", r2);
	free(orig);
	free(flat);
	free(out);
	return 0;
}
