// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskf_hints_write() in the kernel. Root; 77 = skip.
 *
 * 1. hw = false, BPF_PROG_TEST_RUN on every frame of hints_vectors.h: the program passes the
 *    frame unchanged, data_out starts with the 32-byte meta (checked equal to what the program
 *    copied to .bss), and the meta has the expected packet type, offsets and VLAN, no hardware
 *    fields, and the same parse as the userspace build of the parser.
 * 2. hw = true, loaded device-bound on a veth (BPF_PROG_TEST_RUN refuses device-bound programs:
 *    EINVAL, checked), attached in native mode, fed by ordinary sockets in a peer namespace:
 *    what veth's kfuncs give (hash and type per flow, timestamp, stripped VLAN tag). The
 *    receiver is this process's private namespace; the sender is `xskf-hints-<pid>`, deleted
 *    at exit and on SIGINT/SIGTERM. Also: the probes (kernel BTF, the veth's netlink features)
 *    and a program asking for the hash kfunc only (xskf_hints_kfuncs).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/features_off.h" /* xskf_features__forced_off() */
#include "backend/xdp/prog/hints_probe.h"
#include "xskf_hints_parse.h"
#include "hints_test.skel.h"
#include "hints_vectors.h"

#define BPF_F_XDP_DEV_BOUND_ONLY_ (1U << 6) /* Linux 6.3, not in the 6.1 UAPI header */
#define TEST_PORT		  40000

static int nr_test, nr_fail;
static char peer_ns[64];

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		nr_test++;                                                                         \
		printf("%s %d - ", (cond) ? "ok" : "not ok", nr_test);                             \
		nr_fail += !(cond);                                                                \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
	} while (0)

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(cmd))
		return -1;
	return system(cmd);
}

static int print_warn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static void peer_ns_delete(void)
{
	if (peer_ns[0])
		sh("ip netns del %s 2>/dev/null", peer_ns);
	peer_ns[0] = 0;
}

static void on_signal(int sig)
{
	peer_ns_delete();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- 1. hw = false on crafted frames ---- */

/* For the record: program size, and the verifier's work (limit: 1,000,000). */
static void print_size(const char *name, int fd)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		printf("# %s: %u instructions, %u verified\n", name, info.xlated_prog_len / 8,
		       info.verified_insns);
}

static void test_vectors(struct hints_test *skel)
{
	int fd = bpf_program__fd(skel->progs.hints_sw);
	unsigned int i;

	print_size("hints_sw", fd);
	for (i = 0; i < HV_NR_CASES; i++) {
		const struct hv_case *c = &hv_cases[i];
		const struct hv_expect *w = &c->want;
		struct hv_frame f = { .len = 0 };
		uint8_t out[sizeof(f.b) + 64];
		struct xskf_meta m;
		struct xskf_parse p;
		int err, same_frame, meta_out;
		uint8_t want_src;

		if (c->user_only)
			continue;
		c->build(&f);
		LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = f.b, .data_size_in = f.len,
			    .data_out = out, .data_size_out = sizeof(out));
		memset(&skel->bss->seen_meta, 0, sizeof(skel->bss->seen_meta));
		skel->bss->seen_ret = -100;
		err = bpf_prog_test_run_opts(fd, &t);
		m = skel->bss->seen_meta;
		/* this kernel returns data_meta + data in data_out */
		meta_out = t.data_size_out == f.len + sizeof(m) && !memcmp(out, &m, sizeof(m));
		same_frame = t.data_size_out >= f.len &&
			     !memcmp(out + t.data_size_out - f.len, f.b, f.len);
		CHECK(!err && t.retval == XDP_PASS && same_frame && meta_out &&
			      skel->bss->seen_ret == 0 && skel->bss->seen_metalen == sizeof(m),
		      "%-24s passed unchanged, 32-byte meta in data_out (err %d, ret %u, out %u)",
		      c->name, err, t.retval, t.data_size_out);

		want_src = w->vlan ? (XSKF_SRC_SW << (2 * XSKF_F_VLAN)) |
					     (w->vlan == 2 ? XSKF_META_VLAN_STAG : 0) : 0;
		CHECK(m.magic == XSKF_META_MAGIC && m.ptype == w->ptype && m.l3_off == w->l3 &&
			      m.l4_off == w->l4 && m.inner_off == w->inner &&
			      m.inner_l3_off == w->inner_l3 && m.inner_l4_off == w->inner_l4 &&
			      m.src == want_src && (!w->vlan || m.vlan_tci == w->tci) &&
			      !m.rx_hash && !m.hash_type && !m.rx_timestamp,
		      "%-24s meta ptype %#010x l3 %u l4 %u inner %u/%u/%u src %#x tci %u", c->name,
		      m.ptype, m.l3_off, m.l4_off, m.inner_off, m.inner_l3_off, m.inner_l4_off,
		      m.src, m.vlan_tci);
		xskf_parse_frame(f.b, f.b + f.len, &p);
		CHECK(p.ptype == m.ptype && p.l3_off == m.l3_off && p.l4_off == m.l4_off &&
			      p.inner_off == m.inner_off && p.inner_l3_off == m.inner_l3_off &&
			      p.inner_l4_off == m.inner_l4_off,
		      "%-24s kernel and userspace parses agree", c->name);
	}
}

/* ---- 2. hw = true on a veth ---- */

static int open_ns(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

static int setup_veth(void)
{
	snprintf(peer_ns, sizeof(peer_ns), "xskf-hints-%d", (int)getpid());
	if (sh("ip netns add %s", peer_ns)) {
		peer_ns[0] = 0;
		return -1;
	}
	return sh("set -e; ip link set lo up;"
		  "ip link add hvb address 02:00:00:00:00:02 type veth peer name hva"
		  " address 02:00:00:00:00:01 netns %1$s;"
		  "ip addr add 192.0.2.2/24 dev hvb; ip addr add 2001:db8::2/64 dev hvb nodad;"
		  "ip link set hvb up;"
		  "ip -n %1$s addr add 192.0.2.1/24 dev hva;"
		  "ip -n %1$s addr add 2001:db8::1/64 dev hva nodad;"
		  "ip -n %1$s link set hva up;"
		  "ip -n %1$s neigh add 192.0.2.2 lladdr 02:00:00:00:00:02 dev hva;"
		  "ip -n %1$s neigh add 2001:db8::2 lladdr 02:00:00:00:00:02 dev hva",
		  peer_ns);
}

/* Enter the peer namespace; returns the fd to come back with (peer_leave()), or -1. */
static int peer_enter(void)
{
	char path[128];
	int here, there, ok;

	snprintf(path, sizeof(path), "/var/run/netns/%s", peer_ns);
	here = open_ns("/proc/self/ns/net");
	there = open_ns(path);
	ok = here >= 0 && there >= 0 && !setns(there, CLONE_NEWNET);
	if (there >= 0)
		close(there);
	if (!ok && here >= 0) {
		close(here);
		here = -1;
	}
	return here;
}

static void peer_leave(int here)
{
	if (setns(here, CLONE_NEWNET))
		perror("setns back");
	close(here);
}

/* Egress tc program on the peer's hva: pushes VLAN tags (hints_test.bpf.c). */
static int peer_attach_vlan_push(struct hints_test *skel)
{
	int here = peer_enter(), err;

	if (here < 0)
		return -1;
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = (int)if_nametoindex("hva"),
		    .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = bpf_program__fd(skel->progs.vlan_push));
	err = bpf_tc_hook_create(&hook);
	if (!err || err == -EEXIST)
		err = bpf_tc_attach(&hook, &opts);
	peer_leave(here);
	return err;
}

/* A UDP socket in the peer namespace bound to @sport, for @family. */
static int peer_socket(int family, uint16_t sport)
{
	int here = peer_enter(), fd = -1;

	if (here >= 0) {
		fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && family == AF_INET) {
			struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(sport) };

			bind(fd, (struct sockaddr *)&a, sizeof(a));
		} else if (fd >= 0) {
			struct sockaddr_in6 a = { .sin6_family = AF_INET6,
						  .sin6_port = htons(sport) };

			bind(fd, (struct sockaddr *)&a, sizeof(a));
		}
		peer_leave(here);
	}
	return fd;
}

/* Send one datagram from @fd to @dst:TEST_PORT, wait for the program to record it. */
static int send_and_wait(struct hints_test *skel, int fd, int family, const char *dst,
			 struct xskf_meta *m)
{
	volatile __u32 *count = &skel->bss->seen_count;
	__u32 before = *count;
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(TEST_PORT) };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(TEST_PORT) };
	struct timespec ms = { 0, 1000000 };
	int i;

	if (family == AF_INET) {
		inet_pton(AF_INET, dst, &a4.sin_addr);
		if (sendto(fd, "hints", 5, 0, (struct sockaddr *)&a4, sizeof(a4)) != 5)
			return -errno;
	} else {
		inet_pton(AF_INET6, dst, &a6.sin6_addr);
		if (sendto(fd, "hints", 5, 0, (struct sockaddr *)&a6, sizeof(a6)) != 5)
			return -errno;
	}
	for (i = 0; i < 2000 && *count == before; i++)
		nanosleep(&ms, NULL);
	if (*count == before)
		return -ETIMEDOUT;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	memcpy(m, (const void *)&skel->bss->seen_meta, sizeof(*m));
	return 0;
}

/* The probes, and hw = true asking for the hash only: the other kfuncs are not called. */
static void test_kfunc_subset(struct hints_test *skel, int ifindex, int sock)
{
	unsigned int kernel = 0, dev = 0, lo = 7;
	struct hints_test *sub;
	struct xskf_meta m;
	int err;

	err = xskf_hints__probe_kfuncs(&kernel);
	CHECK(!err && (kernel & (XSKF_HINTS_KF_HASH | XSKF_HINTS_KF_TIMESTAMP)) ==
			      (XSKF_HINTS_KF_HASH | XSKF_HINTS_KF_TIMESTAMP),
	      "kernel BTF has the kfuncs: mask %#x (err %d)", kernel, err);
	err = xskf_hints__probe_dev(ifindex, &dev);
	if (xskf_features__forced_off("netdev_genl")) {
		/* the netdev family's row forced off: the driver's list is unknown, as before 6.3 */
		CHECK(err == -EOPNOTSUPP && !dev,
		      "netdev_genl forced off: veth's kfuncs unknown (err %d, mask %#x)", err, dev);
	} else {
		CHECK(!err && dev == XSKF_HINTS_KF_ALL, "veth implements all three: mask %#x (err %d)",
		      dev, err);
		err = xskf_hints__probe_dev((int)if_nametoindex("lo"), &lo);
		CHECK(!err && lo == 0, "lo implements none: mask %#x (err %d)", lo, err);
	}

	sub = hints_test__open();
	if (!sub) {
		CHECK(0, "open a second skeleton");
		return;
	}
	sub->rodata->match_port = TEST_PORT;
	sub->rodata->xskf_hints_kfuncs = XSKF_HINTS_KF_HASH;
	bpf_program__set_autoload(sub->progs.hints_sw, false);
	bpf_program__set_autoload(sub->progs.vlan_push, false);
	bpf_program__set_ifindex(sub->progs.hints_hw, (__u32)ifindex);
	bpf_program__set_flags(sub->progs.hints_hw, BPF_F_XDP_DEV_BOUND_ONLY_);
	err = hints_test__load(sub);
	if (!err)
		print_size("hints_hw, hash kfunc only", bpf_program__fd(sub->progs.hints_hw));
	err = err ? err : bpf_xdp_attach(ifindex, bpf_program__fd(sub->progs.hints_hw),
					 XDP_FLAGS_DRV_MODE, NULL);
	CHECK(!err, "hw = true with xskf_hints_kfuncs = hash: loads and attaches (err %d)", err);
	skel->bss->push_tags = 1; /* the sender's tc program (first skeleton) */
	err = err ? err : send_and_wait(sub, sock, AF_INET, "192.0.2.2", &m);
	skel->bss->push_tags = 0;
	CHECK(!err && XSKF_META_SRC(m.src, XSKF_F_HASH) == XSKF_SRC_HW &&
		      XSKF_META_SRC(m.src, XSKF_F_VLAN) == XSKF_SRC_NONE,
	      "hash from the driver, stripped tag not asked for (src %#x)", m.src);
	bpf_xdp_detach(ifindex, XDP_FLAGS_DRV_MODE, NULL);
	hints_test__destroy(sub);
}

static void test_hw_veth(void)
{
	struct xskf_meta m1, m2, m3, v6, vl, vq;
	struct hints_test *skel;
	int ifindex, err, s1, s2, s6;
	uint8_t frame[64] = { 0 };

	if (setup_veth()) {
		CHECK(0, "veth pair with a peer namespace");
		return;
	}
	ifindex = (int)if_nametoindex("hvb");
	skel = hints_test__open();
	if (!skel) {
		CHECK(0, "open skeleton");
		return;
	}
	skel->rodata->match_port = TEST_PORT;
	/* both variants in one object: hints_sw loads anywhere, hints_hw only device-bound */
	bpf_program__set_ifindex(skel->progs.hints_hw, (__u32)ifindex);
	bpf_program__set_flags(skel->progs.hints_hw, BPF_F_XDP_DEV_BOUND_ONLY_);
	err = hints_test__load(skel);
	CHECK(!err, "hw = true (device-bound) and hw = false load from one object (err %d)", err);
	if (err)
		goto out;
	print_size("hints_hw", bpf_program__fd(skel->progs.hints_hw));

	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = frame, .data_size_in = sizeof(frame));
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.hints_hw), &t);
	CHECK(err && errno == EINVAL,
	      "BPF_PROG_TEST_RUN refuses a device-bound program (err %d errno %d): live test instead",
	      err, errno);
	libbpf_set_print(NULL); /* the next attach fails on purpose */
	err = bpf_xdp_attach(ifindex, bpf_program__fd(skel->progs.hints_hw), XDP_FLAGS_SKB_MODE,
			     NULL);
	libbpf_set_print(print_warn);
	CHECK(err == -EINVAL, "a device-bound program cannot attach in SKB mode (err %d)", err);
	err = bpf_xdp_attach(ifindex, bpf_program__fd(skel->progs.hints_hw), XDP_FLAGS_DRV_MODE,
			     NULL);
	CHECK(!err, "attached in native mode (err %d)", err);

	s1 = peer_socket(AF_INET, 50001);
	s2 = peer_socket(AF_INET, 50002);
	s6 = peer_socket(AF_INET6, 50001);
	err = send_and_wait(skel, s1, AF_INET, "192.0.2.2", &m1);
	CHECK(!err && skel->bss->seen_ret == 0 && m1.magic == XSKF_META_MAGIC &&
		      m1.ptype == (P_ETH | P_V4 | P_UDP) && m1.l3_off == 14 && m1.l4_off == 34,
	      "IPv4 UDP from a socket: meta written (err %d ptype %#x)", err, m1.ptype);
	CHECK(XSKF_META_SRC(m1.src, XSKF_F_HASH) == XSKF_SRC_HW && m1.rx_hash &&
		      m1.hash_type == XDP_RSS_TYPE_L4_ANY,
	      "veth rx_hash: hardware source, hash %#010x, type %u (L4_ANY)", m1.rx_hash,
	      m1.hash_type);
	CHECK(XSKF_META_SRC(m1.src, XSKF_F_TIMESTAMP) == XSKF_SRC_NONE && !m1.rx_timestamp,
	      "veth rx_timestamp: 0 stamp for a socket's skb, recorded as absent");
	CHECK(XSKF_META_SRC(m1.src, XSKF_F_VLAN) == XSKF_SRC_NONE, "untagged: no VLAN");
	err = send_and_wait(skel, s1, AF_INET, "192.0.2.2", &m2);
	CHECK(!err && m2.rx_hash == m1.rx_hash, "same flow, same hash (%#010x)", m2.rx_hash);
	err = send_and_wait(skel, s2, AF_INET, "192.0.2.2", &m3);
	CHECK(!err && m3.rx_hash != m1.rx_hash, "other source port, other hash (%#010x)",
	      m3.rx_hash);
	err = send_and_wait(skel, s6, AF_INET6, "2001:db8::2", &v6);
	CHECK(!err && v6.ptype == (P_ETH | P_V6 | P_UDP) && v6.l4_off == 54 &&
		      XSKF_META_SRC(v6.src, XSKF_F_HASH) == XSKF_SRC_HW &&
		      v6.hash_type == XDP_RSS_TYPE_L4_ANY,
	      "IPv6 UDP: ptype %#x, hardware hash %#010x type %u", v6.ptype, v6.rx_hash,
	      v6.hash_type);
	/* tags out of band, as from a NIC that strips them */
	err = peer_attach_vlan_push(skel);
	CHECK(!err, "tc program pushing VLAN tags on the sender (err %d)", err);
	skel->bss->push_tags = 1;
	err = send_and_wait(skel, s1, AF_INET, "192.0.2.2", &vl);
	CHECK(!err && XSKF_META_SRC(vl.src, XSKF_F_VLAN) == XSKF_SRC_HW && vl.vlan_tci == 100 &&
		      !(vl.src & XSKF_META_VLAN_STAG) &&
		      (vl.ptype & XSKF_PTYPE_L2_MASK) == P_ETH && vl.l3_off == 14,
	      "C-tag 100 out of band: VLAN from the driver (src %#x, tci %u), frame untagged "
	      "(ptype %#x)",
	      vl.src, vl.vlan_tci, vl.ptype);
	skel->bss->push_tags = 2;
	err = send_and_wait(skel, s1, AF_INET, "192.0.2.2", &vq);
	CHECK(!err && XSKF_META_SRC(vq.src, XSKF_F_VLAN) == XSKF_SRC_HW && vq.vlan_tci == 200 &&
		      (vq.src & XSKF_META_VLAN_STAG) &&
		      (vq.ptype & XSKF_PTYPE_L2_MASK) == P_VLAN && vq.l3_off == 18 &&
		      vq.l4_off == 38,
	      "S-tag 200 out of band over C-tag 100 in the frame: the driver's outer tag wins "
	      "(src %#x, tci %u), frame has one tag (ptype %#x)",
	      vq.src, vq.vlan_tci, vq.ptype);
	skel->bss->push_tags = 0;
	bpf_xdp_detach(ifindex, XDP_FLAGS_DRV_MODE, NULL);

	/* hw = false in SKB (generic) mode: the meta is there, with no driver values */
	err = bpf_xdp_attach(ifindex, bpf_program__fd(skel->progs.hints_sw), XDP_FLAGS_SKB_MODE,
			     NULL);
	CHECK(!err, "hw = false attached in SKB mode (err %d)", err);
	err = send_and_wait(skel, s1, AF_INET, "192.0.2.2", &m1);
	CHECK(!err && m1.magic == XSKF_META_MAGIC && m1.ptype == (P_ETH | P_V4 | P_UDP) &&
		      m1.l4_off == 34 && !m1.src && !m1.rx_hash,
	      "SKB mode: meta written, no hardware values (src %#x)", m1.src);
	bpf_xdp_detach(ifindex, XDP_FLAGS_SKB_MODE, NULL);

	test_kfunc_subset(skel, ifindex, s1);
	if (s1 >= 0)
		close(s1);
	if (s2 >= 0)
		close(s2);
	if (s6 >= 0)
		close(s6);
out:
	hints_test__destroy(skel);
}

int main(void)
{
	struct hints_test *skel;
	int err;

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 77;
	}
	/* the receiving end lives in this process's own namespace: gone when it exits */
	if (unshare(CLONE_NEWNET) || sh("ip link set lo up")) {
		printf("1..0 # SKIP no network namespace\n");
		return 77;
	}
	libbpf_set_print(print_warn);
	atexit(peer_ns_delete);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	skel = hints_test__open();
	if (!skel) {
		printf("1..0 # SKIP cannot open the BPF object\n");
		return 77;
	}
	bpf_program__set_autoload(skel->progs.hints_hw, false);
	err = hints_test__load(skel);
	CHECK(!err, "hw = false loads anywhere, no kfunc call in it (err %d)", err);
	if (!err)
		test_vectors(skel);
	hints_test__destroy(skel);

	test_hw_veth();
	peer_ns_delete();
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}
