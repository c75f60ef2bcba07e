/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Toeplitz hash, as NICs compute it for RSS (the Microsoft RSS specification): for every bit of
 * the input, most significant bit of the first byte first, the hash is XORed with the 32 bits
 * of the key that start at that bit position.
 *
 * The fast form precomputes, for one key, the hash contribution of every value of every input
 * byte position (36 positions x 256 values x 4 bytes = 36 KiB per key), so that a hash is one
 * table load and XOR per input byte: 12 for IPv4 with ports, 36 for IPv6 with ports. Tables
 * are built once per key and only read afterwards: any number of threads may hash with one.
 *
 * Private to libxskf (the public face is struct xskf_rss in xskf_hints.h).
 */
#ifndef XSKF_TOEPLITZ_H
#define XSKF_TOEPLITZ_H

#include <stddef.h>
#include <stdint.h>

/* Longest input: IPv6 source + destination + ports. */
#define XSKF_TOEPLITZ_MAX_INPUT 36
/* Longest key kept: 40 bytes (mlx5, i40e, the spec), 52 (ice); 4 more than the input is used. */
#define XSKF_TOEPLITZ_MAX_KEY 64

struct xskf_toeplitz {
	uint32_t tbl[XSKF_TOEPLITZ_MAX_INPUT][256];
};

/*
 * The 40-byte key of the Microsoft RSS specification and of its verification suite. Linux
 * drivers (mlx5, i40e, ice, ...) do not default to it: they take the kernel's random per-boot
 * key (netdev_rss_key_fill()); users who want predictable hashing set it with
 * `ethtool -X <dev> hkey 6d:5a:56:da:...`.
 */
extern const uint8_t xskf_toeplitz_ms_key[40];

/*
 * xskf_toeplitz__init() - build @t for @key of @key_len bytes. Key bits past key_len count as
 * zero (a key shorter than input + 4 bytes cannot cover the whole input). Thread: any; @t must
 * not be in use.
 */
void xskf_toeplitz__init(struct xskf_toeplitz *t, const uint8_t *key, size_t key_len);

/*
 * xskf_toeplitz__hash_at() - the hash contribution of @len input bytes placed at input byte
 * position @pos (pos + len <= XSKF_TOEPLITZ_MAX_INPUT): the hash of an input made of several
 * pieces (addresses from the IP header, ports from the L4 header) is the XOR of each piece's.
 * Thread: any (reads @t only).
 */
static inline uint32_t xskf_toeplitz__hash_at(const struct xskf_toeplitz *t, unsigned int pos,
					      const uint8_t *in, size_t len)
{
	uint32_t h = 0;
	size_t i;

	for (i = 0; i < len; i++)
		h ^= t->tbl[pos + i][in[i]];
	return h;
}

/* The hash of @len bytes (len <= XSKF_TOEPLITZ_MAX_INPUT). Thread: any. */
static inline uint32_t xskf_toeplitz__hash(const struct xskf_toeplitz *t, const uint8_t *in,
					   size_t len)
{
	return xskf_toeplitz__hash_at(t, 0, in, len);
}

/*
 * xskf_toeplitz__hash_bits() - the same hash, bit by bit as the specification writes it, with
 * no table (any input length). The reference the tables are tested against; slow.
 * Thread: any.
 */
uint32_t xskf_toeplitz__hash_bits(const uint8_t *key, size_t key_len, const uint8_t *in,
				  size_t len);

#endif /* XSKF_TOEPLITZ_H */
