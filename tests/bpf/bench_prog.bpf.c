// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * The xskf XDP program itself (bpf/xskf_redirect.bpf.c, included whole: the same code, the same
 * rodata knobs) with one entry point for BPF_PROG_TEST_RUN's repeat loop
 * (bench/xdp_prog.sh). The kernel runs all repeats on one xdp_buff without resetting data_meta,
 * so each run gives the meta's room back: without that, bpf_xdp_adjust_meta() would fail from
 * the eighth run on and the rest would time the failure path. The give-back is one more helper
 * call, timed alone by meta_pair.
 */
#include "../../bpf/xskf_redirect.bpf.c"

SEC("xdp")
int bench_redirect(struct xdp_md *ctx)
{
	int ret = redirect(ctx, false, false, true);
	long metalen = (long)ctx->data - (long)ctx->data_meta;

	if (metalen > 0 && metalen <= 255)
		bpf_xdp_adjust_meta(ctx, (int)metalen);
	return ret;
}

/* The floor: the frame passed untouched. */
SEC("xdp")
int pass_only(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_PASS;
}

/* What the give-back costs: one grow and one give-back, nothing written. */
SEC("xdp")
int meta_pair(struct xdp_md *ctx)
{
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(struct xskf_meta)))
		return XDP_ABORTED;
	bpf_xdp_adjust_meta(ctx, (int)sizeof(struct xskf_meta));
	return XDP_PASS;
}
