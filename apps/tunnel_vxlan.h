/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * VXLAN (RFC 7348) encapsulation and decapsulation of one frame, in place in its UMEM chunk.
 * Both return the counter the frame goes to: TUN_ENCAP / TUN_DECAP on success (the frame is
 * then ready to forward), a drop reason otherwise (the frame is left as it was).
 */
#ifndef TUNNEL_VXLAN_H
#define TUNNEL_VXLAN_H

#include <stdint.h>

#include <xskf.h>

#include "tunnel_table.h"

#define TUN_VXLAN_PORT 4789
/* outer Ethernet + IP + UDP + VXLAN */
#define TUN_VXLAN_HLEN4 (14 + 20 + 8 + 8)
#define TUN_VXLAN_HLEN6 (14 + 40 + 8 + 8)

enum tun_ctr {
	TUN_ENCAP,
	TUN_DECAP,
	/* access -> underlay drops */
	TUN_ENC_RUNT,        /* shorter than an Ethernet header */
	TUN_ENC_NO_ROUTE,    /* no entry for the destination MAC and no default */
	TUN_ENC_MTU,         /* the outer packet would exceed the underlay MTU */
	TUN_ENC_NO_HEADROOM, /* no room in front of the frame for the outer headers */
	/* underlay -> access drops: what is not VXLAN for us */
	TUN_DEC_NOT_IP,      /* neither IPv4 nor IPv6 (ARP, VLAN-tagged, ...) */
	TUN_DEC_NOT_LOCAL,   /* IP, but not to our VTEP address */
	TUN_DEC_NOT_UDP,     /* to us, but not UDP (ICMP, IPv6 extension headers, fragments) */
	TUN_DEC_WRONG_PORT,  /* UDP to us, but not to port 4789 */
	TUN_DEC_SHORT,       /* ends inside a header, or lengths that do not add up */
	TUN_DEC_BAD_FLAGS,   /* VXLAN header without the I (valid VNI) flag */
	TUN_DEC_UNKNOWN_VNI, /* a VNI that is not in the table */
	/* what became of the TUN_ENC_MTU frames (tunnel_pmtu.h): each is one of these four */
	TUN_PMTU_ICMP4,       /* answered with ICMP fragmentation needed */
	TUN_PMTU_ICMP6,       /* answered with ICMPv6 packet too big */
	TUN_PMTU_RATELIMITED, /* one was due, but the worker's token bucket was empty */
	TUN_PMTU_NO_ICMP,     /* none by the rules (no DF, not IP, an ICMP error, ...) or ICMP off */
	TUN_CTR_MAX,
};

/* Names as they appear in the JSON output. */
/* the counters' names, and a NULL after them (a plugin's counter list, xskf_plugin.h) */
extern const char *const tun_ctr_names[TUN_CTR_MAX + 1];

/* What encap needs to know of the underlay port. */
struct tun_underlay {
	uint8_t mac[6];
	uint32_t mtu; /* L3 MTU */
	bool tx_csum; /* --tx-csum where offloaded: the outer UDP checksum by TX metadata */
};

/*
 * tun_vxlan__encap() - wrap @pkt (an Ethernet frame from the access side) for the tunnel its
 * destination MAC maps to in @t. @ip_id: the worker's IPv4 identification counter.
 * Thread: worker, inside rx_burst, under the RCU read side that protects @t.
 */
enum tun_ctr tun_vxlan__encap(const struct tun_table *t, const struct tun_underlay *u,
			      struct xskf_pkt *pkt, uint16_t *ip_id);

/*
 * tun_vxlan__decap() - strip the outer headers of @pkt if it is VXLAN to one of our local
 * addresses with a VNI of @t. Thread: as for encap.
 */
enum tun_ctr tun_vxlan__decap(const struct tun_table *t, struct xskf_pkt *pkt);

/* The UDP source port for an inner frame: 49152..65535, the same for all frames of a flow. */
uint16_t tun_vxlan__sport(const struct xskf_pkt *pkt);

#endif /* TUNNEL_VXLAN_H */
