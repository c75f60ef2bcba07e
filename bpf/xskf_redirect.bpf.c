// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * The xskf XDP program: steer each frame to the AF_XDP socket of its RX queue.
 *
 * Programs (one is attached; the framework chooses by probing the running kernel):
 *  - xskf_redirect:     bpf_redirect_map(&xsks, queue, XDP_PASS): one helper call, and frames
 *                       of queues with no socket fall back to the stack (kernel >= 5.3).
 *  - xskf_redirect_lk:  lookup first, then redirect: for kernels whose redirect_map does not
 *                       take a fallback action in its flags.
 *  - xskf_redirect_hw: the first, but the hints come from the driver too (metadata kfuncs):
 *                       loaded device-bound, so native mode only.
 * With hints on (rodata hints_on), each variant first writes struct xskf_meta in front of the
 * frame (bpf/xskf_hints.bpf.h); a frame whose meta cannot be written is still delivered.
 *
 * All are frags-aware (SEC("xdp.frags"), BPF_F_XDP_HAS_FRAGS): drivers then attach them
 * natively at MTUs whose frames span several buffers (veth refuses others above a peer MTU of
 * 3506: docs/jumbo.md). data .. data_end is the first buffer only (3520 bytes of a 9014-byte
 * frame on veth): the steering match and the hints parser read headers there, and a frame
 * whose headers do not fit in it is parsed as far as they do (hints: a shorter ptype).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "xskf_prog.h"
#include "xskf_hints.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XSKF_PROG_MAX_QUEUES);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XSKF_PROG_MAX_QUEUES);
	__type(key, __u32);
	__type(value, struct xskf_prog_counters);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xskf_prog_owner);
} xskf_owner SEC(".maps");

/* Set before load from the framework (skeleton rodata). */
const volatile __u32 hints_on = 0;
/* Steering: when non-zero (network byte order), only UDP to this port goes to the sockets. */
const volatile __u16 steer_udp_dport = 0;

struct vlan_tag {
	__be16 tci;
	__be16 proto;
};

/* Is this frame UDP (over IPv4 or IPv6, one optional VLAN tag) to steer_udp_dport? */
static __always_inline bool steer_match(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct udphdr *udp;
	void *l3;
	__be16 proto;

	if ((void *)(eth + 1) > end)
		return false;
	proto = eth->h_proto;
	l3 = eth + 1;
	if (proto == bpf_htons(ETH_P_8021Q) || proto == bpf_htons(ETH_P_8021AD)) {
		struct vlan_tag *v = l3;

		if ((void *)(v + 1) > end)
			return false;
		proto = v->proto;
		l3 = v + 1;
	}
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = l3;

		if ((void *)(ip + 1) > end || ip->protocol != IPPROTO_UDP || ip->ihl < 5 ||
		    (ip->frag_off & bpf_htons(0x1fff)))
			return false;
		udp = l3 + ip->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = l3;

		if ((void *)(ip6 + 1) > end || ip6->nexthdr != IPPROTO_UDP)
			return false;
		udp = (void *)(ip6 + 1);
	} else {
		return false;
	}
	if ((void *)(udp + 1) > end)
		return false;
	return udp->dest == steer_udp_dport;
}

static __always_inline void count(__u32 queue, int ret)
{
	struct xskf_prog_counters *c = bpf_map_lookup_elem(&counters, &queue);

	if (!c)
		return;
	if (ret == XDP_REDIRECT)
		c->redirected++;
	else if (ret == XDP_PASS)
		c->passed++;
	else
		c->errors++;
}

static __always_inline void count_error(__u32 queue)
{
	struct xskf_prog_counters *c = bpf_map_lookup_elem(&counters, &queue);

	if (c)
		c->errors++;
}

/*
 * The hints as subprograms (bpf-to-bpf calls): the parser is then compiled and verified the
 * same way in every program, whatever the redirect code around it makes of the registers
 * (inlined into the hw program, clang 14 reused a spilled NULL as a packet pointer).
 */
static __noinline int hints_sw(struct xdp_md *ctx)
{
	return xskf_hints_write(ctx, false);
}

static __noinline int hints_hw(struct xdp_md *ctx)
{
	return xskf_hints_write(ctx, true);
}

static __always_inline int redirect(struct xdp_md *ctx, const bool hw, const bool lookup)
{
	__u32 queue = ctx->rx_queue_index;
	int ret = XDP_PASS;

	if (steer_udp_dport && !steer_match(ctx)) {
		count(queue, XDP_PASS);
		return XDP_PASS;
	}
	/* frames that go to the stack get the meta too: cheaper than a lookup, and harmless */
	if (hints_on && (hw ? hints_hw(ctx) : hints_sw(ctx)) < 0)
		count_error(queue);
	if (!lookup)
		ret = bpf_redirect_map(&xsks, queue, XDP_PASS);
	else if (bpf_map_lookup_elem(&xsks, &queue))
		ret = bpf_redirect_map(&xsks, queue, 0);
	count(queue, ret);
	return ret;
}

SEC("xdp.frags")
int xskf_redirect(struct xdp_md *ctx)
{
	return redirect(ctx, false, false);
}

SEC("xdp.frags")
int xskf_redirect_hw(struct xdp_md *ctx)
{
	return redirect(ctx, true, false);
}

SEC("xdp.frags")
int xskf_redirect_lk(struct xdp_md *ctx)
{
	return redirect(ctx, false, true);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
