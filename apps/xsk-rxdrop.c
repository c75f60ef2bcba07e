// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-rxdrop: receive on every given queue and drop. The framework does the rest: the frames go
 * straight back to the fill ring, and the counters say where every frame went.
 *
 * With hints on (the default) it also counts, per source, the RX hints each packet carried:
 * the rx hash (hardware, software-computable, none) and the packet type; -v prints a sample
 * packet's hints each second. With --hash-check each driver hash is compared with the software
 * Toeplitz hash of the same frame with the port's RSS key (the driver's hint kfunc checked).
 *
 *   sudo xsk-rxdrop -i eth0 -q 0
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xskf_plugin.h>
#include <xskf_hints.h>

enum { H_HW, H_SW, H_NONE, H_PTYPE, H_NOMETA, H_HW_SAME, H_HW_DIFF, H_MAX };
static const char *const h_names[H_MAX + 1] = { "hash_hw",  "hash_sw",	   "hash_none",
						"ptype",    "no_meta",	   "hash_hw_same",
						"hash_hw_differ", NULL };

struct sample {
	uint32_t seq; /* odd while the worker writes it */
	struct xskf_meta meta;
	uint16_t port, queue;
	uint32_t len;
	bool valid;
};

/* The hint counters are the runner's (xskf_worker_info.counters): h points there. */
struct rxdrop_worker {
	uint64_t sum;
	uint64_t *h;
	uint64_t own[H_MAX]; /* for a caller without the runner's counters */
	struct sample sample;
	char pad[64];
};

struct rxdrop {
	bool touch;       /* read each frame's Ethernet type, as a real app would */
	bool no_hint_stats; /* leave the hints unread (measures their cost in the XDP program) */
	bool hash_check;    /* compare each driver hash with the software one */
	struct rxdrop_worker *workers[XSKF_MAX_WORKERS];
};

static struct rxdrop rx;

static int rxdrop_worker_init(void *app_ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct rxdrop *r = app_ctx;
	struct rxdrop_worker *w;

	if (posix_memalign((void **)&w, 64, sizeof(*w)))
		return -ENOMEM;
	memset(w, 0, sizeof(*w));
	w->h = wi->counters ? wi->counters : w->own;
	r->workers[wi->id] = w;
	*wctx = w;
	return 0;
}

/* Where did this packet's hash come from? Only the meta is read: no software hash is computed. */
static inline void count_hints(struct rxdrop_worker *w, const struct xskf_pkt *p)
{
	const struct xskf_meta *m = xskf_pkt__meta(p);
	uint32_t l3;

	if (!m) {
		w->h[H_NOMETA]++;
		return;
	}
	w->h[H_PTYPE]++;
	l3 = m->ptype & XSKF_PTYPE_L3_MASK;
	if (XSKF_META_SRC(m->src, XSKF_F_HASH) == XSKF_SRC_HW) {
		w->h[H_HW]++;
		if (rx.hash_check) {
			uint32_t sw;
			uint16_t type;

			/* same key, same fields (the driver's type names them): same hash */
			if (!xskf_hash__sw(p, &sw, &type) && sw == m->rx_hash)
				w->h[H_HW_SAME]++;
			else
				w->h[H_HW_DIFF]++;
		}
	}
	else if (l3 == XSKF_PTYPE_L3_IPV4 || l3 == XSKF_PTYPE_L3_IPV4_OPT ||
		 l3 == XSKF_PTYPE_L3_IPV6 || l3 == XSKF_PTYPE_L3_IPV6_EXT)
		w->h[H_SW]++;
	else
		w->h[H_NONE]++;
}

static void rxdrop_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	struct rxdrop_worker *w = wctx;
	unsigned int i;

	/* verdicts start as XSKF_DROP: only reading is left to do, if asked */
	if (rx.touch)
		for (i = 0; i < n; i++)
			w->sum += pkts[i].data[12];
	if (rx.no_hint_stats)
		return;
	if (!pkts[0].meta) { /* hints off: no frame of the burst has one */
		w->h[H_NOMETA] += n;
		return;
	}
	for (i = 0; i < n; i++)
		count_hints(w, &pkts[i]);
	/* one sample per burst for -v, published seqlock-style for the control thread */
	if (xskf_app__verbose() && xskf_pkt__meta(&pkts[0])) {
		__atomic_store_n(&w->sample.seq, w->sample.seq + 1, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		w->sample.meta = *xskf_pkt__meta(&pkts[0]);
		w->sample.port = pkts[0].port;
		w->sample.queue = pkts[0].queue;
		w->sample.len = pkts[0].len;
		w->sample.valid = true;
		__atomic_store_n(&w->sample.seq, w->sample.seq + 1, __ATOMIC_RELEASE);
	}
}

static void totals(const struct rxdrop *r, uint64_t *t)
{
	unsigned int i, j;

	memset(t, 0, sizeof(uint64_t) * H_MAX);
	for (i = 0; i < XSKF_MAX_WORKERS; i++)
		for (j = 0; r->workers[i] && j < H_MAX; j++)
			t[j] += __atomic_load_n(&r->workers[i]->h[j], __ATOMIC_RELAXED);
}

static const char *src_name(unsigned int s)
{
	return s == XSKF_SRC_HW ? "hw" : s == XSKF_SRC_SW ? "sw" : "none";
}

static void print_sample(FILE *f, struct rxdrop_worker *w, unsigned int id)
{
	struct sample s;
	uint32_t seq;

	do {
		seq = __atomic_load_n(&w->sample.seq, __ATOMIC_ACQUIRE);
		s = w->sample;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || seq != __atomic_load_n(&w->sample.seq, __ATOMIC_RELAXED));
	if (!s.valid)
		return;
	fprintf(f, "  sample (worker %u, port %u queue %u, %u bytes): ptype 0x%08x l3 %u l4 %u "
	       "rx_hash 0x%08x type 0x%x (%s) timestamp %llu (%s) vlan %u (%s)\n",
	       id, s.port, s.queue, s.len, s.meta.ptype, s.meta.l3_off, s.meta.l4_off,
	       s.meta.rx_hash, s.meta.hash_type, src_name(XSKF_META_SRC(s.meta.src, XSKF_F_HASH)),
	       (unsigned long long)s.meta.rx_timestamp,
	       src_name(XSKF_META_SRC(s.meta.src, XSKF_F_TIMESTAMP)), s.meta.vlan_tci,
	       src_name(XSKF_META_SRC(s.meta.src, XSKF_F_VLAN)));
}

/*
 * Control thread, each second: with -v, a sample packet's hints per worker (the runner prints
 * the counters).
 */
static void rxdrop_tick(void *app_ctx, struct xskf_engine *eng)
{
	struct rxdrop *r = app_ctx;
	FILE *f = xskf_app__out();
	unsigned int i;

	(void)eng;
	if (r->no_hint_stats || xskf_app__quiet() || !xskf_app__verbose())
		return;
	for (i = 0; i < XSKF_MAX_WORKERS; i++)
		if (r->workers[i])
			print_sample(f, r->workers[i], i);
	fflush(f);
}

static void rxdrop_json(void *app_ctx, struct xskf_engine *eng, void *out)
{
	struct rxdrop *r = app_ctx;
	uint64_t t[H_MAX];
	unsigned int j;

	(void)eng;
	totals(r, t);
	fprintf(out, "{\"hints_read\": %s", r->no_hint_stats ? "false" : "true");
	for (j = 0; j < H_MAX; j++)
		fprintf(out, ", \"%s\": %llu", h_names[j], (unsigned long long)t[j]);
	fprintf(out, "}");
}

static void rxdrop_fini(void *app_ctx, struct xskf_engine *eng)
{
	(void)app_ctx;
	(void)eng;
}

static void rxdrop_worker_fini(void *app_ctx, void *wctx)
{
	(void)app_ctx;
	(void)wctx; /* freed at exit: the JSON report still reads the counters */
}

static const struct xskf_cli_opt rxdrop_opts[] = {
	{ "touch", 0, NULL, "read each frame's Ethernet type (a first cache miss)" },
	{ "no-hint-stats", 0, NULL, "do not read the RX hints (then the XDP program writes none)" },
	{ "hash-check", 0, NULL,
	  "compare each driver RX hash with the software Toeplitz hash of the frame (port's RSS key)" },
	{ NULL, 0, NULL, NULL },
};

static struct xskf_app rxdrop_app;

static int rxdrop_parse(void *ctx, int idx, const char *arg)
{
	struct rxdrop *r = ctx;

	(void)arg;
	if (idx == 0 || idx == 2) {
		r->touch |= idx == 0;
		r->hash_check |= idx == 2;
		rxdrop_app.flags &= ~XSKF_APP_F_NO_TOUCH;
	} else {
		/* nothing read: the XDP program writes no meta for us (the runner reads this
		 * after the options) */
		r->no_hint_stats = true;
		rxdrop_app.hints = 0;
	}
	return 0;
}

/*
 * What it reads, said to the framework: the packet type and the hash's source of each frame
 * (count_hints()), and no frame byte unless --touch. Options change both (rxdrop_parse()).
 */
static struct xskf_app rxdrop_app = {
	.name = "xsk-rxdrop",
	/* frames of several buffers too: the framework counts their packets and bytes */
	.flags = XSKF_APP_F_FRAGS | XSKF_APP_F_HINTS | XSKF_APP_F_NO_TOUCH,
	.hints = XSKF_HINT_PTYPE | XSKF_HINT_HASH,
	.worker_init = rxdrop_worker_init,
	.rx_burst = rxdrop_burst,
	.tick = rxdrop_tick,
	.worker_fini = rxdrop_worker_fini,
	.fini = rxdrop_fini,
	.json = rxdrop_json,
};
static const struct xskf_app_cli rxdrop_cli = {
	.sz = sizeof(rxdrop_cli),
	.summary = "Receive frames with AF_XDP and drop them; print rates, counters and the "
		   "RX hints' sources.",
	.opts = rxdrop_opts,
	.parse = rxdrop_parse,
};

static void rxdrop_cleanup(void *app_ctx)
{
	struct rxdrop *r = app_ctx;
	unsigned int i;

	for (i = 0; i < XSKF_MAX_WORKERS; i++) {
		free(r->workers[i]);
		r->workers[i] = NULL;
	}
}

XSKF_PLUGIN(.name = "rxdrop", .app = &rxdrop_app, .app_ctx = &rx, .cli = &rxdrop_cli,
	    .counters = h_names, .cleanup = rxdrop_cleanup);
