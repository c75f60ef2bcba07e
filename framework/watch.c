// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskf_engine__watch(): what happened to the ports' interfaces while we run. A NIC resets,
 * changes its queue count, is unbound or moved; another tool replaces the XDP program. None of
 * that reaches the workers (they keep polling rings that no longer fill), so the control
 * thread looks, and says so once per change.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "csum.h"
#include "internal.h"

/* The id of the program behind @fd, 0 if unknown. */
static uint32_t prog_id(int fd)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.id;
}

static int watch_port(struct xskf_engine *eng, struct xskf_port *p, int sock)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	uint32_t room = eng->o.frame_size - eng->rx_data_off, attached, ours;
	struct ifreq ifr = {};
	char name[IF_NAMESIZE];
	unsigned int rxq, i;
	bool running;

	if (p->seen.gone || p->seen.replaced)
		return p->seen.gone ? -ENODEV : -EEXIST;
	/* by index: a rename is harmless, a deletion or a move to another netns is not */
	if (!if_indextoname((unsigned int)p->ifindex, name)) {
		p->seen.gone = true;
		pr_warn("%s: the interface is gone (deleted, or moved to another network namespace): "
			"stopping; a program left on a moved interface is replaced by the next xskf "
			"start there\n",
			p->name);
		return -ENODEV;
	}
	if (p->attached && !bpf_xdp_query(p->ifindex, 0, &q)) {
		attached = p->attach_flags == XDP_FLAGS_SKB_MODE ? q.skb_prog_id : q.drv_prog_id;
		ours = prog_id(p->prog_fd);
		/*
		 * A look during a move to another namespace has found the interface still here
		 * without its program (fault-moved, under load), where the next look finds it
		 * gone. Say nothing until a second look, one watch period later, still sees it.
		 */
		if (ours && attached != ours && !p->seen.prog_missing) {
			p->seen.prog_missing = true;
			return 0;
		}
		if (ours && attached != ours) {
			p->seen.replaced = true;
			if (attached)
				pr_warn("%s: another XDP program (id %u) replaced ours (id %u): frames no "
					"longer reach the sockets; stopping\n",
					p->name, attached, ours);
			else
				pr_warn("%s: our XDP program (id %u) was detached by someone else: "
					"stopping\n",
					p->name, ours);
			return -EEXIST;
		}
		p->seen.prog_missing = false;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (!ioctl(sock, SIOCGIFFLAGS, &ifr)) {
		running = (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
		if (p->seen.checked && running != p->seen.running)
			pr_info("%s: link %s\n", p->name,
				running ? "up again: frames flow" :
					  "down: no frames until it is up (the workers wait)");
		p->seen.running = running;
	}
	if (!ioctl(sock, SIOCGIFMTU, &ifr)) {
		/* Ethernet header and one VLAN tag on top of the MTU */
		uint32_t frame = (uint32_t)ifr.ifr_mtu + 18;

		if (frame > room && !p->seen.mtu_warned)
			pr_warn("%s: MTU %d allows %u-byte frames, a UMEM frame holds %u after its "
				"headroom: longer frames are dropped by the kernel (rx_dropped); use "
				"--frame-size 4096 or a lower MTU\n",
				p->name, ifr.ifr_mtu, frame, room);
		p->seen.mtu_warned = frame > room;
	}
	rxq = (unsigned int)xskf_count_rx_queues(name);
	if (p->seen.checked && rxq != p->seen.rx_queues) {
		uint32_t top = 0;

		for (i = 0; i < p->nr_queues; i++)
			top = p->queues[i] > top ? p->queues[i] : top;
		if (top >= rxq)
			pr_warn("%s: RX queues changed from %u to %u: queue %u no longer exists, its "
				"socket receives nothing\n",
				p->name, p->seen.rx_queues, rxq, top);
		else
			pr_info("%s: RX queues changed from %u to %u; the bound queues remain\n",
				p->name, p->seen.rx_queues, rxq);
	}
	p->seen.rx_queues = rxq;
	p->seen.checked = true;
	return 0;
}

int xskf_engine__watch(struct xskf_engine *eng)
{
	unsigned int i;
	int sock, err, ret = 0;

	if (!eng || !eng->started || eng->stopped || eng->mem)
		return 0;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return 0; /* cannot look: say nothing rather than something wrong */
	for (i = 0; i < eng->nr_ports; i++) {
		err = watch_port(eng, &eng->ports[i], sock);
		if (err && !ret)
			ret = err;
	}
	close(sock);
	xskf_csum__watch(eng);
	return ret;
}
