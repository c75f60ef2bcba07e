/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Steering: the rule language (steer_parse.c) and a port's rules as data; the xdp backend
 * writes them into its program's maps (backend/xdp/steer/steer.h). docs/steering.md is the user's guide;
 * bpf/xskf_steer.h the table's layout.
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

/* ---- the rules of a port, as data (the xdp backend writes them into its program: steer.c) ---- */

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

#endif /* XSKF_CORE_STEER_H */
