// SPDX-License-Identifier: BSD-2-Clause
/*
 * The xdp backend's part of the control socket's "doctor" answer (runner/ctl_doctor.c): the
 * program's counters on every RX queue of each port, bound or not (frames on a queue without a
 * socket are passed to the stack, and only these counters see them), each socket's NAPI ID and
 * its queue's interrupt, what `xskf doctor`'s XDP check says of the programs attached now
 * (another one in front of ours in libxdp's dispatcher), and what its rx-flow-hash check says
 * of the queues the run binds on each port (`xskfctl doctor` names it when a bound queue
 * starves while another takes the traffic). Control thread; read only.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>

#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/doctor/doctor_read.h"
#include "backend/xdp/xdp_state.h"
#include "core/engine.h"
#include "core/sock.h"
#include "core/worker.h"
#include "xskf_prog.h"
#include "json.h" /* util/: xj_write_str() */
#include "backend/xdp/prog/prog.h"
#include "backend/xdp/sock/sock.h"
#include "backend/xdp/doctor/doctor_judge.h"
#include "backend/xdp/doctor/doctor_cmd.h"


/* One finding as a JSON object of the answer's "programs" and "steering" arrays. */
static void finding(FILE *f, const struct xskf_dr_finding *x, bool *first)
{
	fprintf(f, "%s{\"check\": \"%s\", \"severity\": \"%s\", \"what\": ", *first ? "" : ", ",
		x->check, xskf_dr__sev_name(x->sev));
	xj_write_str(f, x->what);
	fprintf(f, ", \"evidence\": ");
	xj_write_str(f, x->evidence);
	fprintf(f, ", \"fix\": ");
	xj_write_str(f, x->fix);
	fputc('}', f);
	*first = false;
}

/*
 * The problems of @p's rx-flow-hash for the queues the run binds there (the ethtool gets need
 * no capability): a hash over addresses only puts every flow between two hosts on one queue.
 */
static void port_steering(FILE *f, const struct xskf_engine *eng, const struct xskf_port *p)
{
	static const uint32_t flows[] = {TCP_V4_FLOW, UDP_V4_FLOW, TCP_V6_FLOW, UDP_V6_FLOW};
	static struct xskf_dr_report r;
	static struct xskf_dr_ask a;
	unsigned int i;
	bool first = true;
	uint64_t fields;
	int fd;

	memset(&r, 0, sizeof(r));
	memset(&a, 0, sizeof(a));
	a.ifname = p->name;
	for (i = 0; i < eng->nr_socks && a.nq < XSKF_DR_MAXQ; i++)
		if (eng->socks[i].port == p)
			a.queues[a.nq++] = eng->socks[i].queue;
	fd = a.nq ? xskf_dr__open_ethtool() : -1;
	for (i = 0; fd >= 0 && i < sizeof(flows) / sizeof(flows[0]); i++)
		if (!xskf_dr__rxfh(fd, p->name, flows[i], &fields))
			xskf_dr__judge_rxfh(&r, &a, flows[i], fields, 0);
	if (fd >= 0)
		close(fd);
	fprintf(f, ", \"steering\": [");
	for (i = 0; i < r.n; i++)
		if (r.f[i].sev == XSKF_DR_PROBLEM)
			finding(f, &r.f[i], &first);
	fputc(']', f);
}

static void port_queues(FILE *f, const struct xskf_engine *eng, struct xskf_port *p)
{
	unsigned int q,
	    n = p->nr_hw_queues < XSKF_PROG_MAX_QUEUES ? p->nr_hw_queues : XSKF_PROG_MAX_QUEUES;
	uint64_t c[3];

	fprintf(f, "{\"name\": \"%s\", \"rx_queues\": %u, \"program\": [", p->name,
		p->nr_hw_queues);
	for (q = 0; q < n; q++) {
		if (xskf_prog__counters(p, q, c))
			c[0] = c[1] = c[2] = 0;
		fprintf(
		    f,
		    "%s{\"queue\": %u, \"redirected\": %llu, \"passed\": %llu, \"errors\": %llu}",
		    q ? ", " : "", q, (unsigned long long)c[0], (unsigned long long)c[1],
		    (unsigned long long)c[2]);
	}
	fputc(']', f);
	port_steering(f, eng, p);
	fputc('}', f);
}

/* Socket @s's queue interrupt among @irqs (@n of its port's). */
static void sock_irq(FILE *f, const struct xskf_sock *s, const struct xskf_dr_irq *irqs, int n)
{
	int i;

	for (i = 0; i < n && irqs[i].queue != s->queue; i++)
		;
	fprintf(f,
		"{\"port\": \"%s\", \"queue\": %u, \"worker\": %u, \"cpu\": %d, \"napi_id\": %u, "
		"\"irq\": %d, \"irq_name\": ",
		s->port->name, s->queue, s->worker->id, s->worker->cpu, xskf_sock__napi_id(s),
		i < n ? (int)irqs[i].irq : -1);
	xj_write_str(f, i < n ? irqs[i].name : "");
	fprintf(f, ", \"irq_cpus\": ");
	xj_write_str(f, i < n ? irqs[i].affinity : "");
	fputc('}', f);
}

/* The problems `xskf doctor` finds with the programs attached to @p now. */
static void port_programs(FILE *f, struct xskf_port *p, bool *first)
{
	static struct xskf_dr_report r;
	struct xskf_dr_ask a = {.ifname = p->name};
	unsigned int i;

	/*
	 * Alone on the interface, nothing runs in front of our program (watch.c says when another
	 * replaces it); and the capabilities to look at other programs are kept only for the
	 * dispatcher's sake (xdp_keep_caps()).
	 */
	if (!xskf_xdp_port(p)->disp.on)
		return;
	memset(&r, 0, sizeof(r));
	xskf_dr__check_xdp(&r, &a, p->ifindex);
	for (i = 0; i < r.n; i++)
		if (r.f[i].sev >= XSKF_DR_INFO)
			finding(f, &r.f[i], first);
}

void xskf_xdp__doctor(struct xskf_engine *eng, FILE *f)
{
	static struct xskf_dr_irq irqs[XSKF_MAX_PORTS][64];
	int nirq[XSKF_MAX_PORTS];
	unsigned int i;
	bool first = true;

	fprintf(f, ",\n \"ports\": [");
	for (i = 0; i < eng->nr_ports; i++) {
		fprintf(f, "%s", i ? ",\n   " : "");
		port_queues(f, eng, &eng->ports[i]);
		nirq[i] = xskf_dr__irqs(eng->ports[i].name, irqs[i], 64);
	}
	fprintf(f, "],\n \"sockets\": [");
	for (i = 0; i < eng->nr_socks; i++) {
		const struct xskf_sock *s = &eng->socks[i];

		fprintf(f, "%s", i ? ", " : "");
		sock_irq(f, s, irqs[s->port->idx], nirq[s->port->idx]);
	}
	fprintf(f, "],\n \"programs\": [");
	for (i = 0; i < eng->nr_ports; i++)
		port_programs(f, &eng->ports[i], &first);
	fprintf(f, "]");
}
