// SPDX-License-Identifier: BSD-2-Clause
/*
 * The checks of what the root run reads back from the maps it shares (share_check.h). Each
 * names the first field at fault, so that the line that ignores the record says why.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "backend/xdp/prog/share_check.h"
#include "xskf_steer.h"

#define HAS(r, d) ((r)->set & (1u << (d)))

static int bad(char *why, size_t len, const char *what, unsigned long long v)
{
	if (len)
		snprintf(why, len, "%s %llu", what, v);
	return -EINVAL;
}

/* A cpumap set of @ncpu possible CPUs: not empty, no CPU past them. */
static bool cpus_ok(uint64_t set, unsigned int ncpu)
{
	return set && (ncpu >= 64 || !(set >> ncpu));
}

static int check_prefix(uint8_t fam, uint8_t l, const uint8_t *a, const char *what, char *why,
			size_t len)
{
	unsigned int bits = fam == 4 ? 32 : 128, i;

	if (fam != 4 && fam != 6)
		return bad(why, len, what, fam);
	if (l > bits)
		return bad(why, len, what, l);
	/* bits past the length: the LPM trie would hold a key the rule does not say */
	for (i = l; i < 128; i++)
		if (a[i / 8] & (0x80 >> (i % 8)))
			return bad(why, len, what, l);
	return 0;
}

static int check_ports(uint32_t lo, uint32_t hi, const char *what, char *why, size_t len)
{
	/* build_ports() writes one class per port from lo to hi: both within 0..65535 */
	if (lo > hi || hi > 65535)
		return bad(why, len, what, lo > hi ? lo : hi);
	return 0;
}

static int check_match(const struct xskf_steer_rule *m, char *why, size_t len)
{
	if (m->set >= (1u << XSKF_NR_DIMS))
		return bad(why, len, "dimension set", m->set);
	if (HAS(m, XSKF_DIM_QUEUE) && m->queue >= XSKF_STEER_MAX_QUEUES)
		return bad(why, len, "queue", m->queue);
	if (HAS(m, XSKF_DIM_ETYPE) && m->etype > 0xffff)
		return bad(why, len, "EtherType", m->etype);
	if (HAS(m, XSKF_DIM_VLAN) && m->vlan > 4095)
		return bad(why, len, "VLAN", m->vlan);
	if (HAS(m, XSKF_DIM_PROTO) && m->proto >= XSKF_STEER_PROTO_KEYS)
		return bad(why, len, "protocol", m->proto);
	if (HAS(m, XSKF_DIM_SRC) &&
	    check_prefix(m->src_fam, m->src_len, m->src, "source prefix", why, len))
		return -EINVAL;
	if (HAS(m, XSKF_DIM_DST) &&
	    check_prefix(m->dst_fam, m->dst_len, m->dst, "destination prefix", why, len))
		return -EINVAL;
	if (HAS(m, XSKF_DIM_SPORT) && check_ports(m->sport_lo, m->sport_hi, "sport", why, len))
		return -EINVAL;
	if (HAS(m, XSKF_DIM_DPORT) && check_ports(m->dport_lo, m->dport_hi, "dport", why, len))
		return -EINVAL;
	return 0;
}

int xskf_share_check__rule(const struct xskf_prog_srule *r, unsigned int ncpu, char *why,
			   size_t len)
{
	struct xskf_steer_rule m;

	/* the record's bytes may be anything: copied out, never read in place as a struct */
	memcpy(&m, r->rule, sizeof(m));
	if (r->pos >= XSKF_STEER_MAX_RULES)
		return bad(why, len, "position", r->pos);
	if (r->keep_host > 1)
		return bad(why, len, "keep-host flag", r->keep_host);
	/* a bool's byte read as a byte: any other value than 0 is not a rule of the table */
	if (r->rule[offsetof(struct xskf_steer_rule, is_default)])
		return bad(why, len, "default flag",
			   r->rule[offsetof(struct xskf_steer_rule, is_default)]);
	if (m.action > XSKF_STEER_ACT_DROP)
		return bad(why, len, "action", m.action);
	if (m.action == XSKF_STEER_ACT_CPUMAP && !cpus_ok(m.cpus, ncpu))
		return bad(why, len, "cpumap set", m.cpus);
	return check_match(&m, why, len);
}

int xskf_share_check__owner(const struct xskf_prog_qowner *o, unsigned int ncpu, char *why,
			    size_t len)
{
	unsigned int i;

	if (o->gone > 1 || o->served > 1)
		return bad(why, len, "flag", o->gone > 1 ? o->gone : o->served);
	if (o->def_kind > XSKF_STEER_ACT_DROP)
		return bad(why, len, "default action", o->def_kind);
	if (o->def_kind == XSKF_STEER_ACT_CPUMAP && !cpus_ok(o->def_cpus, ncpu))
		return bad(why, len, "default cpumap set", o->def_cpus);
	if (o->pid > 4194304) /* PID_MAX_LIMIT; above, a pid_t could be negative: a group */
		return bad(why, len, "pid", o->pid);
	for (i = 0; i < sizeof(o->comm) && o->comm[i]; i++)
		;
	if (i == sizeof(o->comm))
		return bad(why, len, "name of length", i);
	return 0;
}

void xskf_share_check__comm(const struct xskf_prog_qowner *o, char out[17])
{
	unsigned int i;

	for (i = 0; i < 16 && o->comm[i]; i++)
		out[i] = o->comm[i] >= 0x20 && o->comm[i] < 0x7f ? o->comm[i] : '?';
	out[i] = 0;
}
