// SPDX-License-Identifier: BSD-2-Clause
/*
 * The judges of where the NIC sends frames, before XDP sees them: its RSS indirection table,
 * its ntuple rules and the fields its RSS hash covers (`xskf doctor`). No system call here: the
 * ethtool answers come in as arguments (tests/unit/test_doctor.c gives igb-like ones).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/ethtool.h>

#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/doctor/doctor_judge.h"

/*
 * Entries of the table that send frames to queues the run binds no socket on: those frames go
 * to the stack. Information, not a problem: a run on queue 0 of a 4-queue NIC may mean it.
 */
static void rss_unbound(struct xskf_dr_report *r, const struct xskf_dr_ask *a,
			const uint32_t *indir, unsigned int n, unsigned int nr_rx)
{
	static bool other[XSKF_DR_MAXQ];
	char ow[256], qw[256], weights[512];
	unsigned int i, hit = 0;
	size_t off = 0;

	if (!a->nq)
		return;
	memset(other, 0, sizeof(other));
	for (i = 0; i < n; i++)
		if (indir[i] < XSKF_DR_MAXQ && !xskf_dr__asked(a, indir[i])) {
			other[indir[i]] = true;
			hit++;
		}
	if (!hit)
		return;
	weights[0] = 0;
	for (i = 0; i < nr_rx && i < XSKF_DR_MAXQ && off < sizeof(weights); i++)
		off += (size_t)snprintf(weights + off, sizeof(weights) - off, " %d",
					xskf_dr__asked(a, i) ? 1 : 0);
	xskf_dr__add(
	    r, XSKF_DR_INFO, "rss-unbound",
	    "%u of the %u RSS table entries send frames to queues %s, where this run binds "
	    "no socket: those frames go to the stack\nethtool -x %s; asked: %s\n"
	    "ethtool -X %s weight%s (or bind every queue: no -q)",
	    hit, n, xskf_dr__ranges(other, XSKF_DR_MAXQ, ow, sizeof(ow)), a->ifname,
	    xskf_dr__asked_words(a, qw, sizeof(qw)), a->ifname, nr_rx ? weights : " ...");
}

void xskf_dr__judge_rss(struct xskf_dr_report *r, const struct xskf_dr_ask *a,
			const uint32_t *indir, unsigned int n, unsigned int nr_rx, int err)
{
	static bool in[XSKF_DR_MAXQ], out[XSKF_DR_MAXQ];
	unsigned int i, top = 0, nout = 0;
	char inw[256], outw[256], qw[256];

	if (err || !n) {
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "rss",
			     "the RSS indirection table is %s\n"
			     "ETHTOOL_GRXFHINDIR: %s\n",
			     err == -EOPNOTSUPP || !n ? "not reported by the driver" : "unknown",
			     err ? strerror(-err) : "no entries");
		return;
	}
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	for (i = 0; i < n; i++)
		if (indir[i] < XSKF_DR_MAXQ)
			in[indir[i]] = true;
	for (i = 0; i < a->nq; i++) {
		uint32_t q = a->queues[i];

		top = q + 1 > top ? q + 1 : top;
		if (q < XSKF_DR_MAXQ && q < (nr_rx ? nr_rx : XSKF_DR_MAXQ) && !in[q]) {
			out[q] = true;
			nout++;
		}
	}
	xskf_dr__ranges(in, XSKF_DR_MAXQ, inw, sizeof(inw));
	if (nout) {
		xskf_dr__add(
		    r, XSKF_DR_PROBLEM, "rss",
		    "queue%s %s of %s get%s no RSS-hashed frames: only an ntuple rule can "
		    "send frames there\nthe RSS indirection table's %u entries name queues "
		    "%s only (ethtool -x %s)\nethtool -X %s equal %u",
		    nout > 1 ? "s" : "", xskf_dr__ranges(out, XSKF_DR_MAXQ, outw, sizeof(outw)),
		    a->ifname, nout > 1 ? "" : "s", n, inw, a->ifname, a->ifname, top);
		return;
	}
	xskf_dr__add(r, XSKF_DR_OK, "rss",
		     "the RSS indirection table spreads frames over queues "
		     "%s; asked: %s",
		     inw, xskf_dr__asked_words(a, qw, sizeof(qw)));
	rss_unbound(r, a, indir, n, nr_rx);
}

/* ethtool's word for a flow type (ethtool -N's flow-type), or NULL. */
static const char *flow_word(uint32_t flow)
{
	switch (flow & ~(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS)) {
	case TCP_V4_FLOW:
		return "tcp4";
	case UDP_V4_FLOW:
		return "udp4";
	case SCTP_V4_FLOW:
		return "sctp4";
	case IPV4_USER_FLOW:
		return "ip4";
	case TCP_V6_FLOW:
		return "tcp6";
	case UDP_V6_FLOW:
		return "udp6";
	case SCTP_V6_FLOW:
		return "sctp6";
	case IPV6_USER_FLOW:
		return "ip6";
	case ETHER_FLOW:
		return "ether";
	}
	return NULL;
}

/* After @off bytes of @buf: the ports a rule matches (mask bits set), IPv4 and IPv6 alike. */
static size_t words_ports(char *buf, size_t len, size_t off, __be16 psrc, __be16 msrc, __be16 pdst,
			  __be16 mdst)
{
	if (msrc && off < len)
		off += (size_t)snprintf(buf + off, len - off, " src-port %u", ntohs(psrc));
	if (mdst && off < len)
		off += (size_t)snprintf(buf + off, len - off, " dst-port %u", ntohs(pdst));
	return off;
}

/* " src-ip 10.0.0.1 dst-port 9000": the fields an IPv4 rule matches (mask bits set: matched). */
static size_t words_ip4(const struct ethtool_rx_flow_spec *fs, char *buf, size_t len)
{
	const struct ethtool_tcpip4_spec *h = &fs->h_u.tcp_ip4_spec, *m = &fs->m_u.tcp_ip4_spec;
	bool l4 = (fs->flow_type & 0xff) != IPV4_USER_FLOW;
	char ip[INET_ADDRSTRLEN];
	size_t off = 0;

	if (m->ip4src && inet_ntop(AF_INET, &h->ip4src, ip, sizeof(ip)))
		off += (size_t)snprintf(buf + off, len - off, " src-ip %s", ip);
	if (m->ip4dst && off < len && inet_ntop(AF_INET, &h->ip4dst, ip, sizeof(ip)))
		off += (size_t)snprintf(buf + off, len - off, " dst-ip %s", ip);
	if (l4)
		off = words_ports(buf, len, off, h->psrc, m->psrc, h->pdst, m->pdst);
	return off;
}

static size_t words_ip6(const struct ethtool_rx_flow_spec *fs, char *buf, size_t len)
{
	const struct ethtool_tcpip6_spec *h = &fs->h_u.tcp_ip6_spec, *m = &fs->m_u.tcp_ip6_spec;
	static const __be32 zero[4];
	bool l4 = (fs->flow_type & 0xff) != IPV6_USER_FLOW;
	char ip[INET6_ADDRSTRLEN];
	size_t off = 0;

	if (memcmp(m->ip6src, zero, sizeof(zero)) && inet_ntop(AF_INET6, h->ip6src, ip, sizeof(ip)))
		off += (size_t)snprintf(buf + off, len - off, " src-ip %s", ip);
	if (memcmp(m->ip6dst, zero, sizeof(zero)) && off < len &&
	    inet_ntop(AF_INET6, h->ip6dst, ip, sizeof(ip)))
		off += (size_t)snprintf(buf + off, len - off, " dst-ip %s", ip);
	if (l4)
		off = words_ports(buf, len, off, h->psrc, m->psrc, h->pdst, m->pdst);
	return off;
}

const char *xskf_dr__rule_words(const struct ethtool_rx_flow_spec *fs, char *buf, size_t len)
{
	const char *w = flow_word(fs->flow_type);
	uint32_t t = fs->flow_type & 0xff;
	size_t off;

	off = (size_t)snprintf(buf, len, "%s", w ? w : "flow-type ?");
	if (off >= len)
		return buf;
	if (t == TCP_V4_FLOW || t == UDP_V4_FLOW || t == SCTP_V4_FLOW || t == IPV4_USER_FLOW)
		off += words_ip4(fs, buf + off, len - off);
	else if (t == TCP_V6_FLOW || t == UDP_V6_FLOW || t == SCTP_V6_FLOW || t == IPV6_USER_FLOW)
		off += words_ip6(fs, buf + off, len - off);
	else if (t == ETHER_FLOW && fs->m_u.ether_spec.h_proto)
		off += (size_t)snprintf(buf + off, len - off, " proto 0x%04x",
					ntohs(fs->h_u.ether_spec.h_proto));
	if (off < len && (fs->flow_type & FLOW_EXT) && fs->m_ext.vlan_tci)
		snprintf(buf + off, len - off, " vlan %u", ntohs(fs->h_ext.vlan_tci) & 0xfff);
	return buf;
}

void xskf_dr__judge_rule(struct xskf_dr_report *r, const struct xskf_dr_ask *a,
			 const struct ethtool_rx_flow_spec *fs)
{
	uint64_t q = fs->ring_cookie & ETHTOOL_RX_FLOW_SPEC_RING;
	uint64_t vf =
	    (fs->ring_cookie & ETHTOOL_RX_FLOW_SPEC_RING_VF) >> ETHTOOL_RX_FLOW_SPEC_RING_VF_OFF;
	char w[256], qw[256];

	xskf_dr__rule_words(fs, w, sizeof(w));
	if (fs->ring_cookie == RX_CLS_FLOW_DISC) {
		xskf_dr__add(r, XSKF_DR_PROBLEM, "ntuple",
			     "ntuple rule %u drops its frames (%s) in the NIC, before XDP\n"
			     "ethtool -n %s: rule %u, action drop\nethtool -N %s delete %u",
			     fs->location, w, a->ifname, fs->location, a->ifname, fs->location);
		return;
	}
	if (vf) {
		xskf_dr__add(
		    r, XSKF_DR_PROBLEM, "ntuple",
		    "ntuple rule %u sends its frames (%s) to virtual function %llu: they "
		    "never reach this interface's queues\nethtool -n %s: rule %u, vf %llu, "
		    "queue %llu\nethtool -N %s delete %u",
		    fs->location, w, (unsigned long long)vf, a->ifname, fs->location,
		    (unsigned long long)vf, (unsigned long long)q, a->ifname, fs->location);
		return;
	}
	if (xskf_dr__asked(a, (uint32_t)q)) {
		xskf_dr__add(r, XSKF_DR_OK, "ntuple",
			     "ntuple rule %u sends %s to queue %llu, "
			     "asked",
			     fs->location, w, (unsigned long long)q);
		return;
	}
	xskf_dr__add(
	    r, XSKF_DR_PROBLEM, "ntuple",
	    "ntuple rule %u sends its frames (%s) to queue %llu, where this run binds no "
	    "socket: they go to the stack\nethtool -n %s: rule %u, action %llu; asked: %s\n"
	    "ethtool -N %s delete %u (or bind queue %llu too: -q %llu)",
	    fs->location, w, (unsigned long long)q, a->ifname, fs->location, (unsigned long long)q,
	    xskf_dr__asked_words(a, qw, sizeof(qw)), a->ifname, fs->location, (unsigned long long)q,
	    (unsigned long long)q);
}

/* "IP SA, IP DA, L4 bytes 0 & 1": ethtool -n's words for RXH_* @fields. */
static const char *rxh_words(uint64_t fields, char *buf, size_t len)
{
	static const struct {
		uint64_t bit;
		const char *w;
	} rxh[] = {{RXH_L2DA, "L2DA"},
		   {RXH_VLAN, "VLAN tag"},
		   {RXH_L3_PROTO, "L3 proto"},
		   {RXH_IP_SRC, "IP SA"},
		   {RXH_IP_DST, "IP DA"},
		   {RXH_L4_B_0_1, "L4 bytes 0 & 1 [TCP/UDP src port]"},
		   {RXH_L4_B_2_3, "L4 bytes 2 & 3 [TCP/UDP dst port]"}};
	size_t off = 0, i;

	buf[0] = 0;
	for (i = 0; i < sizeof(rxh) / sizeof(rxh[0]) && off < len; i++)
		if (fields & rxh[i].bit)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						rxh[i].w);
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

void xskf_dr__judge_rxfh(struct xskf_dr_report *r, const struct xskf_dr_ask *a, uint32_t flow,
			 uint64_t fields, int err)
{
	const char *fw = flow_word(flow);
	char w[160], qw[256];

	if (err) {
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "rx-flow-hash",
			     "the %s rx-flow-hash is %s\n"
			     "ETHTOOL_GRXFH: %s\n",
			     fw ? fw : "?",
			     err == -EOPNOTSUPP ? "not reported by the driver" : "unknown",
			     strerror(-err));
		return;
	}
	rxh_words(fields, w, sizeof(w));
	if (!(fields & (RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3))) {
		/* virtio-net without RSS: the device, not a hash the driver can tell, picks */
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "rx-flow-hash",
			     "the driver reports no address or "
			     "port field in its %s rx-flow-hash\nETHTOOL_GRXFH: %s\n",
			     fw, w);
		return;
	}
	if ((fields & (RXH_L4_B_0_1 | RXH_L4_B_2_3)) || a->nq == 1) {
		xskf_dr__add(r, XSKF_DR_OK, "rx-flow-hash",
			     "%s frames are hashed over %s; asked: "
			     "%s",
			     fw, w, xskf_dr__asked_words(a, qw, sizeof(qw)));
		return;
	}
	xskf_dr__add(r, XSKF_DR_PROBLEM, "rx-flow-hash",
		     "%s frames are hashed over their addresses only: every flow between two hosts "
		     "lands on one queue, and the other asked queues get none of them\n"
		     "ethtool -n %s rx-flow-hash %s: %s; asked: %s\n"
		     "ethtool -N %s rx-flow-hash %s sdfn",
		     fw, a->ifname, fw, w, xskf_dr__asked_words(a, qw, sizeof(qw)), a->ifname, fw);
}
