/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The counter families beside the queue's (util/: linked into the runner and xskfctl): a
 * worker's idle accounting, its UMEM and frame census, steering's counters (per port, per RX
 * queue, per rule) and the memory backend's. Each family is one table, a row per member of
 * the stats document's objects of that kind (path); from the rows come
 *   - the stats document (`--json`, `xskfctl stats`): xc_json() writes the row's members, in
 *     the rows' order, from the family's struct at each row's offset;
 *   - Prometheus (`xskfctl metrics`): the row's family, type and help;
 *   - the live lines: the rows with a live style, in their order (xc_live());
 *   - the counter tables of docs/operations.md, which tests `counter-docs-FAMILY` hold to
 *     the rows (tests/unit/counter_rows.c prints them); test `ops-metrics` holds every row
 *     to one run's document and metrics (tests/integration/tables_check.py), `json-write` to
 *     what xc_json() writes.
 * The queue counters have theirs in include/xskf_counters.h (public: struct xskf_queue_stats
 * is made from it), turned into xc_queue[] here: where the document and the struct hold each.
 * How the ones shown are shown is a row each of the queue view (xc_qview[]): their words in
 * the live lines (xc_qlive()) and their columns in `xskfctl top` (xc_top_col()).
 *
 * Adding a counter: its member in the family's struct, its row here (counters.c), its row in
 * docs/operations.md. Tables and functions: control path only (the worker counts into its
 * own structs; the rows are read after).
 */
#ifndef XSKF_UTIL_COUNTERS_H
#define XSKF_UTIL_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <xskf_counters.h>
#include <xskf_engine.h>

#include "json.h"

/* How a row's value is stored in its family's struct. */
enum xc_kind {
	XC_U64,	 /* uint64_t */
	XC_U32,	 /* unsigned int */
	XC_I64,	 /* int64_t */
	XC_BOOL, /* bool: true/false in the document, 1/0 in Prometheus */
	XC_STR,	 /* char[]: a label in Prometheus (the rule's text), never a sample */
};

/* A row's place in the live line (xc_live()), over the last interval unless TOTAL. */
enum xc_live {
	XC_LIVE_NONE,
	XC_LIVE_SHARE, /* " WORD 97%": its share of the SHARE rows' sum (a worker's time) */
	XC_LIVE_DELTA, /* " WORD 12": what it grew by */
	XC_LIVE_PAIR,  /* "/2": what it grew by, after the row before's (wakeups 12/2) */
	XC_LIVE_MOVED, /* " WORD 12" only when it grew: the common case's line stays as it was */
	XC_LIVE_TOTAL, /* " WORD 12": its value */
};

struct xc_row {
	const char *key; /* its member in the stats document */
	size_t off;	 /* of its value in the family's struct */
	enum xc_kind kind;
	/* Prometheus: the family (NULL: not a sample, a label of the object), its TYPE, HELP */
	const char *prom, *type, *help;
	const char *label; /* not NULL: a sample of prom labelled LABEL="KEY" (census places) */
	enum xc_live live; /* its place in the live line */
	const char *word;  /* its word there (NULL: the key) */
};

struct xc_family {
	const char *name;     /* counter_rows FAMILY, docs/operations.md's FAMILY-counters table */
	const char *path;     /* the document's path of its objects: "workers[]" */
	const char *id;	      /* their member that names them (a label), NULL: none */
	const char *prefix;   /* Prometheus: a key no row has gives the untyped PREFIX_KEY */
	const char *live_sep; /* before each word of the live line (" " or "  ") */
	const struct xc_row *rows;
	unsigned int nr;
};

/* What census[] says of one worker: its UMEM (the runner's view) and its frame census. */
struct xc_census {
	bool hugepages, umem_file;
	uint64_t page_size, umem_bytes;
	int64_t umem_node, umem_pages_on_node;
	struct xskf_frame_census c;
	bool ok; /* xskf_engine__census() said they add up */
};

/* What memory_backend[] says of one worker (backend/mem_backend.c). */
struct xc_mem {
	uint64_t frames;  /* --mem-frames: the frames it makes for each of its ports */
	uint64_t busy_ns; /* the time it took for them (0: not finished) */
};

extern const struct xc_family xc_idle;	      /* workers[]: struct xskf_idle_stats */
extern const struct xc_family xc_census;      /* census[]: struct xc_census */
extern const struct xc_family xc_steer;	      /* steering[]: struct xskf_steer_stats */
extern const struct xc_family xc_steer_queue; /* steering[].queues[]: the same */
extern const struct xc_family xc_steer_rule;  /* steering[].rules[]: struct xskf_steer_info */
extern const struct xc_family xc_mem;	      /* memory_backend[]: struct xc_mem */
/* Every family above, NULL-terminated. */
extern const struct xc_family *const xc_families[];

/*
 * The queue counters (include/xskf_counters.h's rows) as the stats document names them and
 * struct xskf_queue_stats holds them: xc_queue[XQ_FIELD] is FIELD's row.
 */
struct xc_queue_row {
	const char *obj, *key;	 /* queues[].OBJ.KEY, or queues[].KEY for OBJ "" */
	const char *type, *help; /* Prometheus */
	size_t off;		 /* of its uint64_t in struct xskf_queue_stats */
};
enum {
#define XQ_INDEX(field, obj, key, src, type, help) XQ_##field,
	XSKF_QUEUE_COUNTERS(XQ_INDEX, XSKF_COUNTER_SKIP)
#undef XQ_INDEX
	XC_NR_QUEUE
};
extern const struct xc_queue_row xc_queue[XC_NR_QUEUE];

/* The live lines a queue counter's value is on (xc_qlive()'s @line). */
enum { XC_QL_QUEUE = 1, XC_QL_TOTAL = 2, XC_QL_BOTH = 3 };
/* When a value shows: always, when it is not 0 or --csum-repair is on, with --csum-repair. */
enum xc_qwhen { XC_Q_ALWAYS, XC_Q_CSUM, XC_Q_REPAIR };
/* The tables of `xskfctl top`: rates per queue, drops per second per queue. */
enum { XC_TOP_NONE, XC_TOP_TRAFFIC, XC_TOP_DROPS };

/* How one queue counter shows: a row of the queue view. */
struct xc_qview {
	unsigned int row; /* XQ_FIELD: the counter */
	/* live: the word of its rate over the interval ("  rx  1.23 Mpps"), NULL: none */
	const char *rate;
	/* live: the word of its value ("  rx_total 12"), NULL: none; plus: the value is added to
	 * the word of the row before (kernel_drop, drop: sums of several counters) */
	const char *total;
	bool plus;
	unsigned int lines; /* XC_QL_*: the lines its value is on */
	enum xc_qwhen when;
	/* top: its column (a rate) of table top, col-th from the left, under head */
	unsigned int top, col;
	int width;
	const char *head;
};

/*
 * The live words of the queue counters from @now against @before (an interval of @secs ago):
 * the rates, then the values of the rows on @line (XC_QL_QUEUE or XC_QL_TOTAL), each after two
 * spaces; @repair: --csum-repair is on.
 */
void xc_qlive(FILE *f, const struct xskf_queue_stats *now, const struct xskf_queue_stats *before,
	      double secs, unsigned int line, bool repair);
/* The value of live word @word (a queue view's total: "drop") in @s, or 0 when none has it. */
uint64_t xc_qword(const struct xskf_queue_stats *s, const char *word);
/* Column @col (0 ..) of `xskfctl top`'s table @top (XC_TOP_*), or NULL past its last. */
const struct xc_qview *xc_top_col(unsigned int top, unsigned int col);
/* Every row of the queue view, for the docs check (counter_rows live). */
extern const struct xc_qview xc_qview[];
extern const unsigned int xc_nr_qview;

/* The row of @fam with member @key, or NULL. */
const struct xc_row *xc_find(const struct xc_family *fam, const char *key);
/* Row @r's value in @s (a struct of its family) as a whole number (XC_STR: 0). */
uint64_t xc_value(const struct xc_row *r, const void *s);
/* Every row of @fam as a member of the object open in @w, from @s. */
void xc_json(struct xjw *w, const struct xc_family *fam, const void *s);
/*
 * The live words of @fam's rows from @now against @before (the same struct an interval ago;
 * NULL: only TOTAL rows make sense), each after the family's live_sep.
 */
void xc_live(FILE *f, const struct xc_family *fam, const void *now, const void *before);

#endif /* XSKF_UTIL_COUNTERS_H */
