// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-txgen's split of a pcap file between workers by flow (txgen_flow.h). It runs once at
 * start-up over the file's frames, so it is written for clarity, not speed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "txgen_flow.h"

/* FNV-1a over @n bytes, continued from @h. */
static uint32_t fnv(uint32_t h, const uint8_t *p, uint32_t n)
{
	while (n--) {
		h ^= *p++;
		h *= 16777619u;
	}
	return h;
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* TCP, UDP, SCTP and UDP-Lite begin with the two ports. */
static int has_ports(uint8_t proto)
{
	return proto == 6 || proto == 17 || proto == 132 || proto == 136;
}

uint32_t txgen_flow__hash(const uint8_t *f, uint32_t len)
{
	uint32_t h = 2166136261u, off = 12, l4;
	uint16_t type;
	uint8_t proto;
	int tags;

	if (len < 14)
		return fnv(h, f, len);
	type = be16(f + 12);
	for (tags = 0; tags < 2 && (type == 0x8100 || type == 0x88a8) && off + 6 <= len; tags++) {
		off += 4;
		type = be16(f + off);
	}
	off += 2; /* the L3 header */
	if (type == 0x0800 && off + 20 <= len && (f[off] >> 4) == 4 && (f[off] & 15) >= 5) {
		proto = f[off + 9];
		h = fnv(h, f + off + 12, 8); /* source and destination */
		h = fnv(h, &proto, 1);
		l4 = off + (f[off] & 15u) * 4;
		/* a fragment other than the first has no ports, and the first must go with it */
		if (has_ports(proto) && !(be16(f + off + 6) & 0x3fff) && l4 + 4 <= len)
			h = fnv(h, f + l4, 4);
	} else if (type == 0x86dd && off + 40 <= len && (f[off] >> 4) == 6) {
		proto = f[off + 6];
		h = fnv(h, f + off + 8, 32);
		h = fnv(h, &proto, 1);
		if (has_ports(proto) && off + 44 <= len)
			h = fnv(h, f + off + 40, 4);
	} else {
		h = fnv(h, f, 12); /* the MAC addresses */
		h = fnv(h, f + off - 2, 2);
	}
	/* FNV's low bits alone spread poorly over a small modulus: finish with murmur3's mix */
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

void txgen_shares__free(struct txgen_share *shares, unsigned int nr)
{
	unsigned int w;

	for (w = 0; w < nr; w++) {
		free(shares[w].idx);
		shares[w].idx = NULL;
		shares[w].nr = 0;
	}
}

int txgen_frames__split(const struct txgen_frames *fr, unsigned int nr_workers,
			struct txgen_share *shares)
{
	uint32_t i, *worker;
	unsigned int w;

	worker = malloc((size_t)fr->nr * sizeof(*worker) + 1);
	if (!worker)
		return -ENOMEM;
	for (w = 0; w < nr_workers; w++)
		shares[w].nr = 0;
	for (i = 0; i < fr->nr; i++) {
		worker[i] = txgen_flow__hash(fr->data[i], fr->len[i]) % nr_workers;
		shares[worker[i]].nr++;
	}
	for (w = 0; w < nr_workers; w++) {
		shares[w].idx = malloc((size_t)shares[w].nr * sizeof(uint32_t) + 1);
		if (!shares[w].idx) {
			txgen_shares__free(shares, w);
			free(worker);
			return -ENOMEM;
		}
		shares[w].nr = 0;
	}
	for (i = 0; i < fr->nr; i++)
		shares[worker[i]].idx[shares[worker[i]].nr++] = i;
	free(worker);
	return 0;
}
