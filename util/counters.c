// SPDX-License-Identifier: BSD-2-Clause
/* The counter families' tables (counters.h) and what is made from them. */
#include <stddef.h>
#include <string.h>

#include "counters.h"

/*
 * A row: member KEY of the document at offset OFF of the family's struct, of kind KIND;
 * Prometheus family PROM (NULL: a label) of TYPE with HELP; then any other field by name.
 */
#define ROW(key_, off_, kind_, prom_, type_, help_, ...)                                           \
	{                                                                                          \
		.key = key_, .off = off_, .kind = kind_, .prom = prom_, .type = type_,             \
		.help = help_, __VA_ARGS__                                                         \
	}
#define ROWS(r) .rows = r, .nr = sizeof(r) / sizeof((r)[0])

#define W     "xskf_worker_"
#define ID(m) offsetof(struct xskf_idle_stats, m)
static const struct xc_row idle_rows[] = {
    ROW("busy_ns", ID(busy_ns), XC_U64, W "busy_seconds_total", "counter",
	"Seconds the worker ran its loop (not asleep; docs/idle.md).", .live = XC_LIVE_SHARE,
	.word = "busy"),
    ROW("asleep_ns", ID(asleep_ns), XC_U64, W "asleep_seconds_total", "counter",
	"Seconds the worker slept in its idle wait (docs/idle.md).", .live = XC_LIVE_SHARE,
	.word = "asleep"),
    ROW("wakeups", ID(wakeups), XC_U64, W "wakeups_total", "counter",
	"Times the worker woke from its idle wait.", .live = XC_LIVE_DELTA),
    ROW("empty_wakeups", ID(empty_wakeups), XC_U64, W "empty_wakeups_total", "counter",
	"Wake-ups after which the next round found nothing.", .live = XC_LIVE_PAIR),
    ROW("lost_asleep", ID(lost_asleep), XC_U64, W "lost_asleep_total", "counter",
	"Frames the kernel dropped (RX ring full, no fill buffer) while the worker slept.",
	.live = XC_LIVE_MOVED),
};
const struct xc_family xc_idle = {.name = "idle",
				  .path = "workers[]",
				  .id = "worker",
				  .prefix = "xskf_worker",
				  .live_sep = " ",
				  ROWS(idle_rows)};

#define U     "xskf_umem_"
#define CE(m) offsetof(struct xc_census, m)
/* a place of the census: a sample of xskf_census_frames labelled place="KEY" */
#define PLACE(m)                                                                                   \
	ROW(#m, CE(c.m), XC_U64, "xskf_census_frames", "gauge",                                    \
	    "Frames of the worker's UMEM by where they are (frame census).", .label = "place")
static const struct xc_row census_rows[] = {
    ROW("hugepages", CE(hugepages), XC_BOOL, U "hugepages", "gauge",
	"1 when the worker's UMEM is on hugepages."),
    ROW("page_size", CE(page_size), XC_U64, U "page_bytes", "gauge",
	"Page size of the worker's UMEM."),
    ROW("umem_bytes", CE(umem_bytes), XC_U64, U "bytes", "gauge", "Bytes of the worker's UMEM."),
    ROW("umem_file", CE(umem_file), XC_BOOL, U "file", "gauge",
	"1 when the worker's UMEM is in a hugetlbfs file."),
    ROW("umem_node", CE(umem_node), XC_I64, U "numa_node", "gauge",
	"NUMA node of the worker's UMEM."),
    ROW("umem_pages_on_node", CE(umem_pages_on_node), XC_I64, U "pages_on_node", "gauge",
	"Pages of the worker's UMEM found on its node."),
    ROW("total", CE(c.total), XC_U64, U "frames", "gauge", "Frames of the worker's UMEM."),
    PLACE(cache),
    PLACE(fill_ring),
    PLACE(rx_ring),
    PLACE(rx_kernel),
    PLACE(tx_pending),
    PLACE(tx_ring),
    PLACE(comp_ring),
    PLACE(tx_kernel),
    ROW("ok", CE(ok), XC_BOOL, "xskf_census_worker_ok", "gauge",
	"1 when the worker's frame census adds up (every frame in one place)."),
};
const struct xc_family xc_census = {.name = "census",
				    .path = "census[]",
				    .id = "worker",
				    .prefix = "xskf_census",
				    ROWS(census_rows)};

/*
 * Steering's counters, per port (the sum over its queues) and per RX queue: one list, the
 * help of each level beside each other.
 */
#define STEER_ROWS(X)                                                                              \
	X(seen, "Frames the port's steering rules looked at (docs/steering.md).",                  \
	  "Frames steering looked at, by RX queue.")                                               \
	X(xsk, "Frames steering sent to an xskf socket.",                                          \
	  "Frames steering sent to the socket, by RX queue.")                                      \
	X(pass, "Frames steering passed to the kernel's stack.",                                   \
	  "Frames steering passed to the stack, by RX queue.")                                     \
	X(cpumap, "Frames steering sent to another CPU (cpumap).",                                 \
	  "Frames steering sent to a cpumap, by RX queue.")                                        \
	X(drop, "Frames steering dropped.", "Frames steering dropped, by RX queue.")

#define S "xskf_steering_"
#define STEER_PORT(k, help, qhelp)                                                                 \
	ROW(#k, offsetof(struct xskf_steer_stats, k), XC_U64, S #k "_total", "counter", help,      \
	    .live = XC_LIVE_TOTAL),
#define STEER_QUEUE(k, help, qhelp)                                                                \
	ROW(#k, offsetof(struct xskf_steer_stats, k), XC_U64, S "queue_" #k "_total", "counter",   \
	    qhelp),
static const struct xc_row steer_rows[] = {STEER_ROWS(STEER_PORT)};
static const struct xc_row steer_queue_rows[] = {STEER_ROWS(STEER_QUEUE)};
const struct xc_family xc_steer = {.name = "steering",
				   .path = "steering[]",
				   .id = "port",
				   .prefix = "xskf_steering",
				   .live_sep = "  ",
				   ROWS(steer_rows)};
const struct xc_family xc_steer_queue = {.name = "steering-queue",
					 .path = "steering[].queues[]",
					 .id = "queue",
					 .prefix = "xskf_steering_queue",
					 ROWS(steer_queue_rows)};

#define SI(m) offsetof(struct xskf_steer_info, m)
static const struct xc_row steer_rule_rows[] = {
    ROW("id", SI(id), XC_U32, NULL, NULL, NULL),
    ROW("pos", SI(pos), XC_U32, S "rule_pos", "gauge",
	"The rule's place in the port's list (0: first)."),
    ROW("rule", SI(text), XC_STR, NULL, NULL, NULL),
    ROW("hits", SI(hits), XC_U64, S "rule_hits_total", "counter",
	"Frames a steering rule matched (first match)."),
    ROW("keep_host", SI(keep_host), XC_BOOL, S "rule_keep_host", "gauge",
	"1 for the rules --keep-host added."),
};
const struct xc_family xc_steer_rule = {.name = "steering-rule",
					.path = "steering[].rules[]",
					.prefix = "xskf_steering_rule",
					ROWS(steer_rule_rows)};

static const struct xc_row mem_rows[] = {
    ROW("frames", offsetof(struct xc_mem, frames), XC_U64, "xskf_memory_backend_frames_total",
	"counter", "Frames the memory backend has made for the worker."),
    ROW("busy_ns", offsetof(struct xc_mem, busy_ns), XC_U64,
	"xskf_memory_backend_busy_seconds_total", "counter",
	"Seconds the worker spent on frames (memory backend)."),
};
const struct xc_family xc_mem = {.name = "memory-backend",
				 .path = "memory_backend[]",
				 .id = "worker",
				 .prefix = "xskf_memory_backend",
				 ROWS(mem_rows)};

const struct xc_queue_row xc_queue[XC_NR_QUEUE] = {
#define QROW(field, obj, key, src, type, help)                                                     \
	[XQ_##field] = {#obj, #key, #type, help, offsetof(struct xskf_queue_stats, field)},
    XSKF_QUEUE_COUNTERS(QROW, XSKF_COUNTER_SKIP)
#undef QROW
};

/*
 * The queue view: a row per queue counter shown, in the order of the live line's values (the
 * rates come first, in the same order); top's columns say their place themselves. The per-queue
 * line has the values of XC_QL_QUEUE, the total line those of XC_QL_TOTAL (sums over queues).
 */
#define QV(f, ...) {.row = XQ_##f, __VA_ARGS__}
#define TRAFFIC(c, w, h) .top = XC_TOP_TRAFFIC, .col = c, .width = w, .head = h
#define DROPS(c, w, h)	 .top = XC_TOP_DROPS, .col = c, .width = w, .head = h
/* a value added to the row before's, on its lines */
#define PLUS .plus = true
const struct xc_qview xc_qview[] = {
    QV(rx_packets, .rate = "rx", .total = "rx_total", .lines = XC_QL_BOTH,
       TRAFFIC(0, 12, "RX_PPS")),
    QV(rx_bytes, TRAFFIC(1, 14, "RX_BYTES/S")),
    QV(tx_packets, .rate = "tx", .total = "tx_total", .lines = XC_QL_TOTAL,
       TRAFFIC(2, 12, "TX_PPS")),
    QV(tx_bytes, TRAFFIC(3, 14, "TX_BYTES/S")),
    QV(drop_app, DROPS(0, 9, "APP")),
    /* the kernel's drops before the sockets */
    QV(k_rx_dropped, .total = "kernel_drop", .lines = XC_QL_BOTH, DROPS(4, 10, "K_RX_DROP")),
    QV(k_rx_ring_full, PLUS, DROPS(5, 10, "K_RING_FUL")),
    QV(k_rx_fill_ring_empty_descs, DROPS(6, 11, "K_FILL_EMPT")),
    /* xskf's own drops after the app's verdict (not the app's: drop_app) */
    QV(drop_no_port, .total = "drop", .lines = XC_QL_TOTAL, DROPS(1, 9, "NO_PORT")),
    QV(drop_too_long, PLUS, DROPS(2, 9, "TOO_LONG")),
    QV(drop_tx_full, PLUS, DROPS(3, 9, "TX_FULL")),
    QV(drop_chain_long, PLUS),
    QV(drop_chain_open, PLUS),
    QV(drop_chain_tx, PLUS),
    /* at the end, and only once a frame had one: the common case's lines stay as they were */
    QV(csum_unfinished, .total = "csum_unfinished", .lines = XC_QL_BOTH, .when = XC_Q_CSUM),
    QV(csum_repaired, .total = "csum_repaired", .lines = XC_QL_BOTH, .when = XC_Q_REPAIR),
};
const unsigned int xc_nr_qview = sizeof(xc_qview) / sizeof(xc_qview[0]);

static uint64_t qval(const struct xc_qview *v, const struct xskf_queue_stats *s)
{
	uint64_t x;

	memcpy(&x, (const char *)s + xc_queue[v->row].off, sizeof(x));
	return x;
}

/* "  1.23 Mpps": a rate in the live line's width */
static void fmt_rate(char *buf, size_t len, double pps)
{
	if (pps >= 1e6)
		snprintf(buf, len, "%6.2f Mpps", pps / 1e6);
	else if (pps >= 1e3)
		snprintf(buf, len, "%6.1f Kpps", pps / 1e3);
	else
		snprintf(buf, len, "%6.0f  pps", pps);
}

/* The value of the word of row @i (its own and the plus rows' after it); *@next: the row after. */
static uint64_t qword_at(const struct xskf_queue_stats *s, unsigned int i, unsigned int *next)
{
	uint64_t sum = qval(&xc_qview[i], s);
	unsigned int k;

	for (k = i + 1; k < xc_nr_qview && xc_qview[k].plus; k++)
		sum += qval(&xc_qview[k], s);
	*next = k;
	return sum;
}

uint64_t xc_qword(const struct xskf_queue_stats *s, const char *word)
{
	unsigned int i, k;

	for (i = 0; i < xc_nr_qview; i = k) {
		uint64_t v = qword_at(s, i, &k);

		if (xc_qview[i].total && !strcmp(xc_qview[i].total, word))
			return v;
	}
	return 0;
}

void xc_qlive(FILE *f, const struct xskf_queue_stats *now, const struct xskf_queue_stats *before,
	      double secs, unsigned int line, bool repair)
{
	unsigned int i, k;
	char b[32];

	for (i = 0; i < xc_nr_qview; i++) {
		const struct xc_qview *v = &xc_qview[i];

		if (!v->rate)
			continue;
		fmt_rate(b, sizeof(b), (double)(qval(v, now) - qval(v, before)) / secs);
		fprintf(f, "  %s %s", v->rate, b);
	}
	for (i = 0; i < xc_nr_qview; i = k) {
		const struct xc_qview *v = &xc_qview[i];
		uint64_t sum = qword_at(now, i, &k);

		if (!v->total || !(v->lines & line) || (v->when == XC_Q_CSUM && !sum && !repair) ||
		    (v->when == XC_Q_REPAIR && !repair))
			continue;
		fprintf(f, "  %s %llu", v->total, (unsigned long long)sum);
	}
}

const struct xc_qview *xc_top_col(unsigned int top, unsigned int col)
{
	for (unsigned int i = 0; i < xc_nr_qview; i++)
		if (xc_qview[i].top == top && xc_qview[i].col == col)
			return &xc_qview[i];
	return NULL;
}

const struct xc_family *const xc_families[] = {
    &xc_idle, &xc_census, &xc_steer, &xc_steer_queue, &xc_steer_rule, &xc_mem, NULL,
};

const struct xc_row *xc_find(const struct xc_family *fam, const char *key)
{
	for (unsigned int i = 0; fam && i < fam->nr; i++)
		if (!strcmp(fam->rows[i].key, key))
			return &fam->rows[i];
	return NULL;
}

uint64_t xc_value(const struct xc_row *r, const void *s)
{
	const char *p = (const char *)s + r->off;
	unsigned int u;
	uint64_t v;
	int64_t i;
	bool b;

	switch (r->kind) {
	case XC_U64:
		memcpy(&v, p, sizeof(v));
		return v;
	case XC_U32:
		memcpy(&u, p, sizeof(u));
		return u;
	case XC_I64:
		memcpy(&i, p, sizeof(i));
		return (uint64_t)i;
	case XC_BOOL:
		memcpy(&b, p, sizeof(b));
		return b;
	default:
		return 0;
	}
}

void xc_json(struct xjw *w, const struct xc_family *fam, const void *s)
{
	for (unsigned int i = 0; i < fam->nr; i++) {
		const struct xc_row *r = &fam->rows[i];

		switch (r->kind) {
		case XC_I64:
			xjw_i64(w, r->key, (int64_t)xc_value(r, s));
			break;
		case XC_BOOL:
			xjw_bool(w, r->key, xc_value(r, s));
			break;
		case XC_STR:
			xjw_str(w, r->key, (const char *)s + r->off);
			break;
		default:
			xjw_u64(w, r->key, xc_value(r, s));
		}
	}
}

/* The sum of what the SHARE rows of @fam grew by. */
static uint64_t share_sum(const struct xc_family *fam, const void *now, const void *before)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < fam->nr; i++)
		if (fam->rows[i].live == XC_LIVE_SHARE)
			sum += xc_value(&fam->rows[i], now) - xc_value(&fam->rows[i], before);
	return sum;
}

void xc_live(FILE *f, const struct xc_family *fam, const void *now, const void *before)
{
	uint64_t sum = before ? share_sum(fam, now, before) : 0;

	for (unsigned int i = 0; i < fam->nr; i++) {
		const struct xc_row *r = &fam->rows[i];
		uint64_t v = xc_value(r, now), d = before ? v - xc_value(r, before) : v;
		const char *word = r->word ? r->word : r->key;

		switch (r->live) {
		case XC_LIVE_SHARE:
			fprintf(f, "%s%s %.0f%%", fam->live_sep, word,
				sum ? 100.0 * (double)d / (double)sum : 0.0);
			break;
		case XC_LIVE_PAIR:
			fprintf(f, "/%llu", (unsigned long long)d);
			break;
		case XC_LIVE_MOVED:
			if (!d)
				break;
			/* fall through */
		case XC_LIVE_DELTA:
			fprintf(f, "%s%s %llu", fam->live_sep, word, (unsigned long long)d);
			break;
		case XC_LIVE_TOTAL:
			fprintf(f, "%s%s %llu", fam->live_sep, word, (unsigned long long)v);
			break;
		default:
			break;
		}
	}
}
