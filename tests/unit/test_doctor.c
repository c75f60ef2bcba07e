// SPDX-License-Identifier: BSD-2-Clause
/*
 * The judges of `xskf doctor` (framework/backend/xdp/doctor/doctor_judge.c, doctor_steer.c) with
 * answers no veth gives: igb's RSS indirection table, its ntuple rules and rx-flow-hash, MSI-X
 * interrupt names and their affinity, a NIC's MAC filter, NUMA nodes and hugepages. Each case
 * checks the one finding and its exact fix, and that a healthy answer finds no problem.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/ethtool.h>

#include "../tap.h"
#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/doctor/doctor_judge.h"

static struct xskf_dr_report r;
static struct xskf_dr_ask a;

static void reset(const uint32_t *q, unsigned int nq)
{
	memset(&r, 0, sizeof(r));
	memset(&a, 0, sizeof(a));
	a.ifname = "eth0";
	a.frame_size = 2048;
	a.headroom = 288;
	a.umem_bytes = 4096 * 2048;
	memcpy(a.queues, q, nq * sizeof(*q));
	a.nq = nq;
}

/* The only finding of severity @sev, or NULL when there are none or several. */
static const struct xskf_dr_finding *only(enum xskf_dr_sev sev)
{
	const struct xskf_dr_finding *f = NULL;
	unsigned int i;

	for (i = 0; i < r.n; i++)
		if (r.f[i].sev == sev) {
			if (f)
				return NULL;
			f = &r.f[i];
		}
	return f;
}

static void irq_names(void)
{
	unsigned int irq = 0;
	char name[64];

	CHECK(xskf_dr__irq_queue("eth0-TxRx-3") == 3, "igb's eth0-TxRx-3: queue 3");
	CHECK(xskf_dr__irq_queue("i40e-ens1f0-TxRx-5") == 5, "i40e's: queue 5");
	CHECK(xskf_dr__irq_queue("eth0-rx-2") == 2, "an RX-only vector: queue 2");
	CHECK(xskf_dr__irq_queue("eth0-tx-2") == -1, "a TX-only vector: no RX queue");
	CHECK(xskf_dr__irq_queue("virtio0-input.1") == 1, "virtio-net's input.1: queue 1");
	CHECK(xskf_dr__irq_queue("virtio0-output.1") == -1, "virtio-net's output: none");
	CHECK(xskf_dr__irq_queue("virtio0-config") == -1, "virtio's config: none");
	CHECK(xskf_dr__irq_queue("mlx5_comp7@pci:0000:03:00.0") == 7, "mlx5's comp7: queue 7");
	CHECK(xskf_dr__irq_queue("eth0") == -1, "igb's link vector: none");
	CHECK(xskf_dr__irq_queue("ens3-2") == 2, "a name ending in -N: queue N");
	CHECK(!xskf_dr__irq_line(" 45:   1234    0  IR-PCI-MSIX-0000:03:00.0    1-edge      "
				 "eth0-TxRx-0\n",
				 &irq, name, sizeof(name)) &&
		  irq == 45 && !strcmp(name, "eth0-TxRx-0"),
	      "a /proc/interrupts line: IRQ 45, eth0-TxRx-0 (got %u %s)", irq, name);
	CHECK(xskf_dr__irq_line("           CPU0       CPU1\n", &irq, name, sizeof(name)) ==
		  -EINVAL,
	      "the header is no IRQ");
	CHECK(xskf_dr__irq_line("NMI:          0          0   Non-maskable interrupts\n", &irq,
				name, sizeof(name)) == -EINVAL,
	      "NMI: is no IRQ");
}

static void cpu_lists(void)
{
	bool set[16];

	CHECK(!xskf_dr__cpu_list("0-2,6\n", set, 16) && set[0] && set[2] && !set[3] && set[6],
	      "0-2,6");
	CHECK(xskf_dr__cpu_list("1-x", set, 16) == -EINVAL, "1-x is no cpu list");
	CHECK(xskf_dr__cpu_list("3-1", set, 16) == -EINVAL, "3-1 is no cpu list");
}

static void rss(void)
{
	uint32_t indir[128], q3 = 3, q0 = 0;
	const struct xskf_dr_finding *f;
	unsigned int i;

	for (i = 0; i < 128; i++)
		indir[i] = i % 2; /* ethtool -X eth0 equal 2 on a 4-queue igb */
	reset(&q3, 1);
	xskf_dr__judge_rss(&r, &a, indir, 128, 4, 0);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->check, "rss") && !strcmp(f->fix, "ethtool -X eth0 equal 4") &&
		  strstr(f->evidence, "128 entries name queues 0-1 only"),
	      "queue 3 outside the table: %s / %s / %s", f ? f->what : "-", f ? f->evidence : "-",
	      f ? f->fix : "-");
	reset(&q0, 1);
	xskf_dr__judge_rss(&r, &a, indir, 128, 4, 0);
	f = only(XSKF_DR_INFO);
	CHECK(!only(XSKF_DR_PROBLEM) && f && !strcmp(f->check, "rss-unbound") &&
		  !strcmp(f->fix, "ethtool -X eth0 weight 1 0 0 0 (or bind every queue: no -q)") &&
		  strstr(f->what, "64 of the 128"),
	      "queue 0 in the table, queue 1 unbound: information (%s; %s)", f ? f->what : "-",
	      f ? f->fix : "-");
	reset(&q0, 1);
	xskf_dr__judge_rss(&r, &a, NULL, 0, 2, -EOPNOTSUPP);
	CHECK(r.n == 1 && r.f[0].sev == XSKF_DR_UNKNOWN &&
		  strstr(r.f[0].what, "not reported by the driver"),
	      "veth: not reported by the driver, no problem");
}

static void rules(void)
{
	struct ethtool_rx_flow_spec fs = {
	    .flow_type = UDP_V4_FLOW, .ring_cookie = 2, .location = 5};
	const struct xskf_dr_finding *f;
	uint32_t q0 = 0, q2 = 2;
	char w[128];

	fs.h_u.udp_ip4_spec.pdst = htons(9000);
	fs.m_u.udp_ip4_spec.pdst = 0xffff;
	fs.h_u.udp_ip4_spec.ip4dst = htonl(0xc0000201);
	fs.m_u.udp_ip4_spec.ip4dst = 0xffffffff;
	CHECK(
	    !strcmp(xskf_dr__rule_words(&fs, w, sizeof(w)), "udp4 dst-ip 192.0.2.1 dst-port 9000"),
	    "rule words: %s", w);
	reset(&q0, 1);
	xskf_dr__judge_rule(&r, &a, &fs);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->check, "ntuple") && strstr(f->what, "to queue 2") &&
		  !strcmp(f->fix, "ethtool -N eth0 delete 5 (or bind queue 2 too: -q 2)"),
	      "a rule to an unbound queue: %s; %s", f ? f->what : "-", f ? f->fix : "-");
	reset(&q2, 1);
	xskf_dr__judge_rule(&r, &a, &fs);
	CHECK(!only(XSKF_DR_PROBLEM) && r.n == 1, "a rule to the bound queue: ok");
	fs.ring_cookie = RX_CLS_FLOW_DISC;
	reset(&q2, 1);
	xskf_dr__judge_rule(&r, &a, &fs);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && strstr(f->what, "drops its frames") &&
		  !strcmp(f->fix, "ethtool -N eth0 delete 5"),
	      "a drop rule");
}

static void flow_hash(void)
{
	uint32_t two[2] = {0, 1}, q0 = 0;
	const struct xskf_dr_finding *f;

	reset(two, 2);
	xskf_dr__judge_rxfh(&r, &a, UDP_V4_FLOW, RXH_IP_SRC | RXH_IP_DST, 0);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->check, "rx-flow-hash") &&
		  !strcmp(f->fix, "ethtool -N eth0 rx-flow-hash udp4 sdfn") &&
		  strstr(f->evidence, "IP SA, IP DA"),
	      "udp4 over addresses, two queues: %s", f ? f->evidence : "-");
	reset(two, 2);
	xskf_dr__judge_rxfh(&r, &a, UDP_V4_FLOW,
			    RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3, 0);
	CHECK(!only(XSKF_DR_PROBLEM), "udp4 over the 4-tuple: ok");
	reset(&q0, 1);
	xskf_dr__judge_rxfh(&r, &a, UDP_V4_FLOW, RXH_IP_SRC | RXH_IP_DST, 0);
	CHECK(!only(XSKF_DR_PROBLEM), "one queue asked: the hash fields do not matter");
	reset(two, 2);
	xskf_dr__judge_rxfh(&r, &a, TCP_V4_FLOW, 0, -EOPNOTSUPP);
	CHECK(r.n == 1 && r.f[0].sev == XSKF_DR_UNKNOWN, "EOPNOTSUPP: not reported");
	reset(two, 2);
	xskf_dr__judge_rxfh(&r, &a, TCP_V4_FLOW, 0, 0);
	CHECK(r.n == 1 && r.f[0].sev == XSKF_DR_UNKNOWN,
	      "no field (virtio-net without RSS): unknown");
}

static void promisc(void)
{
	static const uint8_t own[6] = {0x02, 0, 0, 0, 0, 1}, other[6] = {0x02, 0, 0, 0, 0, 9};
	const struct xskf_dr_finding *f;
	uint32_t q0 = 0;

	reset(&q0, 1);
	xskf_dr__judge_promisc(&r, &a, true, false, own);
	f = only(XSKF_DR_INFO);
	CHECK(!only(XSKF_DR_PROBLEM) && f && strstr(f->fix, "ip link set dev eth0 promisc on"),
	      "a NIC, promisc off, the traffic's MAC unknown: information only");
	reset(&q0, 1);
	a.mac_known = true;
	memcpy(a.mac, other, 6);
	xskf_dr__judge_promisc(&r, &a, true, false, own);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->fix, "ip link set dev eth0 promisc on") &&
		  strstr(f->what, "02:00:00:00:00:09"),
	      "a foreign MAC, promisc off: %s", f ? f->what : "-");
	reset(&q0, 1);
	a.mac_known = true;
	memcpy(a.mac, own, 6);
	xskf_dr__judge_promisc(&r, &a, true, false, own);
	CHECK(!only(XSKF_DR_PROBLEM) && !only(XSKF_DR_INFO), "the NIC's own MAC: ok");
	reset(&q0, 1);
	xskf_dr__judge_promisc(&r, &a, false, false, own);
	CHECK(r.n == 1 && r.f[0].sev == XSKF_DR_OK, "veth: no MAC filter");
}

static void irqs(void)
{
	const struct xskf_dr_finding *f;
	uint32_t q1 = 1;

	reset(&q1, 1);
	a.cpus[0] = 1;
	a.ncpus = 1;
	xskf_dr__judge_irq(&r, &a, 1, 45, "eth0-TxRx-1", "1", 4);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->check, "irq-cpu") && strstr(f->what, "its own worker") &&
		  !strncmp(f->fix, "echo 0 > /proc/irq/45/smp_affinity_list", 39),
	      "the worker on its queue's IRQ CPU: %s; %s", f ? f->what : "-", f ? f->fix : "-");
	reset(&q1, 1);
	a.cpus[0] = 1;
	a.ncpus = 1;
	xskf_dr__judge_irq(&r, &a, 1, 45, "eth0-TxRx-1", "2-3", 4);
	CHECK(!only(XSKF_DR_PROBLEM), "the IRQ on other CPUs: ok");
	reset(&q1, 1);
	xskf_dr__judge_irq(&r, &a, 1, 45, "eth0-TxRx-1", "1", 4);
	CHECK(!r.n, "no --cpus: nothing to judge");
}

static void link_mem(void)
{
	const struct xskf_dr_finding *f;
	uint32_t q0 = 0, q3 = 3;

	reset(&q0, 1);
	xskf_dr__judge_link(&r, &a, true, true, 9000, 0);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->check, "mtu") && !strcmp(f->fix, "ip link set dev eth0 mtu 1742"),
	      "MTU 9000, 2048-byte frames, no multi-buffer: %s", f ? f->fix : "-");
	reset(&q0, 1);
	xskf_dr__judge_link(&r, &a, true, true, 3000, 0);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->fix, "--frame-size 4096"), "MTU 3000: --frame-size 4096");
	reset(&q0, 1);
	xskf_dr__judge_link(&r, &a, false, false, 1500, 1);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->fix, "ip link set dev eth0 up"), "link down");
	reset(&q3, 1);
	xskf_dr__judge_queues(&r, &a, 2, 4);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->fix, "ethtool -L eth0 combined 4"), "queue 3 of 2 (4 at most)");
	reset(&q0, 1);
	xskf_dr__judge_huge(&r, &a, 1, 2 << 20, 0, 1);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->check, "hugepages") &&
		  strstr(f->fix, "node1/hugepages/"
				 "hugepages-2048kB/nr_hugepages"),
	      "no hugepages on the NIC's node 1: %s", f ? f->fix : "-");
	reset(&q0, 1);
	xskf_dr__judge_huge(&r, &a, -1, 2 << 20, 0, 1);
	CHECK(!only(XSKF_DR_PROBLEM), "no NUMA node: no problem");
	reset(&q0, 1);
	xskf_dr__judge_memlock(&r, &a, 64 << 10, false, 1);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && strstr(f->fix, "ulimit -l 8192"), "RLIMIT_MEMLOCK 64 KiB: %s", f ? f->fix : "-");
	reset(&q0, 1);
	xskf_dr__judge_umem(&r, 1024, 2048, 2048, 1);
	f = only(XSKF_DR_PROBLEM);
	CHECK(f && !strcmp(f->fix, "--frames 4096 (or leave --frames out)"), "UMEM too small");
}

static void output(void)
{
	char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	uint32_t q0 = 0;

	reset(&q0, 1);
	xskf_dr__add(&r, XSKF_DR_OK, "link", "up");
	xskf_dr__add(&r, XSKF_DR_UNKNOWN, "rss", "not reported\nEOPNOTSUPP\n");
	xskf_dr__print(f, &r, false);
	fclose(f);
	CHECK(!strcmp(buf, "no problem found\n"), "healthy: exactly 'no problem found'");
	f = fmemopen(buf, sizeof(buf), "w");
	xskf_dr__add(&r, XSKF_DR_PROBLEM, "xdp", "what \"quoted\"\nevidence\nfix");
	xskf_dr__json(f, &r, "eth0", a.queues, a.nq);
	fclose(f);
	CHECK(strstr(buf, "\"problems\": 1, \"infos\": 0") &&
		  strstr(buf, "\"what\": \"what \\\"quoted\\\"\""),
	      "JSON: counts and escapes");
}

int main(void)
{
	irq_names();
	cpu_lists();
	rss();
	rules();
	flow_hash();
	promisc();
	irqs();
	link_mem();
	output();
	return tap_done();
}
