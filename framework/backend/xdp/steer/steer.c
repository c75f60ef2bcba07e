// SPDX-License-Identifier: BSD-2-Clause
/*
 * The rule table of a port's XDP program (bpf/xskf_steer.h tells the layout): the rules in
 * matching order, and their translation into the maps the program reads, one bitmap per
 * value of each field. A change is written into the generation the program does not use, then
 * flipped in with one map write (steer_gen): a frame sees the old table or the new one, whole,
 * and is counted once. A change that fails leaves the table in use untouched.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/xdp_state.h"
#include "core/clock.h"
#include "core/engine.h"
#include "backend/xdp/prog/features.h"
#include "backend/xdp/prog/percpu.h"
#include "backend/xdp/steer/steer.h"
#include "backend/xdp/steer/steer_ports.h"
#include "core/sysfs.h"
#include "xskf_prog.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/prog/share.h"
#include "backend/xdp/prog/dispatch.h"

#define HAS(r, d) ((r)->set & (1u << (d)))
/*
 * A frame reads the generation once and is done within microseconds (an XDP program runs
 * to its end in one NAPI poll). The generation a flip retired is written again only this long
 * after the flip, so no frame still reads it.
 */
#define STEER_RETIRE_NS (10 * 1000 * 1000ULL)

#define bm_set xskf_steer__bm_set

/* Does a rule's prefix (@fam, @a / @l) contain the prefix @pa / @pl of the same family? */
static bool prefix_contains(const uint8_t *a, unsigned int l, const uint8_t *pa, unsigned int pl)
{
	unsigned int i;

	if (l > pl)
		return false;
	for (i = 0; i < l; i++)
		if ((a[i / 8] ^ pa[i / 8]) & (0x80 >> (i % 8)))
			return false;
	return true;
}

/* ---- checks a rule must pass before it goes in ---- */

static int check_cpus(uint64_t set, const char *text, char *err, size_t len)
{
	unsigned int c;
	long online;

	for (c = 0; c < XSKF_STEER_MAX_CPUS; c++) {
		if (!(set >> c & 1))
			continue;
		char path[64];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u", c);
		if (access(path, F_OK)) {
			snprintf(err, len,
				 "steer rule '%s': cpumap CPU %u does not exist (see "
				 "/sys/devices/system/cpu/online)",
				 text, c);
			return -ENODEV;
		}
		online = xskf_sysfs__long("/sys/devices/system/cpu/cpu%u/online", c);
		if (online == 0) {
			snprintf(
			    err, len,
			    "steer rule '%s': cpumap CPU %u is offline: bring it up "
			    "(echo 1 > /sys/devices/system/cpu/cpu%u/online) or choose another",
			    text, c, c);
			return -ENODEV;
		}
	}
	return 0;
}

/*
 * In SKB mode (attached so, or asked for with -S) a kernel before 5.15 cannot redirect into a
 * CPUMAP: the frames of a 'cpumap' rule would be dropped (features.c's skb_cpumap row). The
 * reason in @err, and -EOPNOTSUPP, where that is so.
 */
static int check_skb_cpumap(struct xskf_engine *eng, struct xskf_port *port, const char *text,
			    char *err, size_t len)
{
	const char *why;

	if (xskf_xdp_port(port)->attach_flags != XDP_FLAGS_SKB_MODE &&
	    (xskf_xdp_port(port)->attached || eng->o.attach_mode != XSKF_ATTACH_SKB))
		return 0;
	why = xskf_features__why(XSKF_FEAT_SKB_CPUMAP, "needs Linux 5.15");
	if (!why)
		return 0;
	snprintf(err, len, "steer rule '%s': a CPUMAP in SKB mode %s (skb_cpumap): use native mode",
		 text, why);
	return -EOPNOTSUPP;
}

bool xskf_steer__uses_cpumap(const struct xskf_port *port)
{
	const struct xskf_steer *st = &port->steer;
	unsigned int i;

	if (st->default_set && st->def.action == XSKF_STEER_ACT_CPUMAP)
		return true;
	for (i = 0; i < st->n; i++)
		if (st->e[i].r.action == XSKF_STEER_ACT_CPUMAP)
			return true;
	return false;
}

static bool queue_bound(const struct xskf_port *port, uint32_t q)
{
	unsigned int i;

	for (i = 0; i < port->nr_queues; i++)
		if (port->queues[i] == q)
			return true;
	for (i = 0; i < xskf_xdp_port(port)->nr_served;
	     i++) /* kept for another app's socket: ours too */
		if (xskf_xdp_port(port)->served[i] == q)
			return true;
	return false;
}

/* ---- the maps ---- */

static int map_fd(struct xskf_port *port, const struct bpf_map *m)
{
	(void)port;
	return bpf_map__fd(m);
}

/* Delete every key of generation @gen of an LPM or hash map (the table it held is retired). */
static int clear_gen(int fd, size_t key_size, size_t gen_off, uint32_t gen)
{
	unsigned char *keys, cur[32], next[32];
	size_t n = 0, cap = 64, i;
	void *prev = NULL;
	int err = 0;

	keys = malloc(cap * key_size);
	if (!keys)
		return -ENOMEM;
	while (!bpf_map_get_next_key(fd, prev, next)) {
		uint32_t g;

		memcpy(&g, next + gen_off, 4);
		if (g == gen) {
			if (n == cap) {
				unsigned char *k = realloc(keys, 2 * cap * key_size);

				if (!k) {
					err = -ENOMEM;
					goto out;
				}
				keys = k;
				cap *= 2;
			}
			memcpy(keys + n++ * key_size, next, key_size);
		}
		memcpy(cur, next, key_size);
		prev = cur;
	}
	for (i = 0; i < n; i++)
		if (bpf_map_delete_elem(fd, keys + i * key_size) && errno != ENOENT) {
			err = -errno;
			break;
		}
out:
	free(keys);
	return err;
}

struct build {
	struct xskf_port *port;
	const struct xskf_steer_rule **r; /* in matching order */
	unsigned int n;
	uint32_t g;
	struct xskf_steer_bm *bms; /* this generation's */
};

static int build_hash(struct build *b, unsigned int dim)
{
	int fd = map_fd(b->port, xskf_xdp_port(b->port)->skel->maps.steer_hash);
	unsigned int i, j;

	for (i = 0; i < b->n; i++) {
		struct xskf_steer_hkey k = {.gen = b->g, .dim = dim};
		struct xskf_steer_bm bm = {};
		uint32_t v;
		bool seen = false;

		if (!HAS(b->r[i], dim))
			continue;
		v = dim == XSKF_DIM_ETYPE ? b->r[i]->etype : b->r[i]->vlan;
		for (j = 0; j < i && !seen; j++)
			seen = HAS(b->r[j], dim) &&
			       v == (dim == XSKF_DIM_ETYPE ? b->r[j]->etype : b->r[j]->vlan);
		if (seen)
			continue;
		for (j = 0; j < b->n; j++)
			if (!HAS(b->r[j], dim) ||
			    v == (dim == XSKF_DIM_ETYPE ? b->r[j]->etype : b->r[j]->vlan))
				bm_set(&bm, j);
		k.val = v;
		if (bpf_map_update_elem(fd, &k, &bm, 0))
			return -errno;
	}
	return 0;
}

static int lpm_put(struct build *b, unsigned int dim, unsigned int fam, const uint8_t *pa,
		   unsigned int pl)
{
	const struct xskf_steer_rule *r;
	struct xskf_steer_lpm6 k6 = {.prefixlen = 32 + pl, .gen = b->g};
	struct xskf_steer_lpm4 k4 = {.prefixlen = 32 + pl, .gen = b->g};
	struct xskf_steer_bm bm = {};
	struct bpf_map *m;
	unsigned int j;

	for (j = 0; j < b->n; j++) {
		r = b->r[j];
		if (!HAS(r, dim))
			bm_set(&bm, j);
		else if (dim == XSKF_DIM_SRC
			     ? r->src_fam == fam && prefix_contains(r->src, r->src_len, pa, pl)
			     : r->dst_fam == fam && prefix_contains(r->dst, r->dst_len, pa, pl))
			bm_set(&bm, j);
	}
	if (fam == 4) {
		memcpy(k4.addr, pa, 4);
		m = dim == XSKF_DIM_SRC ? xskf_xdp_port(b->port)->skel->maps.steer_src4
					: xskf_xdp_port(b->port)->skel->maps.steer_dst4;
		return bpf_map_update_elem(bpf_map__fd(m), &k4, &bm, 0) ? -errno : 0;
	}
	memcpy(k6.addr, pa, 16);
	m = dim == XSKF_DIM_SRC ? xskf_xdp_port(b->port)->skel->maps.steer_src6
				: xskf_xdp_port(b->port)->skel->maps.steer_dst6;
	return bpf_map_update_elem(bpf_map__fd(m), &k6, &bm, 0) ? -errno : 0;
}

static int build_lpm(struct build *b, unsigned int dim)
{
	static const uint8_t zero[16];
	unsigned int i, fam;
	int err;

	for (fam = 4; fam <= 6; fam += 2) {
		err = lpm_put(b, dim, fam, zero, 0);
		if (err)
			return err;
	}
	for (i = 0; i < b->n; i++) {
		const struct xskf_steer_rule *r = b->r[i];

		if (!HAS(r, dim))
			continue;
		err = dim == XSKF_DIM_SRC ? lpm_put(b, dim, r->src_fam, r->src, r->src_len)
					  : lpm_put(b, dim, r->dst_fam, r->dst, r->dst_len);
		if (err)
			return err;
	}
	return 0;
}

/* What a frame does at act index @at of generation @g: @r's action, counted in @slot. */
static int put_act(struct xskf_port *port, uint32_t g, uint32_t at,
		   const struct xskf_steer_rule *r, uint32_t slot)
{
	struct xskf_steer_acts *acts = port->steer.acts;
	struct xskf_steer_cpuset cs = {};
	uint32_t k = g * XSKF_STEER_ACTS_GEN + at;
	unsigned int c;

	acts->slot[k] = slot;
	acts->kind[k] = r->action;
	if (r->action != XSKF_STEER_ACT_CPUMAP)
		return 0;
	for (c = 0; c < XSKF_STEER_MAX_CPUS; c++)
		if (r->cpus >> c & 1)
			cs.cpus[cs.nr++] = (uint16_t)c;
	return bpf_map_update_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_cpuset), &k,
				   &cs, 0)
		   ? -errno
		   : 0;
}

/* The hit counter @slot from zero: a new rule's, or a queue default's at load. */
static int zero_hits(struct xskf_port *port, uint32_t slot)
{
	return xskf_percpu__zero(bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_hits), slot, 1,
				 sizeof(uint64_t));
}

/* The CPUs in @set in steering's CPUMAP, and in our dispatcher component's own (if any). */
static int ensure_cpus(struct xskf_port *port, uint64_t set)
{
	struct bpf_cpumap_val v = {.qsize = 2048};
	int comp = xskf_disp__cpus_fd(port);
	uint32_t c;

	for (c = 0; c < XSKF_STEER_MAX_CPUS; c++)
		if (set >> c & 1 &&
		    (bpf_map_update_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_cpus),
					 &c, &v, 0) ||
		     (comp >= 0 && bpf_map_update_elem(comp, &c, &v, 0))))
			return -errno;
	return 0;
}

/* The action frames take when no rule matches. */
static const struct xskf_steer_rule *default_rule(struct xskf_steer *st)
{
	return &st->def;
}

/* The table being written: every live run's rules in matching order, and whose each is. */
struct table {
	struct build b; /* b.r is ord */
	const struct xskf_steer_rule *ord[XSKF_STEER_MAX_RULES];
	uint32_t slots[XSKF_STEER_MAX_RULES], owner[XSKF_STEER_MAX_RULES];
	struct xskf_steer_others o; /* the other runs' rules and queues (steer_share.c) */
	uint32_t me;		    /* our pid: the owner of our rules and queues */
};

/*
 * The matching order: every run's rules, then every run's --keep-host rules; ours first, in
 * our order (none once we leave the interface), the others' by owner and position.
 */
static void gather_table(struct xskf_port *port, struct table *t)
{
	struct xskf_steer *st = &port->steer;
	struct build *b = &t->b;
	unsigned int i, j, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < st->n && !xskf_xdp_port(port)->share.leaving; i++)
			if (st->e[i].keep_host == (pass == 1)) {
				t->slots[b->n] = st->e[i].slot;
				t->owner[b->n] = t->me;
				t->ord[b->n++] = &st->e[i].r;
			}
		for (i = 0; i < t->o.n && b->n < XSKF_STEER_MAX_RULES; i++) {
			j = t->o.order[i];
			if (t->o.keep_host[j] != (pass == 1))
				continue;
			t->slots[b->n] = t->o.slot[j];
			t->owner[b->n] = t->o.pid[j];
			t->ord[b->n++] = &t->o.r[j];
		}
	}
}

/* What frames of queue @q do when no rule matches: its owner's default (none: XSK, pass). */
static const struct xskf_steer_rule *queue_default(struct xskf_port *port, const struct table *t,
						   uint32_t q)
{
	static const struct xskf_steer_rule none; /* a queue no run owns: XSK, no socket: pass */

	return t->o.qown[q] == t->me ? default_rule(&port->steer)
	       : t->o.qown[q]	     ? &t->o.qdef[q]
				     : &none;
}

/*
 * The CPUs the table's cpumap rules and defaults send to; @steers: whether it steers at all
 * (a table with no rule and every default xsk steers nothing: the program skips it).
 */
static uint64_t table_cpus(struct xskf_port *port, const struct table *t, bool *steers)
{
	const struct xskf_steer_rule *d;
	uint64_t cpus = 0;
	unsigned int i;

	for (i = 0; i < t->b.n; i++)
		if (t->ord[i]->action == XSKF_STEER_ACT_CPUMAP)
			cpus |= t->ord[i]->cpus;
	*steers = t->b.n > 0;
	for (i = 0; i < XSKF_STEER_MAX_QUEUES; i++) {
		d = queue_default(port, t, i);
		if (d->action == XSKF_STEER_ACT_CPUMAP)
			cpus |= d->cpus;
		if (d->action != XSKF_STEER_ACT_XSK)
			*steers = true;
	}
	return cpus;
}

/*
 * The generation to write (the one not in use) into t->b, its bitmaps cleared, once the last
 * flip, ours or another run's (@sh: the shared record of it), is STEER_RETIRE_NS old: the
 * generation it retired may still be read until then.
 */
static void choose_gen(struct xskf_port *port, struct table *t, struct xskf_prog_share *sh)
{
	struct xskf_steer *st = &port->steer;
	uint64_t now, last;
	uint32_t key = 0, g = 0;

	bpf_map_lookup_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_share), &key, sh);
	last = sh->flipped_ns > st->flipped_ns ? sh->flipped_ns : st->flipped_ns;
	now = xskf_now_ns();
	if (last && now - last < STEER_RETIRE_NS)
		usleep((useconds_t)((STEER_RETIRE_NS - (now - last)) / 1000 + 1));
	if (bpf_map_lookup_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_gen), &key, &g))
		g = st->gen;
	t->b.g = (g & 1) ^ 1;
	t->b.bms = (struct xskf_steer_bm *)st->bms + (size_t)t->b.g * XSKF_STEER_BMS_GEN;
	memset(t->b.bms, 0, XSKF_STEER_BMS_GEN * sizeof(*t->b.bms));
}

/*
 * The bitmaps of the mmapped table (rule i's bit: the rule allows the value) for the fields
 * that are arrays: queue, protocol, the wildcards of the hash and LPM fields, the ports. The
 * dimensions in use into @cfg.
 */
static void fill_bitmaps(struct xskf_port *port, struct table *t, struct xskf_steer_cfg *cfg)
{
	const struct xskf_steer_rule **ord = t->ord;
	struct build *b = &t->b;
	unsigned int i, key, dim;

	cfg->nr_rules = b->n;
	cfg->dims = 1u << XSKF_DIM_QUEUE;
	for (i = 0; i < b->n; i++)
		cfg->dims |= ord[i]->set;
	/* queues: a rule applies to its owner's queues, or to the one of them it names */
	for (key = 0; key < XSKF_STEER_MAX_QUEUES; key++)
		for (i = 0; i < b->n; i++)
			if (t->o.qown[key] == t->owner[i] &&
			    (!HAS(ord[i], XSKF_DIM_QUEUE) || ord[i]->queue == key))
				bm_set(&b->bms[XSKF_STEER_BM_QUEUE + key], i);
	for (key = 0; key < XSKF_STEER_PROTO_KEYS; key++)
		for (i = 0; i < b->n; i++)
			if (!HAS(ord[i], XSKF_DIM_PROTO) || ord[i]->proto == key)
				bm_set(&b->bms[XSKF_STEER_BM_PROTO + key], i);
	/* what a hash or LPM field allows for a value without an entry: the rules without it */
	for (dim = 0; dim < XSKF_NR_DIMS; dim++)
		for (i = 0; i < b->n; i++)
			if (!HAS(ord[i], dim))
				bm_set(&b->bms[XSKF_STEER_BM_WILD + dim], i);
	/* both, used or not: the program reads them without asking (one class then, every rule) */
	xskf_steer_ports__build(b->r, b->n, XSKF_DIM_SPORT, b->g, b->bms + XSKF_STEER_BM_SPORT,
				port->steer.pcls);
	xskf_steer_ports__build(b->r, b->n, XSKF_DIM_DPORT, b->g, b->bms + XSKF_STEER_BM_DPORT,
				port->steer.pcls);
}

/*
 * The hash and LPM maps' entries of the new generation (the retired one's deleted first), every
 * rule's and queue default's action, and the new rules' hit counters from zero. 0 or -errno.
 */
static int fill_maps(struct xskf_port *port, struct table *t, const struct xskf_steer_cfg *cfg,
		     const uint32_t *new_slots, unsigned int nr_new)
{
	const struct xskf_redirect *skel = xskf_xdp_port(port)->skel;
	struct build *b = &t->b;
	unsigned int i;
	int err;

	err =
	    clear_gen(bpf_map__fd(skel->maps.steer_hash), sizeof(struct xskf_steer_hkey), 0, b->g);
	if (!err && cfg->dims & (1u << XSKF_DIM_ETYPE))
		err = build_hash(b, XSKF_DIM_ETYPE);
	if (!err && cfg->dims & (1u << XSKF_DIM_VLAN))
		err = build_hash(b, XSKF_DIM_VLAN);
	if (!err)
		err = clear_gen(bpf_map__fd(skel->maps.steer_src4), sizeof(struct xskf_steer_lpm4),
				4, b->g);
	if (!err)
		err = clear_gen(bpf_map__fd(skel->maps.steer_dst4), sizeof(struct xskf_steer_lpm4),
				4, b->g);
	if (!err)
		err = clear_gen(bpf_map__fd(skel->maps.steer_src6), sizeof(struct xskf_steer_lpm6),
				4, b->g);
	if (!err)
		err = clear_gen(bpf_map__fd(skel->maps.steer_dst6), sizeof(struct xskf_steer_lpm6),
				4, b->g);
	if (!err && cfg->dims & (1u << XSKF_DIM_SRC))
		err = build_lpm(b, XSKF_DIM_SRC);
	if (!err && cfg->dims & (1u << XSKF_DIM_DST))
		err = build_lpm(b, XSKF_DIM_DST);
	for (i = 0; i < b->n && !err; i++)
		err = put_act(port, b->g, xskf_steer_act_at(i), t->ord[i], t->slots[i]);
	for (i = 0; i < XSKF_STEER_MAX_QUEUES && !err; i++)
		err = put_act(port, b->g, XSKF_STEER_MAX_RULES + i, queue_default(port, t, i),
			      XSKF_STEER_MAX_RULES + i);
	for (i = 0; i < nr_new && !err; i++)
		err = zero_hits(port, new_slots[i]);
	return err;
}

/*
 * The flip to generation @g with its config @cfg: one write, and every frame from now on reads
 * the new table, or none (XSKF_STEER_GEN_LIVE off, @steers false: the program then neither
 * classifies nor counts). The time of the flip goes into @sh for every run. 0 or -errno.
 */
static int flip(struct xskf_port *port, uint32_t g, const struct xskf_steer_cfg *cfg, bool steers,
		struct xskf_prog_share *sh)
{
	struct xskf_steer *st = &port->steer;
	uint32_t key = 0, gv;

	((struct xskf_steer_acts *)st->acts)->cfg[g] = *cfg;
	gv = g | (steers ? XSKF_STEER_GEN_LIVE : 0);
	if (bpf_map_update_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_gen), &key, &gv,
				0))
		return -errno;
	st->gen = g;
	st->flipped_ns = sh->flipped_ns = xskf_now_ns();
	bpf_map_update_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_share), &key, sh, 0);
	/* what the others' rebuilds need of ours, now that it is in use */
	xskf_steer_share__sync(port, default_rule(st));
	return 0;
}

/*
 * Write the table of the interface into the generation not in use and flip to it: our rules
 * and those of the other live runs on it (steer_share.c), each scoped to its owner's queues,
 * under the interface's lock. On an error the generation in use was not touched.
 */
static int write_table(struct xskf_port *port, const uint32_t *new_slots, unsigned int nr_new)
{
	struct xskf_prog_share sh = {};
	struct xskf_steer_cfg cfg = {};
	struct table *t;
	bool steers;
	int err;

	if (!port->steer.live)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->me = (uint32_t)getpid();
	t->b.port = port;
	t->b.r = t->ord;
	/* no lock file: said once, the run goes on unlocked; held too long by another: said */
	err = xskf_share__lock(port);
	if (err == -ETIMEDOUT)
		goto out;
	xskf_steer_share__gather(port, &t->o);
	gather_table(port, t);
	err = ensure_cpus(port, table_cpus(port, t, &steers));
	if (err)
		goto out;
	choose_gen(port, t, &sh);
	fill_bitmaps(port, t, &cfg);
	err = fill_maps(port, t, &cfg, new_slots, nr_new);
	if (!err)
		err = flip(port, t->b.g, &cfg, steers, &sh);
out:
	xskf_share__unlock(port);
	free(t);
	return err;
}

int xskf_steer__rewrite(struct xskf_port *port)
{
	return write_table(port, NULL, 0);
}

/* ---- rules in and out ---- */

/* A hit counter no rule of ours nor of a live other run holds (lock held: see add). */
static uint32_t free_slot(struct xskf_port *port)
{
	static unsigned char used[XSKF_STEER_MAX_RULES];
	const struct xskf_steer *st = &port->steer;
	uint32_t s;
	unsigned int i;

	memset(used, 0, sizeof(used));
	for (i = 0; i < st->n; i++)
		used[st->e[i].slot] = 1;
	if (st->live)
		xskf_steer_share__slots_used(port, used);
	for (s = 0; s < XSKF_STEER_MAX_RULES && used[s]; s++)
		;
	return s;
}

static const char *act_word(uint8_t a)
{
	static const char *w[] = {"xsk", "pass", "cpumap", "drop"};

	return a < 4 ? w[a] : "?";
}

int xskf_steer__add(struct xskf_engine *eng, struct xskf_port *port, const char *text,
		    unsigned int id, bool keep_host, char *err, size_t err_len)
{
	struct xskf_steer *st = &port->steer;
	struct xskf_steer_rule r, old_def;
	struct xskf_steer_entry *e;
	bool old_set;
	unsigned int i;
	uint32_t slot;
	int ret;

	ret = xskf_steer__parse(text, &r, err, err_len);
	if (ret)
		return ret;
	if (r.action == XSKF_STEER_ACT_CPUMAP && (ret = check_cpus(r.cpus, text, err, err_len)))
		return ret;
	if (r.action == XSKF_STEER_ACT_CPUMAP &&
	    (ret = check_skb_cpumap(eng, port, text, err, err_len)))
		return ret;
	if (r.is_default) {
		old_def = st->def;
		old_set = st->default_set;
		st->def = r;
		st->default_set = true;
		ret = write_table(port, NULL, 0);
		if (ret) {
			st->def = old_def;
			st->default_set = old_set;
			snprintf(err, err_len,
				 "steer rule '%s': cannot write the table: %s; the "
				 "table in use is unchanged",
				 text, strerror(-ret));
		}
		return ret;
	}
	if (HAS(&r, XSKF_DIM_QUEUE) && !queue_bound(port, r.queue)) {
		snprintf(err, err_len,
			 "steer rule '%s': queue %u is not one of this run's queues "
			 "on %s: name one given with -q",
			 text, r.queue, port->name);
		return -EINVAL;
	}
	for (i = 0; i < st->n; i++) {
		if (!xskf_steer__same_match(&st->e[i].r, &r) || st->e[i].keep_host != keep_host)
			continue;
		if (st->e[i].r.action == r.action && st->e[i].r.cpus == r.cpus)
			snprintf(err, err_len, "steer rule '%s' duplicates rule %u ('%s') on %s",
				 text, st->e[i].id, st->e[i].text, port->name);
		else
			snprintf(err, err_len,
				 "steer rule '%s' conflicts with rule %u ('%s') on %s: "
				 "same match, action %s: delete one first",
				 text, st->e[i].id, st->e[i].text, port->name,
				 act_word(st->e[i].r.action));
		return -EEXIST;
	}
	/* the slot and the table's write under one lock: another run may add at once */
	if (st->live)
		xskf_share__lock(port);
	if (st->n == XSKF_STEER_MAX_RULES || (slot = free_slot(port)) >= XSKF_STEER_MAX_RULES) {
		if (st->live)
			xskf_share__unlock(port);
		snprintf(err, err_len,
			 "steer rule '%s': the table of %s is full (%d rules): delete "
			 "one first (xskfctl steer del ID)",
			 text, port->name, XSKF_STEER_MAX_RULES);
		return -ENOSPC;
	}
	if (!st->e) {
		st->e = calloc(XSKF_STEER_MAX_RULES, sizeof(*st->e));
		if (!st->e) {
			if (st->live)
				xskf_share__unlock(port);
			return -ENOMEM;
		}
	}
	e = &st->e[st->n];
	memset(e, 0, sizeof(*e));
	e->r = r;
	e->id = id;
	e->slot = slot;
	e->keep_host = keep_host;
	xskf_steer__format(&r, e->text, sizeof(e->text));
	st->n++;
	ret = write_table(port, &slot, 1);
	if (st->live)
		xskf_share__unlock(port);
	if (ret) {
		st->n--;
		snprintf(err, err_len,
			 "steer rule '%s': cannot write the table: %s; the table in "
			 "use is unchanged",
			 text, strerror(-ret));
	}
	return ret;
}

int xskf_steer__del(struct xskf_engine *eng, struct xskf_port *port, unsigned int id,
		    uint64_t *hits)
{
	struct xskf_steer *st = &port->steer;
	struct xskf_steer_entry gone;
	unsigned int i;
	int err;

	(void)eng;
	for (i = 0; i < st->n && st->e[i].id != id; i++)
		;
	if (i == st->n)
		return -ENOENT;
	gone = st->e[i];
	memmove(&st->e[i], &st->e[i + 1], (st->n - i - 1) * sizeof(*st->e));
	st->n--;
	err = write_table(port, NULL, 0);
	if (err) {
		memmove(&st->e[i + 1], &st->e[i], (st->n - i) * sizeof(*st->e));
		st->e[i] = gone;
		st->n++;
		return err;
	}
	if (hits)
		*hits = st->live ? xskf_steer__hits(port, gone.slot) : 0;
	return 0;
}

/* --keep-host: the host's ARP, ICMPv6 (neighbour discovery) and its own addresses. */
static int add_keep_host(struct xskf_engine *eng, struct xskf_port *port)
{
	struct ifaddrs *ifa, *a;
	char err[256], rule[128], addr[INET6_ADDRSTRLEN];
	int ret;

	if ((ret = xskf_steer__add(eng, port, "arp pass", ++eng->steer_next_id, true, err,
				   sizeof(err))) ||
	    (ret = xskf_steer__add(eng, port, "icmp6 pass", ++eng->steer_next_id, true, err,
				   sizeof(err))))
		goto fail;
	if (getifaddrs(&ifa))
		return 0;
	for (a = ifa; a; a = a->ifa_next) {
		int fam = a->ifa_addr ? a->ifa_addr->sa_family : 0;

		if (strcmp(a->ifa_name, port->name) || (fam != AF_INET && fam != AF_INET6))
			continue;
		inet_ntop(fam,
			  fam == AF_INET ? (void *)&((struct sockaddr_in *)a->ifa_addr)->sin_addr
					 : (void *)&((struct sockaddr_in6 *)a->ifa_addr)->sin6_addr,
			  addr, sizeof(addr));
		snprintf(rule, sizeof(rule), "dst %s pass", addr);
		ret =
		    xskf_steer__add(eng, port, rule, ++eng->steer_next_id, true, err, sizeof(err));
		if (ret && ret != -EEXIST) {
			freeifaddrs(ifa);
			goto fail;
		}
	}
	freeifaddrs(ifa);
	return 0;
fail:
	pr_warn("%s: --keep-host: %s\n", port->name, err);
	return ret;
}

/*
 * The hit counters of the rules given before start: slots no other live run's rule holds
 * (steer_hits is the interface's, shared with the runs there), from zero. Lock held.
 */
static int take_slots(struct xskf_port *port)
{
	struct xskf_steer *st = &port->steer;
	unsigned char *used = calloc(XSKF_STEER_MAX_RULES, 1);
	unsigned int i, others = 0;
	uint32_t s = 0;

	if (!used)
		return -ENOMEM;
	others = xskf_steer_share__slots_used(port, used);
	for (i = 0, s = 0; i < st->n; i++) {
		while (s < XSKF_STEER_MAX_RULES && used[s])
			s++;
		if (s == XSKF_STEER_MAX_RULES) {
			pr_warn(
			    "%s: the steering table is full: the other xskf runs on this interface "
			    "have %u rules, this run %u, at most %d in all: fewer rules, or stop "
			    "one\n",
			    port->name, others, st->n, XSKF_STEER_MAX_RULES);
			free(used);
			return -ENOSPC;
		}
		st->e[i].slot = s++;
		zero_hits(port, st->e[i].slot);
	}
	free(used);
	return 0;
}

int xskf_steer__load(struct xskf_engine *eng, struct xskf_port *port)
{
	struct xskf_steer *st = &port->steer;
	unsigned int i;
	int err;

	st->bms_len = sizeof(struct xskf_steer_bms);
	st->pcls_len = sizeof(struct xskf_steer_pcls);
	st->acts_len = sizeof(struct xskf_steer_acts);
	st->bms = mmap(NULL, st->bms_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_bms), 0);
	st->pcls = mmap(NULL, st->pcls_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_pcls), 0);
	st->acts = mmap(NULL, st->acts_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_acts), 0);
	if (st->bms == MAP_FAILED || st->pcls == MAP_FAILED || st->acts == MAP_FAILED) {
		err = -errno;
		pr_warn("%s: cannot map the steering table: %s\n", port->name, strerror(-err));
		goto fail;
	}
	/* counters from zero (the program ran once when the redirect tier was probed); a run
	 * that joins another's program zeroed its own queues' when it took them (prog_share.c) */
	if (!xskf_xdp_port(port)->share.joined) {
		err = xskf_percpu__zero(bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_qstats),
					0, XSKF_STEER_MAX_QUEUES, sizeof(struct xskf_steer_qstats));
		if (!err)
			err = xskf_percpu__zero(
			    bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_hits), 0,
			    XSKF_STEER_ACTS_GEN, sizeof(uint64_t));
		if (err)
			goto fail;
	}
	/* the default: when a rule picks frames for the app, everything else is the host's */
	if (!st->default_set) {
		st->def.action = XSKF_STEER_ACT_XSK;
		for (i = 0; i < st->n; i++)
			if (st->e[i].r.action == XSKF_STEER_ACT_XSK)
				st->def.action = XSKF_STEER_ACT_PASS;
	}
	/* its rules before the table goes live: one write for all of them */
	if (st->keep_host && !st->keep_host_added) {
		err = add_keep_host(eng, port);
		if (err)
			goto fail;
		st->keep_host_added = true;
	}
	st->live = true;
	err = take_slots(port);
	if (err)
		goto fail;
	st->gen = 1; /* the first table goes into generation 0 */
	err = write_table(port, NULL, 0);
	if (err) {
		pr_warn("%s: cannot write the steering table: %s\n", port->name, strerror(-err));
		goto fail;
	}
	return 0;
fail:
	xskf_steer__unload(port);
	return err;
}

void xskf_steer__unload(struct xskf_port *port)
{
	struct xskf_steer *st = &port->steer;

	if (st->bms && st->bms != MAP_FAILED)
		munmap(st->bms, st->bms_len);
	if (st->pcls && st->pcls != MAP_FAILED)
		munmap(st->pcls, st->pcls_len);
	if (st->acts && st->acts != MAP_FAILED)
		munmap(st->acts, st->acts_len);
	st->bms = st->pcls = st->acts = NULL;
	st->live = false;
	st->flipped_ns = 0;
}

void xskf_steer__free(struct xskf_port *port)
{
	xskf_steer__unload(port);
	free(port->steer.e);
	port->steer.e = NULL;
	port->steer.n = 0;
}

uint64_t xskf_steer__hits(struct xskf_port *port, uint32_t slot)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	uint64_t *v, sum = 0;

	if (!port->be_priv || !xskf_xdp_port(port)->skel || ncpu < 0)
		return 0;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_hits), &slot, v))
		for (i = 0; i < ncpu; i++)
			sum += v[i];
	free(v);
	return sum;
}

int xskf_steer__qstats(struct xskf_port *port, uint32_t queue, struct xskf_steer_qstats *st)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct xskf_steer_qstats *v;

	memset(st, 0, sizeof(*st));
	if (!port->be_priv || !xskf_xdp_port(port)->skel || ncpu < 0 ||
	    queue >= XSKF_STEER_MAX_QUEUES)
		return -ENOENT;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_qstats), &queue,
				v)) {
		free(v);
		return -errno;
	}
	for (i = 0; i < ncpu; i++) {
		st->seen += v[i].seen;
		st->xsk += v[i].xsk;
		st->pass += v[i].pass;
		st->cpumap += v[i].cpumap;
		st->drop += v[i].drop;
	}
	free(v);
	return 0;
}
