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
