// SPDX-License-Identifier: BSD-2-Clause
/*
 * Multi-buffer AF_XDP (docs/jumbo.md): whether the sockets are bound with XDP_USE_SG, and the
 * kernel's limits on multi-buffer frames, decided once at start-up before the sockets open.
 *
 * XDP_USE_SG only where a port's MTU allows frames longer than one UMEM frame holds: at MTU
 * 1500 nothing changes, not even the path a burst takes. And only for an app that takes
 * multi-buffer frames (XSKF_APP_F_FRAGS): any other would read the first buffer of a frame as
 * the whole frame.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backend/xdp/xdp_state.h"
#include "core/engine.h"
#include "backend/xdp/prog/hints_probe.h"
#include "backend/xdp/watch/jumbo.h"
#include "core/sysfs.h"
#include "backend/xdp/prog/prog.h"

/* copy-mode TX sends a frame as an skb: its buffers are the head and max_skb_frags frags */
#define MAX_SKB_FRAGS_DEFAULT 17

uint32_t xskf_jumbo__room(const struct xskf_engine *eng)
{
	uint32_t one = eng->o.frame_size - eng->rx_data_off;

	return eng->sg ? one * eng->tx_segs_copy : one;
}

const char *xskf_jumbo__why_not(const struct xskf_engine *eng)
{
	if (eng->sg)
		return "";
	if (!(eng->app.flags & XSKF_APP_F_FRAGS))
		return "; the app does not take multi-buffer frames (XSKF_APP_F_FRAGS; in a "
		       "chain, every plugin must)";
	if (xskf_xdp_eng(eng)->kernel_probed && !xskf_xdp_eng(eng)->kernel_sg)
		return "; this kernel has no multi-buffer AF_XDP (XDP_USE_SG, Linux 6.6+)";
	/* the MTU was raised after start-up: the sockets were bound for one buffer */
	if (eng->started)
		return "; the sockets were bound for one buffer at start-up: restart to receive "
		       "them as multi-buffer frames";
	return "";
}

int xskf_jumbo__decide(struct xskf_engine *eng)
{
	uint32_t one = eng->o.frame_size - eng->rx_data_off, need = 0, mtu = 0;
	long frags = xskf_sysfs__long("/proc/sys/net/core/max_skb_frags");
	const char *who = "";
	unsigned int i;
	int sock;

	eng->sg = false;
	eng->tx_segs_copy = frags > 0 ? (uint32_t)frags + 1 : MAX_SKB_FRAGS_DEFAULT + 1;
	if (eng->tx_segs_copy > XSKF_MAX_SEGS)
		eng->tx_segs_copy = XSKF_MAX_SEGS;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return 0; /* cannot look: bind as before */
	for (i = 0; i < eng->nr_ports; i++) {
		struct ifreq ifr = {};

		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", eng->ports[i].name);
		if (ioctl(sock, SIOCGIFMTU, &ifr) || (uint32_t)ifr.ifr_mtu <= mtu)
			continue;
		mtu = (uint32_t)ifr.ifr_mtu;
		who = eng->ports[i].name;
	}
	close(sock);
	/* the Ethernet header and a VLAN tag on top of the MTU (watch.c) */
	if (mtu + 18 <= one)
		return 0;
	need = (mtu + 18 + one - 1) / one;
	if (xskf_prog__probe_kernel(eng) || !xskf_xdp_eng(eng)->kernel_sg ||
	    !(eng->app.flags & XSKF_APP_F_FRAGS))
		return 0; /* watch.c says why, with the MTU that fits */
	eng->sg = true;
	eng->sg_segs = need;
	pr_info("%s: MTU %u: frames of up to %u bytes come in up to %u buffers of %u bytes: "
		"multi-buffer AF_XDP (XDP_USE_SG); the kernel takes at most %u buffers per frame "
		"(max_skb_frags %ld + 1) in copy mode\n",
		who, mtu, mtu + 18, need, one, eng->tx_segs_copy,
		frags > 0 ? frags : (long)MAX_SKB_FRAGS_DEFAULT);
	return 0;
}

void xskf_jumbo__sock(struct xskf_sock *s, const struct xskf_engine *eng)
{
	uint32_t zc = 0;

	s->sg = eng->sg;
	s->tx_max_segs = 1;
	if (!eng->sg)
		return;
	s->tx_max_segs = (uint8_t)eng->tx_segs_copy;
	if (!s->zerocopy)
		return;
	/* zero-copy: the driver's own limit (a driver that says none takes one buffer) */
	xskf_netdev__zc_max_segs(s->port->ifindex, &zc);
	s->tx_max_segs = (uint8_t)(zc < 1 ? 1 : zc > XSKF_MAX_SEGS ? XSKF_MAX_SEGS : zc);
	pr_info("%s queue %u: zero-copy with multi-buffer frames: the driver takes %u buffers "
		"per frame (xdp-zc-max-segs)\n",
		s->port->name, s->queue, s->tx_max_segs);
}
