// SPDX-License-Identifier: BSD-2-Clause
/*
 * The kernel features xskf uses, in one table (features.h). Each is probed by using it: a
 * program loaded, a map created, an AF_XDP socket bound on the loopback device, a test run made.
 * Never from a version number, and never from libbpf's or bpftool's helper probe: a kernel can
 * refuse bpf_xdp_adjust_meta() in every XDP program while those probes call it available (they
 * look for other verifier words; docs/kernels.md).
 */
#include <errno.h>
#include <pthread.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <linux/capability.h>
#include <linux/if_xdp.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/prog/features.h"
#include "backend/xdp/prog/features_probe.h"
#include "core/log.h"

#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET 9
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef BPF_F_TEST_XDP_LIVE_FRAMES
#define BPF_F_TEST_XDP_LIVE_FRAMES (1U << 1)
#endif
#ifndef BPF_F_XDP_HAS_FRAGS
#define BPF_F_XDP_HAS_FRAGS (1U << 5)
#endif

static int probe_adjust_meta(void);
static int probe_adjust_head(void);
static int probe_frags(void);
static int probe_ext(void);
static int probe_bpffs(void);
static int probe_xskmap(void);
static int probe_cpumap(void);
static int probe_devmap(void);
static int probe_live_frames(void);
static int probe_need_wakeup(void);
static int probe_xsk_sg(void);
static int probe_busy_poll(void);
static int probe_tx_budget(void);
static int probe_at_attach(void);
static int probe_bpf_nocap(void);

static const struct {
	const char *name, *what, *without;
	int (*probe)(void);
} table[XSKF_FEAT_NR] = {
	[XSKF_FEAT_ADJUST_META] = { "adjust_meta", "bpf_xdp_adjust_meta() in XDP programs",
				    "RX hints carried in the headroom (bpf_xdp_adjust_head()), "
				    "moved past by the framework before the app sees the frame",
				    probe_adjust_meta },
	[XSKF_FEAT_ADJUST_HEAD] = { "adjust_head", "bpf_xdp_adjust_head() in XDP programs",
				    "RX hints computed in userspace where adjust_meta is refused "
				    "too",
				    probe_adjust_head },
	[XSKF_FEAT_FRAGS] = { "frags", "frags-aware XDP programs (xdp.frags)",
			      "programs loaded without: native mode needs an MTU whose frames "
			      "fit one buffer",
			      probe_frags },
	[XSKF_FEAT_EXT] = { "ext", "freplace programs (BPF_PROG_TYPE_EXT), for libxdp's dispatcher",
			    "the XDP program attached alone: no other program can join the "
			    "interface while xskf runs",
			    probe_ext },
	[XSKF_FEAT_BPFFS] = { "bpffs", "a bpffs at /sys/fs/bpf (libxdp's dispatcher, --pin-dir)",
			      "attached alone; --pin-dir refused", probe_bpffs },
	[XSKF_FEAT_XSKMAP] = { "xskmap", "XSKMAP (redirect to AF_XDP sockets)",
			       "none: xskf cannot run", probe_xskmap },
	[XSKF_FEAT_CPUMAP] = { "cpumap", "CPUMAP (steering rules' 'cpus' action)",
			       "the 'cpus' action refused", probe_cpumap },
	[XSKF_FEAT_DEVMAP] = { "devmap", "DEVMAP", "not used by xskf today", probe_devmap },
	[XSKF_FEAT_LIVE_FRAMES] = { "live_frames",
				    "XDP test runs with live frames (xskf-trafficgen)",
				    "xskf-trafficgen sends with AF_XDP TX from its own interface",
				    probe_live_frames },
	[XSKF_FEAT_NEED_WAKEUP] = { "need_wakeup", "XDP_USE_NEED_WAKEUP",
				    "a wake-up syscall every round", probe_need_wakeup },
	[XSKF_FEAT_XSK_SG] = { "xsk_sg", "multi-buffer AF_XDP (XDP_USE_SG)",
			       "frames longer than a UMEM frame are dropped by the kernel",
			       probe_xsk_sg },
	[XSKF_FEAT_BUSY_POLL] = { "busy_poll", "preferred busy polling (SO_PREFER_BUSY_POLL)",
				  "-B refused; workers poll or sleep", probe_busy_poll },
	[XSKF_FEAT_TX_BUDGET] = { "tx_budget", "XDP_MAX_TX_SKB_BUDGET (copy-mode TX batch)",
				  "copy-mode TX sends 32 frames a syscall", probe_tx_budget },
	[XSKF_FEAT_DISP_PKT_DATA] = { "disp_pkt_data",
				      "a program that changes packet data in libxdp's dispatcher "
				      "(told by the attach: Linux 6.13+ refuses it before libxdp "
				      "1.5.5)",
				      "RX hints computed in userspace, the dispatcher given "
				      "xskf_redirect_nm (no packet-data change)",
				      probe_at_attach },
	[XSKF_FEAT_BPF_NOCAP] = { "bpf_nocap",
				  "bpf() on the fds it holds, by a thread without CAP_BPF (Linux 6.5+, "
				  "or kernel.unprivileged_bpf_disabled 0)",
				  "the control thread keeps CAP_BPF and CAP_SYS_ADMIN after set-up "
				  "(counters, steering, the watch, the detach)",
				  probe_bpf_nocap },
	[XSKF_FEAT_RX_KFUNCS] = { "rx_kfuncs",
				  "RX metadata kfuncs (bpf_xdp_metadata_rx_hash() ...) in a "
				  "device-bound XDP program (Linux 6.3+)",
				  "no driver hints: the XDP program is loaded without the kfuncs; "
				  "rx_hash is computed in software from the frame (Toeplitz with "
				  "the port's RSS key) when the app asks, no RX timestamp or VLAN "
				  "tag from the driver",
				  xskf_features__probe_rx_kfuncs },
	[XSKF_FEAT_TX_METADATA] = { "tx_metadata",
				    "AF_XDP TX metadata (UMEM tx_metadata_len, Linux 6.8+)",
				    "the UMEM is registered without TX metadata room: TX checksums "
				    "(--tx-csum) are computed by xskf on the worker; TX timestamps "
				    "and launch times are not carried out (counted)",
				    xskf_features__probe_tx_metadata },
	[XSKF_FEAT_NETDEV_GENL] = { "netdev_genl",
				    "the netdev netlink family: a driver's xdp, xsk and RX metadata "
				    "features (dev-get, Linux 6.3+)",
				    "xskf assumes nothing of the driver: zero-copy tried, then copy "
				    "mode; no driver hints (software values); TX metadata done by "
				    "xskf in zero-copy; --napi per device (sysfs)",
				    xskf_features__probe_netdev_genl },
	[XSKF_FEAT_NAPI_IDS] = { "napi_ids", "NAPI IDs per queue (netdev queue-get, Linux 6.8+)",
				 "--napi sets deferral per device (sysfs), not per NAPI, and refuses "
				 "irq-suspend; doctor names no NAPI per queue; busy polling still "
				 "polls each socket's own NAPI (SO_INCOMING_NAPI_ID)",
				 xskf_features__probe_napi_ids },
	[XSKF_FEAT_SKB_CPUMAP] = { "skb_cpumap",
				   "SKB-mode XDP with a CPUMAP (Linux 5.15+): a program using one "
				   "with program slots attached, frames redirected into it",
				   "steering's CPUMAP is made without program slots (the SKB-mode "
				   "attach refuses them); 'cpumap' rules refused in SKB mode",
				   xskf_features__probe_skb_cpumap },
};

static int results[XSKF_FEAT_NR];
static bool probed[XSKF_FEAT_NR];

/* ---- forcing a fallback ---- */

/* xskf_features__forced_off(): core/features_off.c (the memory backend reads it too) */

void xskf_features__check_env(void)
{
	const char *env = secure_getenv("XSKF_FEATURES_OFF"), *p;
	size_t n;
	int f;

	for (p = env; p && *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		for (f = 0; f < XSKF_FEAT_NR; f++)
			if (strlen(table[f].name) == n && !strncmp(p, table[f].name, n))
				break;
		if (f == XSKF_FEAT_NR && !(n == 3 && !strncmp(p, "all", 3)) && n)
			pr_warn("XSKF_FEATURES_OFF: '%.*s' is no feature ('xskf features' lists "
				"them): ignored\n",
				(int)n, p);
	}
}

/* ---- probes: programs ---- */

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = c, .dst_reg = d, .src_reg = s, .off = o, .imm = i })
#define MOV64_IMM(d, i)	    INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define CALL(f)		    INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()		    INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* Load an XDP program of @n instructions: its fd, or -errno. */
static int load_xdp(const struct bpf_insn *insns, size_t n, __u32 flags)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .prog_flags = flags);
	int fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "xskf_probe", "GPL", insns, n, &o);

	return fd < 0 ? -errno : fd;
}

/* A program that calls helper @func(ctx, -32) and passes the frame: the verifier's word. */
static int probe_helper(int func)
{
	const struct bpf_insn p[] = { MOV64_IMM(BPF_REG_2, -32), CALL(func),
				      MOV64_IMM(BPF_REG_0, XDP_PASS), EXIT() };
	int fd = load_xdp(p, 4, 0);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int probe_adjust_meta(void)
{
	return probe_helper(BPF_FUNC_xdp_adjust_meta);
}

static int probe_adjust_head(void)
{
	return probe_helper(BPF_FUNC_xdp_adjust_head);
}

static int probe_frags(void)
{
	const struct bpf_insn p[] = { MOV64_IMM(BPF_REG_0, XDP_PASS), EXIT() };
	int fd = load_xdp(p, 2, BPF_F_XDP_HAS_FRAGS);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int probe_ext(void)
{
	/* libbpf loads an ext program for real (it needs a target: its own XDP program) */
	int r = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_EXT, NULL);

	return r == 1 ? 0 : r < 0 ? r : -EOPNOTSUPP;
}

static int probe_live_frames(void)
{
	const struct bpf_insn p[] = { MOV64_IMM(BPF_REG_0, XDP_DROP), EXIT() };
	unsigned char frame[64] = { 0 };
	/*
	 * batch_size too, which only live frames take (Linux 5.18 added both): a kernel before
	 * ignores an XDP test run's flags (5.10 ran the frame once, not live, and said 0) but
	 * refuses an attribute it does not know (EINVAL)
	 */
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = frame, .data_size_in = sizeof(frame),
		    .repeat = 1, .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .batch_size = 1);
	int fd = load_xdp(p, 2, 0), err;

	if (fd < 0)
		return fd;
	/* one frame, dropped by the program: nothing leaves the machine */
	err = bpf_prog_test_run_opts(fd, &t);
	close(fd);
	return err < 0 ? err : 0;
}

/* ---- probes: maps and the file system ---- */

static int probe_map(enum bpf_map_type type)
{
	int r = libbpf_probe_bpf_map_type(type, NULL);

	return r == 1 ? 0 : r < 0 ? r : -EOPNOTSUPP;
}

static int probe_xskmap(void)
{
	return probe_map(BPF_MAP_TYPE_XSKMAP);
}

static int probe_cpumap(void)
{
	return probe_map(BPF_MAP_TYPE_CPUMAP);
}

static int probe_devmap(void)
{
	return probe_map(BPF_MAP_TYPE_DEVMAP);
}

static int probe_bpffs(void)
{
	struct statfs st;

	if (statfs("/sys/fs/bpf", &st))
		return -errno;
	return (unsigned long)st.f_type == BPF_FS_MAGIC ? 0 : -ENOENT;
}

/* ---- probes: an AF_XDP socket on the loopback device ---- */

#define PROBE_FRAMES 64
#define PROBE_FRAME  4096

/*
 * A copy-mode AF_XDP socket with a TX ring bound to queue 0 of the loopback device with
 * @bind_flags: its fd, or -errno. lo takes no XDP program and its queue is nobody's AF_XDP
 * queue: the probe disturbs nothing. The kernel frees a closed socket's hold on the queue a
 * little later (EBUSY meanwhile): the bind is tried again while it says so, up to a second.
 */
static int xsk_bound(__u16 bind_flags, void **area)
{
	struct sockaddr_xdp sxdp = { .sxdp_family = AF_XDP, .sxdp_queue_id = 0,
				     .sxdp_flags = XDP_COPY | bind_flags };
	size_t len = PROBE_FRAMES * PROBE_FRAME;
	struct xdp_umem_reg mr = { .len = len, .chunk_size = PROBE_FRAME };
	int fd, ring = PROBE_FRAMES, err = 0, tries = 100;

	sxdp.sxdp_ifindex = if_nametoindex("lo");
	if (!sxdp.sxdp_ifindex)
		return -ENODEV;
	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	*area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*area == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	mr.addr = (__u64)(unsigned long)*area;
	if (setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &mr, sizeof(mr)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_FILL_RING, &ring, sizeof(ring)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &ring, sizeof(ring)) ||
	    setsockopt(fd, SOL_XDP, XDP_TX_RING, &ring, sizeof(ring)))
		err = -errno;
	while (!err && bind(fd, (struct sockaddr *)&sxdp, sizeof(sxdp))) {
		err = -errno;
		if (err == -EBUSY && --tries > 0) {
			usleep(10000);
			err = 0;
		}
	}
	if (!err)
		return fd;
	close(fd);
	munmap(*area, len);
	return err;
}

static void xsk_unbound(int fd, void *area)
{
	close(fd);
	munmap(area, PROBE_FRAMES * PROBE_FRAME);
}

static int xsk_probe(__u16 bind_flags, int opt_level, int opt, int val)
{
	void *area;
	int fd = xsk_bound(bind_flags, &area), err = 0;

	if (fd < 0)
		return fd;
	if (opt && setsockopt(fd, opt_level, opt, &val, sizeof(val)))
		err = -errno;
	xsk_unbound(fd, area);
	return err;
}

static int probe_need_wakeup(void)
{
	return xsk_probe(XDP_USE_NEED_WAKEUP, 0, 0, 0);
}

static int probe_xsk_sg(void)
{
	return xsk_probe(XDP_USE_SG, 0, 0, 0);
}

static int probe_busy_poll(void)
{
	return xsk_probe(0, SOL_SOCKET, SO_PREFER_BUSY_POLL, 1);
}

static int probe_tx_budget(void)
{
	/* 32 to the TX ring's size is taken; a kernel without the option says ENOPROTOOPT */
	return xsk_probe(0, SOL_XDP, XDP_MAX_TX_SKB_BUDGET, 32);
}

/* ---- probes: privileges ---- */

/* A thread that drops every capability, then asks for the info of the map fd @arg. */
static void *nocap_thread(void *arg)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { { 0 } };
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	long r = 0;

	/* capabilities are per thread: this one's only, for the rest of its short life */
	if (syscall(SYS_capset, &h, d))
		r = -errno;
	else if (bpf_obj_get_info_by_fd(*(int *)arg, &info, &len))
		r = -errno;
	return (void *)r;
}

/*
 * Before Linux 6.5 kernel.unprivileged_bpf_disabled refuses every bpf() command to a thread
 * without CAP_BPF (CAP_SYS_ADMIN), also on fds it already holds (Debian 11's 5.10: EPERM):
 * the control thread, which drops them after set-up, then reads no counter.
 */
static int probe_bpf_nocap(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo);
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "xskf_probe", 4, 4, 1, &mo), err;
	pthread_t t;
	void *ret;

	if (fd < 0)
		return -errno;
	err = -pthread_create(&t, NULL, nocap_thread, &fd);
	if (!err) {
		pthread_join(t, &ret);
		err = (int)(long)ret;
	}
	close(fd);
	return err;
}

/*
 * No probe ahead: whether libxdp's dispatcher takes a component that changes packet data is
 * the dispatcher's own word at the attach (prog_dispatch.c keys on the verifier's "changes
 * packet data"). Only XSKF_FEATURES_OFF makes this answer a refusal.
 */
static int probe_at_attach(void)
{
	return 0;
}

/* ---- the table ---- */

int xskf_features__probe(enum xskf_feat f)
{
	if ((unsigned int)f >= XSKF_FEAT_NR)
		return -EINVAL;
	if (!probed[f]) {
		results[f] = xskf_features__forced_off(table[f].name) ? -ECANCELED
								       : table[f].probe();
		probed[f] = true;
	}
	return results[f];
}

const char *xskf_features__name(enum xskf_feat f)
{
	return (unsigned int)f < XSKF_FEAT_NR ? table[f].name : "?";
}

const char *xskf_features__what(enum xskf_feat f)
{
	return (unsigned int)f < XSKF_FEAT_NR ? table[f].what : "?";
}

const char *xskf_features__without(enum xskf_feat f)
{
	return (unsigned int)f < XSKF_FEAT_NR ? table[f].without : "?";
}

const char *xskf_features__why(enum xskf_feat f, const char *kernel_why)
{
	int r = xskf_features__probe(f);

	if (!r)
		return NULL;
	return r == -ECANCELED ? "forced off by XSKF_FEATURES_OFF" : kernel_why;
}

/* "works", "forced off", or the refusal's errno text */
static const char *verdict(int r)
{
	if (!r)
		return "works";
	if (r == -ECANCELED)
		return "forced off (XSKF_FEATURES_OFF)";
	return strerror(-r);
}

void xskf_features__print(FILE *f, bool json)
{
	int i, r;

	if (json)
		fprintf(f, "[");
	for (i = 0; i < XSKF_FEAT_NR; i++) {
		r = xskf_features__probe(i);
		if (json)
			fprintf(f, "%s{\"feature\":\"%s\",\"works\":%s,\"forced_off\":%s,"
				   "\"error\":\"%s\",\"without\":\"%s\"}",
				i ? "," : "", table[i].name, r ? "false" : "true",
				r == -ECANCELED ? "true" : "false",
				r && r != -ECANCELED ? strerror(-r) : "", table[i].without);
		else
			fprintf(f, "%-12s %-34s %s%s%s\n", table[i].name, verdict(r),
				table[i].what, r ? ": without it, " : "", r ? table[i].without : "");
	}
	if (json)
		fprintf(f, "]");
}
