/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Steering: the layout of the rule table shared by the XDP program (xskf_steer.bpf.h) and the
 * framework (framework/core/steer.c). docs/steering.md tells the design; in short:
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

/* A set of rules: bit i of w[i / 64] for the rule at position i; bit k of sum when w[k] != 0 */
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
#define XSKF_STEER_BM_ALL   (XSKF_STEER_BM_WILD + XSKF_DIM_QUEUE)
#define XSKF_STEER_BM_SPORT (XSKF_STEER_BM_WILD + XSKF_NR_DIMS)
#define XSKF_STEER_BM_DPORT (XSKF_STEER_BM_SPORT + XSKF_STEER_PORT_CLASSES)
#define XSKF_STEER_BMS_GEN  (XSKF_STEER_BM_DPORT + XSKF_STEER_PORT_CLASSES)
struct xskf_steer_bms {
	struct xskf_steer_bm bm[2 * XSKF_STEER_BMS_GEN];
};

/*
 * Map steer_pcls: one element, port -> class, at (g * 2 + (sport ? 0 : 1)) * KEYS + port.
 * 16 bits a port (classes < XSKF_STEER_PORT_CLASSES): 512 KiB, a quarter of what 64-bit
 * array elements took, for the cache lines random ports touch.
 */
#define XSKF_STEER_PCLS_SIZE (4 * XSKF_STEER_PORT_KEYS)
struct xskf_steer_pcls {
	__u16 cls[XSKF_STEER_PCLS_SIZE];
};

struct xskf_steer_cfg {
	__u32 nr_rules; /* 0: every frame takes its queue's default */
	__u32 nwords;	/* bitmap words in use: (nr_rules + 63) / 64 */
	__u32 dims;	/* 1 << enum xskf_steer_dim: the dimensions some rule constrains */
	__u32 pad;
};

/* What a matching rule does (map steer_act: g * XSKF_STEER_ACTS_GEN + position in order;
 * the queues' defaults follow the rules, at XSKF_STEER_MAX_RULES + queue). */
#define XSKF_STEER_ACTS_GEN (XSKF_STEER_MAX_RULES + XSKF_STEER_MAX_QUEUES)
struct xskf_steer_act {
	__u32 slot; /* the counter of steer_hits: stable while the rule lives */
	__u8 kind;  /* enum xskf_steer_act_kind */
	__u8 nr_cpus;
	__u16 pad;
	__u16 cpus[XSKF_STEER_MAX_CPUS]; /* CPUMAP: the set, spread by flow hash */
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
