/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf-trafficgen internals: the frame template (trafficgen_pkt.c) and what the generator reads
 * from the interface and the kernel (trafficgen_netdev.c). Private to tools/.
 */
#ifndef XSKF_TRAFFICGEN_H
#define XSKF_TRAFFICGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <netinet/in.h>

#define TG_MIN_SIZE 60   /* smallest Ethernet frame without FCS */
#define TG_MAX_SIZE 1514 /* 1500 bytes MTU + Ethernet header, without FCS */
#define TG_MAX_QUEUES 64

union tg_ip {
	struct in_addr v4;
	struct in6_addr v6;
};

/* What the template is made of; addresses and ports in host form, family from ipv6. */
struct tg_pkt_cfg {
	bool ipv6;
	bool tcp;
	uint8_t src_mac[6];
	uint8_t dst_mac[6];
	union tg_ip src_ip;
	union tg_ip dst_ip;
	uint16_t sport;
	uint16_t dport;
	uint32_t size; /* frame size without FCS */
};

/* Where the XDP program has to write; an offset of 0 means "not present". */
struct tg_layout {
	uint16_t hdr_len;   /* Ethernet + IP + L4 headers */
	uint16_t sport_off; /* L4 source port */
	uint16_t csum_off;  /* L4 checksum */
	uint16_t seq_off;   /* 32-bit sequence number at the start of the payload */
	bool csum_is_udp;
};

/* Bytes of headers for this family and protocol: the smallest frame is max(this, 60). */
uint16_t tg_pkt_hdr_len(bool ipv6, bool tcp);

/*
 * tg_pkt_build() - write the template frame of cfg->size bytes into @buf, with valid IPv4 and
 * L4 checksums, and describe its layout in @lay. Returns 0, or -EINVAL when the size does not
 * fit the headers or @buflen.
 */
int tg_pkt_build(const struct tg_pkt_cfg *cfg, uint8_t *buf, size_t buflen,
		 struct tg_layout *lay);

/*
 * tg_pkt_stamp() - make @frame (a copy of the template, or of an earlier stamped frame) frame
 * number @n: source port sport_base + n % flows (when flows > 1), the sequence number n, the L4
 * checksum patched for both. What the XDP program does, for the AF_XDP method.
 */
void tg_pkt_stamp(uint8_t *frame, const struct tg_layout *lay, uint16_t sport_base,
		  uint32_t flows, uint64_t n);

/* Interface facts. All return 0 or a negative errno. */
int tg_if_mac(const char *ifname, uint8_t mac[6]);
/* First address of @family on @ifname; for IPv6 the first one that is not link-local. */
int tg_if_addr(const char *ifname, int family, union tg_ip *ip);
/*
 * tg_neigh_find() - look up a neighbour entry with a MAC address on @ifindex. With @ip set, the
 * entry for that address; with @ip NULL, the first valid entry of @family, whose address is
 * stored in @ip_out (may be NULL). Returns 0, -ENOENT when there is none, or another -errno.
 */
int tg_neigh_find(int ifindex, int family, const union tg_ip *ip, union tg_ip *ip_out,
		  uint8_t mac[6]);

/*
 * Per-queue XDP transmit counters of a veth end (ETHTOOL_GSTATS): tx_queue_<q>_xdp_xmit counts
 * frames that this device put into the peer's RX queue q, tx_queue_<q>_xdp_xmit_errors frames
 * it could not (the peer's ring was full).
 */
struct tg_xmit_stats {
	unsigned int nr_queues; /* 0: the interface has no such counters */
	uint64_t xmit[TG_MAX_QUEUES];
	uint64_t errors[TG_MAX_QUEUES];
};

struct tg_ethtool;
/* Open the counters of @ifname; NULL with errno set on failure. */
struct tg_ethtool *tg_ethtool__open(const char *ifname);
int tg_ethtool__read(struct tg_ethtool *et, struct tg_xmit_stats *st);
void tg_ethtool__close(struct tg_ethtool *et);

/*
 * The AF_XDP method (trafficgen_xsk.c): a TX-only copy-mode socket on one queue of the
 * generator's interface, used when live-frame test runs are refused.
 */
struct tg_xsk_cfg {
	const char *ifname;
	unsigned int queue;
	const uint8_t *frame; /* the template, cfg->size bytes */
	uint32_t size;
	const struct tg_layout *lay;
	uint16_t sport;
	uint32_t flows;
	uint32_t batch; /* frames put into the TX ring per kick, 0: as many as fit */
	bool verbose;
};

struct tg_xsk_stats {
	uint64_t made;	     /* frames put into the TX ring */
	uint64_t completed;  /* completions read back: sent or dropped by the device */
	uint64_t dropped;    /* kicks that said -EBUSY: the device dropped one frame each */
	uint64_t kicks;	     /* sendto() calls */
	uint64_t busy;	     /* kicks that said -EAGAIN: the device was busy, frames stayed */
	uint64_t invalid;    /* XDP_STATISTICS tx_invalid_descs */
	uint64_t ring_empty; /* XDP_STATISTICS tx_ring_empty_descs */
	int budget;	     /* descriptors per kick: 32, or the ring when 6.17+ took it */
};

struct tg_xsk;
/* Number of TX queues of @ifname (sysfs), or a negative errno. */
int tg_if_tx_queues(const char *ifname);
int tg_xsk__open(struct tg_xsk **x, const struct tg_xsk_cfg *cfg);
/* Make @n more frames (numbered on from the last), until done or *@stop: 0, -EINTR, -errno. */
int tg_xsk__send(struct tg_xsk *x, uint64_t n, volatile sig_atomic_t *stop);
/*
 * Wait until every frame made has completed (sent or dropped): 0, -ETIMEDOUT after @timeout
 * seconds without a completion, or -errno.
 */
int tg_xsk__drain(struct tg_xsk *x, double timeout);
const struct tg_xsk_stats *tg_xsk__stats(const struct tg_xsk *x);
void tg_xsk__close(struct tg_xsk *x);

#endif /* XSKF_TRAFFICGEN_H */
