/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Internet checksum (RFC 1071): the one sum the framework (TCP/UDP checksum test and
 * repair, TX checksums in software), the apps (the tunnel's outer headers and ICMP messages,
 * xsk-txgen's IPv4 headers) and the tools (xskf-trafficgen's frames) compute.
 *
 * Inline, as DPDK's rte_raw_cksum(): it is summed per packet in the worker's loop, where a
 * call cost 5% of the instructions of a repaired 60-byte frame (callgrind), and a tool that
 * links no libxskf (xskf-trafficgen) uses it too. No symbol: nothing to version.
 *
 * The sum is over 16-bit words in memory order: the folded sum, complemented, is stored in a
 * frame as it is (memcpy), on a host of either byte order. A field the sum must include in
 * network order (a pseudo-header's protocol and length) is added as htons(v).
 */
#ifndef XSKF_CSUM_H
#define XSKF_CSUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * xskf_csum__add() - @sum plus the ones' complement sum of the @len bytes at @p, not folded:
 * the sums of consecutive pieces add up when every piece but the last has an even length.
 * A last odd byte counts as a word padded with a zero byte. Any alignment; 4 bytes a load,
 * 16 a round. Returns the new sum. Thread: any.
 */
static inline __attribute__((always_inline)) uint64_t xskf_csum__add(uint64_t sum, const void *p,
								      size_t len)
{
	const uint8_t *b = (const uint8_t *)p;
	uint32_t w;
	uint16_t h;

	for (; len >= 16; len -= 16, b += 16) {
		uint32_t w0, w1, w2, w3;

		memcpy(&w0, b, 4);
		memcpy(&w1, b + 4, 4);
		memcpy(&w2, b + 8, 4);
		memcpy(&w3, b + 12, 4);
		sum += (uint64_t)w0 + w1 + w2 + w3;
	}
	for (; len >= 4; len -= 4, b += 4) {
		memcpy(&w, b, 4);
		sum += w;
	}
	if (len >= 2) {
		memcpy(&h, b, 2);
		sum += h;
		b += 2;
		len -= 2;
	}
	if (len) {
		uint8_t last[2] = { b[0], 0 };

		memcpy(&h, last, 2);
		sum += h;
	}
	return sum;
}

/*
 * xskf_csum__fold() - @sum (of xskf_csum__add()) folded to 16 bits, in memory order, not
 * complemented: the checksum field is its complement (~), and a folded sum of 0xffff over
 * data that includes its checksum field says the checksum verifies. Thread: any.
 */
static inline uint16_t xskf_csum__fold(uint64_t sum)
{
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

#ifdef __cplusplus
}
#endif

#endif /* XSKF_CSUM_H */
