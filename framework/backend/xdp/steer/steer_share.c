// SPDX-License-Identifier: BSD-2-Clause
/*
 * The rule table of an interface is one, whatever the number of runs on it (prog_share.c):
 * steer.c's write_table() builds it from this run's rules and from those the other live runs
 * left in the map xskf_rules, each scoped to its owner's queues (xskf_queues). Here: reading
 * the others' part (gather), and, after a flip, publishing ours and dropping the dead's (sync).
 * Called with the interface's lock held (xskf_share__lock()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/prog/share_check.h"
#include "backend/xdp/xdp_state.h"
#include "core/engine.h"
#include "core/proc.h"
#include "backend/xdp/steer/steer.h"
#include "xskf_prog.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/prog/share.h"

_Static_assert(sizeof(struct xskf_steer_rule) <= XSKF_PROG_RULE_BYTES,
	       "a parsed rule must fit the shared map's value");

/* Is (@pid, @start) a live xskf run on the program (share_owner.c: cached per process)? */
static bool live(struct xskf_port *port, uint32_t pid, uint64_t start)
{
	uint32_t *id = &xskf_xdp_port(port)->share.queues_id;

	if (!*id)
		*id = xskf_share__map_id(bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_queues));
	return xskf_share__owner_live(*id, pid, start);
}

static int cmp_other(const void *a, const void *b, void *arg)
{
	const struct xskf_steer_others *o = arg;
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	if (o->pid[x] != o->pid[y])
		return o->pid[x] < o->pid[y] ? -1 : 1;
	return o->pos[x] < o->pos[y] ? -1 : o->pos[x] > o->pos[y];
}

int xskf_steer_share__gather(struct xskf_port *port, struct xskf_steer_others *o)
{
	int qfd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_queues);
	int rfd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_rules);
	uint32_t me = (uint32_t)getpid(), k;
	struct xskf_prog_qowner q;
	struct xskf_prog_srule r;

	memset(o, 0, sizeof(*o));
	for (k = 0; k < XSKF_STEER_MAX_QUEUES; k++) {
		if (bpf_map_lookup_elem(qfd, &k, &q) || !q.pid)
			continue;
		if (q.pid == me) {
			if (!xskf_xdp_port(port)->share.leaving)
				o->qown[k] = me;
			continue;
		}
		/* a dead run's queue, or a record xskf did not write: no rule, the zeroed default */
		if (!xskf_share__owner_ok(port, k, &q) || !live(port, q.pid, q.start_time))
			continue;
		o->qown[k] = q.pid;
		o->qdef[k].action = q.def_kind;
		o->qdef[k].cpus = q.def_cpus;
	}
	for (k = 0; k < XSKF_STEER_MAX_RULES; k++) {
		if (bpf_map_lookup_elem(rfd, &k, &r) || !r.pid || r.pid == me ||
		    !live(port, r.pid, r.start_time) || !xskf_share__rule_ok(port, k, &r))
			continue;
		memcpy(&o->r[o->n], r.rule, sizeof(o->r[0]));
		o->slot[o->n] = k;
		o->pid[o->n] = r.pid;
		o->pos[o->n] = r.pos;
		o->keep_host[o->n] = r.keep_host;
		o->order[o->n] = o->n;
		o->n++;
	}
	/* an owner's rules in its order; owners apart (their queues never meet) */
	qsort_r(o->order, o->n, sizeof(o->order[0]), cmp_other, o);
	return 0;
}

unsigned int xskf_steer_share__slots_used(struct xskf_port *port, unsigned char *used)
{
	int rfd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_rules);
	uint32_t me = (uint32_t)getpid(), k;
	struct xskf_prog_srule r;
	unsigned int n = 0;

	for (k = 0; k < XSKF_STEER_MAX_RULES; k++)
		if (!bpf_map_lookup_elem(rfd, &k, &r) && r.pid && r.pid != me &&
		    live(port, r.pid, r.start_time)) {
			used[k] = 1;
			n++;
		}
	return n;
}

void xskf_steer_share__sync(struct xskf_port *port, const struct xskf_steer_rule *def)
{
	int qfd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_queues);
	int rfd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_rules);
	const struct xskf_steer *st = &port->steer;
	uint32_t me = (uint32_t)getpid(), k;
	uint64_t start = xskf_proc__start_time(getpid());
	struct xskf_prog_qowner q;
	struct xskf_prog_srule r, none = {};
	unsigned char *mine = calloc(XSKF_STEER_MAX_RULES, 1);
	unsigned int i, pos = 0, pass;

	/* ours, in our matching order (keep-host rules last, as write_table() orders them) */
	for (pass = 0; pass < 2 && !xskf_xdp_port(port)->share.leaving; pass++)
		for (i = 0; i < st->n; i++) {
			if (st->e[i].keep_host != (pass == 1))
				continue;
			memset(&r, 0, sizeof(r));
			r.pid = me;
			r.start_time = start;
			r.id = st->e[i].id;
			r.pos = pos++;
			r.keep_host = st->e[i].keep_host;
			memcpy(r.rule, &st->e[i].r, sizeof(st->e[i].r));
			bpf_map_update_elem(rfd, &st->e[i].slot, &r, 0);
			if (mine)
				mine[st->e[i].slot] = 1;
		}
	/* ours no longer in the list, and the dead's */
	for (k = 0; k < XSKF_STEER_MAX_RULES; k++) {
		if ((mine && mine[k]) || bpf_map_lookup_elem(rfd, &k, &r) || !r.pid)
			continue;
		if (r.pid == me || !live(port, r.pid, r.start_time) ||
		    xskf_share_check__rule(&r, 64, NULL, 0))
			bpf_map_update_elem(rfd, &k, &none, 0);
	}
	free(mine);
	/* our default, for the others' rebuilds */
	for (i = 0; i < port->nr_queues + xskf_xdp_port(port)->nr_served &&
		    !xskf_xdp_port(port)->share.leaving;
	     i++) {
		k = i < port->nr_queues ? port->queues[i]
					: xskf_xdp_port(port)->served[i - port->nr_queues];
		if (bpf_map_lookup_elem(qfd, &k, &q) || q.pid != me)
			continue;
		q.def_kind = def->action;
		q.def_cpus = def->cpus;
		bpf_map_update_elem(qfd, &k, &q, 0);
	}
}
