// SPDX-License-Identifier: BSD-2-Clause
/*
 * The checks of `xskf doctor` that are cheap and certain at start-up, one warning line each,
 * naming doctor for more: a bound queue the RSS indirection table leaves out (it gets no hashed
 * frame), and a worker pinned to the CPU its queue's interrupt runs on. Silent where the driver
 * answers neither (veth) and when all is well: a healthy start prints nothing more. (A UMEM that
 * gets no hugepages on its node is said by umem.c, where it is allocated.)
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/doctor/doctor_read.h"
#include "backend/xdp/xdp_state.h"
#include "core/engine.h"
#include "core/log.h"
#include "core/sock.h"
#include "core/worker.h"
#include "backend/xdp/doctor/doctor_judge.h"
#include "backend/xdp/doctor/doctor_cmd.h"

/* Bound queues of @p that its RSS indirection table names nowhere. */
static void rss_set(const struct xskf_engine *eng, const struct xskf_port *p, int efd)
{
	static bool in[XSKF_DR_MAXQ];
	uint32_t *indir;
	unsigned int n, i;
	char words[256];

	if (xskf_dr__indir(efd, p->name, &indir, &n) || !n) {
		free(indir);
		return; /* no table (veth), or none to read: nothing certain to say */
	}
	memset(in, 0, sizeof(in));
	for (i = 0; i < n; i++)
		if (indir[i] < XSKF_DR_MAXQ)
			in[indir[i]] = true;
	free(indir);
	xskf_dr__ranges(in, XSKF_DR_MAXQ, words, sizeof(words));
	for (i = 0; i < eng->nr_socks; i++) {
		const struct xskf_sock *s = &eng->socks[i];

		if (s->port != p || s->queue >= XSKF_DR_MAXQ || in[s->queue])
			continue;
		pr_warn(
		    "warning: %s queue %u is not in the RSS indirection table (queues %s): it "
		    "gets no hashed frame, only those an ntuple rule sends it ('xskf doctor -i %s "
		    "-q %u' says more)\n",
		    p->name, s->queue, words, p->name, s->queue);
	}
}

/* Workers of @p's queues pinned to the CPU their queue's interrupt runs on. */
static void irq_cpus(const struct xskf_engine *eng, const struct xskf_port *p)
{
	static struct xskf_dr_irq irqs[XSKF_DR_MAXQ];
	static bool aff[4096];
	int n = xskf_dr__irqs(p->name, irqs, XSKF_DR_MAXQ), k;
	unsigned int i;

	for (i = 0; i < eng->nr_socks; i++) {
		const struct xskf_sock *s = &eng->socks[i];
		int cpu = s->worker->cpu;

		if (s->port != p || cpu < 0 || cpu >= 4096)
			continue;
		for (k = 0; k < n && irqs[k].queue != s->queue; k++)
			;
		if (k == n || xskf_dr__cpu_list(irqs[k].affinity, aff, 4096) || !aff[cpu])
			continue;
		pr_warn("warning: %s queue %u: its worker polls on CPU %d, where the queue's "
			"interrupt runs (IRQ %u %s, CPUs %s): the two take turns on one CPU ('xskf "
			"doctor -i %s -q %u --cpus %d' says more)\n",
			p->name, s->queue, cpu, irqs[k].irq, irqs[k].name, irqs[k].affinity,
			p->name, s->queue, cpu);
	}
}

void xskf_dr__startup(const struct xskf_engine *eng)
{
	int efd = xskf_dr__open_ethtool();
	unsigned int i;

	for (i = 0; i < eng->nr_ports; i++) {
		if (efd >= 0)
			rss_set(eng, &eng->ports[i], efd);
		irq_cpus(eng, &eng->ports[i]);
	}
	if (efd >= 0)
		close(efd);
}
