/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Internet checksum (RFC 1071) over bytes in memory order, for the tunnel's outer headers
 * (tunnel_vxlan.c) and its ICMP messages (tunnel_pmtu.c). No alignment is assumed.
 */
#ifndef TUNNEL_CSUM_H
#define TUNNEL_CSUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One's-complement sum of @len bytes in memory order, added to @sum (not folded). */
static inline uint64_t csum_add(uint64_t sum, const uint8_t *b, size_t len)
{
	uint32_t w4;
	uint16_t w2 = 0;

	for (; len >= 4; b += 4, len -= 4) {
		memcpy(&w4, b, 4);
		sum += w4;
	}
	if (len >= 2) {
		memcpy(&w2, b, 2);
		sum += w2;
		b += 2;
		len -= 2;
	}
	if (len) {
		/* an odd last byte is the first byte of a word whose second byte is zero */
		w2 = 0;
		memcpy(&w2, b, 1);
		sum += w2;
	}
	return sum;
}

/* Fold to 16 bits and complement; the result is in memory order, ready to memcpy. */
static inline uint16_t csum_fold(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

#endif /* TUNNEL_CSUM_H */
