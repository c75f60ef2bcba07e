/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Steering in the XDP program: the rule table's maps and xskf_steer_classify(), which the
 * program calls once per frame (bpf/xskf_steer.h has the layout, docs/steering.md the design).
 * Included by xskf_redirect.bpf.c only.
 */
#ifndef XSKF_STEER_BPF_H
#define XSKF_STEER_BPF_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "xskf_steer.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} steer_gen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct xskf_steer_cfg);
} steer_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 2 * XSKF_STEER_BMS_GEN);
	__type(key, __u32);
	__type(value, struct xskf_steer_bm);
} steer_bms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, XSKF_STEER_PCLS_SIZE);
	__type(key, __u32);
	__type(value, __u32);
} steer_pcls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2 * 2 * XSKF_STEER_MAX_RULES);
	__type(key, struct xskf_steer_hkey);
	__type(value, struct xskf_steer_bm);
} steer_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 2 * 2 * (XSKF_STEER_MAX_RULES + 1));
	__type(key, struct xskf_steer_lpm4);
	__type(value, struct xskf_steer_bm);
} steer_src4 SEC(".maps"), steer_dst4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 2 * 2 * (XSKF_STEER_MAX_RULES + 1));
	__type(key, struct xskf_steer_lpm6);
	__type(value, struct xskf_steer_bm);
} steer_src6 SEC(".maps"), steer_dst6 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * XSKF_STEER_ACTS_GEN);
	__type(key, __u32);
	__type(value, struct xskf_steer_act);
} steer_act SEC(".maps");

/* hits per rule slot (0 .. MAX_RULES - 1) and per queue default (MAX_RULES + queue) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XSKF_STEER_ACTS_GEN);
	__type(key, __u32);
	__type(value, __u64);
} steer_hits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XSKF_STEER_MAX_QUEUES);
	__type(key, __u32);
	__type(value, struct xskf_steer_qstats);
} steer_qstats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, XSKF_STEER_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} steer_cpus SEC(".maps");

/* What the classifier reads of a frame. */
struct steer_flow {
	__u32 etype, vlan, proto, sport, dport;
	__u32 fam; /* 4, 6, or 0 (not IP) */
	__u32 src[4], dst[4];
};

struct steer_vlan_tag {
	__be16 tci;
	__be16 proto;
};

static __always_inline void steer_parse(struct xdp_md *ctx, struct steer_flow *f)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u8 *l4 = NULL;
	void *l3;
	__be16 proto;

	f->etype = 0xffffffff;
	f->vlan = 0xffffffff;
	f->proto = XSKF_STEER_PROTO_NONE;
	f->sport = f->dport = XSKF_STEER_PORT_NONE;
	f->fam = 0;
	if ((void *)(eth + 1) > end)
		return;
	proto = eth->h_proto;
	l3 = eth + 1;
	if (proto == bpf_htons(ETH_P_8021Q) || proto == bpf_htons(ETH_P_8021AD)) {
		struct steer_vlan_tag *v = l3;

		if ((void *)(v + 1) > end)
			return;
		f->vlan = bpf_ntohs(v->tci) & 0x0fff;
		proto = v->proto;
		l3 = v + 1;
	}
	f->etype = bpf_ntohs(proto);
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = l3;

		if ((void *)(ip + 1) > end || ip->ihl < 5)
			return;
		f->fam = 4;
		f->proto = ip->protocol;
		f->src[0] = ip->saddr;
		f->dst[0] = ip->daddr;
		/* a later fragment carries no ports */
		if (!(ip->frag_off & bpf_htons(0x1fff)))
			l4 = (__u8 *)l3 + ip->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = l3;

		if ((void *)(ip6 + 1) > end)
			return;
		f->fam = 6;
		f->proto = ip6->nexthdr;
		__builtin_memcpy(f->src, &ip6->saddr, 16);
		__builtin_memcpy(f->dst, &ip6->daddr, 16);
		l4 = (__u8 *)(ip6 + 1);
	} else {
		return;
	}
	if (l4 &&
	    (f->proto == IPPROTO_TCP || f->proto == IPPROTO_UDP || f->proto == IPPROTO_SCTP)) {
		if ((void *)(l4 + 4) > end)
			return;
		f->sport = (__u32)l4[0] << 8 | l4[1];
		f->dport = (__u32)l4[2] << 8 | l4[3];
	}
}

static __always_inline const struct xskf_steer_bm *steer_bm(__u32 idx)
{
	return bpf_map_lookup_elem(&steer_bms, &idx);
}

/* The bitmap of dimension @dim of hash kind, or the wildcard one when the value has none. */
static __always_inline const struct xskf_steer_bm *steer_hash_bm(__u32 gen, __u32 dim, __u32 val)
{
	struct xskf_steer_hkey k = {.gen = gen, .dim = dim, .val = val};
	const struct xskf_steer_bm *bm = bpf_map_lookup_elem(&steer_hash, &k);

	return bm ? bm : steer_bm(gen * XSKF_STEER_BMS_GEN + XSKF_STEER_BM_WILD + dim);
}

static __always_inline const struct xskf_steer_bm *
steer_addr_bm(__u32 gen, __u32 dim, const struct steer_flow *f, const __u32 *addr)
{
	const struct xskf_steer_bm *bm = NULL;

	if (f->fam == 4) {
		struct xskf_steer_lpm4 k = {.prefixlen = 64, .gen = gen};

		__builtin_memcpy(k.addr, addr, 4);
		bm = bpf_map_lookup_elem(
		    dim == XSKF_DIM_SRC ? (void *)&steer_src4 : (void *)&steer_dst4, &k);
	} else if (f->fam == 6) {
		struct xskf_steer_lpm6 k = {.prefixlen = 160, .gen = gen};

		__builtin_memcpy(k.addr, addr, 16);
		bm = bpf_map_lookup_elem(
		    dim == XSKF_DIM_SRC ? (void *)&steer_src6 : (void *)&steer_dst6, &k);
	}
	return bm ? bm : steer_bm(gen * XSKF_STEER_BMS_GEN + XSKF_STEER_BM_WILD + dim);
}

static __always_inline const struct xskf_steer_bm *steer_port_bm(__u32 gen, __u32 sel, __u32 port)
{
	__u32 k = (gen * 2 + sel) * XSKF_STEER_PORT_KEYS + port;
	__u32 *cls = bpf_map_lookup_elem(&steer_pcls, &k);

	if (!cls || *cls >= XSKF_STEER_PORT_CLASSES)
		return NULL;
	return steer_bm(gen * XSKF_STEER_BMS_GEN +
			(sel ? XSKF_STEER_BM_DPORT : XSKF_STEER_BM_SPORT) + *cls);
}

/*
 * Index of the lowest bit set in @w (non-zero): the bits below it, counted without a branch
 * (BPF has no ctz instruction, and branches in the word loop multiply the verifier's states).
 */
static __always_inline __u32 steer_ctz(__u64 w)
{
	__u64 x = (w & -w) - 1;

	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (__u32)((x * 0x0101010101010101ULL) >> 56);
}

static __always_inline __u32 steer_flow_hash(const struct steer_flow *f)
{
	__u32 h = 0;

	if (f->fam == 4)
		h = f->src[0] ^ f->dst[0];
	else if (f->fam == 6)
		h = f->src[0] ^ f->dst[0] ^ f->src[1] ^ f->dst[1] ^ f->src[2] ^ f->dst[2] ^
		    f->src[3] ^ f->dst[3];

	h ^= (f->sport << 16 | (f->dport & 0xffff)) + f->proto;
	h *= 0x9e3779b1u;
	return h ^ (h >> 16);
}

/* Returned by xskf_steer_classify(): the kind in bits 0-7, the cpumap CPU above. */
#define STEER_VERDICT(kind, cpu) ((kind) | (cpu) << 8)

/*
 * Which rule matches this frame first, counted in its hit counter; its action and, for
 * CPUMAP, the CPU of the set its flow hash picks. Inlined: as a bpf-to-bpf call the empty
 * table cost 1 ns more per frame (12 against 11 ns, BPF_PROG_RUN), and every variant of the
 * program verifies either way.
 */
static __always_inline int xskf_steer_classify(struct xdp_md *ctx)
{
	const struct xskf_steer_bm *q, *e, *v, *s, *d, *p, *sp, *dp, *all;
	__u32 zero = 0, queue = ctx->rx_queue_index, gen, dims, nw, pos, i, k;
	__u64 cand, w;
	const struct xskf_steer_act *act;
	const struct xskf_steer_cfg *cfg;
	struct steer_flow f;
	bool parsed = false;
	__u64 *hits;
	__u32 *g;

	if (queue >= XSKF_STEER_MAX_QUEUES)
		return STEER_VERDICT(XSKF_STEER_ACT_XSK, 0);
	g = bpf_map_lookup_elem(&steer_gen, &zero);
	if (!g)
		return STEER_VERDICT(XSKF_STEER_ACT_XSK, 0);
	gen = *g & 1;
	cfg = bpf_map_lookup_elem(&steer_cfg, &gen);
	if (!cfg)
		return STEER_VERDICT(XSKF_STEER_ACT_XSK, 0);
	pos = XSKF_STEER_MAX_RULES + queue; /* the queue's default */
	nw = cfg->nr_rules ? cfg->nwords : 0;
	if (!nw)
		goto found;
	dims = cfg->dims;
	q = steer_bm(gen * XSKF_STEER_BMS_GEN + XSKF_STEER_BM_QUEUE + queue);
	/* every rule: the bitmap of a dimension no rule constrains (no branch in the loop) */
	all = steer_bm(gen * XSKF_STEER_BMS_GEN + XSKF_STEER_BM_ALL);
	if (!q || !all)
		goto found;
	steer_parse(ctx, &f);
	parsed = true;
	e = v = s = d = p = sp = dp = all;
	if (dims & (1u << XSKF_DIM_ETYPE) && !(e = steer_hash_bm(gen, XSKF_DIM_ETYPE, f.etype)))
		goto found;
	if (dims & (1u << XSKF_DIM_VLAN) && !(v = steer_hash_bm(gen, XSKF_DIM_VLAN, f.vlan)))
		goto found;
	if (dims & (1u << XSKF_DIM_SRC) && !(s = steer_addr_bm(gen, XSKF_DIM_SRC, &f, f.src)))
		goto found;
	if (dims & (1u << XSKF_DIM_DST) && !(d = steer_addr_bm(gen, XSKF_DIM_DST, &f, f.dst)))
		goto found;
	if (dims & (1u << XSKF_DIM_PROTO)) {
		k = gen * XSKF_STEER_BMS_GEN + XSKF_STEER_BM_PROTO +
		    (f.proto < XSKF_STEER_PROTO_KEYS ? f.proto : XSKF_STEER_PROTO_NONE);
		if (!(p = steer_bm(k)))
			goto found;
	}
	if (dims & (1u << XSKF_DIM_SPORT) && !(sp = steer_port_bm(gen, 0, f.sport)))
		goto found;
	if (dims & (1u << XSKF_DIM_DPORT) && !(dp = steer_port_bm(gen, 1, f.dport)))
		goto found;
	/*
	 * The first rule every dimension allows. The summaries say which words can hold one:
	 * for a frame that matches nothing, or a rule among many exact ones, one or two words
	 * are read whatever the number of rules.
	 */
	cand = q->sum & e->sum & v->sum & s->sum & d->sum & p->sum & sp->sum & dp->sum;
	w = 0;
	i = 0;
	for (k = 0; k < XSKF_STEER_WORDS && cand && !w; k++) {
		i = steer_ctz(cand) & (XSKF_STEER_WORDS - 1);
		cand &= cand - 1;
		w = q->w[i] & e->w[i] & v->w[i] & s->w[i] & d->w[i] & p->w[i] & sp->w[i] & dp->w[i];
	}
	if (w)
		pos = i * 64 + steer_ctz(w);
found:
	k = gen * XSKF_STEER_ACTS_GEN + pos;
	act = bpf_map_lookup_elem(&steer_act, &k);
	if (!act)
		return STEER_VERDICT(XSKF_STEER_ACT_XSK, 0);
	k = act->slot;
	hits = bpf_map_lookup_elem(&steer_hits, &k);
	if (hits)
		(*hits)++;
	if (act->kind == XSKF_STEER_ACT_CPUMAP) {
		__u32 n = act->nr_cpus, cpu;

		if (!n || n > XSKF_STEER_MAX_CPUS)
			return STEER_VERDICT(XSKF_STEER_ACT_PASS, 0);
		if (!parsed)
			steer_parse(ctx, &f); /* a default taken before the frame was read */
		cpu = act->cpus[(steer_flow_hash(&f) % n) & (XSKF_STEER_MAX_CPUS - 1)];
		return STEER_VERDICT(XSKF_STEER_ACT_CPUMAP, cpu);
	}
	return STEER_VERDICT(act->kind, 0);
}

/* Count a frame's outcome in its queue's steer_qstats. */
static __always_inline void xskf_steer_count(__u32 queue, __u32 kind)
{
	struct xskf_steer_qstats *st = bpf_map_lookup_elem(&steer_qstats, &queue);

	if (!st)
		return;
	st->seen++;
	if (kind == XSKF_STEER_ACT_XSK)
		st->xsk++;
	else if (kind == XSKF_STEER_ACT_CPUMAP)
		st->cpumap++;
	else if (kind == XSKF_STEER_ACT_DROP)
		st->drop++;
	else
		st->pass++;
}

#endif /* XSKF_STEER_BPF_H */
