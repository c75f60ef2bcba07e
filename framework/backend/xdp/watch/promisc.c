// SPDX-License-Identifier: BSD-2-Clause
/*
 * Promiscuous ports (xskf_engine__promisc(), include/xskf_engine.h: the xdp backend's promisc()
 * op). A NIC drops unicast frames to other MACs before XDP sees them; veth does not, so the
 * test beds never showed it. A port that
 * must take frames to every MAC (a tunnel's access side, whose frames are addressed to the
 * hosts behind the remote VTEPs) asks for it: an AF_PACKET socket that receives nothing
 * (protocol 0) holds a PACKET_MR_PROMISC membership. The kernel counts it with the others
 * (ip link's promiscuity, tcpdump's) and drops it when the socket closes, at the run's end or
 * its crash, so nothing is left to put back.
 */
#include <errno.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backend/xdp/xdp_state.h"
#include "core/engine.h"
#include "core/log.h"
#include "backend/xdp/watch/promisc.h"

static int promisc_take(struct xskf_port *p)
{
	struct packet_mreq mr = { .mr_ifindex = p->ifindex, .mr_type = PACKET_MR_PROMISC };
	int fd, err;

	if (xskf_xdp_port(p)->promisc_fd > 2)
		return 0;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr))) {
		err = -errno;
		close(fd);
		return err;
	}
	xskf_xdp_port(p)->promisc_fd = fd;
	pr_info("%s: promiscuous for the run (frames to every MAC reach the XDP program); the "
		"kernel drops it when the run ends\n",
		p->name);
	return 0;
}

int xskf_promisc__take(struct xskf_port *p)
{
	int err = promisc_take(p);

	if (err)
		pr_warn("%s: cannot make it promiscuous (%s): frames to other MACs than its own "
			"are dropped by the NIC\n",
			p->name, strerror(-err));
	return err;
}

void xskf_promisc__release(struct xskf_port *p)
{
	if (xskf_xdp_port(p)->promisc_fd > 2)
		close(xskf_xdp_port(p)->promisc_fd);
	xskf_xdp_port(p)->promisc_fd = 0;
}
