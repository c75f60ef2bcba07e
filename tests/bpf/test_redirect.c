// SPDX-License-Identifier: BSD-2-Clause
/*
 * BPF_PROG_TEST_RUN on the embedded XDP program (the skeleton libxskf uses): redirect and pass
 * decisions per queue, for both tiers, and the per-queue counters. A real AF_XDP socket is
 * bound in a private network namespace so the XSKMAP entry is real. Root; 77 = skip.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/xsk.h>

#include "core/engine.h"
#include "backend/xdp/xdp_state.h"
#include "xskf_prog.h"
#include "xskf_redirect.skel.h"

#include "tap.h"
#include "backend/xdp/prog/share.h"

static int run1(int prog_fd, int ifindex, unsigned int queue)
{
	unsigned char pkt[64] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x08, 0x00 };
	struct xdp_md ctx = { .data_end = sizeof(pkt), .ingress_ifindex = (uint32_t)ifindex,
			      .rx_queue_index = queue };
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = 1);
	int err = bpf_prog_test_run_opts(prog_fd, &t);

	return err ? err : (int)t.retval;
}

/*
 * Run @n times, one frame each: with .repeat the kernel reuses one xdp_buff without resetting
 * data_meta, so the hints' bpf_xdp_adjust_meta() would run out of room after a few rounds.
 */
static int run(int prog_fd, int ifindex, unsigned int queue, unsigned int n)
{
	int ret = -1;

	while (n--) {
		ret = run1(prog_fd, ifindex, queue);
		if (ret < 0)
			break;
	}
	return ret;
}

/* An Ethernet frame carrying UDP to @dport over IPv4 (@v6 false) or IPv6, in @pkt. */
static unsigned int udp_frame(unsigned char *pkt, bool v6, uint16_t dport)
{
	unsigned int l4;

	memset(pkt, 0, 128);
	pkt[12] = v6 ? 0x86 : 0x08;
	pkt[13] = v6 ? 0xdd : 0x00;
	if (v6) {
		pkt[14] = 0x60;
		pkt[20] = 17; /* next header: UDP */
		l4 = 14 + 40;
	} else {
		pkt[14] = 0x45;
		pkt[23] = 17; /* protocol: UDP */
		l4 = 14 + 20;
	}
	pkt[l4 + 2] = dport >> 8;
	pkt[l4 + 3] = dport & 0xff;
	return l4 + 8 + 16;
}

static int run_frame(int prog_fd, int ifindex, unsigned int queue, unsigned char *pkt,
		     unsigned int len)
{
	struct xdp_md ctx = { .data_end = len, .ingress_ifindex = (uint32_t)ifindex,
			      .rx_queue_index = queue };
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = len, .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = 1);
	int err = bpf_prog_test_run_opts(prog_fd, &t);

	return err ? err : (int)t.retval;
}

/* xskf_engine__steer_udp(): only UDP to the port goes to the socket, the rest to the stack. */
static void test_steering(int ifindex, int xsk_fd)
{
	struct xskf_redirect *skel = xskf_redirect__open();
	struct xskf_engine *eng = calloc(1, sizeof(*eng));
	static struct xskf_port port;
	unsigned char pkt[128];
	char err[256];
	uint32_t q1 = 1;
	int fd;

	if (skel) {
		skel->rodata->hints_on = 1;
		bpf_program__set_autoload(skel->progs.xskf_redirect_hw, false);
	}
	CHECK(skel && eng && xskf_redirect__load(skel) == 0, "steering program loads");
	if (!skel || !eng)
		return;
	/* the xdp backend's own state of the engine and the port (its init() and add_port()) */
	eng->be_priv = calloc(1, sizeof(struct xskf_xdp_engine));
	port.be_priv = calloc(1, sizeof(struct xskf_xdp_port));
	if (!eng->be_priv || !port.be_priv)
		return;
	/* what xskf_engine__steer_udp(eng, port, 4789) asks for, through the real table code */
	xskf_xdp_port(&port)->skel = skel;
	port.nr_queues = 2;
	port.queues[1] = 1;
	/* a run's rules apply to the queues it owns (prog_share.c): these two */
	CHECK(xskf_share__queues(eng, &port, true) == 0 &&
		      xskf_steer__add(eng, &port, "udp dport 4789 xsk", 1, false, err, sizeof(err)) == 0 &&
		      xskf_steer__load(eng, &port) == 0,
	      "steering table 'udp dport 4789 xsk' loaded");
	bpf_map_update_elem(bpf_map__fd(skel->maps.xsks), &q1, &xsk_fd, 0);
	fd = bpf_program__fd(skel->progs.xskf_redirect);
	CHECK(run_frame(fd, ifindex, 1, pkt, udp_frame(pkt, false, 4789)) == XDP_REDIRECT,
	      "steering: IPv4 UDP 4789 to the socket");
	CHECK(run_frame(fd, ifindex, 1, pkt, udp_frame(pkt, true, 4789)) == XDP_REDIRECT,
	      "steering: IPv6 UDP 4789 to the socket");
	CHECK(run_frame(fd, ifindex, 1, pkt, udp_frame(pkt, false, 53)) == XDP_PASS,
	      "steering: IPv4 UDP 53 to the stack");
	udp_frame(pkt, false, 4789);
	pkt[23] = 6; /* TCP */
	CHECK(run_frame(fd, ifindex, 1, pkt, 64) == XDP_PASS, "steering: TCP to the stack");
	udp_frame(pkt, false, 4789);
	pkt[12] = 0x08;
	pkt[13] = 0x06; /* ARP */
	CHECK(run_frame(fd, ifindex, 1, pkt, 64) == XDP_PASS, "steering: ARP to the stack");
	xskf_steer__free(&port);
	xskf_redirect__destroy(skel);
	free(port.be_priv);
	free(eng->be_priv);
	free(eng);
}

static void counters(struct xskf_redirect *skel, uint32_t q, struct xskf_prog_counters *sum)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct xskf_prog_counters v[ncpu];

	memset(sum, 0, sizeof(*sum));
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.counters), &q, v))
		return;
	for (i = 0; i < ncpu; i++) {
		sum->redirected += v[i].redirected;
		sum->passed += v[i].passed;
		sum->errors += v[i].errors;
	}
}

int main(void)
{
	struct xsk_umem_config ucfg = { .fill_size = 64, .comp_size = 64, .frame_size = 2048 };
	struct xsk_socket_config scfg = { .rx_size = 64, .tx_size = 64,
					  .libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
					  .bind_flags = XDP_COPY };
	struct xsk_ring_prod fill, tx;
	struct xsk_ring_cons comp, rx;
	struct xskf_prog_counters c;
	struct xskf_redirect *skel;
	struct xsk_socket *xsk = NULL;
	struct xsk_umem *umem = NULL;
	uint32_t q1 = 1;
	int ifindex, fd, ret, progs[2], i;
	void *area;

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 77;
	}
	/* a private network namespace with a 2-queue veth, gone when the process exits */
	if (unshare(CLONE_NEWNET) ||
	    system("ip link add tr0 numrxqueues 2 numtxqueues 2 type veth peer name tr1 "
		   "numrxqueues 2 numtxqueues 2 && ip link set tr0 up && ip link set tr1 up")) {
		printf("1..0 # SKIP no network namespace / veth\n");
		return 77;
	}
	ifindex = (int)if_nametoindex("tr0");

	/* the hardware-hints variant loads device-bound on veth (test runs refuse such programs) */
	skel = xskf_redirect__open();
	if (skel) {
		skel->rodata->hints_on = 1;
		bpf_program__set_ifindex(skel->progs.xskf_redirect_hw, (unsigned int)ifindex);
		bpf_program__set_flags(skel->progs.xskf_redirect_hw, 1U << 6 /* DEV_BOUND_ONLY */);
	}
	CHECK(skel && xskf_redirect__load(skel) == 0, "device-bound hints variant loads on veth");
	xskf_redirect__destroy(skel);

	/* the others are tested with BPF_PROG_TEST_RUN, hints on as by default */
	skel = xskf_redirect__open();
	if (skel) {
		skel->rodata->hints_on = 1;
		bpf_program__set_autoload(skel->progs.xskf_redirect_hw, false);
	}
	CHECK(skel && xskf_redirect__load(skel) == 0, "skeleton loads");
	if (!skel)
		return 1;
	progs[0] = bpf_program__fd(skel->progs.xskf_redirect);
	progs[1] = bpf_program__fd(skel->progs.xskf_redirect_lk);

	for (i = 0; i < 2; i++) {
		const char *name = i ? "lookup tier" : "redirect_map tier";

		ret = run(progs[i], ifindex, 0, 10);
		CHECK(ret == XDP_PASS, "%s, empty map: XDP_PASS (got %d)", name, ret);
	}
	counters(skel, 0, &c);
	CHECK(c.passed == 20 && c.redirected == 0 && c.errors == 0,
	      "queue 0 counted 20 passed (got %llu/%llu/%llu)", (unsigned long long)c.passed,
	      (unsigned long long)c.redirected, (unsigned long long)c.errors);

	/* a real socket on queue 1, entered in the XSKMAP */
	area = aligned_alloc(4096, 64 * 2048);
	ret = area ? xsk_umem__create(&umem, area, 64 * 2048, &fill, &comp, &ucfg) : -ENOMEM;
	if (!ret)
		ret = xsk_socket__create(&xsk, "tr0", 1, umem, &rx, &tx, &scfg);
	CHECK(ret == 0, "AF_XDP socket bound to tr0 queue 1 (%d)", ret);
	if (ret)
		return 1;
	fd = xsk_socket__fd(xsk);
	CHECK(bpf_map_update_elem(bpf_map__fd(skel->maps.xsks), &q1, &fd, 0) == 0,
	      "socket entered in the XSKMAP at 1");

	for (i = 0; i < 2; i++) {
		const char *name = i ? "lookup tier" : "redirect_map tier";

		ret = run(progs[i], ifindex, 1, 5);
		CHECK(ret == XDP_REDIRECT, "%s, queue 1 (socket): XDP_REDIRECT (got %d)", name, ret);
		ret = run(progs[i], ifindex, 0, 5);
		CHECK(ret == XDP_PASS, "%s, queue 0 (no socket): XDP_PASS (got %d)", name, ret);
	}
	counters(skel, 1, &c);
	CHECK(c.redirected == 10 && c.passed == 0, "queue 1 counted 10 redirected (got %llu)",
	      (unsigned long long)c.redirected);
	counters(skel, 0, &c);
	CHECK(c.passed == 30 && c.redirected == 0, "queue 0 counted 30 passed in all (got %llu)",
	      (unsigned long long)c.passed);

	test_steering(ifindex, fd);
	xsk_socket__delete(xsk);
	xsk_umem__delete(umem);
	free(area);
	xskf_redirect__destroy(skel);
	return tap_done();
}
