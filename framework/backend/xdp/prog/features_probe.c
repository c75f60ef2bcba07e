// SPDX-License-Identifier: BSD-2-Clause
/*
 * The probes of features.c's table that need more than a plain load or bind: the RX metadata
 * kfuncs (a device-bound program, so a device that takes one), an SKB-mode attach of a program
 * with a CPUMAP (a device of a namespace of its own), AF_XDP TX metadata (a UMEM registration
 * with tx_metadata_len) and the netdev generic-netlink family (its dev-get and queue-get
 * requests). Each is a real use of the feature, as the rest of the table.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/prog/features_probe.h"
#include "backend/xdp/sock/napi_nl.h"
#include "core/tx_meta.h" /* struct xskf_umem_reg, XDP_UMEM_TX_METADATA_LEN */

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1U << 6)
#endif

/* ---- RX metadata kfuncs ---- */

#define PROBE_VETH "xskfprobe0"

/*
 * A veth pair made in the calling thread's network namespace (RTM_NEWLINK, kind veth, the
 * peer named by the kernel): the ifindex of its end PROBE_VETH, or -errno.
 */
static int veth_make(void)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char attrs[64];
	} r = { 0 };
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr e;
	} ack;
	struct rtattr *name, *info, *kind;
	int fd, err;

	r.nh.nlmsg_len = NLMSG_LENGTH(sizeof(r.ifi));
	r.nh.nlmsg_type = RTM_NEWLINK;
	r.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
	name = (struct rtattr *)((char *)&r + NLMSG_ALIGN(r.nh.nlmsg_len));
	name->rta_type = IFLA_IFNAME;
	name->rta_len = RTA_LENGTH(sizeof(PROBE_VETH));
	memcpy(RTA_DATA(name), PROBE_VETH, sizeof(PROBE_VETH));
	r.nh.nlmsg_len = NLMSG_ALIGN(r.nh.nlmsg_len) + RTA_ALIGN(name->rta_len);
	info = (struct rtattr *)((char *)&r + NLMSG_ALIGN(r.nh.nlmsg_len));
	info->rta_type = IFLA_LINKINFO;
	kind = RTA_DATA(info);
	kind->rta_type = IFLA_INFO_KIND;
	kind->rta_len = RTA_LENGTH(sizeof("veth"));
	memcpy(RTA_DATA(kind), "veth", sizeof("veth"));
	info->rta_len = RTA_LENGTH(RTA_ALIGN(kind->rta_len));
	r.nh.nlmsg_len = NLMSG_ALIGN(r.nh.nlmsg_len) + RTA_ALIGN(info->rta_len);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, &r, r.nh.nlmsg_len, 0) < 0 || recv(fd, &ack, sizeof(ack), 0) < 0)
		err = -errno;
	else
		err = ack.nh.nlmsg_type == NLMSG_ERROR ? ack.e.error : -EPROTO;
	close(fd);
	if (err)
		return err;
	err = (int)if_nametoindex(PROBE_VETH);
	return err ? err : -ENODEV;
}

/*
 * @fn(@arg) in a thread of its own that first moves to a network namespace of its own (gone
 * with the thread, and what @fn made there with it): nothing of the caller's namespace is
 * touched. Its return, or -errno of the thread or of the move.
 */
struct netns_call {
	int (*fn)(void *arg);
	void *arg;
};

static void *netns_thread(void *arg)
{
	const struct netns_call *c = arg;

	if (unshare(CLONE_NEWNET))
		return (void *)(long)-errno;
	return (void *)(long)c->fn(c->arg);
}

static int in_own_netns(int (*fn)(void *arg), void *arg)
{
	struct netns_call c = {fn, arg};
	pthread_t t;
	void *ret;
	int err = -pthread_create(&t, NULL, netns_thread, &c);

	if (err)
		return err;
	pthread_join(t, &ret);
	return (int)(long)ret;
}

/*
 * In a network namespace of its own (in_own_netns()): load a device-bound XDP program on a veth that calls bpf_xdp_metadata_rx_timestamp() (kfunc
 * @btf_id). The loopback device takes no device-bound program (no ndo_bpf: EOPNOTSUPP on every
 * kernel), and no interface of the caller's namespace is touched.
 */
static int kfunc_load(void *arg)
{
	struct bpf_insn p[] = {
		/* *(u64 *)(r10 - 8) = 0; r2 = r10 - 8; call kfunc(ctx, r2); return XDP_PASS */
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .off = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2, .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2, .imm = -8 },
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = *(int *)arg },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .prog_flags = BPF_F_XDP_DEV_BOUND_ONLY);
	int fd, ifindex = veth_make();

	if (ifindex < 0)
		return ifindex;
	o.prog_ifindex = (__u32)ifindex;
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "xskf_probe", "GPL", p, sizeof(p) / sizeof(p[0]), &o);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int kfunc_id; /* from a kernel BTF the engine parsed already: 0 unknown, < 0 none */

void xskf_features__kfunc_btf(const struct btf *btf)
{
	kfunc_id = btf__find_by_name_kind(btf, "bpf_xdp_metadata_rx_timestamp", BTF_KIND_FUNC);
	if (!kfunc_id)
		kfunc_id = -1;
}

int xskf_features__probe_rx_kfuncs(void)
{
	struct btf *btf;
	int id = kfunc_id;
	long err;

	/* the kernel's BTF is 5-6 MiB to parse: once a run (prog.c hands its parse over) */
	if (!id) {
		btf = btf__load_vmlinux_btf();
		err = libbpf_get_error(btf);
		if (err)
			return (int)err;
		/* the id of hints_probe.c's kfunc, as libbpf resolves the hw program's calls */
		id = btf__find_by_name_kind(btf, "bpf_xdp_metadata_rx_timestamp", BTF_KIND_FUNC);
		btf__free(btf);
	}
	if (id <= 0)
		return -EOPNOTSUPP; /* not in the kernel (before 6.3) */
	return in_own_netns(kfunc_load, &id);
}

/* ---- SKB mode and a CPUMAP ---- */

/*
 * In a network namespace of its own (in_own_netns()): attach in SKB mode, on its loopback device, a
 * program that uses a CPUMAP whose values have a program slot (struct bpf_cpumap_val), as
 * steering's steer_cpus has. Before Linux 5.15 generic XDP could not redirect into a CPUMAP
 * and refused such a program at the attach (EINVAL, no message); the commit that taught it
 * the redirect dropped the refusal. Nothing of the caller's namespace is touched.
 */
static int skb_cpumap_attach(void *arg)
{
	struct bpf_insn p[] = {
		/* r1 = the CPUMAP (in the program's used maps); return XDP_PASS */
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int ifindex, map, fd, err;

	(void)arg;
	ifindex = (int)if_nametoindex("lo");
	if (!ifindex)
		return -ENODEV;
	map = bpf_map_create(BPF_MAP_TYPE_CPUMAP, "xskf_probe", sizeof(__u32),
			     sizeof(struct bpf_cpumap_val), 1, NULL);
	if (map < 0)
		return -errno;
	p[0].imm = map;
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "xskf_probe", "GPL", p, sizeof(p) / sizeof(p[0]),
			   NULL);
	err = fd < 0 ? -errno : bpf_xdp_attach(ifindex, fd, XDP_FLAGS_SKB_MODE, NULL);
	if (fd >= 0 && !err)
		bpf_xdp_detach(ifindex, XDP_FLAGS_SKB_MODE, NULL);
	if (fd >= 0)
		close(fd);
	close(map);
	return err;
}

int xskf_features__probe_skb_cpumap(void)
{
	return in_own_netns(skb_cpumap_attach, NULL);
}

/* ---- AF_XDP TX metadata ---- */

int xskf_features__probe_tx_metadata(void)
{
	size_t len = 16 * 4096;
	struct xskf_umem_reg mr = { .len = len, .chunk_size = 4096, .flags = XDP_UMEM_TX_METADATA_LEN,
				    .tx_metadata_len = XSKF_TXMD_LEN };
	int fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0), err = 0;
	void *area;

	if (fd < 0)
		return -errno;
	area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	/* a kernel before 6.8 refuses the flag (EINVAL), as xsk_raw.c's registration meets it */
	mr.addr = (uint64_t)(uintptr_t)area;
	if (setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &mr, sizeof(mr)))
		err = -errno;
	close(fd);
	munmap(area, len);
	return err;
}

/* ---- the netdev generic-netlink family ---- */

/*
 * Open the family for a probe (the feature's own switch is not asked here: the table asks it
 * before the probe runs). -EOPNOTSUPP without the family.
 */
static int family_open(struct xskf_napi_nl *nl)
{
	int err = xskf_napi_nl__open_raw(nl);

	return err == -ENOENT ? -EOPNOTSUPP : err;
}

/* The family opened, and the loopback device's index in *@ifindex: what both probes ask of. */
static int lo_open(struct xskf_napi_nl *nl, int *ifindex)
{
	*ifindex = (int)if_nametoindex("lo");
	return *ifindex ? family_open(nl) : -ENODEV;
}

int xskf_features__probe_netdev_genl(void)
{
	struct xskf_napi_nl nl;
	uint64_t feat;
	int ifindex, err;

	err = lo_open(&nl, &ifindex);
	if (err)
		return err;
	/* dev-get of the loopback device: its xdp-features (0, but always answered) */
	err = xskf_napi_nl__dev_attr(&nl, (uint32_t)ifindex, 3 /* NETDEV_A_DEV_XDP_FEATURES */,
				     &feat);
	xskf_napi_nl__close(&nl);
	return err;
}

int xskf_features__probe_napi_ids(void)
{
	struct xskf_napi_nl nl;
	uint32_t id;
	int ifindex, err;

	err = lo_open(&nl, &ifindex);
	if (err)
		return err;
	/*
	 * queue-get of the loopback device's RX queue 0: answered with no NAPI ID (lo has no
	 * NAPI), or ENOENT while lo is down (a fresh namespace's). A kernel before 6.8 has no
	 * such command (EOPNOTSUPP).
	 */
	err = xskf_napi_nl__queue_napi(&nl, (uint32_t)ifindex, 0, &id);
	xskf_napi_nl__close(&nl);
	return err == -ENOENT ? 0 : err;
}
