// SPDX-License-Identifier: BSD-2-Clause
/*
 * Toeplitz hash: the per-key tables and the bit-serial reference (see toeplitz.h).
 */
#include "core/toeplitz.h"

const uint8_t xskf_toeplitz_ms_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* Key byte @i, zero past the end of the key. */
static inline uint8_t key_byte(const uint8_t *key, size_t key_len, size_t i)
{
	return i < key_len ? key[i] : 0;
}

/* The 32 key bits starting at bit @bit (bit 0: most significant bit of key[0]). */
static uint32_t key_window(const uint8_t *key, size_t key_len, size_t bit)
{
	size_t byte = bit / 8;
	uint64_t w = 0;
	int i;

	/* 5 bytes hold any 32-bit window, whatever its bit offset inside the first */
	for (i = 0; i < 5; i++)
		w = w << 8 | key_byte(key, key_len, byte + i);
	return (uint32_t)(w >> (8 - bit % 8));
}

void xskf_toeplitz__init(struct xskf_toeplitz *t, const uint8_t *key, size_t key_len)
{
	uint32_t win[8];
	unsigned int pos, v, b;

	for (pos = 0; pos < XSKF_TOEPLITZ_MAX_INPUT; pos++) {
		/* win[b]: the key window for bit b of this byte, b = 0 the most significant */
		for (b = 0; b < 8; b++)
			win[b] = key_window(key, key_len, pos * 8 + b);
		t->tbl[pos][0] = 0;
		/* each value = a smaller value with one more bit set: one XOR per entry */
		for (v = 1; v < 256; v++) {
			unsigned int low = (unsigned int)__builtin_ctz(v);

			t->tbl[pos][v] = t->tbl[pos][v & (v - 1)] ^ win[7 - low];
		}
	}
}

uint32_t xskf_toeplitz__hash_bits(const uint8_t *key, size_t key_len, const uint8_t *in,
				  size_t len)
{
	uint32_t h = 0;
	size_t i;
	int b;

	for (i = 0; i < len; i++)
		for (b = 7; b >= 0; b--)
			if (in[i] >> b & 1)
				h ^= key_window(key, key_len, i * 8 + (size_t)(7 - b));
	return h;
}
