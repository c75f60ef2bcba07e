/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A port of the framework around a loaded skeleton, for the steering tests and benchmark: the
 * real table code (framework/backend/xdp/steer/steer.c) writes the maps the real program reads.
 */
#ifndef STEER_PORT_H
#define STEER_PORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/engine.h"
#include "backend/xdp/xdp_state.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/prog/share.h"

/*
 * @nq queues 0 .. nq-1, owned by this process as a run owns its queues (the table scopes its
 * rules to them: prog_share.c); the skeleton loaded without the device-bound variant.
 */
static inline int steer_port_open(struct xskf_engine **eng, struct xskf_port *p, unsigned int nq)
{
	struct xskf_redirect *skel = xskf_redirect__open();
	unsigned int i;

	*eng = calloc(1, sizeof(**eng));
	if (!skel || !*eng)
		return -1;
	bpf_program__set_autoload(skel->progs.xskf_redirect_hw, false);
	if (xskf_redirect__load(skel)) {
		xskf_redirect__destroy(skel);
		return -1;
	}
	memset(p, 0, sizeof(*p));
	/* the xdp backend's own state of the engine and the port, as its init() and add_port() */
	(*eng)->be_priv = calloc(1, sizeof(struct xskf_xdp_engine));
	p->be_priv = calloc(1, sizeof(struct xskf_xdp_port));
	if (!(*eng)->be_priv || !p->be_priv)
		return -1;
	snprintf(p->name, sizeof(p->name), "steer0");
	xskf_xdp_port(p)->skel = skel;
	p->nr_queues = nq;
	for (i = 0; i < nq; i++)
		p->queues[i] = i;
	return xskf_share__queues(*eng, p, true);
}

static inline void steer_port_close(struct xskf_engine *eng, struct xskf_port *p)
{
	xskf_steer__free(p);
	if (xskf_xdp_port(p)->skel)
		xskf_redirect__destroy(xskf_xdp_port(p)->skel);
	xskf_xdp_port(p)->skel = NULL;
	free(p->be_priv);
	p->be_priv = NULL;
	free(eng->be_priv);
	free(eng);
}

/* A frame: Ethernet [VLAN] IPv4|IPv6 L4 with ports, in @pkt (128 bytes); its length. */
struct frame_spec {
	int vlan;	    /* -1: untagged */
	unsigned int etype; /* 0: from v6 */
	bool v6;
	const char *src, *dst;
	unsigned int proto;
	unsigned int sport, dport;
};

static inline unsigned int build_frame(unsigned char *pkt, const struct frame_spec *f)
{
	unsigned int off = 12, l4;

	memset(pkt, 0, 128);
	memcpy(pkt, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	if (f->vlan >= 0) {
		pkt[off++] = 0x81;
		pkt[off++] = 0x00;
		pkt[off++] = (unsigned char)(f->vlan >> 8);
		pkt[off++] = (unsigned char)f->vlan;
	}
	if (f->etype) {
		pkt[off++] = (unsigned char)(f->etype >> 8);
		pkt[off++] = (unsigned char)f->etype;
		return 64;
	}
	pkt[off++] = f->v6 ? 0x86 : 0x08;
	pkt[off++] = f->v6 ? 0xdd : 0x00;
	if (f->v6) {
		pkt[off] = 0x60;
		pkt[off + 6] = (unsigned char)f->proto;
		pkt[off + 7] = 64;
		inet_pton(AF_INET6, f->src ? f->src : "2001:db8::1", pkt + off + 8);
		inet_pton(AF_INET6, f->dst ? f->dst : "2001:db8::2", pkt + off + 24);
		l4 = off + 40;
	} else {
		pkt[off] = 0x45;
		pkt[off + 8] = 64;
		pkt[off + 9] = (unsigned char)f->proto;
		inet_pton(AF_INET, f->src ? f->src : "192.0.2.1", pkt + off + 12);
		inet_pton(AF_INET, f->dst ? f->dst : "192.0.2.2", pkt + off + 16);
		l4 = off + 20;
	}
	pkt[l4] = (unsigned char)(f->sport >> 8);
	pkt[l4 + 1] = (unsigned char)f->sport;
	pkt[l4 + 2] = (unsigned char)(f->dport >> 8);
	pkt[l4 + 3] = (unsigned char)f->dport;
	return l4 + 8 + 18 > 60 ? l4 + 8 + 18 : 60;
}

#endif
