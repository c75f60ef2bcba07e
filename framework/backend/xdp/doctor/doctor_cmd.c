// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskf doctor -i IFACE [-q Q]... [options] [--json] [-v]`: before a run, read the interface and
 * the kernel, and say in one line each what would keep frames from the run's sockets, with the
 * evidence and the fix; "no problem found" when nothing would. It changes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/ethtool.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/doctor/doctor_read.h"
#include "backend/xdp/prog/hints_probe.h"
#include "core/hugepages.h"
#include "core/log.h"
#include "core/sysfs.h"
#include "xskf_meta.h"
#include "backend/xdp/doctor/doctor_judge.h"
#include "backend/xdp/doctor/doctor_cmd.h"

struct dr_run {
	struct xskf_dr_ask a;
	struct xskf_dr_report r;
	int ifindex, efd;
	unsigned int nr_rx, workers;
	uint32_t fill, tx, frames;
	bool json, verbose, no_hints;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xskf doctor -i IFACE [-q Q]... [options] [--json]\n"
		"Read IFACE and the kernel: one line per reason frames would not reach a\n"
		"run with these options, with its evidence and fix; \"no problem found\" when\n"
		"there is none. Exit 0: no problem, 1: problems, 2: usage. See xskf-doctor(1).\n"
		"  -i, --interface IFACE  the interface the run will use\n"
		"  -q, --queue Q          a queue it will bind (repeat; default: every queue)\n"
		"      --cpus LIST        the workers' CPUs, as the run's --cpus\n"
		"  -z, --zero-copy        the run asks for zero-copy\n"
		"  -B, --busy-poll        the run asks for busy polling\n"
		"      --skb              the run asks for SKB (generic) mode\n"
		"      --frame-size N     the run's UMEM frame size (2048 or 4096; default 2048)\n"
		"      --frames N         the run's --frames (default: fill + TX ring per socket)\n"
		"      --fill-ring N      the run's fill ring size (default 2048)\n"
		"      --tx-ring N        the run's TX ring size (default 2048)\n"
		"      --no-hints         the run's --no-hints (less headroom in front of frames)\n"
		"      --mac MAC          the destination MAC of the traffic (MAC filter check)\n"
		"      --json             one JSON document with every check\n"
		"  -v, --verbose          also the checks that found nothing wrong\n"
		"  -h, --help             this text\n");
}

static int parse_mac(const char *s, uint8_t *m)
{
	unsigned int v[6], i;
	char end;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &end) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		m[i] = (uint8_t)v[i];
	return 0;
}

/* A whole number of @lo..@hi for option @o, or -1 with a line said. */
static long num(const char *o, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		pr_warn("doctor: invalid %s '%s': a number of %ld to %ld\n", o, s, lo, hi);
		return -1;
	}
	return v;
}

enum { O_CPUS = 256, O_FRAME, O_FRAMES, O_FILL, O_TXR, O_SKB, O_MAC, O_JSON, O_NOHINTS };

static int parse_one(struct dr_run *d, int c, const char *arg)
{
	long v = 0;
	bool set[256];
	unsigned int i;

	switch (c) {
	case 'i':
		d->a.ifname = arg;
		return 0;
	case 'q':
		v = num("-q", arg, 0, XSKF_DR_MAXQ - 1);
		if (v < 0 || d->a.nq == XSKF_DR_MAXQ)
			return -EINVAL;
		d->a.queues[d->a.nq++] = (uint32_t)v;
		return 0;
	case 'z':
		d->a.zero_copy = true;
		return 0;
	case 'B':
		d->a.busy_poll = true;
		return 0;
	case 'v':
		d->verbose = true;
		return 0;
	case O_SKB:
		d->a.skb = true;
		return 0;
	case O_JSON:
		d->json = true;
		return 0;
	case O_NOHINTS:
		d->no_hints = true;
		return 0;
	case O_CPUS:
		if (xskf_dr__cpu_list(arg, set, 256)) {
			pr_warn("doctor: invalid --cpus '%s': a CPU list ('1' or '0,2-3')\n", arg);
			return -EINVAL;
		}
		for (i = 0; i < 256; i++)
			if (set[i])
				d->a.cpus[d->a.ncpus++] = (int)i;
		return 0;
	case O_FRAME:
		if (strcmp(arg, "2048") && strcmp(arg, "4096")) {
			pr_warn("doctor: invalid --frame-size '%s': 2048 or 4096\n", arg);
			return -EINVAL;
		}
		d->a.frame_size = (uint32_t)atoi(arg);
		return 0;
	case O_FRAMES:
		v = num("--frames", arg, 1, 1 << 24);
		d->frames = (uint32_t)v;
		break;
	case O_FILL:
		v = num("--fill-ring", arg, 1, 1 << 20);
		d->fill = (uint32_t)v;
		break;
	case O_TXR:
		v = num("--tx-ring", arg, 1, 1 << 20);
		d->tx = (uint32_t)v;
		break;
	case O_MAC:
		if (parse_mac(arg, d->a.mac)) {
			pr_warn("doctor: invalid --mac '%s': six hex bytes, aa:bb:cc:dd:ee:ff\n",
				arg);
			return -EINVAL;
		}
		d->a.mac_known = true;
		return 0;
	default:
		return -EINVAL;
	}
	return v < 0 ? -EINVAL : 0;
}

static int parse(struct dr_run *d, int argc, char **argv)
{
	static const struct option lo[] = {
	    {"interface", 1, NULL, 'i'},      {"queue", 1, NULL, 'q'},
	    {"zero-copy", 0, NULL, 'z'},      {"busy-poll", 0, NULL, 'B'},
	    {"verbose", 0, NULL, 'v'},	      {"help", 0, NULL, 'h'},
	    {"cpus", 1, NULL, O_CPUS},	      {"frame-size", 1, NULL, O_FRAME},
	    {"frames", 1, NULL, O_FRAMES},    {"fill-ring", 1, NULL, O_FILL},
	    {"tx-ring", 1, NULL, O_TXR},      {"skb", 0, NULL, O_SKB},
	    {"mac", 1, NULL, O_MAC},	      {"json", 0, NULL, O_JSON},
	    {"no-hints", 0, NULL, O_NOHINTS}, {NULL, 0, NULL, 0}};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:q:zBvh", lo, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (parse_one(d, c, optarg)) {
			if (c == '?' || c == ':')
				usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc || !d->a.ifname) {
		pr_warn("doctor: %s (xskf doctor --help)\n",
			optind < argc ? "unexpected argument" : "give the interface: -i IFACE");
		return -EINVAL;
	}
	return 0;
}

/* RX queues: /sys/class/net/IF/queues/rx-N (what XDP sees), and at most ethtool -l's. */
static void check_queues(struct dr_run *d)
{
	char path[128];
	unsigned int rx = 0, max = 0, i;
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", d->a.ifname);
	dir = opendir(path);
	while (dir && (de = readdir(dir)))
		d->nr_rx += !strncmp(de->d_name, "rx-", 3);
	if (dir)
		closedir(dir);
	if (xskf_dr__channels(d->efd, d->a.ifname, &rx, &max))
		max = 0;
	xskf_dr__judge_queues(&d->r, &d->a, d->nr_rx, max);
	/* from here on, "every queue" is the list of them (workers, IRQs, NAPIs) */
	for (i = 0; !d->a.nq && i < d->nr_rx && i < XSKF_DR_MAXQ; i++)
		d->a.queues[i] = i;
	if (!d->a.nq)
		d->a.nq = d->nr_rx < XSKF_DR_MAXQ ? d->nr_rx : XSKF_DR_MAXQ;
}

static void check_link(struct dr_run *d, int rx_sg)
{
	struct ifreq ifr = {};
	bool up = false;
	int mtu = 0;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", d->a.ifname);
	if (!ioctl(d->efd, SIOCGIFFLAGS, &ifr))
		up = ifr.ifr_flags & IFF_UP;
	if (!ioctl(d->efd, SIOCGIFMTU, &ifr))
		mtu = ifr.ifr_mtu;
	xskf_dr__judge_link(&d->r, &d->a, up,
			    xskf_sysfs__long("/sys/class/net/%s/carrier", d->a.ifname) == 1, mtu,
			    rx_sg);
}

/* Where the NIC sends frames before XDP: RSS, ntuple rules, the fields it hashes over. */
static void check_steering(struct dr_run *d)
{
	static const uint32_t flows[] = {TCP_V4_FLOW, UDP_V4_FLOW, TCP_V6_FLOW, UDP_V6_FLOW};
	struct ethtool_rx_flow_spec *rules;
	unsigned int n, i;
	uint32_t *indir;
	uint64_t fields;
	int err;

	err = xskf_dr__indir(d->efd, d->a.ifname, &indir, &n);
	xskf_dr__judge_rss(&d->r, &d->a, indir, n, d->nr_rx, err);
	free(indir);
	err = xskf_dr__rules(d->efd, d->a.ifname, &rules, &n);
	if (err)
		xskf_dr__add(&d->r, XSKF_DR_UNKNOWN, "ntuple",
			     "the ntuple rules are %s\n"
			     "ETHTOOL_GRXCLSRLCNT: %s\n",
			     err == -EOPNOTSUPP ? "not reported by the driver" : "unknown",
			     strerror(-err));
	else if (!n)
		xskf_dr__add(&d->r, XSKF_DR_OK, "ntuple", "no ntuple rule");
	for (i = 0; !err && i < n; i++)
		xskf_dr__judge_rule(&d->r, &d->a, &rules[i]);
	free(rules);
	for (i = 0; i < sizeof(flows) / sizeof(flows[0]); i++) {
		err = xskf_dr__rxfh(d->efd, d->a.ifname, flows[i], &fields);
		xskf_dr__judge_rxfh(&d->r, &d->a, flows[i], fields, err);
		if (err == -EOPNOTSUPP)
			break; /* one line says it for every flow type */
	}
}

static void check_promisc(struct dr_run *d)
{
	struct ifreq ifr = {};
	char path[128];
	bool promisc = false;
	uint8_t mac[6] = {0};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", d->a.ifname);
	if (!ioctl(d->efd, SIOCGIFFLAGS, &ifr))
		promisc = ifr.ifr_flags & IFF_PROMISC;
	if (!ioctl(d->efd, SIOCGIFHWADDR, &ifr))
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	/* a device of a bus (PCI, virtio) filters MACs; a virtual one (veth, ...) does not */
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", d->a.ifname);
	xskf_dr__judge_promisc(&d->r, &d->a, !access(path, F_OK), promisc, mac);
}

static void check_irqs(struct dr_run *d)
{
	static struct xskf_dr_irq irqs[XSKF_DR_MAXQ];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int n = xskf_dr__irqs(d->a.ifname, irqs, XSKF_DR_MAXQ), i, seen = 0;

	for (i = 0; i < n; i++) {
		unsigned int before = d->r.n;

		if (!xskf_dr__asked(&d->a, irqs[i].queue) || !irqs[i].affinity[0])
			continue;
		xskf_dr__judge_irq(&d->r, &d->a, irqs[i].queue, irqs[i].irq, irqs[i].name,
				   irqs[i].affinity, ncpu > 0 ? (unsigned int)ncpu : 1);
		seen += d->r.n > before;
	}
	if (!d->a.ncpus)
		xskf_dr__add(&d->r, XSKF_DR_OK, "irq-cpu",
			     "no --cpus: workers not pinned, the "
			     "scheduler places them");
	else if (!seen)
		xskf_dr__add(&d->r, XSKF_DR_OK, "irq-cpu",
			     "no interrupt of an asked queue found "
			     "(%s)",
			     n < 0 ? strerror(-n) : "a virtual device, or no MSI-X");
}

/* Capabilities of this process: CAP_IPC_LOCK lifts RLIMIT_MEMLOCK for UMEMs. */
static bool has_ipc_lock(void)
{
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct c[2] = {};

	return !syscall(SYS_capget, &h, c) && (c[0].effective & (1u << CAP_IPC_LOCK));
}

static void check_memory(struct dr_run *d)
{
	unsigned int per = (d->a.nq + d->workers - 1) / d->workers;
	uint64_t size = xskf_huge__default_size();
	int node = (int)xskf_sysfs__long("/sys/class/net/%s/device/numa_node", d->a.ifname);
	struct xskf_huge_pool p = {};
	struct rlimit rl;

	d->a.umem_bytes =
	    (uint64_t)(d->frames ? d->frames : per * (d->fill + d->tx)) * d->a.frame_size;
	xskf_dr__judge_umem(&d->r, d->frames, d->fill, d->tx, per);
	if (size && node >= 0 && xskf_huge__pool(size, node, &p))
		p.free = 0;
	xskf_dr__judge_huge(&d->r, &d->a, node, size, p.free, d->workers);
	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		rl.rlim_cur = RLIM_INFINITY;
	xskf_dr__judge_memlock(&d->r, &d->a,
			       rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur,
			       has_ipc_lock(), d->workers);
}

static void run_checks(struct dr_run *d)
{
	uint64_t xf = 0;
	int xerr = xskf_netdev__xdp_features(d->ifindex, &xf);

	check_link(d, xerr ? -1 : !!(xf & (1ull << 5)));
	xskf_dr__check_xdp(&d->r, &d->a, d->ifindex);
	xskf_dr__check_features(&d->r, &d->a, d->ifindex, xf, xerr);
	check_queues(d);
	check_steering(d);
	check_promisc(d);
	xskf_dr__check_napi(&d->r, &d->a, d->ifindex);
	/* the engine's workers: one per --cpus CPU, at most one per queue (engine.c) */
	d->workers = d->a.ncpus ? (d->a.ncpus < d->a.nq ? d->a.ncpus : d->a.nq) : 1;
	if (!d->workers)
		d->workers = 1;
	check_irqs(d);
	check_memory(d);
}

int xskf_doctor__cmd(int argc, char **argv)
{
	static struct dr_run d;
	int err;

	memset(&d, 0, sizeof(d));
	d.a.frame_size = 2048;
	d.fill = d.tx = 2048;
	err = parse(&d, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	d.a.headroom = 256 + (d.no_hints ? 0 : (uint32_t)sizeof(struct xskf_meta));
	d.ifindex = (int)if_nametoindex(d.a.ifname);
	if (!d.ifindex) {
		pr_warn(
		    "doctor: no interface '%s' in this network namespace (ip link lists them)\n",
		    d.a.ifname);
		return 2;
	}
	d.efd = xskf_dr__open_ethtool();
	if (d.efd < 0) {
		pr_warn("doctor: cannot open a socket: %s\n", strerror(-d.efd));
		return 2;
	}
	run_checks(&d);
	close(d.efd);
	if (d.json)
		xskf_dr__json(stdout, &d.r, d.a.ifname, d.a.queues, d.a.nq);
	else
		xskf_dr__print(stdout, &d.r, d.verbose);
	fflush(stdout);
	return xskf_dr__count(&d.r, XSKF_DR_PROBLEM) || d.r.dropped ? 1 : 0;
}
