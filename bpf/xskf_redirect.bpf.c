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
 *  - xskf_redirect_nm:  the first without the hints' code at all (no bpf_xdp_adjust_meta()
 *                       call, not even dead): for --no-hints through libxdp's dispatcher, whose
 *                       slots Linux 6.13+ refuses to a program that changes packet data
 *                       unless libxdp's stub does too (libxdp 1.5.5+); and whenever the
 *                       hints are computed in userspace (rodata hints_user).
 * With hints on (rodata hints_on), each variant first writes struct xskf_meta in front of the
 * frame (bpf/xskf_hints.bpf.h); a frame whose meta cannot be written is still delivered. Where
 * the kernel refuses bpf_xdp_adjust_meta() (rodata meta_head), the meta goes into the headroom
 * of frames bound for one of our sockets only, after the redirect said so (deliver()).
 * Before that, the steering table (bpf/xskf_steer.bpf.h) decides: to the socket, to the stack
 * (here or on a cpumap CPU), or dropped; while it steers nothing (no rule, every default xsk),
 * one load tells so and the frame costs what it did before steering.
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
#include "xskf_steer.bpf.h"
#include "xskf_serve.bpf.h"

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

/* shared between the runs of one interface (xskf_prog.h); the program reads none of them */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XSKF_PROG_MAX_QUEUES);
	__type(key, __u32);
	__type(value, struct xskf_prog_qowner);
} xskf_queues SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XSKF_STEER_MAX_RULES);
	__type(key, __u32);
	__type(value, struct xskf_prog_srule);
} xskf_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xskf_prog_share);
} xskf_share SEC(".maps");

/* Set before load from the framework (skeleton rodata). */
const volatile __u32 hints_on = 0;
/*
 * The hints in the headroom (bpf_xdp_adjust_head()) instead of the metadata area: for kernels
 * whose verifier refuses bpf_xdp_adjust_meta() (framework/backend/xdp/prog/features.c). With 0 the
 * headroom path is dead code the verifier drops, and with 1 the metadata path is.
 */
const volatile __u32 meta_head = 0;
/*
 * The hints computed in userspace (core/hints_in.h): the program writes no meta and changes no
 * packet data; the framework parses each frame itself. xskf attaches xskf_redirect_nm then, and
 * this says so to a run that joins it (prog_share.c); in the other variants it makes the hints'
 * code dead, as hints_on = 0 would.
 */
const volatile __u32 hints_user = 0;
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

static __noinline int hints_sw_head(struct xdp_md *ctx)
{
	return xskf_hints_write_at(ctx, false, true);
}

static __noinline int hints_hw_head(struct xdp_md *ctx)
{
	return xskf_hints_write_at(ctx, true, true);
}


/*
 * To the queue's socket (none bound: the stack), with the hints first when they are on.
 * @steered: the table classified the frame, count it in steering's counters too (a constant:
 * the path of a table that is off has no trace of them).
 */
static __always_inline int deliver(struct xdp_md *ctx, __u32 queue, const bool hw,
				   const bool lookup, const bool steered, const bool meta)
{
	bool served;
	int ret;

	/* frames with no socket fall back to the stack with the meta: harmless */
	if (meta && hints_on && !hints_user && !meta_head &&
	    (hw ? hints_hw(ctx) : hints_sw(ctx)) < 0)
		count_error(queue);
	/* our socket (xsks), a served app's (its queue's own XSKMAP), or the stack */
	ret = xskf_serve_redirect(&xsks, queue, lookup, &served);
	/*
	 * The hints in the headroom: only of a frame going to one of our sockets, so that a frame
	 * for the stack is never changed and a served app's arrive as they came. Where they cannot
	 * be written the frame, as it came, goes to the stack: the RX path would otherwise cut
	 * the frame's own first bytes.
	 */
	if (meta && hints_on && !hints_user && meta_head && ret == XDP_REDIRECT && !served &&
	    (hw ? hints_hw_head(ctx) : hints_sw_head(ctx))) {
		count_error(queue);
		ret = XDP_PASS;
	}
	if (steered)
		xskf_steer_count(queue,
				 ret == XDP_REDIRECT ? XSKF_STEER_ACT_XSK : XSKF_STEER_ACT_PASS);
	count(queue, ret);
	return ret;
}

static __always_inline int redirect(struct xdp_md *ctx, const bool hw, const bool lookup,
				    const bool meta)
{
	__u32 queue = ctx->rx_queue_index, zero = 0, *g;
	int ret, v;

	/*
	 * A table that steers nothing (xskf_steer.h, XSKF_STEER_GEN_LIVE): one load, and the
	 * frame costs what it did before steering (docs/performance.md, issue 32)
	 */
	g = bpf_map_lookup_elem(&steer_gen, &zero);
	if (!g || !(*g & XSKF_STEER_GEN_LIVE))
		return deliver(ctx, queue, hw, lookup, false, meta);
	/* steering (xskf_steer.bpf.h): the rule table decides; a zeroed table says XSK */
	v = xskf_steer_classify(ctx, *g & 1);
	switch (v & 0xff) {
	case XSKF_STEER_ACT_XSK:
		break;
	case XSKF_STEER_ACT_CPUMAP:
		ret = bpf_redirect_map(&steer_cpus, (__u32)v >> 8, XDP_PASS);
		xskf_steer_count(queue, ret == XDP_REDIRECT ? XSKF_STEER_ACT_CPUMAP
							   : XSKF_STEER_ACT_PASS);
		count(queue, XDP_PASS);
		return ret;
	case XSKF_STEER_ACT_DROP:
		xskf_steer_count(queue, XSKF_STEER_ACT_DROP);
		return XDP_DROP;
	default:
		xskf_steer_count(queue, XSKF_STEER_ACT_PASS);
		count(queue, XDP_PASS);
		return XDP_PASS;
	}
	return deliver(ctx, queue, hw, lookup, true, meta);
}

SEC("xdp.frags")
int xskf_redirect(struct xdp_md *ctx)
{
	return redirect(ctx, false, false, true);
}

SEC("xdp.frags")
int xskf_redirect_hw(struct xdp_md *ctx)
{
	return redirect(ctx, true, false, true);
}

SEC("xdp.frags")
int xskf_redirect_lk(struct xdp_md *ctx)
{
	return redirect(ctx, false, true, true);
}

SEC("xdp.frags")
int xskf_redirect_nm(struct xdp_md *ctx)
{
	return redirect(ctx, false, false, false);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
