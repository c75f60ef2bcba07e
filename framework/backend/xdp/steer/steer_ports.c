// SPDX-License-Identifier: BSD-2-Clause
/*
 * The port dimensions of the rule table (steer_ports.h), apart from steer.c so that a fuzz
 * target builds them from hostile rules without a kernel.
 */
#include <stdlib.h>

#include "backend/xdp/steer/steer_ports.h"

#define HAS(r, d) ((r)->set & (1u << (d)))

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void xskf_steer_ports__build(const struct xskf_steer_rule **r, unsigned int n, unsigned int dim,
			     uint32_t g, struct xskf_steer_bm *cls, uint32_t *pcls)
{
	unsigned int sel = dim == XSKF_DIM_DPORT, i, j, np = 0, c;
	uint32_t *pts = calloc(2 * n + 1, sizeof(*pts));
	uint32_t *map = pcls + (size_t)(g * 2 + sel) * XSKF_STEER_PORT_KEYS;

	if (!pts)
		return;
	pts[np++] = 0;
	for (i = 0; i < n; i++) {
		uint32_t lo = sel ? r[i]->dport_lo : r[i]->sport_lo;
		uint32_t hi = sel ? r[i]->dport_hi : r[i]->sport_hi;

		if (!HAS(r[i], dim))
			continue;
		pts[np++] = lo;
		if (hi < 65535)
			pts[np++] = hi + 1;
	}
	qsort(pts, np, sizeof(*pts), cmp_u32);
	for (i = 1, j = 1; i < np; i++)
		if (pts[i] != pts[j - 1])
			pts[j++] = pts[i];
	np = j;
	for (c = 0; c < np; c++) {
		uint32_t lo = pts[c], end = c + 1 < np ? pts[c + 1] : 65536, p;

		for (i = 0; i < n; i++)
			if (!HAS(r[i], dim) || (sel ? r[i]->dport_lo <= lo && lo <= r[i]->dport_hi
						    : r[i]->sport_lo <= lo && lo <= r[i]->sport_hi))
				xskf_steer__bm_set(&cls[c], i);
		for (p = lo; p < end; p++)
			map[p] = XSKF_STEER_PCLS(c, cls[c].sum);
	}
	/* frames without ports: only the rules that ask for none */
	for (i = 0; i < n; i++)
		if (!HAS(r[i], dim))
			xskf_steer__bm_set(&cls[np], i);
	map[XSKF_STEER_PORT_NONE] = XSKF_STEER_PCLS(np, cls[np].sum);
	free(pts);
}
