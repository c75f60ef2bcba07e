/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The xdp backend's steering: a port's rules (core/steer.h) written into its program's maps
 * (steer.c), shared with the other runs on the interface (steer_share.c).
 */
#ifndef XSKF_XDP_STEER_H
#define XSKF_XDP_STEER_H

#include "core/steer.h"

int xskf_steer__add(struct xskf_engine *eng, struct xskf_port *port, const char *text,
		    unsigned int id, bool keep_host, char *err, size_t err_len);
int xskf_steer__del(struct xskf_engine *eng, struct xskf_port *port, unsigned int id,
		    uint64_t *hits);
/* Does @port's steering (a rule or its default) send frames to a CPUMAP? */
bool xskf_steer__uses_cpumap(const struct xskf_port *port);
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

#endif /* XSKF_XDP_STEER_H */
