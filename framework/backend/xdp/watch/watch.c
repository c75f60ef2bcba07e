// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskf_engine__watch(): what happened to the ports' interfaces while we run. A NIC resets,
 * changes its queue count, is unbound or moved; another tool replaces the XDP program. None of
 * that reaches the workers (they keep polling rings that no longer fill), so the control
 * thread looks, and says so once per change.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/watch/ethtool.h"
#include "backend/xdp/xdp_state.h"
#include "core/clock.h"
#include "core/csum.h"
#include "core/engine.h"
#include "backend/xdp/watch/jumbo.h"
#include "backend/xdp/prog/share.h"
#include "backend/xdp/prog/dispatch.h"
#include "backend/xdp/watch/watch.h"

/* Ethernet header and one VLAN tag on top of the MTU: what a veth forwards to its peer (the
 * kernel's is_skb_forwardable()), and so the longest frame that can arrive */
#define MTU_EXTRA 18

/* The id of the program behind @fd, 0 if unknown. */
int xskf_count_rx_queues(const char *ifname)
{
	struct ethtool_channels ch = {.cmd = ETHTOOL_GCHANNELS};
	char path[128];
	struct dirent *de;
	int n = 0, fd;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d)))
			n += !strncmp(de->d_name, "rx-", 3);
		closedir(d);
		if (n)
			return n;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return 1;
	if (!xskf_ethtool(fd, ifname, &ch))
		n = (int)(ch.rx_count + ch.combined_count);
	close(fd);
	return n > 0 ? n : 1;
}

static uint32_t prog_id(int fd)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.id;
}

/*
 * Our program was detached and nothing took its place. A run that serves other AF_XDP apps
 * (--serve) attaches it again: DPDK's af_xdp driver detaches whatever program the interface
 * has when it closes, even one it did not load (use_pinned_map, use_cni), and the apps we
 * serve must not stop the interface for the others. Alone only: through the dispatcher,
 * libxdp owns the attachment. True when attached again (said in one line).
 */
static bool reattach(struct xskf_port *p, uint32_t ours)
{
	struct xskf_xdp_port *x = xskf_xdp_port(p);

	if (!x->nr_served || x->disp.on || x->share.joined)
		return false;
	if (bpf_xdp_attach(p->ifindex, x->prog_fd, XDP_FLAGS_UPDATE_IF_NOEXIST | x->attach_flags,
			   NULL))
		return false;
	x->seen.prog_missing = false;
	pr_warn("%s: our XDP program (id %u) was detached by someone else (an AF_XDP app we "
		"serve? DPDK's af_xdp driver detaches the interface's program when it closes): "
		"attached it again, as we serve queues to other apps; frames that came in between "
		"went to the stack\n",
		p->name, ours);
	return true;
}

static int watch_port(struct xskf_port *p, int sock)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	uint32_t attached, ours;
	struct ifreq ifr = {};
	char name[IF_NAMESIZE];
	unsigned int rxq, i;
	bool running;

	if (xskf_xdp_port(p)->seen.gone || xskf_xdp_port(p)->seen.replaced)
		return xskf_xdp_port(p)->seen.gone ? -ENODEV : -EEXIST;
	/* by index: a rename is harmless, a deletion or a move to another netns is not */
	if (!if_indextoname((unsigned int)p->ifindex, name)) {
		xskf_xdp_port(p)->seen.gone = true;
		pr_warn("%s: the interface is gone (deleted, or moved to another network namespace): "
			"stopping; a program left on a moved interface is replaced by the next xskf "
			"start there\n",
			p->name);
		return -ENODEV;
	}
	if (xskf_xdp_port(p)->attached && !bpf_xdp_query(p->ifindex, 0, &q)) {
		attached = xskf_xdp_port(p)->attach_flags == XDP_FLAGS_SKB_MODE ? q.skb_prog_id
										: q.drv_prog_id;
		ours = prog_id(xskf_xdp_port(p)->prog_fd);
		/* through libxdp's dispatcher: ours is a component of the program attached, which
		 * libxdp replaces whenever another program joins or leaves */
		if (ours && xskf_xdp_port(p)->disp.on && xskf_disp__watch(p, attached))
			attached = ours;
		/*
		 * A look during a move to another namespace has found the interface still here
		 * without its program (fault-moved, under load), where the next look finds it
		 * gone. Say nothing until a second look, one watch period later, still sees it.
		 */
		if (ours && attached != ours && !xskf_xdp_port(p)->seen.prog_missing) {
			xskf_xdp_port(p)->seen.prog_missing = true;
			return 0;
		}
		if (ours && !attached && reattach(p, ours))
			return 0;
		if (ours && attached != ours) {
			xskf_xdp_port(p)->seen.replaced = true;
			if (attached && xskf_xdp_port(p)->disp.on)
				pr_warn("%s: our XDP program (id %u) was taken out of libxdp's dispatcher "
					"(now id %u) by someone else: frames no longer reach the sockets; "
					"stopping\n",
					p->name, ours, attached);
			else if (attached)
				pr_warn("%s: another XDP program (id %u) replaced ours (id %u): frames no "
					"longer reach the sockets; stopping\n",
					p->name, attached, ours);
			else
				pr_warn("%s: our XDP program (id %u) was detached by someone else: "
					"stopping\n",
					p->name, ours);
			return -EEXIST;
		}
		xskf_xdp_port(p)->seen.prog_missing = false;
		/* another run on this interface died: its queues and rules out of the table */
		xskf_share__reap(p);
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (!ioctl(sock, SIOCGIFFLAGS, &ifr)) {
		running = (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
		if (xskf_xdp_port(p)->seen.checked && running != xskf_xdp_port(p)->seen.running)
			pr_info("%s: link %s\n", p->name,
				running ? "up again: frames flow" :
					  "down: no frames until it is up (the workers wait)");
		xskf_xdp_port(p)->seen.running = running;
	}
	rxq = (unsigned int)xskf_count_rx_queues(name);
	if (xskf_xdp_port(p)->seen.checked && rxq != xskf_xdp_port(p)->seen.rx_queues) {
		uint32_t top = 0;

		for (i = 0; i < p->nr_queues; i++)
			top = p->queues[i] > top ? p->queues[i] : top;
		if (top >= rxq)
			pr_warn(
			    "%s: RX queues changed from %u to %u: queue %u no longer exists, its "
			    "socket receives nothing\n",
			    p->name, xskf_xdp_port(p)->seen.rx_queues, rxq, top);
		else
			pr_info("%s: RX queues changed from %u to %u; the bound queues remain\n",
				p->name, xskf_xdp_port(p)->seen.rx_queues, rxq);
	}
	xskf_xdp_port(p)->seen.rx_queues = rxq;
	xskf_xdp_port(p)->seen.checked = true;
	return 0;
}

/*
 * One line for the ports @tell marks that have the MTU of port @first: "a0, b0: MTU 9000
 * allows ...", with advice true for the numbers: --frame-size 4096 where a 4096-byte frame
 * holds what the MTU allows, else the MTU that fits (xskf has no multi-buffer support).
 */
static void tell_mtu(struct xskf_engine *eng, const int *mtu, bool *tell, unsigned int first)
{
	uint32_t room = xskf_jumbo__room(eng), room4k = 4096 - eng->rx_data_off;
	uint32_t frame = (uint32_t)mtu[first] + MTU_EXTRA;
	char names[XSKF_MAX_PORTS * (IF_NAMESIZE + 2)], more[48] = "";
	size_t off = 0;
	unsigned int i;

	for (i = first; i < eng->nr_ports; i++) {
		if (!tell[i] || mtu[i] != mtu[first])
			continue;
		tell[i] = false;
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", off ? ", " : "",
					eng->ports[i].name);
	}
	if (eng->sg) {
		pr_warn("%s: MTU %d allows %u-byte frames, the kernel takes at most %u buffers of "
			"%u bytes per frame (%u bytes): longer frames are dropped by the kernel "
			"(rx_dropped); use an MTU of at most %u\n",
			names, mtu[first], frame, eng->tx_segs_copy, eng->o.frame_size - eng->rx_data_off,
			room, room - MTU_EXTRA);
		return;
	}
	if (eng->o.frame_size < 4096 && frame <= room4k) {
		pr_warn("%s: MTU %d allows %u-byte frames, a UMEM frame holds %u after its "
			"headroom: longer frames are dropped by the kernel (rx_dropped)%s; use "
			"--frame-size 4096 (it holds %u) or an MTU of at most %u\n",
			names, mtu[first], frame, room, xskf_jumbo__why_not(eng), room4k,
			room - MTU_EXTRA);
		return;
	}
	if (eng->o.frame_size < 4096)
		snprintf(more, sizeof(more), " (%u with --frame-size 4096)", room4k - MTU_EXTRA);
	pr_warn("%s: MTU %d allows %u-byte frames, a UMEM frame holds %u after its headroom: "
		"longer frames are dropped by the kernel (rx_dropped)%s: use an MTU of at most "
		"%u%s\n",
		names, mtu[first], frame, room, xskf_jumbo__why_not(eng), room - MTU_EXTRA, more);
}

void xskf_watch__mtu(struct xskf_engine *eng, int sock)
{
	bool tell[XSKF_MAX_PORTS] = { false }, any = false;
	uint32_t room = xskf_jumbo__room(eng);
	int mtu[XSKF_MAX_PORTS] = { 0 }, own = -1;
	unsigned int i;

	/* a TX-only app receives nothing: its program passes every frame to the stack (the xdp
	 * backend's alone: backend/xdp/xdp.c calls it) */
	if (eng->app.flags & XSKF_APP_F_TX_ONLY)
		return;
	if (sock < 0) {
		sock = own = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (sock < 0)
			return; /* cannot look: say nothing rather than something wrong */
	}
	for (i = 0; i < eng->nr_ports; i++) {
		struct xskf_port *p = &eng->ports[i];
		struct ifreq ifr = {};
		bool over;

		if (xskf_xdp_port(p)->seen.gone ||
		    !if_indextoname((unsigned int)p->ifindex, ifr.ifr_name) ||
		    ioctl(sock, SIOCGIFMTU, &ifr))
			continue;
		mtu[i] = ifr.ifr_mtu;
		over = (uint32_t)ifr.ifr_mtu + MTU_EXTRA > room;
		tell[i] = over && !xskf_xdp_port(p)->seen.mtu_warned;
		any |= tell[i];
		xskf_xdp_port(p)->seen.mtu_warned = over;
	}
	for (i = 0; any && i < eng->nr_ports; i++)
		if (tell[i])
			tell_mtu(eng, mtu, tell, i);
	if (own >= 0)
		close(own);
}

/*
 * How often the ports are looked at. Each look costs the control thread about 0.4 ms of CPU
 * here (sockets, a netlink dump, sysfs, the owner table): at every 50 ms tick, that was 1.3 %
 * of a CPU, taken from the workers or the traffic whenever every CPU is busy. A change is told
 * within this period, a missing program within two.
 */
#define XSKF_WATCH_PERIOD_NS (250ull * 1000 * 1000)

int xskf_watch__ports(struct xskf_engine *eng)
{
	struct xskf_xdp_engine *xe = xskf_xdp_eng(eng);
	uint64_t now = xskf_now_ns();
	unsigned int i;
	int sock, err, ret = 0;

	if (xe->watch_ns && now - xe->watch_ns < XSKF_WATCH_PERIOD_NS)
		return xe->watch_err;
	xe->watch_ns = now;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return 0; /* cannot look: say nothing rather than something wrong */
	for (i = 0; i < eng->nr_ports; i++) {
		err = watch_port(&eng->ports[i], sock);
		if (err && !ret)
			ret = err;
	}
	if (!ret)
		xskf_watch__mtu(eng, sock);
	close(sock);
	xskf_csum__watch(eng);
	xe->watch_err = ret;
	return ret;
}
