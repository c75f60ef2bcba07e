/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How xsk-txgen shares one pcap file between its workers: by flow, as a NIC's RSS spreads
 * received traffic over queues, so that the frames of one flow leave by one worker (one TX
 * queue) in file order. The flow of a frame (after up to two VLAN tags, 802.1Q or 802.1ad):
 *  - IPv4: source and destination address, protocol, and for TCP, UDP, UDP-Lite and SCTP the
 *    two ports (not for a fragment: every fragment of a datagram stays with its first);
 *  - IPv6: the addresses and the next header, and the ports when the next header is TCP, UDP,
 *    UDP-Lite or SCTP (extension headers are not followed);
 *  - anything else (ARP, a truncated IP header, other EtherTypes): the two MAC addresses and
 *    the innermost EtherType.
 * The worker is a hash of those fields modulo the number of workers. Used by the plugin
 * (xsk-txgen.c) and the fuzz target (tests/fuzz/fuzz_pcap.c).
 */
#ifndef TXGEN_FLOW_H
#define TXGEN_FLOW_H

#include <stdint.h>

#include "txgen_pcap.h"

/* One worker's share of the file: indices into struct txgen_frames, in file order. */
struct txgen_share {
	uint32_t *idx;
	uint32_t nr;
};

/* The flow hash of the @len-byte Ethernet frame @f (the fields above). Thread: any. */
uint32_t txgen_flow__hash(const uint8_t *f, uint32_t len);

/*
 * txgen_frames__split() - give each of @nr_workers workers (>= 1) the frames of its flows:
 * shares[w] gets, in file order, every frame whose hash modulo @nr_workers is w.
 * Returns 0, or -ENOMEM with nothing allocated. Thread: control thread.
 */
int txgen_frames__split(const struct txgen_frames *fr, unsigned int nr_workers,
			struct txgen_share *shares);

/* Free the indices of @nr shares and zero them. */
void txgen_shares__free(struct txgen_share *shares, unsigned int nr);

#endif /* TXGEN_FLOW_H */
