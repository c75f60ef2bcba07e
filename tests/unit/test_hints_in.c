// SPDX-License-Identifier: BSD-2-Clause
/*
 * Where the RX hints go (framework/core/hints_in.h), no root: the choice for every answer of
 * the probes and the dispatcher, each way asked for by --hints-in, and the userspace way's meta
 * (xskf_hints_user__burst()) against the XDP program's software variant on every crafted frame
 * of hints_vectors.h, for each set of hints an app reads. TAP output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xskf_hints.h>

#include "core/hints_in.h"
#include "core/sw_meta.h"
#include "hints_vectors.h"

#include "tap.h"

enum { M = XSKF_HINTS_IN_DATA_META, H = XSKF_HINTS_IN_HEADROOM, U = XSKF_HINTS_IN_USERSPACE };
#define NO  (-EOPNOTSUPP)
#define OFF (-ECANCELED) /* forced off */
#define REF (-EINVAL)	 /* refused by the kernel */

static const struct {
	enum xskf_hints_in want;
	struct xskf_hints_in_facts f;
	int way;
	const char *why; /* a word the reason must hold ("" for none) */
} cases[] = {
    /* auto: the best the kernel takes */
    {XSKF_HINTS_IN_AUTO, {0, 0, 0, true}, M, ""},
    {XSKF_HINTS_IN_AUTO, {REF, 0, 0, true}, H, "bpf_xdp_adjust_meta() refused by this kernel"},
    {XSKF_HINTS_IN_AUTO, {OFF, 0, 0, false}, H, "forced off by XSKF_FEATURES_OFF"},
    {XSKF_HINTS_IN_AUTO, {REF, REF, 0, true}, U, "bpf_xdp_adjust_head() refused"},
    {XSKF_HINTS_IN_AUTO, {OFF, OFF, 0, false}, U, "bpf_xdp_adjust_head() forced off"},
    /* the dispatcher refuses a program that changes packet data: userspace, if it is used */
    {XSKF_HINTS_IN_AUTO, {0, 0, REF, true}, U, "Linux 6.13+ with libxdp before 1.5.5"},
    {XSKF_HINTS_IN_AUTO, {0, 0, OFF, true}, U, "XSKF_FEATURES_OFF=disp_pkt_data"},
    {XSKF_HINTS_IN_AUTO, {0, 0, OFF, false}, M, ""},
    {XSKF_HINTS_IN_AUTO, {REF, 0, OFF, false}, H, "adjust_meta"},
    {XSKF_HINTS_IN_AUTO, {REF, 0, OFF, true}, U, "dispatcher"},
    /* asked for: taken where the kernel takes it, else refused with the reason */
    {XSKF_HINTS_IN_DATA_META, {0, 0, OFF, true}, M, ""},
    {XSKF_HINTS_IN_DATA_META, {REF, 0, 0, true}, NO, "needs bpf_xdp_adjust_meta()"},
    {XSKF_HINTS_IN_HEADROOM, {REF, 0, 0, true}, H, "--hints-in"},
    {XSKF_HINTS_IN_HEADROOM, {0, OFF, 0, true}, NO, "needs bpf_xdp_adjust_head(), forced off"},
    {XSKF_HINTS_IN_USERSPACE, {0, 0, 0, true}, U, "--hints-in asks for it"},
    {XSKF_HINTS_IN_USERSPACE, {REF, REF, REF, false}, U, "--hints-in"},
};

static void test_choose(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char why[160];
		int way = xskf_hints_in__choose(cases[i].want, &cases[i].f, why, sizeof(why));

		CHECK(way == cases[i].way &&
			  (cases[i].why[0] ? strstr(why, cases[i].why) != NULL : !why[0]),
		      "%s meta %d head %d disp %d%s: %s (%s), want %s",
		      xskf_hints_in__name(cases[i].want), cases[i].f.adjust_meta,
		      cases[i].f.adjust_head, cases[i].f.disp_pkt_data,
		      cases[i].f.dispatcher ? " dispatcher" : "",
		      way < 0 ? "refused" : xskf_hints_in__name(way), why,
		      cases[i].way < 0 ? "refused" : xskf_hints_in__name(cases[i].way));
	}
	for (i = 0; i <= XSKF_HINTS_IN_USERSPACE; i++)
		CHECK(xskf_hints_in__parse(xskf_hints_in__name(i)) == (int)i, "word %s",
		      xskf_hints_in__name(i));
	CHECK(xskf_hints_in__parse("meta") == -EINVAL, "an unknown word refused");
}

/* A UMEM-like buffer: our headroom, the meta's room, then the frame. */
struct rx_buf {
	uint8_t head[64];
	struct xskf_meta meta;
	uint8_t frame[640];
} __attribute__((packed, aligned(64)));

/*
 * What the XDP program writes for an app reading @hints (bpf/xskf_hints.bpf.h): the whole
 * parse, the outer frame's only (stage 1) without XSKF_HINT_TUNNEL, or no parse.
 */
static void want_meta(const uint8_t *frame, uint32_t len, uint32_t hints, struct xskf_meta *m)
{
	struct xskf_parse p;

	xskf_sw_meta(frame, len, m);
	if (!(hints & XSKF_HINT_PARSE)) {
		memset(m, 0, sizeof(*m));
		m->src = XSKF_META_NOPARSE;
		m->magic = XSKF_META_MAGIC;
	} else if (!(hints & XSKF_HINT_TUNNEL)) {
		xskf_parse_outer(frame, frame + len, &p);
		m->ptype = p.ptype;
		m->inner_off = m->inner_l3_off = m->inner_l4_off = 0;
	}
}

static void test_burst(void)
{
	static const uint32_t sets[] = {XSKF_HINT_ALL, XSKF_HINT_PTYPE | XSKF_HINT_VLAN,
					XSKF_HINT_HASH};
	static struct rx_buf b[HV_NR_CASES];
	struct xskf_pkt pkts[HV_NR_CASES];
	unsigned int i, s;

	for (s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		unsigned int same = 0;

		memset(b, 0xa5, sizeof(b)); /* stale bytes where the meta goes */
		for (i = 0; i < HV_NR_CASES; i++) {
			struct hv_frame f = {.len = 0};

			hv_cases[i].build(&f);
			memcpy(b[i].frame, f.b, f.len);
			memset(&pkts[i], 0, sizeof(pkts[i]));
			pkts[i].data = b[i].frame;
			pkts[i].len = f.len;
			pkts[i].meta = &b[i].meta;
		}
		xskf_hints_user__burst(pkts, HV_NR_CASES, sets[s]);
		for (i = 0; i < HV_NR_CASES; i++) {
			struct xskf_meta w;

			want_meta(b[i].frame, pkts[i].len, sets[s], &w);
			if (!memcmp(&w, &b[i].meta, sizeof(w)) && xskf_pkt__meta_valid(&pkts[i]))
				same++;
			else
				printf("# %s, hints %#x: ptype %#010x, want %#010x\n",
				       hv_cases[i].name, sets[s], b[i].meta.ptype, w.ptype);
		}
		CHECK(same == HV_NR_CASES,
		      "hints %#x: the meta of %u of %zu frames as the XDP program's", sets[s], same,
		      (size_t)HV_NR_CASES);
	}
}

int main(void)
{
	test_choose();
	test_burst();
	return tap_done();
}
