/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tests' reference Internet checksum (RFC 1071), written the plain way (big-endian 16-bit
 * words, two bytes a step, folded in a loop) and apart from include/xskf_csum.h, the one the
 * code under test uses: a test that held the code to its own sum would prove nothing.
 */
#ifndef XSKF_TEST_CSUM_REF_H
#define XSKF_TEST_CSUM_REF_H

#include <stddef.h>
#include <stdint.h>

/* @s plus the sum of the @n bytes at @p as big-endian words (a last odd byte padded). */
static inline uint64_t csum_ref_sum(const uint8_t *p, size_t n, uint64_t s)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

/* @s folded to 16 bits (big-endian value), not complemented: 0xffff when a checksum verifies. */
static inline uint16_t csum_ref_fold(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

#endif /* XSKF_TEST_CSUM_REF_H */
