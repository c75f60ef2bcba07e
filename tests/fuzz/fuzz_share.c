// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: what the root run reads back from the maps it shares with other xskf runs
 * (framework/backend/xdp/prog/share_check.c), and what it builds from the records it keeps
 * (steer_ports.c, the step of write_table() that once indexed past its arrays on a rule
 * another process wrote: sport_lo 0x7fffffff). The input is the maps' bytes: owner records
 * of xskf_queues, then rule records of xskf_rules (the first byte says how many owners).
 *  - an owner record kept has flags 0/1, a known default, a name that prints on one line;
 *  - a rule record kept has its fields within bounds (the same properties as fuzz_steer's);
 *  - the port classes built from every rule kept stay inside the table's arrays (ASan), and
 *    every port's class is one of those built;
 *  - a record refused has a one-line reason.
 */
#include <string.h>

#include "backend/xdp/prog/share_check.h"
#include "backend/xdp/steer/steer_ports.h"
#include "xskf_steer.h"

#include "fuzz.h"

static void one_owner(const uint8_t *p)
{
	struct xskf_prog_qowner o;
	char why[96] = "", comm[17];
	unsigned int i;

	memcpy(&o, p, sizeof(o));
	if (xskf_share_check__owner(&o, 1 + p[0] % 64, why, sizeof(why))) {
		FUZZ_ASSERT(why[0] && !strchr(why, '\n'), "reason '%s'", why);
		return;
	}
	FUZZ_ASSERT(o.gone <= 1 && o.served <= 1 && o.def_kind <= XSKF_STEER_ACT_DROP, "flags");
	xskf_share_check__comm(&o, comm);
	for (i = 0; comm[i]; i++)
		FUZZ_ASSERT(comm[i] >= 0x20 && comm[i] < 0x7f, "name byte %#x", comm[i]);
}

/* Keep @p as rule @n when it passes; true when kept. */
static bool one_rule(const uint8_t *p, struct xskf_steer_rule *out, unsigned int ncpu)
{
	struct xskf_prog_srule r;
	struct xskf_steer_rule *m = out;
	char why[96] = "";

	memcpy(&r, p, sizeof(r));
	if (xskf_share_check__rule(&r, ncpu, why, sizeof(why))) {
		FUZZ_ASSERT(why[0] && !strchr(why, '\n'), "reason '%s'", why);
		return false;
	}
	memcpy(m, r.rule, sizeof(*m));
	FUZZ_ASSERT(m->action <= XSKF_STEER_ACT_DROP, "action %u", m->action);
	FUZZ_ASSERT(m->set < (1u << XSKF_NR_DIMS), "set %#x", m->set);
	if (m->set & (1u << XSKF_DIM_SPORT))
		FUZZ_ASSERT(m->sport_lo <= m->sport_hi && m->sport_hi <= 65535, "sport range");
	if (m->set & (1u << XSKF_DIM_DPORT))
		FUZZ_ASSERT(m->dport_lo <= m->dport_hi && m->dport_hi <= 65535, "dport range");
	if (m->action == XSKF_STEER_ACT_CPUMAP)
		FUZZ_ASSERT(m->cpus && (ncpu >= 64 || !(m->cpus >> ncpu)), "cpus");
	return true;
}

/* Every port of generation @g, dimension @sel, in a class that was built. */
static void check_classes(const uint32_t *pcls, uint32_t g, unsigned int sel, unsigned int n)
{
	const uint32_t *map = pcls + (size_t)(g * 2 + sel) * XSKF_STEER_PORT_KEYS;
	unsigned int p;

	/* a sample (every port is 65537 loads a run): the boundaries are where it breaks */
	for (p = 0; p < XSKF_STEER_PORT_KEYS; p += p < 1024 || p > 64500 ? 1 : 61)
		FUZZ_ASSERT((map[p] & 0xffff) <= 2 * n + 1, "port %u: class %u of %u rules", p,
			    map[p] & 0xffff, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct xskf_steer_rule kept[XSKF_STEER_MAX_RULES];
	static const struct xskf_steer_rule *ord[XSKF_STEER_MAX_RULES];
	/* exactly the table's sizes: ASan tells a write past them */
	static uint32_t pcls[XSKF_STEER_PCLS_SIZE];
	static struct xskf_steer_bm cls[XSKF_STEER_PORT_CLASSES];
	unsigned int nown, i, n = 0, ncpu;
	uint32_t g;

	if (size < 2)
		return 0;
	nown = data[0] % 4;
	ncpu = 1 + data[1] % 64;
	g = data[1] >> 7;
	data += 2;
	size -= 2;
	for (i = 0; i < nown && size >= sizeof(struct xskf_prog_qowner); i++) {
		one_owner(data);
		data += sizeof(struct xskf_prog_qowner);
		size -= sizeof(struct xskf_prog_qowner);
	}
	for (; size >= sizeof(struct xskf_prog_srule) && n < XSKF_STEER_MAX_RULES;
	     data += sizeof(struct xskf_prog_srule), size -= sizeof(struct xskf_prog_srule))
		if (one_rule(data, &kept[n], ncpu)) {
			ord[n] = &kept[n];
			n++;
		}
	memset(cls, 0, sizeof(cls));
	xskf_steer_ports__build(ord, n, XSKF_DIM_SPORT, g, cls, pcls);
	check_classes(pcls, g, 0, n);
	memset(cls, 0, sizeof(cls));
	xskf_steer_ports__build(ord, n, XSKF_DIM_DPORT, g, cls, pcls);
	check_classes(pcls, g, 1, n);
	return 0;
}
