// SPDX-License-Identifier: BSD-2-Clause
/*
 * latency: the receiving end of xsk-txgen --latency (docs/tx-offloads.md). The probes (UDP over
 * IPv4, built by txgen) carry their number and the sender's CLOCK_TAI reading before they were
 * built, and, from 74 bytes on, the TX timestamp of an earlier probe that came back to the
 * sender (its number and time). Per probe this plugin keeps the CLOCK_TAI reading of its burst,
 * so that it gives two one-way times: built -> received (user-space clocks at both ends) and
 * TX timestamp -> received (the earlier probe's, matched by number). Same host, same clock:
 * the sender and this plugin run on one machine (through a forwarder, the veth bed).
 *
 *   xskf run latency -i b0          # prints p50/p99/p999 of both at exit, and in --json
 *
 * Frames that are no probe are counted (other) and dropped, as are the probes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xskf_plugin.h>

#define HDR	  42	    /* Ethernet + IPv4 + UDP: txgen's built frames */
#define SEEN	  (1u << 16) /* receive times kept by probe number, for the TX timestamps */
#define LAT_MAX	  (1u << 20) /* one-way times kept per worker for the percentiles */

enum { C_PROBES, C_OTHER, C_MATCHED };
static const char *const names[] = { "probes", "other", "matched", NULL };

struct lat_worker {
	uint64_t *ctr;
	uint64_t *seen_seq, *seen_at; /* by probe number % SEEN */
	uint32_t *built, *stamp;      /* one-way ns: from built, from the TX timestamp */
	uint32_t nr_built, nr_stamp;
};

static struct lat_worker workers[XSKF_MAX_WORKERS];
static unsigned int nr_workers;

static uint64_t tai_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int lat_worker_init(void *ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct lat_worker *w = &workers[wi->id];

	(void)ctx;
	w->ctr = wi->counters;
	w->seen_seq = calloc(SEEN, sizeof(*w->seen_seq));
	w->seen_at = calloc(SEEN, sizeof(*w->seen_at));
	w->built = calloc(LAT_MAX, sizeof(*w->built));
	w->stamp = calloc(LAT_MAX, sizeof(*w->stamp));
	if (!w->seen_seq || !w->seen_at || !w->built || !w->stamp) {
		fprintf(stderr, "latency: out of memory\n");
		return -ENOMEM;
	}
	if (wi->id + 1 > nr_workers)
		nr_workers = wi->id + 1;
	*wctx = w;
	return 0;
}

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void lat_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	struct lat_worker *w = wctx;
	uint64_t now = tai_ns();
	unsigned int i;

	for (i = 0; i < n; i++) {
		const uint8_t *d = pkts[i].data;
		uint64_t seq, built, bseq, bts;

		if (pkts[i].len < HDR + 16 || d[12] != 0x08 || d[13] || d[23] != 17) {
			w->ctr[C_OTHER]++;
			continue;
		}
		memcpy(&seq, d + HDR, 8);
		memcpy(&built, d + HDR + 8, 8);
		w->ctr[C_PROBES]++;
		w->seen_seq[seq % SEEN] = seq + 1; /* 0: nothing seen there */
		w->seen_at[seq % SEEN] = now;
		if (built && now >= built && w->nr_built < LAT_MAX)
			w->built[w->nr_built++] = clamp32(now - built);
		if (pkts[i].len < HDR + 32)
			continue;
		/* an earlier probe's TX timestamp: one-way from it, if that probe came here */
		memcpy(&bseq, d + HDR + 16, 8);
		memcpy(&bts, d + HDR + 24, 8);
		if (bts && w->seen_seq[bseq % SEEN] == bseq + 1 && w->seen_at[bseq % SEEN] >= bts &&
		    w->nr_stamp < LAT_MAX) {
			w->stamp[w->nr_stamp++] = clamp32(w->seen_at[bseq % SEEN] - bts);
			w->ctr[C_MATCHED]++;
		}
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* p50, p99, p999 in us of all workers' @which (0 built, 1 stamp); -1 when none */
static int pct(int which, double out[3])
{
	static const double at[3] = { 0.5, 0.99, 0.999 };
	uint64_t n = 0, k = 0;
	uint32_t *all;
	unsigned int i, j;

	for (i = 0; i < nr_workers; i++)
		n += which ? workers[i].nr_stamp : workers[i].nr_built;
	if (!n || !(all = malloc(n * sizeof(*all))))
		return -1;
	for (i = 0; i < nr_workers; i++) {
		uint32_t m = which ? workers[i].nr_stamp : workers[i].nr_built;

		memcpy(all + k, which ? workers[i].stamp : workers[i].built, m * sizeof(*all));
		k += m;
	}
	qsort(all, n, sizeof(*all), cmp_u32);
	for (j = 0; j < 3; j++)
		out[j] = all[(uint64_t)(at[j] * (double)(n - 1))] / 1e3;
	free(all);
	return 0;
}

static void lat_fini(void *ctx, struct xskf_engine *eng)
{
	double b[3], s[3];

	(void)ctx;
	(void)eng;
	if (!pct(0, b))
		fprintf(stderr,
			"latency: one-way (us, CLOCK_TAI): built -> received p50 %.1f p99 %.1f "
			"p999 %.1f\n",
			b[0], b[1], b[2]);
	if (!pct(1, s))
		fprintf(stderr,
			"latency: one-way (us, CLOCK_TAI): TX timestamp -> received p50 %.1f p99 %.1f "
			"p999 %.1f\n",
			s[0], s[1], s[2]);
	else
		fprintf(stderr, "latency: no TX timestamps in the probes (frames of 74 bytes or "
				"more from xsk-txgen --latency carry them)\n");
}

static void lat_json(void *ctx, struct xskf_engine *eng, void *out)
{
	double b[3] = { 0, 0, 0 }, s[3] = { 0, 0, 0 };
	uint64_t nb = 0, ns = 0;
	unsigned int i;

	(void)ctx;
	(void)eng;
	for (i = 0; i < nr_workers; i++) {
		nb += workers[i].nr_built;
		ns += workers[i].nr_stamp;
	}
	pct(0, b);
	pct(1, s);
	fprintf(out,
		"{\"built_n\": %llu, \"built_us\": [%.1f, %.1f, %.1f], \"stamp_n\": %llu, "
		"\"stamp_us\": [%.1f, %.1f, %.1f]}",
		(unsigned long long)nb, b[0], b[1], b[2], (unsigned long long)ns, s[0], s[1], s[2]);
}

static void lat_cleanup(void *ctx)
{
	unsigned int i;

	(void)ctx;
	for (i = 0; i < XSKF_MAX_WORKERS; i++) {
		free(workers[i].seen_seq);
		free(workers[i].seen_at);
		free(workers[i].built);
		free(workers[i].stamp);
	}
}

static const struct xskf_app app = {
	.name = "latency",
	.worker_init = lat_worker_init,
	.rx_burst = lat_burst,
	.fini = lat_fini,
	.json = lat_json,
};

XSKF_PLUGIN(.name = "latency", .app = &app, .counters = names, .cleanup = lat_cleanup);
