/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A port: one interface and its queues, as the core sees it. What the backend keeps of it (the
 * xdp backend: its program, rules, lock, what the watch saw) hangs from be_priv.
 */
#ifndef XSKF_PORT_H
#define XSKF_PORT_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <sys/types.h>

#include "xskf.h"
#include "core/steer.h"

struct xskf_rss;

struct xskf_port {
	char name[IF_NAMESIZE];
	int ifindex;
	unsigned int idx;
	uint32_t queues[XSKF_MAX_QUEUES];
	unsigned int nr_queues;
	unsigned int nr_hw_queues;  /* RX queues the interface has */
	int numa_node;
	struct xskf_steer steer;   /* its steering rules (the xdp backend writes them: steer.c) */
	struct xskf_rss *rss;      /* the port's RSS key, for software hashes */
	void *be_priv;		   /* its backend's own state (backend/xdp/xdp_state.h) */
};

#endif /* XSKF_PORT_H */
