// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the lazy software hash costs (suite 'perf', not a pass/fail test): ns per hash for the
 * Toeplitz tables alone (IPv4 and IPv6 tuples, with ports), for xskf_pkt__rx_hash() on frames
 * with a meta (the XDP program's offsets) and without (own parse), against the hardware-hash
 * path, and the bit-serial form for scale; plus the one-off cost of building a key's tables.
 * Each figure is the median of 7 runs over 1024 different frames. Numbers go to docs/hints.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xskf_hints.h>

#include "core/toeplitz.h"
#include "../../bpf/xskf_hints_parse.h"
#include "hints_vectors.h"

#define NR_TUPLES 1024 /* random flows: the tables are read at random places */
#define NR_FRAMES 64	 /* one burst of received frames, in cache as after the kernel's copy */
#define RUNS	  7

static volatile uint32_t sink;

struct rx_buf {
	struct xskf_meta meta;
	uint8_t frame[224];
} __attribute__((aligned(64)));

static struct rx_buf bufs[NR_FRAMES];
static struct xskf_pkt pkts[NR_FRAMES];
static uint8_t tuples[NR_TUPLES][XSKF_TOEPLITZ_MAX_INPUT];

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One frame per slot: IPv4 or IPv6 TCP with random addresses and ports. */
static void make_frames(int v6, int with_meta, int hw)
{
	unsigned int i, k;

	for (i = 0; i < NR_FRAMES; i++) {
		struct hv_frame f = { .len = 0 };
		struct xskf_parse p;
		uint8_t a[32];

		for (k = 0; k < sizeof(a); k++)
			a[k] = (uint8_t)rand();
		if (v6) {
			hv_eth(&f, 0x86dd);
			hv_ipv6(&f, 6, a, a + 16);
		} else {
			hv_eth(&f, 0x0800);
			hv_ipv4(&f, 6, 5, 0, a, a + 4);
		}
		hv_tcp(&f, (uint16_t)rand(), (uint16_t)rand(), 5);
		memcpy(bufs[i].frame, f.b, f.len);
		xskf_parse_frame(bufs[i].frame, bufs[i].frame + f.len, &p);
		memset(&bufs[i].meta, 0, sizeof(bufs[i].meta));
		bufs[i].meta.ptype = p.ptype;
		bufs[i].meta.l3_off = (uint8_t)p.l3_off;
		bufs[i].meta.l4_off = p.l4_off;
		bufs[i].meta.magic = XSKF_META_MAGIC;
		if (hw) {
			bufs[i].meta.rx_hash = (uint32_t)rand();
			bufs[i].meta.src = XSKF_SRC_HW << (2 * XSKF_F_HASH);
		}
		memset(&pkts[i], 0, sizeof(pkts[i]));
		pkts[i].data = bufs[i].frame;
		pkts[i].len = f.len;
		pkts[i].meta = with_meta ? &bufs[i].meta : NULL;
	}
}

/* Median ns per call of @fn over @iters calls. */
static double measure(uint32_t (*fn)(unsigned int i), unsigned int iters, unsigned int mask)
{
	double t[RUNS], t0;
	unsigned int r, i;
	uint32_t acc;

	for (r = 0; r < RUNS; r++) {
		acc = 0;
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			acc ^= fn(i & mask);
		t[r] = (now_ns() - t0) / iters;
		sink = acc;
	}
	qsort(t, RUNS, sizeof(t[0]), cmp_double);
	return t[RUNS / 2];
}

static struct xskf_toeplitz tbl;

static uint32_t tbl_v4(unsigned int i)
{
	return xskf_toeplitz__hash(&tbl, tuples[i], 12);
}

static uint32_t tbl_v6(unsigned int i)
{
	return xskf_toeplitz__hash(&tbl, tuples[i], 36);
}

static uint32_t bits_v4(unsigned int i)
{
	return xskf_toeplitz__hash_bits(xskf_toeplitz_ms_key, 40, tuples[i], 12);
}

static uint32_t accessor(unsigned int i)
{
	uint32_t h = 0;
	uint16_t type;

	xskf_pkt__rx_hash(&pkts[i], &h, &type);
	return h;
}

static void row(const char *what, uint32_t (*fn)(unsigned int i), unsigned int iters,
		unsigned int mask)
{
	printf("%-44s %8.2f ns\n", what, measure(fn, iters, mask));
}

int main(void)
{
	unsigned int i, k, iters = 2000000;
	double t0, build;

	srand(1);
	for (i = 0; i < NR_TUPLES; i++)
		for (k = 0; k < XSKF_TOEPLITZ_MAX_INPUT; k++)
			tuples[i][k] = (uint8_t)rand();
	t0 = now_ns();
	for (i = 0; i < 100; i++)
		xskf_toeplitz__init(&tbl, xskf_toeplitz_ms_key, 40);
	build = (now_ns() - t0) / 100;

	printf("%-44s %8.0f ns\n", "toeplitz table build (per key, 36 KiB)", build);
	row("toeplitz tables, IPv4 + ports (12 bytes)", tbl_v4, iters, NR_TUPLES - 1);
	row("toeplitz tables, IPv6 + ports (36 bytes)", tbl_v6, iters, NR_TUPLES - 1);
	row("toeplitz bit by bit, IPv4 + ports", bits_v4, iters / 20, NR_TUPLES - 1);
	make_frames(0, 1, 1);
	row("xskf_pkt__rx_hash, hardware hash in meta", accessor, iters, NR_FRAMES - 1);
	make_frames(0, 1, 0);
	row("xskf_pkt__rx_hash, IPv4 TCP, SW, meta", accessor, iters, NR_FRAMES - 1);
	make_frames(1, 1, 0);
	row("xskf_pkt__rx_hash, IPv6 TCP, SW, meta", accessor, iters, NR_FRAMES - 1);
	make_frames(0, 0, 0);
	row("xskf_pkt__rx_hash, IPv4 TCP, SW, no meta", accessor, iters, NR_FRAMES - 1);
	make_frames(1, 0, 0);
	row("xskf_pkt__rx_hash, IPv6 TCP, SW, no meta", accessor, iters, NR_FRAMES - 1);
	return 0;
}
