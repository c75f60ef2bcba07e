// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * Test-only XDP programs around xskf_hints_write(): each writes the meta, copies what it wrote
 * into .bss for the test to read (BPF_PROG_TEST_RUN does not need to return data_meta for the
 * test to work), and passes the frame.
 *  - hints_sw: hw = false, run through BPF_PROG_TEST_RUN on crafted frames;
 *  - hints_hw: hw = true, loaded device-bound on a veth and fed real traffic (or test-run);
 *  - vlan_push: tc egress on the sending veth, to make frames whose VLAN tags the receiving
 *    veth gets out of band (as a NIC that strips them), since this kernel has no VLAN devices.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xskf_hints.bpf.h"

/* Only record frames to this UDP destination port (0: record every frame). */
const volatile __u16 match_port = 0;

struct xskf_meta seen_meta;
int seen_ret;
__u32 seen_metalen;
__u32 seen_count;

static __always_inline int record(struct xdp_md *ctx, int ret)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xskf_meta *m = (void *)(long)ctx->data_meta;

	if (match_port) {
		const __u8 *udp;

		if ((void *)(m + 1) > data || m->magic != XSKF_META_MAGIC ||
		    (m->ptype & XSKF_PTYPE_L4_MASK) != XSKF_PTYPE_L4_UDP)
			return XDP_PASS;
		udp = xskf_hdr(data, data_end, m->l4_off, 8);
		if (!udp || xskf_rd16(udp + 2) != match_port)
			return XDP_PASS;
	}
	seen_ret = ret;
	seen_metalen = (__u32)(data - (void *)m);
	if ((void *)(m + 1) <= data)
		__builtin_memcpy(&seen_meta, m, sizeof(seen_meta));
	else
		__builtin_memset(&seen_meta, 0, sizeof(seen_meta));
	seen_count++;
	return XDP_PASS;
}

SEC("xdp")
int hints_sw(struct xdp_md *ctx)
{
	return record(ctx, xskf_hints_write(ctx, false));
}

SEC("xdp")
int hints_hw(struct xdp_md *ctx)
{
	return record(ctx, xskf_hints_write(ctx, true));
}

/*
 * For bench_hints. A repeated test run reuses one xdp_buff, so each program gives the meta
 * area back at the end (else it would grow by 32 bytes per run until the adjust fails).
 */
SEC("xdp")
int pass_only(struct xdp_md *ctx)
{
	return XDP_PASS;
}

/* the adjust pair alone, and the magic written */
SEC("xdp")
int meta_only(struct xdp_md *ctx)
{
	struct xskf_meta *m;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_ABORTED;
	m = xskf_hints_meta(ctx);
	if (m)
		m->magic = XSKF_META_MAGIC;
	bpf_xdp_adjust_meta(ctx, sizeof(*m));
	return XDP_PASS;
}

/* xskf_hints_write(ctx, false), then the adjust back */
SEC("xdp")
int hints_only(struct xdp_md *ctx)
{
	if (xskf_hints_write(ctx, false))
		return XDP_ABORTED;
	bpf_xdp_adjust_meta(ctx, sizeof(struct xskf_meta));
	return XDP_PASS;
}

/* 0: no tag; 1: C-tag 100; 2: and an S-tag 200 outside it (100 then goes into the frame) */
__u32 push_tags;

SEC("tc")
int vlan_push(struct __sk_buff *skb)
{
	/* bpf_skb_vlan_push() keeps the outermost tag out of band and moves an earlier one in */
	if (push_tags >= 1)
		bpf_skb_vlan_push(skb, __builtin_bswap16(XSKF_ETH_P_8021Q), 100);
	if (push_tags >= 2)
		bpf_skb_vlan_push(skb, __builtin_bswap16(XSKF_ETH_P_8021AD), 200);
	return 0; /* TC_ACT_OK */
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
