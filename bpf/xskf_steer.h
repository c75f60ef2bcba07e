/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Steering: the layout of the rule table shared by the XDP program (xskf_steer.bpf.h) and the
 * framework (framework/backend/xdp/steer/steer.c). docs/steering.md tells the design; in short:
 *
 * A frame is classified per field ("dimension"): each dimension's lookup (an array, a hash
 * or an LPM trie, by the field's kind) gives a bitmap of the rules that field allows, with a
 * bit per rule in matching order. The first bit set in the AND of the bitmaps is the rule that
 * matches first. The cost is a lookup per dimension some rule uses and one AND per 64 rules
 * until a match: no loop over the rules.
 *
 * Everything a frame reads is kept twice (generation 0 and 1). The framework writes the
 * generation not in use, then flips steer_gen with one map write: a frame reads the
 * generation once, so it sees the old table or the new one, whole.
 *
 * Where a bit is kept: BPF has no count-trailing-zeros instruction, and finding the lowest
 * set bit's index costs a multiply and a table load, twice per matching frame (the word, then
 * the rule in it). The table load is saved by keeping things where the multiply alone points:
 * the bitmap word of logical word i (rules 64i..64i+63) is stored at xskf_steer_word_at(1 << i),
 * and the rule at position 64i + b has its action at act index
 * 64 * xskf_steer_word_at(1 << i) + xskf_steer_bit_at(1 << b). Both are de Bruijn indices:
 * distinct for each bit, so the matching order (lowest word, then lowest bit) is unchanged.
 */
#ifndef XSKF_STEER_H
#define XSKF_STEER_H

#include <linux/types.h>

#define XSKF_STEER_MAX_RULES  1024
#define XSKF_STEER_WORDS      (XSKF_STEER_MAX_RULES / 64)
#define XSKF_STEER_MAX_QUEUES 256   /* = XSKF_PROG_MAX_QUEUES */
#define XSKF_STEER_MAX_CPUS   64    /* cpumap entries: CPUs 0..63 */
#define XSKF_STEER_PORT_NONE  65536 /* a frame with no L4 ports (not TCP/UDP/SCTP, a fragment) */
#define XSKF_STEER_PORT_KEYS  65537
#define XSKF_STEER_PROTO_NONE 256 /* not IP */
#define XSKF_STEER_PROTO_KEYS 257
/* elementary port intervals: at most two boundaries per rule, and the no-port class */
#define XSKF_STEER_PORT_CLASSES (2 * XSKF_STEER_MAX_RULES + 2)

#define XSKF_STEER_DB_WORD 0x09afULL		 /* de Bruijn B(2, 4): 16 words */
#define XSKF_STEER_DB_BIT  0x03f79d71b4cb0a89ULL /* de Bruijn B(2, 6): 64 bits */

/* The stored index of the word of the lowest bit set in @sum (a bit per logical word). */
static inline __attribute__((always_inline)) __u32 xskf_steer_word_at(__u64 sum)
{
	return (__u32)(((sum & -sum) * XSKF_STEER_DB_WORD) >> 12) & (XSKF_STEER_WORDS - 1);
}
_Static_assert(XSKF_STEER_WORDS == 16, "XSKF_STEER_DB_WORD indexes 16 words");

/* The act index offset, within its word's 64, of the lowest bit set in @w. */
static inline __attribute__((always_inline)) __u32 xskf_steer_bit_at(__u64 w)
{
	return (__u32)(((w & -w) * XSKF_STEER_DB_BIT) >> 58);
}

/* The act index of the rule at position @pos in matching order. */
static inline __u32 xskf_steer_act_at(__u32 pos)
{
	return 64 * xskf_steer_word_at(1ULL << (pos / 64)) + xskf_steer_bit_at(1ULL << (pos % 64));
}

enum xskf_steer_act_kind {
	XSKF_STEER_ACT_XSK = 0, /* a zeroed table sends every frame to its socket: the default */
	XSKF_STEER_ACT_PASS = 1,
	XSKF_STEER_ACT_CPUMAP = 2,
	XSKF_STEER_ACT_DROP = 3,
};

/* The dimensions, in the order the program reads them. */
enum xskf_steer_dim {
	XSKF_DIM_QUEUE = 0, /* always read: the queue's own rules (array) */
	XSKF_DIM_ETYPE,	    /* EtherType after one optional VLAN tag (hash) */
	XSKF_DIM_VLAN,	    /* VLAN id (hash) */
	XSKF_DIM_SRC,	    /* IPv4/IPv6 source prefix (LPM tries) */
	XSKF_DIM_DST,	    /* destination prefix (LPM tries) */
	XSKF_DIM_PROTO,	    /* L4 protocol (array) */
	XSKF_DIM_SPORT,	    /* source port, exact or range (array of classes) */
	XSKF_DIM_DPORT,	    /* destination port */
	XSKF_NR_DIMS,
};

/*
 * A set of rules: bit (i % 64) of the word of logical word i / 64 (stored at
 * xskf_steer_word_at(1 << i / 64)) for the rule at position i; bit k of sum when logical word
 * k is not 0.
 */
struct xskf_steer_bm {
	__u64 sum;
	__u64 w[XSKF_STEER_WORDS];
};

/*
 * Map steer_bms: one element (mmapped by the framework) holding every bitmap, per generation g
 * at g * XSKF_STEER_BMS_GEN: the queues', the protocols', one wildcard per dimension (the rules
 * that do not constrain it: for frames the lookup has no entry for), the source and
 * destination port classes. One element: the program looks it up once per frame and reaches
 * each bitmap by an offset.
 */
#define XSKF_STEER_BM_QUEUE 0
#define XSKF_STEER_BM_PROTO (XSKF_STEER_BM_QUEUE + XSKF_STEER_MAX_QUEUES)
#define XSKF_STEER_BM_WILD  (XSKF_STEER_BM_PROTO + XSKF_STEER_PROTO_KEYS)
#define XSKF_STEER_BM_SPORT (XSKF_STEER_BM_WILD + XSKF_NR_DIMS)
#define XSKF_STEER_BM_DPORT (XSKF_STEER_BM_SPORT + XSKF_STEER_PORT_CLASSES)
#define XSKF_STEER_BMS_GEN  (XSKF_STEER_BM_DPORT + XSKF_STEER_PORT_CLASSES)
struct xskf_steer_bms {
	struct xskf_steer_bm bm[2 * XSKF_STEER_BMS_GEN];
};

/*
 * Map steer_pcls: one element, port -> its class and the class bitmap's sum, at
 * (g * 2 + (sport ? 0 : 1)) * KEYS + port: the class in the low 16 bits, the sum above (the
 * program ANDs the sums before it reads a bitmap: one load less on a frame's way). 1 MiB.
 */
#define XSKF_STEER_PCLS_SIZE (4 * XSKF_STEER_PORT_KEYS)
#define XSKF_STEER_PCLS(cls, sum) ((__u32)(cls) | (__u32)(sum) << 16)
struct xskf_steer_pcls {
	__u32 cls[XSKF_STEER_PCLS_SIZE];
};

/*
 * Map steer_gen, one __u32: the generation frames read (bit 0), and XSKF_STEER_GEN_LIVE while
 * the table steers at all (a rule, or a queue default other than xsk). Without that bit the
 * program classifies nothing and counts nothing of steering (steer_hits, steer_qstats): every
 * frame goes to its queue's socket at the cost of the program before steering (a feature that
 * is off costs nothing, docs/performance.md); the program's own counters still count it.
 */
#define XSKF_STEER_GEN_LIVE 2u

struct xskf_steer_cfg {
	__u32 nr_rules; /* 0: every frame takes its queue's default */
	__u32 dims;	/* 1 << enum xskf_steer_dim: the dimensions some rule constrains */
};

/*
 * Map steer_acts: one element (mmapped by the framework), per generation its configuration
 * and what a frame does at each act index (g * XSKF_STEER_ACTS_GEN + index: the rules' at
 * xskf_steer_act_at(position), the queues' defaults after them, at XSKF_STEER_MAX_RULES +
 * queue). The slot is the rule's counter in steer_hits, stable while the rule lives: the
 * program passes its address as the counter's key.
 */
#define XSKF_STEER_ACTS_GEN (XSKF_STEER_MAX_RULES + XSKF_STEER_MAX_QUEUES)
struct xskf_steer_acts {
	struct xskf_steer_cfg cfg[2];
	__u32 slot[2 * XSKF_STEER_ACTS_GEN];
	__u8 kind[2 * XSKF_STEER_ACTS_GEN]; /* enum xskf_steer_act_kind */
};

/* Map steer_cpuset, at the same index: a CPUMAP action's CPUs, spread by flow hash. */
struct xskf_steer_cpuset {
	__u16 nr;
	__u16 cpus[XSKF_STEER_MAX_CPUS];
};

/* Hash dimensions (EtherType, VLAN): the generation and the value. */
struct xskf_steer_hkey {
	__u32 gen;
	__u32 dim;
	__u32 val;
};

/* LPM keys: the generation is the first 32 bits of the key, so 32 + prefix length. */
struct xskf_steer_lpm4 {
	__u32 prefixlen;
	__u32 gen;
	__u8 addr[4];
};
struct xskf_steer_lpm6 {
	__u32 prefixlen;
	__u32 gen;
	__u8 addr[16];
};

/* Per queue, per CPU: every frame the program saw, and where it went. */
struct xskf_steer_qstats {
	__u64 seen;
	__u64 xsk;    /* redirected to the queue's socket */
	__u64 pass;   /* to the stack on this CPU (also XSK without a socket bound) */
	__u64 cpumap; /* redirected to a cpumap CPU */
	__u64 drop;
};

#endif /* XSKF_STEER_H */
