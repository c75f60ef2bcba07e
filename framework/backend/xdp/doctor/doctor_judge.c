// SPDX-License-Identifier: BSD-2-Clause
/*
 * The judges of `xskf doctor`: what the interface and the kernel answered, against what the run
 * will ask. Nothing here makes a system call: what was read comes in as arguments, so that the
 * judges can be tested with answers no test bed gives (tests/unit/test_doctor.c: igb's
 * indirection table, ntuple rules, MSI-X interrupt names, virtio-net's).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/ethtool.h>

#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/doctor/doctor_judge.h"

bool xskf_dr__asked(const struct xskf_dr_ask *a, uint32_t q)
{
	unsigned int i;

	if (!a->nq)
		return true;
	for (i = 0; i < a->nq; i++)
		if (a->queues[i] == q)
			return true;
	return false;
}

/* "0" or "0,2": the asked queues, or "every queue". */
const char *xskf_dr__asked_words(const struct xskf_dr_ask *a, char *buf, size_t len)
{
	unsigned int i;
	size_t off = 0;

	if (!a->nq)
		return "every queue";
	buf[0] = 0;
	for (i = 0; i < a->nq && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u", i ? "," : "", a->queues[i]);
	return buf;
}

/* The Ethernet header and one VLAN tag on top of the MTU (watch.c's MTU_EXTRA). */
#define DR_MTU_EXTRA 18

void xskf_dr__judge_link(struct xskf_dr_report *r, const struct xskf_dr_ask *a, bool up,
			 bool carrier, int mtu, int rx_sg)
{
	const char *n = a->ifname;
	uint32_t room = a->frame_size - a->headroom, frame = (uint32_t)mtu + DR_MTU_EXTRA;

	if (!up)
		xskf_dr__add(r, XSKF_DR_PROBLEM, "link",
			     "%s is down: it receives nothing\nIFF_UP not set (ip link show %s)\n"
			     "ip link set dev %s up",
			     n, n, n);
	else if (!carrier)
		xskf_dr__add(r, XSKF_DR_PROBLEM, "link",
			     "%s has no carrier: nothing arrives\nIFF_UP set, carrier 0 "
			     "(/sys/class/net/%s/carrier)\nbring its other end up (a veth: "
			     "ip link set dev PEER up, in the peer's namespace; a NIC: its cable "
			     "and switch port)",
			     n, n);
	else
		xskf_dr__add(r, XSKF_DR_OK, "link", "%s is up, with carrier", n);
	if (mtu <= 0 || frame <= room) {
		xskf_dr__add(r, XSKF_DR_OK, "mtu",
			     "MTU %d: frames of up to %u bytes fit one "
			     "%u-byte UMEM frame (%u bytes after its headroom)",
			     mtu, frame, a->frame_size, room);
		return;
	}
	xskf_dr__add(
	    r, rx_sg == 1 ? XSKF_DR_INFO : XSKF_DR_PROBLEM, "mtu",
	    "frames longer than %u bytes do not fit one UMEM frame: the kernel drops them "
	    "(rx_dropped) unless the app takes multi-buffer frames%s\nMTU %d + %d = %u-byte "
	    "frames; --frame-size %u less %u bytes of headroom = %u; driver multi-buffer "
	    "in native mode (xdp-features rx-sg): %s\n%s%u",
	    room, rx_sg == 1 ? " (XSKF_APP_F_FRAGS, Linux 6.6+)" : "", mtu, DR_MTU_EXTRA, frame,
	    a->frame_size, a->headroom, room,
	    rx_sg == 1	 ? "yes"
	    : rx_sg == 0 ? "no"
			 : "unknown",
	    a->frame_size < 4096 && frame <= 4096 - a->headroom ? "--frame-size " : "",
	    a->frame_size < 4096 && frame <= 4096 - a->headroom ? 4096 : 0);
	/* the fix above fits --frame-size 4096; else the MTU that fits, in a line of its own */
	if (!(a->frame_size < 4096 && frame <= 4096 - a->headroom))
		snprintf(r->f[r->n - 1].fix, sizeof(r->f[0].fix), "ip link set dev %s mtu %u", n,
			 room - DR_MTU_EXTRA);
}

void xskf_dr__judge_queues(struct xskf_dr_report *r, const struct xskf_dr_ask *a,
			   unsigned int nr_rx, unsigned int max_rx)
{
	unsigned int i, bad = 0;

	if (!nr_rx) {
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "queues",
			     "the RX queue count of %s is not "
			     "reported\n/sys/class/net/%s/queues has no rx-N\n",
			     a->ifname, a->ifname);
		return;
	}
	for (i = 0; i < a->nq; i++) {
		uint32_t q = a->queues[i];

		if (q < nr_rx)
			continue;
		bad++;
		if (max_rx > q)
			xskf_dr__add(
			    r, XSKF_DR_PROBLEM, "queues",
			    "queue %u asked, %s has no such RX queue\n%u RX queues (0-%u), "
			    "at most %u (ethtool -l %s)\nethtool -L %s combined %u",
			    q, a->ifname, nr_rx, nr_rx - 1, max_rx, a->ifname, a->ifname, q + 1);
		else
			xskf_dr__add(
			    r, XSKF_DR_PROBLEM, "queues",
			    "queue %u asked, %s has no such RX queue\n%u RX queues (0-%u)%s"
			    "\n-q with a queue of 0-%u",
			    q, a->ifname, nr_rx, nr_rx - 1,
			    max_rx ? ", and the driver allows no more" : "", nr_rx - 1);
	}
	if (!bad)
		xskf_dr__add(r, XSKF_DR_OK, "queues", "%s has %u RX queue%s; the asked ones exist",
			     a->ifname, nr_rx, nr_rx == 1 ? "" : "s");
}

void xskf_dr__judge_promisc(struct xskf_dr_report *r, const struct xskf_dr_ask *a, bool physical,
			    bool promisc, const uint8_t *ifmac)
{
	const uint8_t *m = a->mac;
	char own[24], want[24];

	snprintf(own, sizeof(own), "%02x:%02x:%02x:%02x:%02x:%02x", ifmac[0], ifmac[1], ifmac[2],
		 ifmac[3], ifmac[4], ifmac[5]);
	snprintf(want, sizeof(want), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4],
		 m[5]);
	/* a virtual device (veth, ...) has no MAC filter in front of XDP: it sees every frame */
	if (!physical || promisc) {
		xskf_dr__add(r, XSKF_DR_OK, "promisc", "%s",
			     promisc ? "promiscuous mode on"
				     : "a virtual device: no MAC filter in front of XDP");
		return;
	}
	/* multicast and broadcast (the group bit) pass the unicast filter */
	if (a->mac_known && (!memcmp(m, ifmac, 6) || (m[0] & 1))) {
		xskf_dr__add(r, XSKF_DR_OK, "promisc", "the traffic (to %s) passes the MAC filter",
			     want);
		return;
	}
	if (a->mac_known) {
		xskf_dr__add(r, XSKF_DR_PROBLEM, "promisc",
			     "frames to %s are dropped by the NIC's MAC filter, before XDP\n"
			     "%s's MAC is %s, promiscuous mode off; the traffic is for %s (--mac)\n"
			     "ip link set dev %s promisc on",
			     want, a->ifname, own, want, a->ifname);
		return;
	}
	xskf_dr__add(
	    r, XSKF_DR_INFO, "promisc",
	    "the NIC passes only frames to %s, broadcast and its multicast groups: traffic "
	    "for another MAC never reaches XDP\npromiscuous mode off; the traffic's MAC is "
	    "not known (--mac MAC checks it)\nip link set dev %s promisc on (only if the "
	    "traffic is for another MAC)",
	    own, a->ifname);
}

/* The number after @word in @name (case-insensitive), or -1. */
static int number_after(const char *name, const char *word)
{
	const char *p = strcasestr(name, word);
	char *end;
	long v;

	if (!p)
		return -1;
	p += strlen(word);
	if (*p < '0' || *p > '9')
		return -1;
	v = strtol(p, &end, 10);
	return v < XSKF_DR_MAXQ && (!*end || *end == '@' || *end == '-') ? (int)v : -1;
}

int xskf_dr__irq_queue(const char *name)
{
	static const char *const rx_words[] = {"txrx-", "-rx-",	  "input.", "mlx5_comp",
					       "-fp-",	"-rxtx-", "-queue-"};
	const char *dash;
	unsigned int i;
	int q;

	for (i = 0; i < sizeof(rx_words) / sizeof(rx_words[0]); i++) {
		q = number_after(name, rx_words[i]);
		if (q >= 0)
			return q;
	}
	/* TX-only, the link's and virtio's control interrupts */
	if (strcasestr(name, "tx") || strcasestr(name, "output") || strcasestr(name, "config") ||
	    strcasestr(name, "ctrl"))
		return -1;
	/* "ens3-2" and the like: a name that ends in -N */
	dash = strrchr(name, '-');
	return dash ? number_after(dash, "-") : -1;
}

int xskf_dr__irq_line(const char *line, unsigned int *irq, char *name, size_t len)
{
	const char *p = line, *last;
	char *end;
	unsigned long v;
	size_t l;

	while (*p == ' ')
		p++;
	v = strtoul(p, &end, 10);
	if (end == p || *end != ':')
		return -EINVAL;
	*irq = (unsigned int)v;
	/* the action's name is the last word (names of kernel interrupts have no spaces) */
	l = strlen(line);
	while (l && (line[l - 1] == '\n' || line[l - 1] == ' '))
		l--;
	for (last = line + l; last > end && last[-1] != ' '; last--)
		;
	snprintf(name, len, "%.*s", (int)(line + l - last), last);
	return 0;
}

int xskf_dr__cpu_list(const char *s, bool *set, unsigned int max)
{
	const char *p = s;
	char *end;

	memset(set, 0, max * sizeof(*set));
	while (*p && *p != '\n') {
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p || hi < lo)
				return -EINVAL;
		}
		for (; lo <= hi && lo < max; lo++)
			set[lo] = true;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

/* The CPU of worker j (queue j of the asked ones): the engine gives queue j to worker j % nw. */
static int worker_cpu(const struct xskf_dr_ask *a, unsigned int j, unsigned int nq)
{
	unsigned int nw = a->ncpus < nq ? a->ncpus : nq;

	return nw ? a->cpus[j % nw] : -1;
}

void xskf_dr__judge_irq(struct xskf_dr_report *r, const struct xskf_dr_ask *a, uint32_t q,
			unsigned int irq, const char *name, const char *affinity,
			unsigned int nr_cpus)
{
	static bool aff[4096];
	unsigned int i, nq = a->nq ? a->nq : q + 1, j = a->nq ? 0 : q;
	int cpu = -1, spare = -1;

	if (!a->ncpus || !xskf_dr__asked(a, q) || xskf_dr__cpu_list(affinity, aff, 4096))
		return;
	for (i = 0; i < a->nq; i++)
		if (a->queues[i] == q)
			j = i;
	for (i = 0; i < a->ncpus && cpu < 0; i++)
		if (a->cpus[i] >= 0 && a->cpus[i] < 4096 && aff[a->cpus[i]])
			cpu = a->cpus[i];
	if (cpu < 0) {
		xskf_dr__add(r, XSKF_DR_OK, "irq-cpu",
			     "queue %u's interrupt %u (%s) runs on CPUs "
			     "%s, no worker's",
			     q, irq, name, affinity);
		return;
	}
	/* a CPU of the machine that no worker polls on */
	for (i = 0; i < nr_cpus && spare < 0; i++) {
		unsigned int k;

		for (k = 0; k < a->ncpus && a->cpus[k] != (int)i; k++)
			;
		if (k == a->ncpus)
			spare = (int)i;
	}
	xskf_dr__add(r, XSKF_DR_PROBLEM, "irq-cpu",
		     "queue %u's interrupt runs on CPU %d, where %s polls: the softirq that fills "
		     "its rings waits for the worker, and the worker for it\nIRQ %u (%s): "
		     "/proc/irq/%u/effective_affinity_list %s; --cpus puts the worker of queue %u "
		     "on CPU %d\n",
		     q, cpu, worker_cpu(a, j, nq) == cpu ? "its own worker" : "a worker", irq, name,
		     irq, affinity, q, worker_cpu(a, j, nq));
	if (spare >= 0)
		snprintf(r->f[r->n - 1].fix, sizeof(r->f[0].fix),
			 "echo %d > "
			 "/proc/irq/%u/smp_affinity_list (irqbalance may move it back: systemctl "
			 "stop irqbalance)",
			 spare, irq);
	else
		snprintf(r->f[r->n - 1].fix, sizeof(r->f[0].fix),
			 "every CPU has a worker: give "
			 "--cpus one CPU fewer, and the interrupt that one (echo CPU > "
			 "/proc/irq/%u/smp_affinity_list)",
			 irq);
}

void xskf_dr__judge_huge(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int node,
			 uint64_t page_size, long free, unsigned int workers)
{
	uint64_t per = page_size ? (a->umem_bytes + page_size - 1) / page_size : 0;
	long need = (long)(per * workers);

	if (!page_size) {
		xskf_dr__add(r, XSKF_DR_OK, "hugepages",
			     "the kernel has no hugepages: UMEMs on "
			     "normal pages");
		return;
	}
	if (node < 0) {
		xskf_dr__add(r, XSKF_DR_OK, "hugepages",
			     "the NIC has no NUMA node (a virtual "
			     "device, or a machine of one node): the UMEM's node does not matter");
		return;
	}
	if (free >= need) {
		xskf_dr__add(r, XSKF_DR_OK, "hugepages",
			     "%ld free %llu KiB pages on node %d, the "
			     "NIC's; %ld needed",
			     free, (unsigned long long)page_size >> 10, node, need);
		return;
	}
	xskf_dr__add(
	    r, XSKF_DR_PROBLEM, "hugepages",
	    "the UMEM%s cannot all be on hugepages on node %d, the NIC's: the rest go on "
	    "normal pages or another node (xskf says which at start)\nnode %d has %ld free "
	    "%llu KiB pages (/sys/devices/system/node/node%d/hugepages/hugepages-%llukB/"
	    "free_hugepages); %u worker%s x %llu pages of UMEM (%llu bytes each) = %ld\n"
	    "echo %ld > /sys/devices/system/node/node%d/hugepages/hugepages-%llukB/"
	    "nr_hugepages (the node's nr_hugepages plus %ld)",
	    workers > 1 ? "s" : "", node, node, free, (unsigned long long)page_size >> 10, node,
	    (unsigned long long)page_size >> 10, workers, workers > 1 ? "s" : "",
	    (unsigned long long)per, (unsigned long long)a->umem_bytes, need, need - free, node,
	    (unsigned long long)page_size >> 10, need - free);
}

void xskf_dr__judge_memlock(struct xskf_dr_report *r, const struct xskf_dr_ask *a, uint64_t limit,
			    bool ipc_lock, unsigned int workers)
{
	uint64_t need = a->umem_bytes * workers, kib = (need + 1023) >> 10;

	if (ipc_lock || limit >= need) {
		xskf_dr__add(r, XSKF_DR_OK, "memlock", "%s",
			     ipc_lock ? "CAP_IPC_LOCK: UMEMs are "
					"not charged to RLIMIT_MEMLOCK"
				      : "RLIMIT_MEMLOCK holds the UMEMs");
		return;
	}
	xskf_dr__add(
	    r, XSKF_DR_PROBLEM, "memlock",
	    "the UMEMs do not fit the locked-memory limit: the socket's UMEM registration "
	    "fails (ENOBUFS)\nRLIMIT_MEMLOCK %llu KiB, no CAP_IPC_LOCK; %u worker%s x %llu "
	    "bytes of UMEM = %llu KiB\nulimit -l %llu (or unlimited; a service: "
	    "LimitMEMLOCK=)",
	    (unsigned long long)limit >> 10, workers, workers > 1 ? "s" : "",
	    (unsigned long long)a->umem_bytes, (unsigned long long)kib, (unsigned long long)kib);
}

void xskf_dr__judge_umem(struct xskf_dr_report *r, uint32_t frames, uint32_t fill, uint32_t tx,
			 unsigned int socks)
{
	uint64_t need = (uint64_t)socks * fill;

	if (!frames || frames >= need) {
		xskf_dr__add(r, XSKF_DR_OK, "umem", "the UMEM (%s) can fill every fill ring",
			     frames ? "--frames" : "the fill and TX rings of every socket");
		return;
	}
	xskf_dr__add(
	    r, XSKF_DR_PROBLEM, "umem",
	    "the UMEM is too small for the rings: the fill ring can never be full, and a "
	    "burst longer than the frames in it is dropped (kernel rx_dropped)\n--frames %u "
	    "for %u socket%s per worker, each fill ring %u slots (%llu frames to fill "
	    "them, and TX rings of %u)\n--frames %llu (or leave --frames out)",
	    frames, socks, socks > 1 ? "s" : "", fill, (unsigned long long)need, tx,
	    (unsigned long long)socks * (fill + tx));
}
