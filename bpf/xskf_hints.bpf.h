/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * RX hints, BPF side: xskf_hints_write() puts a struct xskf_meta (xskf_meta.h) in front of the
 * frame. Header-only; include it from an XDP program after <linux/bpf.h> and
 * <bpf/bpf_helpers.h>, and call it before redirecting the frame:
 *
 *	SEC("xdp") int prog_hw(struct xdp_md *ctx) { xskf_hints_write(ctx, true); ... }
 *	SEC("xdp") int prog_sw(struct xdp_md *ctx) { xskf_hints_write(ctx, false); ... }
 *
 * @hw must be a compile-time constant. With true, the XDP metadata kfuncs are called: the
 * program must then be loaded device-bound (bpf_program__set_ifindex() and
 * BPF_F_XDP_DEV_BOUND_ONLY), which also means it can only attach in native mode. With false
 * the calls are dead code that clang removes, so the program has no kfunc call at all and loads
 * anywhere (SKB mode, kernels without the kfuncs).
 *
 * The kfuncs are declared __weak: an object holding both variants then still loads (the false
 * variant) on a kernel without them. libbpf 1.1 resolves a missing weak kfunc to 0; the
 * verifier rejects a program that can reach such a call ("R0 !read_ok"), and accepts one where
 * the call is dead code, also when it is dead because of xskf_hints_kfuncs below. Without
 * __weak, libbpf refuses the whole object when one kfunc is missing, even if the program that
 * calls it is not loaded.
 */
#ifndef XSKF_HINTS_BPF_H
#define XSKF_HINTS_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xskf_meta.h"
#include "xskf_hints_parse.h"

#ifndef EOPNOTSUPP
#define EOPNOTSUPP 95
#endif

/* Kernel prototypes (net/core/xdp.c, Linux 6.3+; the VLAN one 6.8+). */
extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym __weak;
extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx, __u64 *timestamp) __ksym __weak;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx, __be16 *vlan_proto,
					__u16 *vlan_tci) __ksym __weak;

/*
 * Which kfuncs the hw = true variant calls (XSKF_HINTS_KF_* of xskf_meta.h). Set it in the
 * skeleton's rodata before load to what both the kernel (xskf_hints__probe_kfuncs()) and the
 * driver (xskf_hints__probe_dev()) have: a call that is off is dead code once rodata is frozen,
 * so the verifier drops it (checked on 6.18 with a kfunc that does not exist). Then a kernel
 * without the VLAN kfunc (6.3-6.7) can still load the rest, and a driver that implements none
 * costs no call at all (better: use hw = false there).
 */
const volatile __u32 xskf_hints_kfuncs = XSKF_HINTS_KF_ALL;

/*
 * Which hints the program writes (XSKF_HINT_* of xskf_meta.h): what the apps read, set in the
 * skeleton's rodata before load. Without a hint of XSKF_HINT_PARSE the parse is dead code once
 * rodata is frozen (the verifier removes it) and the meta carries only the driver's values,
 * zeros elsewhere and XSKF_META_NOPARSE; without XSKF_HINT_TUNNEL the inner parse goes. The
 * driver's values are switched by xskf_hints_kfuncs. The framework does not call
 * xskf_hints_write() at all when no app reads any hint (hints_on in xskf_redirect.bpf.c).
 */
const volatile __u32 xskf_hints_mask = XSKF_HINT_ALL;

/*
 * The meta in front of the frame of @ctx, or NULL. Each stage below derives its pointers again
 * from ctx rather than keeping them: fresh pointers carry no packet range from the stage before,
 * so the verifier's states from all paths of that stage compare equal and are pruned.
 */
static __always_inline struct xskf_meta *xskf_hints_meta_at(struct xdp_md *ctx, const bool head)
{
	struct xskf_meta *m;

	if (head) {
		/* carried in the headroom: the meta is the first bytes of the data */
		m = (void *)(long)ctx->data;
		if ((void *)(m + 1) > (void *)(long)ctx->data_end)
			return 0;
		return m;
	}
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return 0;
	return m;
}

static __always_inline struct xskf_meta *xskf_hints_meta(struct xdp_md *ctx)
{
	return xskf_hints_meta_at(ctx, false);
}

/* The frame's first byte: after the meta when it is carried in the headroom (@head). */
static __always_inline void *xskf_hints_frame(struct xdp_md *ctx, const bool head)
{
	return (void *)(long)ctx->data + (head ? sizeof(struct xskf_meta) : 0);
}

/* The meta of a frame that is not parsed: every value absent, NOPARSE said. */
static __always_inline int xskf_hints_blank(struct xdp_md *ctx, const bool head)
{
	struct xskf_meta *m = xskf_hints_meta_at(ctx, head);
	__u64 *w;

	if (!m)
		return -1;
	/* four 8-byte stores: the struct is 32 bytes, and data_meta is 4-byte aligned at least */
	w = (__u64 *)m;
	w[0] = 0;
	w[1] = 0;
	w[2] = 0;
	w[3] = 0;
	m->src = XSKF_META_NOPARSE;
	return 0;
}

/* Stage 1: the outer frame, and everything but the tunnel and the driver's values. */
static __always_inline int xskf_hints_outer(struct xdp_md *ctx, const bool head)
{
	struct xskf_meta *m = xskf_hints_meta_at(ctx, head);
	struct xskf_parse p;

	if (!m)
		return -1;
	xskf_parse_outer(xskf_hints_frame(ctx, head), (void *)(long)ctx->data_end, &p);
	m->rx_timestamp = 0;
	m->rx_hash = 0;
	m->ptype = p.ptype;
	m->hash_type = 0;
	m->vlan_tci = p.vlan_tci;
	m->l4_off = p.l4_off;
	m->inner_off = 0;
	m->inner_l3_off = 0;
	m->inner_l4_off = 0;
	m->l3_off = (__u8)p.l3_off;
	m->src = p.vlan ? XSKF_SRC_SW << (2 * XSKF_F_VLAN) |
				  (p.vlan == 2 ? XSKF_META_VLAN_STAG : 0) : 0;
	m->magic = 0;
	return 0;
}

/*
 * Stage 2: a tunnel's header and inner frame, from the ptype and l4_off that stage 1 stored.
 * Values loaded back from packet memory are unknown to the verifier, so the dozens of outer
 * paths (VLANs, IPv4/IPv6, extension chains, L4 types) reach this stage as one state instead
 * of each walking the inner parse again.
 */
static __always_inline void xskf_hints_tunnel(struct xdp_md *ctx, const bool head)
{
	struct xskf_meta *m = xskf_hints_meta_at(ctx, head);
	struct xskf_parse p;

	if (!m || !(m->ptype & XSKF_PTYPE_TUNNEL_MASK))
		return;
	p.ptype = m->ptype;
	p.l4_off = m->l4_off;
	p.inner_off = p.inner_l3_off = p.inner_l4_off = 0;
	xskf_parse_inner(xskf_hints_frame(ctx, head), (void *)(long)ctx->data_end, &p);
	m->ptype = p.ptype;
	m->inner_off = p.inner_off;
	m->inner_l3_off = p.inner_l3_off;
	m->inner_l4_off = p.inner_l4_off;
}

/*
 * Stage 3: ask the driver for the hash, timestamp and VLAN tag. Every kfunc returns 0 (value
 * given), -ENODATA (none for this frame: veth for frames that were redirected by XDP, mlx5/ice
 * without RX timestamping), -EOPNOTSUPP (the driver does not implement it) or another error:
 * all but 0 mean "absent", and the meta keeps what the software parse found (VLAN) or nothing.
 */
static __always_inline void xskf_hints_hw(struct xdp_md *ctx, const bool head)
{
	enum xdp_rss_hash_type type = XDP_RSS_TYPE_NONE;
	struct xskf_meta *m;
	__u32 hash = 0;
	__u64 ts = 0;
	__be16 vproto = 0;
	__u16 tci = 0;
	int hash_err = -EOPNOTSUPP, ts_err = -EOPNOTSUPP, vlan_err = -EOPNOTSUPP;

	if (xskf_hints_kfuncs & XSKF_HINTS_KF_HASH)
		hash_err = bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	if (xskf_hints_kfuncs & XSKF_HINTS_KF_TIMESTAMP)
		ts_err = bpf_xdp_metadata_rx_timestamp(ctx, &ts);
	if (xskf_hints_kfuncs & XSKF_HINTS_KF_VLAN_TAG)
		vlan_err = bpf_xdp_metadata_rx_vlan_tag(ctx, &vproto, &tci);
	m = xskf_hints_meta_at(ctx, head);
	if (!m)
		return;
	/*
	 * A hash with no type and value 0 is "nothing computed" (ENVIRONMENT.md saw veth answer 0
	 * for neighbour discovery): leave it absent so that the software hash can stand in.
	 */
	if (!hash_err && (hash || type)) {
		m->rx_hash = hash;
		m->hash_type = (__u16)type;
		m->src |= XSKF_SRC_HW << (2 * XSKF_F_HASH);
	}
	/* veth answers 0 with a zero stamp when the skb had no hardware stamp */
	if (!ts_err && ts) {
		m->rx_timestamp = ts;
		m->src |= XSKF_SRC_HW << (2 * XSKF_F_TIMESTAMP);
	}
	/* a stripped tag is the outermost one: it wins over a tag still in the frame */
	if (!vlan_err) {
		m->vlan_tci = tci;
		m->src = (m->src & ~(3 << (2 * XSKF_F_VLAN) | XSKF_META_VLAN_STAG)) |
			 XSKF_SRC_HW << (2 * XSKF_F_VLAN) |
			 (vproto == __builtin_bswap16(XSKF_ETH_P_8021AD) ? XSKF_META_VLAN_STAG : 0);
	}
}

/*
 * xskf_hints_write_at() - write struct xskf_meta in front of the frame of @ctx.
 * @hw: call the XDP metadata kfuncs (a device-bound program only); a compile-time constant.
 * @head: a compile-time constant. false: in the metadata area (bpf_xdp_adjust_meta()), where
 * AF_XDP leaves it in front of the frame. true: in the headroom (bpf_xdp_adjust_head()), for
 * kernels whose verifier refuses bpf_xdp_adjust_meta(): the meta is then the first
 * sizeof(struct xskf_meta) bytes of the data, the framework moves the descriptor past it
 * before the app sees the frame (so it sits where data_meta would have put it), and the caller
 * must call this only for a frame that goes to an xskf socket (never one for the stack).
 *
 * Returns 0 when the meta was written, -1 when the adjust failed (driver without data_meta
 * support, or a headroom too small): there is then no meta and the frame is as it came.
 * Packet pointers the caller derived before the call are invalid afterwards (the adjust moves
 * them): read ctx->data again. Cost (docs/hints.md): one helper call and the parse, about 8 ns
 * for plain IPv4/IPv6 frames and 15-25 ns for tunnels and extension chains, and with @hw up to
 * three kfunc calls.
 */
static __always_inline int xskf_hints_write_at(struct xdp_md *ctx, const bool hw, const bool head)
{
	const int sz = (int)sizeof(struct xskf_meta);
	struct xskf_meta *m;

	if (head ? bpf_xdp_adjust_head(ctx, -sz) : bpf_xdp_adjust_meta(ctx, -sz))
		return -1;
	if (!(xskf_hints_mask & XSKF_HINT_PARSE)) {
		if (xskf_hints_blank(ctx, head))
			goto undo;
	} else {
		if (xskf_hints_outer(ctx, head))
			goto undo;
		/* make clang load the stage 1 results back from the meta (xskf_hints_tunnel()) */
		asm volatile("" ::: "memory");
		if (xskf_hints_mask & XSKF_HINT_TUNNEL)
			xskf_hints_tunnel(ctx, head);
	}
	if (hw)
		xskf_hints_hw(ctx, head);
	m = xskf_hints_meta_at(ctx, head);
	if (!m)
		goto undo;
	m->magic = XSKF_META_MAGIC; /* last: the meta is complete */
	return 0;
undo:
	/* the frame back as it came (unreachable: the adjust made the room the checks want) */
	if (head)
		bpf_xdp_adjust_head(ctx, sz);
	return -1;
}

/* xskf_hints_write() - xskf_hints_write_at() in the metadata area (data_meta). */
static __always_inline int xskf_hints_write(struct xdp_md *ctx, const bool hw)
{
	return xskf_hints_write_at(ctx, hw, false);
}

#endif /* XSKF_HINTS_BPF_H */
