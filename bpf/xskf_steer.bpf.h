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
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xskf_steer_acts);
} steer_acts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xskf_steer_bms);
} steer_bms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xskf_steer_pcls);
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
	__type(value, struct xskf_steer_cpuset);
} steer_cpuset SEC(".maps");

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

/* What the classifier reads of a frame; the addresses are read where they are, if asked. */
struct steer_flow {
	__u32 etype, vlan, proto, sport, dport;
	__u32 fam;	     /* 4, 6, or 0 (not IP) */
	const __u32 *src, *dst; /* in the frame: 1 (fam 4) or 4 (fam 6) words */
};

struct steer_vlan_tag {
	__be16 tci;
	__be16 proto;
};

/* Does L4 protocol @proto carry ports the rules match (in a first fragment)? */
static __always_inline bool steer_has_ports(__u32 proto)
{
	return proto == IPPROTO_UDP || proto == IPPROTO_TCP || proto == IPPROTO_SCTP;
}

/* Where an untagged IPv4 frame without options has its ports' end. */
#define STEER_V4_END (sizeof(struct ethhdr) + sizeof(struct iphdr) + 4)

/*
 * The common frame, untagged IPv4 without options: its protocol and ports (NONE when it has
 * none), every field at a fixed offset and read at once (no load waits for the header
 * length), one bounds check, and nothing else kept. False for any other frame: steer_parse()
 * reads it.
 */
static __always_inline bool steer_parse_v4(struct xdp_md *ctx, __u32 *proto, __u32 *sport,
					   __u32 *dport)
{
	__u8 *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = (void *)(data + sizeof(struct ethhdr));
	__be16 *ports = (void *)(ip + 1);

	if (data + STEER_V4_END > end || *(__be16 *)(data + 12) != bpf_htons(ETH_P_IP) ||
	    *(__u8 *)ip != 0x45)
		return false;
	*proto = ip->protocol;
	*sport = *dport = XSKF_STEER_PORT_NONE;
	if (!(ip->frag_off & bpf_htons(0x1fff)) && steer_has_ports(*proto)) {
		*sport = bpf_ntohs(ports[0]);
		*dport = bpf_ntohs(ports[1]);
	}
	return true;
}

/* Any frame: every field a rule can ask for. */
static __always_inline void steer_parse(struct xdp_md *ctx, struct steer_flow *f)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u8 *l4 = NULL;
	void *l3;
	__be16 proto;

	f->vlan = 0xffffffff;
	f->sport = f->dport = XSKF_STEER_PORT_NONE;
	f->etype = 0xffffffff;
	f->proto = XSKF_STEER_PROTO_NONE;
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
		f->src = &ip->saddr;
		f->dst = &ip->daddr;
		/* a later fragment carries no ports */
		if (!(ip->frag_off & bpf_htons(0x1fff)))
			l4 = (__u8 *)l3 + ip->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = l3;

		if ((void *)(ip6 + 1) > end)
			return;
		f->fam = 6;
		f->proto = ip6->nexthdr;
		f->src = (const __u32 *)&ip6->saddr;
		f->dst = (const __u32 *)&ip6->daddr;
		l4 = (__u8 *)(ip6 + 1);
	} else {
		return;
	}
	if (l4 && steer_has_ports(f->proto)) {
		if ((void *)(l4 + 4) > end)
			return;
		f->sport = bpf_ntohs(*(__be16 *)l4);
		f->dport = bpf_ntohs(*(__be16 *)(l4 + 2));
	}
}

/* The bitmaps of one generation, and its port classes. */
struct steer_tab {
	const struct xskf_steer_bm *bm; /* steer_bms at the generation's first bitmap */
	const __u32 *pcls;		/* steer_pcls at the generation's first port */
	__u32 gen;
};

/* The bitmap of dimension @dim of hash kind, or the wildcard one when the value has none. */
static __always_inline const struct xskf_steer_bm *steer_hash_bm(const struct steer_tab *t,
								 __u32 dim, __u32 val)
{
	struct xskf_steer_hkey k = {.gen = t->gen, .dim = dim, .val = val};
	const struct xskf_steer_bm *bm = bpf_map_lookup_elem(&steer_hash, &k);

	return bm ? bm : &t->bm[XSKF_STEER_BM_WILD + dim];
}

/*
 * The bitmap of an address dimension (LPM tries), or the wildcard one. The two families'
 * lookups keep their own call (their results are kept apart): merged into one call, the map
 * is not known where it is made, and the verifier cannot call the trie's lookup directly
 * (an indirect call through the map's operations, a few ns more).
 */
static __always_inline const struct xskf_steer_bm *
steer_addr_bm(const struct steer_tab *t, __u32 dim, const struct steer_flow *f, const __u32 *addr)
{
	const struct xskf_steer_bm *b4 = NULL, *b6 = NULL;

	if (f->fam == 4) {
		struct xskf_steer_lpm4 k = {.prefixlen = 64, .gen = t->gen};

		__builtin_memcpy(k.addr, addr, 4);
		b4 = bpf_map_lookup_elem(
		    dim == XSKF_DIM_SRC ? (void *)&steer_src4 : (void *)&steer_dst4, &k);
	} else if (f->fam == 6) {
		struct xskf_steer_lpm6 k = {.prefixlen = 160, .gen = t->gen};

		__builtin_memcpy(k.addr, addr, 16);
		b6 = bpf_map_lookup_elem(
		    dim == XSKF_DIM_SRC ? (void *)&steer_src6 : (void *)&steer_dst6, &k);
	}
	return b4 ? b4 : b6 ? b6 : &t->bm[XSKF_STEER_BM_WILD + dim];
}

/*
 * The bitmap of the class of a port entry (sel 0: source, 1: destination); NULL if out of
 * range (a table being written wrong: the frame takes its default).
 */
static __always_inline const struct xskf_steer_bm *steer_port_bm(const struct steer_tab *t,
								 __u32 sel, __u32 ent)
{
	__u32 cls = ent & 0xffff;

	if (cls >= XSKF_STEER_PORT_CLASSES)
		return NULL;
	return &t->bm[(sel ? XSKF_STEER_BM_DPORT : XSKF_STEER_BM_SPORT) + cls];
}

/*
 * The first rule that the eight bitmaps all allow among the candidate words @cand (the sums
 * ANDed), as an act index (bpf/xskf_steer.h: where a bit is kept), or @none. The first
 * candidate word decides nearly always (a word whose summary bit is set in every dimension
 * but whose AND is empty takes the loop): for a frame that matches nothing, or a rule among
 * many exact ones, one word is read whatever the number of rules. A bitmap passed twice is
 * read once (the compiler merges the loads).
 */
static __always_inline __u32 steer_first(__u64 cand, __u32 none, const struct xskf_steer_bm *q,
					 const struct xskf_steer_bm *p,
					 const struct xskf_steer_bm *sp,
					 const struct xskf_steer_bm *dp,
					 const struct xskf_steer_bm *e,
					 const struct xskf_steer_bm *v,
					 const struct xskf_steer_bm *s,
					 const struct xskf_steer_bm *d)
{
	__u32 i = xskf_steer_word_at(cand), k;
	__u64 w, bit;

	w = (q->w[i] & p->w[i]) & (sp->w[i] & dp->w[i]) & (e->w[i] & v->w[i]) & (s->w[i] & d->w[i]);
	cand &= cand - 1;
	for (k = 1; k < XSKF_STEER_WORDS && cand && !w; k++) {
		i = xskf_steer_word_at(cand);
		cand &= cand - 1;
		w = q->w[i] & p->w[i] & sp->w[i] & dp->w[i] & e->w[i] & v->w[i] & s->w[i] & d->w[i];
	}
	if (!w)
		return none;
	/*
	 * Added, not ORed: knowing the bit below 64, the compiler makes i * 64 + bit an OR, and
	 * a verifier before 6.x's OR tracking (6.1) takes an OR of two unknowns as unbounded,
	 * then refuses the act index ("R2 unbounded memory access" at steer_hits' key).
	 */
	bit = xskf_steer_bit_at(w);
	barrier_var(bit);
	return i * 64 + bit;
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

/* The dimensions a map lookup (a call) reads: a table without them takes the short way. */
#define STEER_DIMS_LOOKUP                                                                       \
	((1u << XSKF_DIM_ETYPE) | (1u << XSKF_DIM_VLAN) | (1u << XSKF_DIM_SRC) |                 \
	 (1u << XSKF_DIM_DST))

/*
 * The first rule among the candidates @cand that the lookup fields (ethertype, VLAN, source
 * and destination addresses: a hash or LPM lookup each, only where a rule of @dims uses the
 * field) allow too, with the arrays' bitmaps @q, @p, @sp, @dp; @none when none is left. Only
 * for a frame the arrays left candidates for (a frame the ports rule out pays neither this nor
 * a lookup). A frame the short reader could not take was read whole before and is read again
 * here into @f; reading whole at once for every table with a lookup field made the frames it
 * rules out 5 ns dearer.
 */
static __always_inline __u32 steer_lookup_first(struct xdp_md *ctx, const struct steer_tab *t,
						__u32 dims, __u64 cand, __u32 none,
						const struct xskf_steer_bm *q,
						const struct xskf_steer_bm *p,
						const struct xskf_steer_bm *sp,
						const struct xskf_steer_bm *dp, struct steer_flow *f)
{
	const struct xskf_steer_bm *e, *v, *s, *d;

	steer_parse(ctx, f);
	e = &t->bm[XSKF_STEER_BM_WILD + XSKF_DIM_ETYPE];
	v = &t->bm[XSKF_STEER_BM_WILD + XSKF_DIM_VLAN];
	s = &t->bm[XSKF_STEER_BM_WILD + XSKF_DIM_SRC];
	d = &t->bm[XSKF_STEER_BM_WILD + XSKF_DIM_DST];
	if (dims & (1u << XSKF_DIM_ETYPE) &&
	    !(cand &= (e = steer_hash_bm(t, XSKF_DIM_ETYPE, f->etype))->sum))
		return none;
	if (dims & (1u << XSKF_DIM_VLAN) &&
	    !(cand &= (v = steer_hash_bm(t, XSKF_DIM_VLAN, f->vlan))->sum))
		return none;
	if (dims & (1u << XSKF_DIM_SRC) &&
	    !(cand &= (s = steer_addr_bm(t, XSKF_DIM_SRC, f, f->src))->sum))
		return none;
	if (dims & (1u << XSKF_DIM_DST) &&
	    !(cand &= (d = steer_addr_bm(t, XSKF_DIM_DST, f, f->dst))->sum))
		return none;
	return steer_first(cand, none, q, p, sp, dp, e, v, s, d);
}

/*
 * The verdict of act index @at of generation @gen, counted in its hit counter: its action
 * and, for CPUMAP, the CPU of the set the frame's flow hash picks (the flow read into @f).
 */
static __always_inline int steer_verdict(struct xdp_md *ctx, struct xskf_steer_acts *acts,
					 __u32 gen, __u32 at, struct steer_flow *f)
{
	__u32 k, kind;
	__u64 *hits;

	/* the counter's key is read where it is kept: no copy through the stack */
	k = gen * XSKF_STEER_ACTS_GEN + at;
	hits = bpf_map_lookup_elem(&steer_hits, &acts->slot[k]);
	if (hits)
		(*hits)++;
	kind = acts->kind[k];
	if (kind == XSKF_STEER_ACT_CPUMAP) {
		const struct xskf_steer_cpuset *cs = bpf_map_lookup_elem(&steer_cpuset, &k);
		__u32 n, cpu;

		if (!cs || !cs->nr || cs->nr > XSKF_STEER_MAX_CPUS)
			return STEER_VERDICT(XSKF_STEER_ACT_PASS, 0);
		n = cs->nr;
		steer_parse(ctx, f); /* the flow: read again (each way here read less of it) */
		cpu = steer_flow_hash(f) % n;
		/* the verifier's bound: the compiler drops the mask as n <= 64 proves it */
		asm volatile("" : "+r"(cpu));
		cpu = cs->cpus[cpu & (XSKF_STEER_MAX_CPUS - 1)];
		return STEER_VERDICT(XSKF_STEER_ACT_CPUMAP, cpu);
	}
	return STEER_VERDICT(kind, 0);
}

/*
 * Which rule matches this frame first in generation @gen (read once per frame by the caller,
 * from steer_gen, which also says whether the table is on), counted in its hit counter; its
 * action and, for CPUMAP, the CPU of the set its flow hash picks. Inlined: as a bpf-to-bpf
 * call the empty table cost 1 ns more per frame (12 against 11 ns, BPF_PROG_RUN), and every
 * variant of the program verifies either way.
 */
static __always_inline int xskf_steer_classify(struct xdp_md *ctx, __u32 gen)
{
	const struct xskf_steer_bm *q, *p, *sp, *dp;
	__u32 zero = 0, queue = ctx->rx_queue_index, dims, at, proto, pe_s, pe_d;
	const struct xskf_steer_cfg *cfg;
	struct xskf_steer_acts *acts;
	struct xskf_steer_pcls *pcls;
	struct xskf_steer_bms *bms;
	struct steer_tab t;
	struct steer_flow f;
	__u64 cand, ix_s, ix_d;

	if (queue >= XSKF_STEER_MAX_QUEUES)
		return STEER_VERDICT(XSKF_STEER_ACT_XSK, 0);
	acts = bpf_map_lookup_elem(&steer_acts, &zero);
	if (!acts)
		return STEER_VERDICT(XSKF_STEER_ACT_XSK, 0);
	cfg = &acts->cfg[gen];
	at = XSKF_STEER_MAX_RULES + queue; /* the queue's default */
	if (!cfg->nr_rules)
		goto found;
	dims = cfg->dims;
	bms = bpf_map_lookup_elem(&steer_bms, &zero);
	pcls = bpf_map_lookup_elem(&steer_pcls, &zero);
	if (!bms || !pcls)
		goto found;
	t.gen = gen;
	t.bm = &bms->bm[gen * XSKF_STEER_BMS_GEN];
	t.pcls = &pcls->cls[gen * 2 * XSKF_STEER_PORT_KEYS];
	q = &t.bm[XSKF_STEER_BM_QUEUE + queue];
	/*
	 * The candidates: the summary words ANDed, the arrays' dimensions first (a port's sum
	 * is in its entry), then the hash and the LPM tries, each only if a rule uses its
	 * field; the frame takes the default as soon as none is left. The arrays are read
	 * whether a rule uses them or not (the table writer fills them then with every rule;
	 * a port no rule uses is read as port 0, one cache line): without a branch, the paths
	 * to the word loop stay few enough for the verifier. An unused hash or LPM field's
	 * bitmap is its wildcard, every rule.
	 */
	cand = q->sum;
	if (!cand)
		goto found; /* no rule for this queue: the frame is not even read */
	if (!steer_parse_v4(ctx, &proto, &pe_s, &pe_d)) {
		steer_parse(ctx, &f);
		proto = f.proto;
		pe_s = f.sport;
		pe_d = f.dport;
	}
	p = &t.bm[XSKF_STEER_BM_PROTO +
		  (proto < XSKF_STEER_PROTO_KEYS ? proto : XSKF_STEER_PROTO_NONE)];
	if (!(dims & (1u << XSKF_DIM_SPORT)))
		pe_s = 0;
	if (!(dims & (1u << XSKF_DIM_DPORT)))
		pe_d = 0;
	/*
	 * The bound the verifier needs, kept: a port is bpf_ntohs()'s, and the compiler knows
	 * it below PORT_KEYS and drops the compare, while a verifier that does not track a
	 * byte swap's range refuses the index (6.1 and 6.12: "math between map_value pointer
	 * and register with unbounded min value"; 6.18 and 7.3 accept it). Hidden from the
	 * compiler, the compare stays, on the 64-bit register the index is made of.
	 */
	ix_s = pe_s;
	ix_d = pe_d;
	barrier_var(ix_s);
	barrier_var(ix_d);
	if (ix_s >= XSKF_STEER_PORT_KEYS || ix_d >= XSKF_STEER_PORT_KEYS)
		goto found;
	pe_s = t.pcls[ix_s];
	pe_d = t.pcls[XSKF_STEER_PORT_KEYS + ix_d];
	cand &= p->sum & (pe_s >> 16) & (pe_d >> 16);
	sp = steer_port_bm(&t, 0, pe_s);
	dp = steer_port_bm(&t, 1, pe_d);
	if (!cand || !sp || !dp)
		goto found;
	if (!(dims & STEER_DIMS_LOOKUP)) {
		at = steer_first(cand, at, q, p, sp, dp, q, p, sp, dp);
		goto found;
	}
	/* the fields a lookup reads: only for a frame the arrays left candidates for */
	at = steer_lookup_first(ctx, &t, dims, cand, at, q, p, sp, dp, &f);
found:
	return steer_verdict(ctx, acts, gen, at, &f);
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
