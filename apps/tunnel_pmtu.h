/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Path MTU discovery across the tunnel: a frame from the access side too large for the underlay
 * once wrapped is answered, where the rules allow, with ICMP "fragmentation needed" (IPv4) or
 * ICMPv6 "packet too big", sent back out of the access port as if from the frame's destination
 * (what the Linux VXLAN device does on a bridge port). The frame itself becomes the answer, in
 * place: no allocation. A token bucket per worker bounds how many are sent. docs/tunnel.md
 * ("Path MTU") says what is sent and how it differs from the kernel.
 */
#ifndef TUNNEL_PMTU_H
#define TUNNEL_PMTU_H

#include <stdint.h>

#include <xskf.h>

#include "tunnel_vxlan.h"

/* Defaults of the token bucket, per worker: the kernel's icmp_msgs_per_sec / icmp_msgs_burst. */
#define TUN_PMTU_RATE_DEFAULT  1000
#define TUN_PMTU_BURST_DEFAULT 50
#define TUN_PMTU_RATE_MAX      1000000
#define TUN_PMTU_BURST_MAX     1000000

/* A token bucket: one token per @interval_ns, at most @burst of them. A worker's own. */
struct tun_pmtu_bucket {
	uint64_t interval_ns; /* 0: no ICMP at all (--icmp-rate 0) */
	uint64_t last_ns;     /* when the tokens were last counted */
	uint32_t tokens, burst;
};

/*
 * tun_pmtu__bucket_init() - a full bucket of @burst tokens refilled at @rate per second
 * (@rate 0: nothing is ever sent). Thread: worker (worker_init), or any for its own bucket.
 */
void tun_pmtu__bucket_init(struct tun_pmtu_bucket *b, uint32_t rate, uint32_t burst);

/*
 * tun_pmtu__answer() - answer @pkt, an access frame that tun_vxlan__encap() found too large
 * (TUN_ENC_MTU) for the tunnel of its destination MAC in @t over the underlay @u.
 * @now_ns: the burst's time, read from CLOCK_MONOTONIC by this function the first time a burst
 * needs it (0 = not read yet), so that a burst costs one clock read at most and bursts without
 * such frames none.
 * Returns the counter of what was done: TUN_PMTU_ICMP4 / TUN_PMTU_ICMP6 (the frame is now the
 * ICMP message: send it back out of the port it came from, XSKF_TX), TUN_PMTU_RATELIMITED (one
 * was due, the bucket was empty), TUN_PMTU_NO_ICMP (the rules forbid one, or ICMP is off); in
 * the last two the frame is unchanged, to be dropped.
 * Thread: worker, inside rx_burst, under the RCU read side that protects @t.
 */
enum tun_ctr tun_pmtu__answer(struct tun_pmtu_bucket *b, const struct tun_table *t,
			      const struct tun_underlay *u, struct xskf_pkt *pkt, uint64_t *now_ns);

/*
 * tun_pmtu__mtu() - the MTU announced for a tunnel over an IPv4 (@v6 false) or IPv6 underlay
 * of L3 MTU @underlay_mtu: what an inner IP packet may carry, the underlay MTU less the
 * outer headers and the inner Ethernet header (50 or 70 bytes, as the kernel's VXLAN_HEADROOM
 * and VXLAN6_HEADROOM). 0 when the underlay cannot carry anything. Thread: any.
 */
static inline uint32_t tun_pmtu__mtu(uint32_t underlay_mtu, bool v6)
{
	uint32_t h = v6 ? TUN_VXLAN_HLEN6 : TUN_VXLAN_HLEN4;

	return underlay_mtu > h ? underlay_mtu - h : 0;
}

#endif /* TUNNEL_PMTU_H */
