// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench-prefetch (suite perf): the prefetch distance of framework/core/ring_ops.h
 * (rx_prefetch(), XSKF_RX_PREFETCH), measured on the pattern it is for, without the kernel and
 * its load around it. A writer thread on one CPU writes the first cache line of each of a
 * burst's 64 frames in a UMEM-sized area (as veth's copy, or a NIC, writes a frame the worker
 * then reads), then hands the burst over; the reader on the other CPU builds the burst's views
 * as rx_pkts() does (a pointer per frame), prefetching the first D frames' lines while it does,
 * then reads each frame's Ethernet type as an app does. ns per frame of the reader (views +
 * reads; the wait for the writer not counted), median over rounds; D = 0 (no prefetch), 4, 8,
 * 16, 32, 64 (the whole burst: what xskf does), and not read at all, interleaved round by
 * round. The writer's ns per frame too: what reading costs the side that writes the frames
 * (on veth, the sender's CPU, which bounds the rate).
 *
 *   bench_prefetch [ROUNDS]     (default 3000 bursts per distance)
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BURST  64
#define FRAMES 4096 /* 8 MiB of 2 KiB chunks, as a worker's UMEM: a frame's line is not kept */
#define CHUNK  2048
#define OFF    256 /* XDP_PACKET_HEADROOM: where copy mode puts the frame without hints */

/* prefetch distances; NO_READ: the reader builds the views and reads no frame */
#define NO_READ 999
static const unsigned int dists[] = { 0, 4, 8, 16, 32, 64, NO_READ };
#define NR_D (sizeof(dists) / sizeof(dists[0]))

static uint8_t *area;
static atomic_uint ready, done; /* burst numbers: written by the writer, read by the reader */
static unsigned int rounds = 3000;
static double *wt[16]; /* the writer's ns per frame, by distance */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

/*
 * Each distance has its own region of the area, so that the lines the writer writes were last
 * read (or not) by a reader of the same distance; within it a stride, so that a burst's frames
 * are not neighbours in memory. Frames come back every REGION / BURST bursts of a distance, as
 * a worker's frame cache hands recently freed frames to the fill ring.
 */
#define REGION (FRAMES / 8)
static unsigned int frame_of(unsigned int burst, unsigned int i)
{
	unsigned int k = (burst - 1) % NR_D, r = (burst - 1) / NR_D;

	return k * REGION + (r * BURST + i) * 7 % REGION;
}

static void *writer(void *arg)
{
	unsigned int b, i, total = rounds * NR_D;
	double t0;

	(void)arg;
	pin(0);
	for (b = 1; b <= total; b++) {
		while (atomic_load_explicit(&done, memory_order_acquire) != b - 1)
			;
		t0 = now_ns();
		for (i = 0; i < BURST; i++)
			memset(area + (size_t)frame_of(b, i) * CHUNK + OFF, (int)(b + i), 64);
		wt[(b - 1) % NR_D][(b - 1) / NR_D] = (now_ns() - t0) / BURST;
		atomic_store_explicit(&ready, b, memory_order_release);
	}
	return NULL;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static uint8_t *views[BURST];
	double *t[NR_D];
	unsigned int b, i, k, n[NR_D] = { 0 };
	volatile uint64_t sink = 0;
	pthread_t th;

	if (argc > 1)
		rounds = (unsigned int)strtoul(argv[1], NULL, 0);
	if (!rounds)
		return 2;
	area = aligned_alloc(4096, (size_t)FRAMES * CHUNK);
	if (!area)
		return 1;
	memset(area, 0, (size_t)FRAMES * CHUNK);
	for (k = 0; k < NR_D; k++) {
		t[k] = calloc(rounds, sizeof(double));
		wt[k] = calloc(rounds, sizeof(double));
	}
	pthread_create(&th, NULL, writer, NULL);
	pin(1);
	for (b = 1; b <= rounds * NR_D; b++) {
		unsigned int d = dists[(b - 1) % NR_D];
		uint64_t sum = 0;
		double t0;

		while (atomic_load_explicit(&ready, memory_order_acquire) != b)
			;
		t0 = now_ns();
		/* the views, as rx_pkts() builds them, with the prefetch of the first d frames */
		for (i = 0; i < BURST; i++) {
			views[i] = area + (size_t)frame_of(b, i) * CHUNK + OFF;
			if (i < d && d != NO_READ)
				__builtin_prefetch(views[i], 0, 3);
		}
		/* the app: each frame's Ethernet type */
		for (i = 0; i < BURST && d != NO_READ; i++)
			sum += views[i][12];
		k = (b - 1) % NR_D;
		t[k][n[k]++] = (now_ns() - t0) / BURST;
		sink += sum;
		atomic_store_explicit(&done, b, memory_order_release);
	}
	pthread_join(th, NULL);
	printf("ns per frame, a burst of %d frames written on one CPU and read on another (median "
	       "of %u bursts, quartiles): the reader (views + reads) and the writer (its writes "
	       "into lines the reader may hold)\n", BURST, rounds);
	for (k = 0; k < NR_D; k++) {
		qsort(t[k], n[k], sizeof(double), cmp_d);
		qsort(wt[k], rounds, sizeof(double), cmp_d);
		if (dists[k] == NO_READ)
			printf("  frames not read:      ");
		else
			printf("  prefetch distance %2u: ", dists[k]);
		printf("reader %5.1f ns (%.1f-%.1f)   writer %5.1f ns (%.1f-%.1f)\n",
		       t[k][n[k] / 2], t[k][n[k] / 4], t[k][n[k] * 3 / 4], wt[k][rounds / 2],
		       wt[k][rounds / 4], wt[k][rounds * 3 / 4]);
	}
	(void)sink;
	return 0;
}
