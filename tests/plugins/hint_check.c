// SPDX-License-Identifier: BSD-2-Clause
/*
 * hint_check: a plugin that declares which RX hints it reads (--read hash|none|all, default
 * hash) and checks, for every frame, what the XDP program wrote in front of it: the proof of
 * the hint knobs (tests/integration/test_hint_knobs.sh). Counters:
 *   frames        frames seen
 *   meta          frames with a valid meta (magic)
 *   hash_hw       ... whose hash came from the driver
 *   noparse       ... marked XSKF_META_NOPARSE (the program did not parse the frame)
 *   other_fields  ... with any field but the hash's set: packet type, an offset, a VLAN tag, a
 *                 timestamp, a source bit other than the hash's
 *   meta_bytes    frames handed over without a meta (pkts[i].meta NULL) that still have the
 *                 meta's magic right in front of the frame: the program wrote one anyway (in
 *                 copy mode the kernel copies data_meta into the UMEM in front of the frame,
 *                 and nothing else writes there)
 *   udp_at_offs   frames whose meta says IPv4/UDP and whose bytes agree: an IPv4 header at
 *                 l3_off, the payload "knob" after the UDP header at l4_off (so the frame the
 *                 app sees starts where the meta's offsets count from, wherever the program
 *                 carried the meta)
 *   vlan_sw       frames whose meta says an 802.1Q tag read from the frame (source software)
 *                 with VID 100, the tag the test puts in front of some of its frames
 * Every frame is dropped.
 */
#include <errno.h>
#include <string.h>

#include <xskf_plugin.h>
#include <xskf_hints.h>

enum {
	C_FRAMES,
	C_META,
	C_HASH_HW,
	C_NOPARSE,
	C_OTHER,
	C_META_BYTES,
	C_UDP_AT_OFFS,
	C_VLAN_SW,
	C_MAX
};
static const char *const names[] = { "frames",	   "meta",	 "hash_hw",	"noparse",
				     "other_fields", "meta_bytes", "udp_at_offs", "vlan_sw",
				     NULL };

static int hc_worker_init(void *app_ctx, const struct xskf_worker_info *wi, void **wctx)
{
	(void)app_ctx;
	*wctx = wi->counters;
	return 0;
}

static void hc_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	uint64_t *c = wctx;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct xskf_pkt *p = &pkts[i];
		const struct xskf_meta *m = xskf_pkt__meta(p);
		uint16_t magic;

		c[C_FRAMES]++;
		if (!p->meta) {
			memcpy(&magic, p->data - 2, 2);
			if (magic == XSKF_META_MAGIC)
				c[C_META_BYTES]++;
			continue;
		}
		if (!m)
			continue;
		c[C_META]++;
		if (XSKF_META_SRC(m->src, XSKF_F_HASH) == XSKF_SRC_HW)
			c[C_HASH_HW]++;
		if (m->src & XSKF_META_NOPARSE)
			c[C_NOPARSE]++;
		if (m->ptype || m->l3_off || m->l4_off || m->inner_off || m->inner_l3_off ||
		    m->inner_l4_off || m->vlan_tci || m->rx_timestamp ||
		    (m->src & ~(3u << (2 * XSKF_F_HASH) | XSKF_META_NOPARSE)))
			c[C_OTHER]++;
		if ((m->ptype & XSKF_PTYPE_L3_MASK) == XSKF_PTYPE_L3_IPV4 &&
		    (m->ptype & XSKF_PTYPE_L4_MASK) == XSKF_PTYPE_L4_UDP &&
		    (uint32_t)m->l4_off + 12 <= p->len && m->l3_off < p->len &&
		    p->data[m->l3_off] == 0x45 && !memcmp(p->data + m->l4_off + 8, "knob", 4))
			c[C_UDP_AT_OFFS]++;
		if (XSKF_META_SRC(m->src, XSKF_F_VLAN) == XSKF_SRC_SW &&
		    !(m->src & XSKF_META_VLAN_STAG) && (m->vlan_tci & 0xfff) == 100 &&
		    (m->ptype & XSKF_PTYPE_L2_MASK) == XSKF_PTYPE_L2_ETHER_VLAN)
			c[C_VLAN_SW]++;
	}
}

static struct xskf_app hc_app = {
	.name = "hint_check",
	.flags = XSKF_APP_F_HINTS,
	.hints = XSKF_HINT_HASH,
	.worker_init = hc_worker_init,
	.rx_burst = hc_burst,
};

static const struct xskf_cli_opt hc_opts[] = {
	{ "read", 1, "WHAT", "the hints it says it reads: hash (default), none, all" },
	{ NULL, 0, NULL, NULL },
};

static int hc_parse(void *ctx, int idx, const char *arg)
{
	(void)ctx;
	(void)idx;
	if (!strcmp(arg, "hash"))
		hc_app.hints = XSKF_HINT_HASH;
	else if (!strcmp(arg, "none"))
		hc_app.hints = 0;
	else if (!strcmp(arg, "all"))
		hc_app.hints = XSKF_HINT_ALL;
	else
		return -EINVAL;
	return 0;
}

static const struct xskf_app_cli hc_cli = {
	.sz = sizeof(hc_cli),
	.summary = "Check what the XDP program wrote in front of each frame (a test plugin).",
	.opts = hc_opts,
	.parse = hc_parse,
};

XSKF_PLUGIN(.name = "hint_check", .app = &hc_app, .cli = &hc_cli, .counters = names);
