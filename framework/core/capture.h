/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Live capture, the core's half (capture.c): a bounded ring per worker, one writer (the
 * worker) and one reader (the control thread), into which the worker copies the frames a
 * capture asks for. A full ring counts a drop and never makes the worker wait. The runner's
 * half (runner/capture.c) turns the records into pcapng for xskfctl.
 *
 * Off, a capture costs the worker nothing: the control thread switches it on by publishing
 * the capture twin of each socket's burst function (burst.c), whose xskf_capture__burst()
 * wraps the app's rx_burst: a copy of the RX frames before it, of the frames it sends
 * (XSKF_TX, XSKF_FWD) after it.
 */
#ifndef XSKF_CAPTURE_H
#define XSKF_CAPTURE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "xskf.h"
#include "core/compiler.h"

struct xskf_engine;
struct xskf_sock;
struct xskf_worker;

#define XSKF_CAP_SLOTS 1024 /* records per worker's ring: a power of two */
#define XSKF_CAP_DATA 4096  /* bytes of a frame a record holds at most (the largest frame) */

enum { XSKF_CAP_RX = 1, XSKF_CAP_TX = 2 };

/* What a capture takes: frames of one port (-1: all) and queue (-1: all), in @dirs. */
struct xskf_cap_filter {
	int port;
	int queue;
	unsigned int dirs;    /* XSKF_CAP_RX | XSKF_CAP_TX */
	uint32_t snaplen;     /* bytes kept of each frame, 1 to 65535 (at most XSKF_CAP_DATA) */
};

/* One captured frame. */
struct xskf_cap_rec {
	uint64_t ts_ns;       /* CLOCK_MONOTONIC, when the worker copied it */
	uint32_t gen;         /* the capture it belongs to */
	uint32_t orig_len, cap_len;
	uint16_t sock;        /* index of the socket it came in on or goes out of */
	uint8_t dir;          /* XSKF_CAP_RX or XSKF_CAP_TX */
	uint8_t hint_src;     /* XSKF_SRC_* of rx_hash (RX with hints: the program's) */
	uint32_t rx_hash, ptype;
	uint16_t hash_type;
	bool hints;           /* the RX hints were there (rx_hash, ptype, hash_type valid) */
	uint8_t data[XSKF_CAP_DATA];
};

/* A worker's ring: written by the worker (tail, drops), read by the control thread (head). */
struct xskf_cap_ring {
	struct xskf_cap_filter f; /* set by the control thread while the ring is unpublished */
	uint32_t gen;
	atomic_int busy;          /* the worker is inside xskf_capture__burst() with this ring */
	_Alignas(XSKF_CACHE_LINE) atomic_uint head;
	_Alignas(XSKF_CACHE_LINE) atomic_uint tail;
	atomic_ullong drops;      /* frames that matched when the ring was full */
	struct xskf_cap_rec rec[XSKF_CAP_SLOTS];
};

/*
 * The worker's side: copy the frames of @pkts[0..n) that the published capture asks for
 * around the app's @rx_cb. Thread: worker (the capture twins of the burst functions, burst.c).
 */
void xskf_capture__burst(struct xskf_worker *w, struct xskf_sock *s, struct xskf_pkt *pkts,
			 unsigned int n, void (*rx_cb)(void *, struct xskf_pkt *, unsigned int),
			 void *wctx);

/*
 * Start a capture on every worker with filter @f: the rings are made at the first capture
 * (freed by xskf_capture__free()), emptied, and published. Returns 0, -ENOMEM, or -EINVAL
 * (@f out of range). Thread: control thread, with no capture running.
 */
int xskf_capture__start(struct xskf_engine *eng, const struct xskf_cap_filter *f);

/* Stop it: unpublished, and no worker still writing when it returns. Thread: control. */
void xskf_capture__stop(struct xskf_engine *eng);

/*
 * The next record of worker @w's ring for the running capture, or NULL when there is none;
 * xskf_capture__next() releases it. Thread: control thread.
 */
const struct xskf_cap_rec *xskf_capture__peek(struct xskf_engine *eng, unsigned int w);
void xskf_capture__next(struct xskf_engine *eng, unsigned int w);

/* Frames dropped (a ring full) by all workers since the capture started. Thread: control. */
uint64_t xskf_capture__drops(const struct xskf_engine *eng);

/* Free the rings; the workers are joined. Thread: control thread (engine destroy). */
void xskf_capture__free(struct xskf_engine *eng);

#endif /* XSKF_CAPTURE_H */
