/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A port (one interface, its queues) and its XDP program (prog.c, watch.c).
 */
#ifndef XSKF_PORT_H
#define XSKF_PORT_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/if_link.h>
#include <net/if.h>

#include "xskf.h"
#include "core/steer.h"

struct xskf_engine;
struct xskf_rss;

enum xskf_redirect_tier {
	XSKF_TIER_REDIRECT_XSK = 0, /* bpf_redirect_xsk(): never merged upstream */
	XSKF_TIER_MAP_FALLBACK = 1, /* bpf_redirect_map(&xsks, q, XDP_PASS) */
	XSKF_TIER_MAP_LOOKUP = 2,   /* lookup, then bpf_redirect_map(&xsks, q, 0) */
};

struct xskf_redirect; /* the skeleton */

struct xskf_port {
	char name[IF_NAMESIZE];
	int ifindex;
	unsigned int idx;
	uint32_t queues[XSKF_MAX_QUEUES];
	unsigned int nr_queues;
	unsigned int nr_hw_queues;  /* RX queues the interface has */
	int numa_node;
	/* XDP program state */
	struct xskf_redirect *skel;
	int prog_fd;               /* the attached program */
	int native_fd, skb_fd;     /* the loaded candidates for native and SKB mode */
	uint32_t attach_flags;     /* XDP_FLAGS_DRV_MODE or XDP_FLAGS_SKB_MODE when attached */
	bool attached;
	/* a foreign program replaced with --force, put back at exit: its fd, mode and name */
	bool foreign_saved;
	int foreign_fd;
	uint32_t foreign_mode;
	char foreign_name[64];
	enum xskf_redirect_tier tier;
	unsigned int hints_hw;     /* XSKF_HINTS_KF_* the attached program reads from the driver */
	struct xskf_steer steer;   /* the rule table (steer.c) */
	struct xskf_rss *rss;      /* the port's RSS key, for software hashes */
	/* what xskf_engine__watch() last saw (watch.c), so that each change is told once */
	struct {
		bool checked, gone, replaced, running, mtu_warned;
		bool prog_missing; /* our program was not there at the last look */
		bool csum_told;    /* unfinished checksums counted and said (csum_watch.c) */
		unsigned int rx_queues;
	} seen;
};

int xskf_prog__preflight(struct xskf_engine *eng, struct xskf_port *port);
/*
 * xskf_prog__probe_kernel() - read the kernel's BTF once per run: the hint kfuncs, the
 * redirect tier, multi-buffer AF_XDP (eng->kernel_sg). 0 or -errno (said in one line).
 */
int xskf_prog__probe_kernel(struct xskf_engine *eng);
int xskf_prog__setup(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__attach(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__set_xsk(struct xskf_port *port, uint32_t queue, int xsk_fd);
void xskf_prog__detach(struct xskf_port *port);
void xskf_prog__teardown(struct xskf_port *port);
int xskf_prog__counters(struct xskf_port *port, uint32_t queue, uint64_t out[3]);
void xskf_prog__emergency_detach(void);

/*
 * xskf_watch__mtu() - say once, for every port whose MTU allows frames longer than a UMEM
 * frame holds, that the kernel drops them and what helps; one line for ports of the same MTU.
 * Nothing for TX-only apps. @sock: a datagram socket for the ioctls, or -1 (one is opened).
 * Thread: control thread (xskf_engine__start() before set-up, xskf_engine__watch()).
 */
void xskf_watch__mtu(struct xskf_engine *eng, int sock);

/* xskf_engine__watch() of the xdp backend (watch.c): every port's interface and program. */
int xskf_watch__ports(struct xskf_engine *eng);
/* RX queues of @ifname (sysfs, else ETHTOOL_GCHANNELS), at least 1 (port_info.c). */
int xskf_count_rx_queues(const char *ifname);

#endif /* XSKF_PORT_H */
