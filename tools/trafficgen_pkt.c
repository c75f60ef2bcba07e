// SPDX-License-Identifier: BSD-2-Clause
/*
 * The template frame of xskf-trafficgen: Ethernet + IPv4/IPv6 + UDP/TCP + payload, with every
 * checksum computed here once. The XDP program later changes only the source port and the
 * sequence number, and patches the L4 checksum for them (see xskf_trafficgen.bpf.c).
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include <xskf_csum.h>

#include "trafficgen.h"

uint16_t tg_pkt_hdr_len(bool ipv6, bool tcp)
{
	return ETH_HLEN + (ipv6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr)) +
	       (tcp ? sizeof(struct tcphdr) : sizeof(struct udphdr));
}

/* Sum of the pseudo-header that the L4 checksum covers (RFC 768, RFC 8200 section 8.1). */
static uint64_t pseudo_sum(const struct tg_pkt_cfg *cfg, uint32_t l4_len, uint8_t proto)
{
	uint64_t sum;

	if (cfg->ipv6) {
		sum = xskf_csum__add(0, &cfg->src_ip.v6, 16);
		sum = xskf_csum__add(sum, &cfg->dst_ip.v6, 16);
	} else {
		sum = xskf_csum__add(0, &cfg->src_ip.v4, 4);
		sum = xskf_csum__add(sum, &cfg->dst_ip.v4, 4);
	}
	/* in network order, as the words of the frame (xskf_csum.h) */
	return sum + htons((uint16_t)(l4_len >> 16)) + htons((uint16_t)l4_len) + htons(proto);
}

int tg_pkt_build(const struct tg_pkt_cfg *cfg, uint8_t *out, size_t buflen,
		 struct tg_layout *lay)
{
	/*
	 * Built in a scratch frame that starts 2 bytes past an 8-byte boundary, so the IP and L4
	 * headers after the 14-byte Ethernet header are naturally aligned for the struct
	 * accesses below (UBSan checks); then copied to @out.
	 */
	static union {
		uint64_t align;
		uint8_t b[TG_MAX_SIZE + 2];
	} scratch;
	uint8_t *buf = scratch.b + 2;
	uint16_t hdr_len = tg_pkt_hdr_len(cfg->ipv6, cfg->tcp);
	uint8_t proto = cfg->tcp ? IPPROTO_TCP : IPPROTO_UDP;
	struct ethhdr *eth = (struct ethhdr *)buf;
	uint32_t ip_off = ETH_HLEN, l4_off, l4_len, i;
	uint16_t *csum;

	if (cfg->size < TG_MIN_SIZE || cfg->size < hdr_len || cfg->size > TG_MAX_SIZE ||
	    cfg->size > buflen)
		return -EINVAL;

	memset(buf, 0, cfg->size);
	memset(lay, 0, sizeof(*lay));
	memcpy(eth->h_dest, cfg->dst_mac, ETH_ALEN);
	memcpy(eth->h_source, cfg->src_mac, ETH_ALEN);

	if (cfg->ipv6) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(buf + ip_off);

		eth->h_proto = htons(ETH_P_IPV6);
		l4_off = ip_off + sizeof(*ip6);
		l4_len = cfg->size - l4_off;
		ip6->version = 6;
		ip6->payload_len = htons(l4_len);
		ip6->nexthdr = proto;
		ip6->hop_limit = 64;
		ip6->saddr = cfg->src_ip.v6;
		ip6->daddr = cfg->dst_ip.v6;
	} else {
		struct iphdr *ip = (struct iphdr *)(buf + ip_off);

		eth->h_proto = htons(ETH_P_IP);
		l4_off = ip_off + sizeof(*ip);
		l4_len = cfg->size - l4_off;
		ip->version = 4;
		ip->ihl = sizeof(*ip) / 4;
		/* the frame is never shorter than the IP packet: no Ethernet padding to confuse */
		ip->tot_len = htons(cfg->size - ip_off);
		ip->frag_off = htons(0x4000); /* DF */
		ip->ttl = 64;
		ip->protocol = proto;
		ip->saddr = cfg->src_ip.v4.s_addr;
		ip->daddr = cfg->dst_ip.v4.s_addr;
		ip->check = (uint16_t)~xskf_csum__fold(xskf_csum__add(0, ip, sizeof(*ip)));
	}

	if (cfg->tcp) {
		struct tcphdr *th = (struct tcphdr *)(buf + l4_off);

		th->source = htons(cfg->sport);
		th->dest = htons(cfg->dport);
		th->seq = htonl(1);
		th->ack_seq = htonl(1);
		th->doff = sizeof(*th) / 4;
		/* a bare ACK: stateless traffic that no receiver takes for a connection attempt */
		th->ack = 1;
		th->window = htons(0xffff);
		csum = &th->check;
		lay->sport_off = l4_off + offsetof(struct tcphdr, source);
		lay->csum_off = l4_off + offsetof(struct tcphdr, check);
	} else {
		struct udphdr *uh = (struct udphdr *)(buf + l4_off);

		uh->source = htons(cfg->sport);
		uh->dest = htons(cfg->dport);
		uh->len = htons(l4_len);
		csum = &uh->check;
		lay->sport_off = l4_off + offsetof(struct udphdr, source);
		lay->csum_off = l4_off + offsetof(struct udphdr, check);
		lay->csum_is_udp = true;
	}

	/* payload: a sequence number (stamped by the program), then a byte pattern */
	if (cfg->size - hdr_len >= 4)
		lay->seq_off = hdr_len;
	for (i = hdr_len + (lay->seq_off ? 4 : 0); i < cfg->size; i++)
		buf[i] = (uint8_t)i;

	*csum = (uint16_t)~xskf_csum__fold(
	    xskf_csum__add(pseudo_sum(cfg, l4_len, proto), buf + l4_off, l4_len));
	/* RFC 768: a computed 0 is sent as all ones, 0 means "no checksum" */
	if (!cfg->tcp && *csum == 0)
		*csum = 0xffff;
	lay->hdr_len = hdr_len;
	memcpy(out, buf, cfg->size);
	return 0;
}

/* Fold a 32-bit one's complement sum to 16 bits, as the XDP program's csum_fold32(). */
static uint16_t fold32(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/*
 * The userspace twin of the XDP program (xskf_trafficgen.bpf.c), for the AF_XDP method: the
 * same fields, the same RFC 1624 patch from the bytes now in the frame (a UMEM frame holds
 * what its last send left in it, as a recycled live-frame page does). Keep the two in step:
 * the capture checks of tests/integration/test_trafficgen.sh run on both methods.
 */
void tg_pkt_stamp(uint8_t *frame, const struct tg_layout *lay, uint16_t sport_base,
		  uint32_t flows, uint64_t n)
{
	uint32_t delta = 0;
	uint16_t w[2], v[2], c;

	if (flows > 1) {
		v[0] = htons(sport_base + (uint16_t)((uint32_t)n % flows));
		memcpy(w, frame + lay->sport_off, 2);
		delta += (uint16_t)~w[0] + v[0];
		memcpy(frame + lay->sport_off, v, 2);
	}
	if (lay->seq_off) {
		uint32_t seq = htonl((uint32_t)n);

		/* the words as they lie in memory, like the checksum's own */
		memcpy(v, &seq, 4);
		memcpy(w, frame + lay->seq_off, 4);
		delta += (uint16_t)~w[0] + v[0];
		delta += (uint16_t)~w[1] + v[1];
		memcpy(frame + lay->seq_off, v, 4);
	}
	if (lay->csum_off && delta) {
		memcpy(w, frame + lay->csum_off, 2);
		c = ~fold32(delta + (uint16_t)~w[0]);
		if (lay->csum_is_udp && c == 0)
			c = 0xffff;
		memcpy(frame + lay->csum_off, &c, 2);
	}
}
