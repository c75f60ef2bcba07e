// SPDX-License-Identifier: BSD-2-Clause
/*
 * Trivial XDP program for the dut end of the test bed (tools/testbed.sh sink ...).
 *
 * veth hands XDP-redirected frames (the traffic generator's) to its peer only when the peer runs
 * NAPI, i.e. has an XDP program attached or GRO enabled. This program is that XDP program:
 * built twice, returning XDP_DROP (to measure the generator) or XDP_PASS (to let tcpdump and the
 * stack see the frames). veth's own per-queue counters (rx_queue_N_xdp_packets, _xdp_drops) count
 * what it saw, so it needs no map. Section xdp.frags holds the same verdict loaded frags-aware,
 * which veth needs to attach natively at an MTU beyond a page (docs/jumbo.md).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifndef SINK_VERDICT
#error "build with -DSINK_VERDICT=XDP_DROP or XDP_PASS"
#endif

SEC("xdp")
int xskf_tb_sink(struct xdp_md *ctx)
{
	return SINK_VERDICT;
}

/* The same for an MTU beyond a page (9000: multi-buffer frames): `sec xdp.frags` */
SEC("xdp.frags")
int xskf_tb_sink_frags(struct xdp_md *ctx)
{
	return SINK_VERDICT;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
