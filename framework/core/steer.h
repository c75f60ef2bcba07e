/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Steering: the rule language (steer_parse.c) and the rule table of a port's XDP program
 * (steer.c). docs/steering.md is the user's guide; bpf/xskf_steer.h the table's layout.
 */
#ifndef XSKF_CORE_STEER_H
#define XSKF_CORE_STEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../bpf/xskf_steer.h" /* relative: core headers reach units that know no bpf/ */

struct xskf_engine;
struct xskf_port;

#define XSKF_STEER_TEXT 160 /* a rule's canonical text, with its NUL */

/* One parsed rule: each field constrained has its bit (1 << enum xskf_steer_dim) in @set. */
struct xskf_steer_rule {
	uint32_t set;
	uint32_t queue;
	uint32_t etype;
	uint32_t vlan;
	uint8_t src_fam, dst_fam; /* 4 or 6 when the prefix is set */
	uint8_t src_len, dst_len;
	uint8_t src[16], dst[16];
	uint32_t proto;
	uint32_t sport_lo, sport_hi, dport_lo, dport_hi;
	uint8_t action;	 /* enum xskf_steer_act_kind */
	bool is_default; /* "default ACTION": sets the default, matches nothing itself */
	uint64_t cpus;	 /* CPUMAP: the set, one bit per CPU (0..63) */
};

/*
 * xskf_steer__parse() - one rule of the language (docs/steering.md) into @r. Returns 0, or
 * -EINVAL with a one-line reason (naming the word at fault and what would do) in @err.
 * Pure: no system call, no global state (fuzzed: tests/fuzz/fuzz_steer.c). Thread: any.
 */
int xskf_steer__parse(const char *text, struct xskf_steer_rule *r, char *err, size_t err_len);

/*
 * xskf_steer__format() - the canonical text of @r (parsing it again gives the same rule).
 * Returns the length written (truncated to @len - 1 like snprintf). Thread: any.
 */
int xskf_steer__format(const struct xskf_steer_rule *r, char *buf, size_t len);

/* Do @a and @b match exactly the same frames (their actions aside)? */
bool xskf_steer__same_match(const struct xskf_steer_rule *a, const struct xskf_steer_rule *b);

/* ---- the table of a port (steer.c) ---- */

struct xskf_steer_entry {
	struct xskf_steer_rule r;
	unsigned int id; /* stable, shown by list, taken by del */
	uint32_t slot;	 /* its hit counter in steer_hits */
	bool keep_host;	 /* a --keep-host rule: after every other */
	char text[XSKF_STEER_TEXT];
};

struct xskf_steer {
	struct xskf_steer_entry *e; /* in matching order */
	unsigned int n;
	bool default_set;	    /* "default ACTION" given: else chosen at start */
	struct xskf_steer_rule def; /* the default's action (and cpus) */
	bool keep_host;
	bool keep_host_added; /* its rules are in the list */
	uint32_t gen;	     /* generation in use */
	uint64_t flipped_ns; /* when it was flipped in (xskf_now_ns()) */
	void *bms, *pcls, *acts; /* the mmapped arrays */
	size_t bms_len, pcls_len, acts_len;
	bool live; /* the program is loaded: changes go to the maps */
};

int xskf_steer__add(struct xskf_engine *eng, struct xskf_port *port, const char *text,
		    unsigned int id, bool keep_host, char *err, size_t err_len);
int xskf_steer__del(struct xskf_engine *eng, struct xskf_port *port, unsigned int id,
		    uint64_t *hits);
/* After the program is loaded: map the arrays, add --keep-host's rules, write the table. */
int xskf_steer__load(struct xskf_engine *eng, struct xskf_port *port);
void xskf_steer__unload(struct xskf_port *port);
/* Hits of the rule in @slot, summed over CPUs; 0 when unknown. */
uint64_t xskf_steer__hits(struct xskf_port *port, uint32_t slot);
int xskf_steer__qstats(struct xskf_port *port, uint32_t queue, struct xskf_steer_qstats *st);
void xskf_steer__free(struct xskf_port *port);
/* Write the table again (the others' rules or owners changed, or we leave). 0 or -errno. */
int xskf_steer__rewrite(struct xskf_port *port);

/* ---- the other runs on the interface (steer_share.c; prog_share.c tells the design) ---- */

struct xskf_steer_others {
	unsigned int n; /* their live rules */
	struct xskf_steer_rule r[XSKF_STEER_MAX_RULES];
	uint32_t slot[XSKF_STEER_MAX_RULES], pid[XSKF_STEER_MAX_RULES];
	uint32_t pos[XSKF_STEER_MAX_RULES];
	bool keep_host[XSKF_STEER_MAX_RULES];
	unsigned int order[XSKF_STEER_MAX_RULES]; /* indices, by owner then position */
	uint32_t qown[XSKF_STEER_MAX_QUEUES];	  /* each queue's live owner (0: none; ours too) */
	struct xskf_steer_rule qdef[XSKF_STEER_MAX_QUEUES]; /* the others' defaults */
};

/* Read the others' rules and every queue's owner. Lock held. 0 or -errno. */
int xskf_steer_share__gather(struct xskf_port *port, struct xskf_steer_others *o);
/* Mark in @used (one byte per hit-counter slot) the slots of live other runs; how many. Lock
 * held. */
unsigned int xskf_steer_share__slots_used(struct xskf_port *port, unsigned char *used);
/* After a flip: our rules and default into the shared maps, ours gone and the dead's out. */
void xskf_steer_share__sync(struct xskf_port *port, const struct xskf_steer_rule *def);

#endif /* XSKF_CORE_STEER_H */
