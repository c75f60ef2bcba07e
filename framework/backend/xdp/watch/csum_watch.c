// SPDX-License-Identifier: BSD-2-Clause
/*
 * Telling the user about unfinished TCP/UDP checksums (csum.c), from the control thread: once
 * at start-up where the interface says it (a veth port whose peer has TX checksum offload,
 * veth's default), and once when a port first counts such frames. A forwarder that sends them
 * on as they are delivers frames every receiver drops, and nothing else would say why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "backend/xdp/xdp_state.h"
#include "core/csum.h"
#include "core/engine.h"
#include "backend/xdp/watch/ethtool.h"

/*
 * The peer's ifindex of veth @ifname (its `ethtool -S` counter peer_ifindex), or -ENODEV when
 * @ifname is no veth, or another -errno.
 */
static int veth_peer(int fd, const char *ifname)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_gstrings *names = NULL;
	struct ethtool_stats *st = NULL;
	uint32_t i, n;
	int err, ret = -ENOENT;

	err = xskf_ethtool(fd, ifname, &di);
	if (err)
		return err;
	if (strcmp(di.driver, "veth"))
		return -ENODEV;
	n = di.n_stats;
	if (!n || n > 4096)
		return -ENOENT;
	names = calloc(1, sizeof(*names) + (size_t)n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	if (!names || !st) {
		ret = -ENOMEM;
		goto out;
	}
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = n;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	if ((err = xskf_ethtool(fd, ifname, names)) || (err = xskf_ethtool(fd, ifname, st))) {
		ret = err;
		goto out;
	}
	for (i = 0; i < n && i < names->len && i < st->n_stats; i++) {
		if (!strncmp((char *)names->data + i * ETH_GSTRING_LEN, "peer_ifindex",
			     ETH_GSTRING_LEN)) {
			ret = (int)st->data[i];
			break;
		}
	}
out:
	free(names);
	free(st);
	return ret;
}

/* What we know of a port's veth peer. */
struct peer {
	int ifindex;            /* 0: the port is no veth (or we cannot tell) */
	bool here;              /* in our network namespace, named in name */
	char name[IF_NAMESIZE];
	int tx_csum;            /* its TX checksum offload: 1 on, 0 off, -1 unknown */
};

static void find_peer(int fd, const struct xskf_port *p, struct peer *pe)
{
	struct ethtool_value v = { .cmd = ETHTOOL_GTXCSUM };
	int idx = veth_peer(fd, p->name);

	memset(pe, 0, sizeof(*pe));
	pe->tx_csum = -1;
	if (idx <= 0)
		return;
	pe->ifindex = idx;
	/*
	 * The ifindex is the peer's in its own namespace: it names our peer only if the
	 * interface of that index here is a veth whose peer is us. Our own index is never our
	 * peer's here: each namespace numbers its devices from 1, so two ends made in two fresh
	 * namespaces often have the same index, each its own peer's.
	 */
	if (idx == p->ifindex || !if_indextoname((unsigned int)idx, pe->name) ||
	    veth_peer(fd, pe->name) != p->ifindex) {
		snprintf(pe->name, sizeof(pe->name), "PEER");
		return;
	}
	pe->here = true;
	if (!xskf_ethtool(fd, pe->name, &v))
		pe->tx_csum = v.data ? 1 : 0;
}

/* The fix, for a message: "'ethtool -K veth1 tx off'", or where to run it. */
static void peer_fix(const struct peer *pe, char *buf, size_t len)
{
	if (pe->here)
		snprintf(buf, len, "'ethtool -K %s tx off'", pe->name);
	else if (pe->ifindex)
		snprintf(buf, len, "'ethtool -K PEER tx off' in the namespace of the veth peer "
			 "(ifindex %d there)", pe->ifindex);
	else
		snprintf(buf, len, "'ethtool -K PEER tx off' on the sender");
}

void xskf_csum__probe(struct xskf_engine *eng)
{
	unsigned int i;
	struct peer pe;
	int fd;

	/* the xdp backend's alone (backend/xdp/xdp.c calls it) */
	if (!(eng->app.flags & XSKF_APP_F_FORWARDS))
		return;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	for (i = 0; i < eng->nr_ports; i++) {
		const struct xskf_port *p = &eng->ports[i];

		find_peer(fd, p, &pe);
		if (!pe.ifindex || !pe.tx_csum)
			continue; /* no veth, or its peer finishes its checksums itself */
		if (eng->o.csum_repair)
			pr_info("%s: veth port%s%s%s: --csum-repair finishes the TCP/UDP checksums its "
				"TX checksum offload leaves unfinished\n",
				p->name, pe.here ? " (peer " : "", pe.here ? pe.name : "",
				pe.here ? ")" : "");
		else if (pe.here)
			pr_warn("warning: %s: its veth peer %s has TX checksum offload on: its TCP/UDP "
				"frames arrive with unfinished checksums, and sent on as they are "
				"their receivers drop them; fix: 'ethtool -K %s tx off', or "
				"--csum-repair\n",
				p->name, pe.name, pe.name);
		else
			pr_warn("warning: %s: a veth port whose peer (ifindex %d, in another network "
				"namespace) may keep veth's default TX checksum offload: its TCP/UDP "
				"frames then arrive with unfinished checksums, which receivers drop once "
				"sent on; fix: 'ethtool -K PEER tx off' in that namespace, or "
				"--csum-repair\n",
				p->name, pe.ifindex);
	}
	close(fd);
}

void xskf_csum__watch(struct xskf_engine *eng)
{
	char fix[128];
	unsigned int i, k;
	struct peer pe;
	int fd;

	for (i = 0; i < eng->nr_ports; i++) {
		struct xskf_port *p = &eng->ports[i];
		uint64_t seen = 0;

		if (xskf_xdp_port(p)->seen.csum_told)
			continue;
		for (k = 0; k < eng->nr_socks; k++)
			if (eng->socks[k].port == p)
				seen += eng->socks[k].c.csum_unfinished;
		if (!seen)
			continue;
		xskf_xdp_port(p)->seen.csum_told = true;
		if (eng->o.csum_repair) {
			pr_info("%s: TCP/UDP frames arrive with unfinished checksums (the sender's TX "
				"checksum offload): --csum-repair finishes them (csum_repaired)\n",
				p->name);
			continue;
		}
		if (!(eng->app.flags & XSKF_APP_F_FORWARDS)) {
			pr_debug("%s: TCP/UDP frames arrive with unfinished checksums (the sender's "
				 "TX checksum offload; csum_unfinished)\n",
				 p->name);
			continue;
		}
		memset(&pe, 0, sizeof(pe));
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd >= 0) {
			find_peer(fd, p, &pe);
			close(fd);
		}
		peer_fix(&pe, fix, sizeof(fix));
		pr_warn("warning: %s: TCP/UDP frames arrive with unfinished checksums (the sender's "
			"TX checksum offload): sent on as they are, their receivers drop them; fix: "
			"%s, or --csum-repair\n",
			p->name, fix);
	}
}
